"""Max-Q: the optimistic quantile algorithm of David & Shimkin, "Pure exploration for max-quantile
bandits", ECML-PKDD 2016 (their Algorithm 1), as the spec transcribes it (section 5.2).
**Addition, not from the replicated paper**: Nikolakakis et al. discuss Max-Q (Sec. I) but never
run it; we run it for the optional context table D2.

David & Shimkin's level lambda is an upper-tail mass: lambda = 1 - q. With K arms, confidence
delta and approximation eps > 0 (Max-Q cannot do exact identification),

    L   = 6 log(K (1 + 10 lambda log(1/delta) / eps^2)) - log(delta)
    N0  = floor(3 L / lambda) + 1; pull every arm N0 times
    loop: for arm k with C(k) samples, m_k = floor(lambda C(k) - sqrt(3 lambda C(k) L)) + 1 and
          V_k = the m_k-th largest sample of arm k (+inf if m_k < 1);
          k* = argmax_k V_k (lowest index on ties); stop and return k* if C(k*) >= 10 lambda L / eps^2,
          else pull k* once.

An arm is pulled only while it is the argmax and below the stopping count, so every arm's count
is at most max(N0, ceil(10 lambda L / eps^2)): the run always stops. A per-arm cap is still
applied and recorded (``terminated`` False, ``k_hat`` = -1) as for SEQ. ``n_final`` is the total
number of pulls. Privacy: none. The "doubled" Max-Q variant of Howard & Ramdas is not implemented.
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

__all__ = ["max_q_constants", "simulate_max_q", "MaxQReference"]


def max_q_constants(k: int, q: float, delta: float, eps: float) -> tuple[float, int, float]:
    """(L, N0, stopping count 10 lambda L / eps^2) with lambda = 1 - q."""
    if not eps > 0:
        raise ValueError("Max-Q needs eps > 0 (it cannot identify the exact best arm)")
    lam = 1.0 - q
    big_l = 6 * math.log(k * (1 + 10 * lam * math.log(1 / delta) / eps**2)) - math.log(delta)
    return big_l, int(math.floor(3 * big_l / lam)) + 1, 10 * lam * big_l / eps**2


@njit(cache=True)
def _value(tree, top, sorted_vals, count, lam, big_l):
    m = int(np.floor(lam * count - np.sqrt(3.0 * lam * count * big_l))) + 1
    if m < 1:
        return np.inf
    return order_stat(tree, top, sorted_vals, count - m + 1, count)  # m-th largest


@njit(cache=True)
def _max_q_kernel(rank, sorted_vals, size, cap, counts, elim, lam, big_l, n0, stop_count):
    k_arms = rank.shape[0]
    tree = np.zeros((k_arms, size + 1), dtype=np.int32)
    top = top_power(size)
    if n0 > cap:
        return CAPPED, -1, 0
    if n0 > size:
        return NEED_MORE, -1, 0
    vals = np.empty(k_arms)
    for k in range(k_arms):
        for c in range(n0):
            fenwick_insert(tree[k], rank[k, c])
        counts[k] = n0
        vals[k] = _value(tree[k], top, sorted_vals[k], n0, lam, big_l)
    while True:
        best = 0
        for k in range(1, k_arms):
            if vals[k] > vals[best]:
                best = k
        total = 0
        for k in range(k_arms):
            total += counts[k]
        if counts[best] >= stop_count:
            return STOPPED, best, total
        if counts[best] >= cap:
            return CAPPED, -1, total
        if counts[best] >= size:
            return NEED_MORE, -1, total
        fenwick_insert(tree[best], rank[best, counts[best]])
        counts[best] += 1
        vals[best] = _value(tree[best], top, sorted_vals[best], counts[best], lam, big_l)


def simulate_max_q(instance: QuantileInstance, delta: float, eps: float, cap: int, runs: int,
                   seed: np.random.SeedSequence) -> SeqRecords:
    """Max-Q on ``runs`` runs; ``cap``: per-arm cap. Records as SEQ's (``elim_n`` all -1,
    ``n_final`` = total pulls)."""
    if not 0 < delta < 1:
        raise ValueError("Max-Q needs delta in (0, 1)")
    big_l, n0, stop = max_q_constants(instance.k, instance.q, delta, eps)
    lam = 1.0 - instance.q
    need = int(min(cap, max(n0, math.ceil(stop)) + 1))

    def kernel(rank, sorted_vals, size, cap_, counts, elim):
        return _max_q_kernel(rank, sorted_vals, size, cap_, counts, elim, lam, big_l, n0, float(stop))

    return run_baseline(instance, kernel, int(cap), runs, seed, need)


class MaxQReference(SequentialReference):
    """Max-Q one sample at a time: the family's protocol
    (:class:`dpbandits.quantile.interface.QuantileAlgorithm`), a plain transcription of the
    module docstring's rule (the compiled kernel's reference: on the same reward streams it gives
    :func:`simulate_max_q`'s record exactly): arm 0's N0 samples first, then arm 1's, ...; then
    the argmax of V_k. ``cap``: per-arm samples (censored there). Privacy: none."""

    private = False
    mechanism = "none"
    sensitivity = "none"

    def __init__(self, k: int, q: float, delta: float, cap: int, eps: float):
        if not 0 < delta < 1:
            raise ValueError("Max-Q needs delta in (0, 1)")
        self.k, self.cap = int(k), int(cap)
        self.big_l, self.n0, self.stop = max_q_constants(self.k, q, delta, eps)
        self.lam = 1.0 - q
        self.samples = ArmSamples(self.k)
        self.vals = [math.inf] * self.k
        self.k_hat, self._next = -1, 0
        self.done = self.n0 > self.cap  # censored before the first sample

    def _value(self, arm: int) -> float:
        n = self.samples.count(arm)
        m = int(math.floor(self.lam * n - math.sqrt(3.0 * self.lam * n * self.big_l))) + 1
        return math.inf if m < 1 else self.samples.stat(arm, n - m + 1)

    def update(self, arm: int, sample: float) -> None:
        self._take(arm, sample)
        if self.samples.count(arm) < self.n0:
            return
        if arm + 1 < self.k and self.samples.count(arm + 1) < self.n0:
            self.vals[arm] = self._value(arm)
            self._next = arm + 1
            return
        self.vals[arm] = self._value(arm)
        best = max(range(self.k), key=lambda a: (self.vals[a], -a))
        if self.samples.count(best) >= self.stop:
            self.k_hat, self.done = best, True
        elif self.samples.count(best) >= self.cap:
            self.done = True
        else:
            self._next = best
