"""Entry point of rule explore_notebook: execute workflow/notebooks/explore.ipynb on this run and
render it to HTML."""

from dpbandits.workflow.notebook import execute_notebook


def main(job):
    execute_notebook(job.input.notebook, job.output[0], dict(job.params.roots))
