"""Every check of the contextual paper (Ma, Jiang, Zhao, Yang & Yu), for the one registry
(:mod:`dpbandits.evidence.registry`): rule names, the simulation tables each reads, the config values it
declares and its function. Spec ``ldp_contextual.md`` section 6: unit and mechanism checks
(``U-*``, ``F4-F5``), the black-box audit (``P-AUDIT``), the rate checks of Theorems 2.5-2.6, the
readings of Figures 6-9 and Table 2, the authors' code (``C-REF``) and the supplementary checks
(``FS1``, ``FS2``); beyond the paper's horizon: the onset table ``BH-ONSET``, Theorem 2.6
past the onset ``T-2.6-PAST`` (the theorem's test; the ``T-2.6a-d`` readings at the paper's horizons
are pre-asymptotic) and ``BH-WHY``.

Guards (:mod:`dpbandits.evidence.guards`; evidence from :mod:`dpbandits.contextual.checks.evidence`):
the rate rows of Theorem 2.6 (and 3.4) apply where the algorithm has left the uniform policy's
regret (``regime``); comparisons and orders whose sides sit tied at that floor have no power
(``compares``); Table 2's claims are about the paper's real datasets (``claim_on="real"``); each
PASS states the alternative the same rule must FAIL (``alternative``, the text a row without its
own power note carries). The kind of wrong paper an alternative is (``Evidence.power_form``: an
exponent off by more than the band, the claimed effect absent, a published value off by a factor,
a release that is only 2 eps-DP) is set by the row itself; a row whose only alternative is a
straw man carries no form and its PASS is INCONCLUSIVE ``no_power``.

Table names are simulation job names (files ``sim/contextual/<job>.parquet``); ``fig7_code`` is the
union of the ``fig7_code_<eps>`` jobs and ``tables`` the union of the three Table 2 datasets.
"""

from __future__ import annotations

from dpbandits.contextual.experiments.beyond_designs import BEYOND_JOBS
from dpbandits.contextual.experiments.designs import DATASETS, EPS_GRID
from dpbandits.evidence.registry import Check, Guard, TableSpec

PAPER = "contextual"
UC = "dpbandits.contextual.checks.units"
TC = "dpbandits.contextual.checks.theory"
FC = "dpbandits.contextual.checks.figures"
BC = "dpbandits.contextual.checks.beyond"


def input_jobs(table: str) -> list[str]:
    """The simulation jobs behind one table name."""
    if table == "fig7_code":
        return [f"fig7_code_{e:g}" for e in EPS_GRID]
    if table == "tables":
        return [f"table_{d}" for d in DATASETS]
    if table == "beyond":
        return list(BEYOND_JOBS)
    return [table]


def _tables(*names: str) -> dict[str, tuple[str, ...]]:
    return {n: tuple(f"sim/contextual/{job}.parquet" for job in input_jobs(n)) for n in names}


def _unit(check_id: str, rule: str, function: str, seeded: bool = True) -> Check:
    return Check(check_id, PAPER, rule, f"{UC}:{function}", keywords={"ucfg": ("contextual.unit",)},
                 seeded=seeded)


def _sim(check_id: str, rule: str, module: str, function: str, names: tuple[str, ...],
         figure: bool = False, guards: tuple[Guard, ...] = (), settings: tuple[str, ...] = ()) -> Check:
    return Check(check_id, PAPER, rule, f"{module}:{function}", inputs=_tables(*names), bootstrap=True,
                 keywords={"settings": settings} if settings else {}, figure=figure, guards=guards)


BELOW_UNIFORM = ("per-round regret at the largest n_P significantly below the uniform policy's, by more than "
                 "2% (the algorithm has left the trivial policy's regret)")
LINEAR = ("an exponent off the sublinear band, a linear regret (log-log slope 1, the uniform policy's): the same CI "
          "shifted there must FAIL")
PAST_ALT = ("an exponent off by more than the band: the theorem's exponent off by twice the 0.2 tolerance, at most 1 "
            "(a linear regret): the same CI shifted there must FAIL")
EPS_ALT = ("an eps-exponent off by more than the band: the theory's -2/3 off by twice the band's margin on either side "
           "(-1.73 and +0.07): the same CI shifted to each must FAIL")
PAST_ONSET = ("in the rate regime: at least 3 grid points from the first n whose per-round regret is significantly below "
              "the uniform policy's by more than 2% (the beyond-horizon curves; fewer, or none up to the cap, is "
              "pre-asymptotic)")


