"""Algorithm 2: Thompson Sampling with Beta(1, 1) priors (Agrawal & Goyal 2017), non-private.
Not run in the paper; a labelled reference line (online spec sections 2.2 and 4).

theta_j ~ Beta(successes_j + 1, failures_j + 1), pull argmax (all observations are used).
Fast engine: all runs, one round at a time, in one compiled loop that draws from the two numpy
Generators itself (numba's Generator methods run numpy's algorithms on the same bit generator:
the same draws in the same order as the vectorised numpy loop it replaces).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

__all__ = ["TSBeta", "simulate_fast_runs"]


class TSBeta:
    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = False
    mechanism: ClassVar[str] = "none (non-private reference line)"
    sensitivity: ClassVar[float] = 0.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int, policy_rng: np.random.Generator):
        self.n_arms = n_arms
        self.policy_rng = policy_rng
        self.successes = np.zeros(n_arms)
        self.failures = np.zeros(n_arms)

    def select(self, t: int) -> int:
        return int(np.argmax(self.policy_rng.beta(self.successes + 1.0, self.failures + 1.0)))

    def update(self, t: int, arm: int, reward: float) -> None:
        self.successes[arm] += reward
        self.failures[arm] += 1.0 - reward


@njit(cache=True)
def _rounds(means, gaps, horizon, checkpoints, reward_rng, policy_rng, a, b, pulls, out):
    """Rounds 1..horizon of every run (rows of ``a``, ``b``, ``pulls``, ``out``). Per round, as
    the vectorised numpy loop: the (runs x K) Beta draws in row order, the first argmax per run,
    then one uniform per run for the rewards."""
    n_runs, k = a.shape
    arm = np.empty(n_runs, dtype=np.int64)
    regret = np.zeros(n_runs)
    c = 0
    for t in range(1, horizon + 1):
        for r in range(n_runs):
            best, top = 0, -np.inf
            for j in range(k):
                theta = policy_rng.beta(a[r, j], b[r, j])
                if theta > top:
                    best, top = j, theta
            arm[r] = best
        for r in range(n_runs):
            j = arm[r]
            if reward_rng.random() < means[j]:
                a[r, j] += 1.0
            else:
                b[r, j] += 1.0
            pulls[r, j] += 1
            regret[r] += gaps[j]
        while c < checkpoints.size and checkpoints[c] == t:
            out[:, c] = regret
            c += 1


def simulate_fast_runs(means, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator, policy_rng: np.random.Generator):
    """All runs at once. Returns (regret[runs, checkpoints], pulls[runs, K])."""
    means = np.asarray(means, dtype=float)
    gaps = means.max() - means
    k = means.size
    a = np.ones((n_runs, k))
    b = np.ones((n_runs, k))
    pulls = np.zeros((n_runs, k), dtype=np.int64)
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    out = np.empty((n_runs, checkpoints.size))
    _rounds(means, gaps, int(horizon), checkpoints, reward_rng, policy_rng, a, b, pulls, out)
    return out, pulls
