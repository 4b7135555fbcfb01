"""Quantile-bandit arms and the instance generators of the specification (section 2.6).

Every arm is defined by its **left quantile function** ``ppf(p) = inf{x : F(x) >= p}`` (paper,
Definition 1) with the conventions of spec 1.1: ``ppf(p) = -inf`` for ``p <= 0`` and ``+inf`` for
``p > 1``; ``ppf(1)`` is the supremum of the support. Samples are drawn by inverse transform,
``X = ppf(U)`` with ``U ~ Uniform(0, 1)`` from the arm's own stream, so that

* arm k's n-th sample is the n-th draw of arm k's stream (the reward table of Definition 3),
  whatever the schedule;
* two instances that are strictly increasing transforms of each other (Gaussian vs log-normal,
  DISC with xi = 1 vs xi = 1e-5, :func:`transformed`) get *common random numbers* from the same
  uniforms, and SEQ / DP-SEQ, which only compare samples, follow identical paths (check A10).

Families (spec 2.6): ``gauss`` (X = sigma Z, sigma the standard deviation), ``logn``
(X = exp(sigma Z)), ``logn10`` (K = 10, sigma* = 2 against 0.1..0.9), ``exp`` (X = E / lambda),
``disc`` (Figure 2's discrete pair), ``bern12`` (Sec. IV-B2 example), ``mix`` (Theorem 5's
instance), ``zg`` (zero-gap family, Corollary 1 case 2(b)), ``cauchy`` (optional heavy tail).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpbandits.quantile.arms import (
    Arm,
    AtomUniformArm,
    CauchyArm,
    DiscreteArm,
    ExponentialArm,
    GaussianArm,
    LogNormalArm,
    TransformedArm,
    UniformArm,
)
from dpbandits.quantile.gap import gap, gaussian_pair_gap

__all__ = ["Arm", "GaussianArm", "LogNormalArm", "ExponentialArm", "DiscreteArm", "AtomUniformArm",
           "UniformArm", "CauchyArm", "TransformedArm", "QuantileInstance", "gauss", "logn",
           "logn10", "exponential", "disc", "bern12", "mix", "zero_gap", "cauchy", "transformed",
           "LOGN10_SIGMAS", "FAMILIES", "make_instance"]


@dataclass(frozen=True)
class QuantileInstance:
    """K arms and the level q. ``best`` is the unique arm with the largest left q-quantile."""

    name: str
    arms: tuple[Arm, ...]
    q: float
    closed_form_gaps: tuple[float, ...] | None = None  # per arm (0 for the best), where known

    def __post_init__(self) -> None:
        if not 0 < self.q < 1:
            raise ValueError(f"q must be in (0, 1), got {self.q!r}")
        if len(self.arms) < 2:
            raise ValueError("a quantile bandit needs at least two arms")

    @property
    def k(self) -> int:
        return len(self.arms)

    def quantiles(self) -> np.ndarray:
        return np.array([float(a.ppf(self.q)) for a in self.arms])

    @property
    def best(self) -> int:
        qs = self.quantiles()
        top = np.flatnonzero(qs == qs.max())
        if top.size != 1:
            raise ValueError(f"{self.name}: the best arm is not unique at q = {self.q}")
        return int(top[0])

    def gaps(self) -> np.ndarray:
        """Definition 2 gaps of every arm against the best (0 for the best); closed forms when
        the generator knows them, the bisection engine otherwise."""
        if self.closed_form_gaps is not None:
            return np.asarray(self.closed_form_gaps, dtype=float)
        best = self.arms[self.best]
        return np.array([0.0 if i == self.best else gap(a, best, self.q) for i, a in enumerate(self.arms)])

    def sample(self, arm: int, u) -> np.ndarray:
        return self.arms[arm].sample(u)


# ---------------------------------------------------------------------------------------------
# Generators (spec 2.6). Arm 0 is the best arm unless stated.


def _gauss_gap(s_lo: float, s_hi: float, q: float) -> float:
    return gaussian_pair_gap(s_lo, s_hi, q)


def gauss(sigma_star: float, sigmas, q: float) -> QuantileInstance:
    """Arm 0 = N(0, sigma_star^2), arms 1.. = N(0, sigma^2); sigma is the standard deviation."""
    sigmas = tuple(float(s) for s in np.atleast_1d(sigmas))
    arms = (GaussianArm(sigma_star), *(GaussianArm(s) for s in sigmas))
    # closed forms when arm 0 is the best (q > 1/2, sigma* largest); otherwise the bisection engine
    gaps = ((0.0, *(_gauss_gap(s, sigma_star, q) for s in sigmas))
            if q > 0.5 and all(s < sigma_star for s in sigmas) else None)
    return QuantileInstance(f"gauss({sigma_star:g} vs {','.join(f'{s:g}' for s in sigmas)})", arms, q,
                            gaps)


def logn(sigma_star: float, sigmas, q: float) -> QuantileInstance:
    """Log-normal counterpart of :func:`gauss` (mu = 0): identical gaps (spec 1.2 (3))."""
    g = gauss(sigma_star, sigmas, q)
    arms = tuple(LogNormalArm(a.sigma) for a in g.arms)
    return QuantileInstance(g.name.replace("gauss", "logn"), arms, q, g.closed_form_gaps)


LOGN10_SIGMAS = tuple(round(0.1 * i, 1) for i in range(1, 10))


def logn10(q: float) -> QuantileInstance:
    """Figure 4 (lower): K = 10 log-normal arms, sigma* = 2 (arm 0) vs sigma_i = 0.1..0.9."""
    return logn(2.0, LOGN10_SIGMAS, q)


def exponential(rate_star: float, rates, q: float) -> QuantileInstance:
    """Arm 0 = Exp(rate_star) (the best: smaller rate), arms 1.. = Exp(rate)."""
    from dpbandits.quantile.gap import exponential_pair_gap

    rates = tuple(float(r) for r in np.atleast_1d(rates))
    arms = (ExponentialArm(rate_star), *(ExponentialArm(r) for r in rates))
    gaps = (0.0, *(exponential_pair_gap(r, rate_star, q) for r in rates))
    return QuantileInstance(f"exp({rate_star:g} vs {','.join(f'{r:g}' for r in rates)})", arms, q, gaps)


def disc(q: float, gap: float, xi: float = 1.0, k: int = 2) -> QuantileInstance:
    """Figure 2's discrete pair with l1 = q - gap, l3 = q + gap (spec 2.6, DISC): the best arm
    (arm 0) is -1 w.p. l1, else xi in (0, 1]; each suboptimal arm is 0 w.p. l3, else 2.
    Delta = min(l3 - q, q - l1) = gap, whatever xi (the quantile difference)."""
    if not 0 < xi <= 1:
        raise ValueError(f"xi must be in (0, 1], got {xi!r}")
    l1, l3 = q - gap, q + gap
    if not (0 < l1 < q < l3 < 1):
        raise ValueError(f"disc needs 0 < q - gap < q < q + gap < 1, got q={q}, gap={gap}")
    best = DiscreteArm((-1.0, float(xi)), (l1, 1 - l1), f"disc*(xi={xi:g})")
    sub = DiscreteArm((0.0, 2.0), (l3, 1 - l3), "disc")
    return QuantileInstance(f"disc(q={q:g},gap={gap:g},xi={xi:g},K={k})", (best, *([sub] * (k - 1))), q,
                            (0.0, *([min(l3 - q, q - l1)] * (k - 1))))


def bern12(q: float) -> QuantileInstance:
    """Sec. IV-B2: the suboptimal arm is 1 or 2 w.p. 1/2, the best is 2 a.s. (q <= 1/2):
    Delta = min(q, 1 - q) = q, while Szorenyi et al.'s eps = 0 gap is 0."""
    if not 0 < q <= 0.5:
        raise ValueError(f"bern12 needs q in (0, 1/2], got {q!r}")
    return QuantileInstance(f"bern12(q={q:g})", (DiscreteArm((2.0,), (1.0,), "2"),
                                                   DiscreteArm((1.0, 2.0), (0.5, 0.5), "{1,2}")), q,
                            (0.0, min(q, 1 - q)))


