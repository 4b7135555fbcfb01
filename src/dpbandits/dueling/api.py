"""The dueling paper's algorithms from Python: one entry point, :func:`simulate`.

``simulate(algorithm, instance, epsilon, horizon, runs, seed, params)`` runs ``runs``
independent runs of one dueling-bandit algorithm on a preference instance
(:mod:`dpbandits.dueling.instances`: ``f1(K)``, ..., ``g1(M)``, ...) and returns a
:class:`DuelingResult`: cumulative pseudo-regret in both units of the spec (preference and
utility) at the checkpoints (by default only at the horizon), the engine's own result as ``raw``
(per-run diagnostics), and ``to_frame()`` for a tidy table.

>>> from dpbandits.dueling import f1, simulate
>>> res = simulate("dp_ebs_elimination", f1(4), epsilon=1.0, horizon=20_000, runs=3, seed=1)
>>> res.regret_pref.shape, res.to_frame().columns.tolist()
((3, 1), ['algorithm', 'epsilon', 'run', 't', 'regret_pref', 'regret_util'])

Algorithms (``ALGORITHMS``): ``dp_ebs_elimination`` (Algorithm 1; parameters: the fields of
:class:`~dpbandits.dueling.ebs_params.EBSConfig` but epsilon, e.g. ``variant`` r1 / literal /
naive / nonprivate / ldp, ``width``, ``delta``), ``goptimal_dpdb`` (Algorithm 2 on a
:class:`~dpbandits.dueling.instances.LinearInstance`; the fields of
:class:`~dpbandits.dueling.goptimal_dpdb.GOptConfig` but epsilon; ``horizon`` may be a list: each
horizon is its own run of the algorithm, under common random numbers), and the non-private
baselines ``rucb``, ``rcs``, ``if2``, ``doubler`` and ``maxinp`` (parameter ``kappa_mode``). The
defaults are the specification's faithful configuration; an unknown key raises:

>>> simulate("dp_ebs_elimination", f1(4), 1.0, 1000, params={"Variant": "r1"})
Traceback (most recent call last):
...
ValueError: unknown parameter(s) 'Variant' for dp_ebs_elimination; allowed: variant, delta, width, width_scale, counter_share, noise_multiplier, audit_rho

``algorithm`` may also be a class of your own in the family's protocol
(:mod:`dpbandits.dueling.interface`: ``select() -> (left, right)``, ``update(left, right,
left_won)``, a constructor ``(n_arms, epsilon, horizon, rng, **params)``): it runs on the same
instance and seeds, its duels checked where it returns them, ``raw`` the list of its runs
(:class:`~dpbandits.dueling.interface.DuelRun`). Its black-box audit is
:func:`dpbandits.dueling.checks.class_audit.audit_dueling_class`; ``dpbandits simulate`` /
``dpbandits audit FILE:Class --family dueling`` run both from the command line, and the workflow
runs them for the classes named under ``dueling.extra_algorithms``
(:mod:`dpbandits.dueling.checks.extra`).

``epsilon`` None means non-private (inf): the baselines take None; ``goptimal_dpdb`` and the
``nonprivate`` variant of Algorithm 1 accept it. Seeds: an int is a root seed,
``derive_seed(seed, "dueling", "api")``; a :class:`numpy.random.SeedSequence` is used as given
(how the workflow calls it). Each engine derives its runs' streams from it (module docstrings of
:mod:`.ebs_result`, :mod:`.goptimal_dpdb` and the baselines).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.dueling.baseline_result import check_checkpoints, finite_view
from dpbandits.dueling.instances import FiniteInstance, LinearInstance
from dpbandits.rng import resolve_seed
from dpbandits.sim.reference import class_run_arguments

__all__ = ["simulate", "DuelingResult", "ALGORITHMS", "config_for"]

ALGORITHMS = ("dp_ebs_elimination", "goptimal_dpdb", "rucb", "rcs", "if2", "doubler", "maxinp")
_BASELINE_PARAMS = {"maxinp": {"kappa_mode": "thm"}}  # the baselines' parameters and defaults


def _check_keys(name: str, params: Mapping, allowed) -> None:
    unknown = sorted(k for k in params if k not in allowed)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(map(repr, unknown))} for {name}; "
                         f"allowed: {', '.join(allowed) if allowed else 'none (no parameters)'}")


def config_for(algorithm: str, epsilon: float | None, params=None):
    """The typed configuration of Algorithm 1 or 2 (:class:`EBSConfig` / :class:`GOptConfig`)
    from ``epsilon`` and ``params`` (a mapping of its other fields, or the config itself)."""
    if algorithm == "dp_ebs_elimination":
        from dpbandits.dueling.ebs_params import EBSConfig as kind
    else:  # the engines are imported when used (Algorithm 2 imports the design solvers)
        from dpbandits.dueling.goptimal_dpdb import GOptConfig as kind
    eps = math.inf if epsilon is None else float(epsilon)
    if isinstance(params, kind):
        return dataclasses.replace(params, epsilon=eps)
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"params for {algorithm} must be a mapping or a {kind.__name__}")
    params = dict(params or {})
    _check_keys(algorithm, params, [f.name for f in dataclasses.fields(kind) if f.name != "epsilon"])
    return kind(epsilon=eps, **params)


@dataclass(frozen=True, eq=False)
class DuelingResult:
    """Runs of one algorithm: ``regret_pref`` / ``regret_util`` (runs, checkpoints) cumulative
    pseudo-regret in preference and utility units at ``checkpoints`` (``goptimal_dpdb``: at each
    horizon, each its own run); ``raw``: the engine's result (EBSResult, GOptResult or
    BaselineResult) with every per-run diagnostic, or the list of
    :class:`~dpbandits.dueling.interface.DuelRun` of runs in the family's protocol (a baseline's
    reference, a class of your own); ``config``: the typed configuration (a parameter mapping)."""

    algorithm: str
    instance: str
    epsilon: float
    checkpoints: np.ndarray
    regret_pref: np.ndarray
    regret_util: np.ndarray
    raw: object
    config: object

    @property
    def runs(self) -> int:
        return int(self.regret_pref.shape[0])

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: one row per run and checkpoint (algorithm, epsilon, run, t, regret_pref,
        regret_util)."""
        n, c = self.regret_pref.shape
        return pd.DataFrame({"algorithm": self.algorithm, "epsilon": self.epsilon,
                             "run": np.repeat(np.arange(n), c), "t": np.tile(self.checkpoints, n),
                             "regret_pref": self.regret_pref.ravel(), "regret_util": self.regret_util.ravel()})


