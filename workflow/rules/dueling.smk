# Dueling paper (Saha & Asi 2024, spec shared/papers/dp_dueling.md). The paper has no experiments:
# every theorem and lemma becomes a check (spec section 5). Simulations of the designs
# (experiments/dueling.py) -> one rule per check, writing its claim rows and, for the scaling
# checks, its figure -> the table of every dueling check.


localrules:
    dueling_checks_table,


rule dueling_alg1_simulate:
    """One Algorithm 1 (DP-EBS-Elimination) design for one variant, fast block engine."""
    output:
        "results/sim/dueling/alg1/{design}/{variant}.parquet",
    log:
        "logs/dueling/alg1/{design}_{variant}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    script:
        "../scripts/dueling_alg1_simulate.py"


rule dueling_alg2_simulate:
    """One Algorithm 2 (GOptimal-DPDB) design: batched simulator, cost independent of T."""
    output:
        runs="results/sim/dueling/alg2/{design}_runs.parquet",
        phases="results/sim/dueling/alg2/{design}_phases.parquet",
    log:
        "logs/dueling/alg2/{design}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    script:
        "../scripts/dueling_alg2_simulate.py"


rule dueling_maxinp_simulate:
    """MaxInP (Saha 2021, non-private) on the instances of the practice design (C10)."""
    output:
        "results/sim/dueling/alg2/maxinp.parquet",
    log:
        "logs/dueling/alg2/maxinp.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/dueling_maxinp_simulate.py"


rule dueling_baseline_simulate:
    """One non-private dueling baseline (RUCB, RCS, IF2, Doubler) on B8's instances."""
    output:
        "results/sim/dueling/baselines/{baseline}.parquet",
    log:
        "logs/dueling/baselines/{baseline}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/dueling_baseline_simulate.py"


rule dueling_checks_table:
    """Every check of the dueling paper: statistic, CI, criterion and verdict (LaTeX + CSV)."""
    input:
        dueling_claim_files(),
    output:
        tex="reports/tables/dueling/checks.tex",
        csv=report(
            "reports/tables/dueling/checks.csv",
            caption=report_caption("dueling", "checks"),
            category="dueling",
            subcategory="Tables",
        ),
    log:
        "logs/dueling/checks_table.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        paper="dueling",
        title="Saha and Asi (DP-Dueling)",
    script:
        "../scripts/checks_table.py"


# One rule per check. Scaling checks also draw their figure (points with CIs, fitted and
# theoretical slopes).
for check in DUELING_CHECKS:
    if check in DUELING_SCALING:

        rule:
            name:
                dueling_check_rule(check)
            input:
                dueling_check_inputs(check),
            output:
                claims=f"results/claims/dueling/{check}.csv",
                pdf=f"reports/figures/dueling/check_{check}.pdf",
                png=report(
                    f"reports/figures/dueling/check_{check}.png",
                    caption=report_caption("dueling", f"check_{check}"),
                    category="dueling",
                    subcategory=f"Check {check}",
                ),
            log:
                f"logs/dueling/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=4000,
            params:
                check=check,
            script:
                "../scripts/dueling_check.py"

    else:

        rule:
            name:
                dueling_check_rule(check)
            input:
                dueling_check_inputs(check),
            output:
                claims=f"results/claims/dueling/{check}.csv",
            log:
                f"logs/dueling/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=4000,
            params:
                check=check,
            script:
                "../scripts/dueling_check.py"
