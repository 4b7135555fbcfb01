"""The simulation designs and the figures and tables of the contextual paper
(:mod:`dpbandits.records`), one rule each (``workflow/rules/simulations.smk``,
``workflow/rules/figures.smk``): Figures 3-9, Tables 1-2, and three figures that are not the
paper's (Figure 7(a) with the authors' code, the presets compared, Figure 7(a) beyond the
paper's horizon). Table 2 on the three datasets is simulated by a rule of its own
(``workflow/rules/contextual.smk``: it reads the UCI Adult download).

Two records name a function of the paper's checks: Table 2 shows the ratios that checks T2-*
judge, and Figure 7(a) beyond the horizon marks the onsets of check BH-ONSET."""

from __future__ import annotations

from dpbandits.contextual.experiments.beyond_designs import BEYOND_JOBS
from dpbandits.contextual.experiments.designs import DATASETS, EPS_GRID
from dpbandits.records import Figure, Simulation

PAPER = "contextual"
EXP = "dpbandits.contextual.experiments"
DRAW = f"{EXP}.figures"


def sim(job: str) -> str:
    """A simulation table of the main run, relative to its seed root."""
    return f"sim/contextual/{job}.parquet"


CODE_SIMS = tuple(sim(f"fig7_code_{e:g}") for e in EPS_GRID)
TABLE_SIMS = tuple(sim(f"table_{d}") for d in DATASETS)

SIMULATIONS = [
    Simulation(PAPER, "simulate", "contextual_simulate", f"{EXP}.designs:run_design",
               {"table": "sim/contextual/{job}.parquet"}, "seed{seed}/simulate_{job}.log",
               config_of=("job", f"{EXP}.designs:job_config"), mem_mb=3000, runtime=60,
               title="One simulation job of the contextual paper (a figure's grid, the theory grids, ...)."),
    Simulation(PAPER, "beyond", "contextual_beyond_simulate", f"{EXP}.beyond_designs:run_block",
               {"table": "sim/contextual/{beyond}.parquet"}, "seed{seed}/simulate_{beyond}.log",
               config_of=("beyond", f"{EXP}.beyond_designs:beyond_job_config"), mem_mb=3000, runtime=60,
               title="Primary (and the labelled addition coarse_fixed) on the Figure 7(a) instance beyond the "
                     "paper's horizon, one block of the geometric n grid."),
]


def _figure(ident: str, name: str, function: str, subcategory: str, title: str, **kw) -> Figure:
    return Figure(PAPER, ident, f"contextual_{name}", function, name, subcategory=subcategory, title=title, **kw)


FIGURES = [
    _figure("fig3", "fig3_partition", f"{DRAW}:draw_fig3", "Figure 3",
            "Figure 3: the max-edge partition of one run (the largest Figure 7 horizon and batch).",
            config=("seed", "contextual.fig7.n_target", "contextual.fig7.batch")),
    _figure("fig4", "fig4_reward_functions", f"{DRAW}:draw_fig4", "Figure 4", "Figure 4: the reward functions."),
    _figure("fig5", "fig5_aux_density", f"{DRAW}:draw_fig5", "Figure 5",
            "Figure 5: the auxiliary data's density Q_gamma."),
    _figure("fig6", "fig6_learning_process", f"{DRAW}:draw_fig6", "Figure 6",
            "Figure 6: the learning process of LDPMAB (primary).", inputs={"sim": sim("fig6")}),
    _figure("fig6_code", "fig6_learning_process_authors_code", f"{DRAW}:draw_fig6_code",
            "Figure 6, authors' code", "Figure 6 with the authors' code preset.", inputs={"sim": sim("fig6")}),
    _figure("fig7", "fig7_regret_vs_n", f"{DRAW}:draw_fig7", "Figure 7",
            "Figure 7: regret against n, eps and the batch size.", inputs={"sim": sim("fig7")}),
    _figure("fig7_code", "fig7a_authors_code", f"{DRAW}:draw_fig7_code", "Figure 7(a), authors' code",
            "Figure 7(a) with the authors' code preset.", inputs={"sims": CODE_SIMS}),
    _figure("fig8", "fig8_regret_vs_aux_size", f"{DRAW}:draw_fig8", "Figure 8",
            "Figure 8: regret against the auxiliary sample size.", inputs={"sim": sim("fig8")}),
    _figure("fig9a", "fig9a_kappa", f"{DRAW}:draw_fig9a", "Figure 9(a)", "Figure 9(a): kappa.",
            inputs={"sim": sim("fig9a")}),
    _figure("fig9b", "fig9b_gamma", f"{DRAW}:draw_fig9b", "Figure 9(b)", "Figure 9(b): gamma.",
            inputs={"sim": sim("fig9b")}),
    _figure("fig9c", "fig9c_order", f"{DRAW}:draw_fig9c", "Figure 9(c)", "Figure 9(c): the order of the sources.",
            inputs={"sim": sim("fig9c")}),
    _figure("presets", "presets_comparison", f"{DRAW}:draw_presets", "Figure: presets compared",
            "The presets compared on the Figure 7(a) setting (not a figure of the paper).",
            inputs={"fig7": sim("fig7"), "code": CODE_SIMS, "presets": sim("presets")}),
    _figure("fig7_beyond", "fig7_beyond_horizon", "dpbandits.contextual.checks.beyond:draw_fig7_beyond_horizon",
            "Figure 7(a) beyond the paper's horizon",
            "Figure 7(a) beyond the paper's horizon, with the onsets of check BH-ONSET (not a figure of the paper).",
            inputs={"sims": tuple(sim(j) for j in BEYOND_JOBS)}),
    _figure("table1", "table1_datasets", f"{DRAW}:draw_table1", "Tables",
            "Table 1: the real datasets' shapes (paper) and the data used.", kind="table",
            inputs={"tables": TABLE_SIMS}),
    _figure("table2", "table2_reward_ratio", "dpbandits.contextual.checks.figures:draw_table2", "Tables",
            "Table 2: mean-reward ratio to ABSE at t = n_P/4 and n_P, with rank sums.", kind="table",
            inputs={"tables": TABLE_SIMS}),
]
