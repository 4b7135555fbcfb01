"""Statistical helpers: Clopper-Pearson, Holm, Mann-Whitney, bootstrap CIs, log-log slopes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from dpbandits.evidence.checks import worst_case
from dpbandits.stats import (
    bootstrap_ci,
    bootstrap_ratio_of_means,
    clopper_pearson,
    fit_line,
    holm,
    loglog_slope,
    mann_whitney_less,
    mean_ci,
    paired_loglog_slope,
    slope_difference,
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


# ----------------------------------------------------------------------------------------------
# Slope CIs that include lack of fit (dpbandits.stats.slopes)
# ----------------------------------------------------------------------------------------------


def _mc_only_slopes(x, runs, rng, n_boot):
    """The runs-only bootstrap slopes (the CI before lack of fit was included), drawn like
    loglog_slope draws its Monte Carlo part."""
    lx = np.log(np.asarray(x, dtype=float))
    lxc = lx - lx.mean()
    ly = np.log(np.column_stack([g[rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1)
                                 for g in runs]))
    return (ly - ly.mean(axis=1, keepdims=True)) @ lxc / (lxc @ lxc)


def _power_law_runs(rng, x, slope, tau, run_sd, n_runs):
    """Runs whose log means lie on log 1.6 + slope log x plus N(0, tau^2) deviations (lack of
    fit); each run is log-normal with log-sd ``run_sd`` about its point's mean."""
    log_means = 0.5 + slope * np.log(x) + rng.normal(0.0, tau, size=x.size)
    return [np.exp(lm - run_sd**2 / 2 + rng.normal(0.0, run_sd, size=n_runs)) for lm in log_means]


def test_scattered_points_do_not_get_a_zero_width_ci():
    """Points known precisely (tiny Monte Carlo noise) that scatter by up to half a
    decade about a line of slope 1. The runs-only CI has width ~0 and misses 1; the CI with lack
    of fit is wide, covers 1, and reports the scatter."""
    x = np.array([1e2, 1e3, 1e4, 1e5, 1e6])
    decades_off = np.array([0.5, -0.4, 0.35, -0.5, 0.3])
    rng = np.random.default_rng(15)
    runs = [xi * 10**d * np.exp(rng.normal(0.0, 0.01, size=100)) for xi, d in zip(x, decades_off, strict=True)]
    fit = loglog_slope(x, runs, np.random.default_rng(1), n_boot=2000)
    assert fit.lof_assessed and fit.resid_df == 3
    assert fit.mc_ci_high - fit.mc_ci_low < 0.002  # the old CI: "0.95 [0.95, 0.95]"
    assert not fit.mc_ci_low <= 1.0 <= fit.mc_ci_high
    assert fit.ci_low < 1.0 < fit.ci_high
    assert fit.ci_high - fit.ci_low > 0.5
    # the scatter: residual SE in log units ~ 0.5 decade; almost all of it is lack of fit
    assert fit.resid_se == pytest.approx(1.215, abs=0.01)
    assert fit.lof_sd == pytest.approx(fit.resid_se, rel=1e-3)
    assert 0.85 < fit.r2 < 0.95
    # textbook OLS interval b +- t_{k-2} s / sqrt(Sxx), which the method reduces to here
    lx = np.log(x)
    half = sps.t.ppf(0.975, 3) * fit.resid_se / math.sqrt(np.sum((lx - lx.mean()) ** 2))
    assert fit.ci_low == pytest.approx(fit.slope - half, abs=0.06)
    assert fit.ci_high == pytest.approx(fit.slope + half, abs=0.06)


