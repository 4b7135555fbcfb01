"""Entry point of every check rule of the quantile paper (quantile_thm*, quantile_fig*_claims,
quantile_audit_dp_seq, ...): dispatches on ``params.check``. Modules are imported per branch so
that a job loads only what its check needs."""

from dpbandits.checks import CheckOutput
from dpbandits.claims import write_claims
from dpbandits.io import read_results_or_quarantine
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.params.check
    q = cfg["quantile"]
    scale, n_boot = cfg["scale"], q["checks"]["bootstrap"]
    rng = make_rng(cfg["seed"], "quantile", "check", check)
    if check == "AUDIT-DPSEQ":
        from dpbandits.quantile import audits

        out = CheckOutput(audits.CHECKS[check](rng, scale, q["audit"]))
    elif check == "F1":
        from dpbandits.quantile import figures

        out = figures.check_f1(rng, scale, {})
    else:
        from dpbandits.quantile import analytic_checks, baseline_checks, dp_checks, seq_checks

        if check in analytic_checks.CHECKS:
            out = analytic_checks.CHECKS[check](rng, scale, q["analytic"])
        else:
            function, designs = {**seq_checks.CHECKS, **dp_checks.CHECKS, **baseline_checks.CHECKS}[check]
            tables = {d: read_results_or_quarantine(p) for d, p in zip(designs, smk.input, strict=True)}
            out = function(tables, rng, n_boot, scale)
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):  # the scaling checks draw a figure
        from dpbandits.plotting import plot_scaling

        plot_scaling(out.figure, smk.output.pdf, smk.output.png)
    if hasattr(smk.output, "tex"):  # D2 also writes its informational table
        from dpbandits.quantile.baseline_checks import table_display
        from dpbandits.tables import write_table

        write_table(out.table, smk.output.tex, smk.output.csv,
                    "Optional baselines (additions, not in the paper): SEQ vs QPAC, QLUCB (eps = 0) and Max-Q "
                    "(eps = Delta/2); mean total pulls, ratio to SEQ on the same reward streams, error and censored "
                    "rates (check D2)", "tab:quantile-baselines", display=table_display(out.table))


run_script(snakemake, main)
