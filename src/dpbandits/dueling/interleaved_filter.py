"""Interleaved Filter 2, IF2 (Yue, Broder, Kleinberg & Joachims, JCSS 2012, "The K-armed Dueling
Bandits Problem"): non-private finite-K baseline of the dueling paper's replication (spec 5.5;
check B8).

Algorithm (explore then exploit), delta = 1 / (T K^2):
* the candidate b_hat starts uniformly at random, W = all other arms;
* each pass duels (b_hat, b) once for every b in W; after n passes, P_hat(b) = wins of b_hat over b
  / n and C_hat(b) = P_hat(b) +- sqrt(4 log(1/delta) / n) (natural log);
* after each pass: every b with P_hat > 1/2 and 1/2 outside C_hat is removed; then, if some b' has
  P_hat < 1/2 and 1/2 outside C_hat, IF2's pruning removes every b with P_hat > 1/2, b' becomes the
  candidate, W <- W minus b', and all estimates are reset;
* when W is empty, b_hat is the winner and the rest of the horizon plays (b_hat, b_hat).

Resolutions: if several b' qualify in the same pass, the one with the smallest P_hat (the strongest
challenger) is taken (the paper says "any"). Inside a pass the order of the duels is immaterial to the
algorithm; the pseudo-regret is charged per pass at its average per-round rate (exactly the pass's
regret; a checkpoint falling inside a pass gets the pro-rata share, as if the pass were in random
order), and the final, truncated pass likewise.

What is simulated: the exact law of IF2, all runs at once, each run with its own clock. Passes are
drawn in blocks of up to 512 per run (outcomes of b_hat vs every arm, cumulative sums), and each run
is advanced to the first pass of the block that triggers an elimination or a switch; draws after it
are discarded (fresh independent draws are used afterwards), which keeps the law exact.

Recommended arm: the final candidate b_hat (the filter's output).
"""

from __future__ import annotations

import math

import numpy as np

from .baseline_result import BaselineResult, Recorder, finite_view

__all__ = ["simulate_if2", "IF2Reference"]

_BLOCK = 512


def simulate_if2(instance, horizon: int, checkpoints: np.ndarray, runs: int,
                 seed: np.random.SeedSequence) -> BaselineResult:
    fin = finite_view(instance)
    k = fin.k
    pref = fin.preference
    gaps = fin.pref_gaps
    ugaps = fin.util_gaps
    rng = np.random.default_rng(seed)
    rec = Recorder(runs, horizon, checkpoints, k)
    rows = np.arange(runs)
    log_inv_delta = math.log(horizon * k * k)
    bhat = rng.integers(0, k, size=runs)
    wset = np.ones((runs, k), dtype=bool)
    wset[rows, bhat] = False
    n = np.zeros(runs, dtype=np.int64)
    s = np.zeros((runs, k))
    while rec.active.any():
        act = rec.active
        m = wset.sum(axis=1)
        done = act & (m == 0)
        if done.any():  # exploit: (b_hat, b_hat) to the end
            rec.duel(done, bhat, bhat, rec.remaining(), fin)
            act = rec.active
            if not act.any():
                break
        m1 = np.maximum(m, 1)
        budget = rec.remaining() // m1                       # full passes that fit
        block = int(min(_BLOCK, max(1, budget[act].max())))
        draws = rng.random((runs, block, k)) < pref[bhat][:, None, :]
        cum = s[:, None, :] + np.cumsum(draws, axis=1)
        nn = n[:, None] + np.arange(1, block + 1)[None, :]
        ph = cum / nn[:, :, None]
        rad = np.sqrt(4.0 * log_inv_delta / nn)[:, :, None]
        elim = wset[:, None, :] & (ph - rad > 0.5)
        switch = wset[:, None, :] & (ph + rad < 0.5)
        event = np.any(elim | switch, axis=2)
        has_ev = event.any(axis=1)
        first = np.where(has_ev, np.argmax(event, axis=1) + 1, block)   # passes accepted
        passes = np.minimum(first, budget)
        partial = act & (budget < first)        # horizon ends inside this block
        rounds = np.where(partial, rec.remaining(), passes * m1)
        rounds = np.where(act, rounds, 0)
        rate_p = (gaps[bhat] + (wset * gaps).sum(axis=1) / m1)
        rate_u = (ugaps[bhat] + (wset * ugaps).sum(axis=1) / m1)
        full_passes = np.where(act, np.where(partial, rounds // m1, passes), 0)
        rec.plays[rows, bhat] += rounds
        rec.plays += wset * full_passes[:, None]
        rec.advance(rounds, rate_p, rate_u)
        # apply the event of runs that reached it
        hit = act & ~partial & has_ev
        if hit.any():
            r = rows[hit]
            idx = first[r] - 1
            s[r] = cum[r, idx]
            n[r] = nn[r, idx]
            wset[r] &= ~elim[r, idx]
            sw = switch[r, idx]
            any_sw = sw.any(axis=1)
            if any_sw.any():
                r2 = r[any_sw]
                ph2 = ph[r2, idx[any_sw]]
                new = np.argmin(np.where(sw[any_sw], ph2, np.inf), axis=1)
                wset[r2] &= ~(ph2 > 0.5)                 # IF2 pruning
                wset[r2, new] = False
                bhat[r2] = new
                n[r2] = 0
                s[r2] = 0.0
        go = act & ~partial & ~has_ev
        if go.any():
            r = rows[go]
            s[r] = cum[r, block - 1]
            n[r] = nn[r, block - 1]
    return rec.result("if2", bhat)


class IF2Reference:
    """Plain per-round IF2 of one run, in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): each pass duels (b_hat, b) once for every b in W, in a
    random order (the engine books a pass at its average rate, as if in random order), and the
    rules above are applied after each complete pass. The engine is tested against it in
    distribution."""

    private = False
    mechanism = "none (non-private baseline)"
    sensitivity = "none (not private)"

    def __init__(self, k: int, horizon: int, rng: np.random.Generator):
        self.rng = rng
        self.log_inv_delta = math.log(horizon * k * k)
        self.bhat = int(rng.integers(0, k))
        self.wset = np.ones(k, dtype=bool)
        self.wset[self.bhat] = False
        self.n = 0
        self.s = np.zeros(k)          # wins of b_hat over b in the completed passes
        self.pass_wins = np.zeros(k)
        self.queue: list[int] = []    # the rest of the current pass

    def select(self) -> tuple[int, int]:
        if not self.wset.any():
            return self.bhat, self.bhat
        if not self.queue:
            self.queue = [int(b) for b in self.rng.permutation(np.flatnonzero(self.wset))]
        return self.bhat, self.queue[0]

    def update(self, left: int, right: int, left_won: int) -> None:
        if not self.wset.any():
            return
        self.queue.pop(0)
        self.pass_wins[right] += left_won
        if self.queue:
            return
        self.n += 1
        self.s += self.pass_wins
        self.pass_wins[:] = 0.0
        ph = self.s / self.n
        rad = math.sqrt(4.0 * self.log_inv_delta / self.n)
        elim = self.wset & (ph - rad > 0.5)
        switch = self.wset & (ph + rad < 0.5)
        self.wset &= ~elim
        if switch.any():
            new = int(np.argmin(np.where(switch, ph, np.inf)))
            self.wset &= ~(ph > 0.5)      # IF2 pruning
            self.wset[new] = False
            self.bhat = new
            self.n = 0
            self.s[:] = 0.0
