"""The private, norm-constrained logistic MLE of Algorithm 2 (step 9) of the dueling paper
(Saha & Asi 2024; spec section 6.2, resolutions Q3 and Q7).

Data per privatised pair k (one group (x, y) in C_l): z_k = x - y, the play count n_k and the noisy
win sum o_hat_k = sum o + Lap(1/eps). The estimate solves

    min_{||w|| <= W_max}  f(w) = sum_k a_k softplus(z_k^T w) - b_k z_k^T w,   a_k = n_k / N, b_k = o_hat_k / N,

N = sum n_k ("fractional labels": f is the paper's objective divided by N, so values stay O(1) at
T = 1e14). Its stationarity condition is the paper's estimating equation sum o_hat z = sum n sigma(z^T w) z.
W_max = S + 1 (Q7: Laplace noise can push o_hat / n outside [0, 1], where the unconstrained MLE need not
exist). When the z_k span only r < d dimensions, w = U theta with U an orthonormal basis of the span (Q3).

Solvers:
* ``newton``: damped Newton with Armijo backtracking whose step solves the Newton model EXACTLY over
  the ball (a trust-region subproblem centred at 0, solved by eigendecomposition and the
  More-Sorensen secular equation). Interior solutions are plain damped Newton; when the solution
  leaves the ball the same iteration converges to the constrained optimum. Vectorised over problems
  (the A5 audit solves 2e5 copies at once). If the KKT residual is not small, cvxpy takes over.
* ``cvxpy``: the exponential-cone formulation of spec 6.2 (CLARABEL, fallback SCS), for cross-checks.

Canonical estimate (:func:`canonical_mle`, what Algorithm 2 uses in step 11). Solver output differs
in its last digits across CPUs and BLAS builds (cvxpy's by up to ~1e-5 on ill-conditioned data), so
the estimate is made canonical before step 11 (elimination) uses it: the solver's solution is
rounded to 2^-16, Newton's method in plain floating point with exactly rounded sums (the same bits
on every machine) converges from there to the optimum, and each coordinate of w_hat is rounded
toward zero to a multiple of 2^-27 (7.5e-9, so ||w_hat|| <= W_max still holds). A solver's last
digits can then matter only if they move its solution across a 2^-16 rounding boundary (odds
~1e-10 / 1.5e-5 per coordinate), and even then the two Newton runs end within ~1e-10 of each
other, which the 2^-27 grid absorbs unless it too is crossed. The rounding is harmless: it moves
x^T w_hat by at most ~1.5e-8, while the estimation error max_x |x^T (w_hat - w*)| was >= 2.4e-6
in every estimated phase of the paper-scale Algorithm 2 designs (median 5e-4; xi_l >= 2^-13), and
the elimination rule w^T x + 2 xi_l > max_y w^T y compares values at that scale.

The MLE only post-processes the privatised o_hat and public counts: no privacy cost.
"""

from __future__ import annotations

import logging
import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from dpbandits.dueling.design import project, rowdot

__all__ = ["MLEResult", "private_mle", "canonical_mle", "round_estimate", "MLE_GRID", "mle_batch", "mle_cvxpy", "objective", "kkt_residual", "METHODS"]

log = logging.getLogger(__name__)
METHODS = ("newton", "cvxpy")
MLE_GRID = 2.0**-27  # canonical estimates are integer multiples of this (module docstring)
_RESIDUAL_OK = 1e-8


@dataclass(frozen=True)
class MLEResult:
    """w_hat (d,), theta (r,) its coordinates in ``basis``; ``active`` = constraint binding;
    ``residual`` = KKT residual of the normalised objective ||grad f + mu theta||, mu >= 0 the
    multiplier of the ball (0 when interior), i.e. 1 / N times the residual of the paper's equation."""

    w_hat: np.ndarray
    theta: np.ndarray
    basis: np.ndarray
    active: bool
    residual: float
    solver: str
    iterations: int


def _softplus(x):
    return np.logaddexp(0.0, x)


