"""The quantile family behind one protocol (dpbandits.quantile.interface): every algorithm of the
family (the paper's SEQ, Epoch-SEQ and DP-SEQ, the specification's QPAC, QLUCB and Max-Q) has a
per-sample class that implements the protocol, states its privacy, keeps the protocol's
invariants on a run, and gives its fast engine's record exactly on the same reward streams (the
epoch algorithms: their engine on real sorted samples)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.params import coerce_params
from dpbandits.quantile import dp_seq, epoch_seq, make_instance
from dpbandits.quantile.api import ALGORITHMS, simulate
from dpbandits.quantile.interface import REFERENCES, RESULT_FIELDS, QuantileAlgorithm, run_algorithm
from dpbandits.quantile.streams import noise_stream, run_streams
from dpbandits.rng import derive_seed

NAMES = list(ALGORITHMS)
EPSILON = {"dp_seq": 4.0}  # the private algorithm's epsilon (large: short epochs, a quick test)
PARAMS = {"max_q": {"approx_eps": 0.2}}  # Max-Q cannot identify the exact best arm
INSTANCE = make_instance("disc", q=0.4, a=0.2, b=1.0, k=3)  # gap 0.2, best arm 0
ZERO_GAP = make_instance("zg", q=0.5, a=0.0, k=2)  # no best arm: every run is censored at its cap
CAPS = {"seq": 200, "epoch_seq": 3, "dp_seq": 3, "qpac": 50, "qlucb": 50, "max_q": 30}  # binding on ZERO_GAP


def build(name, instance=INSTANCE, cap=None, seed=1, run=0):
    p = coerce_params(ALGORITHMS[name], PARAMS.get(name))
    cap = cap if cap is not None else {"epoch_seq": 30, "dp_seq": 30, "max_q": 10**6}.get(name, 10**5)
    return REFERENCES[name](instance, EPSILON.get(name), p, cap, noise_stream(np.random.SeedSequence(seed), run))


class Counting:
    """A reward stream that counts its draws (how many samples the run asked of an arm)."""

    def __init__(self, rng):
        self.rng, self.draws = rng, 0

    def random(self):
        self.draws += 1
        return self.rng.random()


def test_the_table_names_every_algorithm_of_the_family():
    assert set(REFERENCES) == set(ALGORITHMS)


@pytest.mark.parametrize("name", NAMES)
def test_every_algorithm_implements_the_protocol_and_states_its_privacy(name):
    alg = build(name)
    assert isinstance(alg, QuantileAlgorithm)
    assert alg.private == (name == "dp_seq")
    assert isinstance(alg.mechanism, str) and isinstance(alg.sensitivity, str)
    if alg.private:
        assert "Laplace" in alg.mechanism and "eps" in alg.sensitivity and alg.epsilon == EPSILON[name]
    else:
        assert alg.mechanism == alg.sensitivity == "none"


@pytest.mark.parametrize("name", NAMES)
def test_a_run_keeps_the_protocols_invariants(name):
    streams = [Counting(g) for g in run_streams(np.random.SeedSequence(3), 0, INSTANCE.k)]
    alg = build(name)
    out = run_algorithm(alg, INSTANCE, streams)
    assert alg.done and tuple(out) == RESULT_FIELDS
    assert out["terminated"] == (out["k_hat"] >= 0) and -1 <= out["k_hat"] < INSTANCE.k
    assert out["k_hat"] == INSTANCE.best  # an easy instance: every algorithm identifies the best arm
    # every sample the run asked for is in its record, and nothing else
    assert out["pulls"] == [s.draws for s in streams]
    assert all(e == -1 or e >= 1 for e in out["elim"]) and out["guard"] >= 0
    with pytest.raises(RuntimeError):  # a stopped algorithm takes no more samples
        alg.update(out["k_hat"], 0.5)


@pytest.mark.parametrize("name", NAMES)
def test_the_same_streams_give_the_same_run_and_other_streams_another(name):
    seed = np.random.SeedSequence(4)
    runs = [run_algorithm(build(name, seed=4, run=r), INSTANCE, run_streams(seed, r, INSTANCE.k)) for r in (0, 0, 1)]
    assert runs[0] == runs[1]
    if name not in ("epoch_seq", "dp_seq"):  # the epoch algorithms' sizes are fixed: only the samples differ
        assert runs[0]["pulls"] != runs[2]["pulls"]


@pytest.mark.parametrize("name", NAMES)
def test_a_run_that_cannot_decide_is_censored_at_its_cap(name):
    cap = CAPS[name]
    out = run_algorithm(build(name, ZERO_GAP, cap), ZERO_GAP, run_streams(np.random.SeedSequence(5), 0, ZERO_GAP.k))
    assert (out["k_hat"], out["terminated"]) == (-1, False)
    if name in ("epoch_seq", "dp_seq"):
        assert out["n_final"] == cap  # the last epoch
    else:
        assert max(out["pulls"]) <= cap  # per-arm samples (Max-Q: its N0 exceeds the cap, no sample)


@pytest.mark.parametrize("name", NAMES)
def test_each_per_sample_class_gives_its_engines_record(name):
    """The per-sample class is the fast engine's reference: the same records, field by field, on
    the same reward streams (the epoch algorithms: their engine with sorted samples, whose fast
    source draws the order statistics directly and agrees in distribution)."""
    eps, params = EPSILON.get(name), PARAMS.get(name)
    ref = simulate(name, INSTANCE, eps, runs=4, seed=6, params=params, engine="reference")
    if name in ("epoch_seq", "dp_seq"):
        seed = derive_seed(6, "quantile", "api")
        rec = (dp_seq.simulate_dp_seq(INSTANCE, eps, ref.delta, 4, seed, ref.cap, engine="reference")
               if name == "dp_seq" else epoch_seq.simulate_epoch_seq(INSTANCE, ref.delta, 4, seed, ref.cap,
                                                                     engine="reference"))
        engine = {"k_hat": rec.k_hat, "terminated": rec.terminated, "n_final": rec.final_epoch, "pulls": rec.pulls,
                  "elim": rec.elim_epoch, "guard": rec.guard}
    else:
        fast = simulate(name, INSTANCE, eps, runs=4, seed=6, params=params)
        engine = {f: getattr(fast, f) for f in RESULT_FIELDS}
    for field in RESULT_FIELDS:
        assert np.array_equal(getattr(ref, field), engine[field]), field


@pytest.mark.parametrize("arm", [2.0, 7, -1, True])
def test_the_runner_checks_every_arm_where_it_is_named(arm):
    class Wrong:
        done = False

        def select(self):
            return arm

        def update(self, arm, sample):
            raise AssertionError("never reached")

        def result(self):
            return {}

    with pytest.raises(ValueError, match=r"Wrong\.select\(t=1\) returned"):
        run_algorithm(Wrong(), INSTANCE, run_streams(np.random.SeedSequence(7), 0, INSTANCE.k))
