"""The quantile family behind one protocol (dpbandits.quantile.interface): every algorithm of the
family (the paper's SEQ, Epoch-SEQ and DP-SEQ, the specification's QPAC, QLUCB and Max-Q) has a
per-sample class that implements the protocol, states its privacy, keeps the protocol's
invariants on a run, and gives its fast engine's record exactly on the same reward streams (the
epoch algorithms: their engine on real sorted samples)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.online.interface import load_algorithm
from dpbandits.params import coerce_params
from dpbandits.quantile import dp_seq, epoch_seq, make_instance, seq
from dpbandits.quantile.api import ALGORITHMS, simulate
from dpbandits.quantile.epoch_seq import EpochAlgorithm
from dpbandits.quantile.interface import (
    REFERENCES,
    RESULT_FIELDS,
    QuantileAlgorithm,
    run_algorithm,
    run_reference,
)
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
    source draws the order statistics directly and agrees in distribution). ``simulate(...,
    engine="reference")`` gives those records: the per-sample class's for SEQ and the baselines,
    the engine on sorted samples for the epoch algorithms."""
    eps, params = EPSILON.get(name), PARAMS.get(name)
    api = simulate(name, INSTANCE, eps, runs=4, seed=6, params=params, engine="reference")
    seed = derive_seed(6, "quantile", "api")
    per_sample = run_reference(name, INSTANCE, eps, api.params, api.cap, 4, seed)
    if name in ("epoch_seq", "dp_seq"):
        rec = (dp_seq.simulate_dp_seq(INSTANCE, eps, api.delta, 4, seed, api.cap, engine="reference")
               if name == "dp_seq" else epoch_seq.simulate_epoch_seq(INSTANCE, api.delta, 4, seed, api.cap,
                                                                     engine="reference"))
        engine = {"k_hat": rec.k_hat, "terminated": rec.terminated, "n_final": rec.final_epoch, "pulls": rec.pulls,
                  "elim": rec.elim_epoch, "guard": rec.guard}
    else:
        fast = simulate(name, INSTANCE, eps, runs=4, seed=6, params=params)
        engine = {f: getattr(fast, f) for f in RESULT_FIELDS}
    for field in RESULT_FIELDS:
        assert np.array_equal(per_sample[field], engine[field]), field
        assert np.array_equal(getattr(api, field), engine[field]), field


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


# ---------------------------------------------------------------------------------------------
# A researcher's own class through the same door (dpbandits.quantile.simulate(MyClass, ...))


class MyDPSEQ(EpochAlgorithm):
    """DP-SEQ as a researcher would write it in the batched form, from the library's pieces."""

    private = True

    def __init__(self, n_arms, q, epsilon, rng, cap, *, delta=0.1, leak=1.0):
        self.inner = dp_seq.DPSEQ(n_arms, q, delta, epsilon, rng, cap, noise_multiplier=leak)

    def next_epoch(self):
        return self.inner.next_epoch()

    def end_epoch(self, source):
        self.inner.end_epoch(source)

    def result(self):
        return self.inner.result()


class MySEQ:
    """SEQ as a researcher's per-sample class."""

    private = False

    def __init__(self, n_arms, q, epsilon, rng, cap, *, delta=0.05):
        self.inner = seq.SEQReference(n_arms, q, delta, cap)

    @property
    def done(self):
        return self.inner.done

    def select(self):
        return self.inner.select()

    def update(self, arm, sample):
        self.inner.update(arm, sample)

    def result(self):
        return self.inner.result()


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("mine, paper, eps", [(MyDPSEQ, "dp_seq", 4.0), (MySEQ, "seq", None)])
def test_a_researchers_class_runs_on_the_papers_streams(mine, paper, eps, engine):
    """Written from the same pieces, a researcher's class gives the paper's algorithm's records
    exactly: the same reward streams (common random numbers), its own stream the run's noise."""
    ours = simulate(mine, INSTANCE, eps, runs=4, seed=8, engine=engine)
    theirs = simulate(paper, INSTANCE, eps, runs=4, seed=8, engine=engine)
    for field in RESULT_FIELDS:
        assert np.array_equal(getattr(ours, field), getattr(theirs, field)), field
    assert ours.algorithm == mine.__name__ and ours.delta == theirs.delta


def test_a_researchers_epoch_class_reaches_figure_4s_sample_sizes():
    out = simulate(MyDPSEQ, make_instance("logn10", q=0.9), 0.1, runs=1, seed=9)
    assert out.total_pulls[0] > 10**6 and out.correct[0]  # about 4e6 samples, drawn as a few order statistics


def test_a_leaky_researchers_class_is_run_as_written_and_its_parameters_kept():
    """The door runs what it is given: noise shrunk 1000-fold is not refused (its privacy is for
    the audit to judge, dpbandits.quantile.checks.class_audit), and the parameters it ran with
    stay on the result."""
    leaky = simulate(MyDPSEQ, INSTANCE, 4.0, runs=2, seed=10, params={"leak": 1e-3})
    assert leaky.params == {"leak": 1e-3} and leaky.delta == 0.1 and leaky.epsilon == 4.0


