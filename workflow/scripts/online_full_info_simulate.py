"""Entry point of rule online_full_info_simulate: one design of the full-information checks."""

from dpbandits.experiments.online_full_info import simulate_design
from dpbandits.io import write_results


def main(job):
    cfg = job.config
    table = simulate_design(job.wildcards.design, cfg["online"]["full_info"], cfg["seed"])
    write_results(table, job.output[0])
