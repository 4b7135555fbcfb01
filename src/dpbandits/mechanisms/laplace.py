"""The Laplace mechanism (Dwork & Roth, Def. 3.3 and Thm 3.6).

Releasing ``f(x) + Lap(b)`` with ``b = sensitivity / epsilon`` is epsilon-DP when ``f`` has
l1-sensitivity ``sensitivity`` under the neighbouring relation of the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["LaplaceMechanism", "laplace_sum", "laplace_tail_probability"]


def laplace_tail_probability(x: float | np.ndarray, scale: float) -> np.ndarray:
    """P(|Y| > x) for Y ~ Lap(scale): exp(-x / scale) (Fact 16 of the online paper)."""
    return np.exp(-np.asarray(x, dtype=float) / scale)


def laplace_sum(rng: np.random.Generator, count, scale: float, size=None) -> np.ndarray:
    """The sum of ``count`` i.i.d. Lap(scale) draws, drawn exactly in O(1): a Lap(b) variable is
    b (E1 - E2) with E1, E2 i.i.d. Exp(1), so a sum of m of them is b (G1 - G2) with G1, G2
    i.i.d. Gamma(m, 1). ``count`` may be an array (broadcast against ``size``); count 0 gives 0."""
    count = np.asarray(count, dtype=float)
    if np.any(count < 0):
        raise ValueError("count must be >= 0")
    if count.ndim == 0:  # one shape parameter: the fast path of the sampler
        if count == 0:
            return np.zeros(size) if size is not None else 0.0
        return scale * (rng.standard_gamma(float(count), size) - rng.standard_gamma(float(count), size))
    shape = np.broadcast_shapes(count.shape, size if size is not None else ())
    m = np.broadcast_to(count, shape)
    return scale * (rng.standard_gamma(m) - rng.standard_gamma(m))


@dataclass(frozen=True)
class LaplaceMechanism:
    """Adds Lap(sensitivity / epsilon) noise.

    Parameters
    ----------
    epsilon:
        Privacy parameter of one release (> 0).
    sensitivity:
        l1-sensitivity of the released statistic (> 0).
    noise_multiplier:
        1 for the real mechanism. Values < 1 give a *deliberately broken* mutant used only as a
        negative control in privacy audits (its actual privacy is epsilon / noise_multiplier).
    """

    epsilon: float
    sensitivity: float = 1.0
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        if not np.isfinite(self.epsilon) or self.epsilon <= 0:
            raise ValueError(f"epsilon must be > 0, got {self.epsilon!r}")
        if not np.isfinite(self.sensitivity) or self.sensitivity <= 0:
            raise ValueError(f"sensitivity must be > 0, got {self.sensitivity!r}")
        if self.noise_multiplier < 0:
            raise ValueError(f"noise_multiplier must be >= 0, got {self.noise_multiplier!r}")

    @property
    def scale(self) -> float:
        """Laplace scale b = sensitivity / epsilon (times the mutant multiplier)."""
        return self.noise_multiplier * self.sensitivity / self.epsilon

    @property
    def effective_epsilon(self) -> float:
        """The privacy actually provided: sensitivity / scale (inf if the noise is removed)."""
        return np.inf if self.scale == 0 else self.sensitivity / self.scale

    def noise(self, rng: np.random.Generator, size=None) -> np.ndarray | float:
        if self.scale == 0:
            return np.zeros(size) if size is not None else 0.0
        return rng.laplace(0.0, self.scale, size=size)

    def release(self, value, rng: np.random.Generator):
        """value + Lap(scale), elementwise."""
        value = np.asarray(value, dtype=float)
        out = value + self.noise(rng, size=value.shape if value.shape else None)
        return out if out.shape else float(out)
