"""Bandit-theory experiments of the online paper (spec section 6.2): instances, the designs the
BT checks read, and their simulation with the fast engines.

Instances: B2-hi mu = (0.9, 0.4); B2-lo mu = (0.55, 0.5); BK-eq(K) mu_1 = 0.9, the others 0.4;
setting 1 of the figures; two-armed mu = (0.5, 0.5 - Delta) for the instance-independent check.

Designs (algorithms: Anytime-Lazy-UCB, Alg. 1, and Lazy-DP-TS, Alg. 3, both anytime, so one run
to T gives the regret at every checkpoint):
* ``log_t`` (BT-1): B2-hi at eps 0.02 and 0.5, setting 1 at eps 0.5;
* ``eps_high`` (BT-2): B2-hi, eps 0.005 ... 0.08;  ``eps_low`` (BT-3): B2-lo, eps 0.5 ... 8;
* ``k_scaling`` (BT-4): BK-eq, K = 2, 4, 8, 16 at eps 0.05;
* ``minimax`` (BT-7): two arms, a 12-point log grid of Delta in [1e-3, 0.4] plus
  sqrt(K ln T / T) for each of its 7 horizons (T/100 to T, three per decade), eps 0.1 and 1.
Scale: ``runs``, ``minimax_runs`` and ``horizon`` from the config (``online.bandit``). Every cell
runs through the library's entry point :func:`dpbandits.online.simulate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.io import write_results
from dpbandits.online.api import simulate
from dpbandits.progress import progress
from dpbandits.rng import derive_seed

__all__ = ["run_design", "BanditCell", "DESIGNS", "ALGORITHMS", "design_cells", "simulate_design",
           "instance_means"]

ALGORITHMS = ("anytime_lazy_ucb", "lazy_dp_ts")
DESIGNS = ("log_t", "eps_high", "eps_low", "k_scaling", "minimax")
EPS_HIGH = (0.005, 0.01, 0.02, 0.04, 0.08)
EPS_LOW = (0.5, 1.0, 2.0, 4.0, 8.0)
K_GRID = (2, 4, 8, 16)


def instance_means(instance: str, k: int, gap: float) -> np.ndarray:
    """Means of an instance from its (instance, K, gap) columns."""
    if instance == "B2-hi":
        return np.array([0.9, 0.4])
    if instance == "B2-lo":
        return np.array([0.55, 0.5])
    if instance == "BK-eq":
        return np.array([0.9] + [0.4] * (k - 1))
    if instance == "setting1":
        return np.array([0.75, 0.625, 0.5, 0.375, 0.25])
    if instance == "two-arm":
        return np.array([0.5, 0.5 - gap])
    raise ValueError(f"unknown instance {instance!r}; allowed: B2-hi, B2-lo, BK-eq, setting1, two-arm")


@dataclass(frozen=True)
class BanditCell:
    design: str
    algorithm: str
    instance: str
    k: int
    gap: float  # smallest positive gap
    epsilon: float
    horizon: int
    checkpoints: tuple[int, ...]

    @property
    def means(self) -> np.ndarray:
        return instance_means(self.instance, self.k, self.gap)

    def describe(self) -> tuple:
        return ("online", "bandit", self.design, self.algorithm, self.instance, self.k, self.gap,
                self.epsilon, self.horizon)


def _curve_checkpoints(horizon: int) -> tuple[int, ...]:
    """Decades up to T (BT-1 increments) and 9 log-spaced points on [T/100, T] (exponent fit)."""
    decades = [10**e for e in range(1, int(math.log10(horizon)) + 1)]
    fit = np.rint(np.geomspace(max(horizon // 100, 1), horizon, 9)).astype(int).tolist()
    return tuple(sorted(set(decades + fit + [horizon])))


def _minimax_horizons(horizon: int) -> list[int]:
    """BT-7's horizons: 7 log-spaced T from T/100 to T (three per decade). The slope's CI
    includes lack of fit, which 3 horizons leave with one residual degree of freedom: BT-7-SLOPE
    flipped between PASS and INCONCLUSIVE across root seeds on that alone."""
    grid = np.rint(horizon / 100 * 10.0 ** (np.arange(7) / 3)).astype(int).tolist()
    return [t for t in dict.fromkeys(grid) if t >= 10]


def minimax_gaps(horizon: int) -> list[float]:
    grid = set(np.round(np.geomspace(1e-3, 0.4, 12), 6))
    grid |= {round(math.sqrt(2 * math.log(t) / t), 6) for t in _minimax_horizons(horizon)}
    return sorted(g for g in grid if 0 < g <= 0.4)


def design_cells(name: str, algorithm: str, settings: dict) -> list[BanditCell]:
    """The cells of one design for one algorithm; ``settings`` is ``online.bandit``."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; allowed: {ALGORITHMS}")
    T = int(settings["horizon"])
    curve = _curve_checkpoints(T)

    def cell(instance, k, eps, gap=None, cps=curve):
        means = instance_means(instance, k, gap or 0.0)
        smallest = float(np.min((means.max() - means)[means < means.max()]))
        return BanditCell(name, algorithm, instance, k, smallest, float(eps), T, tuple(cps))

    if name == "log_t":
        return [cell("B2-hi", 2, 0.02), cell("B2-hi", 2, 0.5), cell("setting1", 5, 0.5)]
    if name == "eps_high":
        return [cell("B2-hi", 2, e) for e in EPS_HIGH]
    if name == "eps_low":
        return [cell("B2-lo", 2, e) for e in EPS_LOW]
    if name == "k_scaling":
        return [cell("BK-eq", k, 0.05) for k in K_GRID]
    if name == "minimax":
        return [cell("two-arm", 2, e, gap=g, cps=_minimax_horizons(T))
                for e in (0.1, 1.0) for g in minimax_gaps(T)]
    raise ValueError(f"unknown bandit design {name!r}; allowed: {DESIGNS}")


