"""Entry point of rule online_simulate: one seed block of one Figures 1-2 cell."""

import logging

from dpbandits.experiments import online as exp
from dpbandits.workflow import run_script


def main(smk):
    w = smk.wildcards
    cell = exp.Cell(w.setting, w.algorithm, w.eps, int(w.block))
    frame = exp.simulate_block(smk.config, cell)
    exp.write_block(frame, exp.figure_checkpoints(smk.config), smk.output[0])
    logging.info("%s: %d runs, mean final regret %.1f", cell, len(frame), frame.final_regret.mean())


run_script(snakemake, main)
