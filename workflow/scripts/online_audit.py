"""Entry point of the online audit rules: the real mechanism and its negative control."""

import logging

from dpbandits.claims import write_claims
from dpbandits.online import audits
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg, a = smk.config, smk.config["online"]["audit"]
    which = smk.params.mechanism
    results = {}
    for role, mult in (("real", 1.0), ("control", a["control_noise_multiplier"])):
        rng = make_rng(cfg["seed"], "online", "audit", which, role)
        if which == "dp_se":
            results[role] = audits.audit_dp_se(a["epsilon"], a["dp_se_horizon"], a["samples"], rng,
                                               a["confidence"], mult)
        else:
            results[role] = audits.audit_lazy_release(a["epsilon"], a["samples"], rng,
                                                      a["confidence"], mult)
        logging.info("%s %s: %s", which, role, results[role])
    if which == "dp_se":
        rows = audits.audit_claims("P-AUDIT-DPSE", "DP-SE's epoch elimination",
                                   "Sajed & Sheffet 2019; spec 5.1", results["real"],
                                   results["control"], a["control_noise_multiplier"], cfg["scale"])
    else:
        rows = audits.audit_claims("P-AUDIT-LAZY-RELEASE",
                                   "the doubling-batch Laplace release of Lazy-DP-TS / Alg. 1",
                                   "Thms 2, 4", results["real"], results["control"],
                                   a["control_noise_multiplier"], cfg["scale"])
    write_claims(rows, smk.output[0])


run_script(snakemake, main)
