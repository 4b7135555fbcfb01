"""Algorithm 2 of the dueling paper gives the same bytes whatever the solvers' last digits: the
canonical design (:mod:`dpbandits.dueling.design`) and the canonical estimate
(:mod:`dpbandits.dueling.mle`) absorb solver perturbations, and the Algorithm 2 design tables are
byte-identical under nudged solver outputs, another BLAS thread count and another BLAS kernel."""

from __future__ import annotations

import math
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dpbandits
from dpbandits.dueling import design, mle
from dpbandits.dueling import goptimal_dpdb as gopt
from dpbandits.dueling.design import (
    G_TOL,
    WEIGHT_UNIT,
    canonical_weights,
    difference_set,
    project,
    span_basis,
)
from dpbandits.dueling.experiments.designs import ALG2_DESIGNS, simulate_alg2
from dpbandits.dueling.instances import g1, g2, sigmoid
from dpbandits.io import write_results

NUDGE = 1e-10  # relative perturbation of a solver's output (cvxpy's own last digits vary by ~1e-5)
SETTINGS = {"runs": 2, "max_horizon_exponent": 10, "dense_points": 40, "finite_runs": 2, "finite_arms": 20,
            "baseline_horizon": 10_000, "dims": [2, 3]}  # smoke-like: every design, kappa and t0 mode
SEED = 7


