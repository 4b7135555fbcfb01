"""Entry point of rule online_final_regret_table (with the researcher's own algorithms, if any)."""


from dpbandits.io import read_results_or_quarantine
from dpbandits.online.experiments.figures import final_regret_table
from dpbandits.rng import make_rng


def main(job):
    cfg = job.config
    rng = make_rng(cfg["seed"], "online", "table", "final_regret")
    final_regret_table(read_results_or_quarantine(job.input.runs), cfg["online"]["figures"]["horizon"],
                       job.output.tex, job.output.csv, rng, cfg["online"]["checks"]["bootstrap"],
                       extra_runs=read_results_or_quarantine(job.input.extra_runs),
                       extra_labels=job.params.extra_labels)
