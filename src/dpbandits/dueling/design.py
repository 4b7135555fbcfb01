"""G-optimal (= D-optimal) design on pairwise differences, step 2 of Algorithm 2 of the dueling
paper (Saha & Asi 2024; spec sections 1.6 and 6.1, resolutions Q1-Q3), made canonical.

Candidates (Q1, Q2): the unordered pairs {x, y} of the survivor set D_l, x != y, in canonical
orientation (lower arm index on the left), z = x - y; a z that duplicates an earlier candidate up to
sign (z and -z give the same z z^T) is dropped, keeping the first pair. z = 0 is dropped.

Rank (Q3): the candidates are expressed in an orthonormal basis U (d x r) of their span, Y = Z U,
so the Kiefer-Wolfowitz value is g = r and the support bound r (r + 1) / 2. U is the identity when
the span is all of R^d (r = d, the usual case), else a pivoted Gram-Schmidt basis of the candidates
(:func:`span_basis`); the design does not depend on the choice of U (log det changes by a constant).

Solvers (spec 6.1), the *raw* design pi_raw:
* ``fw`` (default): Fedorov-Wynn / Frank-Wolfe with away steps (Wolfe-Atwood), exact line search
  gamma = (g / r - 1) / (g - 1), stopped at g <= r (1 + tol);
* ``cvxpy``: max log det(sum_k pi_k y_k y_k^T) over the simplex (CLARABEL with tight tolerances,
  fallback SCS, then FW); an inaccurate but usable cvxpy solution (g > r (1 + tol)) is polished by
  the away-step FW started from it.

Canonical design (what Algorithm 2 plays; :func:`canonical_weights`). A solver's output differs in
its last digits across CPUs and BLAS builds, and an optimal design is often not unique (on a circle
any three well-spread antipodal pairs are optimal), so a raw design would make the simulation depend
on the machine: step 5 plays ceil(N_l pi(x, y)) rounds with N_l up to 1e13, which turns a 1e-12
change of a weight into different counts, and a different support into a different trajectory.
The design is therefore made canonical before Algorithm 2 uses it:

1. support (step 4's C_l): threshold pi_raw < 1e-6 to 0, then the Caratheodory reduction to
   <= r (r + 1) / 2 points (:func:`reduce_support`), made deterministic: the kernel vector comes from
   the first D + 1 support points by Gaussian elimination (not an SVD, whose kernel basis is
   arbitrary), near-ties (relative 1e-8) are broken by the lowest candidate index;
2. weights: the D-optimal weights *restricted to that support*, computed by a damped Newton method
   started from the uniform design on it (:func:`_restricted_optimum`); they depend on the support
   only, not on the solver's weights. With <= r (r + 1) / 2 linearly independent points the
   restricted optimum is unique, and when the support carries an optimal design it IS the G-optimal
   design (Kiefer-Wolfowitz: g = r);
3. rounding: the weights are rounded to multiples of 2^-24 (6e-8, five orders above the Newton
   accuracy and far below the statistical role of the weights) with an exact renormalisation
   (largest remainders, ties to the lowest index; the sum is exactly 1 in floating point) and every
   support point keeps at least one unit, so the support is unchanged;
4. the result is re-verified, g <= r (1 + 1e-3) over ALL candidates (step 2's guarantee, with the
   A7 / C1 tolerance); if the restricted optimum fails it, the rounded reduced weights are used.

The FW path and steps 1, 3 and 4 use only element-wise floating point arithmetic and exactly
rounded sums (no BLAS or LAPACK call, whose kernels differ across CPUs), so a design is the same
bit for bit on any IEEE machine; the Newton of step 2 converges to machine precision, which the
rounding of step 3 absorbs. The simulation therefore uses the FW path, with cvxpy as its
cross-check (check A7: log det agree within 1e-3); with ``solver="cvxpy"`` the support follows
cvxpy's interior-point solution, which in degenerate (symmetric) instances varies across machines.

Only support points of an optimal design can be extreme points of conv(+-Y) (they maximise the
convex function y^T V^-1 y), so for r in {2, 3} and many candidates the solve is restricted to the
vertices of that hull (scipy/Qhull); g is always verified over all candidates.

Privacy: the design uses only the (public) survivor set, never the preference bits.
"""