def mix(k: int, gamma: float, q: float, alternative: int | None = None) -> QuantileInstance:
    """Theorem 5's instance nu^(1): arm 0 = G^{1/3 - gamma}, the others G^{1/3}; gamma < 1/6,
    q > 1/3. Delta = (1 - q) gamma / (4/3 + gamma). ``alternative`` = j builds nu^(j)
    (arm j = G^{1/3 - 2 gamma}; then arm j is the best)."""
    if not 0 < gamma < 1 / 6 or not q > 1 / 3:
        raise ValueError(f"mix needs 0 < gamma < 1/6 and q > 1/3, got gamma={gamma}, q={q}")
    ws = [1 / 3 - gamma] + [1 / 3] * (k - 1)
    if alternative is not None:
        ws[alternative] = 1 / 3 - 2 * gamma
        return QuantileInstance(f"mix-alt{alternative}(K={k},gamma={gamma:g},q={q:g})",
                                tuple(AtomUniformArm(w) for w in ws), q)
    return QuantileInstance(f"mix(K={k},gamma={gamma:g},q={q:g})", tuple(AtomUniformArm(w) for w in ws), q,
                            (0.0, *([(1 - q) * gamma / (4 / 3 + gamma)] * (k - 1))))


def zero_gap(gap: float, k: int = 2) -> QuantileInstance:
    """ZG(q = 1/2; gap) (spec 2.6, from Corollary 1 case 2(b)): the best arm is U[0.5, 1.5], each
    suboptimal arm is 0 w.p. 1/2 + gap, else 1. Delta = gap exactly; gap = 0 is the impossible
    case (quantiles still differ: 0 vs 1)."""
    if not 0 <= gap < 0.5:
        raise ValueError(f"zero_gap needs 0 <= gap < 1/2, got {gap!r}")
    sub = DiscreteArm((0.0, 1.0), (0.5 + gap, 0.5 - gap), f"zg-sub({gap:g})")
    return QuantileInstance(f"zg(gap={gap:g},K={k})", (UniformArm(0.5, 1.5), *([sub] * (k - 1))), 0.5,
                            (0.0, *([gap] * (k - 1))))