def _epoch_class(next_epoch=None, end_epoch=None, result=None):
    class Broken(MyDPSEQ):
        pass

    for name, fn in (("next_epoch", next_epoch), ("end_epoch", end_epoch), ("result", result)):
        if fn is not None:
            setattr(Broken, name, fn)
    return Broken


@pytest.mark.parametrize("broken, message", [
    (_epoch_class(end_epoch=lambda self, src: [src.order_stats(0, [1]), src.order_stats(0, [2])]),
     r"Broken.end_epoch \(epoch 1\) read arm 0's order statistics twice"),
    (_epoch_class(end_epoch=lambda self, src: src.order_stats(0, [5, 3])), r"ranks .*strictly increasing"),
    (_epoch_class(end_epoch=lambda self, src: src.order_stats(7, [1])), r"read arm 7, which the epoch did not sample"),
    (_epoch_class(next_epoch=lambda self: ([0, 0], 10)), r"Broken.next_epoch\(\) \(epoch 1\) asked for arms \[0, 0\]"),
    (_epoch_class(next_epoch=lambda self: ([0, 1], 2.5)), r"asked for n_e = 2.5 samples"),
    (_epoch_class(next_epoch=lambda self: ([0, 1], 10), end_epoch=lambda self, src: None),
     r"more epochs than its cap 30"),
    (_epoch_class(result=lambda self: {"k_hat": 5, "terminated": True, "n_final": 1}), r"k_hat = 5"),
    (_epoch_class(result=lambda self: {"k_hat": 0, "terminated": False, "n_final": 1}), r"terminates exactly"),
])
def test_misuse_of_the_door_is_caught_where_it_happens(broken, message):
    with pytest.raises(ValueError, match=message):
        simulate(broken, INSTANCE, 4.0, runs=1, seed=11)


def test_a_class_that_does_not_fit_is_refused_before_any_run():
    class NoForm:
        def __init__(self, n_arms, q, epsilon, rng, cap):
            pass

    class BadInit(MySEQ):
        def __init__(self, k, q, delta):
            pass

    class Endless(MySEQ):
        done = False

        def __init__(self, n_arms, q, epsilon, rng, cap):
            pass

        def select(self):
            return 0

        def update(self, arm, sample):
            pass

    with pytest.raises(ValueError, match="neither the epoch methods"):
        simulate(NoForm, INSTANCE, None, runs=1)
    with pytest.raises(ValueError, match=r"must start with \(n_arms, q, epsilon, rng, cap\)"):
        simulate(BadInit, INSTANCE, None, runs=1)
    with pytest.raises(ValueError, match="unknown parameter.*'Delta' for MySEQ; allowed: delta"):
        simulate(MySEQ, INSTANCE, None, runs=1, params={"Delta": 0.1})
    with pytest.raises(ValueError, match="MyDPSEQ is private: epsilon must be > 0"):
        simulate(MyDPSEQ, INSTANCE, None, runs=1)
    with pytest.raises(ValueError, match=r"give cap"):
        simulate(Endless, INSTANCE, None, runs=1)
    with pytest.raises(ValueError, match=r"Endless.select\(\) asked for sample 11 of arm 0, beyond its cap of 10"):
        simulate(Endless, INSTANCE, None, runs=1, cap=10)


def test_the_example_algorithm_is_delta_pac_and_not_private():
    """examples/quantile_algorithms.py: DKW racing names the best arm in every one of 60 runs on
    DISC (Delta = 0.2) and on a three-arm Gaussian instance, each run terminating (delta = 0.05:
    an error rate above 5% would be seen with about 95% probability in 60 runs); it states it is
    not private, and a run with no separation yet is censored at its cap, not wrong."""
    cls = load_algorithm("examples/quantile_algorithms.py:DKWRacing")
    assert cls.private is False and cls.mechanism.startswith("none")
    for inst in (make_instance("disc", q=0.4, a=0.2, b=1.0), make_instance("gauss", q=0.8, a=1.0, b=0.5, k=3)):
        res = simulate(cls, inst, None, runs=60, seed=4)
        assert res.correct.all() and not res.censored.any()
    short = simulate(cls, make_instance("disc", q=0.4, a=0.2, b=1.0), None, runs=2, seed=4, cap=5)
    assert short.censored.all() and (short.k_hat == -1).all()


class _FailsLate(MySEQ):
    def update(self, arm, sample):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 6:
            raise ZeroDivisionError("a bug of the researcher's")
        super().update(arm, sample)


class _EpochFails(MyDPSEQ):
    def end_epoch(self, source):
        self.epochs = getattr(self, "epochs", 0) + 1
        if self.epochs == 2:
            raise KeyError("a bug of the researcher's")
        super().end_epoch(source)


@pytest.mark.parametrize(("cls", "eps", "note"), [
    (_FailsLate, None, "raised in _FailsLate.update(arm, sample) at sample 6"),
    (_EpochFails, 4.0, "raised in _EpochFails.end_epoch(source) at epoch 2"),
])
def test_an_error_inside_a_researchers_class_says_which_method_and_when(cls, eps, note):
    with pytest.raises((ZeroDivisionError, KeyError)) as caught:
        simulate(cls, INSTANCE, eps, runs=1, seed=1)
    assert caught.value.__notes__ == [note]
