# A researcher's own bandit algorithms (online.extra_algorithms; interface:
# dpbandits.online.interface): simulated on every cell of the Figures 1-2 grid beside the paper's
# algorithms (rule online_figure and the final-regret table read their aggregate), audited at
# their claimed epsilon and compared with Lazy-DP-TS (checks X-AUDIT and X-REGRET of the online
# registry). With no extra algorithm the aggregate is an empty table and the checks write no row.
# Dueling, quantile and contextual ones (<family>.extra_algorithms; dpbandits.<family>.interface)
# need no rule of their own: the family's checks X-AUDIT and X-REGRET (quantile: X-AUDIT and
# X-SAMPLES) run them.


rule online_extra_simulate:
    """One seed block of one Figures 1-2 cell of a researcher's algorithm."""
    output:
        f"{RUN}/sim/online/extra/{{setting}}/{{algorithm}}/eps{{eps}}/block{{block}}.parquet",
    log:
        f"{LOGS}/online/extra/seed{{seed}}/{{setting}}_{{algorithm}}_eps{{eps}}_block{{block}}.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=120,
    params:
        extra=online_extra_entry,
        config=job_config(
            "seed",
            "online.figures.runs",
            "online.figures.runs_per_job",
            "online.figures.horizon",
            "online.figures.checkpoints",
            "online.figures.settings.{setting}.means",
        ),
        code=online_extra_code,
    run:
        run_job(
            script("online_extra_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule online_extra_aggregate:
    """The researcher's algorithms' blocks -> one long table and one per-run table."""
    input:
        online_extra_blocks,
    output:
        long=f"{RUN}/agg/online/extra.parquet",
        runs=f"{RUN}/agg/online/extra_runs.parquet",
    log:
        f"{LOGS}/online/seed{{seed}}/extra_aggregate.log",
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        config=job_config(),
        code=code("online_extra_aggregate"),
    run:
        run_job(
            script("online_extra_aggregate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule extra_algorithms:
    """Only the researcher's own algorithms (`snakemake extra_algorithms`): the online ones' simulations
    on the Figures 1-2 grid, their audits (X-AUDIT) and their regret relative to Lazy-DP-TS (X-REGRET,
    which reads the paper's Figures 1-2 runs); the dueling ones' audits and regret relative to
    Algorithm 1; the contextual ones' randomiser audits and regret relative to LDPMAB; the quantile
    ones' audits and samples relative to SEQ or DP-SEQ; without the rest of the four papers.
    """
    input:
        f"{MAIN}/agg/online/extra.parquet",
        [
            check_claims(CHECKS[paper][c])
            for paper in ("online", "dueling", "contextual")
            for c in ("X-AUDIT", "X-REGRET")
        ],
        [check_claims(CHECKS["quantile"][c]) for c in ("X-AUDIT", "X-SAMPLES")],
    localrule: True
