"""The contextual paper's building blocks: Algorithm 1's partition, the Laplace-sum sampler, the
user-side randomiser's accounting, the instance moments and samplers, and the fast LDPMAB engine
against the plain per-user reference (in distribution, with a power check)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpbandits.contextual import randomizer
from dpbandits.contextual._scan import PER_USER
from dpbandits.contextual.config import preset
from dpbandits.contextual.instances import (
    BumpInstance,
    SymmetricInstance,
    behaviour_probabilities,
    q_density,
    sample_q,
)
from dpbandits.contextual.ldpmab import STREAMS, MassFeeder, SampleFeeder, Source, _Run, run_ldpmab
from dpbandits.contextual.partition import PartitionTree, diameter_bound
from dpbandits.contextual.reference import ReferenceLDPMAB
from dpbandits.mechanisms import laplace_sum
from dpbandits.rng import derive_seed, stream_rngs
from dpbandits.stats import holm

INST = BumpInstance(3, 2, "code")


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_max_edge_partition_volume_and_diameter(d):
    rng = np.random.default_rng(d)
    tree = PartitionTree(d)
    for _ in range(300):  # random leaves split until depth 12
        leaves = tree.leaves()
        leaves = leaves[tree.depth[leaves] < 12]
        if not leaves.size:
            break
        tree.split(int(rng.choice(leaves)), rng)
    ids = np.arange(tree.size)
    vol = np.prod(tree.hi[ids] - tree.lo[ids], axis=1)
    np.testing.assert_allclose(vol, 2.0 ** -tree.depth[ids], rtol=0, atol=0)
    diam = np.linalg.norm(tree.hi[ids] - tree.lo[ids], axis=1)
    assert np.all(diam <= diameter_bound(tree.depth[ids], d) + 1e-12)
    edges = tree.hi[ids] - tree.lo[ids]  # max-edge: edges differ by at most a factor 2
    assert np.all(edges.max(axis=1) <= 2 * edges.min(axis=1))
    x = rng.random((2000, d))
    leaf = tree.route(x)
    assert np.all(tree.left[leaf] < 0)
    assert np.all((x >= tree.lo[leaf]) & (x < tree.hi[leaf]))


def test_split_goes_left_below_the_midpoint():
    tree = PartitionTree(2)
    a, b = tree.split(0, np.random.default_rng(0))
    dim = tree.feature[0]
    x = np.full((2, 2), 0.3)
    x[1, dim] = 0.5  # on the threshold: right child (half-open bins)
    assert list(tree.route(x)) == [a, b]


@pytest.mark.parametrize("m", [1, 10, 100])
def test_laplace_sum_is_a_sum_of_laplace_draws(m):
    rng = np.random.default_rng(m)
    fast = laplace_sum(rng, m, 2.0, size=50_000)
    slow = rng.laplace(0.0, 2.0, size=(50_000, m)).sum(axis=1)
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3
    assert abs(fast.mean()) < 4 * math.sqrt(2 * m * 4 / 50_000)
    assert abs(fast.var() / (2 * m * 4) - 1) < 0.05


def test_laplace_sum_count_zero_and_array_counts():
    rng = np.random.default_rng(1)
    assert laplace_sum(rng, 0, 1.0) == 0.0
    out = laplace_sum(rng, np.array([0, 0, 3]), 1.0, size=(4, 3))
    assert out.shape == (4, 3) and np.all(out[:, :2] == 0)


def test_randomizer_privacy_loss_exhaustive():
    """U-PRIV-1 accounting: over every pair of inputs (bin, arm, y in {0, 1}) of a 4-bin,
    K = 3 partition, the exact log-likelihood ratio is <= eps, and eps is attained."""
    active = np.ones((4, 3), dtype=bool)
    inputs = [(b, k, y) for b in range(4) for k in range(3) for y in (0.0, 1.0)]
    worst = max(randomizer.privacy_loss(z, z2, active, 1.0) for z in inputs for z2 in inputs)
    assert worst == pytest.approx(1.0)
    assert math.isinf(randomizer.privacy_loss((0, 0, 1.0), (1, 0, 1.0), active, 1.0, "inbin_only"))


def test_randomizer_reports_every_active_pair():
    active = np.array([[1, 1, 0], [1, 1, 1]], dtype=bool)
    rng = np.random.default_rng(0)
    for z in [(0, 0, 1.0), (1, 2, 0.0)]:
        u, v = randomizer.report(z, active, 1.0, rng)
        assert np.array_equal(~np.isnan(u), active) and np.array_equal(~np.isnan(v), active)
        assert randomizer.messages_per_user(active) == 5
    u, _ = randomizer.report((0, 0, 1.0), active, 1.0, rng, noise="inbin_only")
    assert np.isnan(u[1]).all()  # the authors' code: other bins receive nothing
    U, _ = randomizer.report_batch((1, 1, 1.0), active, 2.0, 200_000, rng)
    assert abs(U[:, 1, 1].mean() - 1) < 0.02 and abs(U[:, 1, 1].var() - 2 * 2.0**2) < 0.1


def test_bin_moments_match_monte_carlo():
    rng = np.random.default_rng(3)
    lo = np.array([[0.25, 0.5], [0.3125, 0.0]])
    hi = np.array([[0.5, 1.0], [0.375, 0.125]])
    mass, means, gap = INST.target_moments(lo, hi)
    for i in range(2):
        x = lo[i] + rng.random((400_000, 2)) * (hi[i] - lo[i])
        f = INST.reward(x)
        np.testing.assert_allclose(means[i], f.mean(axis=0), atol=3e-3)
        np.testing.assert_allclose(gap[i], (f.max(axis=1)[:, None] - f).mean(axis=0), atol=3e-3)
    np.testing.assert_allclose(mass, [0.125, 0.0078125])
    for gamma in (0.2, 2.0):
        qm, qr = INST.aux_moments(lo, hi, gamma)
        x = sample_q(1_000_000, gamma, 2, rng)
        for i in range(2):
            inside = np.all((x >= lo[i]) & (x < hi[i]), axis=1)
            assert abs(inside.mean() - qm[i]) < 4 * math.sqrt(qm[i] / 1e6) + 1e-4
            np.testing.assert_allclose(qr[i], INST.reward(x[inside]).mean(axis=0), atol=0.01)
        whole, _ = INST.aux_moments(np.zeros((1, 2)), np.ones((1, 2)), gamma)
        assert whole[0] == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("gamma, d", [(0.0, 2), (0.2, 2), (1.0, 1), (2.0, 3), (5.0, 2)])
def test_q_sampler_law(gamma, d):
    """P(||X - 1/2||_inf <= r) = (2r)^(d + gamma) (KS), and the code's sampler is not that law."""
    rng = np.random.default_rng(int(10 * gamma) + d)
    r = np.max(np.abs(sample_q(50_000, gamma, d, rng) - 0.5), axis=1)
    cdf = lambda s: np.clip(2 * s, 0, 1) ** (d + gamma)  # noqa: E731
    assert stats.kstest(r, cdf).pvalue > 1e-3
    if gamma > 0 and d > 1:
        r_code = np.max(np.abs(sample_q(50_000, gamma, d, rng, sampler="code") - 0.5), axis=1)
        assert stats.kstest(r_code, cdf).pvalue < 1e-6


