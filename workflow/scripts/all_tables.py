"""Entry point of rule all_tables: every table in one standalone LaTeX document."""

from pathlib import Path

from dpbandits.evidence.claims import PAPER_TITLES
from dpbandits.io import atomic_path
from dpbandits.tables import tables_document


def main(job):
    out = Path(job.output[0])
    by_paper = {}
    for f in job.input:  # reports/tables/<paper>/<name>.tex
        path = Path(f)
        by_paper.setdefault(path.parent.name, []).append(path.relative_to(out.parent).as_posix())
    with atomic_path(out) as tmp:
        tmp.write_text(tables_document(by_paper, PAPER_TITLES, "dpbandits-replication: every table"))
