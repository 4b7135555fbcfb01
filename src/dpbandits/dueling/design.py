"""G-optimal (= D-optimal) design on pairwise differences, step 2 of Algorithm 2 of the dueling
paper (Saha & Asi 2024; spec sections 1.6 and 6.1, resolutions Q1-Q3).

Candidates (Q1, Q2): the unordered pairs {x, y} of the survivor set D_l, x != y, in canonical
orientation (lower arm index on the left), z = x - y; a z that duplicates an earlier candidate up to
sign (z and -z give the same z z^T) is dropped, keeping the first pair. z = 0 is dropped.

Rank (Q3): the candidates are projected on an orthonormal basis U (d x r) of their span, Y = Z U,
so the Kiefer-Wolfowitz value is g = r and the support bound r (r + 1) / 2.

Solvers (spec 6.1):
* ``cvxpy``: max log det(sum_k pi_k y_k y_k^T) over the simplex (CLARABEL with tight tolerances,
  fallback SCS, then FW); an inaccurate but usable cvxpy solution (g > r (1 + tol)) is polished by
  the away-step FW started from it;
* ``fw``: Fedorov-Wynn / Frank-Wolfe with away steps (Wolfe-Atwood), exact line search
  gamma = (g / r - 1) / (g - 1), stopped at g <= r (1 + tol).
Both are followed by a Caratheodory support reduction to <= r (r + 1) / 2 points (the kernel
direction is oriented so that the total mass does not grow: V is unchanged by each move, so after
renormalisation g can only decrease; spec 6.1 relies on sum v = 0 at the exact optimum) with g
re-verified (g <= r (1 + 1e-3)); if the re-check fails the thresholded support is kept and a
warning is logged.

Only support points of an optimal design can be extreme points of conv(+-Y) (they maximise the
convex function y^T V^-1 y), so for r in {2, 3} and many candidates the solve is restricted to the
vertices of that hull (scipy/Qhull); g is always verified over all candidates.

Privacy: the design uses only the (public) survivor set, never the preference bits.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass

import numpy as np

__all__ = ["Design", "difference_set", "g_value", "g_optimal_design", "solve_d_optimal",
           "reduce_support", "G_TOL", "SOLVERS"]

log = logging.getLogger(__name__)

G_TOL = 1e-3  # the A7 / C1 tolerance: g <= r (1 + G_TOL)
SOLVERS = ("cvxpy", "fw")
_THRESHOLD = 1e-6  # weights below this are zeroed before the support reduction (spec 6.1, step 1)
_HULL_MIN = 64  # use the hull restriction above this many candidates


@dataclass(frozen=True)
class Design:
    """A design pi on the deduplicated difference set of a survivor set.

    ``pairs`` (s, 2): global arm indices (left < right) of the support; ``weights`` (s,) sum to 1;
    ``z`` (s, d) the differences x_left - x_right; ``basis`` (d, r) an orthonormal basis of the span
    of all candidates; ``g`` the design value max_k y_k^T V(pi)^-1 y_k over ALL candidates;
    ``reduced`` whether the Caratheodory reduction succeeded (support <= r (r + 1) / 2).
    """

    pairs: np.ndarray
    weights: np.ndarray
    z: np.ndarray
    basis: np.ndarray
    g: float
    rank: int
    solver: str
    n_candidates: int
    reduced: bool
    log_det: float

    @property
    def support(self) -> int:
        return int(self.weights.size)

    @property
    def support_bound(self) -> int:
        return self.rank * (self.rank + 1) // 2


def difference_set(arms: np.ndarray, survivors) -> tuple[np.ndarray, np.ndarray]:
    """Deduplicated unordered differences of ``survivors`` (Q2).

    Returns ``pairs`` (m, 2) of global indices with pairs[:, 0] < pairs[:, 1] in lexicographic
    order and ``z`` (m, d) = arms[left] - arms[right]; duplicates of an earlier z (up to sign, to
    1e-12 relative) and z = 0 are dropped.
    """
    x = np.asarray(arms, dtype=float)
    s = np.unique(np.asarray(survivors, dtype=np.int64))
    if s.size < 2:
        return np.zeros((0, 2), dtype=np.int64), np.zeros((0, x.shape[1]))
    i, j = np.triu_indices(s.size, k=1)
    pairs = np.column_stack([s[i], s[j]])
    z = x[pairs[:, 0]] - x[pairs[:, 1]]
    scale = max(1.0, float(np.abs(z).max()))
    q = np.round(z / (scale * 1e-12)).astype(np.int64)
    # canonical sign: first non-zero coordinate positive
    nz = q != 0
    keep = nz.any(axis=1)
    first = np.argmax(nz, axis=1)
    sign = np.sign(q[np.arange(q.shape[0]), first])
    sign[sign == 0] = 1
    q = q * sign[:, None]
    _, idx = np.unique(q, axis=0, return_index=True)
    mask = np.zeros(z.shape[0], dtype=bool)
    mask[idx] = True
    mask &= keep
    return pairs[mask], z[mask]


def _span_basis(z: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    if z.shape[0] == 0:
        return np.zeros((z.shape[1], 0))
    _, sv, vt = np.linalg.svd(z, full_matrices=False)
    r = int(np.sum(sv > rtol * max(sv[0], 1e-300)))
    return vt[:r].T.copy()


def g_values(y: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """y_k^T V(pi)^-1 y_k for every row (inf if V(pi) is singular)."""
    v = (y * pi[:, None]).T @ y
    try:
        c = np.linalg.cholesky(v)
    except np.linalg.LinAlgError:
        return np.full(y.shape[0], np.inf)
    sol = np.linalg.solve(c, y.T)
    return np.sum(sol * sol, axis=0)


def g_value(y: np.ndarray, pi: np.ndarray) -> float:
    """The G-optimality value g(pi) = max_k y_k^T V(pi)^-1 y_k (Definition 3); inf if singular."""
    y = np.atleast_2d(np.asarray(y, dtype=float))
    return float(np.max(g_values(y, np.asarray(pi, dtype=float))))


def _log_det(y: np.ndarray, pi: np.ndarray) -> float:
    sign, ld = np.linalg.slogdet((y * pi[:, None]).T @ y)
    return float(ld) if sign > 0 else -np.inf


def _fw(y: np.ndarray, tol: float, max_iter: int = 200_000, pi0: np.ndarray | None = None) -> np.ndarray:
    """Fedorov-Wynn / Frank-Wolfe with away steps (Wolfe-Atwood) for the D-optimal design.

    Start: uniform on r well-conditioned points (pivoted QR). Each iteration compares the toward
    step on k+ = argmax g with the away step on k- = argmin_{supp} g and takes the larger gap, with
    the exact line search lambda = (g / r - 1) / (g - 1) (negative for away steps, clipped to keep
    pi >= 0: a "drop" step). V^-1 and g are updated by Sherman-Morrison, refreshed every 200 steps.
    """
    from scipy.linalg import qr

    m, r = y.shape
    if pi0 is not None and np.all(np.isfinite(g_values(y, pi0))):
        pi = np.array(pi0, dtype=float)
    else:
        _, _, piv = qr(y.T, pivoting=True, mode="economic")
        pi = np.zeros(m)
        pi[piv[:r]] = 1.0 / r
    vinv = np.linalg.inv((y * pi[:, None]).T @ y)
    g = np.sum((y @ vinv) * y, axis=1)
    for it in range(max_iter):
        if it % 200 == 199:
            vinv = np.linalg.inv((y * pi[:, None]).T @ y)
            g = np.sum((y @ vinv) * y, axis=1)
        kp = int(np.argmax(g))
        gp = g[kp]
        if gp <= r * (1 + tol):
            break
        supp = np.flatnonzero(pi > 0)
        km = int(supp[np.argmin(g[supp])])
        gm = g[km]
        if gp - r >= r - gm or pi[km] >= 1.0:
            k, lam = kp, (gp / r - 1.0) / (gp - 1.0)
        else:
            k = km
            lam_max = pi[km] / (1.0 - pi[km])
            lam = -lam_max if gm <= 1.0 else -min((r - gm) / (r * (gm - 1.0)), lam_max)
        gk = g[k]
        u = y @ (vinv @ y[k])
        pi *= 1.0 - lam
        pi[k] += lam
        if lam < 0 and pi[k] <= 1e-15:
            pi[k] = 0.0
        # V' = (1 - lam) V + lam y y^T  ->  Sherman-Morrison
        c = lam / (1.0 - lam)
        denom = 1.0 + c * gk
        vy = vinv @ y[k]
        vinv = (vinv - (c / denom) * np.outer(vy, vy)) / (1.0 - lam)
        g = (g - (c / denom) * u * u) / (1.0 - lam)
    return pi / pi.sum()


def _cvxpy(y: np.ndarray, solver: str) -> np.ndarray:
    import cvxpy as cp

    m, r = y.shape
    a = np.einsum("ij,ik->ijk", y, y).reshape(m, r * r)
    p = cp.Variable(m, nonneg=True)
    mat = cp.reshape(a.T @ p, (r, r), order="F")
    prob = cp.Problem(cp.Maximize(cp.log_det((mat + mat.T) / 2)), [cp.sum(p) == 1])
    opts = {"CLARABEL": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10, "max_iter": 500},
            "SCS": {"eps": 1e-9, "max_iters": 100_000}}[solver]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "solution may be inaccurate": judged by g below
        prob.solve(solver=getattr(cp, solver), **opts)
    if prob.status not in ("optimal", "optimal_inaccurate") or p.value is None:
        raise RuntimeError(f"{solver}: status {prob.status}")
    pi = np.clip(np.asarray(p.value, dtype=float), 0.0, None)
    return pi / pi.sum()


def solve_d_optimal(y: np.ndarray, solver: str = "cvxpy", tol: float = 1e-4) -> tuple[np.ndarray, str]:
    """D-optimal weights on the rows of y (m, r), full column rank. Returns (pi, solver used)."""
    m, r = y.shape
    if r == 1:  # all candidates collinear: all mass on the longest one
        pi = np.zeros(m)
        pi[int(np.argmax(np.abs(y[:, 0])))] = 1.0
        return pi, "closed-form"
    if solver == "cvxpy":
        for name in ("CLARABEL", "SCS"):
            try:
                pi = _cvxpy(y, name)
            except Exception as exc:  # noqa: BLE001 - solver failures fall through to the next one
                log.info("cvxpy %s failed: %s", name, exc)
                continue
            g = g_value(y, pi)
            if g <= r * (1 + tol):
                return pi, f"cvxpy-{name}"
            if np.isfinite(g):  # inaccurate but usable: polish with away-step FW from this start
                log.info("cvxpy %s design has g = %.6g > r (1 + %g); polishing with FW", name, g, tol)
                return _fw(y, tol, pi0=pi), f"cvxpy-{name}+fw"
        log.warning("cvxpy failed on %d candidates (rank %d); using FW", m, r)
        return _fw(y, tol), "fw(fallback)"
    if solver == "fw":
        return _fw(y, tol), "fw"
    raise ValueError(f"unknown solver {solver!r}; allowed: {SOLVERS}")


def _vech_rows(y: np.ndarray) -> np.ndarray:
    r = y.shape[1]
    iu = np.triu_indices(r)
    return np.einsum("ij,ik->ijk", y, y)[:, iu[0], iu[1]]


def reduce_support(y: np.ndarray, pi: np.ndarray, threshold: float = _THRESHOLD) -> np.ndarray:
    """Caratheodory reduction (spec 6.1): threshold, then repeatedly move along a kernel vector of
    the vech(y y^T) columns of the support until at most r (r + 1) / 2 points remain."""
    r = y.shape[1]
    bound = r * (r + 1) // 2
    pi = np.where(pi < threshold, 0.0, pi)
    pi = pi / pi.sum()
    supp = np.flatnonzero(pi > 0)
    while supp.size > bound:
        ms = _vech_rows(y[supp]).T  # (bound, |S|)
        _, _, vt = np.linalg.svd(ms, full_matrices=True)
        v = vt[-1]
        # orient v so that the total mass does not grow: V is unchanged by the move, so after the
        # renormalisation V can only be scaled up and g can only decrease
        if v.sum() < 0 or (v.sum() == 0 and not np.any(v > 1e-14)):
            v = -v
        pos = v > 1e-14
        ratios = np.full(v.size, np.inf)
        ratios[pos] = pi[supp][pos] / v[pos]
        k = int(np.argmin(ratios))
        pi[supp] = pi[supp] - ratios[k] * v
        pi[supp[k]] = 0.0
        pi = np.clip(pi, 0.0, None)
        pi /= pi.sum()
        supp = np.flatnonzero(pi > 0)
    return pi


def _hull_candidates(y: np.ndarray) -> np.ndarray:
    """Indices of rows of y that are vertices of conv(+-y) (all rows if Qhull fails)."""
    m, r = y.shape
    if r not in (2, 3) or m <= _HULL_MIN:
        return np.arange(m)
    try:
        from scipy.spatial import ConvexHull

        hull = ConvexHull(np.vstack([y, -y]))
        return np.unique(hull.vertices % m)
    except Exception:  # noqa: BLE001 - degenerate input: no restriction
        return np.arange(m)


def g_optimal_design(arms: np.ndarray, survivors, solver: str = "cvxpy", tol: float = 1e-4,
                     reduce: bool = True) -> Design:
    """G-optimal design on the difference set of ``survivors`` (Algorithm 2, step 2; spec 6.1).

    ``tol`` is the solver's stopping tolerance g <= r (1 + tol) (FW) and the acceptance level of a
    cvxpy solution; the reduced design is re-verified against ``G_TOL`` = 1e-3.
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; allowed: {SOLVERS}")
    arms = np.asarray(arms, dtype=float)
    pairs, z = difference_set(arms, survivors)
    d = arms.shape[1]
    if z.shape[0] == 0:
        return Design(pairs, np.zeros(0), z, np.zeros((d, 0)), 0.0, 0, "empty", 0, True, -np.inf)
    basis = _span_basis(z)
    r = basis.shape[1]
    y = z @ basis
    cand = _hull_candidates(y)
    pi_c, used = solve_d_optimal(y[cand], solver, tol)
    pi = np.zeros(y.shape[0])
    pi[cand] = pi_c
    if g_value(y, pi) > r * (1 + tol) and cand.size < y.shape[0]:  # safety net of the hull restriction
        log.warning("hull-restricted design not optimal on all candidates; re-solving on all")
        pi, used = solve_d_optimal(y, solver, tol)
    reduced = True
    if reduce:
        thresholded = np.where(pi < _THRESHOLD, 0.0, pi)
        thresholded /= thresholded.sum()
        try:
            red = reduce_support(y, pi)
            ok = np.count_nonzero(red) <= r * (r + 1) // 2 and g_value(y, red) <= r * (1 + G_TOL)
        except np.linalg.LinAlgError:
            ok = False
        if ok:
            pi = red
        else:
            reduced = False
            log.warning("Caratheodory reduction failed the g re-check (r = %d); keeping the thresholded "
                        "support of size %d", r, np.count_nonzero(thresholded))
            pi = thresholded
    supp = np.flatnonzero(pi > 0)
    w = pi[supp] / pi[supp].sum()
    g = g_value(y, pi)
    if reduced and supp.size > r * (r + 1) // 2:
        reduced = False
    return Design(pairs[supp], w, z[supp], basis, g, r, used, int(z.shape[0]), reduced,
                  _log_det(y[supp], w))


def kiefer_wolfowitz_bound(rank: int) -> int:
    """r (r + 1) / 2."""
    return rank * (rank + 1) // 2

