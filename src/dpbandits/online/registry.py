"""Names and labels of the online paper's bandit algorithms as used in the config and the figures
(``ALGORITHMS``), and :func:`simulate_cell`, the older name of :func:`dpbandits.online.simulate`
kept for existing callers (benchmarks, tests).

Random streams (ARCHITECTURE.md, Seeds): see :mod:`dpbandits.online.api`, which holds the
engines' dispatch; this module adds nothing to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpbandits.online import api

__all__ = ["ALGORITHMS", "AlgorithmInfo", "CellResult", "simulate_cell", "STREAMS"]

STREAMS = api.STREAMS


@dataclass(frozen=True)
class AlgorithmInfo:
    name: str
    label: str
    private: bool
    source: str


# The bandit algorithms of Figures 1-2 (in the figures' order), from the API's table.
ALGORITHMS: dict[str, AlgorithmInfo] = {
    s.name: AlgorithmInfo(s.name, s.label, s.private, s.source)
    for s in api.ALGORITHMS.values() if s.feedback == "bandit"
}


@dataclass
class CellResult:
    """Per-run outcomes of one block of runs: regret[runs, checkpoints], pulls / releases[runs, K]."""

    regret: np.ndarray
    pulls: np.ndarray
    releases: np.ndarray


def _params(name: str, params: dict | None):
    """The older calling convention: one dict for every algorithm, each reading its own keys."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; allowed: {sorted(ALGORITHMS)}")
    kind = api.ALGORITHMS[name].params
    return kind.from_mapping({k: v for k, v in (params or {}).items() if k in kind.allowed()})


def _reference_algorithm(name, k, epsilon, horizon, rngs, params):
    """The per-step reference object of ``name`` (tests drive it themselves)."""
    return api._reference_algorithm(name, k, epsilon, horizon, rngs, _params(name, params))


def simulate_cell(name: str, means, epsilon: float | None, horizon: int, checkpoints,
                  n_runs: int, seed: np.random.SeedSequence, engine: str = "fast",
                  params: dict | None = None) -> CellResult:
    """:func:`dpbandits.online.simulate` with the older signature (``params``: one dict whose
    keys each algorithm reads if they are its own, e.g. ``{"alpha": 3.1}`` for every cell)."""
    res = api.simulate(name, means, epsilon, horizon, n_runs, seed, _params(name, params),
                       checkpoints=checkpoints, engine=engine)
    return CellResult(res.regret, res.pulls, res.releases)
