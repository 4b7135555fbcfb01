"""The online paper's algorithms from Python: one entry point, :func:`simulate`.

``simulate(algorithm, instance, epsilon, horizon, runs, seed, params)`` runs ``runs`` independent
runs of one algorithm on a Bernoulli instance (its arm means) and returns an
:class:`OnlineResult`: cumulative pseudo-regret at the checkpoints (by default only at the
horizon), pulls and private releases per arm, and ``to_frame()`` for a tidy table.

>>> from dpbandits.online import simulate
>>> res = simulate("lazy_dp_ts", [0.75, 0.5, 0.25], epsilon=1.0, horizon=2000, runs=4, seed=1)
>>> res.regret.shape, res.pulls.sum(axis=1).tolist()
((4, 1), [2000, 2000, 2000, 2000])
>>> res.to_frame().columns.tolist()
['algorithm', 'epsilon', 'run', 't', 'regret']

Algorithms (``ALGORITHMS``; the workflow's names): ``anytime_lazy_ucb`` (Alg. 1), ``lazy_dp_ts``
(Alg. 3), ``dp_se`` (Sajed & Sheffet 2019), ``adap_klucb`` (Azize & Basu 2022), the non-private
references ``ucb1`` and ``ts_beta`` (Alg. 2), and the full-information algorithms ``rnm_ftnl``
(Alg. 4) and ``naive_ftnl``. Their parameters are typed (one frozen dataclass each, defaults =
the paper's); a mapping is checked, so a misspelt key is an error that names the allowed ones:

>>> simulate("adap_klucb", [0.6, 0.4], 1.0, 100, 1, 0, params={"Alpha": 3.5})
Traceback (most recent call last):
...
ValueError: unknown parameter(s) 'Alpha' for adap_klucb; allowed: alpha, noise_multiplier

A researcher's own algorithm is a class with the per-step interface of
:mod:`dpbandits.online.interface` (or its import path "package.module:Class"); ``params`` are
then its constructor's keyword arguments.

Seeds: an int is a root seed, ``derive_seed(seed, "online", "api")``: the same int gives the same
runs, and every algorithm and epsilon reads the same per-run reward streams (common random
numbers). A :class:`numpy.random.SeedSequence` is used as given: the workflow passes its cell's
seed (``dpbandits.online.experiments.figure_designs``). Streams (docs/workflow.md): run r of a per-run
engine uses the named children ``rewards``, ``noise`` and ``policy`` of ``seed.spawn(runs)[r]``
(a researcher's class gets ``algorithm``); the vectorised engines (``ucb1``, ``ts_beta``, the
full-information algorithms, a class's ``copies`` mode) draw every run from one stream per name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from dpbandits.envs.bernoulli import BernoulliBandit, validate_means
from dpbandits.online import (
    adap_klucb,
    anytime_lazy_ucb,
    dp_se,
    interface,
    lazy_dp_ts,
    naive_ftnl,
    rnm_ftnl,
    ts_beta,
    ucb1,
)
from dpbandits.params import AlgorithmParams, coerce_params
from dpbandits.rng import resolve_seed, stream_rngs
from dpbandits.sim.reference import checked_arms, raised_in, run_reference

__all__ = ["simulate", "OnlineResult", "AlgorithmSpec", "ALGORITHMS", "AnytimeLazyUCBParams",
           "LazyDPTSParams", "DPSEParams", "AdaPKLUCBParams", "UCB1Params", "TSBetaParams",
           "RNMFTNLParams", "NaiveFTNLParams", "STREAMS", "BANDIT_ALGORITHMS"]

STREAMS = ("rewards", "noise", "policy")
USER_STREAMS = ("rewards", "algorithm")


# ---------------------------------------------------------------------------------------------
# Typed parameters (defaults: the paper's)


def _noise_ok(p) -> None:
    p._check("noise_multiplier", p.noise_multiplier >= 0, "a number >= 0 (1: the real mechanism; "
             "< 1 only as an audit's deliberately broken negative control)")


@dataclass(frozen=True)
class AnytimeLazyUCBParams(AlgorithmParams):
    """Algorithm 1 has no tuning parameter. ``noise_multiplier`` multiplies its Laplace scale
    (1 = the real mechanism; < 1 = an audit's negative control)."""

    algorithm: ClassVar[str] = "anytime_lazy_ucb"
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        _noise_ok(self)


@dataclass(frozen=True)
class LazyDPTSParams(AlgorithmParams):
    """Algorithm 3. ``thinning_below``: the fast engine switches from chunks to exact thinning
    once a challenger wins with probability below it (speed only: both paths are exact);
    ``noise_multiplier`` as for Algorithm 1."""

    algorithm: ClassVar[str] = "lazy_dp_ts"
    thinning_below: float = 0.1
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        self._check("thinning_below", 0 <= self.thinning_below <= 1, "a number in [0, 1]")
        _noise_ok(self)


@dataclass(frozen=True)
class DPSEParams(AlgorithmParams):
    """DP-SE. ``beta``: its confidence, None = 1/T (Azize & Basu's choice, online spec E2)."""

    algorithm: ClassVar[str] = "dp_se"
    beta: float | None = None
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        self._check("beta", self.beta is None or 0 < self.beta < 1, "None (1/T) or a number in (0, 1)")
        _noise_ok(self)


@dataclass(frozen=True)
class AdaPKLUCBParams(AlgorithmParams):
    """AdaP-KLUCB. ``alpha`` >= 1: the exploration exponent (3.1 by default, Azize & Basu's
    choice: their regret bound needs alpha > 3; 1 is KL-UCB's own ln t). The online paper does not
    state it (erratum E2). The privacy of the releases does not depend on it."""

    algorithm: ClassVar[str] = "adap_klucb"
    alpha: float = 3.1
    noise_multiplier: float = 1.0

    def __post_init__(self) -> None:
        self._check("alpha", self.alpha >= 1, "a number >= 1")
        _noise_ok(self)


@dataclass(frozen=True)
class UCB1Params(AlgorithmParams):
    """UCB1 (non-private reference) has no parameter."""

    algorithm: ClassVar[str] = "ucb1"


@dataclass(frozen=True)
class TSBetaParams(AlgorithmParams):
    """Thompson sampling with Beta(1, 1) priors (Algorithm 2, non-private) has no parameter."""

    algorithm: ClassVar[str] = "ts_beta"


@dataclass(frozen=True)
class RNMFTNLParams(AlgorithmParams):
    """Algorithm 4 (full information). ``noise_factor``: the Laplace scale is noise_factor / eps;
    1 is the paper's Lap(1/eps), which is NOT eps-DP under its own neighbours (spec issue P1,
    check P-EXACT-RNM); 2 is the corrected, eps-DP release."""

    algorithm: ClassVar[str] = "rnm_ftnl"
    noise_factor: float = 1.0

    def __post_init__(self) -> None:
        self._check("noise_factor", self.noise_factor > 0, "a number > 0 (1: the paper; 2: eps-DP)")


@dataclass(frozen=True)
class NaiveFTNLParams(AlgorithmParams):
    """The naive follow-the-noisy-leader (Lap(K/eps) per action, full information): no parameter."""

    algorithm: ClassVar[str] = "naive_ftnl"


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm of the family: its names, its typed parameters and its two engines.

    ``fast(means, epsilon, horizon, checkpoints, runs, seed, params)`` returns the runs' regret at
    the checkpoints, pulls and releases per arm; ``reference(k, epsilon, horizon, rngs, params)``
    builds the plain per-step object (:class:`dpbandits.online.interface.BanditAlgorithm`) that
    :func:`dpbandits.sim.run_reference` drives, from one run's named streams (None for the
    full-information algorithms, whose per-round reference is tested in tests/test_full_info.py).
    """

    name: str
    label: str
    private: bool
    feedback: str  # "bandit" | "full_info"
    source: str
    params: type[AlgorithmParams]
    fast: Callable = field(repr=False, compare=False)
    reference: Callable | None = field(repr=False, compare=False, default=None)


# ---------------------------------------------------------------------------------------------
# The engines of the table (module docstring, Seeds: which streams each reads)


def _run_streams(seed, runs: int) -> list[dict]:
    """The named streams of each run of a per-run engine: children of ``seed.spawn(runs)``."""
    return [stream_rngs(run_seed, STREAMS) for run_seed in seed.spawn(runs)]


def _per_run(engine: Callable) -> Callable:
    """A fast engine that runs one run at a time: ``engine(common, rngs, params)`` on each run's
    streams, ``common`` the arguments every such engine takes."""

    def fast(means, epsilon, horizon, checkpoints, runs, seed, p):
        results = (engine(dict(means=means, epsilon=epsilon, horizon=horizon, checkpoints=checkpoints,
                               reward_rng=rngs["rewards"], noise_rng=rngs["noise"],
                               noise_multiplier=p.noise_multiplier), rngs, p)
                   for rngs in _run_streams(seed, runs))
        return _stack(results, runs, means.size, checkpoints)

    return fast


def _adap_klucb_fast(means, epsilon, horizon, checkpoints, runs, seed, p):
    """AdaP-KLUCB's runs advance together (one batched index), each on its own streams."""
    results = adap_klucb.simulate_fast_runs(means, epsilon, horizon, checkpoints,
                                            [(r["rewards"], r["noise"]) for r in _run_streams(seed, runs)],
                                            alpha=p.alpha, noise_multiplier=p.noise_multiplier)
    return _stack(results, runs, means.size, checkpoints)


