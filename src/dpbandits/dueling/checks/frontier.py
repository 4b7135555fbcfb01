"""The privacy-regret frontier against the dueling paper's lower bound (Theorem 2 with Lemma 11,
App. B): the empirical probe a lower bound allows.

Lemma 11: an (eps, delta)-DP algorithm whose regret is at most T/2 on every preference matrix plays
every arm at least 1/eps times in expectation (eps <= 1, K/eps <= T/10); on the paper's
constant-gap matrix (F1, gap 1/4) that gives Theorem 2's Omega(K/eps). No experiment on one
algorithm can refute a statement over every algorithm, but the frontier can be shown: scale
DP-EBS-Elimination's noise down by a multiplier m, its widths with it (the algorithm run at
eps / m: every Laplace scale and every private width term carry 1/eps), until the least-played
suboptimal arm of F1 is played fewer than 1/eps times, and audit each variant at the claimed eps
(the black-box audit of A5-ALG1, K = 3, T = 64, counters' Laplace scale x m; the widths are a
post-processing of the counters, so the audit's own widths do not change what it can show). The
theorem allows no eps-DP variant below the bound: every variant below it must lose eps-DP in the
audit.

This is a report, not a test that could fail: each variant is (eps / m)-DP by construction, so a
variant below the bound is known not to be eps-DP whatever the audit finds, and at its true level
eps / m every variant plays far more than m / eps times (DP-EBS-Elimination sits about 2e5 above the
bound, B7-CONSTANT): the frontier shows where the algorithm family meets the bound and that the
audit sees the leak there, not that the bound's constant is right.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpbandits.audit import epsilon_lower_bound
from dpbandits.dueling.checks.audits import FLIP_ROUNDS, alg1_audit_pairs
from dpbandits.dueling.ebs_audit import n_audit_codes
from dpbandits.dueling.ebs_params import EBSConfig
from dpbandits.dueling.instances import f1
from dpbandits.evidence.checks import CheckOutput, ScalingFigure
from dpbandits.evidence.claims import Claim
from dpbandits.stats import mean_ci

__all__ = ["check_lb_frontier", "MULTIPLIERS"]

PAPER = "dueling"
MULTIPLIERS = (1.0, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7)  # noise (and private width) multipliers m
AUDIT_K, AUDIT_T, AUDIT_RHO = 3, 64, 0.5  # A5-ALG1's audit set-up


def _least_played(plays: np.ndarray, rng, n_boot: int) -> tuple[float, float, float, int]:
    """Mean plays of the least-played suboptimal arm of F1 (arm 0 is the best), with a bootstrap CI."""
    means = plays[:, 1:].mean(axis=0)
    arm = 1 + int(np.argmin(means))
    est, lo, hi = mean_ci(plays[:, arm].astype(float), rng, n_boot)
    return float(est), float(lo), float(hi), arm


def check_lb_frontier(rng, scale, *, k=4, horizon=10**6, runs=30, epsilon=1e-4, samples=200_000,
                      confidence=0.95, n_boot=2000, multipliers=MULTIPLIERS) -> CheckOutput:
    """LB-FRONTIER (report): per multiplier m, the least-played suboptimal arm's mean plays on F1
    (K arms, T = ``horizon``, ``runs`` runs of DP-EBS-Elimination at eps / m) against Lemma 11's
    1/eps, and the audited lower bound on the privacy loss of the counters' Laplace scale x m at
    the claimed eps (``samples`` per neighbouring o-table, Clopper-Pearson at ``confidence``)."""
    from dpbandits.dueling.api import simulate

    if not 0 < epsilon <= 1 or k / epsilon > horizon / 10:
        raise ValueError(f"LB-FRONTIER: Lemma 11 needs 0 < eps <= 1 and K/eps <= T/10; got eps = {epsilon}, "
                         f"K = {k}, T = {horizon}")
    instance = f1(k)
    o_table = np.random.default_rng(0).integers(0, 2, size=AUDIT_T)
    bound = 1.0 / epsilon
    rows = []
    for m in multipliers:
        seed = np.random.SeedSequence(int(rng.integers(2**63)))
        res = simulate("dp_ebs_elimination", instance, epsilon / m, horizon, runs, seed, {"variant": "r1"}).raw
        est, lo, hi, arm = _least_played(np.asarray(res.plays), rng, n_boot)
        config = EBSConfig(variant="r1", epsilon=epsilon, width="audit", audit_rho=AUDIT_RHO, noise_multiplier=m)
        audit = epsilon_lower_bound(alg1_audit_pairs(o_table, FLIP_ROUNDS, AUDIT_K, config, samples, rng),
                                    n_audit_codes(AUDIT_K, AUDIT_T, "full"), epsilon, confidence,
                                    labels=[f"flip t={t}" for t in FLIP_ROUNDS])
        rows.append({"m": m, "plays": est, "lo": lo, "hi": hi, "arm": arm, "audited": audit.epsilon_lower_bound,
                     "refuted": audit.refuted, "regret": float(np.mean(res.regret_pref[:, -1]))})
    table = pd.DataFrame(rows)
    below = table[table["hi"] < bound]
    unrefuted_below = below[~below["refuted"]]
    parts = "; ".join(f"m = {r.m:g}: {r.plays:.4g} [{r.lo:.4g}, {r.hi:.4g}] plays, audited eps >= {r.audited:.3g}"
                      + (" (not eps-DP)" if r.refuted else "") for r in table.itertuples())
    if below.empty:
        finding = f"no variant reaches the bound at this size (the least-played arm's plays stay above 1/eps = {bound:g})"
    elif unrefuted_below.empty:
        finding = (f"every variant below the bound ({len(below)}: m <= {below['m'].max():g}) loses eps-DP in the "
                   "audit, as the theorem requires")
    else:
        finding = (f"{len(unrefuted_below)} variant(s) below the bound are not refuted by the audit at its size "
                   f"(m = {', '.join(f'{v:g}' for v in unrefuted_below['m'])}): each is (eps/m)-DP by construction, "
                   "so this is the audit's power, not a counterexample")
    claim = Claim(
        PAPER, "LB-FRONTIER", "Thm 2, Lemma 11 (frontier probe)", "report",
        f"[a probe, not a test] DP-EBS-Elimination with its noise and private widths x m on F1 (K = {k}, "
        f"T = {horizon:g}, {runs} runs per m; claimed eps = {epsilon:g}, Lemma 11's bound 1/eps = {bound:g} plays "
        f"of every arm), each variant audited at the claimed eps (K = {AUDIT_K}, T = {AUDIT_T}, {samples} samples "
        f"per neighbour): {finding}. {parts}",
        "largest m whose least-played suboptimal arm is below 1/eps (CI upper end)",
        float(below["m"].max()) if len(below) else np.nan, np.nan, np.nan, "informational (a frontier, see the figure)",
        "REPORT", runs, scale)
    points = pd.concat([
        pd.DataFrame({"series": "plays x eps of the least-played suboptimal arm (Lemma 11: >= 1)", "x": table["m"],
                      "mean": table["plays"] * epsilon, "ci_low": table["lo"] * epsilon,
                      "ci_high": table["hi"] * epsilon}),
        pd.DataFrame({"series": "audited lower bound on the privacy loss / eps (> 1: not eps-DP)",
                      "x": table["m"], "mean": table["audited"] / epsilon, "ci_low": table["audited"] / epsilon,
                      "ci_high": table["audited"] / epsilon}).query("mean > 0"),
        pd.DataFrame({"series": "the bound (= 1)", "x": [min(multipliers), max(multipliers)], "mean": [1.0, 1.0],
                      "ci_low": [1.0, 1.0], "ci_high": [1.0, 1.0]}),
    ], ignore_index=True)
    fig = ScalingFigure("check_LB-FRONTIER", f"LB-FRONTIER: DP-EBS-Elimination with noise x m against Lemma 11 "
                        f"(F1, K = {k}, eps = {epsilon:g})", "noise and private-width multiplier m",
                        "multiple of the bound", points)
    return CheckOutput([claim], fig)
