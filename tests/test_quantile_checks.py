"""The simulation checks of the quantile paper (A10, A11, B3-B15, F2-F4b) and the DP-SEQ audit:
each one runs on small real design tables, and FAILs once the tables are made to contradict its
claim."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest

from dpbandits.evidence import registry
from dpbandits.evidence.claims import POWER_FORMS
from dpbandits.evidence.guards import judge_all
from dpbandits.quantile.checks import audits
from dpbandits.quantile.experiments import designs as qexp

pytestmark = pytest.mark.xdist_group("quantile_checks")

SETTINGS = {
    "seq": {"fig_runs": 20, "fig4_runs": 20, "invariance_runs": 3, "pac_runs": 20, "pac_heavy_runs": 2,
            "scaling_runs": 8, "smallest_gap": 0.025, "lb_runs": 3, "zg_runs": 5, "zg_cap": 2000, "k_runs": 4,
            "logn10_runs": 5, "cap_factor": 20},
    "dp": {"invariance_runs": 3, "fig4_runs": 4, "pac_runs": 10, "scaling_runs": 4, "k_runs": 3},
    "baselines": {"d1_runs": 4, "d1_cap": 1000, "d2_runs": 4, "d3_runs": 4},  # D1-D3: test_quantile_baselines
}
ALL = {**registry.in_module("quantile", "dpbandits.quantile.checks.seq"),
       **registry.in_module("quantile", "dpbandits.quantile.checks.dp")}


@pytest.fixture(scope="module")
def tables():
    return {d: qexp.simulate_design(d, SETTINGS, 11) for d in qexp.SEQ_DESIGNS + qexp.EPOCH_DESIGNS}


def run(check, tables, **replace):
    spec = ALL[check]
    data = {d: replace.get(d, tables[d]).copy() for d in spec.inputs}
    out = spec.load()(data, np.random.default_rng(0), 300, "smoke")
    return {c.check_id: c.verdict for c in out.claims}


def judged(check, tables, **replace):
    """The rows of a check after the registry's guards (dpbandits.evidence.guards), by id."""
    spec = ALL[check]
    data = {d: replace.get(d, tables[d]).copy() for d in spec.inputs}
    out = spec.load()(data, np.random.default_rng(0), 300, "smoke")
    return {c.check_id: c for c in judge_all(out.claims, spec.guards, check)}


def test_every_check_runs_and_the_exact_ones_pass(tables):
    verdicts = {}
    for check in ALL:
        verdicts.update(run(check, tables))
    for cid in ("A10", "A11", "F2-IDENTITY", "F4A-IDENTITY", "B13-FORMULA"):
        assert verdicts[cid] == "PASS", cid
    assert all(v != "FAIL" for k, v in verdicts.items() if k.startswith(("B3", "B4", "B9", "B10", "B11")))


def _scale_column(t, column, factor, where=None):
    t = t.copy()
    rows = slice(None) if where is None else where(t)
    if column == "pulls":
        t.loc[rows, "pulls"] = t.loc[rows, "pulls"].apply(lambda p: (np.asarray(p) * factor).astype(np.int64))
        t["total_pulls"] = t["pulls"].apply(np.sum)
    else:
        t.loc[rows, column] = (t.loc[rows, column] * factor).astype(t[column].dtype)
    return t


def test_a10_fails_when_one_path_differs(tables):
    for alg, cid in (("seq", "A10"), ("dp_seq_reference", "A10-DP")):
        t = tables["invariance"].copy()
        t.loc[t.index[t["algorithm"] == alg][-1], "n_final"] += 1
        v = run("A10", tables, invariance=t)
        assert v[cid] == "FAIL" and v[{"A10": "A10-DP", "A10-DP": "A10"}[cid]] == "PASS"


def test_a11_fails_on_inconsistent_records(tables):
    t = tables["pac"].copy()
    t.at[t.index[0], "pulls"] = np.asarray(t.at[t.index[0], "pulls"]) + 1
    assert run("A11", tables, pac=t)["A11"] == "FAIL"
    d = tables["dp_pac"].copy()
    d.at[d.index[0], "pulls"] = np.asarray(d.at[d.index[0], "pulls"]) * 2
    d.at[d.index[0], "total_pulls"] = int(np.sum(d.at[d.index[0], "pulls"]))
    assert run("A11", tables, dp_pac=d)["A11"] == "FAIL"


