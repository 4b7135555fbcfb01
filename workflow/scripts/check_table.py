"""Entry point of the rules <check rule>_table: render the informational table a check wrote
(CSV of the raw numbers, LaTeX of its display form)."""

from dpbandits.evidence import registry
from dpbandits.io import read_results_or_quarantine
from dpbandits.tables import display_form, write_table


def main(job):
    spec = registry.get(job.params.paper, job.params.check).table
    table = read_results_or_quarantine(job.input[0])
    write_table(table, job.output.tex, job.output.csv, spec.caption, spec.label, display=display_form(table, spec))
