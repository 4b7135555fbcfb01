"""Entry point of rule contextual_table_simulate: Table 2's methods on one dataset."""

from dpbandits.experiments.contextual import simulate_table
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    table = simulate_table(smk.wildcards.dataset, smk.config["contextual"], smk.config["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