def test_b3_b4_fail_on_errors_and_slow_runs(tables):
    t = tables["pac"].copy()
    t["correct"] = False
    assert run("B3", tables, pac=t)["B3"] == "FAIL"
    assert run("B4", tables, pac=_scale_column(tables["pac"], "pulls", 1000))["B4"] == "FAIL"


def test_b5_fails_on_a_linear_law(tables):
    t = tables["gap_scaling"].copy()
    t["n_final"] = (100 / t["a"]).astype(np.int64) + t["run"]
    v = run("B5", tables, gap_scaling=t)
    assert v["B5-GAP-DISC"] == "FAIL" and v["B5-RATE-ZG"] == "FAIL"


def test_b6_fails_when_delta_does_not_matter(tables):
    t = tables["delta_scaling"].copy()
    t["n_final"] = 1000 + t["run"]
    assert run("B6", tables, delta_scaling=t)["B6"] == "FAIL"


def test_b7_tests_the_bound_on_the_sprt_oracle(tables):
    """Theorem 5's bound is tested on the SPRT oracle (near the bound), not on SEQ (far above):
    the bound holds, a bound ten times as large FAILs, and SEQ's pulls do not decide the rows."""
    spec = ALL["B7"]
    data = {"lower_bound": tables["lower_bound"].copy()}
    v = {c.check_id: c for c in spec.load()(data, np.random.default_rng(0), 300, "smoke").claims}
    assert v["B7-PAPER"].verdict == v["B7-KL"].verdict == "PASS" and v["B7-SEQ"].verdict == "REPORT"
    assert v["B7-KL"].evidence.power == "FAIL" and 1 < v["B7-KL"].value < 4
    big = {c.check_id: c.verdict for c in spec.load()(data, np.random.default_rng(0), 300, "smoke", 10.0).claims}
    assert big["B7-PAPER"] == big["B7-KL"] == "FAIL"
    data["lower_bound"]["pulls"] = data["lower_bound"]["pulls"].apply(lambda p: np.ones_like(np.asarray(p)))
    seq_below = {c.check_id: c.verdict for c in spec.load()(data, np.random.default_rng(0), 300, "smoke").claims}
    assert seq_below["B7-KL"] == "PASS"


def test_sprt_oracle_is_delta_correct_and_near_the_kl_bound():
    """The oracle errs with probability <= delta under nu^(1) (Wald's inequalities) and needs
    about log((K - 1)/delta) / KL samples per suboptimal arm, within a factor 4 of the KL bound."""
    from dpbandits.quantile.checks.analytic import kl_mix
    from dpbandits.quantile.checks.seq import sprt_oracle

    rng = np.random.default_rng(3)
    for k, gamma in ((2, 0.05), (4, 0.08)):
        pulls, err = sprt_oracle(gamma, k, 0.05, 3000, rng)
        assert pulls.shape == (3000, k - 1) and err <= 0.05 + 3 * np.sqrt(0.05 / 3000)
        ratio = pulls.mean() / (np.log(1 / 0.2) / float(kl_mix(gamma)))
        assert 1.2 < ratio < 4.0


def test_b8_fails_if_zero_gap_runs_terminate(tables):
    t = tables["zero_gap"].copy()
    t = pd.concat([t] * 20, ignore_index=True)
    t["terminated"] = True
    assert run("B8", tables, zero_gap=t)["B8"] == "FAIL"


def test_b15_pac_fails_on_errors(tables):
    t = tables["epoch_seq"].copy()
    t["correct"] = False
    assert run("B15", tables, epoch_seq=t)["B15-PAC"] == "FAIL"


def test_f2_fails_when_xi_matters(tables):
    t = _scale_column(tables["disc_grid"], "n_final", 3, lambda x: x["b"] == 1e-5)
    v = run("F2", tables, disc_grid=t)
    assert v["F2-IDENTITY"] == "FAIL" and v["F2-EQUAL"] == "FAIL"
    t = tables["disc_grid"].copy()
    t["n_final"] = (t["a"] * 1e4).astype(np.int64)  # increasing in Delta
    assert run("F2", tables, disc_grid=t)["F2-MONOTONE"] == "FAIL"


def test_f3_fail_when_the_constant_drifts(tables):
    t = tables["gauss_q"].copy()
    t["n_final"] = (t["n_final"] * (1 + 20 * (t["q"] - 0.55))).astype(np.int64)
    assert run("F3A", tables, gauss_q=t)["F3A-C-RANGE"] == "FAIL"
    t = tables["disc_grid"].copy()
    t["n_final"] = (t["n_final"] * 20).astype(np.int64)
    assert run("F3B", tables, disc_grid=t)["F3B-C-MEDIAN"] == "FAIL"


