"""Non-private dueling baselines (spec 5.5): best-arm identification, sublinear regret, regret
bookkeeping, determinism, and the RUCB stretch-skipping engine against a plain per-round RUCB."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.dueling.baseline_result import Recorder
from dpbandits.dueling.baselines import BASELINES, FINITE
from dpbandits.dueling.instances import f3, g1

EASY = f3(4, 0.5)
T = 20_000
CP = np.array([T // 10, T])


@pytest.mark.parametrize("name", FINITE)
def test_finite_baseline_finds_best_and_is_sublinear(name):
    res = BASELINES[name](EASY, T, CP, 4, np.random.SeedSequence(11))
    assert np.all(res.recommended == EASY.best)
    assert res.regret_pref.shape == (4, 2) and res.regret_util.shape == (4, 2)
    assert np.all(np.diff(res.regret_pref, axis=1) >= 0)
    m = res.regret_pref.mean(axis=0)
    # linear regret would give 10x; Doubler restarts UCB1 in every epoch (log^2 T), hence looser
    assert m[1] < (6.0 if name == "doubler" else 4.0) * m[0]
    assert np.allclose(res.plays.sum(axis=1), 2 * T)


def test_maxinp_finds_best_and_is_sublinear():
    inst = g1(8)
    res = BASELINES["maxinp"](inst, T, CP, 4, np.random.SeedSequence(5), kappa_mode="inst")
    assert np.all(res.recommended == inst.best)
    m = res.regret_util.mean(axis=0)
    assert m[1] < 4.0 * m[0]


def test_regret_bookkeeping():
    fin = f3(5, 0.3)
    r = fin.utilities
    a, b = np.array([0, 1, 4]), np.array([0, 3, 2])
    assert np.allclose(fin.regret_util(a, b), 2 * r.max() - r[a] - r[b])
    p = fin.preference
    assert np.allclose(fin.regret_pref(a, b), p[fin.best, a] + p[fin.best, b] - 1)
    rec = Recorder(3, 10, np.array([2, 5, 10]), fin.k)
    rec.duel(np.ones(3, bool), np.zeros(3, int), np.zeros(3, int), np.array([10, 3, 4]), fin)
    rec.duel(np.ones(3, bool), a, b, np.full(3, 10), fin)
    res = rec.result("x", np.zeros(3))
    assert np.all(res.regret_pref[0] == 0) and np.all(res.regret_util[0] == 0)
    ru = fin.regret_util(a, b)
    assert np.allclose(res.regret_util[1], [0, 2 * ru[1], 7 * ru[1]])
    assert np.allclose(res.regret_util[2], [0, ru[2], 6 * ru[2]])


@pytest.mark.parametrize("name", [*FINITE, "maxinp"])
def test_deterministic_given_seed(name):
    inst = g1(8) if name == "maxinp" else EASY
    cp = np.array([100, 2000])
    r1 = BASELINES[name](inst, 2000, cp, 3, np.random.SeedSequence(3))
    r2 = BASELINES[name](inst, 2000, cp, 3, np.random.SeedSequence(3))
    assert np.array_equal(r1.regret_pref, r2.regret_pref)
    assert np.array_equal(r1.regret_util, r2.regret_util)


