"""One protocol for the quantile paper's family of algorithms (best-arm identification of the arm
with the largest q-quantile), which every algorithm of the family implements: the paper's SEQ
(Algorithm 1), its epoch variant and DP-SEQ (Algorithm 2), and the specification's baselines
QPAC, QLUCB and Max-Q.

**Protocol** (:class:`QuantileAlgorithm`), one sample at a time::

    alg.select() -> int          # the arm to sample next (asked only while not alg.done)
    alg.update(arm, sample)      # that arm's sample
    alg.done                     # it has stopped: one arm identified, or its cap reached (censored)
    alg.result() -> dict         # k_hat (-1 when censored), terminated, n_final, pulls and elim per
                                 # arm, guard (the fields of dpbandits.quantile.api.QuantileResult)

and states its privacy as attributes: ``private``, ``mechanism`` (what is released, with which
noise), ``sensitivity`` (of a released statistic when one sample changes).

**Runner** (:func:`run_algorithm`): arm k's c-th sample is the c-th draw of arm k's own stream
(:func:`dpbandits.quantile.streams.run_streams`), whatever the order of the requests, exactly as
every engine of the family reads its samples. So two algorithms run on one seed see the same
reward table, and each per-sample class below gives its fast engine's record exactly on the same
streams (the epoch algorithms: their engines with the reference source, which reads sorted
samples; their fast source draws the order statistics directly and agrees in distribution);
``tests/test_quantile_family.py`` holds every algorithm to the protocol's invariants and to its
engine.

The epoch algorithms (Epoch-SEQ, DP-SEQ) are written once, in their batched, order-statistic
form (:class:`dpbandits.quantile.epoch_seq.EpochAlgorithm`: each epoch asks for n_e fresh samples
of every active arm and reads a few order statistics of them), which their engines run on a source
(the fast one draws the order statistics directly, so Figure 4's sample sizes stay within reach)
and :class:`~dpbandits.quantile.epoch_seq.PerSample` runs one sample at a time.

**Table** (:data:`REFERENCES`): each algorithm in the per-sample protocol, built from the
arguments of :func:`dpbandits.quantile.api.simulate` (:func:`run_reference` runs it; for SEQ and the
baselines so does ``simulate(..., engine="reference")``, which runs the epoch algorithms' engine on
real sorted samples instead: the same records, field by field, without a call per sample).

**A researcher's own class** goes through the same door, in either form (:func:`run_class`,
from :func:`dpbandits.quantile.api.simulate`): an epoch algorithm in the batched form reaches
Figure 4's sample sizes; every arm, rank and record it returns is checked where it returns it
(:class:`CheckedSource`). The workflow runs the classes named under ``quantile.extra_algorithms``
beside SEQ or DP-SEQ and audits a private one in the epoch form
(:mod:`dpbandits.quantile.checks.extra`; the audit searches the class's decision boundary,
:mod:`dpbandits.quantile.checks.class_audit`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import numpy as np

from dpbandits.quantile.dp_seq import DPSEQ
from dpbandits.quantile.epoch_seq import EpochSEQ, PerSample, run_epochs
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.max_q import MaxQReference
from dpbandits.quantile.qlucb import QLUCBReference
from dpbandits.quantile.qpac import QPACReference
from dpbandits.quantile.seq import SEQReference
from dpbandits.quantile.sources import OrderStatSource, SampleSource
from dpbandits.quantile.streams import noise_stream, run_streams
from dpbandits.sim.reference import checked_arm, constructor_problems, keyword_params, raised_in

__all__ = ["QuantileAlgorithm", "run_algorithm", "REFERENCES", "RESULT_FIELDS", "reference_for", "run_reference", "REQUIRED_ARGS",
           "class_form", "class_problems", "class_params", "CheckedSource", "run_class"]

RESULT_FIELDS = ("k_hat", "terminated", "n_final", "pulls", "elim", "guard")


@runtime_checkable
class QuantileAlgorithm(Protocol):
    """The per-sample protocol of the quantile family (module docstring)."""

    done: bool

    def select(self) -> int:
        """The arm to sample next."""
        ...

    def update(self, arm: int, sample: float) -> None:
        """The sample of the arm :meth:`select` named."""
        ...

    def result(self) -> dict:
        """The run's record: :data:`RESULT_FIELDS`."""
        ...


