# Shared set-up: config validation (before any job runs) and helper functions, so that rules
# carry no lambdas.
from pathlib import Path

from dpbandits.config import validate_workflow_config
from dpbandits.workflow_guard import prepare_workdir
from dpbandits.experiments import online as online_exp
from dpbandits.experiments.online_bandit import ALGORITHMS as ONLINE_BANDIT_ALGORITHMS
from dpbandits.online.bandit_checks import CHECKS as ONLINE_BANDIT_CHECKS
from dpbandits.online.exact_checks import CHECKS as ONLINE_EXACT_CHECKS
from dpbandits.online.full_info_checks import CHECKS as ONLINE_FULL_INFO_CHECKS

CONFIG_SCHEMA = Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml"
# Every config file re-read strictly (duplicate keys), each --configfile complete, the merged
# config (schema, cross-field rules, DAG size): all problems in one error, before any job.
validate_workflow_config(
    config, workflow.configfiles, workflow.overwrite_configfiles, CONFIG_SCHEMA
)

# Recover from an interrupted or damaged earlier run before scheduling (main process only):
# stale locks of a killed run, temporaries of unfinished jobs, corrupt intermediate tables.
if workflow.is_main_process:
    for message in prepare_workdir(
        ".", dryrun=workflow.output_settings.dryrun
    ).messages():
        logger.warning(f"dpbandits: {message}")

ONLINE_FIG = config["online"]["figures"]


wildcard_constraints:
    setting="[A-Za-z0-9_]+",
    algorithm="[a-z0-9_]+",
    eps="[0-9.e+-]+|nonprivate",
    block="[0-9]+",
    figure="[A-Za-z0-9_]+",
    check="[A-Za-z0-9_-]+",
    design="[a-z0-9_]+",
    variant="[a-z0-9_]+",
    baseline="[a-z0-9_]+",


def online_sim_blocks(wildcards=None):
    """Every simulation block of the Figures 1-2 grid."""
    return [cell.path for cell in online_exp.figure_cells(config)]


def online_figure_subcategory(wildcards):
    """Report subcategory of Figures 1-2: "Figure 1", "Figure 2"."""
    return f"Figure {wildcards.figure.removeprefix('fig')}"


def online_figure_setting(wildcards):
    for setting, spec in ONLINE_FIG["settings"].items():
        if spec["figure"] == wildcards.figure:
            return setting
    raise ValueError(f"no setting draws figure {wildcards.figure!r}")


def online_figures():
    names = [spec["figure"] for spec in ONLINE_FIG["settings"].values()]
    return expand(
        "reports/figures/online/{figure}{variant}.{ext}",
        figure=names,
        variant=["", "_logx"],
        ext=["pdf", "png"],
    )


def online_claim_files():
    checks = [
        "FIG-C1",
        "FIG-C2",
        "FIG-SHAPE",
        "FIG-EPS",
        "P-AUDIT-DPSE",
        "P-AUDIT-LAZY-RELEASE",
        "P-AUDIT-RNM",
        "P-MC-ALG1",
        "P-MC-ADAP",
        "P-AUDIT-ADAP-RELEASE",
        *ONLINE_FULL_INFO_CHECKS,
        *ONLINE_BANDIT_CHECKS,
        "BT-8",
        *ONLINE_EXACT_CHECKS,
    ]
    return expand("results/claims/online/{check}.csv", check=checks)


# Theory checks (each its own named rule, see online_theory.smk). FT-* and BT-* read simulated
# designs; FT-9 and U-* are exact.
ONLINE_SCALING_CHECKS = [
    "FT-1",
    "FT-3",
    "FT-4",
    "FT-5",
    "FT-6",
    "FT-7",
    "BT-1",
    "BT-2",
    "BT-4",
    "BT-7",
]
ONLINE_THEORY_CHECKS = [
    *ONLINE_FULL_INFO_CHECKS,
    *ONLINE_BANDIT_CHECKS,
    *[c for c in ONLINE_EXACT_CHECKS if c != "P-EXACT-RNM"],
]


