"""Entry point of rule contextual_table_simulate: Table 2's methods on one dataset."""

from dpbandits.experiments.contextual import simulate_table
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    table = simulate_table(smk.wildcards.dataset, smk.config["contextual"], smk.config["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
