# Quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate; spec shared/papers/quantile_bandits.md).
# Simulations of the designs (experiments/quantile.py) -> Figures 1-4 (both panels) -> one rule per
# check (claims; scaling checks also draw their figure) -> the table of every quantile check.


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
        csv="reports/tables/quantile/checks.csv",
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
            pdf=report(
                f"reports/figures/quantile/{figure}.pdf",
                category="quantile",
                subcategory="Figures",
            ),
            png=f"reports/figures/quantile/{figure}.png",
        log:
            f"logs/quantile/{figure}.log",
        conda:
            "../envs/dpbandits.yaml"
        params:
            figure=figure,
        script:
            "../scripts/quantile_figure.py"


# One rule per check. Scaling checks also draw their figure.
for check in QUANTILE_CHECKS:
    if check in QUANTILE_SCALING:

        rule:
            name:
                QUANTILE_RULE_NAMES[check]
            input:
                quantile_check_inputs(check),
            output:
                claims=f"results/claims/quantile/{check}.csv",
                pdf=report(
                    f"reports/figures/quantile/check_{check}.pdf",
                    category="quantile",
                    subcategory="Theory checks",
                ),
                png=f"reports/figures/quantile/check_{check}.png",
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
