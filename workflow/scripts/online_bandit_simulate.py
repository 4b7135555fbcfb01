"""Entry point of rule online_bandit_simulate: one design of the bandit checks, one algorithm."""

from dpbandits.experiments.online_bandit import simulate_design
from dpbandits.io import write_results


def main(job):
    cfg, wc = job.config, job.wildcards
    table = simulate_design(wc.design, wc.algorithm, cfg["online"]["bandit"], cfg["seed"])
    write_results(table, job.output[0])
