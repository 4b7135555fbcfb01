"""The quantile gap (Definition 2), its closed forms, invariances, d_flip (Theorem 2), the
instance generators, and the analytic checks A1-A9, F1 (each PASSes on the real code and FAILs
on a broken one)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.evidence import registry
from dpbandits.quantile import dp_seq, seq
from dpbandits.quantile import gap as gapmod
from dpbandits.quantile import instances as inst
from dpbandits.quantile.checks import analytic as ac
from dpbandits.quantile.checks import figures as figure_checks
from dpbandits.quantile.experiments import figures
from dpbandits.quantile.gap import d_flip, exponential_pair_gap, gap, gaussian_pair_gap, mix_gap

RNG = np.random.default_rng


@pytest.mark.parametrize("q, expected", [(0.55, 0.0166), (0.6, 0.0327), (0.7, 0.0612), (0.8, 0.0791),
                                         (0.85, 0.0801), (0.9, 0.0712), (0.95, 0.0455), (0.99, 0.0100)])
def test_gaussian_ratio_two_gaps_match_the_spec_table(q, expected):
    assert gaussian_pair_gap(0.5, 1.0, q) == pytest.approx(expected, abs=6e-5)
    assert gap(inst.GaussianArm(0.5), inst.GaussianArm(1.0), q) == pytest.approx(gaussian_pair_gap(0.5, 1.0, q), abs=1e-10)


def test_logn10_gaps_match_the_spec():
    want85 = [0.150, 0.150, 0.1498, 0.1463, 0.1375, 0.1262, 0.1142, 0.1023, 0.0909]
    want90 = [0.1, 0.1, 0.1, 0.1, 0.0996, 0.0977, 0.0933, 0.0869, 0.0793]
    assert np.allclose(inst.logn10(0.85).gaps()[1:], want85, atol=6e-5)
    assert np.allclose(inst.logn10(0.9).gaps()[1:], want90, atol=6e-5)


def test_closed_forms_agree_with_the_bisection_engine():
    for q in (0.4, 0.5, 0.7):
        for g in (0.01, 0.1, 0.15):
            m = inst.mix(2, g, q)
            assert gap(m.arms[1], m.arms[0], q) == pytest.approx(mix_gap(g, q), abs=1e-10)
    for g in (0.0, 0.05, 0.2):
        z = inst.zero_gap(g)
        assert gap(z.arms[1], z.arms[0], 0.5) == pytest.approx(g, abs=1e-10)
    b = inst.bern12(0.3)
    assert gap(b.arms[1], b.arms[0], 0.3) == pytest.approx(0.3, abs=1e-10)
    for rate in (0.8, 0.1):
        assert gap(inst.ExponentialArm(1.0), inst.ExponentialArm(rate), 0.6) == pytest.approx(
            exponential_pair_gap(1.0, rate, 0.6), abs=1e-10)


def test_gap_uses_the_non_strict_inequality():
    """BERN12 has a positive gap only because of "<=" (Szorenyi et al.'s strict gap is 0)."""
    b = inst.bern12(0.5)
    strict = b.arms[1].ppf(0.5) < b.arms[0].ppf(0.5)
    assert strict  # 1 < 2
    assert gap(b.arms[1], b.arms[0], 0.5) == pytest.approx(0.5, abs=1e-10)


@pytest.mark.parametrize("name", ["exp", "affine", "cube"])
def test_gap_is_invariant_under_strictly_increasing_maps(name):
    for base in (inst.disc(0.4, 0.1), inst.gauss(4.0, [2.0], 0.8), inst.mix(2, 0.05, 0.5)):
        t = inst.transformed(base, name)
        assert gap(t.arms[1], t.arms[0], base.q) == pytest.approx(gap(base.arms[1], base.arms[0], base.q), abs=1e-10)


def test_disc_gap_does_not_depend_on_xi():
    a, b = inst.disc(0.4, 0.1, 1.0), inst.disc(0.4, 0.1, 1e-5)
    assert gap(a.arms[1], a.arms[0], 0.4) == pytest.approx(gap(b.arms[1], b.arms[0], 0.4), abs=1e-12)
    assert a.quantiles()[0] - a.quantiles()[1] == 1.0 and b.quantiles()[0] - b.quantiles()[1] == 1e-5


def test_left_quantile_conventions():
    arm = inst.DiscreteArm((0.0, 2.0), (0.5, 0.5))
    assert arm.ppf(0.5) == 0.0 and arm.ppf(0.5000001) == 2.0
    assert arm.ppf(0.0) == -np.inf and arm.ppf(1.0) == 2.0 and arm.ppf(1.1) == np.inf
    assert arm.cdf(0.0) == 0.5 and arm.cdf_below(0.0) == 0.0
    u = RNG(0).random(100_000)
    assert abs(np.mean(arm.sample(u) == 0.0) - 0.5) < 0.01


def test_d_flip_equals_the_gap():
    for q in (0.3, 0.6, 0.8):
        lo, hi = (inst.GaussianArm(2.0), inst.GaussianArm(3.0)) if q > 0.5 else (inst.GaussianArm(3.0), inst.GaussianArm(2.0))
        assert d_flip(lo, hi, q) == pytest.approx(gap(lo, hi, q), abs=1e-9)
    d = inst.disc(0.4, 0.1)
    assert d_flip(d.arms[1], d.arms[0], 0.4) == pytest.approx(0.1, abs=1e-12)


def test_flip_pair_is_flipped_within_delta_plus_eta():
    d = inst.disc(0.4, 0.1)
    g_h, g_l, _ = gapmod.flip_pair(d.arms[1], d.arms[0], 0.4, 1e-3)
    assert gapmod.is_flipped(g_h, g_l, 0.4)
    tv = max(gapmod.tv_distance(d.arms[1], g_h), gapmod.tv_distance(d.arms[0], g_l))
    assert 0.1 - 1e-12 <= tv <= 0.1 + 1e-3 + 1e-12


def test_instances_have_the_documented_best_arm():
    assert inst.disc(0.4, 0.1).best == 0
    assert inst.logn10(0.85).best == 0
    assert inst.mix(4, 0.05, 0.5).best == 0
    assert inst.mix(4, 0.05, 0.5, alternative=2).best == 2
    assert inst.zero_gap(0.0).best == 0
    with pytest.raises(ValueError, match="gamma"):
        inst.mix(2, 0.2, 0.5)
    with pytest.raises(ValueError, match="family"):
        inst.make_instance("bogus", 0.5)


# ---------------------------------------------------------------------------------------------
# analytic checks: PASS on the real code, FAIL on a broken one

SETTINGS = {"a4_pairs": 300, "a8_trials": 1500, "a9_tables": 1, "b1_runs": 2000, "b2_runs": 100, "b2_horizon": 2000}


def _verdicts(out):
    return {c.check_id: c.verdict for c in out.claims}


@pytest.mark.parametrize("check", ["A1", "A2", "A3", "A4", "A5", "A8", "A9", "B1", "B2"])
def test_analytic_checks_do_not_fail_on_the_real_code(check):
    v = _verdicts(registry.get("quantile", check).load()(RNG(1), "smoke", SETTINGS))
    assert "FAIL" not in v.values(), v


def test_a1_fails_on_an_off_by_one_n_star(monkeypatch):
    real = seq.n_star
    monkeypatch.setattr(seq, "n_star", lambda k, d, q: real(k, d, q) + 1)
    assert _verdicts(ac.check_a1(RNG(0), "smoke", SETTINGS))["A1"] == "FAIL"


def test_a2_and_a3_fail_on_a_biased_gap_engine(monkeypatch):
    real = gapmod.gap
    monkeypatch.setattr(ac, "gap", lambda a, b, q, tol=1e-13: 1.001 * real(a, b, q, tol))
    assert _verdicts(ac.check_a2(RNG(0), "smoke", SETTINGS))["A2"] == "FAIL"
    assert _verdicts(ac.check_a3(RNG(0), "smoke", SETTINGS))["A3"] == "FAIL"


def test_a4_fails_on_a_tighter_sandwich_than_the_lemma():
    assert _verdicts(ac.check_a4(RNG(0), "smoke", SETTINGS, eta_factor=0.3))["A4"] == "FAIL"


def test_a5_fails_when_the_gap_is_inflated(monkeypatch):
    real = gapmod.gap
    monkeypatch.setattr(ac, "gap", lambda a, b, q, tol=1e-13: 3 * real(a, b, q, tol))
    assert _verdicts(ac.check_a5(RNG(0), "smoke", SETTINGS))["A5"] == "FAIL"


def test_a7_records_the_erratum_and_would_pass_on_the_papers_kl():
    v = _verdicts(ac.check_a7(RNG(0), "smoke", SETTINGS))
    assert v == {"A7": "FAIL", "A7-CONST": "PASS", "A7-VALID": "REPORT"}
    gamma0 = next(c.value for c in ac.check_a7(RNG(0), "smoke", SETTINGS).claims if c.check_id == "A7")
    assert 0.085 <= gamma0 <= 0.086
    assert float(ac.kl_mix(0.15)) == pytest.approx(0.5198, abs=1e-4)


def test_a7_passes_if_the_kl_were_as_claimed(monkeypatch):
    monkeypatch.setattr(ac, "kl_mix", lambda g: 9 * np.asarray(g) ** 2 + 18 * np.asarray(g) ** 3 - 1e-9)
    assert _verdicts(ac.check_a7(RNG(0), "smoke", SETTINGS))["A7"] == "PASS"


def test_a8_fails_on_a_sensitivity_two_statistic(monkeypatch):
    real = dp_seq.ell_star
    monkeypatch.setattr(dp_seq, "ell_star", lambda low, up: 2 * real(low, up) + 1)
    assert _verdicts(ac.check_a8(RNG(0), "smoke", SETTINGS))["A8"] == "FAIL"


def test_a9_fails_when_the_noise_is_shrunk():
    assert _verdicts(ac.check_a9(RNG(0), "smoke", SETTINGS, noise_factor=0.25))["A9"] == "FAIL"
    # x0.5: eps-DP on distinct samples (their loss is eps/2), 2 eps on tied ones
    assert _verdicts(ac.check_a9(RNG(0), "smoke", SETTINGS, noise_factor=0.5))["A9"] == "FAIL"


def test_a9_reaches_eps_on_tied_tables_only():
    row = ac.check_a9(RNG(0), "smoke", SETTINGS).claims[0]
    assert row.value == pytest.approx(1.0, abs=1e-9)
    assert "on distinct samples only 0.5000, 0.5000 and 0.5000 eps" in row.claim


def test_b1_fails_on_too_narrow_intervals():
    assert _verdicts(ac.check_b1(RNG(0), "smoke", SETTINGS, width_factor=0.2))["B1"] == "FAIL"


def test_b2_fails_on_too_narrow_intervals(monkeypatch):
    real = seq.seq_ranks

    def narrow(n_max, k, delta, q):  # D(n) / 4
        n = np.arange(n_max + 1, dtype=float)
        d = seq.seq_width(np.maximum(n, 1), k, delta) / 4
        top = np.maximum(n, 1)
        return (np.clip(np.floor(n * (q - d)), 1, top).astype(np.int64),
                np.clip(np.ceil(n * (q + d)), 1, top).astype(np.int64))

    assert real is not narrow
    monkeypatch.setattr(seq, "seq_ranks", narrow)
    assert _verdicts(ac.check_b2(RNG(0), "smoke", SETTINGS))["B2"] == "FAIL"


def test_f1_passes_and_fails_on_a_broken_curve():
    curves = figures.fig1_curves()
    assert _verdicts(figure_checks.check_f1(None, "smoke", {}, curves))["F1"] == "PASS"
    broken = curves.copy()
    mask = (broken["panel"] == "gauss") & (broken["param"] == 3.0)
    broken.loc[mask, "gap"] = broken.loc[mask, "q"] * 0.1  # no interior optimum, not symmetric
    assert _verdicts(figure_checks.check_f1(None, "smoke", {}, broken))["F1"] == "FAIL"
