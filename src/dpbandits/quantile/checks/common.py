"""Helpers shared by the quantile check modules: the claim-row builder, the verdict of a family
of rate claims ("event rate <= target") and of a family of equivalence claims ("two groups of runs
have the same mean"), and the evidence a row carries for :mod:`dpbandits.evidence.guards`.

Evidence conventions of this paper (the registry's :class:`dpbandits.evidence.registry.Guard` records say
which rows need which). Every power evidence names the kind of wrong paper its alternative is
(``power_form``, :data:`dpbandits.evidence.claims.POWER_FORMS`); a PASS whose alternative is not a
way the paper could be wrong (a straw man: runs without common random numbers, labels shuffled)
carries no form, and the guards make it INCONCLUSIVE ``no_power``:

* a PASS of a Holm family of one-sided binomial tests (:class:`RateFamily`, :func:`no_event_claim`)
  is itself a significant test at family level alpha whose null is a failure rate at or above the
  stated level (``rate_exceeded``); a PASS of an equivalence family (:class:`EqualFamily`) one whose
  null is the stated equality off by the band's factor (``constant_off``);
* a PASS of a CI-in-band rule (slopes, constants) carries the verdict the same rule gives when
  its CI is shifted to a stated competing law (:func:`alternative_power`; the caller names its form);
* an exact (deterministic) check carries the verdict of the same rule on a stated perturbed law,
  computed in the check (:func:`exact_power`; the caller names its form, or none for a straw man);
* censoring at a cap is a ceiling: a comparison of groups whose runs hit the cap is tied there
  (:func:`censored_floor`); a scaling claim is judged only on uncensored runs
  (:func:`uncensored_regime`).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy import stats as sps

from dpbandits.evidence.checks import claim_row
from dpbandits.evidence.guards import checked_power_form, shifted_ci_power
from dpbandits.evidence.slopes import slope_row
from dpbandits.stats import bootstrap_ratio_of_means, clopper_pearson, holm

__all__ = ["PAPER", "claim", "rate_family", "RateFamily", "rate_claim", "slope_claim", "EqualFamily",
           "spearman_with_ci", "no_event_claim", "alternative_power", "exact_power", "censored_floor",
           "uncensored_regime", "ci_test", "shuffled_groups"]

PAPER = "quantile"
claim = partial(claim_row, PAPER)


def ci_test(verdict: str, what: str = "the claim", *, form: str) -> dict:
    """Evidence of a PASS that is itself a significant test: a 95% CI (percentile bootstrap) lies
    on the claim's side of its limit, so a false claim passes with probability <= 2.5%.
    ``form``: the kind of wrong paper the test's null is (:data:`POWER_FORMS`; "" for a null that
    is not a way the paper could be wrong)."""
    return {"power": "test" if verdict == "PASS" else None, "power_form": checked_power_form(form, straw_man=True),
            "power_note": f"one-sided test of {what}: the 95% CI excludes the null (level 2.5%)"}


def alternative_power(value: float, lo: float, hi: float, alternative: float, band: tuple[float, float],
                      label: str, *, form: str) -> dict:
    """Power of a CI-in-band rule against a stated competing law: the verdict of the same rule
    with the CI shifted to the law's value (same width, same runs); :func:`shifted_ci_power`.
    ``form``: the kind of wrong paper the law is (:data:`POWER_FORMS`); ``label`` says which."""
    return shifted_ci_power(value, lo, hi, alternative, band[0], band[1], label, form=form)


def exact_power(verdict: str, note: str, *, form: str) -> dict:
    """Power of an exact check: the verdict the same rule gives on a stated perturbed law,
    computed by the check itself. ``form``: the kind of wrong paper the perturbed law is
    (:data:`POWER_FORMS`), or "" when it is not a way the paper could be wrong (a straw man: the
    guards then make a PASS INCONCLUSIVE ``no_power``)."""
    return {"power": verdict, "power_note": note, "power_form": checked_power_form(form, straw_man=True)}


def censored_floor(terminated_groups, what: str = "the compared groups") -> dict:
    """Floor guard of a comparison of runs that may hit a cap: tied at the ceiling when some
    compared group has a majority of censored runs (its mean is then the cap's, not the law's)."""
    rates = [1.0 - float(np.mean(np.asarray(t, dtype=bool))) for t in terminated_groups]
    worst = max(rates) if rates else 0.0
    tied = worst > 0.5
    note = (f"{what}: up to {worst:.0%} of runs censored at the cap" if worst > 0 else f"{what}: no run censored")
    return {"floor": tied, "floor_note": note}


def uncensored_regime(terminated, what: str = "runs") -> dict:
    """Regime of a scaling claim on sample counts: every run terminated before its cap (a censored
    run's count is the cap, which flattens the law)."""
    t = np.asarray(terminated, dtype=bool)
    censored = int((~t).sum())
    return {"regime": censored == 0,
            "regime_note": f"every one of {t.size} {what} terminated before the cap" if censored == 0 else
            f"{censored} of {t.size} {what} censored at the cap; a larger cap is needed"}


class RateFamily:
    """Verdict of a family of claims "P(event) <= target" from (events, runs, target) per member.

    Two one-sided binomial tests per member, each family Holm-corrected at ``alpha``: FAIL if Holm
    rejects some "rate <= target" (a violation is shown), PASS if Holm rejects every
    "rate >= target" (every rate is shown to be below its target), INCONCLUSIVE otherwise. A PASS
    is therefore a significant test: a family with some rate above its target passes with
    probability <= alpha (``evidence``). The reported statistic is the worst member's rate /
    target with its one-sided Clopper-Pearson bounds at level alpha / members each (the Bonferroni
    step of the Holm tests: the upper end is below 1 for the worst member of a PASS), scaled by
    the target.
    """

    def __init__(self, events, runs, targets, alpha: float = 0.05):
        self.events = np.asarray(events, dtype=int)
        self.runs = np.asarray(runs, dtype=int)
        self.targets = np.asarray(targets, dtype=float)
        self.alpha = alpha
        m = self.events.size
        p_fail = sps.binom.sf(self.events - 1, self.runs, self.targets)  # P(X >= E | p = target)
        p_pass = sps.binom.cdf(self.events, self.runs, self.targets)  # P(X <= E | p = target)
        fail, _ = holm(p_fail, alpha)
        ok, _ = holm(p_pass, alpha)
        self.verdict = "FAIL" if fail.any() else "PASS" if ok.all() else "INCONCLUSIVE"
        lo, hi = clopper_pearson(self.events, self.runs, alpha=2 * alpha / max(m, 1))
        ratio_hi = hi / self.targets
        self.worst = int(np.argmax(ratio_hi))
        self.value = float(self.events[self.worst] / self.runs[self.worst] / self.targets[self.worst])
        self.lo = float(lo[self.worst] / self.targets[self.worst])
        self.hi = float(ratio_hi[self.worst])
        self.total_runs = int(self.runs.sum())
        self.total_events = int(self.events.sum())
        self.members = m
        self.max_p_pass = float(p_pass.max())

    @property
    def evidence(self) -> dict:
        """A PASS is a significant test (Holm at family level alpha) whose null, some rate at or
        above its target (the level the paper states), is a way the paper could be wrong."""
        return {"power": "test" if self.verdict == "PASS" else None, "power_form": "rate_exceeded",
                "power_note": (f"Holm over {self.members} one-sided binomial tests of 'rate >= target' at family "
                               f"level {self.alpha:g} (largest p = {self.max_p_pass:.2g}): a family with some rate "
                               "at or above its stated target passes with probability <= "
                               f"{self.alpha:g}")}


def rate_family(events, runs, targets, alpha: float = 0.05) -> RateFamily:
    return RateFamily(events, runs, targets, alpha)


def no_event_claim(check_id, source, kind, text, what, events, runs, targets, scale, alpha: float = 0.05):
    """A figure's "every run is correct" reading: PASS with zero events; otherwise FAIL if the
    events also contradict the theorem's rate (Holm, :class:`RateFamily`), INCONCLUSIVE if not.
    Statistic: the pooled event rate with its Clopper-Pearson interval. Power of a PASS: the
    pooled one-sided binomial test of "rate >= the smallest target" (zero events in n runs), whose
    null, an event rate at the smallest level the theorem states, is a way it could be wrong."""
    fam = RateFamily(events, runs, targets, alpha)
    total, n = int(np.sum(events)), int(np.sum(runs))
    lo, hi = clopper_pearson(total, n, alpha)
    verdict = "PASS" if total == 0 else "FAIL" if fam.verdict == "FAIL" else "INCONCLUSIVE"
    target = float(np.min(targets))
    p = float(sps.binom.cdf(total, n, target))
    row = claim(check_id, source, kind, f"{text} ({total} {what} in {n} runs)", f"{what} rate (CP CI)",
                total / n, float(lo), float(hi), f"no {what} (a rate above delta would FAIL)", verdict, n, scale)
    return row.with_evidence(
        power="test" if verdict == "PASS" and p < alpha else None, power_form="rate_exceeded",
        power_note=(f"an event rate of {target:g} (the smallest stated delta): pooled one-sided binomial test of "
                    f"'rate >= {target:g}', p = {p:.2g} ({total} of {n} runs)"))


def rate_claim(check_id, source, kind, text, statistic, fam: RateFamily, scale):
    """A "rate <= delta" claim judged on a :class:`RateFamily` (Holm over its cells); statistic:
    the worst rate / delta with its one-sided Clopper-Pearson bounds (Bonferroni)."""
    row = claim(check_id, source, kind, text, statistic, fam.value, fam.lo, fam.hi, "every rate <= delta (Holm)",
                fam.verdict, fam.total_runs, scale)
    return row.with_evidence(**fam.evidence)


def slope_claim(check_id, source, kind, text, statistic, fit, band, n_runs, scale,
                alternative: tuple[float, str, str] | None = None, ci: tuple[float, float] | None = None):
    """A log-log slope claim judged on its CI (Monte Carlo noise and lack of fit,
    :func:`dpbandits.stats.fit_line`; ``ci`` overrides it, e.g. widened by an allowance) against
    a band. ``alternative`` = (slope of a stated competing law, its label, the kind of wrong paper
    it is, :data:`POWER_FORMS`): the power evidence. Built by the one slope-row builder,
    :func:`dpbandits.evidence.slopes.slope_row`."""
    note = "" if fit.lof_assessed else " (2 points: lack of fit not assessed)"
    return slope_row(PAPER, check_id, source, kind, text + note, statistic, fit, band, n_runs, scale, ci=ci,
                     alternative=alternative)


class EqualFamily:
    """Equivalence test of a family of claims "two groups of runs have the same mean" (e.g. SEQ
    on xi = 1 vs xi = 1e-5, Gaussian vs log-normal), from independent groups.

    Each member's ratio of means gets a percentile bootstrap CI at level 1 - 2 alpha / m (each
    one-sided bound at alpha / m, Bonferroni over the m members). The equivalence band is
    [1/tol, tol]:

    * PASS when every member's CI lies inside the band: the two one-sided tests (TOST) show every
      ratio inside it, so a family with some ratio outside the band passes with probability
      <= alpha (``evidence``: a significant test);
    * FAIL when some member's CI lies entirely outside the band: a ratio is shown outside it;
    * INCONCLUSIVE otherwise (a CI straddles an end of the band).

    A difference a rank test can detect but that lies inside the band is not a FAIL: the claim
    is equivalence within the band, not equality of distributions. The statistic is the member
    whose CI reaches farthest from 1 (for a FAIL, the member shown outside).
    """

    def __init__(self, pairs, rng: np.random.Generator, n_boot: int, alpha: float = 0.05, tol: float = 1.25):
        if tol <= 1:
            raise ValueError(f"EqualFamily: tol must be > 1, got {tol}")
        m = len(pairs)
        if m == 0:
            raise ValueError("EqualFamily: need at least one pair of groups")
        self.alpha, self.tol, self.members = alpha, tol, m
        level = 1 - 2 * alpha / m
        cis = [bootstrap_ratio_of_means(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rng, n_boot, level)
               for a, b in pairs]
        inside = [1 / tol <= lo and hi <= tol for _, lo, hi in cis]
        outside = [lo > tol or hi < 1 / tol for _, lo, hi in cis]
        self.verdict = "FAIL" if any(outside) else "PASS" if all(inside) else "INCONCLUSIVE"
        far = [max(abs(math.log(lo)), abs(math.log(hi))) for _, lo, hi in cis]
        self.worst = outside.index(True) if any(outside) else int(np.argmax(far))
        self.value, self.lo, self.hi = cis[self.worst]
        self.n_outside = int(sum(outside))
        self.n_inside = int(sum(inside))
        self.cis = cis

    @property
    def criterion(self) -> str:
        return (f"every ratio CI (Bonferroni) within [{1 / self.tol:g}, {self.tol:g}] (FAIL: some CI outside it)")

    @property
    def evidence(self) -> dict:
        """A PASS is a significant test whose null, the stated equality of the two groups' means
        off by the band's factor ``tol`` or more, is a way the paper could be wrong."""
        return {"power": "test" if self.verdict == "PASS" else None, "power_form": "constant_off",
                "power_note": (f"the stated equality off by a factor {self.tol:g} (some ratio of means outside "
                               f"[{1 / self.tol:g}, {self.tol:g}]): equivalence (TOST) at family level {self.alpha:g} "
                               f"passes such a family with probability <= {self.alpha:g}")}


def shuffled_groups(groups, rng: np.random.Generator) -> list[np.ndarray]:
    """The runs of ``groups`` pooled and dealt back at random into groups of the same sizes: the
    law with the effect of x removed (the negative control of an ordering claim)."""
    groups = [np.asarray(g, dtype=float) for g in groups]
    pooled = rng.permutation(np.concatenate(groups))
    return np.split(pooled, np.cumsum([g.size for g in groups])[:-1])


def spearman_with_ci(x, groups, rng: np.random.Generator, n_boot: int) -> tuple[float, float, float]:
    """Spearman correlation of the group means with x, with a bootstrap CI (runs resampled); 0 for
    constant means (no trend)."""
    groups = [np.asarray(g, dtype=float) for g in groups]

    def rho_of(means) -> float:  # constant means have no trend: rho = 0
        return 0.0 if np.ptp(means) == 0 else float(sps.spearmanr(x, means).statistic)

    rho = rho_of(np.array([g.mean() for g in groups]))
    boots = np.column_stack([g[rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1) for g in groups])
    rhos = np.array([rho_of(row) for row in boots])
    lo, hi = np.quantile(rhos, [0.025, 0.975])
    return rho, float(lo), float(hi)
