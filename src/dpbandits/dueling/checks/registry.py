"""Every check of the dueling paper (Saha & Asi, DP-Dueling), for the one registry
(:mod:`dpbandits.evidence.registry`). The paper has no experiments: every theorem and lemma becomes a check
(spec ``dp_dueling.md`` section 5). Rules are named after what they reproduce, e.g. the two scaling
rules the workflow is known for, regret vs K/eps on the lower-bound instance
(``dueling_regret_vs_K_over_eps``) and overhead vs d^6/(kappa eps)
(``dueling_overhead_vs_d6_over_kappa_eps``).

Algorithm 1 designs are one table per (design, variant), joined per design; Algorithm 2 designs
are two tables each (``<design>/runs`` and ``<design>/phases``).

The mechanism and unit checks need no bandit simulation (spec sections 2.1, 3, 5.2 A1 / A2 / A6(a),
7 errata 4, 13, 15, 16, 24, 31); their functions live by subject: :mod:`.bintree` (A1,
A2), :mod:`.ebs_properties` (A6a), :mod:`.lemmas` (L6, L10), :mod:`.lower_bound`
(LB), :mod:`.frontier` (LB-FRONTIER: the privacy-regret frontier, a probe of Theorem 2 that
runs Algorithm 1 and its audit) and :mod:`.kappa` (KAPPA), each ``(rng, scale, **sizes) ->
CheckOutput`` with the sizes per scale below.

Their claim ids (stable) and kinds: claims of the paper (lemma, theorem, privacy, erratum,
lower_bound), and rows that are not (control: a negative control or tool validation; identity: a
bookkeeping identity or the specification's own algebra, deterministic by construction):

===================  =========  ==============================================================
check_id             kind       claim
===================  =========  ==============================================================
A1                   lemma      Lemma 1: (1-delta) quantile of |c_t - S_t| <= 4 log(1/delta) log^2.5 T / eps
A1-CAL               control    same quantiles <= the calibrated bound lambda(delta) (spec 2.1's widths)
A1-RATIO             report     conservativeness of Lemma 1: bound / empirical quantile
A1-SLOPE-EPS         control    std of c_t - S_t (pooled over t) vs 1/eps: slope common to the T in [0.95, 1.05]
A1-SLOPE-L           control    pooled std vs the number of levels L: slope in [1.3, 1.7]
A1-SLOPE-POW2        control    std at t = 2^j (popcount 1) vs L: slope in [0.9, 1.1]
A2-NODES             identity   every element lies in exactly L nodes; sensitivity L is used
A2-SCALE             identity   each completed node gets exactly one Lap(L / eps_c) draw
A2                   identity   exact log-likelihood ratio of the node vector <= eps_c (fixed by L and L/eps_c)
A6-P1                lemma      EBS Property (1) on every subset of random logistic instances
A6-P2                lemma      EBS Property (2) in the Appendix form (<= 2 Delta)
A6-P2-MAIN           erratum    EBS Property (2) in the main-text form (<= Delta) is false
A6-MIDDLE            report     B_S(1) - B_S(i) >= Delta(1, i) for middle arms (fails; Lemma 6)
A6-ORDER             lemma      the EBS orders every subset as the utilities do
L6-PAPER             erratum    Lemma 6's count does not force elimination, with Algorithm 1's own radius
L6-CORR              identity   the corrected count gives 4 rad <= 0.625 Delta
L10-PAPER            erratum    Lemma 10's "eliminated once xi < Delta / 2" is false (Delta = 3 xi survives)
L10-CORR             identity   the corrected threshold: survivors have Delta <= 4 xi
B7-F1-MATRIX         identity   instance F1 equals the paper's lower-bound matrix
LB-ALT               erratum    the lower bound's alternative P' is not logistic-realisable (K >= 3)
LB-ALT-FIX           identity   the in-class replacement r'_{i0} = 2 ln 3 has the needed gaps
LB-FRONTIER          report     Algorithm 1 with noise x m on F1: where it falls below Lemma 11's
                                1/eps plays, and the audit's privacy loss there (a probe)
KAPPA-ALG            identity   Algorithm 2's kappa equals sigma'(2 (S + 1)) (brute force)
KAPPA-THM            identity   Theorem 3's kappa equals sigma'(S + 1) (brute force)
KAPPA                erratum    the two kappa definitions differ (5.94x at S = 1)
===================  =========  ==============================================================

The simulation checks' rows and kinds are listed in their modules (:mod:`.audits`,
:mod:`.solver`, :mod:`.alg1`, :mod:`.alg2`); the non-paper rows there are
A3, A4, A4-NOISE, C1, C7, C8, C9 (identity), A3-LITERAL, A5-*-CONTROL, A5-LITERAL, A7, A8, B9-LDP (control) and B8,
C10 (sanity). Every PASS of a paper claim carries its evidence of power against a way the paper
could be wrong, of the claim's own form (``Evidence.power_form``; :mod:`dpbandits.evidence.guards`);
the registry's :class:`~dpbandits.evidence.registry.Guard` records say where the rate and scaling claims
apply (commit by T, fit windows, the sqrt(T) regime), which rows compare quantities, and name the
wrong paper each PASS is powered against (the rows' own power notes give the numbers).

Sizes (keyword arguments) per registry key:

* ``A1``: ``horizons`` (T grid), ``epsilons``, ``deltas``, ``n_streams`` (streams per (T, eps)
  cell), ``n_boot``. Test-only: ``noise_multiplier``, ``formula`` (``"all_levels"`` = broken
  formula adding the noise of all L nodes that contain t instead of the popcount(t) released
  nodes; ``"unit_sensitivity"`` = Lap(1/eps) per node, the sensitivity-1 bug).
* ``A2``: ``epsilons``, ``horizon`` (stream length of the LLR draws), ``n_draws`` (per eps),
  ``max_lengths`` (T_max grid of the node / scale checks). Test-only: ``noise_multiplier``.
* ``A6a``: ``n_instances``, ``k_min``, ``k_max``, ``scales`` (utility scales s). Test-only:
  ``instances`` (a list of (utilities, preference) pairs replacing the random draw),
  ``counterexample``.
* ``L6``: ``horizons`` (paper-count grid), ``epsilon``; ``corr_horizons``, ``corr_epsilons``,
  ``corr_gaps``, ``corr_ks`` (grid of the corrected count). Test-only: ``paper_constants``,
  ``corr_constants``.
* ``L10``: ``n_trials``, ``n_arms``. Test-only: ``margin`` (the rule's 2), ``threshold``.
* ``LB``: ``ks``. Test-only: ``instance`` (replaces :func:`f1`), ``alt_utility``.
* ``KAPPA``: ``n_samples`` (random search), ``dims``, ``norms`` (S grid), ``n_polish``.
  Test-only: ``alg_closed_form``, ``thm_closed_form``.
"""