def _ucb1_fast(means, epsilon, horizon, checkpoints, runs, seed, p):
    rngs = stream_rngs(seed, STREAMS)  # vectorised over runs
    regret, pulls = ucb1.simulate_fast_runs(means, horizon, checkpoints, runs, rngs["rewards"])
    return regret, pulls, np.zeros_like(pulls)


def _ts_beta_fast(means, epsilon, horizon, checkpoints, runs, seed, p):
    rngs = stream_rngs(seed, STREAMS)  # vectorised over runs
    regret, pulls = ts_beta.simulate_fast_runs(means, horizon, checkpoints, runs, rngs["rewards"], rngs["policy"])
    return regret, pulls, np.zeros_like(pulls)


def _rnm_ftnl_fast(means, epsilon, horizon, checkpoints, runs, seed, p):
    rngs = stream_rngs(seed, ("rewards", "noise"))
    res = rnm_ftnl.simulate_fast_runs(means, epsilon, horizon, checkpoints, runs, rngs["rewards"], rngs["noise"],
                                      noise_factor=p.noise_factor)
    return res.regret, res.plays, None


def _naive_ftnl_fast(means, epsilon, horizon, checkpoints, runs, seed, p):
    rngs = stream_rngs(seed, ("rewards", "noise"))
    res = naive_ftnl.simulate_fast_runs(means, epsilon, horizon, checkpoints, runs, rngs["rewards"], rngs["noise"])
    return res.regret, res.plays, None