def run_algorithm(algorithm: QuantileAlgorithm, instance: QuantileInstance,
                  streams: list[np.random.Generator], who: str = "") -> dict:
    """Drive one run of ``algorithm`` on ``instance`` until it is done: each requested sample is
    the next draw of the arm's own stream (module docstring). Every arm it names is checked (an
    integer in [0, K - 1]) where it names it (errors name ``who``, by default its class)."""
    who = who or type(algorithm).__name__
    n = 0
    while not algorithm.done:
        n += 1
        with raised_in(who, "select()", n, "sample"):
            arm = algorithm.select()
        arm = checked_arm(arm, instance.k, who, n)
        sample = float(instance.sample(arm, streams[arm].random()))
        with raised_in(who, "update(arm, sample)", n, "sample"):
            algorithm.update(arm, sample)
    with raised_in(who, "result()", n, "sample"):
        return algorithm.result()


def _seq(instance, epsilon, p, cap, noise):
    return SEQReference(instance.k, instance.q, p.delta, cap)


def _epoch_seq(instance, epsilon, p, cap, noise):
    return PerSample(EpochSEQ(instance.k, instance.q, p.delta, cap))


def _dp_seq(instance, epsilon, p, cap, noise):
    return PerSample(DPSEQ(instance.k, instance.q, p.delta, epsilon, noise, cap, p.noise_multiplier))


def _qpac(instance, epsilon, p, cap, noise):
    return QPACReference(instance.k, instance.q, p.delta, cap, p.approx_eps, p.variant)


def _qlucb(instance, epsilon, p, cap, noise):
    return QLUCBReference(instance.k, instance.q, p.delta, cap, p.approx_eps)


def _max_q(instance, epsilon, p, cap, noise):
    return MaxQReference(instance.k, instance.q, p.delta, cap, p.approx_eps)


# name -> the per-sample class of run r, from (instance, epsilon, typed params, cap, run r's noise stream)
REFERENCES: dict[str, Callable[..., QuantileAlgorithm]] = {
    "seq": _seq, "epoch_seq": _epoch_seq, "dp_seq": _dp_seq, "qpac": _qpac, "qlucb": _qlucb, "max_q": _max_q,
}


def reference_for(name: str) -> Callable[..., QuantileAlgorithm]:
    if name not in REFERENCES:
        raise ValueError(f"unknown algorithm {name!r}; allowed: {', '.join(REFERENCES)}")
    return REFERENCES[name]


def _arrays(rows: list[dict]) -> dict:
    """Per-run records as arrays over runs (and arms), one per field of :data:`RESULT_FIELDS`."""
    return {f: np.array([row[f] for row in rows], dtype=bool if f == "terminated" else np.int64)
            for f in RESULT_FIELDS}


def run_reference(name: str, instance: QuantileInstance, epsilon, params, cap: int, runs: int,
                  seed: np.random.SeedSequence) -> dict:
    """Every run of a paper's algorithm in the per-sample protocol (:data:`REFERENCES`) on the
    streams of (seed, r), as the fast engines read them."""
    build = reference_for(name)
    return _arrays([run_algorithm(build(instance, epsilon, params, cap, noise_stream(seed, r)), instance,
                                  run_streams(seed, r, instance.k)) for r in range(runs)])


# ---------------------------------------------------------------------------------------------
# A researcher's own algorithm (dpbandits.quantile.simulate(MyClass, ...))

