"""Entry point of the rules <check rule>_figure: draw a check's scaling figure from the data its
check wrote (points with CIs, fitted and theoretical slopes)."""

from dpbandits.evidence.checks import read_figure_data
from dpbandits.plotting import plot_scaling


def main(job):
    plot_scaling(read_figure_data(job.input[0]), job.output.pdf, job.output.png)
