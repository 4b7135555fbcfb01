"""QLUCB: the quantile LUCB algorithm of Howard & Ramdas, "Sequential estimation of quantiles with
applications to A/B-testing and best-arm identification", Bernoulli 28(3), 2022 (arXiv
1906.09712), as the spec transcribes it (section 5.3). **Addition, not from the replicated
paper**: Nikolakakis et al. discuss it (Sec. I) but never run it; we run it for the optional
context table D2.

Howard & Ramdas use the empirical *upper* quantile Q_k(p) = X^k_(floor(p N_k) + 1) (-inf if the
index is below 1, +inf above N_k); it coincides with the paper's left quantile on continuous
arms. With alpha = delta / K the per-arm one-sided error and the anytime radius

    r(N, alpha) = sqrt(log(pi^2 N^2 / (3 alpha)) / (2 N))

(the spec's "simple anytime fallback": a union bound of Hoeffding over N; the authors' faithful
choice, a beta-binomial mixture confidence sequence from the ``confseq`` package, is tighter and
is not used here), the bounds are L_k = Q_k(q + eps - r(N_k)) and U_k = Q_k(q + r(N_k)).

    pull every arm once
    loop: h = argmax_k L_k; l = argmax_{k != h} U_k (lowest index on ties);
          stop and return h if L_h >= U_l;
          otherwise pull one arm, alternating h and l between iterations (as the authors' code).

eps = 0 is allowed (exact identification on continuous instances). Every run has a per-arm cap
and is censored there (``terminated`` False, ``k_hat`` = -1). ``n_final`` is the total number of
pulls. Privacy: none.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.quantile.baseline_engine import (
    CAPPED,
    NEED_MORE,
    STOPPED,
    ArmSamples,
    SequentialReference,
    fenwick_insert,
    order_stat,
    run_baseline,
    top_power,
)
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.seq import SeqRecords

__all__ = ["qlucb_radius", "simulate_qlucb", "QLUCBReference"]


def qlucb_radius(n, alpha: float):
    """r(N, alpha) = sqrt(log(pi^2 N^2 / (3 alpha)) / (2 N)) (natural log)."""
    n = np.asarray(n, dtype=float)
    return np.sqrt(np.log(math.pi**2 * n * n / (3 * alpha)) / (2 * n))


@njit(cache=True)
def _upper_q(tree, top, sorted_vals, p, count):
    return order_stat(tree, top, sorted_vals, int(np.floor(p * count)) + 1, count)


@njit(cache=True)
def _bounds(tree, top, sorted_vals, count, q, eps, alpha):
    r = np.sqrt(np.log(np.pi**2 * count * count / (3.0 * alpha)) / (2.0 * count))
    return (_upper_q(tree, top, sorted_vals, q + eps - r, count), _upper_q(tree, top, sorted_vals, q + r, count))


@njit(cache=True)
def _qlucb_kernel(rank, sorted_vals, size, cap, counts, elim, q, eps, alpha):
    k_arms = rank.shape[0]
    tree = np.zeros((k_arms, size + 1), dtype=np.int32)
    top = top_power(size)
    lo = np.empty(k_arms)
    up = np.empty(k_arms)
    for k in range(k_arms):
        fenwick_insert(tree[k], rank[k, 0])
        counts[k] = 1
        lo[k], up[k] = _bounds(tree[k], top, sorted_vals[k], 1, q, eps, alpha)
    turn = 0
    while True:
        h = 0
        for k in range(1, k_arms):
            if lo[k] > lo[h]:
                h = k
        low = -1
        for k in range(k_arms):
            if k != h and (low < 0 or up[k] > up[low]):
                low = k
        total = 0
        for k in range(k_arms):
            total += counts[k]
        if lo[h] >= up[low]:
            return STOPPED, h, total
        arm = h if turn == 0 else low
        turn = 1 - turn
        if counts[arm] >= cap:
            return CAPPED, -1, total
        if counts[arm] >= size:
            return NEED_MORE, -1, total
        fenwick_insert(tree[arm], rank[arm, counts[arm]])
        counts[arm] += 1
        lo[arm], up[arm] = _bounds(tree[arm], top, sorted_vals[arm], counts[arm], q, eps, alpha)


def simulate_qlucb(instance: QuantileInstance, delta: float, cap: int, runs: int, seed: np.random.SeedSequence,
                   eps: float = 0.0, block: int = 4096) -> SeqRecords:
    """QLUCB on ``runs`` runs; ``cap``: per-arm cap. Records as SEQ's (``elim_n`` all -1,
    ``n_final`` = total pulls)."""
    if not 0 < delta < 1 or eps < 0:
        raise ValueError("QLUCB needs delta in (0, 1) and eps >= 0")
    alpha = delta / instance.k

    def kernel(rank, sorted_vals, size, cap_, counts, elim):
        return _qlucb_kernel(rank, sorted_vals, size, cap_, counts, elim, instance.q, float(eps), alpha)

    return run_baseline(instance, kernel, int(cap), runs, seed, min(int(cap), block))


class QLUCBReference(SequentialReference):
    """QLUCB one sample at a time: the family's protocol
    (:class:`dpbandits.quantile.interface.QuantileAlgorithm`), a plain transcription of the
    module docstring's rule (the compiled kernel's reference: on the same reward streams it gives
    :func:`simulate_qlucb`'s record exactly). ``cap``: per-arm samples (censored there).
    Privacy: none."""

    private = False
    mechanism = "none"
    sensitivity = "none"

    def __init__(self, k: int, q: float, delta: float, cap: int, eps: float = 0.0):
        if not 0 < delta < 1 or eps < 0:
            raise ValueError("QLUCB needs delta in (0, 1) and eps >= 0")
        self.k, self.q, self.eps, self.cap = int(k), float(q), float(eps), int(cap)
        self.alpha = delta / self.k
        self.samples = ArmSamples(self.k)
        self.lo, self.up = [0.0] * self.k, [0.0] * self.k
        self.k_hat, self.done, self._turn = -1, self.cap < 1, 0
        self._next = 0  # the first round samples every arm once, in index order

    def _bounds(self, arm: int) -> None:
        n = self.samples.count(arm)
        r = math.sqrt(math.log(math.pi**2 * n * n / (3.0 * self.alpha)) / (2.0 * n))
        self.lo[arm] = self.samples.stat(arm, int(math.floor((self.q + self.eps - r) * n)) + 1)
        self.up[arm] = self.samples.stat(arm, int(math.floor((self.q + r) * n)) + 1)

    def update(self, arm: int, sample: float) -> None:
        self._take(arm, sample)
        self._bounds(arm)
        if arm + 1 < self.k and self.samples.count(arm + 1) == 0:
            self._next = arm + 1
            return
        h = max(range(self.k), key=lambda a: (self.lo[a], -a))
        low = max((a for a in range(self.k) if a != h), key=lambda a: (self.up[a], -a))
        if self.lo[h] >= self.up[low]:
            self.k_hat, self.done = h, True
            return
        nxt = h if self._turn == 0 else low
        self._turn = 1 - self._turn
        if self.samples.count(nxt) >= self.cap:
            self.done = True
            return
        self._next = nxt
