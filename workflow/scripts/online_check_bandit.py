"""Entry point of the bandit theory check rules (BT-1 ... BT-8, spec section 6.2)."""

import pandas as pd

from dpbandits.claims import write_claims
from dpbandits.experiments.online_bandit import ALGORITHMS
from dpbandits.online import bandit_checks
from dpbandits.plotting import plot_scaling
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.params.check
    scale, checks = cfg["scale"], cfg["online"]["checks"]
    if check == "BT-8":
        out = bandit_checks.check_bt8(pd.read_parquet(smk.input.runs), scale, checks["alpha"])
    else:
        function, designs = bandit_checks.CHECKS[check]
        paths = iter(smk.input)
        tables = {d: pd.concat([pd.read_parquet(next(paths)) for _ in ALGORITHMS], ignore_index=True)
                  for d in designs}
        out = function(tables, make_rng(cfg["seed"], "online", "check", check), checks["bootstrap"],
                       scale)
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):  # the scaling checks draw a figure
        plot_scaling(out.figure, smk.output.pdf, smk.output.png)


run_script(snakemake, main)
