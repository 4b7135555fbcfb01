# The check rows of every check -> reports/checks.csv and .md; the claims of the papers, judged
# from those rows by each paper's claim inventory -> reports/claims.csv, claims_apart.csv and .md.


# Cheap rules run on the submitting host, never as cluster jobs.
localrules:
    checks,
    claims,


rule checks:
    input:
        claims=[f for paper in CHECKS for f in claim_files(paper)],
    output:
        csv=report(
            f"{REPORTS}/checks.csv",
            caption="../report/checks.rst",
            category="Claims",
            subcategory="All papers",
        ),
        md=f"{REPORTS}/checks.md",
    log:
        f"{LOGS}/checks.log",
    params:
        config=job_config("seed"),
        code=code("checks"),
        stability=stability_table(),
    run:
        run_job(script("checks"), input, output, params, wildcards, log, workflow)


rule claims:
    input:
        checks=f"{REPORTS}/checks.csv",
    output:
        csv=report(
            f"{REPORTS}/claims.csv",
            caption="../report/claims.rst",
            category="Claims",
            subcategory="All papers",
        ),
        apart=f"{REPORTS}/claims_apart.csv",
        md=f"{REPORTS}/claims.md",
    log:
        f"{LOGS}/claims.log",
    params:
        config=job_config(),
        code=code("claims", *[f"dpbandits.{paper}.checks.claims" for paper in CHECKS]),
        stability=stability_table(),
    run:
        run_job(script("claims"), input, output, params, wildcards, log, workflow)
