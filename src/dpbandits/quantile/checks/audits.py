"""Black-box privacy audit of DP-SEQ (Algorithm 2), with its negative control.

Data enter DP-SEQ only through an epoch's elimination step (epochs read disjoint samples, the
sampling schedule is post-processing of the removal sets), so the audit targets that step on
neighbouring sample tables (Definition 3: one sample X^a_n changed), running the production code:
``ell_star`` on the sorted epoch samples, Laplace noise from :class:`LaplaceMechanism` for every
ordered pair and the frozen removal rule ``eliminate`` (vectorised over independent noise copies).
The output code is the removal set R (8 atoms for m = 3 arms).

Set-up (m = 3, e = 1, q = 1/2, eps = 1, delta = 0.1, n_e from line 8): arm 0 and arm 2 hold the
same data; arm 1's data are arm 0's shifted down so that ell*_01 = ell*_21 = S, slightly above the
threshold T_1, for S in {floor(T) + 1, floor(T) + 2, floor(T) + 3}. The neighbour replaces arm 1's
smallest sample by +inf, which lowers both statistics by one. The event "arm 1 kept" has
probability P(Z_01 < T - S) P(Z_21 < T - S), which moves by a factor exp(2 / beta) where beta is
the noise scale: exp(eps / 2) for the real mechanism (beta = 2 (m - 1) / eps = 4) and exp(2 eps)
for the control with the Laplace scale x 0.25, which the audit must catch: on these tables a
release that is only 2 eps-DP (the mechanism's own loss there is eps/2), the power a privacy PASS
needs (:func:`dpbandits.evidence.guards.privacy_power`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from dpbandits.audit import epsilon_lower_bound
from dpbandits.evidence.audits import audit_claims
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import privacy_power
from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.quantile import dp_seq
from dpbandits.quantile.checks.analytic import statistics_matrix

__all__ = ["audit_tables", "removal_codes", "audit_dp_seq", "check_audit"]

PAPER = "quantile"
M, EPOCH, Q, DELTA = 3, 1, 0.5, 0.1


def audit_tables(epsilon: float) -> list[tuple[list[np.ndarray], list[np.ndarray], str]]:
    """Neighbouring sorted epoch tables (X, X') and a label, for the audit's three offsets."""
    n_e = dp_seq.epoch_size(M, EPOCH, epsilon, DELTA)
    i, j, _ = dp_seq.epoch_ranks(n_e, EPOCH, Q)
    t = dp_seq.threshold(M, EPOCH, epsilon, DELTA)
    base = np.arange(1, n_e + 1, dtype=float)  # X^0_(r) = r
    out = []
    for extra in (1, 2, 3):
        s_target = math.floor(t) + extra
        shifted = base + (i - j - 2 * s_target)  # X^b_(j + l) <= X^a_(i - l) iff l <= s_target
        neighbour = np.sort(np.concatenate([shifted[1:], [np.inf]]))
        out.append(([base, shifted, base.copy()], [base, neighbour, base.copy()], f"S = T + {s_target - t:.2f}"))
    return out


def removal_codes(data: list[np.ndarray], epsilon: float, copies: int, rng: np.random.Generator,
                  noise_multiplier: float = 1.0) -> np.ndarray:
    """Codes sum_b 2^b [b removed] of ``copies`` independent epoch decisions on fixed data."""
    n_e = data[0].size
    i, j, _ = dp_seq.epoch_ranks(n_e, EPOCH, Q)
    s = statistics_matrix(data, i, j)
    t = dp_seq.threshold(M, EPOCH, epsilon, DELTA)
    mech = LaplaceMechanism(epsilon / (2 * (M - 1)), 1.0, noise_multiplier)
    z = mech.noise(rng, size=(copies, M, M))
    removed = dp_seq.eliminate(s, z, t)
    return (removed * (2 ** np.arange(M))).sum(axis=1).astype(np.int64)


def audit_dp_seq(epsilon: float, copies: int, rng: np.random.Generator, confidence: float,
                 noise_multiplier: float = 1.0):
    pairs, labels = [], []
    for x, x_prime, label in audit_tables(epsilon):
        pairs.append((removal_codes(x, epsilon, copies, rng, noise_multiplier),
                      removal_codes(x_prime, epsilon, copies, rng, noise_multiplier)))
        labels.append(label)
    return epsilon_lower_bound(pairs, 2**M, epsilon, confidence, "atoms", labels)


def check_audit(rng, scale, settings) -> list[Claim]:
    """The audit row (a claim of the paper, Theorem 6) and its negative control (kind
    ``control``: not a claim of the paper); the audit's PASS carries the control as its power."""
    eps, copies, conf = float(settings["epsilon"]), int(settings["samples"]), float(settings["confidence"])
    control = float(settings["control_noise_multiplier"])
    real = audit_dp_seq(eps, copies, rng, conf)
    ctrl = audit_dp_seq(eps, copies, rng, conf, control)
    audit, negative = audit_claims("AUDIT-DPSEQ", "DP-SEQ's epoch elimination (m = 3, Lap(2(m-1)/eps) per ordered pair)",
                                   "Thm 6", real, ctrl, control, scale, paper=PAPER)
    # the audited event moves by exp(eps / (2 m)) for the Laplace scale x m (module docstring)
    found = (f"the same audit gives a lower bound {ctrl.epsilon_lower_bound:.3g} "
             f"{'>' if ctrl.refuted else '<='} eps = {eps:g}")
    audit = audit.with_evidence(**privacy_power(ctrl.refuted, 0.5 / control,
                                                f"negative control: the Laplace scale x{control:g}", found))
    return [audit, replace(negative, kind="control")]
