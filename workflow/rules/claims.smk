# The union of every check's claim rows -> reports/claims.csv and reports/claims.md.


rule claims:
    input:
        online_claim_files(),
        dueling_claim_files(),
        contextual_claim_files(),
    output:
        csv="reports/claims.csv",
        md="reports/claims.md",
    log:
        "logs/claims.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/claims.py"
