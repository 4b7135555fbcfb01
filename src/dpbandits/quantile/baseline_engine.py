"""Shared run engine of the optional quantile baselines (QPAC, Max-Q, QLUCB; spec section 5).
These baselines are **additions**: the paper discusses them but never runs them.

Every baseline reads its arms' samples through order statistics only. As for SEQ
(:mod:`dpbandits.quantile.seq`), arm k's c-th sample is the c-th draw of arm k's own stream
(:func:`~dpbandits.quantile.streams.run_streams`), whatever the schedule, so a baseline and SEQ
run on the same cell seed see the same reward table (common random numbers across algorithms).

Engine: each arm's first ``size`` draws are ranked once; a compiled kernel inserts the rank of
every pulled sample into a per-arm Fenwick tree and reads order statistics in O(log size). A
kernel returns status 0 (stopped), 1 (an arm ran out of pre-drawn samples) or 2 (cap reached);
on status 1 the block doubles (up to the per-arm cap) and the run is replayed from the start,
which gives the same record because the draws are the same. A run that reaches the cap is
*censored*: ``terminated`` False and ``k_hat`` = -1, never dropped (spec 6.0).
"""

from __future__ import annotations

import bisect
import math

import numpy as np
from numba import njit

from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.seq import SeqRecords
from dpbandits.quantile.streams import run_streams

__all__ = ["ranked_block", "run_baseline", "fenwick_insert", "order_stat", "top_power", "ArmSamples", "SequentialReference"]

STOPPED, NEED_MORE, CAPPED = 0, 1, 2


@njit(cache=True)
def _kth(tree, top, k):
    """0-based position of the k-th smallest (1-based k) element in a Fenwick tree of counts."""
    pos = 0
    step = top
    n = tree.shape[0] - 1
    while step > 0:
        nxt = pos + step
        if nxt <= n and tree[nxt] < k:
            pos = nxt
            k -= tree[nxt]
        step >>= 1
    return pos


@njit(cache=True)
def fenwick_insert(tree, rank):
    """Add the sample of 0-based rank ``rank`` to a Fenwick tree of counts."""
    i = rank + 1
    n = tree.shape[0] - 1
    while i <= n:
        tree[i] += 1
        i += i & (-i)


@njit(cache=True)
def top_power(n):
    top = 1
    while top * 2 <= n:
        top *= 2
    return top


@njit(cache=True)
def order_stat(tree, top, sorted_vals, j, count):
    """X_(j) of the ``count`` samples inserted so far (1-based j): -inf below 1, +inf above count."""
    if j < 1:
        return -np.inf
    if j > count:
        return np.inf
    return sorted_vals[_kth(tree, top, j)]


def ranked_block(instance: QuantileInstance, uniforms: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per-arm 0-based ranks (in draw order) and sorted values of the drawn samples.

    Tied samples get their ranks in any order (an unstable sort, several times faster than a
    stable one): the kernels read only values (``sorted_vals`` at a Fenwick position), and the
    j-th smallest value of the inserted samples is the same whichever tie holds which rank."""
    k, size = instance.k, uniforms[0].size
    values = np.vstack([instance.sample(arm, uniforms[arm]) for arm in range(k)])
    order = np.argsort(values, axis=1)
    rows = np.arange(k)[:, None]
    rank = np.empty_like(order)
    rank[rows, order] = np.arange(size)
    return rank, values[rows, order]


def run_baseline(instance: QuantileInstance, kernel, cap: int, runs: int, seed: np.random.SeedSequence,
                 block: int) -> SeqRecords:
    """Run ``kernel(rank, sorted_vals, size, cap, counts, elim) -> (status, k_hat, n_final)`` on
    ``runs`` runs (run r on the streams of (seed, r)); per-arm cap ``cap`` samples."""
    k = instance.k
    rows = []
    for r in range(runs):
        streams = run_streams(seed, r, k)
        uniforms = [np.empty(0) for _ in range(k)]
        size = int(min(cap, max(block, 16)))
        while True:
            for arm in range(k):  # extend arm's stream to `size` draws (same draws, any block)
                extra = size - uniforms[arm].size
                uniforms[arm] = np.concatenate([uniforms[arm], streams[arm].random(extra)])
            rank, sorted_vals = ranked_block(instance, uniforms)
            counts = np.zeros(k, dtype=np.int64)
            elim = np.full(k, -1, dtype=np.int64)
            status, k_hat, n_final = kernel(rank, sorted_vals, size, cap, counts, elim)
            if status == NEED_MORE and size < cap:
                size = int(min(cap, 2 * size))
                continue
            terminated = status == STOPPED
            rows.append({"k_hat": int(k_hat) if terminated else -1, "terminated": bool(terminated),
                         "n_final": int(n_final), "pulls": counts.tolist(), "elim_n": elim.tolist(),
                         "guard": 0})
            break
    return SeqRecords(np.array([x["k_hat"] for x in rows], dtype=np.int64),
                      np.array([x["terminated"] for x in rows], dtype=bool),
                      np.array([x["n_final"] for x in rows], dtype=np.int64),
                      np.array([x["pulls"] for x in rows], dtype=np.int64).reshape(runs, k),
                      np.array([x["elim_n"] for x in rows], dtype=np.int64).reshape(runs, k),
                      np.zeros(runs, dtype=np.int64))


class ArmSamples:
    """The samples of each arm so far, kept sorted: the per-sample references of the baselines
    (:mod:`dpbandits.quantile.interface`) read their order statistics as the kernels do
    (:func:`order_stat`: -inf below rank 1, +inf above the count)."""

    def __init__(self, k: int):
        self.sorted: list[list[float]] = [[] for _ in range(k)]

    def add(self, arm: int, sample: float) -> None:
        bisect.insort(self.sorted[arm], float(sample))

    def count(self, arm: int) -> int:
        return len(self.sorted[arm])

    def record(self, k_hat: int) -> dict:
        """The run's record (the protocol's result) of a baseline that removes no arm: every
        arm's samples so far, ``n_final`` their total."""
        pulls = [len(v) for v in self.sorted]
        return {"k_hat": k_hat, "terminated": k_hat >= 0, "n_final": sum(pulls), "pulls": pulls,
                "elim": [-1] * len(pulls), "guard": 0}

    def stat(self, arm: int, j: int) -> float:
        """X_(j) of the arm's samples (1-based j)."""
        if j < 1:
            return -math.inf
        if j > len(self.sorted[arm]):
            return math.inf
        return self.sorted[arm][j - 1]


class SequentialReference:
    """Base of the per-sample classes of the baselines that ask for one named arm at a time
    (QLUCB, Max-Q): ``select`` names ``self._next``, ``_take`` stores the sample that answers it,
    and the record is :meth:`ArmSamples.record`'s (no arm is removed). A subclass sets
    ``samples`` (:class:`ArmSamples`), ``_next``, ``k_hat`` and ``done``."""

    samples: ArmSamples
    _next: int
    k_hat: int
    done: bool

    def select(self) -> int:
        return self._next

    def _take(self, arm: int, sample: float) -> None:
        if self.done or arm != self._next:
            raise RuntimeError("update() must follow select() on a running algorithm")
        self.samples.add(arm, sample)

    def result(self) -> dict:
        return self.samples.record(self.k_hat)
