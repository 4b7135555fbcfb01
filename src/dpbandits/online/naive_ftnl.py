"""Naive FTNL (online paper section 5, first paragraph; spec section 2.4, details inferred).

Same epochs as RNM-FTNL (Alg. 4), but every action's epoch sum is released on its own with an
(epsilon/K) budget: J <- argmax_j (Phi_j + Lap(K/epsilon)).

Privacy: epsilon-DP for any neighbours. One replaced reward vector moves each Phi_j by at most 1,
so each of the K Laplace releases is (epsilon/K)-DP, K of them compose to epsilon, and the argmax
is post-processing. The paper only *expects* regret O(max(log K / Delta, K log K / epsilon))
(erratum E12); it serves as the baseline that shows RNM's saving of a factor K (check FT-5).
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.online.full_info import EpochFollowTheNoisyLeader, FullInfoResult, simulate_epochs

__all__ = ["NaiveFTNL", "mechanism", "simulate_fast_runs"]


def mechanism(epsilon: float, n_actions: int) -> LaplaceMechanism:
    """One action's release: Laplace with budget epsilon / K and sensitivity 1."""
    return LaplaceMechanism(epsilon / n_actions, sensitivity=1.0)


def _release(laplace: LaplaceMechanism):
    return lambda phi, rng: np.argmax(laplace.release(phi, rng), axis=-1)


class NaiveFTNL(EpochFollowTheNoisyLeader):
    """Per-round reference implementation of the naive FTNL."""

    private = True

    def __init__(self, n_actions: int, epsilon: float, noise_rng: np.random.Generator):
        self.mechanism = mechanism(epsilon, n_actions)
        super().__init__(n_actions, _release(self.mechanism), noise_rng)


def simulate_fast_runs(means, epsilon: float, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator, noise_rng: np.random.Generator
                       ) -> FullInfoResult:
    """``n_runs`` runs of the naive FTNL at once, event-driven over epochs."""
    laplace = mechanism(epsilon, np.asarray(means).size)
    return simulate_epochs(means, horizon, checkpoints, n_runs, _release(laplace),
                           reward_rng, noise_rng)
