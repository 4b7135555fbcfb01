"""Entry point of rule dueling_alg2_simulate: one Algorithm 2 design (runs and phases tables)."""

from dpbandits.experiments.dueling import simulate_alg2
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    runs, phases = simulate_alg2(smk.wildcards.design, cfg["dueling"]["alg2"], cfg["seed"])
    with atomic_path(smk.output.runs) as tmp:
        runs.to_parquet(tmp, index=False)
    with atomic_path(smk.output.phases) as tmp:
        phases.to_parquet(tmp, index=False)


run_script(snakemake, main)
