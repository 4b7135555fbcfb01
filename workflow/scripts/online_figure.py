"""Entry point of rule online_figure (Figure 1 or 2 of the online paper)."""


from dpbandits.io import read_results_or_quarantine
from dpbandits.online.figures import plot_setting
from dpbandits.sim.checkpoints import checkpoint_grid
from dpbandits.workflow import run_script


def main(smk):
    fig = smk.config["online"]["figures"]
    setting = smk.params.setting
    long = read_results_or_quarantine(smk.input.long)
    linear = checkpoint_grid(fig["horizon"], 0, fig["checkpoints"]["linear"])
    means = fig["settings"][setting]["means"]
    plot_setting(long, setting, means, smk.output.pdf, smk.output.png, linear_grid=linear)
    plot_setting(long, setting, means, smk.output.pdf_logx, smk.output.png_logx, log_x=True)


run_script(snakemake, main)
