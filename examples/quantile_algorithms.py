"""An example of a researcher's own quantile best-arm identification algorithm, in the per-sample
form of the family's protocol (:mod:`dpbandits.quantile.interface`; docs/library.md, "Bring your
own algorithm"):

:class:`DKWRacing`, not private, delta-PAC for the arm with the largest q-quantile: it samples
the active arms round robin; after round r (one new sample of each active arm) every active arm
gets a confidence interval for its q-quantile from the Dvoretzky-Kiefer-Wolfowitz inequality with
Massart's constant (the empirical CDF is within w_r = sqrt(log(2 / a_r) / (2 r)) of the true one
with probability at least 1 - a_r, a_r = delta / (2 K r^2), so that the union over arms and rounds
stays below delta), the interval between the order statistics at ranks ceil(r (q - w_r)) and
ceil(r (q + w_r)) (unbounded where the rank leaves [1, r]); an arm whose upper end is below
another active arm's lower end is eliminated. It stops when one arm is left, or is censored at
``cap`` samples per arm.

    dpbandits simulate examples/quantile_algorithms.py:DKWRacing --family quantile
"""

from __future__ import annotations

import bisect
import math

import numpy as np


class DKWRacing:
    """Round-robin racing on DKW confidence intervals of the q-quantiles (module docstring)."""

    private = False
    mechanism = "none: the samples are used exactly (not private)"
    sensitivity = "none"

    def __init__(self, n_arms: int, q: float, epsilon, rng: np.random.Generator, cap: int, delta: float = 0.05):
        if not 0 < delta < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta!r}")
        self.k, self.q, self.cap, self.delta = n_arms, q, cap, delta
        self.active = list(range(n_arms))
        self.samples: list[list[float]] = [[] for _ in range(n_arms)]
        self.elim = [-1] * n_arms
        self.rounds, self.turn = 0, 0

    @property
    def done(self) -> bool:
        return len(self.active) == 1 or self.rounds >= self.cap

    def select(self) -> int:
        return self.active[self.turn]

    def update(self, arm: int, sample: float) -> None:
        bisect.insort(self.samples[arm], float(sample))
        self.turn += 1
        if self.turn == len(self.active):
            self.turn = 0
            self.rounds += 1
            self._eliminate()

    def _interval(self, arm: int) -> tuple[float, float]:
        r, xs = self.rounds, self.samples[arm]
        w = math.sqrt(math.log(2 * 2 * self.k * r * r / self.delta) / (2 * r))
        lo_rank, hi_rank = math.ceil(r * (self.q - w)), math.ceil(r * (self.q + w))
        lo = xs[lo_rank - 1] if lo_rank >= 1 else -math.inf
        hi = xs[hi_rank - 1] if hi_rank <= r else math.inf
        return lo, hi

    def _eliminate(self) -> None:
        bounds = {a: self._interval(a) for a in self.active}
        best_low = max(lo for lo, _ in bounds.values())
        for a in list(self.active):
            if bounds[a][1] < best_low:
                self.active.remove(a)
                self.elim[a] = self.rounds

    def result(self) -> dict:
        terminated = len(self.active) == 1
        return {"k_hat": self.active[0] if terminated else -1, "terminated": terminated, "n_final": self.rounds,
                "elim": self.elim}
