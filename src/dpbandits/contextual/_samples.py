"""The dataset feeder's kernels, compiled (:class:`dpbandits.contextual.ldpmab.SampleFeeder`: dataset
rows routed through the partition tree; the engine is :mod:`dpbandits.contextual.ldpmab`).

* :func:`target_arms`: Algorithm 2 step 2 for the rows of a batch (inversion of one uniform per
  user in an active bin; a user in a frozen bin gets its bin's arm);
* :func:`tally`: per batch, bin and arm the users, the arm counts and the reward sums;
* :func:`sample_target_batches`: the target phase of the ``authors_code`` preset on a dataset,
  batch after batch in one compiled loop, as :func:`dpbandits.contextual._expweights.target_batches`
  does on a synthetic instance: the preset's exponential weights change after every batch, so
  the engine's chunked path would take one batch at a time in Python. It returns exactly what
  that per-batch numpy path computes (the same draws from the same generators in the same order:
  one ``random(n)`` per batch for the users in active bins, then four Gamma arrays over bins x
  arms; the same sums in the same order; tested bit for bit).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dpbandits.contextual._expweights import expweights_policy, update_and_decide

__all__ = ["target_arms", "tally", "sample_target_batches"]


@njit(cache=True)
def target_arms(node, row, frozen_arm, probs, u, arm):
    """Algorithm 2 step 2 for dataset rows: a user in an active bin draws its arm from the bin's
    policy by inversion (the number of cumulative probabilities below its uniform, at most
    K - 1; the uniforms ``u`` go to these users in arrival order); a user in a frozen bin gets
    the bin's last arm."""
    k = probs.shape[1]
    j = 0
    for i in range(node.size):
        if row[i] < 0:
            arm[i] = frozen_arm[node[i]]
            continue
        cum, below = 0.0, 0
        for a in range(k):
            cum += probs[row[i], a]
            below += cum < u[j]
        arm[i] = min(below, k - 1)
        j += 1


@njit(cache=True)
def tally(row, arm, y, batch, n_b, counts, vsum):
    """Per batch (rows of ``batch`` users), active bin and arm: the users n_b, counts and the sum
    of their rewards vsum, added in arrival order (np.bincount's); users of frozen bins
    (row < 0) are not counted."""
    for i in range(row.size):
        if row[i] >= 0:
            g = i // batch
            n_b[g, row[i]] += 1
            counts[g, row[i], arm[i]] += 1
            vsum[g, row[i], arm[i]] += y[i]


@njit(cache=True, error_model="numpy")
def sample_target_batches(node, row, y, fmat, has_f, frozen_arm, active, depth, est, t, su, sv, ev, eu, bv, s,
                          others_ev, others_eu, others_bv, tau_s, depth_ok, batch, eps2, scale, warmup, sqrt_cn,
                          arms_rng, noise_rng, reward, regret, elim, refine, r, allowed):
    """Simulate the target batches whose users are ``node`` / ``row`` (their leaf and its active
    bin's row, -1 for a frozen bin; routed under the current partition, which stays fixed until
    an event) with rewards ``y`` (users, K) and, when ``has_f``, mean rewards ``fmat`` (users, K)
    for the realised pseudo-regret; stop after the first batch with an event or after the last
    batch. Per batch: the policy (:func:`dpbandits.contextual._expweights.expweights_policy`), the users'
    arms (:func:`target_arms`), the realised reward (and pseudo-regret) summed in arrival order,
    the tally of the users in active bins, the in-bin Laplace noise as four Gamma arrays with the
    bins' user counts as shapes, and steps 4-5 of
    :func:`dpbandits.contextual._expweights.update_and_decide`. Writes ``reward`` and (when
    ``has_f``) ``regret`` per batch; returns (batches simulated, whether the last one has an
    event)."""
    window = node.size // batch
    nb, k = active.shape
    p = np.empty((nb, k))
    arm = np.empty(batch, np.int64)
    ysel = np.empty(batch)
    n_b = np.zeros((1, nb), np.int64)
    counts = np.zeros((1, nb, k), np.int64)
    vsum = np.zeros((1, nb, k))
    gamma = np.empty((4, nb, k))
    f = np.empty((nb, k))
    for i in range(window):
        lo = i * batch
        expweights_policy(est, active, depth, p)
        n_in = 0
        for q in range(lo, lo + batch):
            if row[q] >= 0:
                n_in += 1
        u = arms_rng.random(n_in)
        target_arms(node[lo:lo + batch], row[lo:lo + batch], frozen_arm, p, u, arm)
        total = 0.0
        for q in range(batch):
            ysel[q] = y[lo + q, arm[q]]
            total += ysel[q]
        reward[i] = total
        if has_f:
            total = 0.0
            for q in range(batch):
                best = fmat[lo + q, 0]
                for j in range(1, k):
                    best = max(best, fmat[lo + q, j])
                total += best - fmat[lo + q, arm[q]]
            regret[i] = total
        n_b[:] = 0
        counts[:] = 0
        vsum[:] = 0.0
        tally(row[lo:lo + batch], arm, ysel, batch, n_b, counts, vsum)
        for g in range(4):
            for b in range(nb):
                for j in range(k):
                    gamma[g, b, j] = noise_rng.standard_gamma(float(n_b[0, b]))
        if update_and_decide(counts[0], vsum[0], gamma, active, est, t, su, sv, ev, eu, bv, s, others_ev, others_eu,
                              others_bv, tau_s, depth_ok, batch, eps2, scale, warmup, sqrt_cn, f, elim, refine, r,
                              allowed):
            return i + 1, True
    return window, False
