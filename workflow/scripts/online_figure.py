"""Entry point of rule online_figure (Figure 1 or 2 of the online paper)."""


from dpbandits.io import read_results_or_quarantine
from dpbandits.online.figures import plot_setting
from dpbandits.sim.checkpoints import checkpoint_grid


def main(job):
    fig = job.config["online"]["figures"]
    setting = job.params.setting
    long = read_results_or_quarantine(job.input.long)
    linear = checkpoint_grid(fig["horizon"], 0, fig["checkpoints"]["linear"])
    means = fig["settings"][setting]["means"]
    plot_setting(long, setting, means, job.output.pdf, job.output.png, linear_grid=linear)
    plot_setting(long, setting, means, job.output.pdf_logx, job.output.png_logx, log_x=True)
