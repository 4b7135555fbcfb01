"""Dueling-bandit instances of the dueling paper (Saha & Asi 2024; spec sections 1.2, 1.3, 1.5
and the catalogue of section 5.1), the preference model and both regret units.

Model (spec 1.2): item i has utility r_i; a duel (a, b) returns o = 1 ("a wins") with probability
P(a, b) = sigma(r_a - r_b), sigma the logistic link. Arms are 0-based here: the paper's arm 1 is
index 0 in the F instances, and in general ``best`` = argmax r.

Regret per round of a duel (a, b) (spec 1.3; both recorded per run):
* preference units (Theorem 1 / 2 proofs): Delta(best, a) + Delta(best, b), Delta = P - 1/2;
* utility units (Eq. (2), Theorem 3):        2 r* - r_a - r_b.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from dpbandits.dueling.design import rowdot

__all__ = ["sigmoid", "sigmoid_prime", "logistic_preference", "FiniteInstance", "LinearInstance",
           "f1", "f2", "f3", "f4", "g1", "g2", "g3", "g4", "kappa", "borda_scores", "KAPPA_MODES"]


def sigmoid(x):
    """The logistic link sigma(x) = 1 / (1 + e^-x)."""
    return expit(x)


def sigmoid_prime(x):
    """sigma'(x) = sigma(x) (1 - sigma(x)) <= 1/4."""
    s = expit(x)
    return s * (1.0 - s)


def logistic_preference(utilities) -> np.ndarray:
    """The preference matrix P(i, j) = sigma(r_i - r_j) of utilities r (spec 1.2)."""
    r = np.asarray(utilities, dtype=float)
    return sigmoid(r[:, None] - r[None, :])


def borda_scores(preference: np.ndarray, subset) -> np.ndarray:
    """Effective Borda scores B_S(i) = (1/|S|) sum_{j in S} P(i, j), j = i included (P(i,i) = 1/2),
    for i in S, in the order of ``subset`` (spec 1.2, EBS)."""
    s = np.asarray(subset, dtype=int)
    return preference[np.ix_(s, s)].mean(axis=1)


@dataclass(frozen=True)
class FiniteInstance:
    """K arms given by their utilities (spec 1.2, finite case)."""

    name: str
    utilities: np.ndarray
    preference: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        r = np.asarray(self.utilities, dtype=float)
        if r.ndim != 1 or r.size < 2:
            raise ValueError(f"utilities must be a vector of >= 2 arms, got shape {r.shape}")
        if np.sum(r == r.max()) != 1:
            raise ValueError("the best arm must be unique (ties among the others are allowed: F1)")
        object.__setattr__(self, "utilities", r)
        object.__setattr__(self, "preference", logistic_preference(r))

    @property
    def k(self) -> int:
        return self.utilities.size

    @property
    def best(self) -> int:
        return int(np.argmax(self.utilities))

    @property
    def pref_gaps(self) -> np.ndarray:
        """Delta(best, i) = P(best, i) - 1/2 (0 for the best arm)."""
        return self.preference[self.best] - 0.5

    @property
    def util_gaps(self) -> np.ndarray:
        """r* - r_i."""
        return self.utilities.max() - self.utilities

    def regret_pref(self, a, b):
        """Per-duel preference regret Delta(best, a) + Delta(best, b) (vectorised)."""
        g = self.pref_gaps
        return g[np.asarray(a)] + g[np.asarray(b)]

    def regret_util(self, a, b):
        """Per-duel utility regret 2 r* - r_a - r_b (vectorised)."""
        g = self.util_gaps
        return g[np.asarray(a)] + g[np.asarray(b)]


def f1(k: int) -> FiniteInstance:
    """F1, the lower-bound instance of Theorem 2: r = (ln 3, 0, ..., 0), so P(1, j) = 3/4 and
    Delta(1, j) = 1/4, and the other arms tie (P = 1/2): exactly the paper's LB matrix."""
    r = np.zeros(k)
    r[0] = math.log(3.0)
    return FiniteInstance(f"F1(K={k})", r)


def f2(k: int, gap: float) -> FiniteInstance:
    """F2: r = (g, 0, ..., 0) with g = ln((1/2 + gap)/(1/2 - gap)), so Delta(1, j) = gap."""
    if not 0 < gap < 0.5:
        raise ValueError(f"gap must be in (0, 1/2), got {gap!r}")
    r = np.zeros(k)
    r[0] = math.log((0.5 + gap) / (0.5 - gap))
    return FiniteInstance(f"F2(K={k},gap={gap:g})", r)


def f3(k: int, step: float) -> FiniteInstance:
    """F3: linear utilities r_i = -(i - 1) step (heterogeneous gaps)."""
    return FiniteInstance(f"F3(K={k},step={step:g})", -step * np.arange(k))


def f4(k: int, rng: np.random.Generator) -> FiniteInstance:
    """F4: r_i ~ U[0, 1] i.i.d."""
    return FiniteInstance(f"F4(K={k})", rng.uniform(0.0, 1.0, size=k))


def _norm(w) -> float:
    """||w|| as the square root of an exactly rounded sum of squares: the same bits on every CPU
    (np.linalg.norm of a vector goes through BLAS, whose last digit depends on the kernel)."""
    w = np.asarray(w, dtype=float)
    return math.sqrt(math.fsum((w * w).tolist()))


