"""Checks of DP-SEQ (Algorithm 2) on simulated designs: B9-B14 and Figure 4 (lower), F4b
(spec 6.2, 6.3). The designs run the fast order-statistic engine
(:mod:`dpbandits.quantile.sources`), tested against the reference engine in distribution.

"T_sub" is the number of pulls of a suboptimal arm (mean over the suboptimal arms of a run).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpbandits.checks import (
    CheckOutput,
    ScalingFigure,
    band_verdict,
    fit_row,
    lower_verdict,
    series_points,
    upper_verdict,
    worst_verdict,
)
from dpbandits.quantile import dp_seq
from dpbandits.quantile._common import (
    claim,
    no_event_claim,
    rate_claim,
    rate_family,
    slope_claim,
    spearman_with_ci,
)
from dpbandits.quantile.seq_checks import gaps_of
from dpbandits.stats import bootstrap_ratio_of_means, loglog_slope

__all__ = ["formula_t_sub", "t_sub", "check_b9", "check_b10", "check_b11", "check_b12", "check_b13", "check_b14",
           "check_f4b"]

_CELL = ["family", "q", "a", "b", "K", "delta", "epsilon"]


def _cells(t: pd.DataFrame):
    return t.groupby(_CELL, dropna=False, sort=True)


def t_sub(rows: pd.DataFrame) -> np.ndarray:
    """Per run: mean pulls over the suboptimal arms."""
    pulls = np.vstack(rows["pulls"]).astype(float)
    best = int(rows["best"].iloc[0])
    return np.delete(pulls, best, axis=1).mean(axis=1)


def check_b9(tables, rng, n_boot, scale) -> CheckOutput:
    t = tables["dp_pac"]
    cells = list(_cells(t))
    fam = rate_family([int((~r["correct"]).sum()) for _, r in cells], [len(r) for _, r in cells],
                      [float(k[5]) for k, _ in cells])
    guards = int(t["guard"].sum())
    return CheckOutput([rate_claim(
        "B9", "Thm 7(a)", "theorem",
        "DP-SEQ returns the best arm with probability >= 1 - delta (DISC Delta in {0.1875, 0.0469}, GAUSS ratio 2 "
        f"q = 0.85, LOGN10 q = 0.85, MIX K = 4; eps in {{0.1, 1}}, delta in {{0.1, 0.4}}; {guards} guard events)",
        "worst error rate / delta (CP CI)", fam, scale)])


def check_b10(tables, rng, n_boot, scale) -> CheckOutput:
    """B10: every suboptimal arm is removed by epoch max(e_*, ceil(log2(1/Delta_a)))."""
    t = tables["dp_pac"]
    events, runs, targets, margins = [], [], [], []
    for key, rows in _cells(t):
        row = rows.iloc[0]
        gaps = gaps_of(row)
        best = int(row.best)
        bound = np.array([dp_seq.elimination_epoch_bound(g, float(row.q)) if i != best else 0
                          for i, g in enumerate(gaps)])
        elim = np.vstack(rows["elim"])
        sub = np.arange(gaps.size) != best
        late = (elim[:, sub] < 0) | (elim[:, sub] > bound[sub])
        events.append(int(late.any(axis=1).sum()))
        runs.append(len(rows))
        targets.append(float(key[5]))
        ok = elim[:, sub] >= 0
        margins += list((elim[:, sub] - bound[sub])[ok])
    fam = rate_family(events, runs, targets)
    hist = pd.Series(margins).value_counts().sort_index()
    text = ", ".join(f"{int(k)}: {v}" for k, v in hist.items())
    return CheckOutput([
        rate_claim("B10", "Thm 7(b)", "theorem",
              "With probability >= 1 - delta each suboptimal arm a is removed by epoch ceil(log2(1/Delta_a)) "
              f"(elimination epoch minus bound, counts: {text})",
              "worst late-removal rate / delta (CP CI)", fam, scale)])


def check_b11(tables, rng, n_boot, scale) -> CheckOutput:
    """B11: T_a <= U^DP_a (exact epoch sum) and T_a <= the paper's 512-constant bound."""
    t = tables["dp_pac"]
    ev_sum, ev_paper, runs, targets = [], [], [], []
    worst_sum, worst_paper = 0.0, 0.0
    for key, rows in _cells(t):
        row = rows.iloc[0]
        gaps, best, k = gaps_of(row), int(row.best), int(row.K)
        eps, delta, q = float(row.epsilon), float(row.delta), float(row.q)
        sub = np.arange(gaps.size) != best
        u_sum = np.array([dp_seq.epoch_sum_bound(g, k, q, eps, delta) if i != best else np.inf
                          for i, g in enumerate(gaps)])
        u_paper = np.array([dp_seq.paper_bound(g, k, eps, delta) if i != best else np.inf
                            for i, g in enumerate(gaps)])
        pulls = np.vstack(rows["pulls"]).astype(float)
        term = rows["terminated"].to_numpy()
        r_sum, r_paper = pulls[:, sub] / u_sum[sub], pulls[:, sub] / u_paper[sub]
        ev_sum.append(int(((r_sum > 1).any(axis=1) | ~term).sum()))
        ev_paper.append(int(((r_paper > 1).any(axis=1) | ~term).sum()))
        worst_sum, worst_paper = max(worst_sum, r_sum.max()), max(worst_paper, r_paper.max())
        runs.append(len(rows))
        targets.append(float(key[5]))
    f1, f2 = rate_family(ev_sum, runs, targets), rate_family(ev_paper, runs, targets)
    return CheckOutput([
        rate_claim("B11-EPOCHSUM", "Thm 8 (exact epoch sum)", "theorem",
              "With probability >= 1 - delta each suboptimal arm is pulled at most U^DP_a = sum_{e=e_*}^{e^UB} n_e(K) "
              f"times (max T_a / U^DP_a = {worst_sum:.3f})",
              "worst violation rate / delta (CP CI)", f1, scale),
        rate_claim("B11-PAPER", "Thm 8, eq. (44)", "theorem",
              "... and at most (1/Delta^2 + K/(eps Delta)) 512 log(6K/delta log(1/Delta)) times "
              f"(max ratio {worst_paper:.3f})",
              "worst violation rate / delta (CP CI)", f2, scale),
    ])


