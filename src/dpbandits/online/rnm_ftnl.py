"""Algorithm 4: RNM-FTNL, Report-Noisy-Max Follow-The-Noisy-Leader (online paper section 5;
spec section 2.5). Full information, anytime.

Epoch 0 is round 1 (action index 0 is played); epoch s >= 1 plays J for rounds 2^s .. 2^{s+1}-1
while summing every action's rewards into Phi; at its end J <- argmax_j (Phi_j + Lap(c/epsilon))
(report noisy max over the current epoch only) and Phi is reset.

Privacy. ``noise_factor`` c = 1 is the paper (Theorem 8 claims epsilon-DP via Dwork & Roth
Claim 3.9). Under the paper's own neighbouring relation (one whole reward vector replaced,
Definition 1) two sums can move in opposite directions, and c = 1 is only 2 epsilon-DP: the exact
loss of one release is computed in :mod:`dpbandits.mechanisms.report_noisy_max` (spec issue P1,
check P-EXACT-RNM). c = 2 is epsilon-DP: each release is the arbitrary-neighbour RNM, and a changed
round enters exactly one epoch's release (the epochs are disjoint and forgetful; the others are
post-processing or unaffected). c = 2 equals c = 1 run at epsilon / 2.
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms.report_noisy_max import ReportNoisyMax
from dpbandits.online.full_info import EpochFollowTheNoisyLeader, FullInfoResult, simulate_epochs

__all__ = ["RNMFTNL", "mechanism", "simulate_fast_runs"]


def mechanism(epsilon: float, noise_factor: float = 1.0,
              noise_multiplier: float = 1.0) -> ReportNoisyMax:
    """The per-epoch release: RNM with Lap(noise_factor / epsilon)."""
    return ReportNoisyMax(epsilon, scale_factor=noise_factor, noise_multiplier=noise_multiplier)


class RNMFTNL(EpochFollowTheNoisyLeader):
    """Per-round reference implementation of Alg. 4."""

    private = True

    def __init__(self, n_actions: int, epsilon: float, noise_rng: np.random.Generator,
                 noise_factor: float = 1.0, noise_multiplier: float = 1.0):
        self.mechanism = mechanism(epsilon, noise_factor, noise_multiplier)
        super().__init__(n_actions, lambda phi, rng: self.mechanism.release(phi, rng), noise_rng)


def simulate_fast_runs(means, epsilon: float, horizon: int, checkpoints, n_runs: int,
                       reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                       noise_factor: float = 1.0) -> FullInfoResult:
    """``n_runs`` runs of Alg. 4 at once, event-driven over epochs (cost O(K log T) per run)."""
    rnm = mechanism(epsilon, noise_factor)
    return simulate_epochs(means, horizon, checkpoints, n_runs,
                           lambda phi, rng: np.atleast_1d(rnm.release(phi, rng)),
                           reward_rng, noise_rng)
