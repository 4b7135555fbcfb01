"""Entry point of rule claims: union of per-check claim rows -> reports/claims.csv and .md, with
the stability column from the last stability sweep when there is one."""

from pathlib import Path

import pandas as pd

from dpbandits.evidence.claims import combine_claims, render_claims_markdown
from dpbandits.evidence.stability import stability_column
from dpbandits.io import atomic_path
from dpbandits.tables import CSV_FLOAT


def main(job):
    frame = combine_claims(list(job.input.claims))
    if job.params.stability:  # the sweep's table (a param: the sweep is not part of the default DAG)
        sweep = pd.read_csv(job.params.stability["table"], dtype={"check_id": str, "reason": str}, keep_default_na=False,
                            na_values={"value": [""], "ci_low": [""], "ci_high": [""]})
        frame["stability"] = stability_column(frame, sweep, int(job.config["seed"]))
    with atomic_path(job.output.csv) as tmp:
        frame.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    with atomic_path(job.output.md) as tmp:
        Path(tmp).write_text(render_claims_markdown(frame))
