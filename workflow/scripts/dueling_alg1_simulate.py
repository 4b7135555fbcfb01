"""Entry point of rule dueling_alg1_simulate: one Algorithm 1 design, one variant."""

from dpbandits.experiments.dueling import simulate_alg1
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg, wc = smk.config, smk.wildcards
    table = simulate_alg1(wc.design, wc.variant, cfg["dueling"]["alg1"], cfg["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
