"""Entry point of the figure rules of the quantile paper (quantile_fig1_gap_curves, ...):
dispatches on ``params.figure``; reads the design tables named by the rule."""

from dpbandits.io import read_results_or_quarantine
from dpbandits.quantile.experiments import figures
from dpbandits.rng import make_rng


def main(job):
    cfg, name = job.config, job.params.figure
    rng = make_rng(cfg["seed"], "quantile", "figure", name)
    tables = [read_results_or_quarantine(p) for p in job.input]
    out = (job.output.pdf, job.output.png)
    if name == "fig1":
        figures.plot_fig1(*out)
    elif name == "fig2":
        figures.plot_fig2(tables[0], *out, rng)
    elif name == "fig3":
        figures.plot_fig3(tables[0], tables[1], *out, rng)
    elif name == "fig4":
        figures.plot_fig4(*tables, *out, rng)
    else:
        raise ValueError(f"unknown quantile figure {name!r}")
