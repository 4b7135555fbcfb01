"""Entry point of rule explore_notebook: execute workflow/notebooks/explore.ipynb on this run and
render it to HTML."""

from dpbandits.notebook import execute_notebook
from dpbandits.workflow import run_script


def main(smk):
    execute_notebook(smk.input.notebook, smk.output[0], {"REPORTS": "reports", "RESULTS": "results"})


run_script(snakemake, main)