def online_check_rule(check):
    """Rule name of a check: FT-1 -> online_check_ft_1."""
    return f"online_check_{check.lower().replace('-', '_')}"


def online_check_inputs(check):
    """The design tables a check reads, in the order its script expects them."""
    if check in ONLINE_FULL_INFO_CHECKS:
        designs = ONLINE_FULL_INFO_CHECKS[check][1]
        return expand("results/sim/online/full_info/{design}.parquet", design=designs)
    if check in ONLINE_BANDIT_CHECKS:  # per design, one table per algorithm
        return [
            f"results/sim/online/bandit/{design}/{algorithm}.parquet"
            for design in ONLINE_BANDIT_CHECKS[check][1]
            for algorithm in ONLINE_BANDIT_ALGORITHMS
        ]
    return []


def online_check_figures():
    return expand(
        "reports/figures/online/check_{check}.{ext}",
        check=ONLINE_SCALING_CHECKS,
        ext=["pdf", "png"],
    )


# ---- dueling paper (Saha & Asi): designs, one named rule per check ----------------------------
from dpbandits.dueling.alg1_checks import CHECKS as DUELING_ALG1_CHECKS
from dpbandits.dueling.alg1_checks import SCALING as DUELING_ALG1_SCALING
from dpbandits.dueling.alg2_checks import CHECKS as DUELING_ALG2_CHECKS
from dpbandits.dueling.alg2_checks import SCALING as DUELING_ALG2_SCALING
from dpbandits.dueling.audits import CHECKS as DUELING_PRIVACY_CHECKS
from dpbandits.dueling.solver_checks import CHECKS as DUELING_SOLVER_CHECKS
from dpbandits.dueling.unit_checks import CHECKS as DUELING_UNIT_CHECKS
from dpbandits.experiments import dueling as dueling_exp

# Rules named after what they reproduce (the two scaling rules the workflow is known for:
# regret vs K/eps on the lower-bound instance, and overhead vs d^6/(kappa eps)).
DUELING_RULE_NAMES = {
    "A1": "dueling_bintree_accuracy",
    "A2": "dueling_bintree_privacy",
    "A6a": "dueling_ebs_properties",
    "L6": "dueling_lemma6_constants",
    "L10": "dueling_lemma10_threshold",
    "LB": "dueling_lower_bound_instance",
    "KAPPA": "dueling_kappa_definitions",
    "A3": "dueling_sensitivity_alg1",
    "A4": "dueling_sensitivity_alg2",
    "A5-ALG1": "dueling_audit_alg1",
    "A5-LITERAL": "dueling_audit_alg1_literal",
    "A5-ALG2": "dueling_audit_alg2",
    "A6b": "dueling_ebs_unbiased_after_elimination",
    "A7": "dueling_design_solver",
    "A8": "dueling_private_mle",
    "C12": "dueling_alg1_vs_alg2",
    "B3": "dueling_regret_vs_T",
    "B4": "dueling_overhead_vs_eps",
    "B5": "dueling_overhead_vs_K",
    "B6": "dueling_overhead_vs_gap",
    "B7": "dueling_regret_vs_K_over_eps",
    "B9": "dueling_central_vs_local",
    "C5": "dueling_regret_vs_T_dense",
    "C6": "dueling_privacy_for_free",
    "C7": "dueling_overhead_vs_d6_over_kappa_eps",
    "C8": "dueling_overhead_vs_eps_d3",
}


def dueling_check_rule(check):
    """Rule name of a dueling check: B7 -> dueling_regret_vs_K_over_eps, B1 -> dueling_check_b1."""
    return DUELING_RULE_NAMES.get(
        check, f"dueling_check_{check.lower().replace('-', '_')}"
    )


