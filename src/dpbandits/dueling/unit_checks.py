"""Mechanism and unit checks of the dueling paper (Saha & Asi 2024) that need no bandit simulation
(specification ``dp_dueling.md`` sections 2.1, 3, 5.2 A1 / A2 / A6(a), 7 errata 4, 13, 15, 16,
24, 31).

Check ids (stable; one claim row each, ``paper = "dueling"``):

===================  =========  ==============================================================
check_id             kind       claim
===================  =========  ==============================================================
A1                   lemma      Lemma 1: (1-delta) quantile of |c_t - S_t| <= 4 log(1/delta) log^2.5 T / eps
A1-CAL               lemma      same quantiles <= the calibrated bound lambda(delta) (spec 2.1)
A1-RATIO             report     conservativeness of Lemma 1: bound / empirical quantile
A1-SLOPE-EPS         lemma      std of c_t - S_t (pooled over t) vs 1/eps: slope in [0.95, 1.05]
A1-SLOPE-L           lemma      pooled std vs the number of levels L: slope in [1.3, 1.7]
A1-SLOPE-POW2        lemma      std at t = 2^j (popcount 1) vs L: slope in [0.9, 1.1]
A2-NODES             privacy    every element lies in exactly L nodes; sensitivity L is used
A2-SCALE             privacy    each completed node gets exactly one Lap(L / eps_c) draw
A2                   privacy    exact log-likelihood ratio of the node vector <= eps_c
A6-P1                lemma      EBS Property (1) on every subset of random logistic instances
A6-P2                lemma      EBS Property (2) in the Appendix form (<= 2 Delta)
A6-P2-MAIN           erratum    EBS Property (2) in the main-text form (<= Delta) is false
A6-MIDDLE            report     B_S(1) - B_S(i) >= Delta(1, i) for middle arms (fails; Lemma 6)
A6-ORDER             lemma      the EBS orders every subset as the utilities do
L6-PAPER             erratum    Lemma 6's count does not force elimination (K = 2 counterexample)
L6-CORR              lemma      the corrected count gives 4 rad <= 0.625 Delta
L10-PAPER            erratum    Lemma 10's "eliminated once xi < Delta / 2" is false (Delta = 3 xi survives)
L10-CORR             lemma      the corrected threshold: survivors have Delta <= 4 xi
B7-F1-MATRIX         lower_bound  instance F1 equals the paper's lower-bound matrix
LB-ALT               erratum    the lower bound's alternative P' is not logistic-realisable (K >= 3)
LB-ALT-FIX           lower_bound  the in-class replacement r'_{i0} = 2 ln 3 has the needed gaps
KAPPA-ALG            theorem    Algorithm 2's kappa equals sigma'(2 (S + 1)) (brute force)
KAPPA-THM            theorem    Theorem 3's kappa equals sigma'(S + 1) (brute force)
KAPPA                erratum    the two kappa definitions differ (5.94x at S = 1)
===================  =========  ==============================================================

Public API: the check functions ``check_a1, check_a2, check_a6, check_lemma6, check_lemma10,
check_lower_bound, check_kappa`` (each ``(rng, scale, **sizes) -> CheckOutput``), the registry
:data:`CHECKS` (key -> (function, {"paper": sizes, "smoke": sizes})) with :func:`run_check`,
and the vectorised binary-tree helpers :func:`tree_release`, :func:`tree_levels`,
:func:`n_tree_nodes`, :func:`node_completion_index` and :func:`a1_cells`.

Sizes (keyword arguments) per registry key:

* ``A1``: ``horizons`` (T grid), ``epsilons``, ``deltas``, ``n_streams`` (streams per (T, eps)
  cell), ``n_boot``. Test-only: ``noise_multiplier``, ``formula`` (``"all_levels"`` = broken
  formula adding the noise of all L nodes that contain t instead of the popcount(t) released
  nodes; ``"unit_sensitivity"`` = Lap(1/eps) per node, the sensitivity-1 bug).
* ``A2``: ``epsilons``, ``horizon`` (stream length of the LLR draws), ``n_draws`` (per eps),
  ``max_lengths`` (T_max grid of the node / scale checks). Test-only: ``noise_multiplier``.
* ``A6a``: ``n_instances``, ``k_min``, ``k_max``, ``scales`` (utility scales s). Test-only:
  ``instances`` (a list of (utilities, preference) pairs replacing the random draw),
  ``counterexample``.
* ``L6``: ``horizons`` (paper-count grid), ``epsilon``; ``corr_horizons``, ``corr_epsilons``,
  ``corr_gaps``, ``corr_ks`` (grid of the corrected count). Test-only: ``paper_constants``,
  ``corr_constants``.
* ``L10``: ``n_trials``, ``n_arms``. Test-only: ``margin`` (the rule's 2), ``threshold``.
* ``LB``: ``ks``. Test-only: ``instance`` (replaces :func:`f1`), ``alt_utility``.
* ``KAPPA``: ``n_samples`` (random search), ``dims``, ``norms`` (S grid), ``n_polish``.
  Test-only: ``alg_closed_form``, ``thm_closed_form``.

Conventions: natural logs (spec 1.1); the BinTree of spec 2.1 with ``T_max = T`` and
``L = floor(log2 T) + 1``; bootstrap CIs over streams (percentile, ARCHITECTURE.md).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd
from scipy.optimize import minimize

from dpbandits.checks import CheckOutput, ScalingFigure, band_verdict, claim_row, upper_verdict
from dpbandits.claims import Claim
from dpbandits.dueling.instances import borda_scores, f1, sigmoid, sigmoid_prime
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter
from dpbandits.stats.core import clopper_pearson, loglog_slope

__all__ = [
    "CHECKS", "run_check", "check_a1", "check_a2", "check_a6", "check_lemma6", "check_lemma10",
    "check_lower_bound", "check_kappa", "tree_release", "tree_levels", "n_tree_nodes",
    "node_completion_index", "a1_cells", "lemma1_bound", "calibrated_bound", "lb_matrix",
    "logistic_residual",
]

PAPER = "dueling"
_ORDER = {"PASS": 0, "REPORT": 0, "INCONCLUSIVE": 1, "FAIL": 2}


def _claim(check_id, source, kind, claim, statistic, value, criterion, verdict, n, scale,
           lo=np.nan, hi=np.nan) -> Claim:
    return claim_row(PAPER, check_id, source, kind, claim, statistic, value, lo, hi, criterion,
                     verdict, n, scale)


def _worst(verdicts: Iterable[str]) -> str:
    return max(verdicts, key=lambda v: _ORDER[v], default="PASS")


# ================================================================================================
# Binary tree (spec 2.1), vectorised
# ================================================================================================


def tree_levels(max_length: int) -> int:
    """L = floor(log2 T_max) + 1 (the number of levels, and of nodes containing an element)."""
    return int(max_length).bit_length()


def _popcount(x):
    return np.bitwise_count(np.asarray(x, dtype=np.int64))


def n_tree_nodes(length: int) -> int:
    """Number of nodes completed after ``length`` elements: sum_h floor(T / 2^h) = 2T - popcount(T)."""
    return 2 * int(length) - int(_popcount(length))


def node_completion_index(h, j):
    """Position of node (h, j) in the order :class:`BinaryTreeCounter` draws its noise (by completion
    time t = j 2^h, then level): 2 (t - 1) - popcount(t - 1) + h, since sum_{s < t} (tz(s) + 1) =
    2 (t - 1) - popcount(t - 1) nodes complete before t (Legendre)."""
    t = np.asarray(j, dtype=np.int64) << np.asarray(h, dtype=np.int64)
    return 2 * (t - 1) - _popcount(t - 1) + h


def _odd_nodes(length: int, levels: int) -> list[np.ndarray]:
    """Per level h < L, the indices j = 1, 3, 5, ... of the completed odd nodes (j 2^h <= T): the
    only nodes a release c_t uses (bit h of t set  <=>  t >> h odd)."""
    return [np.arange(1, (length >> h) + 1, 2, dtype=np.int64) for h in range(levels)]


def _assemble(values: list[np.ndarray], length: int) -> np.ndarray:
    """c[:, t - 1] = sum_{h: bit_h(t) = 1} values[h][:, (t >> h - 1) / 2] for t = 1..T, where
    ``values[h]`` holds one row per stream and one column per odd node (j = 1, 3, ...) of level h.

    Top-down doubling in O(T): with A_m(u) the contribution of levels >= m at u = t >> m,
    A_m(u) = A_{m+1}(u >> 1) + [u odd] values[m](node u)."""
    n = values[0].shape[0]
    p = 1 << int(length - 1).bit_length()  # P = 2^k >= T
    k = p.bit_length() - 1
    acc = np.zeros((n, 1))
    for m in range(k - 1, -1, -1):
        nxt = np.empty((n, acc.shape[1], 2))
        nxt[:, :, 0] = acc
        nxt[:, :, 1] = acc
        vals = values[m]
        nxt[:, : vals.shape[1], 1] += vals
        acc = nxt.reshape(n, -1)
    if length < p:
        return acc[:, 1 : length + 1]
    # T = P = 2^k: t = T has only bit k set, the single node (k, 1)
    return np.concatenate([acc[:, 1:], values[k][:, :1]], axis=1)


def _odd_block_sums(x: np.ndarray, levels: int) -> list[np.ndarray]:
    """Exact block sums of the completed odd nodes of each level (pairwise, bottom-up, O(T))."""
    n, length = x.shape
    p = 1 << int(length - 1).bit_length()
    cur = np.zeros((n, p))
    cur[:, :length] = x
    out = []
    for h in range(levels):
        m = ((length >> h) + 1) // 2
        out.append(cur[:, 0::2][:, :m].copy() if cur.shape[1] > 1 else cur[:, :m].copy())
        cur = cur[:, 0::2] + cur[:, 1::2] if cur.shape[1] > 1 else np.zeros((n, 1))
    return out


def tree_release(streams, epsilon: float, rng: np.random.Generator, *, max_length: int | None = None,
                 noise_multiplier: float = 1.0, exact_order: bool = True) -> np.ndarray:
    """Outputs c_1..c_T of the BinTree of spec 2.1 for a batch of streams (rows), vectorised.

    Node (h, j) holds its block sum plus eta_{h,j} ~ Lap(b), b = L / epsilon (times the test-only
    ``noise_multiplier``); c_t = sum_{h: bit_h(t)=1} node(h, t >> h), so the error is
    noise(t) = sum_h bit_h(t) eta_h[t >> h]. Only odd nodes (t >> h odd) are ever released.

    ``exact_order=True`` draws every completed node with ``rng.laplace`` in the counter's order
    (stream after stream), so the result equals feeding the streams one after the other to
    :class:`BinaryTreeCounter` objects sharing ``rng``. ``exact_order=False`` draws only the odd
    nodes that outputs use (same law, half the draws: exponential times a random sign)."""
    x = np.atleast_2d(np.asarray(streams, dtype=float))
    n, length = x.shape
    levels = tree_levels(length if max_length is None else max_length)
    b = noise_multiplier * levels / epsilon
    odd = _odd_nodes(length, levels)
    if exact_order:
        flat = rng.laplace(0.0, b, size=(n, n_tree_nodes(length)))
        noise = [flat[:, node_completion_index(h, j)] for h, j in enumerate(odd)]
    else:
        noise = _fast_laplace(rng, b, (n, sum(j.size for j in odd)), [j.size for j in odd])
    sums = _odd_block_sums(x, levels)
    return _assemble([s + eta for s, eta in zip(sums, noise, strict=True)], length)


def _fast_laplace(rng: np.random.Generator, b: float, shape, sizes) -> list[np.ndarray]:
    """Lap(b) draws as b x Exp(1) x a random sign (the sign from packed random bytes)."""
    draws = rng.standard_exponential(shape)
    total = int(np.prod(shape))
    bits = np.unpackbits(rng.integers(0, 256, size=(total + 7) // 8, dtype=np.uint8))[:total]
    sign = bits.reshape(shape).astype(np.float64)
    sign *= -2.0 * b
    sign += b  # +b or -b
    draws *= sign
    return np.split(draws, np.cumsum(sizes)[:-1], axis=1)


def _all_levels_noise(rng: np.random.Generator, b: float, n: int, length: int, levels: int):
    """Broken formula (negative control): the noise of all L nodes containing t (node
    ((t - 1) >> h) + 1 of each level), whatever the bits of t."""
    q = 1 << levels
    out = np.zeros((n, q))
    for h in range(levels):
        eta = b * rng.laplace(size=(n, q >> h))
        out.reshape(n, q >> h, 1 << h)[...] += eta[:, :, None]
    return out[:, :length]


def lemma1_bound(horizon: int, epsilon: float, delta: float) -> float:
    """Lemma 1: 4 log(1/delta) log^2.5 T / eps (natural logs)."""
    return 4.0 * math.log(1 / delta) * math.log(horizon) ** 2.5 / epsilon


def calibrated_bound(horizon: int, epsilon: float, delta: float) -> float:
    """Spec 2.1 (Chan-Shi-Song Cor. 2.9): lambda(delta) = b max(sqrt L, sqrt ln(2/delta))
    sqrt(8 ln(2/delta)), b = L / eps, for |sum of <= L Lap(b)| at level 1 - delta."""
    levels = tree_levels(horizon)
    b = levels / epsilon
    g = math.log(2 / delta)
    return b * max(math.sqrt(levels), math.sqrt(g)) * math.sqrt(8 * g)


# ---- A1 ----------------------------------------------------------------------------------------

_BIN = 0.005  # histogram bins of width 0.005 in sqrt(|err| / b): <= 0.35% relative error at 8 b


def _a1_cell(rng: np.random.Generator, horizon: int, epsilon: float, n_streams: int,
             bins: int, noise_multiplier: float, formula: str, chunk_elems: int = 1 << 20) -> dict:
    """Simulate ``n_streams`` Bernoulli(1/2) streams through the BinTree; per stream: |err| at
    t = T, mean err^2 over all t, mean err^2 over t = 2^j, histogram of sqrt(|err| / b)."""
    levels = tree_levels(horizon)
    b = levels / epsilon
    pow2 = (1 << np.arange(levels)) - 1
    pow2 = pow2[pow2 < horizon]
    data_rng, noise_rng = rng.spawn(2)
    err_t, ms_all, ms_pow2, hist = [], [], [], []
    chunk = max(1, chunk_elems // horizon)
    for start in range(0, n_streams, chunk):
        m = min(chunk, n_streams - start)
        x = data_rng.integers(0, 2, size=(m, horizon), dtype=np.int8)
        if formula in ("popcount", "unit_sensitivity"):
            mult = noise_multiplier / (levels if formula == "unit_sensitivity" else 1)
            c = tree_release(x, epsilon, noise_rng, noise_multiplier=mult, exact_order=False)
            err = c - np.cumsum(x, axis=1, dtype=np.int64)
        elif formula == "all_levels":
            err = _all_levels_noise(noise_rng, noise_multiplier * b, m, horizon, levels)
        else:
            raise ValueError(f"unknown formula {formula!r}")
        a = np.abs(err)
        err_t.append(a[:, -1])
        ms_all.append(np.mean(err * err, axis=1))
        ms_pow2.append(np.mean(err[:, pow2] ** 2, axis=1))
        idx = np.minimum((np.sqrt(a / b) / _BIN).astype(np.int64), bins - 1)
        idx += (np.arange(m) * bins)[:, None]
        hist.append(np.bincount(idx.ravel(), minlength=m * bins).reshape(m, bins))
    return {"err_T": np.concatenate(err_t), "ms_all": np.concatenate(ms_all),
            "ms_pow2": np.concatenate(ms_pow2), "hist": np.concatenate(hist), "b": b,
            "L": levels}


def _hist_quantiles(cum: np.ndarray, total: float, levels, b: float) -> np.ndarray:
    """Upper bin edge (conservative) where each cumulative count first reaches level * total."""
    k = np.array([np.searchsorted(cum, p * total - 1e-9 * total) for p in levels])
    return b * ((np.minimum(k, cum.size - 1) + 1) * _BIN) ** 2


def _pooled_quantile(hist: np.ndarray, deltas, b: float, rng: np.random.Generator,
                     n_boot: int) -> list[tuple[float, float, float]]:
    """Pooled (over streams and t) (1 - delta) quantiles with stream-bootstrap CIs."""
    n, nb = hist.shape
    horizon = hist[0].sum()
    cum = np.cumsum(hist, axis=1, dtype=np.float64)
    pooled = cum.sum(axis=0)
    point = _hist_quantiles(pooled, n * horizon, [1 - d for d in deltas], b)
    # bootstrap: multinomial stream weights; only the bins around each quantile are needed
    weights = rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(np.float64)
    out = []
    for d, q in zip(deltas, point, strict=True):
        lo_k = np.searchsorted(pooled, (1 - 6 * d) * n * horizon)
        hi_k = min(np.searchsorted(pooled, (1 - d / 6) * n * horizon) + 2, nb)
        lo_k = min(max(lo_k - 2, 0), hi_k - 1)
        boot_cum = weights @ cum[:, lo_k:hi_k]
        k = (boot_cum < (1 - d) * n * horizon * (1 - 1e-12)).sum(axis=1) + lo_k  # first bin >=
        qs = b * ((np.minimum(k, nb - 1) + 1) * _BIN) ** 2
        out.append((float(q), float(np.quantile(qs, 0.025)), float(np.quantile(qs, 0.975))))
    return out


def _quantile_ci(values: np.ndarray, p: float, rng: np.random.Generator, n_boot: int):
    idx = rng.integers(0, values.size, size=(n_boot, values.size))
    boots = np.quantile(values[idx], p, axis=1)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return float(np.quantile(values, p)), float(lo), float(hi)


def _half_slope_fit(x, groups, rng, n_boot):
    """Slope of log sqrt(mean variance) against log x: half the log-log slope of the variances."""
    fit = loglog_slope(x, groups, rng, n_boot)
    return fit.slope / 2, fit.ci_low / 2, fit.ci_high / 2, fit.intercept / 2


def a1_cells(rng: np.random.Generator, *, horizons, epsilons, deltas, n_streams: int,
             n_boot: int = 2000, noise_multiplier: float = 1.0, formula: str = "popcount"):
    """Simulate every (T, eps) cell of A1. Returns (quantile table, per-cell raw stats)."""
    rows, raw = [], {}
    cell_rngs = rng.spawn(len(horizons) * len(epsilons))
    for (horizon, eps), crng in zip(itertools.product(horizons, epsilons), cell_rngs, strict=True):
        bound_max = max(max(lemma1_bound(horizon, eps, d), calibrated_bound(horizon, eps, d))
                        for d in deltas)
        levels = tree_levels(horizon)
        bins = int(math.sqrt(2 * bound_max / (levels / eps)) / _BIN) + 2
        sim_rng, boot_rng = crng.spawn(2)
        cell = _a1_cell(sim_rng, horizon, eps, n_streams, bins, noise_multiplier, formula)
        raw[(horizon, eps)] = cell
        pooled = _pooled_quantile(cell["hist"], deltas, cell["b"], boot_rng, n_boot)
        for d, pq in zip(deltas, pooled, strict=True):
            at_t = _quantile_ci(cell["err_T"], 1 - d, boot_rng, n_boot)
            for stat, (q, lo, hi) in (("t=T", at_t), ("pooled", pq)):
                rows.append({"T": horizon, "L": levels, "epsilon": eps, "delta": d, "stat": stat,
                             "quantile": q, "q_low": lo, "q_high": hi,
                             "lemma1_bound": lemma1_bound(horizon, eps, d),
                             "calibrated_bound": calibrated_bound(horizon, eps, d)})
    table = pd.DataFrame(rows)
    table["ratio_lemma1"] = table["quantile"] / table["lemma1_bound"]
    table["ratio_calibrated"] = table["quantile"] / table["calibrated_bound"]
    return table, raw


def _bound_claim(table, bound_col, check_id, source, what, n, scale) -> Claim:
    lo = table["q_low"] / table[bound_col]
    hi = table["q_high"] / table[bound_col]
    point = table["quantile"] / table[bound_col]
    verdicts = [upper_verdict(a, c, 1.0) for a, c in zip(lo, hi, strict=True)]
    i = int(np.argmax(hi.to_numpy()))
    r = table.iloc[i]
    return _claim(
        check_id, source, "lemma",
        f"BinTree (spec 2.1), Bernoulli(1/2) streams: the empirical (1 - delta) quantile of "
        f"|c_t - S_t|, at t = T and pooled over t, is <= {what} in every cell "
        f"(T in {sorted(set(table['T']))}, eps in {sorted(set(table['epsilon']))}, delta in "
        f"{sorted(set(table['delta']), reverse=True)}; {len(table)} cells x statistics; "
        f"{sum(v == 'PASS' for v in verdicts)} PASS). Tightest: T = {int(r['T'])}, "
        f"eps = {r['epsilon']:g}, delta = {r['delta']:g}, {r['stat']}",
        "max over cells of quantile / bound (stream bootstrap CI of the tightest cell)",
        float(point.iloc[i]), "CI <= 1 in every cell", _worst(verdicts), n, scale,
        float(lo.iloc[i]), float(hi.iloc[i]))


def check_a1(rng: np.random.Generator, scale: str, *, horizons=(2**10, 2**14, 2**18, 2**20),
             epsilons=(0.1, 0.5, 1.0), deltas=(0.1, 0.01), n_streams: int = 200,
             n_boot: int = 2000, noise_multiplier: float = 1.0,
             formula: str = "popcount") -> CheckOutput:
    """A1: BinTree accuracy (Lemma 1), its calibrated bound, and the noise's scaling in eps and L.

    Each (T, eps) cell simulates ``n_streams`` independent Bernoulli(1/2) streams through the
    vectorised tree (every t = 1..T is released; exact node law, odd nodes drawn). Statistics:
    (1 - delta) quantiles of |c_t - S_t| at t = T (bootstrap over streams) and pooled over all
    (stream, t) (histogram in sqrt(|err|/b), bins of 0.005, upper bin edge: conservative by at
    most 2 x 0.005 / sqrt(q / b); stream bootstrap); std (root of mean err^2) pooled over t
    against 1/eps and L, and over t = 2^j (popcount 1) against L; slopes are half the log-log
    slopes of the mean squared errors, with bootstrap CIs over streams."""
    table, raw = a1_cells(rng, horizons=horizons, epsilons=epsilons, deltas=deltas,
                          n_streams=n_streams, n_boot=n_boot, noise_multiplier=noise_multiplier,
                          formula=formula)
    fit_rng = rng.spawn(1)[0]
    n_total = n_streams * len(horizons) * len(epsilons)
    source = "Lemma 1 (BinTree; DNPR 2010 Thm 4.1), spec 2.1 / 5.2 A1"
    claims = [
        _bound_claim(table, "lemma1_bound", "A1", source, "the Lemma-1 bound 4 log(1/delta) "
                     "log^2.5 T / eps", n_total, scale),
        _bound_claim(table, "calibrated_bound", "A1-CAL", "spec 2.1 (calibrated bound, "
                     "Chan-Shi-Song Cor. 2.9)", "the calibrated bound lambda(delta) = b max(sqrt L, "
                     "sqrt ln(2/delta)) sqrt(8 ln(2/delta)), b = L/eps", n_total, scale),
    ]
    pooled = table[table["stat"] == "pooled"]
    cons = pooled["lemma1_bound"] / pooled["quantile"]
    cons_cal = pooled["calibrated_bound"] / pooled["quantile"]
    ref = pooled[(pooled["T"] == max(horizons)) & np.isclose(pooled["epsilon"], max(epsilons))
                 & np.isclose(pooled["delta"], min(deltas))]
    spec_ratio = {2**10: 24, 2**16: 40, 2**20: 50}.get(max(horizons))  # spec 2.1 [NOTE] table
    ref_txt = (f"; at T = {max(horizons)}, eps = {max(epsilons):g}, delta = {min(deltas):g}: "
               f"quantile {ref['quantile'].iloc[0]:.4g} vs bound {ref['lemma1_bound'].iloc[0]:.4g} "
               f"({(ref['lemma1_bound'] / ref['quantile']).iloc[0]:.1f}x"
               + (f"; spec 2.1 table, 30 streams: {spec_ratio}x)" if spec_ratio
                  and max(epsilons) == 1 and min(deltas) == 0.01 else ")")
               if len(ref) else "")
    claims.append(_claim(
        "A1-RATIO", "Lemma 1, spec 2.1 [NOTE]", "report",
        f"Conservativeness of Lemma 1: bound / empirical pooled quantile ranges "
        f"{cons.min():.1f}x-{cons.max():.1f}x over the grid (calibrated bound: "
        f"{cons_cal.min():.2f}x-{cons_cal.max():.2f}x){ref_txt}",
        "min over cells of Lemma-1 bound / pooled quantile", float(cons.min()), "informational",
        "REPORT", n_total, scale))

    # std vs 1/eps, one fit per T; the figure's series
    points, fits, eps_verdicts, eps_txt = [], [], [], []
    inv = np.array([1.0 / e for e in epsilons])
    order = np.argsort(inv)
    for horizon in horizons:
        groups = [raw[(horizon, epsilons[i])]["ms_all"] for i in order]
        s, lo, hi, icpt = _half_slope_fit(inv[order], groups, fit_rng, n_boot)
        v = band_verdict(lo, hi, 0.95, 1.05)
        eps_verdicts.append((v, hi - lo, s, lo, hi, horizon))
        eps_txt.append(f"T=2^{int(math.log2(horizon))}: {s:.3f} [{lo:.3f}, {hi:.3f}]")
        series = f"T = 2^{int(math.log2(horizon))}"
        for xi, g in zip(inv[order], groups, strict=True):
            boots = g[fit_rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1)
            points.append({"series": series, "x": float(xi), "mean": math.sqrt(g.mean()),
                           "ci_low": math.sqrt(np.quantile(boots, 0.025)),
                           "ci_high": math.sqrt(np.quantile(boots, 0.975))})
        fits.append({"series": series, "slope": s, "ci_low": lo, "ci_high": hi, "intercept": icpt,
                     "theory_slope": 1.0, "x_min": float(inv.min()), "x_max": float(inv.max())})
    worst = max(eps_verdicts, key=lambda r: (_ORDER[r[0]], r[1]))
    claims.append(_claim(
        "A1-SLOPE-EPS", "Lemma 1 / spec 2.1 (noise Lap(L/eps) per node)", "lemma",
        "The std of c_t - S_t (pooled over t) scales as 1/eps: log-log slope per T ("
        + "; ".join(eps_txt) + f"); shown: T = {worst[5]}",
        "log-log slope of std vs 1/eps (widest-risk T; bootstrap CI)", worst[2],
        "CI within [0.95, 1.05] for every T", _worst(r[0] for r in eps_verdicts), n_total, scale,
        worst[3], worst[4]))

    # std vs L, eps-normalised runs of all eps pooled
    ls = np.array([tree_levels(t) for t in horizons], dtype=float)
    order_l = np.argsort(ls)
    all_groups = [np.concatenate([raw[(horizons[i], e)]["ms_all"] * e**2 for e in epsilons])
                  for i in order_l]
    pow2_groups = [np.concatenate([raw[(horizons[i], e)]["ms_pow2"] * e**2 for e in epsilons])
                   for i in order_l]
    mean_pop = np.array([_mean_popcount(t) for t in np.asarray(horizons)[order_l]])
    predicted = np.polyfit(np.log(ls[order_l]), np.log(np.sqrt(2 * mean_pop) * ls[order_l]), 1)[0]
    s, lo, hi, _ = _half_slope_fit(ls[order_l], all_groups, fit_rng, n_boot)
    claims.append(_claim(
        "A1-SLOPE-L", "spec 2.1 (error = sum of popcount(t) Lap(L/eps))", "lemma",
        f"The pooled std of c_t - S_t grows as L^1.5 (mean popcount about L/2; exact prediction "
        f"on this grid {predicted:.3f}), L in {sorted(set(ls.astype(int).tolist()))}, all eps pooled "
        "after scaling by eps",
        "log-log slope of pooled std vs L (bootstrap CI)", s, "CI within [1.3, 1.7]",
        band_verdict(lo, hi, 1.3, 1.7), n_total, scale, lo, hi))
    s, lo, hi, _ = _half_slope_fit(ls[order_l], pow2_groups, fit_rng, n_boot)
    claims.append(_claim(
        "A1-SLOPE-POW2", "spec 2.1 / 5.2 A1 (popcount(2^j) = 1)", "lemma",
        "At t = 2^j (one released node) the std of c_t - S_t is sqrt(2) L/eps: slope 1 in L "
        "(mean over t = 2^j <= T; a formula adding all L nodes' noise gives 1.5)",
        "log-log slope of std at t = 2^j vs L (bootstrap CI)", s, "CI within [0.9, 1.1]",
        band_verdict(lo, hi, 0.9, 1.1), n_total, scale, lo, hi))

    figure = ScalingFigure(
        "dueling_a1_bintree_std", "A1: BinTree error std (pooled over t) vs 1/eps, per T",
        "1 / eps_c", "std of c_t - S_t", pd.DataFrame(points), pd.DataFrame(fits))
    return CheckOutput(claims, figure)


def _mean_popcount(horizon: int) -> float:
    t = np.arange(1, horizon + 1, dtype=np.int64)
    return float(_popcount(t).mean())


# ---- A2 ----------------------------------------------------------------------------------------


class _RecordingRng:
    """Wraps a Generator and records every ``laplace`` call the counter makes (white-box)."""

    def __init__(self, rng: np.random.Generator):
        self._rng = rng
        self.scales: list[float] = []

    def laplace(self, loc=0.0, scale=1.0, size=None):
        self.scales.append(float(scale))
        return self._rng.laplace(loc, scale, size)


def _run_counter(stream, epsilon, rng, noise_multiplier):
    """Feed a stream to the production counter; return (counter, node values in completion order,
    node list, outputs)."""
    counter = BinaryTreeCounter(len(stream), epsilon, rng, noise_multiplier=noise_multiplier)
    nodes, values, outputs = [], [], []
    for t, v in enumerate(stream, start=1):
        outputs.append(counter.add(float(v)))
        for h in range(counter.levels):
            if t % (1 << h) == 0:
                nodes.append((h, t >> h))
                values.append(counter._noisy[h])  # white-box: the released node value
    return counter, np.array(values), nodes, np.array(outputs)


def check_a2(rng: np.random.Generator, scale: str, *, epsilons=(0.1, 0.5, 1.0), horizon: int = 32,
             n_draws: int = 10_000, max_lengths=None, noise_multiplier: float = 1.0) -> CheckOutput:
    """A2: white-box privacy of :class:`BinaryTreeCounter` (deterministic PASS / FAIL).

    * A2-NODES: for every T_max in ``max_lengths`` and every t <= T_max, ``nodes_of(t)`` lists L
      nodes, one per level, each covering t; the mechanism's sensitivity is L.
    * A2-SCALE: run on a zero stream with a recording generator: one Laplace draw per completed node
      (2T - popcount(T) draws), each of scale L / eps_c.
    * A2: ``n_draws`` per eps: random stream s in {0,1}^T, random t0, s' = s with element t0
      flipped (changed by 1); the counter run on s releases its node vector y (node values read
      at completion; outputs verified to be sums of released nodes); the exact log-likelihood
      ratio log p_s(y) / p_s'(y) = sum_nodes (|y - v'| - |y - v|) / b_actual is <= eps_c."""
    max_lengths = (list(range(1, 65)) + [2**k + d for k in range(7, 13) for d in (-1, 0, 1)]
                   if max_lengths is None else list(max_lengths))
    bad_nodes = []
    for tmax in max_lengths:
        counter = BinaryTreeCounter(tmax, 1.0, rng, noise_multiplier=noise_multiplier)
        levels = counter.levels
        if levels != int(math.floor(math.log2(tmax))) + 1 or counter.laplace.sensitivity != levels:
            bad_nodes.append(f"T_max={tmax}: L={levels}, sensitivity={counter.laplace.sensitivity}")
            continue
        for t in range(1, tmax + 1):
            nodes = counter.nodes_of(t)
            ok = (len(nodes) == levels and [h for h, _ in nodes] == list(range(levels))
                  and all((j - 1) << h < t <= j << h for h, j in nodes))
            if not ok:
                bad_nodes.append(f"T_max={tmax}, t={t}: {nodes}")
                break
    n_elems = int(sum(max_lengths))
    claims = [_claim(
        "A2-NODES", "Lemma 1 privacy (spec 2.1)", "privacy",
        f"Every element lies in exactly L = floor(log2 T_max) + 1 dyadic nodes, one per level, and "
        f"the counter's Laplace sensitivity is L ({len(max_lengths)} values of T_max <= "
        f"{max(max_lengths)}, {n_elems} elements)" + ("; violated: " + "; ".join(bad_nodes[:3])
                                                      if bad_nodes else ""),
        "violations", len(bad_nodes), "0", "PASS" if not bad_nodes else "FAIL", n_elems, scale)]

    worst_scale, bad_count, n_runs = 0.0, [], 0
    for eps in epsilons:
        for tmax in (1, 2, 3, 7, 8, 31, 32, 33, 100, 1024):
            rec = _RecordingRng(rng)
            counter, *_ = _run_counter(np.zeros(tmax), eps, rec, noise_multiplier)
            n_runs += 1
            expected = counter.levels / eps
            if len(rec.scales) != n_tree_nodes(tmax):
                bad_count.append(f"T={tmax}, eps={eps}: {len(rec.scales)} draws")
            dev = max((abs(s / expected - 1) for s in rec.scales), default=math.inf)
            worst_scale = max(worst_scale, dev)
    ok = worst_scale <= 1e-12 and not bad_count
    claims.append(_claim(
        "A2-SCALE", "Lemma 1 privacy (spec 2.1)", "privacy",
        f"The counter draws exactly one Laplace noise per completed node (2T - popcount(T) draws) "
        f"with scale L / eps_c (recorded draws, eps_c in {list(epsilons)}, {n_runs} streams)"
        + ("; draw counts wrong: " + "; ".join(bad_count[:3]) if bad_count else ""),
        "max relative deviation of the drawn scale from L / eps_c", worst_scale, "<= 1e-12",
        "PASS" if ok else "FAIL", n_runs, scale))

    worst_ratio, where, n_hit, post_ok = 0.0, "", 0, True
    for eps in epsilons:
        losses = np.empty(n_draws)
        for i in range(n_draws):
            s = rng.integers(0, 2, size=horizon).astype(float)
            t0 = int(rng.integers(0, horizon))
            s2 = s.copy()
            s2[t0] = 1.0 - s2[t0]
            counter, y, nodes, outputs = _run_counter(s, eps, rng, noise_multiplier)
            if i < 50:  # outputs are post-processing of the released nodes
                node_of = dict(zip(nodes, y, strict=True))
                for t in range(1, horizon + 1):
                    c = sum(node_of[(h, t >> h)] for h in range(counter.levels) if (t >> h) & 1)
                    post_ok &= abs(c - outputs[t - 1]) <= 1e-9 * max(1.0, abs(c))
            b = counter.laplace.scale
            if i == 0:
                hs = np.array([h for h, _ in nodes])
                js = np.array([j for _, j in nodes])
                hi_idx, lo_idx = js << hs, (js - 1) << hs
            p1 = np.concatenate([[0.0], np.cumsum(s)])
            p2 = np.concatenate([[0.0], np.cumsum(s2)])
            diff = (np.abs(y - (p2[hi_idx] - p2[lo_idx])) - np.abs(y - (p1[hi_idx] - p1[lo_idx])))
            losses[i] = np.inf if b == 0 else float(diff.sum() / b)
        ratio = float(np.max(np.abs(losses)) / eps)
        n_hit += int(np.sum(np.abs(losses) >= eps * (1 - 1e-9)))
        if ratio > worst_ratio:
            worst_ratio, where = ratio, f"eps_c = {eps:g}"
    total = n_draws * len(epsilons)
    passed = worst_ratio <= 1 + 1e-9 and post_ok
    claims.append(_claim(
        "A2", "Lemma 1 (BinTree is eps-DP), spec 5.2 A2", "privacy",
        f"Exact privacy loss of the released node vector for neighbouring streams (one element "
        f"changed by 1): |log p_s(y)/p_s'(y)| <= eps_c over {total} draws (T = {horizon}, "
        f"L = {tree_levels(horizon)}, eps_c in {list(epsilons)}); worst at {where}; the bound is "
        f"attained (all L nodes on one side) in {n_hit} draws; outputs c_t verified to be sums of "
        f"released nodes: {post_ok}",
        "max over draws of |exact LLR| / eps_c", worst_ratio, "<= 1 (tol 1e-9)",
        "PASS" if passed else "FAIL", total, scale))
    return CheckOutput(claims)


# ================================================================================================
# A6(a): EBS properties
# ================================================================================================


def _ebs_subset_stats(r: np.ndarray, p: np.ndarray, tol: float = 1e-12) -> dict:
    """Exhaustive over subsets |S| >= 2 of one instance (order given by the utilities r)."""
    k = r.size
    out = {"subsets": 0, "subsets3": 0, "p1_viol": 0, "p1_min": math.inf, "p2_viol": 0,
           "p2_max": -math.inf, "main_viol": 0, "main_viol3": 0, "main_max": -math.inf,
           "middle": 0, "middle_viol": 0, "order_viol": 0}
    for size in range(2, k + 1):
        for subset in itertools.combinations(range(k), size):
            s = np.array(subset)[np.argsort(-r[list(subset)], kind="stable")]
            b = borda_scores(p, s)
            gap = p[s[0], s[-1]] - 0.5
            lift = b[1:] - b[-1]  # B(j) - B(i') for j != i*
            out["subsets"] += 1
            out["subsets3"] += size >= 3
            d1 = b[0] - b[-1]
            out["p1_viol"] += d1 < gap - tol
            out["p1_min"] = min(out["p1_min"], d1 / gap if gap > 0 else math.inf)
            out["p2_viol"] += bool(np.any(lift > 2 * gap + tol))
            out["p2_max"] = max(out["p2_max"], float(lift.max() / (2 * gap)) if gap > 0 else math.inf)
            main = bool(np.any(lift > gap + tol))
            out["main_viol"] += main
            out["main_viol3"] += main and size >= 3
            out["main_max"] = max(out["main_max"], float(lift.max() / gap) if gap > 0 else math.inf)
            if size >= 3:
                mid = s[1:-1]
                out["middle"] += mid.size
                out["middle_viol"] += int(np.sum(b[0] - b[1:-1] < p[s[0], mid] - 0.5 - tol))
            out["order_viol"] += bool(np.any(np.diff(b) >= 0))
    return out


def _logistic(r) -> np.ndarray:
    r = np.asarray(r, dtype=float)
    return sigmoid(r[:, None] - r[None, :])


def check_a6(rng: np.random.Generator, scale: str, *, n_instances: int = 200, k_min: int = 3,
             k_max: int = 7, scales=(0.5, 2.0, 5.0, 20.0), instances=None,
             counterexample=(1.0, 0.9, -1.0, -8.0)) -> CheckOutput:
    """A6(a): EBS properties, exhaustive over all subsets |S| >= 2 of ``n_instances`` random
    logistic instances (K uniform in [k_min, k_max], utilities s U[-1, 1], s uniform in
    ``scales``; spec 1.2 NOTE). ``instances`` (test-only) replaces the draw by (r, P) pairs; r
    defines the order (best i*, worst i')."""
    if instances is None:
        instances = []
        for _ in range(n_instances):
            k = int(rng.integers(k_min, k_max + 1))
            r = float(rng.choice(scales)) * rng.uniform(-1.0, 1.0, size=k)
            instances.append((r, _logistic(r)))
    tot: dict = {}
    for r, p in instances:
        st = _ebs_subset_stats(np.asarray(r, dtype=float), np.asarray(p, dtype=float))
        for key, v in st.items():
            if key.endswith("_min"):
                tot[key] = min(tot.get(key, math.inf), v)
            elif key.endswith("_max"):
                tot[key] = max(tot.get(key, -math.inf), v)
            else:
                tot[key] = tot.get(key, 0) + v
    n_sub, n_inst = tot["subsets"], len(instances)
    src = "EBS properties (Sec 3, App. A.1)"
    desc = f"{n_sub} subsets of {n_inst} instances"
    claims = [
        _claim("A6-P1", src + ", Property (1)", "lemma",
               f"B_S(i*) - B_S(i') >= Delta(i*, i') for every subset ({desc}; "
               f"{tot['p1_viol']} violations)",
               "min over subsets of (B_S(i*) - B_S(i')) / Delta(i*, i')", tot["p1_min"],
               ">= 1 (abs. tol 1e-12)", "PASS" if tot["p1_viol"] == 0 else "FAIL", n_sub, scale),
        _claim("A6-P2", "EBS Property (2), Appendix A.1 form (erratum 4)", "lemma",
               f"B_S(j) - B_S(i') <= 2 Delta(i*, i') for every j != i* ({desc}; "
               f"{tot['p2_viol']} violating subsets)",
               "max over subsets and j of (B_S(j) - B_S(i')) / (2 Delta(i*, i'))", tot["p2_max"],
               "<= 1 (abs. tol 1e-12)", "PASS" if tot["p2_viol"] == 0 else "FAIL", n_sub, scale),
    ]
    k_viol = tot["main_viol"]
    cp_lo, cp_hi = clopper_pearson(k_viol, n_sub)
    ce_txt, ce_violates = "", False
    if counterexample is not None:
        rc = np.asarray(counterexample, dtype=float)
        pc = _logistic(rc)
        bc = borda_scores(pc, np.arange(rc.size))
        lift = bc[1] - bc[-1]
        gap = pc[0, -1] - 0.5
        ce_violates = lift > gap + 1e-12
        ce_txt = (f"; explicit counterexample r = {tuple(float(x) for x in rc)}, S = [{rc.size}], "
                  f"j = 2: B(2) - B({rc.size}) = {lift:.3f} > Delta(1, {rc.size}) = {gap:.3f}")
    claims.append(_claim(
        "A6-P2-MAIN", "EBS Property (2), main text (Sec 3); errata 4, 31", "erratum",
        f"The main-text Property (2), B_S(j) - B_S(i') <= Delta(i*, i') for all j != i*, fails in "
        f"{k_viol} of {n_sub} subsets ({tot['main_viol3']} of {tot['subsets3']} with |S| >= 3); "
        f"worst ratio {tot['main_max']:.3f}{ce_txt}. The Appendix proof supports only 2 Delta "
        f"(A6-P2)",
        "violation rate over subsets (Clopper-Pearson 95%)", k_viol / n_sub,
        "= 0 (the paper's claim, every S)", "FAIL" if (k_viol > 0 or ce_violates) else "PASS",
        n_sub, scale, float(cp_lo), float(cp_hi)))
    rm = np.array([1.0, 0.0, -10.0])
    pm = _logistic(rm)
    bm = borda_scores(pm, np.arange(3))
    m_lo, m_hi = clopper_pearson(tot["middle_viol"], max(tot["middle"], 1))
    claims.append(_claim(
        "A6-MIDDLE", "EBS Property (1) for middle arms (used by the Lemma 6 proof)", "report",
        f"B_S(i*) - B_S(i) >= Delta(i*, i) holds for the worst arm only: it fails for "
        f"{tot['middle_viol']} of {tot['middle']} middle arms (|S| >= 3); e.g. r = (1, 0, -10): "
        f"B(1) - B(2) = {bm[0] - bm[1]:.3f} < Delta(1, 2) = {pm[0, 1] - 0.5:.3f}. This is why "
        f"the Lemma 6 argument covers the worst surviving arm only (erratum 13)",
        "failure rate among middle arms (Clopper-Pearson 95%)",
        tot["middle_viol"] / max(tot["middle"], 1), "informational", "REPORT", tot["middle"],
        scale, float(m_lo), float(m_hi)))
    claims.append(_claim(
        "A6-ORDER", "EBS ordering (Sec 3)", "lemma",
        f"The EBS orders every subset strictly as the utilities do ({desc}; "
        f"{tot['order_viol']} subsets misordered)",
        "subsets whose EBS order differs from the utility order", tot["order_viol"], "0",
        "PASS" if tot["order_viol"] == 0 else "FAIL", n_sub, scale))
    return CheckOutput(claims)


# ================================================================================================
# Lemma 6 (erratum 13)
# ================================================================================================


def _rad_paper(n, k, horizon, delta, eps):
    """Algorithm 1's confidence radius in ``width=paper`` mode (spec 2.2 R2):
    sqrt(log(KT/delta)/n) + 16 log(KT/delta) log^2.5 T / (n eps)."""
    ell = math.log(k * horizon / delta)
    return math.sqrt(ell / n) + 16 * ell * math.log(horizon) ** 2.5 / (n * eps)


def check_lemma6(rng: np.random.Generator, scale: str, *, horizons=(1e6, 1e7, 1e8),
                 epsilon: float = 1.0, corr_horizons=(1e4, 1e5, 1e6, 1e7, 1e8),
                 corr_epsilons=(0.1, 0.2, 0.5, 1.0), corr_gaps=(0.025, 0.05, 0.1, 0.2, 0.25, 0.3),
                 corr_ks=(2, 4, 8, 16, 32), paper_constants=(8.0, 64.0),
                 corr_constants=(64.0, 8.0)) -> CheckOutput:
    """Lemma 6 (spec section 3 row; erratum 13), analytic.

    L6-PAPER: K = 2, r = (ln 3, 0): B(1) - B(2) = Delta(1, 2) = 1/4 exactly. At the paper's count
    n = 8 l / Delta^2 + 64 l log^2.5 T / (Delta eps), l = log(KT/delta), delta = 1/T, both arms'
    estimates at the edge of valid CIs (B~(1) = B(1) - rad, B~(2) = B(2) + rad) keep arm 2
    (UCB(2) >= LCB(1)) iff 4 rad(n) >= Delta.
    L6-CORR: the corrected count n = 64 l / Delta^2 + 8 rho / Delta, rho = 16 l log^2.5 T / eps,
    gives 4 rad(n) <= 0.625 Delta over a grid of (T, eps, Delta, K), hence elimination."""
    del rng  # deterministic
    inst = f1(2)
    p = inst.preference
    b = borda_scores(p, [0, 1])
    gap = p[0, 1] - 0.5
    ebs_gap = b[0] - b[1]
    c_stat, c_priv = paper_constants
    ratios, kept, rows = [], [], []
    for horizon in horizons:
        delta = 1.0 / horizon
        ell = math.log(2 * horizon / delta)
        n = c_stat * ell / gap**2 + c_priv * ell * math.log(horizon) ** 2.5 / (gap * epsilon)
        rad = _rad_paper(n, 2, horizon, delta, epsilon)
        ucb2, lcb1 = (b[1] + rad) + rad, (b[0] - rad) - rad
        kept.append(ucb2 >= lcb1)
        ratios.append(4 * rad / gap)
        rows.append(f"T = {horizon:.0e}: n = {n:.4g}, 4 rad / Delta = {4 * rad / gap:.4f}")
    stat_limit = 4 * math.sqrt(1 / c_stat)  # eps -> inf: rad = sqrt(l/n) = Delta / sqrt(8)
    claims = [_claim(
        "L6-PAPER", "Lemma 6", "erratum",
        f"Lemma 6's count (8 log(KT/delta)/Delta^2 + 64 log(KT/delta) log^2.5 T/(Delta eps)) does "
        f"not force elimination: K = 2, r = (ln 3, 0) (B(1) - B(2) = Delta = {ebs_gap:.4f}), "
        f"eps = {epsilon:g}, delta = 1/T, width=paper; valid CIs with estimates at their edges keep "
        f"arm 2 at that count in {sum(kept)} of {len(kept)} horizons (" + "; ".join(rows)
        + f"); statistical-only limit 4 rad = sqrt(2) Delta = {stat_limit:.3f} Delta",
        "max over T of 4 rad(n_paper) / Delta", max(ratios),
        "< 1 (the paper's count suffices)", "FAIL" if max(ratios) >= 1 else "PASS", len(ratios),
        scale)]
    a_c, c_c = corr_constants
    worst, where, n_grid = 0.0, "", 0
    for horizon, eps, dlt, k in itertools.product(corr_horizons, corr_epsilons, corr_gaps, corr_ks):
        delta = 1.0 / horizon
        ell = math.log(k * horizon / delta)
        rho = 16 * ell * math.log(horizon) ** 2.5 / eps
        n = a_c * ell / dlt**2 + c_c * rho / dlt
        ratio = 4 * _rad_paper(n, k, horizon, delta, eps) / dlt
        n_grid += 1
        if ratio > worst:
            worst, where = ratio, f"T = {horizon:.0e}, eps = {eps:g}, Delta = {dlt:g}, K = {k}"
    claims.append(_claim(
        "L6-CORR", "Lemma 6 (corrected, spec section 3)", "lemma",
        f"With n >= 64 log(KT/delta)/Delta^2 + 8 rho/Delta (rho = 16 log(KT/delta) log^2.5 T/eps), "
        f"4 rad(n) <= 0.625 Delta < Delta, so valid CIs eliminate the worst arm: n_i <= that count "
        f"+ 1 ({n_grid} grid points, width=paper; tightest {where})",
        "max over the grid of 4 rad(n_corr) / Delta", worst, "<= 0.625",
        "PASS" if worst <= 0.625 + 1e-12 else "FAIL", n_grid, scale))
    return CheckOutput(claims)


# ================================================================================================
# Lemma 10 (erratum 24)
# ================================================================================================


def _survivors(true_util: np.ndarray, errors: np.ndarray, xi: float, margin: float) -> np.ndarray:
    """Algorithm 2's rule (spec Q10): keep x iff w^T x + margin xi > max_y w^T y, w^T x estimated
    with the given errors."""
    est = true_util + errors
    return est + margin * xi > est.max(axis=-1, keepdims=True)


def check_lemma10(rng: np.random.Generator, scale: str, *, n_trials: int = 100_000, n_arms: int = 8,
                  margin: float = 2.0, threshold: float | None = None) -> CheckOutput:
    """Lemma 10 (erratum 24). Within the event |x^T (w_hat - w*)| <= xi for all x:

    * L10-PAPER: x with w*^T x* = 0, w*^T x = -3 xi (Delta_x = 3 xi > 2 xi), errors -xi on x* and
      +xi on x: w_hat^T x + 2 xi = 0 > w_hat^T x* = -xi, so x survives the 2 xi rule.
    * L10-CORR: random error vectors in the event (half uniform in [-xi, xi], half at +-xi),
      gaps uniform in [0, 6 xi]: every survivor has Delta <= (margin + 2) xi = 4 xi and x* always
      survives. ``threshold`` (test-only) replaces margin + 2."""
    xi = 1.0
    util = np.array([0.0, -3.0 * xi])
    err = np.array([-xi, xi])
    keep = _survivors(util, err, xi, margin)
    survives = bool(keep[1])
    claims = [_claim(
        "L10-PAPER", "Lemma 10", "erratum",
        f"'x is eliminated once xi_l < Delta_x / 2' is false inside the event |x^T(w_hat - w*)| <= "
        f"xi: w*^T x* = 0, w*^T x = -3 xi, errors -xi on x* and +xi on x give w_hat^T x + "
        f"{margin:g} xi = {util[1] + err[1] + margin * xi:g} > w_hat^T x* = {util[0] + err[0]:g}, so x "
        f"(Delta_x = 3 xi) {'survives' if survives else 'is eliminated'}. The proof's chain only "
        f"gives w_hat^T x < w_hat^T x*; the threshold is 4 xi (L10-CORR), so survivors of phase l "
        f"have gap <= 4 xi_l = 8 xi_(l+1)",
        "Delta_x / xi of the surviving arm in the counterexample", 3.0 if survives else 0.0,
        "every x with Delta_x > 2 xi eliminated", "FAIL" if survives else "PASS", 1, scale)]
    thr = margin + 2.0 if threshold is None else threshold
    gaps = np.concatenate([np.zeros((n_trials, 1)), rng.uniform(0, 6 * xi, (n_trials, n_arms - 1))],
                          axis=1)
    uniform = rng.uniform(-xi, xi, (n_trials, n_arms))
    extreme = xi * rng.choice([-1.0, 1.0], (n_trials, n_arms))
    errors = np.where(rng.random((n_trials, 1)) < 0.5, uniform, extreme)
    keep = _survivors(-gaps, errors, xi, margin)
    best_lost = int(np.sum(~keep[:, 0]))
    worst = float(np.max(np.where(keep, gaps, 0.0)))
    above2 = int(np.sum(np.any(keep & (gaps > 2 * xi), axis=1)))
    ok = worst <= thr * xi and best_lost == 0
    claims.append(_claim(
        "L10-CORR", "Lemma 10 (corrected threshold, spec section 3)", "lemma",
        f"Inside the event, every x with Delta_x > (margin + 2) xi = {thr:g} xi is eliminated and "
        f"x* survives ({n_trials} random error vectors, {n_arms} arms, gaps U[0, 6 xi]; x* lost in "
        f"{best_lost}; an arm with 2 xi < Delta <= 4 xi survived in {above2} trials, so the paper's "
        f"2 xi is not enough). The bound is tight: the largest surviving gap was {worst:.4f} xi",
        "max surviving Delta_x / xi", worst, f"<= {thr:g} and x* never eliminated",
        "PASS" if ok else "FAIL", n_trials, scale))
    return CheckOutput(claims)


# ================================================================================================
# Lower bound (Theorem 2, App. B; erratum 15)
# ================================================================================================


def lb_matrix(k: int) -> np.ndarray:
    """The paper's lower-bound matrix: P(i,i) = 1/2; P(1,j) = 3/4, P(j,1) = 1/4; else 1/2."""
    p = np.full((k, k), 0.5)
    p[0, 1:] = 0.75
    p[1:, 0] = 0.25
    return p


def logistic_residual(p: np.ndarray) -> float:
    """Distance of P from the logistic-utility class. P = sigma(r_i - r_j) for some r iff its logit
    matrix G is antisymmetric and additive on every triangle, G(i, j) + G(j, k) = G(i, k); returns
    the max violation over pairs and triangles (0 iff realisable)."""
    p = np.asarray(p, dtype=float)
    g = np.log(p) - np.log1p(-p)
    anti = float(np.max(np.abs(g + g.T)))
    tri = float(np.max(np.abs(g[:, :, None] + g[None, :, :] - g[:, None, :])))
    return max(anti, tri)


def check_lower_bound(rng: np.random.Generator, scale: str, *, ks=(2, 4, 8, 16, 32, 64),
                      instance: Callable[[int], object] = f1,
                      alt_utility: float = 2 * math.log(3)) -> CheckOutput:
    """B7 (F1 = the LB matrix), the LB alternative's realisability (erratum 15) and its in-class
    replacement r'_{i0} = 2 ln 3."""
    del rng  # deterministic
    diffs = [float(np.max(np.abs(instance(k).preference - lb_matrix(k)))) for k in ks]
    worst = max(diffs)
    claims = [_claim(
        "B7-F1-MATRIX", "Thm 2 / App. B (LB instance), spec 5.3 B7", "lower_bound",
        f"Instance F1, r = (ln 3, 0, ..., 0), equals the paper's lower-bound matrix (P(1,j) = 3/4, "
        f"P(j,1) = 1/4, 1/2 otherwise) for K in {list(ks)}",
        "max entry difference", worst, "<= 1e-12", "PASS" if worst <= 1e-12 else "FAIL", len(ks),
        scale)]

    residuals, n_alt = [], 0
    for k in ks:
        for i0 in range(1, k):
            alt = lb_matrix(k)
            alt[i0, :] = 0.75
            alt[:, i0] = 0.25
            alt[i0, i0] = 0.5
            n_alt += 1
            residuals.append((k, logistic_residual(alt)))
    res3 = [r for k, r in residuals if k >= 3]
    res2 = [r for k, r in residuals if k == 2]
    min3 = min(res3) if res3 else 0.0
    claims.append(_claim(
        "LB-ALT", "Lemma 11 / App. B (alternative instance P'); erratum 15", "erratum",
        f"The lower bound's alternative P' (P'(i0, j) = 3/4, P'(j, i0) = 1/4, else P) is not "
        f"logistic-utility realisable for K >= 3: it needs r_i0 - r_1 = ln 3 and r_1 - r_j = ln 3, "
        f"hence P'(i0, j) = sigma(2 ln 3) = {sigmoid(2 * math.log(3)):.4f} != 3/4 (triangle "
        f"residual logit P'(i0,1) + logit P'(1,j) - logit P'(i0,j) = ln 3 = {math.log(3):.4f}); "
        f"no strictly increasing link realises it either; {n_alt} alternatives checked"
        + (f"; for K = 2 it is F1 with the arms swapped (residual {max(res2):.1e})" if res2 else ""),
        "min over K >= 3 and i0 of the max logit-triangle residual of P'", min3,
        "= 0 (P' in the model class)", "FAIL" if min3 > 1e-9 else "PASS", n_alt, scale))

    worst_fix, n_fix, bad = 0.0, 0, []
    for k in ks:
        base = instance(k).preference
        for i0 in range(1, k):
            r = np.zeros(k)
            r[0] = math.log(3)
            r[i0] = alt_utility
            pp = _logistic(r)
            others = [j for j in range(k) if j != i0]
            dev = max(abs(pp[i0, 0] - 0.75),
                      max((abs(pp[i0, j] - 0.9) for j in others[1:]), default=0.0),
                      float(np.max(np.abs(pp[np.ix_(others, others)] - base[np.ix_(others, others)]))))
            gaps_ok = (np.argmax(r) == i0) and np.all(pp[i0, others] - 0.5 >= 0.25 - 1e-12)
            if not gaps_ok:
                bad.append(f"K={k}, i0={i0}")
            worst_fix = max(worst_fix, dev)
            n_fix += 1
    ok = worst_fix <= 1e-12 and not bad
    claims.append(_claim(
        "LB-ALT-FIX", "Lemma 11 / App. B (in-class replacement, spec section 3)", "lower_bound",
        f"In-class replacement r'_i0 = 2 ln 3 (others as in F1): P'(i0, 1) = 3/4, P'(i0, j) = 0.9, "
        f"every comparison not involving i0 unchanged, i0 optimal with gaps >= 1/4 ({n_fix} "
        f"(K, i0) pairs)" + ("; gap condition violated: " + ", ".join(bad[:3]) if bad else ""),
        "max deviation from the required entries", worst_fix, "<= 1e-12",
        "PASS" if ok else "FAIL", n_fix, scale))
    return CheckOutput(claims)


# ================================================================================================
# kappa (erratum 16)
# ================================================================================================


def _ball(rng, n, d, radius):
    v = rng.standard_normal((n, d))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v * (radius * rng.random((n, 1)) ** (1.0 / d))


def _unit(v):
    return v / max(np.linalg.norm(v), 1e-300)


def _kappa_search(rng, d: int, s_norm: float, r_x: float, n_samples: int, n_polish: int):
    """inf of sigma'(x^T w) over ||x|| <= r_x and ||w - w*|| <= 1, ||w*|| = S (random direction):
    uniform random search in the balls, then Nelder-Mead from the best samples (radii
    parameterised as R sin^2, directions as normalised vectors, so the boundary is reachable)."""
    w_star = s_norm * _unit(rng.standard_normal(d))
    best_vals, best_pts = [], []
    chunk = 200_000
    for start in range(0, n_samples, chunk):
        m = min(chunk, n_samples - start)
        x = _ball(rng, m, d, r_x)
        w = w_star + _ball(rng, m, d, 1.0)
        val = sigmoid_prime(np.einsum("ij,ij->i", x, w))
        top = np.argsort(val)[:n_polish]
        best_vals.append(val[top])
        best_pts.append(np.hstack([x[top], w[top] - w_star]))
    vals, pts = np.concatenate(best_vals), np.vstack(best_pts)
    order = np.argsort(vals)[:n_polish]
    search_min = float(vals[order[0]])

    def unpack(theta):
        x = r_x * math.sin(theta[0]) ** 2 * _unit(theta[1 : d + 1])
        u = math.sin(theta[d + 1]) ** 2 * _unit(theta[d + 2 :])
        return x, w_star + u

    def objective(theta):
        x, w = unpack(theta)
        return float(sigmoid_prime(x @ w))

    polished = search_min
    for i in order:
        x0, u0 = pts[i, :d], pts[i, d:]
        theta0 = np.concatenate([[math.asin(math.sqrt(min(np.linalg.norm(x0) / r_x, 1.0)))], x0,
                                 [math.asin(math.sqrt(min(np.linalg.norm(u0), 1.0)))], u0])
        res = minimize(objective, theta0, method="Nelder-Mead",
                       options={"xatol": 1e-12, "fatol": 1e-16, "maxiter": 40_000,
                                "maxfev": 40_000})
        polished = min(polished, float(res.fun))
    return search_min, polished


def check_kappa(rng: np.random.Generator, scale: str, *, n_samples: int = 1_000_000,
                dims=(2, 3), norms=(0.25, 0.5, 1.0, 2.0), n_polish: int = 4,
                alg_closed_form: Callable[[float], float] | None = None,
                thm_closed_form: Callable[[float], float] | None = None) -> CheckOutput:
    """kappa (spec 1.5, erratum 16): brute-force minimisation of each definition over its domain
    equals its closed form, and the two differ.

    * Algorithm 2 / Sec 5.1: inf over ||x - y|| <= 2 (i.e. z = x - y in B_d(2)) and ||w* - w|| <= 1
      of sigma'(z^T w) = sigma'(2 (S + 1)).
    * Theorem 3: inf over x in B_d(1) and ||w - w*|| <= 1 of sigma'(x^T w) = sigma'(S + 1).
    PASS if the polished minimum matches the closed form to 1e-6 (relative) and no random sample
    falls below it."""
    alg_cf = alg_closed_form or (lambda s: float(sigmoid_prime(2 * (s + 1))))
    thm_cf = thm_closed_form or (lambda s: float(sigmoid_prime(s + 1)))
    results = {"alg": [], "thm": []}
    for d, s in itertools.product(dims, norms):
        for name, r_x, cf in (("alg", 2.0, alg_cf), ("thm", 1.0, thm_cf)):
            search, polished = _kappa_search(rng, d, s, r_x, n_samples, n_polish)
            closed = cf(s)
            results[name].append((d, s, search, polished, closed))
    claims = []
    for name, cid, src, dom, form in (
            ("alg", "KAPPA-ALG", "Sec 5.1 / Alg 2 (kappa definition)",
             "||x - y|| <= 2, ||w* - w|| <= 1", "sigma'(2 (S + 1))"),
            ("thm", "KAPPA-THM", "Thm 3 (kappa definition)", "x in B_d(1), ||w - w*|| <= 1",
             "sigma'(S + 1)")):
        rows = results[name]
        rel = max(abs(p / c - 1) for *_, p, c in rows)
        below = sum(srch < c * (1 - 1e-12) for _, _, srch, _, c in rows)
        search_gap = max(srch / c - 1 for _, _, srch, _, c in rows)
        ok = rel <= 1e-6 and below == 0
        s1 = [r for r in rows if r[1] == 1.0]
        s1_txt = (f"; S = 1: brute force {s1[0][3]:.7f} vs {form} = {s1[0][4]:.7f}" if s1 else "")
        claims.append(_claim(
            cid, src, "theorem",
            f"inf of sigma' over {dom}, ||w*|| = S, equals {form} (random search of {n_samples} "
            f"points + Nelder-Mead, d in {list(dims)}, S in {list(norms)}; samples below the "
            f"closed form: {below}; random search alone within {100 * search_gap:.2g}% of it)"
            f"{s1_txt}",
            "max relative difference, brute-force minimum vs closed form", rel, "<= 1e-6",
            "PASS" if ok else "FAIL", len(rows) * n_samples, scale))
    k_alg, k_thm = float(sigmoid_prime(4.0)), float(sigmoid_prime(2.0))
    claims.append(_claim(
        "KAPPA", "Sec 5.1 / Alg 2 vs Thm 3; erratum 16", "erratum",
        f"The paper defines kappa twice, inconsistently: Algorithm 2 (differences, norm <= 2) gives "
        f"kappa_alg = sigma'(4) = {k_alg:.7f}, Theorem 3 gives kappa_thm = sigma'(2) = {k_thm:.7f} "
        f"(S = 1; both verified by KAPPA-ALG / KAPPA-THM). The Lemma 7 proof needs kappa_alg. The "
        f"workflow passes kappa as an input and uses kappa=thm by default (kappa=alg pushes t0 to "
        f"1e10-1e11 rounds)",
        "kappa_thm / kappa_alg at S = 1", k_thm / k_alg, "= 1 (one consistent kappa)",
        "FAIL" if abs(k_thm / k_alg - 1) > 1e-9 else "PASS", 1, scale))
    return CheckOutput(claims)


# ================================================================================================
# Registry
# ================================================================================================

CHECKS: dict[str, tuple[Callable[..., CheckOutput], dict[str, dict]]] = {
    "A1": (check_a1, {
        "paper": {"horizons": (2**10, 2**14, 2**18, 2**20), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 200, "n_boot": 2000},
        "smoke": {"horizons": (2**4, 2**7, 2**10), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 1000, "n_boot": 500}}),
    "A2": (check_a2, {
        "paper": {"epsilons": (0.1, 0.5, 1.0), "horizon": 32, "n_draws": 10_000},
        "smoke": {"epsilons": (0.5, 1.0), "horizon": 16, "n_draws": 1000,
                  "max_lengths": list(range(1, 65))}}),
    "A6a": (check_a6, {
        "paper": {"n_instances": 200, "k_min": 3, "k_max": 7},
        "smoke": {"n_instances": 30, "k_min": 3, "k_max": 6}}),
    "L6": (check_lemma6, {"paper": {}, "smoke": {}}),
    "L10": (check_lemma10, {"paper": {"n_trials": 100_000}, "smoke": {"n_trials": 10_000}}),
    "LB": (check_lower_bound, {"paper": {"ks": (2, 4, 8, 16, 32, 64)},
                               "smoke": {"ks": (2, 4, 8)}}),
    "KAPPA": (check_kappa, {"paper": {"n_samples": 1_000_000},
                            "smoke": {"n_samples": 50_000, "norms": (1.0,)}}),
}
"""Registry key -> (check function, sizes per scale). Claim ids per key: A1 -> A1, A1-CAL,
A1-RATIO, A1-SLOPE-EPS, A1-SLOPE-L, A1-SLOPE-POW2 (and a figure); A2 -> A2-NODES, A2-SCALE, A2;
A6a -> A6-P1, A6-P2, A6-P2-MAIN, A6-MIDDLE, A6-ORDER; L6 -> L6-PAPER, L6-CORR; L10 -> L10-PAPER,
L10-CORR; LB -> B7-F1-MATRIX, LB-ALT, LB-ALT-FIX; KAPPA -> KAPPA-ALG, KAPPA-THM, KAPPA."""

CLAIM_IDS: dict[str, tuple[str, ...]] = {
    "A1": ("A1", "A1-CAL", "A1-RATIO", "A1-SLOPE-EPS", "A1-SLOPE-L", "A1-SLOPE-POW2"),
    "A2": ("A2-NODES", "A2-SCALE", "A2"),
    "A6a": ("A6-P1", "A6-P2", "A6-P2-MAIN", "A6-MIDDLE", "A6-ORDER"),
    "L6": ("L6-PAPER", "L6-CORR"),
    "L10": ("L10-PAPER", "L10-CORR"),
    "LB": ("B7-F1-MATRIX", "LB-ALT", "LB-ALT-FIX"),
    "KAPPA": ("KAPPA-ALG", "KAPPA-THM", "KAPPA"),
}


def run_check(key: str, rng: np.random.Generator, scale: str, **overrides) -> CheckOutput:
    """Run registry check ``key`` at ``scale`` ("paper" or "smoke"), sizes overridable."""
    function, sizes = CHECKS[key]
    return function(rng, scale, **{**sizes[scale], **overrides})
