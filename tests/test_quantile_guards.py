"""The verdict rules of the quantile checks that the guards rely on: the equivalence
family (F2-EQUAL, F4A-EQUAL), the rate family's evidence, the evidence helpers, and every row's
kind and evidence through the registry's guards (:func:`dpbandits.evidence.guards.judge`)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.evidence import registry
from dpbandits.evidence.claims import POWER_FORMS, Claim, Evidence
from dpbandits.evidence.guards import GuardError, judge, judge_all
from dpbandits.quantile.checks import analytic as ac
from dpbandits.quantile.checks import figures
from dpbandits.quantile.checks.common import (
    EqualFamily,
    RateFamily,
    alternative_power,
    censored_floor,
    ci_test,
    exact_power,
    no_event_claim,
    shuffled_groups,
    uncensored_regime,
)

SETTINGS = {"a4_pairs": 300, "a8_trials": 3000, "a9_tables": 1, "b1_runs": 2000, "b2_runs": 200, "b2_horizon": 2000}


def _family(ratios, seed, runs=100, cv=0.25):
    """Five pairs of independent groups (gamma laws, coefficient of variation ``cv``) whose ratio
    of means is ``ratios[i]``."""
    rng = np.random.default_rng(seed)
    shape = 1 / cv**2
    pairs = [(rng.gamma(shape, r / shape, runs), rng.gamma(shape, 1 / shape, runs)) for r in ratios]
    return EqualFamily(pairs, np.random.default_rng(seed + 1000), 1000)


@pytest.mark.parametrize(("ratios", "allowed", "least_pass"), [
    ((1.0,) * 5, {"PASS", "INCONCLUSIVE"}, 28),                 # equal laws: PASS (never FAIL)
    ((1.1, 1.0, 1.0, 1.0, 1.0), {"PASS", "INCONCLUSIVE"}, 24),  # inside the band: never FAIL
    ((1.5, 1.0, 1.0, 1.0, 1.0), {"FAIL"}, 0),                   # shown outside the band: FAIL
])
def test_equal_family_is_an_equivalence_test(ratios, allowed, least_pass):
    """A difference inside [0.8, 1.25] is not a FAIL (the Mann-Whitney rule failed it 54% of the
    time, benchmarks/stats_error_rates.md); one shown outside it always is."""
    verdicts = [_family(ratios, seed).verdict for seed in range(30)]
    assert set(verdicts) <= allowed
    assert verdicts.count("PASS") >= least_pass


def test_equal_family_at_the_band_edge_rarely_passes_and_passes_are_tests():
    """At a ratio of exactly 1.25 a PASS would be a false equivalence: TOST keeps it below alpha."""
    verdicts = [_family((1.25, 1.0, 1.0, 1.0, 1.0), seed).verdict for seed in range(30)]
    assert verdicts.count("PASS") <= 2
    fam = _family((1.0,) * 5, 0)
    assert fam.verdict == "PASS" and fam.evidence["power"] == "test"
    assert _family((1.5, 1, 1, 1, 1), 0).evidence["power"] is None


def test_equal_family_rejects_a_band_that_is_not_a_band():
    with pytest.raises(ValueError, match="tol"):
        EqualFamily([(np.ones(3), np.ones(3))], np.random.default_rng(0), 10, tol=1.0)


def test_rate_family_pass_is_a_significant_test_with_consistent_bounds():
    fam = RateFamily([0, 0, 1], [1000, 1000, 1000], [0.05, 0.05, 0.05])
    assert fam.verdict == "PASS" and fam.evidence["power"] == "test" and fam.hi < 1
    bad = RateFamily([100, 0], [1000, 1000], [0.05, 0.05])
    assert bad.verdict == "FAIL" and bad.lo > 1 and bad.evidence["power"] is None
    # D3-PAC's size (100 runs per cell, 8 cells, delta = 0.05): zero events just pass, but one event
    # per cell, what a correct rate of delta / 5 gives on average, is undecided
    assert RateFamily([0] * 8, [100] * 8, [0.05] * 8).verdict == "PASS"
    assert RateFamily([1] * 8, [100] * 8, [0.05] * 8).verdict == "INCONCLUSIVE"


def test_no_event_claim_without_enough_runs_has_no_power():
    """Zero errors in three runs is not evidence that the error rate is below delta = 0.1."""
    row = no_event_claim("X", "s", "figure", "every run correct", "errors", [0], [3], [0.1], "smoke")
    assert row.verdict == "PASS" and row.evidence.power is None
    judged = judge(row)
    assert judged.verdict == "INCONCLUSIVE" and judged.reason == "no_power"
    many = judge(no_event_claim("X", "s", "figure", "every run correct", "errors", [0], [300], [0.1], "smoke"))
    assert many.verdict == "PASS" and many.reason == "supported"


def test_censoring_helpers_and_shuffled_groups():
    assert censored_floor([[True, True], [False, False, True]])["floor"] is True
    assert censored_floor([[True, True], [True, False, True]])["floor"] is False
    assert uncensored_regime([True, True])["regime"] is True
    assert uncensored_regime([True, False])["regime"] is False
    groups = [np.arange(3.0), np.arange(10.0, 15.0)]
    out = shuffled_groups(groups, np.random.default_rng(0))
    assert [g.size for g in out] == [3, 5]
    assert sorted(np.concatenate(out)) == sorted(np.concatenate(groups))


# ---------------------------------------------------------------------------------------------
# the analytic rows through the registry's guards


def _judged(check_id, out):
    spec = registry.get("quantile", check_id)
    return {c.check_id: c for c in judge_all(out.claims, spec.guards, check_id)}


# the wrong paper each analytic row's power is shown against (module docstrings of
# dpbandits.quantile.checks.analytic and .figures)
ANALYTIC_FORMS = {"A3": "constant_off", "A3-CONSTRUCT": "constant_off", "A4": "constant_off", "A5": "constant_off",
                  "A7-CONST": "paper_reading", "A8": "privacy_2eps", "A9": "privacy_2eps", "B1": "rate_exceeded",
                  "F1": "effect_absent"}


def test_exact_checks_carry_their_negative_controls():
    """Every exact PASS has power against a wrong paper of the claim's form (Theorem 2's identity
    or a stated width or constant off by a factor 2, the proof's displayed step read as written,
    a release only 2 eps-DP, a miss rate above the stated level, Figure 1's orders reversed): the
    same rule FAILs it, so the judged verdict stays PASS (supported) and says which wrong paper."""
    rng = np.random.default_rng
    outs = {"A3": ac.check_a3(None, "smoke", SETTINGS), "A4": ac.check_a4(rng(0), "smoke", SETTINGS),
            "A5": ac.check_a5(None, "smoke", SETTINGS), "A7": ac.check_a7(None, "smoke", SETTINGS),
            "A8": ac.check_a8(rng(0), "smoke", SETTINGS), "A9": ac.check_a9(rng(0), "smoke", SETTINGS),
            "B1": ac.check_b1(rng(0), "smoke", SETTINGS), "F1": figures.check_f1(None, "smoke", {})}
    for check_id, out in outs.items():
        for cid, row in _judged(check_id, out).items():
            if row.kind == "report":
                continue
            if cid == "A7":
                assert (row.verdict, row.reason) == ("FAIL", "erratum")
                continue
            assert (row.verdict, row.reason) == ("PASS", "supported"), cid
            assert row.evidence.power in ("FAIL", "test"), cid
            assert row.evidence.power_form == ANALYTIC_FORMS[cid], cid
            assert f"power against {POWER_FORMS[ANALYTIC_FORMS[cid]]}" in row.claim, cid


def test_theorem2_power_is_the_identity_off_by_a_factor_two_either_way():
    """A3's alternative is d_flip = Delta / 2 and d_flip = 2 Delta (a total-variation convention
    with or without its 1/2): the same rule FAILs both on the same cases."""
    rows = _judged("A3", ac.check_a3(None, "smoke", SETTINGS))
    for cid in ("A3", "A3-CONSTRUCT"):
        assert rows[cid].evidence.power == "FAIL" and "Delta / 2 or 2 Delta" in rows[cid].evidence.power_note


def test_evidence_helpers_demand_a_form_and_a_straw_man_has_no_power():
    """exact_power, ci_test and alternative_power take the kind of wrong paper as a keyword; an
    unknown form is an error, and "" (a straw man) makes a PASS INCONCLUSIVE no_power."""
    with pytest.raises(TypeError):
        exact_power("FAIL", "an alternative")
    with pytest.raises(TypeError):
        ci_test("PASS", "a claim")
    with pytest.raises(TypeError):
        alternative_power(1.0, 0.9, 1.1, 2.0, (0.5, 1.5), "slope 2")
    with pytest.raises(ValueError, match="power form"):
        exact_power("FAIL", "an alternative", form="labels_shuffled")
    row = Claim("quantile", "X", "s", "figure", "c", "s", 1.0, 1.0, 1.0, "0", "PASS", 10, "smoke")
    straw = judge(row.with_evidence(**exact_power("FAIL", "labels shuffled", form="")))
    assert (straw.verdict, straw.reason) == ("INCONCLUSIVE", "no_power") and "labels shuffled" in straw.claim
    real = judge(row.with_evidence(**exact_power("FAIL", "the order reversed", form="effect_absent")))
    assert (real.verdict, real.reason) == ("PASS", "supported")
    assert ci_test("PASS", "x", form="effect_absent")["power_form"] == "effect_absent"
    assert alternative_power(1.0, 0.9, 1.1, 2.0, (0.5, 1.5), "slope 2", form="exponent_off")["power"] == "FAIL"


def test_rate_and_equivalence_families_name_their_null():
    """A rate family's null is a rate at or above the stated level; an equivalence family's, the
    stated equality off by the band's factor."""
    assert RateFamily([0, 0], [1000, 1000], [0.05, 0.05]).evidence["power_form"] == "rate_exceeded"
    assert _family((1.0,) * 5, 0).evidence["power_form"] == "constant_off"
    row = no_event_claim("X", "s", "figure", "every run correct", "errors", [0], [300], [0.1], "smoke")
    assert row.evidence.power_form == "rate_exceeded" and "smallest stated delta" in row.evidence.power_note


