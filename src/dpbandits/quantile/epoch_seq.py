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
from dpbandits.quantile.sources import OrderStatSource, SampleSource
from dpbandits.quantile.streams import run_streams

__all__ = ["first_epoch", "epoch_size", "epoch_seq_run", "simulate_epoch_seq", "EpochRecords"]


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


def epoch_seq_run(instance: QuantileInstance, delta: float, source, max_epoch: int) -> dict:
    k, q = instance.k, instance.q
    active = list(range(k))
    elim_epoch, pulls = [-1] * k, [0] * k
    e, guard = first_epoch(q) - 1, 0
    while len(active) > 1 and e < max_epoch:
        e += 1
        d, n_e = 2.0**-e, epoch_size(k, e, delta)
        lo = min(max(math.floor(n_e * (q - d)), 1), n_e)
        hi = min(max(math.ceil(n_e * (q + d)), 1), n_e)
        source.epoch(active, n_e)
        ranks = [lo, hi] if hi > lo else [lo]
        stats = {}
        for a in active:
            pulls[a] += n_e
            v = source.order_stats(a, ranks)
            stats[a] = (v[0], v[-1])
        lcb = np.array([stats[a][0] for a in active])
        ucb = np.array([stats[a][1] for a in active])
        removed = [a for idx, a in enumerate(active) if np.max(np.delete(lcb, idx)) >= ucb[idx]]
        if len(removed) == len(active):
            guard += 1
            continue
        for a in removed:
            active.remove(a)
            elim_epoch[a] = e
    done = len(active) == 1
    return {"k_hat": active[0] if done else -1, "terminated": done, "final_epoch": e,
            "pulls": pulls, "elim_epoch": elim_epoch, "guard": guard}


def records(rows: list[dict]) -> EpochRecords:
    return EpochRecords(np.array([r["k_hat"] for r in rows], dtype=np.int64),
                        np.array([r["terminated"] for r in rows], dtype=bool),
                        np.array([r["final_epoch"] for r in rows], dtype=np.int64),
                        np.array([r["pulls"] for r in rows], dtype=np.int64),
                        np.array([r["elim_epoch"] for r in rows], dtype=np.int64),
                        np.array([r["guard"] for r in rows], dtype=np.int64))


def simulate_epoch_seq(instance: QuantileInstance, delta: float, runs: int, seed: np.random.SeedSequence,
                       max_epoch: int = 30, engine: str = "fast") -> EpochRecords:
    """``engine`` = "fast" (order statistics drawn directly) or "reference" (sorted samples)."""
    source_cls = {"fast": OrderStatSource, "reference": SampleSource}[engine]
    rows = [epoch_seq_run(instance, delta, source_cls(instance, run_streams(seed, r, instance.k)), max_epoch)
            for r in range(runs)]
    return records(rows)
