"""Algorithm 1: Anytime-Lazy-UCB (online paper, section 4; spec section 2.1).

Index (step 2.1), natural log, global round t:
    mu_bar_j(t) = mu_tilde_j + sqrt(3 ln t / O_j) + 3 ln t / (epsilon O_j).
Ties are broken towards the lowest arm index (np.argmax).

Privacy: epsilon-DP (Theorem 2) through :class:`DoublingBatchMeans` (one Lap(1/epsilon) per
released batch sum, sensitivity 1); the index and argmax are post-processing.

Fast engine (:func:`simulate_fast`): between two releases the state is fixed and every index is
``a_j + b_j s + c_j s^2`` with ``s = sqrt(ln t)``, ``b_j = sqrt(3/O_j)``, ``c_j = 3/(epsilon O_j)``.
The difference of two indices is monotone in s, so the leader keeps being pulled until its batch
completes or another arm's index overtakes it; that crossing round is found analytically and
confirmed with the same index formula the reference uses. A stretch of m pulls draws one
Binomial(m, mu) reward sum. Cost: O(K^3 log T) events per run, independent of T otherwise.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from dpbandits.online.lazy_batches import DoublingBatchMeans
from dpbandits.sim.reference import RunResult
from dpbandits.sim.stretches import StretchRun

__all__ = ["AnytimeLazyUCB", "index", "simulate_fast"]


def index(mu_tilde, O, t: int, epsilon: float):
    """Private UCB of Algorithm 1, step 2.1."""
    log_t = math.log(t)
    return mu_tilde + np.sqrt(3.0 * log_t / O) + 3.0 * log_t / (epsilon * O)


class AnytimeLazyUCB:
    """Per-step reference implementation of Algorithm 1 (no horizon: anytime)."""

    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = True
    mechanism: ClassVar[str] = ("Laplace(1/epsilon) on each doubling batch's reward sum, per arm "
                                "(DoublingBatchMeans); index and argmax are post-processing")
    sensitivity: ClassVar[float] = 1.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int, epsilon: float, noise_rng: np.random.Generator,
                 noise_multiplier: float = 1.0):
        self.n_arms = n_arms
        self.epsilon = float(epsilon)
        self.state = DoublingBatchMeans(n_arms, epsilon, noise_rng, noise_multiplier)

    @property
    def releases(self) -> np.ndarray:
        return self.state.releases

    def select(self, t: int) -> int:
        if t <= self.n_arms:  # initialisation: arm j at round j
            return t - 1
        return int(np.argmax(index(self.state.mu_tilde, self.state.O, t, self.epsilon)))

    def update(self, t: int, arm: int, reward: float) -> None:
        if t <= self.n_arms:
            self.state.initialise(arm, reward)
        else:
            self.state.add(arm, 1, reward)


def _beats(i: int, lead: int, t: int, state: DoublingBatchMeans, epsilon: float) -> bool:
    """Does arm i win the argmax against ``lead`` at round t (ties go to the lower index)?"""
    idx = index(state.mu_tilde[[i, lead]], state.O[[i, lead]], t, epsilon)
    return bool(idx[0] > idx[1] or (idx[0] == idx[1] and i < lead))


def _first_overtake(i: int, lead: int, t: int, horizon: int, state: DoublingBatchMeans,
                    epsilon: float) -> int:
    """First round t' > t at which arm i beats ``lead`` with the state frozen (horizon+1 if never)."""
    if state.O[i] >= state.O[lead]:
        return horizon + 1  # index difference is non-increasing in t: i never overtakes
    da = state.mu_tilde[i] - state.mu_tilde[lead]
    db = math.sqrt(3.0 / state.O[i]) - math.sqrt(3.0 / state.O[lead])
    dc = 3.0 / (epsilon * state.O[i]) - 3.0 / (epsilon * state.O[lead])
    # D(s) = da + db s + dc s^2 with db, dc > 0: one root on s >= 0 when da < 0.
    s_root = (-db + math.sqrt(db * db - 4.0 * dc * min(da, 0.0))) / (2.0 * dc)
    log_root = s_root * s_root
    if log_root > math.log(horizon + 1.0) + 1e-9:
        return horizon + 1
    guess = max(t + 1, int(math.floor(math.exp(log_root))))
    guess = min(guess, horizon + 1)
    while guess <= horizon and not _beats(i, lead, guess, state, epsilon):
        guess += 1
    while guess - 1 > t and _beats(i, lead, guess - 1, state, epsilon):
        guess -= 1
    return guess


def simulate_fast(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                  noise_multiplier: float = 1.0) -> RunResult:
    """Event-driven exact simulation of one run of Algorithm 1 (same law as the reference)."""
    run = StretchRun(means, checkpoints, reward_rng)
    k = run.means.size
    state = DoublingBatchMeans(k, epsilon, noise_rng, noise_multiplier)
    t = run.initial_rounds(horizon, state.initialise)
    while t <= horizon:
        lead = int(np.argmax(index(state.mu_tilde, state.O, t, epsilon)))
        t_release = t + state.remaining(lead) - 1  # round at which lead's batch completes
        t_cross = min((_first_overtake(i, lead, t, horizon, state, epsilon)
                       for i in range(k) if i != lead), default=horizon + 1)
        t_end = min(t_release, t_cross - 1, horizon)
        m = t_end - t + 1
        state.add(lead, m, run.play(lead, m))
        t = t_end + 1
    return run.result(state.releases)