def test_tool_validations_are_controls_not_claims():
    for check_id, fn in (("A1", ac.check_a1), ("A2", ac.check_a2)):
        row = _judged(check_id, fn(None, "smoke", SETTINGS))[check_id]
        assert row.kind == "control" and (row.verdict, row.reason) == ("PASS", "validated")


def test_a_pass_whose_control_also_passes_has_no_power():
    """A PASS whose stated alternative also passes the same rule says nothing: no_power."""
    row = figures.check_f1(None, "smoke", {}).claims[0]
    blind = row.with_evidence(power="PASS", power_note="a control the rule cannot see")
    judged = judge(blind, registry.get("quantile", "F1").guards)
    assert (judged.verdict, judged.reason) == ("INCONCLUSIVE", "no_power")


def test_a_guarded_row_without_its_evidence_is_an_error():
    spec = registry.get("quantile", "B12")
    bare = Claim("quantile", "B12", "Thm 8", "theorem", "c", "s", 1.0, 0.95, 1.05, "band", "PASS", 20, "smoke",
                 evidence=Evidence(power="FAIL"))
    with pytest.raises(GuardError, match="regime"):
        judge(bare, spec.guards, "B12")
    eq = registry.get("quantile", "F2")
    row = Claim("quantile", "F2-EQUAL", "Fig 2", "figure", "c", "s", 1.0, 0.9, 1.1, "band", "PASS", 20, "smoke",
                evidence=Evidence(power="test"))
    with pytest.raises(GuardError, match="floor"):
        judge(row, eq.guards, "F2")
