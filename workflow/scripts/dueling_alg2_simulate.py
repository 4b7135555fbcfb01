"""Entry point of rule dueling_alg2_simulate: one Algorithm 2 design (runs and phases tables)."""

from dpbandits.dueling.experiments.designs import simulate_alg2
from dpbandits.io import write_results


def main(job):
    cfg = job.config
    runs, phases = simulate_alg2(job.wildcards.design, cfg["dueling"]["alg2"], cfg["seed"])
    write_results(runs, job.output.runs)
    write_results(phases, job.output.phases)
