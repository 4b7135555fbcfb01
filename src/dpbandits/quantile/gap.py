"""The quantile gap (paper, Definition 2 / eq. (6)) and the distance to quantile flip (eq. (7),
Theorem 2).

    Delta(F_i, F_*) = sup{eta >= 0 : F_i^{-1}(q + eta) <= F_*^{-1}(q - eta)}

is measured on the level axis. The predicate is monotone in eta (the left side is non-decreasing,
the right side non-increasing; spec 1.2 (1)), so the engine bisects it on [0, min(q, 1 - q)]
(tolerance 1e-13). The non-strict "<=" is the paper's (it makes discrete instances such as BERN12
have a positive gap). Closed forms (spec 2.6) are separate code paths so the tests can compare
them with the engine: Gaussian and exponential pairs (a scalar root), DISC, BERN12, MIX, ZG.

``d_flip`` is computed through the one-dimensional threshold form of spec 1.3,
``inf_t max{(F_l(t) - q)^+, (q - F_h(t))^+}``; the paper's push / pull construction can need mass
from an empty interval when an atom sits at the quantile (spec 7.1 #15), so the constructive
check (A3) builds its flipped pair from the threshold instead (:func:`flip_pair`).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special

from dpbandits.quantile.arms import Arm, DiscreteArm

__all__ = ["gap", "gap_curve", "gaussian_pair_gap", "exponential_pair_gap", "mix_gap", "d_flip",
           "flip_pair", "is_flipped", "tv_distance", "GAP_TOL"]

GAP_TOL = 1e-13


def gap(arm: Arm, best: Arm, q: float, tol: float = GAP_TOL) -> float:
    """Definition 2 by bisection on the monotone predicate ppf_i(q + eta) <= ppf_*(q - eta)."""
    def holds(eta: float) -> bool:
        return bool(arm.ppf(q + eta) <= best.ppf(q - eta))

    top = min(q, 1 - q)
    if not holds(0.0):
        return 0.0
    if holds(top):
        return top
    lo, hi = 0.0, top
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def gap_curve(arm: Arm, best: Arm, qs, tol: float = GAP_TOL) -> np.ndarray:
    """Delta(q) over a grid of levels (Figure 1), the bisection of :func:`gap` run on every level
    at once; the better arm at each q is taken as the best (so that for the Gaussian pair the
    curve is symmetric: Delta(q) = Delta(1 - q))."""
    qs = np.asarray(qs, dtype=float)
    swap = arm.ppf(qs) > best.ppf(qs)

    def holds(eta):
        lo_side = np.where(swap, best.ppf(qs + eta), arm.ppf(qs + eta))
        hi_side = np.where(swap, arm.ppf(qs - eta), best.ppf(qs - eta))
        return lo_side <= hi_side

    top = np.minimum(qs, 1 - qs)
    lo, hi = np.zeros_like(qs), top.copy()
    while np.any(hi - lo > tol):
        mid = 0.5 * (lo + hi)
        ok = holds(mid)
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    out = 0.5 * (lo + hi)
    out[~holds(np.zeros_like(qs))] = 0.0
    out[holds(top)] = top[holds(top)]
    return out


def gaussian_pair_gap(sigma_lo: float, sigma_hi: float, q: float) -> float:
    """Closed form (spec 1.2 (4)): N(0, sigma_lo^2) suboptimal vs N(0, sigma_hi^2) best, q > 1/2:
    the root in (0, min(q - 1/2, 1 - q)) of sigma_hi Phi^-1(q - eta) = sigma_lo Phi^-1(q + eta).
    At q = 1/2 the gap is 0."""
    if not sigma_hi > sigma_lo > 0 or not 0.5 <= q < 1:
        raise ValueError("gaussian_pair_gap needs sigma_hi > sigma_lo > 0 and 1/2 <= q < 1")
    if q == 0.5:
        return 0.0

    def f(eta):
        return sigma_hi * special.ndtri(q - eta) - sigma_lo * special.ndtri(q + eta)

    top = min(q - 0.5, 1 - q)
    if f(top) >= 0:  # the predicate still holds at the largest level
        return top
    return float(optimize.brentq(f, 0.0, top, xtol=1e-15, rtol=4 * np.finfo(float).eps))


def exponential_pair_gap(rate_lo: float, rate_hi: float, q: float) -> float:
    """Closed form (spec 1.2 (5)): Exp(rate_lo) suboptimal vs Exp(rate_hi) best (rate_hi <
    rate_lo): the root of -log(1 - q + eta) / rate_hi = -log(1 - q - eta) / rate_lo."""
    if not rate_lo > rate_hi > 0 or not 0 < q < 1:
        raise ValueError("exponential_pair_gap needs rate_lo > rate_hi > 0 and 0 < q < 1")

    def f(eta):
        with np.errstate(divide="ignore"):
            return -np.log1p(-(q - eta)) / rate_hi + np.log1p(-(q + eta)) / rate_lo

    top = min(q, 1 - q)
    top_val = -np.inf if top == 1 - q else f(top)  # at eta = 1 - q the suboptimal quantile is +inf
    if top_val >= 0:
        return top
    hi = np.nextafter(top, 0.0)
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps))


def mix_gap(gamma: float, q: float, w: float = 1 / 3) -> float:
    """Theorem 5's gap between G^{w - gamma} (best) and G^w: (1 - q) gamma / (2 - 2w + gamma)
    for q > w (with w = 1/3: (1 - q) gamma / (4/3 + gamma))."""
    return (1 - q) * gamma / (2 - 2 * w + gamma)


# ---------------------------------------------------------------------------------------------
# Distance to quantile flip (Theorem 2)


def _bracket(lo_arm: Arm, hi_arm: Arm) -> tuple[float, float]:
    levels = np.array([1e-12, 1 - 1e-12])
    pts = np.concatenate([lo_arm.ppf(levels), hi_arm.ppf(levels), lo_arm.atoms, hi_arm.atoms])
    pts = pts[np.isfinite(pts)]
    return float(pts.min()) - 1.0, float(pts.max()) + 1.0


def d_flip(lo_arm: Arm, hi_arm: Arm, q: float, iterations: int = 200) -> float:
    """inf_t max{(F_l(t) - q)^+, (q - F_h(t))^+} (spec 1.3) for F_l^{-1}(q) <= F_h^{-1}(q).

    f1(t) = (F_l(t) - q)^+ is non-decreasing and f2(t) = (q - F_h(t))^+ non-increasing, so the
    infimum sits where f1 - f2 changes sign; bisection on t brackets that point and the value is
    the smallest of max(f1, f2) at both ends and at their left limits (atoms)."""
    def val(t, below=False):
        fl = lo_arm.cdf_below(t) if below else lo_arm.cdf(t)
        fh = hi_arm.cdf_below(t) if below else hi_arm.cdf(t)
        return max(max(float(fl) - q, 0.0), max(q - float(fh), 0.0))

    def sign(t):
        return max(float(lo_arm.cdf(t)) - q, 0.0) - max(q - float(hi_arm.cdf(t)), 0.0)

    lo, hi = _bracket(lo_arm, hi_arm)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if sign(mid) < 0:
            lo = mid
        else:
            hi = mid
    candidates = [val(lo), val(hi), val(hi, below=True), val(lo, below=True)]
    for atom in np.concatenate([lo_arm.atoms, hi_arm.atoms]):  # exact on atoms
        candidates += [val(atom), val(atom, below=True)]
    return min(candidates)


def tv_distance(a: DiscreteArm, b: DiscreteArm) -> float:
    support = np.union1d(a.atoms, b.atoms)
    pa = dict(zip(a.atoms, a.probs, strict=True))
    pb = dict(zip(b.atoms, b.probs, strict=True))
    return 0.5 * sum(abs(pa.get(x, 0.0) - pb.get(x, 0.0)) for x in support)


def _move_mass(arm: DiscreteArm, amount: float, take_below: float | None, take_above: float | None,
               to: float) -> DiscreteArm:
    """Move ``amount`` of probability from atoms <= take_below (or > take_above) to the point
    ``to`` (taken from the atoms nearest the threshold first)."""
    values, probs = list(arm.atoms), list(arm.probs)
    order = (sorted((i for i, v in enumerate(values) if v <= take_below), key=lambda i: -values[i])
             if take_below is not None else
             sorted((i for i, v in enumerate(values) if v > take_above), key=lambda i: values[i]))
    left = amount
    for i in order:
        take = min(probs[i], left)
        probs[i] -= take
        left -= take
        if left <= 1e-15:
            break
    if left > 1e-12:
        raise ValueError("not enough mass to move")
    mass = dict(zip(values, probs, strict=True))
    mass[to] = mass.get(to, 0.0) + amount
    pts = sorted(v for v, p in mass.items() if p > 1e-15)
    return DiscreteArm(tuple(pts), tuple(mass[v] for v in pts), f"{arm.name}~")


def flip_pair(lo_arm: DiscreteArm, hi_arm: DiscreteArm, q: float, eta: float):
    """The threshold construction of spec A3: pick t* attaining the infimum of d_flip among the
    atoms; G_h = F_l with F_l(t*) - q + eta mass moved from (-inf, t*] above t* (only if
    F_l(t*) >= q), G_l = F_h with (q - F_h(t*))^+ mass moved from (t*, inf) to t*. Then
    G_h^-1(q) > t* >= G_l^-1(q) at max TV distance in [Delta, Delta + eta]. Returns (G_h, G_l, t*)."""
    atoms = np.union1d(lo_arm.atoms, hi_arm.atoms)

    def val(t):
        return max(max(float(lo_arm.cdf(t)) - q, 0.0), max(q - float(hi_arm.cdf(t)), 0.0))

    t_star = float(atoms[np.argmin([val(t) for t in atoms])])
    top = float(max(lo_arm.atoms.max(), hi_arm.atoms.max())) + 1.0
    f_l = float(lo_arm.cdf(t_star))
    m_h = f_l - q + eta if f_l >= q else 0.0  # G_h(t*) < q, so G_h^-1(q) > t*
    m_l = max(q - float(hi_arm.cdf(t_star)), 0.0)  # G_l(t*) >= q, so G_l^-1(q) <= t*
    g_h = _move_mass(lo_arm, m_h, t_star, None, top) if m_h > 0 else lo_arm
    g_l = _move_mass(hi_arm, m_l, None, t_star, t_star) if m_l > 0 else hi_arm
    return g_h, g_l, t_star


def is_flipped(g_h: Arm, g_l: Arm, q: float) -> bool:
    return bool(g_h.ppf(q) > g_l.ppf(q))


