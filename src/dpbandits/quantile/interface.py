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

and states its privacy as class attributes: ``private``, ``mechanism`` (what is released, with
which noise), ``sensitivity`` (of a released statistic when one sample changes).

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
arguments of :func:`dpbandits.quantile.api.simulate` (``simulate(..., engine="reference")`` runs it).

Why a researcher's own class does not plug in here yet: see :mod:`dpbandits.quantile.api` (one
Python call per sample cannot reach Figure 4's private sample sizes, and a black-box audit must
sit at the algorithm's own decision boundary).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from dpbandits.quantile.dp_seq import DPSEQ
from dpbandits.quantile.epoch_seq import EpochSEQ, PerSample
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.max_q import MaxQReference
from dpbandits.quantile.qlucb import QLUCBReference
from dpbandits.quantile.qpac import QPACReference
from dpbandits.quantile.seq import SEQReference
from dpbandits.sim.reference import checked_arm

__all__ = ["QuantileAlgorithm", "run_algorithm", "REFERENCES", "RESULT_FIELDS", "reference_for"]

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
                  streams: list[np.random.Generator]) -> dict:
    """Drive one run of ``algorithm`` on ``instance`` until it is done: each requested sample is
    the next draw of the arm's own stream (module docstring). Every arm it names is checked (an
    integer in [0, K - 1]) where it names it."""
    who = type(algorithm).__name__
    n = 0
    while not algorithm.done:
        n += 1
        arm = checked_arm(algorithm.select(), instance.k, who, n)
        algorithm.update(arm, float(instance.sample(arm, streams[arm].random())))
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
