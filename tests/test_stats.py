"""Statistical helpers: Clopper-Pearson, Holm, Mann-Whitney, bootstrap CIs, log-log slopes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from dpbandits.stats import (
    bootstrap_ci,
    bootstrap_ratio_of_means,
    clopper_pearson,
    holm,
    loglog_slope,
    mann_whitney_less,
    mean_ci,
)

# ----------------------------------------------------------------------------------------------
# Clopper-Pearson
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.05, 0.01])
@pytest.mark.parametrize("n", [1, 10, 37])
def test_clopper_pearson_closed_forms_at_the_edges(n, alpha):
    lo0, hi0 = clopper_pearson(0, n, alpha)
    assert lo0 == 0.0
    assert hi0 == pytest.approx(1 - (alpha / 2) ** (1 / n), rel=1e-10)
    lon, hin = clopper_pearson(n, n, alpha)
    assert hin == 1.0
    assert lon == pytest.approx((alpha / 2) ** (1 / n), rel=1e-10)


def test_clopper_pearson_k0_n10_known_value():
    _, hi = clopper_pearson(0, 10)
    assert hi == pytest.approx(0.30849710781876083, rel=1e-9)  # 1 - 0.025 ** 0.1


@pytest.mark.parametrize(("n", "alpha"), [(10, 0.05), (25, 0.05), (40, 0.001)])
def test_clopper_pearson_matches_scipy_binomtest(n, alpha):
    ks = np.arange(n + 1)
    lo, hi = clopper_pearson(ks, n, alpha)  # vectorised over k
    assert lo.shape == hi.shape == ks.shape
    for k in ks:
        ref = sps.binomtest(int(k), n).proportion_ci(confidence_level=1 - alpha, method="exact")
        assert lo[k] == pytest.approx(ref.low, abs=1e-12)
        assert hi[k] == pytest.approx(ref.high, abs=1e-12)
    assert np.all(lo <= ks / n) and np.all(ks / n <= hi)
    assert np.all(np.diff(lo) > 0) and np.all(np.diff(hi) > 0)


def test_clopper_pearson_tail_probabilities():
    """Each bound is where the one-sided binomial tail equals alpha / 2 (definition)."""
    n, k, alpha = 30, 7, 0.05
    lo, hi = clopper_pearson(k, n, alpha)
    assert sps.binom.sf(k - 1, n, lo) == pytest.approx(alpha / 2, rel=1e-8)  # P(X >= k | lo)
    assert sps.binom.cdf(k, n, hi) == pytest.approx(alpha / 2, rel=1e-8)  # P(X <= k | hi)


@pytest.mark.parametrize(("k", "n"), [(-1, 10), (11, 10), ([0, 12], 10)])
def test_clopper_pearson_rejects_bad_counts(k, n):
    with pytest.raises(ValueError):
        clopper_pearson(k, n)


# ----------------------------------------------------------------------------------------------
# Holm
# ----------------------------------------------------------------------------------------------


def test_holm_hand_computed_example():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005 (x4) = 0.02, 0.01 (x3) = 0.03, 0.03 (x2) = 0.06, 0.04 (x1) = 0.04 -> 0.06
    reject, adjusted = holm(p, alpha=0.05)
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02], rtol=1e-12)
    assert reject.tolist() == [True, False, False, True]


def test_holm_monotone_adjustment_and_order():
    p = np.array([0.04, 0.001, 0.012])
    # sorted: 0.001 x3 = 0.003, 0.012 x2 = 0.024, 0.04 x1 = 0.04
    reject, adjusted = holm(p, alpha=0.03)
    np.testing.assert_allclose(adjusted, [0.04, 0.003, 0.024], rtol=1e-12)
    assert reject.tolist() == [False, True, True]
    # step-down: without the running max the last raw product (0.04 x 1) would undercut 0.06
    _, adj = holm([0.02, 0.021, 0.04])
    np.testing.assert_allclose(adj, [0.06, 0.06, 0.06], rtol=1e-12)
    # adjusted p-values are ordered like the raw p-values
    rng = np.random.default_rng(0)
    raw = rng.uniform(0, 0.2, size=20)
    _, adj = holm(raw)
    order = np.argsort(raw)
    assert np.all(np.diff(adj[order]) >= 0)
    assert np.all(adj >= raw)


def test_holm_caps_at_one_and_handles_ties():
    _, adj = holm([0.4, 0.7, 0.9])
    np.testing.assert_array_equal(adj, [1.0, 1.0, 1.0])
    reject, adj = holm([0.02, 0.02, 0.5])
    np.testing.assert_allclose(adj, [0.06, 0.06, 0.5], rtol=1e-12)
    assert not reject.any()
    reject, adj = holm([0.02])
    assert adj.tolist() == [0.02] and reject.tolist() == [True]


def test_holm_rejection_boundary_is_inclusive():
    reject, adj = holm([0.025, 0.5], alpha=0.05)
    assert adj[0] == pytest.approx(0.05)
    assert reject.tolist() == [True, False]


# ----------------------------------------------------------------------------------------------
# Mann-Whitney
# ----------------------------------------------------------------------------------------------


def test_mann_whitney_clear_separation():
    a = np.arange(10.0)
    b = np.arange(100.0, 110.0)
    assert mann_whitney_less(a, b) < 1e-3
    assert mann_whitney_less(b, a) > 0.999


def test_mann_whitney_constant_groups():
    assert mann_whitney_less([5.0] * 6, [5.0] * 8) == 1.0
    assert mann_whitney_less([3.0] * 6, [4.0] * 6) == 0.0
    assert mann_whitney_less([4.0] * 6, [3.0] * 6) == 1.0


def _mwu_less_by_hand(a, b):
    """Tie-corrected normal approximation with continuity correction, from the definition."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    n1, n2 = a.size, b.size
    u1 = sum((x < y) + 0.5 * (x == y) for x in a for y in b)  # pairs where a is below b
    u_a = n1 * n2 - u1  # Mann-Whitney U of a: pairs where a is above b (ties count 1/2)
    n = n1 + n2
    _, counts = np.unique(np.concatenate([a, b]), return_counts=True)
    tie = np.sum(counts**3 - counts)
    sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie / (n * (n - 1))))
    return sps.norm.cdf((u_a - n1 * n2 / 2 + 0.5) / sd)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1, 2, 2, 3, 3, 3, 4], [2, 3, 4, 4, 5, 5, 6, 6]),  # many ties across groups
        ([0, 0, 0, 1, 1], [0, 1, 1, 1, 1, 1]),  # two distinct values only (Bernoulli-like)
        ([5, 5, 5, 5], [1, 2, 5, 9, 9]),  # one constant group
    ],
)
def test_mann_whitney_ties_match_hand_computation(a, b):
    p = mann_whitney_less(a, b)
    assert p == pytest.approx(_mwu_less_by_hand(a, b), rel=1e-10)
    assert 0.0 < p < 1.0


