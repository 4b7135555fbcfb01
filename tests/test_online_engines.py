"""Fast engines of the online paper against the plain per-step reference engine.

Each fast engine must have the same law as the reference: at small T with many runs we compare
final regret and every arm's pull count with two-sample tests (Holm over all of them). A power
check shows the same comparison detects a real difference (a different epsilon).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps
from scipy.special import betainccinv, betaincinv

from dpbandits.online import adap_klucb, anytime_lazy_ucb, dp_se, lazy_dp_ts, ts_beta, ucb1
from dpbandits.online.api import BANDIT_ALGORITHMS, STREAMS, simulate
from dpbandits.online.kl import bernoulli_kl, kl_ucb_index
from dpbandits.rng import derive_seed, stream_rngs
from dpbandits.sim.checkpoints import CheckpointRecorder, checkpoint_grid
from dpbandits.stats import holm

MEANS = np.array([0.45, 0.7, 0.35])  # optimal arm not first: engines must not assume it
HORIZON = 400
CHECKPOINTS = np.array([50, 100, 200, 400])


def _cell(name, engine, eps=0.5, runs=300, tag="a", horizon=HORIZON, means=MEANS, **params):
    seed = derive_seed(123, "test-engines", name, engine, eps, tag)
    return simulate(name, means, eps, horizon, runs, seed, params or None, checkpoints=CHECKPOINTS, engine=engine)


def _pvalues(a, b):
    # Round: the reference adds gaps round by round, the fast engines multiply, so equal regrets
    # differ in the last bits; rank tests must see them as ties.
    ra, rb = np.round(a.regret, 6), np.round(b.regret, 6)
    pv = [sps.ks_2samp(ra[:, -1], rb[:, -1]).pvalue]
    pv += [sps.mannwhitneyu(ra[:, i], rb[:, i]).pvalue for i in range(ra.shape[1])]
    pv += [sps.mannwhitneyu(a.pulls[:, j], b.pulls[:, j]).pvalue for j in range(a.pulls.shape[1])
           if np.ptp(np.concatenate([a.pulls[:, j], b.pulls[:, j]])) > 0]
    return pv


@pytest.mark.parametrize("name", list(BANDIT_ALGORITHMS))
def test_fast_engine_matches_reference_in_distribution(name):
    fast = _cell(name, "fast")
    ref = _cell(name, "reference")
    reject, adjusted = holm(_pvalues(fast, ref), alpha=0.001)
    assert not reject.any(), f"{name}: fast and reference engines differ (Holm p={adjusted.min():.2g})"
    assert np.isclose(fast.regret[:, -1].mean(), ref.regret[:, -1].mean(), rtol=0.15, atol=3.0)


def _numpy_nonprivate_runs(name, means, horizon, checkpoints, n_runs, reward_rng, policy_rng=None):
    """The vectorised numpy loops of UCB1 and TS-Beta that the compiled loops replaced."""
    gaps = means.max() - means
    k, rows = means.size, np.arange(n_runs)
    n, s = np.zeros((n_runs, k)), np.zeros((n_runs, k))  # UCB1: pulls, reward sums; TS: b - 1, a - 1
    out, regret, c = np.empty((n_runs, checkpoints.size)), np.zeros(n_runs), 0
    for t in range(1, horizon + 1):
        if name == "ts_beta":
            arm = np.argmax(policy_rng.beta(s + 1.0, n + 1.0), axis=1)
            x = reward_rng.random(n_runs) < means[arm]
            s[rows, arm] += x
            n[rows, arm] += ~x
        else:
            arm = (np.full(n_runs, t - 1) if t <= k else
                   np.argmax(s / n + np.sqrt(2.0 * math.log(t) / n), axis=1))
            n[rows, arm] += 1
            s[rows, arm] += reward_rng.random(n_runs) < means[arm]
        regret += gaps[arm]
        while c < checkpoints.size and checkpoints[c] == t:
            out[:, c] = regret
            c += 1
    return out


@pytest.mark.parametrize("name", ["ucb1", "ts_beta"])
def test_nonprivate_compiled_loops_give_the_numpy_loops_draw_for_draw(name):
    means, cps = np.array([0.5, 0.45, 0.45, 0.3]), np.array([1, 4, 5, 50, 777, 3000])
    rngs = [np.random.default_rng(s) for s in (8, 9)]
    want = _numpy_nonprivate_runs(name, means, 3000, cps, 7, *rngs)
    rngs = [np.random.default_rng(s) for s in (8, 9)]
    if name == "ts_beta":
        got, pulls = ts_beta.simulate_fast_runs(means, 3000, cps, 7, *rngs)
    else:
        got, pulls = ucb1.simulate_fast_runs(means, 3000, cps, 7, rngs[0])
    assert np.array_equal(got, want) and (pulls.sum(axis=1) == 3000).all()
    assert rngs[0].random() == np.random.default_rng(8).random(7 * 3000 + 1)[-1]  # as many draws


@pytest.mark.parametrize("thinning_below", [0.0, 1.0])
def test_lazy_dp_ts_paths_match_reference(thinning_below):
    """Each of Lazy-DP-TS's two exact paths alone (chunks only; thinning whenever possible)."""
    fast = _cell("lazy_dp_ts", "fast", tag=f"paths{thinning_below}", thinning_below=thinning_below)
    ref = _cell("lazy_dp_ts", "reference", tag=f"paths{thinning_below}")
    reject, adjusted = holm(_pvalues(fast, ref), alpha=0.001)
    assert not reject.any(), f"thinning_below={thinning_below}: Holm p={adjusted.min():.2g}"