def simulate(algorithm: str, instance, epsilon: float | None, horizon, runs: int = 1, seed=0, params=None,
             *, checkpoints=None, engine: str | None = None) -> DuelingResult:
    """Simulate ``runs`` independent runs of ``algorithm`` (module docstring) on ``instance`` for
    ``horizon`` rounds. ``checkpoints``: increasing rounds in [1, horizon] (default: the horizon;
    not for ``goptimal_dpdb``, whose ``horizon`` may be a list instead). ``engine``: the engine's
    own choice (Algorithm 1: "fast" | "reference"; Algorithm 2: "batched" | "reference"; the
    baselines: None, their engine, | "reference", their plain per-round class in the family's
    protocol); None is the fast one."""
    if isinstance(algorithm, type):
        return _simulate_class(algorithm, instance, epsilon, horizon, runs, seed, params, checkpoints, engine)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}")
    if not isinstance(runs, (int, np.integer)) or runs < 1:
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")
    seed = resolve_seed(seed, "dueling", "api")
    name = getattr(instance, "name", type(instance).__name__)
    return _SIMULATORS.get(algorithm, _baseline)(algorithm, name, instance, epsilon, horizon, int(runs), seed,
                                                 params, checkpoints, engine)


def _algorithm_2(algorithm, name, instance, epsilon, horizon, runs, seed, params, checkpoints, engine):
    from dpbandits.dueling.goptimal_dpdb import simulate_goptimal

    if checkpoints is not None:
        raise ValueError("goptimal_dpdb takes a list of horizons, not checkpoints")
    config = config_for(algorithm, epsilon, params)
    horizons = np.atleast_1d(np.asarray(horizon))
    raw = simulate_goptimal(instance, config, horizons, runs, seed, engine or "batched")
    table = raw.runs.sort_values(["run", "horizon"], kind="stable")
    pref = table.pivot(index="run", columns="horizon", values="regret_pref").to_numpy()
    util = table.pivot(index="run", columns="horizon", values="regret_util").to_numpy()
    return DuelingResult(algorithm, name, config.epsilon, np.sort(horizons), pref, util, raw, config)


