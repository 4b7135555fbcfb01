# Theory checks of the online paper (spec sections 6.2-6.5): simulations of the full-information
# and bandit designs -> one rule per check (online_check_ft_1, online_check_bt_4, ...), writing
# its claim rows and, for the scaling checks, its figure; exact and unit checks; exact RNM
# privacy loss; the summary table of every online check.


localrules:
    online_checks_table,


rule online_full_info_simulate:
    """One design of the full-information checks: RNM-FTNL / naive FTNL, epoch engine."""
    output:
        "results/sim/online/full_info/{design}.parquet",
    log:
        "logs/online/full_info/{design}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    script:
        "../scripts/online_full_info_simulate.py"


rule online_privacy_exact_rnm:
    """P-EXACT-RNM: exact privacy loss of RNM-FTNL's release (Theorem 8, spec issue P1)."""
    output:
        claims="results/claims/online/P-EXACT-RNM.csv",
        tex="reports/tables/online/rnm_privacy_loss.tex",
        csv=report(
            "reports/tables/online/rnm_privacy_loss.csv",
            caption=report_caption("online", "rnm_privacy_loss"),
            category="online",
            subcategory="Tables",
        ),
    log:
        "logs/online/check_P-EXACT-RNM.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="P-EXACT-RNM",
    script:
        "../scripts/online_check.py"


rule online_checks_table:
    """Every check of the online paper: statistic, CI, criterion and verdict (LaTeX + CSV)."""
    input:
        online_claim_files(),
    output:
        tex="reports/tables/online/checks.tex",
        csv=report(
            "reports/tables/online/checks.csv",
            caption=report_caption("online", "checks"),
            category="online",
            subcategory="Tables",
        ),
    log:
        "logs/online/checks_table.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        paper="online",
        title="Hu, Huang, Mehta and Hegde (online paper)",
    script:
        "../scripts/checks_table.py"


rule online_bandit_simulate:
    """One design of the bandit theory checks for one algorithm (fast engines)."""
    output:
        "results/sim/online/bandit/{design}/{algorithm}.parquet",
    log:
        "logs/online/bandit/{design}_{algorithm}.log",
    conda:
        "../envs/dpbandits.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    script:
        "../scripts/online_bandit_simulate.py"


rule online_check_privacy_cost:
    """BT-8: private algorithms do not beat their non-private references (figure runs)."""
    input:
        runs="results/agg/online/figures_runs.parquet",
    output:
        claims="results/claims/online/BT-8.csv",
    log:
        "logs/online/check_BT-8.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="BT-8",
    script:
        "../scripts/online_check.py"


# One rule per check. Scaling checks also draw their figure (points with CIs, fitted and
# theoretical slopes).
for check in ONLINE_THEORY_CHECKS:
    if check in ONLINE_SCALING_CHECKS:

        rule:
            name:
                online_check_rule(check)
            input:
                online_check_inputs(check),
            output:
                claims=f"results/claims/online/{check}.csv",
                pdf=f"reports/figures/online/check_{check}.pdf",
                png=report(
                    f"reports/figures/online/check_{check}.png",
                    caption=report_caption("online", f"check_{check}"),
                    category="online",
                    subcategory=f"Check {check}",
                ),
            log:
                f"logs/online/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=4000,
            params:
                check=check,
            script:
                "../scripts/online_check.py"

    else:

        rule:
            name:
                online_check_rule(check)
            input:
                online_check_inputs(check),
            output:
                claims=f"results/claims/online/{check}.csv",
            log:
                f"logs/online/check_{check}.log",
            conda:
                "../envs/dpbandits.yaml"
            resources:
                mem_mb=4000,
            params:
                check=check,
            script:
                "../scripts/online_check.py"
