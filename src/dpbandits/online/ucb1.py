"""UCB1 (Auer, Cesa-Bianchi & Fischer 2002): non-private reference line, an addition to the
paper's figures (online spec section 4, "Non-private baselines", labelled as an addition).

Index: empirical mean + sqrt(2 ln t / n_j); each arm is pulled once first.

Fast engine: all runs, one round at a time (the index changes after every pull, so there is no
lazy structure to exploit), in one compiled loop that draws the rewards from the numpy Generator
itself (numba's Generator methods run numpy's algorithms on the same bit generator) and computes
the index with the same float operations in the same order as the vectorised numpy loop it
replaces.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
from numba import njit

__all__ = ["UCB1", "simulate_fast_runs"]


class UCB1:
    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = False
    mechanism: ClassVar[str] = "none (non-private reference line)"
    sensitivity: ClassVar[float] = 0.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int):
        self.n_arms = n_arms
        self.n = np.zeros(n_arms)
        self.s = np.zeros(n_arms)

    def select(self, t: int) -> int:
        if t <= self.n_arms:
            return t - 1
        return int(np.argmax(self.s / self.n + np.sqrt(2.0 * math.log(t) / self.n)))

    def update(self, t: int, arm: int, reward: float) -> None:
        self.n[arm] += 1
        self.s[arm] += reward


@njit(cache=True)
def _rounds(means, gaps, horizon, checkpoints, reward_rng, n, s, out):
    """Rounds 1..horizon of every run (rows of ``n``, ``s``, ``out``): arm t - 1 at round
    t <= K, then the first argmax of s / n + sqrt(2 ln t / n); one uniform per run for the
    rewards, in run order."""
    n_runs, k = n.shape
    arm = np.empty(n_runs, dtype=np.int64)
    regret = np.zeros(n_runs)
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            arm[:] = t - 1
        else:
            two_log_t = 2.0 * math.log(t)
            for r in range(n_runs):
                best, top = 0, -np.inf
                for j in range(k):
                    index = s[r, j] / n[r, j] + np.sqrt(two_log_t / n[r, j])
                    if index > top:
                        best, top = j, index
                arm[r] = best
        for r in range(n_runs):
            j = arm[r]
            n[r, j] += 1
            if reward_rng.random() < means[j]:
                s[r, j] += 1.0
            regret[r] += gaps[j]
        while c < checkpoints.size and checkpoints[c] == t:
            out[:, c] = regret
            c += 1


def simulate_fast_runs(means, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator):
    """All runs at once. Returns (regret[runs, checkpoints], pulls[runs, K])."""
    means = np.asarray(means, dtype=float)
    gaps = means.max() - means
    k = means.size
    n = np.zeros((n_runs, k))
    s = np.zeros((n_runs, k))
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    out = np.empty((n_runs, checkpoints.size))
    _rounds(means, gaps, int(horizon), checkpoints, reward_rng, n, s, out)
    return out, n.astype(np.int64)
