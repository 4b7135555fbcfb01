"""Entry point of rule online_full_info_simulate: one design of the full-information checks."""

from dpbandits.experiments.online_full_info import simulate_design
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_design(smk.wildcards.design, cfg["online"]["full_info"], cfg["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