@pytest.mark.parametrize(
    ("k", "tau", "run_sd", "seed"),
    [
        (4, 0.3, 0.03, 1),  # lack of fit dominates the Monte Carlo noise (few points)
        (6, 0.04, 0.1, 2),  # lack of fit about twice the Monte Carlo noise of a point
    ],
)
def test_lack_of_fit_ci_covers_at_the_nominal_rate(k, tau, run_sd, seed):
    """400 seeded replications of a linear log-log law with random deviations from the line:
    the 95% CI covers the true slope within a binomial tolerance (sd 0.011); the runs-only CI
    does not (so this test would fail on the old CI)."""
    rng = np.random.default_rng(seed)
    x = np.logspace(0, 2, k)
    reps, hits, hits_mc = 400, 0, 0
    for _ in range(reps):
        fit = loglog_slope(x, _power_law_runs(rng, x, 1.0, tau, run_sd, 30), rng, n_boot=500)
        hits += fit.ci_low <= 1.0 <= fit.ci_high
        hits_mc += fit.mc_ci_low <= 1.0 <= fit.mc_ci_high
    assert 0.92 <= hits / reps <= 0.98
    assert hits_mc / reps < 0.8


def test_no_inflation_on_an_exact_line_with_monte_carlo_noise():
    """True means exactly on a power law, only Monte Carlo noise: most CIs are exactly the
    runs-only CI (whenever the residuals are within the noise), the median width ratio is 1, and
    the coverage stays nominal."""
    rng = np.random.default_rng(3)
    x = np.logspace(0, 2, 5)
    reps, hits, ratios = 300, 0, []
    for _ in range(reps):
        fit = loglog_slope(x, _power_law_runs(rng, x, 1.0, 0.0, 0.1, 30), rng, n_boot=500)
        hits += fit.ci_low <= 1.0 <= fit.ci_high
        ratios.append((fit.ci_high - fit.ci_low) / (fit.mc_ci_high - fit.mc_ci_low))
    ratios = np.array(ratios)
    assert np.mean(ratios == 1.0) > 0.45
    assert np.median(ratios) == 1.0
    assert np.mean(ratios) < 2.0
    assert 0.93 <= hits / reps <= 0.99


def test_points_within_their_noise_give_exactly_the_monte_carlo_fit():
    """When RSS <= its Monte Carlo expectation no lack of fit is estimated: boots, CI and the
    generator's state are those of the runs-only bootstrap."""
    x = np.array([1.0, 2.0, 4.0, 8.0])
    base = np.random.default_rng(8).normal(0.0, 1.0, size=50)
    runs = [10.0 * xi * (1.0 + 0.2 * base) for xi in x]  # identical relative noise: residuals 0
    rng_a, rng_b = np.random.default_rng(4), np.random.default_rng(4)
    fit = loglog_slope(x, runs, rng_a, n_boot=400)
    ref = _mc_only_slopes(x, runs, rng_b, 400)
    assert fit.lof_sd == 0.0 and fit.lof_assessed
    np.testing.assert_allclose(fit.boots, ref, rtol=0, atol=1e-12)
    assert (fit.ci_low, fit.ci_high) == (fit.mc_ci_low, fit.mc_ci_high)
    assert rng_a.random() == rng_b.random()


def test_two_points_fall_back_to_the_monte_carlo_ci():
    """Two x values: the line passes through both points, lack of fit cannot be assessed."""
    x = [10.0, 1000.0]
    rng = np.random.default_rng(5)
    runs = [rng.exponential(3.0, size=40), rng.exponential(90.0, size=40)]
    fit = loglog_slope(x, runs, np.random.default_rng(6), n_boot=800)
    ref = _mc_only_slopes(x, runs, np.random.default_rng(6), 800)
    assert not fit.lof_assessed
    assert fit.resid_df == 0
    assert math.isnan(fit.resid_se) and math.isnan(fit.lof_sd) and math.isnan(fit.r2)
    np.testing.assert_allclose(fit.boots, ref, rtol=0, atol=1e-12)
    assert fit.ci_low == pytest.approx(np.quantile(ref, 0.025), abs=1e-12)
    assert (fit.ci_low, fit.ci_high) == (fit.mc_ci_low, fit.mc_ci_high)
    assert fit.slope == pytest.approx(math.log(runs[1].mean() / runs[0].mean()) / math.log(100.0))