ALGORITHMS: dict[str, AlgorithmSpec] = {s.name: s for s in [
    AlgorithmSpec("anytime_lazy_ucb", "Anytime-Lazy-UCB", True, "bandit", "Alg. 1", AnytimeLazyUCBParams,
                  _per_run(lambda common, rngs, p: anytime_lazy_ucb.simulate_fast(**common)),
                  lambda k, eps, horizon, rngs, p: anytime_lazy_ucb.AnytimeLazyUCB(k, eps, rngs["noise"],
                                                                                   p.noise_multiplier)),
    AlgorithmSpec("lazy_dp_ts", "Lazy-DP-TS", True, "bandit", "Alg. 3", LazyDPTSParams,
                  _per_run(lambda common, rngs, p: lazy_dp_ts.simulate_fast(
                      **common, policy_rng=rngs["policy"], thinning_below=p.thinning_below)),
                  lambda k, eps, horizon, rngs, p: lazy_dp_ts.LazyDPTS(k, eps, rngs["noise"], rngs["policy"],
                                                                       p.noise_multiplier)),
    AlgorithmSpec("dp_se", "DP-SE", True, "bandit", "Sajed & Sheffet 2019", DPSEParams,
                  _per_run(lambda common, rngs, p: dp_se.simulate_fast(**common, beta=p.beta)),
                  lambda k, eps, horizon, rngs, p: dp_se.DPSE(k, eps, horizon, rngs["noise"], beta=p.beta,
                                                              noise_multiplier=p.noise_multiplier)),
    AlgorithmSpec("adap_klucb", "AdaP-KLUCB", True, "bandit", "Azize & Basu 2022", AdaPKLUCBParams,
                  _adap_klucb_fast,
                  lambda k, eps, horizon, rngs, p: adap_klucb.AdaPKLUCB(k, eps, rngs["noise"], alpha=p.alpha,
                                                                        noise_multiplier=p.noise_multiplier)),
    AlgorithmSpec("ucb1", "UCB1 (non-private, addition)", False, "bandit", "Auer et al. 2002", UCB1Params,
                  _ucb1_fast, lambda k, eps, horizon, rngs, p: ucb1.UCB1(k)),
    AlgorithmSpec("ts_beta", "TS-Beta (non-private, addition)", False, "bandit", "Alg. 2", TSBetaParams,
                  _ts_beta_fast, lambda k, eps, horizon, rngs, p: ts_beta.TSBeta(k, rngs["policy"])),
    AlgorithmSpec("rnm_ftnl", "RNM-FTNL", True, "full_info", "Alg. 4", RNMFTNLParams, _rnm_ftnl_fast),
    AlgorithmSpec("naive_ftnl", "naive FTNL", True, "full_info", "spec 6.3 (FT-5)", NaiveFTNLParams,
                  _naive_ftnl_fast),
]}

