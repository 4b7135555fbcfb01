"""Synthetic instances of the contextual paper (spec ``ldp_contextual.md`` section 4.1).

* Target marginal ``P_X = Unif([0, 1]^d)``.
* Rewards (K arms, depend on x^1 only): ``f_k(x) = 2 exp(-2K^2 u^2) / (1 + exp(-2K^2 u^2))`` with
  ``u = x^1 - c_k``; centres ``c_k = k/K`` (the paper's formula, ``centres="paper"``) or
  ``k/(K+1)`` (the authors' code and the published figures, ``centres="code"``; spec A18).
  Rewards are Bernoulli(f_k(x)). Crossings are transversal, so the margin exponent is beta = 1.
* Auxiliary marginal (Section 3 / 4.1): density ``c_norm ||x - 1/2||_inf^gamma`` with
  ``c_norm = 2^gamma (d + gamma) / d``. The paper prints the reciprocal (erratum A19, check
  ``E-QNORM``). Sampler: a uniform direction on the cube's surface times the radius
  ``1/2 V^(1/(d+gamma))``, so ``P(||X - 1/2||_inf <= r) = (2r)^(d+gamma)``. The authors' code
  draws ``1/2 V^(1/(d(gamma+1)))``, i.e. the family with exponent d gamma (``sampler="code"``,
  erratum A19, check ``E-QSAMPLER``).
* Behaviour policy of an auxiliary dataset: context-free probabilities
  ``linspace(kappa/K, (2 - kappa)/K, K)``, whose exploration coefficient (Definition 3.2) is kappa.
* The K = 2 "symmetric" instance of the supplement (pointwise rewards, used by the margin check
  and the reward contour figure, and per-box moments for the engine, used by check FS1).

Besides pointwise rewards, the fast engine needs per-bin moments: the mass of a box under P or
Q_gamma and the conditional mean of each f_k (and of f* - f_k under P) given the box. They are
computed by Gauss-Legendre quadrature split at every kink (the f* crossings, x^1 = 1/2 and the
max-norm breakpoints), which is exact to ~1e-12 for these piecewise-smooth integrands; the inner
integral over x^2 of ``max(|x^1 - 1/2|, |x^2 - 1/2|)^gamma`` is in closed form (d = 2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BumpInstance", "SymmetricInstance", "behaviour_probabilities", "q_norm_constant",
           "q_norm_constant_printed", "q_density", "sample_q", "q_effective_gamma", "gl_integral",
           "symmetric_integrals"]

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(24)


def gl_integral(h, a, b, breaks=None) -> np.ndarray:
    """Integral of ``h`` over [a_i, b_i] for every i (vectorised), composite Gauss-Legendre with
    24 nodes per piece; pieces are split at ``breaks`` (an (n, m) array or a 1-d array shared by
    all intervals; breakpoints outside [a_i, b_i] are ignored). ``h`` maps an (n, p, q) array of
    abscissae to values of the same shape; the row index i is the first axis."""
    a = np.atleast_1d(np.asarray(a, dtype=float))
    b = np.atleast_1d(np.asarray(b, dtype=float))
    if breaks is None:
        breaks = np.empty((a.size, 0))
    breaks = np.asarray(breaks, dtype=float)
    if breaks.ndim == 1:
        breaks = np.broadcast_to(breaks, (a.size, breaks.size))
    inner = np.clip(breaks, a[:, None], b[:, None])
    edges = np.sort(np.concatenate([a[:, None], inner, b[:, None]], axis=1), axis=1)
    left, right = edges[:, :-1], edges[:, 1:]
    half = 0.5 * (right - left)
    x = (left + half)[..., None] + half[..., None] * _GL_NODES
    return np.sum(h(x) * _GL_WEIGHTS * half[..., None], axis=(1, 2))


def behaviour_probabilities(kappa: float, k: int) -> np.ndarray:
    """The auxiliary behaviour policy ``linspace(kappa/K, (2 - kappa)/K, K)`` (min prob kappa/K)."""
    if not 0.0 <= kappa <= 1.0:
        raise ValueError(f"kappa must be in [0, 1], got {kappa!r}")
    p = np.linspace(kappa / k, (2.0 - kappa) / k, k)
    return p / p.sum()


def q_norm_constant(gamma: float, d: int) -> float:
    """The normalising constant of ||x - 1/2||_inf^gamma on [0, 1]^d: 2^gamma (d + gamma) / d."""
    return 2.0**gamma * (d + gamma) / d


def q_norm_constant_printed(gamma: float, d: int) -> float:
    """The constant as printed in the paper, 2^-gamma d / (d + gamma) (its reciprocal; A19)."""
    return 2.0**-gamma * d / (d + gamma)


def q_density(x: np.ndarray, gamma: float, constant: float | None = None) -> np.ndarray:
    """Density of Q_gamma at the rows of x (correct constant unless ``constant`` is given)."""
    x = np.atleast_2d(x)
    c = q_norm_constant(gamma, x.shape[1]) if constant is None else constant
    return c * np.max(np.abs(x - 0.5), axis=1) ** gamma


def q_effective_gamma(gamma: float, d: int, sampler: str) -> float:
    """The transfer exponent a sampler really draws: gamma (correct) or d gamma (authors' code)."""
    if sampler == "correct":
        return float(gamma)
    if sampler == "code":
        return float(d * gamma)
    raise ValueError(f"sampler must be 'correct' or 'code', got {sampler!r}")


def sample_q(n: int, gamma: float, d: int, rng: np.random.Generator, sampler: str = "correct") -> np.ndarray:
    """n draws from Q_gamma: 1/2 + R W, W uniform on the surface of [-1, 1]^d (a uniform point of
    the cube divided by its max-norm), R = 1/2 V^(1/(d + gamma_eff))."""
    g = q_effective_gamma(gamma, d, sampler)
    u = rng.random((n, d)) - 0.5
    w = u / np.max(np.abs(u), axis=1, keepdims=True)
    r = 0.5 * rng.random(n) ** (1.0 / (d + g))
    return 0.5 + r[:, None] * w


def _q_inner(u: np.ndarray, a2: np.ndarray, b2: np.ndarray, gamma: float) -> np.ndarray:
    """J(u) = int_{a2}^{b2} max(u, |x2 - 1/2|)^gamma dx2 (closed form), u >= 0, broadcast over
    u of shape (n, p, q) and boxes (n,)."""
    a2 = a2[:, None, None]
    b2 = b2[:, None, None]
    g1 = gamma + 1.0
    total = np.zeros_like(u)
    # the x2-interval in v = |x2 - 1/2|: up to two pieces [v0, v1] on either side of 1/2
    for lo_x, hi_x in ((np.minimum(a2, 0.5), np.minimum(b2, 0.5)), (np.maximum(a2, 0.5), np.maximum(b2, 0.5))):
        v0 = np.minimum(np.abs(lo_x - 0.5), np.abs(hi_x - 0.5))
        v1 = np.maximum(np.abs(lo_x - 0.5), np.abs(hi_x - 0.5))
        present = hi_x > lo_x
        m = np.minimum(np.maximum(u, v0), v1)
        piece = u**gamma * (m - v0) + (v1**g1 - m**g1) / g1
        total = total + np.where(present, piece, 0.0)
    return total


@dataclass(frozen=True)
class BumpInstance:
    """The synthetic K-arm instance of section 4.1 (rewards depend on x^1 only)."""

    k: int = 3
    d: int = 2
    centres: str = "code"

    def __post_init__(self) -> None:
        if self.centres not in ("paper", "code"):
            raise ValueError(f"centres must be 'paper' or 'code', got {self.centres!r}")
        if self.k < 2 or self.d < 1:
            raise ValueError("need K >= 2 arms and d >= 1")

    @property
    def name(self) -> str:
        return f"bump_K{self.k}_d{self.d}_{self.centres}"

    @property
    def centre_values(self) -> np.ndarray:
        k = np.arange(1, self.k + 1)
        return k / self.k if self.centres == "paper" else k / (self.k + 1)

    def _g(self, u):
        return 2.0 / (1.0 + np.exp(2.0 * self.k**2 * np.square(u)))

    def _crossings(self) -> np.ndarray:
        c = self.centre_values
        return 0.5 * (c[1:] + c[:-1])

    def reward_x1(self, x1: np.ndarray) -> np.ndarray:
        """f_k as a function of x^1: shape x1.shape + (K,)."""
        return self._g(np.asarray(x1, dtype=float)[..., None] - self.centre_values)

    def best_x1(self, x1: np.ndarray) -> np.ndarray:
        """f* = max_k f_k = g(distance to the nearest centre)."""
        d = np.abs(np.asarray(x1, dtype=float)[..., None] - self.centre_values).min(axis=-1)
        return self._g(d)

    def reward(self, x: np.ndarray) -> np.ndarray:
        return self.reward_x1(np.atleast_2d(x)[:, 0])

    def best_arm(self, x: np.ndarray) -> np.ndarray:
        return np.argmin(np.abs(np.atleast_2d(x)[:, :1] - self.centre_values), axis=1)

    def sample_target(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.random((n, self.d))

    # -- per-box moments used by the fast engine --------------------------------------------

    def target_moments(self, lo: np.ndarray, hi: np.ndarray):
        """For boxes (n, d): P-mass (n,), E_P[f_k | box] (n, K) and E_P[f* - f_k | box] (n, K)."""
        lo, hi = np.atleast_2d(lo), np.atleast_2d(hi)
        mass = np.prod(hi - lo, axis=1)
        width = hi[:, 0] - lo[:, 0]
        means = np.column_stack([
            gl_integral(lambda x, c=c: self._g(x - c), lo[:, 0], hi[:, 0]) / width
            for c in self.centre_values])
        best = gl_integral(self.best_x1, lo[:, 0], hi[:, 0], self._crossings()) / width
        return mass, means, best[:, None] - means

    def aux_moments(self, lo: np.ndarray, hi: np.ndarray, gamma: float):
        """For boxes (n, d): Q_gamma-mass (n,) and E_Q[f_k | box] (n, K), gamma the effective
        transfer exponent (see :func:`q_effective_gamma`). Implemented for d = 2 (and gamma = 0
        in any d, where Q = P)."""
        lo, hi = np.atleast_2d(lo), np.atleast_2d(hi)
        if gamma == 0.0:
            mass, means, _ = self.target_moments(lo, hi)
            return mass, means
        if self.d != 2:
            raise NotImplementedError("auxiliary moments with gamma > 0 are implemented for d = 2")
        c = q_norm_constant(gamma, 2)
        a2, b2 = lo[:, 1], hi[:, 1]
        v = np.abs(np.column_stack([a2, b2]) - 0.5)
        breaks = np.column_stack([np.full(a2.size, 0.5), 0.5 - v, 0.5 + v])

        def weight(x):
            return _q_inner(np.abs(x - 0.5), a2, b2, gamma)

        mass = c * gl_integral(weight, lo[:, 0], hi[:, 0], breaks)
        num = np.column_stack([
            c * gl_integral(lambda x, cc=cc: weight(x) * self._g(x - cc), lo[:, 0], hi[:, 0], breaks)
            for cc in self.centre_values])
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(mass[:, None] > 0, num / mass[:, None], 0.0)
        return mass, means

    def margin_gap(self, x: np.ndarray) -> np.ndarray:
        f = np.sort(self.reward(x), axis=1)
        return f[:, -1] - f[:, -2]


def _symmetric_integrals(lo: tuple, hi: tuple, gamma: float) -> tuple[float, float, float]:
    """For one box of [0, 1]^2: the integrals of w, w s h and w h, where w = 1 (gamma = 0) or the
    Q_gamma density, s = sign((x1 - 1/2)(x2 - 1/2)) and h the quadrant pyramid of
    :class:`SymmetricInstance`. Iterated composite Gauss-Legendre: the inner x2-integral is split
    at every kink for the given x1 (the quadrant lines 1/4, 1/2, 3/4, the pyramid ridges
    c2 +- |x1 - c1| and the max-norm ridges 1/2 +- |x1 - 1/2|), the outer x1-integral where the
    inner kinks cross each other (multiples of 1/8) or the box's x2-edges. Every piece is then
    polynomial (gamma = 0: exact to ~1e-12) or smooth (gamma > 0: ~1e-8, from the power's cusp
    at the centre); tested against a midpoint rule."""
    (a1, a2), (b1, b2) = lo, hi
    cs = (0.25, 0.75)
    outer = {k / 8 for k in range(1, 8)}
    for e in (a2, b2):
        outer |= {c + sgn * abs(e - cc) for c in cs for cc in (*cs, 0.5) for sgn in (-1.0, 1.0)}
        outer |= {0.5 + sgn * abs(e - 0.5) for sgn in (-1.0, 1.0)}
    outer_breaks = np.array(sorted(b for b in outer if a1 < b < b1))
    c = q_norm_constant(gamma, 2) if gamma else 1.0

    def inner(x1: np.ndarray) -> np.ndarray:
        """(n, p, q) x1 nodes (n = 1) -> (3, n, p, q): the three x2-integrals."""
        x1f = x1.reshape(-1)
        d1 = np.abs(x1f - np.where(x1f < 0.5, 0.25, 0.75))
        e1 = np.abs(x1f - 0.5)
        brk = np.column_stack([np.full_like(x1f, 0.25), np.full_like(x1f, 0.5), np.full_like(x1f, 0.75),
                               0.25 - d1, 0.25 + d1, 0.75 - d1, 0.75 + d1, 0.5 - e1, 0.5 + e1])
        out = []
        for kind in range(3):
            def integrand(x2, kind=kind):
                u1 = x1f[:, None, None]
                if kind == 0 and not gamma:
                    return np.ones_like(x2)
                w = c * np.maximum(np.abs(u1 - 0.5), np.abs(x2 - 0.5)) ** gamma if gamma else 1.0
                if kind == 0:
                    return w * np.ones_like(x2)
                h = 1.0 - 4.0 * np.maximum(np.abs(np.mod(u1, 0.5) - 0.25), np.abs(np.mod(x2, 0.5) - 0.25))
                if kind == 2:
                    return w * h
                return w * np.sign((u1 - 0.5) * (x2 - 0.5)) * h
            out.append(gl_integral(integrand, np.full(x1f.size, a2), np.full(x1f.size, b2), brk).reshape(x1.shape))
        return np.stack(out)

    vals = [gl_integral(lambda x, j=j: inner(x)[j], np.array([a1]), np.array([b1]), outer_breaks)[0]
            for j in range(3)]
    return float(vals[0]), float(vals[1]), float(vals[2])


_SYMMETRIC_CACHE: dict[tuple, tuple[float, float, float]] = {}


def symmetric_integrals(lo, hi, gamma: float = 0.0) -> tuple[float, float, float]:
    """Memoised :func:`_symmetric_integrals` (the partitions of different runs share their dyadic
    boxes, so most lookups hit)."""
    key = (tuple(float(v) for v in lo), tuple(float(v) for v in hi), float(gamma))
    if key not in _SYMMETRIC_CACHE:
        if len(_SYMMETRIC_CACHE) > 200_000:
            _SYMMETRIC_CACHE.clear()
        _SYMMETRIC_CACHE[key] = _symmetric_integrals(key[0], key[1], key[2])
    return _SYMMETRIC_CACHE[key]


@dataclass(frozen=True)
class SymmetricInstance:
    """The K = 2 "more complex" instance of the supplement (spec 4.1, from the authors' code):
    f_k = 1/2 + 1/2 (2k - 1) sign((x1 - 1/2)(x2 - 1/2)) h(x), h a pyramid per quadrant.

    With s h = sign(.) h: f_0 = (1 - s h)/2, f_1 = (1 + s h)/2, f* = (1 + h)/2, so the per-box
    moments need only the integrals of w, w s h and w h (:func:`symmetric_integrals`); the
    uniform policy's per-round regret is E[h]/2 = 1/6."""

    k: int = 2
    d: int = 2

    @property
    def name(self) -> str:
        return "symmetric_K2_d2"

    def _h(self, x):
        x = np.atleast_2d(x)
        q = np.abs(np.mod(2.0 * x[:, :2], 1.0) / 2.0 - 0.25)
        return 1.0 - 4.0 * q.max(axis=1)

    def reward(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(x)
        s = np.sign((x[:, 0] - 0.5) * (x[:, 1] - 0.5)) * self._h(x)
        return np.column_stack([0.5 - 0.5 * s, 0.5 + 0.5 * s])

    def margin_gap(self, x: np.ndarray) -> np.ndarray:
        f = self.reward(x)
        return np.abs(f[:, 1] - f[:, 0])

    def sample_target(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.random((n, self.d))

    def _moments(self, lo, hi, gamma):
        lo, hi = np.atleast_2d(lo), np.atleast_2d(hi)
        vals = np.array([symmetric_integrals(a, b, gamma) for a, b in zip(lo, hi, strict=True)])
        mass, sh, h = vals[:, 0], vals[:, 1], vals[:, 2]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(mass > 0, sh / np.where(mass > 0, mass, 1.0), 0.0)
            hr = np.where(mass > 0, h / np.where(mass > 0, mass, 1.0), 0.0)
        means = np.column_stack([0.5 - 0.5 * ratio, 0.5 + 0.5 * ratio])
        gap = np.column_stack([0.5 * (hr + ratio), 0.5 * (hr - ratio)])
        return mass, means, gap

    def target_moments(self, lo: np.ndarray, hi: np.ndarray):
        """For boxes (n, 2): P-mass (n,), E_P[f_k | box] (n, 2) and E_P[f* - f_k | box] (n, 2)."""
        return self._moments(lo, hi, 0.0)

    def aux_moments(self, lo: np.ndarray, hi: np.ndarray, gamma: float):
        """For boxes (n, 2): Q_gamma-mass (n,) and E_Q[f_k | box] (n, 2)."""
        mass, means, _ = self._moments(lo, hi, float(gamma))
        return mass, means
