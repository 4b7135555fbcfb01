# Black-box privacy audits (each with a negative control the audit must catch).


rule audit_online_dp_se:
    """DP-SE's epoch elimination (Sajed & Sheffet 2019) on neighbouring reward tables."""
    output:
        "results/claims/online/P-AUDIT-DPSE.csv",
    log:
        "logs/audit/online_dp_se.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        mechanism="dp_se",
    script:
        "../scripts/online_audit.py"


rule audit_online_lazy_dp_ts_release:
    """Lazy-DP-TS's (and Alg. 1's) doubling-batch Laplace release on neighbouring streams."""
    output:
        "results/claims/online/P-AUDIT-LAZY-RELEASE.csv",
    log:
        "logs/audit/online_lazy_release.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        mechanism="lazy_release",
    script:
        "../scripts/online_audit.py"


rule audit_online_rnm_ftnl:
    """RNM-FTNL (Alg. 4) on neighbouring reward tables: the corrected Lap(2/eps), its negative
    control, and the paper's Lap(1/eps), whose leak (issue P1) the audit measures."""
    output:
        "results/claims/online/P-AUDIT-RNM.csv",
    log:
        "logs/audit/online_rnm_ftnl.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        mechanism="rnm_ftnl",
    script:
        "../scripts/online_audit.py"


rule audit_online_anytime_lazy_ucb:
    """P-MC-BANDIT for Alg. 1: the whole algorithm on neighbouring reward tables (T = 8)."""
    output:
        "results/claims/online/P-MC-ALG1.csv",
    log:
        "logs/audit/online_anytime_lazy_ucb.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
        runtime=20,
    params:
        mechanism="anytime_lazy_ucb",
    script:
        "../scripts/online_audit.py"


rule audit_online_adap_klucb:
    """P-MC-BANDIT for AdaP-KLUCB: the whole algorithm on neighbouring reward tables (T = 8)."""
    output:
        "results/claims/online/P-MC-ADAP.csv",
    log:
        "logs/audit/online_adap_klucb.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=6000,
        runtime=30,
    params:
        mechanism="adap_klucb",
    script:
        "../scripts/online_audit.py"


rule audit_online_adap_release:
    """AdaP-KLUCB's episode-mean Laplace release on neighbouring episode sums."""
    output:
        "results/claims/online/P-AUDIT-ADAP-RELEASE.csv",
    log:
        "logs/audit/online_adap_release.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
        runtime=10,
    params:
        mechanism="adap_release",
    script:
        "../scripts/online_audit.py"
