"""Entry point of rules contextual_table1_datasets and contextual_table2_reward_ratio."""

import pandas as pd

from dpbandits.contextual import figures
from dpbandits.contextual.figure_checks import reward_ratios
from dpbandits.io import read_results_or_quarantine
from dpbandits.workflow import run_script


def main(smk):
    t = pd.concat([read_results_or_quarantine(p) for p in smk.input], ignore_index=True)
    if smk.params.table == "table1":
        cols = ["dataset", "n_target", "M", "max_n_aux", "total_n_aux", "K", "d", "origin"]
        shapes = t[cols].drop_duplicates("dataset").to_dict(orient="records")
        figures.table1(shapes, smk.output.tex, smk.output.csv)
    else:
        origin = ", ".join(sorted(t["origin"].unique()))
        figures.table2(reward_ratios(t), smk.output.tex, smk.output.csv, origin)


run_script(snakemake, main)
