"""Stochastic Bernoulli K-armed bandit (online paper, section 2.1)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BernoulliBandit", "validate_means"]


def validate_means(means) -> np.ndarray:
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size < 2:
        raise ValueError(f"arm means: need K >= 2 arms, got {means.tolist()}")
    if np.any(means < 0) or np.any(means > 1) or not np.all(np.isfinite(means)):
        raise ValueError(f"arm means must lie in [0, 1], got {means.tolist()}")
    return means


@dataclass
class BernoulliBandit:
    """Rewards X_j(t) ~ Bernoulli(mu_j), i.i.d. over time; pseudo-regret uses gaps = max mu - mu."""

    means: np.ndarray

    def __post_init__(self) -> None:
        self.means = validate_means(self.means)

    @property
    def n_arms(self) -> int:
        return self.means.size

    @property
    def gaps(self) -> np.ndarray:
        return self.means.max() - self.means

    def reward(self, t: int, arm: int, rng: np.random.Generator) -> float:
        return float(rng.random() < self.means[arm])