def _nudge(x: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return x * (1 + NUDGE * rng.choice([-1.0, 1.0], size=np.shape(x)))


def _candidates(arms, survivors):
    _, z = difference_set(arms, survivors)
    return project(z, span_basis(z))


def _problems():
    plane = np.column_stack([np.cos(np.linspace(0, 2, 9)), np.sin(np.linspace(0, 2, 9)), np.zeros(9)])
    return [("circle M=64 (many optimal designs)", g1(64).arms, np.arange(64)),
            ("circle, 20 survivors", g1(64).arms, np.arange(10, 30)),
            ("G2 d=3", g2(30, 3, np.random.default_rng(1)).arms, np.arange(30)),
            ("G2 d=5", g2(25, 5, np.random.default_rng(2)).arms, np.arange(25)),
            ("plane in R^3", plane, np.arange(9))]


# ------------------------------------------------------------------------------ design


@pytest.mark.parametrize("name, arms, survivors", _problems())
def test_canonical_design_is_a_valid_design_on_the_grid(name, arms, survivors):
    des = design.g_optimal_design(arms, survivors)
    units = des.weights / WEIGHT_UNIT
    assert np.all(units == np.round(units)) and np.all(units >= 1)
    assert math.fsum(des.weights) == 1.0 and float(des.weights.sum()) == 1.0
    assert des.reduced and des.support <= des.support_bound
    # g over ALL candidates, recomputed here with LAPACK
    pairs, z = difference_set(arms, survivors)
    y, ys = z @ des.basis, des.z @ des.basis
    g = np.einsum("ij,jk,ik->i", y, np.linalg.inv((ys * des.weights[:, None]).T @ ys), y).max()
    assert g <= des.rank * (1 + G_TOL)
    assert g == pytest.approx(des.g, rel=1e-12)


@pytest.mark.parametrize("name, arms, survivors", _problems())
def test_canonical_design_ignores_the_solvers_last_digits(name, arms, survivors):
    y = _candidates(arms, survivors)
    raw, _ = design.solve_d_optimal(y, "fw")
    base, _, restricted = canonical_weights(y, raw)
    assert restricted  # the weights are the optimum on the support, not the solver's
    for seed in range(3):
        nudged, _, _ = canonical_weights(y, _nudge(raw, seed))
        np.testing.assert_array_equal(nudged, base)


def test_canonical_weights_depend_on_the_support_only():
    """cvxpy's and Frank-Wolfe's raw weights differ by up to ~1e-4 here; on the same support the
    canonical weights are identical bit for bit (the restricted optimum, then the grid)."""
    y = _candidates(g2(30, 3, np.random.default_rng(1)).arms, np.arange(30))
    fw, _ = design.solve_d_optimal(y, "fw")
    cv, _ = design.solve_d_optimal(y, "cvxpy")
    assert np.abs(fw - cv).max() > 1e-7
    a, b = canonical_weights(y, fw)[0], canonical_weights(y, cv)[0]
    assert np.array_equal(a > 0, b > 0)
    np.testing.assert_array_equal(a, b)
    # the restricted optimum satisfies the Kiefer-Wolfowitz condition g = r on its support
    supp = a > 0
    g_supp = design.g_values(y[supp], a[supp])
    np.testing.assert_allclose(g_supp, y.shape[1], rtol=1e-5)


def test_round_weights_exact_ties_and_support():
    w = design.round_weights(np.array([1.0, 1.0, 1.0, 0.0, 1e-12]) / 3)
    assert w[3] == 0.0 and w[4] == WEIGHT_UNIT  # a tiny weight keeps its support point
    assert math.fsum(w) == 1.0 and w.sum() == 1.0
    assert w[0] == w[1] + WEIGHT_UNIT or w[0] == w[1]  # ties go to the lowest index
    assert w[0] >= w[1] >= w[2] - WEIGHT_UNIT


# ------------------------------------------------------------------------------ MLE


def _mle_problem(seed, d=3, s=6, noise=1.0, label_shift=0.0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(s, d))
    z *= 1.5 / np.linalg.norm(z, axis=1, keepdims=True)
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    n = rng.integers(50, 10**6, size=s)
    o = rng.binomial(n, sigmoid(z @ w)) + noise * rng.laplace(size=s) + label_shift * n
    return z, n, o


@pytest.mark.parametrize("seed, shift", [(0, 0.0), (1, 0.0), (2, 0.0), (3, 0.4)])  # 3: the ball is active
def test_canonical_mle_ignores_the_solvers_last_digits(seed, shift, monkeypatch):
    z, n, o = _mle_problem(seed, label_shift=shift)
    base = mle.canonical_mle(z, n, o, 2.0)
    raw = mle.private_mle(z, n, o, 2.0)
    assert np.all(base.w_hat / mle.MLE_GRID == np.round(base.w_hat / mle.MLE_GRID))
    assert np.abs(base.w_hat - raw.w_hat).max() <= mle.MLE_GRID
    assert np.linalg.norm(base.w_hat) <= 2.0 and base.active == raw.active == (shift > 0)
    # cvxpy's solution differs from Newton's by ~1e-9..1e-6, yet gives the same canonical estimate
    via_cvxpy = mle.canonical_mle(z, n, o, 2.0, method="cvxpy")
    np.testing.assert_array_equal(via_cvxpy.w_hat, base.w_hat)
    real = mle.private_mle

    def nudged(*args, **kwargs):
        fit = real(*args, **kwargs)
        return type(fit)(fit.w_hat, _nudge(fit.theta, seed), fit.basis, fit.active, fit.residual, fit.solver,
                         fit.iterations)

    monkeypatch.setattr(mle, "private_mle", nudged)
    again = mle.canonical_mle(z, n, o, 2.0)
    np.testing.assert_array_equal(again.w_hat, base.w_hat)
    assert again.residual == base.residual


# ------------------------------------------------------------------------------ whole simulation


def _write_designs(folder: Path) -> dict[str, bytes]:
    """Every Algorithm 2 design at SETTINGS, written as the workflow writes them; the files' bytes."""
    out = {}
    for name in ALG2_DESIGNS:
        runs, phases = simulate_alg2(name, SETTINGS, SEED)
        for kind, table in (("runs", runs), ("phases", phases)):
            path = folder / f"{name}_{kind}.parquet"
            write_results(table, path)
            out[path.name] = path.read_bytes()
    return out


@pytest.fixture(scope="module")
def reference_tables(tmp_path_factory):
    gopt.DESIGN_CACHE.clear()
    return _write_designs(tmp_path_factory.mktemp("reference"))


def test_simulation_bytes_unchanged_by_nudged_solver_outputs(reference_tables, tmp_path, monkeypatch):
    real_design, real_mle = design.solve_d_optimal, mle.private_mle
    calls = {"design": 0, "mle": 0}

    def nudged_design(y, solver="fw", tol=1e-4):
        pi, used = real_design(y, solver, tol)
        calls["design"] += 1
        return _nudge(pi, calls["design"]), used

    def nudged_mle(*args, **kwargs):
        fit = real_mle(*args, **kwargs)
        calls["mle"] += 1
        return type(fit)(_nudge(fit.w_hat, calls["mle"]), _nudge(fit.theta, calls["mle"]), fit.basis, fit.active,
                         fit.residual, fit.solver, fit.iterations)

    monkeypatch.setattr(design, "solve_d_optimal", nudged_design)
    monkeypatch.setattr(mle, "private_mle", nudged_mle)
    monkeypatch.setattr(gopt, "DESIGN_CACHE", gopt.DesignCache())
    nudged = _write_designs(tmp_path)
    assert calls["design"] > 50 and calls["mle"] > 500  # the perturbations did reach the engine
    assert nudged.keys() == reference_tables.keys()
    for name, data in reference_tables.items():
        assert nudged[name] == data, name


def _in_subprocess(folder: Path, **env) -> dict[str, bytes]:
    code = ("import sys; from pathlib import Path; import test_dueling_canonical as t; "
            "t._write_designs(Path(sys.argv[1]))")
    src = str(Path(dpbandits.__file__).resolve().parents[1])
    full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join([src, str(Path(__file__).parent)])}
    subprocess.run([sys.executable, "-c", code, str(folder)], env=full, check=True, capture_output=True)
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.parquet"))}


