"""Experiments of the online paper: the grid of Figures 1-2 (settings x epsilons x algorithms,
plus the non-private reference lines, plus the researcher's own algorithms of
``online.extra_algorithms``), its seed blocks and its Parquet files. Every block runs through the
library's entry point :func:`dpbandits.online.simulate`.

File layout, under the run's seed root ``results/<scale>/seed<seed>/``:
    sim/online/figures/{setting}/{algorithm}/eps{eps}/block{block}.parquet
with ``eps`` = ``nonprivate`` for the reference lines, then
    agg/online/figures.parquet       (long: one row per run and checkpoint)
    agg/online/figures_runs.parquet  (one row per run: final regret, pulls, releases)
A researcher's algorithm (:mod:`dpbandits.online.interface`) runs on the same cells, settings and
epsilons, in its own files (the paper's checks never read them):
    sim/online/extra/{setting}/{name}/eps{eps}/block{block}.parquet
    agg/online/extra.parquet, agg/online/extra_runs.parquet   (same columns as above)
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.io import read_results_or_quarantine, write_results
from dpbandits.online.api import BANDIT_ALGORITHMS, simulate
from dpbandits.online.interface import ExtraAlgorithm, extra_algorithms
from dpbandits.rng import derive_seed
from dpbandits.sim.checkpoints import checkpoint_grid

__all__ = ["run_block", "Cell", "figure_cells", "figure_checkpoints", "simulate_block", "write_block",
           "read_block", "aggregate_blocks", "NONPRIVATE", "extra_cells", "simulate_extra_block",
           "aggregate_extra_blocks"]

NONPRIVATE = "nonprivate"
EXTRA = "extra"
PAPER = "online"
EXPERIMENT = "figures"


@dataclass(frozen=True)
class Cell:
    setting: str
    algorithm: str
    eps: str  # formatted epsilon, or NONPRIVATE
    block: int
    extra: bool = False  # a researcher's algorithm (online.extra_algorithms)

    @property
    def path(self) -> str:
        """Relative to the run's seed root."""
        folder = EXTRA if self.extra else EXPERIMENT
        return (f"sim/{PAPER}/{folder}/{self.setting}/{self.algorithm}/"
                f"eps{self.eps}/block{self.block}.parquet")


def format_eps(eps: float) -> str:
    return f"{float(eps):g}"


def block_runs(fig: dict, block: int) -> range:
    size = fig["runs_per_job"]
    return range(block * size, min(fig["runs"], (block + 1) * size))


def n_blocks(fig: dict) -> int:
    return math.ceil(fig["runs"] / fig["runs_per_job"])


def figure_cells(config: dict) -> list[Cell]:
    fig = config["online"]["figures"]
    cells = []
    for setting in fig["settings"]:
        for b in range(n_blocks(fig)):
            for alg in fig["algorithms"]:
                cells += [Cell(setting, alg, format_eps(e), b) for e in fig["epsilons"]]
            cells += [Cell(setting, ref, NONPRIVATE, b) for ref in fig["references"]]
    return cells


def figure_checkpoints(config: dict) -> np.ndarray:
    fig = config["online"]["figures"]
    grid = checkpoint_grid(fig["horizon"], fig["checkpoints"]["log"], fig["checkpoints"]["linear"])
    decades = 10 ** np.arange(0, int(np.log10(fig["horizon"])) + 1)  # FIG-SHAPE increments
    return np.union1d(grid, decades[decades <= fig["horizon"]]).astype(np.int64)


def _runs_and_seed(config: dict, cell: Cell) -> tuple[range, np.random.SeedSequence]:
    fig = config["online"]["figures"]
    if cell.setting not in fig["settings"]:
        raise ValueError(f"unknown setting {cell.setting!r}; allowed: {sorted(fig['settings'])}")
    runs = block_runs(fig, cell.block)
    if len(runs) == 0:
        raise ValueError(f"block {cell.block} is empty for runs={fig['runs']}")
    seed = derive_seed(config["seed"], PAPER, EXPERIMENT, cell.setting, cell.algorithm,
                       cell.eps, f"block{cell.block}")
    return runs, seed


def _block_frame(cell: Cell, eps: float | None, runs: range, res) -> pd.DataFrame:
    return pd.DataFrame({
        "setting": cell.setting,
        "algorithm": cell.algorithm,
        "epsilon": np.nan if eps is None else eps,
        "run": np.asarray(runs, dtype=np.int64),
        "final_regret": res.regret[:, -1],
        "regret": list(res.regret),
        "pulls": list(res.pulls),
        "releases": list(res.releases),
    })


def simulate_block(config: dict, cell: Cell) -> pd.DataFrame:
    """Run the seed block of one cell with the fast engines; one row per run."""
    fig = config["online"]["figures"]
    runs, seed = _runs_and_seed(config, cell)
    means = fig["settings"][cell.setting]["means"]
    eps = None if cell.eps == NONPRIVATE else float(cell.eps)
    params = {"alpha": fig["adap_alpha"]} if cell.algorithm == "adap_klucb" else None
    res = simulate(cell.algorithm, means, eps, fig["horizon"], len(runs), seed, params,
                   checkpoints=figure_checkpoints(config))
    return _block_frame(cell, eps, runs, res)


