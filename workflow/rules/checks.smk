# Every check of the four papers, from the one registry (dpbandits.evidence.registry): one named rule per
# check (its claim rows, and the data of its scaling figure or informational table), one rule per
# scaling figure and per informational table, and one table of every check per paper. The rule
# names come from the registry, so `snakemake --list-rules` reads like the papers' tables of
# contents.


for paper, specs in CHECKS.items():
    for spec in specs.values():

        rule:
            name:
                spec.rule
            input:
                check_inputs(spec),
            output:
                **check_outputs(spec),
            log:
                check_log(spec),
            resources:
                mem_mb=4000,
            params:
                paper=spec.paper,
                check=spec.id,
                spec=record_digest(spec),
                config=check_params_config(spec),
                code=check_code(spec),
            run:
                run_job(script("check"), input, output, params, wildcards, log, workflow)

        if spec.figure:

            rule:
                name:
                    f"{spec.rule}_figure"
                input:
                    check_figure_data(spec),
                output:
                    pdf=f"{REPORTS}/figures/{paper}/check_{spec.id}.pdf",
                    png=report(
                        f"{REPORTS}/figures/{paper}/check_{spec.id}.png",
                        caption=report_caption(paper, f"check_{spec.id}"),
                        category=paper,
                        subcategory=f"Check {spec.id}",
                    ),
                log:
                    f"{LOGS}/{paper}/figure_check_{spec.id}.log",
                localrule: True
                params:
                    config=job_config(),
                    code=code("check_figure"),
                run:
                    run_job(
                        script("check_figure"),
                        input,
                        output,
                        params,
                        wildcards,
                        log,
                        workflow,
                    )

        if spec.table is not None:

            rule:
                name:
                    f"{spec.rule}_table"
                input:
                    check_table_data(spec),
                output:
                    tex=f"{REPORTS}/tables/{paper}/{spec.table.name}.tex",
                    csv=report(
                        f"{REPORTS}/tables/{paper}/{spec.table.name}.csv",
                        caption=report_caption(paper, spec.table.name),
                        category=paper,
                        subcategory="Tables",
                    ),
                log:
                    f"{LOGS}/{paper}/table_{spec.table.name}.log",
                localrule: True
                params:
                    paper=spec.paper,
                    check=spec.id,
                    config=job_config(),
                    code=code("check_table", spec.table.display or "dpbandits.tables"),
                run:
                    run_job(
                        script("check_table"),
                        input,
                        output,
                        params,
                        wildcards,
                        log,
                        workflow,
                    )


# The table of every check of each paper (online_checks_table, dueling_checks_table, ...).
for paper in CHECKS:

    rule:
        name:
            f"{paper}_checks_table"
        input:
            claim_files(paper),
        output:
            tex=f"{REPORTS}/tables/{paper}/checks.tex",
            csv=report(
                f"{REPORTS}/tables/{paper}/checks.csv",
                caption=report_caption(paper, "checks"),
                category=paper,
                subcategory="Tables",
            ),
        log:
            f"{LOGS}/{paper}/checks_table.log",
        localrule: True
        params:
            paper=paper,
            config=job_config(),
            code=code("checks_table"),
        run:
            run_job(
                script("checks_table"),
                input,
                output,
                params,
                wildcards,
                log,
                workflow,
            )
