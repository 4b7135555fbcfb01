# Shared set-up: config validation (before any job runs) and helper functions, so that rules
# carry no lambdas.
from pathlib import Path

from dpbandits.config import validate_config
from dpbandits.experiments import online as online_exp
from dpbandits.experiments.online_bandit import ALGORITHMS as ONLINE_BANDIT_ALGORITHMS
from dpbandits.online.bandit_checks import CHECKS as ONLINE_BANDIT_CHECKS
from dpbandits.online.exact_checks import CHECKS as ONLINE_EXACT_CHECKS
from dpbandits.online.full_info_checks import CHECKS as ONLINE_FULL_INFO_CHECKS

validate_config(
    config, Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml"
)

ONLINE_FIG = config["online"]["figures"]


wildcard_constraints:
    setting="[A-Za-z0-9_]+",
    algorithm="[a-z0-9_]+",
    eps="[0-9.e+-]+|nonprivate",
    block="[0-9]+",
    figure="[A-Za-z0-9_]+",
    check="[A-Za-z0-9_-]+",


def online_sim_blocks(wildcards=None):
    """Every simulation block of the Figures 1-2 grid."""
    return [cell.path for cell in online_exp.figure_cells(config)]


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
