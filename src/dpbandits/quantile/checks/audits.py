"""Black-box privacy audit of DP-SEQ (Algorithm 2) over two epochs, with its negative control and
what it could have found at its size.

Data enter DP-SEQ only through the epochs' elimination steps; epochs read disjoint fresh samples,
so a changed sample of epoch 1 can move epoch 1's decision only (parallel composition; the
schedule is post-processing). The audit runs DP-SEQ's first two epochs on m = 2 arms on
neighbouring sample tables (Definition 3: one sample X^a_n changed, here in epoch 1), with the
production code: the pair statistics max{0, ell*} on the sorted epoch samples
(:func:`dpbandits.quantile.checks.analytic.statistics_matrix`, production ``ell_star``), Laplace
noise from :class:`LaplaceMechanism` for every ordered pair and the frozen removal rule
:func:`dpbandits.quantile.dp_seq.eliminate`, vectorised over independent noise copies. With two
arms a removal ends the run, so the output is the whole transcript: the arm removed in epoch 1,
or, if none, epoch 2's removal set (5 codes).

Tables (eps = 1, q = 1/2, delta = 0.1; :func:`audit_tables`): epoch 1 is a *tied* table
(:func:`dpbandits.quantile.checks.analytic.tied_table`), where the changed sample moves both
orders of the pair, so DP-SEQ's exact loss there reaches eps (on distinct samples it is eps/2:
the paper's accounting is tight only through ties, A9). Epoch 2 holds fresh samples placed for
the two leaks that cross epochs: in the first table its statistics sit half a step from epoch 1's
(a reused noise then makes an output impossible on one side), in the second the statistics of
epoch 1's and epoch 2's samples *together* straddle epoch 2's threshold (a release that reads
every sample so far then loses eps in each epoch).

Leak classes (:data:`LEAKS`), each measured with the same audit at the same size on a mutant of
the mechanism: noise shrunk x0.5 (a sensitivity understated by 2 gives the same mechanism: the
sensitivity enters only through the Laplace scale), composition ignored (epoch 2's statistics on
every sample of the arm so far), noise reused (epoch 1's Laplace draws added again in epoch 2).
The exact output law of each is :func:`code_probabilities` (tests hold the sampled codes to it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from dpbandits.audit import AuditResult, epsilon_lower_bound
from dpbandits.evidence.audits import LeakPower, audit_claims, state_leak_power
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import privacy_power
from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.quantile import dp_seq
from dpbandits.quantile.checks.analytic import statistics_matrix, tied_arm, tied_table

__all__ = ["LEAKS", "Epoch", "epochs", "audit_tables", "transcript_codes", "code_probabilities", "audit_dp_seq",
           "leak_power", "check_audit"]

PAPER = "quantile"
M, Q, DELTA = 2, 0.5, 0.1
N_CODES = 5  # 0: arm 0 removed in epoch 1; 1: arm 1 removed in epoch 1; 2 + R: none, then epoch 2's R

# name -> (the mutant's leak, its noise multiplier, what it gets wrong)
LEAKS = {
    "noise_shrunk": ("none", 0.5, "noise shrunk x0.5 (2 eps-DP; also a sensitivity understated by 2)"),
    "composition_ignored": ("composition", 1.0,
                            "composition ignored (epoch 2's statistics on every sample of the arm so far)"),
    "noise_reused": ("reuse", 1.0, "noise reused (epoch 1's Laplace draws added again in epoch 2)"),
}


@dataclass(frozen=True)
class Epoch:
    """One epoch's geometry (Algorithm 2, lines 8, 12 and 16) for m = 2 arms."""

    e: int
    n: int
    i: int
    j: int
    span: int
    threshold: float


def epochs(epsilon: float) -> tuple[Epoch, Epoch]:
    """Epochs 1 and 2 (e_* = 1 at q = 1/2) with nothing removed before."""
    out = []
    for e in (1, 2):
        n = dp_seq.epoch_size(M, e, epsilon, DELTA)
        out.append(Epoch(e, n, *dp_seq.epoch_ranks(n, e, Q), dp_seq.threshold(M, e, epsilon, DELTA)))
    return out[0], out[1]


def _statistics(first: list[np.ndarray], second: list[np.ndarray], ep1: Epoch, ep2: Epoch,
                leak: str) -> tuple[np.ndarray, np.ndarray]:
    """The two epochs' statistics matrices; ``composition``: epoch 2's on every sample so far."""
    s1 = statistics_matrix(first, ep1.i, ep1.j)
    if leak == "composition":
        pooled = [np.sort(np.concatenate([a, b])) for a, b in zip(first, second, strict=True)]
        i, j, _ = dp_seq.epoch_ranks(pooled[0].size, ep2.e, Q)
        return s1, statistics_matrix(pooled, i, j)
    return s1, statistics_matrix(second, ep2.i, ep2.j)


