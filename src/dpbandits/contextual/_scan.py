"""The engine's chunk scan for the paper's bound (26)-(28), compiled (every preset but
``authors_code``; the engine is :mod:`dpbandits.contextual.ldpmab`).

Between two decisions the policy is fixed, so the engine looks through a chunk of L future
batches for the first batch with an elimination or a refinement. On a dataset the chunk's
statistics are drawn at once and :func:`paper_scan` walks them batch by batch; on a synthetic
instance :func:`mass_scan` draws each batch's statistics in the loop, so nothing is drawn after
the first event. Both stop at that batch: per batch i and active bin, for the source s being fed,

* cumulative sums t_s = t + B (i + 1), SU_s = SU + sum_{j <= i} (U_j + noise), SV_s likewise;
* per source, lambda = min(|eps^2 SU / t|, 1) once t >= W (1 without privacy), and the terms
  lambda SV, lambda SU, lambda^2 max(sigma_p^2 t / eps^2, sigma_np^2 SU) (non-private:
  sigma_np^2 max(SU, 0)); the other sources' terms are fixed during the chunk;
* (26) f~ = sum lambda SV / sum lambda SU and (28) r = sqrt(C_n sum lambda^2 max(.)) / sum lambda SU,
  f~ = 0 and r = +inf when the denominator is <= 0 (guard A4/A5);
* elimination (16)/(29): k is removed when some active k' has f~_k' - rad_k' > f~_k + rad_k, with
  rad = 2r (``band`` 0), r (1) or max(r, tau_s) (2);
* refinement (17) on the arms left after (``post``) or before the eliminations: never (0), when
  some arm has r < tau_s (1), or when every arm has (2); only below the depth cap.

:func:`paper_scan` returns exactly what the numpy formulation computed (the same operations in
the same order; tested bit for bit), without computing the batches after the first event, whose
draws the engine discards. :func:`mass_scan` makes the same decisions from statistics of the
same law as ``MassFeeder.draw`` and the engine's chunk noise, drawn with faster exact samplers
(tested against that numpy path in distribution, and against the per-user reference; its
Laplace-sum sampler, :func:`laplace_sums`, is check U-PRIV-3's too).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.contextual._exact import np_maximum, np_minimum

__all__ = ["PER_USER", "laplace_sums", "mass_scan", "paper_scan"]

# mass_scan draws a bin's users one by one when they are at most PER_USER x (2K - 1), the number of
# binomial draws the successive-binomial form takes (two uniforms per user cost about what a
# fifth to a quarter of a binomial draw costs with numba's sampler)
PER_USER = 4


@njit(cache=True, error_model="numpy")
def paper_scan(counts, vsum, noise_u, noise_v, active, t0, su0, sv0, s, others_num, others_den, others_var,
               eps2, warmup, private, var_p, var_np, batch, c_n, tau_s, depth_ok, band, refine_post,
               refine_rule, t, su, sv, est, r, elim, refine):
    """Scan the chunk (module docstring): ``counts``, ``vsum`` (L, bins, K) users and reward sums
    per batch, bin and arm (inactive arms are ignored), ``noise_u``, ``noise_v`` their Laplace
    noise (zeros without privacy); the bins' active sets, statistics t0 (bins, S), su0, sv0
    (bins, S, K) and the source s being fed; the other sources' summed terms of (26)-(28).
    Writes the state of the stopping batch: t, su, sv, the estimate est and radius r (bins, K),
    and its decisions elim (bins, K), refine (bins,). Returns (index of the first batch with an
    event or L - 1, event?)."""
    n_batches, nb, k = counts.shape
    cum_u = np.zeros((nb, k))
    cum_v = np.zeros((nb, k))
    for i in range(n_batches):
        if _scan_batch(i, counts[i], vsum[i], noise_u[i], noise_v[i], cum_u, cum_v, active, t0, su0, sv0, s,
                       others_num, others_den, others_var, eps2, warmup, private, var_p, var_np, batch, c_n,
                       tau_s, depth_ok, band, refine_post, refine_rule, t, su, sv, est, r, elim, refine):
            return i, True
    return n_batches - 1, False


@njit(cache=True, error_model="numpy")
def mass_scan(n_in_bin, split, rew, faithful, scale, arms_rng, rewards_rng, noise_rng, active, t0, su0, sv0, s,
              others_num, others_den, others_var, eps2, warmup, private, var_p, var_np, batch, c_n, tau_s,
              depth_ok, band, refine_post, refine_rule, t, su, sv, est, r, elim, refine):
    """The chunk of a synthetic instance (``ldpmab.MassFeeder``), drawn batch by batch and
    scanned as :func:`paper_scan` scans it, stopping at the first batch with an event: nothing
    is drawn for the batches after it. Per batch i and bin b, with ``n_in_bin[i, b]`` users
    (L, bins), ``split[j, b]`` = P(arm j | not an earlier arm) (K - 1, bins) and ``rew[b, j]`` =
    E[f_j | bin] of the source:

    * the arm counts are Multinomial(users, arm probabilities) and each arm's reward sum
      Binomial(count, rew): in a bin with few users (at most :data:`PER_USER` x (2K - 1)) user by
      user (a uniform for the arm, from stream ``arms``, and one for the reward, from stream
      ``rewards``), else by successive binomials (the arm counts, then the reward sums);
    * with privacy, the Laplace noise on U and V of every arm, a sum of m Lap(``scale``) draws
      (m = B, ``faithful``: every user reports to every active bin; or the bin's users), drawn
      exactly as scale sqrt(2G) Z with G ~ Gamma(m, 1) and Z standard normal (a Laplace variable
      is a normal one with variance 2 b^2 E, E ~ Exp(1), so a sum of m of them is normal given
      the Gamma(m, 1) sum of the E's; stream ``noise``).

    Other arguments and the outputs are paper_scan's."""
    n_batches, nb = n_in_bin.shape
    k = active.shape[1]
    counts = np.zeros((nb, k), np.int64)
    vsum = np.zeros((nb, k), np.int64)
    noise_u = np.zeros((nb, k))
    noise_v = np.zeros((nb, k))
    cum_u = np.zeros((nb, k))
    cum_v = np.zeros((nb, k))
    cum_p = np.zeros((nb, k))  # P(arm <= j) from the successive conditional probabilities
    for b in range(nb):
        left, acc = 1.0, 0.0
        for j in range(k - 1):
            acc += split[j, b] * left
            left *= 1.0 - split[j, b]
            cum_p[b, j] = acc
        cum_p[b, k - 1] = 1.0
    small = PER_USER * (2 * k - 1)
    for i in range(n_batches):
        for b in range(nb):
            n = n_in_bin[i, b]
            if n <= small:
                for j in range(k):
                    counts[b, j] = 0
                    vsum[b, j] = 0
                for _ in range(n):
                    x = arms_rng.random()
                    j = 0
                    while j < k - 1 and x >= cum_p[b, j]:
                        j += 1
                    counts[b, j] += 1
                    if rewards_rng.random() < rew[b, j]:
                        vsum[b, j] += 1
            else:
                rem = n
                for j in range(k - 1):
                    counts[b, j] = arms_rng.binomial(rem, split[j, b]) if rem > 0 and split[j, b] > 0 else 0
                    rem -= counts[b, j]
                counts[b, k - 1] = rem
                for j in range(k):
                    vsum[b, j] = rewards_rng.binomial(counts[b, j], rew[b, j]) if counts[b, j] > 0 else 0
            if private:
                m = float(batch) if faithful else float(n)
                for j in range(k):
                    noise_u[b, j] = _laplace_sum(noise_rng, m, scale)
                    noise_v[b, j] = _laplace_sum(noise_rng, m, scale)
        if _scan_batch(i, counts, vsum, noise_u, noise_v, cum_u, cum_v, active, t0, su0, sv0, s, others_num,
                       others_den, others_var, eps2, warmup, private, var_p, var_np, batch, c_n, tau_s, depth_ok,
                       band, refine_post, refine_rule, t, su, sv, est, r, elim, refine):
            return i, True
    return n_batches - 1, False


@njit(cache=True)
def _laplace_sum(rng, m, scale):
    """The sum of m i.i.d. Lap(scale) draws (0 for m = 0), exactly, as scale sqrt(2G) Z with
    G ~ Gamma(m, 1) and Z standard normal: one Gamma and one normal draw."""
    if m <= 0:
        return 0.0
    return scale * math.sqrt(2.0 * rng.standard_gamma(m)) * rng.standard_normal()


@njit(cache=True)
def laplace_sums(rng, m, scale, n):
    """n draws of :func:`mass_scan`'s Laplace-sum sampler (the sum of m Lap(scale) draws), for its
    checks (U-PRIV-3)."""
    out = np.empty(n)
    for i in range(n):
        out[i] = _laplace_sum(rng, m, scale)
    return out


@njit(cache=True, error_model="numpy")
def _scan_batch(i, counts, vsum, noise_u, noise_v, cum_u, cum_v, active, t0, su0, sv0, s, others_num, others_den,
                others_var, eps2, warmup, private, var_p, var_np, batch, c_n, tau_s, depth_ok, band, refine_post,
                refine_rule, t, su, sv, est, r, elim, refine):
    """Batch i of a chunk: its statistics (bins, K) added to the running sums cum_u, cum_v, the
    state and decisions written as paper_scan describes; returns whether it has an event."""
    nb, k = active.shape
    event = False
    for b in range(nb):
        t[b] = t0[b, s] + batch * (i + 1)
        tt = t[b]
        for j in range(k):
            cum_u[b, j] = cum_u[b, j] + ((counts[b, j] if active[b, j] else 0) + noise_u[b, j])
            cum_v[b, j] = cum_v[b, j] + ((vsum[b, j] if active[b, j] else 0.0) + noise_v[b, j])
            su[b, j] = su0[b, s, j] + cum_u[b, j]
            sv[b, j] = sv0[b, s, j] + cum_v[b, j]
            if private:
                lam = np_minimum(abs(eps2 * su[b, j] / (tt if tt > 0 else 1.0)), 1.0) if tt >= warmup else 0.0
                v = np_maximum(var_p * tt / eps2, var_np * su[b, j])
            else:
                lam = 1.0 if tt >= warmup else 0.0
                v = var_np * np_maximum(su[b, j], 0.0)
            num = others_num[b, j] + lam * sv[b, j]
            den = others_den[b, j] + lam * su[b, j]
            var = others_var[b, j] + lam * lam * v
            est[b, j] = num / den if den > 0 else 0.0
            r[b, j] = math.sqrt(c_n * var) / den if den > 0 else np.inf
        best_lcb = -np.inf
        for j in range(k):
            best_lcb = np_maximum(best_lcb, est[b, j] - _rad(r[b, j], tau_s[b], band) if active[b, j] else -np.inf)
        some, every, left = False, True, False
        for j in range(k):
            elim[b, j] = active[b, j] and best_lcb > est[b, j] + _rad(r[b, j], tau_s[b], band)
            arm = active[b, j] and not (refine_post and elim[b, j])
            small = r[b, j] < tau_s[b]
            some = some or (arm and small)
            every = every and (small or not arm)
            left = left or arm
            event = event or elim[b, j]
        refine[b] = depth_ok[b] and (some if refine_rule == 1 else (every and left) if refine_rule == 2 else False)
        event = event or refine[b]
    return event


@njit(cache=True, inline="always")
def _rad(r, tau_s, band):
    """The elimination band: 2r (16)/(29), r, or max(r, tau_s) (the calibrated presets)."""
    if band == 0:
        return 2.0 * r
    if band == 1:
        return r
    return np_maximum(r, tau_s)
