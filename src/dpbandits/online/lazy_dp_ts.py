"""Algorithm 3: Lazy-DP-TS (online paper, section 4.1; spec section 2.3).

Each round t > K: mu_bar_j = Clip_[0,1](mu_tilde_j + 3 ln t / (epsilon O_j)), then
theta_j ~ Beta(mu_bar_j O_j + 1, (1 - mu_bar_j) O_j + 1) independently, pull argmax theta.
O_j is the size of the last processed batch (not the total number of pulls). The batch update
and the private means are those of Algorithm 1 (:class:`DoublingBatchMeans`).

Privacy: epsilon-DP (Theorem 4): the only data-dependent release is the Lap(1/epsilon) on each
batch sum (sensitivity 1); the Beta sampling is post-processing with independent randomness.

Fast engine (:func:`simulate_fast`), exact, with two paths; the state is frozen between batch
completions, so given it the rounds are independent draws with a slowly moving ln t.
* Chunks (early, while challengers often win): a chunk of rounds' Beta draws is made at once
  (each round with its own ln t) and accepted up to the first batch completion; later draws are
  discarded. Cost linear in the chunk (the Beta draws; parameters and acceptance are compiled
  loops).
* Thinning (once the leader rarely loses): over a window [t0, t1] every Beta draw is a monotone
  function of its round's uniform and of t, so one event B with constant probability p_B
  contains every round at which the leader can lose (:class:`_Envelope`). Rounds outside B are
  leader pulls; the B rounds are drawn as geometric gaps, and at each one the uniforms are drawn
  conditional on B and mapped through the arms' Beta quantile functions at that round. Cost
  grows with the number of B rounds (about the number of suboptimal pulls), not with T:
  T = 10^8 costs about 2.3x T = 10^6 (benchmarks/bench_online.py).
Rewards of the accepted pulls are drawn as one Binomial per arm.
"""

from __future__ import annotations

import functools
import math
from typing import ClassVar

import numpy as np
from numba import njit
from scipy.special import betaincc, betainccinv, betaincinv

from dpbandits.online.lazy_batches import DoublingBatchMeans
from dpbandits.sim.reference import RunResult
from dpbandits.sim.stretches import StretchRun

__all__ = ["LazyDPTS", "shifted_mean", "simulate_fast"]


def shifted_mean(mu_tilde, O, log_t, epsilon: float):
    """mu_bar = Clip_[0,1](mu_tilde + 3 ln t / (epsilon O)) (Alg. 3, line 4)."""
    return np.clip(mu_tilde + 3.0 * log_t / (epsilon * O), 0.0, 1.0)


class LazyDPTS:
    """Per-step reference implementation of Algorithm 3 (anytime)."""

    # the privacy statement every algorithm of the family makes (dpbandits.online.interface.BanditAlgorithm)
    private: ClassVar[bool] = True
    mechanism: ClassVar[str] = ("Laplace(1/epsilon) on each doubling batch's reward sum, per arm "
                                "(DoublingBatchMeans); the Beta sampling is post-processing")
    sensitivity: ClassVar[float] = 1.0  # of a released sum, when one reward changes

    def __init__(self, n_arms: int, epsilon: float, noise_rng: np.random.Generator,
                 policy_rng: np.random.Generator, noise_multiplier: float = 1.0):
        self.n_arms = n_arms
        self.epsilon = float(epsilon)
        self.policy_rng = policy_rng
        self.state = DoublingBatchMeans(n_arms, epsilon, noise_rng, noise_multiplier)

    @property
    def releases(self) -> np.ndarray:
        return self.state.releases

    def select(self, t: int) -> int:
        if t <= self.n_arms:
            return t - 1
        O = self.state.O
        mu_bar = shifted_mean(self.state.mu_tilde, O, math.log(t), self.epsilon)
        theta = self.policy_rng.beta(mu_bar * O + 1.0, (1.0 - mu_bar) * O + 1.0)
        return int(np.argmax(theta))

    def update(self, t: int, arm: int, reward: float) -> None:
        if t <= self.n_arms:
            self.state.initialise(arm, reward)
        else:
            self.state.add(arm, 1, reward)


def _beta_params(mu_tilde, O, log_t, epsilon):
    mu_bar = shifted_mean(mu_tilde, O, log_t, epsilon)
    return mu_bar * O + 1.0, (1.0 - mu_bar) * O + 1.0


@functools.cache
def _levels(n_grid: int) -> tuple[np.ndarray, np.ndarray]:
    """The envelope's candidate levels (geometric on [1e-14, 0.5]) and log(1 - level), computed
    once per grid size (read-only)."""
    levels = np.geomspace(1e-14, 0.5, n_grid)
    log_keep = np.log1p(-levels)
    levels.flags.writeable = log_keep.flags.writeable = False
    return levels, log_keep