def test_f4a_fails_when_log_normal_costs_more(tables):
    t = _scale_column(tables["fig4_logn"], "n_final", 3)
    assert run("F4A", tables, fig4_logn=t)["F4A-EQUAL"] == "FAIL"


def test_b9_b10_b11_fail(tables):
    t = tables["dp_pac"].copy()
    t["correct"] = False
    assert run("B9", tables, dp_pac=t)["B9"] == "FAIL"
    t = tables["dp_pac"].copy()
    t["elim"] = t["elim"].apply(lambda e: np.where(np.asarray(e) >= 0, np.asarray(e) + 5, -1))
    assert run("B10", tables, dp_pac=t)["B10"] == "FAIL"
    v = run("B11", tables, dp_pac=_scale_column(tables["dp_pac"], "pulls", 1000))
    assert v["B11-EPOCHSUM"] == "FAIL" and v["B11-PAPER"] == "FAIL"


def _law(t, values):
    t = t.copy()
    t["pulls"] = [np.full(int(k), v, dtype=np.int64) for k, v in zip(t["K"], values, strict=True)]
    t["total_pulls"] = t["pulls"].apply(np.sum)
    return t


def test_dp_scaling_checks_fail_on_wrong_laws(tables):
    rng = np.random.default_rng(0)
    e = tables["dp_eps"]
    assert run("B12", tables, dp_eps=_law(e, 1e3 / e["epsilon"] ** 2 * rng.uniform(0.99, 1.01, len(e))))["B12"] == "FAIL"
    g = tables["dp_gap"]
    assert run("B13", tables, dp_gap=_law(g, 10 / g["a"] ** 3))["B13-PRIVATE"] == "FAIL"
    # pulls that keep the elimination epochs but depart from line 8's epoch sizes by a factor Delta^-0.3
    off = g.copy()
    off["pulls"] = [np.round(np.asarray(p) * a ** -0.3).astype(np.int64) for p, a in zip(g["pulls"], g["a"], strict=True)]
    assert run("B13", tables, dp_gap=off)["B13-FORMULA"] == "FAIL"
    k = tables["dp_k"]
    assert run("B14", tables, dp_k=_law(k, 1e4 * (k["K"] - 1) ** 2))["B14-DP"] == "FAIL"
    s = tables["k_factor_seq"]
    assert run("B14", tables, k_factor_seq=_law(s, 1e3 * (s["K"] - 1)))["B14-SEQ"] == "FAIL"


def test_f4b_fails_when_privacy_is_free_or_grows_with_eps(tables):
    d = tables["fig4_lower"]
    grows = _law(d, 1e5 * d["epsilon"] * (1 + (d["q"] > 0.86)))
    v = run("F4B", tables, fig4_lower=grows)
    assert v["F4B-MONOTONE"] == "FAIL" and v["F4B-SLOPE"] == "FAIL"
    cheap = _law(d, np.full(len(d), 10))
    assert run("F4B", tables, fig4_lower=cheap)["F4B-ABOVE"] == "FAIL"
    reversed_gap = _law(d, 1e6 / d["epsilon"] * (1 + (d["q"] < 0.86)))
    assert run("F4B", tables, fig4_lower=reversed_gap)["F4B-ABSDIFF"] == "FAIL"


def test_audit_catches_its_control_and_a_broken_mechanism():
    rng = np.random.default_rng(0)
    settings = {"epsilon": 1.0, "samples": 60_000, "confidence": 0.999, "control_noise_multiplier": 0.25}
    rows = {c.check_id: c for c in audits.check_audit(rng, "smoke", settings)}
    assert {k: c.verdict for k, c in rows.items()} == {"AUDIT-DPSEQ": "PASS", "AUDIT-DPSEQ-CONTROL": "PASS"}
    audit = rows["AUDIT-DPSEQ"]
    assert audit.evidence.power == "FAIL" and audit.evidence.power_form == "privacy_2eps"
    assert "no violation found at m = 2, epochs 1 and 2" in audit.claim and "no power against" not in audit.claim
    broken = audits.audit_dp_seq(1.0, 60_000, rng, 0.999, noise_multiplier=0.25)
    assert broken.refuted