# The bandit algorithms of Figures 1-2, in the figures' order (names, labels and privacy of the
# config, the figures and the final-regret table).
BANDIT_ALGORITHMS: dict[str, AlgorithmSpec] = {n: s for n, s in ALGORITHMS.items() if s.feedback == "bandit"}


# ---------------------------------------------------------------------------------------------
# Result


@dataclass(frozen=True, eq=False)
class OnlineResult:
    """Runs of one algorithm on one instance.

    ``regret``: (runs, checkpoints) cumulative pseudo-regret (sum of gaps of the pulled arms) at
    ``checkpoints``; ``pulls``: (runs, K) pulls per arm (full information: rounds each action was
    played); ``releases``: (runs, K) private releases per arm (zeros for non-private algorithms;
    None under full information)."""

    algorithm: str
    means: np.ndarray
    epsilon: float | None
    horizon: int
    checkpoints: np.ndarray
    regret: np.ndarray
    pulls: np.ndarray
    releases: np.ndarray | None
    params: object

    @property
    def runs(self) -> int:
        return int(self.regret.shape[0])

    @property
    def final_regret(self) -> np.ndarray:
        """Regret at the last checkpoint, per run."""
        return self.regret[:, -1]

    def to_frame(self, per: str = "checkpoint") -> pd.DataFrame:
        """Tidy table: one row per run and checkpoint (``per="checkpoint"``: algorithm, epsilon,
        run, t, regret) or one row per run (``per="run"``: final regret, pulls_j, releases_j)."""
        eps = np.nan if self.epsilon is None else float(self.epsilon)
        n, c = self.regret.shape
        if per == "checkpoint":
            return pd.DataFrame({"algorithm": self.algorithm, "epsilon": eps,
                                 "run": np.repeat(np.arange(n), c), "t": np.tile(self.checkpoints, n),
                                 "regret": self.regret.ravel()})
        if per != "run":
            raise ValueError(f"per must be 'checkpoint' or 'run', got {per!r}")
        frame = pd.DataFrame({"algorithm": self.algorithm, "epsilon": eps, "run": np.arange(n),
                              "final_regret": self.final_regret})
        for j in range(self.pulls.shape[1]):
            frame[f"pulls_{j}"] = self.pulls[:, j]
            if self.releases is not None:
                frame[f"releases_{j}"] = self.releases[:, j]
        return frame


