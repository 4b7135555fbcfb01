"""Entry point of every check rule of the dueling paper (dueling_check_*, dueling_regret_vs_*,
dueling_overhead_vs_*, ...): dispatches on ``params.check``."""

import pandas as pd

from dpbandits.checks import CheckOutput
from dpbandits.claims import write_claims
from dpbandits.dueling import alg1_checks, alg2_checks, audits, solver_checks, unit_checks
from dpbandits.experiments.dueling import ALG1_VARIANTS
from dpbandits.io import read_results_or_quarantine
from dpbandits.plotting import plot_scaling
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.params.check
    scale, n_boot = cfg["scale"], cfg["dueling"]["checks"]["bootstrap"]
    rng = make_rng(cfg["seed"], "dueling", "check", check)
    if check in unit_checks.CHECKS:  # sizes per scale are in the registry
        out = unit_checks.run_check(check, rng, scale)
    elif check in audits.CHECKS or check in solver_checks.CHECKS:  # privacy, solvers, C12
        function = {**audits.CHECKS, **solver_checks.CHECKS}[check]
        out = CheckOutput(function(rng, scale, {**cfg["dueling"]["checks"], **cfg["dueling"]["audit"]}))
    elif check in alg1_checks.CHECKS:
        function, designs = alg1_checks.CHECKS[check]
        paths = iter(smk.input)  # per design, one table per variant
        tables = {d: pd.concat([read_results_or_quarantine(next(paths)) for _ in ALG1_VARIANTS[d]], ignore_index=True)
                  for d in designs}
        rest = [read_results_or_quarantine(p) for p in paths]  # B8: the baselines join its design table
        if rest:
            tables["baselines"] = pd.concat([tables["baselines"], *rest], ignore_index=True)
        out = function(tables, rng, n_boot, scale)
    elif check in alg2_checks.CHECKS:
        function, designs = alg2_checks.CHECKS[check]
        paths = iter(smk.input)  # per design, runs then phases
        tables = {d: {"runs": read_results_or_quarantine(next(paths)), "phases": read_results_or_quarantine(next(paths))}
                  for d in designs}
        for p in paths:  # C10: MaxInP
            tables["maxinp"] = read_results_or_quarantine(p)
        out = function(tables, rng, n_boot, scale)
    else:
        raise ValueError(f"unknown dueling check {check!r}")
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):  # the scaling checks draw a figure
        plot_scaling(out.figure, smk.output.pdf, smk.output.png)


run_script(snakemake, main)
