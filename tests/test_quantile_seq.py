"""SEQ (Algorithm 1): constants, the fast window engine against the per-step reference
(identical records on the same streams; equal laws on independent streams, with a power check),
its order-statistic windows against sorting, caps and censoring, common random numbers across
monotone transforms. (The baselines' Fenwick order statistics are tested here too.)"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpbandits.quantile import baseline_engine, seq
from dpbandits.quantile import instances as inst
from dpbandits.quantile.streams import run_streams
from dpbandits.rng import derive_seed
from dpbandits.stats import holm

INSTANCES = [inst.disc(0.4, 0.1), inst.gauss(1.0, [0.5], 0.85), inst.mix(4, 0.15, 0.5), inst.bern12(0.5),
             inst.logn10(0.85), inst.disc(0.4, 0.15, k=4)]


def test_n_star_table_and_width():
    for (k, q), want in {(2, 0.4): 39, (2, 0.5): 23, (2, 0.85): 377, (2, 0.9): 939, (2, 0.95): 4368,
                         (10, 0.4): 45, (10, 0.5): 27, (10, 0.85): 417, (10, 0.9): 1028, (10, 0.95): 4721}.items():
        assert seq.n_star(k, 0.05, q) == want
    assert seq.seq_width(10, 2, 0.05) == pytest.approx(np.sqrt(np.log(4 * 2 * 100 / 0.05) / 20))
    lcb, ucb = seq.seq_ranks(200, 2, 0.05, 0.5)
    assert np.all(lcb[1:] >= 1) and np.all(ucb[1:] <= np.arange(1, 201)) and np.all(lcb <= ucb)


def test_explicit_bound_matches_the_spec():
    for g, want in ((0.05, 19941), (0.1, 4390), (0.15, 1797), (0.2, 950)):
        assert seq.explicit_bound(g, 2, 0.05, 0.4) == want


def test_fenwick_order_statistics_against_np_sort():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 7, size=300).astype(float)  # heavy ties
    order = np.argsort(x, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(x.size)
    tree = np.zeros(x.size + 1, dtype=np.int32)
    top = 256
    for n in range(1, x.size + 1):
        i = rank[n - 1] + 1
        while i <= x.size:
            tree[i] += 1
            i += i & (-i)
        srt = np.sort(x[:n])
        for kth in {1, n, (n + 1) // 2, max(1, n // 3)}:
            assert x[order[baseline_engine._kth(tree, top, kth)]] == srt[kth - 1]


@pytest.mark.parametrize("instance", INSTANCES, ids=lambda i: i.name)
def test_fast_engine_reproduces_the_reference_run_for_run(instance):
    seed = derive_seed(3, "test", instance.name)
    ref = seq.run_reference(instance, 0.05, 10**6, 4, seed)
    fast = seq.simulate_seq(instance, 0.05, 10**6, 4, seed)
    for field in ("k_hat", "terminated", "n_final", "pulls", "elim_n", "guard"):
        assert np.array_equal(getattr(ref, field), getattr(fast, field)), field
    assert np.all(ref.k_hat == instance.best)


@pytest.mark.parametrize("kind", ["ties", "continuous"])
def test_window_rebuild_against_sorting(kind):
    """A rebuilt window points at X_(r) and counts every sample up to its top value."""
    rng = np.random.default_rng(11)
    for n in (1, 2, 5, 40, 1000):
        x = rng.integers(0, 4, size=n).astype(float) if kind == "ties" else rng.standard_normal(n)
        srt = np.sort(x)
        wv, wc = np.empty((1, 64)), np.empty((1, 64), dtype=np.int64)
        st = np.zeros((1, 4), dtype=np.int64)
        for r in sorted({1, n, (n + 1) // 2, max(1, n // 3)}):
            seq._window_rebuild(x[None, :], 0, n, r, wv, wc, st, 0)
            d, p, cum = st[0, :3]
            assert np.all(np.diff(wv[0, :d]) > 0) and wv[0, p] == srt[r - 1]
            assert cum == np.sum(x < wv[0, p]) and cum < r <= cum + wc[0, p]
            assert np.array_equal(wc[0, :d], [np.sum(x == v) for v in wv[0, :d]])


@pytest.mark.parametrize("instance", [*INSTANCES, inst.zero_gap(0.0)], ids=lambda i: i.name)
def test_small_windows_reproduce_the_reference(instance):
    """Windows of 64 values are dropped and rebuilt all the time: still the reference's records."""
    seed = derive_seed(9, "windows", instance.name)
    cap = 3000 if instance.gaps()[1] == 0 else 10**6
    ref = seq.run_reference(instance, 0.1, cap, 3, seed)
    fast = seq.simulate_seq(instance, 0.1, cap, 3, seed, window_cap=64)
    for field in ("k_hat", "terminated", "n_final", "pulls", "elim_n", "guard"):
        assert np.array_equal(getattr(ref, field), getattr(fast, field)), field


