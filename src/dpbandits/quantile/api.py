"""The quantile paper's algorithms from Python: one entry point, :func:`simulate`.

``simulate(algorithm, instance, epsilon, runs, seed, params)`` runs ``runs`` independent runs of
one best-arm identification algorithm on a quantile instance
(:mod:`dpbandits.quantile.instances`: ``make_instance(family, q, a, b, k)`` or a generator such
as ``gauss(...)``) and returns a :class:`QuantileResult`: per run the recommended arm, whether it
is ``correct`` and whether the run was ``censored`` (it reached its cap before identifying an
arm), the sample counts, and ``to_frame()`` for a tidy table (one row per run).

>>> from dpbandits.quantile import make_instance, simulate
>>> inst = make_instance("disc", q=0.4, a=0.2, b=1.0)          # DISC, Delta = 0.2 (Figure 2)
>>> res = simulate("seq", inst, runs=5, seed=1)
>>> res.correct.all(), res.censored.any(), res.delta
(np.True_, np.False_, 0.05)
>>> res.to_frame().columns.tolist()[:6]
['algorithm', 'run', 'k_hat', 'correct', 'censored', 'n_final']

Algorithms (``ALGORITHMS``): ``seq`` (Algorithm 1), ``epoch_seq`` (its non-private epoch
variant), ``dp_seq`` (Algorithm 2, needs epsilon > 0), and the baselines added by the
specification (not in the paper): ``qpac`` (Szorenyi et al., variants strict / v2), ``qlucb``
(David & Shimkin) and ``max_q`` (David & Shimkin). Typed parameters, defaults the workflow's
(the paper never states delta: 0.05 for the non-private algorithms, 0.1 for DP-SEQ, spec 4); an
unknown key raises and names the allowed ones:

>>> simulate("dp_seq", inst, epsilon=1.0, params={"Delta": 0.1})
Traceback (most recent call last):
...
ValueError: unknown parameter(s) 'Delta' for dp_seq; allowed: delta, noise_multiplier

Every run is capped and censored runs are kept (``censored``; ``k_hat = -1``). ``cap``: per-arm
samples for ``seq`` and the baselines (default: :func:`default_cap`, ``cap_factor`` (20) times the
explicit Theorem 4 bound of the smallest gap, as in the workflow; ``max_q``: its own stopping
count), the last epoch for ``epoch_seq`` and ``dp_seq`` (default 30).

Seeds: an int is a root seed, ``derive_seed(seed, "quantile", "api")``; a
:class:`numpy.random.SeedSequence` is used as given (how the workflow calls it). Run r reads the
per-arm reward streams and the noise stream of (seed, r) (:mod:`dpbandits.quantile.streams`), so
every algorithm run with the same seed sees the same reward table (common random numbers).

Bring your own algorithm: ``simulate(MyClass, instance, epsilon, runs, seed, params)`` runs a
class of your own on the same per-run reward streams as the paper's algorithms (common random
numbers), in either form of :mod:`dpbandits.quantile.interface`: an epoch algorithm in the batched
order-statistic form (``next_epoch() -> (arms, n_e) | None``, ``end_epoch(source)`` reading
``source.order_stats(arm, ranks)`` once per arm, ``result()``; subclass
:class:`~dpbandits.quantile.epoch_seq.EpochAlgorithm` for the bookkeeping), which the fast engine
runs at Figure 4's sample sizes (10^6 to 10^8 per run) because it draws only the order statistics
read; or a per-sample class (``select()``, ``update(arm, sample)``, ``done``, ``result()``), one
Python call per sample, for small instances. Its constructor is ``(n_arms, q, epsilon, rng, cap,
**params)`` (``rng``: its own random stream; ``cap``: the last epoch, or per-arm samples), and
``private = False`` as a class attribute marks a non-private one. Every arm, rank and record it
returns is checked where it returns it, with an error naming the class. A private class in the
epoch form gets a black-box audit that searches its own decision boundary, since a fixed small
table gives an algorithm that needs hundreds of samples per arm before its first decision nothing
to reveal (:func:`dpbandits.quantile.checks.class_audit.audit_quantile_class`). The workflow
compares the classes named under ``quantile.extra_algorithms`` with SEQ or DP-SEQ and audits the
private ones (:mod:`dpbandits.quantile.checks.extra`).
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from dpbandits.params import AlgorithmParams, coerce_params
from dpbandits.quantile import dp_seq, epoch_seq, interface, max_q, qlucb, qpac, seq
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.rng import resolve_seed

__all__ = ["simulate", "QuantileResult", "ALGORITHMS", "SEQParams", "EpochSEQParams", "DPSEQParams",
           "QPACParams", "QLUCBParams", "MaxQParams", "default_cap", "CAP_FACTOR", "MAX_EPOCH"]

CAP_FACTOR = 20  # the workflow's quantile.seq.cap_factor (spec B3)
MAX_EPOCH = 30  # the last epoch of the epoch algorithms in every design of the workflow


def _delta_ok(p) -> None:
    p._check("delta", 0 < p.delta < 1, "a number in (0, 1)")


@dataclass(frozen=True)
class SEQParams(AlgorithmParams):
    """Algorithm 1 (SEQ): confidence ``delta`` (the paper never states it; 0.05, spec 4)."""

    algorithm: ClassVar[str] = "seq"
    delta: float = 0.05

    def __post_init__(self) -> None:
        _delta_ok(self)


@dataclass(frozen=True)
class EpochSEQParams(AlgorithmParams):
    """Epoch-SEQ, the non-private epoch variant of SEQ (spec 2.3): confidence ``delta``."""

    algorithm: ClassVar[str] = "epoch_seq"
    delta: float = 0.05

    def __post_init__(self) -> None:
        _delta_ok(self)


@dataclass(frozen=True)
class DPSEQParams(AlgorithmParams):
    """Algorithm 2 (DP-SEQ): confidence ``delta`` (0.1, the spec's for Figure 4 lower);
    ``noise_multiplier`` multiplies its Laplace scale (1: the real mechanism; < 1 only as an
    audit's deliberately broken negative control)."""

    algorithm: ClassVar[str] = "dp_seq"
    delta: float = 0.1
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        _delta_ok(self)
        self._check("noise_multiplier", self.noise_multiplier >= 0, "a number >= 0")


@dataclass(frozen=True)
class QPACParams(AlgorithmParams):
    """QPAC (Szorenyi et al. 2015; a baseline, not in the paper): ``approx_eps`` >= 0 its
    approximation parameter (0: exact identification; not privacy), ``variant`` "strict" or
    "v2" (its two selection rules, spec 6.4)."""

    algorithm: ClassVar[str] = "qpac"
    delta: float = 0.05
    approx_eps: float = 0.0
    variant: str = "strict"

    def __post_init__(self) -> None:
        _delta_ok(self)
        self._check("approx_eps", self.approx_eps >= 0, "a number >= 0")
        self._check("variant", self.variant in qpac.VARIANTS, " or ".join(qpac.VARIANTS))


@dataclass(frozen=True)
class QLUCBParams(AlgorithmParams):
    """QLUCB (David & Shimkin 2016; a baseline): ``approx_eps`` >= 0 (not privacy)."""

    algorithm: ClassVar[str] = "qlucb"
    delta: float = 0.05
    approx_eps: float = 0.0

    def __post_init__(self) -> None:
        _delta_ok(self)
        self._check("approx_eps", self.approx_eps >= 0, "a number >= 0")


@dataclass(frozen=True)
class MaxQParams(AlgorithmParams):
    """Max-Q (David & Shimkin 2016; a baseline): ``approx_eps`` > 0 is required (Max-Q cannot
    identify the exact best arm; the workflow uses half the instance's gap)."""

    algorithm: ClassVar[str] = "max_q"
    delta: float = 0.05
    approx_eps: float | None = None

    def __post_init__(self) -> None:
        _delta_ok(self)
        self._check("approx_eps", self.approx_eps is not None and self.approx_eps > 0,
                    "a number > 0 (Max-Q needs it; e.g. half the instance's smallest gap)")


ALGORITHMS: dict[str, type[AlgorithmParams]] = {p.algorithm: p for p in (
    SEQParams, EpochSEQParams, DPSEQParams, QPACParams, QLUCBParams, MaxQParams)}
_EPOCH = ("epoch_seq", "dp_seq")
ENGINES = ("fast", "reference")

# name -> its fast engine, from (instance, epsilon, typed params, cap, runs, seed[, engine]); the epoch
# algorithms' engine also runs on real sorted samples (engine "reference")
_FAST = {
    "seq": lambda inst, eps, p, cap, runs, seed: seq.simulate_seq(inst, p.delta, cap, runs, seed),
    "epoch_seq": lambda inst, eps, p, cap, runs, seed, engine="fast": epoch_seq.simulate_epoch_seq(
        inst, p.delta, runs, seed, cap, engine),
    "dp_seq": lambda inst, eps, p, cap, runs, seed, engine="fast": dp_seq.simulate_dp_seq(
        inst, eps, p.delta, runs, seed, cap, engine, noise_multiplier=p.noise_multiplier),
    "qpac": lambda inst, eps, p, cap, runs, seed: qpac.simulate_qpac(inst, p.delta, cap, runs, seed, p.approx_eps,
                                                                     p.variant),
    "qlucb": lambda inst, eps, p, cap, runs, seed: qlucb.simulate_qlucb(inst, p.delta, cap, runs, seed, p.approx_eps),
    "max_q": lambda inst, eps, p, cap, runs, seed: max_q.simulate_max_q(inst, p.delta, p.approx_eps, cap, runs, seed),
}


def _fast(name: str, instance, epsilon, p, cap: int, runs: int, seed, engine: str = "fast") -> dict:
    """The records of a paper's algorithm from its engine (``engine`` "reference": the epoch
    algorithms' engine on real sorted samples)."""
    rec = _FAST[name](instance, epsilon, p, cap, runs, seed, *([engine] if name in _EPOCH else []))
    if name in _EPOCH:
        return {"k_hat": rec.k_hat, "terminated": rec.terminated, "n_final": rec.final_epoch, "pulls": rec.pulls,
                "elim": rec.elim_epoch, "guard": rec.guard}
    return {"k_hat": rec.k_hat, "terminated": rec.terminated, "n_final": rec.n_final, "pulls": rec.pulls,
            "elim": rec.elim_n, "guard": rec.guard}


@dataclass(frozen=True, eq=False)
class QuantileResult:
    """Runs of one algorithm on one instance (arrays over runs, and arms).

    ``k_hat``: the recommended arm, -1 if censored; ``correct``: k_hat is the instance's best arm;
    ``censored``: the run hit its cap first (never dropped); ``n_final``: samples per arm at the
    end (``seq``, ``qpac``: rounds), the final epoch (``epoch_seq``, ``dp_seq``) or total pulls
    (``qlucb``, ``max_q``); ``pulls``: (runs, K) samples per arm; ``elim``: (runs, K) round or
    epoch at which each arm was removed (-1 never); ``guard``: how often the all-eliminated guard
    kept the active set. ``params``: the typed parameters (for a class of your own, the mapping it
    was given); ``delta``: nan for a class without a ``delta`` parameter."""

    algorithm: str
    instance: str
    q: float
    best: int
    delta: float
    epsilon: float | None
    cap: int
    k_hat: np.ndarray
    terminated: np.ndarray
    n_final: np.ndarray
    pulls: np.ndarray
    elim: np.ndarray
    guard: np.ndarray
    params: AlgorithmParams | dict

    @property
    def correct(self) -> np.ndarray:
        return self.k_hat == self.best

    @property
    def censored(self) -> np.ndarray:
        return ~self.terminated

    @property
    def total_pulls(self) -> np.ndarray:
        return self.pulls.sum(axis=1)

    @property
    def runs(self) -> int:
        return int(self.k_hat.size)

    def error_rate(self) -> float:
        """Fraction of runs that are not correct (a censored run counts as an error)."""
        return float(np.mean(~self.correct))

    def to_frame(self) -> pd.DataFrame:
        """Tidy table, one row per run: algorithm, run, k_hat, correct, censored, n_final,
        total_pulls, guard and pulls_j per arm."""
        frame = pd.DataFrame({"algorithm": self.algorithm, "run": np.arange(self.runs), "k_hat": self.k_hat,
                              "correct": self.correct, "censored": self.censored, "n_final": self.n_final,
                              "total_pulls": self.total_pulls, "guard": self.guard})
        for j in range(self.pulls.shape[1]):
            frame[f"pulls_{j}"] = self.pulls[:, j]
        return frame


def default_cap(instance: QuantileInstance, delta: float, cap_factor: float = CAP_FACTOR) -> int:
    """The workflow's per-arm cap of SEQ and the baselines: ``cap_factor`` times the explicit
    Theorem 4 bound of the smallest positive gap (spec B3); a zero-gap instance needs an
    explicit cap."""
    gaps = instance.gaps()
    positive = gaps[gaps > 0]
    if positive.size == 0:
        raise ValueError(f"{instance.name} has no positive gap: give cap explicitly")
    return int(cap_factor * seq.explicit_bound(float(positive.min()), instance.k, delta, instance.q))


def _cap(name: str, instance: QuantileInstance, p, cap) -> int:
    if cap is not None:
        if not isinstance(cap, (int, np.integer)) or cap < 1:
            raise ValueError(f"cap must be an int >= 1, got {cap!r}")
        return int(cap)
    if name in _EPOCH:
        return MAX_EPOCH
    if name == "max_q":  # never binding: Max-Q always stops by then
        _, n0, stop = max_q.max_q_constants(instance.k, instance.q, p.delta, p.approx_eps)
        return max(n0, math.ceil(stop)) + 1
    return default_cap(instance, p.delta)


def _check_run_arguments(instance, runs, engine) -> None:
    if not isinstance(instance, QuantileInstance):
        raise ValueError("instance must be a QuantileInstance (dpbandits.quantile.make_instance)")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if not isinstance(runs, (int, np.integer)) or runs < 1:
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")


def _simulate_class(cls: type, instance, epsilon, runs, seed, params, cap, engine) -> QuantileResult:
    """:func:`simulate` of a researcher's class (:mod:`dpbandits.quantile.interface`: an epoch
    algorithm in the batched order-statistic form, or a per-sample one)."""
    problems = interface.class_problems(cls)
    if problems:
        raise ValueError(f"{cls.__name__} does not implement the quantile family's protocol "
                         f"(dpbandits.quantile.interface): {'; '.join(problems)}")
    _check_run_arguments(instance, runs, engine)
    p = interface.class_params(cls, params)
    if getattr(cls, "private", True):
        if epsilon is None or not np.isfinite(epsilon) or not epsilon > 0:
            raise ValueError(f"{cls.__name__} is private: epsilon must be > 0 and finite, got {epsilon!r}")
        epsilon = float(epsilon)
    declared = inspect.signature(cls.__init__).parameters.get("delta")
    delta = p.get("delta", declared.default if declared is not None else math.nan)
    delta = float(delta) if isinstance(delta, (int, float)) else math.nan  # the class's confidence, if it has one
    if cap is None:
        if interface.class_form(cls) == "epochs":
            cap = MAX_EPOCH
        elif math.isfinite(delta):
            cap = default_cap(instance, delta)
        else:
            raise ValueError(f"{cls.__name__}: give cap (per-arm samples), or a delta parameter for the default cap")
    elif not isinstance(cap, (int, np.integer)) or cap < 1:
        raise ValueError(f"cap must be an int >= 1, got {cap!r}")
    seed = resolve_seed(seed, "quantile", "api")
    rec = interface.run_class(cls, instance, epsilon, p, int(cap), int(runs), seed, engine)
    return QuantileResult(cls.__name__, instance.name, instance.q, instance.best, delta, epsilon, int(cap),
                          rec["k_hat"], rec["terminated"], rec["n_final"], rec["pulls"], rec["elim"], rec["guard"], p)


def simulate(algorithm: str | type, instance: QuantileInstance, epsilon: float | None = None, runs: int = 1,
             seed=0, params=None, *, cap: int | None = None, engine: str = "fast") -> QuantileResult:
    """Simulate ``runs`` independent runs of ``algorithm`` on ``instance`` (module docstring).

    ``epsilon``: the privacy parameter of ``dp_seq`` (> 0, finite); the other algorithms are not
    private and take None. ``params``: a mapping or the algorithm's dataclass. ``cap``: per-arm
    samples or last epoch (module docstring). ``engine``: "fast" or "reference": for SEQ and the
    baselines, the algorithm's per-sample class (:mod:`dpbandits.quantile.interface`, one Python
    call per sample: the same records as the fast engine on the same streams); for the epoch
    algorithms, their engine on real sorted samples (the records of their per-sample class, field
    by field, without a Python call per sample; equal to the fast engine's in distribution).
    """
    if isinstance(algorithm, type):
        return _simulate_class(algorithm, instance, epsilon, runs, seed, params, cap, engine)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}, or a class of your own "
                         "(dpbandits.quantile.interface)")
    _check_run_arguments(instance, runs, engine)
    p = coerce_params(ALGORITHMS[algorithm], params)
    if algorithm == "dp_seq":
        if epsilon is None or not np.isfinite(epsilon) or not epsilon > 0:
            raise ValueError(f"dp_seq is private: epsilon must be > 0 and finite, got {epsilon!r}")
        epsilon = float(epsilon)
    elif epsilon is not None:
        raise ValueError(f"{algorithm} is not private: epsilon must be None, got {epsilon!r}")
    runs, seed = int(runs), resolve_seed(seed, "quantile", "api")
    cap = _cap(algorithm, instance, p, cap)
    if engine == "fast" or algorithm in _EPOCH:
        # the epoch algorithms' reference is their engine on real sorted samples: the records of their
        # per-sample class field by field (tests/test_quantile_family.py), without a Python call per sample
        rec = _fast(algorithm, instance, epsilon, p, cap, runs, seed, engine)
    else:
        rec = interface.run_reference(algorithm, instance, epsilon, p, cap, runs, seed)
    return QuantileResult(algorithm, instance.name, instance.q, instance.best, p.delta, epsilon, cap,
                          rec["k_hat"], rec["terminated"], rec["n_final"], rec["pulls"], rec["elim"], rec["guard"], p)
