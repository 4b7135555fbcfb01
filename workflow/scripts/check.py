"""Entry point of every check rule of the four papers (rules from the one registry,
``dpbandits.evidence.registry``; see ``workflow/rules/checks.job``): runs the check named by
``params.paper`` / ``params.check`` and writes its claim rows, and the data of its scaling figure
or informational table when it has one."""

import logging

from dpbandits.evidence import registry
from dpbandits.evidence.checks import CheckOutput, write_figure_data
from dpbandits.evidence.claims import write_claim_rows
from dpbandits.evidence.evaluation import run_check


def main(job):
    spec = registry.get(job.params.paper, job.params.check)
    out = run_check(spec, job.config, list(job.input))
    write_claim_rows(out.claims, job.output.claims)
    if spec.figure:
        write_figure_data(out.figure, job.output.figure)
    if spec.table is not None:
        from dpbandits.io import write_results

        write_results(out.table, job.output.table)
    logging.info("%s %s: %s", spec.paper, spec.id,
                 ", ".join(f"{c.check_id} {c.verdict}" for c in out.claims))
    assert isinstance(out, CheckOutput)
