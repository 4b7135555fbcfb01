"""Entry point of every theory-check rule of the online paper (online_check_ft_*, _bt_*, _u_*,
online_check_privacy_cost, online_privacy_exact_rnm): dispatches on ``params.check``."""

import pandas as pd

from dpbandits.claims import write_claims
from dpbandits.experiments.online_bandit import ALGORITHMS
from dpbandits.io import read_results_or_quarantine
from dpbandits.online import bandit_checks, exact_checks, full_info_checks
from dpbandits.plotting import plot_scaling
from dpbandits.rng import make_rng
from dpbandits.tables import write_table
from dpbandits.workflow import run_script


def _exact(smk, check, rng, scale, exact):
    if check == "P-EXACT-RNM":
        table = exact_checks.rnm_loss_table()
        display = table.assign(loss=table["loss"].map("{:.3f}".format),
                               loss_over_eps=table["loss_over_eps"].map("{:.4f}".format))
        write_table(table, smk.output.tex, smk.output.csv,
                    "Exact privacy loss of one RNM-FTNL release under Definition 1's neighbours "
                    "(one whole reward vector replaced), epoch of n rounds (spec issue P1)",
                    "tab:online-rnm-loss", display=display)
        return exact_checks.check_p_exact_rnm(scale, table)
    if check == "FT-9":
        return exact_checks.check_ft9(scale)
    if check == "U-1":
        return exact_checks.check_u1(scale, rng, exact["schedule_horizon"])
    if check == "U-2":
        return exact_checks.check_u2(scale, rng, exact["laplace_samples"])
    return {"U-3": exact_checks.check_u3, "U-4": exact_checks.check_u4,
            "U-5": exact_checks.check_u5}[check](scale)


def main(smk):
    cfg, check = smk.config, smk.params.check
    scale, checks = cfg["scale"], cfg["online"]["checks"]
    rng = make_rng(cfg["seed"], "online", "check", check)
    if check in full_info_checks.CHECKS:
        function, designs = full_info_checks.CHECKS[check]
        tables = {d: read_results_or_quarantine(p) for d, p in zip(designs, smk.input, strict=True)}
        out = function(tables, rng, checks["bootstrap"], scale)
    elif check in bandit_checks.CHECKS:
        function, designs = bandit_checks.CHECKS[check]
        paths = iter(smk.input)  # per design, one table per algorithm
        tables = {d: pd.concat([read_results_or_quarantine(next(paths)) for _ in ALGORITHMS], ignore_index=True)
                  for d in designs}
        out = function(tables, rng, checks["bootstrap"], scale)
    elif check == "BT-8":
        out = bandit_checks.check_bt8(read_results_or_quarantine(smk.input.runs), scale, checks["alpha"])
    else:
        out = _exact(smk, check, rng, scale, cfg["online"]["exact"])
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):  # the scaling checks draw a figure
        plot_scaling(out.figure, smk.output.pdf, smk.output.png)


run_script(snakemake, main)
