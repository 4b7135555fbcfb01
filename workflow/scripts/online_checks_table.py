"""Entry point of rule online_checks_table: every check of the online paper as one LaTeX table."""

from dpbandits.claims import claims_table, combine_claims
from dpbandits.tables import write_table
from dpbandits.workflow import run_script


def main(smk):
    frame = combine_claims(list(smk.input))
    write_table(frame, smk.output.tex, smk.output.csv,
                "Checks of Hu, Huang, Mehta and Hegde (online paper): statistic, 95% CI and verdict",
                "tab:online-checks", display=claims_table(frame), align="lllp{4cm}lp{3cm}l")


run_script(snakemake, main)