def test_q_density_integrates_to_one():
    rng = np.random.default_rng(5)
    x = rng.random((2_000_000, 2))
    for gamma in (0.2, 1.0, 2.0):
        assert q_density(x, gamma).mean() == pytest.approx(1.0, abs=5e-3)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_behaviour_policy_exploration_coefficient(k):
    for kappa in (0.0, 0.2, 0.6, 1.0):
        p = behaviour_probabilities(kappa, k)
        assert p.sum() == pytest.approx(1.0) and k * p.min() == pytest.approx(kappa)


# ---------------------------------------------------------------------------------------------
# fast engine against the per-user reference


CASES = {
    "primary": ("primary", [Source(3000, 64.0, target=True)], 20),
    "primary_aux": ("primary", [Source(1500, 256.0, gamma=1.0, kappa=0.5), Source(2000, 16.0, target=True)], 20),
    "unit_constants": ("unit_constants", [Source(2000, 8.0, target=True)], 20),
    "authors_code": ("authors_code", [Source(2000, 8.0, target=True)], 20),
    "literal": ("literal", [Source(2000, 16.0, target=True)], 20),
    "abse": ("abse", [Source(3000, 1.0, target=True)], 20),
    # the labelled addition: a fixed four-bin partition, bin-average elimination (+-r)
    "coarse_fixed": ("coarse_fixed", [Source(3000, 64.0, target=True)], 20),
}
RUNS = 30


