"""Algorithm 1 of the paper: Successive Elimination for Quantiles (SEQ).

Paper, Algorithm 1 (lines as in spec 2.2): with K the *initial* number of arms and the natural log,

    D(n) = sqrt(log(4 K n^2 / delta) / (2 n))                                  (line 3)
    n_*  = first n >= 2 with D(n) <= min(q, 1 - q)                             (line 4)
    pull every arm n_* times (line 6); then repeat: n <- n + 1, pull every active arm once,
    LCB_k = X^k_(floor(n (q - D(n)))), UCB_k = X^k_(ceil(n (q + D(n))))       (line 11)
    eliminate i if LCB_j >= UCB_i for some active j != i                        (line 13)

until one arm is left. Order-statistic indices outside [1, n] are clamped to the nearer end
(paper's convention). Resolutions (spec 2.2, recorded here):

* no elimination check at n = n_* (the first check is at n_* + 1);
* elimination uses the *frozen* active set of the round: i is removed iff
  max_{j != i} LCB_j >= UCB_i (non-strict, as the paper insists). If that would remove every
  active arm (possible only under exact ties of CI endpoints) the set is kept and the run is
  flagged (``guard``);
* every run has a per-arm cap ``cap``; a run that reaches it is *censored* (``terminated`` False,
  ``k_hat`` = -1) and never dropped. Zero-gap instances never terminate (check B8);
* floor / ceil of n (q -+ D(n)) use plain float64 arithmetic, computed once by
  :func:`seq_ranks` and shared by both engines.

Privacy: none (SEQ is the non-private algorithm).

Two engines produce identical records from the same reward streams:

* :class:`SEQReference`: the per-step algorithm (``select() -> arm``, ``update(arm, reward)``),
  order statistics from sorted lists; run by :func:`run_reference`;
* :func:`simulate_seq`: the fast engine. Arm k's samples are drawn in blocks from its own stream
  (the n-th sample is the n-th draw whatever the block size), ranked once per block, and a
  compiled loop tracks the two order statistics with a Fenwick tree over the ranks: O(log N) per
  pull, not quadratic in n. Unfinished runs double the block and replay.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.streams import run_streams

__all__ = ["seq_width", "n_star", "seq_ranks", "SEQReference", "run_reference", "simulate_seq",
           "SeqRecords", "explicit_bound", "theorem4_rate"]


def seq_width(n, k: int, delta: float) -> np.ndarray:
    """D(n) = sqrt(log(4 K n^2 / delta) / (2 n)) (line 3; natural log, K the initial arm count)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(np.log(4.0 * k * n * n / delta) / (2.0 * n))


