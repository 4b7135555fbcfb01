"""Bernoulli KL divergence and the KL-UCB upper confidence index (bisection)."""

from __future__ import annotations

import numpy as np

__all__ = ["bernoulli_kl", "kl_ucb_index"]

_CLAMP = 1e-12


def bernoulli_kl(p, q):
    """d_KL(p, q) = p ln(p/q) + (1-p) ln((1-p)/(1-q)), arguments clamped to [1e-12, 1-1e-12]."""
    p = np.clip(p, _CLAMP, 1 - _CLAMP)
    q = np.clip(q, _CLAMP, 1 - _CLAMP)
    return p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q))


def kl_ucb_index(p, level, iterations: int = 40):
    """max{q in [p, 1] : d_KL(p, q) <= level}, by bisection (online spec section 8)."""
    p = np.asarray(p, dtype=float)
    level = np.broadcast_to(np.asarray(level, dtype=float), p.shape)
    lo = p.copy()
    hi = np.ones_like(p)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        ok = bernoulli_kl(p, mid) <= level
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    return lo