def test_boots_are_consistent_with_the_ci_and_their_differences_carry_lack_of_fit():
    rng = np.random.default_rng(9)
    x = np.logspace(0, 2, 5)
    fits = [loglog_slope(x, _power_law_runs(rng, x, s, 0.3, 0.05, 40), rng, n_boot=3000) for s in (1.0, 0.5)]
    for fit in fits:
        assert fit.boots.shape == (3000,)
        lo, hi = np.quantile(fit.boots, [0.025, 0.975])
        assert fit.ci_low == pytest.approx(lo, abs=1e-12) and fit.ci_high == pytest.approx(hi, abs=1e-12)
        assert fit.lof_sd > 0.1
        # the bootstrap slopes are centred on the fit and spread like the lack of fit says
        assert np.median(fit.boots) == pytest.approx(fit.slope, abs=0.1)
        assert fit.ci_high - fit.ci_low > 5 * (fit.mc_ci_high - fit.mc_ci_low)
    # a paired CI of the difference of two slopes (as T-2.6a-ORDER, BT-3 compute it): its
    # lack-of-fit draws are independent, so its spread is that of both fits together
    d = fits[0].boots - fits[1].boots
    assert np.std(d) == pytest.approx(math.hypot(np.std(fits[0].boots), np.std(fits[1].boots)), rel=0.1)
    d_lo, d_hi = np.quantile(d, [0.025, 0.975])
    assert d_lo < fits[0].slope - fits[1].slope < d_hi


def test_level_sets_the_percentiles():
    rng = np.random.default_rng(10)
    x = np.logspace(0, 2, 6)
    runs = _power_law_runs(rng, x, 0.7, 0.2, 0.1, 30)
    f90 = loglog_slope(x, runs, np.random.default_rng(0), n_boot=2000, level=0.90)
    f99 = loglog_slope(x, runs, np.random.default_rng(0), n_boot=2000, level=0.99)
    assert f99.ci_low < f90.ci_low < f90.slope < f90.ci_high < f99.ci_high
    np.testing.assert_array_equal(f90.boots, f99.boots)


def test_paired_slope_includes_lack_of_fit():
    """Paired runs (the same runs at every x): a curved mean (log growth, fitted as a power law)
    gets a CI much wider than its runs-only CI; an exact power law keeps the runs-only CI."""
    rng = np.random.default_rng(11)
    ts = np.array([1e3, 3e3, 1e4, 3e4, 1e5, 3e5])
    scale = rng.exponential(1.0, size=(60, 1))
    curved = paired_loglog_slope(ts, scale * np.log(ts) ** 3, np.random.default_rng(1), n_boot=1000)
    assert curved.lof_sd > 0
    assert curved.ci_high - curved.ci_low > 5 * (curved.mc_ci_high - curved.mc_ci_low)
    fit_ok = paired_loglog_slope(ts, scale * ts**0.5, np.random.default_rng(1), n_boot=1000)
    assert fit_ok.slope == pytest.approx(0.5, abs=1e-12)
    assert fit_ok.ci_high - fit_ok.ci_low < 1e-9  # common factor: the slope is the same in every draw


def test_fit_line_linear_use_and_bad_input():
    """fit_line fits y on u as given (no logs): a linear law with lack of fit."""
    rng = np.random.default_rng(12)
    u = np.arange(1.0, 7.0)
    y = 3.0 + 2.0 * u + np.array([0.5, -0.4, 0.1, 0.6, -0.3, -0.5])
    y_boots = y + rng.normal(0.0, 0.01, size=(2000, u.size))
    fit = fit_line(u, y, y_boots, rng)
    slope, intercept = np.polyfit(u, y, 1)
    assert fit.slope == pytest.approx(slope) and fit.intercept == pytest.approx(intercept)
    assert fit.ci_low < 2.0 < fit.ci_high
    with pytest.raises(ValueError, match="y_boots of shape"):
        fit_line(u, y, y_boots[:, :3], rng)
    with pytest.raises(ValueError, match="distinct x"):
        fit_line(np.ones(6), y, y_boots, rng)
    with pytest.raises(ValueError, match="level"):
        fit_line(u, y, y_boots, rng, level=1.5)


