"""Entry point of rule online_bandit_simulate: one design of the bandit checks, one algorithm."""

from dpbandits.experiments.online_bandit import simulate_design
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    cfg, wc = smk.config, smk.wildcards
    table = simulate_design(wc.design, wc.algorithm, cfg["online"]["bandit"], cfg["seed"])
    write_results(table, smk.output[0])


run_script(snakemake, main)
