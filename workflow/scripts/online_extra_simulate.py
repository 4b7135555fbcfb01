"""Entry point of rule online_extra_simulate: one seed block of one Figures 1-2 cell of a
researcher's own algorithm (``online.extra_algorithms``; the rule passes its entry as
``params.extra``)."""

import logging

from dpbandits.online.experiments import figure_designs as exp
from dpbandits.online.interface import ExtraAlgorithm


def main(job):
    w = job.wildcards
    spec = ExtraAlgorithm.from_config(job.params.extra)
    cell = exp.Cell(w.setting, w.algorithm, w.eps, int(w.block), extra=True)
    frame = exp.simulate_extra_block(job.config, spec, cell)
    exp.write_block(frame, exp.figure_checkpoints(job.config), job.output[0])
    logging.info("%s: %d runs, mean final regret %.1f", cell, len(frame), frame.final_regret.mean())
