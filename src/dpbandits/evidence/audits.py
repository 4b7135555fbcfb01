"""The claim rows of a black-box privacy audit (:mod:`dpbandits.audit`): the audit of the real
mechanism and its negative control, whose verdicts the guards then read."""

from __future__ import annotations

import numpy as np

from dpbandits.audit import AuditResult
from dpbandits.evidence.claims import Claim

__all__ = ["audit_claims"]


def audit_claims(check_id: str, mechanism: str, source: str, real: AuditResult,
                 control: AuditResult, control_multiplier: float, scale: str,
                 paper: str) -> list[Claim]:
    """Two claim rows: the audit of the real mechanism and its negative control."""
    criterion = (f"CP lower bound <= epsilon = {real.epsilon:g} "
                 f"({real.confidence:g} confidence, Bonferroni over {real.n_events} events x 2)")
    # Without power (the broken control not caught) the audit says nothing: INCONCLUSIVE.
    verdict = "INCONCLUSIVE" if not control.refuted else ("FAIL" if real.refuted else "PASS")
    stat = "Clopper-Pearson lower bound on the privacy loss"
    return [
        Claim(paper, check_id, source, "privacy",
              f"{mechanism} is epsilon-DP (black-box audit; tightest event: {real.best_event})",
              stat, real.epsilon_lower_bound, np.nan, np.nan, criterion, verdict,
              real.n_samples, scale),
        Claim(paper, f"{check_id}-CONTROL", source, "privacy",
              f"negative control: {mechanism} with its Laplace scale x{control_multiplier:g} "
              f"(really epsilon/{control_multiplier:g}-DP) is caught by the audit",
              stat, control.epsilon_lower_bound, np.nan, np.nan,
              f"lower bound > epsilon = {control.epsilon:g}",
              "PASS" if control.refuted else "FAIL", control.n_samples, scale),
    ]
