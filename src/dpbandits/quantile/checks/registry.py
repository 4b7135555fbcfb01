"""Every check of the quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate), for the one
registry (:mod:`dpbandits.evidence.registry`). Spec ``quantile_bandits.md`` section 6: analytic checks
(A1-A9), simulations of SEQ / Epoch-SEQ / DP-SEQ (A10, A11, B1-B15), the figures' readings
(F1-F4b) and the optional baselines (D1-D3, additions, not in the paper). Rule names say what each
reproduces, so that ``snakemake --list-rules`` reads like the paper.

Guards (:mod:`dpbandits.evidence.guards`): every PASS of a claim of the paper carries power
evidence against a wrong paper, whose form the row names (``power_form``: a rate above the stated
delta, an exponent off by one, a constant off by a factor, the paper's text read another way, the
stated order reversed; the ``alternative`` texts below are what each row's power is shown
against); a PASS powered only against a straw man (shuffled labels) is INCONCLUSIVE ``no_power``.
Scaling claims apply in a stated regime (uncensored runs; for DP-SEQ, the term of line 8 the
claim is about); comparisons report whether their groups are tied at the cap. Rows that are not
claims of the paper have kinds ``control`` (A1, A2, the audit's negative control), ``identity``
(A10 and A10-DP: comparison-only code under order-preserving maps; A11, B13-FORMULA, F2-IDENTITY,
F4A-IDENTITY; B12, B14-DP and F4B-SLOPE, F4B-MONOTONE, F4B-ABOVE: line 8's arithmetic) and
``sanity`` (B6). Theorem 5's lower bound (B7) is tested on the SPRT oracle that knows its
instances, SEQ being far above it (B7-SEQ, a report).
"""

from __future__ import annotations

from dpbandits.evidence.registry import Check, Guard, TableSpec

PAPER = "quantile"
ANALYTIC = {"settings": ("quantile.analytic",)}  # the analytic checks' settings
AC = "dpbandits.quantile.checks.analytic"
SC = "dpbandits.quantile.checks.seq"
DC = "dpbandits.quantile.checks.dp"
BC = "dpbandits.quantile.checks.baselines"

# every design table of the simulations (A11 reads them all)
SIM_DESIGNS = ("disc_grid", "gauss_q", "fig4_gauss", "fig4_logn", "invariance", "pac", "gap_scaling",
               "delta_scaling", "lower_bound", "zero_gap", "k_factor_seq", "logn10_seq", "fig4_lower",
               "dp_pac", "dp_eps", "dp_gap", "dp_k", "epoch_seq")


def designs(*names: str) -> dict[str, tuple[str, ...]]:
    return {d: (f"sim/quantile/{d}.parquet",) for d in names}


def _analytic(check_id: str, rule: str, function: str, seeded: bool = True, title: str = "",
              guards: tuple[Guard, ...] = ()) -> Check:
    return Check(check_id, PAPER, rule, f"{AC}:{function}", keywords=ANALYTIC, seeded=seeded,
                 title=title, guards=guards)


def _sim(check_id: str, rule: str, module: str, function: str, names: tuple[str, ...], figure: bool = False,
         title: str = "", table: TableSpec | None = None, guards: tuple[Guard, ...] = ()) -> Check:
    return Check(check_id, PAPER, rule, f"{module}:{function}", inputs=designs(*names), bootstrap=True,
                 figure=figure, title=title, table=table, guards=guards)


# the stated alternatives and regimes (dpbandits.evidence.guards)
RATES = "some rate at or above its stated target: Holm over one-sided binomial tests at family level 0.05"
POOLED = "the pooled rate at the smallest stated delta: one-sided binomial test of 'rate >= delta'"
EXTRA_LOG = "one more factor log(1/Delta) than Theorem 4's rate (its slope / C-hat drift on the same grid)"
UNCENSORED = "every run terminated before its cap"
PRIVACY = "the privacy term 64 (m-1) / (Gamma eps) of line 8 sets every epoch's size; no run censored"
NONPRIVATE = "the non-private term 16 / Gamma^2 of line 8 sets every epoch's size; no run censored"
TOST = "a ratio of means outside [0.8, 1.25]: equivalence (TOST) at family level 0.05 (a significant test)"


def _rates(rows: str = "*") -> tuple[Guard, ...]:
    return (Guard(rows=rows, alternative=RATES),)


FIG3 = (Guard(rows="*-C-RANGE", regime=UNCENSORED, alternative=EXTRA_LOG),
        Guard(rows="*-C-MEDIAN", regime=UNCENSORED, alternative="the paper's 'samples' read as total pulls (2 x C-hat)"),
        Guard(rows="*-CORRECT", alternative=POOLED), Guard(rows="*-BOUND", alternative=POOLED))

