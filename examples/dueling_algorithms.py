"""An example of a researcher's own private dueling-bandit algorithm, in the family's protocol of
:mod:`dpbandits.dueling.interface` (docs/library.md, "Bring your own algorithm"):

:class:`NoisyBordaElimination`, eps-DP under the paper's neighbouring relation (two users' answer
sequences differing in one user's answer). In epoch e = 1, 2, ... every pair of active arms is
dueled 2^e times, each duel shown to a fresh user; at the epoch's end each active arm's number of
wins in that epoch's duels gets its own Laplace(2/eps) noise, and an arm is eliminated when its
noisy mean win rate is below the best one by more than twice the confidence width (a Hoeffding
term for the duels plus a Laplace tail term, each at confidence delta / (4 K e^2)). Privacy
accounting: one user's answer changes the winner of one duel, so the epoch's vector of win counts
moves by at most 2 in l1 (sensitivity 2, Laplace scale 2/eps); each answer is counted in one epoch
only and every later choice depends only on released noisy counts, so the whole run is eps-DP
(parallel composition over disjoint users, then post-processing). Once one arm is left it duels
itself (no regret). The win rate is a Borda score over the active arms: it finds the Condorcet
winner where the Borda and Condorcet winners agree, as on the utility-based instances F1-F4.

    dpbandits simulate examples/dueling_algorithms.py:NoisyBordaElimination --family dueling
"""

from __future__ import annotations

import math

import numpy as np


class NoisyBordaElimination:
    """eps-DP elimination on noisy per-epoch win counts (module docstring)."""

    private = True
    mechanism = "Laplace(2/eps) on each active arm's win count of an epoch, each user's answer in one epoch only"
    sensitivity = "one answer changes the epoch's win-count vector by at most 2 in l1"

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, delta: float = 0.05):
        if not (math.isfinite(epsilon) and epsilon > 0):
            raise ValueError(f"NoisyBordaElimination is private: epsilon must be > 0 and finite, got {epsilon!r}")
        if not 0 < delta < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta!r}")
        self.k, self.epsilon, self.rng, self.delta = n_arms, epsilon, rng, delta
        self.active = list(range(n_arms))
        self.epoch = 0
        self._start_epoch()

    def _start_epoch(self) -> None:
        self.epoch += 1
        reps = 2 ** self.epoch
        pairs = [(i, j) for a, i in enumerate(self.active) for j in self.active[a + 1:]]
        self.queue = [p for p in pairs for _ in range(reps)][::-1]  # popped from the end, in order
        self.wins = np.zeros(self.k)
        self.duels_per_arm = reps * (len(self.active) - 1)

    def select(self) -> tuple[int, int]:
        if len(self.active) == 1:
            return self.active[0], self.active[0]
        return self.queue[-1]

    def update(self, left: int, right: int, left_won: int) -> None:
        if len(self.active) == 1:
            return
        self.queue.pop()
        self.wins[left] += left_won
        self.wins[right] += 1 - left_won
        if not self.queue:
            self._eliminate()
            if len(self.active) > 1:
                self._start_epoch()

    def _eliminate(self) -> None:
        n = self.duels_per_arm
        noisy = self.wins[self.active] + self.rng.laplace(0.0, 2.0 / self.epsilon, len(self.active))
        rate = noisy / n
        level = self.delta / (4 * self.k * self.epoch ** 2)
        width = math.sqrt(math.log(2 / level) / (2 * n)) + (2.0 / self.epsilon) * math.log(1 / level) / n
        self.active = [a for a, r in zip(self.active, rate, strict=True) if r >= rate.max() - 2 * width]