# ---------------------------------------------------------------------------------------------
# The entry point


def _checkpoints(checkpoints, horizon: int) -> np.ndarray:
    if checkpoints is None:
        return np.array([horizon], dtype=np.int64)
    cps = np.asarray(checkpoints, dtype=np.int64)
    if cps.ndim != 1 or cps.size == 0 or np.any(np.diff(cps) <= 0) or cps[0] < 1 or cps[-1] > horizon:
        raise ValueError(f"checkpoints must be increasing rounds in [1, horizon = {horizon}]")
    return cps


def _stack(results, n_runs: int, k: int, checkpoints: np.ndarray):
    regret = np.empty((n_runs, checkpoints.size))
    pulls = np.empty((n_runs, k), dtype=np.int64)
    releases = np.empty((n_runs, k), dtype=np.int64)
    for i, res in enumerate(results):
        regret[i], pulls[i], releases[i] = res.regret, res.pulls, res.releases
    return regret, pulls, releases


def _reference_algorithm(name: str, k: int, epsilon, horizon: int, rngs, p):
    """The per-step reference object of a paper algorithm (its table entry's ``reference``)."""
    return ALGORITHMS[name].reference(k, epsilon, horizon, rngs, p)


def _simulate_paper(spec: AlgorithmSpec, means, epsilon, horizon, checkpoints, runs, seed, p, engine):
    if engine == "fast":
        return spec.fast(means, epsilon, horizon, checkpoints, runs, seed, p)
    if spec.reference is None:
        raise ValueError(f"{spec.name} has one engine (the epoch engine, engine='fast'); its "
                         "per-round reference is tested in tests/test_full_info.py")
    env = BernoulliBandit(means)
    results = (run_reference(spec.reference(means.size, epsilon, horizon, rngs, p), env, horizon, checkpoints,
                             rngs["rewards"]) for rngs in _run_streams(seed, runs))
    return _stack(results, runs, means.size, checkpoints)


def _simulate_class(cls, means, epsilon, horizon, checkpoints, runs, seed, params, engine):
    """A researcher's algorithm: per-step objects (reference engine), or one object holding all
    runs as copies (its optional vectorised interface) with ``engine="fast"``."""
    k = means.size
    gaps = means.max() - means
    if engine == "fast" and interface.supports_copies(cls):
        rngs = stream_rngs(seed, USER_STREAMS)
        alg = cls(k, epsilon, horizon, rngs["algorithm"], copies=runs, **params)
        regret = np.empty((runs, checkpoints.size))
        pulls = np.zeros((runs, k), dtype=np.int64)
        total, c, rows = np.zeros(runs), 0, np.arange(runs)
        for t in range(1, horizon + 1):
            with raised_in(cls.__name__, "select(t)", t):
                arms = alg.select(t)
            arms = checked_arms(arms, k, runs, cls.__name__, t)
            rewards = (rngs["rewards"].random(runs) < means[arms]).astype(float)
            with raised_in(cls.__name__, "update(t, arms, rewards)", t):
                alg.update(t, arms, rewards)
            pulls[rows, arms] += 1
            total += gaps[arms]
            while c < checkpoints.size and checkpoints[c] == t:
                regret[:, c] = total
                c += 1
        releases = np.asarray(getattr(alg, "releases", np.zeros((runs, k))), dtype=np.int64)
        return regret, pulls, np.broadcast_to(releases, (runs, k)).copy()
    env = BernoulliBandit(means)
    results = []
    for run_seed in seed.spawn(runs):
        rngs = stream_rngs(run_seed, USER_STREAMS)
        alg = cls(k, epsilon, horizon, rngs["algorithm"], **params)
        results.append(run_reference(alg, env, horizon, checkpoints, rngs["rewards"]))
    return _stack(results, runs, k, checkpoints)


