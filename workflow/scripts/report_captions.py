"""Entry point of rule report_captions: the report's captions with each run's verdicts."""

import shutil
from pathlib import Path

import pandas as pd

from dpbandits.workflow.captions import render_captions


def main(job):
    out = Path(job.output[0])
    tmp = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    templates = Path(job.input.templates[0]).parents[1]  # workflow/report
    render_captions(templates, pd.read_csv(job.input.claims, dtype={"check_id": str}), tmp)
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
