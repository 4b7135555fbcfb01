"""Entry point of rule claims: union of per-check claim rows -> reports/claims.csv and .md."""

from pathlib import Path

from dpbandits.claims import combine_claims, render_claims_markdown
from dpbandits.io import atomic_path
from dpbandits.workflow import run_script

TITLES = {
    "online": "Hu, Huang, Mehta & Hegde, near-optimal algorithms for DP online learning",
    "dueling": "Saha & Asi, DP-Dueling: learning from preference feedback without compromising user privacy",
    "contextual": "Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits with transfer learning",
}


def main(smk):
    frame = combine_claims(list(smk.input))
    with atomic_path(smk.output.csv) as tmp:
        frame.to_csv(tmp, index=False)
    with atomic_path(smk.output.md) as tmp:
        Path(tmp).write_text(render_claims_markdown(frame, TITLES))


run_script(snakemake, main)
