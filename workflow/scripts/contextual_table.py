"""Entry point of rules contextual_table1_datasets and contextual_table2_reward_ratio."""

import pandas as pd

from dpbandits.contextual.checks.figures import reward_ratios
from dpbandits.contextual.experiments import figures
from dpbandits.io import read_results_or_quarantine

SHAPE = ["dataset", "n_target", "M", "max_n_aux", "total_n_aux", "K", "d", "origin"]
PROVENANCE = ["data_used", "data_source", "data_sha256", "rows_read", "rows_complete", "rows_target_full"]


def main(job):
    t = pd.concat([read_results_or_quarantine(p) for p in job.input], ignore_index=True)
    for col in PROVENANCE:  # tables simulated before provenance columns existed
        if col not in t:
            t[col] = t["origin"] if col == "data_used" else float("nan") if col.startswith("rows") else ""
    shapes = t[SHAPE + PROVENANCE].drop_duplicates("dataset").to_dict(orient="records")
    if job.params.table == "table1":
        figures.table1(shapes, job.output.tex, job.output.csv)
    else:
        origin = "; ".join(f"{s['dataset']}: {s['data_used']}" for s in shapes)
        figures.table2(reward_ratios(t), job.output.tex, job.output.csv, origin)