from __future__ import annotations

import logging
import math
import warnings
from dataclasses import dataclass

import numpy as np

__all__ = ["Design", "difference_set", "span_basis", "project", "rowdot", "gram", "min_eigenvalue", "g_value", "g_values", "g_optimal_design",
           "solve_d_optimal", "reduce_support", "canonical_weights", "round_weights", "G_TOL", "SOLVERS",
           "WEIGHT_UNIT"]

log = logging.getLogger(__name__)

G_TOL = 1e-3  # the A7 / C1 tolerance: g <= r (1 + G_TOL)
SOLVERS = ("fw", "cvxpy")
WEIGHT_UNIT = 2.0**-24  # canonical weights are integer multiples of this (step 3 above)
_THRESHOLD = 1e-6  # weights below this are zeroed before the support reduction (spec 6.1, step 1)
_TIE = 1e-8  # relative tolerance under which two candidates count as tied (lowest index wins)
_HULL_MIN = 64  # use the hull restriction above this many candidates


@dataclass(frozen=True)
class Design:
    """A canonical design pi on the deduplicated difference set of a survivor set.

    ``pairs`` (s, 2): global arm indices (left < right) of the support, in candidate order;
    ``weights`` (s,) integer multiples of ``WEIGHT_UNIT`` summing to exactly 1; ``z`` (s, d) the
    differences x_left - x_right; ``basis`` (d, r) an orthonormal basis of the span of all
    candidates; ``g`` the design value max_k y_k^T V(pi)^-1 y_k over ALL candidates; ``reduced``
    whether the Caratheodory reduction succeeded (support <= r (r + 1) / 2).
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


# --------------------------------------------------------------------------------------------
# deterministic small linear algebra: element-wise numpy and exactly rounded sums only, so the
# results do not depend on the BLAS kernel or thread count (see the module docstring)


def rowdot(a: np.ndarray, v) -> np.ndarray:
    """a @ v for a (m, k), v (k,), summed over j = 0, ..., k - 1 in that order."""
    out = a[:, 0] * float(v[0])
    for j in range(1, a.shape[1]):
        out = out + a[:, j] * float(v[j])
    return out


def project(z: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Z U (m, r), deterministic; exactly Z when U is the identity."""
    if basis.shape[0] == basis.shape[1] and np.array_equal(basis, np.eye(basis.shape[0])):
        return np.array(z, dtype=float)
    return np.column_stack([rowdot(z, basis[:, j]) for j in range(basis.shape[1])]) if basis.shape[1] \
        else np.zeros((z.shape[0], 0))


def gram(y: np.ndarray, w: np.ndarray) -> list[list[float]]:
    """V = sum_k w_k y_k y_k^T as an r x r list, each entry an exactly rounded sum."""
    r = y.shape[1]
    v = [[0.0] * r for _ in range(r)]
    for i in range(r):
        wi = w * y[:, i]
        for j in range(i + 1):
            v[i][j] = v[j][i] = math.fsum((wi * y[:, j]).tolist())
    return v


def _cholesky(v: list[list[float]]) -> list[list[float]] | None:
    """Lower Cholesky factor of a symmetric r x r list; None if not positive definite."""
    r = len(v)
    low = [[0.0] * r for _ in range(r)]
    for i in range(r):
        for j in range(i + 1):
            s = v[i][j] - math.fsum(low[i][k] * low[j][k] for k in range(j))
            if i == j:
                if not s > 0.0:
                    return None
                low[i][i] = math.sqrt(s)
            else:
                low[i][j] = s / low[j][j]
    return low


def _inverse_spd(v: list[list[float]]) -> np.ndarray | None:
    """V^-1 (r x r array) through the Cholesky factor; None if V is not positive definite."""
    low = _cholesky(v)
    if low is None:
        return None
    r = len(v)
    linv = [[0.0] * r for _ in range(r)]  # L^-1, lower triangular
    for j in range(r):
        linv[j][j] = 1.0 / low[j][j]
        for i in range(j + 1, r):
            linv[i][j] = -math.fsum(low[i][k] * linv[k][j] for k in range(j, i)) / low[i][i]
    out = np.empty((r, r))
    for i in range(r):
        for j in range(i + 1):
            out[i, j] = out[j, i] = math.fsum(linv[k][i] * linv[k][j] for k in range(max(i, j), r))
    return out


