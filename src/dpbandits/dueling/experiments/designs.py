"""Experiments of the dueling paper (Saha & Asi 2024; spec section 5): the designs the checks
read, their cells, and their simulation. The paper has no experiments of its own, so every design
here is the specification's (grids in code, sizes from the ``dueling`` config section).

Algorithm 1 designs (DP-EBS-Elimination, fast block engine; one job per design and variant):

* ``correctness`` (B1a, B2): F1 K = 4, 8; F2 K = 4 gap 0.1; F3 K = 4, 8 step 0.2; F4 K = 10
  (instance seeds), calibrated widths, delta = 1/T;
* ``stress`` (B1b): F3 K = 8 step 0.5, calibrated, delta in {0.05, 0.2}, many runs;
* ``eps_grid`` (B4, B7, B9): F1 K = 4, eps in {0.1, 0.2, 0.5, 1}; variants r1 (the paper's, with
  the spec's privacy fix), nonprivate (eps = inf, the overhead's reference) and ldp (randomized
  response, Remark 3);
* ``k_grid`` (B5, B7): F1 K in {4, 8, 16, 32}, eps = 0.5; variants r1, naive (eps/(2K) per
  counter) and nonprivate;
* ``gap_grid`` (B6): F2 K = 4, gap in {0.05, 0.1, 0.2, 0.3}, eps in {0.5, 1}; r1 and nonprivate;
* ``log_t`` (B3): F3 K = 8 step 0.2, eps in {0.5, 1}, a grid of horizons (the algorithm depends
  on T through its widths, so each T is its own run);
* ``baselines`` (B8): F3 K = 8 step 0.2 and F4 K = 10, A1-NP and eps = 1, against the non-private
  baselines RUCB, RCS, IF2 and Doubler (:func:`simulate_baseline`, one job per baseline).

Algorithm 2 designs (GOptimal-DPDB, batched simulator; each run covers a list of horizons):

* ``dense`` (C2-C6, C9): G1 M = 256 (circle) and G3 (Fibonacci sphere, d = 3), eps in {0.1, 1, inf};
* ``finite`` (C7, C8, C6 plateau): G2 K = 100, d in {2, ..., 6}, S in {0.5, 1, 2, 3}, eps in
  {0.1, 0.3, 1, inf}, min gap >= 0.01, T = 1e14;
* ``stress`` (C2 stress): G2 d in {2, 4}, multipliers c_p = c_s in {1, 0.1, 0.01, 1e-3};
* ``practice`` (C10, C11): G1 M = 64 and G2 K = 50, d = 3: the non-private paper preset and a
  "practical" one (kappa = inst, t0 = 0, c_p = c_s = 0.01) at the baseline horizon, against MaxInP
  (:func:`simulate_maxinp_baseline`); and eps = 1 under every kappa x t0 mode (T = 1e9, 1e12).

Every simulation runs through the library's entry point :func:`dpbandits.dueling.simulate`.

Where these grids differ from the spec's section 5, and why:

* B1(a) runs ``calibrated`` widths only: with ``paper`` widths nothing is eliminated before about
  1e7-1e8 rounds (spec 2.2 arithmetic), so at the correctness horizon a paper-width run never
  leaves its first phase and its CI and retention checks would hold trivially; the paper-width
  Lemma 6 constants are checked exactly (L6-PAPER, L6-CORR).
* F4 uses 5 instance seeds, not 20: each seed is one cell of 30 runs in B1(a); 5 seeds keep the
  design within the time budget, and B1 asks for zero failures over all cells anyway.
* B1(b) and A3 use F3 with step 0.5 (spec's catalogue: 0.1, 0.2): the larger gaps make runs
  eliminate within the stress horizon, so the CIs are exercised across several phases.
* C6's crossover T*(d, eps) fit needs >= 3 finite eps values with a crossover; the dense design
  has eps in {0.1, 1}, so that part of C6 is not evaluated (the rows say which parts are).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.dueling import instances as inst
from dpbandits.io import write_results
from dpbandits.progress import progress
from dpbandits.rng import derive_seed, make_rng

__all__ = ["run_alg1", "run_alg2", "run_maxinp", "run_baseline", "ALG1_DESIGNS", "ALG1_VARIANTS", "FINITE_BASELINES", "simulate_baseline", "ALG2_DESIGNS", "Alg1Cell", "Alg2Cell", "alg1_cells",
           "alg2_cells", "alg1_jobs", "simulate_maxinp_baseline", "finite_instance", "linear_instance"]

PAPER = "dueling"
ALG1_DESIGNS = ("correctness", "stress", "eps_grid", "k_grid", "gap_grid", "log_t", "baselines")
ALG1_VARIANTS = {  # the variants each design runs (one simulation job per pair)
    "correctness": ("r1",),
    "stress": ("r1",),
    "eps_grid": ("r1", "nonprivate", "ldp"),
    "k_grid": ("r1", "naive", "nonprivate"),
    "gap_grid": ("r1", "nonprivate"),
    "log_t": ("r1",),
    "baselines": ("r1", "nonprivate"),
}
FINITE_BASELINES = ("rucb", "rcs", "if2", "doubler")
ALG2_DESIGNS = ("dense", "finite", "stress", "practice")
PRACTICAL_MULTIPLIER = 0.01  # C10's "practical" preset: c_p = c_s (C2-STRESS reports coverage there)

EPS_GRID = (0.1, 0.2, 0.5, 1.0)
K_GRID = (4, 8, 16, 32)
GAP_GRID = (0.05, 0.1, 0.2, 0.3)
STRESS_DELTAS = (0.05, 0.2)
F4_SEEDS = 5


def finite_instance(family: str, k: int, param: float, root_seed: int) -> inst.FiniteInstance:
    """An F instance from its table columns (family, K, param): F1 (param unused), F2 (gap),
    F3 (step), F4 (instance seed index)."""
    if family == "F1":
        return inst.f1(k)
    if family == "F2":
        return inst.f2(k, param)
    if family == "F3":
        return inst.f3(k, param)
    if family == "F4":
        return inst.f4(k, make_rng(root_seed, PAPER, "instance", "F4", k, int(param)))
    raise ValueError(f"unknown finite instance family {family!r}; allowed: F1, F2, F3, F4")


def linear_instance(family: str, k: int, d: int, s: float, index: int, root_seed: int) -> inst.LinearInstance:
    """A G instance from its table columns: G1 (k = M), G3 (k points), G2 (instance seed index;
    redrawn until the smallest gap is >= 0.01, as C7 asks)."""
    if family == "G1":
        return inst.g1(k, s=s)
    if family == "G3":
        return inst.g3(k, s=s)
    if family == "G2":
        return inst.g2(k, d, make_rng(root_seed, PAPER, "instance", "G2", k, d, s, index), s=s, min_gap=0.01)
    raise ValueError(f"unknown linear instance family {family!r}; allowed: G1, G2, G3")


@dataclass(frozen=True)
class Alg1Cell:
    design: str
    variant: str
    family: str
    k: int
    param: float
    epsilon: float  # inf for the non-private variant
    delta: float  # <= 0 means 1/T
    horizon: int
    runs: int
    width: str = "calibrated"

    def describe(self) -> tuple:
        # The seed ignores epsilon and the variant: common random numbers across them (spec 5.0).
        return (PAPER, "alg1", self.design, self.family, self.k, self.param, self.delta, self.horizon)


def _log_t_horizons(top: int) -> list[int]:
    """1e4, 3e4, 1e5, ... up to ``top`` (spec B3)."""
    out, e = [], 4
    while 10**e <= top:
        out += [t for t in (10**e, 3 * 10**e) if t <= top]
        e += 1
    return out


def alg1_cells(design: str, variant: str, settings: dict) -> list[Alg1Cell]:
    """The cells of one Algorithm 1 design for one variant; ``settings`` is ``dueling.alg1``."""
    if design not in ALG1_DESIGNS:
        raise ValueError(f"unknown Algorithm 1 design {design!r}; allowed: {ALG1_DESIGNS}")
    if variant not in ALG1_VARIANTS[design]:
        raise ValueError(f"design {design!r} runs variants {ALG1_VARIANTS[design]}, not {variant!r}")
    runs, T = int(settings["runs"]), int(settings["horizon"])

    def eps_values(grid):
        return (math.inf,) if variant == "nonprivate" else grid

    if design == "correctness":
        Tc, n = int(settings["correctness_horizon"]), int(settings["correctness_runs"])
        specs = [("F1", 4, 0.0), ("F1", 8, 0.0), ("F2", 4, 0.1), ("F3", 4, 0.2), ("F3", 8, 0.2)]
        specs += [("F4", 10, float(i)) for i in range(F4_SEEDS)]
        return [Alg1Cell(design, variant, f, k, p, 1.0, 0.0, Tc, n) for f, k, p in specs]
    if design == "stress":
        Ts, n = int(settings["stress_horizon"]), int(settings["stress_runs"])
        return [Alg1Cell(design, variant, "F3", 8, 0.5, 1.0, d, Ts, n) for d in STRESS_DELTAS]
    if design == "eps_grid":
        return [Alg1Cell(design, variant, "F1", 4, 0.0, e, 0.0, T, runs) for e in eps_values(EPS_GRID)]
    if design == "k_grid":
        return [Alg1Cell(design, variant, "F1", k, 0.0, e, 0.0, T, runs)
                for k in K_GRID for e in eps_values((0.5,))]
    if design == "gap_grid":
        Tg = int(settings["gap_horizon"])
        return [Alg1Cell(design, variant, "F2", 4, g, e, 0.0, Tg, runs)
                for g in GAP_GRID for e in eps_values((0.5, 1.0))]
    if design == "baselines":
        return [Alg1Cell(design, variant, f, k, p, e, 0.0, t, int(settings["baseline_runs"]))
                for f, k, p, t in _baseline_instances(settings) for e in eps_values((1.0,))]
    # log_t
    return [Alg1Cell(design, variant, "F3", 8, 0.2, e, 0.0, t, runs)
            for e in (0.5, 1.0) for t in _log_t_horizons(int(settings["log_t_horizon"]))]


def _baseline_instances(settings: dict) -> list[tuple[str, int, float, int]]:
    """B8's instances (family, K, param, T): F3 K = 8 step 0.2 at the baseline horizon, F4 K = 10
    (instance seed 0) at a tenth of it (RUCB and RCS duel its two closest arms almost every round
    there, so they run round by round)."""
    T = int(settings["baseline_horizon"])
    return [("F3", 8, 0.2, T), ("F4", 10, 0.0, max(T // 10, 1000))]


def simulate_baseline(name: str, settings: dict, root_seed: int) -> pd.DataFrame:
    """One non-private baseline (B8) on B8's instances, with the columns of the Algorithm 1 tables
    it is compared with (variant = the baseline's name, epsilon = inf)."""
    from dpbandits.dueling.api import simulate

    if name not in FINITE_BASELINES:
        raise ValueError(f"unknown finite baseline {name!r}; allowed: {FINITE_BASELINES}")
    frames, runs = [], int(settings["baseline_runs"])
    for family, k, param, T in _baseline_instances(settings):
        instance = finite_instance(family, k, param, root_seed)
        seed = derive_seed(root_seed, PAPER, "baseline", name, family, k, param, T)
        res = simulate(name, instance, None, T, runs, seed).raw
        frames.append(pd.DataFrame({
            "design": "baselines", "variant": name, "family": family, "instance": instance.name,
            "K": k, "param": param, "epsilon": math.inf, "horizon": T, "run": np.arange(runs),
            "regret_pref": res.final_pref, "regret_util": res.final_util,
            "chosen": res.recommended}))
    return pd.concat(frames, ignore_index=True)


def alg1_jobs() -> list[tuple[str, str]]:
    """(design, variant) of every Algorithm 1 simulation job."""
    return [(d, v) for d in ALG1_DESIGNS for v in ALG1_VARIANTS[d]]


def simulate_alg1(design: str, variant: str, settings: dict, root_seed: int) -> pd.DataFrame:
    """One row per (cell, run): the regrets at T and the per-run diagnostics the B checks read
    (commit time, chosen arm, CI violation, per-arm effective counts at elimination, plays)."""
    from dpbandits.dueling.api import simulate

    frames = []
    cells = alg1_cells(design, variant, settings)
    for cell in progress(cells, f"dueling alg1 {design}/{variant}", len(cells)):
        instance = finite_instance(cell.family, cell.k, cell.param, root_seed)
        params = {"variant": variant, "width": cell.width, "delta": None if cell.delta <= 0 else cell.delta}
        res = simulate("dp_ebs_elimination", instance, cell.epsilon, cell.horizon, cell.runs,
                       derive_seed(root_seed, *cell.describe()), params).raw
        frames.append(pd.DataFrame({
            "design": design, "variant": variant, "width": cell.width, "family": cell.family,
            "instance": instance.name, "K": cell.k, "param": cell.param, "epsilon": cell.epsilon,
            "delta": cell.delta if cell.delta > 0 else 1.0 / cell.horizon, "horizon": cell.horizon,
            "run": np.arange(cell.runs),
            "regret_pref": res.regret_pref[:, -1], "regret_util": res.regret_util[:, -1],
            "commit_time": res.commit_time, "chosen": res.chosen,
            "best_eliminated": res.best_eliminated, "ci_violation": res.ci_violation,
            "elim_time": list(res.elim_time), "elim_count": list(res.elim_count),
            "left_plays": list(res.left_plays), "plays": list(res.plays),
        }))
    return pd.concat(frames, ignore_index=True)


# ----------------------------------------------------------------------------------------------
# Algorithm 2


@dataclass(frozen=True)
class Alg2Cell:
    design: str
    family: str
    k: int
    d: int
    s: float
    index: int  # instance seed index (G2)
    epsilon: float
    horizons: tuple[int, ...]
    runs: int
    multiplier: float = 1.0
    kappa_mode: str = "thm"
    t0_mode: str = "paper"

    def describe(self) -> tuple:
        # Common random numbers across epsilon and the kappa / t0 modes (spec 5.0).
        return (PAPER, "alg2", self.design, self.family, self.k, self.d, self.s, self.index,
                self.multiplier)

    @property
    def preset(self) -> str:
        return f"kappa={self.kappa_mode}, t0={self.t0_mode}, c={self.multiplier:g}"


def _dense_horizons(top_exponent: int) -> tuple[int, ...]:
    """1e7 ... 10^top, two points per decade (spec C5)."""
    out = []
    for e in range(7, top_exponent + 1):
        out.append(10**e)
        if e < top_exponent:
            out.append(int(round(10 ** (e + 0.5))))
    return tuple(out)


def alg2_cells(design: str, settings: dict) -> list[Alg2Cell]:
    """The cells of one Algorithm 2 design; ``settings`` is ``dueling.alg2``."""
    if design not in ALG2_DESIGNS:
        raise ValueError(f"unknown Algorithm 2 design {design!r}; allowed: {ALG2_DESIGNS}")
    top = int(settings["max_horizon_exponent"])
    eps_all = (0.1, 1.0, math.inf)
    if design == "dense":
        runs, hs = int(settings["runs"]), _dense_horizons(top)
        return [Alg2Cell(design, fam, k, d, 1.0, 0, e, hs, runs)
                for fam, k, d in (("G1", 256, 2), ("G3", int(settings["dense_points"]), 3))
                for e in eps_all]
    if design == "finite":
        runs = int(settings["finite_runs"])
        return [Alg2Cell(design, "G2", int(settings["finite_arms"]), d, s, 0, e, (10**top,), runs)
                for d in settings["dims"] for s in (0.5, 1.0, 2.0, 3.0)
                for e in (0.1, 0.3, 1.0, math.inf)]
    if design == "practice":  # C10 (practical vs paper preset, non-private) and C11 (kappa x t0)
        runs, T = int(settings["finite_runs"]), int(settings["baseline_horizon"])
        cells = []
        for fam, k, d in (("G1", 64, 2), ("G2", 50, 3)):
            cells += [Alg2Cell(design, fam, k, d, 1.0, 0, math.inf, (T,), runs, c, kap, t0)
                      for c, kap, t0 in ((1.0, "thm", "paper"), (PRACTICAL_MULTIPLIER, "inst", "zero"))]
            cells += [Alg2Cell(design, fam, k, d, 1.0, 0, 1.0, (10**9, 10**12), runs, 1.0, kap, t0)
                      for kap in ("alg", "thm", "inst") for t0 in ("paper", "zero", "adaptive")]
        return cells
    runs = int(settings["finite_runs"])  # stress
    return [Alg2Cell(design, "G2", int(settings["finite_arms"]), d, 1.0, 0, 1.0, (10**12,), runs, c)
            for d in (2, 4) for c in (1.0, 0.1, 0.01, 1e-3)]


def simulate_maxinp_baseline(settings: dict, root_seed: int) -> pd.DataFrame:
    """MaxInP (Saha 2021, non-private, C10) on the instances of the ``practice`` design, at the
    baseline horizon; the columns of the Algorithm 2 run tables."""
    from dpbandits.dueling.api import simulate

    T, runs, frames = int(settings["baseline_horizon"]), int(settings["finite_runs"]), []
    cells = alg2_cells("practice", settings)
    for cell in progress(cells, "dueling maxinp", len(cells)):
        if cell.multiplier != 1.0 or math.isfinite(cell.epsilon):
            continue  # one MaxInP run set per instance
        instance = linear_instance(cell.family, cell.k, cell.d, cell.s, cell.index, root_seed)
        res = simulate("maxinp", instance, None, T, runs,
                       derive_seed(root_seed, PAPER, "maxinp", cell.family, cell.k, cell.d)).raw
        frames.append(pd.DataFrame({"design": "practice", "family": cell.family, "K": cell.k, "d": cell.d,
                                    "S": cell.s, "horizon": T, "run": np.arange(runs), "preset": "MaxInP",
                                    "epsilon": math.inf, "regret_util": res.final_util}))
    return pd.concat(frames, ignore_index=True)


def simulate_alg2(design: str, settings: dict, root_seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-run rows and per-phase rows of every cell of one design, with the cell's columns."""
    from dpbandits.dueling.api import simulate

    runs, phases = [], []
    cells = alg2_cells(design, settings)
    for cell in progress(cells, f"dueling alg2 {design}", len(cells)):
        instance = linear_instance(cell.family, cell.k, cell.d, cell.s, cell.index, root_seed)
        params = {"c_p": cell.multiplier, "c_s": cell.multiplier, "kappa_mode": cell.kappa_mode,
                  "t0_mode": cell.t0_mode}
        res = simulate("goptimal_dpdb", instance, cell.epsilon, cell.horizons, cell.runs,
                       derive_seed(root_seed, *cell.describe()), params).raw
        columns = {"design": design, "family": cell.family, "instance": instance.name, "K": cell.k,
                   "d": cell.d, "S": cell.s, "epsilon": cell.epsilon, "multiplier": cell.multiplier,
                   "kappa_mode": cell.kappa_mode, "t0_mode": cell.t0_mode, "preset": cell.preset,
                   "min_gap": instance.min_gap()}
        runs.append(res.runs.assign(**columns))
        phases.append(res.phases.assign(**columns))
    return pd.concat(runs, ignore_index=True), pd.concat(phases, ignore_index=True)


# The entries of the simulation records (:mod:`dpbandits.dueling.experiments.registry`).


def run_alg1(job) -> None:
    """One Algorithm 1 design (``job.wildcards.design``) for one variant."""
    settings = job.config["dueling"]["alg1"]
    write_results(simulate_alg1(job.wildcards.design, job.wildcards.variant, settings, job.config["seed"]),
                  job.output.table)


def run_alg2(job) -> None:
    """One Algorithm 2 design: its runs and phases tables."""
    runs, phases = simulate_alg2(job.wildcards.design, job.config["dueling"]["alg2"], job.config["seed"])
    write_results(runs, job.output.runs)
    write_results(phases, job.output.phases)


def run_maxinp(job) -> None:
    """MaxInP on the practice design's instances (C10)."""
    write_results(simulate_maxinp_baseline(job.config["dueling"]["alg2"], job.config["seed"]), job.output.table)


def run_baseline(job) -> None:
    """One non-private baseline (``job.wildcards.baseline``) on B8's instances."""
    write_results(simulate_baseline(job.wildcards.baseline, job.config["dueling"]["alg1"], job.config["seed"]),
                  job.output.table)