REQUIRED_ARGS = ("n_arms", "q", "epsilon", "rng", "cap")
_EPOCH_METHODS = ("next_epoch", "end_epoch", "result")
_SAMPLE_METHODS = ("select", "update", "result")


def class_form(cls) -> str:
    """"epochs" (the batched order-statistic form of
    :class:`~dpbandits.quantile.epoch_seq.EpochAlgorithm`), "samples" (the per-sample protocol)
    or "" (neither)."""
    if all(callable(getattr(cls, m, None)) for m in _EPOCH_METHODS):
        return "epochs"
    if all(callable(getattr(cls, m, None)) for m in _SAMPLE_METHODS):
        return "samples"
    return ""


def class_problems(cls) -> list[str]:
    """What keeps a researcher's class from the family's door (empty if nothing): one of the two
    forms, and a constructor ``(n_arms, q, epsilon, rng, cap, **its parameters)``."""
    problems = []
    if not class_form(cls):
        problems.append(f"it has neither the epoch methods ({', '.join(_EPOCH_METHODS)}) nor the per-sample ones "
                        f"({', '.join(_SAMPLE_METHODS)})")
    return [*problems, *constructor_problems(cls, REQUIRED_ARGS)]


def class_params(cls, params) -> dict:
    """``params`` (a mapping, or None) checked against the keyword parameters of ``cls`` after
    :data:`REQUIRED_ARGS`: an unknown key is an error naming the allowed ones."""
    return keyword_params(cls, params, REQUIRED_ARGS)


class CheckedSource:
    """The source a researcher's epoch algorithm reads, checked where it is used: an epoch names
    distinct arms in [0, K - 1] and n_e >= 1 fresh samples of each (at most ``max_epochs``
    epochs), and reads each arm's order statistics once per epoch at strictly increasing ranks in
    [1, n_e] (a second read of the fast source would draw other order statistics of the same
    samples). It counts the samples asked of every arm (the record's pulls)."""

    def __init__(self, source, who: str, k: int, max_epochs: int):
        self.source, self.who, self.k, self.max_epochs = source, who, k, max_epochs
        self.pulls = [0] * k
        self.epochs = 0
        self.arms: set[int] = set()
        self.read: set[int] = set()
        self.exact_window = source.exact_window

    def epoch(self, arms, n_e) -> None:
        self.epochs += 1
        where = f"{self.who}.next_epoch() (epoch {self.epochs})"
        if self.epochs > self.max_epochs:
            raise ValueError(f"{where}: more epochs than its cap {self.max_epochs}; it must return None by then")
        arms = list(arms)
        if (not arms or len(set(arms)) != len(arms)
                or any(isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) or not 0 <= a < self.k
                       for a in arms)):
            raise ValueError(f"{where} asked for arms {arms!r}; allowed: distinct integer arms in [0, {self.k - 1}]")
        if isinstance(n_e, (bool, np.bool_)) or not isinstance(n_e, (int, np.integer)) or n_e < 1:
            raise ValueError(f"{where} asked for n_e = {n_e!r} samples; allowed: an integer >= 1")
        self.n_e, self.arms, self.read = int(n_e), {int(a) for a in arms}, set()
        for a in self.arms:
            self.pulls[a] += self.n_e
        self.source.epoch(sorted(self.arms), self.n_e)

    def order_stats(self, arm, ranks) -> np.ndarray:
        where = f"{self.who}.end_epoch (epoch {self.epochs})"
        if arm not in self.arms:
            raise ValueError(f"{where} read arm {arm!r}, which the epoch did not sample ({sorted(self.arms)})")
        if arm in self.read:
            raise ValueError(f"{where} read arm {arm}'s order statistics twice; read every rank it needs in one call")
        r = np.asarray(ranks)
        if r.ndim != 1 or r.dtype.kind not in "iu" or (r.size and (r[0] < 1 or r[-1] > self.n_e
                                                                    or np.any(np.diff(r) <= 0))):
            raise ValueError(f"{where} asked arm {arm} for ranks {r!r}; allowed: strictly increasing integers in "
                             f"[1, n_e = {self.n_e}]")
        self.read.add(arm)
        return self.source.order_stats(arm, r)