def n_star(k: int, delta: float, q: float) -> int:
    """Line 4: the first n >= 2 with D(n) <= min(q, 1 - q) (D is decreasing, spec 2.2 (b))."""
    target = min(q, 1 - q)
    hi = 2
    while seq_width(hi, k, delta) > target:
        hi *= 2
    lo = max(2, hi // 2)
    while lo < hi:  # first n in [lo, hi] with D(n) <= target
        mid = (lo + hi) // 2
        if seq_width(mid, k, delta) <= target:
            hi = mid
        else:
            lo = mid + 1
    return int(lo)


def seq_ranks(n_max: int, k: int, delta: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """1-based ranks of LCB and UCB for n = 0..n_max (index n), clamped to [1, n] (line 11)."""
    n = np.arange(n_max + 1, dtype=float)
    d = seq_width(np.maximum(n, 1), k, delta)
    lcb = np.floor(n * (q - d))
    ucb = np.ceil(n * (q + d))
    top = np.maximum(n, 1)
    return (np.clip(lcb, 1, top).astype(np.int64), np.clip(ucb, 1, top).astype(np.int64))


def theorem4_rate(gaps, k: int, delta: float) -> float:
    """sum_{i != i*} (log(K / delta) + log(1 / Delta_i)) / Delta_i^2 (Theorem 4, eq. (13), C = 1)."""
    gaps = np.asarray(gaps, dtype=float)
    gaps = gaps[gaps > 0]
    return float(np.sum((math.log(k / delta) + np.log(1 / gaps)) / gaps**2))


def explicit_bound(gap: float, k: int, delta: float, q: float) -> int:
    """n_i^UB = min{n >= n_* + 1 : 2 D(n) + 1/n <= Delta_i} (spec 3, from the proof's (18)):
    on the good event arm i is eliminated by round n_i^UB."""
    if gap <= 0:
        return math.inf
    start = n_star(k, delta, q) + 1
    if 2 * seq_width(start, k, delta) + 1 / start <= gap:
        return start
    hi = start
    while 2 * seq_width(hi, k, delta) + 1 / hi > gap:
        hi *= 2
    lo = hi // 2
    while lo < hi:
        mid = (lo + hi) // 2
        if 2 * seq_width(mid, k, delta) + 1 / mid <= gap:
            hi = mid
        else:
            lo = mid + 1
    return int(lo)


# ---------------------------------------------------------------------------------------------
# Reference engine


@dataclass
class SeqRecords:
    """Per-run records (spec 2.2 (f)): arrays over runs (and arms)."""

    k_hat: np.ndarray  # -1 if censored
    terminated: np.ndarray
    n_final: np.ndarray  # rounds (per-arm count) at termination or at the cap
    pulls: np.ndarray  # (runs, K): T_k
    elim_n: np.ndarray  # (runs, K): round at which arm k was removed, -1 if never
    guard: np.ndarray  # rounds at which the all-eliminated guard fired

    @property
    def total_pulls(self) -> np.ndarray:
        return self.pulls.sum(axis=1)


class SEQReference:
    """Algorithm 1, one pull at a time: ``select()`` names the next arm, ``update`` feeds its
    reward. Round-robin over the active arms in index order."""

    def __init__(self, k: int, q: float, delta: float, cap: int):
        if not 0 < delta < 1 or not 0 < q < 1:
            raise ValueError("SEQ needs delta in (0, 1) and q in (0, 1)")
        self.k, self.q, self.delta, self.cap = k, q, delta, int(cap)
        self.n_star = n_star(k, delta, q)
        if self.cap <= self.n_star:
            raise ValueError(f"cap must exceed n_* = {self.n_star}, got {cap}")
        self.lcb, self.ucb = seq_ranks(self.cap, k, delta, q)
        self.active = list(range(k))
        self.samples = [[] for _ in range(k)]  # sorted
        self.elim_n = [-1] * k
        self.n = 0  # completed rounds
        self._queue: list[int] = []
        self.guard = 0
        self.done = False

    def select(self) -> int:
        if not self._queue:
            self._queue = list(self.active)
        return self._queue[0]

    def update(self, arm: int, reward: float) -> None:
        if self.done or arm != self._queue[0]:
            raise RuntimeError("update() must follow select() on a running algorithm")
        self._queue.pop(0)
        bisect.insort(self.samples[arm], float(reward))
        if self._queue:
            return
        self.n += 1
        if self.n > self.n_star:
            self._eliminate()
        if len(self.active) == 1 or self.n >= self.cap:
            self.done = True

    def order_stat(self, arm: int, rank: int) -> float:
        return self.samples[arm][rank - 1]

    def _eliminate(self) -> None:
        a, b = self.lcb[self.n], self.ucb[self.n]
        lcb = {k: self.order_stat(k, a) for k in self.active}
        ucb = {k: self.order_stat(k, b) for k in self.active}
        removed = [i for i in self.active if any(lcb[j] >= ucb[i] for j in self.active if j != i)]
        if len(removed) == len(self.active):
            self.guard += 1
            return
        for i in removed:
            self.active.remove(i)
            self.elim_n[i] = self.n

    def result(self) -> dict:
        terminated = len(self.active) == 1
        pulls = [self.n if self.elim_n[k] < 0 else self.elim_n[k] for k in range(self.k)]
        return {"k_hat": self.active[0] if terminated else -1, "terminated": terminated,
                "n_final": self.n, "pulls": pulls, "elim_n": list(self.elim_n), "guard": self.guard}


def run_reference(instance: QuantileInstance, delta: float, cap: int, runs: int,
                  seed: np.random.SeedSequence) -> SeqRecords:
    """SEQ step by step: each pull draws one uniform from the pulled arm's stream."""
    out = []
    for r in range(runs):
        streams = run_streams(seed, r, instance.k)
        alg = SEQReference(instance.k, instance.q, delta, cap)
        while not alg.done:
            arm = alg.select()
            alg.update(arm, float(instance.sample(arm, streams[arm].random())))
        out.append(alg.result())
    return _records(out)


def _records(rows: list[dict]) -> SeqRecords:
    return SeqRecords(np.array([r["k_hat"] for r in rows], dtype=np.int64),
                      np.array([r["terminated"] for r in rows], dtype=bool),
                      np.array([r["n_final"] for r in rows], dtype=np.int64),
                      np.array([r["pulls"] for r in rows], dtype=np.int64),
                      np.array([r["elim_n"] for r in rows], dtype=np.int64),
                      np.array([r["guard"] for r in rows], dtype=np.int64))


# ---------------------------------------------------------------------------------------------
# Fast engine


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
def _seq_kernel(rank, sorted_vals, lcb, ucb, n_star, n_stop, elim_n):
    """Rounds 1..n_stop of SEQ on pre-ranked samples. Returns (rounds done, guard count)."""
    k_arms, n_block = rank.shape
    tree = np.zeros((k_arms, n_block + 1), dtype=np.int32)
    top = 1
    while top * 2 <= n_block:
        top *= 2
    active = np.ones(k_arms, dtype=np.bool_)
    n_active = k_arms
    lo_val = np.empty(k_arms)
    hi_val = np.empty(k_arms)
    guard = 0
    n = 0
    while n < n_stop:
        n += 1
        for k in range(k_arms):
            if active[k]:
                i = rank[k, n - 1] + 1
                while i <= n_block:
                    tree[k, i] += 1
                    i += i & (-i)
        if n <= n_star:
            continue
        a = lcb[n]
        b = ucb[n]
        best, second = -np.inf, -np.inf
        arg_best = -1
        for k in range(k_arms):
            if active[k]:
                lo_val[k] = sorted_vals[k, _kth(tree[k], top, a)]
                hi_val[k] = sorted_vals[k, _kth(tree[k], top, b)]
                if lo_val[k] > best:
                    second = best
                    best = lo_val[k]
                    arg_best = k
                elif lo_val[k] > second:
                    second = lo_val[k]
        removed = 0
        for k in range(k_arms):
            if active[k]:
                other = second if k == arg_best else best
                if other >= hi_val[k]:
                    removed += 1
        if removed == n_active:
            guard += 1
        elif removed > 0:
            for k in range(k_arms):
                if active[k]:
                    other = second if k == arg_best else best
                    if other >= hi_val[k]:
                        elim_n[k] = n
            for k in range(k_arms):
                if elim_n[k] == n:
                    active[k] = False
            n_active -= removed
        if n_active == 1:
            break
    return n, guard


def _one_run(instance: QuantileInstance, delta: float, cap: int, streams, block: int):
    k = instance.k
    ns = n_star(k, delta, instance.q)
    uniforms = [np.empty(0) for _ in range(k)]
    size = min(cap, max(block, ns + 2))
    while True:
        for arm in range(k):  # extend each arm's stream to `size` draws (same draws, any block)
            extra = size - uniforms[arm].size
            uniforms[arm] = np.concatenate([uniforms[arm], streams[arm].random(extra)])
        values = np.vstack([instance.sample(arm, uniforms[arm]) for arm in range(k)])
        order = np.argsort(values, axis=1, kind="stable")
        rank = np.empty_like(order)
        np.put_along_axis(rank, order, np.arange(size)[None, :].repeat(k, axis=0), axis=1)
        sorted_vals = np.take_along_axis(values, order, axis=1)
        lcb, ucb = seq_ranks(size, k, delta, instance.q)
        elim_n = np.full(k, -1, dtype=np.int64)
        n, guard = _seq_kernel(rank, sorted_vals, lcb, ucb, ns, size, elim_n)
        alive = np.flatnonzero(elim_n < 0)
        if alive.size == 1 or size >= cap:
            terminated = alive.size == 1
            pulls = np.where(elim_n < 0, n, elim_n)
            return {"k_hat": int(alive[0]) if terminated else -1, "terminated": terminated,
                    "n_final": int(n), "pulls": pulls.tolist(), "elim_n": elim_n.tolist(),
                    "guard": int(guard)}
        size = min(cap, 2 * size)


def simulate_seq(instance: QuantileInstance, delta: float, cap: int, runs: int,
                 seed: np.random.SeedSequence, block: int | None = None) -> SeqRecords:
    """SEQ on ``runs`` independent runs (run r uses :func:`run_streams` (seed, r)); identical
    records to :func:`run_reference` on the same streams. ``block`` (initial per-arm block size)
    only affects speed; by default twice the explicit Theorem 4 bound of the smallest gap."""
    if cap <= n_star(instance.k, delta, instance.q):
        raise ValueError("cap must exceed n_*")
    if block is None:
        gaps = instance.gaps()
        positive = gaps[gaps > 0]
        ub = explicit_bound(float(positive.min()), instance.k, delta, instance.q) if positive.size else cap
        block = int(min(cap, max(1024, ub)))
    rows = [_one_run(instance, delta, cap, run_streams(seed, r, instance.k), block) for r in range(runs)]
    return _records(rows)
