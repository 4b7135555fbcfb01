"""Entry point of rule quantile_simulate: one design of the quantile paper (all its cells)."""

from dpbandits.io import write_results
from dpbandits.quantile.experiments.designs import simulate_design


def main(job):
    cfg = job.config
    table = simulate_design(job.wildcards.design, cfg["quantile"], cfg["seed"])
    write_results(table, job.output[0])
