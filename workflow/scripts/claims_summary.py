"""Entry point of the rules claims_summary_<paper>: the paper's claims by type and verdict, the
figure atop its replication report (dpbandits.evidence.replication.plot_claims_summary)."""

import pandas as pd

from dpbandits.evidence.claims import PAPER_TITLES
from dpbandits.evidence.replication import plot_claims_summary


def main(job):
    paper = job.params.paper
    claims = pd.read_csv(job.input[0], dtype=str, keep_default_na=False)
    plot_claims_summary(claims, paper, PAPER_TITLES[paper], job.output.pdf, job.output.png)