def test_worst_case_slope_includes_lack_of_fit():
    """checks.worst_case: the max over instances of the mean regret scatters about its line
    (which instance is worst changes with T); its slope CI includes that scatter, its per-T
    bootstrap maxima are unchanged in shape."""
    rng = np.random.default_rng(13)
    ts = [1e3, 1e4, 1e5, 1e6]
    levels = [[30.0, 10.0], [40.0, 300.0], [1500.0, 100.0], [1000.0, 2000.0]]  # max ~ T^0.6, scattered
    groups_by_t = [[lv * np.exp(rng.normal(0.0, 0.05, size=40)) for lv in row] for row in levels]
    wc = worst_case(ts, groups_by_t, np.random.default_rng(2), n_boot=1000)
    fit = wc.slope_fit
    assert wc.boots.shape == (1000, 4)
    assert wc.argmax == [0, 1, 0, 1]
    assert (wc.slope, wc.slope_ci, wc.intercept) == (fit.slope, (fit.ci_low, fit.ci_high), fit.intercept)
    lx = np.log(ts)
    assert wc.slope == pytest.approx(np.polyfit(lx, np.log(wc.point), 1)[0])
    assert fit.lof_assessed and fit.lof_sd > 0.3
    assert wc.slope_ci[1] - wc.slope_ci[0] > 10 * (fit.mc_ci_high - fit.mc_ci_low)
    assert wc.slope_ci[0] < wc.slope < wc.slope_ci[1]
    # two horizons: no lack of fit to assess, the Monte Carlo CI
    wc2 = worst_case(ts[:2], groups_by_t[:2], np.random.default_rng(2), n_boot=1000)
    assert not wc2.slope_fit.lof_assessed
    assert wc2.slope_ci == (wc2.slope_fit.mc_ci_low, wc2.slope_fit.mc_ci_high)


def test_slope_difference_cancels_shared_lack_of_fit():
    """Two curves on the same x that bend alike (shared deviations from a power law) with slopes
    1.0 and 0.8: the difference of their boots carries both lack-of-fit terms; slope_difference
    fits the differences of the points, where the bends cancel, and gets a much narrower CI that
    still covers 0.2."""
    rng = np.random.default_rng(14)
    x = np.logspace(0, 2, 6)
    bend = np.array([0.2, -0.1, -0.25, -0.1, 0.1, 0.25])
    runs_a = [5.0 * xi**1.0 * math.exp(d) * rng.gamma(16.0, 1 / 16.0, size=60) for xi, d in zip(x, bend, strict=True)]
    runs_b = [2.0 * xi**0.8 * math.exp(d) * rng.gamma(16.0, 1 / 16.0, size=60) for xi, d in zip(x, bend, strict=True)]
    fa, fb = (loglog_slope(x, r, rng, n_boot=2000) for r in (runs_a, runs_b))
    assert fa.lof_sd > 0.1 and fb.lof_sd > 0.1
    d_lo, d_hi = np.quantile(fa.boots - fb.boots, [0.025, 0.975])
    diff = slope_difference(fa, fb, rng)
    assert diff.slope == pytest.approx(fa.slope - fb.slope, abs=1e-12)
    assert diff.ci_low < 0.2 < diff.ci_high
    assert d_lo < 0.2 < d_hi
    assert diff.ci_high - diff.ci_low < 0.3 * (d_hi - d_lo)
    with pytest.raises(ValueError, match="share their x"):
        slope_difference(fa, loglog_slope(x * 2, runs_b, rng, n_boot=2000), rng)
    with pytest.raises(ValueError, match="number of bootstrap draws"):
        slope_difference(fa, loglog_slope(x, runs_b, rng, n_boot=500), rng)
