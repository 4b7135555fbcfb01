"""Doubler (Ailon, Karnin & Joachims, ICML 2014, "Reducing Dueling Bandits to Cardinal Bandits"),
with UCB1 (Auer, Cesa-Bianchi & Fischer 2002) as the MAB learner: non-private finite-K baseline of
the dueling paper's replication (spec 5.5; check B8).

Algorithm: epochs i = 0, 1, 2, ... cover rounds 2^i .. 2^(i+1) - 1 (length 2^i). In each epoch a fresh
UCB1 picks the right arm y_t (index mean + sqrt(2 ln tau / n), tau the round within the epoch, each
arm once first, ties to the lowest index) and is fed the right arm's win indicator
1{y_t beats x_t} = 1 - o_t; the left arm x_t is drawn uniformly from the multiset of right arms
played in the previous epoch. Resolutions: the first epoch's multiset is one uniformly random arm
(the paper says "arbitrary"); epochs start at t = 1 (the paper indexes them from i = 1).

What is simulated: the exact law of the duel sequence as seen by the learner, all runs at once with
per-run clocks. Given the epoch's left multiset L, the left arm is i.i.d. uniform on L and never
used by the learner except through the outcome, so the rewards of right arm y are i.i.d.
Bernoulli(mu_y), mu_y = mean_{x in L} P(y, x), and the left arm is not materialised: its regret is
booked at its conditional expectation mean_{x in L} (regret of x) per round (a Rao-Blackwellised
pseudo-regret: same expectation, lower variance; ``plays`` books the left slot in expectation too).
UCB1 is advanced speculatively: the current leader's rewards for the next B rounds are drawn, its and
the others' indices are evaluated over those rounds, and the run accepts the rounds up to the first
one at which the leader would not be UCB1's choice (draws after it are discarded), so the law is
exact; B adapts to the observed run lengths.

Recommended arm: UCB1's most-pulled arm of the last epoch.
"""

from __future__ import annotations

import numpy as np

from .baseline_result import BaselineResult, Recorder, finite_view

__all__ = ["simulate_doubler", "DoublerReference"]


def simulate_doubler(instance, horizon: int, checkpoints: np.ndarray, runs: int,
                     seed: np.random.SeedSequence) -> BaselineResult:
    fin = finite_view(instance)
    k = fin.k
    pref = fin.preference
    gp, gu = fin.pref_gaps, fin.util_gaps
    rng = np.random.default_rng(seed)
    rec = Recorder(runs, horizon, checkpoints, k)
    rows = np.arange(runs)
    arms = np.arange(k)
    left = np.zeros((runs, k))
    left[rows, rng.integers(0, k, size=runs)] = 1.0
    start = np.ones(runs, dtype=np.int64)       # first round of the current epoch
    n = np.zeros((runs, k))
    s = np.zeros((runs, k))
    last_n = n.copy()
    block = 8

    def new_epoch_stats(lcnt):
        lw = lcnt / lcnt.sum(axis=1, keepdims=True)
        return lw @ pref.T, lw @ gp, lw @ gu     # mu[r, y] = sum_x lw[r, x] P(y, x)

    mu, lrate_p, lrate_u = new_epoch_stats(left)
    while rec.active.any():
        act = rec.active
        t = rec.t
        end = 2 * start - 1                     # last round of the epoch
        tau = t - start + 1
        unpulled = n == 0
        init = unpulled.any(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            idx = s / n + np.sqrt(2.0 * np.log(tau)[:, None] / n)
        lead = np.where(init, np.argmax(unpulled, axis=1), np.argmax(np.where(unpulled, -np.inf, idx), axis=1))
        cap = np.minimum(end - t + 1, rec.remaining())
        b = int(max(1, min(block, cap[act].max())))
        rew = rng.random((runs, b)) < mu[rows, lead][:, None]
        csum = np.concatenate([np.zeros((runs, 1)), np.cumsum(rew, axis=1)], axis=1)
        kk = np.arange(b)
        if not init.all():
            na = n[rows, lead][:, None] + kk
            lt = np.log(tau[:, None] + kk)                                # (R, B)
            with np.errstate(divide="ignore", invalid="ignore"):
                ia = (s[rows, lead][:, None] + csum[:, :b]) / na + np.sqrt(2.0 * lt / na)
                io = (s / n)[:, :, None] + np.sqrt(2.0 * lt[:, None, :] / n[:, :, None])  # (R, K, B)
            lower = arms[None, :] < lead[:, None]
            upper = arms[None, :] > lead[:, None]
            m_lo = np.max(np.where(lower[:, :, None], io, -np.inf), axis=1)
            m_hi = np.max(np.where(upper[:, :, None], io, -np.inf), axis=1)
            ok = (ia > m_lo) & (ia >= m_hi)
            ok[:, 0] = True
            bad = ~ok
            acc = np.where(bad.any(axis=1), np.argmax(bad, axis=1), b)
        else:
            acc = np.full(runs, b)
        acc = np.where(init, 1, acc)
        acc = np.where(act, np.minimum(acc, cap), 0)
        n[rows, lead] += acc
        s[rows, lead] += csum[rows, acc]
        rec.plays[rows, lead] += acc
        rec.plays += left / left.sum(axis=1, keepdims=True) * acc[:, None]
        rec.advance(acc, lrate_p + gp[lead], lrate_u + gu[lead])
        sel = act & ~init
        if sel.any():
            block = int(np.clip(2 * np.median(acc[sel]) + 2, 4, 2048))
        over = act & (rec.t > end)              # epoch finished: next epoch
        if over.any():
            left[over] = n[over]
            last_n[over] = n[over]
            n[over] = 0.0
            s[over] = 0.0
            start[over] = end[over] + 1
            mu_n, lp, lu = new_epoch_stats(left[over])
            mu[over], lrate_p[over], lrate_u[over] = mu_n, lp, lu
    final = np.where((n.sum(axis=1) >= last_n.sum(axis=1))[:, None], n, last_n)
    return rec.result("doubler", np.argmax(final, axis=1))


class DoublerReference:
    """Plain per-round Doubler of one run, in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): the left arm is drawn from the previous epoch's multiset
    and played (the engine books it at its conditional expectation), and UCB1 is fed
    1{y beats x} = 1 - o_t every round. The engine is tested against it in distribution."""

    private = False
    mechanism = "none (non-private baseline)"
    sensitivity = "none (not private)"

    def __init__(self, k: int, rng: np.random.Generator):
        self.k, self.rng = k, rng
        self.left = np.zeros(k)
        self.left[int(rng.integers(0, k))] = 1.0   # the first epoch's multiset: one random arm
        self.start = 1                               # first round of the current epoch
        self.t = 0
        self.n = np.zeros(k)
        self.s = np.zeros(k)

    def select(self) -> tuple[int, int]:
        self.t += 1
        if self.t > 2 * self.start - 1:             # epoch over: its right arms are the next left multiset
            self.left, self.start = self.n.copy(), self.t
            self.n, self.s = np.zeros(self.k), np.zeros(self.k)
        unpulled = np.flatnonzero(self.n == 0)
        if unpulled.size:
            y = int(unpulled[0])
        else:
            tau = self.t - self.start + 1
            y = int(np.argmax(self.s / self.n + np.sqrt(2.0 * np.log(tau) / self.n)))
        x = int(self.rng.choice(self.k, p=self.left / self.left.sum()))
        return x, y

    def update(self, left: int, right: int, left_won: int) -> None:
        self.n[right] += 1
        self.s[right] += 1 - left_won
