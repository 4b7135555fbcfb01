"""Entry point of rule online_aggregate."""

import logging

from dpbandits.experiments import online as exp
from dpbandits.io import write_results
from dpbandits.workflow import run_script


def main(smk):
    long, per_run = exp.aggregate_blocks(list(smk.input))
    write_results(long, smk.output.long)
    write_results(per_run, smk.output.runs)
    logging.info("%d blocks -> %d runs, %d rows", len(smk.input), len(per_run), len(long))


run_script(snakemake, main)
