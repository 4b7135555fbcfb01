"""Binary-tree counter checks of the dueling paper (Saha & Asi 2024): accuracy A1 (Lemma 1, its
calibrated bound, the noise's scaling in eps and L) and white-box privacy A2 (spec 2.1, 5.2).
Registered in :mod:`.registry` (keys ``A1``, ``A2``).

The mechanism is :mod:`dpbandits.mechanisms.tree_counter`: A2 runs
:class:`~dpbandits.mechanisms.tree_counter.BinaryTreeCounter` itself; A1 simulates many long
streams with its vectorised form :func:`~dpbandits.mechanisms.tree_counter.tree_release`
(tested equal to the counter). Conventions: natural logs (spec 1.1); the BinTree of spec 2.1
with ``T_max = T`` and ``L = floor(log2 T) + 1``; bootstrap CIs over streams (percentile).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from dpbandits.dueling.checks.common import dueling_claim
from dpbandits.evidence.checks import CheckOutput, ScalingFigure, band_verdict, upper_verdict
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import privacy_power, violated_bound_power
from dpbandits.mechanisms.tree_counter import (
    BinaryTreeCounter,
    tree_levels,
    tree_release,
)
from dpbandits.stats.common_slope import common_slope
from dpbandits.stats.core import loglog_slope

__all__ = ["check_a1", "check_a2", "a1_cells", "lemma1_bound", "calibrated_bound"]

_ORDER = {"PASS": 0, "REPORT": 0, "INCONCLUSIVE": 1, "FAIL": 2}


def _worst(verdicts: Iterable[str]) -> str:
    return max(verdicts, key=lambda v: _ORDER[v], default="PASS")


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


def _bound_claim(table, bound_col, check_id, source, what, n, scale, kind="lemma") -> Claim:
    lo = table["q_low"] / table[bound_col]
    hi = table["q_high"] / table[bound_col]
    point = table["quantile"] / table[bound_col]
    verdicts = [upper_verdict(a, c, 1.0) for a, c in zip(lo, hi, strict=True)]
    i = int(np.argmax(hi.to_numpy()))
    r = table.iloc[i]
    claim = dueling_claim(
        check_id, source, kind,
        f"BinTree (spec 2.1), Bernoulli(1/2) streams: the empirical (1 - delta) quantile of "
        f"|c_t - S_t|, at t = T and pooled over t, is <= {what} in every cell "
        f"(T in {sorted(set(table['T']))}, eps in {sorted(set(table['epsilon']))}, delta in "
        f"{sorted(set(table['delta']), reverse=True)}; {len(table)} cells x statistics; "
        f"{sum(v == 'PASS' for v in verdicts)} PASS). Tightest: T = {int(r['T'])}, "
        f"eps = {r['epsilon']:g}, delta = {r['delta']:g}, {r['stat']}",
        "max over cells of quantile / bound (stream bootstrap CI of the tightest cell)",
        float(point.iloc[i]), "CI <= 1 in every cell", _worst(verdicts), n, scale,
        float(lo.iloc[i]), float(hi.iloc[i]))
    # power against the bound violated (a wrong Lemma 1 whose constant is too small): the same CI
    # rule on a mechanism whose quantile exceeds the bound by 10% in the tightest cell (the CI
    # scaled there, keeping its relative width)
    return claim.with_evidence(**violated_bound_power(
        claim.value, claim.ci_low, claim.ci_high, factor=1.1,
        label=f"T = {int(r['T'])}, eps = {r['epsilon']:g}, delta = {r['delta']:g}, {r['stat']}"))


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
        # not a claim of the paper: validates the calibrated widths the workflow uses (spec 2.1 R2)
        _bound_claim(table, "calibrated_bound", "A1-CAL", "spec 2.1 (calibrated bound, "
                     "Chan-Shi-Song Cor. 2.9; tool validation)", "the calibrated bound lambda(delta) = b max(sqrt L, "
                     "sqrt ln(2/delta)) sqrt(8 ln(2/delta)), b = L/eps", n_total, scale, kind="control"),
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
    claims.append(dueling_claim(
        "A1-RATIO", "Lemma 1, spec 2.1 [NOTE]", "report",
        f"Conservativeness of Lemma 1: bound / empirical pooled quantile ranges "
        f"{cons.min():.1f}x-{cons.max():.1f}x over the grid (calibrated bound: "
        f"{cons_cal.min():.2f}x-{cons_cal.max():.2f}x){ref_txt}",
        "min over cells of Lemma-1 bound / pooled quantile", float(cons.min()), "informational",
        "REPORT", n_total, scale))

    # std vs 1/eps: one slope common to every T, an intercept per T (the judged fit:
    # dpbandits.stats.common_slope, which pools the T rather than requiring every per-T fit's CI
    # inside the band, a conjunction that more T would make fail more often); the per-T fits are
    # the figure's series and are quoted in the claim
    points, fits, eps_txt, u_g, y_g, b_g = [], [], [], [], [], []
    inv = np.array([1.0 / e for e in epsilons])
    order = np.argsort(inv)
    common_rng = fit_rng.spawn(1)[0]
    for horizon in horizons:
        groups = [raw[(horizon, epsilons[i])]["ms_all"] for i in order]
        s, lo, hi, icpt = _half_slope_fit(inv[order], groups, fit_rng, n_boot)
        eps_txt.append(f"T=2^{int(math.log2(horizon))}: {s:.3f} [{lo:.3f}, {hi:.3f}]")
        u_g.append(np.log(inv[order]))
        y_g.append(np.log([g.mean() for g in groups]))
        b_g.append(np.log(np.column_stack([g[common_rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1)
                                           for g in groups])))
        series = f"T = 2^{int(math.log2(horizon))}"
        for xi, g in zip(inv[order], groups, strict=True):
            boots = g[fit_rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1)
            points.append({"series": series, "x": float(xi), "mean": math.sqrt(g.mean()),
                           "ci_low": math.sqrt(np.quantile(boots, 0.025)),
                           "ci_high": math.sqrt(np.quantile(boots, 0.975))})
        fits.append({"series": series, "slope": s, "ci_low": lo, "ci_high": hi, "intercept": icpt,
                     "theory_slope": 1.0, "x_min": float(inv.min()), "x_max": float(inv.max())})
    common = common_slope(u_g, y_g, b_g, common_rng)
    s, lo, hi = common.slope / 2, common.ci_low / 2, common.ci_high / 2
    claims.append(dueling_claim(
        "A1-SLOPE-EPS", "spec 2.1 (noise Lap(L/eps) per node; tool validation)", "control",
        "Implementation check of the BinTree (no claim of the paper): the std of c_t - S_t (pooled "
        f"over t) scales as 1/eps: one log-log slope common to the {len(horizons)} T, an intercept per T "
        f"({common.resid_df} residual df; per T: " + "; ".join(eps_txt) + ")",
        "log-log slope of std vs 1/eps, common to every T (bootstrap CI with lack of fit)", s,
        "CI within [0.95, 1.05]", band_verdict(lo, hi, 0.95, 1.05), n_total, scale, lo, hi))

    # std vs L, eps-normalised runs of all eps pooled
    ls = np.array([tree_levels(t) for t in horizons], dtype=float)
    order_l = np.argsort(ls)
    all_groups = [np.concatenate([raw[(horizons[i], e)]["ms_all"] * e**2 for e in epsilons])
                  for i in order_l]
    pow2_groups = [np.concatenate([raw[(horizons[i], e)]["ms_pow2"] * e**2 for e in epsilons])
                   for i in order_l]
    mean_pop = np.array([_mean_popcount(t) for t in np.asarray(horizons)[order_l]])
    # the exact prediction's own slope on this grid (no data, nothing to bootstrap)
    predicted = np.polyfit(np.log(ls[order_l]), np.log(np.sqrt(2 * mean_pop) * ls[order_l]), 1)[0]
    s, lo, hi, _ = _half_slope_fit(ls[order_l], all_groups, fit_rng, n_boot)
    claims.append(dueling_claim(
        "A1-SLOPE-L", "spec 2.1 (error = sum of popcount(t) Lap(L/eps); tool validation)", "control",
        f"Implementation check of the BinTree (no claim of the paper): the pooled std of c_t - S_t grows as L^1.5 (mean popcount about L/2; exact prediction "
        f"on this grid {predicted:.3f}), L in {sorted(set(ls.astype(int).tolist()))}, all eps pooled "
        "after scaling by eps",
        "log-log slope of pooled std vs L (bootstrap CI with lack of fit)", s, "CI within [1.3, 1.7]",
        band_verdict(lo, hi, 1.3, 1.7), n_total, scale, lo, hi))
    s, lo, hi, _ = _half_slope_fit(ls[order_l], pow2_groups, fit_rng, n_boot)
    claims.append(dueling_claim(
        "A1-SLOPE-POW2", "spec 2.1 / 5.2 A1 (popcount(2^j) = 1; tool validation)", "control",
        "Implementation check of the BinTree (no claim of the paper): at t = 2^j (one released node) the std of c_t - S_t is sqrt(2) L/eps: slope 1 in L "
        "(mean over t = 2^j <= T; a formula adding all L nodes' noise gives 1.5)",
        "log-log slope of std at t = 2^j vs L (bootstrap CI with lack of fit)", s, "CI within [0.9, 1.1]",
        band_verdict(lo, hi, 0.9, 1.1), n_total, scale, lo, hi))

    figure = ScalingFigure(
        "dueling_a1_bintree_std", "A1: BinTree error std (pooled over t) vs 1/eps, per T",
        "1 / eps_c", "std of c_t - S_t", pd.DataFrame(points), pd.DataFrame(fits))
    return CheckOutput(claims, figure)


def _mean_popcount(horizon: int) -> float:
    t = np.arange(1, horizon + 1, dtype=np.int64)
    return float(np.bitwise_count(t).mean())


# ---- A2 ----------------------------------------------------------------------------------------


class _RecordingRng:
    """Wraps a Generator and records every draw the counter makes (white-box): a node's noise is
    b (E1 - E2) from two ``standard_exponential`` calls; any other call is recorded by name."""

    def __init__(self, rng: np.random.Generator):
        self._rng = rng
        self.exponentials: list[float] = []
        self.other: list[str] = []

    def standard_exponential(self, size=None):
        if size is not None:
            self.other.append(f"standard_exponential(size={size})")
        e = self._rng.standard_exponential(size)
        if size is None:
            self.exponentials.append(float(e))
        return e

    def __getattr__(self, name):
        self.other.append(name)
        return getattr(self._rng, name)


def _run_counter(stream, epsilon, rng, noise_multiplier):
    """Feed a stream to the production counter; return (counter, the released node values in
    completion order, their node list, outputs). The released nodes are those an output uses:
    (h, j) with j odd (bit h of t set means t >> h is odd); the counter noises exactly these."""
    counter = BinaryTreeCounter(len(stream), epsilon, rng, noise_multiplier=noise_multiplier)
    nodes, values, outputs = [], [], []
    for t, v in enumerate(stream, start=1):
        outputs.append(counter.add(float(v)))
        for h in range(counter.levels):
            if t % (1 << h) == 0 and (t >> h) & 1:
                nodes.append((h, t >> h))
                values.append(counter._noisy[h])  # white-box: the released node value
    return counter, np.array(values), nodes, np.array(outputs)


def check_a2(rng: np.random.Generator, scale: str, *, epsilons=(0.1, 0.5, 1.0), horizon: int = 32,
             n_draws: int = 10_000, max_lengths=None, noise_multiplier: float = 1.0) -> CheckOutput:
    """A2: white-box privacy of :class:`BinaryTreeCounter` (deterministic PASS / FAIL).

    * A2-NODES: for every T_max in ``max_lengths`` and every t <= T_max, ``nodes_of(t)`` lists L
      nodes, one per level, each covering t; the mechanism's sensitivity is L.
    * A2-SCALE: run on a zero stream with a recording generator: one node noise per element, for
      the node completed there that outputs use (the top one, odd index; T noises), each
      (L / eps_c) (E1 - E2) from the recorded exponentials (Lap(L / eps_c)), and no other draw.
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
    claims = [dueling_claim(
        "A2-NODES", "Lemma 1 privacy (spec 2.1)", "identity",
        f"Bookkeeping of the counter's node structure (deterministic): every element lies in exactly L = floor(log2 T_max) + 1 dyadic nodes, one per level, and "
        f"the counter's Laplace sensitivity is L ({len(max_lengths)} values of T_max <= "
        f"{max(max_lengths)}, {n_elems} elements)" + ("; violated: " + "; ".join(bad_nodes[:3])
                                                      if bad_nodes else ""),
        "violations", len(bad_nodes), "0", "PASS" if not bad_nodes else "FAIL", n_elems, scale)]

    worst_scale, bad_count, n_runs = 0.0, [], 0
    for eps in epsilons:
        for tmax in (1, 2, 3, 7, 8, 31, 32, 33, 100, 1024):
            rec = _RecordingRng(rng)
            counter, values, *_ = _run_counter(np.zeros(tmax), eps, rec, noise_multiplier)
            n_runs += 1
            expected = counter.levels / eps  # the scale Lemma 1 needs (a noise multiplier breaks it)
            e = np.asarray(rec.exponentials)
            if e.size != 2 * tmax or rec.other or values.size != tmax:
                bad_count.append(f"T={tmax}, eps={eps}: {e.size // 2} node noises for {values.size} released "
                                 f"nodes, other draws {rec.other[:2]}")
                worst_scale = math.inf
                continue
            # on a zero stream a released node's value is its noise: (L / eps_c) (E1 - E2)
            drawn = expected * (e[0::2] - e[1::2])
            dev = float(np.max(np.abs(values - drawn)) / max(expected, 1e-300))
            worst_scale = max(worst_scale, dev)
    ok = worst_scale <= 1e-12 and not bad_count
    claims.append(dueling_claim(
        "A2-SCALE", "Lemma 1 privacy (spec 2.1)", "identity",
        f"Bookkeeping of the counter's noise (deterministic): the counter noises exactly the nodes its outputs use, one per "
        f"element (T of the 2T - popcount(T) completed nodes; the others are never released), each with "
        f"(L / eps_c) (E1 - E2), a Lap(L / eps_c) variate, from its recorded draws (eps_c in {list(epsilons)}, "
        f"{n_runs} streams)"
        + ("; draw counts wrong: " + "; ".join(bad_count[:3]) if bad_count else ""),
        "max |node value - (L / eps_c)(E1 - E2)| / (L / eps_c)", worst_scale, "<= 1e-12",
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
    # power: a counter whose Laplace scale is 10% too small (really eps_c / 0.9-DP) releases the
    # same node vectors with b' = 0.9 b, so every loss above is divided by 0.9: the bound, attained
    # in n_hit draws, is then exceeded by 11%
    # (an identity of the implementation: the guards never count its power)
    alt = worst_ratio / 0.9
    power = privacy_power(alt > 1 + 1e-9, 1 / 0.9, "a counter whose Laplace scale is 10% too small (0.9 L / eps_c)",
                          f"the same draws give max |LLR| / eps_c = {alt:.3f}, {'FAIL' if alt > 1 + 1e-9 else 'PASS'}")
    claims.append(dueling_claim(
        "A2", "Lemma 1 (BinTree is eps-DP), spec 5.2 A2", "identity",
        f"Identity of the implementation (not a claim of the paper: fixed by its node count L and noise scale "
        f"L/eps_c): exact privacy loss of the released node vector for neighbouring streams (one element "
        f"changed by 1): |log p_s(y)/p_s'(y)| <= eps_c over {total} draws (T = {horizon}, "
        f"L = {tree_levels(horizon)}, eps_c in {list(epsilons)}); worst at {where}; the bound is "
        f"attained (all L nodes on one side) in {n_hit} draws; outputs c_t verified to be sums of "
        f"released nodes: {post_ok}",
        "max over draws of |exact LLR| / eps_c", worst_ratio, "<= 1 (tol 1e-9)",
        "PASS" if passed else "FAIL", total, scale).with_evidence(**power))
    return CheckOutput(claims)
