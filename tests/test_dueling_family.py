"""The dueling family's protocol (dpbandits.dueling.interface): every algorithm of the family
implements it and states its privacy; a run keeps the protocol's invariants; the papers' classes
give their engines' runs exactly; each baseline's engine follows its per-round class's law; a
researcher's class goes through the same door, and its misuse is caught where it happens."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpbandits.dueling import simulate
from dpbandits.dueling.baselines import BASELINES
from dpbandits.dueling.ebs_fast import simulate_ebs
from dpbandits.dueling.ebs_params import EBSConfig
from dpbandits.dueling.ebs_reference import DPEBSEliminationReference
from dpbandits.dueling.goptimal_dpdb import (
    GOptConfig,
    GOptimalDPDBReference,
    audit_config,
    audit_instance,
    simulate_goptimal,
    trace_goptimal,
)
from dpbandits.dueling.instances import f1, f3, g1
from dpbandits.dueling.interface import (
    REFERENCES,
    DuelingAlgorithm,
    class_problems,
    reference_for,
    run_duels,
    run_reference,
)
from dpbandits.online.interface import load_algorithm
from dpbandits.rng import run_seed

FINITE = f3(4, 0.6)
LINEAR = g1(4)
SMALL_GOPT = GOptConfig(c_p=3e-4, c_s=3e-4, t0_multiplier=4e-5)  # phases short enough to commit by T = 5000


def _setting(name):
    """(instance, config or parameters) of each algorithm of the table."""
    if name == "dp_ebs_elimination":
        return FINITE, EBSConfig(epsilon=1.0)
    if name == "goptimal_dpdb":
        return LINEAR, SMALL_GOPT
    return (LINEAR if name == "maxinp" else FINITE), {}


@pytest.mark.parametrize("name", list(REFERENCES))
def test_every_algorithm_implements_the_protocol_and_states_its_privacy(name):
    instance, config = _setting(name)
    alg, answers = reference_for(name)(instance, config, 500, np.random.SeedSequence(1))
    assert isinstance(alg, DuelingAlgorithm)
    assert callable(answers.random)
    assert isinstance(alg.private, bool)
    assert isinstance(alg.mechanism, str) and alg.mechanism
    assert isinstance(alg.sensitivity, str) and alg.sensitivity
    assert alg.private == (name in ("dp_ebs_elimination", "goptimal_dpdb"))


@pytest.mark.parametrize("name", list(REFERENCES))
def test_a_run_plays_the_horizon_exactly_in_range_and_the_same_seed_gives_the_same_run(name):
    instance, config = _setting(name)
    horizon = 600
    runs = []
    for _ in range(2):
        alg, answers = reference_for(name)(instance, config, horizon, np.random.SeedSequence(4))
        runs.append(run_duels(alg, instance, horizon, answers, [100, 300, horizon], record_pairs=True))
    a, b = runs
    assert a.pairs.shape == (horizon, 2)
    assert a.pairs.min() >= 0 and a.pairs.max() < instance.k
    assert a.plays.sum() == 2 * horizon
    assert np.array_equal(np.bincount(a.pairs.ravel(), minlength=instance.k), a.plays)
    assert np.all(np.diff(a.regret_pref) >= 0) and np.all(np.diff(a.regret_util) >= 0)
    assert np.array_equal(a.pairs, b.pairs) and np.array_equal(a.regret_util, b.regret_util)


@pytest.mark.parametrize("variant", ["r1", "literal", "naive", "ldp", "nonprivate"])
def test_algorithm_1_in_the_protocol_gives_its_engines_runs_exactly(variant):
    config = EBSConfig(epsilon=math.inf if variant == "nonprivate" else 10.0, variant=variant)
    instance = f3(3, 3.0)  # every variant commits by about round 11,000 here
    seed, horizon, cps = np.random.SeedSequence(5), 15_000, [100, 15_000]
    runs = run_reference("dp_ebs_elimination", instance, config, horizon, cps, 3, seed)
    fast = simulate_ebs(instance, config, horizon, np.array(cps), 3, seed, "fast")
    assert np.array_equal(np.array([r.plays for r in runs]), fast.plays)
    assert np.allclose(np.array([r.regret_pref for r in runs]), fast.regret_pref, rtol=1e-12, atol=1e-9)
    assert np.allclose(np.array([r.regret_util for r in runs]), fast.regret_util, rtol=1e-12, atol=1e-9)
    assert fast.commit_time.min() > 0  # every run commits: the protocol's (i^, i^) after commit is exercised


@pytest.mark.parametrize("config", [SMALL_GOPT, GOptConfig(epsilon=math.inf, c_p=3e-4, c_s=3e-4, t0_multiplier=4e-5),
                                    GOptConfig(c_p=3e-4, c_s=3e-4, t0_mode="adaptive", t0_multiplier=1e-3)],
                         ids=["private", "nonprivate", "adaptive"])
def test_algorithm_2_in_the_protocol_gives_its_reference_engines_runs(config):
    seed, horizon = np.random.SeedSequence(11), 5000
    runs = run_reference("goptimal_dpdb", LINEAR, config, horizon, None, 3, seed)
    engine = simulate_goptimal(LINEAR, config, np.array([horizon]), 3, seed, "reference").runs
    assert np.allclose([r.regret_util[-1] for r in runs], engine.regret_util, rtol=1e-12, atol=1e-9)
    assert np.allclose([r.regret_pref[-1] for r in runs], engine.regret_pref, rtol=1e-12, atol=1e-9)


def test_algorithm_1_in_the_protocol_on_a_fixed_table_is_its_reference_engines_run():
    """On a fixed o-table the runner still draws one uniform per round from the answers stream,
    as Algorithm 1's reference engine draws u_o, so the runs are the same."""
    config, horizon, seed = EBSConfig(epsilon=10.0), 2000, np.random.SeedSequence(6)
    o = np.random.default_rng(6).integers(0, 2, horizon)
    engine = DPEBSEliminationReference(FINITE, config, horizon, seed, o_table=o, trace=True)
    engine.run()
    alg = DPEBSEliminationReference(FINITE, config, horizon, seed, trace=True)
    run = run_duels(alg, FINITE, horizon, alg.answer_stream, o_table=o, record_pairs=True)
    assert [tuple(p) for p in run.pairs[:len(engine.trace.actions)]] == engine.trace.actions
    assert np.array_equal(run.plays, engine.plays)