def test_chunk_size_does_not_change_results():
    instance = inst.disc(0.4, 0.05)
    seed = derive_seed(4, "block")
    a = seq.simulate_seq(instance, 0.05, 10**6, 5, seed, chunk=7)
    b = seq.simulate_seq(instance, 0.05, 10**6, 5, seed, chunk=100_000)
    assert np.array_equal(a.pulls, b.pulls) and np.array_equal(a.n_final, b.n_final)


def test_stream_blocks_equal_one_at_a_time_draws():
    s = derive_seed(5, "streams")
    a = run_streams(s, 0, 2)[1]
    b = run_streams(s, 0, 2)[1]
    block = np.concatenate([a.random(3), a.random(10)])
    single = np.array([b.random() for _ in range(13)])
    assert np.array_equal(block, single)


def test_cap_censors_zero_gap_runs():
    rec = seq.simulate_seq(inst.zero_gap(0.0), 0.1, 3000, 3, derive_seed(6, "zg"))
    assert not rec.terminated.any() and np.all(rec.k_hat == -1)
    assert np.all(rec.n_final == 3000) and np.all(rec.pulls == 3000)
    with pytest.raises(ValueError, match="cap"):
        seq.simulate_seq(inst.zero_gap(0.0), 0.1, 10, 1, derive_seed(6, "zg"))


def test_transforms_give_identical_paths_under_common_random_numbers():
    seed = derive_seed(7, "crn")
    base = seq.simulate_seq(inst.gauss(4.0, [2.0], 0.8), 0.05, 10**6, 5, seed)
    for other in (inst.logn(4.0, [2.0], 0.8), inst.transformed(inst.gauss(4.0, [2.0], 0.8), "cube")):
        rec = seq.simulate_seq(other, 0.05, 10**6, 5, seed)
        assert np.array_equal(base.pulls, rec.pulls) and np.array_equal(base.elim_n, rec.elim_n)


def _perturbed_reference(instance, delta, cap, runs, seed):
    """A wrong SEQ (the UCB at the empirical q-quantile: no width on that side) for the power
    check."""
    class Wrong(seq.SEQReference):
        def _eliminate(self):
            a, b = self.lcb[self.n], max(1, int(np.ceil(self.n * self.q)))
            lcb = {k: self.order_stat(k, a) for k in self.active}
            ucb = {k: self.order_stat(k, b) for k in self.active}
            removed = [i for i in self.active if any(lcb[j] > ucb[i] for j in self.active if j != i)]
            if len(removed) < len(self.active):
                for i in removed:
                    self.active.remove(i)
                    self.elim_n[i] = self.n

    out = []
    for r in range(runs):
        streams = run_streams(seed, r, instance.k)
        alg = Wrong(instance.k, instance.q, delta, cap)
        while not alg.done:
            arm = alg.select()
            alg.update(arm, float(instance.sample(arm, streams[arm].random())))
        out.append(alg.result())
    return seq._records(out)


def test_fast_engine_has_the_reference_law_and_the_test_has_power():
    """Independent streams: two-sided Mann-Whitney per instance, Holm; a perturbed reference is
    rejected by the same comparison."""
    configs = [inst.disc(0.4, 0.2), inst.gauss(1.0, [0.5], 0.85)]
    p_same, p_wrong = [], []
    for i, instance in enumerate(configs):
        ref = seq.run_reference(instance, 0.05, 10**6, 50, derive_seed(8, "ref", i))
        fast = seq.simulate_seq(instance, 0.05, 10**6, 50, derive_seed(8, "fast", i))
        wrong = _perturbed_reference(instance, 0.05, 10**6, 50, derive_seed(8, "wrong", i))
        p_same.append(stats.mannwhitneyu(ref.n_final, fast.n_final).pvalue)
        p_wrong.append(stats.mannwhitneyu(wrong.n_final, fast.n_final).pvalue)
    assert not holm(p_same, 0.01)[0].any()
    assert holm(p_wrong, 0.01)[0].all()
