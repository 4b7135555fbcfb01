# The union of every check's claim rows -> reports/claims.csv and reports/claims.md.


# Cheap rules run on the submitting host, never as cluster jobs.
localrules:
    claims,


rule claims:
    input:
        online_claim_files(),
        dueling_claim_files(),
        quantile_claim_files(),
        contextual_claim_files(),
    output:
        csv=report(
            "reports/claims.csv",
            caption="../report/claims.rst",
            category="Claims",
            subcategory="All papers",
        ),
        md="reports/claims.md",
    log:
        "logs/claims.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/claims.py"
