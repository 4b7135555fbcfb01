"""Entry point of the figure rules of the contextual paper (contextual_fig3_partition ...
contextual_presets_comparison): dispatches on ``params.figure``."""

import pandas as pd

from dpbandits.contextual.checks.beyond import fig7_beyond_horizon
from dpbandits.contextual.experiments import figures
from dpbandits.contextual.experiments.designs import AUTHORS_FIG7A, partition_example
from dpbandits.io import read_results_or_quarantine


def _read(paths):
    paths = [paths] if isinstance(paths, str) else list(paths)
    return pd.concat([read_results_or_quarantine(p) for p in paths], ignore_index=True)


def main(job):
    name, out = job.params.figure, job.output
    inp = job.input
    if name == "fig3":
        leaves, title = partition_example(job.config["contextual"], job.config["seed"])
        figures.fig3_partition(leaves, out.pdf, out.png, title)
    elif name == "fig4":
        figures.fig4_rewards(out.pdf, out.png)
    elif name == "fig5":
        figures.fig5_density(out.pdf, out.png)
    elif name in ("fig6", "fig6_code"):
        figures.fig6_learning(_read(inp), "primary" if name == "fig6" else "authors_code", out.pdf, out.png)
    elif name == "fig7":
        figures.fig7_regret_vs_n(_read(inp), out.pdf, out.png)
    elif name == "fig7_code":
        figures.fig7_authors_code(_read(inp), AUTHORS_FIG7A, out.pdf, out.png)
    elif name == "fig8":
        figures.fig8_aux_size(_read(inp), out.pdf, out.png)
    elif name == "fig9a":
        figures.fig9a_kappa(_read(inp), out.pdf, out.png)
    elif name == "fig9b":
        figures.fig9b_gamma(_read(inp), out.pdf, out.png)
    elif name == "fig9c":
        figures.fig9c_order(_read(inp), out.pdf, out.png)
    elif name == "fig7_beyond":
        fig7_beyond_horizon(_read(inp), out.pdf, out.png)
    elif name == "presets":
        figures.presets_comparison(_read(inp.fig7), _read(inp.code), _read(inp.presets), out.pdf, out.png)
    else:
        raise ValueError(f"unknown contextual figure {name!r}")