CHECKS = [
    _unit("U-PRIV-1", "contextual_privacy_accounting", "check_priv1", seeded=False),
    _unit("U-PRIV-2", "contextual_every_bin_reports", "check_priv2"),
    _unit("U-PRIV-3", "contextual_laplace_sums", "check_priv3"),
    _unit("U-EST", "contextual_confidence_bound", "check_est"),
    _unit("E-CODE-CB", "contextual_authors_code_bound", "check_code_cb"),
    _unit("U-PART", "contextual_max_edge_partition", "check_partition"),
    _unit("U-Q", "contextual_aux_sampler", "check_q"),
    _unit("U-BEH", "contextual_behaviour_policy", "check_behaviour"),
    _unit("U-MARGIN", "contextual_margin_condition", "check_margin"),
    _unit("U-ALG", "contextual_engine_invariants", "check_alg"),
    _unit("F4-F5", "contextual_fig45_grids", "check_figures_45", seeded=False),
    Check("P-AUDIT", PAPER, "contextual_audit_randomizer", "dpbandits.contextual.checks.audits:check_audit",
          keywords={"acfg": ("contextual.audit",)},
          guards=(Guard(rows="P-AUDIT", alternative="the release with its Laplace scale halved (really 2 eps-LDP) "
                                                    "must be refuted by the same audit (P-AUDIT-CONTROL)"),)),
    # rates (Theorems 2.5-2.6) and the literal-constants erratum
    _sim("T-2.6a", "contextual_regret_vs_n", TC, "check_t26a", ("theory_n",), figure=True,
         guards=(Guard(rows="T-2.6a-EPS*", regime=BELOW_UNIFORM + " (both centre conventions)", alternative=LINEAR),
                 Guard(rows="T-2.6a-PERROUND", regime=BELOW_UNIFORM + " in every (eps, centres) cell",
                       alternative="the claimed learning absent: the uniform policy's per-round regret (ratio 1)"),
                 Guard(rows="T-2.6a-ORDER", compares=True,
                       alternative="the order reversed: slope(2) = slope(1024) - 0.15"))),
    _sim("T-2.6b", "contextual_private_rate", TC, "check_t26b", ("theory_n",), figure=True,
         guards=(Guard(rows="T-2.6b-RATIO", regime=BELOW_UNIFORM + " at eps = 0.5 and eps = 1",
                       alternative="an exponent off by more than the band, a linear regret (slope 1/3 of the ratio)"),)),
    _sim("T-2.6c", "contextual_regret_vs_eps", TC, "check_t26c", ("theory_eps",), figure=True,
         guards=(Guard(rows="T-2.6c-MONOTONE", compares=True, alternative="no eps effect: the Holm tests reject at most 5%"),
                 Guard(rows="T-2.6c-EXPONENT", regime="every eps in [1, 8] significantly below the uniform policy's "
                                                      "per-round regret at n_P = 3.2e5",
                       alternative=EPS_ALT))),
    _sim("T-2.6d", "contextual_dimension_effect", TC, "check_t26d", ("theory_dim",),
         guards=(Guard(rows="T-2.6d", compares=True, alternative="no dimension effect: R(1) < R(3) at p < 0.05"),)),
    _sim("T-2.5", "contextual_lower_bound_sanity", TC, "check_t25", ("theory_n", "fig7_code_1", "baselines_n")),
    _sim("E-LITERAL", "contextual_literal_constants", TC, "check_literal", ("presets",)),
    # the figures' and Table 2's readings, the authors' code, supplementary checks
    _sim("F6", "contextual_fig6_jumpstart", FC, "check_f6", ("fig6",),
         guards=(Guard(rows="F6-JUMPSTART", compares=True), Guard(rows="F6-REGRET", compares=True),
                 Guard(rows="F6-CODE", compares=True))),
    _sim("F7a", "contextual_fig7a_sublinear", FC, "check_f7a", ("fig7", "fig7_code"),
         guards=(Guard(rows="F7a-EPS*", alternative=LINEAR), Guard(rows="F7a-CODE", alternative=LINEAR),
                 Guard(rows="F7a-ORDER", compares=True,
                       alternative="exchangeable means: rho <= -0.9 with probability 1/24 per n_P"))),
    _sim("F7b", "contextual_fig7b_aux_helps", FC, "check_f7b", ("fig7",),
         guards=(Guard(rows="F7b-HELPS", compares=True), Guard(rows="F7b-SLOPE", compares=True,
                                                               alternative="auxiliary data without effect (difference 0)"))),
    _sim("F8", "contextual_aux_size_epsm_gamma", FC, "check_f8", ("fig8",),
         guards=(Guard(rows="T-3.4a", compares=True), Guard(rows="T-3.4b-*", compares=True))),
    _sim("T-3.4c", "contextual_effective_sample_size", FC, "check_t34c", ("t34c",)),
    _sim("F9a", "contextual_fig9a_kappa_effect", FC, "check_f9a", ("fig9a",), guards=(Guard(rows="F9a-*", compares=True),)),
    _sim("F9b", "contextual_fig9b_gamma_effect", FC, "check_f9b", ("fig9b",), guards=(Guard(rows="F9b-*", compares=True),)),
    _sim("F9c", "contextual_fig9c_order_effect", FC, "check_f9c", ("fig9c",), guards=(Guard(rows="F9c", compares=True),)),
    _sim("C-REF", "contextual_authors_code_magnitude", FC, "check_cref", ("fig7_code", "fig7"),
         guards=(Guard(rows="E-CODE-MAGNITUDE",
                       alternative="the published regrets off by a factor 1.5 (primary at 1.5 x them)"),)),
    _sim("T2", "contextual_table2_rankings", FC, "check_t2", ("tables",), settings=("contextual.tables.batch",),
         guards=(Guard(rows="T2-*", compares=True, claim_on="real"),)),
    _sim("FS1", "contextual_symmetric_instance", FC, "check_fs1", ("sym7", "sym8", "sym9"),
         guards=(Guard(rows="FS1-SUBLINEAR", alternative=LINEAR), Guard(rows="FS1-ORDER", compares=True),
                 Guard(rows="FS1-AUX-*", compares=True))),
    _sim("FS2", "contextual_number_of_sources", FC, "check_fs2", ("msweep",), guards=(Guard(rows="FS2", compares=True),)),
    # beyond the paper's horizon: onsets, Theorem 2.6 past the onset, why it is slow
    Check("BH-ONSET", PAPER, "contextual_beyond_onset", f"{BC}:check_onset", inputs=_tables("beyond"), bootstrap=True,
          table=TableSpec("onset", "Onset of learning beyond the paper's horizon (Figure 7(a) instance, B = 100): the "
                                   "first n at which the per-round regret's 95% CI lies below the uniform policy's, "
                                   "its bootstrap CI over repetitions, and onset ~ eps^-a (primary); coarse_fixed is a "
                                   "labelled addition, not the paper's algorithm",
                          "tab:contextual-onset", display=f"{BC}:onset_display"),
          title="the onset of learning beyond the paper's horizon"),
    _sim("T-2.6-PAST", "contextual_theorem26_past_onset", BC, "check_t26_past", ("beyond",),
         guards=(Guard(rows="T-2.6-PAST-EPS[0-9]*", regime=PAST_ONSET, alternative=PAST_ALT),
                 Guard(rows="T-2.6-PAST-D[0-9]*", regime=PAST_ONSET, alternative=PAST_ALT),
                 Guard(rows="T-2.6-PAST-EPSEXP", regime="at least 3 eps in their rate regimes at a common grid n",
                       alternative=EPS_ALT))),
    Check("BH-WHY", PAPER, "contextual_why_slow", f"{BC}:check_why_slow", root_seed=True,
          keywords={"settings": ("contextual.beyond.report_n", "contextual.beyond.report_runs",
                                 "contextual.beyond.batch")},
          table=TableSpec("why_slow", "Why the faithful algorithm is slow at the paper's n (primary, Figure 7(a)'s runs at "
                                      "n_P = 2.4e5): per eps and depth of the engine's own bins, the noise standard error "
                                      "of a bin's reward estimate against the arms' gap in that bin (medians over bins)",
                          "tab:contextual-why-slow", display=f"{BC}:why_display"),
          title="why it is slow: noise against gap per depth"),
]

# A researcher's own policies (contextual.extra_algorithms; checks.extra): their randomisers audited
# and the policies compared with LDPMAB, never claims of the paper (the inventory counts them apart).
XC = "dpbandits.contextual.checks.extra"
CHECKS += [
    Check("X-AUDIT", PAPER, "contextual_extra_audit", f"{XC}:check_x_audit", root_seed=True,
          keywords={"a": ("contextual.extra_algorithms",)},
          title="LDP audit of each extra policy's local randomiser, with its negative control"),
    Check("X-REGRET", PAPER, "contextual_extra_regret", f"{XC}:check_x_regret", root_seed=True,
          keywords={"a": ("contextual.extra_algorithms",), "n_boot": "contextual.checks.bootstrap"},
          title="regret of each extra policy relative to LDPMAB"),
]
