"""Entry point of rule online_final_regret_table."""


from dpbandits.io import read_results_or_quarantine
from dpbandits.online.figures import final_regret_table
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    rng = make_rng(cfg["seed"], "online", "table", "final_regret")
    final_regret_table(read_results_or_quarantine(smk.input.runs), cfg["online"]["figures"]["horizon"],
                       smk.output.tex, smk.output.csv, rng, cfg["online"]["checks"]["bootstrap"])


run_script(snakemake, main)
