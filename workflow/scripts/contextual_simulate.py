"""Entry point of rule contextual_simulate: one simulation job of the contextual paper."""

from dpbandits.experiments.contextual import simulate_job
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    table = simulate_job(smk.wildcards.job, smk.config["contextual"], smk.config["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
