"""Entry point of the rules online_checks_table and dueling_checks_table: every check of one paper
as one LaTeX table (statistic, 95% CI, criterion, verdict)."""

from dpbandits.claims import claims_table, combine_claims
from dpbandits.tables import ragged, write_table
from dpbandits.workflow import run_script


def main(smk):
    frame = combine_claims(list(smk.input))
    write_table(frame, smk.output.tex, smk.output.csv,
                f"Checks of {smk.params.title}: statistic, 95% CI and verdict",
                f"tab:{smk.params.paper}-checks", display=claims_table(frame), align="".join(ragged(w) for w in ("2.5cm", "2.6cm", "1.7cm", "4.6cm", "3.2cm", "4.2cm")) + "l")


run_script(snakemake, main)