def test_algorithm_2_in_the_protocol_on_a_fixed_table_is_the_traced_run():
    instance, config, horizon = audit_instance(), audit_config(), 1000
    seed = np.random.SeedSequence(3)
    o = np.random.default_rng(3).integers(0, 2, horizon)
    row, records, groups = trace_goptimal(instance, config, horizon, seed, o)
    records_protocol = []
    alg = GOptimalDPDBReference(instance, config, horizon, run_seed(seed, 0), records_protocol.append, run=0)
    run = run_duels(alg, instance, horizon, None, o_table=o, record_pairs=True)
    assert alg.row == row
    assert len(records_protocol) == len(records)
    for mine, theirs in zip(records_protocol, records, strict=True):
        assert np.array_equal(mine["o_hat"], theirs["o_hat"]) and np.array_equal(mine["pairs"], theirs["pairs"])
    assert run.plays.sum() == 2 * horizon


# (instance, horizon) of each baseline's law test, chosen so that its rules fire: IF2 eliminates
# and commits (the runs are checked), MaxInP's active set shrinks, the others leave their frozen
# stretches (RUCB, RCS) or change epochs (Doubler) many times
LAW_SETTINGS = {"rucb": (FINITE, 300), "rcs": (FINITE, 300), "doubler": (FINITE, 300),
                "if2": (f3(3, 3.0), 1000), "maxinp": (LINEAR, 1000)}


