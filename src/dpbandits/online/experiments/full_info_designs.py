"""Full-information experiments of the online paper (spec section 6.3): instances, the designs
the FT checks read, and their simulation.

Instances (spec 6.3; erratum E11: the optimal action is never index 0, which epoch 0 plays):
* F-hard(K, Delta): all means 1/2 except action 1 at 1/2 + Delta (the Theorem 12 packing);
* F-eq(K, Delta): action 1 at 0.7, all others at 0.7 - Delta;
* F-dbl(K, Delta_min): action 1 at 0.9, the others with gaps Delta_min 2^{j-2}, j = 2..K.

A design is a list of cells (instance, epsilon, variant, horizon, checkpoints); its simulation is
one long table with one row per (cell, run, checkpoint). Variants: ``rnm`` (Alg. 4, the paper's
Lap(1/eps)), ``rnm_c2`` (Lap(2/eps), the epsilon-DP correction) and ``naive`` (Lap(K/eps)).

Scale: the grids are the specification's; ``runs``, ``horizon`` (T of FT-1/2/4/5/8) and
``long_horizon`` (largest T of FT-3 and FT-7; FT-6 goes one decade further) come from the
config (``online.full_info``), so the smoke scale shrinks them and keeps every design.
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

__all__ = ["run_design", "Instance", "f_hard", "f_eq", "f_dbl", "FullInfoCell", "DESIGNS", "design_cells",
           "simulate_design", "decades", "thm9_bound", "brackets", "instance_of"]

FT1_K = (4, 16, 64, 256)
FT1_GAPS = (0.05, 0.2)
FT1_EPS = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
VARIANTS = ("rnm", "rnm_c2", "naive")


@dataclass(frozen=True)
class Instance:
    name: str
    means: tuple[float, ...]
    gap: float  # Delta (F-hard, F-eq) or Delta_min (F-dbl)

    @property
    def k(self) -> int:
        return len(self.means)

    @property
    def gaps(self) -> np.ndarray:
        m = np.asarray(self.means)
        return m.max() - m


def f_hard(k: int, gap: float) -> Instance:
    means = [0.5] * k
    means[1] = 0.5 + gap
    return Instance("F-hard", tuple(means), gap)


def f_eq(k: int, gap: float, top: float = 0.7) -> Instance:
    means = [top - gap] * k
    means[1] = top
    return Instance("F-eq", tuple(means), gap)


def f_dbl(k: int, gap_min: float, top: float = 0.9) -> Instance:
    gaps = [gap_min * 2.0 ** (j - 2) for j in range(2, k + 1)]
    if max(gaps) > top:
        raise ValueError(f"F-dbl with K={k}, Delta_min={gap_min}: largest gap {max(gaps)} > {top}")
    means = [top - gaps[0], top] + [top - g for g in gaps[1:]]
    return Instance("F-dbl", tuple(means), gap_min)


def decades(lo: int, hi: int) -> list[int]:
    """Powers of ten in [lo, hi]."""
    return [10**e for e in range(int(round(math.log10(lo))), int(math.floor(math.log10(hi))) + 1)]


def brackets(gaps: np.ndarray) -> list[tuple[float, int]]:
    """Eq. (9): (Delta_(l), |J_l|) for the non-empty brackets of the positive gaps."""
    gaps = np.asarray(gaps, dtype=float)
    pos = gaps[gaps > 0]
    gmin = pos.min()
    levels = np.floor(np.log2(pos / gmin) + 1e-12).astype(int) + 1  # l with 2^{l-1} gmin <= gap
    return [(gmin * 2.0 ** (ell - 1), int(np.sum(levels == ell))) for ell in np.unique(levels)]


def thm9_bound(gaps: np.ndarray, epsilon: float) -> float:
    """Explicit Theorem 9 bound (App. D.2): 1 + sum_l 256 (1 + ln|J_l|) / min(Delta_(l), eps)."""
    return 1.0 + sum(256.0 * (1.0 + math.log(size)) / min(d, epsilon)
                     for d, size in brackets(gaps))


@dataclass(frozen=True)
class FullInfoCell:
    design: str
    instance: Instance
    epsilon: float
    variant: str
    horizon: int
    checkpoints: tuple[int, ...]

    def describe(self) -> tuple:
        return ("online", "full_info", self.design, self.instance.name, self.instance.k,
                self.instance.gap, self.epsilon, self.variant, self.horizon)


def _minimax_gaps(k: int, horizons: list[int]) -> list[float]:
    """FT-7 grid: 16 log-spaced gaps in [1e-3, 0.45] plus sqrt(ln K / T) for every T."""
    grid = set(np.round(np.geomspace(1e-3, 0.45, 16), 6))
    grid |= {round(math.sqrt(math.log(k) / t), 6) for t in horizons}
    return sorted(g for g in grid if g < 0.5)


def design_cells(name: str, settings: dict) -> list[FullInfoCell]:
    """The cells of one design; ``settings`` is the config section ``online.full_info``."""
    T, T_long = int(settings["horizon"]), int(settings["long_horizon"])
    cells: list[FullInfoCell] = []

    def add(inst, eps, variant="rnm", horizon=T, cps=None):
        cells.append(FullInfoCell(name, inst, float(eps), variant, horizon,
                                  tuple(cps) if cps is not None else (horizon,)))

    if name == "hard_grid":  # FT-1, FT-2, FT-8
        for k in FT1_K:
            for gap in FT1_GAPS:
                for eps in FT1_EPS:
                    add(f_hard(k, gap), eps, "rnm")
                    add(f_hard(k, gap), eps, "rnm_c2")
    elif name == "eq_dbl_grid":  # FT-2
        for gap in FT1_GAPS:
            for eps in FT1_EPS:
                for k in FT1_K:
                    add(f_eq(k, gap), eps)
                for k in sorted({4, 2 + int(math.floor(math.log2(0.9 / gap)))}):
                    add(f_dbl(k, gap), eps)
    elif name == "t_independence":  # FT-3
        for eps in (0.05, 0.5):
            add(f_hard(16, 0.1), eps, horizon=T_long, cps=decades(10**3, T_long))
    elif name == "eps_regimes":  # FT-4
        for eps in (0.005, 0.01, 0.02, 0.04, 0.08, 1.0, 2.0, 4.0, 8.0, 16.0):
            add(f_hard(16, 0.2), eps)
    elif name == "naive_vs_rnm":  # FT-5
        for k in FT1_K:
            add(f_hard(k, 0.2), 0.1, "rnm")
            add(f_hard(k, 0.2), 0.1, "naive")
    elif name == "doubling_gap":  # FT-6
        T6 = 10 * T_long
        cps = decades(min(10**5, T6), T6)
        add(f_dbl(10, 0.002), 0.002, horizon=T6, cps=cps)
        add(f_eq(10, 0.002), 0.002, horizon=T6, cps=cps)
    elif name == "minimax":  # FT-7
        horizons = decades(min(10**4, T_long), T_long)
        for eps in (0.05, 1.0):
            for gap in _minimax_gaps(16, horizons):
                add(f_hard(16, gap), eps, horizon=T_long, cps=horizons)
    else:
        raise ValueError(f"unknown full-information design {name!r}; allowed: {sorted(DESIGNS)}")
    return cells


DESIGNS = ("hard_grid", "eq_dbl_grid", "t_independence", "eps_regimes", "naive_vs_rnm",
           "doubling_gap", "minimax")


def _simulate_cell(cell: FullInfoCell, runs: int, root_seed: int):
    """One cell through the library's entry point (:func:`dpbandits.online.simulate`)."""
    seed = derive_seed(root_seed, *cell.describe())
    means, cps = np.asarray(cell.instance.means), np.asarray(cell.checkpoints)
    if cell.variant == "naive":
        return simulate("naive_ftnl", means, cell.epsilon, cell.horizon, runs, seed, checkpoints=cps)
    factor = {"rnm": 1.0, "rnm_c2": 2.0}[cell.variant]
    return simulate("rnm_ftnl", means, cell.epsilon, cell.horizon, runs, seed, {"noise_factor": factor},
                    checkpoints=cps)


