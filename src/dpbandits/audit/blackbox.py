"""Black-box privacy audit.

For neighbouring inputs x, x' and an event E on the mechanism's output, pure epsilon-DP implies
P_x(E) <= e^epsilon P_x'(E). With n independent outputs per input, the Clopper-Pearson lower
bound on P_x(E) and upper bound on P_x'(E) give, simultaneously for all events and both
directions (Bonferroni), a lower bound on the epsilon the mechanism actually provides:

    epsilon_lb = max_E max(ln(p_lo_x(E) / p_hi_x'(E)), ln(p_lo_x'(E) / p_hi_x(E))).

If epsilon_lb > epsilon, the claim "the mechanism is epsilon-DP" is refuted at the stated
confidence. Outputs are given as integer codes; events are either the single codes ("atoms",
for discrete outputs such as action sequences) or, for ordinal codes (discretised continuous
outputs), the upper and lower tails {code >= k} and {code <= k}.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from dpbandits.stats import clopper_pearson

__all__ = ["AuditResult", "audit_pairs", "epsilon_lower_bound", "scored_lower_bound"]


@dataclass(frozen=True)
class AuditResult:
    epsilon: float  # the claimed privacy parameter
    epsilon_lower_bound: float  # 0 if nothing could be shown
    best_event: str
    n_samples: int  # per input
    confidence: float
    n_events: int

    @property
    def refuted(self) -> bool:
        """True if the audit shows the mechanism is NOT epsilon-DP."""
        return self.epsilon_lower_bound > self.epsilon


def _event_counts(codes: np.ndarray, n_codes: int, events: str) -> tuple[np.ndarray, list[str]]:
    counts = np.bincount(codes, minlength=n_codes)
    if events == "atoms":
        return counts, [f"output={k}" for k in range(n_codes)]
    if events == "tails":
        upper = np.cumsum(counts[::-1])[::-1]  # {code >= k}
        lower = np.cumsum(counts)  # {code <= k}
        return (np.concatenate([upper[1:], lower[:-1]]),
                [f"output>={k}" for k in range(1, n_codes)] + [f"output<={k}" for k in range(n_codes - 1)])
    raise ValueError(f"events must be 'atoms' or 'tails', got {events!r}")


def epsilon_lower_bound(pairs: Sequence[tuple[np.ndarray, np.ndarray]], n_codes: int,
                        epsilon: float, confidence: float = 0.999, events: str = "atoms",
                        labels: Sequence[str] | None = None) -> AuditResult:
    """Lower bound on epsilon from output codes of several neighbouring input pairs.

    ``pairs`` holds (codes under x, codes under x') per neighbouring pair, each of n samples.
    Bonferroni runs over all pairs, events and both directions.
    """
    all_x, all_xp, names = [], [], []
    n = None
    for i, (cx, cxp) in enumerate(pairs):
        cx, cxp = np.asarray(cx), np.asarray(cxp)
        if n is None:
            n = cx.size
        if cx.size != n or cxp.size != n:
            raise ValueError("every input must have the same number of samples")
        kx, nm = _event_counts(cx, n_codes, events)
        kxp, _ = _event_counts(cxp, n_codes, events)
        all_x.append(kx)
        all_xp.append(kxp)
        tag = labels[i] if labels is not None else f"pair{i}"
        names += [f"{tag}: {m}" for m in nm]
    return _bound_from_counts(np.concatenate(all_x), np.concatenate(all_xp), int(n), epsilon, confidence, names)


def _bound_from_counts(kx: np.ndarray, kxp: np.ndarray, n: int, epsilon: float, confidence: float,
                       names: Sequence[str]) -> AuditResult:
    """The lower bound from the counts of every event under x and x' (n outputs each): both
    directions of every event, Bonferroni over all of them. A direction's ratio uses two
    one-sided bounds (a lower one on one side's probability, an upper one on the other's), so
    the 2 x events directions use 4 x events one-sided bounds, each at level alpha / (4 x events):
    two-sided Clopper-Pearson intervals at alpha / (2 x events)."""
    m = 2 * kx.size  # directions
    alpha = 1.0 - confidence
    lo_x, hi_x = clopper_pearson(kx, n, alpha=alpha / m)
    lo_xp, hi_xp = clopper_pearson(kxp, n, alpha=alpha / m)
    with np.errstate(divide="ignore"):
        forward = np.log(lo_x) - np.log(hi_xp)
        backward = np.log(lo_xp) - np.log(hi_x)
    ratios = np.maximum(forward, backward)
    best = int(np.argmax(ratios))
    return AuditResult(float(epsilon), float(max(0.0, ratios[best])), names[best], int(n),
                       float(confidence), int(kx.size))


# Quantiles of the pilot's scores at which the scored events are cut (the tails carry the loss).
_SCORE_LEVELS = np.array([0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999])


def scored_lower_bound(pilot_pairs: Sequence[tuple[np.ndarray, np.ndarray]],
                       pairs: Sequence[tuple[np.ndarray, np.ndarray]], n_codes: int, epsilon: float,
                       confidence: float = 0.999, labels: Sequence[str] | None = None) -> AuditResult:
    """Lower bound on epsilon from events chosen on an independent pilot sample (threshold
    auditing): per neighbouring pair, the score of an output code is its log-likelihood ratio
    estimated on the pilot, ln((c_x + 1/2) / (c_x' + 1/2)); the events are the score's upper sets
    {score >= c} and lower sets {score <= c'} with c, c' at quantiles of the pilot's scores under
    x and x' (:data:`_SCORE_LEVELS`). Few events, each gathering the outputs where x and x'
    differ most, instead of every single output (``epsilon_lower_bound`` with "atoms"): the
    Bonferroni correction over them stays small. Valid because the events depend on the pilot
    only, which is independent of ``pairs`` (the outputs the bound counts)."""
    all_x, all_xp, names = [], [], []
    n = None
    for i, ((px, pxp), (cx, cxp)) in enumerate(zip(pilot_pairs, pairs, strict=True)):
        cx, cxp = np.asarray(cx), np.asarray(cxp)
        n = cx.size if n is None else n
        if cx.size != n or cxp.size != n:
            raise ValueError("every input must have the same number of samples")
        score = (np.log(np.bincount(np.asarray(px), minlength=n_codes) + 0.5)
                 - np.log(np.bincount(np.asarray(pxp), minlength=n_codes) + 0.5))
        upper = np.unique(np.quantile(score[np.asarray(px)], _SCORE_LEVELS))
        lower = np.unique(np.quantile(score[np.asarray(pxp)], 1.0 - _SCORE_LEVELS))
        sx, sxp = score[cx], score[cxp]
        tag = labels[i] if labels is not None else f"pair{i}"
        for c in upper:
            all_x.append(np.count_nonzero(sx >= c))
            all_xp.append(np.count_nonzero(sxp >= c))
            names.append(f"{tag}: score>={c:.3g}")
        for c in lower:
            all_x.append(np.count_nonzero(sx <= c))
            all_xp.append(np.count_nonzero(sxp <= c))
            names.append(f"{tag}: score<={c:.3g}")
    return _bound_from_counts(np.array(all_x), np.array(all_xp), int(n), epsilon, confidence, names)


def audit_pairs(mechanism: Callable[[object, int, np.random.Generator], np.ndarray],
                inputs: Sequence[tuple[object, object]], n_samples: int,
                rng: np.random.Generator, n_codes: int, epsilon: float,
                confidence: float = 0.999, events: str = "atoms",
                labels: Sequence[str] | None = None) -> AuditResult:
    """Run ``mechanism(input, n_samples, rng) -> integer codes`` on each neighbouring pair."""
    pairs = [(mechanism(x, n_samples, rng), mechanism(xp, n_samples, rng)) for x, xp in inputs]
    return epsilon_lower_bound(pairs, n_codes, epsilon, confidence, events, labels)