class _Envelope:
    """A round-independent event B that contains every round at which the leader can lose.

    For rounds t in a window [t0, t1] with the state frozen, mu_bar_j(t) is non-decreasing in t,
    so theta_j(t) = F_{j,t}^{-1}(U_j) is non-decreasing in t for fixed uniforms U_j. With a
    threshold c, the leader L wins whenever theta_L(t) >= c > theta_j(t) for all j != L, and
    that holds whenever U_L >= F_{L,t0}(c) and S_j := 1 - U_j >= P_{t1}(theta_j > c) for all j.
    The complement of those uniform constraints, B, has one probability p_B over the window.
    """

    def __init__(self, state, log_t0: float, log_t1: float, epsilon: float, n_grid: int = 48):
        O = state.O.astype(float)
        a0, b0 = _beta_params(state.mu_tilde, O, log_t0, epsilon)
        a1, b1 = _beta_params(state.mu_tilde, O, log_t1, epsilon)
        self.leader = int(np.argmax(a0 / (a0 + b0)))
        L = self.leader
        # Candidate thresholds: lower quantiles of the leader's posterior at t0.
        levels, log_keep = _levels(n_grid)
        c = betaincinv(a0[L], b0[L], levels)
        others = np.delete(np.arange(O.size), L)
        upper = betaincc(a1[others, None], b1[others, None], c[None, :])  # P_{t1}(theta_j > c)
        with np.errstate(divide="ignore"):  # an upper tail of 1 makes B certain: log 0
            log_ok = log_keep + np.log1p(-upper).sum(axis=0)
        best = int(np.argmax(log_ok))
        self.threshold = float(c[best])
        self.p = float(-np.expm1(log_ok[best]))  # P(B)
        # Violation probabilities in the fixed order (leader, then the others).
        self.order = np.concatenate([[L], others])
        self.viol = np.concatenate([[levels[best]], upper[:, best]])

    def sample_tails(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` draws of the arms' tail uniforms conditional on B (by first violated constraint).

        Column 0 (leader) holds a lower-tail probability U_L; the others upper-tail
        probabilities S_j. Returned in arm order, shape (n, K).
        """
        viol = self.viol
        ok_before = np.concatenate([[1.0], np.cumprod(1.0 - viol)[:-1]])
        first_w = ok_before * viol
        first = rng.choice(viol.size, size=n, p=first_w / first_w.sum())
        u = rng.random((n, viol.size))
        col = np.arange(viol.size)[None, :]
        lo = np.where(col < first[:, None], viol, 0.0)  # satisfied: beyond the violation region
        hi = np.where(col == first[:, None], viol, 1.0)  # violated: inside it
        tails = lo + (hi - lo) * u
        out = np.empty_like(tails)
        out[:, self.order] = tails
        return out


def _geometric(rng: np.random.Generator, p: float, n: int) -> np.ndarray:
    """``n`` Geometric(p) gaps (support 1, 2, ...) by inversion, in floats so that a tiny p
    (even 0, meaning never) gives huge gaps instead of an integer overflow."""
    with np.errstate(divide="ignore"):
        gaps = np.ceil(np.log1p(-rng.random(n)) / np.log1p(-p))
    return np.maximum(gaps, 1.0)


def _thinned_window(run: StretchRun, state: DoublingBatchMeans, env: _Envelope, t0: int, t1: int,
                    epsilon: float, policy_rng: np.random.Generator, batch: int = 256) -> int:
    """Play rounds t0..t1 (or up to the first batch completion) by thinning; returns next round.

    Rounds outside B are leader pulls; at the rounds where B occurs (a Bernoulli(p_B) process,
    drawn as geometric gaps) the uniforms are drawn conditional on B and mapped through each
    arm's own Beta quantile function at that round. Same law as drawing every round.
    """
    k, L = state.O.size, env.leader
    O = state.O.astype(float)
    need = 2 * state.O - state.N
    span = t1 - t0 + 1
    cand_off = np.empty(0, dtype=np.int64)
    cand_arm = np.empty(0, dtype=np.int64)
    pos = -1  # offset of the last candidate drawn
    end = span - 1  # last offset played in this window
    while True:
        offs = pos + np.cumsum(_geometric(policy_rng, env.p, batch))
        covered = span - 1 if offs[-1] >= span - 1 else int(offs[-1])
        offs = offs[offs < span].astype(np.int64)
        if offs.size:
            pos = int(offs[-1])
            tails = env.sample_tails(policy_rng, offs.size)
            a, b = _beta_params(state.mu_tilde, O, np.log(t0 + offs)[:, None], epsilon)
            theta = np.empty_like(tails)
            theta[:, L] = betaincinv(a[:, L], b[:, L], tails[:, L])
            rest = np.arange(k) != L
            theta[:, rest] = betainccinv(a[:, rest], b[:, rest], tails[:, rest])
            cand_off = np.concatenate([cand_off, offs])
            cand_arm = np.concatenate([cand_arm, np.argmax(theta, axis=1)])
        # First batch completion among the rounds covered so far.
        lost = cand_arm != L
        x = cand_off[lost]
        done = []
        n_miss = int(np.searchsorted(x - np.arange(x.size), need[L] - 1, side="right"))
        leader_done = int(need[L] - 1 + n_miss)
        if leader_done <= covered:
            done.append(leader_done)
        for j in np.flatnonzero(np.arange(k) != L):
            hits = np.flatnonzero(cand_arm == j)
            if hits.size >= need[j]:
                done.append(int(cand_off[hits[need[j] - 1]]))
        if done:
            end = min(done)
            break
        if covered >= span - 1:
            break
    keep = cand_off <= end
    off, arm = cand_off[keep & lost], cand_arm[keep & lost]
    taken = np.bincount(arm, minlength=k)
    taken[L] = end + 1 - off.size
    for j in np.flatnonzero(taken):
        state.add(int(j), int(taken[j]), float(run.reward_rng.binomial(int(taken[j]), run.means[j])))
    run.pulls += taken
    run.recorder.sparse(end + 1, run.gaps[L], off, run.gaps[arm])
    return t0 + end + 1


@njit(cache=True)
def _chunk_params(mu_tilde, O, log_t, epsilon):
    """:func:`_beta_params` for the chunk's rounds (ln t = ``log_t[i]``) as (rounds, K) arrays,
    with the same float operations in the same order as numpy's broadcast expression."""
    a = np.empty((log_t.shape[0], O.shape[0]))
    b = np.empty_like(a)
    for i in range(log_t.shape[0]):
        t3 = 3.0 * log_t[i]
        for j in range(O.shape[0]):
            mu_bar = mu_tilde[j] + t3 / (epsilon * O[j])
            mu_bar = mu_bar if mu_bar > 0.0 else 0.0  # np.clip(mu_bar, 0, 1), as numpy computes it
            mu_bar = mu_bar if mu_bar < 1.0 else 1.0
            a[i, j] = mu_bar * O[j] + 1.0
            b[i, j] = (1.0 - mu_bar) * O[j] + 1.0
    return a, b


@njit(cache=True)
def _accepted(theta, need, choice, taken):
    """``choice[i]`` = first argmax of round i's draws; ``taken`` counts the choices up to the
    first batch completion (an arm reaching ``need``). Returns the number of rounds accepted."""
    n_acc, counting = theta.shape[0], True
    for i in range(theta.shape[0]):
        best = 0
        for j in range(1, theta.shape[1]):
            if theta[i, j] > theta[i, best]:
                best = j
        choice[i] = best
        if counting:
            taken[best] += 1
            if taken[best] >= need[best]:
                n_acc, counting = i + 1, False
    return n_acc


def _chunk(run: StretchRun, state: DoublingBatchMeans, t: int, horizon: int, epsilon: float,
           policy_rng: np.random.Generator, max_chunk: int) -> int:
    """Draw a chunk of rounds at once and accept them up to the first batch completion (the
    Beta parameters and the acceptance in compiled loops, the draws by numpy in one call)."""
    k = state.O.size
    chunk = int(min(horizon - t + 1, max(64, min(max_chunk, t // 16))))
    a, b = _chunk_params(state.mu_tilde, state.O.astype(float), np.log(np.arange(t, t + chunk, dtype=float)),
                         epsilon)
    choice = np.empty(chunk, dtype=np.int64)
    taken = np.zeros(k, dtype=np.int64)
    n_acc = _accepted(policy_rng.beta(a, b), 2 * state.O - state.N, choice, taken)
    for arm in np.flatnonzero(taken):
        state.add(int(arm), int(taken[arm]),
                  float(run.reward_rng.binomial(int(taken[arm]), run.means[arm])))
    run.pulls += taken
    run.recorder.dense(run.gaps[choice[:n_acc]])
    return t + n_acc


def simulate_fast(means: np.ndarray, epsilon: float, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, noise_rng: np.random.Generator,
                  policy_rng: np.random.Generator, noise_multiplier: float = 1.0,
                  max_chunk: int = 8192, thinning_below: float = 0.1) -> RunResult:
    """Exact simulation of one run of Algorithm 3 (same law as the reference).

    Between batch completions the state is frozen. While some challenger can beat the leader
    often (p_B >= ``thinning_below``), rounds are drawn in vectorised chunks; afterwards by
    thinning (:func:`_thinned_window`), whose cost grows with the number of rounds where the
    leader could lose, not with T. ``thinning_below=1`` forces thinning (used by the tests),
    ``0`` disables it.
    """
    run = StretchRun(means, checkpoints, reward_rng)
    state = DoublingBatchMeans(run.means.size, epsilon, noise_rng, noise_multiplier)
    t = run.initial_rounds(horizon, state.initialise)
    retry_at, releases = t, -1  # when to try the envelope again after it was too loose
    while t <= horizon:
        if state.releases.sum() != releases:  # new private means: the envelope may tighten
            retry_at, releases = t, int(state.releases.sum())
        env = None
        if thinning_below > 0 and t >= retry_at:
            t1 = min(horizon, t + max(511, t // 8))
            env = _Envelope(state, math.log(t), math.log(t1), epsilon)
            if env.p >= thinning_below:
                env, retry_at = None, t1  # the decision uses only the past: the law is unchanged
        if env is not None:
            t = _thinned_window(run, state, env, t, t1, epsilon, policy_rng)
        else:
            t = _chunk(run, state, t, horizon, epsilon, policy_rng, max_chunk)
    return run.result(state.releases)