def test_mann_whitney_direction_with_ties():
    a = [0] * 8 + [1] * 2
    b = [0] * 2 + [1] * 8
    assert mann_whitney_less(a, b) < 0.01
    assert mann_whitney_less(b, a) > 0.99
    assert mann_whitney_less(a, b) + mann_whitney_less(b, a) > 1.0  # continuity correction


# ----------------------------------------------------------------------------------------------
# Bootstrap CIs
# ----------------------------------------------------------------------------------------------


def test_mean_ci_contains_true_mean_and_has_normal_width():
    rng = np.random.default_rng(101)
    mu, sigma, n = 3.0, 2.0, 400
    x = rng.normal(mu, sigma, size=n)
    est, lo, hi = mean_ci(x, np.random.default_rng(1))
    assert est == pytest.approx(x.mean())
    assert lo < est < hi
    assert lo < mu < hi
    expected_width = 2 * 1.96 * sigma / math.sqrt(n)
    assert 0.8 * expected_width < hi - lo < 1.2 * expected_width


def test_ci_width_shrinks_with_n():
    rng = np.random.default_rng(7)
    widths = {}
    for n in (25, 400):
        x = rng.normal(0.0, 1.0, size=n)
        _, lo, hi = mean_ci(x, np.random.default_rng(n))
        _, blo, bhi = bootstrap_ci(x, np.mean, np.random.default_rng(n), n_boot=500)
        widths[n] = (hi - lo, bhi - blo)
    # sqrt(400 / 25) = 4 times narrower; ask for at least 2.5
    assert widths[400][0] < widths[25][0] / 2.5
    assert widths[400][1] < widths[25][1] / 2.5


def test_mean_ci_coverage_sanity():
    rng = np.random.default_rng(2718)
    mu, reps, n = 1.5, 300, 60
    hits = 0
    for _ in range(reps):
        x = rng.exponential(mu, size=n)
        _, lo, hi = mean_ci(x, rng, n_boot=500)
        hits += lo <= mu <= hi
    coverage = hits / reps
    # nominal 0.95 (percentile bootstrap under-covers a little on skewed data); se ~ 0.013
    assert 0.87 <= coverage <= 0.99


def test_bootstrap_ci_agrees_with_mean_ci_for_the_mean():
    x = np.random.default_rng(5).normal(size=50)
    a = bootstrap_ci(x, np.mean, np.random.default_rng(9), n_boot=300)
    b = mean_ci(x, np.random.default_rng(9), n_boot=300)
    np.testing.assert_allclose(a, b, rtol=1e-12)


