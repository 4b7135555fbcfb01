"""Entry point of every simulation rule (rules from the papers' simulation records,
``dpbandits.records.Simulation``; see ``workflow/rules/simulations.smk``): runs the function of
the record named by ``params.paper`` / ``params.simulation``, which writes the job's outputs."""

from dpbandits.records import get_simulation


def main(job):
    get_simulation(job.params.paper, job.params.simulation).load()(job)