from __future__ import annotations

from dpbandits.dueling.experiments.designs import ALG1_VARIANTS, FINITE_BASELINES
from dpbandits.evidence.registry import Check, Guard

PAPER = "dueling"
AU = "dpbandits.dueling.checks.audits"
SO = "dpbandits.dueling.checks.solver"
A1 = "dpbandits.dueling.checks.alg1"
A2 = "dpbandits.dueling.checks.alg2"


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


def _sized(check_id, rule, function, sizes, seeded=True, figure=False, title="", guards=()):
    return Check(check_id, PAPER, rule, f"dpbandits.dueling.checks.{function}", sizes=sizes,
                 seeded=seeded, figure=figure, title=title, guards=guards)


def _configured(check_id, rule, function, title="", **keywords):
    """A check whose arguments are config values (``keywords``: argument -> dotted path)."""
    return Check(check_id, PAPER, rule, function, keywords=keywords, title=title)


def _sim(check_id, rule, function, inputs, figure=False, title="", guards=()):
    return Check(check_id, PAPER, rule, function, inputs=inputs, bootstrap=True, figure=figure, title=title,
                 guards=guards)


# Where the claims apply (regime), which rows compare quantities (floor guard) and the wrong paper
# each PASS must fail (power; its form is set by the row); no claim of this paper is about real data.
COMMITTED = ("every cell: >= 90% of the private and non-private runs committed by T (the overhead is the "
             "whole private exploration, not cut off by the horizon)")
