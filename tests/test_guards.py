"""The verdict guards (dpbandits.evidence.guards): each guard triggers on a synthetic row that
needs it, a row a registry guard covers must carry its evidence, the reasons come from the fixed
vocabulary, and the evidence helpers compute what they say."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from dpbandits.evidence import guards
from dpbandits.evidence.checks import band_verdict
from dpbandits.evidence.claims import POWER_FORMS, REASONS, Claim, Evidence
from dpbandits.evidence.guards import GuardError, judge
from dpbandits.evidence.registry import Guard


def row(verdict="PASS", kind="theorem", check_id="X-1", value=1.0, lo=0.9, hi=1.1, **evidence) -> Claim:
    ev = Evidence(**evidence) if evidence else None
    return Claim("online", check_id, "Thm 1", kind, "a claim", "a statistic", value, lo, hi, "a criterion",
                 verdict, 10, "smoke", evidence=ev)


def test_a_pass_without_power_is_no_power_and_says_why():
    out = judge(row("PASS"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "no_power")
    assert "no_power" in out.claim and "PASS on its own criterion" in out.claim


@pytest.mark.parametrize("power", ["FAIL", "test"])
def test_a_pass_with_power_against_a_wrong_paper_is_supported(power):
    out = judge(row("PASS", power=power, power_note="slope 1 (linear regret)", power_form="exponent_off"))
    assert (out.verdict, out.reason) == ("PASS", "supported")
    # the evidence is shown, with the kind of wrong paper it is
    assert out.claim.endswith(f"[power against {POWER_FORMS['exponent_off']}: slope 1 (linear regret)]")


@pytest.mark.parametrize("power", ["FAIL", "test"])
def test_a_pass_powered_against_an_alternative_of_no_stated_form_is_no_power(power):
    """A straw man (an alternative that is not a way the paper could be wrong) is not evidence:
    the check must say which kind of wrong paper its alternative is."""
    out = judge(row("PASS", power=power, power_note="the labels shuffled"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "no_power")
    assert "the labels shuffled" in out.claim and "not stated to be a way the paper could be wrong" in out.claim
    # rows that are not claims of the paper keep their own vocabulary
    assert judge(row("PASS", kind="control", power=power)).reason == "validated"


def test_power_helpers_require_a_known_form():
    with pytest.raises(TypeError):
        guards.shifted_ci_power(0.6, 0.58, 0.62, 1.0, band_hi=0.95)  # no form: the call site must say
    with pytest.raises(ValueError, match="power form must be one of"):
        guards.significant(0.01, form="straw_man")
    with pytest.raises(ValueError, match="power_form must be one of"):
        Evidence(power="FAIL", power_form="straw_man")


def test_a_pass_whose_alternative_also_passes_has_no_power():
    out = judge(row("PASS", power="PASS", power_note="the trivial policy"))
    assert out.reason == "no_power" and "gives PASS on the alternative (the trivial policy)" in out.claim


@pytest.mark.parametrize("verdict", ["PASS", "FAIL"])
def test_a_rate_before_its_regime_is_pre_asymptotic(verdict):
    out = judge(row(verdict, regime=False, regime_note="per-round regret 1.00 x uniform", power="FAIL"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "pre_asymptotic")
    assert "per-round regret 1.00 x uniform" in out.claim


@pytest.mark.parametrize("verdict", ["PASS", "FAIL"])
def test_a_rate_with_too_few_points_in_its_regime_says_so(verdict):
    out = judge(row(verdict, regime=True, too_few=True, regime_note="2 grid points in the regime", power="FAIL"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "too_few_points")
    assert "2 grid points in the regime" in out.claim
    assert judge(row(verdict, regime=True, power="FAIL")).reason != "too_few_points"


@pytest.mark.parametrize("verdict", ["PASS", "FAIL"])
def test_an_ordering_of_tied_curves_has_no_power(verdict):
    out = judge(row(verdict, floor=True, floor_note="every curve at the uniform policy's regret", power="FAIL"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "no_power")


@pytest.mark.parametrize("verdict", ["PASS", "FAIL"])
def test_a_real_data_claim_on_surrogate_data_never_passes_or_fails(verdict):
    out = judge(row(verdict, data="surrogate", claim_on="real", power="FAIL"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "surrogate_data")


def test_fail_reasons_follow_the_kind():
    assert judge(row("FAIL", kind="erratum")).reason == "erratum"
    assert judge(row("FAIL", kind="figure")).reason == "not_reproduced"
    assert judge(row("FAIL", kind="theorem")).reason == "contradicted"
    assert judge(row("INCONCLUSIVE")).reason == "undecided"
    assert judge(row("REPORT", kind="report")).reason == "informational"


@pytest.mark.parametrize("kind", ["control", "sanity", "identity"])
def test_rows_that_are_not_paper_claims_are_validated_or_violated(kind):
    assert judge(row("PASS", kind=kind)).reason == "validated"  # no power needed: not a paper claim
    assert judge(row("FAIL", kind=kind)).reason == "violated"


@pytest.mark.parametrize("kind", ["theorem", "control"])
def test_an_inconclusive_the_check_gave_takes_the_reason_its_evidence_states(kind):
    assert judge(row("INCONCLUSIVE", kind=kind, blind=True)).reason == "no_power"
    assert judge(row("INCONCLUSIVE", kind=kind, unvalidated=True)).reason == "unvalidated_pipeline"
    assert judge(row("INCONCLUSIVE", kind=kind)).reason == "undecided"
    # the text is the check's own: the guards add nothing to it
    assert judge(row("INCONCLUSIVE", kind=kind, blind=True)).claim == "a claim"


@pytest.mark.parametrize("verdict", ["PASS", "FAIL", "INCONCLUSIVE"])
def test_an_identity_before_its_regime_is_pre_asymptotic(verdict):
    out = judge(row(verdict, kind="identity", regime=False, regime_note="R(T) not below the trivial policy's"))
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "pre_asymptotic")
    was = "" if verdict == "INCONCLUSIVE" else f"; {verdict} on its own criterion"
    assert out.claim == f"a claim [pre_asymptotic: R(T) not below the trivial policy's{was}]"
    # a control or sanity row carries no regime: only an identity of a rate claim is judged so
    assert judge(row("PASS", kind="control", regime=False)).reason == "validated"


def test_the_guards_are_the_only_writer_of_a_reason():
    """A row arrives at judge without a reason, and no module that builds check rows writes one:
    the checks state evidence (Evidence), the guards decide (one home for every reason)."""
    with pytest.raises(GuardError, match="does not write a reason"):
        judge(replace(row("INCONCLUSIVE"), reason="no_power"))
    src = Path(__file__).resolve().parents[1] / "src" / "dpbandits"
    writers = []
    for path in sorted(src.rglob("*.py")):
        if path.name == "guards.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and any(k.arg == "reason" for k in node.keywords):
                writers.append(f"{path.relative_to(src)}:{node.lineno}")
    assert not writers, f"reasons written outside dpbandits.evidence.guards: {writers}"


def test_every_reason_belongs_to_its_verdict():
    with pytest.raises(ValueError, match="does not go with"):
        Claim("online", "X", "s", "theorem", "c", "s", 1.0, 1.0, 1.0, "c", "PASS", 1, "smoke", reason="erratum")
    assert set(REASONS) == {"PASS", "FAIL", "INCONCLUSIVE", "REPORT"}


def test_registry_guards_demand_their_evidence():
    with pytest.raises(GuardError, match="evidence.regime"):
        judge(row("FAIL", check_id="T-2.6a-EPS2"), [Guard(rows="T-2.6a-EPS*", regime="below the uniform policy")])
    with pytest.raises(GuardError, match="evidence.floor"):
        judge(row("PASS", check_id="F7a-ORDER"), [Guard(rows="*ORDER", compares=True)])
    with pytest.raises(GuardError, match="evidence.data"):
        judge(row("FAIL", check_id="T2-AUX"), [Guard(rows="T2-*", claim_on="real")])
    # a row the guard does not cover, a REPORT, a control: nothing demanded
    assert judge(row("FAIL", check_id="OTHER"), [Guard(rows="T-*", regime="x")]).reason == "contradicted"
    assert judge(row("REPORT", kind="report", check_id="T-1"), [Guard(regime="x")]).reason == "informational"
    # the registry's alternative is recorded as the power note
    out = judge(row("PASS", power="FAIL", power_form="exponent_off"), [Guard(alternative="slope 1")])
    assert out.evidence.power_note == "slope 1"


def test_shifted_ci_power():
    # a slope 0.60 [0.55, 0.65] judged "CI upper end < 0.95": at the alternative slope 1 the same CI
    # would be [0.95, 1.05]: FAIL -> power
    ev = guards.shifted_ci_power(0.60, 0.50, 0.70, 1.0, band_hi=0.95, form="exponent_off")
    assert ev["power"] == "INCONCLUSIVE"  # too wide: could not tell slope 1 from the band
    ev = guards.shifted_ci_power(0.60, 0.58, 0.62, 1.0, band_hi=0.95, form="exponent_off")
    assert (ev["power"], ev["power_form"]) == ("FAIL", "exponent_off")


def test_a_privacy_pass_needs_power_against_a_release_only_twice_as_leaky():
    """A privacy claim is powered only against a wrong paper of its form: a release at most 2 eps-DP
    or the paper's own text read another way. Catching the noise removed (a gross leak) shows the
    audit sees gross leaks, not that the paper could have been caught."""
    def judged(**ev):
        return judge(row("PASS", kind="privacy", **ev))

    gross = guards.privacy_power(True, 4.0, "the Laplace scale x0.25", "caught")
    assert gross["power"] is None and "grosser than a release that is only 2 eps-DP" in gross["power_note"]
    out = judged(**gross)
    assert (out.verdict, out.reason) == ("INCONCLUSIVE", "no_power") and "x0.25" in out.claim
    fair = guards.privacy_power(True, 2.0, "the Laplace scale x0.5", "caught")
    assert (fair["power"], fair["power_form"]) == ("FAIL", "privacy_2eps")
    assert judged(**fair).reason == "supported"
    missed = guards.privacy_power(False, 2.0, "the Laplace scale x0.5", "not caught")
    assert judged(**missed).reason == "no_power"
    reading = guards.privacy_power(True, 9.0, "the paper's literal step 4", "caught", form="paper_reading")
    assert judged(**reading).reason == "supported"
    # a privacy PASS with power of no stated form (a straw man by default) is not supported
    out = judged(power="FAIL", power_note="the noise removed")
    assert out.reason == "no_power" and "not against a release that is only 2 eps-DP" in out.claim
    # other kinds keep the general rule
    assert judge(row("PASS", power="FAIL", power_note="slope 1", power_form="exponent_off")).reason == "supported"


def test_violated_bound_power_scales_the_ci_to_a_bound_off_by_a_factor_2():
    # an upper bound met at 10% [9%, 11%]: at twice the bound the CI scaled there is [1.8, 2.2]: FAIL
    ev = guards.violated_bound_power(0.10, 0.09, 0.11)
    assert (ev["power"], ev["power_form"]) == ("FAIL", "bound_violated") and "[1.8, 2.2]" in ev["power_note"]
    # a CI too wide relative to its point cannot tell a 2x violation: no power
    assert guards.violated_bound_power(0.10, 0.02, 0.30)["power"] == "INCONCLUSIVE"
    # a lower bound (ratio >= 1) met at 1.7x: the oracle at half the bound, [0.48, 0.52]: FAIL
    ev = guards.violated_bound_power(1.70, 1.63, 1.77, upper=False)
    assert ev["power"] == "FAIL"
    # a violation beyond what any algorithm can reach is impossible: a vacuous bound has no power
    assert guards.violated_bound_power(0.10, 0.09, 0.11, ceiling=1.5)["power"] == "PASS"
    cells = [(0.5, 0.45, 0.55, 1.2, "vacuous"), (0.1, 0.09, 0.11, 30.0, "informative")]
    ev = guards.violated_bound_power_over_cells(cells)
    assert ev["power"] == "FAIL" and "informative" in ev["power_note"]
    assert guards.violated_bound_power_over_cells(cells[:1])["power"] == "PASS"


def test_rate_power():
    ev = guards.rate_power(1000, 0.05, 0.10)
    assert (ev["power"], ev["power_form"]) == ("FAIL", "rate_exceeded")  # twice the limit is seen at n = 1000
    assert guards.rate_power(20, 0.05, 0.10)["power"] != "FAIL"  # ... not at n = 20


def test_below_trivial_and_tied():
    assert guards.below_trivial(0.6, 0.55, 0.65)["regime"] is True
    ev = guards.below_trivial(1.0, 0.98, 1.02, needed="n >~ 1e7")
    assert ev["regime"] is False and "n >~ 1e7" in ev["regime_note"]
    assert guards.tied([0.414, 0.415, 0.414], [0.002] * 3, floor=0.414)["floor"] is True
    assert guards.tied([0.414, 0.30, 0.20], [0.002] * 3, floor=0.414)["floor"] is False
    assert guards.tied([1.0, 1.0], [0.0, 0.0])["floor"] is True


def test_significant():
    ev = guards.significant(0.001, form="effect_absent")
    assert (ev["power"], ev["power_form"]) == ("test", "effect_absent")
    assert guards.significant(0.2, form="effect_absent")["power"] is None


def test_band_verdict():
    assert band_verdict(0.1, 0.2, 0.0, 1.0) == "PASS"
    assert band_verdict(1.1, 1.2, 0.0, 1.0) == "FAIL"
    assert band_verdict(0.9, 1.2, 0.0, 1.0) == "INCONCLUSIVE"
    assert band_verdict(0.2, 0.5, band_hi=1.0) == "PASS"  # one-sided


def test_every_supported_pass_of_the_committed_run_names_the_wrong_paper_it_rules_out():
    """Registry-wide, on the committed paper-scale check table: every PASS ``supported`` row of a
    paper's claim says which kind of wrong paper its power rules out (the guard writes
    "[power against <form>: ...]"), and a privacy claim's is a release only 2 eps-DP or the
    paper's own text read another way."""
    import pandas as pd

    from dpbandits.evidence.claims import PRIVACY_POWER_FORMS

    table = Path(__file__).resolve().parents[1] / "reports" / "checks.csv"
    frame = pd.read_csv(table, dtype=str, keep_default_na=False)
    supported = frame[(frame["verdict"] == "PASS") & (frame["reason"] == "supported")]
    assert len(supported) >= 50
    missing, privacy = [], []
    for r in supported.itertuples():
        forms = [f for f, words in POWER_FORMS.items() if f"[power against {words}" in r.claim]
        if not forms:
            missing.append(f"{r.paper}/{r.check_id}")
        elif r.kind == "privacy" and forms[0] not in PRIVACY_POWER_FORMS:
            privacy.append(f"{r.paper}/{r.check_id}")
    assert not missing, f"PASS supported without a stated wrong paper: {missing}"
    assert not privacy, f"privacy PASS powered against another form: {privacy}"


