"""Every check of the dueling paper (Saha & Asi, DP-Dueling), for the one registry
(:mod:`dpbandits.registry`). The paper has no experiments: every theorem and lemma becomes a check
(spec ``dp_dueling.md`` section 5). Rules are named after what they reproduce, e.g. the two scaling
rules the workflow is known for, regret vs K/eps on the lower-bound instance
(``dueling_regret_vs_K_over_eps``) and overhead vs d^6/(kappa eps)
(``dueling_overhead_vs_d6_over_kappa_eps``).

Algorithm 1 designs are one table per (design, variant), joined per design; Algorithm 2 designs
are two tables each (``<design>/runs`` and ``<design>/phases``).
"""

from __future__ import annotations

from dpbandits.experiments.dueling import ALG1_VARIANTS, FINITE_BASELINES
from dpbandits.registry import Check

PAPER = "dueling"
BOOT = ("dueling.checks.bootstrap",)
UC = "dpbandits.dueling.unit_checks"
AU = "dpbandits.dueling.audits"
SO = "dpbandits.dueling.solver_checks"
A1 = "dpbandits.dueling.alg1_checks"
A2 = "dpbandits.dueling.alg2_checks"


def _alg1(*designs: str) -> dict[str, tuple[str, ...]]:
    out = {d: tuple(f"sim/dueling/alg1/{d}/{v}.parquet" for v in ALG1_VARIANTS[d]) for d in designs}
    if "baselines" in out:  # B8: the non-private baselines join the design table
        out["baselines"] += tuple(f"sim/dueling/baselines/{b}.parquet" for b in FINITE_BASELINES)
    return out


def _alg2(*designs: str, maxinp: bool = False) -> dict[str, tuple[str, ...]]:
    out = {f"{d}/{part}": (f"sim/dueling/alg2/{d}_{part}.parquet",) for d in designs for part in ("runs", "phases")}
    if maxinp:  # C10: MaxInP on the practice instances
        out["maxinp"] = ("sim/dueling/alg2/maxinp.parquet",)
    return out


def _rule(check_id: str) -> str:
    return f"dueling_check_{check_id.lower().replace('-', '_')}"


def _sized(check_id, rule, function, sizes, seeded=True, figure=False, title=""):
    return Check(check_id, PAPER, rule, f"{UC}:{function}", call="sized", sizes=sizes, seeded=seeded,
                 figure=figure, title=title)


def _args(check_id, rule, function, *paths, title=""):
    return Check(check_id, PAPER, rule, function, call="args", config=paths, title=title)


def _sim(check_id, rule, function, inputs, figure=False, title=""):
    return Check(check_id, PAPER, rule, function, inputs=inputs, config=BOOT, figure=figure, title=title)


