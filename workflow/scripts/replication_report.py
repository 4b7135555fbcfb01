"""Entry point of rule replication_report: one paper's replication report (Markdown), rendered
from the run's claims, claims counted apart and check rows (dpbandits.evidence.replication); the
paper's checks (id, rule, title) come from the workflow's registry as a parameter; its deviations,
open constants and what was easy and hard from dpbandits.<paper>.checks.replication."""

from pathlib import Path

import pandas as pd
import yaml

from dpbandits.evidence.claims import PAPER_TITLES
from dpbandits.evidence.replication import load_replication_notes, render_replication_report
from dpbandits.io import atomic_path


def main(job):
    paper = job.wildcards.paper
    claims, apart, checks = (pd.read_csv(p, dtype=str, keep_default_na=False)
                             for p in (job.input.claims, job.input.apart, job.input.checks))
    figures = sorted(Path(f).stem for f in job.input.figures if str(f).endswith(".png"))
    tables = sorted(Path(f).stem for f in job.input.tables if str(f).endswith(".csv"))
    checks_of = [tuple(c) for c in job.params.checks]  # (id, rule, what it reproduces) of the paper's checks
    cfg = job.config
    text = render_replication_report(
        paper, PAPER_TITLES[paper], claims, apart, checks, figures,
        yaml.safe_dump(dict(cfg[paper]), sort_keys=False, default_flow_style=None, width=100), cfg["scale"], cfg["seed"],
        [cfg["seed"], *cfg["stability"]["seeds"]], checks_of, Path(job.input.design).read_text(), tables,
        load_replication_notes(paper))
    with atomic_path(job.output[0]) as tmp:
        tmp.write_text(text + "\n")