CHECKS = [
    # analytic (spec 6.1)
    _analytic("A1", "quantile_conventions", "check_a1", seeded=False, title="conventions: the n_* and e_* tables"),
    _analytic("A2", "quantile_gap_engine", "check_a2", seeded=False, title="the gap engine against closed forms"),
    _analytic("A3", "quantile_thm2_distance_to_flip", "check_a3", seeded=False, title="Theorem 2",
              guards=(Guard(rows="A3*", alternative="d_flip = Delta / 2 or 2 Delta (the same rules at the same cases)"),)),
    _analytic("A4", "quantile_lemma2_tv_sandwich", "check_a4", title="Lemma 2",
              guards=(Guard(alternative="the sandwich of half width eta / 2 on the same pairs and levels"),)),
    _analytic("A5", "quantile_prop1_lipschitz", "check_a5", seeded=False, title="Proposition 1",
              guards=(Guard(alternative="the bound with half its constant (L/4)"),)),
    _analytic("A7", "quantile_thm5_kl_erratum", "check_a7", seeded=False, title="Theorem 5's algebra (erratum)",
              guards=(Guard(rows="A7-CONST", alternative="the displayed step (35), 1/(15 gamma^2), which gives 3/125"),)),
    _analytic("A8", "quantile_thm6_sensitivity", "check_a8", title="Theorem 6: sensitivity of max{0, ell*}",
              guards=(Guard(alternative="sensitivity <= 1/2 (noise calibrated to half the sensitivity)"),)),
    _analytic("A9", "quantile_thm6_exact_privacy_loss", "check_a9",
              title="Theorem 6: exact per-epoch privacy loss over every removal set",
              guards=(Guard(alternative="the Laplace scale x0.5 (2 eps-DP on the tied tables), same tables"),)),
    Check("AUDIT-DPSEQ", PAPER, "quantile_audit_dp_seq", "dpbandits.quantile.checks.audits:check_audit",
          keywords={"settings": ("quantile.audit",)}, title="black-box audit of DP-SEQ's first two epochs",
          guards=(Guard(rows="AUDIT-DPSEQ",
                        alternative="noise shrunk x0.5 (2 eps-DP on the audit's tables) and the cross-epoch leak classes"),)),
    _analytic("B1", "quantile_thm1_coverage", "check_b1", title="Theorem 1 coverage", guards=_rates()),
    _analytic("B2", "quantile_lemma1_uniform_coverage", "check_b2", title="Lemma 1", guards=_rates()),
    Check("F1", PAPER, "quantile_fig1_claims", "dpbandits.quantile.checks.figures:check_f1",
          keywords={"settings": ()}, seeded=False, title="Figure 1's readings",
          guards=(Guard(alternative="the stated orders reversed: the exponential curves mirrored in q, both panels' "
                                    "parameters in reverse order"),)),
    # SEQ and the non-private figures (spec 6.2-6.3)
    _sim("A10", "quantile_invariance_monotone_maps", SC, "check_a10", ("invariance",),
         title="identical runs under monotone maps"),
    _sim("A11", "quantile_run_records", SC, "check_a11", SIM_DESIGNS, title="run-record integrity"),
    _sim("B3", "quantile_thm3_delta_pac", SC, "check_b3", ("pac",), title="Theorem 3: delta-PAC", guards=_rates()),
    _sim("B4", "quantile_thm4_explicit_bound", SC, "check_b4", ("pac",), title="Theorem 4's explicit bound",
         guards=_rates()),
    _sim("B5", "quantile_thm4_samples_vs_gap", SC, "check_b5", ("gap_scaling",), figure=True,
         title="samples ~ (log(K/delta) + log(1/Delta)) / Delta^2",
         guards=(Guard(rows="B5-*", regime=UNCENSORED, alternative=EXTRA_LOG),)),
    _sim("B6", "quantile_thm4_samples_vs_delta", SC, "check_b6", ("delta_scaling",),
         title="samples linear in log(1/delta)",
         guards=(Guard(rows="B6-LINEAR", regime=UNCENSORED,
                       alternative="a purely quadratic law in log(1/delta) (its R^2 on the same grid)"),)),
    _sim("B7", "quantile_thm5_lower_bound", SC, "check_b7", ("lower_bound",), title="Theorem 5's lower bound",
         guards=(Guard(rows="B7-[KP]*", alternative="the bound violated by a factor 2 (the oracle at half of it)"),)),
    _sim("B8", "quantile_zero_gap_never_terminates", SC, "check_b8", ("zero_gap",),
         title="no termination at Delta = 0", guards=_rates()),
    _sim("B15", "quantile_epoch_seq_vs_seq", SC, "check_b15", ("epoch_seq", "disc_grid"), title="Epoch-SEQ",
         guards=_rates("B15-PAC")),
    _sim("F2", "quantile_fig2_claims", SC, "check_f2", ("disc_grid",), title="Figure 2's readings",
         guards=(Guard(rows="F2-EQUAL", compares=True, alternative=TOST),
                 Guard(rows="F2-MONOTONE", compares=True, alternative="the same runs with the Delta labels shuffled"),
                 Guard(rows="F2-CORRECT", alternative=POOLED))),
    _sim("F3A", "quantile_fig3_upper_claims", SC, "check_f3a", ("gauss_q",), title="Figure 3 (upper)'s readings",
         guards=FIG3),
    _sim("F3B", "quantile_fig3_lower_claims", SC, "check_f3b", ("disc_grid",), title="Figure 3 (lower)'s readings",
         guards=FIG3),
    _sim("F4A", "quantile_fig4_upper_claims", SC, "check_f4a", ("fig4_gauss", "fig4_logn", "invariance"),
         title="Figure 4 (upper)'s readings", guards=(Guard(rows="F4A-EQUAL", compares=True, alternative=TOST),)),
    # DP-SEQ (spec 6.2)
    _sim("B9", "quantile_thm7a_dp_correctness", DC, "check_b9", ("dp_pac",), title="Theorem 7(a)", guards=_rates()),
    _sim("B10", "quantile_thm7b_elimination_epoch", DC, "check_b10", ("dp_pac",), title="Theorem 7(b)",
         guards=_rates()),
    _sim("B11", "quantile_thm8_dp_sample_bound", DC, "check_b11", ("dp_pac",), title="Theorem 8", guards=_rates()),
    _sim("B12", "quantile_dp_cost_vs_eps", DC, "check_b12", ("dp_eps",), figure=True, title="DP cost ~ 1/eps",
         guards=(Guard(regime=PRIVACY, alternative="a cost independent of eps (slope 0)"),)),
    _sim("B13", "quantile_dp_cost_vs_gap", DC, "check_b13", ("dp_gap",), figure=True,
         title="1/Delta in the privacy regime, 1/Delta^2 at large eps",
         guards=(Guard(rows="B13-PRIVATE", regime=PRIVACY, alternative="1/Delta^2, the non-private term (slope 2)"),
                 Guard(rows="B13-NONPRIVATE", regime=NONPRIVATE, alternative="1/Delta, the privacy term (slope 1)"))),
    _sim("B14", "quantile_dp_cost_vs_K", DC, "check_b14", ("dp_k", "k_factor_seq"), figure=True,
         title="the factor K",
         guards=(Guard(rows="B14-DP", regime=PRIVACY, alternative="no factor K (slope 0)"),
                 Guard(rows="B14-SEQ", regime=UNCENSORED, alternative="a linear factor K per arm, as DP-SEQ's (slope 1)"))),
    _sim("F4B", "quantile_fig4_lower_claims", DC, "check_f4b", ("fig4_lower", "logn10_seq"),
         title="Figure 4 (lower)'s readings",
         guards=(Guard(rows="F4B-MONOTONE", compares=True, alternative="the same runs with the eps labels shuffled"),
                 Guard(rows="F4B-ABOVE", compares=True, alternative="DP / SEQ <= 1 (one-sided CI test)"),
                 Guard(rows="F4B-ABSDIFF", compares=True,
                       alternative="no decrease under both readings, difference and ratio (one-sided CI tests)"),
                 Guard(rows="F4B-SLOPE", regime=PRIVACY, alternative="a cost independent of eps (slope 0)"),
                 Guard(rows="F4B-CORRECT", alternative=POOLED))),
    # optional baselines (additions, spec 5 and 6.4)
    _sim("D1", "quantile_qpac_at_discontinuity", BC, "check_d1", ("qpac_discontinuity",),
         title="QPAC at a discontinuity (addition)",
         guards=(Guard(rows="D1-QPAC", alternative="QPAC stopping in more than 5% of runs (one-sided CP test)"),
                 Guard(rows="D1-SEQ", alternative=POOLED))),
    _sim("D2", "quantile_baselines_context", BC, "check_d2", ("baseline_context",),
         title="SEQ, QPAC, QLUCB and Max-Q on the same streams (addition)",
         table=TableSpec("baselines",
                         "Optional baselines (additions, not in the paper): SEQ vs QPAC, QLUCB (eps = 0) and Max-Q "
                         "(eps = Delta/2); mean total pulls, ratio to SEQ on the same reward streams, error and censored "
                         "rates (check D2)", "tab:quantile-baselines", display=f"{BC}:table_display")),
    _sim("D3", "quantile_cauchy_heavy_tails", BC, "check_d3", ("cauchy_tails",), figure=True,
         title="SEQ on Cauchy arms (addition)",
         guards=(Guard(rows="D3-PAC", alternative=RATES),
                 Guard(rows="D3-SLOPE-*", regime=UNCENSORED, alternative=EXTRA_LOG))),
]

# A researcher's own algorithms (quantile.extra_algorithms; checks.extra): audited (a private
# class) and compared with SEQ or DP-SEQ, never claims of the paper (the inventory counts them apart).
CHECKS += [
    Check("X-AUDIT", PAPER, "quantile_extra_audit", "dpbandits.quantile.checks.extra:check_x_audit",
          root_seed=True, keywords={"a": ("quantile.extra_algorithms",)},
          title="black-box audit of each private extra algorithm at its claimed epsilon, with its negative control"),
    Check("X-SAMPLES", PAPER, "quantile_extra_samples", "dpbandits.quantile.checks.extra:check_x_samples",
          root_seed=True, keywords={"a": ("quantile.extra_algorithms",), "n_boot": "quantile.checks.bootstrap"},
          title="samples of each extra algorithm relative to SEQ or DP-SEQ"),
]
