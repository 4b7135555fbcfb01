"""Solver checks A7 / A8 and the C12 report of the dueling paper: they pass on the real solvers and
fail on broken ones."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dpbandits.dueling import design, mle
from dpbandits.dueling.checks import solver as solver_checks


def test_solver_checks_pass_on_the_real_solvers():
    rng = np.random.default_rng(0)
    assert solver_checks.check_a7(rng, "smoke", 3)[0].verdict == "PASS"
    a8 = solver_checks.check_a8(rng, "smoke", 8)
    assert a8[0].verdict == "PASS" and a8[1].verdict == "REPORT"


def test_a7_fails_on_a_uniform_design(monkeypatch):
    real = design.g_optimal_design

    def uniform(arms, survivors, solver="cvxpy", **kw):
        d = real(arms, survivors, solver=solver, **kw)
        return replace(d, g=d.g * 1.5) if solver == "cvxpy" else d  # a design whose g exceeds r

    monkeypatch.setattr(design, "g_optimal_design", uniform)
    assert solver_checks.check_a7(np.random.default_rng(0), "smoke", 2)[0].verdict == "FAIL"


def test_a8_fails_when_newton_stops_early(monkeypatch):
    real = mle.private_mle

    def sloppy(z, n, o_hat, w_max, basis=None, method="newton"):
        res = real(z, n, o_hat, w_max, basis, method)
        return replace(res, w_hat=res.w_hat * 0.99) if method == "newton" else res

    monkeypatch.setattr(mle, "private_mle", sloppy)
    assert solver_checks.check_a8(np.random.default_rng(0), "smoke", 4)[0].verdict == "FAIL"
