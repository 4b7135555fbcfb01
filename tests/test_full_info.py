"""Full-information algorithms of the online paper: RNM-FTNL (Alg. 4) and naive FTNL.

The epoch engine (vectorised over runs, one Binomial per action and epoch) must have the law of
the plain per-round reference (whole reward vectors every round)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from dpbandits.online import full_info, naive_ftnl, rnm_ftnl
from dpbandits.online.experiments.full_info_designs import brackets, f_dbl, f_hard, thm9_bound
from dpbandits.stats import holm

MEANS = np.array([0.5, 0.65, 0.5, 0.55])  # optimal action not at index 0 (erratum E11)
HORIZON = 120
CPS = np.array([1, 3, 10, 40, 120])


def _fast(variant, eps, runs, seed):
    rngs = [np.random.default_rng([seed, i]) for i in range(2)]
    if variant == "naive":
        return naive_ftnl.simulate_fast_runs(MEANS, eps, HORIZON, CPS, runs, *rngs)
    return rnm_ftnl.simulate_fast_runs(MEANS, eps, HORIZON, CPS, runs, *rngs,
                                       noise_factor={"rnm": 1.0, "rnm_c2": 2.0}[variant])


def _reference(variant, eps, runs, seed):
    regret, plays = [], []
    for i in range(runs):
        noise = np.random.default_rng([seed, i, 1])
        alg = (naive_ftnl.NaiveFTNL(4, eps, noise) if variant == "naive" else
               rnm_ftnl.RNMFTNL(4, eps, noise, noise_factor={"rnm": 1.0, "rnm_c2": 2.0}[variant]))
        r, p = full_info.run_reference(alg, MEANS, HORIZON, CPS, np.random.default_rng([seed, i, 2]))
        regret.append(r)
        plays.append(p)
    return np.array(regret), np.array(plays)


def _pvalues(fast, ref_regret, ref_plays):
    pv = [sps.mannwhitneyu(np.round(fast.regret[:, i], 6), np.round(ref_regret[:, i], 6)).pvalue
          for i in range(1, CPS.size)]
    pv += [sps.mannwhitneyu(fast.plays[:, j], ref_plays[:, j]).pvalue for j in range(4)]
    return pv


def test_epochs_cover_the_horizon():
    for horizon in (1, 2, 3, 7, 8, 100, 1024):
        bounds = full_info.epoch_bounds(horizon)
        assert bounds[0] == (1, 1)
        assert sum(n for _, n in bounds) == horizon
        starts = [s for s, _ in bounds]
        assert starts[1:] == [2**s for s in range(1, len(bounds))]  # epoch s starts at 2^s


@pytest.mark.parametrize("variant", ["rnm", "rnm_c2", "naive"])
def test_epoch_engine_matches_per_round_reference(variant):
    fast = _fast(variant, 0.5, 1500, 1)
    ref_regret, ref_plays = _reference(variant, 0.5, 1500, 2)
    reject, adjusted = holm(_pvalues(fast, ref_regret, ref_plays), alpha=0.001)
    assert not reject.any(), f"{variant}: Holm p={adjusted.min():.2g}"


def test_the_comparison_has_power():
    """The same comparison separates Lap(1/eps) from Lap(2/eps)."""
    fast = _fast("rnm", 0.2, 1500, 3)
    ref_regret, ref_plays = _reference("rnm_c2", 0.2, 1500, 4)
    reject, _ = holm(_pvalues(fast, ref_regret, ref_plays), alpha=0.001)
    assert reject.any()


@pytest.mark.parametrize("variant", ["rnm", "rnm_c2", "naive"])
def test_run_invariants(variant):
    res = _fast(variant, 1.0, 50, 5)
    gaps = MEANS.max() - MEANS
    assert np.all(res.plays.sum(axis=1) == HORIZON)
    np.testing.assert_allclose(res.regret[:, -1], res.plays @ gaps)
    assert np.all(np.diff(res.regret, axis=1) >= 0)
    assert np.all(res.plays[:, 0] >= 1)  # round 1 plays action index 0


def test_noise_scales_state_the_accounting():
    assert rnm_ftnl.mechanism(0.5).scale == pytest.approx(2.0)  # Lap(1/eps), the paper
    assert rnm_ftnl.mechanism(0.5, noise_factor=2).scale == pytest.approx(4.0)  # corrected
    lap = naive_ftnl.mechanism(0.5, 8)
    assert lap.epsilon == pytest.approx(0.5 / 8) and lap.scale == pytest.approx(16.0)


def test_learns_the_optimal_action_at_scale():
    """Cost independent of T: T = 10^9 with K = 64 in one call, and the regret saturates."""
    means = np.asarray(f_hard(64, 0.2).means)
    cps = np.array([10**6, 10**9])
    res = rnm_ftnl.simulate_fast_runs(means, 1.0, 10**9, cps, 20, np.random.default_rng(0),
                                      np.random.default_rng(1))
    np.testing.assert_array_equal(res.regret[:, 0], res.regret[:, 1])


def test_brackets_and_theorem9_bound():
    inst = f_dbl(5, 0.05)
    np.testing.assert_allclose(sorted(inst.gaps[inst.gaps > 0]), [0.05, 0.1, 0.2, 0.4])
    assert [size for _, size in brackets(inst.gaps)] == [1, 1, 1, 1]
    assert brackets(f_hard(16, 0.1).gaps) == [(pytest.approx(0.1), 15)]
    # One bracket: 1 + 256 (1 + ln 15) / min(0.1, 0.05)
    assert thm9_bound(f_hard(16, 0.1).gaps, 0.05) == pytest.approx(1 + 256 * (1 + np.log(15)) / 0.05)