def extra_cells(config: dict) -> list[Cell]:
    """The cells of the researcher's algorithms: every setting, seed block and epsilon of the
    figure grid (seeds derived like the paper's algorithms', from the algorithm's name)."""
    fig = config["online"]["figures"]
    return [Cell(setting, spec.name, format_eps(e), b, extra=True)
            for spec in extra_algorithms(config["online"])
            for setting in fig["settings"] for b in range(n_blocks(fig)) for e in fig["epsilons"]]


def simulate_extra_block(config: dict, spec: ExtraAlgorithm, cell: Cell) -> pd.DataFrame:
    """One seed block of a researcher's algorithm ``spec`` (:mod:`dpbandits.online.interface`),
    with its vectorised interface if it has one (else its per-step objects); one row per run."""
    fig = config["online"]["figures"]
    if cell.algorithm != spec.name:
        raise ValueError(f"cell {cell} is not of the extra algorithm {spec.name!r}")
    runs, seed = _runs_and_seed(config, cell)
    res = simulate(spec.load(), fig["settings"][cell.setting]["means"], float(cell.eps), fig["horizon"],
                   len(runs), seed, spec.params, checkpoints=figure_checkpoints(config))
    return _block_frame(cell, float(cell.eps), runs, res)


def write_block(frame: pd.DataFrame, checkpoints: np.ndarray, path: str) -> None:
    write_results(frame, path, {"dpbandits.checkpoints": json.dumps([int(c) for c in checkpoints])})


def read_block(path: str) -> tuple[pd.DataFrame, np.ndarray]:
    """Read one block; a truncated or corrupted file raises (never silently aggregated) and is
    moved aside so that the next run rebuilds it."""
    frame, meta = read_results_or_quarantine(path, with_metadata=True)
    if "dpbandits.checkpoints" not in meta:
        raise ValueError(f"{path}: not a dpbandits simulation block (no checkpoint metadata)")
    checkpoints = np.array(json.loads(meta["dpbandits.checkpoints"]), dtype=np.int64)
    lengths = frame["regret"].map(len)
    if (lengths != checkpoints.size).any():
        raise ValueError(f"{path}: regret trajectories do not match the checkpoint grid")
    return frame, checkpoints


def aggregate_blocks(paths: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Long table (setting, algorithm, epsilon, run, t, regret) and the per-run table."""
    longs, runs = [], []
    grid = None
    for path in paths:
        frame, checkpoints = read_block(path)
        if grid is None:
            grid = checkpoints
        elif not np.array_equal(grid, checkpoints):
            raise ValueError(f"{path}: checkpoint grid differs from the other blocks")
        regret = np.stack(frame["regret"].to_numpy())
        n = len(frame)
        longs.append(pd.DataFrame({
            "setting": np.repeat(frame["setting"].to_numpy(), grid.size),
            "algorithm": np.repeat(frame["algorithm"].to_numpy(), grid.size),
            "epsilon": np.repeat(frame["epsilon"].to_numpy(), grid.size),
            "run": np.repeat(frame["run"].to_numpy(), grid.size),
            "t": np.tile(grid, n),
            "regret": regret.ravel(),
        }))
        pulls = np.stack(frame["pulls"].to_numpy())
        releases = np.stack(frame["releases"].to_numpy())
        per_run = frame[["setting", "algorithm", "epsilon", "run", "final_regret"]].copy()
        for j in range(pulls.shape[1]):
            per_run[f"pulls_{j}"] = pulls[:, j]
            per_run[f"releases_{j}"] = releases[:, j]
        runs.append(per_run)
    long = pd.concat(longs, ignore_index=True)
    per_run = pd.concat(runs, ignore_index=True)
    keys = ["setting", "algorithm", "epsilon", "run"]
    if per_run.duplicated(keys).any():
        raise ValueError("duplicate runs across blocks")
    long = long.sort_values([*keys, "t"], kind="stable").reset_index(drop=True)
    per_run = per_run.sort_values(keys, kind="stable").reset_index(drop=True)
    return long, per_run


def aggregate_extra_blocks(paths: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`aggregate_blocks` of the researcher's algorithms; empty tables (same leading
    columns) when the config names none."""
    if paths:
        return aggregate_blocks(paths)
    keys = {"setting": object, "algorithm": object, "epsilon": float, "run": np.int64}
    long = pd.DataFrame({k: pd.Series(dtype=d) for k, d in {**keys, "t": np.int64, "regret": float}.items()})
    per_run = pd.DataFrame({k: pd.Series(dtype=d) for k, d in {**keys, "final_regret": float}.items()})
    return long, per_run


def label(algorithm: str) -> str:
    return BANDIT_ALGORITHMS[algorithm].label


def run_block(job) -> None:
    """The entry of the simulation record (:mod:`dpbandits.online.experiments.registry`): one
    seed block of one cell of the Figures 1-2 grid."""
    w = job.wildcards
    cell = Cell(w.setting, w.algorithm, w.eps, int(w.block))
    frame = simulate_block(job.config, cell)
    write_block(frame, figure_checkpoints(job.config), job.output.table)
    logging.info("%s: %d runs, mean final regret %.1f", cell, len(frame), frame.final_regret.mean())
