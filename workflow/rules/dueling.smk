# Dueling paper (Saha & Asi 2024, spec shared/papers/dp_dueling.md). The paper has no experiments:
# every theorem and lemma becomes a check (spec section 5). Simulations of the designs
# (dueling/experiments/designs.py) here; the checks are rules of the one check registry (checks.smk).


rule dueling_alg1_simulate:
    """One Algorithm 1 (DP-EBS-Elimination) design for one variant, fast block engine."""
    output:
        f"{RUN}/sim/dueling/alg1/{{design}}/{{variant}}.parquet",
    log:
        f"{LOGS}/dueling/alg1/seed{{seed}}/{{design}}_{{variant}}.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        config=job_config("seed", "dueling.alg1"),
        code=code("dueling_alg1_simulate"),
    run:
        run_job(
            script("dueling_alg1_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule dueling_alg2_simulate:
    """One Algorithm 2 (GOptimal-DPDB) design: batched simulator, cost independent of T."""
    output:
        runs=f"{RUN}/sim/dueling/alg2/{{design}}_runs.parquet",
        phases=f"{RUN}/sim/dueling/alg2/{{design}}_phases.parquet",
    log:
        f"{LOGS}/dueling/alg2/seed{{seed}}/{{design}}.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        config=job_config("seed", "dueling.alg2"),
        code=code("dueling_alg2_simulate"),
    run:
        run_job(
            script("dueling_alg2_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule dueling_maxinp_simulate:
    """MaxInP (Saha 2021, non-private) on the instances of the practice design (C10)."""
    output:
        f"{RUN}/sim/dueling/alg2/maxinp.parquet",
    log:
        f"{LOGS}/dueling/alg2/seed{{seed}}/maxinp.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        config=job_config("seed", "dueling.alg2"),
        code=code("dueling_maxinp_simulate"),
    run:
        run_job(
            script("dueling_maxinp_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule dueling_baseline_simulate:
    """One non-private dueling baseline (RUCB, RCS, IF2, Doubler) on B8's instances."""
    output:
        f"{RUN}/sim/dueling/baselines/{{baseline}}.parquet",
    log:
        f"{LOGS}/dueling/baselines/seed{{seed}}/{{baseline}}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        config=job_config("seed", "dueling.alg1"),
        code=code("dueling_baseline_simulate"),
    run:
        run_job(
            script("dueling_baseline_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )
