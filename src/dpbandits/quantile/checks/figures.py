"""The Figure 1 check of the quantile paper, F1 (spec A6): the paper's four readings of the gap
curves that :func:`dpbandits.quantile.experiments.figures.fig1_curves` computes and Figure 1 draws."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpbandits.evidence.checks import CheckOutput, upper_verdict
from dpbandits.quantile.checks.common import claim
from dpbandits.quantile.experiments.figures import FIG1_EXP, FIG1_GAUSS, fig1_curves

__all__ = ["check_f1"]


def _f1_problems(c: pd.DataFrame) -> list[str]:
    """The Figure 1 readings violated by the curves ``c`` (columns panel, param, q, gap)."""
    problems = []
    for (panel, param), g in c.groupby(["panel", "param"], sort=True):
        g = g.sort_values("q")
        q, d = g["q"].to_numpy(), g["gap"].to_numpy()
        upper = q > 0.5
        q_star = q[upper][np.argmax(d[upper])]
        if not 0.5 < q_star < 1 or d[upper].max() < d.max() - 1e-12:
            problems.append(f"{panel} {param}: no optimal q* in (1/2, 1)")
        if max(d[0], d[-1]) >= 0.25 * d.max():
            problems.append(f"{panel} {param}: tails not hard (Delta at the ends >= 0.25 max)")
        if panel == "gauss":
            half = np.isclose(q, 0.5)
            if d[half].max() > 1e-12:
                problems.append(f"gauss {param}: Delta(1/2) != 0")
            if np.max(np.abs(d - d[::-1])) > 1e-9:
                problems.append(f"gauss {param}: Delta(q) != Delta(1-q)")
    for panel, params in (("gauss", FIG1_GAUSS), ("exp", FIG1_EXP)):
        stack = np.vstack([c[(c["panel"] == panel) & (c["param"] == p)].sort_values("q")["gap"] for p in params])
        if np.any(np.diff(stack, axis=0) < -1e-12):  # larger sigma* / smaller lambda*: easier
            problems.append(f"{panel}: Delta not monotone in the parameter")
    return problems


def _f1_perturbed(c: pd.DataFrame) -> pd.DataFrame:
    """The paper's readings with their order reversed (``effect_absent``): the exponential curves
    mirrored in q (the easiest level below 1/2, not between 1/2 and 1) and the parameters of both
    panels in reverse order (a larger sigma* / smaller lambda* making the problem harder, not
    easier)."""
    out = []
    for panel, params in (("gauss", FIG1_GAUSS), ("exp", FIG1_EXP)):
        for p, rp in zip(params, params[::-1], strict=True):
            g = c[(c["panel"] == panel) & (c["param"] == rp)].copy()
            g["param"] = p
            if panel == "exp":
                g["q"] = np.round(1 - g["q"], 3)
            out.append(g)
    return pd.concat(out, ignore_index=True)


def check_f1(rng, scale, settings, curves: pd.DataFrame | None = None) -> CheckOutput:
    """F1 (= A6): the paper's four readings of Figure 1 (Sec. IV-B1). Power: the same readings on
    the curves of :func:`_f1_perturbed`, where the stated orders are reversed, must fail."""
    c = fig1_curves() if curves is None else curves
    problems = _f1_problems(c)
    control = _f1_problems(_f1_perturbed(c))
    n = len(problems)
    row = claim(
        "F1", "Fig 1", "figure",
        "Figure 1: Delta(1/2) = 0 and symmetry for the Gaussian pair; an easiest level q* in (1/2, 1); hard tails; "
        "larger sigma* (smaller lambda*) never decreases Delta" + (f"; problems: {'; '.join(problems)}" if problems else ""),
        "number of violated readings", n, n, n, "0", upper_verdict(n, n, 0), len(c), scale)
    return CheckOutput([row.with_evidence(
        power="FAIL" if control else "PASS", power_form="effect_absent",
        power_note=(f"the stated orders reversed (the exponential curves' easiest level mirrored below 1/2, a larger "
                    f"sigma* / smaller lambda* giving a smaller gap): the same readings find {len(control)} "
                    "violations"))])
