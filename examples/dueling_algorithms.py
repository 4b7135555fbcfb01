"""Examples of a researcher's own private dueling-bandit algorithms, in the family's protocol of
:mod:`dpbandits.dueling.interface` (docs/library.md, "Bring your own algorithm"), all claiming
eps-DP under the paper's neighbouring relation (two users' answer sequences differing in one
user's answer):

* :class:`NoisyBordaElimination`, eps-DP. In epoch e = 1, 2, ... every pair of active arms is
  dueled 2^e times, each duel shown to a fresh user; at the epoch's end each active arm's number of
  wins in that epoch's duels gets its own Laplace(2/eps) noise, and an arm is eliminated when its
  noisy mean win rate is below the best one by more than twice the confidence width (a Hoeffding
  term for the duels plus a Laplace tail term, each at confidence delta / (4 K e^2)). Privacy
  accounting: one user's answer changes the winner of one duel, so the epoch's vector of win
  counts moves by at most 2 in l1 (sensitivity 2, Laplace scale 2/eps); each answer is counted in
  one epoch only and every later choice depends only on released noisy counts, so the whole run is
  eps-DP (parallel composition over disjoint users, then post-processing). Once one arm is left it
  duels itself (no regret). The win rate is a Borda score over the active arms: it finds the
  Condorcet winner where the Borda and Condorcet winners agree, as on the utility-based instances
  F1-F4. Its first elimination needs hundreds of duels, so a black-box audit at small horizons sees
  no decision of it.
* :class:`NoisyKingOfTheHill`, eps-DP and quick to decide: the champion (arm 0 first) duels each
  challenger in turn ``m`` times; the champion's number of wins against that challenger gets
  Laplace(1/eps) noise and the challenger takes over when the noisy count is below m / 2; after
  the last challenger the champion duels itself. The champion plays every duel, so one answer moves
  one released count by at most 1 (sensitivity 1), in one release only: eps-DP.
* :class:`RateNoiseKingOfTheHill`, deliberately broken: the same tournament with the noise of the
  champion's win *rate*, Laplace(1 / (m eps)), added to the win *count*, whose sensitivity is 1:
  m times too little noise (sensitivity understated). The audit
  (:func:`dpbandits.dueling.checks.class_audit.audit_dueling_class`) must refute it.

    dpbandits simulate examples/dueling_algorithms.py:NoisyBordaElimination --family dueling
    dpbandits audit examples/dueling_algorithms.py:RateNoiseKingOfTheHill --family dueling
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


class NoisyKingOfTheHill:
    """eps-DP king-of-the-hill tournament on noisy win counts (module docstring)."""

    private = True
    mechanism = "Laplace(1/eps) on the champion's win count against each challenger, each answer in one count only"
    sensitivity = "one answer moves one released count by at most 1"

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, m: int = 4):
        if not (math.isfinite(epsilon) and epsilon > 0):
            raise ValueError(f"{type(self).__name__} is private: epsilon must be > 0 and finite, got {epsilon!r}")
        if not isinstance(m, int) or m < 1:
            raise ValueError(f"m (duels per challenger) must be an integer >= 1, got {m!r}")
        self.k, self.epsilon, self.rng, self.m = n_arms, epsilon, rng, m
        self.champion, self.challenger, self.duels, self.wins = 0, 1, 0, 0

    def noise(self) -> float:
        return self.rng.laplace(0.0, 1.0 / self.epsilon)

    def select(self) -> tuple[int, int]:
        if self.challenger >= self.k:
            return self.champion, self.champion
        return self.champion, self.challenger

    def update(self, left: int, right: int, left_won: int) -> None:
        if self.challenger >= self.k:
            return
        self.duels += 1
        self.wins += left_won
        if self.duels == self.m:
            if self.wins + self.noise() < self.m / 2:
                self.champion = self.challenger
            self.challenger += 1
            self.duels = self.wins = 0


class RateNoiseKingOfTheHill(NoisyKingOfTheHill):
    """Broken: the win rate's noise on the win count (module docstring)."""

    mechanism = "Laplace(1/(m eps)) on the champion's win count (the win rate's scale: not eps-DP)"

    def noise(self) -> float:
        return self.rng.laplace(0.0, 1.0 / (self.m * self.epsilon))
