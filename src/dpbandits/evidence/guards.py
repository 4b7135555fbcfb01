"""The guards every verdict passes through, enforced by the registry for every row of every check
(docs/verdicts.md), and the evidence helpers the checks use.

A check computes its statistic and a raw verdict; :func:`judge` turns it into the verdict a
reviewer can quote, with its ``reason`` (:data:`dpbandits.evidence.claims.REASONS`):

1. ``report`` rows are informational; rows that are not claims of the paper (kinds ``control``,
   ``sanity``, ``identity``) are ``validated`` / ``violated`` and never count as the paper's.
2. A claim about real data judged on surrogate data is INCONCLUSIVE (``surrogate_data``), never a
   PASS or a FAIL.
3. A comparison or ordering whose quantities are indistinguishable at a floor or ceiling (ties,
   every curve at the trivial policy's regret, every run censored) is INCONCLUSIVE (``no_power``).
4. A rate or slope claim whose constant the paper leaves open may PASS or FAIL only where its
   regime is reached (e.g. the algorithm significantly below the trivial policy's regret);
   otherwise it is INCONCLUSIVE (``pre_asymptotic``), and the claim text says what n would be
   needed when the check can estimate it. A regime reached with too few grid points in it for a
   rate with lack of fit is INCONCLUSIVE ``too_few_points``.
5. A PASS needs evidence of power against a wrong paper: the same rule at the same sample size
   FAILs a stated alternative (a perturbed law, a shifted CI, an exact computation), or the PASS
   is itself a significant test at a stated level, and the alternative (the test's null) is a
   way *the paper* could be wrong, of the claim's own form (``Evidence.power_form``, one of
   :data:`dpbandits.evidence.claims.POWER_FORMS`: an exponent off by the band's margin, the
   effect absent, a stated constant off by a factor, a bound violated, a rate above its level).
   Without it (no alternative, or one of no stated form: a straw man) the verdict is
   INCONCLUSIVE (``no_power``).
   A privacy claim's alternative must be a wrong paper of the claim's form: a release that is at
   most 2 eps-DP, or the paper's own text read another way (:data:`PRIVACY_POWER_FORMS`); a
   control that removes the noise shows only that the audit sees a gross leak (``no_power``).
6. A FAIL is an ``erratum`` (kind erratum: an error shown exactly), ``not_reproduced`` (a figure's
   reading at the paper's own settings) or ``contradicted`` (false where the claim applies).
   An INCONCLUSIVE the check itself gave is ``no_power`` when its evidence says the check was
   blind there (``Evidence.blind``), ``unvalidated_pipeline`` when the pipeline does not reproduce
   the paper's reading with the authors' own code (``Evidence.unvalidated``), ``undecided``
   otherwise.
7. An ``identity`` row of a claim whose regime is not reached is INCONCLUSIVE ``pre_asymptotic``
   (an identity of the log T regime says nothing before it); otherwise rows that are not claims
   of the paper are ``validated`` / ``violated`` (rule 1).

:func:`judge` is the only writer of a row's reason: a check states evidence, never a reason.

Which rows are rate claims, comparisons or real-data claims is declared in the registry
(:class:`Guard` on a :class:`dpbandits.evidence.registry.Check`), not left to each check: a row a guard
covers must carry the evidence the guard needs (:class:`dpbandits.evidence.claims.Evidence`), or the check
fails loudly (:class:`GuardError`) instead of producing an unguarded verdict.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np

from dpbandits.evidence.checks import band_verdict
from dpbandits.evidence.claims import (
    NON_PAPER_KINDS,
    POWER_FORMS,
    PRIVACY_POWER_FORMS,
    Claim,
    Evidence,
)
from dpbandits.evidence.registry import Guard

__all__ = ["Guard", "GuardError", "judge", "judge_all", "shifted_ci_power", "rate_power",
           "significant", "below_trivial", "tied", "PRIVACY_ALTERNATIVE", "privacy_power",
           "BOUND_VIOLATION", "violated_bound_power", "violated_bound_power_over_cells", "checked_power_form"]

# The weakest wrong paper a privacy claim's PASS must be powered against: a release whose privacy
# loss is twice the claimed eps (by its accounting, or computed exactly).
PRIVACY_ALTERNATIVE = 2.0
# The wrong paper an explicit bound's PASS is powered against: the bound violated by this factor
# where it is tightest (a stated constant off by a factor 2).
BOUND_VIOLATION = 2.0


class GuardError(ValueError):
    """A row a registry guard covers lacks the evidence that guard needs (a defect of the check)."""


def _note(claim: Claim, text: str) -> str:
    return f"{claim.claim} [{text}]" if text else claim.claim


def _inconclusive(claim: Claim, reason: str, why: str) -> Claim:
    was = f"{claim.verdict} on its own criterion" if claim.verdict != "INCONCLUSIVE" else ""
    text = "; ".join(t for t in (why, was) if t)
    return replace(claim, verdict="INCONCLUSIVE", reason=reason, claim=_note(claim, f"{reason}: {text}"))


def _required(claim: Claim, ev: Evidence, guards: Sequence[Guard], check: str) -> Evidence:
    """The evidence a claim row must carry under ``guards`` (raises GuardError when missing)."""
    for g in guards:
        if not g.covers(claim.check_id) or claim.verdict == "REPORT" or claim.kind in NON_PAPER_KINDS:
            continue
        if g.regime and ev.regime is None:
            raise GuardError(f"check {check}, row {claim.check_id}: the registry says it applies where "
                             f"'{g.regime}'; the row must report evidence.regime")
        if g.compares and ev.floor is None:
            raise GuardError(f"check {check}, row {claim.check_id}: a comparison must report evidence.floor "
                             "(are the compared quantities tied at a floor or ceiling?)")
        if g.claim_on == "real":
            if ev.data == "synthetic":
                raise GuardError(f"check {check}, row {claim.check_id}: a claim about real data must report "
                                 "evidence.data ('real' or 'surrogate')")
            ev = replace(ev, claim_on="real")
        if g.alternative and not ev.power_note:
            ev = replace(ev, power_note=g.alternative)
    return ev


def _own_inconclusive(claim: Claim, ev: Evidence) -> Claim:
    """An INCONCLUSIVE the check itself gave, with the reason its evidence states (rule 6)."""
    reason = "no_power" if ev.blind else "unvalidated_pipeline" if ev.unvalidated else "undecided"
    return replace(claim, reason=reason)


def judge(claim: Claim, guards: Sequence[Guard] = (), check: str = "") -> Claim:
    """The row with its final verdict and reason (module docstring); a row arrives without a
    reason (its check states evidence instead)."""
    if claim.reason:
        raise GuardError(f"check {check or claim.check_id}, row {claim.check_id}: a check does not write a reason "
                         f"(got {claim.reason!r}); it states the evidence (Evidence) the guards judge")
    ev = _required(claim, claim.evidence or Evidence(), guards, check or claim.check_id)
    claim = replace(claim, evidence=ev)
    if claim.verdict == "REPORT":
        return replace(claim, reason="informational")
    if claim.kind in NON_PAPER_KINDS:
        if claim.kind == "identity" and ev.regime is False:
            return _inconclusive(claim, "pre_asymptotic", ev.regime_note or "the regime is not reached")
        if claim.verdict == "PASS":
            return replace(claim, reason="validated")
        if claim.verdict == "FAIL":
            return replace(claim, reason="violated")
        return _own_inconclusive(claim, ev)
    if ev.claim_on == "real" and ev.data == "surrogate":
        return _inconclusive(claim, "surrogate_data",
                             "a claim about the paper's real data, judged on a surrogate dataset")
    if ev.floor:
        return _inconclusive(claim, "no_power", ev.floor_note or "the compared quantities are tied at a floor")
    if ev.regime is False:
        return _inconclusive(claim, "pre_asymptotic", ev.regime_note or "the claim's regime is not reached")
    if ev.too_few:
        return _inconclusive(claim, "too_few_points", ev.regime_note or "too few points in the claim's regime")
    if claim.verdict == "PASS":
        if claim.kind == "privacy" and ev.power in ("FAIL", "test") and ev.power_form not in PRIVACY_POWER_FORMS:
            return _inconclusive(claim, "no_power", f"power shown only against {ev.power_note or 'an unstated leak'}, "
                                 f"not against a release that is only {PRIVACY_ALTERNATIVE:g} eps-DP or the "
                                 "paper's own text read another way")
        if ev.power in ("FAIL", "test") and not ev.power_form:
            return _inconclusive(claim, "no_power", f"power shown only against {ev.power_note or 'an unstated alternative'}, "
                                 "an alternative not stated to be a way the paper could be wrong")
        if ev.power in ("FAIL", "test"):
            label = POWER_FORMS[ev.power_form]
            return replace(claim, reason="supported", claim=_note(claim, f"power against {label}: {ev.power_note}"
                                                                  if ev.power_note else f"power against {label}"))
        what = (f"the same rule gives {ev.power} on the alternative ({ev.power_note})" if ev.power
                else ev.power_note or "no evidence that the check could have failed")
        return _inconclusive(claim, "no_power", what)
    if claim.verdict == "FAIL":
        reason = {"erratum": "erratum", "figure": "not_reproduced"}.get(claim.kind, "contradicted")
        return replace(claim, reason=reason)
    return _own_inconclusive(claim, ev)


def judge_all(claims: Iterable[Claim], guards: Sequence[Guard] = (), check: str = "") -> list[Claim]:
    return [judge(c, guards, check) for c in claims]


# ---------------------------------------------------------------------------------------------
# Evidence helpers


def checked_power_form(form: str, *, straw_man: bool = False) -> str:
    """``form`` if it is one of :data:`POWER_FORMS` (the kind of wrong paper an alternative is),
    or "" when ``straw_man`` allows a call site to say its alternative is no way the paper could
    be wrong (the guards then judge the PASS ``no_power``); a ValueError naming the allowed forms
    otherwise."""
    if form in POWER_FORMS or (straw_man and form == ""):
        return form
    raise ValueError(f"power form must be one of {tuple(POWER_FORMS)}" + (" or '' (a straw man)" if straw_man else "")
                     + f" (the kind of wrong paper the alternative is), got {form!r}")


def shifted_ci_power(value: float, lo: float, hi: float, alternative: float, band_lo: float = -math.inf,
                     band_hi: float = math.inf, label: str = "", *, form: str) -> dict:
    """Power of a CI-in-band rule against a stated alternative value: the verdict the same rule
    gives when the statistic's sampling distribution is shifted to ``alternative`` (same width,
    same sample size). ``form``: the kind of wrong paper the alternative is (:data:`POWER_FORMS`).
    Returns Evidence fields."""
    shift = alternative - value
    verdict = band_verdict(lo + shift, hi + shift, band_lo, band_hi)
    note = (f"{label or 'alternative'} = {alternative:.4g}: the same CI shifted there "
            f"[{lo + shift:.4g}, {hi + shift:.4g}] gives {verdict}")
    return {"power": verdict, "power_note": note, "power_form": checked_power_form(form)}


def privacy_power(caught: bool, loss: float, what: str, found: str, form: str = "privacy_2eps") -> dict:
    """Power of a privacy check against a leaky variant (``what``) whose privacy loss is ``loss``
    times the claimed eps (by the mechanism's accounting, or computed exactly); ``found``: what the
    same check gave on it. Of the claim's form only when ``loss`` <= :data:`PRIVACY_ALTERNATIVE` (or
    ``form`` "paper_reading": the paper's own text read another way, whatever its loss); a grosser
    leak caught shows that the check sees gross leaks, and the PASS stays INCONCLUSIVE no_power.
    Returns Evidence fields."""
    if form == "privacy_2eps" and not loss <= PRIVACY_ALTERNATIVE + 1e-9:
        return {"power": None, "power_form": "",
                "power_note": (f"power shown only against {what}, a leak of {loss:.3g} eps, grosser than a release "
                               f"that is only {PRIVACY_ALTERNATIVE:g} eps-DP ({found})")}
    size = f", a release that is {loss:.3g} eps-DP" if form == "privacy_2eps" else ""
    return {"power": "FAIL" if caught else "PASS", "power_form": form,
            "power_note": f"{what}{size}: {found}"}


def violated_bound_power(value: float, lo: float, hi: float, upper: bool = True,
                         factor: float = BOUND_VIOLATION, label: str = "", ceiling: float = math.inf) -> dict:
    """Power of an explicit bound's rule (statistic / bound <= 1 when ``upper``, >= 1 otherwise,
    judged on its CI [lo, hi]) against the bound violated by ``factor`` where it is tightest: the
    statistic's CI scaled so that its point sits at ``factor`` (upper) or 1 / ``factor`` (lower),
    keeping its relative width (the runs of an algorithm whose cost is that many times larger).
    ``ceiling``: the largest value the statistic can take there (e.g. the regret of always playing
    the worst arm over the bound); a violation beyond it is impossible, so a bound that vacuous has
    no power. Returns Evidence fields."""
    target = factor if upper else 1.0 / factor
    if upper and target > ceiling:
        return {"power": "PASS", "power_form": "bound_violated",
                "power_note": (f"the bound is vacuous{f' ({label})' if label else ''}: no algorithm's statistic can "
                               f"exceed {ceiling:.3g} x the bound, so a violation by a factor {factor:g} is impossible")}
    c = target / value if value > 0 else math.inf
    slo, shi = lo * c, hi * c
    verdict = band_verdict(slo, shi, -math.inf, 1.0) if upper else band_verdict(slo, shi, 1.0, math.inf)
    where = f" ({label})" if label else ""
    note = (f"the bound violated by a factor {factor:g} where it is tightest{where}: the CI scaled there "
            f"[{slo:.4g}, {shi:.4g}] gives {verdict}")
    return {"power": verdict, "power_note": note, "power_form": "bound_violated"}


def violated_bound_power_over_cells(cells: Sequence[tuple[float, float, float, float, str]],
                                    factor: float = BOUND_VIOLATION) -> dict:
    """:func:`violated_bound_power` of an upper bound checked in every cell: ``cells`` are
    (value, lo, hi, ceiling, label) of statistic / bound. The alternative is the bound violated by
    ``factor`` in the tightest cell where such a violation is possible (``factor`` <= ceiling);
    where it is possible in no cell, the bound is vacuous and the rule has no power."""
    possible = [c for c in cells if factor <= c[3]]
    if not possible:
        return {"power": "PASS", "power_form": "bound_violated",
                "power_note": (f"the bound is vacuous in every cell: no algorithm's regret can exceed {factor:g} x the "
                               "bound (at most T max_j Delta_j)")}
    value, lo, hi, ceiling, label = max(possible, key=lambda c: c[2])
    return violated_bound_power(value, lo, hi, factor=factor, label=label, ceiling=ceiling)


def rate_power(n: int, limit: float, alternative: float, alpha: float = 0.05, label: str = "",
               form: str = "rate_exceeded") -> dict:
    """Power of 'rate <= limit, judged by the Clopper-Pearson CI of k / n': the verdict at the
    expected count of a stated alternative rate, at the same n (``form``: a rate above the stated
    level, unless the alternative is another kind of wrong paper)."""
    from dpbandits.stats import clopper_pearson

    k = min(n, int(round(alternative * n)))
    lo, hi = clopper_pearson(k, n, alpha)
    verdict = band_verdict(float(lo), float(hi), -math.inf, limit)
    note = (f"{label or 'rate'} = {alternative:.3g}: {k} of {n} gives CI [{float(lo):.3g}, {float(hi):.3g}], "
            f"{verdict}")
    return {"power": verdict, "power_note": note, "power_form": checked_power_form(form)}


def significant(p: float, alpha: float = 0.05, test: str = "", *, form: str) -> dict:
    """A PASS that is itself a significant test (p < alpha): a false claim passes with at most
    probability alpha. ``form``: the kind of wrong paper the test's null hypothesis is
    (:data:`POWER_FORMS`); a null that is not a way the paper could be wrong is a straw man."""
    return {"power": "test" if p < alpha else None, "power_form": checked_power_form(form),
            "power_note": f"{test or 'test'} significant at {alpha:g} (p = {p:.3g})"}


def below_trivial(ratio: float, lo: float, hi: float, what: str = "regret / the trivial policy's",
                  needed: str = "") -> dict:
    """Regime of a learning-rate claim: the algorithm is significantly below the trivial policy
    (the CI of its per-round regret over the trivial policy's lies below 1)."""
    reached = bool(hi < 1.0)
    note = f"{what} = {ratio:.3g} [{lo:.3g}, {hi:.3g}]" + ("" if reached else
                                                          "; not significantly below 1" + (f"; {needed}" if needed else ""))
    return {"regime": reached, "regime_note": note}


def tied(means: Sequence[float], spreads: Sequence[float], floor: float | None = None, rel: float = 0.02,
         what: str = "the compared means") -> dict:
    """Floor guard of a comparison: the compared means are indistinguishable from each other
    (within ``rel`` relative spread, or within their CIs' half-widths ``spreads``), and, when
    ``floor`` is given (e.g. the trivial policy's regret), from that floor."""
    m = np.asarray(means, dtype=float)
    s = np.asarray(spreads, dtype=float)
    scale = max(float(np.max(np.abs(m))), 1e-300)
    close = float(np.ptp(m)) <= max(rel * scale, float(np.max(s)) if s.size else 0.0)
    at_floor = floor is None or bool(np.all(np.abs(m - floor) <= np.maximum(rel * abs(floor), s)))
    is_tied = bool(close and at_floor)
    where = "" if floor is None else f" at the floor {floor:.4g}"
    note = (f"{what} ({', '.join(f'{v:.4g}' for v in m)}) are indistinguishable{where}" if is_tied
            else f"{what} differ ({', '.join(f'{v:.4g}' for v in m)})")
    return {"floor": is_tied, "floor_note": note}
