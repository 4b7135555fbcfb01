"""A deliberately leaky "private" UCB: an example that the black-box audit must refute
(README, "The Python API, and bringing your own algorithm"; check X-AUDIT-LEAKY-UCB).

At every round t > K it perturbs each arm's empirical mean with fresh Lap(1 / (epsilon n_j))
noise and pulls argmax_j of ``noisy mean_j + sqrt(2 ln t / n_j)``. Each single release is
epsilon-DP (the mean of n_j rewards has sensitivity 1 / n_j), and that is the mistake: the same
reward enters the release of every later round, so the privacy loss composes over the rounds
(up to (T - K) epsilon), while the class claims epsilon-DP. It implements the per-step and the
vectorised interface of :mod:`dpbandits.online.interface`.
"""

from __future__ import annotations

import math

import numpy as np


class LeakyUCB:
    """Fresh Laplace noise on every arm's mean at every round (leaks: module docstring)."""

    private = True

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, *,
                 noise_multiplier: float = 1.0, copies: int | None = None):
        if not epsilon > 0:
            raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
        self.k, self.copies, self.rng = int(n_arms), copies, rng
        n = 1 if copies is None else int(copies)
        self.scale = noise_multiplier / float(epsilon)
        self.rows = np.arange(n)
        self.n = np.zeros((n, self.k))
        self.s = np.zeros((n, self.k))
        self.released = np.zeros((n, self.k), dtype=np.int64)

    @property
    def releases(self) -> np.ndarray:
        return self.released[0] if self.copies is None else self.released

    def select(self, t: int):
        if t <= self.k:
            arms = np.full(self.rows.size, t - 1)
        else:
            noise = self.rng.laplace(0.0, self.scale, size=self.n.shape) if self.scale > 0 else 0.0
            index = (self.s + noise) / self.n + np.sqrt(2.0 * math.log(t) / self.n)
            self.released += 1
            arms = np.argmax(index, axis=1)
        return int(arms[0]) if self.copies is None else arms

    def update(self, t: int, arm, reward) -> None:
        arms = np.atleast_1d(np.asarray(arm, dtype=np.int64))
        self.n[self.rows, arms] += 1
        self.s[self.rows, arms] += np.atleast_1d(np.asarray(reward, dtype=float))
