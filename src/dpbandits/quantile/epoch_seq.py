"""Epoch-SEQ: the non-private epoch variant of SEQ (paper, text after Theorem 8; pseudo-code
inferred in spec 2.3).

The paper only says that DP-SEQ "reduces to a non-private epoch-based variant" with
D_e = 2^-e and n_e = D_e^-2 log(4 K e^2 / delta) / 2, whose per-arm interval
[X_(floor(n_e (q - D_e))), X_(ceil(n_e (q + D_e)))] misses F^-1(q) with probability at most
delta / (2 K e^2) (Theorem 1), giving the total bound (45). Resolutions (spec 2.3):

* epochs start at e0 = min{e >= 1 : 2^-e <= min(q, 1 - q)} (so q -+ D_e stays in [0, 1]);
* n_e = ceil(log(4 K e^2 / delta) / (2 D_e^2)) with K the initial number of arms;
* fresh samples every epoch (mirrors DP-SEQ); eliminate i iff max_{j != i} LCB_j >= UCB_i on the
  frozen set, with the all-eliminated guard of SEQ;
* it is *not* obtained by plugging eps = inf into Algorithm 2 (that eliminates every arm,
  spec 7.1 #12); it is its own algorithm here.

Privacy: none. Runs have an epoch cap; a run that reaches it is censored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.sources import OrderStatSource, SampleSource, SortedSamples
from dpbandits.quantile.streams import run_streams
from dpbandits.sim.reference import raised_in

__all__ = ["first_epoch", "epoch_size", "interval_ranks", "close_epoch", "EpochAlgorithm", "run_epochs", "PerSample",
           "EpochSEQ", "epoch_seq_run", "simulate_epoch_seq", "EpochRecords"]


def first_epoch(q: float) -> int:
    e = 1
    while 2.0**-e > min(q, 1 - q):
        e += 1
    return e


def epoch_size(k: int, e: int, delta: float) -> int:
    d = 2.0**-e
    return int(math.ceil(math.log(4 * k * e * e / delta) / (2 * d * d)))


@dataclass
class EpochRecords:
    """Per-run records of an epoch algorithm (Epoch-SEQ or DP-SEQ)."""

    k_hat: np.ndarray  # -1 if censored
    terminated: np.ndarray
    final_epoch: np.ndarray
    pulls: np.ndarray  # (runs, K)
    elim_epoch: np.ndarray  # (runs, K), -1 if never
    guard: np.ndarray

    @property
    def total_pulls(self) -> np.ndarray:
        return self.pulls.sum(axis=1)


def interval_ranks(n_e: int, e: int, q: float) -> tuple[int, int]:
    """The ranks of epoch ``e``'s interval [X_(floor(n_e (q - D_e))), X_(ceil(n_e (q + D_e)))],
    each clamped to [1, n_e]."""
    d = 2.0**-e
    return (min(max(math.floor(n_e * (q - d)), 1), n_e), min(max(math.ceil(n_e * (q + d)), 1), n_e))


def close_epoch(e: int, active: list[int], n_e: int, q: float, source) -> list[int] | None:
    """The arms epoch ``e`` removes, from the order statistics of its fresh samples (``source``,
    after ``source.epoch(active, n_e)``): i with max_{j != i} LCB_j >= UCB_i on the frozen set;
    None when that would remove every arm (the all-removed guard keeps the set)."""
    lo, hi = interval_ranks(n_e, e, q)
    ranks = [lo, hi] if hi > lo else [lo]
    stats = {}
    for a in active:
        v = source.order_stats(a, ranks)
        stats[a] = (v[0], v[-1])
    lcb = np.array([stats[a][0] for a in active])
    ucb = np.array([stats[a][1] for a in active])
    removed = [a for idx, a in enumerate(active) if np.max(np.delete(lcb, idx)) >= ucb[idx]]
    return None if len(removed) == len(active) else removed


class EpochAlgorithm:
    """An epoch algorithm of the family (Epoch-SEQ, DP-SEQ) in its batched, order-statistic form:
    each epoch asks for n_e fresh samples of every active arm (:meth:`next_epoch`), then reads a
    few order statistics of them from a source (:meth:`end_epoch`;
    :mod:`dpbandits.quantile.sources`: real sorted samples, or the order statistics drawn directly,
    whose cost does not grow with n_e, so Figure 4's sample sizes stay within reach). One
    ``source.order_stats(arm, ranks)`` call per active arm and epoch, ranks 1-based and increasing.
    :func:`run_epochs` drives it on a source; :class:`PerSample` gives it the family's per-sample
    protocol (:mod:`dpbandits.quantile.interface`).

    A subclass opens an epoch (``_open(e)``: its n_e) and closes it (``_close(source)``: the arms
    it removes, or None when the all-removed guard keeps the set). Epochs run from ``first`` to
    ``max_epoch``; a run still undecided after ``max_epoch`` is censored."""

    def __init__(self, k: int, first: int, max_epoch: int):
        self.k, self.max_epoch = int(k), int(max_epoch)
        self.active = list(range(self.k))
        self.elim, self.pulls = [-1] * self.k, [0] * self.k
        self.e, self.guard = first - 1, 0

    def _open(self, e: int) -> int:
        raise NotImplementedError

    def _close(self, source) -> list[int] | None:
        raise NotImplementedError

    def next_epoch(self) -> tuple[list[int], int] | None:
        """The next epoch's arms and n_e (fresh samples of each), or None once it has stopped."""
        if len(self.active) <= 1 or self.e >= self.max_epoch:
            return None
        self.e += 1
        self.n_e = self._open(self.e)
        for a in self.active:
            self.pulls[a] += self.n_e
        return list(self.active), self.n_e

    def end_epoch(self, source) -> None:
        """Decide the epoch on the order statistics of its samples (``source``)."""
        removed = self._close(source)
        if removed is None:
            self.guard += 1
        for a in removed or ():
            self.active.remove(a)
            self.elim[a] = self.e

    def result(self) -> dict:
        done = len(self.active) == 1
        return {"k_hat": self.active[0] if done else -1, "terminated": done, "n_final": self.e,
                "pulls": list(self.pulls), "elim": list(self.elim), "guard": self.guard}


def run_epochs(algorithm: EpochAlgorithm, source) -> dict:
    """One run of an epoch algorithm on a source: each epoch's samples drawn by
    ``source.epoch(arms, n_e)``, its decision read from them. An error raised inside one of the
    algorithm's methods says which method and epoch (:func:`dpbandits.sim.reference.raised_in`)."""
    who, epoch = type(algorithm).__name__, 1
    while True:
        with raised_in(who, "next_epoch()", epoch, "epoch"):
            request = algorithm.next_epoch()
        if request is None:
            break
        source.epoch(*request)
        with raised_in(who, "end_epoch(source)", epoch, "epoch"):
            algorithm.end_epoch(source)
        epoch += 1
    with raised_in(who, "result()", epoch, "epoch"):
        return algorithm.result()


class PerSample:
    """An :class:`EpochAlgorithm` one sample at a time, in the family's protocol
    (:class:`dpbandits.quantile.interface.QuantileAlgorithm`): each epoch's n_e samples of every
    active arm are asked for arm by arm in index order, then read sorted
    (:class:`~dpbandits.quantile.sources.SortedSamples`), as the reference source reads them, so
    that on the same reward streams it gives :func:`run_epochs`'s record with that source exactly.
    Its privacy is the wrapped algorithm's."""

    def __init__(self, algorithm: EpochAlgorithm):
        self.algorithm = algorithm
        self.private, self.mechanism = algorithm.private, algorithm.mechanism
        self.sensitivity, self.epsilon = algorithm.sensitivity, getattr(algorithm, "epsilon", None)
        self.done = False
        self._next()

    def _next(self) -> None:
        request = self.algorithm.next_epoch()
        if request is None:
            self.done = True
            return
        self.arms, self.n_e = request
        self.samples: dict[int, list[float]] = {a: [] for a in self.arms}
        self._turn = 0  # index into the epoch's arms of the arm being sampled

    def select(self) -> int:
        return self.arms[self._turn]

    def update(self, arm: int, sample: float) -> None:
        if self.done or arm != self.arms[self._turn]:
            raise RuntimeError("update() must follow select() on a running algorithm")
        self.samples[arm].append(float(sample))
        if len(self.samples[arm]) < self.n_e:
            return
        self._turn += 1
        if self._turn < len(self.arms):
            return
        self.algorithm.end_epoch(SortedSamples(self.samples))
        self._next()

    def result(self) -> dict:
        return self.algorithm.result()


class EpochSEQ(EpochAlgorithm):
    """Epoch-SEQ (module docstring) as an :class:`EpochAlgorithm`, deciding each epoch with
    :func:`close_epoch`. Privacy: none."""

    private = False
    mechanism = "none"
    sensitivity = "none"

    def __init__(self, k: int, q: float, delta: float, max_epoch: int = 30):
        if not 0 < delta < 1 or not 0 < q < 1:
            raise ValueError("Epoch-SEQ needs delta in (0, 1) and q in (0, 1)")
        self.q, self.delta = float(q), float(delta)
        super().__init__(k, first_epoch(self.q), max_epoch)

    def _open(self, e: int) -> int:
        return epoch_size(self.k, e, self.delta)

    def _close(self, source) -> list[int] | None:
        return close_epoch(self.e, self.active, self.n_e, self.q, source)


def epoch_seq_run(instance: QuantileInstance, delta: float, source, max_epoch: int) -> dict:
    """One run of Epoch-SEQ on ``source`` (:func:`run_epochs`)."""
    return run_epochs(EpochSEQ(instance.k, instance.q, delta, max_epoch), source)


def records(rows: list[dict]) -> EpochRecords:
    return EpochRecords(np.array([r["k_hat"] for r in rows], dtype=np.int64),
                        np.array([r["terminated"] for r in rows], dtype=bool),
                        np.array([r["n_final"] for r in rows], dtype=np.int64),
                        np.array([r["pulls"] for r in rows], dtype=np.int64),
                        np.array([r["elim"] for r in rows], dtype=np.int64),
                        np.array([r["guard"] for r in rows], dtype=np.int64))


def simulate_epoch_seq(instance: QuantileInstance, delta: float, runs: int, seed: np.random.SeedSequence,
                       max_epoch: int = 30, engine: str = "fast") -> EpochRecords:
    """``engine`` = "fast" (order statistics drawn directly) or "reference" (sorted samples)."""
    source_cls = {"fast": OrderStatSource, "reference": SampleSource}[engine]
    rows = [epoch_seq_run(instance, delta, source_cls(instance, run_streams(seed, r, instance.k)), max_epoch)
            for r in range(runs)]
    return records(rows)
