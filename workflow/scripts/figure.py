"""Entry point of every figure and table rule of the papers' figure records
(``dpbandits.records.Figure``; see ``workflow/rules/figures.smk``): runs the function of the
record named by ``params.paper`` / ``params.figure``, which draws or writes the job's outputs."""

from dpbandits.records import get_figure


def main(job):
    get_figure(job.params.paper, job.params.figure).load()(job)
