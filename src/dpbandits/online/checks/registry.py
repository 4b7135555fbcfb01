"""Every check of the online paper (Hu, Huang, Mehta & Hegde), for the one registry
(:mod:`dpbandits.evidence.registry`): rule names, the result files each reads (relative to the run's
seed root, see ``workflow/rules/common.smk``), the config values it declares and its function.

Spec sections: 6.1 figure claims (FIG-*), 6.2 bandit theory (BT-*), 6.3 full information (FT-*),
6.4-6.5 exact lemma checks (U-*, FT-9) and privacy (P-*).

Guards (:mod:`dpbandits.evidence.guards`): rate and scaling claims whose constants the paper
leaves open apply where the algorithm has left the trivial policy's regret (the uniformly random
arm, :mod:`dpbandits.online.checks.evidence`), or, for worst cases over Delta, where the maximising gap
lies inside the grid; orderings carry a floor guard (tied at the trivial policy's regret); every
PASS states the alternative it would have failed and what kind of wrong paper that alternative is
(``Evidence.power_form``): a PASS whose only alternative is not a way the paper could be wrong is
INCONCLUSIVE no_power. The ``alternative`` texts below are what a row's power is shown against
when the row does not say. No claim of this paper is about real data.
Not claims of the paper (kinds): the audits' negative controls (control), U-2 (control), U-1,
U-3, BT-2-*, BT-4-*, FT-4-HIGH-PRIVACY and FT-5-NAIVE (identity: fixed by the code's own
constants), BT-7-BOUND-*, FT-7-BOUND, FT-8, FT-8-C2 (sanity bars of the specification);
FT-FRONTIER reports the privacy-regret frontier against Theorem 12 (a probe, not a test).
"""

from __future__ import annotations

from dpbandits.evidence.registry import Check, Guard, TableSpec

PAPER = "online"
RUNS = {"runs": ("agg/online/figures_runs.parquet",)}
LONG = {"long": ("agg/online/figures.parquet",)}
BANDIT_ALGORITHMS = ("anytime_lazy_ucb", "lazy_dp_ts")  # the algorithms of every bandit design


def _full_info(*designs: str) -> dict[str, tuple[str, ...]]:
    return {d: (f"sim/online/full_info/{d}.parquet",) for d in designs}


def _bandit(*designs: str) -> dict[str, tuple[str, ...]]:
    """Per design, the union of its per-algorithm tables."""
    return {d: tuple(f"sim/online/bandit/{d}/{a}.parquet" for a in BANDIT_ALGORITHMS) for d in designs}


def _rule(check_id: str) -> str:
    return f"online_check_{check_id.lower().replace('-', '_')}"


FC = "dpbandits.online.checks.figures"
FI = "dpbandits.online.checks.full_info"
BC = "dpbandits.online.checks.bandit"
EX = "dpbandits.online.checks.exact"
AU = "dpbandits.online.checks.audits"
AUDIT = {"a": ("online.audit",)}  # the audits' settings
FIG = "online.figures"  # the figures' means and T (the trivial policy's regret) and AdaP's alpha

BELOW_TRIVIAL = "every point of the claim below half the trivial (uniform) policy's regret (upper CI)"
EXPONENT = "an exponent off by the band's margin: slopes twice as far from the claim as the band allows"
CONTROL = ("the negative control: the same audit on the mechanism with its Laplace scale "
           "x online.audit.control_noise_multiplier (0.5: a release that is only 2 eps-DP) must be caught")
TIGHTENED = ("the lemma's stated constant off by a factor: the same exact computation with it tightened 2, 4, "
             "8, ... fold")
VIOLATED = "the bound violated by a factor 2 in the tightest cell (its CI scaled there)"
LOG_T_REGIME = (BELOW_TRIVIAL + ", and growing like log T over the last decade: the growth exponent "
                "log10(R(T) / R(T/10)) below 0.5 (upper CI) in every cell, where exploration's doubling "
                "staircase has about 1")
INTERIOR = ("the Delta grid brackets the maximum at every T, or the largest value the maximum could take "
            "beyond the grid (T Delta) leaves the verdict unchanged")