def test_the_audit_tables_reach_the_claimed_epsilon_and_each_leak_exceeds_it():
    """Exact losses on the audit's tables (in eps): DP-SEQ itself exactly 1 (tied tables: the
    accounting is tight), each mutant above 1, noise reuse infinite (an output impossible on
    one side)."""
    loss = audits._exact_loss
    assert loss(1.0) == pytest.approx(1.0, abs=1e-9)
    assert loss(1.0, 0.5) == pytest.approx(2.0, abs=1e-9)
    assert loss(1.0, 1.0, "composition") > 1.4
    assert loss(1.0, 1.0, "reuse") == np.inf


@pytest.mark.parametrize("leak, multiplier", [("none", 1.0), ("none", 0.5), ("composition", 1.0), ("reuse", 1.0)])
def test_the_sampled_transcripts_follow_their_exact_law(leak, multiplier):
    """Each mechanism's codes (production statistics, noise and removal rule) against the law
    :func:`code_probabilities` computes by hand: every frequency within 5 binomial sd."""
    rng = np.random.default_rng(11)
    n = 200_000
    for x, x_prime, _ in audits.audit_tables(1.0):
        for table in (x, x_prime):
            freq = np.bincount(audits.transcript_codes(table, 1.0, n, rng, multiplier, leak),
                               minlength=audits.N_CODES) / n
            law = audits.code_probabilities(table, 1.0, multiplier, leak)
            assert law.sum() == pytest.approx(1.0)
            assert np.all(np.abs(freq - law) <= 5 * np.sqrt(law * (1 - law) / n) + 1e-12), (leak, freq, law)


def test_the_audit_catches_every_leak_class_and_not_the_real_mechanism():
    rng = np.random.default_rng(4)
    power = {p.leak: p for p in audits.leak_power(1.0, 60_000, rng, 0.999)}
    assert set(power) == set(audits.LEAKS) and all(p.caught for p in power.values())
    assert not audits.audit_dp_seq(1.0, 60_000, rng, 0.999).refuted
    with pytest.raises(ValueError, match="unknown leak 'sideways'"):
        audits.transcript_codes(audits.audit_tables(1.0)[0][0], 1.0, 10, rng, leak="sideways")


def test_a_tied_table_moves_both_orders_of_the_pair():
    from dpbandits.quantile import dp_seq
    from dpbandits.quantile.checks.analytic import statistics_matrix, tied_table

    n = 400
    i, j, _ = dp_seq.epoch_ranks(n, 1, 0.5)
    for m in (2, 4):
        table, neighbour = tied_table(m, n, i, j, 30, 12)
        changed = [Counter(a.tolist()) - Counter(b.tolist()) for a, b in zip(table, neighbour, strict=True)]
        assert [sum(c.values()) for c in changed] == [1] + [0] * (m - 1)  # one sample of arm 0 replaced
        s, s2 = statistics_matrix(table, i, j), statistics_matrix(neighbour, i, j)
        assert (s[0, 1], s[1, 0], s2[0, 1], s2[1, 0]) == (30, 12, 29, 13)
        assert np.all(s[2:, :2] == 0)  # the arms below never remove arms 0 and 1
    with pytest.raises(ValueError, match="s_up = 500"):
        tied_table(2, n, i, j, 500, 1)


# ---------------------------------------------------------------------------------------------
# the guards on the simulation checks


def test_every_guarded_row_carries_its_evidence(tables):
    """Judging every check's rows through its registry guards raises no GuardError, rows that are
    not claims of the paper are validated, and no paper PASS lacks power against a wrong paper:
    its form is named and the verdict's text says which."""
    for check in ALL:
        for cid, row in judged(check, tables).items():
            if row.kind in ("identity", "control", "sanity"):
                assert row.reason in ("validated", "violated", "undecided"), cid
            elif row.verdict == "PASS":
                assert row.evidence.power in ("FAIL", "test"), cid
                assert row.evidence.power_form in POWER_FORMS, cid
                assert f"power against {POWER_FORMS[row.evidence.power_form]}" in row.claim, cid