@pytest.mark.parametrize("name", list(BASELINES))
def test_each_baselines_engine_follows_its_per_round_class_in_law(name):
    """Mean regret at two checkpoints, engine vs the per-round class on independent seeds, within
    4.5 standard errors (the classes draw differently: RCS draws theta, Doubler its left arm, IF2 a
    random pass order, MaxInP each answer), at a setting where the algorithm's rules fire."""
    instance, horizon = LAW_SETTINGS[name]
    n, cps = 200, [horizon // 6, horizon]
    ref = simulate(name, instance, None, horizon, n, seed=21, checkpoints=cps, engine="reference").regret_pref
    eng = simulate(name, instance, None, horizon, n, seed=22, checkpoints=cps).regret_pref
    se = np.sqrt(ref.var(axis=0) / n + eng.var(axis=0) / n)
    assert np.all(np.abs(ref.mean(axis=0) - eng.mean(axis=0)) < 4.5 * se)


def test_the_law_settings_exercise_if2s_and_maxinps_rules():
    """At their law test's settings IF2 commits (its filter empties) and MaxInP's active set
    shrinks, in most runs: a wrong elimination rule would show in those tests."""
    committed = shrunk = 0
    for r in range(10):
        instance, horizon = LAW_SETTINGS["if2"]
        alg, answers = reference_for("if2")(instance, {}, horizon, np.random.SeedSequence(r))
        run_duels(alg, instance, horizon, answers)
        committed += not alg.wset.any()
        instance, horizon = LAW_SETTINGS["maxinp"]
        alg, answers = reference_for("maxinp")(instance, {}, horizon, np.random.SeedSequence(r))
        run_duels(alg, instance, horizon, answers)
        shrunk += alg.pair_ok.reshape(alg.k, alg.k).diagonal().sum() < alg.k
    assert committed >= 8 and shrunk >= 8


class UniformPairs:
    """A researcher's class: a uniformly random duel every round."""

    private = False
    mechanism = "none"
    sensitivity = "none"

    def __init__(self, n_arms, epsilon, horizon, rng, distinct=False):
        self.k, self.rng, self.distinct = n_arms, rng, distinct
        self.answers = 0

    def select(self):
        a = int(self.rng.integers(self.k))
        b = int((a + self.rng.integers(1, self.k)) % self.k) if self.distinct else int(self.rng.integers(self.k))
        return a, b

    def update(self, left, right, left_won):
        self.answers += 1


def test_a_researchers_class_runs_through_the_same_door_with_the_runners_regret():
    horizon, n = 200, 300
    res = simulate(UniformPairs, FINITE, None, horizon, n, seed=2, checkpoints=[100, 200])
    again = simulate(UniformPairs, FINITE, None, horizon, n, seed=2, checkpoints=[100, 200])
    assert res.algorithm == "UniformPairs" and res.regret_pref.shape == (n, 2)
    assert np.array_equal(res.regret_pref, again.regret_pref)
    expected = 2 * FINITE.pref_gaps.mean() * np.array([100, 200])  # two uniform slots per round
    se = res.regret_pref.std(axis=0) / np.sqrt(n)
    assert np.all(np.abs(res.regret_pref.mean(axis=0) - expected) < 4.5 * se)
    assert all(r.plays.sum() == 2 * horizon for r in res.raw)
    distinct = simulate(UniformPairs, FINITE, None, 50, 2, seed=2, params={"distinct": True})
    assert distinct.config == {"distinct": True}


class _Returns:
    def __init__(self, n_arms, epsilon, horizon, rng, value=None):
        self.value = value

    def select(self):
        return self.value

    def update(self, left, right, left_won):
        pass


@pytest.mark.parametrize(("value", "message"), [
    ((0, 4), r"_Returns.select\(\) in round 1 returned 4; allowed: an integer arm in \[0, 3\]"),
    ((0.0, 1), r"returned 0.0; allowed: an integer arm"),
    (2, r"_Returns.select\(\) in round 1 returned 2; allowed: a pair \(left, right\)"),
    ((0, 1, 2), r"returned \(0, 1, 2\); allowed: a pair"),
    ((True, 1), r"returned True"),
])
def test_a_bad_duel_is_an_error_naming_the_class_the_round_and_the_value(value, message):
    with pytest.raises(ValueError, match=message):
        simulate(_Returns, FINITE, None, 10, 1, params={"value": value})


def test_a_class_that_cannot_run_is_refused_before_any_round():
    class NoUpdate:
        def __init__(self, n_arms, epsilon, horizon, rng):
            pass

        def select(self):
            return 0, 0

    class WrongConstructor(UniformPairs):
        def __init__(self, k, rng):
            pass

    assert class_problems(NoUpdate) == ["it has no update method"]
    with pytest.raises(ValueError, match=r"NoUpdate cannot run as a dueling algorithm: it has no update method"):
        simulate(NoUpdate, FINITE, None, 10)
    with pytest.raises(ValueError, match=r"constructor must start with \(n_arms, epsilon, horizon, rng\), got \(k, rng\)"):
        simulate(WrongConstructor, FINITE, None, 10)
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) 'width' for UniformPairs; allowed: distinct"):
        simulate(UniformPairs, FINITE, None, 10, params={"width": 2})
    with pytest.raises(ValueError, match=r"epsilon must be > 0"):
        simulate(UniformPairs, FINITE, 0.0, 10)
    with pytest.raises(ValueError, match=r"horizon must be an int >= 1"):
        simulate(UniformPairs, FINITE, None, 0)


def test_a_baselines_engine_choice_is_checked():
    with pytest.raises(ValueError, match=r"engine for rucb must be None \(its engine\) or 'reference', got 'fast'"):
        simulate("rucb", FINITE, None, 10, engine="fast")


def test_an_error_inside_a_researchers_method_says_which_class_call_and_round():
    class Breaks(UniformPairs):
        def update(self, left, right, left_won):
            if self.answers == 2:
                raise ZeroDivisionError("my bug")
            self.answers += 1

    with pytest.raises(ZeroDivisionError, match="my bug") as info:
        simulate(Breaks, FINITE, None, 10)
    assert any(note.startswith("raised in Breaks.update(") and note.endswith("at round 3")
               for note in info.value.__notes__)


def test_the_example_algorithm_identifies_the_winner_and_then_duels_it_with_itself():
    """examples/dueling_algorithms.py: on F1(4) at eps = 1 every run has eliminated every other arm
    well before T = 20000 (its regret stops growing) and names the winner; its privacy is stated."""
    cls = load_algorithm("examples/dueling_algorithms.py:NoisyBordaElimination")
    assert cls.private and "Laplace(2/eps)" in cls.mechanism and cls.sensitivity
    res = simulate(cls, f1(4), 1.0, 20_000, 10, seed=3, checkpoints=[10_000, 20_000])
    assert np.array_equal(res.regret_pref[:, 0], res.regret_pref[:, 1])  # committed by T / 2
    alg = cls(4, 1.0, 20_000, np.random.default_rng(0))
    for _ in range(20_000):
        left, right = alg.select()
        alg.update(left, right, int(left == 0 or (right != 0 and left < right)))  # arm 0 always wins
    assert alg.active == [0] and alg.select() == (0, 0)
    with pytest.raises(ValueError, match="epsilon must be > 0 and finite"):
        cls(4, math.inf, 100, np.random.default_rng(0))
