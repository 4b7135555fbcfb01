"""Every check of the contextual paper (Ma, Jiang, Zhao, Yang & Yu), for the one registry
(:mod:`dpbandits.registry`): rule names, the simulation tables each reads, the config values it
declares and its function. Spec ``ldp_contextual.md`` section 6: unit and mechanism checks
(``U-*``, ``F4-F5``), the black-box audit (``P-AUDIT``), the rate checks of Theorems 2.5-2.6, the
readings of Figures 6-9 and Table 2, the authors' code (``C-REF``) and the supplementary checks
(``FS1``, ``FS2``).

Table names are simulation job names (files ``sim/contextual/<job>.parquet``); ``fig7_code`` is the
union of the ``fig7_code_<eps>`` jobs and ``tables`` the union of the three Table 2 datasets.
"""

from __future__ import annotations

from dpbandits.experiments.contextual import DATASETS, EPS_GRID
from dpbandits.registry import Check

PAPER = "contextual"
BOOT = ("contextual.checks.bootstrap",)
UC = "dpbandits.contextual.unit_checks"
TC = "dpbandits.contextual.theory_checks"
FC = "dpbandits.contextual.figure_checks"


def input_jobs(table: str) -> list[str]:
    """The simulation jobs behind one table name."""
    if table == "fig7_code":
        return [f"fig7_code_{e:g}" for e in EPS_GRID]
    if table == "tables":
        return [f"table_{d}" for d in DATASETS]
    return [table]


def _tables(*names: str) -> dict[str, tuple[str, ...]]:
    return {n: tuple(f"sim/contextual/{job}.parquet" for job in input_jobs(n)) for n in names}


def _unit(check_id: str, rule: str, function: str, seeded: bool = True) -> Check:
    return Check(check_id, PAPER, rule, f"{UC}:{function}", call="settings", config=("contextual.unit",),
                 seeded=seeded)


def _sim(check_id: str, rule: str, module: str, function: str, names: tuple[str, ...],
         figure: bool = False) -> Check:
    return Check(check_id, PAPER, rule, f"{module}:{function}", inputs=_tables(*names), config=BOOT, figure=figure)


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
    Check("P-AUDIT", PAPER, "contextual_audit_randomizer", "dpbandits.contextual.audits:check_audit",
          call="settings", config=("contextual.audit",)),
    # rates (Theorems 2.5-2.6) and the literal-constants erratum
    _sim("T-2.6a", "contextual_regret_vs_n", TC, "check_t26a", ("theory_n",), figure=True),
    _sim("T-2.6b", "contextual_private_rate", TC, "check_t26b", ("theory_n",), figure=True),
    _sim("T-2.6c", "contextual_regret_vs_eps", TC, "check_t26c", ("theory_eps",), figure=True),
    _sim("T-2.6d", "contextual_dimension_effect", TC, "check_t26d", ("theory_dim",)),
    _sim("T-2.5", "contextual_lower_bound_sanity", TC, "check_t25", ("theory_n", "fig7_code_1", "baselines_n")),
    _sim("E-LITERAL", "contextual_literal_constants", TC, "check_literal", ("presets",)),
    # the figures' and Table 2's readings, the authors' code, supplementary checks
    _sim("F6", "contextual_fig6_jumpstart", FC, "check_f6", ("fig6",)),
    _sim("F7a", "contextual_fig7a_sublinear", FC, "check_f7a", ("fig7", "fig7_code")),
    _sim("F7b", "contextual_fig7b_aux_helps", FC, "check_f7b", ("fig7",)),
    _sim("F8", "contextual_aux_size_epsm_gamma", FC, "check_f8", ("fig8",)),
    _sim("T-3.4c", "contextual_effective_sample_size", FC, "check_t34c", ("t34c",)),
    _sim("F9a", "contextual_fig9a_kappa_effect", FC, "check_f9a", ("fig9a",)),
    _sim("F9b", "contextual_fig9b_gamma_effect", FC, "check_f9b", ("fig9b",)),
    _sim("F9c", "contextual_fig9c_order_effect", FC, "check_f9c", ("fig9c",)),
    _sim("C-REF", "contextual_authors_code_magnitude", FC, "check_cref", ("fig7_code", "fig7")),
    _sim("T2", "contextual_table2_rankings", FC, "check_t2", ("tables",)),
    _sim("FS1", "contextual_symmetric_instance", FC, "check_fs1", ("sym7", "sym8", "sym9")),
    _sim("FS2", "contextual_number_of_sources", FC, "check_fs2", ("msweep",)),
]
