"""Entry point of rule online_simulate: one seed block of one Figures 1-2 cell."""

import logging

from dpbandits.online.experiments import figure_designs as exp


def main(job):
    w = job.wildcards
    cell = exp.Cell(w.setting, w.algorithm, w.eps, int(w.block))
    frame = exp.simulate_block(job.config, cell)
    exp.write_block(frame, exp.figure_checkpoints(job.config), job.output[0])
    logging.info("%s: %d runs, mean final regret %.1f", cell, len(frame), frame.final_regret.mean())