def dueling_check_inputs(check):
    """The design tables a check reads, in the order its script expects them."""
    if check in DUELING_ALG1_CHECKS:
        tables = [
            f"results/sim/dueling/alg1/{design}/{variant}.parquet"
            for design in DUELING_ALG1_CHECKS[check][1]
            for variant in dueling_exp.ALG1_VARIANTS[design]
        ]
        if (
            check == "B8"
        ):  # plus the non-private baselines, appended to its design table
            tables += expand(
                "results/sim/dueling/baselines/{baseline}.parquet",
                baseline=dueling_exp.FINITE_BASELINES,
            )
        return tables
    if check in DUELING_ALG2_CHECKS:  # per design, its runs and its phases
        return [
            f"results/sim/dueling/alg2/{design}_{part}.parquet"
            for design in DUELING_ALG2_CHECKS[check][1]
            for part in ("runs", "phases")
        ] + (["results/sim/dueling/alg2/maxinp.parquet"] if check == "C10" else [])
    return []


DUELING_CHECKS = [
    *DUELING_UNIT_CHECKS,
    *DUELING_PRIVACY_CHECKS,
    *DUELING_SOLVER_CHECKS,
    *DUELING_ALG1_CHECKS,
    *DUELING_ALG2_CHECKS,
]
DUELING_SCALING = ["A1", *DUELING_ALG1_SCALING, *DUELING_ALG2_SCALING]


def dueling_claim_files():
    return expand("results/claims/dueling/{check}.csv", check=DUELING_CHECKS)


def dueling_check_figures():
    return expand(
        "reports/figures/dueling/check_{check}.{ext}",
        check=DUELING_SCALING,
        ext=["pdf", "png"],
    )


# ---- quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate): designs, figures, checks --------
from dpbandits.experiments import quantile as quantile_exp
from dpbandits.quantile.analytic_checks import CHECKS as QUANTILE_ANALYTIC_CHECKS
from dpbandits.quantile.baseline_checks import CHECKS as QUANTILE_BASELINE_CHECKS
from dpbandits.quantile.baseline_checks import SCALING as QUANTILE_BASELINE_SCALING
from dpbandits.quantile.baseline_checks import TABLES as QUANTILE_CHECK_TABLES
from dpbandits.quantile.dp_checks import CHECKS as QUANTILE_DP_CHECKS
from dpbandits.quantile.dp_checks import SCALING as QUANTILE_DP_SCALING
from dpbandits.quantile.seq_checks import CHECKS as QUANTILE_SEQ_CHECKS
from dpbandits.quantile.seq_checks import SCALING as QUANTILE_SEQ_SCALING

# Rules named after what they reproduce, so `snakemake --list-rules` reads like the paper.
QUANTILE_RULE_NAMES = {
    "A1": "quantile_conventions",
    "A2": "quantile_gap_engine",
    "A3": "quantile_thm2_distance_to_flip",
    "A4": "quantile_lemma2_tv_sandwich",
    "A5": "quantile_prop1_lipschitz",
    "A7": "quantile_thm5_kl_erratum",
    "A8": "quantile_thm6_sensitivity",
    "A9": "quantile_thm6_exact_privacy_loss",
    "AUDIT-DPSEQ": "quantile_audit_dp_seq",
    "B1": "quantile_thm1_coverage",
    "B2": "quantile_lemma1_uniform_coverage",
    "F1": "quantile_fig1_claims",
    "A10": "quantile_invariance_monotone_maps",
    "A11": "quantile_run_records",
    "B3": "quantile_thm3_delta_pac",
    "B4": "quantile_thm4_explicit_bound",
    "B5": "quantile_thm4_samples_vs_gap",
    "B6": "quantile_thm4_samples_vs_delta",
    "B7": "quantile_thm5_lower_bound",
    "B8": "quantile_zero_gap_never_terminates",
    "B9": "quantile_thm7a_dp_correctness",
    "B10": "quantile_thm7b_elimination_epoch",
    "B11": "quantile_thm8_dp_sample_bound",
    "B12": "quantile_dp_cost_vs_eps",
    "B13": "quantile_dp_cost_vs_gap",
    "B14": "quantile_dp_cost_vs_K",
    "B15": "quantile_epoch_seq_vs_seq",
    "F2": "quantile_fig2_claims",
    "F3A": "quantile_fig3_upper_claims",
    "F3B": "quantile_fig3_lower_claims",
    "F4A": "quantile_fig4_upper_claims",
    "F4B": "quantile_fig4_lower_claims",
    # optional baselines and checks (additions, not in the paper; spec 5 and 6.4)
    "D1": "quantile_qpac_at_discontinuity",
    "D2": "quantile_baselines_context",
    "D3": "quantile_cauchy_heavy_tails",
}
QUANTILE_SIM_CHECKS = {
    **QUANTILE_SEQ_CHECKS,
    **QUANTILE_DP_CHECKS,
    **QUANTILE_BASELINE_CHECKS,
}
QUANTILE_CHECKS = [
    *QUANTILE_ANALYTIC_CHECKS,
    "AUDIT-DPSEQ",
    "F1",
    *QUANTILE_SIM_CHECKS,
]
QUANTILE_SCALING = [
    *QUANTILE_SEQ_SCALING,
    *QUANTILE_DP_SCALING,
    *QUANTILE_BASELINE_SCALING,
]
# figure -> (rule name, designs it reads, in order)
QUANTILE_FIGURES = {
    "fig1": ("quantile_fig1_gap_curves", []),
    "fig2": ("quantile_fig2_quantile_difference", ["disc_grid"]),
    "fig3": ("quantile_fig3_seq_sample_complexity", ["gauss_q", "disc_grid"]),
    "fig4": (
        "quantile_fig4_tails_and_privacy",
        ["fig4_gauss", "fig4_logn", "fig4_lower", "logn10_seq"],
    ),
}


