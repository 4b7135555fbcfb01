"""Entry point of rule replication_report_pdf: one paper's Markdown replication report typeset by
pdflatex, its figures embedded (dpbandits.workflow.pdf_report)."""

from dpbandits.workflow.pdf_report import write_replication_pdf


def main(job):
    write_replication_pdf(job.input.report, job.output[0])
