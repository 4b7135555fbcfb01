"""Entry point of rule claims_at_a_glance: the verdict counts per paper as Markdown, and the same
table in README.md between its markers at paper scale (params.readme)."""

import logging
from pathlib import Path

from dpbandits.evidence.claims import combine_claims, render_claims_at_a_glance
from dpbandits.io import atomic_path
from dpbandits.workflow.readme import replace_marked_section


def main(job):
    table = render_claims_at_a_glance(combine_claims([job.input[0]]))
    with atomic_path(job.output[0]) as tmp:
        tmp.write_text(table + "\n")
    readme = Path(job.params.readme) if job.params.readme else None  # paper scale only
    if readme is not None and readme.exists() and replace_marked_section(readme, "claims-at-a-glance", table):
        logging.info("README.md: claims at a glance updated")
