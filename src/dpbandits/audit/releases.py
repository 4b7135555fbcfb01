"""Batch releases and their audit: a stream released in consecutive batches, each batch's sum
with its own Laplace noise (the doubling batches of the online paper's Algorithms 1 and 3,
AdaP-KLUCB's episodes, Algorithm 2's per-phase pair sums of the dueling paper). Here: the leak
classes such a release can have (:data:`RELEASE_LEAKS`), a leaky mutant of each
(:func:`mutant_release`), and the audit that reads every release of the stream jointly
(:func:`audit_joint_release`), so that a leak only several releases show is within its reach."""

from __future__ import annotations

import numpy as np

from dpbandits.audit.blackbox import AuditResult, scored_lower_bound

__all__ = ["RELEASE_LEAKS", "mutant_release", "audit_joint_release", "JOINT_LEVELS"]

# The leak classes of a batch release (what its audit could have found):
# name -> (the mutant's ``leak``, its noise multiplier, what it gets wrong)
RELEASE_LEAKS = {
    "noise_shrunk": ("none", 0.5, "noise shrunk x0.5 (a release 2 eps-DP)"),
    "composition_ignored": ("composition", 1.0,
                            "composition ignored (each release the mean of every reward so far, fresh noise)"),
    "noise_reused": ("reuse", 1.0, "noise reused (one Laplace draw added to every batch)"),
    "sensitivity_understated": ("sensitivity", 1.0, "sensitivity understated (a batch mean's noise on its sum)"),
}


def mutant_release(stream: np.ndarray, epsilon: float, n_samples: int, rng: np.random.Generator,
                   noise_multiplier: float, leak: str, sizes: list[int] | None = None) -> np.ndarray:
    """The releases of a leaky batch-mean mechanism (:data:`RELEASE_LEAKS`): consecutive batches
    of ``sizes`` rewards (default 1, 2, 4, ..., the online paper's doubling batches), each
    released as a noisy mean, but with the noise or the data of the class's mistake."""
    scale = noise_multiplier / epsilon
    if sizes is None:
        sizes = [2**b for b in range(int(np.log2(stream.size + 1)))]
    ends = np.cumsum(sizes)
    sums = np.add.reduceat(stream, np.concatenate([[0], ends[:-1]]))[:len(sizes)]
    if leak == "composition":  # the mean of every reward so far, fresh Lap(1/eps) on its sum
        totals = np.cumsum(sums)
        return (totals[None, :] + rng.laplace(0.0, scale, (n_samples, len(sizes)))) / ends[None, :]
    if leak == "reuse":  # one draw per copy, added to every batch sum
        return (sums[None, :] + rng.laplace(0.0, scale, (n_samples, 1))) / np.array(sizes)[None, :]
    if leak == "sensitivity":  # Lap(1 / (L eps)) on a sum of L rewards
        sizes_a = np.array(sizes, dtype=float)
        return (sums[None, :] + rng.laplace(0.0, scale, (n_samples, len(sizes))) / sizes_a) / sizes_a
    raise ValueError(f"leak must be one of composition, reuse, sensitivity, got {leak!r}")


JOINT_LEVELS = np.array([0.1, 0.3, 0.5, 0.7, 0.9])  # each release's cuts for the joint code


def audit_joint_release(samples, sizes: list[int], epsilon: float, n_samples: int, rng: np.random.Generator,
                        confidence: float, noise_multiplier: float, leak: str) -> AuditResult:
    """Audit a batch-mean release (``samples(stream, epsilon, n, rng, noise_multiplier, leak)``:
    releases of consecutive batches of ``sizes`` rewards) on a fixed stream, flipping the first
    reward of each batch in turn (one neighbouring pair per flipped position). The output is all
    the releases together: each is cut at quantiles of a first pilot (:data:`JOINT_LEVELS`) and
    the cells coded jointly, and the events are thresholds of the joint code's log-likelihood
    ratio estimated on a second, independent pilot (:func:`dpbandits.audit.scored_lower_bound`),
    so a leak that only the releases together show (a reward in several releases, noise reused)
    is within its reach."""
    n_batches = len(sizes)
    stream = (np.arange(sum(sizes)) % 3 == 0).astype(float)
    pilots, pairs, labels = [], [], []
    n_codes = (len(JOINT_LEVELS) + 1) ** n_batches
    for pos in np.concatenate([[0], np.cumsum(sizes)[:-1]]).tolist():  # first reward of each batch
        neighbour = stream.copy()
        neighbour[pos] = 1.0 - neighbour[pos]
        inputs = (stream, neighbour)
        first = np.vstack([samples(s, epsilon, max(1000, n_samples // 10), rng, noise_multiplier, leak)
                           for s in inputs])
        cuts = [np.quantile(first[:, c], JOINT_LEVELS) for c in range(n_batches)]

        def code(released, cuts=cuts):
            out = np.zeros(released.shape[0], dtype=np.int64)
            for c in range(n_batches):
                out = out * (len(JOINT_LEVELS) + 1) + np.searchsorted(cuts[c], released[:, c])
            return out

        pilots.append(tuple(code(samples(s, epsilon, max(1000, n_samples // 4), rng, noise_multiplier, leak))
                            for s in inputs))
        pairs.append(tuple(code(samples(s, epsilon, n_samples, rng, noise_multiplier, leak)) for s in inputs))
        labels.append(f"flip reward {pos}")
    return scored_lower_bound(pilots, pairs, n_codes, epsilon, confidence, labels)
