"""Entry point of rule dueling_baseline_simulate: one non-private baseline on B8's instances."""

from dpbandits.experiments.dueling import simulate_baseline
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_baseline(smk.wildcards.baseline, cfg["dueling"]["alg1"], cfg["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
