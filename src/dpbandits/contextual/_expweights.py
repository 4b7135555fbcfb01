"""The target phase of the ``authors_code`` preset on a synthetic instance, compiled (spec
``ldp_contextual.md`` 2.8 and A11-A13; the engine is :mod:`dpbandits.contextual.ldpmab`).

The preset's arm choice, the authors' exponential weights (A11), changes after every batch, so
the engine's chunked scan does not apply and each batch of B target users is simulated on its
own. :func:`target_batches` runs these batches in one compiled loop until the first batch with an
elimination or a refinement (the engine applies the event in Python) or the end of a window of
batches. It returns exactly what the engine's per-batch numpy path computed: the same random
draws from the same generators in the same order (numba's ``numpy.random.Generator`` methods
run numpy's algorithms on the shared bit generator; tested bit for bit) and the same arithmetic
in the same order (:mod:`dpbandits.contextual._exact`; no fused multiply-add).

One batch, over the active (non-frozen) bins and the K arms:

1. policy: exponential weights over the bin's active arms (A11; uniform in the root bin, whose
   scores the code reads from an empty child);
2. regret, eq. (1): frozen_rate + sum_bins B P(bin) sum_k p_k E[f* - f_k | bin];
3. draws: the bin's users' arm counts by successive binomials (stream ``arms``), reward sums
   Binomial(count, E[f_k | bin]) (``rewards``), and the code's in-bin Laplace noise (A12) on U
   and V, each a Gamma difference with shape = the bin's user count (``noise``: the two Gamma
   arrays of U, then those of V, each over bins x arms);
4. statistics: t += B, SU += U + noise, SV += V + noise, and the code's sum-of-cumulative-sums
   bound (A13): lambda = min(1, eps^2 SU / t) once t > W, E_V += lambda SV, E_U += lambda SU,
   B_V += lambda^2 max(SU, t / eps^2); with the other sources' sums added,
   f~ = clip(E_V / (E_U + 1e-4), 0, 1) and r = sqrt(B_V + 1e-4) / |E_U| sqrt(C_n);
5. decisions (16)-(17), once t >= W: eliminate arm k when some active arm k' has
   f~_k' - rad_k' > f~_k + rad_k, rad = max(r, tau_s); refine when every active arm has
   r < tau_s and the depth is below s_max (the code's pre-elimination active set). The bins past
   warm-up commit their estimates.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.contextual._exact import np_maximum, np_minimum, pairwise_sum

__all__ = ["target_batches", "expweights_policy", "update_and_decide"]


@njit(cache=True, error_model="numpy")
def expweights_policy(est, active, depth, p):
    """The code's arm distribution per bin (``ldpmab.expweights_probabilities``: weights
    exp(f~_k log(1.2 K / |A|) / (range + 1e-4)) over the active arms, uniform when the range of
    their estimates is < 0.01) and uniform in the root bin: p (bins, K)."""
    nb, k = active.shape
    for b in range(nb):
        n_act = 0
        hi, lo = -np.inf, np.inf
        for j in range(k):
            if active[b, j]:
                n_act += 1
                hi = np_maximum(hi, est[b, j])
                lo = np_minimum(lo, est[b, j])
        spread = hi - lo
        if depth[b] == 0 or spread < 0.01:
            for j in range(k):
                p[b, j] = (1.0 if active[b, j] else 0.0) / n_act
            continue
        slope = math.log(1.2 * k / n_act)
        top = -np.inf
        for j in range(k):
            p[b, j] = est[b, j] * slope / (spread + 1e-4) if active[b, j] else -np.inf
            if active[b, j]:
                top = np_maximum(top, p[b, j])
        for j in range(k):
            p[b, j] = math.exp(p[b, j] - top) if active[b, j] else 0.0
        total = pairwise_sum(p[b], 0, k)
        for j in range(k):
            p[b, j] = p[b, j] / total


@njit(cache=True, error_model="numpy")
def _clip(v, lo, hi):
    """np.clip of a float: a NaN passes, -0.0 stays."""
    return lo if v < lo else (hi if v > hi else v)


@njit(cache=True, error_model="numpy")
def update_and_decide(counts, vsum, gamma, active, est, t, su, sv, ev, eu, bv, s, others_ev, others_eu, others_bv,
                       tau_s, depth_ok, batch, eps2, scale, warmup, sqrt_cn, f, elim, refine, r, allowed):
    """Steps 4-5 of one batch (module docstring) from its arm counts and reward sums per bin and
    arm and its four Gamma arrays (noise of U, then of V): updates the statistics in place, writes
    the decisions, the radius and ``allowed``, commits the estimates of the bins past warm-up;
    returns whether the batch has an event."""
    nb, k = active.shape
    event = False
    for b in range(nb):
        t[b, s] = t[b, s] + batch
        tt = t[b, s]
        allowed[b] = tt >= warmup
        for j in range(k):
            u = float(counts[b, j]) if active[b, j] else 0.0
            v = float(vsum[b, j]) if active[b, j] else 0.0
            su[b, s, j] = su[b, s, j] + (u + scale * (gamma[0, b, j] - gamma[1, b, j]))
            sv[b, s, j] = sv[b, s, j] + (v + scale * (gamma[2, b, j] - gamma[3, b, j]))
            lam = np_minimum(1.0, eps2 * su[b, s, j] / tt) if tt > warmup else 0.0
            ev[b, s, j] = ev[b, s, j] + sv[b, s, j] * lam
            eu[b, s, j] = eu[b, s, j] + su[b, s, j] * lam
            bv[b, s, j] = bv[b, s, j] + np_maximum(su[b, s, j], tt / eps2) * (lam * lam)
            e_u = eu[b, s, j] + others_eu[b, j]
            f[b, j] = _clip((ev[b, s, j] + others_ev[b, j]) / (e_u + 1e-4), 0.0, 1.0)
            r[b, j] = math.sqrt(bv[b, s, j] + others_bv[b, j] + 1e-4) / abs(e_u) * sqrt_cn
        best_lcb = -np.inf
        for j in range(k):
            rad = np_maximum(r[b, j], tau_s[b])
            best_lcb = np_maximum(best_lcb, f[b, j] - rad if active[b, j] else -np.inf)
        refine[b] = allowed[b] and depth_ok[b]
        any_active = False
        for j in range(k):
            elim[b, j] = allowed[b] and active[b, j] and best_lcb > f[b, j] + np_maximum(r[b, j], tau_s[b])
            any_active = any_active or active[b, j]
            refine[b] = refine[b] and (r[b, j] < tau_s[b] or not active[b, j])
            event = event or elim[b, j]
        refine[b] = refine[b] and any_active
        event = event or refine[b]
        if allowed[b]:
            for j in range(k):
                est[b, j] = f[b, j]
    return event


@njit(cache=True, error_model="numpy")
def target_batches(n_in_bin, active, depth, est, t, su, sv, ev, eu, bv, s, mass_p, gap, rew, others_ev,
                   others_eu, others_bv, tau_s, depth_ok, batch, eps2, scale, warmup, sqrt_cn, frozen_rate,
                   arms_rng, rewards_rng, noise_rng, regret, elim, refine, r, allowed):
    """Simulate target batches (module docstring) of source ``s`` with ``n_in_bin`` (window,
    bins) users per batch and bin; stop after the first batch with an event or at the window's
    end. Updates the bins' statistics t (bins, S), su, sv, ev, eu, bv (bins, S, K) and est
    (bins, K) in place, writes each batch's regret, and for the last batch the decisions
    ``elim`` (bins, K), ``refine`` (bins,), the radius ``r`` (bins, K) and ``allowed``
    (bins,). Other arguments: the bins' active sets, depths, masses P(bin), gaps
    E[f* - f_k | bin] and means E[f_k | bin]; the other sources' sums of E_V, E_U, B_V; tau_s and
    depth < s_max; B, eps^2, the noise scale 4 / eps, W, sqrt(C_n), the frozen bins' regret rate
    and the streams. Returns (batches simulated, whether the last one has an event)."""
    window, nb = n_in_bin.shape
    k = active.shape[1]
    p = np.empty((nb, k))
    weighted_gap = np.empty(k)
    contrib = np.empty(nb)
    left = np.empty(nb)
    rem = np.empty(nb, np.int64)
    counts = np.empty((nb, k), np.int64)
    vsum = np.empty((nb, k), np.int64)
    gamma = np.empty((4, nb, k))
    f = np.empty((nb, k))
    for i in range(window):
        expweights_policy(est, active, depth, p)
        for b in range(nb):
            for j in range(k):
                weighted_gap[j] = p[b, j] * gap[b, j]
            contrib[b] = batch * mass_p[b] * pairwise_sum(weighted_gap, 0, k)
        regret[i] = frozen_rate + pairwise_sum(contrib, 0, nb)
        for b in range(nb):
            left[b] = 1.0
            rem[b] = n_in_bin[i, b]
        for j in range(k - 1):  # P(arm j | not an earlier arm), one binomial per bin
            for b in range(nb):
                pj = p[b, j] / left[b] if left[b] > 1e-12 else 0.0
                counts[b, j] = arms_rng.binomial(rem[b], _clip(pj, 0.0, 1.0))
                rem[b] = rem[b] - counts[b, j]
                left[b] = left[b] - p[b, j]
        for b in range(nb):
            counts[b, k - 1] = rem[b]
        for b in range(nb):
            for j in range(k):
                vsum[b, j] = rewards_rng.binomial(counts[b, j], rew[b, j])
        for g in range(4):
            for b in range(nb):
                for j in range(k):
                    gamma[g, b, j] = noise_rng.standard_gamma(float(n_in_bin[i, b]))
        event = update_and_decide(counts, vsum, gamma, active, est, t, su, sv, ev, eu, bv, s, others_ev, others_eu,
                                   others_bv, tau_s, depth_ok, batch, eps2, scale, warmup, sqrt_cn, f, elim, refine,
                                   r, allowed)
        if event:
            return i + 1, True
    return window, False
