"""Entry point of rules contextual_table1_datasets and contextual_table2_reward_ratio."""

import pandas as pd

from dpbandits.contextual import figures
from dpbandits.contextual.figure_checks import reward_ratios
from dpbandits.io import read_results_or_quarantine


def main(job):
    t = pd.concat([read_results_or_quarantine(p) for p in job.input], ignore_index=True)
    if job.params.table == "table1":
        cols = ["dataset", "n_target", "M", "max_n_aux", "total_n_aux", "K", "d", "origin"]
        shapes = t[cols].drop_duplicates("dataset").to_dict(orient="records")
        figures.table1(shapes, job.output.tex, job.output.csv)
    else:
        origin = ", ".join(sorted(t["origin"].unique()))
        figures.table2(reward_ratios(t), job.output.tex, job.output.csv, origin)
