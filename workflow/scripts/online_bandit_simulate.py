"""Entry point of rule online_bandit_simulate: one design of the bandit checks, one algorithm."""

from dpbandits.io import write_results
from dpbandits.online.experiments.bandit_designs import simulate_design


def main(job):
    cfg, wc = job.config, job.wildcards
    table = simulate_design(wc.design, wc.algorithm, cfg["online"]["bandit"], cfg["seed"])
    write_results(table, job.output[0])