def _regrets(case, runs=RUNS, **changes):
    name, sources, batch = CASES[case]
    cfg = preset(name, batch=batch, **changes)
    fast = np.round([run_ldpmab(cfg, sources, derive_seed(11, case, r), instance=INST).regret for r in range(runs)], 4)
    return fast


@pytest.fixture(scope="module")
def reference_regrets():
    out = {}
    for case, (name, sources, batch) in CASES.items():
        cfg = preset(name, batch=batch)
        out[case] = np.round([ReferenceLDPMAB(cfg, INST, sources, 500 + r).run().regret for r in range(RUNS)], 4)
    return out


def test_fast_engine_matches_reference(reference_regrets):
    """KS and Mann-Whitney per preset, Holm over the family: no rejection."""
    pvals = []
    for case, ref in reference_regrets.items():
        fast = _regrets(case)
        pvals += [stats.ks_2samp(fast, ref).pvalue, stats.mannwhitneyu(fast, ref).pvalue]
    reject, _ = holm(pvals)
    names = [f"{c} {test}" for c in CASES for test in ("KS", "MW")]
    assert not reject.any(), dict(zip(names, np.round(pvals, 4), strict=True))


def test_comparison_has_power(reference_regrets):
    """A perturbed engine (confidence constant / 4: more eliminations) is rejected."""
    fast = _regrets("primary", c_C=0.25 * 2 / math.log(2))
    p = stats.mannwhitneyu(fast, reference_regrets["primary"]).pvalue
    assert p < 0.01


def _same_run(a, b) -> None:
    """Two engine results are the same run (exact; NaN equals NaN)."""
    for name in ("regret", "regret_curve", "x_mask", "x_mask_start", "n_leaves", "max_depth", "n_splits",
                 "n_eliminations", "leaves", "trace"):
        np.testing.assert_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("case", ["fig7_code", "aux", "symmetric"])
def test_compiled_authors_code_target_phase_equals_the_numpy_path(case):
    """The authors_code preset's target phase runs in a compiled loop (ldpmab._expweights); the
    engine's per-batch numpy path, forced, gives the very same runs: regret curve, test-point
    mask, partition, counters and decision trace, bit for bit."""
    sources, instance = {
        "fig7_code": ([Source(0, 1024.0), Source(0, 1024.0), Source(20_000, 2.0, target=True)], INST),
        "aux": ([Source(3000, 4.0, gamma=1.0), Source(8000, 8.0, target=True)], INST),
        "symmetric": ([Source(8000, 1024.0, target=True)], SymmetricInstance()),
    }[case]
    cfg = preset("authors_code", batch=50)
    for rep in range(3):
        runs = []
        for compiled in (True, False):
            run = _Run(cfg, instance.d, instance.k, sources, MassFeeder(instance, sources, cfg.batch),
                       derive_seed(13, case, rep), test_point=(0.3, 0.3), trace=True)
            assert run._compiled_target
            run._compiled_target = compiled
            runs.append(run.run())
        _same_run(*runs)


@pytest.mark.parametrize("noise, batch", [("faithful", 20), ("faithful", 200), ("inbin_only", 20),
                                          ("inbin_only", 200), ("none", 20), ("none", 200)])