# the wrong paper each powered row of the simulation checks is judged against
FORMS = {"B3": "rate_exceeded", "B4": "rate_exceeded", "B8": "rate_exceeded", "B9": "rate_exceeded",
         "B10": "rate_exceeded", "B11-EPOCHSUM": "rate_exceeded", "B11-PAPER": "rate_exceeded",
         "B15-PAC": "rate_exceeded", "F2-CORRECT": "rate_exceeded", "F3A-CORRECT": "rate_exceeded",
         "F3B-BOUND": "rate_exceeded", "F4B-CORRECT": "rate_exceeded",
         "B5-RATE-DISC": "exponent_off", "B5-GAP-ZG": "exponent_off", "B5-C-DISC": "exponent_off",
         "F3A-C-RANGE": "exponent_off", "F3B-C-RANGE": "exponent_off", "B6-LINEAR": "exponent_off",
         "B13-PRIVATE": "exponent_off", "B13-NONPRIVATE": "exponent_off", "B14-SEQ": "exponent_off",
         "F3A-C-MEDIAN": "paper_reading", "F3B-C-MEDIAN": "paper_reading",
         "F2-EQUAL": "constant_off", "F4A-EQUAL": "constant_off", "F4B-ABSDIFF": "effect_absent",
         "B7-KL": "bound_violated", "B7-PAPER": "bound_violated"}


def test_powered_rows_name_the_wrong_paper_they_rule_out(tables):
    """Each row's power is against a way the paper could be wrong, of the claim's own form: a
    failure rate above the stated delta, Theorem 4's log(1/Delta) or 1/Delta's exponent off by
    one, the paper's 'samples' read as total pulls, the stated equality off by a factor 1.25, the
    stated decrease absent, the lower bound violated by a factor 2."""
    rows = {}
    for check in ALL:
        rows.update(judged(check, tables))
    for cid, form in FORMS.items():
        assert rows[cid].evidence.power_form == form, cid
        assert rows[cid].evidence.power_note, cid
    assert "read as total pulls" in rows["F3B-C-MEDIAN"].evidence.power_note
    assert "exponent off by one" in rows["B5-RATE-ZG"].evidence.power_note


def test_identities_are_not_claims_of_the_paper(tables):
    rows = {**judged("A11", tables), **judged("B13", tables), **judged("F2", tables), **judged("F4A", tables),
            **judged("A10", tables)}
    for cid in ("A11", "B13-FORMULA", "F2-IDENTITY", "F4A-IDENTITY", "A10", "A10-DP"):
        assert rows[cid].kind == "identity" and (rows[cid].verdict, rows[cid].reason) == ("PASS", "validated")
    t = tables["pac"].copy()
    t.at[t.index[0], "pulls"] = np.asarray(t.at[t.index[0], "pulls"]) + 1
    assert judged("A11", tables, pac=t)["A11"].reason == "violated"


def test_a_dp_scaling_claim_outside_its_regime_is_pre_asymptotic(tables):
    """A DP scaling law is claimed where the privacy term sets the epoch sizes; at eps x 1e4 the
    non-private term does, so a theorem row of that law is INCONCLUSIVE (pre_asymptotic) whatever
    the slope. B12 itself is an identity (every epoch's size carries 1/eps by line 8)."""
    from dpbandits.quantile.checks import dp

    assert judged("B12", tables)["B12"].kind == "identity"

    def as_theorem(t):
        row = dp._dp_slope("B12", "Thm 8", "pulls grow like 1/eps", "slope", t, lambda e: 1 / e, "epsilon", (0.9, 1.1),
                           (0.0, "slope 0", "effect_absent"), True, np.random.default_rng(0), 300, "smoke", "DISC")[0]
        return judge_all([row], ALL["B12"].guards, "B12")[0]

    assert as_theorem(tables["dp_eps"]).evidence.regime is True
    t = tables["dp_eps"].copy()
    t["epsilon"] = t["epsilon"] * 1e4
    row = as_theorem(t)
    assert (row.verdict, row.reason) == ("INCONCLUSIVE", "pre_asymptotic")


def test_epoch_allowance_widens_zero_spread_slopes_and_shrinks_with_runs(tables):
    """Every run of the smoke DP design leaves at the same epochs: the slope's CI is not of zero
    width, and ten times as many identical runs narrow it."""
    row = judged("B12", tables)["B12"]
    assert row.ci_high - row.ci_low > 1e-3 and "same epochs" in row.claim
    many = pd.concat([tables["dp_eps"]] * 10, ignore_index=True)
    wide = judged("B12", tables, dp_eps=many)["B12"]
    assert wide.ci_high - wide.ci_low < row.ci_high - row.ci_low


