# The verdict-stability sweep: every check that depends on the root seed rerun under
# the further root seeds of config stability.seeds (the exact checks run once, whatever the seed),
# with the same rules, seed derivation and profiles as everything else. Not part of the default
# target (it is N times the work): `snakemake verdict_stability` (or `make stability`), then the
# default target, whose claims pick up the sweep (the `stability` column).


localrules:
    verdict_stability,


rule verdict_stability:
    """Check x root seed: verdict, reason, value and CI of every claim row, for the root seed of
    the reports and every seed of stability.seeds."""
    input:
        stability_inputs(),
    output:
        f"{REPORTS}/verdict_stability.csv",
    log:
        f"{LOGS}/report/verdict_stability.log",
    params:
        seeds=STABILITY_SEEDS,
        config=job_config("seed", "stability"),
        code=code("verdict_stability"),
    run:
        run_job(script("verdict_stability"), input, output, params, wildcards, log, workflow)
