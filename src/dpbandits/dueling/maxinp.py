"""MaxInP, Maximum-Informative-Pair (Saha, NeurIPS 2021, "Optimal Algorithms for Stochastic
Contextual Preference Bandits"), adapted to a fixed finite arm set in d dimensions: non-private
d-dimensional baseline of the dueling paper's replication (spec 5.5; check C10).

Algorithm (spec 5.5): after t0 rounds of uniformly random pairs, compute the logistic MLE w_hat_t
and V_t = sum_s z_s z_s^T (z = x_a - x_b); active set
S_t = {x : w_hat^T (x - y) + beta_t ||x - y||_{V_t^-1} >= 0 for all y}; play the pair of S_t that
maximises ||x - y||_{V_t^-1} (a single survivor plays (x, x)).

Constants and resolutions (the original's exact constants were NOT verified: the search corpus has
no copy of the paper): beta_t = (1/kappa) sqrt((d/2) log(1 + 2t/d) + log(1/delta)) with delta = 1/T
(the usual GLM-UCB form, consistent with spec 5.5's "beta ~ sqrt(d log T)/kappa"); kappa from
``instances.kappa`` (mode "thm" = sigma'(S + 1) by default, "inst" optional); t0 = 10 d rounds of
uniform random pairs of distinct arms; the MLE is ridge-regularised with lambda = 1 (keeps Newton
well-posed when the data are separable early on) and computed by warm-started Newton steps on the
sufficient statistics (play and win counts of each ordered pair).

Documented batched variant (deviation, for speed): the MLE, beta_t and the active set are recomputed
only at geometrically spaced rounds t_{j+1} = max(t_j + 1, ceil((1 + gamma) t_j)), gamma = 0.05
(about 250 recomputations up to T = 1e7). Within a batch of L rounds the active set is fixed and V is
updated exactly but the max-information pair is re-chosen only every ceil(L / 8) rounds (8 chunks
per batch; the chosen pair is played for the whole chunk and its outcomes drawn as a binomial).

What is simulated: the batched variant above, vectorised over runs (one common clock).
Recommended arm: argmax of w_hat^T x at the end.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from .baseline_result import BaselineResult, Recorder
from .instances import kappa as kappa_fn

__all__ = ["simulate_maxinp", "GAMMA", "CHUNKS", "MaxInPReference"]

GAMMA = 0.05
CHUNKS = 8
RIDGE = 1.0


def _newton(w, z, n, s, iters):
    """Ridge-regularised logistic MLE from (R, P) play / win counts of P difference vectors z."""
    d = z.shape[1]
    eye = np.eye(d)
    for _ in range(iters):
        m = expit(w @ z.T)                                     # (R, P)
        g = ((n * m - s) @ z) + RIDGE * w
        h = np.einsum("rp,pd,pe->rde", n * m * (1 - m), z, z) + RIDGE * eye
        w = w - np.linalg.solve(h, g[:, :, None])[:, :, 0]
    return w


def simulate_maxinp(instance, horizon: int, checkpoints: np.ndarray, runs: int,
                    seed: np.random.SeedSequence, kappa_mode: str = "thm") -> BaselineResult:
    x = instance.arms
    k, d = x.shape
    fin = instance.as_finite()
    pref = fin.preference
    rng = np.random.default_rng(seed)
    rec = Recorder(runs, horizon, checkpoints, k)
    rows = np.arange(runs)
    ii, jj = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    ii, jj = ii.ravel(), jj.ravel()
    z = x[ii] - x[jj]                                          # (P, d), P = K^2 ordered pairs
    npl = np.zeros((runs, k * k))
    nwin = np.zeros((runs, k * k))
    v = np.zeros((runs, d, d))
    kap = kappa_fn(kappa_mode, instance.s_norm, x, instance.w_star)
    log_inv_delta = math.log(horizon)

    def play(pidx, length):
        length = np.minimum(length, rec.remaining())
        p = pref[ii[pidx], jj[pidx]]
        wins = rng.binomial(length, p)
        np.add.at(npl, (rows, pidx), length)
        np.add.at(nwin, (rows, pidx), wins)
        zz = z[pidx]
        v[:] += length[:, None, None] * zz[:, :, None] * zz[:, None, :]
        rec.duel(np.ones(runs, dtype=bool), ii[pidx], jj[pidx], length, fin)

    t0 = min(10 * d, horizon)
    for _ in range(t0):
        a = rng.integers(0, k, size=runs)
        b = (a + rng.integers(1, k, size=runs)) % k
        play(a * k + b, np.ones(runs, dtype=np.int64))
    w = np.zeros((runs, d))
    first = True
    while rec.active.any():
        t = int(rec.t[0])
        nxt = min(max(t + 1, math.ceil((1 + GAMMA) * t)), horizon + 1)
        w = _newton(w, z, npl, nwin, 8 if first else 3)
        first = False
        beta = math.sqrt(d / 2 * math.log(1 + 2 * t / d) + log_inv_delta) / kap
        vinv = np.linalg.inv(v + 1e-9 * np.eye(d))
        wn = np.einsum("pd,rde,pe->rp", z, vinv, z)            # ||x_i - x_j||^2_{V^-1}
        lcb = (w @ z.T) + beta * np.sqrt(np.maximum(wn, 0.0))  # (R, P): row i vs column j
        active = np.all(lcb.reshape(runs, k, k) >= -1e-12, axis=2)   # (R, K)
        pair_ok = (active[:, ii] & active[:, jj])
        total = nxt - t
        chunk = max(1, math.ceil(total / CHUNKS))
        done = 0
        while done < total:
            ln = min(chunk, total - done)
            vinv = np.linalg.inv(v + 1e-9 * np.eye(d))
            wn = np.einsum("pd,rde,pe->rp", z, vinv, z)
            pidx = np.argmax(np.where(pair_ok, wn, -np.inf), axis=1)
            play(pidx, np.full(runs, ln, dtype=np.int64))
            done += ln
    w = _newton(w, z, npl, nwin, 3)
    return rec.result("maxinp", np.argmax(w @ x.T, axis=1))


class MaxInPReference:
    """Plain per-round MaxInP of one run, in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): the batched variant above (the MLE and the active set at
    the geometric rounds, the pair re-chosen at each chunk), but every round's answer drawn and
    counted on its own (the engine draws a chunk's wins as one binomial). The engine is tested
    against it in distribution."""

    private = False
    mechanism = "none (non-private baseline)"
    sensitivity = "none (not private)"

    def __init__(self, instance, horizon: int, rng: np.random.Generator, kappa_mode: str = "thm"):
        x = instance.arms
        self.k, self.d = x.shape
        self.horizon, self.rng = int(horizon), rng
        ii, jj = np.meshgrid(np.arange(self.k), np.arange(self.k), indexing="ij")
        self.ii, self.jj = ii.ravel(), jj.ravel()
        self.z = x[self.ii] - x[self.jj]
        self.npl = np.zeros((1, self.k * self.k))
        self.nwin = np.zeros((1, self.k * self.k))
        self.v = np.zeros((self.d, self.d))
        self.kappa = kappa_fn(kappa_mode, instance.s_norm, x, instance.w_star)
        self.log_inv_delta = math.log(self.horizon)
        self.t0 = min(10 * self.d, self.horizon)
        self.w = np.zeros((1, self.d))
        self.played = 0
        self.first = True
        self.batch_end = 0            # the round at which the next batch starts
        self.pair_ok = self.pidx = None
        self.in_batch = self.chunk = 0

    def _wn(self) -> np.ndarray:
        vinv = np.linalg.inv(self.v + 1e-9 * np.eye(self.d))
        return np.einsum("pd,de,pe->p", self.z, vinv, self.z)

    def select(self) -> tuple[int, int]:
        t = self.played + 1
        if t <= self.t0:
            a = int(self.rng.integers(0, self.k))
            return a, int((a + self.rng.integers(1, self.k)) % self.k)
        if t >= self.batch_end:
            self.batch_end = min(max(t + 1, math.ceil((1 + GAMMA) * t)), self.horizon + 1)
            self.w = _newton(self.w, self.z, self.npl, self.nwin, 8 if self.first else 3)
            self.first = False
            beta = math.sqrt(self.d / 2 * math.log(1 + 2 * t / self.d) + self.log_inv_delta) / self.kappa
            lcb = (self.w[0] @ self.z.T) + beta * np.sqrt(np.maximum(self._wn(), 0.0))
            active = np.all(lcb.reshape(self.k, self.k) >= -1e-12, axis=1)
            self.pair_ok = active[self.ii] & active[self.jj]
            self.chunk = max(1, math.ceil((self.batch_end - t) / CHUNKS))
            self.in_batch = 0
        if self.in_batch % self.chunk == 0:
            self.pidx = int(np.argmax(np.where(self.pair_ok, self._wn(), -np.inf)))
        self.in_batch += 1
        return int(self.ii[self.pidx]), int(self.jj[self.pidx])

    def update(self, left: int, right: int, left_won: int) -> None:
        p = left * self.k + right
        self.npl[0, p] += 1
        self.nwin[0, p] += left_won
        self.v += np.outer(self.z[p], self.z[p])
        self.played += 1
