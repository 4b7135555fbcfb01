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

The MLE only post-processes the privatised o_hat and public counts: no privacy cost.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

__all__ = ["MLEResult", "private_mle", "mle_batch", "mle_cvxpy", "objective", "kkt_residual", "METHODS"]

log = logging.getLogger(__name__)
METHODS = ("newton", "cvxpy")
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
              tol: float = 1e-13) -> tuple[np.ndarray, np.ndarray]:
    """Batched ball-constrained damped Newton. y (s, r) shared; a, b (B, s). Returns (theta (B, r),
    iterations (B,))."""
    y = np.asarray(y, dtype=float)
    a = np.atleast_2d(np.asarray(a, dtype=float))
    b = np.atleast_2d(np.asarray(b, dtype=float))
    bsz, r = a.shape[0], y.shape[1]
    theta = np.zeros((bsz, r))
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
