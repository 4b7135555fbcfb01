# The reviewer's view: one replication report per paper (reports/<paper>/replication.md and .pdf),
# captions with verdicts for `snakemake --report` (make report), one standalone LaTeX document of
# every table, the claims-at-a-glance summary and the executed exploration notebook.


localrules:
    report_captions,
    all_tables,
    claims_at_a_glance,
    replication_report,
    replication_report_pdf,


rule report_captions:
    """Render workflow/report/<paper>/<name>.rst with the verdicts of the checks each figure or
    table supports (read from reports/checks.csv) for the Snakemake report."""
    input:
        claims=f"{REPORTS}/checks.csv",
        templates=report_caption_templates(),
    output:
        directory(REPORT_CAPTIONS),
    log:
        f"{LOGS}/report/captions.log",
    params:
        config=job_config(),
        code=code("report_captions"),
    run:
        run_job(
            script("report_captions"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule all_tables:
    """Every table of every paper in one standalone LaTeX document (booktabs, longtable)."""
    input:
        all_table_files,
    output:
        f"{REPORTS}/tables/all_tables.tex",
    log:
        f"{LOGS}/report/all_tables.log",
    params:
        config=job_config(),
        code=code("all_tables"),
    run:
        run_job(script("all_tables"), input, output, params, wildcards, log, workflow)


rule claims_at_a_glance:
    """The claims of each paper counted by verdict, and the failing claims, as Markdown; at
    paper scale, the README's "claims at a glance" section is replaced by it.
    """
    input:
        claims=f"{REPORTS}/claims.csv",
        apart=f"{REPORTS}/claims_apart.csv",
    output:
        f"{REPORTS}/claims_at_a_glance.md",
    log:
        f"{LOGS}/report/claims_at_a_glance.log",
    params:
        readme="README.md" if SCALE == "paper" else "",
        config=job_config(),
        code=code("claims_at_a_glance"),
    run:
        run_job(
            script("claims_at_a_glance"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule replication_report:
    """One paper's replication report (reports/<paper>/replication.md): its claims with where the
    paper states them, what was run (with the design of workflow/report/<paper>/design.md), the
    results claim by claim with their check rows and
    figures, the errata, the findings and what remains open; rendered from this run's tables.
    """
    input:
        claims=f"{REPORTS}/claims.csv",
        apart=f"{REPORTS}/claims_apart.csv",
        checks=f"{REPORTS}/checks.csv",
        figures=replication_report_figures,
        tables=replication_report_tables,
        summary=f"{REPORTS}/figures/{{paper}}/claims_summary.png",
        design=workflow_file("workflow/report/{paper}/design.md"),
    output:
        f"{REPORTS}/{{paper}}/replication.md",
    log:
        f"{LOGS}/report/replication_{{paper}}.log",
    wildcard_constraints:
        paper="|".join(registry.PAPERS),
    params:
        config=job_config("{paper}", "seed", "stability.seeds"),
        checks=lambda w: [[c.id, c.rule, c.title] for c in CHECKS[w.paper].values()],
        code=code(
            "replication_report", *[f"dpbandits.{paper}.checks.replication" for paper in CHECKS]
        ),
    run:
        run_job(
            script("replication_report"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule replication_report_pdf:
    """One paper's replication report typeset by pdflatex (reports/<paper>/replication.pdf), its
    figures embedded as vector PDFs; needs TeX (`make tex` installs it on Debian or Ubuntu)."""
    input:
        report=f"{REPORTS}/{{paper}}/replication.md",
        figures=replication_pdf_figures,
    output:
        report(
            f"{REPORTS}/{{paper}}/replication.pdf",
            caption="../report/replication.rst",
            category="{paper}",
            subcategory="Replication report",
        ),
    log:
        f"{LOGS}/report/replication_pdf_{{paper}}.log",
    wildcard_constraints:
        paper="|".join(registry.PAPERS),
    params:
        config=job_config(),
        code=code("replication_pdf"),
    run:
        run_job(
            script("replication_pdf"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


# The one-figure summary atop each replication report (claims_summary_online, ...): the paper's
# claims by type and verdict, the errata marked. Named after the reviewer's view it belongs to, like
# replication_report, which also reruns for every paper whenever the claims table changes.
for paper in registry.PAPERS:

    rule:
        name:
            f"claims_summary_{paper}"
        input:
            f"{REPORTS}/claims.csv",
        output:
            pdf=f"{REPORTS}/figures/{paper}/claims_summary.pdf",
            png=report(
                f"{REPORTS}/figures/{paper}/claims_summary.png",
                caption=report_caption(paper, "claims_summary"),
                category=paper,
                subcategory="Figure: claims by type and verdict",
            ),
        log:
            f"{LOGS}/{paper}/claims_summary.log",
        localrule: True
        params:
            paper=paper,
            config=job_config(),
            code=code("claims_summary"),
        run:
            run_job(
                script("claims_summary"),
                input,
                output,
                params,
                wildcards,
                log,
                workflow,
            )


rule explore_notebook:
    """Execute the exploration notebook on this run (claims, aggregated results) and render it
    to HTML, so that it never goes stale."""
    input:
        notebook=workflow_file("workflow/notebooks/explore.ipynb"),
        claims=f"{REPORTS}/checks.csv",
        online=f"{MAIN}/agg/online/figures.parquet",
        dueling=explore_notebook_dueling_inputs(),
        figures=explore_notebook_figures(),
    output:
        f"{REPORTS}/notebooks/explore.html",
    log:
        f"{LOGS}/report/explore_notebook.log",
    resources:
        mem_mb=4000,
    params:
        roots={"REPORTS": REPORTS, "RESULTS": MAIN},
        config=job_config(),
        code=code("explore_notebook"),
    run:
        run_job(
            script("explore_notebook"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )
