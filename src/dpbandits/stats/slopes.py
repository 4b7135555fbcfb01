"""Slope fits whose confidence intervals include lack of fit.

A scaling check fits a line to k design points (log mean against log x, k = 2 to about 8) and
judges the slope's CI against a band. Two sources of uncertainty matter:

* Monte Carlo noise: each point is a mean over finitely many runs. Resampling the runs (within
  each x, or whole runs when the same runs are observed at every x) gives bootstrap slopes whose
  spread measures it.
* Lack of fit: the points scatter about the line by more than their Monte Carlo noise (finite-x
  effects, discretisation, a law that is a power law only on average). Resampling runs cannot
  see it: points that scatter over a decade about the fit, each known very precisely, give a
  bootstrap CI of width ~0 although another choice of design points would move the slope a lot.

Method (:func:`fit_line`), the random-effects regression model of meta-regression:
``y_i = a + b u_i + e_i + d_i`` with ``e`` the Monte Carlo error (covariance ``S`` estimated from
the bootstrap draws of the points, so paired designs and maxima over instances are handled alike)
and ``d_i`` independent lack-of-fit deviations of variance ``tau^2``. For the OLS fit of k points
the residual sum of squares has expectation ``RSS_MC + (k - 2) tau^2`` with
``RSS_MC = tr((I - H) S)`` (``H`` the hat matrix): the Monte Carlo noise alone explains
``RSS_MC``. The CI is a two-level bootstrap:

1. runs are resampled (within each x, or whole runs for paired designs): Monte Carlo slopes;
2. if ``RSS > RSS_MC`` (some lack of fit is estimated), each Monte Carlo slope gets an independent
   lack-of-fit draw ``Z sqrt(max(0, RSS / U - RSS_MC / (k - 2)) / Sxx)`` with ``Z`` standard
   normal, ``U`` chi-square on ``k - 2`` degrees of freedom (stratified: a random permutation of
   its ``n_boot`` evenly spaced quantiles) and ``Sxx`` the centred sum of squares of ``u``.
   ``RSS / U`` is the generalized pivotal quantity of the total residual variance (the classical
   pivot ``RSS / sigma^2 ~ chi2(k - 2)`` solved for ``sigma^2``); subtracting the Monte Carlo part
   leaves a draw of ``tau^2``. If ``RSS <= RSS_MC`` the points lie on the line within their noise
   and the CI is the Monte Carlo one.

The CI is the percentile interval of these slopes (``boots``), so ``boots`` and the CI agree and
differences of two fits' ``boots`` carry both fits' lack of fit. The reported ``lof_sd`` is the
method-of-moments estimate ``tau = sqrt(max(0, (RSS - RSS_MC) / (k - 2)))``.

Why this method:

* when lack of fit dominates the Monte Carlo noise it reduces to the textbook OLS interval
  ``b +- t_{k-2} s / sqrt(Sxx)`` (``Z / sqrt(U / (k - 2))`` is Student-t), exact for Gaussian
  deviations; the k - 2 degrees of freedom are the small-sample correction (with 3 or 4 points
  ``tau`` rests on 1 or 2 degrees of freedom);
* when the points lie on the line up to their Monte Carlo noise, ``RSS <= RSS_MC`` about half the
  time and the interval is then exactly the Monte Carlo one (no needless inflation; the median
  width ratio to the Monte Carlo CI is 1);
* in between (lack of fit comparable to the noise), drawing ``tau^2`` from its pivot rather than
  plugging in its moment estimate keeps the coverage near nominal (plugging in
  ``tau * t_{k-2}`` gave 0.85-0.93 with 3 to 5 points in the same simulations);
* a wild or residual bootstrap was not used: with 3 or 4 points Rademacher signs give only 8 or
  16 distinct slopes, and resampled residuals understate the spread (they shrink by ``1 - h_ii``
  and carry no allowance for the few degrees of freedom);
* with 2 design points the line passes through both points and lack of fit cannot be assessed:
  ``lof_assessed`` is False, ``resid_df`` 0, and the CI is the Monte Carlo one.

Measured coverage of the 95% CI (benchmarks/stats_error_rates.md, 400 replications per cell, lack
of fit from 0 to 20 times a point's Monte Carlo SD): 0.92-0.97 with 4, 5 or 8 points (the
Monte Carlo-only CI: 0.95 without lack of fit, down to 0.05-0.08 with it). With 3 points the lack
of fit rests on one residual and the CI under-covers when lack of fit is 1 to 5 times the noise
(0.87-0.91); prefer 4 or more points.

Deviations from the line are treated as independent between fits: the lack-of-fit draws of two
fits are independent, so a difference of two fits' ``boots`` (e.g. the same law at two privacy
levels) is conservative when both curves bend alike. For two fits on the same x,
:func:`slope_difference` fits the line to the differences of the points instead, so that shared
deviations cancel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

__all__ = ["SlopeFit", "fit_line", "loglog_slope", "paired_loglog_slope", "slope_difference"]

_TINY = np.finfo(float).tiny


@dataclass(frozen=True)
class SlopeFit:
    """A fitted slope with its CI (Monte Carlo noise and lack of fit, see the module docstring).

    ``boots``: the bootstrap slopes; ``ci_low``/``ci_high`` are their percentiles.
    ``resid_se``: residual standard error of the fit, ``sqrt(RSS / resid_df)`` (NaN with 2 points).
    ``resid_df``: residual degrees of freedom, number of points - 2.
    ``r2``: coefficient of determination of the fit (NaN with 2 points or constant y).
    ``lof_sd``: estimated lack-of-fit standard deviation ``tau`` of the points about the line, in
    the units of y (log units for log-log fits), beyond their Monte Carlo noise (NaN with 2 points).
    ``lof_assessed``: False when lack of fit could not be assessed (2 points); the CI is then the
    Monte Carlo one.
    ``mc_ci_low``/``mc_ci_high``: the Monte Carlo-only CI (runs resampled, lack of fit ignored).
    ``fit_x``, ``fit_y``, ``fit_y_boots``: what was fitted (log x, log means and their (n_boot, k)
    bootstrap draws for the log-log fits), for :func:`slope_difference`.
    """

    slope: float
    ci_low: float
    ci_high: float
    intercept: float
    boots: np.ndarray | None = field(default=None, repr=False, compare=False)  # bootstrap slopes
    resid_se: float = math.nan
    resid_df: int = 0
    r2: float = math.nan
    lof_sd: float = math.nan
    lof_assessed: bool = False
    mc_ci_low: float = math.nan
    mc_ci_high: float = math.nan
    fit_x: np.ndarray | None = field(default=None, repr=False, compare=False)
    fit_y: np.ndarray | None = field(default=None, repr=False, compare=False)
    fit_y_boots: np.ndarray | None = field(default=None, repr=False, compare=False)


def fit_line(u, y, y_boots, rng: np.random.Generator, level: float = 0.95) -> SlopeFit:
    """OLS slope of ``y`` on ``u`` with a CI that includes lack of fit (module docstring).

    ``y``: the k fitted points (e.g. log mean over runs at each x); ``y_boots``: an
    (n_boot, k) array of their Monte Carlo bootstrap draws (runs resampled), one row per draw.
    ``rng`` draws the lack-of-fit component, only when some lack of fit is estimated
    (``RSS > RSS_MC``): a fit on points within their noise consumes no random numbers here.
    """
    u = np.asarray(u, dtype=float)
    y = np.asarray(y, dtype=float)
    y_boots = np.asarray(y_boots, dtype=float)
    k = u.size
    if y.shape != (k,) or y_boots.ndim != 2 or y_boots.shape[1] != k:
        raise ValueError(f"fit_line: need y of shape ({k},) and y_boots of shape (n_boot, {k}); "
                         f"got {y.shape} and {y_boots.shape}")
    if not 0 < level < 1:
        raise ValueError(f"fit_line: level must be in (0, 1), got {level}")
    uc = u - u.mean()
    sxx = float(uc @ uc)
    if k < 2 or sxx <= 0:
        raise ValueError("fit_line: need at least two distinct x values")
    c = uc / sxx  # slope = c @ y
    slope = float(c @ y)
    intercept = float(y.mean() - slope * u.mean())
    mc = (y_boots - y_boots.mean(axis=1, keepdims=True)) @ c
    q = [(1 - level) / 2, (1 + level) / 2]
    mc_lo, mc_hi = np.quantile(mc, q)
    df = k - 2
    data = {"fit_x": u, "fit_y": y, "fit_y_boots": y_boots}
    if df == 0:
        return SlopeFit(slope, float(mc_lo), float(mc_hi), intercept, mc, resid_df=0,
                        mc_ci_low=float(mc_lo), mc_ci_high=float(mc_hi), **data)
    resid = y - (intercept + slope * u)
    rss = float(resid @ resid)
    yc = y - y.mean()
    sst = float(yc @ yc)
    resid_free = np.eye(k) - 1.0 / k - np.outer(uc, uc) / sxx  # I - H
    cov = np.atleast_2d(np.cov(y_boots, rowvar=False))
    rss_mc = float(np.sum(resid_free * cov))  # E[RSS] from Monte Carlo noise alone
    tau2 = max(0.0, (rss - rss_mc) / df)
    boots = mc
    if rss > rss_mc:
        n = mc.size
        u_draws = rng.permutation(sps.chi2.ppf((np.arange(n) + 0.5) / n, df))
        lof_var = np.maximum(0.0, rss / u_draws - rss_mc / df)
        boots = mc + rng.standard_normal(n) * np.sqrt(lof_var / sxx)
    lo, hi = np.quantile(boots, q)
    return SlopeFit(slope, float(lo), float(hi), intercept, boots,
                    resid_se=math.sqrt(rss / df), resid_df=df,
                    r2=1.0 - rss / sst if sst > 0 else math.nan, lof_sd=math.sqrt(tau2),
                    lof_assessed=True, mc_ci_low=float(mc_lo), mc_ci_high=float(mc_hi), **data)


def loglog_slope(x, runs_by_x, rng: np.random.Generator, n_boot: int = 2000,
                 level: float = 0.95) -> SlopeFit:
    """OLS slope of log(mean over runs) against log(x), with a bootstrap CI that includes lack of
    fit (:func:`fit_line`): runs resampled within each x, plus the points' scatter about the line
    beyond that noise (its variance drawn from its chi-square pivot on len(x) - 2 degrees of
    freedom). With two x values lack of fit cannot be assessed and the CI is the runs-only
    bootstrap CI (``lof_assessed`` False).

    ``runs_by_x`` is a sequence (one entry per x) of 1-d arrays of per-run values; each x is
    resampled independently (its runs are independent of the other x's runs).
    """
    x = np.asarray(x, dtype=float)
    groups = [np.asarray(g, dtype=float) for g in runs_by_x]
    if len(groups) != x.size or x.size < 2:
        raise ValueError("need one group of runs per x and at least two x values")
    means = np.array([g.mean() for g in groups])
    if np.any(means <= 0):
        raise ValueError("log-log slope needs positive means")
    boot_means = np.column_stack(
        [g[rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1) for g in groups]
    )
    return fit_line(np.log(x), np.log(means), np.log(np.maximum(boot_means, _TINY)), rng, level)


def paired_loglog_slope(x, runs_by_x, rng: np.random.Generator, n_boot: int = 2000,
                        level: float = 0.95) -> SlopeFit:
    """As :func:`loglog_slope` for *paired* data: ``runs_by_x`` is (runs, len(x)), the same runs
    observed at every x (e.g. one anytime run's regret at several T); runs are resampled whole
    (the Monte Carlo part of the lack-of-fit estimate uses the points' bootstrap covariance)."""
    x = np.asarray(x, dtype=float)
    data = np.asarray(runs_by_x, dtype=float)
    if data.ndim != 2 or data.shape[1] != x.size or x.size < 2:
        raise ValueError("need a (runs, len(x)) array and at least two x values")
    means = data.mean(axis=0)
    if np.any(means <= 0):
        raise ValueError("log-log slope needs positive means")
    idx = rng.integers(0, data.shape[0], size=(n_boot, data.shape[0]))
    boot_means = data[idx].mean(axis=1)
    return fit_line(np.log(x), np.log(means), np.log(np.maximum(boot_means, _TINY)), rng, level)


def slope_difference(a: SlopeFit, b: SlopeFit, rng: np.random.Generator, level: float = 0.95) -> SlopeFit:
    """Slope of ``a`` minus slope of ``b`` for two fits on the same x (e.g. the same n grid at two
    privacy levels), with a CI that includes the lack of fit *of the difference*: the line is
    fitted to the differences of the points (``a.fit_y - b.fit_y``, bootstrap draws differenced
    row by row), so deviations the two curves share cancel.

    ``a.boots - b.boots`` also gives a CI of the difference, but with independent lack-of-fit
    draws for the two fits: valid, and conservative when both curves bend alike; for fits on
    different x it is the one to use. The two fits must come from the same number of bootstrap
    draws and the same x.
    """
    for name, f in (("a", a), ("b", b)):
        if f.fit_x is None or f.fit_y_boots is None:
            raise ValueError(f"slope_difference: fit {name} does not carry its fitted points")
    if a.fit_x.shape != b.fit_x.shape or not np.allclose(a.fit_x, b.fit_x):
        raise ValueError("slope_difference: the two fits must share their x values "
                         f"(fitted regressors {a.fit_x} and {b.fit_x})")
    if a.fit_y_boots.shape != b.fit_y_boots.shape:
        raise ValueError("slope_difference: the two fits must have the same number of bootstrap draws "
                         f"(got {a.fit_y_boots.shape[0]} and {b.fit_y_boots.shape[0]})")
    return fit_line(a.fit_x, a.fit_y - b.fit_y, a.fit_y_boots - b.fit_y_boots, rng, level)
