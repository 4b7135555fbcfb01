"""The privacy-regret frontier against the online paper's lower bound (Theorem 12, App. D.3): the
empirical probe a lower bound allows.

Theorem 12: for gap_min < 1/4, K >= 4 and T >= max(ln K / (16 gap_min^2), ln K / (10 eps gap_min)),
every eps-DP full-information algorithm has regret at least 0.0098 ln K / eps on some distribution
of the packing (product Bernoullis, one action's mean raised by the gap: F-hard). No experiment on
one algorithm can refute a statement over every algorithm, but the frontier can be shown: scale
RNM-FTNL's noise (the corrected Lap(2/eps) of Algorithm 4, which is eps-DP: P-EXACT-RNM-C2) down
by a multiplier m, until its regret on F-hard falls below the bound, and compute each variant's
privacy loss at the claimed eps exactly (:func:`dpbandits.mechanisms.report_noisy_max.exact_loss`
of one release, an epoch of one round: a lower bound on the variant's loss, equal to eps at
m = 1). The theorem allows no eps-DP variant below the bound: every variant below it must have a
loss above eps.

A report, not a test that could fail: each variant is (eps / m)-DP by construction, so a variant
below the bound is known not to be eps-DP whatever the computation gives; the frontier shows how
far above the bound the paper's algorithm sits (its constant is small: 0.0098) and where the
family meets it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpbandits.evidence.checks import CheckOutput, ScalingFigure
from dpbandits.evidence.claims import Claim
from dpbandits.mechanisms.report_noisy_max import exact_loss
from dpbandits.stats import mean_ci

__all__ = ["check_ft_frontier", "MULTIPLIERS", "THM12_EPS_CONSTANT"]

PAPER = "online"
MULTIPLIERS = (1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5)  # noise multipliers m of RNM-FTNL's Lap(2/eps)
THM12_EPS_CONSTANT = 0.0098  # App. D.3: the eps term of Theorem 12, 0.0098 ln K / eps


def check_ft_frontier(rng, scale, *, k=16, gap=0.2, epsilon=1e-3, horizon=10**6, runs=200, n_boot=2000,
                      multipliers=MULTIPLIERS) -> CheckOutput:
    """FT-FRONTIER (report): per multiplier m, RNM-FTNL's mean regret at T = ``horizon`` on F-hard
    (K = ``k`` actions, gap ``gap``; ``runs`` runs of Lap(2 m / eps)) against Theorem 12's
    0.0098 ln K / eps, and the exact privacy loss of one release of that noise at the claimed eps."""
    from dpbandits.online.api import simulate
    from dpbandits.online.experiments.full_info_designs import f_hard

    t_min = max(math.log(k) / (16 * gap**2), math.log(k) / (10 * epsilon * gap))
    if not (gap < 0.25 and k >= 4 and horizon >= t_min):
        raise ValueError(f"FT-FRONTIER: Theorem 12 needs gap < 1/4, K >= 4 and T >= {t_min:.4g}; got gap = {gap}, "
                         f"K = {k}, T = {horizon}")
    means = np.asarray(f_hard(k, gap).means)
    bound = THM12_EPS_CONSTANT * math.log(k) / epsilon
    rows = []
    for m in multipliers:
        seed = np.random.SeedSequence(int(rng.integers(2**63)))
        res = simulate("rnm_ftnl", means, epsilon, horizon, runs, seed, {"noise_factor": 2.0 * m},
                       checkpoints=np.array([horizon]))
        est, lo, hi = mean_ci(res.regret[:, -1], rng, n_boot)
        loss = exact_loss(k, 1, 2.0 * m / epsilon)
        rows.append({"m": m, "regret": est, "lo": lo, "hi": hi, "loss": loss})
    table = pd.DataFrame(rows)
    below = table[table["hi"] < bound]
    private_below = below[below["loss"] <= epsilon * (1 + 1e-9)]
    parts = "; ".join(f"m = {r.m:g}: regret {r.regret:.4g} [{r.lo:.4g}, {r.hi:.4g}], loss / eps {r.loss / epsilon:.4g}"
                      for r in table.itertuples())
    if below.empty:
        finding = f"no variant reaches the bound at this size (every regret CI stays above {bound:.4g})"
    elif private_below.empty:
        finding = (f"every variant below the bound ({len(below)}: m <= {below['m'].max():g}) has an exact privacy "
                   "loss above eps, as the theorem requires")
    else:
        finding = (f"{len(private_below)} variant(s) below the bound keep a loss <= eps on one release "
                   f"(m = {', '.join(f'{v:g}' for v in private_below['m'])}): a lower bound on their loss, not a "
                   "counterexample")
    top = table.iloc[0]
    claim = Claim(
        PAPER, "FT-FRONTIER", "Thm 12, App. D.3 (frontier probe)", "report",
        f"[a probe, not a test] RNM-FTNL with Lap(2 m / eps) on F-hard (K = {k}, gap = {gap:g}, T = {horizon:g}, "
        f"{runs} runs per m; claimed eps = {epsilon:g}; Theorem 12's bound 0.0098 ln K / eps = {bound:.4g}); at "
        f"m = 1 it sits {top.regret / bound:.3g} times above the bound; {finding}. {parts}",
        "largest m whose regret CI lies below the bound", float(below["m"].max()) if len(below) else np.nan,
        np.nan, np.nan, "informational (a frontier, see the figure)", "REPORT", runs, scale)
    points = pd.concat([
        pd.DataFrame({"series": "regret / Theorem 12's bound (below 1: under the bound)", "x": table["m"],
                      "mean": table["regret"] / bound, "ci_low": table["lo"] / bound, "ci_high": table["hi"] / bound}),
        pd.DataFrame({"series": "exact privacy loss of one release / eps (above 1: not eps-DP)", "x": table["m"],
                      "mean": table["loss"] / epsilon, "ci_low": table["loss"] / epsilon,
                      "ci_high": table["loss"] / epsilon}),
        pd.DataFrame({"series": "the bound (= 1)", "x": [min(multipliers), max(multipliers)], "mean": [1.0, 1.0],
                      "ci_low": [1.0, 1.0], "ci_high": [1.0, 1.0]}),
    ], ignore_index=True)
    fig = ScalingFigure("check_FT-FRONTIER", f"FT-FRONTIER: RNM-FTNL with noise x m against Theorem 12 "
                        f"(F-hard, K = {k}, eps = {epsilon:g})", "noise multiplier m", "multiple of the bound", points)
    return CheckOutput([claim], fig)
