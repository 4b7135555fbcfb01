"""The epoch algorithms (Epoch-SEQ, DP-SEQ): constants, ell*, the frozen removal rule, the exact
privacy loss, the order-statistic source against sorted samples, and the fast engine against the
reference engine in distribution (with a power check)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpbandits.quantile import dp_seq, epoch_seq
from dpbandits.quantile import instances as inst
from dpbandits.quantile.sources import OrderStatSource, SampleSource, uniform_order_stats
from dpbandits.quantile.streams import noise_stream, run_streams
from dpbandits.rng import derive_seed
from dpbandits.stats import holm


def test_constants_follow_algorithm_2():
    assert [dp_seq.e_star(q) for q in (0.25, 0.4, 0.5, 0.85, 0.9, 0.95)] == [1, 1, 1, 2, 3, 4]
    m, e, eps, delta = 10, 2, 0.05, 0.1
    g = 0.25
    want = math.ceil(max(16 / g**2, 64 * 9 / (g * eps)) * math.log(6 * 10 * 4 / delta))
    assert dp_seq.epoch_size(m, e, eps, delta) == want
    assert dp_seq.threshold(m, e, eps, delta) == pytest.approx(4 * 9 / eps * math.log(6 * 100 * 4 / delta))
    assert dp_seq.noise_scale(m, eps) == pytest.approx(2 * 9 / eps)
    i, j, span = dp_seq.epoch_ranks(1000, 1, 0.5)
    assert (i, j, span) == (250, 750, 249)
    with pytest.raises(ValueError, match="epsilon"):
        dp_seq.epoch_size(2, 1, math.inf, 0.1)
    assert epoch_seq.first_epoch(0.9) == 4 and epoch_seq.epoch_size(2, 1, 0.05) == math.ceil(math.log(160) * 2)


def test_ell_star_binary_search_matches_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(500):
        n = int(rng.integers(1, 40))
        low = np.sort(rng.integers(0, 10, n))[::-1].astype(float)
        up = np.sort(rng.integers(0, 10, n)).astype(float)
        brute = -1
        for ell in range(n):
            if up[ell] <= low[ell]:
                brute = ell
            else:
                break
        assert dp_seq.ell_star(low, up) == brute


def test_frozen_removal_and_guard():
    s = np.array([[0.0, 30.0], [0.0, 0.0]])
    z = np.zeros((2, 2))
    assert dp_seq.eliminate(s, z, 20.0).tolist() == [False, True]
    everything = np.array([[0.0, 30.0], [30.0, 0.0]])
    assert dp_seq.eliminate(everything, z, 20.0).tolist() == [False, False]  # guard keeps A


def test_privacy_loss_of_a_unit_shift_is_bounded_by_eps_and_reached():
    m, eps = 3, 1.0
    t, beta = 10.0, dp_seq.noise_scale(m, eps)
    s = np.full((m, m), 12.0)
    s2 = s.copy()
    s2[0, :] -= 1  # arm 0 as "a": its 2 pairs
    s2[:, 0] -= 1  # arm 0 as "b": its 2 pairs (4 = 2 (m - 1) pairs in all)
    np.fill_diagonal(s2, 12.0)
    loss = dp_seq.privacy_loss(s, s2, t, beta)
    assert loss["pairwise"] == pytest.approx(eps, rel=1e-9)
    assert loss["raw"] <= eps + 1e-9 and loss["guarded"] <= eps + 1e-9
    assert dp_seq.privacy_loss(s, s2, t, beta / 2)["pairwise"] == pytest.approx(2 * eps, rel=1e-9)


def test_uniform_order_stats_have_the_law_of_sorted_uniforms_and_the_test_has_power():
    rng = np.random.default_rng(1)
    n, ranks, reps = 50, np.array([3, 4, 25, 40]), 3000
    direct = np.array([uniform_order_stats(n, ranks, rng) for _ in range(reps)])
    sorted_u = np.sort(rng.random((reps, n)), axis=1)[:, ranks - 1]
    off = np.array([uniform_order_stats(n, ranks + 1, rng) for _ in range(reps)])  # wrong ranks
    p_same = [stats.ks_2samp(direct[:, c], sorted_u[:, c]).pvalue for c in range(ranks.size)]
    p_off = [stats.ks_2samp(off[:, c], sorted_u[:, c]).pvalue for c in range(ranks.size)]
    assert not holm(p_same, 0.01)[0].any()
    assert holm(p_off, 0.01)[0].any()
    # joint law: the spacing between consecutive ranks
    p_gap = stats.ks_2samp(direct[:, 1] - direct[:, 0], sorted_u[:, 1] - sorted_u[:, 0]).pvalue
    assert p_gap > 0.001


def _first_epoch_stats(instance, epsilon, source_cls, runs, seed, rank_shift=0):
    """max{0, ell*_{0,1}} + the first epoch's order statistic X^1_(j), per run."""
    out = []
    for r in range(runs):
        trace = []
        src = source_cls(instance, run_streams(seed, r, instance.k))
        if rank_shift:
            real = src.order_stats
            src.order_stats = lambda arm, ranks, real=real: real(arm, np.asarray(ranks) + rank_shift)
        dp_seq.dp_seq_run(instance, epsilon, 0.1, src, noise_stream(seed, r), max_epoch=dp_seq.e_star(instance.q),
                          trace=trace)
        out.append(trace[0]["s"][0, 1])
    return np.array(out)