def _checkpoints(horizon: int, checkpoints) -> np.ndarray:
    return np.array([horizon], dtype=np.int64) if checkpoints is None else np.asarray(checkpoints, dtype=np.int64)


def _algorithm_1(algorithm, name, instance, epsilon, horizon, runs, seed, params, checkpoints, engine):
    from dpbandits.dueling.ebs_fast import simulate_ebs

    if not isinstance(instance, (FiniteInstance, LinearInstance)):
        raise ValueError("instance must be a FiniteInstance or LinearInstance (dpbandits.dueling.instances)")
    horizon = int(horizon)
    cps = _checkpoints(horizon, checkpoints)
    config = config_for(algorithm, epsilon, params)
    raw = simulate_ebs(finite_view(instance), config, horizon, cps, runs, seed, engine or "fast")
    return DuelingResult(algorithm, name, config.epsilon, cps, raw.regret_pref, raw.regret_util, raw, config)


def _baseline(algorithm, name, instance, epsilon, horizon, runs, seed, params, checkpoints, engine):
    """A non-private baseline: its engine (:data:`~dpbandits.dueling.baselines.BASELINES`) or, with
    ``engine="reference"``, its per-round class in the family's protocol."""
    horizon = int(horizon)
    cps = _checkpoints(horizon, checkpoints)
    if epsilon is not None and math.isfinite(epsilon):
        raise ValueError(f"{algorithm} is not private: epsilon must be None, got {epsilon!r}")
    if engine not in (None, "reference"):
        raise ValueError(f"engine for {algorithm} must be None (its engine) or 'reference', got {engine!r}")
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"params for {algorithm} must be a mapping")
    kw = {**_BASELINE_PARAMS.get(algorithm, {}), **dict(params or {})}
    _check_keys(algorithm, dict(params or {}), list(_BASELINE_PARAMS.get(algorithm, {})))
    if engine == "reference":
        from dpbandits.dueling.interface import run_reference

        check_checkpoints(horizon, cps)
        return _from_runs(algorithm, name, math.inf, cps, run_reference(algorithm, instance, kw, horizon, cps, runs,
                                                                        seed), kw)
    from dpbandits.dueling.baselines import BASELINES

    raw = BASELINES[algorithm](instance, horizon, cps, runs, seed, **kw)
    return DuelingResult(algorithm, name, math.inf, cps, raw.regret_pref, raw.regret_util, raw, kw)


# the paper's algorithms by name (the baselines: _baseline)
_SIMULATORS = {"dp_ebs_elimination": _algorithm_1, "goptimal_dpdb": _algorithm_2}


def _from_runs(algorithm: str, name: str, epsilon: float, cps: np.ndarray, runs: list, config) -> DuelingResult:
    """A result from runs of the family's protocol (:class:`~dpbandits.dueling.interface.DuelRun`)."""
    return DuelingResult(algorithm, name, epsilon, cps, np.array([r.regret_pref for r in runs]),
                         np.array([r.regret_util for r in runs]), runs, config)


def _simulate_class(cls, instance, epsilon, horizon, runs, seed, params, checkpoints, engine) -> DuelingResult:
    """A researcher's class in the family's protocol (module docstring)."""
    from dpbandits.dueling import interface

    problems = interface.class_problems(cls)
    if problems:
        raise ValueError(f"{cls.__name__} cannot run as a dueling algorithm: {'; '.join(problems)} "
                         "(dpbandits.dueling.interface)")
    if engine not in (None, "reference"):
        raise ValueError(f"a class of your own runs on the per-round runner; engine must be None or 'reference', "
                         f"got {engine!r}")
    if not isinstance(instance, (FiniteInstance, LinearInstance)):
        raise ValueError("instance must be a FiniteInstance or LinearInstance (dpbandits.dueling.instances)")
    runs, horizon, eps = class_run_arguments(runs, horizon, epsilon)
    kw = interface.class_params(cls, params)
    cps = check_checkpoints(horizon, [horizon] if checkpoints is None else checkpoints)
    out = interface.run_class(cls, instance, eps, kw, horizon, cps, runs, resolve_seed(seed, "dueling", "api"))
    return _from_runs(cls.__name__, getattr(instance, "name", type(instance).__name__), eps, cps, out, kw)