def min_eigenvalue(v) -> float:
    """Smallest eigenvalue of a symmetric r x r matrix (list or array): closed form for r <= 2, else
    cyclic Jacobi rotations; plain floating point, so the same on every machine (LAPACK's is not
    guaranteed to be: its kernels depend on the CPU)."""
    a = [[float(x) for x in row] for row in v]
    r = len(a)
    if r == 0:
        return 0.0
    if r == 1:
        return a[0][0]
    if r == 2:
        half = (a[0][0] - a[1][1]) / 2
        return (a[0][0] + a[1][1]) / 2 - math.sqrt(half * half + a[0][1] * a[0][1])
    for _ in range(60):
        off = math.fsum(a[i][j] * a[i][j] for i in range(r) for j in range(i + 1, r))
        if off <= 1e-32 * math.fsum(a[i][i] * a[i][i] for i in range(r)) or off == 0.0:
            break
        for p in range(r - 1):
            for q in range(p + 1, r):
                if a[p][q] == 0.0:
                    continue
                theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for k in range(r):  # columns p, q
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
                for k in range(r):  # rows p, q
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
    return min(a[i][i] for i in range(r))


def _quad_rows(y: np.ndarray, m: np.ndarray) -> np.ndarray:
    """y_k^T M y_k for every row (M symmetric r x r)."""
    r = y.shape[1]
    out = np.zeros(y.shape[0])
    for i in range(r):
        out = out + y[:, i] * rowdot(y, m[i])
    return out


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


