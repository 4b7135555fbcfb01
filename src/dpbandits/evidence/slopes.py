"""The one builder of a slope row: a log-log slope (:class:`dpbandits.stats.slopes.SlopeFit`)
judged on its confidence interval against a band, with the power of the same rule against a
stated competing slope. Every paper's rate checks build their slope rows here; what differs
between them (the claim's text, how the statistic names its lack of fit, a one-sided band's
criterion text) is an argument."""

from __future__ import annotations

import math

from dpbandits.evidence.checks import band_verdict, claim_row
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import shifted_ci_power
from dpbandits.stats.slopes import SlopeFit

__all__ = ["slope_row"]


def slope_row(paper: str, check_id: str, source: str, kind: str, text: str, statistic: str,
              fit: SlopeFit | None, band: tuple[float, float], n_runs: int, scale: str, *,
              ci: tuple[float, float] | None = None, criterion: str | None = None,
              alternative: tuple[float, str, str] | None = None) -> Claim:
    """A slope row: PASS when the CI lies inside ``band`` (an end may be infinite: a one-sided
    bound), FAIL when it lies outside, else INCONCLUSIVE (:func:`band_verdict`).

    ``fit`` None (fewer than two points): the value and CI are NaN and the row INCONCLUSIVE.
    ``ci`` replaces the fit's CI (e.g. widened by an allowance); ``criterion`` the default text
    "slope CI within [lo, hi]". ``alternative`` = (a competing law's slope, its label, the kind
    of wrong paper it is): the power of the same rule with the CI shifted there
    (:func:`dpbandits.evidence.guards.shifted_ci_power`)."""
    value = fit.slope if fit is not None else math.nan
    lo, hi = ci if ci is not None else ((fit.ci_low, fit.ci_high) if fit is not None else (math.nan, math.nan))
    row = claim_row(paper, check_id, source, kind, text, statistic, value, lo, hi,
                    criterion if criterion is not None else f"slope CI within [{band[0]:g}, {band[1]:g}]",
                    band_verdict(lo, hi, *band), n_runs, scale)
    if alternative is not None:
        slope, label, form = alternative
        row = row.with_evidence(**shifted_ci_power(value, lo, hi, slope, band[0], band[1], label, form=form))
    return row
