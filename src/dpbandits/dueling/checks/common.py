"""Helpers shared by the dueling check modules: the claim row of the unit checks and the power
evidence of "zero failures" rules.

Each power helper names the kind of wrong paper its alternative is (``form``, one of
:data:`dpbandits.evidence.claims.POWER_FORMS`): the guards count a PASS as ``supported`` only when
the same rule FAILs an alternative that is a way the paper could be wrong, of the claim's own form
(:mod:`dpbandits.evidence.guards`)."""

from __future__ import annotations

import numpy as np

from dpbandits.evidence.checks import claim_row
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import checked_power_form

__all__ = ["dueling_claim", "zero_failures_power", "counted_power"]

PAPER = "dueling"


def dueling_claim(check_id, source, kind, claim, statistic, value, criterion, verdict, n, scale,
                  lo=np.nan, hi=np.nan) -> Claim:
    """A claim row of the dueling paper with the CI last and optional (the unit checks' order)."""
    return claim_row(PAPER, check_id, source, kind, claim, statistic, value, lo, hi, criterion,
                     verdict, n, scale)


def zero_failures_power(n: int, alternative: float, label: str, form: str = "rate_exceeded") -> dict:
    """Power of a "zero failures in n runs" rule (a rare-event claim) against a stated
    alternative failure rate (``form``: by default a failure rate above the stated level): the
    rule passes that alternative with probability (1 - alternative)^n, so it FAILs it when that
    probability is below 5%. Evidence fields."""
    p_pass = (1.0 - alternative) ** n if n > 0 else 1.0
    verdict = "FAIL" if p_pass < 0.05 else "PASS"
    return {"power": verdict, "power_form": checked_power_form(form, straw_man=True),
            "power_note": f"{label} (failure rate {alternative:g}): zero failures in {n} runs has "
                          f"probability {p_pass:.2g}, so the rule gives {verdict} there"}


def counted_power(failures: int, n: int, label: str, *, form: str) -> dict:
    """Power shown on a stated alternative that was actually run or computed: the same "zero
    failures" rule, applied to it, counts ``failures`` of ``n``. ``form``: the kind of wrong paper
    the alternative is (:data:`~dpbandits.evidence.claims.POWER_FORMS`), or "" when it is no way the
    paper could be wrong (a straw man: the PASS is then INCONCLUSIVE no_power). Evidence fields."""
    verdict = "FAIL" if failures > 0 else "PASS" if n > 0 else None
    return {"power": verdict, "power_form": checked_power_form(form, straw_man=True),
            "power_note": f"{label}: the same rule counts {failures} of {n}"
                          + (" and FAILs it" if failures else "; no failure there either (no power shown)")}