def cauchy(shift: float, q: float) -> QuantileInstance:
    """Optional heavy-tail demo: arm 0 = Cauchy(shift), arm 1 = Cauchy(0); gap by bisection."""
    return QuantileInstance(f"cauchy(shift={shift:g},q={q:g})", (CauchyArm(shift), CauchyArm(0.0)), q)


_TRANSFORMS: dict[str, tuple[Callable, Callable]] = {
    "exp": (np.exp, lambda y: np.log(np.maximum(y, 0.0))),
    "affine": (lambda x: 1e6 * x + 7.0, lambda y: (y - 7.0) / 1e6),
    "cube": (lambda x: x**3, np.cbrt),
}


def transformed(instance: QuantileInstance, name: str) -> QuantileInstance:
    """Every arm mapped by the same strictly increasing transform (``exp``, ``affine`` =
    1e6 x + 7, ``cube``): gaps unchanged (Definition 2 only reads levels)."""
    g, g_inv = _TRANSFORMS[name]
    arms = tuple(TransformedArm(a, g, g_inv, name) for a in instance.arms)
    return QuantileInstance(f"{name}({instance.name})", arms, instance.q, instance.closed_form_gaps)


FAMILIES = ("gauss", "logn", "logn10", "exp", "disc", "bern12", "mix", "zg", "cauchy")


def make_instance(family: str, q: float, a: float = math.nan, b: float = math.nan, k: int = 2) -> QuantileInstance:
    """An instance from design-table columns: (family, q, a, b, K).

    gauss / logn: a = sigma*, b = sigma of the K-1 suboptimal arms; logn10: q only; exp: a = rate*,
    b = suboptimal rate; disc: a = gap, b = xi; bern12: q; mix: a = gamma; zg: a = gap;
    cauchy: a = shift."""
    if family in ("gauss", "logn"):
        return (gauss if family == "gauss" else logn)(a, [b] * (k - 1), q)
    if family == "logn10":
        return logn10(q)
    if family == "exp":
        return exponential(a, [b] * (k - 1), q)
    if family == "disc":
        return disc(q, a, b if np.isfinite(b) else 1.0, k)
    if family == "bern12":
        return bern12(q)
    if family == "mix":
        return mix(k, a, q)
    if family == "zg":
        return zero_gap(a, k)
    if family == "cauchy":
        return cauchy(a, q)
    raise ValueError(f"unknown quantile instance family {family!r}; allowed: {', '.join(FAMILIES)}")