def _slope_check(t, x_of, xname, rng, n_boot, series):
    by = sorted(t.groupby(xname), key=lambda kv: x_of(kv[0]))
    x = np.array([x_of(v) for v, _ in by])
    groups = [t_sub(r) for _, r in by]
    return x, groups, loglog_slope(x, groups, rng, n_boot), series_points(series, x, groups, rng, n_boot)


def check_b12(tables, rng, n_boot, scale) -> CheckOutput:
    """B12: in the privacy regime the cost of DP-SEQ is proportional to 1/eps."""
    t = tables["dp_eps"]
    x, _, fit, pts = _slope_check(t, lambda e: 1 / e, "epsilon", rng, n_boot, "DISC, Delta = 0.047")
    fig = ScalingFigure("check_B12", "B12: DP-SEQ pulls vs 1/eps", "1/eps", "mean pulls of the suboptimal arm",
                        pts, pd.DataFrame([fit_row("DISC, Delta = 0.047", fit, x, 1.0)]))
    return CheckOutput([slope_claim("B12", "Thm 8", "theorem",
                                    "DP-SEQ's pulls of the suboptimal arm grow like 1/eps (DISC, Delta = 0.75 2^-4, eps "
                                    "from 0.01 to 0.2: privacy-dominated)",
                                    "log-log slope of T_sub on 1/eps", fit, (0.9, 1.1), len(t), scale)], fig)


