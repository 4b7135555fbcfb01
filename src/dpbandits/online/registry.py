"""Algorithm registry of the online paper: config names -> labels, reference factories and fast
engines, and :func:`simulate_cell`, which runs a block of independent runs of one algorithm on
one instance with either engine.

Random streams (ARCHITECTURE.md, Seeds): each run derives its own children ``rewards``,
``noise`` (the Laplace mechanism) and ``policy`` (Thompson sampling) from the block's
SeedSequence; the vectorised non-private engines use one stream per name for the whole block.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpbandits.envs.bernoulli import BernoulliBandit, validate_means
from dpbandits.online import adap_klucb, anytime_lazy_ucb, dp_se, lazy_dp_ts, ts_beta, ucb1
from dpbandits.rng import stream_rngs
from dpbandits.sim.reference import run_reference

__all__ = ["ALGORITHMS", "AlgorithmInfo", "CellResult", "simulate_cell"]


@dataclass(frozen=True)
class AlgorithmInfo:
    name: str
    label: str
    private: bool
    source: str


ALGORITHMS: dict[str, AlgorithmInfo] = {
    a.name: a
    for a in [
        AlgorithmInfo("anytime_lazy_ucb", "Anytime-Lazy-UCB", True, "Alg. 1"),
        AlgorithmInfo("lazy_dp_ts", "Lazy-DP-TS", True, "Alg. 3"),
        AlgorithmInfo("dp_se", "DP-SE", True, "Sajed & Sheffet 2019"),
        AlgorithmInfo("adap_klucb", "AdaP-KLUCB", True, "Azize & Basu 2022"),
        AlgorithmInfo("ucb1", "UCB1 (non-private, addition)", False, "Auer et al. 2002"),
        AlgorithmInfo("ts_beta", "TS-Beta (non-private, addition)", False, "Alg. 2"),
    ]
}


@dataclass
class CellResult:
    """Per-run outcomes of one block of runs: regret[runs, checkpoints], pulls / releases[runs, K]."""

    regret: np.ndarray
    pulls: np.ndarray
    releases: np.ndarray


def _reference_algorithm(name, k, epsilon, horizon, rngs, params):
    if name == "anytime_lazy_ucb":
        return anytime_lazy_ucb.AnytimeLazyUCB(k, epsilon, rngs["noise"])
    if name == "lazy_dp_ts":
        return lazy_dp_ts.LazyDPTS(k, epsilon, rngs["noise"], rngs["policy"])
    if name == "dp_se":
        return dp_se.DPSE(k, epsilon, horizon, rngs["noise"], beta=params.get("beta"))
    if name == "adap_klucb":
        return adap_klucb.AdaPKLUCB(k, epsilon, rngs["noise"], alpha=params.get("alpha", 3.1))
    if name == "ucb1":
        return ucb1.UCB1(k)
    if name == "ts_beta":
        return ts_beta.TSBeta(k, rngs["policy"])
    raise KeyError(name)


def _fast_run(name, means, epsilon, horizon, checkpoints, rngs, params):
    common = dict(means=means, epsilon=epsilon, horizon=horizon, checkpoints=checkpoints,
                  reward_rng=rngs["rewards"], noise_rng=rngs["noise"])
    if name == "anytime_lazy_ucb":
        return anytime_lazy_ucb.simulate_fast(**common)
    if name == "lazy_dp_ts":
        return lazy_dp_ts.simulate_fast(**common, policy_rng=rngs["policy"],
                                        thinning_below=params.get("thinning_below", 0.1))
    if name == "dp_se":
        return dp_se.simulate_fast(**common, beta=params.get("beta"))
    raise KeyError(name)  # adap_klucb: simulate_cell batches its runs


STREAMS = ("rewards", "noise", "policy")


def simulate_cell(name: str, means, epsilon: float | None, horizon: int, checkpoints,
                  n_runs: int, seed: np.random.SeedSequence, engine: str = "fast",
                  params: dict | None = None) -> CellResult:
    """Simulate ``n_runs`` independent runs of algorithm ``name``.

    ``epsilon`` is ignored (and may be None) for the non-private references.
    """
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; allowed: {sorted(ALGORITHMS)}")
    if engine not in ("fast", "reference"):
        raise ValueError(f"engine must be 'fast' or 'reference', got {engine!r}")
    means = validate_means(means)
    params = params or {}
    info = ALGORITHMS[name]
    if info.private and (epsilon is None or not epsilon > 0):
        raise ValueError(f"{name} is private: epsilon must be > 0, got {epsilon!r}")
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    k = means.size
    if engine == "fast" and not info.private:  # vectorised over runs
        rngs = stream_rngs(seed, STREAMS)
        if name == "ucb1":
            regret, pulls = ucb1.simulate_fast_runs(means, horizon, checkpoints, n_runs,
                                                    rngs["rewards"])
        else:
            regret, pulls = ts_beta.simulate_fast_runs(means, horizon, checkpoints, n_runs,
                                                       rngs["rewards"], rngs["policy"])
        return CellResult(regret, pulls, np.zeros_like(pulls))
    run_rngs = [stream_rngs(run_seed, STREAMS) for run_seed in seed.spawn(n_runs)]
    if engine == "fast" and name == "adap_klucb":  # runs advance together (one batched index)
        results = adap_klucb.simulate_fast_runs(means, epsilon, horizon, checkpoints,
                                                [(r["rewards"], r["noise"]) for r in run_rngs],
                                                alpha=params.get("alpha", 3.1))
    elif engine == "fast":
        results = (_fast_run(name, means, epsilon, horizon, checkpoints, rngs, params)
                   for rngs in run_rngs)
    else:
        env = BernoulliBandit(means)
        results = (run_reference(_reference_algorithm(name, k, epsilon, horizon, rngs, params),
                                 env, horizon, checkpoints, rngs["rewards"])
                   for rngs in run_rngs)
    regret = np.empty((n_runs, checkpoints.size))
    pulls = np.empty((n_runs, k), dtype=np.int64)
    releases = np.empty((n_runs, k), dtype=np.int64)
    for i, res in enumerate(results):
        regret[i], pulls[i], releases[i] = res.regret, res.pulls, res.releases
    return CellResult(regret, pulls, releases)
