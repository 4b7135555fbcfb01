# dpbandits-replication: rebuilds the figures, tables and claim verdicts of four papers on
# differentially private bandits. Quick start: `make reproduce` (paper scale) or
#   snakemake --cores 2 --configfile config/smoke.yaml   (every rule, tiny scale, under reports/smoke/)


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/online.smk"
include: "workflow/rules/extra.smk"
include: "workflow/rules/contextual.smk"
include: "workflow/rules/simulations.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/checks.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/stability.smk"


rule all:
    default_target: True
    input:
        online_figures(),
        f"{REPORTS}/tables/online/final_regret.tex",
        f"{REPORTS}/tables/online/final_regret.csv",
        paper_figures(),
        [check_figures(paper) for paper in CHECKS],
        [check_tables(paper) for paper in CHECKS],
        paper_checks_tables(),
        f"{REPORTS}/checks.csv",
        f"{REPORTS}/checks.md",
        f"{REPORTS}/claims.csv",
        f"{REPORTS}/claims_apart.csv",
        f"{REPORTS}/claims.md",
        f"{REPORTS}/claims_at_a_glance.md",
        expand(f"{REPORTS}/{{paper}}/replication.{{ext}}", paper=registry.PAPERS, ext=["md", "pdf"]),
        f"{REPORTS}/tables/all_tables.tex",
        REPORT_CAPTIONS,
        f"{REPORTS}/notebooks/explore.html",
