"""Entry point of rule dueling_alg2_simulate: one Algorithm 2 design (runs and phases tables)."""

from dpbandits.experiments.dueling import simulate_alg2
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    runs, phases = simulate_alg2(smk.wildcards.design, cfg["dueling"]["alg2"], cfg["seed"])
    write_results(runs, smk.output.runs)
    write_results(phases, smk.output.phases)


run_script(snakemake, main)