def audit_tables(epsilon: float) -> list[tuple[tuple[list, list], tuple[list, list], str]]:
    """Neighbouring two-epoch tables ((epoch 1, epoch 2) under X, under X') and a label.

    Arm 1's samples are all 0 in both epochs; arm 0's are -1 / 0 / +1 with the counts that set
    the statistics (s_01, s_10) (:func:`dpbandits.quantile.checks.analytic.tied_table`); the
    neighbour moves one of arm 0's epoch-1 samples from +1 to -1/2 (s_01 - 1, s_10 + 1)."""
    ep1, ep2 = epochs(epsilon)
    t1, t2 = ep1.threshold, ep2.threshold
    out = []
    # epoch 1 at its worst case (s_01 = s_10 = floor(T_1) + 1); epoch 2's statistics half a step
    # from epoch 1's thresholds, so that with a reused noise one side cannot reach an output
    up, down = math.floor(t1) + 1, math.floor(t1) + 1
    first, first_n = tied_table(M, ep1.n, ep1.i, ep1.j, up, down)
    s2_up, s2_down = math.floor(t2 - t1 + up), math.ceil(t2 - t1 + down)
    arm0 = tied_arm(ep2.n, ep2.i - s2_up - 1, ep2.n - ep2.j - s2_down)
    second = [arm0, np.zeros(ep2.n)]
    out.append(((first, second), (first_n, second), f"epoch 1 tied at (T1 + {up - t1:.2f}, T1 + {down - t1:.2f})"))
    # epoch 1 at (floor(T_1) - 3, floor(T_1) + 1); epoch 2's samples chosen so that both epochs'
    # samples together give (floor(T_2), floor(T_2) + 1) at epoch 2's ranks of the pooled count
    up, down = math.floor(t1) - 3, math.floor(t1) + 1
    first, first_n = tied_table(M, ep1.n, ep1.i, ep1.j, up, down)
    pooled_n = ep1.n + ep2.n
    i_c, j_c, _ = dp_seq.epoch_ranks(pooled_n, ep2.e, Q)
    low1, high1 = int((first[0] < 0).sum()), int((first[0] > 0).sum())
    arm0 = tied_arm(ep2.n, i_c - math.floor(t2) - 1 - low1, pooled_n - j_c - (math.floor(t2) + 1) - high1)
    second = [arm0, np.zeros(ep2.n)]
    out.append(((first, second), (first_n, second), f"epoch 1 tied at (T1 - {t1 - up:.2f}, T1 + {down - t1:.2f}), "
                                                    "pooled epoch 2 at T2"))
    return out


def transcript_codes(tables: tuple[list, list], epsilon: float, copies: int, rng: np.random.Generator,
                     noise_multiplier: float = 1.0, leak: str = "none") -> np.ndarray:
    """Codes of ``copies`` independent two-epoch runs on fixed tables (:data:`N_CODES`); ``leak``
    ("none", "composition", "reuse") runs a leaky mutant instead (:data:`LEAKS`)."""
    if leak not in ("none", "composition", "reuse"):
        raise ValueError(f"unknown leak {leak!r}; allowed: none, composition, reuse")
    ep1, ep2 = epochs(epsilon)
    s1, s2 = _statistics(*tables, ep1, ep2, leak)
    mech = LaplaceMechanism(epsilon / (2 * (M - 1)), 1.0, noise_multiplier)
    z1 = mech.noise(rng, size=(copies, M, M))
    z2 = z1 if leak == "reuse" else mech.noise(rng, size=(copies, M, M))
    first = dp_seq.eliminate(s1, z1, ep1.threshold) @ np.array([1, 2])  # 0 none, 1 arm 0, 2 arm 1
    second = dp_seq.eliminate(s2, z2, ep2.threshold) @ np.array([1, 2])
    return np.where(first > 0, first - 1, 2 + second).astype(np.int64)