def _frozen_state(mu_tilde):
    state = lazy_dp_ts.DoublingBatchMeans(3, 1.0, np.random.default_rng(0))
    state.O[:] = [2048, 256, 512]
    state.N[:] = [0, 500, 1010]  # batch completions after 4096, 12 and 14 more pulls
    state.mu_tilde[:] = mu_tilde
    return state


def test_lazy_dp_ts_chunk_loops_equal_the_numpy_expressions():
    """The compiled Beta parameters and acceptance of a chunk give the numpy expressions' bits
    (clip active on both sides, several completions in one chunk)."""
    rng = np.random.default_rng(21)
    for _ in range(20):
        k = int(rng.integers(2, 6))
        mu_tilde = rng.uniform(-1.5, 2.5, k)
        O = 2.0 ** rng.integers(0, 12, k)
        log_t = np.log(np.arange(10, 10 + int(rng.integers(1, 300)), dtype=float))
        eps = float(rng.choice([0.01, 0.3, 1.0, 8.0]))
        a, b = lazy_dp_ts._chunk_params(mu_tilde, O, log_t, eps)
        a0, b0 = lazy_dp_ts._beta_params(mu_tilde, O, log_t[:, None], eps)
        assert a.tobytes() == a0.tobytes() and b.tobytes() == b0.tobytes()
        theta = rng.random((log_t.size, k))
        theta[rng.random(theta.shape) < 0.1] = 0.5  # ties: the first argmax wins
        need = rng.integers(1, 40, k)
        choice, taken = np.empty(log_t.size, dtype=np.int64), np.zeros(k, dtype=np.int64)
        n_acc = lazy_dp_ts._accepted(theta, need, choice, taken)
        want = np.argmax(theta, axis=1)
        counts = np.cumsum(want[:, None] == np.arange(k), axis=0)
        hit = counts >= need
        first = np.where(hit.any(axis=0), hit.argmax(axis=0), log_t.size)
        assert np.array_equal(choice, want) and n_acc == min(first.min() + 1, log_t.size)
        assert np.array_equal(taken, counts[n_acc - 1])


