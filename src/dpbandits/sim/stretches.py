"""Bookkeeping shared by the event-driven fast engines: one run of a Bernoulli bandit played in
stretches (one arm pulled m times in a row), with exact pseudo-regret at the checkpoints."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpbandits.sim.checkpoints import CheckpointRecorder
from dpbandits.sim.reference import RunResult

__all__ = ["StretchRun"]


class StretchRun:
    def __init__(self, means, checkpoints, reward_rng: np.random.Generator):
        self.means = np.asarray(means, dtype=float)
        self.gaps = self.means.max() - self.means
        self.recorder = CheckpointRecorder(checkpoints)
        self.pulls = np.zeros(self.means.size, dtype=np.int64)
        self.reward_rng = reward_rng

    def initial_rounds(self, horizon: int, initialise: Callable[[int, float], None]) -> int:
        """Rounds 1..K pull arm j at round j (the papers' initialisation); returns next round."""
        k = min(self.means.size, horizon)
        for arm in range(k):
            initialise(arm, float(self.reward_rng.random() < self.means[arm]))
            self.recorder.constant(1, self.gaps[arm])
            self.pulls[arm] += 1
        return k + 1

    def play(self, arm: int, n_rounds: int) -> float:
        """Pull ``arm`` for ``n_rounds`` rounds; returns their reward sum (one Binomial draw)."""
        self.recorder.constant(n_rounds, self.gaps[arm])
        self.pulls[arm] += n_rounds
        return float(self.reward_rng.binomial(n_rounds, self.means[arm]))

    def result(self, releases: np.ndarray) -> RunResult:
        return RunResult(self.recorder.values, self.pulls, np.asarray(releases).copy())