G_B3 = (Guard("B3-*", regime="horizons >= 4x the median commit time, at two horizons or more (after commit "
              "the regret is the log T part)", alternative="an exponent off: regret growing like sqrt(T) (slope 0.5)"),)
G_B4 = (Guard("B4", regime=COMMITTED, alternative="an exponent off: overhead ~ eps^-2 (slope 2)"),)
G_B5 = (Guard("B5", regime=COMMITTED, alternative="an exponent off: overhead ~ K^2 (slope 2)"),
        Guard("B5-NAIVE", regime="naive runs committed by T at two K values or more",
              alternative="an exponent off: naive overhead ~ K (slope 1)"),
        Guard("B5-NAIVE-GAP", compares=True,
              alternative="the effect absent: the naive split no costlier (one-sided paired bootstrap at every K >= 8)"))
G_B6 = (Guard("B6-*", regime=COMMITTED,
              alternative="an exponent off: non-private regret ~ 1/Delta^2; privacy cost ~ 1/(Delta eps)"),)
G_B7 = (Guard("B7", regime=COMMITTED, alternative="an exponent off: the same data with a K^2 law"),
        Guard("B7-LEMMA11", alternative="a lower bound on every DP algorithm, tested on one far above it: none"))
G_B9 = (Guard("B9-ORDER", compares=True,
              alternative="the effect absent: the local model no costlier (one-sided paired bootstrap)"),
        Guard("B9-CENTRAL", regime=COMMITTED, alternative="an exponent off: overhead ~ eps^-2 (slope 2)"))
WINDOW = ("fit window: >= 3 completed phases, no commit in >= 90% of runs, t0 l <= 0.2 T, over two decades "
          "of T or more")
G_C5 = (Guard("C5-*", regime=WINDOW, alternative="an exponent off: linear regret (slope 1)"),)
G_C6 = (Guard("C6-MONOTONE", compares=True,
              alternative="the effect absent: rho not decreasing in T (one-sided Spearman test)"),
        Guard("C6-SLOPE*", regime="R(inf) grows like sqrt(T) on the window (its slope CI within [0.40, 0.65], "
                                  "where Theorem 3's two terms give rho - 1 ~ T^-1/2)",
              alternative="the effect absent: a privacy overhead that does not vanish (slope 0)"))
G_C7 = (Guard("C7", regime="3 or more cells where every private and non-private run committed by T",
              alternative="overhead ~ x^1.5 (C7 is an identity of the code's phase lengths: its power is not counted)"),)


