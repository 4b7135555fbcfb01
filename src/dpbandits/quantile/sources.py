"""Where the epoch algorithms (Epoch-SEQ, DP-SEQ) get their order statistics from.

Both algorithms draw ``n_e`` *fresh* samples per active arm in every epoch and then read only a
few order statistics of them. Two sources, one interface (``epoch(arms, n_e)`` then one
``order_stats(arm, ranks)`` call per arm and epoch, ranks 1-based and increasing):

* :class:`SampleSource` (reference): the reward table itself. Arm a's epoch samples are the next
  ``n_e`` draws of its own stream (earlier epochs' samples are discarded), sorted; the requested
  ranks are read off the sorted array. Needed wherever the data matter: neighbouring tables
  (audits), monotone transforms under common random numbers (A10), the full ell* matrix.
* :class:`OrderStatSource` (fast): draws only the requested order statistics, exactly in
  distribution. With U_(1) <= ... <= U_(n) the order statistics of n uniforms, sorted samples are
  ppf(U_(r)) (ppf is non-decreasing), and for ranks r_1 < r_2 < ... (Markov property of order
  statistics) U_(r_1) ~ Beta(r_1, n - r_1 + 1) and
  1 - U_(r_{t+1}) = (1 - U_(r_t)) (1 - V_t), V_t ~ Beta(r_{t+1} - r_t, n - r_{t+1} + 1).
  Its cost is O(number of ranks), independent of n_e (DP-SEQ's n_e reaches 10^7).
  tests/test_quantile_epochs.py checks it against sorted samples in distribution.
"""

from __future__ import annotations

import numpy as np

from dpbandits.quantile.instances import QuantileInstance

__all__ = ["uniform_order_stats", "SampleSource", "OrderStatSource", "SortedSamples"]


def uniform_order_stats(n: int, ranks, rng: np.random.Generator) -> np.ndarray:
    """Joint draw of U_(r) for increasing 1-based ranks r of n iid Uniform(0, 1)."""
    ranks = np.asarray(ranks, dtype=np.int64)
    if ranks.size == 0:
        return np.empty(0)
    if ranks[0] < 1 or ranks[-1] > n or np.any(np.diff(ranks) <= 0):
        raise ValueError("ranks must be strictly increasing within [1, n]")
    steps = np.diff(np.concatenate([[0], ranks]))
    v = rng.beta(steps.astype(float), (n - ranks + 1).astype(float))
    log_tail = np.cumsum(np.log1p(-v))  # log(1 - U_(r))
    return -np.expm1(log_tail)


class SampleSource:
    """Reference source: fresh samples from each arm's own stream, sorted."""

    exact_window = True  # ell* can always be computed over its whole range

    def __init__(self, instance: QuantileInstance, streams: list[np.random.Generator]):
        self.instance, self.streams = instance, streams
        self.sorted: dict[int, np.ndarray] = {}

    def epoch(self, arms, n_e: int) -> None:
        self.sorted = {a: np.sort(self.instance.sample(a, self.streams[a].random(n_e))) for a in arms}

    def order_stats(self, arm: int, ranks) -> np.ndarray:
        return self.sorted[arm][np.asarray(ranks, dtype=np.int64) - 1]


class SortedSamples:
    """An epoch's fresh samples already drawn (arm -> its samples, in any order), read as the
    reference source reads them: sorted, every rank exact. The per-sample epoch algorithms
    (:mod:`dpbandits.quantile.interface`) decide their epochs on it."""

    exact_window = True

    def __init__(self, samples: dict[int, list[float]]):
        self.sorted = {a: np.sort(np.asarray(v, dtype=float)) for a, v in samples.items()}

    def order_stats(self, arm: int, ranks) -> np.ndarray:
        return self.sorted[arm][np.asarray(ranks, dtype=np.int64) - 1]


class OrderStatSource:
    """Fast source: only the requested order statistics, drawn from each arm's own stream."""

    exact_window = False  # callers request only the window their decision can read

    def __init__(self, instance: QuantileInstance, streams: list[np.random.Generator]):
        self.instance, self.streams = instance, streams
        self.n_e = 0

    def epoch(self, arms, n_e: int) -> None:
        self.n_e = int(n_e)

    def order_stats(self, arm: int, ranks) -> np.ndarray:
        u = uniform_order_stats(self.n_e, ranks, self.streams[arm])
        return self.instance.sample(arm, u)
