# Hu, Huang, Mehta & Hegde: DP online learning (spec: shared/papers/dp_online_learning.md).
# The simulations are rules of the papers' simulation records (simulations.smk), the checks of the
# check registry (checks.smk); here what is special to this paper: the Figures 1-2 blocks
# aggregated, and Figures 1-2 and the final-regret table, which draw the researcher's own
# algorithms (online.extra_algorithms, extra.smk) beside the paper's.


localrules:
    online_figure,
    online_final_regret_table,


rule online_aggregate:
    """All blocks of Figures 1-2 -> one long table and one per-run table."""
    input:
        online_sim_blocks,
    output:
        long=f"{RUN}/agg/online/figures.parquet",
        runs=f"{RUN}/agg/online/figures_runs.parquet",
    log:
        f"{LOGS}/online/seed{{seed}}/aggregate.log",
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        config=job_config(),
        code=code("online_aggregate"),
    run:
        run_job(
            script("online_aggregate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule online_figure:
    """Figure 1 (setting 1) and Figure 2 (setting 2): 3 panels, eps = 0.25, 0.5, 1."""
    input:
        long=f"{MAIN}/agg/online/figures.parquet",
        extra=f"{MAIN}/agg/online/extra.parquet",
    output:
        pdf=f"{REPORTS}/figures/online/{{figure}}.pdf",
        png=report(
            f"{REPORTS}/figures/online/{{figure}}.png",
            caption=report_caption("online", "fig"),
            category="online",
            subcategory=online_figure_subcategory,
        ),
        pdf_logx=f"{REPORTS}/figures/online/{{figure}}_logx.pdf",
        png_logx=report(
            f"{REPORTS}/figures/online/{{figure}}_logx.png",
            caption=report_caption("online", "fig"),
            category="online",
            subcategory=online_figure_subcategory,
        ),
    log:
        f"{LOGS}/online/{{figure}}.log",
    params:
        setting=online_figure_setting,
        extra_labels=ONLINE_EXTRA_LABELS,
        config=online_figure_config,
        code=code("online_figure"),
    run:
        run_job(script("online_figure"), input, output, params, wildcards, log, workflow)


rule online_final_regret_table:
    """Final regrets of every panel (mean, s.d., bootstrap CI) as LaTeX and CSV."""
    input:
        runs=f"{MAIN}/agg/online/figures_runs.parquet",
        extra_runs=f"{MAIN}/agg/online/extra_runs.parquet",
    output:
        tex=f"{REPORTS}/tables/online/final_regret.tex",
        csv=report(
            f"{REPORTS}/tables/online/final_regret.csv",
            caption=report_caption("online", "final_regret"),
            category="online",
            subcategory="Tables",
        ),
    log:
        f"{LOGS}/online/final_regret_table.log",
    params:
        extra_labels=ONLINE_EXTRA_LABELS,
        config=job_config("seed", "online.figures.horizon", "online.checks.bootstrap"),
        code=code("online_table"),
    run:
        run_job(script("online_table"), input, output, params, wildcards, log, workflow)
