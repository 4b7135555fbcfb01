"""Examples of a researcher's own locally private contextual bandit, in the two-sided protocol of
:mod:`dpbandits.contextual.interface` (docs/library.md, "Bring your own algorithm"):

* :class:`GreedyOnOneBin`, a server policy: one bin (no partition), batches of 50 users, each
  shown a uniformly random arm during the first K batches, then the arm with the best noisy mean
  reward so far, or a uniformly random one with probability 1/sqrt(batch number);
* :class:`LaplaceReports`, a correct local randomiser written from the paper's eqs. (11)-(12):
  every active (bin, arm) entry of U~ and V~ gets its own Laplace(4/eps) draw, so any two users'
  reports are eps-close (each vector changes by at most 2 in l1, eps/2 each);
* :class:`ReusedNoiseReports`, a deliberately broken one: one Laplace draw per user, added to
  every entry. Each entry alone has the right law, but the differences between entries are
  exact, so the report reveals the user's (bin, arm) and reward: the audit
  (:func:`dpbandits.contextual.checks.audits.audit_randomizer_class`) must refute it;
  :class:`GreedyWithReusedNoise` is :class:`GreedyOnOneBin` with it (``config/smoke.yaml`` runs both
  policies under ``contextual.extra_algorithms``).
"""

from __future__ import annotations

import math

import numpy as np

from dpbandits.contextual.randomizer import PublicPartition, Report


class LaplaceReports:
    """eps-LDP: independent Laplace(4/eps) noise on every reported entry (module docstring)."""

    private = True
    mechanism = "Laplace(4/eps) on every active (bin, arm) entry of U~ and V~"
    sensitivity = "||U(z) - U(z')||_1 <= 2 and ||V(z) - V(z')||_1 <= 2"

    def __init__(self, epsilon: float, rng: np.random.Generator):
        self.epsilon, self.rng = epsilon, rng
        self.scale = 4.0 / epsilon

    def _raw(self, x, arm, reward, public: PublicPartition):
        u = np.zeros(public.active.shape)
        j = public.bin_of(x)
        u[j, arm] = 1.0 if public.active[j, arm] else 0.0
        return u, reward * u

    def release(self, x, arm: int, reward: float, public: PublicPartition) -> Report:
        u, v = self._raw(x, arm, reward, public)
        mask = public.active
        u_noisy = np.where(mask, u + self.rng.laplace(0.0, self.scale, u.shape), 0.0)
        v_noisy = np.where(mask, v + self.rng.laplace(0.0, self.scale, u.shape), 0.0)
        return Report(u_noisy, v_noisy, int(mask.sum()))


class ReusedNoiseReports(LaplaceReports):
    """Broken: one Laplace draw per user, shared by every entry (module docstring)."""

    mechanism = "one Laplace(4/eps) draw per user added to every entry (not LDP: differences are exact)"

    def release(self, x, arm: int, reward: float, public: PublicPartition) -> Report:
        u, v = self._raw(x, arm, reward, public)
        mask = public.active
        shared = self.rng.laplace(0.0, self.scale)
        return Report(np.where(mask, u + shared, 0.0), np.where(mask, v + shared, 0.0), int(mask.sum()))


class GreedyOnOneBin:
    """A server policy on one bin: uniformly random arms for K batches, then the best noisy mean
    so far, explored with probability 1/sqrt(batch number) (module docstring). It sees only the
    users' reports."""

    randomizer = LaplaceReports

    def __init__(self, n_arms: int, dim: int, epsilon: float, horizon: int, rng: np.random.Generator,
                 batch: int = 50):
        self.k, self.rng, self.batch = n_arms, rng, batch
        self.partition = PublicPartition(np.zeros((1, dim)), np.ones((1, dim)), np.ones((1, n_arms), dtype=bool))
        self.pulls = np.zeros(n_arms)   # sum of the noisy U~ entries: the noisy number of pulls
        self.wins = np.zeros(n_arms)    # sum of the noisy V~ entries: the noisy reward sums
        self.batches = 0

    def public(self) -> PublicPartition:
        return self.partition

    def act(self, x) -> int:
        explore = self.rng.random() < 1.0 / math.sqrt(self.batches + 1)
        if explore or self.batches < self.k:
            return int(self.rng.integers(self.k))
        return int(np.argmax(self.wins / np.maximum(self.pulls, 1.0)))

    def receive(self, report: Report) -> None:
        self.pulls += report.u[0]
        self.wins += report.v[0]

    def end_batch(self) -> None:
        self.batches += 1


class GreedyWithReusedNoise(GreedyOnOneBin):
    """The same policy with the broken randomiser (:class:`ReusedNoiseReports`): the policy is
    unchanged, its users' reports are not LDP, so the audit of its randomiser must refute it."""

    randomizer = ReusedNoiseReports
