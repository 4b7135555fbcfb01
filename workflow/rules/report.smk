# The reviewer's view: captions with verdicts for `snakemake --report` (make report), one
# standalone LaTeX document of every table, and the claims-at-a-glance summary.


localrules:
    report_captions,
    all_tables,
    claims_at_a_glance,


rule report_captions:
    """Render workflow/report/<paper>/<name>.rst with the verdicts of the checks each figure or
    table supports (read from reports/claims.csv) for the Snakemake report."""
    input:
        claims="reports/claims.csv",
        templates=report_caption_templates(),
    output:
        directory(REPORT_CAPTIONS),
    log:
        "logs/report/captions.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/report_captions.py"


rule all_tables:
    """Every table of every paper in one standalone LaTeX document (booktabs, longtable)."""
    input:
        all_table_files,
    output:
        "reports/tables/all_tables.tex",
    log:
        "logs/report/all_tables.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/all_tables.py"


rule claims_at_a_glance:
    """Counts of PASS / FAIL / INCONCLUSIVE / REPORT per paper and the failing checks, as
    Markdown; the README's "claims at a glance" section is replaced by it when the workflow runs
    in the repository."""
    input:
        "reports/claims.csv",
    output:
        "reports/claims_at_a_glance.md",
    log:
        "logs/report/claims_at_a_glance.log",
    conda:
        "../envs/dpbandits.yaml"
    script:
        "../scripts/claims_at_a_glance.py"


rule explore_notebook:
    """Execute the exploration notebook on this run (claims, aggregated results) and render it
    to HTML, so that it never goes stale."""
    input:
        notebook="workflow/notebooks/explore.ipynb",
        claims="reports/claims.csv",
        online="results/agg/online/figures.parquet",
        dueling=explore_notebook_dueling_inputs(),
    output:
        "reports/notebooks/explore.html",
    log:
        "logs/report/explore_notebook.log",
    conda:
        "../envs/dpbandits.yaml"
    resources:
        mem_mb=4000,
    script:
        "../scripts/explore_notebook.py"