def test_compiled_mass_chunk_draws_the_numpy_chunk_law(noise, batch):
    """On a synthetic instance the engine draws a chunk batch by batch in the compiled scan
    (_Run._mass_chunk); the numpy path (MassFeeder.draw, the chunk noise, paper_scan) draws the
    same law. On four bins with three arms (one bin without its first arm, one without its last),
    a chunk of eight batches: the batch where the scan stops, each bin-arm's sums SU and SV there
    (noisy, or without privacy the user and reward counts), each bin's SU summed over its arms and
    each bin-arm's SU - SV (which a wrong joint law moves: arm counts drawn independently, one
    noise draw shared by U and V) agree in distribution (KS, Holm over the 49 at family level
    0.01). The same comparison of the active arms' sums rejects the numpy path's sums with their
    Laplace noise doubled in variance (without privacy: 10% more users and rewards). B = 20 puts
    at most 20 users in a bin (drawn one by one), B = 200 about 50 (successive binomials)."""
    sources = [Source(4000, 2.0, target=True)]
    cfg = (preset("primary", batch=batch, private=False) if noise == "none"
           else preset("primary", batch=batch, noise=noise))
    run = _Run(cfg, INST.d, INST.k, sources, MassFeeder(INST, sources, cfg.batch), derive_seed(21, noise, batch))
    for _ in range(2):  # four bins, their per-batch user counts drawn (the contexts stream)
        run._apply_events(np.zeros(run.bins["active"].shape, dtype=bool), np.ones(run.bins["node"].size, dtype=bool), -1)
    run.bins["active"][1, 0] = run.bins["active"][2, 2] = False
    run._version += 1  # the policy and its arm split follow the active sets
    nb, k = run.bins["active"].shape
    assert (nb, k) == (4, 3) and len({tuple(q[:8]) for q in run.bins["seq"]}) > 1
    per_user = np.stack([q[:8] for q in run.bins["seq"]]) <= PER_USER * (2 * k - 1)
    assert per_user.all() if batch == 20 else per_user.mean() < 0.2
    probs = run.feeder.policy_probs(run, 0)
    assert probs[1, 0] == probs[2, 2] == 0 and probs[0, 0] > 0
    reps, L = 1500, 8
    mass, numpy_path, extra = np.empty((reps, 2, nb, k)), np.empty((reps, 2, nb, k)), np.empty((reps, 2, nb, k))
    stops = np.empty((reps, 2))
    for rep in range(reps):
        run.rngs = stream_rngs(derive_seed(22, noise, batch, "mass", rep), STREAMS)
        state, _, _, stops[rep, 0], _ = run._mass_chunk(0, 0, L, probs)
        mass[rep] = state["su"], state["sv"]
        run.rngs = stream_rngs(derive_seed(22, noise, batch, "numpy", rep), STREAMS)
        n_b, counts, vsum, _ = run.feeder.draw(run, 0, 0, L, probs)
        state, _, _, stops[rep, 1], _ = run._chunk_stats(0, n_b, counts, vsum, L)
        numpy_path[rep] = state["su"], state["sv"]
        shape = np.broadcast_to(float(L * cfg.batch) if noise == "faithful" else n_b.sum(axis=0)[:, None], (nb, k))
        extra[rep] = (0.1 * numpy_path[rep] if noise == "none"
                      else laplace_sum(run.rngs["noise"], shape, 4.0 / sources[0].epsilon, size=(2, nb, k)))

    def statistics(sums, arms=None):
        return [sums[:, c, b, j] for c in range(2) for b in range(nb) for j in range(k) if arms is None or arms[b, j]]

    def joint(sums):
        return [sums[:, 0, b].sum(axis=1) for b in range(nb)] + [sums[:, 0, b, j] - sums[:, 1, b, j]
                                                                  for b in range(nb) for j in range(k)]

    same = [stats.ks_2samp(a, b).pvalue
            for a, b in zip(statistics(mass) + joint(mass), statistics(numpy_path) + joint(numpy_path), strict=True)]
    same.append(stats.ks_2samp(stops[:, 0], stops[:, 1]).pvalue if np.ptp(stops) else 1.0)
    assert not holm(same, alpha=0.01)[0].any(), np.round(same, 4)
    louder = numpy_path + extra
    active = run.bins["active"]
    power = [stats.ks_2samp(a, b).pvalue
             for a, b in zip(statistics(mass, active), statistics(louder, active), strict=True)]
    assert holm(power, alpha=0.01)[0].all(), np.round(power, 4)


