"""Entry point of rule contextual_simulate: one simulation job of the contextual paper."""

from dpbandits.contextual.experiments.designs import simulate_job
from dpbandits.io import write_results


def main(job):
    table = simulate_job(job.wildcards.job, job.config["contextual"], job.config["seed"])
    write_results(table, job.output[0])
