"""The simulation designs of the online paper (:class:`dpbandits.records.Simulation`), one rule
each (``workflow/rules/simulations.smk``). Figures 1-2 and the final-regret table are drawn by
``workflow/rules/online.smk`` (they depend on the config's settings and draw the researcher's own
algorithms of ``online.extra_algorithms`` beside the paper's), so ``FIGURES`` is empty."""

from __future__ import annotations

from dpbandits.records import Simulation

PAPER = "online"
EXP = "dpbandits.online.experiments"

SIMULATIONS = [
    Simulation(PAPER, "figures", "online_simulate", f"{EXP}.figure_designs:run_block",
               {"table": "sim/online/figures/{setting}/{algorithm}/eps{eps}/block{block}.parquet"},
               "simulate/seed{seed}/{setting}_{algorithm}_eps{eps}_block{block}.log",
               config=("online.figures.runs", "online.figures.runs_per_job", "online.figures.horizon",
                       "online.figures.checkpoints", "online.figures.adap_alpha",
                       "online.figures.settings.{setting}.means"),
               mem_mb=1000, runtime=20,
               title="One seed block of one cell of the Figures 1-2 grid (fast engines)."),
    Simulation(PAPER, "full_info", "online_full_info_simulate", f"{EXP}.full_info_designs:run_design",
               {"table": "sim/online/full_info/{design}.parquet"}, "full_info/seed{seed}/{design}.log",
               config=("online.full_info",), mem_mb=4000, runtime=30,
               title="One design of the full-information checks: RNM-FTNL / naive FTNL, epoch engine."),
    Simulation(PAPER, "bandit", "online_bandit_simulate", f"{EXP}.bandit_designs:run_design",
               {"table": "sim/online/bandit/{design}/{algorithm}.parquet"},
               "bandit/seed{seed}/{design}_{algorithm}.log", config=("online.bandit",), mem_mb=2000, runtime=60,
               title="One design of the bandit theory checks for one algorithm (fast engines)."),
]

FIGURES: list = []
