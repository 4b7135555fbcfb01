"""Entry point of rule verdict_stability: check x root seed table of the stability sweep."""

import logging

from dpbandits.evidence.stability import sweep_table
from dpbandits.io import atomic_path
from dpbandits.tables import CSV_FLOAT


def main(job):
    table = sweep_table(list(job.input), list(job.params.seeds))
    with atomic_path(job.output[0]) as tmp:
        table.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    flips = table.groupby(["paper", "check_id"])["verdict"].nunique().gt(1).sum()
    logging.info("%d rows x %d seeds; %d rows change verdict across seeds", table[["paper", "check_id"]]
                 .drop_duplicates().shape[0], len(job.params.seeds), flips)
