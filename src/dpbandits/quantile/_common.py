"""Helpers shared by the quantile check modules: the claim-row builder and the verdict of a
family of rate claims ("event rate <= target")."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from scipy import stats as sps

from dpbandits.checks import band_verdict, claim_row
from dpbandits.stats import clopper_pearson, holm

__all__ = ["PAPER", "claim", "rate_family", "RateFamily", "slope_claim", "EqualFamily", "spearman_with_ci",
           "no_event_claim"]

PAPER = "quantile"
claim = partial(claim_row, PAPER)


class RateFamily:
    """Verdict of a family of claims "P(event) <= target" from (events, runs, target) per member.

    Two one-sided binomial tests per member, each family Holm-corrected at ``alpha``: FAIL if Holm
    rejects some "rate <= target" (a violation is shown), PASS if Holm rejects every
    "rate >= target" (every rate is shown to be below its target), INCONCLUSIVE otherwise. The
    reported statistic is the worst member's rate / target with its Clopper-Pearson interval
    (Bonferroni level alpha / members), scaled by the target.
    """

    def __init__(self, events, runs, targets, alpha: float = 0.05):
        self.events = np.asarray(events, dtype=int)
        self.runs = np.asarray(runs, dtype=int)
        self.targets = np.asarray(targets, dtype=float)
        m = self.events.size
        p_fail = sps.binom.sf(self.events - 1, self.runs, self.targets)  # P(X >= E | p = target)
        p_pass = sps.binom.cdf(self.events, self.runs, self.targets)  # P(X <= E | p = target)
        fail, _ = holm(p_fail, alpha)
        ok, _ = holm(p_pass, alpha)
        self.verdict = "FAIL" if fail.any() else "PASS" if ok.all() else "INCONCLUSIVE"
        lo, hi = clopper_pearson(self.events, self.runs, alpha=alpha / max(m, 1))
        ratio_hi = hi / self.targets
        self.worst = int(np.argmax(ratio_hi))
        self.value = float(self.events[self.worst] / self.runs[self.worst] / self.targets[self.worst])
        self.lo = float(lo[self.worst] / self.targets[self.worst])
        self.hi = float(ratio_hi[self.worst])
        self.total_runs = int(self.runs.sum())
        self.total_events = int(self.events.sum())


def rate_family(events, runs, targets, alpha: float = 0.05) -> RateFamily:
    return RateFamily(events, runs, targets, alpha)


def no_event_claim(check_id, source, kind, text, what, events, runs, targets, scale, alpha: float = 0.05):
    """A figure's "every run is correct" reading: PASS with zero events; otherwise FAIL if the
    events also contradict the theorem's rate (Holm, :class:`RateFamily`), INCONCLUSIVE if not.
    Statistic: the pooled event rate with its Clopper-Pearson interval."""
    fam = RateFamily(events, runs, targets, alpha)
    total, n = int(np.sum(events)), int(np.sum(runs))
    lo, hi = clopper_pearson(total, n, alpha)
    verdict = "PASS" if total == 0 else "FAIL" if fam.verdict == "FAIL" else "INCONCLUSIVE"
    return claim(check_id, source, kind, f"{text} ({total} {what} in {n} runs)", f"{what} rate (CP CI)",
                 total / n, float(lo), float(hi), f"no {what} (a rate above delta would FAIL)", verdict, n, scale)


def rate_claim(check_id, source, kind, text, statistic, fam: RateFamily, scale):
    """A "rate <= delta" claim judged on a :class:`RateFamily` (Holm over its cells); statistic:
    the worst rate / delta with its Clopper-Pearson interval."""
    return claim(check_id, source, kind, text, statistic, fam.value, fam.lo, fam.hi, "every rate <= delta (Holm)",
                 fam.verdict, fam.total_runs, scale)


def slope_claim(check_id, source, kind, text, statistic, fit, band, n_runs, scale):
    """A log-log slope claim judged on its bootstrap CI against a band."""
    verdict = band_verdict(fit.ci_low, fit.ci_high, *band)
    lo = "-inf" if math.isinf(band[0]) else f"{band[0]:g}"
    hi = "inf" if math.isinf(band[1]) else f"{band[1]:g}"
    return claim(check_id, source, kind, text, statistic, fit.slope, fit.ci_low, fit.ci_high,
                 f"slope CI within [{lo}, {hi}]", verdict, n_runs, scale)


class EqualFamily:
    """Verdict of a family of claims "two groups of runs have the same mean" (e.g. SEQ on xi = 1
    vs xi = 1e-5, Gaussian vs log-normal), from independent groups.

    FAIL if a Holm-corrected two-sided Mann-Whitney test rejects equal distributions somewhere;
    PASS if every bootstrap CI of the ratio of means (Bonferroni level) lies inside the
    equivalence band [1/tol, tol]; INCONCLUSIVE otherwise. The statistic is the member whose CI
    reaches farthest from 1.
    """

    def __init__(self, pairs, rng: np.random.Generator, n_boot: int, alpha: float = 0.05, tol: float = 1.25):
        from dpbandits.stats import bootstrap_ratio_of_means

        m = len(pairs)
        p_values, cis = [], []
        for a, b in pairs:
            a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
            same = np.ptp(np.concatenate([a, b])) == 0
            p_values.append(1.0 if same else float(sps.mannwhitneyu(a, b, alternative="two-sided").pvalue))
            cis.append(bootstrap_ratio_of_means(a, b, rng, n_boot, level=1 - alpha / m))
        reject, _ = holm(p_values, alpha)
        inside = [1 / tol <= lo and hi <= tol for _, lo, hi in cis]
        self.verdict = "FAIL" if reject.any() else "PASS" if all(inside) else "INCONCLUSIVE"
        far = [max(abs(math.log(lo)), abs(math.log(hi))) for _, lo, hi in cis]
        self.worst = int(np.argmax(far))
        self.value, self.lo, self.hi = cis[self.worst]
        self.min_p = float(min(p_values))
        self.n_rejected = int(reject.sum())


def spearman_with_ci(x, groups, rng: np.random.Generator, n_boot: int) -> tuple[float, float, float]:
    """Spearman correlation of the group means with x, with a bootstrap CI (runs resampled)."""
    groups = [np.asarray(g, dtype=float) for g in groups]
    rho = float(sps.spearmanr(x, [g.mean() for g in groups]).statistic)
    boots = np.column_stack([g[rng.integers(0, g.size, size=(n_boot, g.size))].mean(axis=1) for g in groups])
    rhos = np.array([sps.spearmanr(x, row).statistic for row in boots])
    lo, hi = np.quantile(rhos, [0.025, 0.975])
    return rho, float(lo), float(hi)
