"""DP-SE: differentially private successive elimination (Sajed & Sheffet 2019), as reconstructed
in the online spec section 5.1 [INFERRED there; the online paper only names it]. Confidence
beta = 1/T (Azize & Basu's choice; online spec erratum E2), so DP-SE needs the horizon.

Epoch e = 1, 2, ... with Delta_e = 2^-e and active set S:
    R_e = ceil(max(32 ln(8|S|e^2/beta) / Delta_e^2, 8 ln(4|S|e^2/beta) / (epsilon Delta_e)))
every arm of S is pulled R_e times, round-robin in increasing arm order (truncated at T);
    mu_tilde_a = (epoch reward sum of a + Lap(1/epsilon)) / R_e        (fresh samples only)
    h_e = sqrt(ln(8|S|e^2/beta) / (2 R_e)),  c_e = ln(4|S|e^2/beta) / (epsilon R_e)
and every a with max_b mu_tilde_b - mu_tilde_a > 2 (h_e + c_e) is removed.

Privacy: the epochs use disjoint fresh samples; in the bandit setting a changed reward vector
changes only the pulled arm's reward, i.e. one arm's epoch sum by at most 1. One Lap(1/epsilon)
per arm and epoch on the sum (sensitivity 1) is epsilon-DP; elimination is post-processing.

Fast engine: one event per epoch (Binomial epoch sums); the round-robin regret is recorded
exactly at every checkpoint.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.sim.checkpoints import CheckpointRecorder
from dpbandits.sim.reference import RunResult

__all__ = ["DPSE", "epoch_length", "elimination_margin", "eliminate", "simulate_fast"]


def epoch_length(n_active: int, epoch: int, epsilon: float, beta: float) -> int:
    """R_e of the spec, section 5.1 step 2.2."""
    delta_e = 2.0 ** (-epoch)
    log_h = math.log(8.0 * n_active * epoch**2 / beta)
    log_c = math.log(4.0 * n_active * epoch**2 / beta)
    return int(math.ceil(max(32.0 * log_h / delta_e**2, 8.0 * log_c / (epsilon * delta_e))))


def elimination_margin(n_active: int, n_pulls: int, epoch: int, epsilon: float, beta: float) -> float:
    """2 (h_e + c_e) of the spec, section 5.1: an arm is removed when the best private mean exceeds
    its own by more than this (n_pulls = R_e pulls per arm)."""
    h = math.sqrt(math.log(8.0 * n_active * epoch**2 / beta) / (2.0 * n_pulls))
    c = math.log(4.0 * n_active * epoch**2 / beta) / (epsilon * n_pulls)
    return 2.0 * (h + c)


def eliminate(epoch_sums: np.ndarray, n_pulls: int, epoch: int, epsilon: float, beta: float,
              rng: np.random.Generator, noise_multiplier: float = 1.0,
              copies: int | None = None) -> np.ndarray:
    """The data-touching step of one epoch: private means and the elimination rule.

    ``epoch_sums`` are the reward sums of the active arms over this epoch's ``n_pulls`` = R_e
    pulls each. Returns the boolean mask of arms that survive. This is the mechanism audited by
    the black-box privacy audit (``noise_multiplier`` < 1 only for its negative control;
    ``copies`` = n gives n independent releases on the same sums, shape (n, arms)).
    """
    epoch_sums = np.asarray(epoch_sums, dtype=float)
    n_active = epoch_sums.size
    laplace = LaplaceMechanism(epsilon=epsilon, sensitivity=1.0, noise_multiplier=noise_multiplier)
    shape = n_active if copies is None else (copies, n_active)
    mu_tilde = (epoch_sums + laplace.noise(rng, size=shape)) / n_pulls
    margin = elimination_margin(n_active, n_pulls, epoch, epsilon, beta)
    return ~(mu_tilde.max(axis=-1, keepdims=True) - mu_tilde > margin)


class DPSE:
    """Per-step reference implementation of DP-SE (needs the horizon for beta = 1/T)."""

    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = True
    mechanism: ClassVar[str] = ("Laplace(1/epsilon) on each arm's epoch sum (disjoint fresh samples "
                                "per epoch); elimination is post-processing")
    sensitivity: ClassVar[float] = 1.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int, epsilon: float, horizon: int, noise_rng: np.random.Generator,
                 beta: float | None = None, noise_multiplier: float = 1.0):
        self.n_arms = n_arms
        self.epsilon = float(epsilon)
        self.beta = 1.0 / horizon if beta is None else float(beta)
        self.noise_rng = noise_rng
        self.noise_multiplier = noise_multiplier
        self.active = np.arange(n_arms)
        self.releases = np.zeros(n_arms, dtype=np.int64)
        self._new_epoch(1)

    def _new_epoch(self, epoch: int) -> None:
        self.epoch = epoch
        self.R = epoch_length(self.active.size, epoch, self.epsilon, self.beta)
        self.position = 0
        self.sums = np.zeros(self.active.size)

    def select(self, t: int) -> int:
        if self.active.size == 1:
            return int(self.active[0])
        return int(self.active[self.position % self.active.size])

    def update(self, t: int, arm: int, reward: float) -> None:
        if self.active.size == 1:
            return
        self.sums[self.position % self.active.size] += reward
        self.position += 1
        if self.position == self.R * self.active.size:
            self.releases[self.active] += 1
            keep = eliminate(self.sums, self.R, self.epoch, self.epsilon, self.beta,
                             self.noise_rng, self.noise_multiplier)
            self.active = self.active[keep]
            self._new_epoch(self.epoch + 1)


def simulate_fast(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                  beta: float | None = None, noise_multiplier: float = 1.0) -> RunResult:
    """Event-driven exact simulation of one run of DP-SE."""
    means = np.asarray(means, dtype=float)
    gaps = means.max() - means
    k = means.size
    beta = 1.0 / horizon if beta is None else float(beta)
    rec = CheckpointRecorder(checkpoints)
    pulls = np.zeros(k, dtype=np.int64)
    releases = np.zeros(k, dtype=np.int64)
    active = np.arange(k)
    t, epoch = 0, 1
    while t < horizon:
        if active.size == 1:
            rec.constant(horizon - t, gaps[active[0]])
            pulls[active[0]] += horizon - t
            break
        R = epoch_length(active.size, epoch, epsilon, beta)
        n_rounds = R * active.size
        if t + n_rounds > horizon:  # truncated epoch: round-robin until T, never released
            left = horizon - t
            rec.cycle(left, gaps[active])
            pulls[active] += left // active.size + (np.arange(active.size) < left % active.size)
            break
        sums = reward_rng.binomial(R, means[active]).astype(float)
        rec.cycle(n_rounds, gaps[active])
        pulls[active] += R
        releases[active] += 1
        t += n_rounds
        active = active[eliminate(sums, R, epoch, epsilon, beta, noise_rng, noise_multiplier)]
        epoch += 1
    return RunResult(rec.values, pulls, releases)
