"""Entry point of rule claims: the claims of the papers judged from the check rows by each
paper's claim inventory (dpbandits.<paper>.checks.claims) and the stability sweep's per-seed
verdicts -> reports/claims.csv (one row per claim), claims_apart.csv (the check rows that are not
a claim of the paper) and claims.md."""

from pathlib import Path

import pandas as pd

from dpbandits.evidence.claims import PAPER_TITLES
from dpbandits.evidence.inventory import judge_claims, render_claims_markdown
from dpbandits.evidence.stability import read_sweep
from dpbandits.io import atomic_path


def main(job):
    checks = pd.read_csv(job.input.checks, dtype=str, keep_default_na=False)
    sweep = read_sweep(job.params.stability["table"]) if job.params.stability else None
    claims, apart = judge_claims(checks, sweep)
    for frame, path in ((claims, job.output.csv), (apart, job.output.apart)):
        with atomic_path(path) as tmp:
            frame.to_csv(tmp, index=False)
    with atomic_path(job.output.md) as tmp:
        Path(tmp).write_text(render_claims_markdown(claims, apart, PAPER_TITLES, job.config["scale"]))
