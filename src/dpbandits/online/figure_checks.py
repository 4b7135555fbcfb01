"""Figure claims of the online paper (spec section 6.1): FIG-C2, FIG-C1, FIG-SHAPE, FIG-EPS.

Each function takes the aggregated tables of the Figures 1-2 experiment and returns Claim rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpbandits.claims import Claim
from dpbandits.stats import bootstrap_ratio_of_means, holm, mann_whitney_less

__all__ = ["check_ranking", "check_similarity", "check_shape", "check_eps_monotone", "check_fig_c1",
           "check_fig_c2", "check_fig_shape", "check_fig_eps"]

PAPER = "online"
TS, ADAP, UCB, DPSE = "lazy_dp_ts", "adap_klucb", "anytime_lazy_ucb", "dp_se"


def _finals(per_run: pd.DataFrame, setting: str, algorithm: str, eps: float) -> np.ndarray:
    rows = per_run[(per_run.setting == setting) & (per_run.algorithm == algorithm)
                   & np.isclose(per_run.epsilon, eps)]
    if rows.empty:
        raise ValueError(f"no runs for {algorithm} in {setting} at epsilon={eps}")
    # Rounded: engines accumulate gaps differently, so equal regrets can differ in the last bits.
    return np.round(rows.sort_values("run")["final_regret"].to_numpy(), 6)


def _panels(per_run: pd.DataFrame):
    private = per_run.dropna(subset=["epsilon"])
    return sorted({(s, e) for s, e in zip(private.setting, private.epsilon, strict=True)})


def check_ranking(per_run: pd.DataFrame, scale: str, alpha: float = 0.05) -> list[Claim]:
    """FIG-C2: Lazy-DP-TS beats DP-SE and Anytime-Lazy-UCB at T in every panel.

    One-sided Mann-Whitney (ties handled) per panel and comparator, Holm over all of them.
    """
    tests, labels, ratios = [], [], []
    for setting, eps in _panels(per_run):
        ts = _finals(per_run, setting, TS, eps)
        for comp in (DPSE, UCB):
            other = _finals(per_run, setting, comp, eps)
            tests.append(mann_whitney_less(ts, other))
            labels.append(f"{setting}, eps={eps:g}, vs {comp}")
            ratios.append(ts.mean() / other.mean())
    reject, adjusted = holm(tests, alpha)
    worst = int(np.argmax(adjusted))
    n_runs = int(per_run.groupby(["setting", "algorithm", "epsilon"]).size().min())
    verdict = "PASS" if reject.all() else "FAIL"
    claim = ("Lazy-DP-TS always performs better than DP-SE and Anytime-Lazy-UCB "
             f"({len(tests)} panel x comparator pairs; largest regret ratio TS/comparator "
             f"{max(ratios):.2f})")
    if verdict == "FAIL":
        claim += f"; not shown for: {', '.join(np.asarray(labels)[~reject])}"
    return [Claim(PAPER, "FIG-C2", "Sec 6, Figs 1-2", "figure", claim,
                  "max Holm-adjusted one-sided Mann-Whitney p (final regret)",
                  float(adjusted[worst]), np.nan, np.nan,
                  f"all {len(tests)} comparisons reject at family-wise {alpha}", verdict,
                  n_runs, scale)]


def check_similarity(per_run: pd.DataFrame, scale: str, rng: np.random.Generator,
                     n_boot: int = 2000, band: tuple[float, float] = (1 / 3, 3.0)) -> list[Claim]:
    """FIG-C1: Lazy-DP-TS is 'similar' to AdaP-KLUCB: CI of rho = R_TS / R_AdaP inside [1/3, 3]
    in every panel (lenient reading; sensitive to AdaP's unknown alpha, spec 6.1)."""
    rows = []
    for setting, eps in _panels(per_run):
        est, lo, hi = bootstrap_ratio_of_means(_finals(per_run, setting, TS, eps),
                                               _finals(per_run, setting, ADAP, eps), rng, n_boot)
        rows.append((setting, eps, est, lo, hi))
    inside = [band[0] <= lo and hi <= band[1] for *_, lo, hi in rows]
    # Report the panel whose CI is closest to (or furthest past) an end of the band.
    margin = [min(lo / band[0], band[1] / hi) for *_, lo, hi in rows]
    s, e, est, lo, hi = rows[int(np.argmin(margin))]
    below_one = all(r[4] < 1 for r in rows)
    n_runs = int(per_run.groupby(["setting", "algorithm", "epsilon"]).size().min())
    claim = (f"Lazy-DP-TS performs similarly to AdaP-KLUCB (alpha = 3.1); worst panel {s}, "
             f"eps={e:g}; rho < 1 with CI below 1 in every panel: {'yes' if below_one else 'no'}")
    if not all(inside):
        side = "below" if lo < band[0] else "above"
        claim += (f". Why FAIL: the CI of rho reaches {side} the band, i.e. Lazy-DP-TS's regret is "
                  f"about {est:.2f}x AdaP-KLUCB's ({'better' if est < 1 else 'worse'}, not similar); "
                  "AdaP's alpha is not given by the paper and the ratio is sensitive to it (spec 6.1)")
    return [Claim(PAPER, "FIG-C1", "Sec 6, Figs 1-2", "figure", claim,
                  "rho = mean R_TS(T) / mean R_AdaP(T), worst panel (bootstrap 95% CI)",
                  est, lo, hi, f"CI inside [{band[0]:.3g}, {band[1]:g}] in all {len(rows)} panels",
                  "PASS" if all(inside) else "FAIL", n_runs, scale)]


def _decade_ratio(traj: np.ndarray, t: np.ndarray) -> float:
    """I_top / max(I_top-1, I_top-2) for the run-mean curve, I_k = R(10^k) - R(10^(k-1))."""
    decades = 10 ** np.arange(0, int(np.log10(t.max())) + 1)
    decades = decades[np.isin(decades, t)]
    if decades.size < 4:
        raise ValueError("FIG-SHAPE needs checkpoints at four decades 10^(k-3)..10^k")
    mean = traj.mean(axis=0)
    values = mean[np.searchsorted(t, decades[-4:])]
    inc = np.diff(values)
    denom = max(inc[0], inc[1])
    return float(inc[2] / denom) if denom > 0 else (0.0 if inc[2] <= 0 else np.inf)


def check_shape(long: pd.DataFrame, scale: str, rng: np.random.Generator, n_boot: int = 2000,
                limit: float = 2.5) -> list[Claim]:
    """FIG-SHAPE: logarithmic growth for Lazy-DP-TS and AdaP-KLUCB in every panel
    (I_6 <= 2.5 max(I_5, I_4) at T = 10^6; the last three decades at other T). Alg. 1 and
    DP-SE are only reported (pre-asymptotic in setting 2)."""
    out = []
    for check_id, algs, kind in (("FIG-SHAPE", (TS, ADAP), "figure"),
                                 ("FIG-SHAPE-REPORT", (UCB, DPSE), "report")):
        results = []
        for (setting, alg, eps), g in long[long.algorithm.isin(algs)].groupby(
                ["setting", "algorithm", "epsilon"]):
            wide = g.pivot(index="run", columns="t", values="regret")
            t = wide.columns.to_numpy()
            traj = wide.to_numpy()
            est = _decade_ratio(traj, t)
            boots = [_decade_ratio(traj[rng.integers(0, len(traj), len(traj))], t)
                     for _ in range(n_boot)]
            lo, hi = np.quantile(boots, [0.025, 0.975])
            results.append((est, lo, hi, f"{alg} {setting} eps={eps:g}", len(traj)))
        if not results:
            continue
        est, lo, hi, where, n = max(results, key=lambda r: r[0])
        ok = all(r[0] <= limit for r in results)
        verdict = ("PASS" if ok else "FAIL") if kind == "figure" else "REPORT"
        names = " and ".join(algs)
        out.append(Claim(PAPER, check_id, "Sec 6, Figs 1-2 (implied by Thms 3, 5)", kind,
                         f"regret of {names} grows logarithmically in every panel (worst: {where})",
                         "max over panels of I_last / max(I_last-1, I_last-2), decade increments",
                         est, float(lo), float(hi), f"<= {limit} in every panel (sqrt T gives 3.2)",
                         verdict, n, scale))
    return out


def check_eps_monotone(per_run: pd.DataFrame, scale: str) -> list[Claim]:
    """FIG-EPS: mean final regret is non-increasing in epsilon for every algorithm and setting,
    up to one standard error of the difference."""
    worst, where = -np.inf, ""
    private = per_run.dropna(subset=["epsilon"])
    for (setting, alg), g in private.groupby(["setting", "algorithm"]):
        stats = g.groupby("epsilon")["final_regret"].agg(["mean", "std", "count"]).sort_index()
        se = (stats["std"] / np.sqrt(stats["count"])).to_numpy()
        m = stats["mean"].to_numpy()
        for i in range(len(m) - 1):
            diff = m[i + 1] - m[i]
            se_diff = float(np.hypot(se[i], se[i + 1]))
            z = diff / se_diff if se_diff > 0 else (0.0 if diff <= 0 else np.inf)
            if z > worst:
                worst, where = z, f"{alg} {setting} eps {stats.index[i]:g} -> {stats.index[i + 1]:g}"
    n_runs = int(private.groupby(["setting", "algorithm", "epsilon"]).size().min())
    return [Claim(PAPER, "FIG-EPS", "Sec 6, Figs 1-2 (implied)", "figure",
                  f"final regret is non-increasing in epsilon for every algorithm (worst: {where})",
                  "max increase of mean R(T) between consecutive epsilons, in s.e. of the difference",
                  float(worst), np.nan, np.nan, "<= 1 s.e. everywhere",
                  "PASS" if worst <= 1 else "FAIL", n_runs, scale)]


# Registry entry points (dpbandits.online.check_registry): the tables are the aggregated runs of
# Figures 1-2 ("runs": one row per run; "long": one row per run and checkpoint).


def check_fig_c1(tables, rng, n_boot, scale) -> list[Claim]:
    return check_similarity(tables["runs"], scale, rng, n_boot)


def check_fig_c2(tables, rng, n_boot, scale, settings) -> list[Claim]:
    return check_ranking(tables["runs"], scale, settings["alpha"])


def check_fig_shape(tables, rng, n_boot, scale) -> list[Claim]:
    return check_shape(tables["long"], scale, rng, n_boot)


def check_fig_eps(tables, rng, n_boot, scale) -> list[Claim]:
    return check_eps_monotone(tables["runs"], scale)