CHECKS = [
    # mechanism, solver and errata checks (spec 5.1); sizes per scale are the spec's
    _sized("A1", "dueling_bintree_accuracy", "bintree:check_a1", {
        # four eps values (spec: 0.1, 0.5, 1; 0.2 added); six T at paper scale, four at smoke: the
        # slope fits' lack of fit rests on 4 (2) residual df (dpbandits.stats.slopes; with four T,
        # A1-SLOPE-POW2 flipped between PASS and INCONCLUSIVE across root seeds)
        "paper": {"horizons": (2**10, 2**12, 2**14, 2**16, 2**18, 2**20), "epsilons": (0.1, 0.2, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 200, "n_boot": 2000},
        "smoke": {"horizons": (2**4, 2**6, 2**8, 2**10), "epsilons": (0.1, 0.2, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 1000, "n_boot": 500}}, figure=True,
        title="the binary-tree mechanism against Lemma 1"),
    _sized("A2", "dueling_bintree_privacy", "bintree:check_a2", {
        "paper": {"epsilons": (0.1, 0.5, 1.0), "horizon": 32, "n_draws": 10_000},
        "smoke": {"epsilons": (0.5, 1.0), "horizon": 16, "n_draws": 1000, "max_lengths": list(range(1, 65))}},
        title="the binary-tree mechanism's privacy"),
    _sized("A6a", "dueling_ebs_properties", "ebs_properties:check_a6", {
        "paper": {"n_instances": 200, "k_min": 3, "k_max": 7},
        "smoke": {"n_instances": 30, "k_min": 3, "k_max": 6}}, title="the EBS properties"),
    _sized("L6", "dueling_lemma6_constants", "lemmas:check_lemma6", {"paper": {}, "smoke": {}}, seeded=False,
           title="Lemma 6's constants"),
    _sized("L10", "dueling_lemma10_threshold", "lemmas:check_lemma10", {"paper": {"n_trials": 100_000},
                                                                 "smoke": {"n_trials": 10_000}},
           title="Lemma 10's threshold"),
    _sized("LB", "dueling_lower_bound_instance", "lower_bound:check_lower_bound", {"paper": {"ks": (2, 4, 8, 16, 32, 64)},
                                                                       "smoke": {"ks": (2, 4, 8)}},
           seeded=False, title="the lower-bound instance"),
    _sized("LB-FRONTIER", "dueling_privacy_regret_frontier", "frontier:check_lb_frontier", {
        "paper": {"k": 4, "horizon": 10**6, "runs": 30, "epsilon": 1e-4, "samples": 200_000},
        "smoke": {"k": 4, "horizon": 40_000, "runs": 5, "epsilon": 1e-3, "samples": 5_000,
                  "multipliers": (1.0, 1e-3, 1e-5)}}, figure=True,
           title="the privacy-regret frontier against Lemma 11 (a probe of Theorem 2)"),
    _sized("KAPPA", "dueling_kappa_definitions", "kappa:check_kappa", {"paper": {"n_samples": 1_000_000},
                                                                 "smoke": {"n_samples": 50_000, "norms": (1.0,)}},
           title="the two kappa definitions"),
    # privacy (spec 5.2)
    _configured("A3", "dueling_sensitivity_alg1", f"{AU}:check_a3", runs="dueling.audit.whitebox_runs",
                title="white-box sensitivity of Algorithm 1"),
    _configured("A4", "dueling_sensitivity_alg2", f"{AU}:check_a4", runs="dueling.audit.whitebox_runs",
                title="white-box sensitivity of Algorithm 2"),
    _configured("A5-ALG1", "dueling_audit_alg1", f"{AU}:check_a5_alg1", samples="dueling.audit.samples",
                confidence="dueling.audit.confidence", title="black-box audit of Algorithm 1"),
    _configured("A5-COUNTER", "dueling_audit_alg1_counters", f"{AU}:check_a5_counter", samples="dueling.audit.samples",
                confidence="dueling.audit.confidence", title="black-box audit of Algorithm 1's counters (Lemma 2's route)"),
    _configured("A5-LITERAL", "dueling_audit_alg1_literal", f"{AU}:check_a5_literal", samples="dueling.audit.literal_samples",
                confidence="dueling.audit.confidence", title="black-box audit of the literal Algorithm 1"),
    _configured("A5-ALG2", "dueling_audit_alg2", f"{AU}:check_a5_alg2", samples="dueling.audit.samples",
                confidence="dueling.audit.confidence", title="black-box audit of Algorithm 2"),
    _configured("A6b", "dueling_ebs_unbiased_after_elimination", f"{AU}:check_a6b",
                runs="dueling.audit.unbiasedness_runs", title="EBS stays unbiased after an elimination"),
    # solvers and the two algorithms on one instance
    _configured("A7", "dueling_design_solver", f"{SO}:check_a7", n_random="dueling.checks.solver_problems",
                title="the design solver against known answers"),
    _configured("A8", "dueling_private_mle", f"{SO}:check_a8", n_problems="dueling.checks.solver_problems",
                title="the private MLE"),
    _configured("C12", "dueling_alg1_vs_alg2", f"{SO}:check_c12", runs="dueling.audit.whitebox_runs",
                title="Algorithms 1 and 2 on one instance"),
    # Algorithm 1 (spec 5.3)
    _sim("B1", _rule("B1"), f"{A1}:check_b1", _alg1("correctness", "stress"), title="correctness"),
    _sim("B2", _rule("B2"), f"{A1}:check_b2", _alg1("correctness"), title="the corrected Lemma 6"),
    _sim("B3", "dueling_regret_vs_T", f"{A1}:check_b3", _alg1("log_t"), figure=True, title="log T regret", guards=G_B3),
    _sim("B4", "dueling_overhead_vs_eps", f"{A1}:check_b4", _alg1("eps_grid"), figure=True,
         title="overhead ~ 1/eps", guards=G_B4),
    _sim("B5", "dueling_overhead_vs_K", f"{A1}:check_b5", _alg1("k_grid"), figure=True,
         title="overhead ~ K (and ~K^2 for the naive split)", guards=G_B5),
    _sim("B6", "dueling_overhead_vs_gap", f"{A1}:check_b6", _alg1("gap_grid"), figure=True,
         title="gap-free privacy cost", guards=G_B6),
    _sim("B7", "dueling_regret_vs_K_over_eps", f"{A1}:check_b7", _alg1("eps_grid", "k_grid"), figure=True,
         title="Theta(K/eps) against Theorem 2", guards=G_B7),
    _sim("B8", _rule("B8"), f"{A1}:check_b8", _alg1("baselines"), title="the non-private baselines"),
    _sim("B9", "dueling_central_vs_local", f"{A1}:check_b9", _alg1("eps_grid"), figure=True,
         title="central eps^-1 vs local eps^-2", guards=G_B9),
    # Algorithm 2 (spec 5.4)
    _sim("C1", _rule("C1"), f"{A2}:check_c1", _alg2("dense", "finite", "stress"), title="bookkeeping"),
    _sim("C2", _rule("C2"), f"{A2}:check_c2", _alg2("dense", "finite", "stress"), title="accuracy"),
    _sim("C3", _rule("C3"), f"{A2}:check_c3", _alg2("dense", "finite", "stress"), title="retention"),
    _sim("C4", _rule("C4"), f"{A2}:check_c4", _alg2("dense", "finite"), title="elimination"),
    _sim("C5", "dueling_regret_vs_T_dense", f"{A2}:check_c5", _alg2("dense"), figure=True,
         title="sqrt(T) on dense arm sets", guards=G_C5),
    _sim("C6", "dueling_privacy_for_free", f"{A2}:check_c6", _alg2("dense", "finite"), figure=True,
         title="privacy for free", guards=G_C6),
    _sim("C7", "dueling_overhead_vs_d6_over_kappa_eps", f"{A2}:check_c7", _alg2("finite"), figure=True,
         title="overhead vs d^6 / (kappa eps)", guards=G_C7),
    _sim("C8", "dueling_overhead_vs_eps_d3", f"{A2}:check_c8", _alg2("finite"), figure=True,
         title="overhead ~ 1/eps at d = 3"),
    _sim("C9", _rule("C9"), f"{A2}:check_c9", _alg2("dense", "finite"), title="the explicit bound"),
    _sim("C10", _rule("C10"), f"{A2}:check_c10", _alg2("practice", maxinp=True), title="MaxInP"),
    _sim("C11", _rule("C11"), f"{A2}:check_c11", _alg2("practice"), title="kappa and t0 modes"),
]

# A researcher's own algorithms (dueling.extra_algorithms; checks.extra): audited and compared
# with Algorithm 1, never claims of the paper (the inventory counts them apart).
XC = "dpbandits.dueling.checks.extra"
CHECKS += [
    Check("X-AUDIT", PAPER, "dueling_extra_audit", f"{XC}:check_x_audit", root_seed=True,
          keywords={"a": ("dueling.extra_algorithms",)},
          title="black-box audit of each extra algorithm at its claimed epsilon, with its negative control"),
    Check("X-REGRET", PAPER, "dueling_extra_regret", f"{XC}:check_x_regret", root_seed=True,
          keywords={"a": ("dueling.extra_algorithms",), "n_boot": "dueling.checks.bootstrap"},
          title="regret of each extra algorithm relative to Algorithm 1"),
]