CHECKS = [
    # mechanism, solver and errata checks (spec 5.1); sizes per scale are the spec's
    _sized("A1", "dueling_bintree_accuracy", "check_a1", {
        "paper": {"horizons": (2**10, 2**14, 2**18, 2**20), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 200, "n_boot": 2000},
        "smoke": {"horizons": (2**4, 2**7, 2**10), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 1000, "n_boot": 500}}, figure=True,
        title="the binary-tree mechanism against Lemma 1"),
    _sized("A2", "dueling_bintree_privacy", "check_a2", {
        "paper": {"epsilons": (0.1, 0.5, 1.0), "horizon": 32, "n_draws": 10_000},
        "smoke": {"epsilons": (0.5, 1.0), "horizon": 16, "n_draws": 1000, "max_lengths": list(range(1, 65))}},
        title="the binary-tree mechanism's privacy"),
    _sized("A6a", "dueling_ebs_properties", "check_a6", {
        "paper": {"n_instances": 200, "k_min": 3, "k_max": 7},
        "smoke": {"n_instances": 30, "k_min": 3, "k_max": 6}}, title="the EBS properties"),
    _sized("L6", "dueling_lemma6_constants", "check_lemma6", {"paper": {}, "smoke": {}}, seeded=False,
           title="Lemma 6's constants"),
    _sized("L10", "dueling_lemma10_threshold", "check_lemma10", {"paper": {"n_trials": 100_000},
                                                                 "smoke": {"n_trials": 10_000}},
           title="Lemma 10's threshold"),
    _sized("LB", "dueling_lower_bound_instance", "check_lower_bound", {"paper": {"ks": (2, 4, 8, 16, 32, 64)},
                                                                       "smoke": {"ks": (2, 4, 8)}},
           seeded=False, title="the lower-bound instance"),
    _sized("KAPPA", "dueling_kappa_definitions", "check_kappa", {"paper": {"n_samples": 1_000_000},
                                                                 "smoke": {"n_samples": 50_000, "norms": (1.0,)}},
           title="the two kappa definitions"),
    # privacy (spec 5.2)
    _args("A3", "dueling_sensitivity_alg1", f"{AU}:check_a3", "dueling.audit.whitebox_runs",
          title="white-box sensitivity of Algorithm 1"),
    _args("A4", "dueling_sensitivity_alg2", f"{AU}:check_a4", "dueling.audit.whitebox_runs",
          title="white-box sensitivity of Algorithm 2"),
    _args("A5-ALG1", "dueling_audit_alg1", f"{AU}:check_a5_alg1", "dueling.audit.samples",
          "dueling.audit.confidence", title="black-box audit of Algorithm 1"),
    _args("A5-LITERAL", "dueling_audit_alg1_literal", f"{AU}:check_a5_literal", "dueling.audit.literal_samples",
          "dueling.audit.confidence", title="black-box audit of the literal Algorithm 1"),
    _args("A5-ALG2", "dueling_audit_alg2", f"{AU}:check_a5_alg2", "dueling.audit.samples",
          "dueling.audit.confidence", title="black-box audit of Algorithm 2"),
    _args("A6b", "dueling_ebs_unbiased_after_elimination", f"{AU}:check_a6b", "dueling.audit.unbiasedness_runs",
          title="EBS stays unbiased after an elimination"),
    # solvers and the two algorithms on one instance
    _args("A7", "dueling_design_solver", f"{SO}:check_a7", "dueling.checks.solver_problems",
          title="the design solver against known answers"),
    _args("A8", "dueling_private_mle", f"{SO}:check_a8", "dueling.checks.solver_problems",
          title="the private MLE"),
    _args("C12", "dueling_alg1_vs_alg2", f"{SO}:check_c12", "dueling.audit.whitebox_runs",
          title="Algorithms 1 and 2 on one instance"),
    # Algorithm 1 (spec 5.3)
    _sim("B1", _rule("B1"), f"{A1}:check_b1", _alg1("correctness", "stress"), title="correctness"),
    _sim("B2", _rule("B2"), f"{A1}:check_b2", _alg1("correctness"), title="the corrected Lemma 6"),
    _sim("B3", "dueling_regret_vs_T", f"{A1}:check_b3", _alg1("log_t"), figure=True, title="log T regret"),
    _sim("B4", "dueling_overhead_vs_eps", f"{A1}:check_b4", _alg1("eps_grid"), figure=True,
         title="overhead ~ 1/eps"),
    _sim("B5", "dueling_overhead_vs_K", f"{A1}:check_b5", _alg1("k_grid"), figure=True,
         title="overhead ~ K (and ~K^2 for the naive split)"),
    _sim("B6", "dueling_overhead_vs_gap", f"{A1}:check_b6", _alg1("gap_grid"), figure=True,
         title="gap-free privacy cost"),
    _sim("B7", "dueling_regret_vs_K_over_eps", f"{A1}:check_b7", _alg1("eps_grid", "k_grid"), figure=True,
         title="Theta(K/eps) against Theorem 2"),
    _sim("B8", _rule("B8"), f"{A1}:check_b8", _alg1("baselines"), title="the non-private baselines"),
    _sim("B9", "dueling_central_vs_local", f"{A1}:check_b9", _alg1("eps_grid"), figure=True,
         title="central eps^-1 vs local eps^-2"),
    # Algorithm 2 (spec 5.4)
    _sim("C1", _rule("C1"), f"{A2}:check_c1", _alg2("dense", "finite", "stress"), title="bookkeeping"),
    _sim("C2", _rule("C2"), f"{A2}:check_c2", _alg2("dense", "finite", "stress"), title="accuracy"),
    _sim("C3", _rule("C3"), f"{A2}:check_c3", _alg2("dense", "finite"), title="retention"),
    _sim("C4", _rule("C4"), f"{A2}:check_c4", _alg2("dense", "finite"), title="elimination"),
    _sim("C5", "dueling_regret_vs_T_dense", f"{A2}:check_c5", _alg2("dense"), figure=True,
         title="sqrt(T) on dense arm sets"),
    _sim("C6", "dueling_privacy_for_free", f"{A2}:check_c6", _alg2("dense", "finite"), figure=True,
         title="privacy for free"),
    _sim("C7", "dueling_overhead_vs_d6_over_kappa_eps", f"{A2}:check_c7", _alg2("finite"), figure=True,
         title="overhead vs d^6 / (kappa eps)"),
    _sim("C8", "dueling_overhead_vs_eps_d3", f"{A2}:check_c8", _alg2("finite"), figure=True,
         title="overhead ~ 1/eps at d = 3"),
    _sim("C9", _rule("C9"), f"{A2}:check_c9", _alg2("dense", "finite"), title="the explicit bound"),
    _sim("C10", _rule("C10"), f"{A2}:check_c10", _alg2("practice", maxinp=True), title="MaxInP"),
    _sim("C11", _rule("C11"), f"{A2}:check_c11", _alg2("practice"), title="kappa and t0 modes"),
]
