"""Entry point of rule dueling_maxinp_simulate: MaxInP on the practice design's instances (C10)."""

from dpbandits.dueling.experiments.designs import simulate_maxinp_baseline
from dpbandits.io import write_results


def main(job):
    cfg = job.config
    table = simulate_maxinp_baseline(cfg["dueling"]["alg2"], cfg["seed"])
    write_results(table, job.output[0])
