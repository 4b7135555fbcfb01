"""Entry point of rule dueling_baseline_simulate: one non-private baseline on B8's instances."""

from dpbandits.dueling.experiments.designs import simulate_baseline
from dpbandits.io import write_results


def main(job):
    cfg = job.config
    table = simulate_baseline(job.wildcards.baseline, cfg["dueling"]["alg1"], cfg["seed"])
    write_results(table, job.output[0])
