"""Algorithm 3: Lazy-DP-TS (online paper, section 4.1; spec section 2.3).

Each round t > K: mu_bar_j = Clip_[0,1](mu_tilde_j + 3 ln t / (epsilon O_j)), then
theta_j ~ Beta(mu_bar_j O_j + 1, (1 - mu_bar_j) O_j + 1) independently, pull argmax theta.
O_j is the size of the last processed batch (not the total number of pulls). The batch update
and the private means are those of Algorithm 1 (:class:`DoublingBatchMeans`).

Privacy: epsilon-DP (Theorem 4): the only data-dependent release is the Lap(1/epsilon) on each
batch sum (sensitivity 1); the Beta sampling is post-processing with independent randomness.

Fast engine (:func:`simulate_fast`): exact chunked simulation. With the state frozen, the
per-round draws of a chunk of rounds are independent, so a whole chunk of Beta draws is made at
once (with each round's own ln t), and accepted up to the first round at which some arm's batch
completes; the draws after it are discarded (fresh randomness is used for the new state).
Rewards of the accepted pulls are drawn as one Binomial per arm. Cost is linear in T with a
small constant (about 5 Beta draws per round, vectorised).
"""

from __future__ import annotations

import math

import numpy as np

from dpbandits.online.lazy_batches import DoublingBatchMeans
from dpbandits.sim.reference import RunResult
from dpbandits.sim.stretches import StretchRun

__all__ = ["LazyDPTS", "shifted_mean", "simulate_fast"]


def shifted_mean(mu_tilde, O, log_t, epsilon: float):
    """mu_bar = Clip_[0,1](mu_tilde + 3 ln t / (epsilon O)) (Alg. 3, line 4)."""
    return np.clip(mu_tilde + 3.0 * log_t / (epsilon * O), 0.0, 1.0)


class LazyDPTS:
    """Per-step reference implementation of Algorithm 3 (anytime)."""

    private = True

    def __init__(self, n_arms: int, epsilon: float, noise_rng: np.random.Generator,
                 policy_rng: np.random.Generator, noise_multiplier: float = 1.0):
        self.n_arms = n_arms
        self.epsilon = float(epsilon)
        self.policy_rng = policy_rng
        self.state = DoublingBatchMeans(n_arms, epsilon, noise_rng, noise_multiplier)

    @property
    def releases(self) -> np.ndarray:
        return self.state.releases

    def select(self, t: int) -> int:
        if t <= self.n_arms:
            return t - 1
        O = self.state.O
        mu_bar = shifted_mean(self.state.mu_tilde, O, math.log(t), self.epsilon)
        theta = self.policy_rng.beta(mu_bar * O + 1.0, (1.0 - mu_bar) * O + 1.0)
        return int(np.argmax(theta))

    def update(self, t: int, arm: int, reward: float) -> None:
        if t <= self.n_arms:
            self.state.initialise(arm, reward)
        else:
            self.state.add(arm, 1, reward)


def simulate_fast(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                  policy_rng: np.random.Generator, noise_multiplier: float = 1.0,
                  max_chunk: int = 8192) -> RunResult:
    """Exact chunked simulation of one run of Algorithm 3 (same law as the reference)."""
    run = StretchRun(means, checkpoints, reward_rng)
    means, gaps, k = run.means, run.gaps, run.means.size
    state = DoublingBatchMeans(k, epsilon, noise_rng, noise_multiplier)
    t = run.initial_rounds(horizon, state.initialise)
    arms = np.arange(k)
    while t <= horizon:
        chunk = int(min(horizon - t + 1, max(64, min(max_chunk, t // 16))))
        log_t = np.log(np.arange(t, t + chunk, dtype=float))[:, None]
        O = state.O.astype(float)
        mu_bar = shifted_mean(state.mu_tilde, O, log_t, epsilon)
        theta = policy_rng.beta(mu_bar * O + 1.0, (1.0 - mu_bar) * O + 1.0)
        choice = np.argmax(theta, axis=1)
        counts = np.cumsum(choice[:, None] == arms, axis=0)
        need = 2 * state.O - state.N
        hit = counts >= need  # rounds at which an arm's batch is complete
        first = np.where(hit.any(axis=0), hit.argmax(axis=0), chunk)
        n_acc = int(min(first.min() + 1, chunk))
        accepted = choice[:n_acc]
        taken = counts[n_acc - 1]
        for arm in np.flatnonzero(taken):
            state.add(int(arm), int(taken[arm]),
                      float(reward_rng.binomial(int(taken[arm]), means[arm])))
        run.pulls += taken
        run.recorder.dense(gaps[accepted])
        t += n_acc
    return run.result(state.releases)
