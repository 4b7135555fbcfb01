"""Entry point of rule contextual_table_simulate: Table 2's methods on one dataset."""

from dpbandits.experiments.contextual import simulate_table
from dpbandits.io import write_results


def main(job):
    table = simulate_table(job.wildcards.dataset, job.config["contextual"], job.config["seed"])
    write_results(table, job.output[0])
