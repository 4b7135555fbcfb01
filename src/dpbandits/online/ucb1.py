"""UCB1 (Auer, Cesa-Bianchi & Fischer 2002): non-private reference line, an addition to the
paper's figures (online spec section 4, "Non-private baselines", labelled as an addition).

Index: empirical mean + sqrt(2 ln t / n_j); each arm is pulled once first.

Fast engine: vectorised over runs, one round at a time (the index changes after every pull, so
there is no lazy structure to exploit).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["UCB1", "simulate_fast_runs"]


class UCB1:
    private = False

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


def simulate_fast_runs(means, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator):
    """All runs at once. Returns (regret[runs, checkpoints], pulls[runs, K])."""
    means = np.asarray(means, dtype=float)
    gaps = means.max() - means
    k = means.size
    rows = np.arange(n_runs)
    n = np.zeros((n_runs, k))
    s = np.zeros((n_runs, k))
    checkpoints = np.asarray(checkpoints)
    out = np.empty((n_runs, checkpoints.size))
    regret = np.zeros(n_runs)
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            arm = np.full(n_runs, t - 1)
        else:
            arm = np.argmax(s / n + np.sqrt(2.0 * math.log(t) / n), axis=1)
        n[rows, arm] += 1
        s[rows, arm] += reward_rng.random(n_runs) < means[arm]
        regret += gaps[arm]
        while c < checkpoints.size and checkpoints[c] == t:
            out[:, c] = regret
            c += 1
    return out, n.astype(np.int64)
