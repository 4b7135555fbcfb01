"""Entry point of rule contextual_beyond_simulate: one job of the beyond-horizon grid (issue 19)."""

from dpbandits.contextual.experiments.beyond_designs import simulate_beyond
from dpbandits.io import write_results


def main(job):
    table = simulate_beyond(job.wildcards.beyond, job.config["contextual"], job.config["seed"])
    write_results(table, job.output[0])
