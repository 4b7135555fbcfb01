# Hu, Huang, Mehta & Hegde: DP online learning (spec: shared/papers/dp_online_learning.md).
# simulate -> aggregate -> Figures 1-2 / final-regret table -> figure checks.


localrules:
    online_figure,
    online_final_regret_table,


rule online_simulate:
    """One seed block of one cell of the Figures 1-2 grid (fast engines)."""
    output:
        "results/sim/online/figures/{setting}/{algorithm}/eps{eps}/block{block}.parquet",
    log:
        "logs/online/simulate/{setting}_{algorithm}_eps{eps}_block{block}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=20,
    script:
        "../scripts/online_simulate.py"


rule online_aggregate:
    """All blocks of Figures 1-2 -> one long table and one per-run table."""
    input:
        online_sim_blocks,
    output:
        long="results/agg/online/figures.parquet",
        runs="results/agg/online/figures_runs.parquet",
    log:
        "logs/online/aggregate.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    script:
        "../scripts/online_aggregate.py"


rule online_figure:
    """Figure 1 (setting 1) and Figure 2 (setting 2): 3 panels, eps = 0.25, 0.5, 1."""
    input:
        long="results/agg/online/figures.parquet",
    output:
        pdf="reports/figures/online/{figure}.pdf",
        png=report(
            "reports/figures/online/{figure}.png",
            caption=report_caption("online", "fig"),
            category="online",
            subcategory=online_figure_subcategory,
        ),
        pdf_logx="reports/figures/online/{figure}_logx.pdf",
        png_logx=report(
            "reports/figures/online/{figure}_logx.png",
            caption=report_caption("online", "fig"),
            category="online",
            subcategory=online_figure_subcategory,
        ),
    log:
        "logs/online/{figure}.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        setting=online_figure_setting,
    script:
        "../scripts/online_figure.py"


rule online_final_regret_table:
    """Final regrets of every panel (mean, s.d., bootstrap CI) as LaTeX and CSV."""
    input:
        runs="results/agg/online/figures_runs.parquet",
    output:
        tex="reports/tables/online/final_regret.tex",
        csv=report(
            "reports/tables/online/final_regret.csv",
            caption=report_caption("online", "final_regret"),
            category="online",
            subcategory="Tables",
        ),
    log:
        "logs/online/final_regret_table.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/online_table.py"


rule online_check_figure_claims:
    """FIG-C1 (similar to AdaP-KLUCB), FIG-C2 (beats DP-SE and Alg. 1), FIG-SHAPE, FIG-EPS."""
    input:
        long="results/agg/online/figures.parquet",
        runs="results/agg/online/figures_runs.parquet",
    output:
        c1="results/claims/online/FIG-C1.csv",
        c2="results/claims/online/FIG-C2.csv",
        shape="results/claims/online/FIG-SHAPE.csv",
        eps="results/claims/online/FIG-EPS.csv",
    log:
        "logs/online/check_figure_claims.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/online_check_figures.py"
