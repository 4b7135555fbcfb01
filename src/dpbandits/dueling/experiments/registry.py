"""The simulation designs of the dueling paper (:class:`dpbandits.records.Simulation`), one rule
each (``workflow/rules/simulations.smk``). The paper has no figures or tables of its own: every
theorem and lemma is a check (``dpbandits.dueling.checks``), so ``FIGURES`` is empty."""

from __future__ import annotations

from dpbandits.records import Simulation

PAPER = "dueling"
EXP = "dpbandits.dueling.experiments.designs"

SIMULATIONS = [
    Simulation(PAPER, "alg1", "dueling_alg1_simulate", f"{EXP}:run_alg1",
               {"table": "sim/dueling/alg1/{design}/{variant}.parquet"}, "alg1/seed{seed}/{design}_{variant}.log",
               config=("dueling.alg1",), mem_mb=4000, runtime=60,
               title="One Algorithm 1 (DP-EBS-Elimination) design for one variant, fast block engine."),
    Simulation(PAPER, "alg2", "dueling_alg2_simulate", f"{EXP}:run_alg2",
               {"runs": "sim/dueling/alg2/{design}_runs.parquet", "phases": "sim/dueling/alg2/{design}_phases.parquet"},
               "alg2/seed{seed}/{design}.log", config=("dueling.alg2",), mem_mb=4000, runtime=60,
               title="One Algorithm 2 (GOptimal-DPDB) design: batched simulator, cost independent of T."),
    Simulation(PAPER, "maxinp", "dueling_maxinp_simulate", f"{EXP}:run_maxinp",
               {"table": "sim/dueling/alg2/maxinp.parquet"}, "alg2/seed{seed}/maxinp.log",
               config=("dueling.alg2",), mem_mb=2000, runtime=30,
               title="MaxInP (Saha 2021, non-private) on the instances of the practice design (C10)."),
    Simulation(PAPER, "baselines", "dueling_baseline_simulate", f"{EXP}:run_baseline",
               {"table": "sim/dueling/baselines/{baseline}.parquet"}, "baselines/seed{seed}/{baseline}.log",
               config=("dueling.alg1",), mem_mb=2000, runtime=30,
               title="One non-private dueling baseline (RUCB, RCS, IF2, Doubler) on B8's instances."),
]

FIGURES: list = []
