"""The user-side randomiser of LDPMAB (eqs. 11-12 for target users, 24-25 for auxiliary samples).

User i holds z = (bin of X_i, pulled arm, reward Y_i in [0, 1]). For every active bin B and every
active arm k of B (the active partition and sets are public, broadcast by the server) it releases

    U~ = 1{X_i in B} 1{arm = k} + (4/eps) zeta,     V~ = Y_i 1{X_i in B} 1{arm = k} + (4/eps) xi,

zeta, xi i.i.d. standard Laplace. Privacy accounting: the U-vector over all reported (bin, arm)
pairs is one-hot or zero, the V-vector has at most one non-zero entry in [0, 1], so for any two
inputs ||U(z) - U(z')||_1 <= 2 and ||V(z) - V(z')||_1 <= 2. Laplace scale 4/eps on every entry
gives a privacy loss of at most (eps/4)(2 + 2) = eps: the release is eps-LDP, *provided* the set
of reported pairs does not depend on z (it depends only on the public active sets).

``noise="inbin_only"`` is the authors' code (spec A12): only the bin that contains X_i receives
the user's report (the code adds one Laplace term per in-bin user). The presence of a report
reveals the bin, so the privacy loss is unbounded. It exists to be caught by the audit
(check ``E-CODE-LDP``). ``noise_multiplier < 1`` shrinks the scale: the negative control of the
audit (really eps / noise_multiplier-LDP).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["NOISE_MODES", "noise_scale", "report", "report_batch", "privacy_loss", "messages_per_user",
           "PublicPartition", "Report", "LaplaceRandomizer"]

NOISE_MODES = ("faithful", "inbin_only")


def noise_scale(epsilon: float, noise_multiplier: float = 1.0) -> float:
    """Laplace scale 4/eps of every released entry (sensitivity 2 for U and 2 for V, eps/2 each)."""
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    return noise_multiplier * 4.0 / epsilon


def _raw(z, active: np.ndarray):
    b, k, y = z
    u = np.zeros(active.shape)
    u[b, k] = 1.0 if active[b, k] else 0.0
    return u, y * u


def report(z, active: np.ndarray, epsilon: float, rng: np.random.Generator,
           noise: str = "faithful", noise_multiplier: float = 1.0):
    """One user's release: (U~, V~) arrays of shape (bins, K), NaN where nothing is sent.

    ``z = (bin index, arm, reward)``; ``active`` is the public (bins, K) boolean mask of active
    (bin, arm) pairs (arms inactive in a bin are not reported; spec A2)."""
    U, V = report_batch(z, active, epsilon, 1, rng, noise, noise_multiplier)
    return U[0], V[0]


def report_batch(z, active: np.ndarray, epsilon: float, n: int, rng: np.random.Generator,
                 noise: str = "faithful", noise_multiplier: float = 1.0):
    """``n`` independent releases of the same input z: arrays (n, bins, K), NaN = not sent."""
    if noise not in NOISE_MODES:
        raise ValueError(f"noise must be one of {NOISE_MODES}, got {noise!r}")
    active = np.asarray(active, dtype=bool)
    u, v = _raw(z, active)
    b = noise_scale(epsilon, noise_multiplier)
    sent = active.copy()
    if noise == "inbin_only":
        sent[np.arange(active.shape[0]) != z[0]] = False
    U = u + b * rng.laplace(size=(n, *active.shape))
    V = v + b * rng.laplace(size=(n, *active.shape))
    U[:, ~sent] = np.nan
    V[:, ~sent] = np.nan
    return U, V


def privacy_loss(z, z_prime, active: np.ndarray, epsilon: float, noise: str = "faithful",
                 noise_multiplier: float = 1.0) -> float:
    """Exact worst-case log-likelihood ratio of the release under z versus z' (product of
    Laplace densities of scale b = 4 noise_multiplier / eps): (||dU||_1 + ||dV||_1) / b;
    infinite when the sets of reported entries differ (``inbin_only`` with different bins)."""
    active = np.asarray(active, dtype=bool)
    if noise == "inbin_only" and z[0] != z_prime[0]:
        return float("inf")
    u, v = _raw(z, active)
    u2, v2 = _raw(z_prime, active)
    b = noise_scale(epsilon, noise_multiplier)
    return float((np.abs(u - u2).sum() + np.abs(v - v2).sum()) / b)


def messages_per_user(active: np.ndarray) -> int:
    """Number of (bin, arm) reports each user sends: sum over active bins of |A_B| (U~ and V~
    each), whatever the user's own bin (spec U-PRIV-2)."""
    return int(np.asarray(active, dtype=bool).sum())


