"""Privacy mechanisms: noise scales, privacy accounting and error variances.

Monte Carlo checks use fixed seeds; tolerances are computed from theory (standard error of a
sample variance from the fourth cumulant of the Laplace law) and set at 5 standard errors, except
the Fact 16 tail check, which uses 3 standard errors as the specification asks (fixed seed).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpbandits.mechanisms import (
    BinaryTreeCounter,
    HybridCounter,
    LaplaceMechanism,
    laplace_tail_probability,
)
from dpbandits.mechanisms.tree_counter import (
    BatchedTreeCounter,
    TreeCounterNoise,
    tree_levels,
    tree_release,
)

N_SIGMA = 5.0


def _var_se(scales, n: int) -> tuple[float, float]:
    """Variance of a sum of independent Lap(b_i), and the s.e. of its mean-zero estimator.

    For X = sum_i Lap(b_i): Var X = 2 sum b_i^2, fourth cumulant 12 sum b_i^4, so
    Var(X^2) = kappa4 + 2 (Var X)^2 and se(mean(X^2)) = sqrt(Var(X^2) / n).
    """
    scales = np.asarray(scales, dtype=float)
    var = 2.0 * np.sum(scales**2)
    kappa4 = 12.0 * np.sum(scales**4)
    return float(var), math.sqrt((kappa4 + 2.0 * var**2) / n)


# ----------------------------------------------------------------------------------------------
# Laplace mechanism
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "sensitivity"), [(1.0, 1.0), (0.25, 1.0), (0.5, 3.0), (2.0, 0.5)])
def test_laplace_scale_and_effective_epsilon(epsilon, sensitivity):
    mech = LaplaceMechanism(epsilon=epsilon, sensitivity=sensitivity)
    assert mech.scale == pytest.approx(sensitivity / epsilon)
    assert mech.effective_epsilon == pytest.approx(epsilon)


def test_laplace_noise_multiplier_mutant_has_weaker_privacy():
    mech = LaplaceMechanism(epsilon=1.0, sensitivity=2.0, noise_multiplier=0.25)
    assert mech.scale == pytest.approx(0.25 * 2.0 / 1.0)
    assert mech.effective_epsilon == pytest.approx(1.0 / 0.25)


@pytest.mark.parametrize(("epsilon", "sensitivity"), [(1.0, 1.0), (0.25, 2.0)])
def test_laplace_empirical_variance(epsilon, sensitivity):
    mech = LaplaceMechanism(epsilon=epsilon, sensitivity=sensitivity)
    rng = np.random.default_rng(20240601)
    n = 200_000
    x = mech.noise(rng, size=n)
    assert x.shape == (n,)
    var, se = _var_se([mech.scale], n)
    assert var == pytest.approx(2.0 * (sensitivity / epsilon) ** 2)
    assert abs(np.mean(x**2) - var) < N_SIGMA * se
    # centred at zero: se of the mean is sqrt(var / n)
    assert abs(np.mean(x)) < N_SIGMA * math.sqrt(var / n)
    # it really is Laplace, not e.g. Gaussian with the same variance: E|X| = b
    assert abs(np.mean(np.abs(x)) - mech.scale) < N_SIGMA * mech.scale / math.sqrt(n)


def test_laplace_release_shapes():
    mech = LaplaceMechanism(epsilon=1.0)
    rng = np.random.default_rng(1)
    scalar = mech.release(3.0, rng)
    assert isinstance(scalar, float)
    vec = mech.release(np.zeros((4, 3)), rng)
    assert vec.shape == (4, 3)
    assert np.all(vec != 0.0)
    assert len(np.unique(vec)) == vec.size  # independent draws per coordinate


@pytest.mark.parametrize("epsilon", [0.0, -1.0, -1e-9, math.inf, math.nan])
def test_laplace_bad_epsilon(epsilon):
    with pytest.raises(ValueError, match=r"^epsilon"):
        LaplaceMechanism(epsilon=epsilon)


@pytest.mark.parametrize("sensitivity", [0.0, -2.0, math.inf, math.nan])
def test_laplace_bad_sensitivity(sensitivity):
    with pytest.raises(ValueError, match=r"^sensitivity"):
        LaplaceMechanism(epsilon=1.0, sensitivity=sensitivity)


def test_laplace_bad_noise_multiplier():
    with pytest.raises(ValueError, match=r"^noise_multiplier"):
        LaplaceMechanism(epsilon=1.0, noise_multiplier=-0.5)


def test_laplace_zero_noise_multiplier_is_exact():
    mech = LaplaceMechanism(epsilon=0.5, sensitivity=1.0, noise_multiplier=0.0)
    rng = np.random.default_rng(3)
    assert mech.scale == 0.0
    assert mech.effective_epsilon == math.inf
    assert mech.noise(rng) == 0.0
    assert np.array_equal(mech.noise(rng, size=5), np.zeros(5))
    values = np.array([0.0, 1.5, -2.25])
    assert np.array_equal(mech.release(values, rng), values)
    assert mech.release(7.0, rng) == 7.0


def test_laplace_tail_probability_formula():
    b = 2.5
    assert laplace_tail_probability(0.0, b) == pytest.approx(1.0)
    for delta in (0.5, 0.1, 0.01, 1e-6):
        assert laplace_tail_probability(b * math.log(1 / delta), b) == pytest.approx(delta)
    xs = np.array([0.0, 1.0, 5.0])
    np.testing.assert_allclose(laplace_tail_probability(xs, b), np.exp(-xs / b))


@pytest.mark.parametrize("delta", [0.1, 0.01])
def test_laplace_tail_probability_monte_carlo(delta):
    """Fact 16: P(|Y| > b ln(1/delta)) = delta for Y ~ Lap(b)."""
    mech = LaplaceMechanism(epsilon=0.5, sensitivity=1.0)  # b = 2
    b = mech.scale
    rng = np.random.default_rng(16)
    n = 400_000
    y = mech.noise(rng, size=n)
    threshold = b * math.log(1.0 / delta)
    freq = np.mean(np.abs(y) > threshold)
    predicted = float(laplace_tail_probability(threshold, b))
    assert predicted == pytest.approx(delta)
    se = math.sqrt(delta * (1 - delta) / n)
    assert abs(freq - predicted) < 3.0 * se


# ----------------------------------------------------------------------------------------------
# Binary tree counter
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("max_length", "levels"), [(1, 1), (2, 2), (3, 2), (8, 4), (15, 4), (16, 5), (100, 7)])
def test_tree_levels(max_length, levels):
    counter = BinaryTreeCounter(max_length, 1.0, np.random.default_rng(0))
    assert counter.levels == levels


@pytest.mark.parametrize("max_length", [1, 5, 16, 37])
def test_tree_exact_without_noise(max_length):
    rng = np.random.default_rng(11)
    counter = BinaryTreeCounter(max_length, 1.0, rng, noise_multiplier=0.0)
    values = rng.uniform(0, 1, size=max_length)
    values[::3] = np.round(values[::3])  # mix of 0/1 and fractional rewards
    outputs = [counter.add(v) for v in values]
    np.testing.assert_allclose(outputs, np.cumsum(values), rtol=0, atol=1e-12)
    assert counter.t == max_length
    assert counter.true_sum == pytest.approx(values.sum())
    assert counter.value() == pytest.approx(values.sum())


def test_tree_exceeding_max_length_raises():
    counter = BinaryTreeCounter(4, 1.0, np.random.default_rng(0))
    for _ in range(4):
        counter.add(1.0)
    with pytest.raises(ValueError, match="max_length"):
        counter.add(1.0)


@pytest.mark.parametrize("max_length", [0, -3])
def test_tree_bad_max_length(max_length):
    with pytest.raises(ValueError, match="max_length"):
        BinaryTreeCounter(max_length, 1.0, np.random.default_rng(0))


@pytest.mark.parametrize("max_length", [1, 7, 16, 20])
def test_tree_every_element_in_exactly_levels_nodes(max_length):
    counter = BinaryTreeCounter(max_length, 1.0, np.random.default_rng(0))
    L = counter.levels
    # all nodes that can ever be touched by a stream of max_length elements
    all_nodes = {(h, j) for h in range(L) for j in range(1, (max_length - 1) // (1 << h) + 2)}
    for t in range(1, max_length + 1):
        nodes = counter.nodes_of(t)
        assert len(nodes) == L
        assert sorted(h for h, _ in nodes) == list(range(L))  # one node per level
        for h, j in nodes:
            assert (j - 1) * (1 << h) < t <= j * (1 << h)  # node (h, j) covers ((j-1)2^h, j 2^h]
        # brute force: exactly L nodes of the whole tree contain t
        containing = [(h, j) for h, j in all_nodes if (j - 1) * (1 << h) < t <= j * (1 << h)]
        assert sorted(containing) == sorted(nodes)


@pytest.mark.parametrize(("max_length", "epsilon"), [(16, 1.0), (1000, 0.25), (5, 0.5)])
def test_tree_privacy_accounting(max_length, epsilon):
    counter = BinaryTreeCounter(max_length, epsilon, np.random.default_rng(0))
    L = counter.levels
    assert counter.levels == math.floor(math.log2(max_length)) + 1
    assert counter.epsilon == epsilon
    assert counter.laplace.sensitivity == L  # l1 sensitivity of the node vector
    assert counter.laplace.scale == pytest.approx(L / epsilon)
    # Lap(L / eps) on a sensitivity-L vector is epsilon-DP
    assert counter.laplace.sensitivity / counter.laplace.scale == pytest.approx(epsilon)
    assert counter.laplace.effective_epsilon == pytest.approx(epsilon)


def test_tree_noise_variance_formula():
    eps = 0.5
    counter = BinaryTreeCounter(16, eps, np.random.default_rng(0))
    b = 5 / eps
    for t, pop in [(1, 1), (3, 2), (7, 3), (8, 1), (15, 4), (16, 1)]:
        assert counter.noise_variance(t) == pytest.approx(2 * pop * b**2)


def _tree_errors(max_length, epsilon, reps, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 2, size=max_length).astype(float)
    errors = np.empty((reps, max_length))
    for r in range(reps):
        counter = BinaryTreeCounter(max_length, epsilon, rng)
        for i, v in enumerate(values):
            errors[r, i] = counter.add(v) - counter.true_sum
    return errors, counter


def test_tree_empirical_error_variance():
    eps, max_length, reps = 1.0, 16, 4000
    errors, counter = _tree_errors(max_length, eps, reps, seed=2024)
    L = counter.levels
    for t in (1, 3, 7, 8, 16):
        e = errors[:, t - 1]
        popcount = bin(t).count("1")
        var, se = _var_se([L / eps] * popcount, reps)
        assert counter.noise_variance(t) == pytest.approx(var)
        assert var == pytest.approx(2 * popcount * (L / eps) ** 2)
        assert abs(np.mean(e**2) - var) < N_SIGMA * se, t
        assert abs(np.mean(e)) < N_SIGMA * math.sqrt(var / reps), t


def test_tree_errors_share_nodes():
    """The tree reuses node noise: c_2 and c_3 share node (1,1); c_1 and c_2 share nothing.

    A counter adding fresh noise of the right variance at every step would fail this.
    """
    eps, reps = 1.0, 4000
    errors, counter = _tree_errors(16, eps, reps, seed=77)
    b = counter.levels / eps
    node_var = 2 * b**2

    def cov(i, j):
        return float(np.mean(errors[:, i - 1] * errors[:, j - 1]))

    # se of mean(X*Y) for independent/shared Laplace parts, bounded by sqrt(E X^2 Y^2 / n)
    def se(i, j):
        return float(np.std(errors[:, i - 1] * errors[:, j - 1]) / math.sqrt(reps))

    assert abs(cov(2, 3) - node_var) < N_SIGMA * se(2, 3)  # e_3 = n(0,3) + n(1,1), e_2 = n(1,1)
    assert abs(cov(4, 6) - node_var) < N_SIGMA * se(4, 6)  # both contain n(2,1)
    assert abs(cov(1, 2)) < N_SIGMA * se(1, 2)
    assert abs(cov(3, 4)) < N_SIGMA * se(3, 4)
    # 5 = 4 + 1 and 7 = 4 + 2 + 1: they share n(2,1) only (n(0,5) != n(0,7))
    assert abs(cov(5, 7) - node_var) < N_SIGMA * se(5, 7)


# ----------------------------------------------------------------------------------------------
# Binary tree counter: the vectorised forms (tree_release, TreeCounterNoise, BatchedTreeCounter)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 1024])
def test_tree_release_equals_counter_for_a_shared_rng(length):
    x = np.random.default_rng(length).integers(0, 2, size=(3, length))
    c = tree_release(x, 0.7, np.random.default_rng(5))
    rng = np.random.default_rng(5)
    ref = []
    for row in x:  # three counters fed one after the other, sharing the generator
        counter = BinaryTreeCounter(length, 0.7, rng)
        ref.append([counter.add(float(v)) for v in row])
    np.testing.assert_allclose(c, np.array(ref), rtol=0, atol=1e-9)


def test_tree_release_with_a_longer_capacity_and_a_multiplier():
    x = np.random.default_rng(0).random((2, 50))
    c = tree_release(x, 0.3, np.random.default_rng(9), max_length=200, noise_multiplier=0.5)
    rng = np.random.default_rng(9)
    ref = []
    for row in x:
        counter = BinaryTreeCounter(200, 0.3, rng, noise_multiplier=0.5)
        ref.append([counter.add(float(v)) for v in row])
    np.testing.assert_allclose(c, np.array(ref), rtol=0, atol=1e-9)


class _ExponentialLog:
    """Generator wrapper that logs the arrays ``standard_exponential`` returns (white-box draws)."""

    def __init__(self, rng):
        self.rng, self.draws = rng, []

    def standard_exponential(self, size=None):
        z = self.rng.standard_exponential(size)
        self.draws.append(np.asarray(z))
        return z


@pytest.mark.parametrize("length", [1, 6, 64, 1000])
def test_the_counter_noises_only_the_nodes_a_release_uses(length):
    """One node noise per element, b (E1 - E2), for the top node completed there (ctz(t), odd
    index): every output is still the exact sum plus popcount(t) independent node noises, those
    of the nodes (h, t >> h) with bit h of t set."""
    log = _ExponentialLog(np.random.default_rng(length))
    counter = BinaryTreeCounter(length, 0.8, log)
    b = counter.laplace.scale
    x = np.random.default_rng(0).random(length)
    eta = {}
    for t in range(1, length + 1):
        out = counter.add(float(x[t - 1]))
        assert len(log.draws) == 2 * t  # one node noise per element: two exponentials
        top = (t & -t).bit_length() - 1
        eta[(top, t >> top)] = b * (float(log.draws[-2]) - float(log.draws[-1]))
        # white-box: the top node holds its block sum plus that noise; the lower nodes completed
        # at t (even index, never part of a release) hold their exact block sums
        for h in range(top + 1):
            block = x[t - (1 << h):t].sum()
            assert counter._noisy[h] == pytest.approx(block + (eta[(top, t >> top)] if h == top else 0.0), abs=1e-9)
        noise = sum(eta[(h, t >> h)] for h in range(counter.levels) if (t >> h) & 1)
        assert out == pytest.approx(x[:t].sum() + noise, abs=1e-9)


def test_fast_release_has_the_counter_law():
    """Fast mode (odd nodes only, exponential x sign) vs theory 2 popcount(t) b^2 at every t, and
    a two-sample comparison with exact mode at a popcount-6 position."""
    length, eps, n = 64, 0.5, 20000
    x = np.zeros((n, length))
    fast = tree_release(x, eps, np.random.default_rng(1), exact_order=False)
    exact = tree_release(x, eps, np.random.default_rng(2), exact_order=True)
    b = tree_levels(length) / eps
    pop = np.array([bin(t).count("1") for t in range(1, length + 1)])
    var = 2 * pop * b**2
    se = np.sqrt((12 * pop * b**4 + 2 * var**2) / n)  # s.e. of the mean of err^2
    z = (np.mean(fast**2, axis=0) - var) / se
    assert np.max(np.abs(z)) < 5
    z_exact = (np.mean(exact**2, axis=0) - var) / se
    assert np.max(np.abs(z_exact)) < 5
    from scipy.stats import ks_2samp

    assert ks_2samp(fast[:, 62], exact[:, 62]).pvalue > 1e-3  # t = 63 = 0b111111


def test_tree_noise_matches_binary_tree_counter():
    """The lazily computed noise(s) = c_s - S_s equals the counter's, draw for draw, whatever
    the access pattern (chunks, jumps past the computed range)."""
    t_max = 5000
    ctr = BinaryTreeCounter(t_max, 0.5, np.random.default_rng(1))
    expected = np.array([ctr.add(0.0) for _ in range(t_max)])
    tn = TreeCounterNoise(np.random.default_rng(1), ctr.levels, ctr.laplace.scale)
    rng = np.random.default_rng(2)
    pos, checked = 0, 0
    while pos < t_max:
        if rng.random() < 0.3:  # jump (subtraction elements / truncated blocks)
            pos = min(pos + int(rng.integers(1, 1500)), t_max)
            tn.trim(pos)
            continue
        hi = min(pos + int(rng.integers(1, 700)), t_max)
        q = np.arange(pos, hi + 1)
        np.testing.assert_allclose(tn.at(q), np.r_[0.0, expected][q], rtol=0, atol=1e-9)
        checked += q.size
        pos = hi
        tn.trim(pos)
    assert checked > 1000


def test_tree_noise_is_the_counter_draws_bit_for_bit():
    """The noise path reads the counter's node draws b (E1 - E2) in one block call: bit for bit
    the path built from the exponentials one by one (noise(s) = eta_top(s) + noise(s - lowbit(s)),
    eta_top(s) from draws 2 s - 2 and 2 s - 1), whatever the chunks."""
    t_max = 20000
    for scale in (96.0, 0.37):
        e = np.random.default_rng(4).standard_exponential(2 * t_max)
        expected = np.zeros(t_max + 1)
        for s in range(1, t_max + 1):
            expected[s] = scale * (e[2 * s - 2] - e[2 * s - 1]) + expected[s & (s - 1)]
        tn = TreeCounterNoise(np.random.default_rng(4), 15, scale)
        rng = np.random.default_rng(5)
        pos = 0
        while pos < t_max:
            n = min(int(rng.integers(1, 3000)), t_max + 1 - pos)
            np.testing.assert_array_equal(tn.window(pos, n), expected[pos:pos + n])
            pos += n - 1 if rng.random() < 0.5 else n
            tn.trim(pos)


def test_batched_tree_single_counter_equals_binary_tree_counter():
    """One copy, one counter: the batched counter draws in the counter's order (levels increasing
    at each completion), so with the same generator it gives the same outputs."""
    t_max = 300
    values = np.random.default_rng(3).random(t_max)
    for multiplier in (1.0, 0.0):
        ctr = BinaryTreeCounter(t_max, 0.4, np.random.default_rng(8), noise_multiplier=multiplier)
        expected = [ctr.add(float(v)) for v in values]
        batched = BatchedTreeCounter(1, 1, ctr.levels, ctr.laplace.scale, np.random.default_rng(8))
        zero = np.zeros(1, dtype=np.int64)
        got = [float(batched.push(zero, zero, v)[0]) for v in values]
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_batched_tree_draw_order_and_outputs():
    """(copies x K) counters pushed copy-wise (all copies on one arm per step, arms in random
    order): per push one call with one node noise b (E1 - E2) per copy, for the top node completed
    there; every output is the exact sum plus the released nodes (h, pos >> h), bit h of pos set."""
    copies, k, steps, levels, scale = 5, 3, 70, 8, 2.0
    log = _ExponentialLog(np.random.default_rng(4))
    tree = BatchedTreeCounter(copies, k, levels, scale, log)
    rng = np.random.default_rng(5)
    c = np.arange(copies)
    exact = np.zeros((copies, k))
    pos = np.zeros(k, dtype=np.int64)
    eta = {}  # (arm, level, node index) -> the copies' noises
    for _ in range(steps):
        j = int(rng.integers(k))
        x = rng.random(copies)
        n_calls = len(log.draws)
        out = tree.push(c, np.full(copies, j), x)
        pos[j] += 1
        exact[:, j] += x
        assert len(log.draws) - n_calls == 1 and log.draws[-1].shape == (copies, 2)
        top = (int(pos[j]) & -int(pos[j])).bit_length() - 1
        eta[(j, top, int(pos[j] >> top))] = scale * (log.draws[-1][:, 0] - log.draws[-1][:, 1])
        noise = sum(eta[(j, h, int(pos[j] >> h))] for h in range(levels) if pos[j] >> h & 1)
        np.testing.assert_allclose(out, exact[:, j] + noise, rtol=0, atol=1e-9)
    assert sum(z.shape[0] for z in log.draws) == copies * steps


def test_batched_tree_without_noise_is_exact_for_any_interleaving():
    copies, k = 6, 4
    tree = BatchedTreeCounter(copies, k, 7, 0.0, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    exact = np.zeros((copies, k))
    for _ in range(200):
        c = rng.choice(copies, size=int(rng.integers(1, copies + 1)), replace=False)
        j = rng.integers(0, k, size=c.size)
        x = rng.normal(size=c.size)
        exact[c, j] += x
        np.testing.assert_allclose(tree.push(c, j, x), exact[c, j], rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------------------------
# Hybrid counter
# ----------------------------------------------------------------------------------------------


def test_hybrid_exact_without_noise():
    rng = np.random.default_rng(5)
    counter = HybridCounter(1.0, rng, noise_multiplier=0.0)
    values = rng.uniform(0, 1, size=100)
    outputs = [counter.add(v) for v in values]
    np.testing.assert_allclose(outputs, np.cumsum(values), rtol=0, atol=1e-10)
    assert counter.t == 100
    assert counter.true_sum == pytest.approx(values.sum())
    assert counter.noise_variance() == 0.0


@pytest.mark.parametrize("eps", [1.0, 0.3])
def test_hybrid_privacy_accounting(eps):
    counter = HybridCounter(eps, np.random.default_rng(0))
    assert counter.epsilon == eps
    assert counter.segment_laplace.epsilon == pytest.approx(eps / 2)
    assert counter.segment_laplace.sensitivity == 1.0
    assert counter.segment_laplace.scale == pytest.approx(2 / eps)
    # segments: {1}, (1,2], (2,4], (4,8], ...: each tree covers exactly its segment
    segment_start = 1
    for t in range(1, 70):
        counter.add(1.0)
        if t & (t - 1) == 0:  # t is a power of two: a new segment (t, 2t] starts
            segment_start = t
            tree = counter._tree
            assert tree is not None
            assert tree.t == 0
            assert tree.max_length == t
            assert tree.epsilon == pytest.approx(eps / 2)
            assert tree.laplace.sensitivity == tree.levels
            assert tree.laplace.scale == pytest.approx(tree.levels / (eps / 2))
            # two eps/2 mechanisms on disjoint outputs compose to eps
            assert (counter.segment_laplace.effective_epsilon
                    + tree.laplace.effective_epsilon) == pytest.approx(eps)
        else:
            assert counter._tree.t == t - segment_start


def _hybrid_expected_variance(t: int, eps: float) -> float:
    """Hand-computed Var(c_t - S_t): completed segments plus the current segment's tree."""
    completed = t.bit_length()  # segments {1}, (1,2], ..., (2^(k-1), 2^k] with 2^k <= t
    var = completed * 2 * (2 / eps) ** 2
    seg_start = 1 << (t.bit_length() - 1)
    inside = t - seg_start
    if inside > 0:
        levels = math.floor(math.log2(seg_start)) + 1
        var += 2 * bin(inside).count("1") * (levels / (eps / 2)) ** 2
    return var


