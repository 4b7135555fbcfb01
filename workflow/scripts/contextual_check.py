"""Entry point of every check rule of the contextual paper: dispatches on ``params.check``
(registry: dpbandits.contextual.registry)."""

import pandas as pd

from dpbandits.checks import CheckOutput
from dpbandits.claims import write_claims
from dpbandits.contextual import registry
from dpbandits.io import read_results_or_quarantine
from dpbandits.plotting import plot_scaling
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.params.check
    ccfg = cfg["contextual"]
    spec = registry.CHECKS[check]
    rng = make_rng(cfg["seed"], "contextual", "check", check)
    function = registry.function(check)
    if spec.group == "unit":
        out = function(rng, cfg["scale"], ccfg["unit"])
    elif spec.group == "audit":
        out = function(rng, cfg["scale"], ccfg["audit"])
    else:
        frames = {}
        paths = iter(smk.input)
        for name in spec.tables:
            frames[name] = pd.concat([read_results_or_quarantine(next(paths)) for _ in registry.input_jobs(name)],
                                     ignore_index=True)
        out = function(frames, rng, int(ccfg["checks"]["bootstrap"]), cfg["scale"])
    if not isinstance(out, CheckOutput):
        out = CheckOutput(list(out))
    write_claims(out.claims, smk.output.claims)
    if hasattr(smk.output, "pdf"):
        plot_scaling(out.figure, smk.output.pdf, smk.output.png)


run_script(snakemake, main)
