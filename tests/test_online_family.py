"""One protocol for the online family (dpbandits.online.interface.BanditAlgorithm): every bandit
algorithm, the paper's reference classes and a researcher's (examples/), honours the same
invariants, in the style of duelpy's generic tests: it implements the protocol, plays the horizon
exactly with an integer arm in range at every round, gives the same run for the same seed, and
a paper's algorithm states its privacy (private, epsilon, mechanism, sensitivity)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.envs.bernoulli import BernoulliBandit
from dpbandits.online import api
from dpbandits.online.interface import BanditAlgorithm, load_algorithm
from dpbandits.rng import derive_seed, stream_rngs

MEANS = np.array([0.7, 0.5, 0.45, 0.2])
HORIZON = 600
EPSILON = 1.0
PAPER = [s for s in api.ALGORITHMS.values() if s.feedback == "bandit"]
RESEARCHER = ["examples/dp_ucb_tree.py:DPUCBTree", "examples/leaky_ucb.py:LeakyUCB"]


def _paper(spec, seed: int):
    rngs = stream_rngs(derive_seed(seed, "family", spec.name), api.STREAMS)
    algo = api._reference_algorithm(spec.name, MEANS.size, EPSILON if spec.private else None, HORIZON,
                                    rngs, spec.params())
    return algo, rngs["rewards"]


def _researcher(path: str, seed: int):
    cls = load_algorithm(path)
    rng, rewards = (np.random.default_rng(s) for s in derive_seed(seed, "family", path).spawn(2))
    return cls(MEANS.size, EPSILON, HORIZON, rng), rewards


def _play(algo, reward_rng):
    """Drive the protocol round by round, checking every arm where it is returned."""
    env = BernoulliBandit(MEANS)
    actions = []
    for t in range(1, HORIZON + 1):
        arm = algo.select(t)
        assert isinstance(arm, (int, np.integer)) and not isinstance(arm, bool), (t, arm)
        assert 0 <= arm < MEANS.size, (t, arm)
        algo.update(t, int(arm), env.reward(t, int(arm), reward_rng))
        actions.append(int(arm))
    return np.array(actions)


MAKERS = [pytest.param(lambda seed, s=s: _paper(s, seed), id=s.name) for s in PAPER] + \
         [pytest.param(lambda seed, p=p: _researcher(p, seed), id=p.split(":")[1]) for p in RESEARCHER]


@pytest.mark.parametrize("make", MAKERS)
def test_every_algorithm_implements_the_protocol_and_plays_the_horizon(make):
    algo, rewards = make(1)
    assert isinstance(algo, BanditAlgorithm)
    actions = _play(algo, rewards)
    assert actions.size == HORIZON
    assert np.bincount(actions, minlength=MEANS.size).sum() == HORIZON


@pytest.mark.parametrize("make", MAKERS)
def test_the_same_seed_gives_the_same_run(make):
    first = _play(*make(3))
    again = _play(*make(3))
    np.testing.assert_array_equal(first, again)


@pytest.mark.parametrize("spec", PAPER, ids=lambda s: s.name)
def test_every_paper_algorithm_states_its_privacy(spec):
    algo, _ = _paper(spec, 1)
    assert type(algo).private is spec.private
    assert isinstance(type(algo).mechanism, str) and type(algo).mechanism
    if spec.private:
        assert algo.epsilon == EPSILON
        assert type(algo).sensitivity > 0 and "Laplace" in type(algo).mechanism
    else:
        assert type(algo).sensitivity == 0 and type(algo).mechanism.startswith("none")


def test_the_protocol_refuses_a_class_without_its_methods():
    class NoUpdate:
        def select(self, t):
            return 0

    assert not isinstance(NoUpdate(), BanditAlgorithm)


def test_the_names_a_researchers_algorithm_may_not_take_are_exactly_the_papers():
    """dpbandits.online.interface.PAPER_NAMES (kept in the interface, which the table of the
    paper's algorithms imports) names every algorithm of that table and nothing else."""
    from dpbandits.online.interface import PAPER_NAMES

    assert sorted(PAPER_NAMES) == sorted(api.ALGORITHMS) and len(set(PAPER_NAMES)) == len(PAPER_NAMES)


class _BrokenUpdate:
    """A researcher's class whose update fails at round 4."""

    private = False

    def __init__(self, n_arms, epsilon, horizon, rng):
        self.k = n_arms

    def select(self, t):
        return (t - 1) % self.k

    def update(self, t, arm, reward):
        if t == 4:
            raise ZeroDivisionError("a bug of the researcher's")


def test_an_error_inside_a_researchers_class_says_which_method_and_round():
    with pytest.raises(ZeroDivisionError) as caught:
        api.simulate(_BrokenUpdate, [0.6, 0.4], 1.0, 10, 1, 0)
    assert caught.value.__notes__ == ["raised in _BrokenUpdate.update(t, arm, reward) at round 4"]
