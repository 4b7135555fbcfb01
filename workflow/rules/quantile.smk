# Quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate; spec shared/papers/quantile_bandits.md).
# Simulations of the designs (experiments/quantile.py) -> Figures 1-4 (both panels) -> one rule per
# check (claims; scaling checks also draw their figure) -> the table of every quantile check.


localrules:
    quantile_checks_table,
    quantile_fig1_gap_curves,
    quantile_fig2_quantile_difference,
    quantile_fig3_seq_sample_complexity,
    quantile_fig4_tails_and_privacy,


rule quantile_simulate:
    """One design of the quantile paper: SEQ (fast Fenwick engine) or the epoch algorithms
    (Epoch-SEQ, DP-SEQ; order-statistic engine), every cell and run."""
    output:
        "results/sim/quantile/{design}.parquet",
    log:
        "logs/quantile/simulate_{design}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    script:
        "../scripts/quantile_simulate.py"


rule quantile_checks_table:
    """Every check of the quantile paper: statistic, CI, criterion and verdict (LaTeX + CSV)."""
    input:
        quantile_claim_files(),
    output:
        tex="reports/tables/quantile/checks.tex",
        csv=report(
            "reports/tables/quantile/checks.csv",
            caption=report_caption("quantile", "checks"),
            category="quantile",
            subcategory="Tables",
        ),
    log:
        "logs/quantile/checks_table.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        paper="quantile",
        title="Nikolakakis, Kalogerias, Sheffet and Sarwate (quantile bandits)",
    script:
        "../scripts/checks_table.py"


# Figures 1-4, each with both panels (upper / lower).
for figure, (rule_name, designs) in QUANTILE_FIGURES.items():

    rule:
        name:
            rule_name
        input:
            quantile_figure_inputs(figure),
        output:
            pdf=f"reports/figures/quantile/{figure}.pdf",
            png=report(
                f"reports/figures/quantile/{figure}.png",
                caption=report_caption("quantile", figure),
                category="quantile",
                subcategory=f"Figure {figure.removeprefix('fig')}",
            ),
        log:
            f"logs/quantile/{figure}.log",
        conda:
            "../envs/dpbandits.yaml"
        params:
            figure=figure,
        script:
            "../scripts/quantile_figure.py"


# One rule per check. Scaling checks also draw their figure; D2 (an addition) also writes a table.
for check in QUANTILE_CHECKS:
    if check in QUANTILE_CHECK_TABLES:
        table = QUANTILE_CHECK_TABLES[check]

        rule:
            name:
                QUANTILE_RULE_NAMES[check]
            input:
                quantile_check_inputs(check),
            output:
                claims=f"results/claims/quantile/{check}.csv",
                tex=f"reports/tables/quantile/{table}.tex",
                csv=report(
                    f"reports/tables/quantile/{table}.csv",
                    caption=report_caption("quantile", table),
                    category="quantile",
                    subcategory="Tables",
                ),
            log:
                f"logs/quantile/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=3000,
            params:
                check=check,
            script:
                "../scripts/quantile_check.py"

    elif check in QUANTILE_SCALING:

        rule:
            name:
                QUANTILE_RULE_NAMES[check]
            input:
                quantile_check_inputs(check),
            output:
                claims=f"results/claims/quantile/{check}.csv",
                pdf=f"reports/figures/quantile/check_{check}.pdf",
                png=report(
                    f"reports/figures/quantile/check_{check}.png",
                    caption=report_caption("quantile", f"check_{check}"),
                    category="quantile",
                    subcategory=f"Check {check}",
                ),
            log:
                f"logs/quantile/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=3000,
            params:
                check=check,
            script:
                "../scripts/quantile_check.py"

    else:

        rule:
            name:
                QUANTILE_RULE_NAMES[check]
            input:
                quantile_check_inputs(check),
            output:
                claims=f"results/claims/quantile/{check}.csv",
            log:
                f"logs/quantile/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=3000,
            params:
                check=check,
            script:
                "../scripts/quantile_check.py"
