"""Report Noisy Max with Laplace noise, and its exact privacy loss.

``argmax_j (score_j + Lap(b))`` with one independent draw per candidate (Dwork & Roth, Claim 3.9).

Accounting. With per-candidate sensitivity 1:
* scale ``b = 1/epsilon`` is epsilon-DP only for *monotone* neighbours (all scores move in the
  same direction), which is what Claim 3.9 assumes;
* scale ``b = 2/epsilon`` is epsilon-DP for arbitrary neighbours (scores may move in opposite
  directions by up to 1 each): it is the monotone mechanism at epsilon/2, and the ratio of
  probabilities picks up at most e^{1/b} from the chosen candidate and e^{1/b} from the others.

The online paper's RNM-FTNL (Alg. 4) uses b = 1/epsilon under neighbours that replace a whole
reward vector, so the sums of two actions can move by +1 and -1 at once (spec issue P1). The
exact loss of one release under that relation is computed by :func:`exact_loss_two` (K = 2,
closed form) and :func:`exact_loss` (any K, quadrature).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate

from dpbandits.mechanisms.laplace import LaplaceMechanism

__all__ = ["ReportNoisyMax", "laplace_difference_cdf", "exact_loss_two", "exact_loss"]


@dataclass(frozen=True)
class ReportNoisyMax:
    """Release the index of the largest noisy score, noise Lap(scale_factor / epsilon).

    ``scale_factor`` 1 is Dwork & Roth's monotone-neighbour RNM (the online paper's choice);
    2 is epsilon-DP for arbitrary neighbours with per-score sensitivity 1.
    """

    epsilon: float
    scale_factor: float = 1.0
    noise_multiplier: float = 1.0  # < 1 only for negative controls of audits

    def __post_init__(self) -> None:
        if not self.scale_factor > 0:
            raise ValueError(f"scale_factor must be > 0, got {self.scale_factor!r}")
        LaplaceMechanism(self.epsilon, self.scale_factor, self.noise_multiplier)  # validates

    @property
    def laplace(self) -> LaplaceMechanism:
        return LaplaceMechanism(self.epsilon, self.scale_factor, self.noise_multiplier)

    @property
    def scale(self) -> float:
        return self.laplace.scale

    def release(self, scores, rng: np.random.Generator) -> np.ndarray | int:
        """argmax over the last axis of ``scores + noise`` (vectorised over leading axes)."""
        scores = np.asarray(scores, dtype=float)
        choice = np.argmax(scores + self.laplace.noise(rng, scores.shape), axis=-1)
        return int(choice) if choice.ndim == 0 else choice


def laplace_difference_cdf(w, scale: float) -> np.ndarray:
    """CDF of W = Z_2 - Z_1 with Z_i iid Lap(scale): 1/4 (2 + |w|/b) e^{-|w|/b} for w < 0."""
    w = np.asarray(w, dtype=float)
    tail = 0.25 * (2.0 + np.abs(w) / scale) * np.exp(-np.abs(w) / scale)
    return np.where(w < 0, tail, 1.0 - tail)


def _log_lower_tail(w: float, scale: float) -> float:
    """log P(W <= w) for w <= 0, computed in log-space."""
    a = abs(w) / scale
    return math.log(0.25) + math.log(2.0 + a) - a


def exact_loss_two(n: int, scale: float) -> float:
    """Exact privacy loss of one RNM release, K = 2, epoch of ``n`` rounds, whole-vector neighbours.

    The neighbour changes (X_1, X_2) from (0, 1) to (1, 0) in one round, shifting
    d = Phi_1 - Phi_2 by +2. Action 1 is chosen iff W = Z_2 - Z_1 <= d, so the loss is
    max over feasible d in [-n, n-2] of log F_W(d+2)/F_W(d) (and the symmetric term). F_W is
    log-concave, so the maximum is at d = -n: for n >= 2 it is 2/b + ln((2 + (n-2)/b)/(2 + n/b));
    for n = 1 the feasible d is -1 only and the loss is ln((1 - F_W(-1))/F_W(-1)).
    """
    if n < 1:
        raise ValueError(f"epoch length n must be >= 1, got {n}")
    if n == 1:
        lower = _log_lower_tail(-1.0, scale)
        return math.log1p(-math.exp(lower)) - lower
    return _log_lower_tail(-(n - 2.0), scale) - _log_lower_tail(-float(n), scale)


def _choice_probability(target: int, scores: np.ndarray, scale: float) -> float:
    """P(argmax_j (scores_j + Lap(scale)) = target), by quadrature over the target's noise."""
    others = np.delete(scores, target)

    def integrand(z: float) -> float:
        density = math.exp(-abs(z) / scale) / (2.0 * scale)
        x = scores[target] + z - others  # each other noise must be below x
        cdf = np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0) / scale),
                       1.0 - 0.5 * np.exp(-np.maximum(x, 0) / scale))
        return density * float(np.prod(cdf))

    breaks = sorted({0.0, *(others - scores[target]).tolist()})
    lo, hi = -60.0 * scale + min(breaks), 60.0 * scale + max(breaks)
    edges = [lo, *breaks, hi]
    return sum(integrate.quad(integrand, a, b, epsabs=0, epsrel=1e-12, limit=200)[0]
               for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a)


def exact_loss(n_actions: int, n: int, scale: float) -> float:
    """Exact worst-case loss of one RNM release over K actions, epoch of ``n`` rounds.

    Worst change (spec section 6.5): the target action's reward goes 0 -> 1 and every other
    action's 1 -> 0 in the changed round, starting from sums where the target is behind by n
    (target sum 0, others n). Loss = ln P'(J = target) / P(J = target), by quadrature.
    For K = 2 this equals :func:`exact_loss_two`.
    """
    if n_actions < 2:
        raise ValueError(f"n_actions must be >= 2, got {n_actions}")
    if n / scale > 300:  # P(J = target) ~ e^{-n/b} would underflow the quadrature
        raise ValueError(f"n / scale must be <= 300 for the quadrature, got {n / scale:g}; "
                         "use exact_loss_two for K = 2")
    before = np.array([0.0] + [float(n)] * (n_actions - 1))
    after = np.array([1.0] + [float(n - 1)] * (n_actions - 1))
    return math.log(_choice_probability(0, after, scale) / _choice_probability(0, before, scale))