CHECKS = [
    # 6.1: the readings of Figures 1-2
    Check("FIG-C1", PAPER, "online_check_fig_c1", f"{FC}:check_fig_c1", inputs=RUNS, bootstrap=True, keywords={"settings": (FIG,)},
          title="Lazy-DP-TS is similar to AdaP-KLUCB (Figures 1-2)",
          guards=(Guard(compares=True,
                        alternative="the similarity off by a factor 9: rho = 1/9 or 9 (twice as far from 1 as "
                                    "the band allows)"),)),
    Check("FIG-C2", PAPER, "online_check_fig_c2", f"{FC}:check_fig_c2", inputs=RUNS,
          keywords={"settings": ("online.checks.alpha", FIG)},
          title="Lazy-DP-TS beats DP-SE and Anytime-Lazy-UCB (Figures 1-2)",
          guards=(Guard(compares=True, alternative="Lazy-DP-TS no better than a comparator in some panel "
                        "(the tests' null)"),)),
    Check("FIG-SHAPE", PAPER, "online_check_fig_shape", f"{FC}:check_fig_shape", inputs=LONG,
          bootstrap=True, keywords={"settings": (FIG,)},
          title="logarithmic growth of the regret (Figures 1-2)",
          guards=(Guard(rows="FIG-SHAPE", regime="the regret added over the last decade below half "
                        "the trivial policy's in every panel", alternative="sqrt(T) growth in place of log T (decade ratio "
                        "3.16)"),)),
    Check("FIG-EPS", PAPER, "online_check_fig_eps", f"{FC}:check_fig_eps", inputs=RUNS,
          bootstrap=True, keywords={"settings": ("online.checks.alpha", FIG)}, title="regret non-increasing in epsilon (Figures 1-2)",
          guards=(Guard(compares=True, regime=BELOW_TRIVIAL,
                        alternative="the order reversed: regret 10% higher at the larger epsilon (the "
                                    "non-inferiority tests' null)"),)),
    # 6.5: black-box audits, each with its negative control
    Check("P-AUDIT-DPSE", PAPER, "audit_online_dp_se", f"{AU}:check_p_audit_dpse", root_seed=True, keywords=AUDIT,
          title="DP-SE's first two epochs on neighbouring reward tables",
          guards=(Guard(alternative=CONTROL),)),
    Check("P-AUDIT-LAZY-RELEASE", PAPER, "audit_online_lazy_dp_ts_release", f"{AU}:check_p_audit_lazy_release",
          root_seed=True, keywords=AUDIT, title="Lazy-DP-TS's (and Alg. 1's) doubling-batch Laplace release",
          guards=(Guard(alternative=CONTROL),)),
    Check("P-AUDIT-RNM", PAPER, "audit_online_rnm_ftnl", f"{AU}:check_p_audit_rnm", root_seed=True, keywords=AUDIT,
          title="RNM-FTNL (Alg. 4): the corrected Lap(2/eps), its control, and the paper's Lap(1/eps)",
          guards=(Guard(alternative=CONTROL),)),
    Check("P-MC-ALG1", PAPER, "audit_online_anytime_lazy_ucb", f"{AU}:check_p_mc_alg1", root_seed=True,
          keywords=AUDIT, title="P-MC-BANDIT for Alg. 1: the whole algorithm on neighbouring reward tables",
          guards=(Guard(alternative=CONTROL),)),
    Check("P-MC-ADAP", PAPER, "audit_online_adap_klucb", f"{AU}:check_p_mc_adap", root_seed=True, keywords=AUDIT,
          title="P-MC-BANDIT for AdaP-KLUCB: the whole algorithm on neighbouring reward tables",
          guards=(Guard(alternative=CONTROL),)),
    Check("P-AUDIT-ADAP-RELEASE", PAPER, "audit_online_adap_release", f"{AU}:check_p_audit_adap_release",
          root_seed=True, keywords=AUDIT, title="AdaP-KLUCB's episode-mean Laplace release",
          guards=(Guard(alternative=CONTROL),)),
    # 6.3: full information (RNM-FTNL, Alg. 4)
    Check("FT-1", PAPER, _rule("FT-1"), f"{FI}:check_ft1", inputs=_full_info("hard_grid"), bootstrap=True,
          figure=True, title="FT-1: rate log K / min(Delta, eps) on the hardest instance",
          guards=(Guard(regime=BELOW_TRIVIAL, alternative="a cost linear in K in place of ln K: R x K / ln K "
                        "(the naive budget split's)"),)),
    Check("FT-2", PAPER, _rule("FT-2"), f"{FI}:check_ft2", inputs=_full_info("hard_grid", "eq_dbl_grid"),
          bootstrap=True, title="FT-2: the explicit Theorem 9 constant",
          guards=(Guard(alternative=VIOLATED),)),
    Check("FT-3", PAPER, _rule("FT-3"), f"{FI}:check_ft3", inputs=_full_info("t_independence"), bootstrap=True,
          figure=True, title="FT-3: no growth in T",
          guards=(Guard(regime="R(T/100) below half the trivial policy's regret at T/100",
                        alternative="an extra ln T factor: R ~ ln T"),)),
    Check("FT-4", PAPER, _rule("FT-4"), f"{FI}:check_ft4", inputs=_full_info("eps_regimes"), bootstrap=True,
          figure=True, title="FT-4: the two epsilon regimes",
          guards=(Guard(regime=BELOW_TRIVIAL, alternative=EXPONENT),)),
    Check("FT-5", PAPER, _rule("FT-5"), f"{FI}:check_ft5", inputs=_full_info("naive_vs_rnm"), bootstrap=True,
          figure=True, title="FT-5: RNM vs the naive budget split",
          guards=(Guard(regime=BELOW_TRIVIAL, alternative="an extra ln K factor: R x ln K"),)),
    Check("FT-6", PAPER, _rule("FT-6"), f"{FI}:check_ft6", inputs=_full_info("doubling_gap"), bootstrap=True,
          figure=True, title="FT-6: the doubling-gap conjecture"),
    Check("FT-7", PAPER, _rule("FT-7"), f"{FI}:check_ft7", inputs=_full_info("minimax"), bootstrap=True,
          figure=True, title="FT-7: sqrt(T log K) worst case (Cor. 11)",
          guards=(Guard(rows="FT-7-SLOPE", regime=INTERIOR,
                        alternative="an exponent off by the band's margin: slope 0.2 or 0.8"),)),
    Check("FT-8", PAPER, _rule("FT-8"), f"{FI}:check_ft8", inputs=_full_info("hard_grid"), bootstrap=True,
          title="FT-8: the Theorem 12 floor"),
    Check("FT-FRONTIER", PAPER, _rule("FT-FRONTIER"), "dpbandits.online.checks.frontier:check_ft_frontier",
          sizes={"paper": {"k": 16, "gap": 0.2, "epsilon": 1e-3, "horizon": 10**6, "runs": 200},
                               "smoke": {"k": 4, "gap": 0.2, "epsilon": 1e-2, "horizon": 10**4, "runs": 20,
                                         "multipliers": (1.0, 1e-2, 1e-4)}},
          figure=True, title="the privacy-regret frontier against Theorem 12 (a probe of the lower bound)"),
    # 6.2: bandit theory, Alg. 1 and Alg. 3
    Check("BT-1", PAPER, _rule("BT-1"), f"{BC}:check_bt1", inputs=_bandit("log_t"), bootstrap=True, figure=True,
          title="BT-1: log T growth",
          guards=(Guard(regime="the regret over [T/100, T] below half the trivial policy's in every "
                        "cell", alternative="sqrt(T) growth in place of log T (exponent 0.5)"),)),
    Check("BT-2", PAPER, _rule("BT-2"), f"{BC}:check_bt2_bt3", inputs=_bandit("eps_high", "eps_low"),
          bootstrap=True, figure=True, title="BT-2 / BT-3: regret ~ 1/eps when eps << Delta, fading when eps >> Delta",
          guards=(Guard(regime=LOG_T_REGIME),
                  Guard(rows="BT-3-*", alternative="the eps-dependence persisting where the paper says it fades "
                        "(slope -1)"))),
    Check("BT-4", PAPER, _rule("BT-4"), f"{BC}:check_bt4", inputs=_bandit("k_scaling"), bootstrap=True,
          figure=True, title="BT-4: privacy cost linear in K",
          guards=(Guard(regime=LOG_T_REGIME),)),  # both rows are identities (check_bt4): no alternative
    Check("BT-5", PAPER, _rule("BT-5"), f"{BC}:check_bt5",
          inputs=_bandit("log_t", "eps_high", "eps_low", "k_scaling"), bootstrap=True,
          title="BT-5: Theorem 3's explicit constants",
          guards=(Guard(alternative=VIOLATED),)),
    Check("BT-6", PAPER, _rule("BT-6"), f"{BC}:check_bt6",
          inputs=_bandit("log_t", "eps_high", "eps_low", "k_scaling"), bootstrap=True,
          title="BT-6: Lemma 19's epochs",
          guards=(Guard(alternative="Lemma 19's stated constant 24 off by a factor: the same rule with d_j "
                        "computed from 24 / 2, 24 / 4, ..."),)),
    Check("BT-7", PAPER, _rule("BT-7"), f"{BC}:check_bt7", inputs=_bandit("minimax"), bootstrap=True, figure=True,
          title="BT-7: sqrt(T) worst case and the instance-independent bound",
          guards=(Guard(rows="BT-7-SLOPE-*", regime=INTERIOR,
                        alternative="an exponent off by the band's margin: slope 0.1 or 0.9"),)),
    Check("BT-8", PAPER, "online_check_privacy_cost", f"{BC}:check_bt8_runs", inputs=RUNS,
          keywords={"settings": ("online.checks.alpha", FIG)},
          title="BT-8: private algorithms do not beat their non-private references",
          guards=(Guard(compares=True, alternative="the order reversed: one private cell 30% better than its "
                        "reference"),)),
    # 6.4: exact checks
    Check("FT-9", PAPER, _rule("FT-9"), f"{EX}:check_ft9", keywords={"settings": ()}, seeded=False, title="Lemma 24",
          guards=(Guard(alternative=TIGHTENED),)),
    Check("U-1", PAPER, _rule("U-1"), f"{EX}:check_u1", keywords={"settings": ("online.exact.schedule_horizon",)},
          title="the doubling schedule of Alg. 1 and Alg. 3"),
    Check("U-2", PAPER, _rule("U-2"), f"{EX}:check_u2", keywords={"settings": ("online.exact.laplace_samples",)},
          title="Fact 16: the Laplace tail"),
    Check("U-3", PAPER, _rule("U-3"), f"{EX}:check_u3", keywords={"settings": ()}, seeded=False, title="Fact 18"),
    Check("U-4", PAPER, _rule("U-4"), f"{EX}:check_u4", keywords={"settings": ()}, seeded=False, title="Lemma 7",
          guards=(Guard(alternative=TIGHTENED),)),
    Check("U-5", PAPER, _rule("U-5"), f"{EX}:check_u5", keywords={"settings": ()}, seeded=False, title="the Lemma 20 step",
          guards=(Guard(alternative=TIGHTENED),)),
    Check("P-EXACT-RNM", PAPER, "online_privacy_exact_rnm", f"{EX}:check_p_exact_rnm", keywords={"settings": ()}, seeded=False,
          table=TableSpec("rnm_privacy_loss",
                          "Exact privacy loss of one RNM-FTNL release under Definition 1's neighbours "
                          "(one whole reward vector replaced), epoch of n rounds (spec issue P1)",
                          "tab:online-rnm-loss", formats={"loss": "{:.3f}", "loss_over_eps": "{:.4f}"}),
          title="exact privacy loss of RNM-FTNL's release (Theorem 8, spec issue P1)",
          guards=(Guard(rows="P-EXACT-RNM-C2",
                        alternative="the paper's Lap(1/eps), same exact computation"),)),
]


# ---------------------------------------------------------------------------------------------
# A researcher's own algorithms (online.extra_algorithms; dpbandits.online.interface).
# Not claims of the paper: the audit rows are kind baseline (their controls kind control), the
# regret rows kind report; with no extra algorithm configured both checks write no row.
XC = "dpbandits.online.checks.extra"
CHECKS += [
    Check("X-AUDIT", PAPER, "online_extra_audit", f"{XC}:check_x_audit", root_seed=True,
          keywords={"a": ("online.audit.epsilon", "online.audit.confidence", "online.audit.control_noise_multiplier",
                          "online.extra_algorithms")},
          title="black-box audit of each extra algorithm at its claimed epsilon, with its negative control"),
    Check("X-REGRET", PAPER, "online_extra_regret", f"{XC}:check_x_regret",
          inputs={"runs": ("agg/online/figures_runs.parquet",), "extra": ("agg/online/extra_runs.parquet",)},
          bootstrap=True, title="final regret of each extra algorithm relative to Lazy-DP-TS (Figures 1-2)"),
]