def test_dp_seq_fast_engine_matches_the_reference_in_distribution_with_power():
    instance = inst.cauchy(3.0, 0.6)  # K = 2, e_* = 1: ell*_{01} ~ 15, spread out, below T ~ 22
    t = dp_seq.threshold(2, 1, 1.0, 0.1)
    ref, fast, wrong = (np.minimum(_first_epoch_stats(instance, 1.0, src, 300, derive_seed(2, tag), shift),
                                   math.floor(t))  # the fast source caps ell* where decisions are certain
                        for src, tag, shift in ((SampleSource, "ref", 0), (OrderStatSource, "fast", 0),
                                                (OrderStatSource, "wrong", 3)))
    assert ref.std() > 0 and np.mean(ref > 0) > 0.9
    assert stats.ks_2samp(ref, fast).pvalue > 0.01
    assert stats.ks_2samp(wrong, ref).pvalue < 0.01


def test_dp_seq_engines_agree_on_whole_runs():
    seed = derive_seed(3, "runs")
    for instance, eps in ((inst.disc(0.4, 0.1875), 1.0), (inst.mix(4, 0.1, 0.5), 1.0)):
        ref = dp_seq.simulate_dp_seq(instance, eps, 0.1, 20, seed, engine="reference")
        fast = dp_seq.simulate_dp_seq(instance, eps, 0.1, 20, derive_seed(4, "runs"))
        assert np.all(ref.k_hat == instance.best) and np.all(fast.k_hat == instance.best)
        # pulls are a deterministic function of the elimination epochs: compare those laws
        assert stats.mannwhitneyu(ref.total_pulls, fast.total_pulls).pvalue > 0.001


def test_dp_seq_is_invariant_under_monotone_maps_with_common_random_numbers():
    seed = derive_seed(5, "crn")
    base = dp_seq.simulate_dp_seq(inst.disc(0.4, 0.1875), 1.0, 0.1, 5, seed, engine="reference")
    other = dp_seq.simulate_dp_seq(inst.transformed(inst.disc(0.4, 0.1875, 1e-5), "exp"), 1.0, 0.1, 5, seed,
                                   engine="reference")
    assert np.array_equal(base.pulls, other.pulls) and np.array_equal(base.elim_epoch, other.elim_epoch)


def test_epoch_seq_engines_agree_and_are_correct():
    seed = derive_seed(6, "epoch")
    for instance in (inst.disc(0.4, 0.1), inst.gauss(1.0, [0.5], 0.85)):
        ref = epoch_seq.simulate_epoch_seq(instance, 0.05, 30, seed, engine="reference")
        fast = epoch_seq.simulate_epoch_seq(instance, 0.05, 30, derive_seed(7, "epoch"))
        assert np.all(ref.k_hat == 0) and np.all(fast.k_hat == 0)
        assert stats.mannwhitneyu(ref.final_epoch, fast.final_epoch).pvalue > 0.001
