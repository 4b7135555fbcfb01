# Theory checks of the online paper (spec sections 6.3-6.5): full-information simulations ->
# FT checks (claims + scaling figures); exact and unit checks; exact RNM privacy loss;
# the summary table of every online check.


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


rule online_check_full_info_scaling:
    """FT-1, FT-3 ... FT-7: claim rows and the check's scaling figure."""
    input:
        online_full_info_inputs,
    output:
        claims="results/claims/online/{check}.csv",
        pdf=report(
            "reports/figures/online/check_{check}.pdf",
            category="online",
            subcategory="Full-information checks",
        ),
        png="reports/figures/online/check_{check}.png",
    log:
        "logs/online/check_{check}.log",
    wildcard_constraints:
        check="FT-1|FT-3|FT-4|FT-5|FT-6|FT-7",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
    script:
        "../scripts/online_check_full_info.py"


rule online_check_full_info:
    """FT-2 (explicit Theorem 9 bound) and FT-8 (Theorem 12 floor): claim rows."""
    input:
        online_full_info_inputs,
    output:
        claims="results/claims/online/{check}.csv",
    log:
        "logs/online/check_{check}.log",
    wildcard_constraints:
        check="FT-2|FT-8",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
    script:
        "../scripts/online_check_full_info.py"


rule online_check_exact:
    """FT-9 (Lemma 24), U-1 ... U-5: exact computations and logged runs."""
    output:
        claims="results/claims/online/{check}.csv",
    log:
        "logs/online/check_{check}.log",
    wildcard_constraints:
        check="FT-9|U-[1-5]",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="{check}",
    script:
        "../scripts/online_check_exact.py"


rule online_privacy_exact_rnm:
    """P-EXACT-RNM: exact privacy loss of RNM-FTNL's release (Theorem 8, spec issue P1)."""
    output:
        claims="results/claims/online/P-EXACT-RNM.csv",
        tex="reports/tables/online/rnm_privacy_loss.tex",
        csv="reports/tables/online/rnm_privacy_loss.csv",
    log:
        "logs/online/check_P-EXACT-RNM.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="P-EXACT-RNM",
    script:
        "../scripts/online_check_exact.py"


rule online_checks_table:
    """Every check of the online paper: statistic, CI, criterion and verdict (LaTeX + CSV)."""
    input:
        online_claim_files(),
    output:
        tex="reports/tables/online/checks.tex",
        csv="reports/tables/online/checks.csv",
    log:
        "logs/online/checks_table.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/online_checks_table.py"


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


rule online_check_bandit_scaling:
    """BT-1 (log T), BT-2/BT-3 (eps regimes), BT-4 (K), BT-7 (sqrt T): claims and figure."""
    input:
        online_bandit_inputs,
    output:
        claims="results/claims/online/{check}.csv",
        pdf=report(
            "reports/figures/online/check_{check}.pdf",
            category="online",
            subcategory="Bandit theory checks",
        ),
        png="reports/figures/online/check_{check}.png",
    log:
        "logs/online/check_{check}.log",
    wildcard_constraints:
        check="BT-1|BT-2|BT-4|BT-7",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="{check}",
    script:
        "../scripts/online_check_bandit.py"


rule online_check_bandit_constants:
    """BT-5 (explicit Theorem 3 bound) and BT-6 (Lemma 19 epochs), weak checks of Alg. 1."""
    input:
        online_bandit_inputs,
    output:
        claims="results/claims/online/{check}.csv",
    log:
        "logs/online/check_{check}.log",
    wildcard_constraints:
        check="BT-5|BT-6",
    conda:
        "../envs/dpbandits.yaml"
    params:
        check="{check}",
    script:
        "../scripts/online_check_bandit.py"


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
        "../scripts/online_check_bandit.py"