@pytest.mark.parametrize("band, refine_rule, refine_arms, private",
                         [("max_r_tau", "all", "post", True), ("2r", "any", "pre", True), ("r", "never", "post", True),
                          ("max_r_tau", "any", "post", False)])
def test_paper_scan_equals_the_numpy_bound_bit_for_bit(band, refine_rule, refine_arms, private):
    """The compiled scan of a drawn chunk (_scan.paper_scan, the dataset path) against the same
    batches judged in numpy (_paper_terms, _radius, _decide on the cumulative sums): the same
    stopping batch and event, and the same state and decisions there, bit for bit."""
    from dpbandits.contextual._scan import paper_scan
    from dpbandits.contextual.ldpmab import _BANDS, _REFINE_RULES, _decide, _paper_terms, _radius

    cfg = preset("primary", band=band, refine_rule=refine_rule, refine_arms=refine_arms, private=private)
    rng = np.random.default_rng(31)
    stops = []
    for _ in range(40):
        L, nb, k, S, s = 12, 5, 3, 2, 1
        active = rng.random((nb, k)) < 0.8
        active[:, 0] = True
        counts = rng.integers(0, 6, size=(L, nb, k))
        vsum = rng.binomial(counts, 0.5)
        noise_u, noise_v = (rng.laplace(0, 3, (L, nb, k)), rng.laplace(0, 3, (L, nb, k))) if private else \
            (np.zeros((L, nb, k)), np.zeros((L, nb, k)))
        t0 = rng.integers(0, 200, size=(nb, S)).astype(float)  # about the warm-up (150): decisions start at once or later
        su0, sv0 = rng.normal(0.1, 1, (nb, S, k)) * t0[..., None], rng.normal(0.05, 1, (nb, S, k)) * t0[..., None]
        others = (np.zeros((nb, k)),) * 3 if rng.random() < 0.5 else \
            (rng.normal(5, 5, (nb, k)), rng.normal(10, 10, (nb, k)), rng.gamma(2, 20, (nb, k)))
        eps, warmup, batch, c_n = 1.5, 150.0, 20, 2.0
        tau_s, depth_ok = rng.uniform(0.2, 3.0, nb), rng.random(nb) < 0.7
        out = {"t": np.empty(nb), "su": np.empty((nb, k)), "sv": np.empty((nb, k)), "est": np.empty((nb, k)),
               "r": np.empty((nb, k)), "elim": np.empty((nb, k), dtype=bool), "refine": np.empty(nb, dtype=bool)}
        i, hit = paper_scan(counts, vsum, noise_u, noise_v, active, t0, su0, sv0, s, *others, eps**2, warmup, private,
                            cfg.var_private, cfg.var_nonprivate, batch, c_n, tau_s, depth_ok, _BANDS[band],
                            refine_arms == "post", _REFINE_RULES[refine_rule], out["t"], out["su"], out["sv"],
                            out["est"], out["r"], out["elim"], out["refine"])
        su = su0[:, s] + np.cumsum(np.where(active, counts, 0) + noise_u, axis=0)
        sv = sv0[:, s] + np.cumsum(np.where(active, vsum, 0.0) + noise_v, axis=0)
        for j in range(L):
            t = t0[:, s] + batch * (j + 1)
            num, den, var = (o + term for o, term in zip(others, _paper_terms(
                t[:, None], su[j], sv[j], eps, warmup, private, cfg.var_private, cfg.var_nonprivate), strict=True))
            f, r = _radius(num, den, var, c_n)
            elim, refine = _decide(f, r, active, tau_s, depth_ok, cfg)
            if elim.any() or refine.any() or j == L - 1:
                break
        assert (i, hit) == (j, bool(elim.any() or refine.any()))
        stops.append((i, hit))
        for name, value in (("t", t), ("su", su[j]), ("sv", sv[j]), ("est", f), ("r", r), ("elim", elim),
                            ("refine", refine)):
            np.testing.assert_array_equal(out[name], value, err_msg=name)
    assert len(set(stops)) > 2  # events at several batches (and, with privacy, chunks without one)