def test_a_comparison_tied_at_the_cap_has_no_power(tables):
    t = tables["disc_grid"].copy()
    t["terminated"] = False
    row = judged("F2", tables, disc_grid=t)["F2-EQUAL"]
    assert (row.verdict, row.reason) == ("INCONCLUSIVE", "no_power")


def test_a_figure_reading_that_fails_is_not_reproduced(tables):
    t = _scale_column(tables["disc_grid"], "n_final", 3, lambda x: x["b"] == 1e-5)
    row = judged("F2", tables, disc_grid=t)["F2-EQUAL"]
    assert (row.verdict, row.reason) == ("FAIL", "not_reproduced")
    t = tables["gap_scaling"].copy()
    t["n_final"] = (100 / t["a"]).astype(np.int64) + t["run"]
    assert judged("B5", tables, gap_scaling=t)["B5-GAP-DISC"].reason == "contradicted"


def test_pathwise_invariance_is_an_implementation_identity(tables):
    """A10 / A10-DP: SEQ and DP-SEQ read samples only through comparisons, so under common random
    numbers their runs on order-preserving maps are identical whatever the random numbers: an
    identity of the code (validated), not a test of the paper; its former power (runs without
    common random numbers differ) was a straw man. The paper's claims C1, C2 are F2-EQUAL and
    F4A-EQUAL, equivalence tests on independent runs."""
    rows = judged("A10", tables)
    for cid in ("A10", "A10-DP"):
        assert rows[cid].kind == "identity" and (rows[cid].verdict, rows[cid].reason) == ("PASS", "validated"), cid
        assert rows[cid].evidence is None or rows[cid].evidence.power is None, cid
    assert "without common random numbers" in rows["A10"].claim
    assert judged("F2", tables)["F2-EQUAL"].evidence.power_form == "constant_off"


def test_a_pass_powered_only_by_shuffled_labels_has_no_power(tables):
    """F2-MONOTONE (samples fall as Delta grows, the specification's reading): the same rule FAILs
    the runs with the Delta labels shuffled, but shuffled labels are no way the paper could be
    wrong, so the row carries no power form and its PASS is INCONCLUSIVE no_power. The same holds
    for F4B-MONOTONE's shuffled eps labels (an identity, so its verdict does not read it)."""
    t = tables["disc_grid"].copy()
    t["n_final"] = (1000 / t["a"]).astype(np.int64) + t["run"]  # strictly decreasing in Delta
    row = judged("F2", tables, disc_grid=t)["F2-MONOTONE"]
    assert row.evidence.power == "FAIL" and row.evidence.power_form == ""
    assert (row.verdict, row.reason) == ("INCONCLUSIVE", "no_power")
    assert "not stated to be a way the paper could be wrong" in row.claim and "shuffled" in row.claim
    mono = judged("F4B", tables)["F4B-MONOTONE"]
    assert mono.kind == "identity" and mono.evidence.power_form == ""


def test_f3_constant_is_judged_at_every_delta(tables):
    """C-MEDIAN: PASS only if the reading holds at every delta of the grid (the paper never
    states delta); a constant far from 3/2 at every delta FAILs (not reproduced)."""
    t = tables["disc_grid"].copy()
    t["n_final"] = (t["n_final"] * 20).astype(np.int64)
    row = judged("F3B", tables, disc_grid=t)["F3B-C-MEDIAN"]
    assert (row.verdict, row.reason) == ("FAIL", "not_reproduced") and "delta = 0.01" in row.claim


def test_f4b_gap_claim_needs_both_readings(tables):
    """'The private-non-private gap decreases as q decreases': the specification chose the
    absolute-difference reading after its pilot, so the row is supported only when the ratio
    reading (the vertical gap of a log-scale plot) agrees, and undecided when they disagree."""
    d = tables["fig4_lower"]
    seq = tables["logn10_seq"].groupby("q")["total_pulls"].mean()
    assert seq[0.85] < 0.9 * seq[0.9]  # SEQ costs more at q = 0.9: the two readings can disagree
    both = _law(d, 1e6 / d["epsilon"] * (1 + 3 * (d["q"] > 0.86)))
    assert judged("F4B", tables, fig4_lower=both)["F4B-ABSDIFF"].verdict == "PASS"
    split = _law(d, 1e6 / d["epsilon"] * (1 + 0.1 * (d["q"] > 0.86)))
    row = judged("F4B", tables, fig4_lower=split)["F4B-ABSDIFF"]
    assert (row.verdict, row.reason) == ("INCONCLUSIVE", "undecided")
