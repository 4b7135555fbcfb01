# dpbandits-replication: rebuilds the figures, tables and claim verdicts of four papers on
# differentially private bandits. Quick start: `make reproduce` (paper scale) or
#   snakemake --cores 2 --configfile config/smoke.yaml   (every rule, tiny scale)


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/online.smk"
include: "workflow/rules/online_theory.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/dueling.smk"
include: "workflow/rules/quantile.smk"
include: "workflow/rules/contextual.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/report.smk"


rule all:
    default_target: True
    input:
        online_figures(),
        "reports/tables/online/final_regret.tex",
        "reports/tables/online/final_regret.csv",
        online_check_figures(),
        "reports/tables/online/checks.tex",
        "reports/tables/online/checks.csv",
        "reports/tables/online/rnm_privacy_loss.tex",
        "reports/tables/online/rnm_privacy_loss.csv",
        dueling_check_figures(),
        "reports/tables/dueling/checks.tex",
        "reports/tables/dueling/checks.csv",
        quantile_figures(),
        quantile_check_figures(),
        quantile_check_tables(),
        "reports/tables/quantile/checks.tex",
        "reports/tables/quantile/checks.csv",
        contextual_outputs(),
        "reports/claims.csv",
        "reports/claims.md",
        "reports/claims_at_a_glance.md",
        "reports/tables/all_tables.tex",
        REPORT_CAPTIONS,
        "reports/notebooks/explore.html",
