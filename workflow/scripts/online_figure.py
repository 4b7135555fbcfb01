"""Entry point of rule online_figure (Figure 1 or 2 of the online paper), with the researcher's
own algorithms (``params.extra_labels``) when the config names any."""

import pandas as pd

from dpbandits.io import read_results_or_quarantine
from dpbandits.online.experiments.figures import plot_setting
from dpbandits.sim.checkpoints import checkpoint_grid


def main(job):
    fig = job.config["online"]["figures"]
    setting = job.params.setting
    long = read_results_or_quarantine(job.input.long)
    extra = read_results_or_quarantine(job.input.extra)
    if len(extra):
        long = pd.concat([long, extra], ignore_index=True)
    labels = job.params.extra_labels
    linear = checkpoint_grid(fig["horizon"], 0, fig["checkpoints"]["linear"])
    means = fig["settings"][setting]["means"]
    plot_setting(long, setting, means, job.output.pdf, job.output.png, linear_grid=linear,
                 extra_labels=labels)
    plot_setting(long, setting, means, job.output.pdf_logx, job.output.png_logx, log_x=True,
                 extra_labels=labels)
