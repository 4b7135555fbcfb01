"""Quantile-bandit arms: reward distributions defined by their **left quantile function**
``ppf(p) = inf{x : F(x) >= p}`` (paper, Definition 1) with the conventions of spec 1.1:
``ppf(p) = -inf`` for ``p <= 0`` and ``+inf`` for ``p > 1``; ``ppf(1)`` is the supremum of the
support. Samples are drawn by inverse transform (see :mod:`dpbandits.quantile.instances`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import special

__all__ = ["Arm", "GaussianArm", "LogNormalArm", "ExponentialArm", "DiscreteArm", "AtomUniformArm",
           "UniformArm", "CauchyArm", "TransformedArm"]


def _levels(p) -> np.ndarray:
    return np.asarray(p, dtype=float)


def _apply_conventions(p: np.ndarray, inner: Callable[[np.ndarray], np.ndarray], top: float) -> np.ndarray:
    """ppf with the spec's conventions around a family's own inverse on (0, 1)."""
    p = _levels(p)
    out = np.empty(p.shape)
    low, high, one = p <= 0, p > 1, p == 1
    mid = ~(low | high | one)
    out[low] = -np.inf
    out[high] = np.inf
    out[one] = top
    if np.any(mid):
        out[mid] = inner(p[mid])
    return out


class Arm:
    """A reward distribution: left quantile function, CDF ``P(X <= x)`` and ``P(X < x)``."""

    name: str = "arm"

    def ppf(self, p) -> np.ndarray:
        raise NotImplementedError

    def cdf(self, x) -> np.ndarray:
        raise NotImplementedError

    def cdf_below(self, x) -> np.ndarray:
        """P(X < x); equals :meth:`cdf` for continuous arms."""
        return self.cdf(x)

    @property
    def atoms(self) -> np.ndarray:
        """Support points carrying positive mass (empty for continuous arms)."""
        return np.empty(0)

    def sample(self, u) -> np.ndarray:
        """Inverse-transform samples from uniforms in (0, 1)."""
        return self.ppf(u)


@dataclass(frozen=True)
class GaussianArm(Arm):
    sigma: float
    mu: float = 0.0

    @property
    def name(self) -> str:
        return f"N({self.mu:g},{self.sigma:g}^2)"

    def ppf(self, p):
        return _apply_conventions(p, lambda m: self.mu + self.sigma * special.ndtri(m), np.inf)

    def cdf(self, x):
        return special.ndtr((np.asarray(x, dtype=float) - self.mu) / self.sigma)


@dataclass(frozen=True)
class LogNormalArm(Arm):
    """exp(mu + sigma Z): a strictly increasing transform of :class:`GaussianArm`."""

    sigma: float
    mu: float = 0.0

    @property
    def name(self) -> str:
        return f"LN({self.mu:g},{self.sigma:g}^2)"

    def ppf(self, p):
        return _apply_conventions(p, lambda m: np.exp(self.mu + self.sigma * special.ndtri(m)), np.inf)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        with np.errstate(divide="ignore"):
            z = (np.log(np.maximum(x, 0.0)) - self.mu) / self.sigma
        return np.where(x <= 0, 0.0, special.ndtr(z))


@dataclass(frozen=True)
class ExponentialArm(Arm):
    rate: float

    @property
    def name(self) -> str:
        return f"Exp({self.rate:g})"

    def ppf(self, p):
        return _apply_conventions(p, lambda m: -np.log1p(-m) / self.rate, np.inf)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(x < 0, 0.0, -np.expm1(-self.rate * np.maximum(x, 0.0)))


@dataclass(frozen=True)
class DiscreteArm(Arm):
    """Finitely many atoms ``values`` (increasing) with probabilities ``probs``."""

    values: tuple[float, ...]
    probs: tuple[float, ...]
    label: str = "discrete"
    _cum: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        v, p = np.asarray(self.values, dtype=float), np.asarray(self.probs, dtype=float)
        if v.shape != p.shape or v.size == 0 or np.any(np.diff(v) <= 0) or np.any(p <= 0):
            raise ValueError("DiscreteArm needs increasing values with positive probabilities")
        if abs(p.sum() - 1) > 1e-12:
            raise ValueError(f"DiscreteArm probabilities must sum to 1, got {p.sum()!r}")
        cum = np.cumsum(p)
        cum[-1] = 1.0
        object.__setattr__(self, "_cum", cum)

    @property
    def name(self) -> str:
        return self.label

    @property
    def atoms(self) -> np.ndarray:
        return np.asarray(self.values, dtype=float)

    def ppf(self, p):
        v = np.asarray(self.values, dtype=float)
        return _apply_conventions(p, lambda m: v[np.minimum(np.searchsorted(self._cum, m, side="left"), v.size - 1)],
                                  float(v[-1]))

    def cdf(self, x):
        idx = np.searchsorted(np.asarray(self.values, dtype=float), np.asarray(x, dtype=float), side="right")
        return np.concatenate([[0.0], self._cum])[idx]

    def cdf_below(self, x):
        idx = np.searchsorted(np.asarray(self.values, dtype=float), np.asarray(x, dtype=float), side="left")
        return np.concatenate([[0.0], self._cum])[idx]


@dataclass(frozen=True)
class AtomUniformArm(Arm):
    """Theorem 5's G^w: mass ``w`` at 0, the rest uniform on [0, 1]."""

    w: float

    @property
    def name(self) -> str:
        return f"G^{self.w:.4g}"

    @property
    def atoms(self) -> np.ndarray:
        return np.array([0.0])

    def ppf(self, p):
        return _apply_conventions(p, lambda m: np.where(m <= self.w, 0.0, (m - self.w) / (1 - self.w)), 1.0)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(x < 0, 0.0, np.where(x >= 1, 1.0, self.w + (1 - self.w) * np.clip(x, 0, 1)))

    def cdf_below(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(x <= 0, 0.0, np.where(x > 1, 1.0, self.w + (1 - self.w) * np.clip(x, 0, 1)))


@dataclass(frozen=True)
class UniformArm(Arm):
    low: float
    high: float

    @property
    def name(self) -> str:
        return f"U[{self.low:g},{self.high:g}]"

    def ppf(self, p):
        return _apply_conventions(p, lambda m: self.low + (self.high - self.low) * m, self.high)

    def cdf(self, x):
        return np.clip((np.asarray(x, dtype=float) - self.low) / (self.high - self.low), 0.0, 1.0)


@dataclass(frozen=True)
class CauchyArm(Arm):
    shift: float

    @property
    def name(self) -> str:
        return f"Cauchy({self.shift:g})"

    def ppf(self, p):
        return _apply_conventions(p, lambda m: self.shift + np.tan(np.pi * (m - 0.5)), np.inf)

    def cdf(self, x):
        return 0.5 + np.arctan(np.asarray(x, dtype=float) - self.shift) / np.pi


@dataclass(frozen=True)
class TransformedArm(Arm):
    """g(X) for a strictly increasing g (with inverse ``g_inv``): same gaps, same SEQ paths."""

    base: Arm
    g: Callable[[np.ndarray], np.ndarray]
    g_inv: Callable[[np.ndarray], np.ndarray]
    label: str

    @property
    def name(self) -> str:
        return f"{self.label}({self.base.name})"

    @property
    def atoms(self) -> np.ndarray:
        return self.g(self.base.atoms)

    def ppf(self, p):
        out = self.base.ppf(p)
        finite = np.isfinite(out)
        out = np.array(out, dtype=float)
        with np.errstate(over="ignore"):
            out[finite] = self.g(out[finite])
        return out

    def cdf(self, x):
        return self.base.cdf(self.g_inv(np.asarray(x, dtype=float)))

    def cdf_below(self, x):
        return self.base.cdf_below(self.g_inv(np.asarray(x, dtype=float)))