def quantile_check_inputs(check):
    """The design tables a check reads, in the order its function expects them."""
    if check in QUANTILE_SIM_CHECKS:
        return expand(
            "results/sim/quantile/{design}.parquet",
            design=QUANTILE_SIM_CHECKS[check][1],
        )
    return []


def quantile_figure_inputs(figure):
    return expand(
        "results/sim/quantile/{design}.parquet", design=QUANTILE_FIGURES[figure][1]
    )


def quantile_claim_files():
    return expand("results/claims/quantile/{check}.csv", check=QUANTILE_CHECKS)


def quantile_figures():
    return expand(
        "reports/figures/quantile/{figure}.{ext}",
        figure=list(QUANTILE_FIGURES),
        ext=["pdf", "png"],
    )


def quantile_check_tables():
    """The informational tables some checks write (D2: reports/tables/quantile/baselines)."""
    return expand(
        "reports/tables/quantile/{name}.{ext}",
        name=list(QUANTILE_CHECK_TABLES.values()),
        ext=["tex", "csv"],
    )


def quantile_check_figures():
    return expand(
        "reports/figures/quantile/check_{check}.{ext}",
        check=QUANTILE_SCALING,
        ext=["pdf", "png"],
    )


# ---- contextual paper (Ma, Jiang, Zhao, Yang & Yu): simulation jobs, figures, checks ----------
from dpbandits.contextual import registry as contextual_registry
from dpbandits.experiments import contextual as contextual_exp


wildcard_constraints:
    job="|".join(contextual_exp.JOBS),
    dataset="|".join(contextual_exp.DATASETS),


CONTEXTUAL_CHECKS = list(contextual_registry.CHECKS)
CONTEXTUAL_SCALING = list(contextual_registry.SCALING)


def contextual_sim(job):
    return f"results/sim/contextual/{job}.parquet"


def contextual_table_inputs():
    return expand(
        "results/sim/contextual/table_{dataset}.parquet",
        dataset=contextual_exp.DATASETS,
    )


