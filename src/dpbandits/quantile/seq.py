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
* :func:`simulate_seq`: the fast engine. Arm k's samples are drawn in chunks of rounds from its
  own stream (the n-th sample is the n-th draw whatever the chunk size; a run goes on from chunk
  to chunk and draws about the samples it reads), and a compiled loop reads each order
  statistic from a *window*: the distinct sample values around its rank (about 2 sqrt(n) of
  them, with multiplicities) and the count of samples below, so that a new sample costs a
  comparison or two and a round's ranks move a pointer by a step or two. A window is rebuilt
  from all the samples (quickselect, O(n)) only when its rank leaves it or it grows too wide,
  a few times per doubling of n. No sorting, no Fenwick tree; the order statistics, hence the
  records, are exactly those of sorting the samples.
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
    reward (the family's protocol, :class:`dpbandits.quantile.interface.QuantileAlgorithm`).
    Round-robin over the active arms in index order. Privacy: none."""

    private = False
    mechanism = "none"
    sensitivity = "none"

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
                "n_final": self.n, "pulls": pulls, "elim": list(self.elim_n), "guard": self.guard}


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
                      np.array([r["elim"] for r in rows], dtype=np.int64),
                      np.array([r["guard"] for r in rows], dtype=np.int64))


# ---------------------------------------------------------------------------------------------
# Fast engine


INITIAL_CHUNK = 1024  # rounds of the first chunk of a run; chunks double up to MAX_CHUNK
MAX_CHUNK = 1 << 16
WINDOW_CAP = 1 << 14  # distinct values a window can hold (it is rebuilt when full)


@njit(cache=True)
def _select(a, left, right, k):
    """Quickselect (Hoare partition): reorder a[left:right + 1] so that a[k] is its
    (k - left + 1)-th smallest, with no larger element before k and no smaller one after."""
    while right > left:
        pivot = a[(left + right) >> 1]
        i, j = left, right
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if k <= j:
            right = j
        elif k >= i:
            left = i
        else:  # j < k < i: a[k] equals the pivot
            right = left


@njit(cache=True)
def _sift_down(a, root, end):
    """Restore the max-heap a[:end] below ``root``."""
    x = a[root]
    child = 2 * root + 1
    while child < end:
        if child + 1 < end and a[child + 1] > a[child]:
            child += 1
        if a[child] > x:
            a[root] = a[child]
            root = child
            child = 2 * root + 1
        else:
            child = end
    a[root] = x


@njit(cache=True)
def _heapsort(a):
    """Sort ``a`` in place (O(m log m), no recursion)."""
    m = a.shape[0]
    for root in range(m // 2 - 1, -1, -1):
        _sift_down(a, root, m)
    for end in range(m - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, 0, end)


@njit(cache=True)
def _window_rebuild(samples, k, n, r, wv, wc, st, w):
    """Centre window ``w`` on rank ``r`` of ``samples[k, :n]`` (all of arm k's samples so far):
    the distinct values of ranks r - h .. r + h, h ~ sqrt(n), with their multiplicities
    (every tie of the two end values included), found by quickselect in O(n).

    A window is ``wv[w, :d]`` (distinct values, increasing), ``wc[w, :d]`` (multiplicities) and
    ``st[w]`` = (d, pointer p, cum, most distinct values), cum the number of samples below
    ``wv[w, p]``, kept so that cum < r <= cum + wc[w, p], i.e. X_(r) = wv[w, p]. It may grow to
    four times its width before it is dropped (an insert costs O(d))."""
    h = min(max(16, int(np.sqrt(n))), (wv.shape[1] - 2) // 8)
    lo = max(1, r - h) - 1  # 0-based ranks of the window's ends
    hi = min(n, r + h) - 1
    part = samples[k, :n].copy()
    _select(part, 0, n - 1, lo)
    _select(part, lo, n - 1, hi)
    lo_v, hi_v = part[lo], part[hi]
    extra_lo = 0
    for i in range(lo):
        if part[i] == lo_v:
            extra_lo += 1
    extra_hi = 0
    for i in range(hi + 1, n):
        if part[i] == hi_v:
            extra_hi += 1
    mid = part[lo: hi + 1]
    _heapsort(mid)
    d = 0
    for x in mid:
        if d > 0 and wv[w, d - 1] == x:
            wc[w, d - 1] += 1
        else:
            wv[w, d] = x
            wc[w, d] = 1
            d += 1
    wc[w, 0] += extra_lo
    wc[w, d - 1] += extra_hi
    cum = lo - extra_lo
    p = 0
    while cum + wc[w, p] < r:
        cum += wc[w, p]
        p += 1
    st[w, 0], st[w, 1], st[w, 2], st[w, 3] = d, p, cum, min(wv.shape[1], 4 * (hi - lo + 1))


@njit(cache=True)
def _window_insert_new(x, i, wv, wc, st, w):
    """Insert the new distinct value ``x`` at index i of window ``w`` (O(d) shift), or drop the
    window when it is full (``st[w, 3]`` values; ``st[w, 0] = 0``: rebuilt at the next query)."""
    d, p = st[w, 0], st[w, 1]
    if d == st[w, 3]:
        st[w, 0] = 0
    else:
        for j in range(d, i, -1):
            wv[w, j] = wv[w, j - 1]
            wc[w, j] = wc[w, j - 1]
        wv[w, i] = x
        wc[w, i] = 1
        st[w, 0] = d + 1
        if i <= p:  # x lies below the pointed value
            st[w, 1] = p + 1
            st[w, 2] += 1


@njit(cache=True)
def _seq_rounds(samples, n, n_stop, lcb, ucb, n_star, active, elim_n, wv, wc, st):
    """Rounds n + 1 .. n_stop of SEQ (stopping early when one arm is left); ``samples[k, i]``
    is arm k's sample of round i + 1. Arm k reads its order statistics of LCB and UCB rank from
    windows 2k and 2k + 1 (:func:`_window_rebuild`), which carry the state from one call to
    the next. Returns (rounds done, guard count).

    The common window operations are written out here rather than in helper functions: numba
    re-counts the references of every array passed to a helper, which costs more than the
    operations themselves; only the rare ones (:func:`_window_insert_new`, a rebuild) are
    calls."""
    k_arms = samples.shape[0]
    lo_val = np.empty(k_arms)
    hi_val = np.empty(k_arms)
    n_active = 0
    for k in range(k_arms):
        if active[k]:
            n_active += 1
    guard = 0
    while n < n_stop:
        n += 1
        for k in range(k_arms):
            if active[k]:
                x = samples[k, n - 1]
                for w in range(2 * k, 2 * k + 2):  # count x in the arm's two windows
                    d = st[w, 0]
                    if d > 0 and x <= wv[w, d - 1]:  # else above the window (or no window)
                        if x < wv[w, 0]:
                            st[w, 2] += 1
                        else:
                            lo, hi = 0, d - 1  # first i with wv[w, i] >= x
                            while lo < hi:
                                mid = (lo + hi) >> 1
                                if wv[w, mid] < x:
                                    lo = mid + 1
                                else:
                                    hi = mid
                            if wv[w, lo] == x:
                                wc[w, lo] += 1
                                if lo < st[w, 1]:
                                    st[w, 2] += 1
                            else:
                                _window_insert_new(x, lo, wv, wc, st, w)
        if n <= n_star:
            continue
        best, second = -np.inf, -np.inf
        arg_best = -1
        for k in range(k_arms):
            if active[k]:
                for w in range(2 * k, 2 * k + 2):  # X_(r) from window w: walk its pointer to r
                    r = lcb[n] if w == 2 * k else ucb[n]
                    d, p, cum = st[w, 0], st[w, 1], st[w, 2]
                    inside = False
                    if d > 0:
                        while p < d - 1 and cum + wc[w, p] < r:
                            cum += wc[w, p]
                            p += 1
                        while p > 0 and r <= cum:
                            p -= 1
                            cum -= wc[w, p]
                        inside = cum < r <= cum + wc[w, p]
                    if inside:
                        st[w, 1], st[w, 2] = p, cum
                    else:
                        _window_rebuild(samples, k, n, r, wv, wc, st, w)
                    if w == 2 * k:
                        lo_val[k] = wv[w, st[w, 1]]
                    else:
                        hi_val[k] = wv[w, st[w, 1]]
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


class _RankTable:
    """n_* and the LCB / UCB ranks of :func:`seq_ranks` shared by the runs of one cell, the
    ranks extended on demand (by doubling, up to the cap) and always computed from n = 0 as
    :func:`seq_ranks` does."""

    def __init__(self, k: int, delta: float, q: float, cap: int):
        self.k, self.delta, self.q, self.cap = k, delta, q, cap
        self.n_star = n_star(k, delta, q)
        self.n_max = 0
        self.lcb = self.ucb = np.zeros(1, dtype=np.int64)

    def upto(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        if n > self.n_max:
            self.n_max = min(self.cap, max(n, 2 * self.n_max))
            self.lcb, self.ucb = seq_ranks(self.n_max, self.k, self.delta, self.q)
        return self.lcb, self.ucb


def _one_run(instance: QuantileInstance, cap: int, streams, ranks: _RankTable, chunk: int, window_cap: int):
    """One run, in chunks of rounds: each active arm's next draws (the n-th sample is the n-th
    draw of its stream, whatever the chunk), then the compiled rounds on them."""
    k = instance.k
    active = np.ones(k, dtype=np.bool_)
    elim_n = np.full(k, -1, dtype=np.int64)
    samples = np.empty((k, min(cap, chunk)))
    wv = np.empty((2 * k, window_cap))
    wc = np.empty((2 * k, window_cap), dtype=np.int64)
    st = np.zeros((2 * k, 4), dtype=np.int64)  # no window yet: built at the first query
    n = guard = 0
    while True:
        stop = min(cap, n + chunk)
        if stop > samples.shape[1]:
            grown = np.empty((k, min(cap, max(stop, 2 * samples.shape[1]))))
            grown[:, :n] = samples[:, :n]
            samples = grown
        for arm in np.flatnonzero(active):
            samples[arm, n:stop] = instance.sample(arm, streams[arm].random(stop - n))
        lcb, ucb = ranks.upto(stop)
        n, g = _seq_rounds(samples, n, stop, lcb, ucb, ranks.n_star, active, elim_n, wv, wc, st)
        guard += g
        if active.sum() == 1 or n >= cap:
            terminated = bool(active.sum() == 1)
            pulls = np.where(elim_n < 0, n, elim_n)
            return {"k_hat": int(np.flatnonzero(active)[0]) if terminated else -1, "terminated": terminated,
                    "n_final": int(n), "pulls": pulls.tolist(), "elim": elim_n.tolist(), "guard": int(guard)}
        chunk = min(2 * chunk, MAX_CHUNK)


def simulate_seq(instance: QuantileInstance, delta: float, cap: int, runs: int,
                 seed: np.random.SeedSequence, chunk: int = INITIAL_CHUNK,
                 window_cap: int = WINDOW_CAP) -> SeqRecords:
    """SEQ on ``runs`` independent runs (run r uses :func:`run_streams` (seed, r)); identical
    records to :func:`run_reference` on the same streams. ``chunk`` (rounds of a run's first
    chunk; later chunks double up to ``MAX_CHUNK``) and ``window_cap`` (distinct values a
    window holds, >= 16) only affect speed."""
    ranks = _RankTable(instance.k, delta, instance.q, cap)
    if cap <= ranks.n_star:
        raise ValueError("cap must exceed n_*")
    if chunk < 1 or window_cap < 16:
        raise ValueError(f"need chunk >= 1 and window_cap >= 16, got {chunk} and {window_cap}")
    rows = [_one_run(instance, cap, run_streams(seed, r, instance.k), ranks, chunk, window_cap) for r in range(runs)]
    return _records(rows)
