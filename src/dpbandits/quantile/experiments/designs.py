"""Experiments of the quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate; spec sections 4
and 6): the designs the figure and check rules read, their cells, and their simulation.

The paper never states delta, the Figure 1 parameters, the x-axes of Fig. 2 (lower) and Fig. 4
(upper) or the eps grid of Fig. 4 (lower); the choices below are the spec's (section 4) and are
recorded here (delta = 0.05 for SEQ, 0.1 for DP-SEQ, grids) and in the ``quantile`` config section
(run counts, caps):

SEQ designs (Algorithm 1, fast engine; per-run records):

* ``disc_grid`` (Fig. 2 lower, Fig. 3 lower, F2, F3b, B15): DISC q = 0.4, Delta in DISC_GAPS;
  xi = 1 at delta in {0.01, 0.05, 0.1}; xi = 1e-5 at delta = 0.05 with the *same* streams as
  xi = 1 (crn "A": pathwise identity) and with independent streams (crn "B");
* ``gauss_q`` (Fig. 3 upper, F3a): N(0, 1) best vs N(0, 0.5^2) (the caption's setting; only the
  ratio matters), q in GAUSS_QS, delta in {0.01, 0.05, 0.1};
* ``fig4_gauss`` / ``fig4_logn`` (Fig. 4 upper, F4a): sigma_i = 2, sigma* in {3, 4, 5}, q in
  FIG4_QS, delta = 0.05, independent streams per family (the paper's 500 runs);
* ``invariance`` (A10, F4a (i)): common random numbers across monotone transforms (exp,
  1e6 x + 7, x^3), DISC xi = 1 vs 1e-5, Gaussian vs log-normal; SEQ and DP-SEQ (reference
  engine, real samples);
* ``pac`` (B3, B4): spec B3's instances at delta in {0.05, 0.2};
* ``gap_scaling`` (B5): DISC q = 0.4 and ZG, Delta in {0.2, ..., smallest_gap};
* ``delta_scaling`` (B6): DISC q = 0.4, Delta = 0.1, delta from 0.3 to 1e-6;
* ``lower_bound`` (B7): MIX, K in {2, 4}, q = 0.5, gamma in LB_GAMMAS (gamma = 0.0125 of the
  spec is left out: its runs need ~10^6 pulls per arm each);
* ``zero_gap`` (B8): ZG with Delta = 0 up to the cap;
* ``k_factor_seq`` (B14, SEQ side) and ``logn10_seq`` (Fig. 4 lower, SEQ line).

Epoch designs (Epoch-SEQ / DP-SEQ, fast order-statistic engine; per-run records):

* ``fig4_lower`` (Fig. 4 lower, F4b): LOGN10, q in {0.85, 0.9}, eps in FIG4_EPS, delta = dp_delta;
* ``dp_pac`` (B9-B11), ``dp_eps`` (B12), ``dp_gap`` (B13), ``dp_k`` (B14), ``epoch_seq`` (B15).

Baseline designs (**additions, not from the paper**: spec 5 and 6.4; QPAC, Max-Q and QLUCB in
:mod:`dpbandits.quantile.qpac`, :mod:`~dpbandits.quantile.max_q`, :mod:`~dpbandits.quantile.qlucb`;
per-run records as SEQ's, every algorithm of a cell on the *same* reward streams (common random
numbers across algorithms); sizes in the config section ``quantile.baselines``):

* ``qpac_discontinuity`` (D1, claim C5): BERN12 at q = 1/2 (a flat level of the suboptimal CDF)
  and q = 0.3 (not one: control), delta = 0.05; SEQ and QPAC (strict and V2 selection, eps = 0),
  all capped at ``d1_cap`` samples per arm;
* ``baseline_context`` (D2): GAUSS ratio 2 at q in {0.7, 0.9}, DISC q = 0.4 at Delta in
  {0.05, 0.1}, delta = 0.05; SEQ, QPAC strict / V2 and QLUCB at eps = 0, Max-Q at eps = Delta / 2;
  per-arm caps: cap_factor x the explicit Theorem 4 bound (Max-Q: its own stopping count, which
  always binds first);
* ``cauchy_tails`` (D3): SEQ on Cauchy(shift) vs Cauchy(0), shift in CAUCHY_SHIFTS (the spec's
  0.5 and 1, widened by 0.25 and 2 so that the slope has four points), q in {0.5, 0.75}.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.io import write_results
from dpbandits.quantile.api import default_cap, simulate
from dpbandits.quantile.instances import make_instance, transformed
from dpbandits.rng import derive_seed

__all__ = ["run_design", "design_config", "Cell", "DESIGNS", "SEQ_DESIGNS", "EPOCH_DESIGNS", "BASELINE_DESIGNS", "cells", "simulate_design",
           "DISC_GAPS", "GAUSS_QS", "FIG4_QS", "FIG4_SIGMAS", "FIG4_EPS", "instance_of"]

PAPER = "quantile"
DELTA = 0.05  # the paper never states delta: spec 4's default for the non-private experiments
DP_DELTA = 0.1  # ... and for DP-SEQ (Fig. 4 lower)
DISC_GAPS = (0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.35)
GAUSS_QS = (0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
FIG_DELTAS = (0.01, 0.05, 0.1)
FIG4_QS = (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
FIG4_SIGMAS = (3.0, 4.0, 5.0)
FIG4_EPS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PAC_DELTAS = (0.05, 0.2)
SCALING_GAPS = (0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625)
B6_DELTAS = (0.3, 0.1, 0.03, 0.01, 1e-3, 1e-4, 1e-6)
LB_GAMMAS = (0.025, 0.05, 0.08, 0.15)
DP_GAP_B12 = 0.75 * 2**-4
B13_GAPS = tuple(0.75 * 2.0**-k for k in range(2, 7))
B12_EPS = (0.01, 0.02, 0.05, 0.1, 0.2)
K_GRID = (2, 4, 8, 16)
D1_QS = (0.5, 0.3)
D2_INSTANCES = (("gauss", 0.7, 1.0, 0.5), ("gauss", 0.9, 1.0, 0.5), ("disc", 0.4, 0.05, 1.0), ("disc", 0.4, 0.1, 1.0))
CAUCHY_SHIFTS = (0.25, 0.5, 1.0, 2.0)
CAUCHY_QS = (0.5, 0.75)
BASELINES = ("qpac_strict", "qpac_v2", "qlucb", "max_q")
TRANSFORMS = ("exp", "affine", "cube")

SEQ_DESIGNS = ("disc_grid", "gauss_q", "fig4_gauss", "fig4_logn", "invariance", "pac", "gap_scaling",
               "delta_scaling", "lower_bound", "zero_gap", "k_factor_seq", "logn10_seq")
EPOCH_DESIGNS = ("fig4_lower", "dp_pac", "dp_eps", "dp_gap", "dp_k", "epoch_seq")
BASELINE_DESIGNS = ("qpac_discontinuity", "baseline_context", "cauchy_tails")  # additions (spec 6.4)
DESIGNS = SEQ_DESIGNS + EPOCH_DESIGNS + BASELINE_DESIGNS

_CAP = "quantile.seq.cap_factor"
_DESIGN_CONFIG = {  # design -> the config values its cells and runs read (provenance)
    "disc_grid": ("quantile.seq.fig_runs", _CAP),
    "gauss_q": ("quantile.seq.fig_runs", _CAP),
    "fig4_gauss": ("quantile.seq.fig4_runs", _CAP),
    "fig4_logn": ("quantile.seq.fig4_runs", _CAP),
    "invariance": ("quantile.seq.invariance_runs", "quantile.dp.invariance_runs", _CAP),
    "pac": ("quantile.seq.pac_runs", "quantile.seq.pac_heavy_runs", _CAP),
    "gap_scaling": ("quantile.seq.smallest_gap", "quantile.seq.scaling_runs", _CAP),
    "delta_scaling": ("quantile.seq.scaling_runs", _CAP),
    "lower_bound": ("quantile.seq.lb_runs", _CAP),
    "zero_gap": ("quantile.seq.zg_runs", "quantile.seq.zg_cap", _CAP),
    "k_factor_seq": ("quantile.seq.k_runs", _CAP),
    "logn10_seq": ("quantile.seq.logn10_runs", _CAP),
    "fig4_lower": ("quantile.dp.fig4_runs",),
    "dp_pac": ("quantile.dp.pac_runs",),
    "dp_eps": ("quantile.dp.scaling_runs",),
    "dp_gap": ("quantile.dp.scaling_runs",),
    "dp_k": ("quantile.dp.k_runs",),
    "epoch_seq": ("quantile.seq.fig_runs",),
    "qpac_discontinuity": ("quantile.baselines.d1_runs", "quantile.baselines.d1_cap", _CAP),
    "baseline_context": ("quantile.baselines.d2_runs", _CAP),
    "cauchy_tails": ("quantile.baselines.d3_runs", _CAP),
}


def design_config(design: str) -> tuple[str, ...]:
    """The config values (dotted paths) one design's simulation reads: what its job declares, so
    that it reruns exactly when one of them changes (dpbandits.workflow.provenance)."""
    if design not in _DESIGN_CONFIG:
        raise ValueError(f"unknown quantile design {design!r}; allowed: {', '.join(DESIGNS)}")
    return _DESIGN_CONFIG[design]


@dataclass(frozen=True)
class Cell:
    """One grid point: an instance (family, q, a, b, K), an algorithm and its parameters.

    ``crn``: cells of a design with the same ``crn`` share their reward streams (common random
    numbers on purpose); ``transform``: a strictly increasing map applied to every arm."""

    design: str
    algorithm: str  # seq | dp_seq | epoch_seq | dp_seq_reference | qpac_strict | qpac_v2 | qlucb | max_q
    family: str
    q: float
    a: float
    b: float
    k: int
    delta: float
    runs: int
    epsilon: float = math.nan
    cap: int = 0  # SEQ: per-arm cap (0: cap_factor x explicit bound); epoch algorithms: max epoch
    crn: tuple = ()
    transform: str = ""
    approx_eps: float = math.nan  # baselines: the approximation eps of QPAC / QLUCB / Max-Q (not privacy)

    def seed(self, root_seed: int) -> np.random.SeedSequence:
        key = self.crn or (self.algorithm, self.family, self.q, self.a, self.b, self.k, self.delta,
                           self.epsilon, self.transform)
        return derive_seed(root_seed, PAPER, self.design, *key)


def instance_of(cell: Cell):
    inst = make_instance(cell.family, cell.q, cell.a, cell.b, cell.k)
    return transformed(inst, cell.transform) if cell.transform else inst


def _seq_cap(cell: Cell, cap_factor: int) -> int:
    """Per-arm cap of SEQ and the baselines: the cell's own, else the library's default rule
    (:func:`dpbandits.quantile.api.default_cap`: cap_factor x the explicit Theorem 4 bound)."""
    return cell.cap if cell.cap else default_cap(instance_of(cell), cell.delta, cap_factor)


def cells(design: str, settings: dict) -> list[Cell]:
    """The cells of one design; ``settings`` is the ``quantile`` config section."""
    # a design's job holds only the values it declares (design_config): missing ones are KeyErrors
    s, d = settings.get("seq", {}), DELTA
    dp, dd = settings.get("dp", {}), DP_DELTA
    if design == "disc_grid":
        r = s["fig_runs"]
        out = [Cell(design, "seq", "disc", 0.4, g, 1.0, 2, dl, r, crn=(g, dl, "A"))
               for g in DISC_GAPS for dl in FIG_DELTAS]
        out += [Cell(design, "seq", "disc", 0.4, g, 1e-5, 2, d, r, crn=(g, d, tag))
                for g in DISC_GAPS for tag in ("A", "B")]
        return out
    if design == "gauss_q":
        return [Cell(design, "seq", "gauss", q, 1.0, 0.5, 2, dl, s["fig_runs"]) for q in GAUSS_QS for dl in FIG_DELTAS]
    if design in ("fig4_gauss", "fig4_logn"):
        fam = design.split("_")[1]
        return [Cell(design, "seq", fam, q, sg, 2.0, 2, d, s["fig4_runs"]) for sg in FIG4_SIGMAS for q in FIG4_QS]
    if design == "invariance":
        r, out = s["invariance_runs"], []
        for fam, q, a, b in (("disc", 0.4, 0.1, 1.0), ("gauss", 0.7, 4.0, 2.0), ("gauss", 0.9, 4.0, 2.0)):
            key = (fam if fam == "disc" else "normal", q, a)
            out.append(Cell(design, "seq", fam, q, a, b, 2, d, r, crn=key))
            out += [Cell(design, "seq", fam, q, a, b, 2, d, r, crn=key, transform=t) for t in TRANSFORMS]
            twin = ("disc", q, a, 1e-5) if fam == "disc" else ("logn", q, a, b)
            out.append(Cell(design, "seq", twin[0], q, twin[2], twin[3], 2, d, r, crn=key))
        for fam, q, a, b in (("disc", 0.4, 0.1875, 1.0), ("gauss", 0.85, 4.0, 2.0)):
            key = ("dp", fam, q, a)
            rd = dp["invariance_runs"]
            out.append(Cell(design, "dp_seq_reference", fam, q, a, b, 2, dd, rd, 1.0, 30, key))
            out += [Cell(design, "dp_seq_reference", fam, q, a, b, 2, dd, rd, 1.0, 30, key, t) for t in TRANSFORMS]
            twin = ("disc", a, 1e-5) if fam == "disc" else ("logn", a, b)
            out.append(Cell(design, "dp_seq_reference", twin[0], q, twin[1], twin[2], 2, dd, rd, 1.0, 30, key))
        return out
    if design == "pac":
        out = []
        for dl in PAC_DELTAS:
            for fam, q, a, b, k, runs in (("gauss", 0.6, 1.0, 0.5, 2, s["pac_runs"]),
                                          ("gauss", 0.85, 1.0, 0.5, 2, s["pac_runs"]),
                                          ("disc", 0.4, 0.05, 1.0, 2, s["pac_runs"]),
                                          ("disc", 0.4, 0.2, 1.0, 2, s["pac_runs"]),
                                          ("logn10", 0.85, math.nan, math.nan, 10, s["pac_runs"]),
                                          ("mix", 0.5, 0.05, math.nan, 4, s["pac_heavy_runs"]),
                                          ("bern12", 0.5, math.nan, math.nan, 2, s["pac_runs"])):
                out.append(Cell(design, "seq", fam, q, a, b, k, dl, runs))
        return out
    if design == "gap_scaling":
        gaps = [g for g in SCALING_GAPS if g >= s["smallest_gap"] - 1e-15]
        return [Cell(design, "seq", fam, q, g, 1.0 if fam == "disc" else math.nan, 2, d, s["scaling_runs"])
                for fam, q in (("disc", 0.4), ("zg", 0.5)) for g in gaps]
    if design == "delta_scaling":
        return [Cell(design, "seq", "disc", 0.4, 0.1, 1.0, 2, dl, s["scaling_runs"]) for dl in B6_DELTAS]
    if design == "lower_bound":
        return [Cell(design, "seq", "mix", 0.5, g, math.nan, k, d, s["lb_runs"]) for k in (2, 4) for g in LB_GAMMAS]
    if design == "zero_gap":
        return [Cell(design, "seq", "zg", 0.5, 0.0, math.nan, 2, 0.1, s["zg_runs"], cap=int(s["zg_cap"]))]
    if design == "k_factor_seq":
        return [Cell(design, "seq", "disc", 0.4, 0.0469, 1.0, k, dd, s["k_runs"]) for k in K_GRID]
    if design == "logn10_seq":
        return [Cell(design, "seq", "logn10", q, math.nan, math.nan, 10, dd, s["logn10_runs"]) for q in (0.85, 0.9)]
    if design == "fig4_lower":
        return [Cell(design, "dp_seq", "logn10", q, math.nan, math.nan, 10, dd, dp["fig4_runs"], e, 30)
                for q in (0.85, 0.9) for e in FIG4_EPS]
    if design == "dp_pac":
        out = []
        for dl in (0.1, 0.4):
            for e in (0.1, 1.0):
                for fam, q, a, b, k in (("disc", 0.4, 0.1875, 1.0, 2), ("disc", 0.4, 0.0469, 1.0, 2),
                                        ("gauss", 0.85, 1.0, 0.5, 2), ("logn10", 0.85, math.nan, math.nan, 10),
                                        ("mix", 0.5, 0.05, math.nan, 4)):
                    out.append(Cell(design, "dp_seq", fam, q, a, b, k, dl, dp["pac_runs"], e, 30))
        return out
    if design == "dp_eps":
        return [Cell(design, "dp_seq", "disc", 0.4, DP_GAP_B12, 1.0, 2, dd, dp["scaling_runs"], e, 30)
                for e in B12_EPS]
    if design == "dp_gap":
        return [Cell(design, "dp_seq", "disc", 0.4, g, 1.0, 2, dd, dp["scaling_runs"], e, 30)
                for e in (0.02, 1000.0) for g in B13_GAPS]
    if design == "dp_k":
        return [Cell(design, "dp_seq", "disc", 0.4, 0.0469, 1.0, k, dd, dp["k_runs"], 0.05, 30) for k in K_GRID]
    if design == "epoch_seq":
        return [Cell(design, "epoch_seq", "disc", 0.4, g, 1.0, 2, d, s["fig_runs"], cap=30) for g in DISC_GAPS]
    if design in BASELINE_DESIGNS:
        return _baseline_cells(design, settings)
    raise ValueError(f"unknown quantile design {design!r}; allowed: {', '.join(DESIGNS)}")


def _baseline_cells(design: str, settings: dict) -> list[Cell]:
    """Cells of the baseline designs (additions, spec 6.4); the algorithms of one instance share
    its reward streams (``crn``)."""
    bs, d = settings["baselines"], DELTA
    if design == "qpac_discontinuity":
        cap = int(bs["d1_cap"])
        return [Cell(design, alg, "bern12", q, math.nan, math.nan, 2, d, bs["d1_runs"], cap=cap, crn=("bern12", q),
                     approx_eps=0.0 if alg != "seq" else math.nan)
                for q in D1_QS for alg in ("seq", "qpac_strict", "qpac_v2")]
    if design == "baseline_context":
        out = []
        for fam, q, a, b in D2_INSTANCES:
            gap = float(make_instance(fam, q, a, b, 2).gaps()[1])
            for alg in ("seq", *BASELINES):
                eps = math.nan if alg == "seq" else gap / 2 if alg == "max_q" else 0.0
                out.append(Cell(design, alg, fam, q, a, b, 2, d, bs["d2_runs"], crn=(fam, q, a, b), approx_eps=eps))
        return out
    return [Cell(design, "seq", "cauchy", q, s, math.nan, 2, d, bs["d3_runs"]) for q in CAUCHY_QS for s in CAUCHY_SHIFTS]


def _cell_columns(cell: Cell, inst) -> dict:
    gaps, best = inst.gaps(), inst.best
    return {"design": cell.design, "algorithm": cell.algorithm, "family": cell.family, "q": cell.q,
            "a": cell.a, "b": cell.b, "K": cell.k, "delta": cell.delta, "epsilon": cell.epsilon,
            "transform": cell.transform, "crn": "|".join(map(str, cell.crn)), "instance": inst.name,
            "best": best, "min_gap": float(np.delete(gaps, best).min())}


def _simulate_cell(cell: Cell, settings: dict, root_seed: int) -> pd.DataFrame:
    """One cell through the library's entry point (:func:`dpbandits.quantile.simulate`)."""
    inst = instance_of(cell)
    seed = cell.seed(root_seed)
    if cell.algorithm in ("seq", *BASELINES):
        name, params = cell.algorithm, {"delta": cell.delta}
        if cell.algorithm.startswith("qpac"):
            name, params["variant"] = "qpac", cell.algorithm.removeprefix("qpac_")
        if cell.algorithm in BASELINES:
            params["approx_eps"] = cell.approx_eps
        cap = None if cell.algorithm == "max_q" else _seq_cap(cell, settings["seq"]["cap_factor"])
        res = simulate(name, inst, None, cell.runs, seed, params, cap=cap)
    else:
        engine = "reference" if cell.algorithm == "dp_seq_reference" else "fast"
        name = "epoch_seq" if cell.algorithm == "epoch_seq" else "dp_seq"
        eps = None if name == "epoch_seq" else cell.epsilon
        res = simulate(name, inst, eps, cell.runs, seed, {"delta": cell.delta}, cap=cell.cap, engine=engine)
    cols = _cell_columns(cell, inst)
    if cell.design in BASELINE_DESIGNS:
        cols["approx_eps"] = cell.approx_eps
    return pd.DataFrame({**cols, "run": np.arange(cell.runs), "k_hat": res.k_hat, "terminated": res.terminated,
                         "correct": res.correct, "total_pulls": res.total_pulls,
                         "pulls": list(res.pulls), "guard": res.guard, "n_final": res.n_final,
                         "elim": list(res.elim), "cap": res.cap})


def simulate_design(design: str, settings: dict, root_seed: int) -> pd.DataFrame:
    """One row per (cell, run): k_hat, correct, terminated, n_final (SEQ: rounds; epoch
    algorithms: final epoch; QPAC: rounds; QLUCB, Max-Q: total pulls), pulls per arm, elim (SEQ,
    QPAC: round, epoch algorithms: epoch; -1 if never), total pulls, guard count, cap; baseline
    designs also record ``approx_eps``."""
    return pd.concat([_simulate_cell(c, settings, root_seed) for c in cells(design, settings)], ignore_index=True)


def run_design(job) -> None:
    """The entry of the simulation record (:mod:`dpbandits.quantile.experiments.registry`): one
    design (``job.wildcards.design``), all its cells."""
    write_results(simulate_design(job.wildcards.design, job.config["quantile"], job.config["seed"]), job.output.table)