class _CountingStream:
    def __init__(self, rng: np.random.Generator):
        self.rng, self.draws = rng, 0

    def random(self) -> float:
        self.draws += 1
        return self.rng.random()


def _checked_record(out, who: str, k: int, pulls: list[int]) -> dict:
    """A researcher's ``result()`` with the samples the runner counted as its pulls."""
    if not isinstance(out, Mapping) or any(f not in out for f in ("k_hat", "terminated", "n_final")):
        raise ValueError(f"{who}.result() must return a mapping with k_hat, terminated and n_final; got {out!r}")
    k_hat, terminated = out["k_hat"], out["terminated"]
    if isinstance(k_hat, (bool, np.bool_)) or not isinstance(k_hat, (int, np.integer)) or not -1 <= k_hat < k:
        raise ValueError(f"{who}.result() gave k_hat = {k_hat!r}; allowed: an integer arm in [0, {k - 1}], or -1")
    if bool(terminated) != (k_hat >= 0):
        raise ValueError(f"{who}.result() gave terminated = {terminated!r} with k_hat = {k_hat}; a run terminates "
                         "exactly when it names an arm")
    elim = list(out.get("elim", [-1] * k))
    if len(elim) != k:
        raise ValueError(f"{who}.result() gave elim of length {len(elim)}; expected one entry per arm ({k})")
    return {"k_hat": int(k_hat), "terminated": bool(terminated), "n_final": int(out["n_final"]), "pulls": pulls,
            "elim": [int(e) for e in elim], "guard": int(out.get("guard", 0))}


def run_class(cls, instance: QuantileInstance, epsilon: float | None, params: Mapping, cap: int, runs: int,
              seed: np.random.SeedSequence, engine: str) -> dict:
    """``runs`` runs of a researcher's class (its form, :func:`class_form`) on the streams of
    (seed, r), as the paper's algorithms read them: an epoch algorithm on the fast
    order-statistic source or the sorted samples (``engine``), through :class:`CheckedSource`; a
    per-sample one sample by sample (:func:`run_algorithm`; at most ``cap`` samples per arm). Its own
    randomness (``rng``) is run r's noise stream. The record's pulls are the samples the runner
    counted."""
    who, k, form = cls.__name__, instance.k, class_form(cls)
    rows = []
    for r in range(runs):
        streams = run_streams(seed, r, k)
        alg = cls(k, instance.q, epsilon, noise_stream(seed, r), cap, **params)
        if form == "epochs":
            source = CheckedSource((OrderStatSource if engine == "fast" else SampleSource)(instance, streams), who, k,
                                   cap)
            out, pulls = run_epochs(alg, source), source.pulls
        else:
            counting = [_CountingStream(s) for s in streams]
            run_algorithm(_Capped(alg, k, cap), instance, counting, who)
            out, pulls = alg.result(), [s.draws for s in counting]
        rows.append(_checked_record(out, who, k, pulls))
    return _arrays(rows)


class _Capped:
    """A per-sample class held to its cap: at most ``cap`` samples of any arm."""

    def __init__(self, algorithm, k: int, cap: int):
        self.algorithm, self.cap, self.counts = algorithm, cap, [0] * k

    @property
    def done(self) -> bool:
        return bool(self.algorithm.done)

    def select(self) -> int:
        return self.algorithm.select()

    def update(self, arm: int, sample: float) -> None:
        if self.counts[arm] >= self.cap:
            raise ValueError(f"{type(self.algorithm).__name__}.select() asked for sample {self.cap + 1} of arm {arm}, "
                             f"beyond its cap of {self.cap} per arm, without setting done")
        self.counts[arm] += 1
        self.algorithm.update(arm, sample)

    def result(self) -> dict:
        return self.algorithm.result()