def formula_t_sub(rows: pd.DataFrame) -> np.ndarray:
    """Per run: the deterministic pull count of Algorithm 2 at the run's observed elimination
    epochs, sum over the epochs e = e_*..(last epoch of arm k) of n_e(|A_e|) (line 8, |A_e| the
    arms active at the start of epoch e), averaged over the suboptimal arms as :func:`t_sub`."""
    q, eps, delta = float(rows["q"].iloc[0]), float(rows["epsilon"].iloc[0]), float(rows["delta"].iloc[0])
    best, first = int(rows["best"].iloc[0]), dp_seq.e_star(q)
    out = []
    for elim, final in zip(rows["elim"], rows["n_final"], strict=True):
        last = np.where(np.asarray(elim) >= 0, np.asarray(elim), int(final))  # last epoch each arm is pulled
        sizes = {e: dp_seq.epoch_size(int((last >= e).sum()), e, eps, delta) for e in range(first, int(last.max()) + 1)}
        pulls = [sum(sizes[e] for e in range(first, int(lk) + 1)) for lk in last]
        out.append(np.mean([p for k, p in enumerate(pulls) if k != best]))
    return np.asarray(out, dtype=float)


def _paired_slope_difference(x, observed, predicted, rng, n_boot):
    """Log-log slope of the observed mean minus that of the predicted mean (per-run pairs), with a
    bootstrap CI that resamples runs jointly for both."""
    lx = np.log(np.asarray(x, dtype=float))
    lxc = lx - lx.mean()

    def slope(ly):
        return (ly - ly.mean(axis=-1, keepdims=True)) @ lxc / (lxc @ lxc)

    diff = slope(np.log([o.mean() for o in observed])) - slope(np.log([p.mean() for p in predicted]))
    idx = [rng.integers(0, o.size, size=(n_boot, o.size)) for o in observed]
    boot_o = np.column_stack([o[i].mean(axis=1) for o, i in zip(observed, idx, strict=True)])
    boot_p = np.column_stack([p[i].mean(axis=1) for p, i in zip(predicted, idx, strict=True)])
    boots = slope(np.log(boot_o)) - slope(np.log(boot_p))
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return float(diff), float(lo), float(hi)


def check_b13(tables, rng, n_boot, scale) -> CheckOutput:
    """B13: 1/Delta in the privacy regime (eps = 0.02), 1/Delta^2 when eps is large (eps = 1000);
    and (B13-FORMULA) each observed slope within +-0.1 of the slope of the deterministic sum n_e
    formula at the observed elimination epochs (spec 6.2), which explains the pre-asymptotic local
    slopes and would catch pull bookkeeping that departs from line 8."""
    t = tables["dp_gap"]
    claims, points, fits, formula = [], [], [], []
    for eps, band, label in ((0.02, (0.9, 1.45), "PRIVATE"), (1000.0, (1.8, 2.4), "NONPRIVATE")):
        rows = t[np.isclose(t["epsilon"], eps)]
        name = f"eps = {eps:g}"
        x, groups, fit, pts = _slope_check(rows, lambda g: 1 / g, "a", rng, n_boot, name)
        points.append(pts)
        fits.append(fit_row(name, fit, x, 1.0 if eps < 1 else 2.0))
        claims.append(slope_claim(f"B13-{label}", "Thm 8", "theorem",
                                  f"DP-SEQ's pulls of the suboptimal arm grow like {'1/Delta (privacy term K/(eps Delta))' if eps < 1 else '1/Delta^2 (non-private term)'} "
                                  f"at eps = {eps:g} (DISC, Delta = 0.75 2^-k, k = 2..6)",
                                  "log-log slope of T_sub on 1/Delta", fit, band, len(rows), scale))
        by = sorted(rows.groupby("a"), key=lambda kv: 1 / kv[0])
        predicted = [formula_t_sub(r) for _, r in by]
        diff, lo, hi = _paired_slope_difference(x, groups, predicted, rng, n_boot)
        formula.append((band_verdict(lo, hi, -0.1, 0.1), eps, fit.slope, fit.slope - diff, diff, lo, hi))
    worst = max(formula, key=lambda f: max(abs(f[5]), abs(f[6])))
    text = "; ".join(f"eps = {e:g}: observed {o:.3f}, formula {p:.3f}" for _, e, o, p, *_ in formula)
    claims.append(claim("B13-FORMULA", "Thm 8 (spec 6.2, B13)", "theorem",
                        "DP-SEQ's slope of T_sub on 1/Delta equals, within +-0.1, the slope of the deterministic sum "
                        f"of the epoch sizes n_e (line 8) at the observed elimination epochs ({text})",
                        f"observed minus formula slope at eps = {worst[1]:g} (paired bootstrap 95%)", worst[4], worst[5],
                        worst[6], "CI within [-0.1, 0.1] at both eps", worst_verdict(f[0] for f in formula), len(t), scale))
    fig = ScalingFigure("check_B13", "B13: DP-SEQ pulls vs 1/Delta", "1/Delta", "mean pulls of the suboptimal arm",
                        pd.concat(points, ignore_index=True), pd.DataFrame(fits))
    return CheckOutput(claims, fig)


