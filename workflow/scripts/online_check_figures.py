"""Entry point of rule online_check_figure_claims (spec section 6.1)."""


from dpbandits.claims import write_claims
from dpbandits.io import read_results_or_quarantine
from dpbandits.online import figure_checks as fc
from dpbandits.rng import make_rng
from dpbandits.workflow import run_script


def main(smk):
    cfg = smk.config
    scale, checks = cfg["scale"], cfg["online"]["checks"]
    long = read_results_or_quarantine(smk.input.long)
    runs = read_results_or_quarantine(smk.input.runs)
    boot = checks["bootstrap"]
    write_claims(fc.check_similarity(runs, scale, make_rng(cfg["seed"], "online", "check", "FIG-C1"),
                                     boot), smk.output.c1)
    write_claims(fc.check_ranking(runs, scale, checks["alpha"]), smk.output.c2)
    write_claims(fc.check_shape(long, scale, make_rng(cfg["seed"], "online", "check", "FIG-SHAPE"),
                                boot), smk.output.shape)
    write_claims(fc.check_eps_monotone(runs, scale), smk.output.eps)


run_script(snakemake, main)
