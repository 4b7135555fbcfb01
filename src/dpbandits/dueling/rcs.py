"""RCS, Relative Confidence Sampling (Zoghi, Whiteson, de Rijke & Munos, WSDM 2014, "Relative
Confidence Sampling for Efficient On-Line Ranker Evaluation"): non-private finite-K baseline of the
dueling paper's replication (spec 5.5; check B8).

Algorithm (per round t): draw theta_ij ~ Beta(w_ij + 1, w_ji + 1) for i < j, theta_ji = 1 - theta_ij,
theta_ii = 1/2; the champion c is the Condorcet winner of theta (theta_cj >= 1/2 for all j) if there
is one, otherwise the arm chosen least often as champion so far (every champion choice counts; ties
to the lowest index); the challenger is d = argmax_j u_jc with RUCB's optimistic matrix U
(alpha = 0.51, as for RUCB; the original's experiments use 0.501), uniform ties, d != c on a tie.
Duel (c, d).

Verification / resolution: the spec leaves the fallback rule open. The original's rule ("if no such
c exists, pick the c that has been chosen least often as the champion") was checked against the
duelpy implementation of RCS (``_run_simulated_tournament``: Condorcet winner of the sampled
matrix, else ``argmin`` of the champion-choice counts, incremented on every choice), which follows
the paper; we use exactly that.

What is simulated: the exact law of RCS, but theta is never drawn. The theta_ij (i < j) are
independent, so "k is the Condorcet winner of theta" has probability
pi_k = prod_{j != k} q_kj with q_kj = P(Beta(w_kj + 1, w_jk + 1) > 1/2) (scipy ``betainc``), these
events are disjoint, and the champion is k with probability pi_k and the fallback arm with
probability 1 - sum_k pi_k. Only the champion enters the duel, so sampling it from this law is exact.
Exact speed-up: if some arm c0 has u_j,c0 < 1/2 for all j != c0 (at most one arm can) and the
fallback arm is not c0, each round is the duel (c0, c0) with probability pi_c0, which changes no
off-diagonal count; the number of such rounds before the next other champion is geometric, and the
stretch also ends at the first round where some u_j,c0 reaches 1/2. The engine plays the whole
stretch in one step, then one round whose champion is drawn conditionally on c != c0 (if the
stretch was ended by the geometric draw). Runs are vectorised, each with its own clock.

Recommended arm: the arm that took part in most duels.
"""

from __future__ import annotations

import numpy as np
from scipy.special import betainc

from ._common import argmax_random_ties, crossing_time, ucb_matrix
from .baseline_result import BaselineResult, Recorder, finite_view

__all__ = ["ALPHA", "simulate_rcs", "RCSReference"]

ALPHA = 0.51
_NEVER = np.iinfo(np.int64).max // 4


def simulate_rcs(instance, horizon: int, checkpoints: np.ndarray, runs: int,
                 seed: np.random.SeedSequence, alpha: float = ALPHA) -> BaselineResult:
    fin = finite_view(instance)
    k = fin.k
    pref = fin.preference
    rng = np.random.default_rng(seed)
    rec = Recorder(runs, horizon, checkpoints, k)
    rows = np.arange(runs)
    w = np.zeros((runs, k, k))
    q = np.full((runs, k, k), 0.5)             # q_ij = P(theta_ij > 1/2)
    q[:, np.arange(k), np.arange(k)] = 1.0
    cnt = np.zeros((runs, k), dtype=np.int64)  # champion choices
    cap = horizon + 1
    while rec.active.any():
        act = rec.active
        t = np.minimum(rec.t, horizon)
        pi = np.prod(q, axis=2)
        pi_none = np.clip(1.0 - pi.sum(axis=1), 0.0, None)
        f = np.argmin(cnt, axis=1)
        u = ucb_matrix(w, t, alpha)
        off = u.copy()
        off[:, np.arange(k), np.arange(k)] = -np.inf
        self_duel = np.all(off < 0.5, axis=1)          # column c: u_jc < 1/2 for all j != c
        c0 = np.argmax(self_duel, axis=1)
        frozen = act & self_duel.any(axis=1) & (f != c0)
        cond = np.zeros(runs, dtype=bool)
        if frozen.any():
            n = w + np.swapaxes(w, 1, 2)
            tt = crossing_time(w[rows, :, c0], n[rows, :, c0], t[:, None], alpha, cap)
            tt[rows, c0] = cap
            limit = tt.min(axis=1) - t
            p_leave = 1.0 - pi[rows, c0]
            g = np.where(p_leave < 1e-12, _NEVER,
                         rng.geometric(np.maximum(p_leave, 1e-12)) - 1)
            length = np.where(frozen, np.minimum(g, limit), 0)
            cond = frozen & (g < limit)
            rec.duel(frozen, c0, c0, length, fin)
            cnt[rows, c0] += np.where(frozen, np.minimum(length, rec.horizon), 0)
            act = rec.active
            if not act.any():
                break
            t = np.minimum(rec.t, horizon)
            u = ucb_matrix(w, t, alpha)
        probs = pi.copy()
        probs[rows, f] += pi_none
        probs[rows, c0] = np.where(cond, 0.0, probs[rows, c0])
        cdf = np.cumsum(probs, axis=1)
        c = np.minimum(np.sum(cdf < rng.random(runs)[:, None] * cdf[:, -1:], axis=1), k - 1)
        d = argmax_random_ties(u[rows, :, c], rng, avoid=c)
        o = rng.random(runs) < pref[c, d]
        duel = act & (c != d)
        r = rows[duel]
        cd, dd = c[duel], d[duel]
        win, lose = np.where(o[duel], cd, dd), np.where(o[duel], dd, cd)
        w[r, win, lose] += 1.0
        qn = betainc(w[r, dd, cd] + 1.0, w[r, cd, dd] + 1.0, 0.5)
        q[r, cd, dd] = qn
        q[r, dd, cd] = 1.0 - qn
        cnt[rows[act], c[act]] += 1
        rec.duel(act, c, d, np.ones(runs, dtype=np.int64), fin)
    return rec.result("rcs", np.argmax(rec.plays, axis=1))


class RCSReference:
    """Plain per-round RCS of one run, in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): theta is drawn every round, as the original does (the
    engine draws the champion from theta's exact law instead), so the engine is tested against it
    in distribution."""

    private = False
    mechanism = "none (non-private baseline)"
    sensitivity = "none (not private)"

    def __init__(self, k: int, rng: np.random.Generator, alpha: float = ALPHA):
        self.k, self.rng, self.alpha = k, rng, float(alpha)
        self.w = np.zeros((1, k, k))
        self.chosen = np.zeros(k, dtype=np.int64)  # champion choices
        self.t = 0

    def select(self) -> tuple[int, int]:
        self.t += 1
        k = self.k
        theta = np.full((k, k), 0.5)
        for i in range(k):
            for j in range(i + 1, k):
                theta[i, j] = self.rng.beta(self.w[0, i, j] + 1.0, self.w[0, j, i] + 1.0)
                theta[j, i] = 1.0 - theta[i, j]
        winners = np.flatnonzero(np.all(theta >= 0.5, axis=1))
        c = int(winners[0]) if winners.size else int(np.argmin(self.chosen))
        self.chosen[c] += 1
        u = ucb_matrix(self.w, np.array([self.t]), self.alpha)
        d = int(argmax_random_ties(u[:, :, c], self.rng, avoid=np.array([c]))[0])
        return c, d

    def update(self, left: int, right: int, left_won: int) -> None:
        if left != right:
            if left_won:
                self.w[0, left, right] += 1
            else:
                self.w[0, right, left] += 1
