"""Entry point of rule online_aggregate."""

import logging

from dpbandits.experiments import online as exp
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script


def main(smk):
    long, per_run = exp.aggregate_blocks(list(smk.input))
    with atomic_path(smk.output.long) as tmp:
        long.to_parquet(tmp, index=False)
    with atomic_path(smk.output.runs) as tmp:
        per_run.to_parquet(tmp, index=False)
    logging.info("%d blocks -> %d runs, %d rows", len(smk.input), len(per_run), len(long))


run_script(snakemake, main)
