"""Beyond the paper's horizon: how many users does the faithful algorithm need?

At the paper's horizons (Figure 7(a): n_P <= 2.4e5) the ``primary`` preset (faithful LDP: Laplace(4/eps)
on U and V for every user, every active bin and arm; a valid radius) stays at the uniform policy's
regret for eps <= 4, so the paper's rate claims are not exercised there. These jobs run it on the
Figure 7(a) instance (bump instance, code centres, d = 2, K = 3, B = 100, no auxiliary data) on a
geometric grid of n far past that horizon, and the labelled addition ``coarse_fixed`` (a fixed
four-bin partition with the same user-side randomiser; :mod:`dpbandits.contextual.config`) on the
same grid:

* grid: n = ``n_base`` 2^j (factor 2). A curve at eps runs the grid points with
  n eps^2 >= ``min_n_eps2`` (below every onset: the radius (14) and the rate (6) depend on n and
  eps through n eps^2 in the private regime, so curves start at the same n eps^2) up to its cap:
  ``n_max`` per eps in (1, 2, 4, 8) for ``primary`` (the largest n of the study, eps = 1's cap),
  n eps^2 <= ``coarse_max_n_eps2`` for ``coarse_fixed``;
* the dimension curves (Theorem 2.6's d-dependence): the same instance in d = 1 and d = 3 (its
  reward depends on x^1 only, so the uniform policy's regret is the same in every d) at eps = 8,
  up to ``dim_n_max`` per d in (1, 3); d = 2 is the eps = 8 curve of the ``primary`` grid;
* the radius constant: Proposition 2.7 leaves c in C_n = c ln n open, so the primary curves (each
  eps, and the dimension curves) are also run at the other values of
  :data:`dpbandits.contextual.config.RADIUS_C_RANGE` (jobs ``beyond_c<c>_*``; the jobs without
  that prefix use the released code's c = 2 / ln 2, every preset's default); Theorem 2.6's rows
  past the onset are judged at every c;
* ``runs`` repetitions per point (>= 10 at paper scale); run r at n uses the seed of every
  Figure 7(a)-instance run at (n, r) (:func:`dpbandits.contextual.experiments.designs.run_seed`), so the
  eps values, the two variants, the dimensions and the radius constants share their random numbers
  at each (n, r).

The work is split into static jobs (:data:`BEYOND_JOBS`) so that no job is long: a run costs
O(batches x active bins), so a curve that learns (and refines) within its cap costs more per user
than one that stays at the root; every primary curve is split into repetition blocks (block b of m
runs the repetitions r with r mod m = b). One job = one Parquet file, one
row per (curve, n, repetition), with the radius constant it ran at (column ``c_C``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from dpbandits.contextual.api import simulate
from dpbandits.contextual.config import CODE_RADIUS_C, RADIUS_C_RANGE
from dpbandits.contextual.experiments.designs import Cell, run_seed
from dpbandits.contextual.instances import BumpInstance
from dpbandits.io import write_results

__all__ = ["run_block", "BEYOND_EPS", "BEYOND_DIMS", "DIM_EPS", "PAPER_N", "BeyondJob", "BEYOND_JOBS", "MAX_BLOCKS", "beyond_jobs",
           "beyond_job_config", "curve_n", "beyond_cells", "simulate_beyond", "uniform_per_round"]

BEYOND_EPS = (1.0, 2.0, 4.0, 8.0)
BEYOND_DIMS = (1, 3)  # d = 2: the eps = 8 curve of the primary grid
DIM_EPS = 8.0
PAPER_N = 240_000  # Figure 7's largest n_P


@dataclass(frozen=True)
class BeyondJob:
    """One simulation job: curves of one variant at some eps (and dimensions), one block of the
    repetitions (``block`` of ``blocks``), at the radius constant ``c_C`` (C_n = c_C ln n)."""

    variant: str
    epsilons: tuple[float, ...]
    dims: tuple[int, ...] = (2,)
    block: int = 0
    blocks: int = 1
    c_C: float = CODE_RADIUS_C


def _blocks(name: str, variant: str, epsilons: tuple[float, ...], blocks: int, dims=(2,),
            c_C: float = CODE_RADIUS_C) -> dict[str, BeyondJob]:
    """One job per block of repetitions (``name_b<block>``; just ``name`` for a single block)."""
    if blocks == 1:
        return {name: BeyondJob(variant, epsilons, dims, c_C=c_C)}
    return {f"{name}_b{b}": BeyondJob(variant, epsilons, dims, block=b, blocks=blocks, c_C=c_C) for b in range(blocks)}


def _primary_curves(prefix: str, c_C: float = CODE_RADIUS_C) -> dict[str, BeyondJob]:
    """The primary curves of every eps and the dimension curves, at one radius constant."""
    return {
        **_blocks(f"{prefix}primary_eps1", "primary", (1.0,), 3, c_C=c_C),
        **_blocks(f"{prefix}primary_eps2", "primary", (2.0,), 3, c_C=c_C),
        **_blocks(f"{prefix}primary_eps4", "primary", (4.0,), 2, c_C=c_C),
        **_blocks(f"{prefix}primary_eps8", "primary", (8.0,), 2, c_C=c_C),
        **_blocks(f"{prefix}dims", "primary", (DIM_EPS,), 1, dims=BEYOND_DIMS, c_C=c_C),
    }


# Blocks sized from one measured paper-scale run of each curve (10 repetitions, one core of a
# machine under load ~13 on 2 cores): eps = 1 163 s, 2 223 s, 4 172 s, 8 158 s, coarse_fixed 95 s,
# dims 90 s (a run costs O(batches x active bins): the curves that refine within their caps cost
# most). Blocks of at most 4 repetitions keep every job near 1.5 minutes there.
# The same blocks at the other radius constants of the range (a smaller c learns earlier, so its
# curves refine more and cost more per user).
BEYOND_JOBS = {
    **_primary_curves("beyond_"),
    **_blocks("beyond_coarse_fixed", "coarse_fixed", BEYOND_EPS, 1),
    **{job: spec for c in RADIUS_C_RANGE if c != CODE_RADIUS_C
       for job, spec in _primary_curves(f"beyond_c{c:g}_", c).items()},
}
MAX_BLOCKS = max(job.blocks for job in BEYOND_JOBS.values())  # contextual.beyond.runs must reach it


def beyond_jobs() -> tuple[str, ...]:
    return tuple(BEYOND_JOBS)


def beyond_job_config(job: str) -> tuple[str, ...]:
    """The config values a beyond job reads (its rule's ``params.config``)."""
    if job not in BEYOND_JOBS:
        raise ValueError(f"unknown contextual beyond job {job!r}; allowed: {', '.join(BEYOND_JOBS)}")
    return ("contextual.beyond",)


def curve_n(bcfg: dict, variant: str, eps: float, d: int = 2) -> list[int]:
    """The grid points of one curve (module docstring); ``bcfg`` is ``contextual.beyond``."""
    lo = float(bcfg["min_n_eps2"]) / eps**2
    if variant == "coarse_fixed":
        hi = float(bcfg["coarse_max_n_eps2"]) / eps**2
    elif d != 2:
        hi = float(bcfg["dim_n_max"][BEYOND_DIMS.index(d)])
    else:
        hi = float(bcfg["n_max"][BEYOND_EPS.index(eps)])
    out, n = [], int(bcfg["n_base"])
    while n <= hi * (1 + 1e-12):
        if n >= lo * (1 - 1e-12):
            out.append(n)
        n *= 2
    return out


def beyond_cells(job: str, cfg: dict) -> list[Cell]:
    """Every cell of a beyond job (``cfg``: the ``contextual`` config section)."""
    if job not in BEYOND_JOBS:
        raise ValueError(f"unknown contextual beyond job {job!r}; allowed: {', '.join(BEYOND_JOBS)}")
    spec, bcfg = BEYOND_JOBS[job], cfg["beyond"]
    b = int(bcfg["batch"])
    return [Cell(job, spec.variant, "beyond", eps, n, b, d=d)
            for d in spec.dims for eps in spec.epsilons for n in curve_n(bcfg, spec.variant, eps, d)]


def uniform_per_round(d: int = 2) -> float:
    """Per-round regret of the uniform policy on the bump instance (code centres; any d)."""
    import numpy as np

    _, _, gap = BumpInstance(3, d, "code").target_moments(np.zeros((1, d)), np.ones((1, d)))
    return float(gap.mean())


def simulate_beyond(job: str, cfg: dict, root_seed: int) -> pd.DataFrame:
    """One row per (cell, repetition) of this job's block: the cell, n eps^2, the regret (eq. 1)
    and its per-round value, the engine's diagnostics."""
    spec = BEYOND_JOBS.get(job)
    if spec is None:
        raise ValueError(f"unknown contextual beyond job {job!r}; allowed: {', '.join(BEYOND_JOBS)}")
    runs = int(cfg["beyond"]["runs"])
    reps = [r for r in range(runs) if r % spec.blocks == spec.block]
    rows = []
    params = {} if spec.c_C == CODE_RADIUS_C else {"c_C": spec.c_C}
    for cell in beyond_cells(job, cfg):
        out = simulate(cell.preset, BumpInstance(3, cell.d, "code"), cell.epsilon, cell.n_target, len(reps),
                       [run_seed(root_seed, cell, rep) for rep in reps], {"batch": cell.batch, **params})
        for rep, res in zip(reps, out.raw, strict=True):
            served = (cell.n_target // cell.batch) * cell.batch  # the remainder of n // B is not served
            rows.append({"job": job, "preset": cell.preset, "c_C": spec.c_C, "epsilon": cell.epsilon, "d": cell.d,
                         "n_target": cell.n_target, "n_eps2": cell.n_target * cell.epsilon**2,
                         "batch": cell.batch, "rep": rep, "regret": res.regret,
                         "per_round": res.regret / served, "n_leaves": res.n_leaves,
                         "max_depth": res.max_depth, "n_splits": res.n_splits,
                         "n_eliminations": res.n_eliminations, "s_max": res.settings.s_max})
    return pd.DataFrame(rows)


def run_block(job) -> None:
    """The entry of the simulation record ``beyond`` (:mod:`dpbandits.contextual.experiments.registry`):
    one job of the beyond-horizon grid (``job.wildcards.beyond``)."""
    write_results(simulate_beyond(job.wildcards.beyond, job.config["contextual"], job.config["seed"]),
                  job.output.table)
