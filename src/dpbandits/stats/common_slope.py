"""One slope shared by several groups of points, each group with its own intercept.

The same law observed at several settings, e.g. Theorem 2.6's regret C(n) eps^(-2/3) at several
n: log mean regret against log eps is a line of slope -2/3 at every n, with an intercept that
depends on n. Fitting the common slope over all the groups uses every point at once, where a fit
at one setting may have only three points (one residual degree of freedom, so that its lack-of-fit
CI is sometimes very wide).

Model and CI: :func:`dpbandits.stats.slopes.fit_line`'s, with the design matrix of one intercept
per group and one slope (``y_gi = a_g + b u_gi + e_gi + d_gi``): the slope is ``c @ y`` with ``c``
its row of the least-squares solution, the Monte Carlo slopes are ``c`` applied to the points'
bootstrap draws, the residual degrees of freedom are ``N - groups - 1`` and the lack-of-fit draw
is ``Z sqrt(max(0, RSS / U - RSS_MC / df) v)`` with ``v`` the slope's diagonal entry of
``(X'X)^-1`` (``1 / Sxx`` for one group). With one group it is :func:`fit_line` exactly (same
random numbers, same result).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from dpbandits.stats.slopes import SlopeFit

__all__ = ["common_slope"]


def common_slope(u_groups, y_groups, y_boot_groups, rng: np.random.Generator, level: float = 0.95) -> SlopeFit:
    """The slope shared by the groups (module docstring), with a CI that includes lack of fit.

    ``u_groups``, ``y_groups``: per group its x and y values (e.g. log eps and log mean regret at
    one n); ``y_boot_groups``: per group an (n_boot, k_g) array of the points' bootstrap draws,
    the same n_boot for every group (the groups' draws are independent of each other unless the
    caller pairs them). Every group needs two distinct x values.
    """
    us = [np.asarray(u, dtype=float) for u in u_groups]
    ys = [np.asarray(y, dtype=float) for y in y_groups]
    bs = [np.asarray(b, dtype=float) for b in y_boot_groups]
    if not us or not len(us) == len(ys) == len(bs):
        raise ValueError("common_slope: need the same positive number of x, y and bootstrap groups")
    n_boot = bs[0].shape[0] if bs[0].ndim == 2 else -1
    for g, (u, y, b) in enumerate(zip(us, ys, bs, strict=True)):
        if y.shape != u.shape or u.ndim != 1 or b.ndim != 2 or b.shape != (n_boot, u.size):
            raise ValueError(f"common_slope: group {g}: need x and y of one shape (k,) and draws of shape "
                             f"({n_boot}, k); got {u.shape}, {y.shape} and {b.shape}")
        if np.ptp(u) <= 0:
            raise ValueError(f"common_slope: group {g} needs at least two distinct x values")
    if not 0 < level < 1:
        raise ValueError(f"common_slope: level must be in (0, 1), got {level}")
    u, y, y_boots = np.concatenate(us), np.concatenate(ys), np.concatenate(bs, axis=1)
    sizes = [v.size for v in us]
    design = np.zeros((u.size, len(us) + 1))
    design[np.arange(u.size), np.repeat(np.arange(len(us)), sizes)] = 1.0
    design[:, -1] = u
    inv = np.linalg.inv(design.T @ design)
    c = (inv @ design.T)[-1]  # slope = c @ y; orthogonal to every group's indicator
    slope = float(c @ y)
    v = float(inv[-1, -1])
    mc = (y_boots - y_boots.mean(axis=1, keepdims=True)) @ c
    q = [(1 - level) / 2, (1 + level) / 2]
    mc_lo, mc_hi = np.quantile(mc, q)
    df = u.size - design.shape[1]
    fitted = design @ (inv @ design.T @ y)
    intercept = float(np.mean(y - slope * u))  # the groups' mean intercept
    data = {"fit_x": u, "fit_y": y, "fit_y_boots": y_boots}
    if df == 0:
        return SlopeFit(slope, float(mc_lo), float(mc_hi), intercept, mc, resid_df=0,
                        mc_ci_low=float(mc_lo), mc_ci_high=float(mc_hi), **data)
    resid = y - fitted
    rss = float(resid @ resid)
    resid_free = np.eye(u.size) - design @ inv @ design.T  # I - H
    cov = np.atleast_2d(np.cov(y_boots, rowvar=False))
    rss_mc = float(np.sum(resid_free * cov))
    tau2 = max(0.0, (rss - rss_mc) / df)
    boots = mc
    if rss > rss_mc:
        n = mc.size
        u_draws = rng.permutation(sps.chi2.ppf((np.arange(n) + 0.5) / n, df))
        lof_var = np.maximum(0.0, rss / u_draws - rss_mc / df)
        boots = mc + rng.standard_normal(n) * np.sqrt(lof_var * v)
    lo, hi = np.quantile(boots, q)
    group_mean = np.repeat([float(g.mean()) for g in ys], sizes)
    sst = float((y - group_mean) @ (y - group_mean))
    return SlopeFit(slope, float(lo), float(hi), intercept, boots,
                    resid_se=math.sqrt(rss / df), resid_df=df,
                    r2=1.0 - rss / sst if sst > 0 else math.nan, lof_sd=math.sqrt(tau2),
                    lof_assessed=True, mc_ci_low=float(mc_lo), mc_ci_high=float(mc_hi), **data)