def test_simulation_bytes_unchanged_with_one_blas_thread(reference_tables, tmp_path):
    single = _in_subprocess(tmp_path, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    assert single.keys() == reference_tables.keys()
    for name, data in reference_tables.items():
        assert single[name] == data, name


def _openblas_dynamic() -> bool:
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:  # noqa: BLE001 - an unknown numpy build: skip
        return False
    return "openblas" in str(blas.get("name", "")).lower() and "DYNAMIC_ARCH" in str(blas.get("openblas configuration", ""))


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64") or not _openblas_dynamic(),
                    reason="needs numpy on a DYNAMIC_ARCH OpenBLAS on x86-64 (to force another kernel)")
def test_simulation_unchanged_with_another_blas_kernel(reference_tables, tmp_path):
    """OPENBLAS_CORETYPE=Sandybridge (AVX, no FMA) plays another CPU: every table is the same
    bytes. Nothing the engine or the instances compute goes through BLAS: the utilities and
    ``min_gap`` of every cell are summed in a fixed order (dueling.design.rowdot) and G3's w* is
    normalised with an exactly rounded sum of squares (dueling.instances)."""
    other = _in_subprocess(tmp_path, OPENBLAS_CORETYPE="Sandybridge")
    assert other.keys() == reference_tables.keys()
    for name, data in reference_tables.items():
        assert other[name] == data, name


def test_instance_utilities_and_norms_are_summed_in_a_fixed_order(monkeypatch):
    """The instance catalogue's utilities, gaps and norms are fixed-order (exactly rounded) sums:
    equal to the explicit sums, and computed without np.dot or np.linalg.norm (BLAS)."""
    import math

    from dpbandits.dueling import instances

    cells = [instances.g3(50), instances.g2(20, 3, np.random.default_rng(0), min_gap=0.01),
             instances.g4(np.array([0.0, -0.5, -1.0]))]
    w = np.array([math.cos(0.3), math.sin(0.3) * 0.6, math.sin(0.3) * 0.8])
    assert np.array_equal(cells[0].w_star, w / math.sqrt(math.fsum((w * w).tolist())))

    def boom(*args, **kwargs):
        raise AssertionError("BLAS called")

    monkeypatch.setattr(np, "dot", boom)
    monkeypatch.setattr(np.linalg, "norm", boom)
    for inst in cells:
        x, v = inst.arms, inst.w_star
        expected = x[:, 0] * v[0]
        for j in range(1, inst.d):
            expected = expected + x[:, j] * v[j]
        assert np.array_equal(inst.utilities, expected)
        assert inst.min_gap() > 0
        assert inst.s_norm == math.sqrt(math.fsum((v * v).tolist()))
