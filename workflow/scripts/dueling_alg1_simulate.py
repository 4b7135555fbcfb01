"""Entry point of rule dueling_alg1_simulate: one Algorithm 1 design, one variant."""

from dpbandits.dueling.experiments.designs import simulate_alg1
from dpbandits.io import write_results


def main(job):
    cfg, wc = job.config, job.wildcards
    table = simulate_alg1(wc.design, wc.variant, cfg["dueling"]["alg1"], cfg["seed"])
    write_results(table, job.output[0])
