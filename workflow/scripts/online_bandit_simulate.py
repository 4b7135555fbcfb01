"""Entry point of rule online_bandit_simulate: one design of the bandit checks, one algorithm."""

from dpbandits.experiments.online_bandit import simulate_design
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    cfg, wc = smk.config, smk.wildcards
    table = simulate_design(wc.design, wc.algorithm, cfg["online"]["bandit"], cfg["seed"])
    with atomic_path(smk.output[0]) as tmp:
        table.to_parquet(tmp, index=False)


run_script(snakemake, main)
