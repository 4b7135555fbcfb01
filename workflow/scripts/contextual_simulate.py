"""Entry point of rule contextual_simulate: one simulation job of the contextual paper."""

from dpbandits.experiments.contextual import simulate_job
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    table = simulate_job(smk.wildcards.job, smk.config["contextual"], smk.config["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
