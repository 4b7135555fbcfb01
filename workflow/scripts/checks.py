"""Entry point of rule checks: union of per-check rows -> reports/checks.csv and .md, with the
stability column from the last stability sweep when there is one."""

from pathlib import Path

from dpbandits.evidence.claims import combine_claims, render_checks_markdown
from dpbandits.evidence.stability import read_sweep, stability_column
from dpbandits.io import atomic_path
from dpbandits.tables import CSV_FLOAT


def main(job):
    frame = combine_claims(list(job.input.claims))
    if job.params.stability:  # the sweep's table (a param: the sweep is not part of the default DAG)
        frame["stability"] = stability_column(frame, read_sweep(job.params.stability["table"]), int(job.config["seed"]))
    with atomic_path(job.output.csv) as tmp:
        frame.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    with atomic_path(job.output.md) as tmp:
        Path(tmp).write_text(render_checks_markdown(frame))
