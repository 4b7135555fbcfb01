"""Entry point of the rules <paper>_checks_table: every check of one paper as one LaTeX table
(statistic, 95% CI, criterion, verdict)."""

from dpbandits.evidence.claims import claims_table, combine_claims
from dpbandits.tables import ragged, write_table

TITLES = {
    "online": "Hu, Huang, Mehta and Hegde (online paper)",
    "dueling": "Saha and Asi (DP-Dueling)",
    "quantile": "Nikolakakis, Kalogerias, Sheffet and Sarwate (quantile bandits)",
    "contextual": "Ma, Jiang, Zhao, Yang and Yu (LDP contextual bandits)",
}


def main(job):
    frame = combine_claims(list(job.input))
    write_table(frame, job.output.tex, job.output.csv,
                f"Checks of {TITLES[job.params.paper]}: statistic, 95% CI and verdict",
                f"tab:{job.params.paper}-checks", display=claims_table(frame), align="".join(ragged(w) for w in ("2.5cm", "2.6cm", "1.7cm", "4.6cm", "3.2cm", "4.2cm")) + "ll")
