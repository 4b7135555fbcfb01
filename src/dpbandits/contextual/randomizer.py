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

import numpy as np

__all__ = ["NOISE_MODES", "noise_scale", "report", "report_batch", "privacy_loss", "messages_per_user"]

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