def simulate(algorithm, instance, epsilon: float | None, horizon: int, runs: int = 1, seed=0,
             params=None, *, checkpoints=None, engine: str = "fast") -> OnlineResult:
    """Simulate ``runs`` independent runs of ``algorithm`` on the Bernoulli instance
    ``instance`` (arm means in [0, 1], K >= 2) for ``horizon`` rounds.

    ``algorithm``: a name of :data:`ALGORITHMS`, a class with the interface of
    :mod:`dpbandits.online.interface`, or its import path "package.module:Class".
    ``epsilon``: the privacy parameter (> 0); ignored, and may be None, for a non-private one.
    ``seed``: an int >= 0 or a SeedSequence (module docstring). ``params``: a mapping or the
    algorithm's parameter dataclass (e.g. :class:`AdaPKLUCBParams`); unknown keys raise.
    ``checkpoints``: increasing rounds at which the regret is recorded (default: the horizon
    only). ``engine``: "fast" (event-driven / vectorised engines, exact in law) or "reference"
    (the plain per-step engine every fast engine is tested against).

    >>> r = simulate("dp_se", [0.6, 0.5], 0.5, 10_000, runs=2, seed=3, checkpoints=[100, 10_000])
    >>> r.to_frame(per="run").columns.tolist()
    ['algorithm', 'epsilon', 'run', 'final_regret', 'pulls_0', 'releases_0', 'pulls_1', 'releases_1']
    """
    if engine not in ("fast", "reference"):
        raise ValueError(f"engine must be 'fast' or 'reference', got {engine!r}")
    means = validate_means(instance)
    horizon = int(horizon)
    if horizon < means.size:
        raise ValueError(f"horizon must be >= K = {means.size}, got {horizon}")
    if not isinstance(runs, (int, np.integer)) or runs < 1:
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")
    runs = int(runs)
    cps = _checkpoints(checkpoints, horizon)
    seed = resolve_seed(seed, "online", "api")
    if isinstance(algorithm, str) and algorithm in ALGORITHMS:
        spec = ALGORITHMS[algorithm]
        p = coerce_params(spec.params, params)
        private = spec.private
    elif isinstance(algorithm, str) and ":" in algorithm:
        return simulate(interface.load_algorithm(algorithm), instance, epsilon, horizon, runs, seed,
                        params, checkpoints=checkpoints, engine=engine)
    elif isinstance(algorithm, type):
        problems = interface.interface_problems(algorithm)
        if problems:
            raise ValueError(f"{algorithm.__name__} does not implement the bandit interface of "
                             f"dpbandits.online.interface: {'; '.join(problems)}")
        spec, p = None, interface.check_algorithm_params(algorithm, params)
        private = interface.is_private(algorithm)
    else:
        raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {', '.join(ALGORITHMS)}, a class "
                         "with the interface of dpbandits.online.interface, or 'package.module:Class'")
    if private and (epsilon is None or not np.isfinite(epsilon) or not epsilon > 0):
        raise ValueError(f"{getattr(algorithm, '__name__', algorithm)} is private: epsilon must be > 0 "
                         f"and finite, got {epsilon!r}")
    eps = float(epsilon) if private else None
    if spec is not None:
        regret, pulls, releases = _simulate_paper(spec, means, eps, horizon, cps, runs, seed, p, engine)
        name = spec.name
    else:
        regret, pulls, releases = _simulate_class(algorithm, means, eps if private else epsilon, horizon,
                                                  cps, runs, seed, p, engine)
        name = algorithm.__name__
    return OnlineResult(name, means, eps, horizon, cps, regret, pulls, releases,
                        p if spec is not None else dict(p))

