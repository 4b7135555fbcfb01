"""Statistical helpers used by every check (the slope fits live in :mod:`dpbandits.stats.slopes`
and are re-exported here).

All resampling is driven by an explicit ``numpy.random.Generator`` (seeded by the caller through
:mod:`dpbandits.rng`), so verdicts are reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats as sps

from dpbandits.stats.slopes import SlopeFit, fit_line, loglog_slope, paired_loglog_slope

__all__ = [
    "bootstrap_ci",
    "bootstrap_ratio_of_means",
    "clopper_pearson",
    "holm",
    "loglog_slope",
    "paired_loglog_slope",
    "mann_whitney_less",
    "mean_ci",
    "wilcoxon_less",
    "SlopeFit",
    "fit_line",
]


def bootstrap_ci(data, statistic: Callable[[np.ndarray], float], rng: np.random.Generator,
                 n_boot: int = 2000, level: float = 0.95) -> tuple[float, float, float]:
    """Percentile bootstrap over the first axis of ``data`` (runs).

    Returns (estimate, ci_low, ci_high).
    """
    data = np.asarray(data, dtype=float)
    n = data.shape[0]
    if n < 1:
        raise ValueError("bootstrap_ci needs at least one observation")
    estimate = float(statistic(data))
    idx = rng.integers(0, n, size=(n_boot, n))
    boots = np.array([statistic(data[i]) for i in idx])
    lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
    return estimate, float(lo), float(hi)


def mean_ci(data, rng: np.random.Generator, n_boot: int = 2000, level: float = 0.95):
    """Mean over runs with its percentile bootstrap CI."""
    data = np.asarray(data, dtype=float)
    n = data.shape[0]
    idx = rng.integers(0, n, size=(n_boot, n))
    boots = data[idx].mean(axis=1)
    lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
    return float(data.mean()), float(lo), float(hi)


def bootstrap_ratio_of_means(a, b, rng: np.random.Generator, n_boot: int = 2000,
                             level: float = 0.95) -> tuple[float, float, float]:
    """mean(a) / mean(b) for two independent groups of runs, resampled independently."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ia = rng.integers(0, a.size, size=(n_boot, a.size))
    ib = rng.integers(0, b.size, size=(n_boot, b.size))
    boots = a[ia].mean(axis=1) / b[ib].mean(axis=1)
    lo, hi = np.quantile(boots, [(1 - level) / 2, (1 + level) / 2])
    return float(a.mean() / b.mean()), float(lo), float(hi)


def clopper_pearson(k, n, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Exact two-sided (1 - alpha) Clopper-Pearson interval for k successes out of n.

    Vectorised over k. Each one-sided bound has level alpha / 2.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= k <= n")
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, sps.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
        hi = np.where(k < n, sps.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    return lo, hi


def holm(pvalues, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm-Bonferroni step-down. Returns (reject, adjusted p-values) in the input order."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted_sorted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(adjusted_sorted, 1.0)
    return adjusted <= alpha, adjusted


def mann_whitney_less(a, b) -> float:
    """One-sided p-value for H1: values of ``a`` tend to be smaller than those of ``b``.

    Uses the tie-corrected normal approximation (scipy, method="asymptotic"). When both groups
    are constant (doubling schedules can make regret identical across runs) the test
    degenerates: the p-value is 0 if max(a) < min(b) and 1 otherwise.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if np.ptp(np.concatenate([a, b])) == 0:
        return 1.0
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return 0.0 if a[0] < b[0] else 1.0
    return float(sps.mannwhitneyu(a, b, alternative="less", method="asymptotic").pvalue)


def wilcoxon_less(a, b) -> float:
    """One-sided paired Wilcoxon signed-rank p-value for H1: ``a`` tends to be smaller than
    ``b`` (pairs by position, e.g. runs under common random numbers). Zero differences are
    dropped (Wilcoxon's convention); when every difference is zero the p-value is 1."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if not np.any(d != 0):
        return 1.0
    return float(sps.wilcoxon(d[d != 0], alternative="less").pvalue)