def span_basis(z: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """An orthonormal basis U (d, r) of span(z), canonical (Q3): the identity when r = d; otherwise
    Gram-Schmidt on the candidates, each time taking the candidate with the largest residual
    (near-ties, relative 1e-8, to the lowest index), orthogonalised twice. The rank r counts the
    singular values of z above ``rtol`` times the largest."""
    z = np.atleast_2d(np.asarray(z, dtype=float))
    d = z.shape[1]
    if z.shape[0] == 0 or not np.any(z):
        return np.zeros((d, 0))
    sv = np.linalg.svd(z, compute_uv=False)  # the rank only: a decision with a wide margin
    r = int(np.sum(sv > rtol * sv[0]))
    if r == d:
        return np.eye(d)
    res = np.array(z)
    scale = float(rowdot(z * z, np.ones(d)).max())
    basis = []
    for _ in range(r):
        nrm2 = rowdot(res * res, np.ones(d))
        k = int(np.argmax(nrm2 >= nrm2.max() * (1 - _TIE)))
        if not nrm2[k] > (rtol**2) * scale:
            break
        u = res[k] / math.sqrt(nrm2[k])
        for _ in range(2):  # re-orthogonalise against the earlier vectors
            for b in basis:
                u = u - math.fsum((u * b).tolist()) * b
            u = u / math.sqrt(math.fsum((u * u).tolist()))
        basis.append(u)
        res = res - np.outer(rowdot(res, u), u)
    return np.column_stack(basis) if basis else np.zeros((d, 0))


def g_values(y: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """y_k^T V(pi)^-1 y_k for every row (inf if V(pi) is singular); deterministic arithmetic."""
    y = np.atleast_2d(np.asarray(y, dtype=float))
    vinv = _inverse_spd(gram(y, np.asarray(pi, dtype=float)))
    if vinv is None:
        return np.full(y.shape[0], np.inf)
    return _quad_rows(y, vinv)


def g_value(y: np.ndarray, pi: np.ndarray) -> float:
    """The G-optimality value g(pi) = max_k y_k^T V(pi)^-1 y_k (Definition 3); inf if singular."""
    return float(np.max(g_values(y, pi)))


def _log_det(y: np.ndarray, pi: np.ndarray) -> float:
    low = _cholesky(gram(y, pi))
    return -math.inf if low is None else 2.0 * math.fsum(math.log(low[i][i]) for i in range(len(low)))


def _first_max(x: np.ndarray) -> int:
    """Index of the maximum of x, near-ties (relative _TIE) to the lowest index."""
    top = float(x.max())
    return int(np.argmax(x >= top - _TIE * abs(top)))


def _greedy_start(y: np.ndarray) -> np.ndarray:
    """r well-spread candidates (pivoted Gram-Schmidt: each time the largest residual, near-ties to
    the lowest index), deterministic."""
    m, r = y.shape
    res = np.array(y)
    chosen = []
    for _ in range(r):
        nrm2 = rowdot(res * res, np.ones(r))
        k = _first_max(nrm2)
        if not nrm2[k] > 0:
            break
        chosen.append(k)
        u = res[k] / math.sqrt(nrm2[k])
        res = res - np.outer(rowdot(res, u), u)
    pi = np.zeros(m)
    pi[chosen] = 1.0 / len(chosen)
    return pi


def _fw(y: np.ndarray, tol: float, max_iter: int = 200_000, pi0: np.ndarray | None = None) -> np.ndarray:
    """Fedorov-Wynn / Frank-Wolfe with away steps (Wolfe-Atwood) for the D-optimal design.

    Start: ``pi0`` if given and non-singular, else uniform on r well-spread candidates. Each
    iteration compares the toward step on k+ = argmax g with the away step on k- = argmin_{supp} g
    and takes the larger gap, with the exact line search lambda = (g / r - 1) / (g - 1) (negative
    for away steps, clipped to keep pi >= 0: a "drop" step). V^-1 and g are updated by
    Sherman-Morrison and recomputed every 200 steps. Deterministic arithmetic (no BLAS); near-ties
    in g go to the lowest index.
    """
    m, r = y.shape
    if pi0 is not None and np.all(np.isfinite(g_values(y, pi0))):
        pi = np.array(pi0, dtype=float)
    else:
        pi = _greedy_start(y)
    vinv = None
    for it in range(max_iter):
        if it % 200 == 0:
            vinv = _inverse_spd(gram(y, pi))
            if vinv is None:
                raise np.linalg.LinAlgError("singular design in Frank-Wolfe")
            g = _quad_rows(y, vinv)
        kp = _first_max(g)
        gp = float(g[kp])
        if gp <= r * (1 + tol):
            break
        supp = np.flatnonzero(pi > 0)
        gs = g[supp]
        km = int(supp[np.argmax(gs <= float(gs.min()) * (1 + _TIE))])
        gm = float(g[km])
        if gp - r >= r - gm or pi[km] >= 1.0:
            k, lam = kp, (gp / r - 1.0) / (gp - 1.0)
        else:
            k = km
            lam_max = pi[km] / (1.0 - pi[km])
            lam = -lam_max if gm <= 1.0 else -min((r - gm) / (r * (gm - 1.0)), lam_max)
        gk = float(g[k])
        vy = np.array([math.fsum((vinv[i] * y[k]).tolist()) for i in range(r)])
        u = rowdot(y, vy)
        pi *= 1.0 - lam
        pi[k] += lam
        if lam < 0 and pi[k] <= 1e-15:
            pi[k] = 0.0
        # V' = (1 - lam) V + lam y y^T  ->  Sherman-Morrison
        c = lam / (1.0 - lam)
        f = c / (1.0 + c * gk)
        vinv = (vinv - f * np.outer(vy, vy)) / (1.0 - lam)
        g = (g - f * u * u) / (1.0 - lam)
    return pi / math.fsum(pi.tolist())


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


def solve_d_optimal(y: np.ndarray, solver: str = "fw", tol: float = 1e-4) -> tuple[np.ndarray, str]:
    """Raw D-optimal weights on the rows of y (m, r), full column rank. Returns (pi, solver used)."""
    m, r = y.shape
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; allowed: {SOLVERS}")
    if r == 1:  # all candidates collinear: all mass on the longest one
        pi = np.zeros(m)
        pi[_first_max(np.abs(y[:, 0]))] = 1.0
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
    return _fw(y, tol), "fw"


def _vech(yk: np.ndarray) -> list[float]:
    r = yk.size
    return [float(yk[i] * yk[j]) for i in range(r) for j in range(i, r)]


def _kernel_vector(cols: list[list[float]]) -> list[float]:
    """A non-zero v with sum_j v_j cols[j] = 0 for n = len(cols) vectors of length D < n, canonical:
    Gauss-Jordan elimination with partial pivoting (near-ties to the lowest row), the first free
    column set to 1 and the other free columns to 0."""
    n, dim = len(cols), len(cols[0])
    a = [[cols[j][i] for j in range(n)] for i in range(dim)]  # dim x n
    scale = max(abs(x) for row in a for x in row) or 1.0
    pivots, row = [], 0
    for col in range(n):
        if row == dim:
            break
        best = max(abs(a[i][col]) for i in range(row, dim))
        if best <= 1e-12 * scale:
            continue
        p = next(i for i in range(row, dim) if abs(a[i][col]) >= best * (1 - _TIE))
        a[row], a[p] = a[p], a[row]
        piv = a[row][col]
        a[row] = [x / piv for x in a[row]]
        for i in range(dim):
            if i != row and a[i][col] != 0.0:
                f = a[i][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[row], strict=True)]
        pivots.append(col)
        row += 1
    free = next(c for c in range(n) if c not in pivots)
    v = [0.0] * n
    v[free] = 1.0
    for i, col in enumerate(pivots):
        v[col] = -a[i][free]
    return v


def reduce_support(y: np.ndarray, pi: np.ndarray, threshold: float = _THRESHOLD) -> np.ndarray:
    """Caratheodory reduction (spec 6.1), canonical: threshold, then, while more than
    D = r (r + 1) / 2 points remain, take a kernel vector v of the vech(y y^T) of the first D + 1
    support points (:func:`_kernel_vector`), oriented so that the total mass does not grow (V is
    unchanged by the move, so after the renormalisation g can only decrease; when sum v = 0, as at
    an exact optimum, its first non-zero entry is made positive), and move pi along -v until the
    first weight (near-ties to the lowest index) reaches 0."""
    r = y.shape[1]
    bound = r * (r + 1) // 2
    pi = np.where(pi < threshold, 0.0, pi)
    pi = pi / math.fsum(pi.tolist())
    supp = np.flatnonzero(pi > 0)
    while supp.size > bound:
        cols = supp[: bound + 1]
        v = np.array(_kernel_vector([_vech(y[k]) for k in cols]))
        size = float(np.abs(v).max())
        total = math.fsum(v.tolist())
        if total < -_TIE * size or (abs(total) <= _TIE * size and v[np.argmax(np.abs(v) > _TIE * size)] < 0):
            v = -v
        pos = v > _TIE * size
        ratios = np.full(v.size, np.inf)
        ratios[pos] = pi[cols][pos] / v[pos]
        t = float(ratios.min())
        tied = ratios <= t * (1 + _TIE)  # every point that reaches 0 (up to near-ties) leaves
        t = float(ratios[int(np.argmax(tied))])
        pi[cols] = np.clip(pi[cols] - t * v, 0.0, None)
        pi[cols[tied]] = 0.0
        pi /= math.fsum(pi.tolist())
        supp = np.flatnonzero(pi > 0)
    return pi


def _solve_lower(low: list[list[float]], b: list[float]) -> list[float]:
    """x with L L^T x = b (forward then backward substitution, exactly rounded sums)."""
    n = len(b)
    u = [0.0] * n
    for i in range(n):
        u[i] = (b[i] - math.fsum(low[i][k] * u[k] for k in range(i))) / low[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (u[i] - math.fsum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


def _newton_on_support(ys: np.ndarray, max_iter: int = 100) -> np.ndarray | int | None:
    """The D-optimal weights on the rows of ys (s, r), s <= r (r + 1) / 2 (step 2 of the module
    docstring): Newton's method on max log det V(pi) over {sum pi = 1}, from the uniform design,
    with a fraction-to-the-boundary rule (0.99) and Armijo backtracking that keep pi > 0; stopped
    when g_k = y_k^T V^-1 y_k equals r to 1e-12 on the support (the optimality condition), the
    Newton step is below 1e-13 or no step increases log det.
    Plain floating point and exactly rounded sums, so the result is the same on every machine.
    Returns the weights; or the index of a weight driven to 0 (the optimum does not need that
    point); or None if the vech(y y^T) are linearly dependent (the -Hessian (y_j^T V^-1 y_k)^2 is
    singular and the optimum need not be unique) or the iteration does not converge."""
    s, r = ys.shape
    rows = [ys[k].tolist() for k in range(s)]
    pi = [1.0 / s] * s

    def logdet(p):
        low = _cholesky(gram(ys, np.array(p)))
        return -math.inf if low is None else 2.0 * math.fsum(math.log(low[i][i]) for i in range(r))

    f = logdet(pi)
    for _it in range(max_iter):
        vinv = _inverse_spd(gram(ys, np.array(pi)))
        if vinv is None:
            return None
        vy = [[math.fsum(vinv[i][j] * rows[k][j] for j in range(r)) for i in range(r)] for k in range(s)]
        mm = [[math.fsum(rows[j][i] * vy[k][i] for i in range(r)) for k in range(s)] for j in range(s)]
        g = [mm[k][k] for k in range(s)]
        if max(abs(gk - r) for gk in g) <= 1e-12 * r:
            return np.array(pi)
        low = _cholesky([[mm[j][k] * mm[j][k] for k in range(s)] for j in range(s)])  # -Hessian
        if low is None:
            return None
        qg, q1 = _solve_lower(low, g), _solve_lower(low, [1.0] * s)
        nu = math.fsum(qg) / math.fsum(q1)
        step = [a - nu * b for a, b in zip(qg, q1, strict=True)]  # Newton step on {sum pi = 1}
        decrement = math.fsum(a * b for a, b in zip(step, g, strict=True))
        if not decrement > 0 or max(abs(x) for x in step) <= 1e-13:  # converged to rounding
            return np.array(pi)
        ratios = [-p / d for p, d in zip(pi, step, strict=True) if d < 0]
        alpha = min(1.0, 0.99 * min(ratios)) if ratios else 1.0
        for _ls in range(60):
            cand = [p + alpha * d for p, d in zip(pi, step, strict=True)]
            fc = logdet(cand)
            # near the optimum (decrement <= 1e-8) the increase is below the rounding of log det:
            # take the (quadratically convergent) step without the test
            if fc >= f + 1e-4 * alpha * decrement or (decrement <= 1e-8 and fc > -math.inf):
                break
            alpha *= 0.5
        else:
            return np.array(pi)  # no further increase: converged to rounding
        total = math.fsum(cand)
        pi, f = [c / total for c in cand], fc
        if min(pi) < 1e-9:
            return int(np.argmin(pi))
    return None


def _restricted_optimum(ys: np.ndarray) -> np.ndarray | None:
    """D-optimal weights on the rows of ys (:func:`_newton_on_support`); a point whose weight the
    iteration drives to 0 is removed (deterministically) and the rest re-solved. None if
    unavailable."""
    keep = list(range(ys.shape[0]))
    while keep:
        res = _newton_on_support(ys[keep])
        if res is None:
            return None
        if isinstance(res, int):
            del keep[res]
            continue
        out = np.zeros(ys.shape[0])
        out[keep] = res
        return out
    return None


def round_weights(pi: np.ndarray, unit: float = WEIGHT_UNIT) -> np.ndarray:
    """Weights on the grid ``unit`` (a power of 2) with the same support, summing to exactly 1:
    the weights are first rounded to unit / 64 (so that equal weights, such as 1/3 three times,
    stay exactly equal), floored to the grid, and the missing units go to the largest remainders
    (ties to the lowest index); a support point left with no unit gets one, taken from the
    largest weight."""
    pi = np.asarray(pi, dtype=float)
    total = int(round(1.0 / unit))
    supp = np.flatnonzero(pi > 0)
    w = pi[supp] / math.fsum(pi[supp].tolist())
    x = np.round(w * (total * 64)) / 64  # exact ties stay ties (to 2^-30), then to the lowest index
    units = np.floor(x).astype(np.int64)
    rem = x - units
    order = np.lexsort((np.arange(supp.size), -rem))  # largest remainder first, then lowest index
    units[order[: total - int(units.sum())]] += 1
    while np.any(units == 0):
        units[int(np.argmax(units))] -= 1
        units[int(np.argmax(units == 0))] = 1
    out = np.zeros_like(pi)
    out[supp] = units * unit
    return out


def canonical_weights(y: np.ndarray, pi_raw: np.ndarray, reduce: bool = True) -> tuple[np.ndarray, bool, bool]:
    """The canonical design (steps 1-4 of the module docstring) from a solver's raw design on the
    rows of y. Returns (weights on the grid, reduced (support <= r (r + 1) / 2), restricted (the
    weights are the restricted optimum rather than the fallback))."""
    r = y.shape[1]
    bound = r * (r + 1) // 2
    thresholded = np.where(pi_raw < _THRESHOLD, 0.0, pi_raw)
    thresholded = thresholded / math.fsum(thresholded.tolist())
    pi, reduced = thresholded, False
    if reduce:
        red = reduce_support(y, pi_raw)
        if np.count_nonzero(red) <= bound and g_value(y, red) <= r * (1 + G_TOL):
            pi, reduced = red, True
        else:
            log.warning("Caratheodory reduction failed the g re-check (r = %d); keeping the thresholded "
                        "support of size %d", r, np.count_nonzero(thresholded))
    supp = np.flatnonzero(pi > 0)
    fallback = round_weights(pi)
    if supp.size > bound:
        return fallback, reduced, False
    opt = _restricted_optimum(y[supp])
    if opt is not None:
        cand = np.zeros_like(pi)
        cand[supp] = opt
        cand = round_weights(cand)
        if g_value(y, cand) <= r * (1 + G_TOL):
            return cand, reduced, True
    log.warning("restricted optimum unavailable on a support of %d points (r = %d); using the rounded "
                "reduced weights", supp.size, r)
    return fallback, reduced, False


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


def g_optimal_design(arms: np.ndarray, survivors, solver: str = "fw", tol: float = 1e-4,
                     reduce: bool = True) -> Design:
    """Canonical G-optimal design on the difference set of ``survivors`` (Algorithm 2, steps 2 and
    4; spec 6.1; canonical form: module docstring).

    ``tol`` is the solver's stopping tolerance g <= r (1 + tol) (FW) and the acceptance level of a
    cvxpy solution; the canonical design is re-verified against ``G_TOL`` = 1e-3.
    """
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; allowed: {SOLVERS}")
    arms = np.asarray(arms, dtype=float)
    pairs, z = difference_set(arms, survivors)
    d = arms.shape[1]
    if z.shape[0] == 0:
        return Design(pairs, np.zeros(0), z, np.zeros((d, 0)), 0.0, 0, "empty", 0, True, -np.inf)
    basis = span_basis(z)
    r = basis.shape[1]
    y = project(z, basis)
    cand = _hull_candidates(y)
    pi_c, used = solve_d_optimal(y[cand], solver, tol)
    pi = np.zeros(y.shape[0])
    pi[cand] = pi_c
    if g_value(y, pi) > r * (1 + tol) and cand.size < y.shape[0]:  # safety net of the hull restriction
        log.warning("hull-restricted design not optimal on all candidates; re-solving on all")
        pi, used = solve_d_optimal(y, solver, tol)
    pi, reduced, _ = canonical_weights(y, pi, reduce)
    supp = np.flatnonzero(pi > 0)
    g = g_value(y, pi)
    if reduced and supp.size > r * (r + 1) // 2:
        reduced = False
    return Design(pairs[supp], pi[supp], z[supp], basis, g, r, used, int(z.shape[0]), reduced,
                  _log_det(y[supp], pi[supp]))


def kiefer_wolfowitz_bound(rank: int) -> int:
    """r (r + 1) / 2."""
    return rank * (rank + 1) // 2
