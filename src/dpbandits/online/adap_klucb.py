"""AdaP-KLUCB (Azize & Basu, NeurIPS 2022), as specified in the online spec section 5.2
[INFERRED there; the online paper misattributes it to Asi et al. 2022, erratum E1]. alpha = 3.1.

1. Pull each arm once (t = K); N_a = 1, n_last_a = 1, mu_tilde_a = X_a + Lap(1/epsilon).
2. Episode l: t_l = t + 1; index of every arm from mu_tilde_a and n = n_last_a:
       mu_breve = Clip_[0,1](mu_tilde + alpha ln t_l / (epsilon n))
       I_a = max{q in [mu_breve, 1] : d_KL(mu_breve, q) <= alpha ln t_l / n}
   A_l = argmax I (lowest index on ties) is played for N_A consecutive rounds (truncated at T);
   then n_last_A = N_A, N_A = 2 N_A and mu_tilde_A = episode mean + Lap(1/(epsilon n_last_A)).
   Before an arm's first episode n = n_last_a = 1 (not N_a/2 = 0.5): spec section 5.2 note.

Privacy: each episode's mean uses fresh samples of one arm (sensitivity 1/n_last on the mean,
i.e. 1 on the sum) with Lap(1/(epsilon n_last)): epsilon-DP; the index is post-processing.

Fast engine: one event per episode (Binomial episode sum); cost O(K log T) per run. The runs
of a cell advance together, one episode per pass, so that one bisection computes the index of
every run still playing (the index is elementwise: each run gets the values it gets alone).
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.online.kl import kl_ucb_index
from dpbandits.sim.reference import RunResult
from dpbandits.sim.stretches import StretchRun

__all__ = ["AdaPKLUCB", "index", "simulate_fast", "simulate_fast_runs"]


def index(mu_tilde, n_last, t_l: int, epsilon: float, alpha: float):
    """I_a for every arm (last axis) at episode start t_l (step 2 of the docstring above)."""
    return _index(mu_tilde, n_last, math.log(t_l), epsilon, alpha)


def _index(mu_tilde, n_last, log_t, epsilon: float, alpha: float):
    """:func:`index` given ln t_l: a float, or a column (one value per row of ``mu_tilde``)."""
    mu_breve = np.clip(mu_tilde + alpha * log_t / (epsilon * n_last), 0.0, 1.0)
    return kl_ucb_index(mu_breve, alpha * log_t / n_last)


class _EpisodeState:
    """Per-arm episode state and the private episode means (Lap(1) on the episode sum, i.e.
    Lap(1/(epsilon n_last)) on the mean). ``copies``: the black-box audit draws that many
    independent noise values on one fixed input (then each private mean is a vector)."""

    def __init__(self, n_arms: int, epsilon: float, rng: np.random.Generator,
                 noise_multiplier: float, copies: int | None = None):
        self.laplace = LaplaceMechanism(epsilon=epsilon, sensitivity=1.0,
                                        noise_multiplier=noise_multiplier)
        self.rng = rng
        self.copies = copies
        self.N = np.ones(n_arms, dtype=np.int64)
        self.n_last = np.ones(n_arms, dtype=np.int64)
        self.mu_tilde = np.zeros(n_arms if copies is None else (n_arms, copies))
        self.releases = np.zeros(n_arms, dtype=np.int64)

    def initialise(self, arm: int, reward: float) -> None:
        self.mu_tilde[arm] = reward + self.laplace.noise(self.rng, self.copies)
        self.releases[arm] += 1

    def finish_episode(self, arm: int, length: int, total: float) -> None:
        self.n_last[arm] = length
        self.N[arm] *= 2
        self.mu_tilde[arm] = (total + self.laplace.noise(self.rng, self.copies)) / length
        self.releases[arm] += 1


class AdaPKLUCB:
    """Per-step reference implementation of AdaP-KLUCB (anytime)."""

    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = True
    mechanism: ClassVar[str] = ("Laplace(1/(epsilon n_last)) on each episode's mean of fresh samples "
                                "of one arm; the index is post-processing")
    sensitivity: ClassVar[float] = 1.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int, epsilon: float, noise_rng: np.random.Generator,
                 alpha: float = 3.1, noise_multiplier: float = 1.0):
        self.n_arms = n_arms
        self.epsilon = float(epsilon)
        self.alpha = float(alpha)
        self.state = _EpisodeState(n_arms, epsilon, noise_rng, noise_multiplier)
        self.arm = -1
        self.left = 0
        self.length = 0
        self.total = 0.0

    @property
    def releases(self) -> np.ndarray:
        return self.state.releases

    def select(self, t: int) -> int:
        if t <= self.n_arms:
            return t - 1
        if self.left == 0:  # a new episode starts at t_l = t
            s = self.state
            self.arm = int(np.argmax(index(s.mu_tilde, s.n_last, t, self.epsilon, self.alpha)))
            self.length = self.left = int(s.N[self.arm])
            self.total = 0.0
        return self.arm

    def update(self, t: int, arm: int, reward: float) -> None:
        if t <= self.n_arms:
            self.state.initialise(arm, reward)
            return
        self.total += reward
        self.left -= 1
        if self.left == 0:
            self.state.finish_episode(arm, self.length, self.total)


def simulate_fast(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                  alpha: float = 3.1, noise_multiplier: float = 1.0) -> RunResult:
    """Event-driven exact simulation of one run of AdaP-KLUCB."""
    return simulate_fast_runs(means, epsilon, horizon, checkpoints, [(reward_rng, noise_rng)],
                              alpha, noise_multiplier)[0]


def simulate_fast_runs(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                       rngs, alpha: float = 3.1, noise_multiplier: float = 1.0) -> list[RunResult]:
    """Event-driven exact simulation of independent runs of AdaP-KLUCB, one per
    ``(reward_rng, noise_rng)`` pair of ``rngs``.

    Every pass starts the next episode of each run still playing: one bisection computes the
    indices of all of them (runs x K), then each run plays its episode from its own generators.
    A run's draws and floating-point operations are those of the run simulated alone."""
    rngs = list(rngs)
    runs = [StretchRun(means, checkpoints, reward_rng) for reward_rng, _ in rngs]
    states = [_EpisodeState(run.means.size, epsilon, noise_rng, noise_multiplier)
              for run, (_, noise_rng) in zip(runs, rngs, strict=True)]
    t = [run.initial_rounds(horizon, s.initialise) - 1  # rounds played so far
         for run, s in zip(runs, states, strict=True)]
    live = [i for i in range(len(runs)) if t[i] < horizon]
    while live:
        log_t = np.array([[math.log(t[i] + 1)] for i in live])  # episode start t_l = t + 1
        mu_tilde = np.array([states[i].mu_tilde for i in live])
        n_last = np.array([states[i].n_last for i in live])
        arms = np.argmax(_index(mu_tilde, n_last, log_t, epsilon, alpha), axis=1)
        for i, arm in zip(live, arms.tolist(), strict=True):
            s = states[i]
            length = int(s.N[arm])
            played = min(length, horizon - t[i])
            total = runs[i].play(arm, played)
            t[i] += played
            if played == length:
                s.finish_episode(arm, length, total)
        live = [i for i in live if t[i] < horizon]
    return [run.result(s.releases) for run, s in zip(runs, states, strict=True)]