def check_b14(tables, rng, n_boot, scale) -> CheckOutput:
    """B14: the factor K of the privacy cost (Sec. VII open problem): DP-SEQ's pulls per suboptimal
    arm grow ~ (K - 1), SEQ's only logarithmically."""
    dp, sq = tables["dp_k"], tables["k_factor_seq"]
    claims, points, fits = [], [], []
    for t, name, band, cid in ((dp, "DP-SEQ", (0.8, 1.2), "B14-DP"), (sq, "SEQ", (-math.inf, 0.2), "B14-SEQ")):
        x, _, fit, pts = _slope_check(t, lambda k: k - 1, "K", rng, n_boot, name)
        points.append(pts)
        fits.append(fit_row(name, fit, x, 1.0 if name == "DP-SEQ" else 0.0))
        claims.append(slope_claim(cid, "Thm 8, Sec. VII", "theorem",
                                  f"{name}: pulls per suboptimal arm vs K - 1 (DISC, K in {{2, 4, 8, 16}}, Delta = 0.0469"
                                  + (", eps = 0.05)" if name == "DP-SEQ" else "): only the log K of D(n)"),
                                  "log-log slope of T_sub on K - 1", fit, band, len(t), scale))
    fig = ScalingFigure("check_B14", "B14: pulls per suboptimal arm vs K - 1", "K - 1", "mean pulls per suboptimal arm",
                        pd.concat(points, ignore_index=True), pd.DataFrame(fits))
    return CheckOutput(claims, fig)