def test_the_slope_row_builder_judges_the_ci_against_its_band_and_states_its_power():
    """dpbandits.evidence.slopes.slope_row, the one builder of every paper's slope rows."""
    import math
    from types import SimpleNamespace

    from dpbandits.evidence.slopes import slope_row

    fit = SimpleNamespace(slope=0.5, ci_low=0.45, ci_high=0.55)  # what the builder reads of a SlopeFit

    def row(band, **kw):
        return slope_row("online", "S", "Thm 1", "theorem", "a slope", "slope", fit, band, 80, "smoke", **kw)

    inside, outside, straddle = row((0.4, 0.6)), row((0.7, 0.9)), row((0.5, 0.9))
    assert (inside.verdict, outside.verdict, straddle.verdict) == ("PASS", "FAIL", "INCONCLUSIVE")
    assert inside.criterion == "slope CI within [0.4, 0.6]" and row((-math.inf, 0.6)).criterion == "slope CI within [-inf, 0.6]"
    assert (inside.value, inside.ci_low, inside.ci_high, inside.n_runs) == (fit.slope, fit.ci_low, fit.ci_high, 80)
    widened = row((0.4, 0.6), ci=(0.3, 0.7), criterion="CI upper end < 0.6")
    assert (widened.verdict, widened.ci_low, widened.criterion) == ("INCONCLUSIVE", 0.3, "CI upper end < 0.6")
    powered = row((0.4, 0.6), alternative=(1.0, "slope 1", "exponent_off"))
    assert powered.evidence.power == "FAIL" and powered.evidence.power_form == "exponent_off"
    assert "slope 1 = 1" in powered.evidence.power_note
    assert row((0.4, 0.6), alternative=(0.52, "slope 0.52", "exponent_off")).evidence.power == "PASS"
    none = slope_row("online", "S", "Thm 1", "theorem", "a slope", "slope", None, (0.4, 0.6), 0, "smoke")
    assert none.verdict == "INCONCLUSIVE" and math.isnan(none.value) and math.isnan(none.ci_low)