CONTEXTUAL_FIGURES = {  # figure -> named inputs of its rule
    "fig3": {},
    "fig4": {},
    "fig5": {},
    "fig6": {"sim": contextual_sim("fig6")},
    "fig6_code": {"sim": contextual_sim("fig6")},
    "fig7": {"sim": contextual_sim("fig7")},
    "fig7_code": {
        "sims": [contextual_sim(j) for j in contextual_registry.input_jobs("fig7_code")]
    },
    "fig8": {"sim": contextual_sim("fig8")},
    "fig9a": {"sim": contextual_sim("fig9a")},
    "fig9b": {"sim": contextual_sim("fig9b")},
    "fig9c": {"sim": contextual_sim("fig9c")},
    "presets": {
        "fig7": contextual_sim("fig7"),
        "code": [
            contextual_sim(j) for j in contextual_registry.input_jobs("fig7_code")
        ],
        "presets": contextual_sim("presets"),
    },
}
CONTEXTUAL_FIGURE_FILES = {
    "fig3": "fig3_partition",
    "fig4": "fig4_reward_functions",
    "fig5": "fig5_aux_density",
    "fig6": "fig6_learning_process",
    "fig6_code": "fig6_learning_process_authors_code",
    "fig7": "fig7_regret_vs_n",
    "fig7_code": "fig7a_authors_code",
    "fig8": "fig8_regret_vs_aux_size",
    "fig9a": "fig9a_kappa",
    "fig9b": "fig9b_gamma",
    "fig9c": "fig9c_order",
    "presets": "presets_comparison",
}


CONTEXTUAL_FIGURE_TITLES = {
    "fig3": "Figure 3",
    "fig4": "Figure 4",
    "fig5": "Figure 5",
    "fig6": "Figure 6",
    "fig6_code": "Figure 6, authors' code",
    "fig7": "Figure 7",
    "fig7_code": "Figure 7(a), authors' code",
    "fig8": "Figure 8",
    "fig9a": "Figure 9(a)",
    "fig9b": "Figure 9(b)",
    "fig9c": "Figure 9(c)",
    "presets": "Figure: presets compared",
}


def contextual_figure_rule(fig):
    """Rule name of a figure: fig7 -> contextual_fig7_regret_vs_n."""
    return f"contextual_{CONTEXTUAL_FIGURE_FILES[fig]}"


def contextual_check_rule(check):
    return contextual_registry.CHECKS[check].rule


def contextual_check_inputs(check):
    """The simulation tables a check reads, in the order its script expects them."""
    return [
        contextual_sim(job)
        for table in contextual_registry.CHECKS[check].tables
        for job in contextual_registry.input_jobs(table)
    ]


def contextual_claim_files():
    return expand("results/claims/contextual/{check}.csv", check=CONTEXTUAL_CHECKS)


def contextual_outputs():
    """Every contextual deliverable (figures, tables) for rule all."""
    figs = expand(
        "reports/figures/contextual/{name}.{ext}",
        name=[*CONTEXTUAL_FIGURE_FILES.values()]
        + [f"check_{c}" for c in CONTEXTUAL_SCALING],
        ext=["pdf", "png"],
    )
    tables = expand(
        "reports/tables/contextual/{name}.{ext}",
        name=["table1_datasets", "table2_reward_ratio", "checks"],
        ext=["tex", "csv"],
    )
    return figs + tables


# ---- the Snakemake report (make report): captions rendered with the verdicts of each run ------
REPORT_CAPTIONS = "results/report/captions"


def report_caption(paper, name):
    """Caption of a report item: workflow/report/<paper>/<name>.rst rendered with the verdicts of
    the checks it names (rule report_captions), as a path relative to workflow/rules/.
    """
    return f"../../{REPORT_CAPTIONS}/{paper}/{name}.rst"


def report_caption_templates():
    return sorted(
        str(p.relative_to(workflow.basedir))
        for p in (Path(workflow.basedir) / "workflow" / "report").glob("*/*.rst")
    )


def all_table_files(wildcards):
    """Every LaTeX table the workflow builds (the inputs of rule all), for all_tables.tex."""
    return sorted(
        f
        for f in rules.all.input
        if f.startswith("reports/tables/")
        and f.endswith(".tex")
        and f != "reports/tables/all_tables.tex"
    )


def explore_notebook_dueling_inputs():
    """The dueling tables the exploration notebook plots (Theorem 2 and Remark 4)."""
    return [
        f"results/sim/dueling/alg1/{design}/{variant}.parquet"
        for design in ("eps_grid", "k_grid")
        for variant in dueling_exp.ALG1_VARIANTS[design]
    ] + ["results/sim/dueling/alg2/dense_runs.parquet"]
