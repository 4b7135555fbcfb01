"""What a check returns besides its claim rows: the data of its scaling figure, and the verdict
rules shared by all checks.

Verdicts from intervals: PASS when the whole CI satisfies the criterion, FAIL when none of it
does, INCONCLUSIVE when the CI straddles the boundary (ARCHITECTURE.md statistics conventions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dpbandits.claims import Claim

__all__ = ["ScalingFigure", "CheckOutput", "band_verdict", "upper_verdict", "lower_verdict",
           "series_points"]


@dataclass
class ScalingFigure:
    """Measured points with CIs per series, their fitted log-log slopes and the theory's.

    ``points``: series, x, mean, ci_low, ci_high. ``fits``: series, slope, ci_low, ci_high,
    intercept, theory_slope (NaN if none), x_min, x_max.
    """

    name: str
    title: str
    xlabel: str
    ylabel: str
    points: pd.DataFrame
    fits: pd.DataFrame = field(default_factory=pd.DataFrame)


@dataclass
class CheckOutput:
    claims: list[Claim]
    figure: ScalingFigure | None = None


def band_verdict(lo: float, hi: float, band_lo: float = -math.inf, band_hi: float = math.inf) -> str:
    """Criterion: the statistic lies in [band_lo, band_hi]; judged on its CI [lo, hi]."""
    if band_lo <= lo and hi <= band_hi:
        return "PASS"
    if hi < band_lo or lo > band_hi:
        return "FAIL"
    return "INCONCLUSIVE"


def upper_verdict(lo: float, hi: float, limit: float) -> str:
    """Criterion: statistic <= limit."""
    return band_verdict(lo, hi, -math.inf, limit)


def lower_verdict(lo: float, hi: float, limit: float) -> str:
    """Criterion: statistic >= limit."""
    return band_verdict(lo, hi, limit, math.inf)


def series_points(series: str, x, groups, rng: np.random.Generator, n_boot: int) -> pd.DataFrame:
    """Mean and percentile bootstrap CI of each group of runs, one row per x."""
    rows = []
    for xi, g in zip(x, groups, strict=True):
        g = np.asarray(g, dtype=float)
        boots = g[rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1)
        lo, hi = np.quantile(boots, [0.025, 0.975])
        rows.append({"series": series, "x": float(xi), "mean": float(g.mean()),
                     "ci_low": float(lo), "ci_high": float(hi)})
    return pd.DataFrame(rows)
