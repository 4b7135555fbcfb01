"""Entry point of rule online_full_info_simulate: one design of the full-information checks."""

from dpbandits.io import write_results
from dpbandits.online.experiments.full_info_designs import simulate_design


def main(job):
    cfg = job.config
    table = simulate_design(job.wildcards.design, cfg["online"]["full_info"], cfg["seed"])
    write_results(table, job.output[0])
