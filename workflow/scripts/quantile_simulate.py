"""Entry point of rule quantile_simulate: one design of the quantile paper (all its cells)."""

from dpbandits.experiments.quantile import simulate_design
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_design(smk.wildcards.design, cfg["quantile"], cfg["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
