"""Entry point of the exact and unit check rules (FT-9, U-1 ... U-5, P-EXACT-RNM)."""

from dpbandits.claims import write_claims
from dpbandits.online import exact_checks as ex
from dpbandits.rng import make_rng
from dpbandits.tables import write_table
from dpbandits.workflow import run_script


def main(smk):
    cfg, check = smk.config, smk.params.check
    scale, exact = cfg["scale"], cfg["online"]["exact"]
    rng = make_rng(cfg["seed"], "online", "check", check)
    if check == "P-EXACT-RNM":
        table = ex.rnm_loss_table()
        display = table.assign(loss=table["loss"].map("{:.3f}".format),
                               loss_over_eps=table["loss_over_eps"].map("{:.4f}".format))
        write_table(table, smk.output.tex, smk.output.csv,
                    "Exact privacy loss of one RNM-FTNL release under Definition 1's neighbours "
                    "(one whole reward vector replaced), epoch of n rounds (spec issue P1)",
                    "tab:online-rnm-loss", display=display)
        out = ex.check_p_exact_rnm(scale, table)
    elif check == "FT-9":
        out = ex.check_ft9(scale)
    elif check == "U-1":
        out = ex.check_u1(scale, rng, exact["schedule_horizon"])
    elif check == "U-2":
        out = ex.check_u2(scale, rng, exact["laplace_samples"])
    else:
        out = {"U-3": ex.check_u3, "U-4": ex.check_u4, "U-5": ex.check_u5}[check](scale)
    write_claims(out.claims, smk.output.claims)


run_script(snakemake, main)
