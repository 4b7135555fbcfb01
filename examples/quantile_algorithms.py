"""Examples of a researcher's own quantile best-arm identification algorithms, in both forms of the
family's protocol (:mod:`dpbandits.quantile.interface`; docs/library.md, "Bring your own
algorithm"):

* :class:`DKWRacing` (per-sample form), not private, delta-PAC for the arm with the largest
  q-quantile: it samples the active arms round robin; after round r (one new sample of each active
  arm) every active arm gets a confidence interval for its q-quantile from the
  Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant (the empirical CDF is within
  w_r = sqrt(log(2 / a_r) / (2 r)) of the true one with probability at least 1 - a_r,
  a_r = delta / (2 K r^2), so that the union over arms and rounds stays below delta), the interval
  between the order statistics at ranks ceil(r (q - w_r)) and ceil(r (q + w_r)) (unbounded where
  the rank leaves [1, r]); an arm whose upper end is below another active arm's lower end is
  eliminated. It stops when one arm is left, or is censored at ``cap`` samples per arm.
* :class:`GeometricDPSEQ` (epoch form), eps-DP: DP-SEQ's epochs and pair statistics (Algorithm 2,
  lines 8-16, from :mod:`dpbandits.quantile.dp_seq`) with discrete noise: each ordered pair's
  integer statistic max{0, ell*_ab} (sensitivity 1) gets two-sided geometric noise,
  P(Z = z) proportional to exp(-eps' |z|) with eps' = eps / (2 (m_e - 1)), which makes it
  eps'-DP; an arm's samples enter 2 (m_e - 1) pair statistics of one epoch (basic composition: eps
  per epoch), and epochs read disjoint fresh samples.
* :class:`ShareNoiseDPSEQ`, deliberately broken: the noise calibrated for the statistic's share
  of the epoch's range, ell*_ab / L with L = min(i - 1, n_e - j) (sensitivity 1 / L: eps' L), but
  added to the count ell*_ab itself, whose sensitivity is 1: L times too little noise. L is in the
  hundreds from epoch 1 on, so eps' L is too and the geometric draws are all 0: in effect no noise
  at all, a gross leak. The audit refutes it (``dpbandits audit ... --family quantile``).

    dpbandits simulate examples/quantile_algorithms.py:DKWRacing --family quantile
    dpbandits audit examples/quantile_algorithms.py:ShareNoiseDPSEQ --family quantile
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from dpbandits.quantile import dp_seq
from dpbandits.quantile.epoch_seq import EpochAlgorithm


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


class GeometricDPSEQ(EpochAlgorithm):
    """DP-SEQ's epochs with two-sided geometric noise on the pair statistics (module docstring);
    ``cap``: the last epoch; ``delta``: the confidence."""

    private = True
    mechanism = ("two-sided geometric noise, P(Z = z) ~ exp(-eps' |z|), eps' = eps / (2 (m_e - 1)), on each ordered "
                 "pair's statistic max{0, ell*_ab} of an epoch")
    sensitivity = "1 per pair statistic; an arm's sample enters 2 (m_e - 1) of them, in one epoch only"
    share_noise = False  # True: the noise of ell* / L on ell* (the broken variant)

    def __init__(self, n_arms: int, q: float, epsilon: float, rng: np.random.Generator, cap: int,
                 delta: float = 0.1):
        if not (epsilon is not None and math.isfinite(epsilon) and epsilon > 0):
            raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
        if not 0 < delta < 1:
            raise ValueError(f"delta must be in (0, 1), got {delta!r}")
        self.q, self.epsilon, self.delta, self.rng = float(q), float(epsilon), float(delta), rng
        super().__init__(n_arms, dp_seq.e_star(self.q), cap)

    def _open(self, e: int) -> int:
        m = len(self.active)
        n_e = dp_seq.epoch_size(m, e, self.epsilon, self.delta)
        i, j, span = dp_seq.epoch_ranks(n_e, e, self.q)
        per_pair = self.epsilon / (2 * (m - 1)) * (max(span, 1) if self.share_noise else 1)
        p = -math.expm1(-per_pair)  # success probability of each geometric draw
        z = (self.rng.geometric(p, size=(m, m)) - self.rng.geometric(p, size=(m, m))).astype(float)
        np.fill_diagonal(z, 0.0)
        self.current = dp_seq.Epoch(e, m, n_e, i, j, span, dp_seq.threshold(m, e, self.epsilon, self.delta), z)
        return n_e

    def _close(self, source) -> list[int] | None:
        removed, fired = dp_seq.close_epoch(self.current, self.active, source)
        return None if fired else removed


class ShareNoiseDPSEQ(GeometricDPSEQ):
    """Deliberately broken (module docstring): the noise of the statistic's share of the range,
    added to the count."""

    mechanism = ("two-sided geometric noise with eps' L (the share ell*_ab / L's calibration) on each ordered pair's "
                 "count ell*_ab")
    share_noise = True
