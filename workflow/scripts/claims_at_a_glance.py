"""Entry point of rule claims_at_a_glance: the verdict counts per paper as Markdown, and the same
table in README.md between its markers when the workflow runs in the repository."""

import logging
from pathlib import Path

from dpbandits.claims import combine_claims, render_claims_at_a_glance
from dpbandits.io import atomic_path
from dpbandits.readme import replace_marked_section
from dpbandits.workflow import run_script


def main(smk):
    table = render_claims_at_a_glance(combine_claims([smk.input[0]]))
    with atomic_path(smk.output[0]) as tmp:
        tmp.write_text(table + "\n")
    readme = Path("README.md")
    if readme.exists() and replace_marked_section(readme, "claims-at-a-glance", table):
        logging.info("README.md: claims at a glance updated")


run_script(snakemake, main)
