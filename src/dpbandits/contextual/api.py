"""The contextual paper's algorithms from Python: one entry point, :func:`simulate`.

``simulate(algorithm, instance, epsilon, horizon, runs, seed, params)`` runs ``runs`` independent
runs of LDPMAB (Algorithm 2; Algorithm 3 when auxiliary datasets are given) in one of its presets
on a synthetic instance (:mod:`dpbandits.contextual.instances`: ``BumpInstance()``, the paper's
section 4.1, or ``SymmetricInstance()``) with ``horizon`` target users, and returns a
:class:`ContextualResult`: the cumulative regret of every run (eq. 1: for each batch, the expected
regret of the policy it plays, over the users' contexts and the policy's arm law; runs whose
partition and active arms never change, as at small horizons, have the same regret), the engine's
per-run results as ``raw``, and ``to_frame()`` (one row per run).

>>> from dpbandits.contextual import BumpInstance, simulate
>>> res = simulate("primary", BumpInstance(), epsilon=1.0, horizon=2000, runs=2, seed=1)
>>> res.regret.shape, res.to_frame().columns.tolist()[:4]
((2,), ['algorithm', 'epsilon', 'run', 'regret'])

Algorithms (``ALGORITHMS``): the presets of :mod:`dpbandits.contextual.config` and Table 2's
comparators (below). The presets: ``literal`` (the
paper as printed), ``primary`` (the workflow's reading), ``authors_code`` (the authors' code, not
LDP), ``unit_constants``, the non-private ``abse`` (epsilon None or inf) and ``coarse_fixed`` (a
labelled addition of this replication, not the paper's algorithm: a fixed four-bin partition with
the same randomiser). ``params`` overrides
fields of :class:`~dpbandits.contextual.config.LDPMABConfig` (``batch``, ``arm_policy``, ...; an
unknown key raises and names the allowed ones). ``aux``: the auxiliary datasets of Algorithm 3,
in feeding order (:class:`~dpbandits.contextual.ldpmab.Source` or mappings of its fields, e.g.
``{"n": 5000, "epsilon": 8.0, "gamma": 0.0, "kappa": 1.0}``).

Table 2's comparators run by name too (``COMPARATORS``): ``linear`` and ``nn``, the locally
private SGD bandits of :mod:`dpbandits.contextual.sgd_reference` (per user, in the family's
protocol; ``params``: ``batch``, ``clip``, ``lr``, and ``hidden`` for ``nn``), their regret the realised
pseudo-regret of a policy class (below); the workflow's Table 2 runs their vectorised engine.

>>> simulate("primary", BumpInstance(), 1.0, 2000, params={"Batch": 10})
Traceback (most recent call last):
...
ValueError: unknown parameter(s) 'Batch' for primary; allowed: private, noise, cb, c_C, n_for_c, c_tau, band, refine_rule, refine_arms, depth_cap, warmup, arm_policy, var_private, var_nonprivate, batch, max_depth, initial_depth

``algorithm`` may also be a policy class of your own in the family's protocol
(:mod:`dpbandits.contextual.interface`: the server's ``public``, ``act``, ``receive`` and
``end_batch``, a ``batch`` size, a constructor ``(n_arms, dim, epsilon, horizon, rng, **params)``,
and a local randomiser, by default the paper's): it runs on the same instance and seeds, target
users only, its regret the realised pseudo-regret sum_t f*(X_t) - f_{A_t}(X_t) (eq. (1) needs the
policy's arm law over every bin, which only the paper's policy states), ``raw`` its
:class:`~dpbandits.contextual.interface.UserRun` per run. Its local randomiser has an audit
(:func:`dpbandits.contextual.checks.audits.audit_randomizer_class`);
``dpbandits simulate FILE:Class --family contextual`` runs it from the command line, and the
workflow runs both for the policies named under ``contextual.extra_algorithms``
(:mod:`dpbandits.contextual.checks.extra`).

Seeds: an int is a root seed, ``derive_seed(seed, "contextual", "api")``; run r then uses the
SeedSequence (entropy, spawn_key + (r,)) of it, as does a single SeedSequence. A list of
SeedSequences gives each run its own (how the workflow pairs runs across cells by repetition).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.contextual.config import PRESETS, LDPMABConfig, preset
from dpbandits.contextual.ldpmab import Source, run_ldpmab
from dpbandits.rng import resolve_seed, run_seed
from dpbandits.sim.reference import class_run_arguments

__all__ = ["simulate", "ContextualResult", "ALGORITHMS", "COMPARATORS", "run_seeds"]

COMPARATORS = {"linear": "LinearPolicy", "nn": "NNPolicy"}  # classes of dpbandits.contextual.sgd_reference
ALGORITHMS = (*PRESETS, *COMPARATORS)


def run_seeds(seed, runs: int) -> list[np.random.SeedSequence]:
    """One SeedSequence per run (module docstring)."""
    if isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
        seeds = list(seed)
        if len(seeds) != runs or not all(isinstance(s, np.random.SeedSequence) for s in seeds):
            raise ValueError(f"a list of seeds must hold {runs} numpy.random.SeedSequence (one per run)")
        return seeds
    base = resolve_seed(seed, "contextual", "api")
    return [run_seed(base, r) for r in range(runs)]


def _config(algorithm: str, params) -> LDPMABConfig:
    if isinstance(params, LDPMABConfig):
        return params
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"params for {algorithm} must be a mapping or an LDPMABConfig")
    params = dict(params or {})
    allowed = [f.name for f in dataclasses.fields(LDPMABConfig) if f.name != "name"]
    unknown = sorted(k for k in params if k not in allowed)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(map(repr, unknown))} for {algorithm}; "
                         f"allowed: {', '.join(allowed)}")
    return preset(algorithm, **params)


def _source(aux) -> Source:
    if isinstance(aux, Source):
        return aux
    if isinstance(aux, Mapping):
        allowed = [f.name for f in dataclasses.fields(Source) if f.name != "target"]
        unknown = sorted(k for k in aux if k not in allowed)
        if unknown:
            raise ValueError(f"unknown auxiliary-source key(s) {', '.join(map(repr, unknown))}; "
                             f"allowed: {', '.join(allowed)}")
        return Source(**aux)
    raise ValueError(f"an auxiliary dataset must be a Source or a mapping, got {type(aux).__name__}")


@dataclass(frozen=True, eq=False)
class ContextualResult:
    """Runs of one preset: ``regret`` (runs,) cumulative regret over the target users (eq. 1);
    ``raw``: the engine's :class:`~dpbandits.contextual.ldpmab.LDPMABResult` of every run (regret
    curve per target batch, partition, counts); ``config``: the LDPMABConfig used. For a policy
    class of your own: the realised pseudo-regret, ``raw`` its
    :class:`~dpbandits.contextual.interface.UserRun` per run, ``config`` its parameters."""

    algorithm: str
    instance: str
    epsilon: float
    horizon: int
    raw: list
    config: LDPMABConfig | dict

    @property
    def regret(self) -> np.ndarray:
        return np.array([r.regret for r in self.raw])

    @property
    def runs(self) -> int:
        return len(self.raw)

    def to_frame(self) -> pd.DataFrame:
        """Tidy table, one row per run: algorithm, epsilon, run, regret, and for the paper's
        presets n_leaves, max_depth, n_splits, n_eliminations."""
        table = {"algorithm": self.algorithm, "epsilon": self.epsilon, "run": np.arange(self.runs),
                 "regret": self.regret}
        if isinstance(self.config, LDPMABConfig):
            table.update({name: [getattr(r, name) for r in self.raw]
                          for name in ("n_leaves", "max_depth", "n_splits", "n_eliminations")})
        return pd.DataFrame(table)


def simulate(algorithm: str, instance, epsilon: float | None, horizon: int, runs: int = 1, seed=0, params=None,
             *, aux=(), test_point=None) -> ContextualResult:
    """Simulate ``runs`` independent runs of ``algorithm`` (a preset, a comparator or a policy
    class) on the synthetic
    ``instance`` with ``horizon`` target users of privacy ``epsilon`` (module docstring).
    ``test_point``: a context x whose active arms each run records per target batch (Figure 6)."""
    if isinstance(algorithm, type):
        return _simulate_class(algorithm, instance, epsilon, horizon, runs, seed, params, aux, test_point)
    if algorithm in COMPARATORS:
        from dpbandits.contextual import sgd_reference

        return _simulate_class(getattr(sgd_reference, COMPARATORS[algorithm]), instance, epsilon, horizon, runs,
                               seed, params, aux, test_point, name=algorithm)
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}")
    if not isinstance(runs, (int, np.integer)) or runs < 1:
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")
    if not isinstance(horizon, (int, np.integer)) or horizon < 1:
        raise ValueError(f"horizon (target users) must be an int >= 1, got {horizon!r}")
    config = _config(algorithm, params)
    eps = math.inf if epsilon is None else float(epsilon)
    if config.private and not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"{algorithm} is private: epsilon must be > 0 and finite, got {epsilon!r}")
    sources = [*(_source(a) for a in aux), Source(int(horizon), eps, target=True)]
    raw = [run_ldpmab(config, sources, s, instance=instance, test_point=test_point)
           for s in run_seeds(seed, int(runs))]
    return ContextualResult(algorithm, getattr(instance, "name", type(instance).__name__), eps, int(horizon),
                            raw, config)


def _simulate_class(cls, instance, epsilon, horizon, runs, seed, params, aux, test_point,
                    name: str = "") -> ContextualResult:
    """A policy class in the family's protocol, a researcher's or a comparator's (``name``)
    (module docstring)."""
    from dpbandits.contextual import interface

    problems = interface.class_problems(cls)
    if problems:
        raise ValueError(f"{cls.__name__} cannot run as a contextual policy: {'; '.join(problems)} "
                         "(dpbandits.contextual.interface)")
    if tuple(aux) or test_point is not None:
        raise ValueError(f"{name or cls.__name__}: aux and test_point are the paper's algorithm's (Algorithm 3, "
                         "Figure 6); a policy class runs on target users only")
    runs, horizon, eps = class_run_arguments(runs, horizon, epsilon, "horizon (target users)")
    kw = interface.class_params(cls, params)
    raw = interface.run_class(cls, instance, eps, kw, horizon, run_seeds(seed, runs))
    return ContextualResult(name or cls.__name__, getattr(instance, "name", type(instance).__name__), eps, horizon,
                            raw, kw)
