"""Entry point of rule claims_at_a_glance: the claims of each paper counted by verdict, as
Markdown, each paper linking its replication report, and the same table in README.md between its
markers at paper scale (params.readme)."""

import logging
from pathlib import Path

import pandas as pd

from dpbandits.evidence.claims import PAPER_TITLES
from dpbandits.evidence.inventory import render_claims_at_a_glance
from dpbandits.io import atomic_path
from dpbandits.workflow.readme import replace_marked_section


def main(job):
    claims, apart = (pd.read_csv(p, dtype=str, keep_default_na=False) for p in (job.input.claims, job.input.apart))
    # links to each paper's replication report, relative to the repository root (the README): the
    # reports folder is the one this table is written to
    reports = Path(job.output[0]).parent.as_posix()
    table = render_claims_at_a_glance(claims, apart, PAPER_TITLES, job.config["scale"], reports)
    with atomic_path(job.output[0]) as tmp:
        tmp.write_text(table + "\n")
    readme = Path(job.params.readme) if job.params.readme else None  # paper scale only
    if readme is not None and readme.exists() and replace_marked_section(readme, "claims-at-a-glance", table):
        logging.info("README.md: claims at a glance updated")