@dataclass(frozen=True)
class PublicPartition:
    """What the server broadcasts to the users of a batch: the bins of the active partition
    (boxes [lo, hi) of [0, 1]^d, closed at 1) and the (bins, K) mask of the active (bin, arm)
    pairs. Public: it depends on earlier batches' noisy releases only."""

    lo: np.ndarray
    hi: np.ndarray
    active: np.ndarray

    def bin_of(self, x: np.ndarray) -> int:
        """The one bin that contains the context x."""
        x = np.asarray(x, dtype=float)
        inside = np.all((x >= self.lo) & ((x < self.hi) | ((self.hi == 1.0) & (x <= 1.0))), axis=1)
        if inside.sum() != 1:
            raise ValueError(f"the bins do not partition the context {x!r}: {int(inside.sum())} contain it")
        return int(inside.argmax())


@dataclass(frozen=True)
class Report:
    """One user's release: the (bins, K) arrays U~ and V~ (zero where nothing is sent) and the
    number of entries sent of each."""

    u: np.ndarray
    v: np.ndarray
    sent: int


class LaplaceRandomizer:
    """The user-side randomiser of the module docstring in the contextual family's protocol
    (:mod:`dpbandits.contextual.interface`): :meth:`release` runs on the user's side with the
    user's context, arm and reward and the public partition, drawing its Laplace noise from
    ``rng`` (U~ then V~, in the order of the reference's users). ``private`` defaults to a finite
    epsilon."""

    def __init__(self, epsilon: float, rng: np.random.Generator, private: bool | None = None,
                 noise: str = "faithful"):
        if noise not in NOISE_MODES:
            raise ValueError(f"noise must be one of {NOISE_MODES}, got {noise!r}")
        private = math.isfinite(epsilon) if private is None else bool(private)
        self.epsilon, self.rng, self.private, self.noise = epsilon, rng, private, noise
        self.scale = 4.0 / epsilon if self.private else 0.0

    @property
    def mechanism(self) -> str:
        if not self.private:
            return "none: exact indicators (not private)"
        return ("Laplace(4/eps) on every reported (bin, arm) entry of U~ and V~" +
                ("; only the user's own bin is reported, which reveals it (not LDP: the authors' code)"
                 if self.noise == "inbin_only" else ", every active pair reported whatever the user's bin: eps-LDP"))

    sensitivity = "||U(z) - U(z')||_1 <= 2 and ||V(z) - V(z')||_1 <= 2 over the reported entries"

    def release(self, x, arm: int, reward: float, public: PublicPartition) -> Report:
        if not isinstance(public, PublicPartition):
            raise ValueError(f"the broadcast (the policy's public()) is a {type(public).__name__}; the paper's "
                             "randomiser needs a PublicPartition (dpbandits.contextual.randomizer)")
        j = public.bin_of(x)
        mask = public.active
        if self.noise == "inbin_only":
            mask = np.zeros_like(public.active)
            mask[j] = public.active[j]
        u, v = _raw((j, arm, reward), mask)
        if not self.private:
            return Report(u, v, int(mask.sum()))
        u_noisy = np.where(mask, u + self.scale * self.rng.laplace(size=u.shape), 0.0)
        v_noisy = np.where(mask, v + self.scale * self.rng.laplace(size=u.shape), 0.0)
        return Report(u_noisy, v_noisy, int(mask.sum()))