@dataclass(frozen=True)
class LinearInstance:
    """d-dimensional arms x_k (rows of ``arms``, ||x|| <= 1) with utilities w*^T x (spec 1.2).
    Utilities and norms are summed in a fixed order (:func:`dpbandits.dueling.design.rowdot`,
    exactly rounded sums), never through BLAS, so that the instance tables and every gap derived
    from them are the same bytes on every CPU."""

    name: str
    arms: np.ndarray
    w_star: np.ndarray

    def __post_init__(self) -> None:
        x, w = np.asarray(self.arms, dtype=float), np.asarray(self.w_star, dtype=float)
        if x.ndim != 2 or x.shape[0] < 2 or w.shape != (x.shape[1],):
            raise ValueError(f"arms must be (K >= 2, d) and w_star (d,), got {x.shape} and {w.shape}")
        if np.linalg.norm(x, axis=1).max() > 1 + 1e-9:
            raise ValueError("every arm must lie in the unit ball")
        object.__setattr__(self, "arms", x)
        object.__setattr__(self, "w_star", w)

    @property
    def k(self) -> int:
        return self.arms.shape[0]

    @property
    def d(self) -> int:
        return self.arms.shape[1]

    @property
    def s_norm(self) -> float:
        return _norm(self.w_star)

    @property
    def utilities(self) -> np.ndarray:
        return rowdot(self.arms, self.w_star)

    @property
    def best(self) -> int:
        return int(np.argmax(self.utilities))

    @property
    def util_gaps(self) -> np.ndarray:
        u = self.utilities
        return u.max() - u

    def min_gap(self) -> float:
        g = self.util_gaps
        return float(g[g > 0].min())

    def as_finite(self) -> FiniteInstance:
        return FiniteInstance(self.name, self.utilities)


def g1(m: int, phi: float = 0.3, s: float = 1.0) -> LinearInstance:
    """G1: M arms on the unit circle, w* = S (cos phi, sin phi) (dense; the sqrt(T) regime)."""
    angles = 2 * np.pi * np.arange(m) / m
    arms = np.column_stack([np.cos(angles), np.sin(angles)])
    return LinearInstance(f"G1(M={m})", arms, s * np.array([math.cos(phi), math.sin(phi)]))


def _sphere(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    v = rng.standard_normal((n, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def g2(k: int, d: int, rng: np.random.Generator, s: float = 1.0, min_gap: float = 0.0,
       max_tries: int = 1000) -> LinearInstance:
    """G2: K points uniform on S^{d-1}, w* uniform on the sphere of radius S; redrawn until the
    smallest utility gap is >= ``min_gap`` (C7 uses 0.01)."""
    for _ in range(max_tries):
        inst = LinearInstance(f"G2(K={k},d={d},S={s:g})", _sphere(k, d, rng), s * _sphere(1, d, rng)[0])
        if inst.min_gap() >= min_gap:
            return inst
    raise RuntimeError(f"no G2 instance with min gap >= {min_gap} in {max_tries} draws")


def g3(k: int, phi: float = 0.3, s: float = 1.0) -> LinearInstance:
    """G3: Fibonacci lattice of K points on S^2 (dense, d = 3); w* = S (cos phi, sin phi, 0)
    rotated off the lattice axis."""
    i = np.arange(k) + 0.5
    polar = np.arccos(1 - 2 * i / k)
    azimuth = np.pi * (1 + 5**0.5) * i
    arms = np.column_stack([np.cos(azimuth) * np.sin(polar), np.sin(azimuth) * np.sin(polar), np.cos(polar)])
    w = np.array([math.cos(phi), math.sin(phi) * 0.6, math.sin(phi) * 0.8])
    return LinearInstance(f"G3(K={k})", arms, s * w / _norm(w))


def g4(utilities: np.ndarray) -> LinearInstance:
    """G4: embedding of a finite instance, x_i = e_i / sqrt(2), w* = (r - mean r) / max(1, ||r - mean r||),
    so ||w*|| <= 1 (only utility differences matter; utilities are rescaled when ||.|| > 1)."""
    r = np.asarray(utilities, dtype=float)
    k = r.size
    w = r - r.mean()
    w = w / max(1.0, _norm(w))
    return LinearInstance(f"G4(K={k})", np.eye(k) / math.sqrt(2), w)


KAPPA_MODES = ("alg", "thm", "inst")


def kappa(mode: str, s_norm: float, arms: np.ndarray | None = None,
          w_star: np.ndarray | None = None) -> float:
    """The non-linearity constant kappa (spec 1.5), three modes:

    * ``alg``  sigma'(2 (S + 1)), the Algorithm 2 definition (differences, ||w - w*|| <= 1);
    * ``thm``  sigma'(S + 1), the Theorem 3 definition;
    * ``inst`` min over pairs of sigma'((x - y)^T w*), practical, not a worst-case bound.
    """
    if mode == "alg":
        return float(sigmoid_prime(2 * (s_norm + 1)))
    if mode == "thm":
        return float(sigmoid_prime(s_norm + 1))
    if mode == "inst":
        if arms is None or w_star is None:
            raise ValueError("kappa mode 'inst' needs the arms and w_star")
        u = rowdot(np.asarray(arms, dtype=float), np.asarray(w_star, dtype=float))
        return float(sigmoid_prime(u.max() - u.min()))
    raise ValueError(f"unknown kappa mode {mode!r}; allowed: {KAPPA_MODES}")