def code_probabilities(tables: tuple[list, list], epsilon: float, noise_multiplier: float = 1.0,
                       leak: str = "none") -> np.ndarray:
    """The exact law of :func:`transcript_codes` (m = 2: arm b is removed in an epoch iff the pair
    (a, b) hits, s_ab + Z_ab >= T, and (b, a) does not; both hitting removes neither)."""
    ep1, ep2 = epochs(epsilon)
    s1, s2 = _statistics(*tables, ep1, ep2, leak)
    scale = dp_seq.noise_scale(M, epsilon) * noise_multiplier

    def sf(x):  # P(Z >= x)
        return 0.5 * math.exp(-x / scale) if x >= 0 else 1.0 - 0.5 * math.exp(x / scale)

    def pair(u, v):  # P(hit in epoch 1, hit in epoch 2) for one pair, thresholds u, v on its noise
        p1, p2 = sf(u), sf(v)
        both = sf(max(u, v)) if leak == "reuse" else p1 * p2
        return {(1, 1): both, (1, 0): p1 - both, (0, 1): p2 - both, (0, 0): 1.0 - p1 - p2 + both}

    hits01 = pair(ep1.threshold - s1[0, 1], ep2.threshold - s2[0, 1])  # (0, 1) hits: arm 1 removed
    hits10 = pair(ep1.threshold - s1[1, 0], ep2.threshold - s2[1, 0])  # (1, 0) hits: arm 0 removed
    law = np.zeros(N_CODES)
    for (a1, a2), pa in hits01.items():
        for (b1, b2), pb in hits10.items():
            if a1 != b1:
                law[1 if a1 else 0] += pa * pb
            else:
                law[2 + (2 if a2 and not b2 else 1 if b2 and not a2 else 0)] += pa * pb
    return law


def audit_dp_seq(epsilon: float, copies: int, rng: np.random.Generator, confidence: float,
                 noise_multiplier: float = 1.0, leak: str = "none") -> AuditResult:
    pairs, labels = [], []
    for x, x_prime, label in audit_tables(epsilon):
        pairs.append((transcript_codes(x, epsilon, copies, rng, noise_multiplier, leak),
                      transcript_codes(x_prime, epsilon, copies, rng, noise_multiplier, leak)))
        labels.append(label)
    return epsilon_lower_bound(pairs, N_CODES, epsilon, confidence, "atoms", labels)


def leak_power(epsilon: float, copies: int, rng: np.random.Generator, confidence: float) -> list[LeakPower]:
    """What the audit could have found at its size: the same audit on each leaky mutant (:data:`LEAKS`)."""
    out = []
    for name, (leak, multiplier, description) in LEAKS.items():
        res = audit_dp_seq(epsilon, copies, rng, confidence, multiplier, leak)
        out.append(LeakPower(name, description, res.epsilon_lower_bound, res.refuted))
    return out


def _exact_loss(epsilon: float, noise_multiplier: float = 1.0, leak: str = "none") -> float:
    """The largest exact privacy loss over the audit's tables and outputs (in units of eps)."""
    worst = 0.0
    for x, x_prime, _ in audit_tables(epsilon):
        p, p_prime = code_probabilities(x, epsilon, noise_multiplier, leak), code_probabilities(
            x_prime, epsilon, noise_multiplier, leak)
        for a, b in zip(p, p_prime, strict=True):
            if a > 0 or b > 0:
                worst = max(worst, math.inf if min(a, b) <= 0 else abs(math.log(a / b)))
    return worst / epsilon


def check_audit(rng, scale, settings) -> list[Claim]:
    """The audit row (a claim of the paper, Theorem 6), with the leak classes it catches at its
    size, and its negative control (kind ``control``: not a claim of the paper)."""
    eps, copies, conf = float(settings["epsilon"]), int(settings["samples"]), float(settings["confidence"])
    control = float(settings["control_noise_multiplier"])
    real = audit_dp_seq(eps, copies, rng, conf)
    ctrl = audit_dp_seq(eps, copies, rng, conf, control)
    leaks = leak_power(eps, copies, rng, conf)
    audit, negative = audit_claims(
        "AUDIT-DPSEQ", "DP-SEQ's first two epochs (m = 2, Lap(2(m-1)/eps) per ordered pair, fresh samples per epoch)",
        "Thm 6", real, ctrl, control, scale, paper=PAPER)
    size = (f"m = 2, epochs 1 and 2, eps = {eps:g}, 2 tied tables and their neighbours (a sample of epoch 1 changed; "
            f"DP-SEQ's exact loss on them {_exact_loss(eps):.4f} eps), {copies} runs per table, every transcript an event")
    # power: the noise-shrunk class, a release exactly 2 eps-DP on these tables; kept only when the
    # audit catches every class (the control, x0.25, validates the pipeline and is counted apart)
    shrunk = next(p for p in leaks if p.leak == "noise_shrunk")
    found = (f"the same audit gives a lower bound {shrunk.lower_bound:.3g} "
             f"{'>' if shrunk.caught else '<='} eps = {eps:g}")
    power = privacy_power(shrunk.caught, _exact_loss(eps, LEAKS["noise_shrunk"][1]), shrunk.description, found)
    return [state_leak_power(audit, power, leaks, size), replace(negative, kind="control")]