def test_bootstrap_ci_resamples_runs_along_first_axis():
    # two columns that are perfectly tied per run: resampling rows keeps them tied
    rng = np.random.default_rng(3)
    base = rng.normal(size=40)
    data = np.column_stack([base, base + 10.0])

    def diff(d):
        return float(np.mean(d[:, 1] - d[:, 0]))

    est, lo, hi = bootstrap_ci(data, diff, np.random.default_rng(4), n_boot=200)
    assert est == pytest.approx(10.0)
    assert lo == pytest.approx(10.0) and hi == pytest.approx(10.0)
    # a median: estimate is the sample median, CI brackets it
    est, lo, hi = bootstrap_ci(base, np.median, np.random.default_rng(4), n_boot=300)
    assert est == pytest.approx(np.median(base))
    assert lo <= est <= hi and lo < hi


def test_bootstrap_ci_levels_nest():
    x = np.random.default_rng(12).normal(size=80)
    _, lo90, hi90 = mean_ci(x, np.random.default_rng(0), level=0.90)
    _, lo99, hi99 = mean_ci(x, np.random.default_rng(0), level=0.99)
    assert lo99 < lo90 < hi90 < hi99


def test_bootstrap_ci_rejects_empty():
    with pytest.raises(ValueError):
        bootstrap_ci(np.array([]), np.mean, np.random.default_rng(0))


def test_bootstrap_ratio_of_means():
    rng = np.random.default_rng(8)
    a = rng.normal(6.0, 1.0, size=200)
    b = rng.normal(3.0, 1.0, size=300)  # different sizes: groups resampled independently
    est, lo, hi = bootstrap_ratio_of_means(a, b, np.random.default_rng(1))
    assert est == pytest.approx(a.mean() / b.mean())
    assert lo < est < hi
    assert lo < 2.0 < hi
    # delta method: Var ~ sa^2/(na mb^2) + ma^2 sb^2/(nb mb^4)
    sd = math.sqrt(1 / (200 * 9) + 36 / (300 * 81))
    assert 0.75 * (2 * 1.96 * sd) < hi - lo < 1.25 * (2 * 1.96 * sd)


def test_bootstrap_ratio_of_means_constant_groups():
    est, lo, hi = bootstrap_ratio_of_means([4.0] * 5, [2.0] * 7, np.random.default_rng(0))
    assert (est, lo, hi) == (2.0, 2.0, 2.0)


# ----------------------------------------------------------------------------------------------
# log-log slope
# ----------------------------------------------------------------------------------------------


def test_loglog_slope_recovers_power_law():
    rng = np.random.default_rng(42)
    x = np.array([10.0, 100.0, 1000.0, 10000.0, 100000.0])
    runs = [3.0 / xi * np.exp(rng.normal(0.0, 0.05, size=40)) for xi in x]
    fit = loglog_slope(x, runs, np.random.default_rng(1), n_boot=1000)
    assert fit.slope == pytest.approx(-1.0, abs=0.01)
    assert fit.ci_low < -1.0 < fit.ci_high
    assert fit.ci_low <= fit.slope <= fit.ci_high
    assert fit.ci_high - fit.ci_low < 0.02
    assert math.exp(fit.intercept) == pytest.approx(3.0, rel=0.03)


def test_loglog_slope_exact_data_has_degenerate_ci():
    x = [2.0, 4.0, 8.0, 16.0]
    runs = [np.full(5, 7.0 * xi**0.5) for xi in x]
    fit = loglog_slope(x, runs, np.random.default_rng(0), n_boot=200)
    assert fit.slope == pytest.approx(0.5, abs=1e-12)
    assert fit.ci_low == pytest.approx(0.5, abs=1e-12)
    assert fit.ci_high == pytest.approx(0.5, abs=1e-12)
    assert fit.intercept == pytest.approx(math.log(7.0), abs=1e-12)


@pytest.mark.parametrize(
    "runs",
    [
        [[1.0, 2.0], [0.0, 0.0], [1.0, 1.0]],  # zero mean
        [[1.0, 2.0], [-1.0, 0.5], [1.0, 1.0]],  # negative mean
    ],
)
def test_loglog_slope_rejects_non_positive_means(runs):
    with pytest.raises(ValueError, match="positive"):
        loglog_slope([1.0, 2.0, 3.0], runs, np.random.default_rng(0))


@pytest.mark.parametrize(
    ("x", "runs"),
    [
        ([1.0, 2.0, 3.0], [[1.0], [2.0]]),  # fewer groups than x
        ([1.0, 2.0], [[1.0], [2.0], [3.0]]),  # more groups than x
        ([1.0], [[1.0, 2.0]]),  # a single x
    ],
)
def test_loglog_slope_rejects_mismatched_lengths(x, runs):
    with pytest.raises(ValueError, match="one group of runs per x"):
        loglog_slope(x, runs, np.random.default_rng(0))
