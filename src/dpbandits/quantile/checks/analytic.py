"""Analytic and Monte Carlo checks of the quantile paper that need no bandit simulation
(spec 6.1 A1-A9, 6.2 B1-B2).

* A1: conventions (left quantile on atoms, clamping, D(n) decreasing, n_* and e_* tables);
* A2: the gap engine against every closed form; invariances (ratio, Gaussian = log-normal,
  symmetry, Delta(1/2) = 0);
* A3: Theorem 2, d_flip = Delta (threshold form), and a constructive flip on DISC;
* A4: Lemma 2 on random discrete pairs; A5: Proposition 1 on Gaussian pairs;
* A6 lives with Figure 1 (:mod:`dpbandits.quantile.experiments.figures`, check F1);
* A7: Theorem 5's algebra (erratum: the KL step (30)-(31) holds only for gamma <= 0.0857);
* A8: global sensitivity of max{0, ell*} (Theorem 6's core) on random and adversarial neighbours;
* A9: exact per-epoch privacy loss of DP-SEQ's elimination step;
* B1: Theorem 1's coverage; B2: Lemma 1 (uniform over n). Both are events on counts:
  X_(r) < F^-1(q) iff #{X < F^-1(q)} >= r and X_(r) > F^-1(q) iff #{X <= F^-1(q)} < r, so the
  runs draw the multinomial counts of {X < x}, {X = x}, {X > x} (exact in distribution; the
  tests compare with sorted samples).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

from dpbandits.evidence.checks import CheckOutput
from dpbandits.evidence.guards import privacy_power
from dpbandits.quantile import dp_seq, seq
from dpbandits.quantile.checks.common import claim, exact_power, rate_claim, rate_family
from dpbandits.quantile.gap import (
    d_flip,
    exponential_pair_gap,
    flip_pair,
    gap,
    gaussian_pair_gap,
    is_flipped,
    mix_gap,
    tv_distance,
)
from dpbandits.quantile.instances import (
    AtomUniformArm,
    DiscreteArm,
    ExponentialArm,
    GaussianArm,
    LogNormalArm,
    bern12,
    disc,
    mix,
    zero_gap,
)

__all__ = ["check_a1", "check_a2", "check_a3", "check_a4", "check_a5", "check_a7",
           "check_a8", "check_a9", "tied_arm", "tied_table", "statistics_matrix", "check_b1", "check_b2", "kl_mix", "coverage_arms", "miss_counts"]

N_STAR_TABLE = {(2, 0.4): 39, (2, 0.5): 23, (2, 0.85): 377, (2, 0.9): 939, (2, 0.95): 4368,
                (10, 0.4): 45, (10, 0.5): 27, (10, 0.85): 417, (10, 0.9): 1028, (10, 0.95): 4721}
E_STAR_TABLE = {0.25: 1, 0.4: 1, 0.5: 1, 0.85: 2, 0.9: 3, 0.95: 4}
# A9's power: the Laplace scale x0.5, a release that is only 2 eps-DP. On tables of distinct
# samples the mechanism's exact loss is eps/2 (a changed sample can move only one order of each
# pair), so there the x0.5 scale is still eps-DP; on tied tables (:func:`tied_table`) the loss
# reaches eps (the paper's accounting is tight) and the x0.5 scale's is 2 eps.
POWER_NOISE = 0.5


def check_a1(rng, scale, settings) -> CheckOutput:
    """A1: the conventions every algorithm relies on."""
    problems = []
    for (k, q), want in N_STAR_TABLE.items():
        if seq.n_star(k, 0.05, q) != want:
            problems.append(f"n_*(K={k}, q={q}) = {seq.n_star(k, 0.05, q)} != {want}")
    for q, want in E_STAR_TABLE.items():
        if dp_seq.e_star(q) != want:
            problems.append(f"e_*(q={q}) = {dp_seq.e_star(q)} != {want}")
    for k in (2, 10):
        for delta in (0.05, 0.5):
            d = seq.seq_width(np.arange(1, 100_001), k, delta)
            if not np.all(np.diff(d) < 0):
                problems.append(f"D(n) not decreasing for K={k}, delta={delta}")
    lcb, ucb = seq.seq_ranks(5000, 2, 0.05, 0.95)
    n = np.arange(1, 5001)
    if np.any(lcb[1:] < 1) or np.any(ucb[1:] > n) or np.any(lcb[1:] > ucb[1:]):
        problems.append("order-statistic ranks not clamped to [1, n]")
    inst = disc(0.4, 0.1, xi=1.0)
    best = inst.arms[0]
    l1 = 0.4 - 0.1
    expect = [(best.ppf(l1), -1.0), (best.ppf(np.nextafter(l1, 1)), 1.0), (best.ppf(0.0), -np.inf),
              (best.ppf(1.0), 1.0), (best.ppf(1.0 + 1e-12), np.inf), (bern12(0.5).arms[1].ppf(0.5), 1.0)]
    problems += [f"left quantile {got} != {want}" for got, want in expect if float(got) != want]
    n_tests = len(N_STAR_TABLE) + len(E_STAR_TABLE) + 4 + 1 + len(expect)
    return CheckOutput([claim(
        "A1", "Def 1, Alg 1 l.3-4, Alg 2 l.3", "control",
        "Tool validation (not a claim of the paper): conventions: left quantile on atoms and +-inf ends, clamped ranks, D(n) decreasing, "
        "n_* (K=2: 39, 23, 377, 939, 4368; K=10: 45, 27, 417, 1028, 4721) and e_* (1, 1, 1, 2, 3, 4) tables"
        + (f"; problems: {'; '.join(problems)}" if problems else ""),
        "number of mismatches", len(problems), len(problems), len(problems), "0 mismatches",
        "PASS" if not problems else "FAIL", n_tests, scale)])


def _a2_cases():
    """(label, engine value, closed form) pairs of A2."""
    cases = []
    for g in (0.025, 0.1, 0.2, 0.35):
        for xi in (1.0, 1e-5):
            inst = disc(0.4, g, xi)
            cases.append((f"DISC gap={g} xi={xi}", gap(inst.arms[1], inst.arms[0], 0.4), inst.gaps()[1]))
    for q in (0.4, 0.5, 0.7):
        for gm in (0.01, 0.05, 0.1, 0.15):
            inst = mix(2, gm, q)
            cases.append((f"MIX q={q} gamma={gm}", gap(inst.arms[1], inst.arms[0], q), mix_gap(gm, q)))
    for q in (0.1, 0.3, 0.5):
        inst = bern12(q)
        cases.append((f"BERN12 q={q}", gap(inst.arms[1], inst.arms[0], q), q))
    for g in (0.0, 0.05, 0.1, 0.2):
        inst = zero_gap(g)
        cases.append((f"ZG gap={g}", gap(inst.arms[1], inst.arms[0], 0.5), g))
    for q in (0.55, 0.7, 0.85, 0.95, 0.99):
        lo, hi = GaussianArm(0.5), GaussianArm(1.0)
        closed = gaussian_pair_gap(0.5, 1.0, q)
        cases.append((f"Gauss(1 vs 0.5) q={q}", gap(lo, hi, q), closed))
        cases.append((f"Gauss(4 vs 2) = (1 vs 0.5) q={q}", gap(GaussianArm(2.0), GaussianArm(4.0), q), closed))
        cases.append((f"LN(1 vs 0.5) = Gauss q={q}", gap(LogNormalArm(0.5), LogNormalArm(1.0), q), closed))
        cases.append((f"Gauss symmetry q={1 - q:.2f}", gap(hi, lo, 1 - q), closed))
    cases.append(("Gauss q=1/2", gap(GaussianArm(2.0), GaussianArm(4.0), 0.5), 0.0))
    for rate in (0.8, 0.5, 0.25, 0.1):
        for q in (0.3, 0.6, 0.9):
            cases.append((f"EXP(1 vs {rate}) q={q}", gap(ExponentialArm(1.0), ExponentialArm(rate), q),
                          exponential_pair_gap(1.0, rate, q)))
    return cases


def check_a2(rng, scale, settings) -> CheckOutput:
    """A2: the bisection engine (tolerance 1e-13) against every closed form, <= 1e-10."""
    cases = _a2_cases()
    errors = np.array([abs(a - b) for _, a, b in cases])
    worst = int(errors.argmax())
    return CheckOutput([claim(
        "A2", "Def 2, eq. (6)", "control",
        "Tool validation (not a claim of the paper): the gap engine matches the closed forms (DISC for xi = 1 and 1e-5, MIX, BERN12, ZG incl. 0, "
        "Gaussian and exponential pairs) and the invariances (ratio (1, 0.5) = (4, 2), Gaussian = log-normal, "
        f"Delta(q) = Delta(1 - q), Delta(1/2) = 0); worst case: {cases[worst][0]}",
        "max absolute error", errors.max(), errors.max(), errors.max(), "<= 1e-10",
        "PASS" if errors.max() <= 1e-10 else "FAIL", len(cases), scale)])


def _a3_battery():
    out = []
    qs = np.round(np.arange(0.05, 0.951, 0.05), 2)
    for s in (2.5, 3.0, 4.0, 6.0):
        for q in qs:
            out.append((f"Gauss(2 vs {s}) q={q}", GaussianArm(2.0), GaussianArm(s), q))
    for r in (0.8, 0.5, 0.25, 0.1):
        for q in qs:
            out.append((f"EXP(1 vs {r}) q={q}", ExponentialArm(1.0), ExponentialArm(r), q))
    for g in (0.025, 0.05, 0.1, 0.15, 0.19):
        for xi in (1.0, 1e-5):
            inst = disc(0.4, g, xi)
            out.append((f"DISC gap={g} xi={xi}", inst.arms[1], inst.arms[0], 0.4))
    for q in (0.4, 0.5, 0.7):
        for gm in (0.05, 0.1, 0.15):
            out.append((f"MIX q={q} gamma={gm}", AtomUniformArm(1 / 3), AtomUniformArm(1 / 3 - gm), q))
    for g in (0.0, 0.05, 0.1, 0.2):
        inst = zero_gap(g)
        out.append((f"ZG gap={g}", inst.arms[1], inst.arms[0], 0.5))
    return out


def check_a3(rng, scale, settings) -> CheckOutput:
    """A3: Theorem 2, d_flip = Delta when Delta < min(q, 1 - q) / 2, and the constructive flip.

    d_flip is computed by the threshold form of spec 1.3 (a separate code path from the gap's
    bisection). Power (``constant_off``): the theorem's identity off by a factor 2 either way,
    d_flip = Delta / 2 or 2 Delta (the slip a total-variation convention with or without its
    factor 1/2 would make), which the same rules FAIL on the same cases: the smallest nonzero gap
    of the battery is far above the tolerance."""
    errors, labels, halves, outside = [], [], [], []
    for label, x, y, q in _a3_battery():
        lo, hi = (x, y) if float(x.ppf(q)) <= float(y.ppf(q)) else (y, x)
        delta = gap(lo, hi, q)
        flip = d_flip(lo, hi, q)
        if delta >= min(q, 1 - q) / 2:
            outside.append(abs(flip - delta))
            continue
        errors.append(abs(flip - delta))
        halves.append(min(abs(flip - delta / 2), abs(flip - 2 * delta)))
        labels.append(label)
    errors = np.array(errors)
    worst = int(errors.argmax())
    alt_a3 = float(max(halves))
    construct_err, flipped, inside, n_construct, alt_construct = -np.inf, True, True, 0, np.inf
    for g in (0.05, 0.1, 0.15):
        for xi in (1.0, 1e-5):
            inst = disc(0.4, g, xi)
            lo, hi = inst.arms[1], inst.arms[0]
            for eta in (1e-3, 1e-2):
                g_h, g_l, _ = flip_pair(lo, hi, 0.4, eta)
                flipped &= is_flipped(g_h, g_l, 0.4)
                tv = max(tv_distance(lo, g_h), tv_distance(hi, g_l))
                excess = tv - inst.gaps()[1]
                inside &= -1e-12 <= excess <= eta + 1e-12
                construct_err = max(construct_err, excess)
                # the rule at Delta / 2 (excess > eta) and at 2 Delta (excess < 0): outside [0, eta]
                alt_construct = min(alt_construct, tv - inst.gaps()[1] / 2 - eta, 2 * inst.gaps()[1] - tv)
                n_construct += 1
    ok = flipped and inside
    a3 = claim("A3", "Thm 2", "theorem",
               "The gap equals the distance to a quantile flip d_flip (computed by the threshold form of spec 1.3, a "
               f"separate code path) on Gaussian, exponential, DISC, MIX and ZG pairs with Delta < min(q, 1-q)/2; worst "
               f"case: {labels[worst]} (the threshold form also equals Delta in the {len(outside)} battery cases outside "
               f"the proviso: max error {max(outside, default=0.0):.1e})",
               "max |d_flip - Delta|", errors.max(), errors.max(), errors.max(), "<= 1e-7",
               "PASS" if errors.max() <= 1e-7 else "FAIL", len(errors), scale)
    construct = claim("A3-CONSTRUCT", "Thm 2 (proof)", "theorem",
                      "A flipped pair within TV distance Delta + eta exists on DISC, eta in {1e-3, 1e-2} (threshold "
                      "construction; the paper's push/pull can need mass from an empty interval when an atom sits at "
                      "the quantile)",
                      "max (max TV - Delta) (all pairs flipped: " + ("yes" if flipped else "no") + ")",
                      construct_err, construct_err, construct_err, "flipped and max TV - Delta in [0, eta]",
                      "PASS" if ok else "FAIL", n_construct, scale)
    return CheckOutput([
        a3.with_evidence(**exact_power(
            "FAIL" if alt_a3 > 1e-7 else "PASS",
            "the identity off by a factor 2 (d_flip = Delta / 2 or 2 Delta): max |d_flip - c Delta| = "
            f"{alt_a3:.3g} {'>' if alt_a3 > 1e-7 else '<='} 1e-7 for the nearer c, the same rule "
            f"{'FAILs' if alt_a3 > 1e-7 else 'PASSes'}", form="constant_off")),
        construct.with_evidence(**exact_power(
            "FAIL" if alt_construct > 0 else "PASS",
            "the identity off by a factor 2 (d_flip = Delta / 2 or 2 Delta): the constructed pairs' max TV lies "
            f"outside [c Delta, c Delta + eta] by at least {alt_construct:.3g} for both c, the same rule "
            f"{'FAILs' if alt_construct > 0 else 'PASSes'}", form="constant_off")),
    ])


def check_a4(rng, scale, settings, eta_factor: float = 1.0) -> CheckOutput:
    """A4: Lemma 2 sandwich on random discrete pairs on a common 20-point support.
    ``eta_factor`` < 1 claims a tighter sandwich than the lemma (tests: the check must FAIL).
    Power (``constant_off``): the lemma with its width off by a factor 2, a sandwich of half
    width eta / 2, must give violations on the same pairs and levels (the random pairs reach the
    sandwich's edge, so a wrong width would be seen)."""
    pairs = int(settings["a4_pairs"])
    support = np.arange(20.0)
    violations, half_violations = 0, 0
    for _ in range(pairs):
        p = rng.dirichlet(np.ones(20))
        p2 = rng.dirichlet(np.ones(20)) if rng.random() < 0.5 else np.abs(p + rng.normal(0, 0.01, 20))
        p2 = p2 / p2.sum()
        f, f2 = DiscreteArm(tuple(support), tuple(p)), DiscreteArm(tuple(support), tuple(p2))
        eta = 0.5 * np.abs(p - p2).sum()
        if eta >= 0.5:
            continue
        qs = rng.uniform(eta, 1 - eta, size=25)
        mid = f2.ppf(qs)
        for factor in {eta_factor, 0.5 * eta_factor}:
            width = factor * eta
            bad = int(np.sum((f.ppf(qs - width) > mid) | (mid > f.ppf(qs + width))))
            if factor == eta_factor:
                violations += bad
            else:
                half_violations += bad
    row = claim(
        "A4", "Lemma 2", "lemma",
        "If d_TV(F, F') = eta then F^-1(q - eta) <= F'^-1(q) <= F^-1(q + eta) for q in (eta, 1 - eta) "
        "(random pairs on a 20-point support, 25 random levels each)",
        "violations", violations, violations, violations, "0 violations",
        "PASS" if violations == 0 else "FAIL", pairs, scale)
    return CheckOutput([row.with_evidence(**exact_power(
        "FAIL" if half_violations else "PASS",
        f"the lemma's width off by a factor 2: the sandwich of half width (eta / 2) on the same pairs and levels has "
        f"{half_violations} violations", form="constant_off"))])


def check_a5(rng, scale, settings) -> CheckOutput:
    """A5: Proposition 1 on Gaussian pairs, L = max density = 1 / (sigma_min sqrt(2 pi)). Power
    (``constant_off``): the proposition with its constant off by a factor 2, L/4, must give
    violations on the same pairs."""
    worst, n, half_violations = -np.inf, 0, 0
    for s_lo in (0.5, 1.0, 2.0):
        for ratio in (1.25, 2.0, 4.0):
            lo, hi = GaussianArm(s_lo), GaussianArm(s_lo * ratio)
            lip = 1 / (s_lo * math.sqrt(2 * math.pi))
            for q in np.round(np.arange(0.51, 0.995, 0.02), 2):
                bound = lip / 2 * abs(float(hi.ppf(q) - lo.ppf(q)))
                g = gap(lo, hi, q)
                worst = max(worst, g - bound)
                half_violations += int(g - bound / 2 > 1e-12)
                n += 1
    row = claim(
        "A5", "Prop 1", "lemma",
        "For L-Lipschitz CDFs Delta <= (L/2) |F^-1(q) - G^-1(q)| (Gaussian pairs, sigma_lo in {0.5, 1, 2}, "
        "ratio in {1.25, 2, 4}, q from 0.51 to 0.99)",
        "max (Delta - bound)", worst, worst, worst, "<= 1e-12", "PASS" if worst <= 1e-12 else "FAIL", n, scale)
    return CheckOutput([row.with_evidence(**exact_power(
        "FAIL" if half_violations else "PASS",
        f"the constant off by a factor 2: the bound with L/4 is violated in {half_violations} of {n} cases",
        form="constant_off"))])


def kl_mix(gamma) -> np.ndarray:
    """Exact KL(G^{1/3} || G^{1/3 - 2 gamma}) = 1/3 log(1/(1 - 6 gamma)) + 2/3 log(1/(1 + 3 gamma))."""
    g = np.asarray(gamma, dtype=float)
    return -np.log1p(-6 * g) / 3 - 2 * np.log1p(3 * g) / 3


def _first_crossing(f, grid) -> float:
    """The first gamma of the grid's range where f turns positive (refined by brentq); 1/6 if never."""
    values = f(grid)
    above = np.flatnonzero(values > 0)
    if above.size == 0:
        return 1 / 6
    k = int(above[0])
    return grid[0] if k == 0 else float(optimize.brentq(f, grid[k - 1], grid[k]))


def check_a7(rng, scale, settings) -> CheckOutput:
    """A7: Theorem 5's algebra. The step (30)-(31) KL <= 9 gamma^2 + 18 gamma^3 <= 12 gamma^2 'for
    gamma < 1/6' uses log(1/(1-x)) <= x + x^2/2 + x^3/3, false on (0, 1) (and x^3/3 = 72 gamma^3,
    not 54 gamma^3): KL <= 12 gamma^2 only up to gamma_0 = 0.0857. The 3/100 constant itself
    follows from (34) via 1/(12 gamma^2); with the exact KL the bound holds up to gamma_1 = 0.1233."""
    grid = np.linspace(1e-4, 1 / 6 - 1e-6, 20_000)
    kl = kl_mix(grid)
    above_cubic = bool(np.all(kl > 9 * grid**2 + 18 * grid**3))
    gamma0 = _first_crossing(lambda g: kl_mix(g) - 12 * g**2, grid)
    gamma1 = _first_crossing(lambda g: kl_mix(g) - 100 / 3 * g**2 / (4 / 3 + g) ** 2, grid)
    worst_ratio = float((kl / (12 * grid**2)).max())
    # the constant: 1/(12 gamma^2) with Delta >= (3/5)(1-q) gamma, i.e. gamma <= 5 Delta / (3 (1-q))
    const_34 = 9 / (12 * 25)  # (1/12) (3/5)^2
    const_35 = 9 / (15 * 25)
    qs, gs = np.meshgrid(np.linspace(0.34, 0.99, 60), np.linspace(1e-4, 1 / 6 - 1e-6, 60))
    ratio_ok = bool(np.all(mix_gap(gs, qs) >= 0.6 * (1 - qs) * gs - 1e-15))
    return CheckOutput([
        claim("A7", "Thm 5, eqs. (30)-(31)", "erratum",
              "KL(G^{1/3} || G^{1/3-2 gamma}) <= 9 gamma^2 + 18 gamma^3 <= 12 gamma^2 for all gamma < 1/6 "
              "(the proof's log(1/(1-x)) <= x + x^2/2 + x^3/3 is false, and x^3/3 = 72 gamma^3, not 54); "
              f"exact KL > 9 gamma^2 + 18 gamma^3 everywhere: {'yes' if above_cubic else 'no'}; "
              f"max KL / (12 gamma^2) on (0, 1/6) = {worst_ratio:.3f}",
              "gamma_0 = largest gamma with KL <= 12 gamma^2", gamma0, gamma0, gamma0,
              "gamma_0 >= 1/6 (the stated range)", "PASS" if gamma0 >= 1 / 6 else "FAIL", grid.size, scale),
        claim("A7-CONST", "Thm 5, eqs. (34)-(35)", "lower_bound",
              "The constant 3/100 follows from (34): 1/(12 gamma^2) with Delta >= (3/5)(1-q) gamma "
              f"(checked on a grid: {'holds' if ratio_ok else 'fails'}); the displayed 1/(15 gamma^2) would "
              "only give 3/125",
              f"constant from 1/(12 gamma^2), exact (from 1/(15 gamma^2): {const_35:g})", const_34, const_34, const_34,
              "= 3/100 and Delta >= (3/5)(1-q) gamma", "PASS" if abs(const_34 - 0.03) < 1e-15 and ratio_ok else "FAIL",
              60 * 60, scale).with_evidence(**exact_power(
                  "FAIL" if abs(const_35 - 0.03) > 1e-15 else "PASS",
                  f"the proof's displayed step (35) read as written, 1/(15 gamma^2), gives {const_35:g}, not 3/100; "
                  "the same rule FAILs it", form="paper_reading")),
        claim("A7-VALID", "Thm 5", "report",
              "With the exact KL, E[T_j] >= log(1/(4 delta)) / KL(gamma) implies the 3/100 bound for gamma up to "
              "gamma_1 (the repaired theorem restricts gamma <= gamma_0 = 0.0857; it is existential)",
              "gamma_1", gamma1, gamma1, gamma1, "informational", "REPORT", grid.size, scale),
    ])


# ---------------------------------------------------------------------------------------------
# A8, A9: privacy of DP-SEQ's statistic


def _sorted_windows(xa, xb, i, j):
    """low[l] = X^a_(i - l) for l = 0..i-1 and up[l] = X^b_(j + l) up to L = min(i - 1, n - j)."""
    n = xa.size
    span = max(min(i - 1, n - j), 0)
    return xa[i - 1 - np.arange(span + 1)], xb[j - 1 + np.arange(span + 1)]


def pair_statistic(xa: np.ndarray, xb: np.ndarray, i: int, j: int) -> int:
    """max{0, ell*} of the ordered pair (a, b) from sorted samples (production ell_star)."""
    low, up = _sorted_windows(xa, xb, i, j)
    return max(0, dp_seq.ell_star(low, up))


def _draw(kind, rng, n):
    if kind == "gauss":
        return rng.normal(size=n)
    if kind == "ties":
        return rng.integers(0, 5, size=n).astype(float)
    return rng.standard_cauchy(size=n)


def check_a8(rng, scale, settings) -> CheckOutput:
    """A8: |max{0, ell*(X)} - max{0, ell*(X')}| <= 1 for neighbours X, X' (one sample changed in
    arm a or b to a random value, +-inf, +-1e300 or a duplicate of an order statistic)."""
    trials = int(settings["a8_trials"])
    worst, violations, attained = 0, 0, 0
    for _ in range(trials):
        n = int(rng.integers(5, 2001))
        q = float(rng.uniform(0.05, 0.95))
        e = dp_seq.e_star(q) + int(rng.integers(0, 4))
        i, j, _ = dp_seq.epoch_ranks(n, e, q)
        kind = ("gauss", "ties", "cauchy")[int(rng.integers(0, 3))]
        xa = _draw(kind, rng, n)
        xb = _draw(kind, rng, n) + float(rng.normal(0, 1.5)) * (kind != "ties")
        sa, sb = np.sort(xa), np.sort(xb)
        before = pair_statistic(sa, sb, i, j)
        which = int(rng.integers(0, 2))
        target = (xa if which == 0 else xb).copy()
        pos = int(rng.integers(0, n))
        choice = int(rng.integers(0, 6))
        sorted_t = np.sort(target)
        target[pos] = (float(rng.normal(0, 3)), np.inf, -np.inf, 1e300, -1e300,
                       float(sorted_t[int(rng.integers(0, n))]))[choice]
        sa2, sb2 = (np.sort(target), sb) if which == 0 else (sa, np.sort(target))
        change = abs(pair_statistic(sa2, sb2, i, j) - before)
        worst = max(worst, change)
        violations += int(change > 1)
        attained += int(change == 1)
    row = claim(
        "A8", "Thm 6 (proof)", "privacy",
        "The pair statistic max{0, ell*} of Algorithm 2 has global sensitivity 1 (random neighbours on "
        "Gaussian, tied-integer and Cauchy samples; replacements random, +-inf, +-1e300, duplicates)",
        f"max change (violations of <= 1: {violations})", worst, worst, worst, "<= 1 in every trial",
        "PASS" if worst <= 1 else "FAIL", trials, scale)
    return CheckOutput([row.with_evidence(**privacy_power(
        bool(attained), 2.0, "a proof whose sensitivity were 1/2 (Laplace noise calibrated to half the true sensitivity)",
        f"the trials attain 1 (a change of exactly 1 in {attained} of {trials}), so the same rule FAILs "
        "'sensitivity <= 1/2'"))])


def _epoch_data(rng, m, n_e, e, q, tied: bool = False):
    """m arms of n_e samples with spread-out quantiles, so that statistics cover 0 .. L: Gaussian,
    or (``tied``) integers 0..4 plus an integer shift per arm, heavily tied (A8's tied kind)."""
    if tied:
        shifts = rng.integers(0, 3, size=m)
        return [np.sort(_draw("ties", rng, n_e) + shifts[a]) for a in range(m)]
    shifts = rng.uniform(0.0, 4.0, size=m)
    return [np.sort(rng.normal(size=n_e) + shifts[a]) for a in range(m)]


def tied_arm(n: int, low: int, high: int) -> np.ndarray:
    """An arm's sorted samples in {-1, 0, 1}: ``low`` samples -1, then 0s, then ``high`` samples +1."""
    if not (low >= 0 and high >= 0 and low + high <= n):
        raise ValueError(f"an arm of {n} samples cannot hold {low} samples -1 and {high} samples +1")
    return np.concatenate([np.full(low, -1.0), np.zeros(n - low - high), np.ones(high)])


def tied_table(m: int, n: int, i: int, j: int, s_up: int, s_down: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """A table where one changed sample moves both orders of a pair (the worst case of Theorem 6's
    accounting), and its neighbour. Arm 0 holds i - s_up - 1 samples -1, then 0s, then
    n - j - s_down samples +1; arm 1 holds n zeros; so max{0, ell*_01} = s_up and
    max{0, ell*_10} = s_down. The neighbour moves one of arm 0's +1 samples to -1/2: arm 0's order
    statistics fall, ell*_01 drops by one and ell*_10 rises by one. With distinct samples the two
    orders of a pair cannot both be positive (X^b_(j) <= X^a_(i) and X^a_(j) <= X^b_(i) force
    four equal order statistics), so only ties reach this. Arms 2..m-1 (m > 2) sit far below
    arms 0 and 1 (they never remove either)."""
    r0, top = i - s_up - 1, n - j - s_down
    if not (s_up >= 0 and s_down >= 0 and r0 >= 0 and top >= 1 and r0 + top <= n):
        raise ValueError(f"tied_table: s_up = {s_up}, s_down = {s_down} need 0 <= s_up <= i - 1 = {i - 1} and "
                         f"0 <= s_down <= n - j - 1 = {n - j - 1} (n = {n}, i = {i}, j = {j})")
    arm0 = tied_arm(n, r0, top)
    moved = np.sort(np.concatenate([arm0[:-1], [-0.5]]))
    rest = [np.zeros(n)] + [np.full(n, -10.0) for _ in range(m - 2)]
    return [arm0] + rest, [moved] + [x.copy() for x in rest]


def statistics_matrix(data, i, j) -> np.ndarray:
    m = len(data)
    s = np.zeros((m, m))
    for a in range(m):
        for b in range(m):
            if a != b:
                s[a, b] = pair_statistic(data[a], data[b], i, j)
    return s


def _worst_neighbour(data, arm, i, j, s):
    """Replace one sample of ``arm`` by the value (among +-inf and values next to the order
    statistics the comparisons read) that maximises sum |Delta s|."""
    x = data[arm]
    candidates = [np.inf, -np.inf] + [x[r] + d for r in (i - 1, j - 1) for d in (-1e-9, 1e-9)]
    best, best_s = -1.0, s
    for pos in (0, x.size - 1, i - 1, j - 1):
        for v in candidates:
            y = x.copy()
            y[pos] = v
            trial = list(data)
            trial[arm] = np.sort(y)
            s2 = statistics_matrix(trial, i, j)
            score = np.abs(s2 - s).sum()
            if score > best:
                best, best_s = score, s2
    return best_s


def check_a9(rng, scale, settings, noise_factor: float = 1.0) -> CheckOutput:
    """A9: exact privacy loss of one epoch, max over removal sets, between neighbouring sample
    tables (A8's kinds: distinct and tied samples, each with its adversarial neighbour, and the
    tied worst case :func:`tied_table`), m in {2, 3, 5, 10}, n_e in {200, 2000}, eps in {0.1, 1}.
    ``noise_factor`` < 1 shrinks the noise (tests: the check must FAIL)."""
    delta, q, e = 0.1, 0.5, 1
    worst = {"raw": 0.0, "guarded": 0.0, "pairwise": 0.0}
    n, control = 0, 0.0
    distinct = {"raw": 0.0, "guarded": 0.0, "pairwise": 0.0}  # the same maxima on distinct samples only

    def judge(s, s2, t_evals, tied):
        nonlocal control
        for t_eval in t_evals:
            loss = dp_seq.privacy_loss(s, s2, t_eval, beta)
            for key in worst:
                worst[key] = max(worst[key], loss[key] / eps)
                if not tied:
                    distinct[key] = max(distinct[key], loss[key] / eps)
            # power: the pairwise loss (computed stably; removal-set losses can underflow to inf)
            # with the Laplace scale shrunk
            shrunk = dp_seq.privacy_loss(s, s2, t_eval, beta * POWER_NOISE)
            control = max(control, shrunk["pairwise"] / eps)

    for m in (2, 3, 5, 10):
        for n_e in (200, 2000):
            i, j, span = dp_seq.epoch_ranks(n_e, e, q)
            for eps in (0.1, 1.0):
                t = dp_seq.threshold(m, e, eps, delta)
                beta = dp_seq.noise_scale(m, eps) * noise_factor
                for tied in (False, True):  # A8's kinds: distinct (Gaussian) and tied-integer samples
                    for _ in range(int(settings["a9_tables"])):
                        data = _epoch_data(rng, m, n_e, e, q, tied=tied)
                        s = statistics_matrix(data, i, j)
                        arm = int(rng.integers(0, m))
                        s2 = _worst_neighbour(data, arm, i, j, s)
                        # also at a lower threshold, with the statistics near it (where the loss is
                        # largest): the loss only depends on T - s
                        judge(s, s2, (t, min(t, float(s.max()))), tied)
                        n += 1
                # the tied worst case (tied_table): both orders of a pair move; the loss depends on
                # T - s only, so thresholds on a grid of +-4 noise scales around the statistics
                mid = min(span - 1, max(1, math.ceil(t)))
                data, moved = tied_table(m, n_e, i, j, mid, mid)
                judge(statistics_matrix(data, i, j), statistics_matrix(moved, i, j),
                      tuple(mid + beta * np.linspace(-4.0, 4.0, 33)), True)
                n += 1
    value = max(worst.values())
    return CheckOutput([claim(
        "A9", "Thm 6", "privacy",
        "One epoch of Algorithm 2 (Lap(2(m-1)/eps) per ordered pair, frozen removal) is eps-DP: exact "
        "max over removal sets of |log P(R|X) - log P(R|X')| for neighbouring tables (raw removal set "
        f"{worst['raw']:.4f} eps, guarded output {worst['guarded']:.4f} eps, pairwise decision vector "
        f"{worst['pairwise']:.4f} eps; on distinct samples only {distinct['raw']:.4f}, {distinct['guarded']:.4f} "
        f"and {distinct['pairwise']:.4f} eps: a changed sample moves both orders of a pair only on tied samples)",
        "max privacy loss / eps", value, value, value, "<= 1 + 1e-9",
        "PASS" if value <= 1 + 1e-9 else "FAIL", n, scale).with_evidence(**privacy_power(
            control > 1 + 1e-9, control, f"the Laplace scale x{POWER_NOISE:g}",
            f"the same neighbouring tables give a pairwise-decision loss of {control:.4f} eps "
            f"{'>' if control > 1 + 1e-9 else '<='} eps"))])


# ---------------------------------------------------------------------------------------------
# B1, B2: Theorem 1 and Lemma 1


def coverage_arms() -> dict:
    """B1's distributions: N(0,1), Exp(1), Bernoulli(1/2) on {0, 1}, Poisson(3), DISC's best arm,
    MIX's G^{1/3}."""
    k = np.arange(0, 40)
    pois = stats.poisson.pmf(k, 3.0)
    keep = pois > 1e-300
    pois = pois[keep] / pois[keep].sum()
    return {"normal": GaussianArm(1.0), "exp": ExponentialArm(1.0),
            "bernoulli": DiscreteArm((0.0, 1.0), (0.5, 0.5), "Bernoulli(1/2)"),
            "poisson": DiscreteArm(tuple(k[keep].astype(float)), tuple(pois), "Poisson(3)"),
            "disc_best": disc(0.4, 0.1).arms[0], "mix": AtomUniformArm(1 / 3)}


def _level_probs(arm, q):
    x = float(arm.ppf(q))
    below, at_most = float(arm.cdf_below(x)), float(arm.cdf(x))
    return below, at_most - below


def miss_counts(arm, q, n, lo, hi, runs, rng) -> tuple[int, int, int]:
    """(two-sided misses, misses below, misses above) of [X_(lo), X_(hi)] over ``runs`` samples of
    size n, drawn as multinomial counts of {X < x}, {X = x}, {X > x}, x = F^-1(q)."""
    p_below, p_at = _level_probs(arm, q)
    counts = rng.multinomial(n, [p_below, p_at, max(0.0, 1 - p_below - p_at)], size=runs)
    low_miss = counts[:, 0] >= hi  # X_(hi) < x
    high_miss = counts[:, 0] + counts[:, 1] < lo  # X_(lo) > x
    return int((low_miss | high_miss).sum()), int(low_miss.sum()), int(high_miss.sum())


def check_b1(rng, scale, settings, width_factor: float = 1.0) -> CheckOutput:
    """B1: Theorem 1's coverage, two-sided <= delta' and each side <= delta'/2. ``width_factor``
    < 1 narrows zeta (tests: the check must FAIL)."""
    runs = int(settings["b1_runs"])
    events, totals, targets = [], [], []
    for arm in coverage_arms().values():
        for q in (0.1, 0.25, 0.5, 0.75, 0.9):
            for dp in (0.05, 0.2, 0.5):
                for n in (20, 100, 1000):
                    zeta = width_factor * math.sqrt(math.log(2 / dp) / (2 * n))
                    if zeta > min(q, 1 - q):
                        continue
                    lo = min(max(math.floor(n * (q - zeta)), 1), n)
                    hi = min(max(math.ceil(n * (q + zeta)), 1), n)
                    both, below, above = miss_counts(arm, q, n, lo, hi, runs, rng)
                    events += [both, below, above]
                    totals += [runs] * 3
                    targets += [dp, dp / 2, dp / 2]
    fam = rate_family(events, totals, targets)
    return CheckOutput([claim(
        "B1", "Thm 1", "theorem",
        "P(F^-1(q) not in [X_(floor(n(q-zeta))), X_(ceil(n(q+zeta)))]) <= delta' (each side <= delta'/2) on "
        "N(0,1), Exp(1), Bernoulli(1/2) (atom at the quantile), Poisson(3), DISC and MIX; q in {0.1..0.9}, "
        f"delta' in {{0.05, 0.2, 0.5}}, n in {{20, 100, 1000}} ({len(events)} rates, Holm)",
        "worst miss rate / target (CP bounds, Bonferroni)", fam.value, fam.lo, fam.hi,
        "every rate <= its target (Holm)", fam.verdict, fam.total_runs, scale).with_evidence(**fam.evidence)])


def check_b2(rng, scale, settings) -> CheckOutput:
    """B2: Lemma 1, the intervals of SEQ hold for every n >= n_* at once with probability >= 1 - delta."""
    runs, horizon = int(settings["b2_runs"]), int(settings["b2_horizon"])
    events, totals, targets = [], [], []
    chunk = 200
    for arm in coverage_arms().values():
        for q in (0.4, 0.85):
            p_below, p_at = _level_probs(arm, q)
            for delta in (0.1, 0.5):
                ns = seq.n_star(2, delta, q)
                lcb, ucb = seq.seq_ranks(horizon, 2, delta, q)
                miss = 0
                for start in range(0, runs, chunk):
                    r = min(chunk, runs - start)
                    u = rng.random((r, horizon))
                    below = np.cumsum(u < p_below, axis=1)
                    at_most = np.cumsum(u < p_below + p_at, axis=1)
                    sl = slice(ns - 1, horizon)  # n = n_* .. horizon
                    bad = (below[:, sl] >= ucb[ns:]) | (at_most[:, sl] < lcb[ns:])
                    miss += int(bad.any(axis=1).sum())
                events.append(miss)
                totals.append(runs)
                targets.append(delta)
    fam = rate_family(events, totals, targets)
    return CheckOutput([rate_claim(
        "B2", "Lemma 1", "lemma",
        f"P(some interval of SEQ misses F^-1(q) for some n in [n_*, {horizon}]) <= delta (K = 2, "
        "delta in {0.1, 0.5}, q in {0.4, 0.85}, B1's distributions; Holm)",
        "worst path-miss rate / delta (CP bounds, Bonferroni)", fam, scale)])