def test_hybrid_noise_variance_formula():
    eps = 0.5
    counter = HybridCounter(eps, np.random.default_rng(0))
    for t in range(1, 40):
        counter.add(0.0)
        assert counter.noise_variance() == pytest.approx(_hybrid_expected_variance(t, eps)), t


def test_hybrid_empirical_error_variance():
    eps, reps, horizon = 1.0, 4000, 11
    checks = {4: None, 6: None, 11: None}
    rng = np.random.default_rng(31)
    values = rng.integers(0, 2, size=horizon).astype(float)
    errors = {t: np.empty(reps) for t in checks}
    for r in range(reps):
        counter = HybridCounter(eps, rng)
        for t, v in enumerate(values, start=1):
            c = counter.add(v)
            if t in checks:
                errors[t][r] = c - counter.true_sum
                checks[t] = counter.noise_variance()
    for t, predicted in checks.items():
        assert predicted == pytest.approx(_hybrid_expected_variance(t, eps))
        # the noise terms: segment noises Lap(2/eps), plus popcount(inside) tree nodes
        seg_start = 1 << (t.bit_length() - 1)
        inside = t - seg_start
        levels = math.floor(math.log2(seg_start)) + 1
        scales = [2 / eps] * t.bit_length() + [levels / (eps / 2)] * bin(inside).count("1")
        var, se = _var_se(scales, reps)
        assert var == pytest.approx(predicted)
        e = errors[t]
        assert abs(np.mean(e**2) - predicted) < N_SIGMA * se, t
        assert abs(np.mean(e)) < N_SIGMA * math.sqrt(predicted / reps), t
