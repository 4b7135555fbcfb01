"""Experiments of the contextual paper (Ma, Jiang, Zhao, Yang & Yu; spec ``ldp_contextual.md``
sections 4 and 6): the simulation jobs the rules run, their cells, and the per-run tables.

Grids are the paper's (section 4.3; eps / gamma / kappa / order lists in code); sizes (repetitions,
horizons, auxiliary sizes, batch sizes) come from the ``contextual`` config section, so the smoke
profile keeps every job and every check at a tiny size. One job = one design (or one slice of
one), one Parquet file, one row per (cell, repetition).

Synthetic designs use the code's reward centres k/(K+1) (the published figures were produced with
them; spec A18) unless a design says otherwise, P_X uniform on [0, 1]^2, K = 3, the correct
Q_gamma sampler (spec F9b: "run with the correct sampler") and the ``primary`` preset unless the
job name says ``authors_code`` / ``literal`` / ``abse``.

================  ==========================================================================
job               cells
================  ==========================================================================
fig6              Figure 6: eps = 1, n_P = 10^4, B = 10, M = 1 (none: n_Q = 0; effective:
                  n_Q = 500, eps_1 = 8, gamma = 0; weak: n_Q = 500, eps_1 = 0.5, gamma = 5),
                  kappa = 1, presets primary and authors_code (uniform arm choice, as the code's
                  Figure 6), curves at x = (1/3, 1/3)
fig7              Figure 7: eps in {1, 2, 4, 8, 1024} x n_P grid; panel a (no aux), panel b
                  (n_Q = 5000, eps_1 = 8, gamma = 0, kappa = 1, M = 1), B = 100; plus ABSE
fig7_code_<eps>   Figure 7(a) grid with the authors_code preset (M = 2 with n_Q = 0 as the code,
                  so that s_max matches; spec C-REF), one job per eps
fig8              Figure 8: n_P = 8e4, M = 2, kappa = 1, B = 500, (gamma, eps) panels
                  {0, 0.2, 2} x {1, 2}, eps_m in {2, 4, 8, 1024}, n_Q grid
fig9a             kappa in {0, 0.2, ..., 1}, eps_m in {1, 8}, gamma = 0.2, n_P = 4e4, eps = 2
fig9b             gamma in {0, 0.2, ..., 2}, eps_m in {2, 8}, kappa = 1, n_P = 4e4, eps = 2
fig9c             order (eps_m = 2 first vs 8 first), gamma = 0, kappa = 1, eps in {1, 2, 8},
                  n_P in {1e4, 8e4}, B = 500
presets           the literal and unit_constants presets on an eps x n_P grid (E-LITERAL, the
                  presets figure), B as Figure 7
t34c              T-3.4c: (n_Q, eps_m) = (4e4, 2) vs (1e4, 4) (equal kappa^2 n_Q eps_m^2), gamma = 0,
                  Figure 8's n_P, M = 2, B
baselines_n       T-2.5: Linear and NN at eps = 1 on the synthetic instance over an n_P grid
theory_n          T-2.6a/b: eps in {0.5, 1, 2, 8, 1024} x n_P grid up to the long horizon, B = 500,
                  both centre conventions (paper centres: eps in {2, 8, 1024} only)
theory_eps        T-2.6c: n_P = 3.2e5, eps in {0.5, 1, 2, 4, 8}, B = 500
theory_dim        T-2.6d: d in {1, 2, 3} (the bump instance depends on x^1 only), eps = 4, the
                  T-2.6c horizon and batch size, runs paired across d by their seed
sym7              FS1, Figure 7(a)'s grid (no auxiliary data) on the K = 2 symmetric instance
sym8              FS1, Figure 8's grid (every cell of ``fig8``) on the symmetric instance
sym9              FS1, Figure 9(a)/(b) on the symmetric instance, eps_m = 8 panels only: n_P, B and
                  n_Q grid of Figure 9, eps = 2, M = 2; kappa in {0, 0.2, ..., 1} at gamma = 0.2 and
                  gamma in {0, 0.2, ..., 2} at kappa = 1
msweep            FS2 (the supplement's S2 settings, spec 4.3): M in {0, ..., 6} auxiliary datasets
                  of n_Q = ``msweep.n_aux`` each, eps_m = 2, gamma = 0.2, kappa = 0 (as S2), eps = 2,
                  ``msweep.n_target`` and ``msweep.batch``
table_<dataset>   Table 2 on one dataset: LDPMAB w/wo (primary), Linear w/wo, NN w/wo, ABSE, and the
                  control LDPMAB code wo (the authors_code preset on the same users)
================  ==========================================================================

Deviation (a documented subset): FS1 reruns Figures 7(a) and 8 on their full grids but Figure 9
without its eps_m in {1, 2} panels (the FS1 criterion is about eps_m >= 4) and without Figure
9(c) (the feeding order).

Seeds: every run derives its SeedSequence from the root seed and (paper, "run", instance, n_P,
repetition) only, so runs that differ in eps, auxiliary data, order or preset share their
random streams (common random numbers on purpose); paired tests pair by
repetition. Table 2's repetitions share one permutation of the data across methods.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpbandits.contextual.api import simulate
from dpbandits.contextual.config import preset
from dpbandits.contextual.instances import BumpInstance, SymmetricInstance
from dpbandits.contextual.ldpmab import Source, run_ldpmab
from dpbandits.io import write_results
from dpbandits.rng import derive_seed, make_rng

__all__ = ["run_design", "PAPER", "EPS_GRID", "CODE_METHOD", "JOBS", "EXTRA_JOBS", "jobs", "job_config", "simulate_job", "run_seed", "Cell", "cells",
           "make_instance",
           "fig6_settings", "TEST_POINT", "DATASETS", "TABLE_BUDGETS", "simulate_table",
           "load_table_data", "AUTHORS_FIG7A", "partition_example"]

PAPER = "contextual"
EPS_GRID = (1.0, 2.0, 4.0, 8.0, 1024.0)
TEST_POINT = (1.0 / 3.0, 1.0 / 3.0)
GAMMAS_FIG8 = (0.0, 0.2, 2.0)
EPS_AUX_FIG8 = (2.0, 4.0, 8.0, 1024.0)
KAPPAS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
GAMMAS_FIG9B = tuple(round(0.2 * i, 1) for i in range(11))
DATASETS = ("adult", "jobs", "taxi")
TABLE_BUDGETS = ((1.0, 1.0), (1.0, 4.0), (2.0, 1.0), (2.0, 4.0))
# Table 2's control method: LDPMAB with the authors' code preset (not in the paper's table)
CODE_METHOD = "LDPMAB code"
# Authors' logged means of Figure 7(a) (spec section 4.3; their code, 30+ repetitions per cell)
AUTHORS_FIG7A = {
    1.0: {10000: 3879, 40000: 12345, 80000: 17384, 160000: 34751, 240000: 44578},
    2.0: {10000: 3333, 40000: 8283, 80000: 12858, 160000: 19771, 240000: 25979},
    4.0: {10000: 2388, 40000: 4655, 80000: 6799, 160000: 10131, 240000: 14518},
    8.0: {10000: 1675, 40000: 2918, 80000: 4037, 160000: 5424, 240000: 7569},
    1024.0: {10000: 1420, 40000: 1897, 80000: 2019, 160000: 2094, 240000: 2175},
}


@dataclass(frozen=True)
class Cell:
    """One grid cell: the target and its auxiliary sources (in feeding order)."""

    job: str
    preset: str
    panel: str
    epsilon: float
    n_target: int
    batch: int
    aux: tuple[Source, ...] = ()
    centres: str = "code"
    order: str = ""
    setting: str = ""
    d: int = 2
    instance: str = "bump"  # bump (section 4.1, K = 3) | symmetric (the K = 2 alternative)

    @property
    def sources(self) -> list[Source]:
        return [*self.aux, Source(self.n_target, self.epsilon, target=True)]

    def row(self) -> dict:
        fed = [a for a in self.aux if a.n > 0]
        first = fed[0] if fed else None
        return {"job": self.job, "preset": self.preset, "panel": self.panel, "setting": self.setting,
                "centres": self.centres, "epsilon": self.epsilon, "n_target": self.n_target,
                "batch": self.batch, "M": len(self.aux), "n_aux": first.n if first else 0,
                "eps_aux": first.epsilon if first else math.nan,
                "eps_aux_last": fed[-1].epsilon if fed else math.nan,
                "gamma": first.gamma if first else math.nan,
                "kappa": first.kappa if first else math.nan, "order": self.order,
                **({"d": self.d, "instance": self.instance} if self.job in EXTRA_JOBS else {})}


def run_seed(root_seed: int, cell: Cell, rep: int) -> np.random.SeedSequence:
    """Shared by every cell of an instance with the same n_P (and by every d of the bump instance)."""
    label = cell.centres if cell.instance == "bump" else cell.instance
    return derive_seed(root_seed, PAPER, "run", label, cell.n_target, rep)


def make_instance(cell: Cell):
    if cell.instance == "symmetric":
        return SymmetricInstance()
    return BumpInstance(3, cell.d, cell.centres)


def fig6_settings(n_aux: int) -> dict[str, tuple[Source, ...]]:
    return {"none": (Source(0, 2.0),),
            "effective": (Source(n_aux, 8.0, gamma=0.0, kappa=1.0),),
            "weak": (Source(n_aux, 0.5, gamma=5.0, kappa=1.0),)}


def _code_aux_placeholder() -> tuple[Source, ...]:
    return (Source(0, 1024.0), Source(0, 1024.0))


def cells(job: str, cfg: dict) -> list[Cell]:
    """Every cell of a job (``cfg`` is the ``contextual`` config section)."""
    if job == "fig6":
        f = cfg["fig6"]
        out = []
        for name in ("primary", "authors_code"):
            for setting, aux in fig6_settings(int(f["n_aux"])).items():
                out.append(Cell(job, name, "", 1.0, int(f["n_target"]), int(f["batch"]), aux, setting=setting))
        return out
    if job == "fig7":
        f = cfg["fig7"]
        b, na = int(f["batch"]), int(f["n_aux"])
        out = []
        for n in f["n_target"]:
            for eps in EPS_GRID:
                out.append(Cell(job, "primary", "a", eps, int(n), b))
                out.append(Cell(job, "primary", "b", eps, int(n), b, (Source(na, 8.0, gamma=0.0, kappa=1.0),)))
            out.append(Cell(job, "abse", "a", math.inf, int(n), b))
        return out
    if job.startswith("fig7_code_"):
        eps = float(job.removeprefix("fig7_code_"))
        f = cfg["fig7"]
        return [Cell(job, "authors_code", "a", eps, int(n), int(f["batch"]), _code_aux_placeholder())
                for n in f["n_target"]]
    if job == "fig8":
        f = cfg["fig8"]
        n, b = int(f["n_target"]), int(f["batch"])
        out = []
        for eps in (1.0, 2.0):
            for gamma in GAMMAS_FIG8:
                panel = f"gamma={gamma:g}, eps={eps:g}"
                for na in f["n_aux"]:
                    for em in (EPS_AUX_FIG8 if na > 0 else (math.nan,)):
                        aux = (tuple(Source(int(na), em, gamma=gamma, kappa=1.0) for _ in range(2)) if na
                               else _code_aux_placeholder())
                        out.append(Cell(job, "primary", panel, eps, n, b, aux))
        return out
    if job in ("fig9a", "fig9b"):
        f = cfg["fig9"]
        n, b = int(f["n_target"]), int(f["batch"])
        out = []
        if job == "fig9a":
            for em in (1.0, 8.0):
                for kappa in KAPPAS:
                    for na in f["n_aux"]:
                        aux = (tuple(Source(int(na), em, gamma=0.2, kappa=kappa) for _ in range(2)) if na
                               else _code_aux_placeholder())
                        out.append(Cell(job, "primary", f"eps_m={em:g}", 2.0, n, b, aux,
                                        setting=f"kappa={kappa:g}"))
        else:
            for em in (2.0, 8.0):
                for gamma in GAMMAS_FIG9B:
                    for na in f["n_aux"]:
                        if na == 0:
                            continue  # the code comments the n_Q = 0 line out
                        aux = tuple(Source(int(na), em, gamma=gamma, kappa=1.0) for _ in range(2))
                        out.append(Cell(job, "primary", f"eps_m={em:g}", 2.0, n, b, aux,
                                        setting=f"gamma={gamma:g}"))
        return out
    if job == "fig9c":
        f = cfg["fig9"]
        b = int(f["order_batch"])
        out = []
        for n in f["order_n_target"]:
            for eps in (1.0, 2.0, 8.0):
                for na in f["n_aux"]:
                    if na == 0:
                        continue
                    for order, ems in (("increasing", (2.0, 8.0)), ("decreasing", (8.0, 2.0))):
                        aux = tuple(Source(int(na), em, gamma=0.0, kappa=1.0) for em in ems)
                        out.append(Cell(job, "primary", f"n_P={int(n)}", eps, int(n), b, aux, order=order))
        return out
    if job == "presets":
        f = cfg["presets"]
        return [Cell(job, name, "a", float(eps), int(n), int(cfg["fig7"]["batch"]))
                for name in ("literal", "unit_constants") for n in f["n_target"] for eps in f["epsilons"]]
    if job == "t34c":
        f = cfg["fig8"]
        n, b = int(f["n_target"]), int(f["batch"])
        (n2, n4) = (int(v) for v in f["t34c_n_aux"])
        return [Cell(job, "primary", f"n_Q={na}, eps_m={em:g}", eps, n, b,
                     tuple(Source(na, em, gamma=0.0, kappa=1.0) for _ in range(2)))
                for eps in (1.0, 2.0) for na, em in ((n2, 2.0), (n4, 4.0))]
    if job == "theory_n":
        f = cfg["theory"]
        b = int(f["batch"])
        out = []
        for n in f["n_target"]:
            for eps in (2.0, 8.0, 1024.0):
                for centres in ("code", "paper"):
                    out.append(Cell(job, "primary", "n", eps, int(n), b, centres=centres))
        for n in f["long_n_target"]:
            for eps in (0.5, 1.0):
                out.append(Cell(job, "primary", "long", eps, int(n), b))
        return out
    if job == "theory_eps":
        f = cfg["theory"]
        return [Cell(job, "primary", "eps", eps, int(f["eps_n_target"]), int(f["batch"]))
                for eps in (0.5, 1.0, 2.0, 4.0, 8.0)]
    if job == "theory_dim":
        f = cfg["theory"]
        return [Cell(job, "primary", "dim", 4.0, int(f["eps_n_target"]), int(f["batch"]), d=d) for d in DIMS]
    if job.startswith("sym"):
        return _symmetric_cells(job, cfg)
    if job == "msweep":
        f = cfg["msweep"]
        n, b, na = int(f["n_target"]), int(f["batch"]), int(f["n_aux"])
        return [Cell(job, "primary", "M", 2.0, n, b,
                     tuple(Source(na, 2.0, gamma=0.2, kappa=MSWEEP_KAPPA) for _ in range(m)), setting=f"M={m}")
                for m in MSWEEP_M]
    raise ValueError(f"unknown contextual job {job!r}; allowed: {jobs()}")


def _symmetric_cells(job: str, cfg: dict) -> list[Cell]:
    """FS1: Figures 7(a), 8 and 9 on the K = 2 symmetric instance (subsets: module docstring)."""
    sym = {"instance": "symmetric"}
    if job == "sym7":
        b = int(cfg["fig7"]["batch"])
        return [Cell(job, "primary", "a", eps, int(n), b, **sym) for n in cfg["fig7"]["n_target"] for eps in EPS_GRID]
    if job == "sym8":
        out = [Cell(job, c.preset, c.panel, c.epsilon, c.n_target, c.batch, c.aux, **sym) for c in cells("fig8", cfg)]
        return out
    if job == "sym9":
        n, b = int(cfg["fig9"]["n_target"]), int(cfg["fig9"]["batch"])
        settings = [("kappa", f"kappa={k:g}", 0.2, k) for k in KAPPAS]
        settings += [("gamma", f"gamma={g:g}", g, 1.0) for g in GAMMAS_FIG9B]
        out = []
        for panel, setting, gamma, kappa in settings:
            for na in cfg["fig9"]["n_aux"]:
                aux = (tuple(Source(int(na), SYM9_EPS_AUX, gamma=gamma, kappa=kappa) for _ in range(2)) if na
                       else _code_aux_placeholder())
                out.append(Cell(job, "primary", panel, 2.0, n, b, aux, setting=setting, **sym))
        return out
    raise ValueError(f"unknown contextual job {job!r}; allowed: {jobs()}")


DIMS = (1, 2, 3)
SYM9_EPS_AUX = 8.0
MSWEEP_M = tuple(range(7))
MSWEEP_KAPPA = 0.0  # the supplement's S2 setting (spec 4.3)
EXTRA_JOBS = ("theory_dim", "sym7", "sym8", "sym9", "msweep")
JOBS = ("fig6", "fig7", *(f"fig7_code_{e:g}" for e in EPS_GRID), "fig8", "t34c", "fig9a", "fig9b",
        "fig9c", "presets", "theory_n", "theory_eps", "baselines_n", *EXTRA_JOBS)


def jobs() -> tuple[str, ...]:
    return JOBS


def job_config(job: str) -> tuple[str, ...]:
    """The config values (dotted paths) one simulation job reads: what its rule declares, so that
    it reruns exactly when one of them changes (dpbandits.workflow.provenance)."""
    c = "contextual"
    if job == "fig6":
        return (f"{c}.fig6",)
    if job.startswith("theory"):
        return (f"{c}.theory",)
    if job in ("fig7", "sym7") or job.startswith("fig7_code_"):
        return (f"{c}.runs", f"{c}.fig7")
    if job in ("fig8", "t34c", "sym8"):
        return (f"{c}.runs", f"{c}.fig8")
    if job in ("fig9a", "fig9b", "fig9c", "sym9"):
        return (f"{c}.runs", f"{c}.fig9")
    if job == "presets":
        return (f"{c}.runs", f"{c}.presets", f"{c}.fig7.batch")
    if job == "baselines_n":
        return (f"{c}.runs", f"{c}.baselines", f"{c}.fig7.batch")
    if job == "msweep":
        return (f"{c}.runs", f"{c}.msweep")
    raise ValueError(f"unknown contextual job {job!r}; allowed: {', '.join(JOBS)}")


def _runs_for(job: str, cfg: dict) -> int:
    if job == "fig6":
        return int(cfg["fig6"]["runs"])
    if job.startswith("theory"):
        return int(cfg["theory"]["runs"])
    return int(cfg["runs"])


def simulate_job(job: str, cfg: dict, root_seed: int) -> pd.DataFrame:
    """One row per (cell, repetition): the cell's columns, the regret (eq. 1) and diagnostics.
    ``fig6`` rows also carry the per-batch regret and the active-arm bitmask at x."""
    if job == "baselines_n":
        return simulate_baselines_n(cfg, root_seed)
    rows = []
    runs = _runs_for(job, cfg)
    for cell in cells(job, cfg):
        inst = make_instance(cell)
        params = {"batch": cell.batch}
        if job == "fig6" and cell.preset == "authors_code":
            params["arm_policy"] = "uniform"
        out = simulate(cell.preset, inst, cell.epsilon, cell.n_target, runs,
                       [run_seed(root_seed, cell, rep) for rep in range(runs)], params, aux=cell.aux,
                       test_point=TEST_POINT if job in ("fig6", "fig9c") else None)
        for rep, res in enumerate(out.raw):
            row = {**cell.row(), "rep": rep, "regret": res.regret,
                   "n_leaves": res.n_leaves, "max_depth": res.max_depth, "n_splits": res.n_splits,
                   "n_eliminations": res.n_eliminations, "s_max": res.settings.s_max,
                   "x_mask_start": res.x_mask_start}
            if job == "fig6":
                row["regret_curve"] = res.regret_curve.tolist()
                row["x_mask"] = res.x_mask.tolist()
            rows.append(row)
    return pd.DataFrame(rows)


def simulate_baselines_n(cfg: dict, root_seed: int) -> pd.DataFrame:
    """Linear and NN (eps = 1) on the synthetic instance (code centres): per n_P one sample of
    contexts and reward coins, permuted per repetition (the real-data protocol), pseudo-regret."""
    from dpbandits.contextual.linear import LogisticModel, private_sgd_bandit
    from dpbandits.contextual.nn import MLPModel

    f = cfg["baselines"]
    runs, batch = int(cfg["runs"]), int(cfg["fig7"]["batch"])
    inst = BumpInstance(3, 2, "code")
    rows = []
    for n in f["n_target"]:
        rng = make_rng(root_seed, PAPER, "baselines_n", int(n))
        x = inst.sample_target(int(n), rng)
        mean = inst.reward(x)
        y = (rng.random(mean.shape) < mean).astype(float)
        order = np.argsort(rng.random((runs, int(n))), axis=1)
        for method, model in (("Linear", LogisticModel(2)), ("NN", MLPModel(2))):
            res = private_sgd_bandit(model, x, y, order, float(f["epsilon"]), batch, rng, f_target=mean)
            for rep in range(runs):
                rows.append({"job": "baselines_n", "preset": method, "epsilon": float(f["epsilon"]),
                             "n_target": int(n), "batch": batch, "rep": rep,
                             "regret": float(res.regret_curve[rep].sum())})
    return pd.DataFrame(rows)


def partition_example(cfg: dict, root_seed: int) -> tuple[dict, str]:
    """Figure 3: the final partition of one primary run at eps = 1024 and the largest Figure 7
    horizon (bins with one active arm are not refined further by the engine)."""
    n = int(max(cfg["fig7"]["n_target"]))
    batch = int(cfg["fig7"]["batch"])
    cell = Cell("fig3", "primary", "a", 1024.0, n, batch)
    res = simulate("primary", BumpInstance(3, 2, "code"), cell.epsilon, cell.n_target, 1,
                   [run_seed(root_seed, cell, 0)], {"batch": batch}, aux=cell.aux).raw[0]
    title = (f"Max-edge partition of one run (primary, eps = 1024, n_P = {n:,}, B = {batch}); "
             f"{res.n_leaves} bins, depth <= {res.max_depth}")
    return res.leaves, title


# ---------------------------------------------------------------------------------------------
# Table 2


def load_table_data(name: str, tables_cfg: dict, root_seed: int, adult_manifest: str | None = None):
    """One dataset of Tables 1-2 with its provenance (``realdata`` module docstring): the local
    file ``tables_cfg[<name>_csv]`` when set; for Adult otherwise the download manifest
    ``adult_manifest`` (rule contextual_download_adult): the verified real files, or the
    surrogate labelled as a fallback when the manifest says Adult could not be fetched; else the
    surrogate. ``target_fraction`` scales the target of real data (a seeded subset) as well as
    of the surrogates."""
    from pathlib import Path

    from dpbandits.contextual import realdata

    path = tables_cfg.get(f"{name}_csv") or ""
    fraction = float(tables_cfg["target_fraction"][name])
    surrogate_rng = make_rng(root_seed, PAPER, "surrogate", name)
    if path or (name == "adult" and adult_manifest):
        if path and not Path(path).exists():
            raise FileNotFoundError(f"contextual.tables.{name}_csv: {path} does not exist")
        if path and name == "adult":
            data = realdata.load_adult(path)
        elif path:
            data = realdata.load_classification_csv(path, name, **(tables_cfg.get(f"{name}_columns") or {}))
        else:
            manifest = realdata.read_manifest(adult_manifest)
            if manifest["status"] != "ok":
                reason = "; ".join(f"{a['source']}: {a['error']}" for a in manifest.get("attempts", []))
                surrogate = realdata.make_surrogate(name, surrogate_rng, fraction)
                origin, label = realdata.surrogate_label(name, reason)
                return dataclasses.replace(surrogate, origin=origin, data_used=label,
                                           notes={**surrogate.notes, "fallback_reason": reason})
            data = realdata.load_adult_manifest(adult_manifest)
        return realdata.subsample_target(data, fraction, make_rng(root_seed, PAPER, "subsample", name))
    return realdata.make_surrogate(name, surrogate_rng, fraction)


def simulate_table(name: str, cfg: dict, root_seed: int, adult_manifest: str | None = None) -> pd.DataFrame:
    """Table 2 on one dataset: per (method, eps, eps_m, repetition) the realised cumulative
    reward at t = n_P / 4 and t = n_P (in batches of B users; the remainder is dropped). The
    dataset's shape and provenance (``ClassificationData.shape_row``: origin, data_used,
    data_source, data_sha256, row counts) are columns; ``frame.attrs["provenance"]`` holds
    ``realdata.provenance`` for the Parquet metadata."""
    from dpbandits.contextual import realdata
    from dpbandits.contextual.linear import LogisticModel, private_sgd_bandits
    from dpbandits.contextual.nn import MLPModel

    tcfg = cfg["tables"]
    runs, batch = int(tcfg["runs"]), int(tcfg["batch"])
    data = load_table_data(name, tcfg, root_seed, adult_manifest)
    orders = realdata.bandit_orders(data, runs, make_rng(root_seed, PAPER, "table", name, "orders"))
    y_t = data.rewards(data.label_target)
    y_a = [data.rewards(lab) for lab in data.label_aux]
    nb = data.label_target.size // batch
    quarter = nb // 4
    rows = []

    def add(method, aux_flag, eps, eps_m, rep, curve):
        rows.append({"dataset": name, "origin": data.origin, "method": method, "aux": aux_flag,
                     "epsilon": eps, "eps_aux": eps_m, "rep": rep, "n_target": int(data.label_target.size),
                     "reward_quarter": float(curve[:quarter].sum()), "reward_full": float(curve.sum())})

    # LDPMAB (primary) with and without the M auxiliary datasets, and ABSE (non-private)
    for rep in range(runs):
        target = {"x": data.x_target[orders["target"][rep]], "y": y_t[orders["target"][rep]]}
        aux_data = []
        for m in range(len(data.x_aux)):
            idx, arm = orders["aux_order"][m][rep], orders["aux_arm"][m][rep]
            aux_data.append({"x": data.x_aux[m][idx], "arm": arm, "y": y_a[m][idx, arm]})
        seed = derive_seed(root_seed, PAPER, "table", name, rep)
        n = data.label_target.size
        res = run_ldpmab(preset("abse", batch=batch), [Source(n, math.inf, target=True)], seed,
                         data=[target], k=data.k, d=data.d)
        add("ABSE", "wo", math.inf, math.nan, rep, res.reward_curve)
        for eps in sorted({e for e, _ in TABLE_BUDGETS}):
            res = run_ldpmab(preset("primary", batch=batch), [Source(n, eps, target=True)], seed,
                             data=[target], k=data.k, d=data.d)
            add("LDPMAB", "wo", eps, math.nan, rep, res.reward_curve)
        for eps, eps_m in TABLE_BUDGETS:
            sources = [Source(a.size, eps_m, kappa=1.0) for a in data.label_aux] + [Source(n, eps, target=True)]
            res = run_ldpmab(preset("primary", batch=batch), sources, seed, data=[*aux_data, target],
                             k=data.k, d=data.d)
            add("LDPMAB", "w", eps, eps_m, rep, res.reward_curve)
        # the control of the pipeline: the authors' code preset in place of the faithful LDPMAB,
        # without auxiliary data, on the same users in the same order (run last: the runs above keep
        # their streams)
        for eps in sorted({e for e, _ in TABLE_BUDGETS}):
            res = run_ldpmab(preset("authors_code", batch=batch), [Source(n, eps, target=True)], seed,
                             data=[target], k=data.k, d=data.d)
            add(CODE_METHOD, "wo", eps, math.nan, rep, res.reward_curve)
    # Linear and NN, vectorised over repetitions and budgets (w: the first auxiliary dataset
    # only, spec A25); each (method, w/wo, budget) has its own stream
    aux0 = (data.x_aux[0], y_a[0], orders["aux_order"][0], orders["aux_arm"][0]) if data.x_aux else None
    for method, model in (("Linear", LogisticModel(data.d)), ("NN", MLPModel(data.d))):
        sgd_runs = [("wo", eps, math.nan, make_rng(root_seed, PAPER, "table", name, method, "wo", eps), None)
                 for eps in sorted({e for e, _ in TABLE_BUDGETS})]
        sgd_runs += [("w", eps, eps_m, make_rng(root_seed, PAPER, "table", name, method, "w", eps, eps_m),
                   eps_m if aux0 is not None else None) for eps, eps_m in TABLE_BUDGETS]
        results = private_sgd_bandits(model, data.x_target, y_t, orders["target"], batch,
                                      [(eps, rng, aux_eps) for _, eps, _, rng, aux_eps in sgd_runs], aux=aux0)
        for (flag, eps, eps_m, _, _), res in zip(sgd_runs, results, strict=True):
            for rep in range(runs):
                add(method, flag, eps, eps_m, rep, res.reward_curve[rep])
    frame = pd.DataFrame(rows)
    shape = data.shape_row()
    for key, value in shape.items():
        if key not in frame:
            frame[key] = value
    frame.attrs["provenance"] = realdata.provenance(data)
    return frame


def run_design(job) -> None:
    """The entry of the simulation record ``simulate`` (:mod:`dpbandits.contextual.experiments.registry`):
    one simulation job (``job.wildcards.job``)."""
    write_results(simulate_job(job.wildcards.job, job.config["contextual"], job.config["seed"]), job.output.table)
