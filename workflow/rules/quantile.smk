# Quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate; spec shared/papers/quantile_bandits.md).
# Simulations of the designs (quantile/experiments/designs.py) -> Figures 1-4 (both panels); the checks are
# rules of the one check registry (checks.smk).


rule quantile_simulate:
    """One design of the quantile paper: SEQ (fast Fenwick engine) or the epoch algorithms
    (Epoch-SEQ, DP-SEQ; order-statistic engine), every cell and run."""
    output:
        f"{RUN}/sim/quantile/{{design}}.parquet",
    log:
        f"{LOGS}/quantile/seed{{seed}}/simulate_{{design}}.log",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        config=quantile_design_config,
        code=code("quantile_simulate"),
    run:
        run_job(
            script("quantile_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


# Figures 1-4, each with both panels (upper / lower).
for figure, (rule_name, designs) in QUANTILE_FIGURES.items():

    rule:
        name:
            rule_name
        input:
            quantile_figure_inputs(figure),
        output:
            pdf=f"{REPORTS}/figures/quantile/{figure}.pdf",
            png=report(
                f"{REPORTS}/figures/quantile/{figure}.png",
                caption=report_caption("quantile", figure),
                category="quantile",
                subcategory=f"Figure {figure.removeprefix('fig')}",
            ),
        log:
            f"{LOGS}/quantile/{figure}.log",
        localrule: True
        params:
            figure=figure,
            config=job_config("seed"),
            code=code("quantile_figure"),
        run:
            run_job(
                script("quantile_figure"),
                input,
                output,
                params,
                wildcards,
                log,
                workflow,
            )
