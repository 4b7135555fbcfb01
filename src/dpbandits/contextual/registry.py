"""Every check of the contextual paper: its rule name, the design tables it reads, whether it draws
a scaling figure, and the function that computes its claim rows (one place for the workflow:
``workflow/rules/contextual.smk`` and ``workflow/scripts/contextual_check.py`` read this).

Unit checks (no inputs) take ``(rng, scale, unit config)``; the audit ``(rng, scale, audit
config)``; simulation checks ``(tables, rng, n_boot, scale)`` with ``tables`` keyed by job name
(``fig7_code`` = the union of the ``fig7_code_<eps>`` jobs, ``tables`` = the union of the three
Table 2 datasets).
"""

from __future__ import annotations

from dataclasses import dataclass

from dpbandits.contextual import audits, figure_checks, theory_checks, unit_checks
from dpbandits.experiments.contextual import DATASETS, EPS_GRID

__all__ = ["CheckSpec", "CHECKS", "input_jobs", "SCALING", "function"]


@dataclass(frozen=True)
class CheckSpec:
    rule: str
    group: str  # unit | audit | sim
    tables: tuple[str, ...] = ()


CHECKS: dict[str, CheckSpec] = {
    "U-PRIV-1": CheckSpec("contextual_privacy_accounting", "unit"),
    "U-PRIV-2": CheckSpec("contextual_every_bin_reports", "unit"),
    "U-PRIV-3": CheckSpec("contextual_laplace_sums", "unit"),
    "U-EST": CheckSpec("contextual_confidence_bound", "unit"),
    "E-CODE-CB": CheckSpec("contextual_authors_code_bound", "unit"),
    "U-PART": CheckSpec("contextual_max_edge_partition", "unit"),
    "U-Q": CheckSpec("contextual_aux_sampler", "unit"),
    "U-BEH": CheckSpec("contextual_behaviour_policy", "unit"),
    "U-MARGIN": CheckSpec("contextual_margin_condition", "unit"),
    "U-ALG": CheckSpec("contextual_engine_invariants", "unit"),
    "F4-F5": CheckSpec("contextual_fig45_grids", "unit"),
    "P-AUDIT": CheckSpec("contextual_audit_randomizer", "audit"),
    **{key: CheckSpec(rule, "sim", theory_checks.CHECKS[key][1]) for key, rule in (
        ("T-2.6a", "contextual_regret_vs_n"), ("T-2.6b", "contextual_private_rate"),
        ("T-2.6c", "contextual_regret_vs_eps"), ("T-2.6d", "contextual_dimension_effect"),
        ("T-2.5", "contextual_lower_bound_sanity"),
        ("E-LITERAL", "contextual_literal_constants"))},
    **{key: CheckSpec(rule, "sim", figure_checks.CHECKS[key][1]) for key, rule in (
        ("F6", "contextual_fig6_jumpstart"), ("F7a", "contextual_fig7a_sublinear"),
        ("F7b", "contextual_fig7b_aux_helps"), ("F8", "contextual_aux_size_epsm_gamma"),
        ("T-3.4c", "contextual_effective_sample_size"), ("F9a", "contextual_fig9a_kappa_effect"),
        ("F9b", "contextual_fig9b_gamma_effect"), ("F9c", "contextual_fig9c_order_effect"),
        ("C-REF", "contextual_authors_code_magnitude"), ("T2", "contextual_table2_rankings"),
        ("FS1", "contextual_symmetric_instance"), ("FS2", "contextual_number_of_sources"))},
}
SCALING = theory_checks.SCALING


def input_jobs(table: str) -> list[str]:
    """The simulation outputs behind one table name (file stems under results/sim/contextual)."""
    if table == "fig7_code":
        return [f"fig7_code_{e:g}" for e in EPS_GRID]
    if table == "tables":
        return [f"table_{d}" for d in DATASETS]
    return [table]


def function(key: str):
    if key in unit_checks.CHECKS:
        return unit_checks.CHECKS[key]
    if key in audits.CHECKS:
        return audits.CHECKS[key]
    if key in theory_checks.CHECKS:
        return theory_checks.CHECKS[key][0]
    return figure_checks.CHECKS[key][0]
