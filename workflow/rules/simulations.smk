# Every simulation design of the four papers, from the papers' simulation records
# (dpbandits.<paper>.experiments.registry, dpbandits.records.Simulation): one named rule per
# design, one job per combination of the wildcards in its output paths, and one entry point
# (workflow/scripts/simulate.py) that runs the record's function.


for paper, sims in SIMULATIONS.items():
    for sim in sims.values():

        rule:
            name:
                sim.rule
            output:
                **simulation_outputs(sim),
            log:
                f"{LOGS}/{paper}/{sim.log}",
            threads: 1
            resources:
                mem_mb=sim.mem_mb,
                runtime=sim.runtime,
            params:
                paper=sim.paper,
                simulation=sim.id,
                record=record_digest(sim),
                config=simulation_config(sim),
                code=code("simulate", sim.module),
            run:
                run_job(script("simulate"), input, output, params, wildcards, log, workflow)

        describe(sim.rule, sim.title)