def check_f4b(tables, rng, n_boot, scale) -> CheckOutput:
    """F4b (Fig. 4 lower): DP-SEQ vs SEQ on LOGN10 at q in {0.85, 0.9}."""
    dp, sq = tables["fig4_lower"], tables["logn10_seq"]
    cells = list(_cells(dp))
    mono, above, slopes, rhos = [], [], [], []
    diffs = []
    seq_by_q = {q: r["total_pulls"].to_numpy(dtype=float) for q, r in sq.groupby("q")}
    for q, rows in dp.groupby("q", sort=True):
        by = sorted(rows.groupby("epsilon"), key=lambda kv: kv[0])
        eps = np.array([e for e, _ in by])
        groups = [r["total_pulls"].to_numpy(dtype=float) for _, r in by]
        for a, b in zip(groups[:-1], groups[1:], strict=True):
            mono.append(bootstrap_ratio_of_means(b, a, rng, n_boot))
        for g in groups:
            above.append(bootstrap_ratio_of_means(g, seq_by_q[q], rng, n_boot))
        fit = loglog_slope(1 / eps, groups, rng, n_boot)
        slopes.append(fit)
        rhos.append(spearman_with_ci(eps, groups, rng, n_boot))
    # the paper's claim read as an absolute difference: (DP - SEQ) at q = 0.9 exceeds q = 0.85
    qs = sorted(dp["q"].unique())
    lo_q, hi_q = qs[0], qs[-1]
    ratio_rows = []
    for e in sorted(dp["epsilon"].unique()):
        a = dp[np.isclose(dp["q"], lo_q) & np.isclose(dp["epsilon"], e)]["total_pulls"].to_numpy(dtype=float)
        b = dp[np.isclose(dp["q"], hi_q) & np.isclose(dp["epsilon"], e)]["total_pulls"].to_numpy(dtype=float)
        sa, sb = seq_by_q[lo_q], seq_by_q[hi_q]
        boots = []
        for _ in range(n_boot):
            pick = [x[rng.integers(0, x.size, x.size)].mean() for x in (a, b, sa, sb)]
            boots.append((pick[1] - pick[3]) - (pick[0] - pick[2]))
        point = (b.mean() - sb.mean()) - (a.mean() - sa.mean())
        diffs.append((point / (a.mean() - sa.mean()), *(np.quantile(boots, [0.025, 0.975]) / (a.mean() - sa.mean()))))
        ratio_rows.append((a.mean() / sa.mean()) / (b.mean() / sb.mean()))
    worst_mono = max(mono, key=lambda r: r[2])
    worst_above = min(above, key=lambda r: r[1])
    worst_diff = min(diffs, key=lambda r: r[1])
    worst_slope = max(slopes, key=lambda f: max(abs(f.ci_low - 1), abs(f.ci_high - 1)))
    rho_hi = max(r[2] for r in rhos)
    n = len(dp)
    return CheckOutput([
        no_event_claim("F4B-CORRECT", "Fig 4 lower, Thm 7", "figure", "DP-SEQ identifies the best LOGN10 arm in every run",
                       "errors", [int((~r["correct"]).sum()) for _, r in cells], [len(r) for _, r in cells],
                       [float(k[5]) for k, _ in cells], scale),
        claim("F4B-MONOTONE", "Fig 4 lower", "figure",
              f"DP-SEQ's sample complexity decreases as eps increases (Spearman rho upper CI end {rho_hi:.2f})",
              "max over consecutive eps of mean(eps_k+1) / mean(eps_k)", *worst_mono, "<= 1.05",
              upper_verdict(worst_mono[1], worst_mono[2], 1.05), n, scale),
        claim("F4B-ABOVE", "Fig 4 lower", "figure", "Privacy costs samples: DP-SEQ needs more than SEQ at every eps",
              "min over (q, eps) of mean DP / mean SEQ", *worst_above, "> 1",
              lower_verdict(worst_above[1], worst_above[2], 1.0), n + len(sq), scale),
        claim("F4B-ABSDIFF", "Fig 4 lower", "figure",
              "'As the quantile decreases the gap in expected pulls between the private and non-private algorithms "
              "decreases', read as the absolute difference: (DP - SEQ) at q = 0.85 < at q = 0.9 for every eps",
              "min over eps of [(DP-SEQ)(0.9) - (DP-SEQ)(0.85)] / (DP-SEQ)(0.85)", *worst_diff, "> 0",
              lower_verdict(worst_diff[1], worst_diff[2], 0.0), n + len(sq), scale),
        claim("F4B-RATIO", "Fig 4 lower", "report",
              "The same claim read as a ratio goes the other way: (DP/SEQ at q = 0.85) / (DP/SEQ at q = 0.9) per eps "
              f"ranges from {min(ratio_rows):.2f} to {max(ratio_rows):.2f} (> 1: relatively costlier at q = 0.85)",
              "min over eps of the ratio of ratios", min(ratio_rows), min(ratio_rows), max(ratio_rows),
              "informational", "REPORT", n + len(sq), scale),
        slope_claim("F4B-SLOPE", "Fig 4 lower, Thm 8", "figure",
                    "DP-SEQ's total pulls grow like 1/eps on LOGN10 (worst q)", "log-log slope of pulls on 1/eps",
                    worst_slope, (0.8, 1.2), n, scale),
    ])