def test_sample_feeder_matches_reference_realised_regret():
    """The dataset feeder (actual contexts routed through the tree) against the reference's
    realised pseudo-regret on the same law."""
    name, sources, batch = CASES["primary"]
    cfg = preset(name, batch=batch)
    ref = np.array([ReferenceLDPMAB(cfg, INST, sources, 900 + r).run().realised_regret for r in range(RUNS)])
    fast = []
    for r in range(RUNS):
        rng = np.random.default_rng(300 + r)
        x = INST.sample_target(sources[0].n, rng)
        f = INST.reward(x)
        y = (rng.random(f.shape) < f).astype(float)
        res = run_ldpmab(cfg, sources, derive_seed(12, r), data=[{"x": x, "y": y, "f": f}], k=3, d=2)
        fast.append(res.regret)
    assert stats.ks_2samp(fast, ref).pvalue > 0.01


def test_message_count_is_independent_of_the_context():
    """U-PRIV-2 in the reference's audit mode: every user sends sum_B |A_B| entries."""
    cfg = preset("primary", batch=10)
    ref = ReferenceLDPMAB(cfg, INST, [Source(1000, 8.0, target=True)], 3)
    res = ref.run(record_messages=True)
    assert len(res.messages) == 1000 and min(res.messages) >= 3


def test_noisy_sums_are_unbiased():
    """E[SU] = E[sum U] and E[SV] = E[sum V] under the faithful noise (single bin, many runs)."""
    rng = np.random.default_rng(8)
    t, p, theta, eps = 2000, 1 / 8, 0.7, 1.0
    n_in = rng.binomial(t, p / 3, size=20_000)
    y = rng.binomial(n_in, theta)
    su = n_in + laplace_sum(rng, t, 4 / eps, size=n_in.size)
    sv = y + laplace_sum(rng, t, 4 / eps, size=n_in.size)
    se = math.sqrt(2 * t * 16 / n_in.size)
    assert abs(su.mean() - t * p / 3) < 4 * se and abs((sv - theta * su).mean()) < 4 * se * 1.3


@pytest.mark.parametrize("case", ["target_only", "aux", "no_f"])
def test_compiled_authors_code_target_phase_on_a_dataset_equals_the_numpy_path(case):
    """On a dataset (SampleFeeder) the authors_code preset's target phase runs in the compiled loop
    of ldpmab._samples; the engine's per-batch numpy path, forced, gives the very same runs:
    realised reward and pseudo-regret curves, partition, counters and decision trace, bit for bit
    (with and without auxiliary data, with and without the mean rewards)."""
    cfg = preset("authors_code", batch=50)
    for rep in range(3):
        rng = np.random.default_rng(40 + rep)
        n = 12_000
        x = INST.sample_target(n, rng)
        f = INST.reward(x)
        target = {"x": x, "y": (rng.random(f.shape) < f).astype(float), **({} if case == "no_f" else {"f": f})}
        data, sources = [target], [Source(n, 2.0, target=True)]
        if case == "aux":
            xa = INST.sample_target(4000, rng)
            arm = rng.integers(0, INST.k, size=4000)
            data = [{"x": xa, "arm": arm, "y": (rng.random(4000) < INST.reward(xa)[np.arange(4000), arm]).astype(float)},
                    target]
            sources = [Source(4000, 4.0, kappa=1.0), Source(n, 2.0, target=True)]
        runs = []
        for compiled in (True, False):
            run = _Run(cfg, INST.d, INST.k, sources, SampleFeeder(data, cfg.batch), derive_seed(17, case, rep),
                       test_point=(0.3, 0.3), trace=True)
            assert run._compiled_target
            run._compiled_target = compiled
            runs.append(run.run())
        _same_run(*runs)
        np.testing.assert_equal(runs[0].reward_curve, runs[1].reward_curve)
        assert runs[0].n_eliminations + runs[0].n_splits > 0  # events happened inside the compiled windows
