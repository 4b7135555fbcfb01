"""The plain per-step reference engine.

It runs any algorithm that has the family interface ``select(t) -> arm`` and
``update(t, arm, reward)`` one round at a time, drawing the reward of the pulled arm from the
environment. It is deliberately simple: every fast engine is tested against it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["RunResult", "run_reference"]


@dataclass
class RunResult:
    """Outcome of one run: cumulative pseudo-regret at the checkpoints, pull counts, number of
    private releases per arm (0 for non-private algorithms), and the actions if recorded."""

    regret: np.ndarray
    pulls: np.ndarray
    releases: np.ndarray
    actions: np.ndarray | None = None


def run_reference(algorithm, env, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, record_actions: bool = False) -> RunResult:
    gaps = env.gaps
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    values = np.empty(checkpoints.size)
    pulls = np.zeros(env.n_arms, dtype=np.int64)
    actions = np.empty(horizon, dtype=np.int64) if record_actions else None
    regret = 0.0
    c = 0
    for t in range(1, horizon + 1):
        arm = algorithm.select(t)
        algorithm.update(t, arm, env.reward(t, arm, reward_rng))
        pulls[arm] += 1
        regret += gaps[arm]
        if actions is not None:
            actions[t - 1] = arm
        while c < checkpoints.size and checkpoints[c] == t:
            values[c] = regret
            c += 1
    releases = np.asarray(getattr(algorithm, "releases", np.zeros(env.n_arms)), dtype=np.int64)
    return RunResult(values, pulls, releases.copy(), actions)
