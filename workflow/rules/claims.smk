# The union of every check's claim rows -> reports/claims.csv and reports/claims.md.


# Cheap rules run on the submitting host, never as cluster jobs.
localrules:
    claims,


rule claims:
    input:
        claims=[f for paper in CHECKS for f in claim_files(paper)],
    output:
        csv=report(
            f"{REPORTS}/claims.csv",
            caption="../report/claims.rst",
            category="Claims",
            subcategory="All papers",
        ),
        md=f"{REPORTS}/claims.md",
    log:
        f"{LOGS}/claims.log",
    params:
        config=job_config("seed"),
        code=code("claims"),
        stability=stability_table(),
    run:
        run_job(script("claims"), input, output, params, wildcards, log, workflow)
