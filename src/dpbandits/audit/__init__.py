"""Black-box privacy audits: run a mechanism on neighbouring inputs, estimate event
probabilities, and report a Clopper-Pearson lower bound on epsilon."""

from dpbandits.audit.blackbox import (
    AuditResult,
    audit_pairs,
    epsilon_lower_bound,
    scored_lower_bound,
)

__all__ = ["AuditResult", "audit_pairs", "epsilon_lower_bound", "scored_lower_bound"]
