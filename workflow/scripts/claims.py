"""Entry point of rule claims: union of per-check claim rows -> reports/claims.csv and .md."""

from pathlib import Path

from dpbandits.claims import combine_claims, render_claims_markdown
from dpbandits.io import atomic_path
from dpbandits.tables import CSV_FLOAT


def main(job):
    frame = combine_claims(list(job.input))
    with atomic_path(job.output.csv) as tmp:
        frame.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    with atomic_path(job.output.md) as tmp:
        Path(tmp).write_text(render_claims_markdown(frame))