@pytest.mark.parametrize("mu_tilde", [[0.68, 0.5, 0.55], [0.66, 0.5, 0.55]])
def test_thinned_window_has_the_per_round_law(mu_tilde):
    """One window of rounds with a frozen state, played by thinning and round by round
    (Alg. 3 lines 4-5 each round, stopping at the first batch completion): same law of the
    pulls per arm and of the window's length."""
    t0, t1, reps = 5000, 6500, 300
    env = lazy_dp_ts._Envelope(_frozen_state(mu_tilde), np.log(t0), np.log(t1), 1.0)
    assert env.leader == 0 and 0.005 < env.p < 0.1  # the thinning path, with rare challengers
    rng = np.random.default_rng(11)
    thinned, direct = [], []
    for _ in range(reps):
        state = _frozen_state(mu_tilde)
        run = lazy_dp_ts.StretchRun(MEANS, np.array([10**7]), rng)
        end = lazy_dp_ts._thinned_window(run, state, env, t0, t1, 1.0, rng, batch=16)
        thinned.append([*run.pulls, end - t0])
        alg = lazy_dp_ts.LazyDPTS(3, 1.0, rng, rng)
        alg.state = _frozen_state(mu_tilde)
        pulls = np.zeros(3, dtype=int)
        for t in range(t0, t1 + 1):
            arm = alg.select(t)
            pulls[arm] += 1
            if alg.state.add(arm, 1, 0.0):
                break
        direct.append([*pulls, pulls.sum()])
    thinned, direct = np.array(thinned), np.array(direct)
    pv = [sps.mannwhitneyu(thinned[:, i], direct[:, i]).pvalue for i in range(4)]
    pv += [sps.ks_2samp(thinned[:, 3], direct[:, 3]).pvalue]
    reject, adjusted = holm(pv, alpha=0.001)
    assert not reject.any(), f"thinning and per-round play differ (Holm p={adjusted.min():.2g})"
    assert direct[:, 1:3].sum() > 50  # challengers do win: the comparison is not vacuous


