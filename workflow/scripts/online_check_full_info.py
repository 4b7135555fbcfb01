"""Entry point of the full-information check rules (FT-1 ... FT-8, spec section 6.3)."""

import pandas as pd

from dpbandits.claims import write_claims
from dpbandits.online.full_info_checks import CHECKS
from dpbandits.plotting import plot_scaling
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.wildcards.check
    function, designs = CHECKS[check]
    tables = {d: pd.read_parquet(p) for d, p in zip(designs, smk.input, strict=True)}
    out = function(tables, make_rng(cfg["seed"], "online", "check", check),
                   cfg["online"]["checks"]["bootstrap"], cfg["scale"])
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):  # the scaling checks draw a figure
        plot_scaling(out.figure, smk.output.pdf, smk.output.png)


run_script(snakemake, main)