def simulate_design(name: str, algorithm: str, settings: dict, root_seed: int) -> pd.DataFrame:
    """Long table: one row per (cell, run, checkpoint t) with the regret at t; the rows at
    t = T also carry each arm's pulls and number of releases (lists, for BT-6)."""
    runs = int(settings["minimax_runs"] if name == "minimax" else settings["runs"])
    frames = []
    cells = design_cells(name, algorithm, settings)
    for cell in progress(cells, f"online bandit {name}/{algorithm}", len(cells)):
        res = simulate(algorithm, cell.means, cell.epsilon, cell.horizon, runs,
                       derive_seed(root_seed, *cell.describe()), checkpoints=np.asarray(cell.checkpoints))
        cps = np.asarray(cell.checkpoints)
        frame = pd.DataFrame({
            "design": name, "algorithm": algorithm, "instance": cell.instance, "K": cell.k,
            "gap": cell.gap, "epsilon": cell.epsilon, "horizon": cell.horizon,
            "run": np.repeat(np.arange(runs), cps.size), "t": np.tile(cps, runs),
            "regret": res.regret.ravel()})
        final = frame["t"] == cell.horizon
        frame["pulls"] = pd.Series([None] * len(frame), dtype=object)
        frame["releases"] = pd.Series([None] * len(frame), dtype=object)
        frame.loc[final, "pulls"] = pd.Series(list(res.pulls), index=frame.index[final])
        frame.loc[final, "releases"] = pd.Series(list(res.releases), index=frame.index[final])
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def run_design(job) -> None:
    """The entry of the simulation record (:mod:`dpbandits.online.experiments.registry`): one
    design (``job.wildcards.design``) of the bandit checks for one algorithm."""
    w = job.wildcards
    write_results(simulate_design(w.design, w.algorithm, job.config["online"]["bandit"], job.config["seed"]),
                  job.output.table)