def simulate_design(name: str, settings: dict, root_seed: int) -> pd.DataFrame:
    """Long table: one row per (cell, run, checkpoint t) with the regret at t."""
    runs = int(settings["runs"])
    frames = []
    cells = design_cells(name, settings)
    for cell in progress(cells, f"online full information {name}", len(cells)):
        res = _simulate_cell(cell, runs, root_seed)
        cps = np.asarray(cell.checkpoints)
        frames.append(pd.DataFrame({
            "design": name, "instance": cell.instance.name, "K": cell.instance.k,
            "gap": cell.instance.gap, "epsilon": cell.epsilon, "variant": cell.variant,
            "horizon": cell.horizon, "run": np.repeat(np.arange(runs), cps.size),
            "t": np.tile(cps, runs), "regret": res.regret.ravel(),
        }))
    return pd.concat(frames, ignore_index=True)


def instance_of(name: str, k: int, gap: float) -> Instance:
    """Rebuild an instance from the (instance, K, gap) columns of a design table."""
    makers = {"F-hard": f_hard, "F-eq": f_eq, "F-dbl": f_dbl}
    if name not in makers:
        raise ValueError(f"unknown instance {name!r}; allowed: {sorted(makers)}")
    return makers[name](int(k), float(gap))


def run_design(job) -> None:
    """The entry of the simulation record (:mod:`dpbandits.online.experiments.registry`): one
    design (``job.wildcards.design``) of the full-information checks."""
    write_results(simulate_design(job.wildcards.design, job.config["online"]["full_info"], job.config["seed"]),
                  job.output.table)
