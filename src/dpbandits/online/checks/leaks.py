"""What a black-box audit of an online algorithm could have found: its power against named classes
of leak, measured at the audit's own size on mutants of one correct algorithm of the family.

The reference, :class:`EpochLeader`, is epsilon-DP under the paper's Definition 1 (neighbouring
reward tables differ in one round's reward vector): rounds are split into epochs (the first plays
every arm once, epoch e >= 1 has K 2^(e-1) rounds); at the end of an epoch it releases, per arm,
the sum of the rewards that arm earned in that epoch plus fresh Lap(1/epsilon) noise, and every
round of the next epoch plays the arm with the largest released mean (all released sums of the
arm over its pulls; ties to the lowest index). Under bandit feedback a round's reward vector
enters only the pulled arm's sum of one epoch, by at most 1, so each reward is in exactly one
release of sensitivity 1 (parallel composition); the actions are post-processing of the releases
and the public pull counts. The mutants each break one step of that argument, as a researcher's
algorithm might:

* ``noise_shrunk``: the Laplace scale x0.5: every release 2 epsilon-DP (the audits' usual
  negative control);
* ``composition_ignored``: each release is the arm's cumulative sum over all epochs so far, with
  fresh Lap(1/epsilon): every reward enters every later release, so the loss grows with the
  number of releases (each release alone is epsilon-DP: the mistake is the accounting);
* ``noise_reused``: one Lap(1/epsilon) draw per arm, added to every epoch's release: differences
  of releases are exact, so the loss grows with the releases too;
* ``sensitivity_understated``: the noise of the epoch's mean reward (Lap(1 / (L epsilon)) for an
  epoch of L rounds, the sensitivity of a mean of L rewards) added to each arm's epoch sum, whose
  sensitivity is 1: L times too little noise, more so the longer the epoch.

:func:`leak_power` audits the reference and each mutant with the same harness, table, neighbours,
sample size and confidence as the audit whose power it states
(:func:`dpbandits.online.checks.extra.audit_class`): a class is caught when that audit refutes
the mutant's epsilon claim. The reference itself must not be refuted (a test); a class the
audit does not catch at that size is one it has no power against there.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpbandits.evidence.audits import LeakPower, measure_leak_power

__all__ = ["EpochLeader", "LEAK_CLASSES", "leak_power"]

# leak class -> (the mutant's constructor keywords, what it gets wrong)
LEAK_CLASSES: dict[str, tuple[dict, str]] = {
    "noise_shrunk": ({"noise_multiplier": 0.5}, "noise shrunk x0.5 (a release 2 eps-DP)"),
    "composition_ignored": ({"leak": "composition"},
                            "composition ignored across releases (each reward in every later release)"),
    "noise_reused": ({"leak": "reuse"}, "noise reused across releases (one draw per arm)"),
    "sensitivity_understated": ({"leak": "sensitivity"},
                                "sensitivity understated (an epoch mean's noise on each arm's sum)"),
}


class EpochLeader:
    """The epsilon-DP reference of the leak classes, and its mutants (``leak``; module docstring).

    Mechanism: Laplace on each arm's epoch sum (sensitivity 1 under one round's reward vector
    replaced), scale ``noise_multiplier`` / epsilon; disjoint epochs, so epsilon-DP overall (the
    releases, ``published()``, and the actions alike); a mutant (``leak`` not "none" or
    ``noise_multiplier`` < 1) is not. Per-step and vectorised interface of
    :mod:`dpbandits.online.interface` (``copies``, ``published()``)."""

    private = True
    LEAKS = ("none", "composition", "reuse", "sensitivity")

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, *,
                 leak: str = "none", noise_multiplier: float = 1.0, copies: int | None = None):
        if not epsilon > 0:
            raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
        if leak not in self.LEAKS:
            raise ValueError(f"leak must be one of {self.LEAKS}, got {leak!r}")
        self.k, self.copies, self.rng, self.leak = int(n_arms), copies, rng, leak
        n = 1 if copies is None else int(copies)
        self.scale = float(noise_multiplier) / float(epsilon)
        self.rows = np.arange(n)
        self.pulls = np.zeros((n, self.k))  # pulls per arm (public: a function of the actions)
        self.epoch_sum = np.zeros((n, self.k))  # this epoch's rewards per arm
        self.epoch_pulls = np.zeros((n, self.k))
        self.true_total = np.zeros((n, self.k))  # all rewards so far (composition_ignored releases it)
        self.released = np.zeros((n, self.k))  # the released estimate of each arm's total reward
        self.reused = self.rng.laplace(0.0, self.scale, size=(n, self.k)) if leak == "reuse" else None
        self.leader = np.zeros(n, dtype=np.int64)
        self.history = []  # what each epoch's release published, per arm: (copies, K) each
        self.epoch_end = self.k  # the last round of the current epoch
        self.epoch = 0

    def _release(self) -> None:
        """End of an epoch: release every arm's noisy sum (module docstring), choose the leader."""
        if self.leak == "composition":
            self.released = self.true_total + self.rng.laplace(0.0, self.scale, size=self.released.shape)
            self.history.append(self.released.copy())
        else:
            if self.leak == "reuse":
                noise = self.reused
            elif self.leak == "sensitivity":  # the epoch's length in rounds: its pulls over every arm
                length = self.epoch_pulls.sum(axis=1, keepdims=True)
                noise = self.rng.laplace(0.0, self.scale, size=self.released.shape) / length
            else:
                noise = self.rng.laplace(0.0, self.scale, size=self.released.shape)
            self.history.append(self.epoch_sum + noise)
            self.released = self.released + self.epoch_sum + noise
        self.leader = np.argmax(self.released / np.maximum(self.pulls, 1.0), axis=1)
        self.epoch_sum[:] = 0.0
        self.epoch_pulls[:] = 0.0
        self.epoch += 1
        self.epoch_end += self.k * 2 ** (self.epoch - 1)

    def published(self) -> np.ndarray:
        """Every release so far, epoch by epoch and arm by arm (each arm's noisy epoch sum; the
        composition mutant's noisy running total): shape (releases,), or (copies, releases)."""
        out = np.concatenate(self.history, axis=1) if self.history else np.zeros((self.rows.size, 0))
        return out[0] if self.copies is None else out

    def select(self, t: int):
        if t > self.epoch_end:
            self._release()
        arms = np.full(self.rows.size, t - 1) if t <= self.k else self.leader
        return int(arms[0]) if self.copies is None else arms.copy()

    def update(self, t: int, arm, reward) -> None:
        arms = np.atleast_1d(np.asarray(arm, dtype=np.int64))
        rewards = np.atleast_1d(np.asarray(reward, dtype=float))
        self.pulls[self.rows, arms] += 1
        self.epoch_pulls[self.rows, arms] += 1
        self.epoch_sum[self.rows, arms] += rewards
        self.true_total[self.rows, arms] += rewards


def leak_power(audit: Callable[..., object]) -> tuple[object, list[LeakPower]]:
    """The reference's audit and each leak class's (:data:`LEAK_CLASSES`), by ``audit(cls,
    params, role)``: the audit whose power is stated, run on :class:`EpochLeader` with the
    mutant's keywords (``role``: "reference" or the class name, for the caller's random streams)."""
    return measure_leak_power(audit, EpochLeader, LEAK_CLASSES)
