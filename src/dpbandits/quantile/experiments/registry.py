"""The simulation designs and figures of the quantile paper (:mod:`dpbandits.records`), one
rule each (``workflow/rules/simulations.smk``, ``workflow/rules/figures.smk``): Figures 1-4, both
panels each (captions' "upper / lower" = text's "left / right")."""

from __future__ import annotations

from dpbandits.records import Figure, Simulation

PAPER = "quantile"
EXP = "dpbandits.quantile.experiments"


def _designs(*names: str) -> dict[str, str]:
    return {name: f"sim/quantile/{name}.parquet" for name in names}


SIMULATIONS = [
    Simulation(PAPER, "designs", "quantile_simulate", f"{EXP}.designs:run_design",
               {"table": "sim/quantile/{design}.parquet"}, "seed{seed}/simulate_{design}.log",
               config_of=("design", f"{EXP}.designs:design_config"), mem_mb=3000, runtime=30,
               title="One design of the quantile paper: SEQ (fast Fenwick engine) or the epoch algorithms "
                     "(Epoch-SEQ, DP-SEQ; order-statistic engine), every cell and run."),
]

FIGURES = [
    Figure(PAPER, "fig1", "quantile_fig1_gap_curves", f"{EXP}.figures:draw_fig1", "fig1", config=("seed",),
           subcategory="Figure 1", title="Figure 1: the quantile gap as a function of q."),
    Figure(PAPER, "fig2", "quantile_fig2_quantile_difference", f"{EXP}.figures:draw_fig2", "fig2",
           inputs=_designs("disc_grid"), config=("seed",), subcategory="Figure 2",
           title="Figure 2: SEQ on the discrete pair against the quantile difference."),
    Figure(PAPER, "fig3", "quantile_fig3_seq_sample_complexity", f"{EXP}.figures:draw_fig3", "fig3",
           inputs=_designs("gauss_q", "disc_grid"), config=("seed",), subcategory="Figure 3",
           title="Figure 3: SEQ's sample complexity against the level q and the gap."),
    Figure(PAPER, "fig4", "quantile_fig4_tails_and_privacy", f"{EXP}.figures:draw_fig4", "fig4",
           inputs=_designs("fig4_gauss", "fig4_logn", "fig4_lower", "logn10_seq"), config=("seed",),
           subcategory="Figure 4", title="Figure 4: heavy tails (upper) and the cost of privacy (lower)."),
]
