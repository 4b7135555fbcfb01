"""Entry point of rule online_full_info_simulate: one design of the full-information checks."""

from dpbandits.experiments.online_full_info import simulate_design
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    table = simulate_design(smk.wildcards.design, cfg["online"]["full_info"], cfg["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
