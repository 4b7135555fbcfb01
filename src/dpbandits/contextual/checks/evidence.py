"""Evidence for the guards of the contextual paper's rows (:mod:`dpbandits.evidence.guards`).

The faithful algorithm (``primary``: every user reports to every active bin with Laplace(4/eps)
noise, the confidence radius (14) with its variances written out) stays at the uniform policy's
regret until its radius falls below the arm gaps. At eps <= 4 that does not happen within the
paper's horizons, so many of the paper's claims meet runs that have not started learning. The
helpers below say, from the runs themselves, where that is the case:

* the trivial policy's level (the *floor*): the uniform policy's per-round regret (0.414 on the
  bump instance with the code's centres, 1/6 on the K = 2 symmetric instance) or, on Table 2's
  classification data, its per-round reward 1/K (exact: the uniform arm matches the label with
  probability 1/K whatever the labels);
* :func:`ratio_ci`: a cell's mean over runs divided by that level, with its bootstrap CI;
* :func:`at_floor`: the ratio is indistinguishable from 1, for a comparison: within the larger
  of 0.5% (:data:`REL_TIE`: the runs share their random numbers, so curves stuck at the floor
  agree to well within it, while a real effect of 1% stays visible) and its CI's half-width;
* :func:`regime`: the regime of a learning-rate claim, reached when the ratio is significantly
  below 1 by more than 2% (:data:`REL_REGIME`, the tolerance of :func:`dpbandits.evidence.guards.tied`):
  :func:`dpbandits.evidence.guards.below_trivial` plus a margin, so that a rate is judged only once the
  algorithm has clearly started learning;
* :func:`needed_n`: where the regime is not reached, the n at which it would be, estimated from
  a privacy level that did leave the floor: the radius (14) and the rate (6) depend on n and eps
  through n eps^2 in the private regime (eps^2 n << n^((2 + 2d)/(2 + d)), true for eps <= 8 and
  n >= 10^4 at d = 2), so eps leaves the floor near n_ref (eps_ref / eps)^2;
* :func:`order_status`: one order claim (a Spearman criterion) on one set of curves. Curves
  tied at the floor cannot order themselves: a criterion that fails only because two or more
  curves sit at the floor, with no significant reversal (adjacent one-sided tests, Holm), is
  ``untestable``, not a failure;
* :func:`cell_status`: one comparison judged by two one-sided tests: "pass" when the claimed
  direction's test is significant, "fail" only when the contradiction's test is
  (:func:`contradiction_p`: the mean improvement is smaller than the tie margin
  :data:`REL_TIE`, i.e. the two sides are tied or reversed; at :data:`CONTRADICT_ALPHA`, Holm
  over a family's testable cells by :func:`contradicted`), "undecided" otherwise. A point
  estimate on the wrong side is not a contradiction: when the effect is small beside the runs'
  noise it lands there about half the time, and F6-CODE and F7b-HELPS FAILed under some root
  seeds that way (the stability sweep). For a claim that holds (an improvement larger than the tie
  margin in every cell) a family FAILs with probability at most :data:`CONTRADICT_ALPHA`; an
  effect within the margin is a tie, as for :func:`at_floor`, and FAILs once the runs resolve it;
* :func:`family_verdict`: a claim over several cells (a fraction of cells that must satisfy
  it) judged on the cells that can be tested: PASS when enough cells pass, FAIL when so many
  fail that the fraction cannot be reached, INCONCLUSIVE otherwise; no testable cell is the
  floor guard (no power);
* :func:`rho_null_probability` and :func:`binomial_tail`: the power of a PASS that is itself a
  significant result (an order of k means that no privacy level / sample size changes would
  reach the criterion with this probability; k cells passing under that null). Their null is
  the claimed effect absent (``effect_absent``, :data:`dpbandits.evidence.claims.POWER_FORMS`);
* :func:`sublinear_power` and :func:`eps_exponent_power`: the power of a rate's PASS against an
  exponent off by more than the claim's band (``exponent_off``): a linear regret for "sublinear",
  the theorem's exponent off by twice its tolerance for a rate with a tolerance.

* :func:`over_radius_c`: a row whose verdict depends on the radius constant c of C_n = c ln n,
  which Proposition 2.7 leaves open, judged over :data:`dpbandits.contextual.config.RADIUS_C_RANGE`:
  the same row computed at each c, each judged on its own evidence (regime, power); the verdict
  stands when every c gives it, otherwise INCONCLUSIVE (undecided), the text naming the c at
  which each verdict holds.

Every power states the kind of wrong paper it is shown against (``Evidence.power_form``); a PASS
whose alternative is not a way the paper could be wrong (a straw man) is left without a form and
the guard makes it INCONCLUSIVE ``no_power``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import stats as sps

from dpbandits.contextual.config import CODE_RADIUS_C
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import judge, shifted_ci_power, significant
from dpbandits.stats import holm, mann_whitney_less, wilcoxon_less

__all__ = ["REL_TIE", "REL_REGIME", "ratio_ci", "at_floor", "left_floor", "regime", "needed_n", "onset", "floor_cells",
           "OrderStatus", "order_status", "CONTRADICT_ALPHA", "cell_status", "contradiction_p", "contradicted",
           "family_verdict", "rho_null_probability", "binomial_tail",
           "spearman", "fmt_n", "sublinear_power", "eps_exponent_power", "over_radius_c"]

REL_TIE = 0.005  # a mean within 0.5% of the trivial policy's level is tied at the floor
REL_REGIME = 0.02  # a rate claim's regime: significantly below the floor by more than 2%
CONTRADICT_ALPHA = 0.01  # a comparison FAILs only when its contradiction's test is this significant


def spearman(x, means) -> float:
    """Spearman's rho on means rounded to 9 significant digits (equal means stay tied), 0 when
    every mean is equal."""
    m = np.asarray([float(f"{v:.9g}") for v in means])
    return float(sps.spearmanr(x, m).statistic) if np.ptp(m) > 0 else 0.0


def sublinear_power(fit, bar: float = 0.95, theory: float | None = None) -> dict:
    """Power of a "slope CI upper end < bar" PASS against a wrong paper of the claim's form: an
    n-exponent of the regret off by more than the claim's band (``exponent_off``).

    ``theory`` None: the claim is sublinear growth (Figure 7(a)'s "the regret increases in a
    sub-linear manner"; bar 0.95), and the wrong paper is a linear regret (slope 1, the uniform
    policy's: the algorithm does not learn, as the faithful runs do at eps <= 4 within the paper's
    horizons). ``theory`` given: the claim is Theorem 2.6's exponent with the tolerance
    ``bar - theory``, and the wrong paper is that exponent off by twice the tolerance (the band's
    edge reflected, ``2 bar - theory``), at most 1 (a regret grows at most linearly).

    The same CI shifted to that alternative must FAIL; where it does not (a wide CI), the PASS is
    itself a one-sided bootstrap test at 2.5% whose null is an exponent at or beyond the band's
    edge (slope >= bar; the fit's bootstrap slopes include lack of fit)."""
    alt = 1.0 if theory is None else min(1.0, 2.0 * bar - theory)
    if theory is None:
        label = "a linear regret (slope 1, the uniform policy's: the claimed sublinear growth absent)"
    elif alt >= 1.0:
        label = (f"a linear regret (slope 1, the uniform policy's: the theorem's {theory:.3g} off by more than "
                 f"twice the tolerance {bar - theory:.3g})")
    else:
        label = f"slope {alt:.3g} (the theorem's {theory:.3g} off by twice the tolerance {bar - theory:.3g})"
    shifted = shifted_ci_power(fit.slope, fit.ci_low, fit.ci_high, alt, band_hi=bar - 1e-12, label=label,
                               form="exponent_off")
    if shifted["power"] == "FAIL" or fit.boots is None:
        return shifted
    p = float(np.mean(np.asarray(fit.boots) >= bar))
    return significant(p, 0.025, f"one-sided bootstrap test of the null slope >= {bar:.3g} (an exponent at or "
                                 "beyond the band's edge)", form="exponent_off")


def eps_exponent_power(fit, theory: float, band_lo: float, band_hi: float) -> dict:
    """Power of a "CI within [band_lo, band_hi]" PASS of the eps-exponent of the regret (Theorem
    2.6, eq. (7): theory -(1+beta)/(1+d)) against a wrong paper of the claim's form, an exponent
    off by more than the band (``exponent_off``): the same CI shifted to the theory's value off
    by twice the band's margin on either side (each edge reflected: ``2 band_lo - theory``, a
    privacy cost steeper than the theorem's, and ``2 band_hi - theory``, about no eps dependence)
    must FAIL at both. The lower side is the one that does not rest on a straw man: a mechanism
    whose noise scales as 1/eps cannot give a regret free of eps once it learns."""
    sides = [(2.0 * band_lo - theory, "a privacy cost steeper than the theory's"),
             (2.0 * band_hi - theory, "about no eps dependence")]
    ev = [shifted_ci_power(fit.slope, fit.ci_low, fit.ci_high, alt, band_lo, band_hi,
                           label=f"eps-exponent {alt:.3g} ({what})", form="exponent_off") for alt, what in sides]
    verdict = "FAIL" if all(e["power"] == "FAIL" for e in ev) else next(e["power"] for e in ev if e["power"] != "FAIL")
    note = (f"the theory's {theory:.3g} off by twice the band's margin on either side: "
            + "; ".join(e["power_note"] for e in ev))
    return {"power": verdict, "power_note": note, "power_form": "exponent_off"}


def fmt_n(n: float) -> str:
    """A sample size for a claim text (3 significant digits)."""
    return f"{n:,.0f}" if n < 1e6 else f"{n:.2g}"


def ratio_ci(values, level: float, rng: np.random.Generator, n_boot: int) -> tuple[float, float, float]:
    """mean(values) / level with the percentile bootstrap CI of the mean (runs resampled)."""
    v = np.asarray(values, dtype=float)
    boots = v[rng.integers(0, v.size, size=(max(n_boot, 1), v.size))].mean(axis=1)
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return float(v.mean() / level), float(lo / level), float(hi / level)


def at_floor(ratio: float, lo: float, hi: float, rel: float = REL_TIE) -> bool:
    """The ratio to the trivial policy's level is indistinguishable from 1 (module docstring)."""
    return bool(abs(ratio - 1.0) <= max(rel, (hi - lo) / 2.0))


def left_floor(ratio: float, lo: float, hi: float, rel: float = REL_REGIME) -> bool:
    """Significantly below the trivial policy's level, and by more than ``rel`` (a rate claim's
    regime, module docstring)."""
    return bool(hi < 1.0 and not at_floor(ratio, lo, hi, rel))


def regime(ratio: float, lo: float, hi: float, what: str, needed: str = "") -> dict:
    """Evidence fields of a learning-rate claim's regime (module docstring)."""
    reached = left_floor(ratio, lo, hi)
    note = f"{what} = {ratio:.3g} [{lo:.3g}, {hi:.3g}]"
    if not reached:
        note += " (not below the uniform policy's: the algorithm has not started learning)"
        if needed:
            note += f"; {needed}"
    return {"regime": reached, "regime_note": note}


def needed_n(eps: float, eps_ref: float, n_ref: float) -> float:
    """n at which eps reaches the n eps^2 at which eps_ref left the floor (module docstring)."""
    return float(n_ref * (eps_ref / eps) ** 2)


def onset(ns, groups, level: float, rng: np.random.Generator, n_boot: int) -> float | None:
    """The smallest n (of a sorted grid) from which on every cell is off the floor
    (:func:`left_floor` of mean regret / (n level)), or None."""
    ok = [left_floor(*ratio_ci(g, n * level, rng, n_boot)) for n, g in zip(ns, groups, strict=True)]
    for i in range(len(ok)):
        if all(ok[i:]):
            return float(ns[i])
    return None


def floor_cells(groups, levels, rng: np.random.Generator, n_boot: int) -> list[bool]:
    """Per group of runs: at the floor (its mean / its level indistinguishable from 1)."""
    return [at_floor(*ratio_ci(g, lv, rng, n_boot)) for g, lv in zip(groups, levels, strict=True)]


@dataclass
class OrderStatus:
    """One order criterion on one set of curves: ``status`` "pass", "fail" or "untestable"."""

    status: str
    rho: float
    at_floor: list[bool] = field(default_factory=list)
    reversal: str = ""


def order_status(xs, groups, levels, rng: np.random.Generator, n_boot: int, sign: int = -1,
                 threshold: float = 0.8, paired: bool = True, alpha: float = 0.05, extra_ok: bool = True,
                 strict: bool = False) -> OrderStatus:
    """Spearman rho(xs, mean of each group) must satisfy ``sign * rho >= threshold`` (sign -1: the
    means decrease in x), with ``extra_ok`` (e.g. an end-to-end significance test) as well; ``strict``
    asks for rho = sign exactly. ``levels``: each group's trivial-policy level (the floor). An
    order that holds without its test being significant is "undecided".

    Groups indistinguishable from their floor (:func:`at_floor`) count as tied at it: rho is
    computed with their means set to the floor, so noise among them can neither make nor break
    the order. A failure is ``untestable`` when two or more groups sit at the floor and no
    adjacent pair with a group off the floor is significantly in the wrong order (one-sided
    paired Wilcoxon under common random numbers, else Mann-Whitney; Holm at ``alpha``); a
    significant reversal is always a failure."""
    floors = floor_cells(groups, levels, rng, n_boot)
    means = [float(lv) if f else float(np.mean(g)) for g, lv, f in zip(groups, levels, floors, strict=True)]
    rho = spearman(xs, means)
    ok = (math.isclose(rho, sign) if strict else sign * rho >= threshold) and extra_ok
    if ok:
        return OrderStatus("pass", rho, floors)
    if not extra_ok and (math.isclose(rho, sign) if strict else sign * rho >= threshold):
        return OrderStatus("undecided", rho, floors)  # the order holds, its test is not significant
    test = wilcoxon_less if paired else mann_whitney_less
    pairs = [i for i in range(len(groups) - 1) if not (floors[i] and floors[i + 1])]
    # wrong order for sign -1 (decreasing): the later group significantly larger than the earlier
    pvals = [test(groups[i], groups[i + 1]) if sign < 0 else test(groups[i + 1], groups[i]) for i in pairs]
    reject, _ = holm(pvals, alpha) if pvals else (np.zeros(0, dtype=bool), None)
    if reject.any():
        i = pairs[int(np.flatnonzero(reject)[0])]
        return OrderStatus("fail", rho, floors, f"significant reversal between x = {xs[i]:g} and {xs[i + 1]:g}")
    if sum(floors) >= 2:
        return OrderStatus("untestable", rho, floors)
    return OrderStatus("fail", rho, floors)


def cell_status(p: float, p_reverse: float, alpha: float = 0.05, alpha_fail: float = CONTRADICT_ALPHA) -> str:
    """One comparison whose claim is one-sided (e.g. the regret is lower with auxiliary data):
    "pass" when the claimed direction's one-sided test is significant (``p < alpha``), "fail"
    when the contradiction's test is (``p_reverse < alpha_fail``, :func:`contradiction_p`: the
    runs show a tie or a reversal), else "undecided". For a claim that holds, a "fail" happens
    with probability at most ``alpha_fail`` (module docstring). In a family, pass the Holm
    decisions as 0 / 1."""
    if p < alpha:
        return "pass"
    return "fail" if p_reverse < alpha_fail else "undecided"


def contradiction_p(low, high, margin: float = REL_TIE) -> float:
    """One-sided p-value of the contradiction of a claim "``low`` below ``high``" on average
    (pairs by position): the mean of ``low`` is not below the mean of ``high`` by more than
    ``margin`` of the latter (a tie within the margin, or a reversal). A paired t-test of the
    mean difference, not a rank test: the figures plot means, and a change that moves a few runs
    a long way (most runs unchanged) is an effect on the mean that a signed-rank test of the
    median would call a tie (Figure 9(c)'s cells are like that). Every difference equal: 0 or 1."""
    high = np.asarray(high, dtype=float)
    d = np.asarray(low, dtype=float) - high + margin * abs(float(high.mean()))
    if np.ptp(d) == 0:
        return 0.0 if d[0] > 0 else 1.0
    return float(sps.ttest_1samp(d, 0.0, alternative="greater").pvalue)


def contradicted(p_reverse, alpha_fail: float = CONTRADICT_ALPHA) -> list[bool]:
    """Which cells of a family contradict its claim: Holm at ``alpha_fail`` over the testable
    cells' :func:`contradiction_p` values, so that a claim that holds in every cell is FAILed with
    probability at most ``alpha_fail`` however many cells it has."""
    if len(p_reverse) == 0:
        return []
    return [bool(r) for r in holm(list(p_reverse), alpha_fail)[0]]


def family_verdict(statuses, need: float) -> tuple[str, int, int]:
    """A claim that must hold in a fraction ``need`` of cells, judged on the testable cells
    (statuses "pass", "fail", "undecided"; "untestable" cells are left out): (verdict, passed,
    tested). PASS when the passing cells reach the fraction, FAIL when the failing ones leave it
    out of reach, INCONCLUSIVE otherwise. No testable cell: FAIL on the raw criterion, for the
    floor guard to turn into no_power."""
    passed = sum(s == "pass" for s in statuses)
    failed = sum(s == "fail" for s in statuses)
    tested = sum(s != "untestable" for s in statuses)
    if tested == 0:
        return "FAIL", 0, 0
    if passed >= need * tested - 1e-12:
        return "PASS", passed, tested
    if tested - failed < need * tested - 1e-12:
        return "FAIL", passed, tested
    return "INCONCLUSIVE", passed, tested


def rho_null_probability(k: int, threshold: float, sign: int = -1, strict: bool = False) -> float:
    """Probability that Spearman's rho of k exchangeable means meets the criterion (no ties):
    exact over the k! orders for k <= 8, else a fixed-seed Monte Carlo of 20,000 orders."""
    base = np.arange(k)

    def meets(rho):
        return math.isclose(rho, sign) if strict else sign * rho >= threshold - 1e-12

    def rho_of(perm):
        d = base - np.asarray(perm)
        return 1 - 6 * float(d @ d) / (k * (k * k - 1))

    if k <= 8:
        hits = sum(meets(rho_of(p)) for p in itertools.permutations(range(k)))
        return hits / math.factorial(k)
    gen = np.random.default_rng(20210215)
    return float(np.mean([meets(rho_of(gen.permutation(k))) for _ in range(20000)]))


def binomial_tail(passed: int, tested: int, p0: float) -> float:
    """P(Binomial(tested, p0) >= passed): the chance that ``passed`` of ``tested`` cells meet a
    criterion each meets with probability p0 under the null of no effect."""
    if tested == 0:
        return 1.0
    return float(sps.binom.sf(passed - 1, tested, min(max(p0, 0.0), 1.0)))


def over_radius_c(rows: dict[float, Claim], describe: Callable[[float, Claim], str]) -> Claim:
    """One row judged over the radius constant the paper leaves open (module docstring).

    ``rows``: the same row computed at each c run (C_n = c ln n; the released code's c,
    :data:`dpbandits.contextual.config.CODE_RADIUS_C`, is required: its row carries the statistic, the
    CI and the evidence); ``describe(c, row)`` says what one c gave (a statistic with its CI). Each
    c's row is judged on its own evidence (:func:`dpbandits.evidence.guards.judge`: a rate outside
    its regime, or a PASS without power, is INCONCLUSIVE there). When every c gives the same
    verdict, the code's row stands (its verdict and evidence, the guards apply as before);
    otherwise the row is INCONCLUSIVE: the verdict depends on a constant the paper leaves open."""
    code = rows[CODE_RADIUS_C]
    if len(rows) == 1 or code.verdict == "REPORT":
        return code
    judged = {c: judge(r) for c, r in sorted(rows.items())}
    per = "; ".join(f"c = {c:.3g}: {describe(c, rows[c])}, {j.verdict}"
                    + (f" ({j.reason})" if j.verdict == "INCONCLUSIVE" else "") for c, j in judged.items())
    text = f"{code.claim}; over the radius constant the paper leaves open, C_n = c ln n ({per})"
    verdicts = {j.verdict for j in judged.values()}
    if len(verdicts) == 1:
        return replace(code, claim=text)
    holds = {v: ", ".join(f"{c:.3g}" for c, j in judged.items() if j.verdict == v) for v in ("PASS", "FAIL")}
    where = "; ".join(f"{v} at c = {cs}" for v, cs in holds.items() if cs)
    return replace(code, verdict="INCONCLUSIVE",
                   claim=f"{text}: the verdict depends on a constant the paper leaves open" + (f" ({where})" if where else ""))
