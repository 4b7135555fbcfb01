"""What a check returns besides its claim rows: the data of its scaling figure, and the verdict
rules shared by all checks.

Verdicts from intervals: PASS when the whole CI satisfies the criterion, FAIL when none of it
does, INCONCLUSIVE when the CI straddles the boundary (docs/verdicts.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dpbandits.evidence.claims import Claim
from dpbandits.stats.slopes import SlopeFit, fit_line

__all__ = ["ScalingFigure", "CheckOutput", "write_figure_data", "read_figure_data", "band_verdict", "upper_verdict", "lower_verdict",
           "series_points", "WorstCase", "worst_case", "claim_row", "select_rows", "worst_verdict",
           "fit_row"]


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


def write_figure_data(figure: ScalingFigure, path) -> None:
    """A check's scaling figure as an intermediate table (points; title, labels and fits in its
    metadata, floats as exact JSON), drawn later by the figure's own rule."""
    import json

    from dpbandits.io import write_results

    meta = {"name": figure.name, "title": figure.title, "xlabel": figure.xlabel, "ylabel": figure.ylabel,
            "fits": figure.fits.to_dict(orient="list"), "fit_columns": list(figure.fits.columns)}
    write_results(figure.points, path, {"dpbandits.figure": json.dumps(meta)})


def read_figure_data(path) -> ScalingFigure:
    import json

    from dpbandits.io import read_results_or_quarantine

    points, meta = read_results_or_quarantine(path, with_metadata=True)
    m = json.loads(meta["dpbandits.figure"])
    fits = pd.DataFrame(m["fits"], columns=m["fit_columns"])
    return ScalingFigure(m["name"], m["title"], m["xlabel"], m["ylabel"], points, fits)


@dataclass
class CheckOutput:
    claims: list[Claim]
    figure: ScalingFigure | None = None
    table: pd.DataFrame | None = None  # an informational table some checks also write


def claim_row(paper, check_id, source, kind, claim, statistic, value, lo, hi, criterion, verdict,
              n_runs, scale) -> Claim:
    """A Claim with the numeric fields coerced (numpy scalars to float / int)."""
    return Claim(paper, check_id, source, kind, claim, statistic, float(value), float(lo),
                 float(hi), criterion, verdict, int(n_runs), scale)


def select_rows(table: pd.DataFrame, **where) -> pd.DataFrame:
    """Rows of a design table matching every ``column=value`` (floats compared with isclose)."""
    rows = table
    for key, value in where.items():
        rows = rows[np.isclose(rows[key], value)] if isinstance(value, float) else rows[rows[key] == value]
    if rows.empty:
        raise ValueError(f"no rows for {where}")
    return rows


def worst_verdict(verdicts) -> str:
    """FAIL if any verdict is FAIL, else INCONCLUSIVE if any is, else PASS (a family of checks)."""
    verdicts = list(verdicts)
    return "FAIL" if "FAIL" in verdicts else "INCONCLUSIVE" if "INCONCLUSIVE" in verdicts else "PASS"


def fit_row(series: str, fit, x, theory_slope: float) -> dict:
    """One row of ``ScalingFigure.fits`` from a :class:`dpbandits.stats.SlopeFit` over x."""
    return {"series": series, "slope": fit.slope, "ci_low": fit.ci_low, "ci_high": fit.ci_high,
            "intercept": fit.intercept, "theory_slope": theory_slope, "x_min": float(np.min(x)),
            "x_max": float(np.max(x))}


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


@dataclass
class WorstCase:
    """max over instances of the mean regret at each T, with bootstrap draws and its log-log
    slope in T (the instance-independent checks FT-7 and BT-7).

    ``boots``: bootstrap draws of the max at each T (runs resampled per instance); ``slope_ci``:
    the slope's CI including lack of fit (:func:`dpbandits.stats.fit_line`); ``slope_fit``: the
    whole :class:`dpbandits.stats.SlopeFit` (bootstrap slopes, residual SE, lack-of-fit SD, the
    Monte Carlo-only CI)."""

    ts: np.ndarray
    point: np.ndarray
    boots: np.ndarray  # (n_boot, len(ts))
    argmax: list[int]
    slope: float
    slope_ci: tuple[float, float]
    intercept: float
    slope_fit: SlopeFit | None = field(default=None, repr=False)

    def points(self, series: str) -> pd.DataFrame:
        return pd.DataFrame({"series": series, "x": self.ts, "mean": self.point,
                             "ci_low": np.quantile(self.boots, 0.025, axis=0),
                             "ci_high": np.quantile(self.boots, 0.975, axis=0)})

    def fit(self, series: str, theory_slope: float) -> dict:
        return {"series": series, "slope": self.slope, "ci_low": self.slope_ci[0],
                "ci_high": self.slope_ci[1], "intercept": self.intercept,
                "theory_slope": theory_slope, "x_min": float(self.ts[0]),
                "x_max": float(self.ts[-1])}


def worst_case(ts, groups_by_t, rng: np.random.Generator, n_boot: int) -> WorstCase:
    """``groups_by_t[i]``: one array of per-run regrets per instance, at T = ts[i]. Instances are
    independent, so each is resampled on its own; the max is taken per bootstrap draw. The slope
    of log max against log T and its 95% CI come from :func:`dpbandits.stats.fit_line`: the
    bootstrap maxima give the Monte Carlo part, the scatter of the maxima about the line beyond
    it the lack-of-fit part (not assessable with two T: Monte Carlo CI)."""
    ts = np.asarray(ts, dtype=float)
    point, boots, argmax = [], [], []
    for groups in groups_by_t:
        means = np.array([np.mean(g) for g in groups])
        point.append(means.max())
        argmax.append(int(means.argmax()))
        draws = np.column_stack([np.asarray(g, dtype=float)[rng.integers(0, len(g), size=(n_boot, len(g)))]
                                 .mean(axis=1) for g in groups])
        boots.append(draws.max(axis=1))
    point, boots = np.array(point), np.column_stack(boots)
    fit = fit_line(np.log(ts), np.log(point), np.log(np.maximum(boots, np.finfo(float).tiny)), rng)
    return WorstCase(ts, point, boots, argmax, fit.slope, (fit.ci_low, fit.ci_high), fit.intercept, fit)
