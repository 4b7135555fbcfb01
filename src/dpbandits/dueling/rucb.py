"""RUCB, Relative Upper Confidence Bound (Zoghi, Whiteson, Munos & de Rijke, ICML 2014, "Relative
Upper Confidence Bound for the K-Armed Dueling Bandit Problem"): non-private finite-K baseline of
the dueling paper's replication (spec 5.5; check B8).

Algorithm (spec 5.5, as in the original's Algorithm 1), alpha = 0.51:
U = W / (W + W^T) + sqrt(alpha ln t / (W + W^T)) with x/0 := 1 and u_ii = 1/2; candidates
C = {c : u_cj >= 1/2 for all j}; if C is empty c is uniform over all arms; B <- B cap C; if |C| = 1
then B <- C and c is its element; if |C| > 1, c is drawn with probability 1/2 on B and
1/(2^|B| |C \\ B|) on the others (|B| <= 1); opponent d = argmax_j u_jc, uniform ties, d != c on a
tie. Duel (c, d); o = 1 with probability P(c, d).

What is simulated: the exact law of RUCB, all runs at once, each run with its own clock. Exact
speed-up: while |C| = {c} and d = c the duel (c, c) leaves every off-diagonal count unchanged, so U
only grows through ln t and the state stays frozen until the first round t' at which some
u_jc(t') >= 1/2 (j != c); until then C = {c} (any other arm k needs u_kc >= 1/2 to enter C), B = {c}
and d = c. The engine computes t' in closed form (``_common.crossing_time``, re-checked with the
same floating-point formula) and plays (c, c) for the whole stretch in one step; outside such
stretches it plays one round per step. :class:`RUCBReference` is the plain per-round version in
the family's protocol, used by the tests to check that both give the same law.

Recommended arm: the arm that took part in most duels.
"""

from __future__ import annotations

import numpy as np

from ._common import argmax_random_ties, crossing_time, ucb_matrix
from .baseline_result import BaselineResult, Recorder, finite_view

__all__ = ["ALPHA", "simulate_rucb", "RUCBReference"]

ALPHA = 0.51


def _decide(w, t, bset, rng, alpha):
    """One RUCB decision per run: (c, d, |C|, U, updated B)."""
    runs, k, _ = w.shape
    rows = np.arange(runs)
    u = ucb_matrix(w, t, alpha)
    in_c = np.all(u >= 0.5, axis=2)
    n_c = in_c.sum(axis=1)
    # B <- B cap C
    has_b = bset >= 0
    bset = np.where(has_b & ~in_c[rows, np.maximum(bset, 0)], -1, bset)
    has_b = bset >= 0
    unif = rng.random((runs, k))
    coin = rng.random(runs) < 0.5
    c_unif_all = np.argmax(unif, axis=1)
    c_unif_c = np.argmax(in_c * unif, axis=1)          # uniform over C
    not_b = in_c.copy()
    not_b[rows, np.maximum(bset, 0)] &= ~has_b
    c_unif_cb = np.argmax(not_b * unif, axis=1)        # uniform over C \ B
    c = np.where(n_c == 0, c_unif_all, c_unif_c)
    multi = n_c > 1
    c = np.where(multi & has_b, np.where(coin, bset, c_unif_cb), c)
    single = n_c == 1
    bset = np.where(single, c, bset)
    d = argmax_random_ties(u[rows, :, c], rng, avoid=c)
    return c, d, n_c, u, bset


def simulate_rucb(instance, horizon: int, checkpoints: np.ndarray, runs: int,
                  seed: np.random.SeedSequence, alpha: float = ALPHA) -> BaselineResult:
    fin = finite_view(instance)
    k = fin.k
    pref = fin.preference
    rng = np.random.default_rng(seed)
    rec = Recorder(runs, horizon, checkpoints, k)
    rows = np.arange(runs)
    w = np.zeros((runs, k, k))
    bset = np.full(runs, -1)
    cap = horizon + 1
    while rec.active.any():
        act = rec.active
        t = np.minimum(rec.t, horizon)
        c, d, n_c, _, bset = _decide(w, t, bset, rng, alpha)
        frozen = act & (n_c == 1) & (d == c)
        length = np.ones(runs, dtype=np.int64)
        if frozen.any():
            n = w + np.swapaxes(w, 1, 2)
            wj = w[rows, :, c]
            nj = n[rows, :, c]
            tt = crossing_time(wj, nj, t[:, None], alpha, cap)
            tt[rows, c] = cap
            t_ev = tt.min(axis=1)
            length = np.where(frozen, np.maximum(t_ev - t, 1), 1)
        # outcomes of the single (non-frozen, c != d) rounds
        duel = act & ~frozen & (c != d)
        o = rng.random(runs) < pref[c, d]
        r = rows[duel]
        win, lose = np.where(o[duel], c[duel], d[duel]), np.where(o[duel], d[duel], c[duel])
        np.add.at(w, (r, win, lose), 1.0)
        rec.duel(act, c, d, length, fin)
    return rec.result("rucb", np.argmax(rec.plays, axis=1))


class RUCBReference:
    """Plain per-round RUCB of one run, in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): the same decision rule as the engine (:func:`_decide`
    on one run), so the engine is tested against it in distribution."""

    private = False
    mechanism = "none (non-private baseline)"
    sensitivity = "none (not private)"

    def __init__(self, k: int, rng: np.random.Generator, alpha: float = ALPHA):
        self.rng, self.alpha = rng, float(alpha)
        self.w = np.zeros((1, k, k))
        self.bset = np.full(1, -1)
        self.t = 0

    def select(self) -> tuple[int, int]:
        self.t += 1
        c, d, _, _, self.bset = _decide(self.w, np.array([self.t]), self.bset, self.rng, self.alpha)
        return int(c[0]), int(d[0])

    def update(self, left: int, right: int, left_won: int) -> None:
        if left != right:  # a self-duel changes no off-diagonal count (the engine skips it too)
            if left_won:
                self.w[0, left, right] += 1
            else:
                self.w[0, right, left] += 1
