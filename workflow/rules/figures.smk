# Every figure and table of the papers, from the papers' figure records
# (dpbandits.<paper>.experiments.registry, dpbandits.records.Figure): one named rule each
# (contextual_fig7_regret_vs_n, quantile_fig2_quantile_difference, ...), one entry point
# (workflow/scripts/figure.py) that runs the record's function. Figures 1-2 of the online paper
# and its final-regret table draw the researcher's own algorithms too: online.smk.


for paper, figs in FIGURES.items():
    for fig in figs.values():

        rule:
            name:
                fig.rule
            input:
                **figure_inputs(fig),
            output:
                **figure_outputs(fig),
            log:
                f"{LOGS}/{paper}/figure_{fig.id}.log",
            localrule: True
            params:
                paper=fig.paper,
                figure=fig.id,
                record=record_digest(fig),
                config=job_config(*fig.config),
                code=code("figure", fig.module),
            run:
                run_job(script("figure"), input, output, params, wildcards, log, workflow)

        describe(fig.rule, fig.title)
