"""Entry point of rule dueling_baseline_simulate: one non-private baseline on B8's instances."""

from dpbandits.experiments.dueling import simulate_baseline
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_baseline(smk.wildcards.baseline, cfg["dueling"]["alg1"], cfg["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
