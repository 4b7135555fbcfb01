"""What a black-box audit of a dueling algorithm could have found: its power against named classes
of leak, measured at the audit's own size on mutants of one correct algorithm of the family.

The reference, :class:`EpochLeaderDuels`, is epsilon-DP under the paper's neighbouring relation
(two users' answer sequences that differ in one user's answer, spec 1.4). Rounds are split into
epochs, epoch e = 1, 2, ... of L_e = 2^(e-1) (K - 1) rounds; in every round of an epoch the
current leader duels each other arm in turn, the leader on the left (so the duel shown reveals the
leader). At the end of an epoch it releases the number of the epoch's duels the leader won plus
fresh Lap(1/epsilon) noise; if that noisy count is below L_e / 2 the lead passes to the next arm
(leader + 1 mod K), otherwise it stays. The leader plays every duel of the epoch, so one user's
answer moves the released count by at most 1 (sensitivity 1), and each answer enters exactly one
release (parallel composition); the duels shown are post-processing of the releases. A threshold
on one Laplace count is nearly tight: where the threshold L_e / 2 is an integer (every epoch but
the first when K = 2) the likelihood ratio of the decision reaches e^epsilon, so an audit can see a
loss near the one claimed (the first epoch's threshold 1/2 gives at most ln(2 e^(eps/2) - 1), about
0.83 eps at eps = 1). The mutants each break one
step of that argument, as a researcher's algorithm might:

* ``noise_shrunk``: the Laplace scale x0.5: every release 2 epsilon-DP;
* ``composition_ignored``: each release is the leader's win count over all epochs since it took
  the lead, with fresh Lap(1/epsilon) against half of all those duels: an answer enters every
  later release of that tenure, so the loss grows with the number of releases;
* ``noise_reused``: one Lap(1/epsilon) draw, added to every epoch's release: differences of
  releases are exact;
* ``sensitivity_understated``: the noise of the epoch's win rate, Lap(1 / (L_e epsilon)), added to
  the epoch's count, whose sensitivity is 1: L_e times too little noise, more so the longer the
  epoch.

:func:`leak_power` audits the reference and each mutant with the audit whose power it states
(:func:`dpbandits.dueling.checks.class_audit.audit_dueling_class`): a class is caught when that
audit refutes the mutant's epsilon claim; the reference itself must not be refuted (a test).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpbandits.evidence.audits import LeakPower, measure_leak_power

__all__ = ["EpochLeaderDuels", "LEAK_CLASSES", "leak_power"]

# leak class -> (the mutant's constructor keywords, what it gets wrong)
LEAK_CLASSES: dict[str, tuple[dict, str]] = {
    "noise_shrunk": ({"noise_multiplier": 0.5}, "noise shrunk x0.5 (a release 2 eps-DP)"),
    "composition_ignored": ({"leak": "composition"},
                            "composition ignored across releases (each answer in every later release)"),
    "noise_reused": ({"leak": "reuse"}, "noise reused across releases (one draw)"),
    "sensitivity_understated": ({"leak": "sensitivity"},
                                "sensitivity understated (an epoch's win-rate noise on its win count)"),
}


class EpochLeaderDuels:
    """The epsilon-DP reference of the leak classes, and its mutants (``leak``; module
    docstring), in the dueling family's protocol (:mod:`dpbandits.dueling.interface`)."""

    private = True
    mechanism = "Laplace(1/eps) on the leader's win count of an epoch, each answer in one epoch only"
    sensitivity = "one answer moves the released count by at most 1 (the leader plays every duel)"
    LEAKS = ("none", "composition", "reuse", "sensitivity")

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, *,
                 leak: str = "none", noise_multiplier: float = 1.0):
        if not epsilon > 0:
            raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
        if leak not in self.LEAKS:
            raise ValueError(f"leak must be one of {self.LEAKS}, got {leak!r}")
        self.k, self.rng, self.leak = int(n_arms), rng, leak
        self.scale = float(noise_multiplier) / float(epsilon)
        self.reused = rng.laplace(0.0, self.scale) if leak == "reuse" else None
        self.leader, self.epoch, self.turn = 0, 1, 0
        self.length = self.left_in_epoch = self.k - 1
        self.wins = 0  # the leader's wins in this epoch
        self.tenure_wins = self.tenure_duels = 0  # since it took the lead (composition_ignored releases them)

    def _release(self) -> None:
        """End of an epoch: release the leader's noisy win count and keep or pass the lead
        (module docstring); start the next epoch."""
        self.tenure_wins += self.wins
        self.tenure_duels += self.length
        if self.leak == "composition":
            count, duels = self.tenure_wins + self.rng.laplace(0.0, self.scale), self.tenure_duels
        elif self.leak == "reuse":
            count, duels = self.wins + self.reused, self.length
        elif self.leak == "sensitivity":
            count, duels = self.wins + self.rng.laplace(0.0, self.scale) / self.length, self.length
        else:
            count, duels = self.wins + self.rng.laplace(0.0, self.scale), self.length
        if count < duels / 2:
            self.leader = (self.leader + 1) % self.k
            self.tenure_wins = self.tenure_duels = 0
        self.epoch += 1
        self.wins = 0
        self.length = self.left_in_epoch = 2 ** (self.epoch - 1) * (self.k - 1)

    def select(self) -> tuple[int, int]:
        step = 1 + self.turn % (self.k - 1)
        return self.leader, (self.leader + step) % self.k

    def update(self, left: int, right: int, left_won: int) -> None:
        self.turn += 1
        if left == self.leader and left_won:
            self.wins += 1
        self.left_in_epoch -= 1
        if self.left_in_epoch == 0:
            self._release()


def leak_power(audit: Callable[..., object]) -> tuple[object, list[LeakPower]]:
    """The reference's audit and each leak class's (:data:`LEAK_CLASSES`), by ``audit(cls,
    params, role)``: the audit whose power is stated, run on :class:`EpochLeaderDuels` with the
    mutant's keywords (``role``: "reference" or the class name, for the caller's random streams)."""
    return measure_leak_power(audit, EpochLeaderDuels, LEAK_CLASSES)