def test_envelope_holds_at_every_round_of_the_window():
    """Outside B the leader's draw is >= c >= every challenger's at every round of the window:
    checked on the boundary of B (the quantile maps are monotone in the uniforms)."""
    rng = np.random.default_rng(4)
    for _ in range(50):
        state = _frozen_state(rng.uniform(-0.5, 1.2, size=3))
        state.O[:] = 2 ** rng.integers(0, 14, size=3)
        t0 = int(rng.integers(10, 10**6))
        t1 = t0 + max(511, t0 // 8)
        env = lazy_dp_ts._Envelope(state, np.log(t0), np.log(t1), 1.0)
        ts = np.linspace(t0, t1, 7).round()
        a, b = lazy_dp_ts._beta_params(state.mu_tilde, state.O.astype(float), np.log(ts)[:, None], 1.0)
        L, c = env.leader, env.threshold
        assert np.all(betaincinv(a[:, L], b[:, L], env.viol[0]) >= c - 1e-9)
        for pos, j in enumerate(env.order[1:], start=1):
            if env.viol[pos] == 0:  # tail below the smallest double: the constraint is vacuous
                continue
            assert np.all(betainccinv(a[:, j], b[:, j], env.viol[pos]) <= c + 1e-9)


def test_sparse_recorder_matches_dense():
    rng = np.random.default_rng(3)
    cps = np.array([1, 3, 4, 7, 20, 21, 40])
    dense, sparse = CheckpointRecorder(cps), CheckpointRecorder(cps)
    for n in (5, 17, 18):
        offsets = np.sort(rng.choice(n, size=3, replace=False))
        gaps = np.full(n, 0.25)
        gaps[offsets] = rng.random(3)
        dense.dense(gaps)
        sparse.sparse(n, 0.25, offsets, gaps[offsets])
    np.testing.assert_allclose(sparse.values, dense.values)
    assert sparse.regret == pytest.approx(dense.regret)


@pytest.mark.parametrize("name", ["anytime_lazy_ucb", "lazy_dp_ts", "adap_klucb"])
def test_equivalence_test_has_power(name):
    """The same comparison rejects when the fast engine runs at another epsilon."""
    fast = _cell(name, "fast", eps=0.05, tag="power")
    ref = _cell(name, "reference", eps=1.0, tag="power")
    reject, _ = holm(_pvalues(fast, ref), alpha=0.001)
    assert reject.any()


@pytest.mark.parametrize("name", list(BANDIT_ALGORITHMS))
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_run_invariants(name, engine):
    res = _cell(name, engine, runs=20, tag="inv")
    gaps = MEANS.max() - MEANS
    assert np.all(res.pulls.sum(axis=1) == HORIZON)  # exactly T rounds played
    np.testing.assert_allclose(res.regret[:, -1], res.pulls @ gaps)
    assert np.all(np.diff(res.regret, axis=1) >= 0)
    if name in ("anytime_lazy_ucb", "lazy_dp_ts"):  # U-1: one release per completed batch
        np.testing.assert_array_equal(res.releases, np.floor(np.log2(res.pulls + 1)).astype(int))
    if not BANDIT_ALGORITHMS[name].private:
        assert np.all(res.releases == 0)


def test_lazy_engines_are_exact_at_scale():
    """Lazy engines reach T = 10^8 (cost independent of T) with consistent bookkeeping."""
    means = np.array([0.5, 0.4, 0.4])
    horizon = 10**8
    cps = checkpoint_grid(horizon, 20, 10)
    for mod in (anytime_lazy_ucb, dp_se, adap_klucb, lazy_dp_ts):
        rngs = [np.random.default_rng(s) for s in (1, 2, 3)]
        extra = {"policy_rng": rngs[2]} if mod is lazy_dp_ts else {}
        res = mod.simulate_fast(means, 0.5, horizon, cps, rngs[0], rngs[1], **extra)
        assert res.pulls.sum() == horizon
        assert res.regret[-1] == pytest.approx(res.pulls @ (means.max() - means))
        assert res.regret[-1] < 0.01 * horizon  # it learns


def test_batch_sizes_double_and_cover_every_pull():
    """U-1: batch sizes are exactly 1, 2, 4, ...; pulls = released batches + unreleased tail."""
    rng = np.random.default_rng(5)
    alg = lazy_dp_ts.LazyDPTS(3, 0.5, rng, np.random.default_rng(6))
    pulls = np.zeros(3, dtype=int)
    for t in range(1, 3001):
        arm = alg.select(t)
        alg.update(t, arm, float(rng.random() < MEANS[arm]))
        pulls[arm] += 1
    for j in range(3):
        sizes = alg.state.batch_sizes[j]
        assert sizes == [2**i for i in range(len(sizes))]
        assert sum(sizes) + alg.state.N[j] == pulls[j]


def test_alucb_overtake_round_is_exact():
    """The analytic crossing equals the first round at which the reference argmax changes."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = anytime_lazy_ucb.DoublingBatchMeans(2, 0.5, rng)
        state.O[:] = [1, 64]
        state.mu_tilde[:] = [rng.uniform(-3, 0), rng.uniform(0.3, 0.9)]
        t0 = 20
        if np.argmax(anytime_lazy_ucb.index(state.mu_tilde, state.O, t0, 0.5)) != 1:
            continue
        t_cross = anytime_lazy_ucb._first_overtake(0, 1, t0, 10**9, state, 0.5)
        brute = next((t for t in range(t0 + 1, 200000)
                      if np.argmax(anytime_lazy_ucb.index(state.mu_tilde, state.O, t, 0.5)) == 0),
                     10**9 + 1)
        if brute <= 200000 - 1:
            assert t_cross == brute


def test_checkpoint_recorder_matches_brute_force():
    rng = np.random.default_rng(1)
    cps = np.array([1, 2, 5, 9, 10, 17, 30, 31, 64])
    rec = CheckpointRecorder(cps)
    per_round = []
    rec.constant(3, 0.5)
    per_round += [0.5] * 3
    cycle = np.array([0.0, 0.2, 0.7])
    rec.cycle(10, cycle)
    per_round += [cycle[i % 3] for i in range(10)]
    dense = rng.random(20)
    rec.dense(dense)
    per_round += list(dense)
    rec.cycle(31, cycle[:2])
    per_round += [cycle[i % 2] for i in range(31)]
    cum = np.cumsum(per_round)
    np.testing.assert_allclose(rec.values, cum[cps - 1])


def test_kl_ucb_index_solves_the_kl_equation():
    p = np.array([0.1, 0.5, 0.9, 0.0])
    level = np.array([0.05, 0.2, 0.01, 0.3])
    q = kl_ucb_index(p, level)
    assert np.all(q >= p)
    np.testing.assert_allclose(bernoulli_kl(p, q), level, rtol=1e-6)


def _plain_kl_ucb_index(p, level):
    """The bisection as first written (before the speed work): every step clamps p and mid afresh."""
    p = np.asarray(p, dtype=float)
    level = np.broadcast_to(np.asarray(level, dtype=float), p.shape)
    lo, hi = p.copy(), np.ones_like(p)
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        pc, q = np.clip(p, 1e-12, 1 - 1e-12), np.clip(mid, 1e-12, 1 - 1e-12)
        ok = pc * np.log(pc / q) + (1 - pc) * np.log((1 - pc) / (1 - q)) <= level
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    return lo


def test_kl_ucb_index_is_bit_identical_to_the_plain_bisection():
    """The faster index (clamp of p hoisted, rows batched, p = 1 skipped) changes no
    bit."""
    rng = np.random.default_rng(17)
    edges = np.array([0.0, 1.0, 1e-13, 1e-12, 1 - 1e-12, 1 - 1e-13, 0.5])
    p = np.concatenate([edges, edges, rng.random(4000), rng.random(500) * 1e-9,
                        1 - rng.random(500) * 1e-9])
    level = np.exp(rng.uniform(-40, 6, p.size))
    level[:7], level[7:14] = 0.0, 1e300  # level 0 and a huge level on every edge p
    level[::37] = 0.0
    level[::41] = np.inf
    new = kl_ucb_index(p, level)
    assert new.tobytes() == _plain_kl_ucb_index(p, level).tobytes()
    assert np.all((new >= p) & (new <= 1))
    rows = kl_ucb_index(p[:4000].reshape(400, 10), level[:4000].reshape(400, 10))
    assert rows.tobytes() == new[:4000].tobytes()  # a batch of rows = each row alone
    alone = np.concatenate([kl_ucb_index(p[i:i + 3], level[i:i + 3]) for i in range(0, 300, 3)])
    assert alone.tobytes() == new[:300].tobytes()
    assert kl_ucb_index(p, 0.25).tobytes() == _plain_kl_ucb_index(p, 0.25).tobytes()
    mostly_one = np.where(rng.random(p.size) < 0.9, 1.0, p)  # the audit's case: p = 1 skips the bisection
    assert kl_ucb_index(mostly_one, level).tobytes() == _plain_kl_ucb_index(mostly_one, level).tobytes()


@pytest.mark.parametrize("means,eps,horizon", [
    ([0.75, 0.5, 0.25], 1.0, 20000), ([0.75, 0.625, 0.5, 0.375, 0.25], 0.25, 5000),
    ([0.5, 0.4, 0.4, 0.4, 0.4], 0.5, 3000), ([0.9, 0.4], 2.0, 2), ([0.3, 0.3, 0.6], 0.05, 500)])
def test_adap_klucb_batched_runs_equal_runs_alone(means, eps, horizon):
    """simulate advances AdaP-KLUCB's runs together with one batched index; every run's
    regret, pulls and releases are those of the run simulated alone, bit for bit."""
    cps = checkpoint_grid(horizon, 20, 50)
    def seed():  # a fresh SeedSequence each time (spawn() advances its counter)
        return derive_seed(17, "adap-batch", eps, horizon)

    cell = simulate("adap_klucb", means, eps, horizon, 25, seed(), {"alpha": 3.1}, checkpoints=cps)
    for i, run_seed in enumerate(seed().spawn(25)):
        rngs = stream_rngs(run_seed, STREAMS)
        alone = adap_klucb.simulate_fast(np.array(means), eps, horizon, cps, rngs["rewards"],
                                         rngs["noise"], alpha=3.1)
        assert cell.regret[i].tobytes() == alone.regret.tobytes()
        np.testing.assert_array_equal(cell.pulls[i], alone.pulls)
        np.testing.assert_array_equal(cell.releases[i], alone.releases)


def test_dp_se_epoch_length_and_elimination():
    # R_1 for |S| = 2, beta = 1e-4: 32 ln(16e4) / (1/4)
    assert dp_se.epoch_length(2, 1, 1.0, 1e-4) == int(np.ceil(128 * np.log(16e4)))
    rng = np.random.default_rng(0)
    keep = dp_se.eliminate(np.array([900.0, 100.0]), 1000, 1, 1.0, 1e-4, rng, noise_multiplier=0)
    np.testing.assert_array_equal(keep, [True, False])
    keep = dp_se.eliminate(np.array([500.0, 499.0]), 1000, 1, 1.0, 1e-4, rng, noise_multiplier=0)
    np.testing.assert_array_equal(keep, [True, True])


def test_unknown_algorithm_and_bad_epsilon_are_rejected():
    seed = derive_seed(0, "x")
    with pytest.raises(ValueError, match="unknown algorithm"):
        simulate("nope", MEANS, 0.5, 100, 1, seed, checkpoints=CHECKPOINTS[:1])
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        simulate("lazy_dp_ts", MEANS, 0.0, 100, 1, seed, checkpoints=CHECKPOINTS[:1])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        simulate("dp_se", [0.5, 1.5], 0.5, 100, 1, seed, checkpoints=CHECKPOINTS[:1])
