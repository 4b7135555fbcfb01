"""The full-information setting of the online paper (section 2.1, footnote 5; spec 1.2 and 6.3).

Each round t the environment draws a whole reward vector X(t) in {0,1}^K with independent
Bernoulli(mu_j) coordinates (erratum E10: the joint law is unspecified; we take the product, as in
the Theorem 12 packing); the learner plays one action and observes the whole vector.
Pseudo-regret is sum_t Delta_{J_t}.

This module holds what RNM-FTNL (Alg. 4) and the naive FTNL share: the epoch schedule
(epoch 0 is round 1, epoch s >= 1 is rounds 2^s .. 2^{s+1} - 1), a per-round reference engine,
and a fast engine that is vectorised over runs and event-driven over epochs: each epoch's sums are
one Binomial(2^s, mu_j) draw per action, so a run costs O(K log T).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpbandits.envs.bernoulli import validate_means

__all__ = ["epoch_bounds", "EpochFollowTheNoisyLeader", "FullInfoResult", "run_reference",
           "simulate_epochs"]

Release = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def epoch_bounds(horizon: int) -> list[tuple[int, int]]:
    """(first round, length) of every epoch within [1, T]; the last one is truncated."""
    out, start, length = [(1, 1)], 2, 2
    while start <= horizon:
        out.append((start, min(length, horizon - start + 1)))
        start, length = start + length, 2 * length
    return out if horizon >= 1 else []


@dataclass
class FullInfoResult:
    """Per-run regret at the checkpoints [runs, checkpoints] and rounds each action was played."""

    regret: np.ndarray
    plays: np.ndarray


class EpochFollowTheNoisyLeader:
    """Per-round reference implementation of the epoch scheme of Alg. 4.

    Round 1 plays action index 0 (spec 2.5 RESOLVE; instances put the optimal action elsewhere,
    erratum E11). At the end of every epoch the played action for the next epoch becomes
    ``release(Phi)`` where Phi are the current epoch's reward sums ("forgetful": Phi is reset).
    """

    def __init__(self, n_actions: int, release: Release, noise_rng: np.random.Generator):
        self.n_actions = n_actions
        self.release = release
        self.noise_rng = noise_rng
        self.action = 0
        self.phi = np.zeros(n_actions)
        self.epoch_end = 1  # last round of the current epoch
        self.epoch_length = 1

    def select(self, t: int) -> int:
        return self.action

    def observe(self, t: int, rewards: np.ndarray) -> None:
        self.phi += rewards
        if t == self.epoch_end:
            self.action = int(self.release(self.phi[None, :], self.noise_rng)[0])
            self.phi[:] = 0.0
            self.epoch_length = 2 if t == 1 else 2 * self.epoch_length
            self.epoch_end = t + self.epoch_length


def run_reference(alg: EpochFollowTheNoisyLeader, means, horizon: int, checkpoints,
                  reward_rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Play ``horizon`` rounds with whole reward vectors; returns (regret at checkpoints, plays)."""
    means = validate_means(means)
    gaps = means.max() - means
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    regret, cum, plays = np.empty(checkpoints.size), 0.0, np.zeros(means.size, dtype=np.int64)
    nxt = 0
    for t in range(1, horizon + 1):
        arm = alg.select(t)
        cum += gaps[arm]
        plays[arm] += 1
        alg.observe(t, (reward_rng.random(means.size) < means).astype(float))
        while nxt < checkpoints.size and checkpoints[nxt] == t:
            regret[nxt] = cum
            nxt += 1
    return regret, plays


def simulate_epochs(means, horizon: int, checkpoints, n_runs: int, release: Release,
                    reward_rng: np.random.Generator, noise_rng: np.random.Generator
                    ) -> FullInfoResult:
    """Fast engine: ``n_runs`` runs at once, one Binomial draw per (run, action, epoch)."""
    means = validate_means(means)
    gaps = means.max() - means
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    regret = np.empty((n_runs, checkpoints.size))
    plays = np.zeros((n_runs, means.size), dtype=np.int64)
    action = np.zeros(n_runs, dtype=np.int64)
    runs = np.arange(n_runs)
    done = np.zeros(n_runs)  # regret before the current epoch
    epochs = epoch_bounds(horizon)
    for i, (start, length) in enumerate(epochs):
        gap = gaps[action]
        inside = (checkpoints >= start) & (checkpoints < start + length)
        regret[:, inside] = done[:, None] + (checkpoints[inside] - start + 1) * gap[:, None]
        done = done + length * gap
        plays[runs, action] += length
        if i + 1 < len(epochs):  # this epoch's release is played by the next one
            phi = reward_rng.binomial(length, means, size=(n_runs, means.size)).astype(float)
            action = np.asarray(release(phi, noise_rng), dtype=np.int64)
    return FullInfoResult(regret, plays)
