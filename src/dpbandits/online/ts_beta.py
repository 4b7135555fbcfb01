"""Algorithm 2: Thompson Sampling with Beta(1, 1) priors (Agrawal & Goyal 2017), non-private.
Not run in the paper; a labelled reference line (online spec sections 2.2 and 4).

theta_j ~ Beta(successes_j + 1, failures_j + 1), pull argmax (all observations are used).
Fast engine: vectorised over runs, one round at a time.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TSBeta", "simulate_fast_runs"]


class TSBeta:
    private = False

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


def simulate_fast_runs(means, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator, policy_rng: np.random.Generator):
    """All runs at once. Returns (regret[runs, checkpoints], pulls[runs, K])."""
    means = np.asarray(means, dtype=float)
    gaps = means.max() - means
    k = means.size
    rows = np.arange(n_runs)
    a = np.ones((n_runs, k))
    b = np.ones((n_runs, k))
    pulls = np.zeros((n_runs, k), dtype=np.int64)
    checkpoints = np.asarray(checkpoints)
    out = np.empty((n_runs, checkpoints.size))
    regret = np.zeros(n_runs)
    c = 0
    for t in range(1, horizon + 1):
        arm = np.argmax(policy_rng.beta(a, b), axis=1)
        x = reward_rng.random(n_runs) < means[arm]
        a[rows, arm] += x
        b[rows, arm] += ~x
        pulls[rows, arm] += 1
        regret += gaps[arm]
        while c < checkpoints.size and checkpoints[c] == t:
            out[:, c] = regret
            c += 1
    return out, pulls
