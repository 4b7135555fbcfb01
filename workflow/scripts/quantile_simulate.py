"""Entry point of rule quantile_simulate: one design of the quantile paper (all its cells)."""

from dpbandits.experiments.quantile import simulate_design
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_design(smk.wildcards.design, cfg["quantile"], cfg["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
