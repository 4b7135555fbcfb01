"""Mechanism and unit checks of the dueling paper (dpbandits.dueling.unit_checks): the vectorised
binary tree is the production counter, and every check PASSes on the real thing and FAILs on a
deliberately broken mechanism, matrix or constant. Seeded; the whole file runs in well under a
minute on one core."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpbandits.dueling import unit_checks as uc
from dpbandits.dueling.instances import f1, f2, sigmoid_prime
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter

A1_SMALL = {"horizons": (2**4, 2**7, 2**10), "epsilons": (0.1, 0.5, 1.0), "deltas": (0.1, 0.01),
            "n_streams": 600, "n_boot": 300}
A2_SMALL = {"epsilons": (0.5, 1.0), "horizon": 16, "n_draws": 400, "max_lengths": range(1, 40)}


def verdicts(out) -> dict[str, str]:
    return {c.check_id: c.verdict for c in out.claims}


def claim(out, check_id):
    return next(c for c in out.claims if c.check_id == check_id)


# ----------------------------------------------------------------------------------------------
# vectorised binary tree == BinaryTreeCounter
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 1024])
def test_tree_release_equals_counter_for_a_shared_rng(length):
    x = np.random.default_rng(length).integers(0, 2, size=(3, length))
    c = uc.tree_release(x, 0.7, np.random.default_rng(5))
    rng = np.random.default_rng(5)
    ref = []
    for row in x:  # three counters fed one after the other, sharing the generator
        counter = BinaryTreeCounter(length, 0.7, rng)
        ref.append([counter.add(float(v)) for v in row])
    np.testing.assert_allclose(c, np.array(ref), rtol=0, atol=1e-9)


def test_tree_release_with_a_longer_capacity_and_a_multiplier():
    x = np.random.default_rng(0).random((2, 50))
    c = uc.tree_release(x, 0.3, np.random.default_rng(9), max_length=200, noise_multiplier=0.5)
    rng = np.random.default_rng(9)
    ref = []
    for row in x:
        counter = BinaryTreeCounter(200, 0.3, rng, noise_multiplier=0.5)
        ref.append([counter.add(float(v)) for v in row])
    np.testing.assert_allclose(c, np.array(ref), rtol=0, atol=1e-9)


@pytest.mark.parametrize("length", [1, 6, 64, 1000])
def test_node_completion_index_is_the_counter_draw_order(length):
    levels = uc.tree_levels(length)
    assert levels == int(math.floor(math.log2(length))) + 1
    order = sorted(((j << h), h, j) for h in range(levels) for j in range(1, (length >> h) + 1))
    assert len(order) == uc.n_tree_nodes(length)
    idx = [int(uc.node_completion_index(h, j)) for _, h, j in order]
    assert idx == list(range(len(order)))


def test_fast_release_has_the_counter_law():
    """Fast mode (odd nodes only, exponential x sign) vs theory 2 popcount(t) b^2 at every t, and
    a two-sample comparison with exact mode at a popcount-6 position."""
    length, eps, n = 64, 0.5, 20000
    x = np.zeros((n, length))
    fast = uc.tree_release(x, eps, np.random.default_rng(1), exact_order=False)
    exact = uc.tree_release(x, eps, np.random.default_rng(2), exact_order=True)
    b = uc.tree_levels(length) / eps
    pop = np.array([bin(t).count("1") for t in range(1, length + 1)])
    var = 2 * pop * b**2
    se = np.sqrt((12 * pop * b**4 + 2 * var**2) / n)  # s.e. of the mean of err^2
    z = (np.mean(fast**2, axis=0) - var) / se
    assert np.max(np.abs(z)) < 5
    z_exact = (np.mean(exact**2, axis=0) - var) / se
    assert np.max(np.abs(z_exact)) < 5
    from scipy.stats import ks_2samp

    assert ks_2samp(fast[:, 62], exact[:, 62]).pvalue > 1e-3  # t = 63 = 0b111111


def test_bounds_match_the_spec_table():
    # spec 2.1 table: Lemma-1 bound 2330 (T = 2^10), 13181 (T = 2^20), 65904 (eps 0.1, delta 0.1)
    assert uc.lemma1_bound(2**10, 1.0, 0.01) == pytest.approx(2330, rel=1e-3)
    assert uc.lemma1_bound(2**20, 1.0, 0.01) == pytest.approx(13181, rel=1e-3)
    assert uc.lemma1_bound(2**20, 0.1, 0.1) == pytest.approx(65904, rel=1e-3)
    lam = uc.calibrated_bound(2**20, 1.0, 0.01)
    assert lam == pytest.approx(21 * math.sqrt(21) * math.sqrt(8 * math.log(200)))


# ----------------------------------------------------------------------------------------------
# A1
# ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def a1_good():
    return uc.check_a1(np.random.default_rng(11), "smoke", **A1_SMALL)


def test_a1_passes(a1_good):
    v = verdicts(a1_good)
    assert list(v) == list(uc.CLAIM_IDS["A1"])
    assert v == {"A1": "PASS", "A1-CAL": "PASS", "A1-RATIO": "REPORT", "A1-SLOPE-EPS": "PASS",
                 "A1-SLOPE-L": "PASS", "A1-SLOPE-POW2": "PASS"}
    assert claim(a1_good, "A1-RATIO").value > 5  # Lemma 1 is very conservative
    fig = a1_good.figure
    assert {"series", "x", "mean", "ci_low", "ci_high"} <= set(fig.points.columns)
    assert {"series", "slope", "ci_low", "ci_high", "intercept", "theory_slope", "x_min",
            "x_max"} <= set(fig.fits.columns)
    assert len(fig.fits) == len(A1_SMALL["horizons"])
    assert (fig.points["ci_low"] <= fig.points["mean"]).all()
    assert (fig.points["mean"] <= fig.points["ci_high"]).all()


def test_a1_fails_when_the_noise_exceeds_the_bounds():
    out = uc.check_a1(np.random.default_rng(11), "smoke", **{**A1_SMALL, "n_streams": 100},
                      noise_multiplier=100.0)
    v = verdicts(out)
    assert v["A1"] == "FAIL" and v["A1-CAL"] == "FAIL"


def test_a1_fails_for_a_formula_without_popcount():
    out = uc.check_a1(np.random.default_rng(11), "smoke", **A1_SMALL, formula="all_levels")
    v = verdicts(out)
    assert v["A1-SLOPE-POW2"] == "FAIL"
    assert claim(out, "A1-SLOPE-POW2").value == pytest.approx(1.5, abs=0.15)


def test_a1_fails_for_a_sensitivity_one_tree():
    out = uc.check_a1(np.random.default_rng(11), "smoke", **A1_SMALL, formula="unit_sensitivity")
    v = verdicts(out)
    assert v["A1-SLOPE-L"] == "FAIL" and v["A1-SLOPE-POW2"] == "FAIL"


# ----------------------------------------------------------------------------------------------
# A2
# ----------------------------------------------------------------------------------------------


def test_a2_passes():
    out = uc.check_a2(np.random.default_rng(3), "smoke", **A2_SMALL)
    assert verdicts(out) == {"A2-NODES": "PASS", "A2-SCALE": "PASS", "A2": "PASS"}
    # the triangle-inequality bound is attained: some draw has loss eps_c exactly
    assert claim(out, "A2").value == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("multiplier", [0.5, 0.0])
def test_a2_fails_when_the_noise_is_too_small(multiplier):
    out = uc.check_a2(np.random.default_rng(3), "smoke", **A2_SMALL, noise_multiplier=multiplier)
    v = verdicts(out)
    assert v["A2"] == "FAIL" and v["A2-SCALE"] == "FAIL"
    assert v["A2-NODES"] == "PASS"  # the node structure is still right


# ----------------------------------------------------------------------------------------------
# A6(a)
# ----------------------------------------------------------------------------------------------


def test_a6_random_logistic_instances():
    out = uc.check_a6(np.random.default_rng(4), "smoke", n_instances=40)
    v = verdicts(out)
    assert v == {"A6-P1": "PASS", "A6-P2": "PASS", "A6-P2-MAIN": "FAIL", "A6-MIDDLE": "REPORT",
                 "A6-ORDER": "PASS"}
    main = claim(out, "A6-P2-MAIN")
    assert main.kind == "erratum" and 0 < main.value < 0.5 and main.ci_low < main.value < main.ci_high
    assert "0.586 > Delta(1, 4) = 0.500" in main.claim
    assert "0.154 < Delta(1, 2) = 0.231" in claim(out, "A6-MIDDLE").claim


def test_a6_fails_on_non_logistic_matrices():
    r = np.array([3.0, 2.0, 1.0])  # the order 1 > 2 > 3 the properties refer to
    cyclic = np.array([[0.5, 0.6, 0.9], [0.4, 0.5, 0.05], [0.1, 0.95, 0.5]])  # 3 beats 2 hard
    lifted = np.array([[0.5, 0.51, 0.51], [0.49, 0.5, 0.99], [0.49, 0.01, 0.5]])  # 2 >> 3, 1 ~ 3
    out = uc.check_a6(np.random.default_rng(0), "smoke", instances=[(r, cyclic), (r, lifted)])
    v = verdicts(out)
    assert v["A6-P1"] == "FAIL" and v["A6-P2"] == "FAIL" and v["A6-ORDER"] == "FAIL"


def test_a6_main_text_property_passes_where_it_holds():
    rng = np.random.default_rng(0)
    pairs = []
    for _ in range(10):  # |S| = 2 only: B(j) - B(i') = 0 for the only j != i*
        r = rng.uniform(-1, 1, size=2)
        pairs.append((r, uc._logistic(r)))
    out = uc.check_a6(rng, "smoke", instances=pairs, counterexample=None)
    assert verdicts(out)["A6-P2-MAIN"] == "PASS"


# ----------------------------------------------------------------------------------------------
# Lemma 6, Lemma 10
# ----------------------------------------------------------------------------------------------


def test_lemma6_paper_count_fails_corrected_count_passes():
    out = uc.check_lemma6(np.random.default_rng(0), "smoke")
    assert verdicts(out) == {"L6-PAPER": "FAIL", "L6-CORR": "PASS"}
    paper = claim(out, "L6-PAPER")
    # spec: 4 rad = 0.256-0.259 > Delta = 1/4 at T = 1e6-1e8
    assert 0.255 / 0.25 <= paper.value <= 0.26 / 0.25
    assert claim(out, "L6-CORR").value <= 0.625


def test_lemma6_rows_can_flip():
    # the corrected count's constants (64, 8 rho) expressed in the paper's form pass
    out = uc.check_lemma6(np.random.default_rng(0), "smoke", paper_constants=(64.0, 128.0),
                          corr_constants=(8.0, 4.0))
    assert verdicts(out) == {"L6-PAPER": "PASS", "L6-CORR": "FAIL"}


def test_lemma10():
    out = uc.check_lemma10(np.random.default_rng(0), "smoke", n_trials=5000)
    assert verdicts(out) == {"L10-PAPER": "FAIL", "L10-CORR": "PASS"}
    assert claim(out, "L10-PAPER").value == 3.0
    assert 3.9 < claim(out, "L10-CORR").value <= 4.0  # the 4 xi threshold is tight


def test_lemma10_rows_can_flip():
    assert verdicts(uc.check_lemma10(np.random.default_rng(0), "smoke", n_trials=5000,
                                     margin=0.0))["L10-PAPER"] == "PASS"
    assert verdicts(uc.check_lemma10(np.random.default_rng(0), "smoke", n_trials=5000,
                                     threshold=3.0))["L10-CORR"] == "FAIL"


# ----------------------------------------------------------------------------------------------
# lower bound, kappa
# ----------------------------------------------------------------------------------------------


def test_lower_bound_rows():
    out = uc.check_lower_bound(np.random.default_rng(0), "smoke", ks=(2, 3, 4, 8))
    assert verdicts(out) == {"B7-F1-MATRIX": "PASS", "LB-ALT": "FAIL", "LB-ALT-FIX": "PASS"}
    assert claim(out, "LB-ALT").value == pytest.approx(math.log(3))
    assert uc.logistic_residual(f1(5).preference) < 1e-12
    assert np.max(np.abs(f1(6).preference - uc.lb_matrix(6))) <= 1e-12


def test_lower_bound_rows_can_fail():
    out = uc.check_lower_bound(np.random.default_rng(0), "smoke", ks=(2, 4),
                               instance=lambda k: f2(k, 0.2), alt_utility=math.log(3))
    v = verdicts(out)
    assert v["B7-F1-MATRIX"] == "FAIL" and v["LB-ALT-FIX"] == "FAIL"


def test_kappa():
    out = uc.check_kappa(np.random.default_rng(0), "smoke", n_samples=20000, dims=(2,),
                         norms=(0.5, 1.0), n_polish=2)
    assert verdicts(out) == {"KAPPA-ALG": "PASS", "KAPPA-THM": "PASS", "KAPPA": "FAIL"}
    assert float(sigmoid_prime(4.0)) == pytest.approx(0.0176627, abs=1e-7)
    assert float(sigmoid_prime(2.0)) == pytest.approx(0.1049936, abs=1e-7)
    assert claim(out, "KAPPA").value == pytest.approx(5.944, abs=1e-3)
    assert "kappa=thm" in claim(out, "KAPPA").claim


def test_kappa_fails_for_a_wrong_closed_form():
    out = uc.check_kappa(np.random.default_rng(0), "smoke", n_samples=20000, dims=(2,),
                         norms=(1.0,), n_polish=2,
                         alg_closed_form=lambda s: float(sigmoid_prime(s + 1)))
    assert verdicts(out)["KAPPA-ALG"] == "FAIL"


# ----------------------------------------------------------------------------------------------
# registry
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["A2", "A6a", "L6", "L10", "LB", "KAPPA"])
def test_registry_smoke_runs_and_ids_are_stable(key):
    out = uc.run_check(key, np.random.default_rng(0), "smoke")
    assert [c.check_id for c in out.claims] == list(uc.CLAIM_IDS[key])
    assert all(c.paper == "dueling" and c.scale == "smoke" for c in out.claims)
    assert {"paper", "smoke"} == set(uc.CHECKS[key][1])


def test_claim_ids_unique_and_documented():
    ids = [i for key in uc.CHECKS for i in uc.CLAIM_IDS[key]]
    assert len(ids) == len(set(ids))
    assert set(uc.CLAIM_IDS) == set(uc.CHECKS)
    for i in ids:
        assert f"\n{i} " in uc.__doc__
