"""Rate checks of Theorems 2.5 / 2.6 (spec ``ldp_contextual.md`` 6.2) and the literal-constants
erratum (A8), on the design tables of :mod:`dpbandits.experiments.contextual`.

All runs use the ``primary`` preset (faithful LDP, valid radius) unless stated; regret is eq. (1)
(per-run cumulative over the target users). Slopes are OLS of log(mean regret) on log(x) with a
bootstrap CI resampling runs within each grid point (paired across x where the runs share their
seed: the eps grid at fixed n).

===================  ===========  ===============================================================
check_id             kind         claim
===================  ===========  ===============================================================
T-2.6a-EPS<eps>      theorem      regret grows sublinearly in n_P at eps (both centre conventions)
T-2.6a-PERROUND      theorem      per-round regret at the largest n_P < 0.8 x the uniform policy's
T-2.6a-ORDER         theorem      the growth does not speed up with less privacy: b(2) >= b(1024) - 0.05
T-2.6a-EPS1          theorem      eps = 1 up to the long horizon: slope of the last 3 points < 0.95
T-2.6b-SLOPE         report       slope over the upper half of the long grid, eps in {0.5, 1}
T-2.6b-RATIO         theorem      R_n / (n (n eps^2)^-1/3) shows no upward trend (slope < 0.2)
T-2.6c-MONOTONE      theorem      regret strictly decreasing in eps at n_P = 3.2e5 (paired Wilcoxon)
T-2.6c-EXPONENT      theorem      eps-exponent over [1, 8] in [-1.2, -0.3] (theory -2/3)
T-2.6d               theorem      regret non-decreasing in d in {1, 2, 3} at eps = 4, n_P = 3.2e5
T-2.5                lower_bound  no LDP method at eps <= 1 has an n-slope below 1/2 - 0.1
E-LITERAL            erratum      the paper's literal constants learn at feasible n (A8)
===================  ===========  ===============================================================
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
from scipy import stats as sps

from dpbandits.checks import (
    CheckOutput,
    ScalingFigure,
    band_verdict,
    claim_row,
    fit_row,
    lower_verdict,
    series_points,
    upper_verdict,
    worst_verdict,
)
from dpbandits.contextual.instances import BumpInstance
from dpbandits.stats import holm, loglog_slope, mean_ci, paired_loglog_slope, wilcoxon_less

__all__ = ["uniform_regret", "spearman", "check_t26a", "check_t26b", "check_t26c", "check_t26d",
           "check_t25", "check_literal"]

PAPER = "contextual"
_claim = partial(claim_row, PAPER)
PRIVATE_N_SLOPE = 2.0 / 3.0  # 1 - (1 + beta)/(2 + 2d), d = 2, beta = 1


def uniform_regret(centres: str = "code") -> float:
    """Per-round regret of the uniformly random policy (0.414 code centres, 0.437 paper)."""
    _, _, gap = BumpInstance(3, 2, centres).target_moments(np.zeros((1, 2)), np.ones((1, 2)))
    return float(gap.mean())


def spearman(x, means) -> float:
    """Spearman's rho on means rounded to 9 significant digits (equal means stay tied), 0 when
    every mean is equal."""
    m = np.asarray([float(f"{v:.9g}") for v in means])
    return float(sps.spearmanr(x, m).statistic) if np.ptp(m) > 0 else 0.0


def _groups(table: pd.DataFrame, x_col: str, **where):
    rows = table
    for key, value in where.items():
        rows = rows[np.isclose(rows[key], value)] if isinstance(value, float) else rows[rows[key] == value]
    xs = np.sort(rows[x_col].unique())
    return xs, [rows[rows[x_col] == x].sort_values("rep")["regret"].to_numpy() for x in xs]


def _slope_row(check_id, claim, fit, limit, n_runs, scale, source="Thm 2.6"):
    return _claim(check_id, source, "theorem", claim, "log-log slope of mean regret on n_P", fit.slope,
                  fit.ci_low, fit.ci_high, f"CI upper end < {limit:g} (sublinear)",
                  upper_verdict(fit.ci_low, fit.ci_high, limit - 1e-12), n_runs, scale)


def check_t26a(tables, rng, n_boot, scale) -> CheckOutput:
    """T-2.6a on the ``theory_n`` design (B = 500): per eps in {2, 8, 1024} the n-slope's CI upper
    end < 0.95 for both centre conventions (worst reported), the per-round regret at the largest
    n below 0.8 x uniform, b(2) >= b(1024) - 0.05; eps = 1 on the long grid (last 3 points)."""
    t = tables["theory_n"]
    claims, points, fits, per_round = [], [], [], []
    fits_by = {}
    for eps in (2.0, 8.0, 1024.0):
        worst = None
        for centres in ("code", "paper"):
            xs, groups = _groups(t, "n_target", panel="n", epsilon=eps, centres=centres)
            fit = loglog_slope(xs, groups, rng, n_boot)
            fits_by[(eps, centres)] = fit
            if worst is None or fit.ci_high > worst[0].ci_high:
                worst = (fit, centres)
            u = uniform_regret(centres)
            m, lo, hi = mean_ci(groups[-1] / xs[-1], rng, n_boot)
            per_round.append((m / u, lo / u, hi / u, eps, centres))
            if centres == "code":
                name = f"eps = {eps:g}"
                points.append(series_points(name, xs, groups, rng, n_boot))
                fits.append(fit_row(name, fit, xs, PRIVATE_N_SLOPE))
        fit, centres = worst
        claims.append(_slope_row(f"T-2.6a-EPS{eps:g}",
                                 f"Regret grows sublinearly in n_P at eps = {eps:g} (worst of both centre conventions: {centres}; n_P up to {int(t[t.panel == 'n']['n_target'].max()):,})",
                                 fit, 0.95, int(len(t[(t.panel == 'n') & np.isclose(t.epsilon, eps)])), scale))
    verdicts = [upper_verdict(lo, hi, 0.8) for _, lo, hi, _, _ in per_round]
    worst_pr = max(per_round)
    claims.append(_claim("T-2.6a-PERROUND", "Thm 2.6", "theorem",
                         f"Per-round regret at the largest n_P is below 0.8 x the uniform policy's, every eps in {{2, 8, 1024}} and both centres (worst: eps = {worst_pr[3]:g}, {worst_pr[4]})",
                         "per-round regret / uniform policy's (bootstrap 95%)", worst_pr[0], worst_pr[1], worst_pr[2],
                         "CI upper end < 0.8 in every cell", worst_verdict(verdicts), int(len(t)), scale))
    d = fits_by[(2.0, "code")].boots - fits_by[(1024.0, "code")].boots
    diff = fits_by[(2.0, "code")].slope - fits_by[(1024.0, "code")].slope
    lo, hi = np.quantile(d, [0.025, 0.975])
    claims.append(_claim("T-2.6a-ORDER", "Thm 2.6, Fig. 7", "theorem",
                         "Less privacy does not make regret grow faster: slope(eps = 2) >= slope(eps = 1024) - 0.05",
                         "slope(eps = 2) - slope(eps = 1024) (bootstrap 95%)", diff, lo, hi, "CI lower end >= -0.05",
                         lower_verdict(lo, hi, -0.05), int(len(t)), scale))
    xs, groups = _groups(t, "n_target", panel="long", epsilon=1.0)
    fit = loglog_slope(xs[-3:], groups[-3:], rng, n_boot)
    claims.append(_slope_row("T-2.6a-EPS1", f"At eps = 1 the regret is sublinear over the last three n_P ({int(xs[-3]):,} to {int(xs[-1]):,})",
                             fit, 0.95, sum(len(g) for g in groups[-3:]), scale))
    points.append(series_points("eps = 1 (long)", xs, groups, rng, n_boot))
    fits.append(fit_row("eps = 1 (long)", fit, xs[-3:], PRIVATE_N_SLOPE))
    fig = ScalingFigure("T-2.6a", "T-2.6a: regret vs n_P (primary, B = 500, code centres)", "n_P",
                        "cumulative regret", pd.concat(points, ignore_index=True), pd.DataFrame(fits))
    return CheckOutput(claims, fig)


def check_t26b(tables, rng, n_boot, scale) -> CheckOutput:
    """T-2.6b (eps in {0.5, 1}, long grid): the slope over the upper half of the grid is
    reported against [2/3 - 0.15, 1] (informational: finite-n slopes can exceed 2/3); the
    ratio R_n / (n (n eps^2)^(-1/3)) must show no upward trend over the last four grid points
    (slope of the log ratio, CI upper end < 0.2)."""
    t = tables["theory_n"]
    claims, points, fits = [], [], []
    slope_rows, ratio_verdicts, worst_ratio = [], [], None
    for eps in (0.5, 1.0):
        xs, groups = _groups(t, "n_target", panel="long", epsilon=eps)
        half = xs.size // 2
        fit = loglog_slope(xs[half:], groups[half:], rng, n_boot)
        slope_rows.append((fit, eps))
        rate = xs * (xs * eps**2) ** (-1.0 / 3.0)
        last = slice(max(0, xs.size - 4), xs.size)
        rfit = loglog_slope(xs[last], [g / r for g, r in zip(groups[last], rate[last], strict=True)], rng, n_boot)
        ratio_verdicts.append(upper_verdict(rfit.ci_low, rfit.ci_high, 0.2))
        if worst_ratio is None or rfit.ci_high > worst_ratio[0].ci_high:
            worst_ratio = (rfit, eps)
        points.append(series_points(f"eps = {eps:g}", xs, groups, rng, n_boot))
        fits.append(fit_row(f"eps = {eps:g}", fit, xs[half:], PRIVATE_N_SLOPE))
    fit, eps = max(slope_rows, key=lambda r: r[0].ci_high)
    inside = fit.ci_high >= 2 / 3 - 0.15 and fit.ci_low <= 1.0
    claims.append(_claim("T-2.6b-SLOPE", "Thm 2.6 (rate, asymptotic)", "report",
                         f"Upper-half n-slope in the private regime (eps = {eps:g}; theory 2/3; informational, {'intersects' if inside else 'misses'} [0.517, 1])",
                         "log-log slope over the upper half of the grid", fit.slope, fit.ci_low, fit.ci_high,
                         "informational: CI intersects [2/3 - 0.15, 1]", "REPORT", int(len(t[t.panel == 'long'])), scale))
    rfit, eps = worst_ratio
    claims.append(_claim("T-2.6b-RATIO", "Thm 2.6, eq. (6)", "theorem",
                         f"Regret / (n (n eps^2)^(-1/3)) does not trend upward over the last four n_P (worst eps = {eps:g})",
                         "slope of log(R_n / rate) on log n_P", rfit.slope, rfit.ci_low, rfit.ci_high,
                         "CI upper end < 0.2", worst_verdict(ratio_verdicts), int(len(t[t.panel == 'long'])), scale))
    fig = ScalingFigure("T-2.6b", "T-2.6b: private regime, long horizon (primary, B = 500)", "n_P",
                        "cumulative regret", pd.concat(points, ignore_index=True), pd.DataFrame(fits))
    return CheckOutput(claims, fig)


def check_t26c(tables, rng, n_boot, scale) -> CheckOutput:
    """T-2.6c at n_P = 3.2e5, eps in {0.5, 1, 2, 4, 8} (runs paired across eps by their seed):
    means strictly decreasing (Spearman rho = -1) with >= 3 of 4 adjacent one-sided paired
    Wilcoxon tests significant after Holm; the fitted eps-exponent over [1, 8] in [-1.2, -0.3]."""
    t = tables["theory_eps"]
    eps, groups = _groups(t, "epsilon")
    mat = np.column_stack(groups)
    means = mat.mean(axis=0)
    rho = spearman(eps, means)
    pvals = [wilcoxon_less(mat[:, i + 1], mat[:, i]) for i in range(eps.size - 1)]
    reject, _ = holm(pvals, 0.05)
    verdict = "PASS" if (np.isclose(rho, -1.0) and reject.sum() >= 3) else "FAIL"
    claims = [_claim("T-2.6c-MONOTONE", "Thm 2.6 / eq. (7)", "theorem",
                     f"Regret is strictly decreasing in eps at n_P = {int(t['n_target'].iloc[0]):,} ({int(reject.sum())} of 4 adjacent paired tests significant)",
                     "Spearman rho(eps, mean regret)", rho, rho, rho,
                     "rho = -1 and >= 3 of 4 adjacent one-sided paired Wilcoxon (Holm 0.05)", verdict, mat.size, scale)]
    keep = (eps >= 1) & (eps <= 8)
    fit = paired_loglog_slope(eps[keep], np.maximum(mat[:, keep], 1e-9), rng, n_boot)
    claims.append(_claim("T-2.6c-EXPONENT", "Thm 2.6 / eq. (7)", "theorem",
                         "The eps-exponent of the regret over eps in [1, 8] is near the theory's -(1+beta)/(1+d) = -2/3",
                         "log-log slope of mean regret on eps (paired bootstrap)", fit.slope, fit.ci_low, fit.ci_high,
                         "CI within [-1.2, -0.3]", band_verdict(fit.ci_low, fit.ci_high, -1.2, -0.3), mat.size, scale))
    points = series_points("primary", eps, groups, rng, n_boot)
    fig = ScalingFigure("T-2.6c", f"T-2.6c: regret vs eps at n_P = {int(t['n_target'].iloc[0]):,}", "eps",
                        "cumulative regret", points,
                        pd.DataFrame([fit_row("primary", fit, eps[keep], -2.0 / 3.0)]))
    return CheckOutput(claims, fig)


def check_t26d(tables, rng, n_boot, scale) -> CheckOutput:
    """T-2.6d (the dimension effect, spec 6.2): d in {1, 2, 3}, eps = 4, the bump instance (its
    reward depends on x^1 only, so the uniform policy's regret is the same in every d), n_P of
    T-2.6c; runs paired across d by their seed. For each adjacent pair two one-sided paired
    Wilcoxon tests, Holm over the pairs: a significant decrease R(d + 1) < R(d) refutes the claim
    (FAIL); PASS needs no significant decrease, non-decreasing means and a significant increase
    R(1) < R(3) (p < 0.05); anything else (e.g. no learning in any d, equal regrets) is
    INCONCLUSIVE. Statistic: the paired-bootstrap ratio of mean regrets R(3) / R(1)."""
    t = tables["theory_dim"]
    dims, groups = _groups(t, "d")
    mat = np.column_stack(groups)
    means = mat.mean(axis=0)
    dec = [wilcoxon_less(mat[:, i + 1], mat[:, i]) for i in range(dims.size - 1)]
    inc = [wilcoxon_less(mat[:, i], mat[:, i + 1]) for i in range(dims.size - 1)]
    dec_reject, _ = holm(dec, 0.05)
    inc_reject, _ = holm(inc, 0.05)
    p_end = wilcoxon_less(mat[:, 0], mat[:, -1])
    monotone = bool(np.all(np.diff(means) >= 0))
    if dec_reject.any():
        verdict = "FAIL"
    elif monotone and p_end < 0.05:
        verdict = "PASS"
    else:
        verdict = "INCONCLUSIVE"
    idx = rng.integers(0, mat.shape[0], (n_boot, mat.shape[0]))
    boots = mat[idx, -1].mean(axis=1) / np.maximum(mat[idx, 0].mean(axis=1), 1e-12)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    n = int(t["n_target"].iloc[0])
    u = uniform_regret("code")
    per_round = ", ".join(f"d = {d}: {m / n / u:.2f}" for d, m in zip(dims, means, strict=True))
    claim = (f"[primary] The regret is non-decreasing in the dimension d in {{{', '.join(str(int(d)) for d in dims)}}} "
             f"at eps = {t['epsilon'].iloc[0]:g}, n_P = {n:,} (reward depends on x^1 only; per-round regret / uniform "
             f"policy's: {per_round}; significant increases {int(inc_reject.sum())} of {len(inc)}, decreases "
             f"{int(dec_reject.sum())} of {len(dec)}, Holm)")
    return CheckOutput([_claim("T-2.6d", "Thm 2.6 (the 2d in the exponent)", "theorem", claim,
                               f"mean regret ratio R(d = {int(dims[-1])}) / R(d = {int(dims[0])}) (paired bootstrap 95%)",
                               means[-1] / max(means[0], 1e-12), lo, hi,
                               "no adjacent pair significantly decreasing (one-sided paired Wilcoxon, Holm 0.05); PASS also "
                               "needs non-decreasing means and R(d_min) < R(d_max) (p < 0.05)", verdict, mat.size, scale)])


def check_t25(tables, rng, n_boot, scale) -> CheckOutput:
    """T-2.5 (sanity of the lower bound): no LDP method at eps <= 1 - LDPMAB (primary, eps 0.5
    and 1, long grid), the authors' code (eps = 1, Figure 7(a) grid; not LDP), Linear and NN
    (eps = 1) - has a fitted n-slope whose CI lies below 1/2 - 0.1 = 0.4."""
    cands = []
    t = tables["theory_n"]
    for eps in (0.5, 1.0):
        xs, g = _groups(t, "n_target", panel="long", epsilon=eps)
        cands.append((f"LDPMAB eps = {eps:g}", loglog_slope(xs, g, rng, n_boot)))
    xs, g = _groups(tables["fig7_code_1"], "n_target")
    cands.append(("authors_code eps = 1", loglog_slope(xs, g, rng, n_boot)))
    for method in ("Linear", "NN"):
        xs, g = _groups(tables["baselines_n"], "n_target", preset=method)
        cands.append((f"{method} eps = 1", loglog_slope(xs, [np.maximum(v, 1e-9) for v in g], rng, n_boot)))
    verdicts = [lower_verdict(f.ci_low, f.ci_high, 0.4) for _, f in cands]
    name, fit = min(cands, key=lambda c: c[1].ci_low)
    return CheckOutput([_claim("T-2.5", "Thm 2.5", "lower_bound",
                               f"No eps <= 1 method beats the non-private exponent 1/2 - 0.1 (lowest: {name}; "
                               + ", ".join(f"{n}: {f.slope:.2f}" for n, f in cands) + ")",
                               "log-log slope of mean regret on n_P (lowest CI)", fit.slope, fit.ci_low, fit.ci_high,
                               "every CI lower end >= 0.4", worst_verdict(verdicts), int(len(t)), scale)])


def check_literal(tables, rng, n_boot, scale) -> CheckOutput:
    """E-LITERAL (A8): with the paper's literal constants (tau_s = 2 sqrt(d) 2^(-s/d), +-2r,
    refine on some arm, no depth cap, warm-up (ln n)^2, C_n = 2 log2 n) the algorithm does not
    learn at feasible n: at eps = 1024 and the largest n_P the per-round regret is not below
    0.8 x the uniform policy's."""
    t = tables["presets"]
    lit = t[(t.preset == "literal") & np.isclose(t.epsilon, 1024.0)]
    n = lit["n_target"].max()
    g = lit[lit.n_target == n]["regret"].to_numpy() / n
    u = uniform_regret("code")
    m, lo, hi = mean_ci(g, rng, n_boot)
    elims = lit[lit.n_target == n]["n_eliminations"].mean()
    verdict = upper_verdict(lo / u, hi / u, 0.8)
    return CheckOutput([_claim("E-LITERAL", "Alg. 2, eqs. (16)-(17) (spec A8)", "erratum",
                               f"With the paper's literal constants LDPMAB learns by n_P = {int(n):,} even at eps = 1024 "
                               f"(mean {elims:.1f} eliminations per run)",
                               "per-round regret / uniform policy's (bootstrap 95%)", m / u, lo / u, hi / u,
                               "CI upper end < 0.8", verdict, len(g), scale)])