def objective(y: np.ndarray, a: np.ndarray, b: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """f(theta) for y (s, r), a and b (B, s), theta (B, r) -> (B,)."""
    u = theta @ y.T
    return np.sum(a * _softplus(u) - b * u, axis=-1)


def _grad(y, a, b, theta):
    u = theta @ y.T
    return (a * expit(u) - b) @ y


def kkt_residual(y, a, b, theta, w_max):
    """(residual, mu, active) of the ball-constrained problem at theta (batched)."""
    g = _grad(y, a, b, theta)
    nrm = np.linalg.norm(theta, axis=-1)
    active = nrm >= w_max * (1 - 1e-9)
    with np.errstate(invalid="ignore", divide="ignore"):
        mu = np.where(active, np.maximum(0.0, -np.sum(g * theta, axis=-1) / np.maximum(nrm, 1e-300) ** 2), 0.0)
    res = np.linalg.norm(g + mu[:, None] * theta, axis=-1)
    return res, mu, active & (mu > 0)


def _ball_model_step(h, c, w_max):
    """argmin_{||t|| <= w_max} 1/2 t^T H t + c^T t for PD H (B, r, r), c (B, r): batched trust-region
    subproblem centred at 0 (no hard case since H is PD)."""
    lam, q = np.linalg.eigh(h)
    lam = np.maximum(lam, 1e-14)
    ct = np.einsum("bji,bj->bi", q, c)
    mu = np.zeros(lam.shape[0])
    for _ in range(60):
        den = lam + mu[:, None]
        p2 = np.sum((ct / den) ** 2, axis=1)
        pn = np.sqrt(p2)
        outside = pn > w_max * (1 + 1e-13)
        if not outside.any():
            break
        dpn = np.sum(ct**2 / den**3, axis=1) / np.maximum(pn, 1e-300)  # -d||p||/dmu
        psi = 1.0 / np.maximum(pn, 1e-300) - 1.0 / w_max
        dpsi = dpn / np.maximum(p2, 1e-300)
        step = np.where(outside, -psi / np.maximum(dpsi, 1e-300), 0.0)
        mu = mu + step
        if np.all(np.abs(step) <= 1e-15 * (1 + mu)):
            break
    t = -np.einsum("bij,bj->bi", q, ct / (lam + mu[:, None]))
    nrm = np.linalg.norm(t, axis=1)
    scale = np.where(nrm > w_max, w_max / np.maximum(nrm, 1e-300), 1.0)
    return t * scale[:, None]


def mle_batch(y: np.ndarray, a: np.ndarray, b: np.ndarray, w_max: float, max_iter: int = 100,
              tol: float = 1e-13, theta0: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Batched ball-constrained damped Newton. y (s, r) shared; a, b (B, s); start ``theta0``
    (B, r) (default 0). Returns (theta (B, r), iterations (B,))."""
    y = np.asarray(y, dtype=float)
    a = np.atleast_2d(np.asarray(a, dtype=float))
    b = np.atleast_2d(np.asarray(b, dtype=float))
    bsz, r = a.shape[0], y.shape[1]
    theta = np.zeros((bsz, r)) if theta0 is None else np.array(np.broadcast_to(theta0, (bsz, r)), dtype=float)
    iters = np.zeros(bsz, dtype=np.int64)
    todo = np.arange(bsz)
    yy = np.einsum("si,sj->sij", y, y)
    for _ in range(max_iter):
        if todo.size == 0:
            break
        th, aa, bb = theta[todo], a[todo], b[todo]
        u = th @ y.T
        sig = expit(u)
        g = (aa * sig - bb) @ y
        h = np.einsum("bs,sij->bij", aa * sig * (1 - sig), yy) + 1e-14 * np.eye(r)
        c = g - np.einsum("bij,bj->bi", h, th)
        d = _ball_model_step(h, c, w_max) - th
        slope = np.sum(g * d, axis=1)
        conv = (slope >= -tol * tol) | (np.linalg.norm(d, axis=1) <= tol)
        f0 = objective(y, aa, bb, th)
        step = np.ones(todo.size)
        pending = ~conv
        for _ls in range(60):
            if not pending.any():
                break
            idx = np.flatnonzero(pending)
            cand = th[idx] + step[idx, None] * d[idx]
            ok = objective(y, aa[idx], bb[idx], cand) <= f0[idx] + 1e-4 * step[idx] * slope[idx] + 1e-15 * np.abs(f0[idx])
            pending[idx[ok]] = False
            step[idx[~ok]] *= 0.5
        theta[todo[~conv]] = th[~conv] + step[~conv, None] * d[~conv]
        iters[todo[~conv]] += 1
        todo = todo[~conv]
    return theta, iters


def _prepare(z, n, o_hat, basis):
    z = np.atleast_2d(np.asarray(z, dtype=float))
    n = np.asarray(n, dtype=float)
    o_hat = np.asarray(o_hat, dtype=float)
    if basis is None:
        _, sv, vt = np.linalg.svd(z, full_matrices=False)
        basis = vt[: int(np.sum(sv > 1e-9 * max(sv[0], 1e-300)))].T
    total = n.sum()
    if total <= 0:
        raise ValueError("the MLE needs at least one play")
    return z, z @ basis, n / total, o_hat / total, basis


def mle_cvxpy(z, n, o_hat, w_max: float, basis: np.ndarray | None = None) -> MLEResult:
    """The cvxpy formulation of spec 6.2 (exponential cone; CLARABEL, fallback SCS)."""
    import cvxpy as cp

    z, y, a, b, basis = _prepare(z, n, o_hat, basis)
    th = cp.Variable(y.shape[1])
    prob = cp.Problem(cp.Minimize(a @ cp.logistic(y @ th) - (b @ y) @ th), [cp.norm(th, 2) <= w_max])
    last = None
    opts = {"CLARABEL": {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12, "tol_ktratio": 1e-10,
                         "max_iter": 500},
            "SCS": {"eps": 1e-10, "max_iters": 200_000}}
    for name in ("CLARABEL", "SCS"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=getattr(cp, name), **opts[name])
            if prob.status in ("optimal", "optimal_inaccurate") and th.value is not None:
                theta = np.asarray(th.value, dtype=float)
                res, _, act = kkt_residual(y, a[None], b[None], theta[None], w_max)
                return MLEResult(basis @ theta, theta, basis, bool(np.linalg.norm(theta) >= w_max * (1 - 1e-6)),
                                 float(res[0]), f"cvxpy-{name}", 0)
            last = prob.status
        except Exception as exc:  # noqa: BLE001
            last = exc
    raise RuntimeError(f"cvxpy MLE failed: {last}")


def private_mle(z, n, o_hat, w_max: float, basis: np.ndarray | None = None,
                method: str = "newton") -> MLEResult:
    """Norm-constrained logistic MLE on privatised pair counts (spec 6.2).

    z (s, d) pair differences, n (s,) play counts, o_hat (s,) noisy win sums; ``basis`` (d, r) an
    orthonormal basis of the span of z (computed if None).
    """
    if method not in METHODS:
        raise ValueError(f"unknown MLE method {method!r}; allowed: {METHODS}")
    if method == "cvxpy":
        return mle_cvxpy(z, n, o_hat, w_max, basis)
    z, y, a, b, basis = _prepare(z, n, o_hat, basis)
    theta, it = mle_batch(y, a[None], b[None], w_max)
    res, _, act = kkt_residual(y, a[None], b[None], theta, w_max)
    if not res[0] <= _RESIDUAL_OK:
        log.warning("Newton MLE residual %.3g; switching to cvxpy", res[0])
        return mle_cvxpy(z, n, o_hat, w_max, basis)
    return MLEResult(basis @ theta[0], theta[0], basis, bool(act[0]), float(res[0]), "newton", int(it[0]))


def round_estimate(w: np.ndarray) -> np.ndarray:
    """Each coordinate rounded toward zero to a multiple of ``MLE_GRID`` (so the norm cannot grow)."""
    return np.trunc(np.asarray(w, dtype=float) / MLE_GRID) * MLE_GRID


def _solve_small(m: list[list[float]], rhs: list[float]) -> list[float] | None:
    """m x = rhs for a small dense system: Gaussian elimination with partial pivoting (ties to the
    lowest row), exactly rounded sums; None if singular."""
    n = len(rhs)
    a = [list(map(float, row)) + [float(v)] for row, v in zip(m, rhs, strict=True)]
    for col in range(n):
        best = max(abs(a[i][col]) for i in range(col, n))
        if not best > 0.0:
            return None
        piv = next(i for i in range(col, n) if abs(a[i][col]) == best)
        a[col], a[piv] = a[piv], a[col]
        for i in range(col + 1, n):
            f = a[i][col] / a[col][col]
            if f != 0.0:
                a[i] = [x - f * y for x, y in zip(a[i], a[col], strict=True)]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (a[i][n] - math.fsum(a[i][k] * x[k] for k in range(i + 1, n))) / a[i][i]
    return x


def _fixed_order_terms(y, a, b, theta):
    """(objective, gradient, Hessian) of the normalised problem, with fixed-order and exactly
    rounded sums (the same bits on every machine)."""
    u = rowdot(y, theta)
    sig = expit(u)
    f = math.fsum((a * np.logaddexp(0.0, u) - b * u).tolist())
    coef, curv = a * sig - b, a * sig * (1 - sig)
    r = y.shape[1]
    grad = [math.fsum((coef * y[:, j]).tolist()) for j in range(r)]
    hess = [[0.0] * r for _ in range(r)]
    for i in range(r):
        ci = curv * y[:, i]
        for j in range(i + 1):
            hess[i][j] = hess[j][i] = math.fsum((ci * y[:, j]).tolist())
    return f, grad, hess


def _deterministic_newton(y, a, b, theta0, w_max, active, max_iter: int = 50) -> np.ndarray | None:
    """Newton's method from ``theta0`` in plain floating point: on the stationarity equations
    grad f = 0 (interior) or on the KKT system of min f s.t. ||theta||^2 = w_max^2 (``active``), with
    step halving while the objective (interior) does not decrease, until the steps reach rounding
    level. None if it fails (singular system, a negative multiplier, an interior point outside the
    ball, no convergence)."""
    theta = [float(t) for t in theta0]
    r = len(theta)
    f, grad, hess = _fixed_order_terms(y, a, b, np.array(theta))
    nrm2 = math.fsum(t * t for t in theta)
    mu = max(0.0, -math.fsum(g * t for g, t in zip(grad, theta, strict=True)) / nrm2) if active and nrm2 > 0 else 0.0
    previous = math.inf
    for _ in range(max_iter):
        if active:
            kkt = [row[:] + [t] for row, t in zip(hess, theta, strict=True)] + [theta + [0.0]]
            for i in range(r):
                kkt[i][i] += mu
            rhs = [-(g + mu * t) for g, t in zip(grad, theta, strict=True)] + [-(math.fsum(t * t for t in theta) - w_max**2) / 2]
            step = _solve_small(kkt, rhs)
            if step is None:
                return None
            new = [t + d for t, d in zip(theta, step[:r], strict=True)]
            mu = mu + step[r]
        else:
            step = _solve_small(hess, [-g for g in grad])
            if step is None:
                return None
            for _halving in range(30):
                new = [t + d for t, d in zip(theta, step, strict=True)]
                terms = _fixed_order_terms(y, a, b, np.array(new))
                if terms[0] <= f + 1e-15 * abs(f):
                    break
                step = [d / 2 for d in step]
        size = max(abs(d) for d in step[:r])
        theta = new
        f, grad, hess = _fixed_order_terms(y, a, b, np.array(theta)) if active else terms
        scale = max(1.0, max(abs(t) for t in theta))
        # converged: a step at rounding level, or (ill-conditioned problems) steps that stopped
        # shrinking quadratically once below 1e-9, i.e. at the noise floor eps * cond(H)
        if size <= 1e-15 * scale or (size <= 1e-9 * scale and size > 0.25 * previous):
            break
        previous = size
    else:
        return None
    if active and mu < 0 or not active and math.fsum(t * t for t in theta) > w_max**2:
        return None
    return np.array(theta)


def canonical_mle(z, n, o_hat, w_max: float, basis: np.ndarray | None = None,
                  method: str = "newton") -> MLEResult:
    """The canonical estimate of Algorithm 2, step 9 (module docstring): the solution of
    :func:`private_mle` is rounded to 2^-16 (the solver's last digits, whatever the solver, do not
    survive this), Newton's method in plain floating point (:func:`_deterministic_newton`, the
    same bits on every machine) converges from that start to the optimum, and :func:`round_estimate`
    gives w_hat. The solver decides only whether the norm constraint is active. ``residual`` is the
    KKT residual of the returned w_hat (dominated by the rounding, <= ~1e-8), ``theta`` its
    coordinates in ``basis``."""
    fit = private_mle(z, n, o_hat, w_max, basis, method)
    z = np.atleast_2d(np.asarray(z, dtype=float))
    basis = fit.basis
    if basis.shape[1] == 0:
        return fit
    y = project(z, basis)
    n = np.asarray(n, dtype=float)
    total = math.fsum(n.tolist())
    a, b = n / total, np.asarray(o_hat, dtype=float) / total
    w0 = np.round(rowdot(basis, np.asarray(fit.theta, dtype=float)) * 2.0**16) / 2.0**16
    theta = _deterministic_newton(y, a, b, rowdot(basis.T, w0), w_max, fit.active)
    if theta is None:  # not seen in practice: fall back to the solver's own solution
        log.warning("deterministic Newton from the rounded %s MLE failed; rounding the solver's solution", fit.solver)
        theta = np.asarray(fit.theta, dtype=float)
    w_hat = round_estimate(rowdot(basis, theta))
    theta_c = rowdot(basis.T, w_hat)
    return MLEResult(w_hat, theta_c, basis, fit.active, _residual_fixed_order(y, a, b, theta_c, w_max), fit.solver,
                     fit.iterations)


def _residual_fixed_order(y, a, b, theta, w_max) -> float:
    """:func:`kkt_residual` of one problem with fixed-order and exactly rounded sums, so that the
    reported residual of a canonical estimate is the same on every machine."""
    if theta.size == 0:
        return 0.0
    coef = a * expit(rowdot(y, theta)) - b
    grad = np.array([math.fsum((coef * y[:, j]).tolist()) for j in range(y.shape[1])])
    nrm2 = math.fsum((theta * theta).tolist())
    mu = 0.0
    if math.sqrt(nrm2) >= w_max * (1 - 1e-9):
        mu = max(0.0, -math.fsum((grad * theta).tolist()) / max(nrm2, 1e-300))
    kkt = grad + mu * theta
    return math.sqrt(math.fsum((kkt * kkt).tolist()))
