"""Small helpers shared by the non-private dueling baselines (not an algorithm): tie-breaking,
UCB matrices and crossing times."""

from __future__ import annotations

import numpy as np

__all__ = ["argmax_random_ties", "ucb_matrix", "crossing_time"]


def argmax_random_ties(vals: np.ndarray, rng: np.random.Generator, avoid=None) -> np.ndarray:
    """Row-wise argmax of (R, K) ``vals`` with uniformly random exact ties; ``avoid[r]`` (optional)
    loses a tie against any other index ("d != c on a tie", RUCB)."""
    ties = vals == vals.max(axis=1, keepdims=True)
    if avoid is not None:
        rows = np.arange(vals.shape[0])
        ties[rows, avoid] &= ties.sum(axis=1) == 1
    return np.argmax(ties * rng.random(vals.shape), axis=1)


def ucb_matrix(w: np.ndarray, t: np.ndarray, alpha: float) -> np.ndarray:
    """RUCB's optimistic matrix U = W / N + sqrt(alpha ln t / N), N = W + W^T, x/0 := 1, u_ii = 1/2,
    for (R, K, K) win counts and per-run rounds t (R,)."""
    n = w + np.swapaxes(w, 1, 2)
    lt = np.log(t.astype(float))[:, None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        u = w / n + np.sqrt(alpha * lt / n)
    u[n == 0] = 1.0
    k = w.shape[1]
    u[:, np.arange(k), np.arange(k)] = 0.5
    return u


def crossing_time(w_jc: np.ndarray, n_jc: np.ndarray, t: np.ndarray, alpha: float,
                  cap: int) -> np.ndarray:
    """Smallest round t' > t at which W/N + sqrt(alpha ln t' / N) >= 1/2 (evaluated exactly as
    :func:`ucb_matrix` does), capped at ``cap``; arrays broadcast. Entries already >= 1/2 at t, or
    with N = 0, return t (no stretch)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        m = w_jc / n_jc
        x = n_jc * (0.5 - m) ** 2 / alpha
    x = np.where(np.isfinite(x), x, 0.0)
    tf = np.ceil(np.exp(np.minimum(x, np.log(cap) + 1.0)))
    tp = np.clip(tf, 1, cap).astype(np.int64)

    def cond(tt):
        with np.errstate(divide="ignore", invalid="ignore"):
            return m + np.sqrt(alpha * np.log(tt.astype(float)) / n_jc) >= 0.5

    tp = np.where(~cond(tp) & (tp < cap), tp + 1, tp)
    tp = np.where((tp - 1 > t) & cond(np.maximum(tp - 1, 1)), tp - 1, tp)
    now = (n_jc == 0) | (m >= 0.5) | cond(np.maximum(t, 1))
    return np.where(now, t, np.maximum(tp, t + 1))
