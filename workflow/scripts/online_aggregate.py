"""Entry point of rule online_aggregate."""

import logging

from dpbandits.io import write_results
from dpbandits.online.experiments import figure_designs as exp


def main(job):
    long, per_run = exp.aggregate_blocks(list(job.input))
    write_results(long, job.output.long)
    write_results(per_run, job.output.runs)
    logging.info("%d blocks -> %d runs, %d rows", len(job.input), len(per_run), len(long))
