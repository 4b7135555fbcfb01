"""Algorithm 2 of the dueling paper, GOptimal-DPDB (Saha & Asi 2024, section 5; spec section 2.3
with resolutions Q1-Q17, solvers of section 6).

Per phase l = 1, 2, ... with survivor set D_l (D_1 = the finite arm set, Q13):

1. candidates: unordered differences of D_l (Q1, Q2), projected on their span (Q3);
2. G-optimal design pi_l on them (Kiefer-Wolfowitz; ``design.py``); C_l = its support (step 4);
3. t_0 exploration duels drawn i.i.d. from pi_l (Q5; ``explore="pi1"`` draws from pi_1 and adds those
   pairs to the privatised groups), t_0 from the Theorem 3 formula with C_1 = C_2 = 1, zero, or the
   adaptive rule lambda_min(sum z z^T) >= 8 / kappa^4 (d^2 + log(T/delta)) (Q16);
4. each pair (x, y) of C_l is played T_l^{x,y} = ceil(N_l pi_l(x, y)) times (step 5, Q4), with
   N_l = c_p 16 d^5 log(dT/delta) / (kappa eps xi_l) + c_s 64 d log(T/delta) / (kappa^2 xi_l^2),
   xi_l = 2^-l, in canonical orientation (lower index left);
5. o_hat_l(x, y) = (wins of (x, y) in phase l) + Lap(1/eps) (step 8, Q6; ``noise="logT"``: Lap(log T/eps));
6. w_hat_l = norm-constrained logistic MLE on (n, o_hat) (step 9, Q7; ``mle.py``), ||w|| <= S + 1;
7. D_{l+1} = {x in D_l : w_hat^T x + 2 xi_l > max_y w_hat^T y} (step 11, Q10);
   commit to (x_hat, x_hat) once |D_{l+1}| = 1 (step 12, Q12).
A phase that does not fit in the remaining rounds is played in a fixed order (exploration first,
then the pairs by index) until T, without estimation (Q11).

Privacy accounting (spec 2.3, check A4): every o_t belongs to exactly one phase and, within it, to
exactly one privatised group (the pair played at t, exploration included), with coefficient 1, so
the vector of group sums of a phase has l1-sensitivity 1 and Lap(1/eps) per group gives eps-DP by
parallel composition over the disjoint (phase, pair) groups. Everything else (designs, counts,
exploration draws, MLE, eliminations, commit) is post-processing of o_hat and of public actions.
``epsilon = inf`` is the non-private algorithm (N_priv = 0, no noise); ``noise_multiplier < 1``
is a deliberately broken mutant used only as the audit's negative control.

Two engines (spec Q17):
* ``reference``: plays every round one at a time, drawing each o_t (small T only);
* ``batched``: exact in distribution with a cost independent of T: within a phase the counts are
  fixed except the multinomial exploration counts, the wins of a pair played n times are
  Binomial(n, sigma(w*^T (x - y))), the phase regret is sum n(x, y) (2 r* - r(x) - r(y)). Counts are
  int64 and regret float64, so T up to 1e14 (and beyond, to 2^62) costs about as much as T = 1e6.
Designs depend only on the survivor set (public), so they are cached and shared by all runs.

Same bytes on any machine: everything that steers a run (step 2's design, step 9's estimate, the
constants N_l, t_0, kappa, the win probabilities and the elimination values w^T x) is computed so
that it does not depend on the CPU, the BLAS kernel or its thread count. The design is the
canonical one of :mod:`.design` (deterministic Frank-Wolfe path, canonical support, restricted
optimum on it, weights on a 2^-24 grid: ceil(N_l pi) with N_l up to 1e13 would otherwise turn a
solver's last digits into different counts); the estimate is the canonical one of :mod:`.mle`
(solver solution rounded to 2^-16, deterministic Newton, rounded to 2^-27); inner products x^T w
are summed in a fixed order (:func:`.design.rowdot`) and sums of many terms are exactly rounded
(math.fsum), never left to BLAS. (The instance itself comes from :mod:`.instances`: G3's w* is
normalised there with np.linalg.norm, whose last digit depends on the BLAS kernel.)

Randomness (common random numbers): run ``i`` uses the child SeedSequence (seed.entropy,
seed.spawn_key + (i,)) for every horizon, epsilon and variant, split into per-phase named streams
``explore/l``, ``outcomes/l`` and ``laplace/l`` (standard Laplace draws, scaled afterwards).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from dpbandits.dueling import mle
from dpbandits.dueling.design import (
    G_TOL,
    Design,
    g_optimal_design,
    gram,
    min_eigenvalue,
    project,
    rowdot,
    span_basis,
)
from dpbandits.dueling.instances import KAPPA_MODES, LinearInstance, kappa, sigmoid, sigmoid_prime
from dpbandits.dueling.mle import kkt_residual, mle_batch, round_estimate
from dpbandits.rng import run_seed, stream_rngs

__all__ = ["GOptConfig", "GOptResult", "PhaseParameters", "phase_parameters", "simulate_goptimal",
           "DesignCache", "DESIGN_CACHE", "ENGINES", "audit_instance", "audit_config", "audit_setup",
           "audit_codes", "audit_n_codes", "find_sensitive_table", "audit_goptimal", "trace_goptimal", "group_noise",
           "GOptimalDPDBReference"]

ENGINES = ("batched", "reference")
T0_MODES = ("paper", "zero", "adaptive")
DELTA_MODES = ("simple", "theorem", "finite")
NOISE_MODES = ("eps", "logT")
EXPLORE_MODES = ("pi_ell", "pi1")
SOLVER_MODES = ("fw", "cvxpy")
_MAX_HORIZON = 2**62
_MAX_REFERENCE_HORIZON = 10**7


# --------------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True)
class GOptConfig:
    """Variant of Algorithm 2 (defaults = the spec's faithful configuration, section 5.4).

    epsilon           privacy parameter (> 0; inf = non-private: no noise, N_priv = 0)
    kappa_mode        "thm" sigma'(S + 1) | "alg" sigma'(2 (S + 1)) | "inst" (spec 1.5, Q15)
    t0_mode           "paper" (Theorem 3, C1 = C2 = 1) | "zero" | "adaptive" (Q16)
    t0_multiplier     multiplies t_0 (paper) or the adaptive threshold (>= 0)
    delta_mode        "simple" 1/T | "theorem" 1/(B T L), B = (3T)^d + d | "finite" 1/(K T L) (Q14)
    c_p, c_s          multipliers of the private / statistical phase-length terms (>= 0) (Q4)
    noise             "eps" Lap(1/eps) | "logT" Lap(log T / eps) (Q6)
    noise_multiplier  1; < 1 only as the audit's negative control (>= 0)
    explore           "pi_ell" | "pi1" (Q5)
    solver            design solver "fw" (deterministic, the default) | "cvxpy" (spec 6.1; module
                      docstring of :mod:`.design`)
    s_bound           the known bound S on ||w*|| (None: ||w*|| of the instance); W_max = S + 1
    """

    epsilon: float = 1.0
    kappa_mode: str = "thm"
    t0_mode: str = "paper"
    t0_multiplier: float = 1.0
    delta_mode: str = "simple"
    c_p: float = 1.0
    c_s: float = 1.0
    noise: str = "eps"
    noise_multiplier: float = 1.0
    explore: str = "pi_ell"
    solver: str = "fw"
    s_bound: float | None = None

    def __post_init__(self) -> None:
        def choice(name, allowed):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"GOptConfig.{name} must be one of {allowed}, got {value!r}")

        def number(name, allow_zero=True, allow_inf=False):
            value = getattr(self, name)
            ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
            ok = ok and not math.isnan(value) and (allow_inf or math.isfinite(value))
            ok = ok and (value >= 0 if allow_zero else value > 0)
            if not ok:
                rng = ">= 0" if allow_zero else "> 0"
                raise ValueError(f"GOptConfig.{name} must be a number {rng}{' (inf allowed)' if allow_inf else ''}, "
                                 f"got {value!r}")

        number("epsilon", allow_zero=False, allow_inf=True)
        choice("kappa_mode", KAPPA_MODES)
        choice("t0_mode", T0_MODES)
        number("t0_multiplier")
        choice("delta_mode", DELTA_MODES)
        number("c_p")
        number("c_s")
        if self.c_p == 0 and self.c_s == 0:
            raise ValueError("GOptConfig.c_p and c_s cannot both be 0 (empty phases)")
        choice("noise", NOISE_MODES)
        number("noise_multiplier")
        choice("explore", EXPLORE_MODES)
        choice("solver", SOLVER_MODES)
        if self.s_bound is not None:
            number("s_bound", allow_zero=False)

    @property
    def private(self) -> bool:
        return math.isfinite(self.epsilon)


@dataclass(frozen=True)
class PhaseParameters:
    """Horizon-dependent constants of one run: log(1/delta), t_0 (paper/zero), the condition (3)
    threshold Lambda and the per-phase lengths (``n_priv(l)``, ``n_stat(l)``), Laplace scale."""

    horizon: int
    d: int
    kappa: float
    log_inv_delta: float
    t0: int
    cond3: float
    adaptive_threshold: float
    priv_coef: float  # N_priv(l) = priv_coef * 2^l
    stat_coef: float  # N_stat(l) = stat_coef * 4^l
    laplace_scale: float

    def n_priv(self, phase: int) -> float:
        return self.priv_coef * 2.0**phase

    def n_stat(self, phase: int) -> float:
        return self.stat_coef * 4.0**phase


def _norm(w: np.ndarray) -> float:
    """||w||, exactly rounded sum of squares (np.linalg.norm goes through BLAS)."""
    w = np.asarray(w, dtype=float)
    return math.sqrt(math.fsum((w * w).tolist()))


def _utilities(instance: LinearInstance) -> np.ndarray:
    """x^T w* for every arm, summed in a fixed order (instance.utilities uses BLAS, whose last digits
    depend on the CPU)."""
    return rowdot(np.asarray(instance.arms, dtype=float), instance.w_star)


def phase_parameters(config: GOptConfig, instance: LinearInstance, horizon: int) -> PhaseParameters:
    """Algorithm 2 constants at horizon T (Theorem 3, Q4, Q6, Q14, Q16)."""
    d, k, t = instance.d, instance.k, float(horizon)
    s = _norm(instance.w_star) if config.s_bound is None else float(config.s_bound)
    if config.kappa_mode == "inst":  # kappa("inst", ...) with the utilities summed in a fixed order
        u = _utilities(instance)
        kap = float(sigmoid_prime(u.max() - u.min()))
    else:
        kap = kappa(config.kappa_mode, s)
    log_t = math.log(t) if horizon > 1 else 0.0
    n_levels = max(1, math.ceil(math.log2(t))) if horizon > 1 else 1
    if config.delta_mode == "simple":
        log_inv_delta = log_t
    elif config.delta_mode == "theorem":
        log_b = float(np.logaddexp(d * math.log(3 * t), math.log(d)))
        log_inv_delta = log_b + log_t + math.log(n_levels)
    else:
        log_inv_delta = math.log(k) + log_t + math.log(n_levels)
    log_t_delta = log_t + log_inv_delta
    log_dt_delta = math.log(d) + log_t_delta
    if config.t0_mode == "paper":
        t0f = 2 * (d * math.sqrt(d) + d * math.sqrt(log_inv_delta)) ** 2 + 16 * d / kap**4 * (d**2 + log_t_delta)
        t0 = int(math.ceil(config.t0_multiplier * t0f))
    else:
        t0 = 0
    cond3 = 8.0 / kap**4 * (d**2 + log_t_delta)
    priv = config.c_p * 16 * d**5 * log_dt_delta / (kap * config.epsilon) if config.private else 0.0
    stat = config.c_s * 64 * d * log_t_delta / kap**2
    if not config.private:
        scale = 0.0
    elif config.noise == "eps":
        scale = config.noise_multiplier / config.epsilon
    else:
        scale = config.noise_multiplier * max(log_t, 1.0) / config.epsilon
    return PhaseParameters(int(horizon), d, kap, log_inv_delta, t0, cond3, config.t0_multiplier * cond3,
                           priv, stat, scale)


# --------------------------------------------------------------------------------------------
# design cache


class DesignCache:
    """Designs keyed by (arm set, survivor set, solver); they depend on public actions only."""

    def __init__(self, max_entries: int = 50_000):
        self.max_entries = max_entries
        self._store: dict[tuple, Design] = {}
        self.hits = 0
        self.misses = 0
        self.seconds = 0.0

    @staticmethod
    def arms_key(arms: np.ndarray) -> str:
        return hashlib.sha1(np.ascontiguousarray(arms, dtype=float).tobytes()).hexdigest()

    def get(self, arms: np.ndarray, arms_key: str, survivors: np.ndarray, solver: str) -> Design:
        key = (arms_key, survivors.tobytes(), solver)
        hit = self._store.get(key)
        if hit is not None:
            self.hits += 1
            return hit
        self.misses += 1
        t = time.perf_counter()
        design = g_optimal_design(arms, survivors, solver=solver)
        self.seconds += time.perf_counter() - t
        if len(self._store) >= self.max_entries:
            self._store.clear()
        self._store[key] = design
        return design

    def clear(self) -> None:
        self._store.clear()


DESIGN_CACHE = DesignCache()


# --------------------------------------------------------------------------------------------
# results


@dataclass
class GOptResult:
    """``runs``: one row per (horizon, run); ``phases``: one row per (horizon, run, phase).

    runs columns: horizon, run, epsilon, regret_util, regret_pref, commit_time (rounds played
    before the commit, -1 if none), chosen (committed arm, -1 if none), committed, n_phases,
    best_retained (x* in every D_l), o_acct (sum_l N_priv_l / N_l * regret_l), regret_phases,
    regret_commit, rounds (= horizon), max_e_over_xi, max_edelta_over_xi, edelta_ok (e^Delta_l <=
    xi_l in every estimated phase), mle_active_phases, t0.

    phases columns: horizon, run, phase, xi, n_survivors (|D_l|), n_pairs (|C_l|), n_groups
    (privatised groups = Laplace draws), g, rank, g_ok (g <= rank (1 + 1e-3)), support_bound
    (r (r + 1) / 2), design_reduced, n_l (rounds in the phase), t0 (exploration rounds), N_priv,
    N_stat, N, lemma8_ok (n_l <= t0 + N + d^2), e_over_xi, edelta_over_xi, lambda_min (of V_l in
    the span of the differences), cond3 (8 / kappa^4 (d^2 + log(T/delta))), cond3_ok, mle_active,
    mle_residual, n_survivors_after, max_gap_after (max Delta_x over D_{l+1}), best_retained
    (x* in D_{l+1}), regret, priv_share (N_priv / N), truncated, n_laplace.
    """

    runs: pd.DataFrame
    phases: pd.DataFrame
    config: GOptConfig
    instance: str
    engine: str
    kappa: float
    seconds: float
    design_seconds: float
    design_solves: int


# --------------------------------------------------------------------------------------------
# engines


def _win_probability(w_star: np.ndarray, z: np.ndarray) -> np.ndarray:
    """P(left wins) = sigma(w*^T (x - y)) for rows z = x - y (spec 1.2)."""
    return sigmoid(rowdot(np.atleast_2d(z), w_star))


class _Context:
    def __init__(self, instance: LinearInstance, config: GOptConfig, cache: DesignCache):
        self.instance = instance
        self.config = config
        self.cache = cache
        self.arms = instance.arms
        self.arms_key = DesignCache.arms_key(instance.arms)
        self.w_star = instance.w_star
        u = _utilities(instance)
        self.gaps = u.max() - u
        self.pref_gaps = sigmoid(u.max() - u) - 0.5
        self.best = int(np.argmax(u))
        self.d, self.k = instance.d, instance.k
        s = _norm(instance.w_star) if config.s_bound is None else float(config.s_bound)
        self.w_max = s + 1.0

    def design(self, survivors: np.ndarray) -> Design:
        return self.cache.get(self.arms, self.arms_key, survivors, self.config.solver)


def _lambda_min(y: np.ndarray, counts: np.ndarray) -> float:
    """lambda_min(sum_k counts_k y_k y_k^T), machine-independent (exact sums, Jacobi)."""
    if y.shape[1] == 0:
        return 0.0
    return min_eigenvalue(gram(y, np.asarray(counts, dtype=float)))


def _split_counts(block: np.ndarray, first: int, rng: np.random.Generator) -> np.ndarray:
    """Counts among the first ``first`` of ``block.sum()`` exchangeable draws with category counts
    ``block`` (multivariate hypergeometric, sequential; a moment-matched normal approximation is used
    once a population reaches numpy's 1e9 limit)."""
    out = np.zeros_like(block)
    pop, need = int(block.sum()), int(first)
    for i, good in enumerate(block.tolist()):
        if need == 0:
            break
        bad = pop - good
        if good == 0:
            x = 0
        elif bad == 0:
            x = need
        elif good < 10**9 and bad < 10**9:
            x = int(rng.hypergeometric(good, bad, need))
        else:
            p = good / pop
            var = need * p * (1 - p) * (pop - need) / max(pop - 1, 1)
            x = int(round(need * p + math.sqrt(max(var, 0.0)) * rng.standard_normal()))
            x = min(max(x, max(0, need - bad)), min(good, need))
        out[i] = x
        pop -= good
        need -= x
    return out


def _adaptive_exploration(y: np.ndarray, p: np.ndarray, threshold: float, cap: int,
                          rng: np.random.Generator) -> tuple[np.ndarray, int, bool]:
    """Exploration counts of the adaptive t_0 rule (Q16): draw i.i.d. from p until
    lambda_min(sum y y^T) >= threshold, at most ``cap`` draws. Exact stopping time via doubling and
    bisection with hypergeometric splits. Returns (counts, draws, reached)."""
    g = y.shape[0]
    counts = np.zeros(g, dtype=np.int64)
    if threshold <= 0:
        return counts, 0, True
    lam1 = _lambda_min(y, p)
    n, step = 0, max(1, int(0.5 * threshold / max(lam1, 1e-300)) if lam1 > 0 else 1)
    while True:
        if n >= cap:
            return counts, n, False
        step = min(step, cap - n)
        inc = rng.multinomial(step, p).astype(np.int64)
        if _lambda_min(y, counts + inc) >= threshold:
            break
        counts += inc
        n += step
        step *= 2
    block, length = inc, step
    while length > 1:
        h = length // 2
        first = _split_counts(block, h, rng)
        if _lambda_min(y, counts + first) >= threshold:
            block, length = first, h
        else:
            counts += first
            block = block - first
            n += h
            length -= h
    return counts + block, n + 1, True


def _fill_in_order(sched: np.ndarray, budget: int) -> np.ndarray:
    """Counts when the schedule is played in index order and cut after ``budget`` rounds (Q11)."""
    out = np.zeros(sched.size, dtype=np.int64)
    left = int(budget)
    for i, s in enumerate(sched.tolist()):
        if left <= 0:
            break
        take = min(int(s), left) if s < 2**62 else left
        out[i] = take
        left -= take
    return out


def _play_batched(ctx, p_exp, y_exp, sched_f, t0, params, remaining, rngs):
    """Counts of one phase of the batched engine: (counts per group, None (the wins are drawn by the
    caller as Binomials), exploration rounds, truncated)."""
    cfg = ctx.config
    if cfg.t0_mode == "adaptive":
        exp_counts, n_exp, reached = _adaptive_exploration(y_exp, p_exp, params.adaptive_threshold,
                                                          remaining, rngs["explore"])
        if not reached:
            return exp_counts, None, n_exp, True
    else:
        n_exp = min(t0, remaining)
        exp_counts = rngs["explore"].multinomial(n_exp, p_exp).astype(np.int64) if n_exp > 0 \
            else np.zeros(p_exp.size, dtype=np.int64)
        if t0 > remaining:
            return exp_counts, None, n_exp, True
    left = remaining - n_exp
    if float(sched_f.sum()) > left:
        return exp_counts + _fill_in_order(sched_f, left), None, n_exp, True
    counts = exp_counts + sched_f.astype(np.int64)
    return counts, None, n_exp, False


def _phase_rounds(ctx, p_exp, y_exp, sched_f, t0, params, remaining, rngs, groups, z_groups):
    """One phase of the per-round reference, as a generator: every round is drawn and played one at
    a time; each round yields its :class:`_Duel` and is sent the user's answer o_t back. Returns
    (counts, wins, exploration rounds, truncated)."""
    cfg = ctx.config
    g = p_exp.size
    counts = [0] * g
    wins = [0] * g
    prob = _win_probability(ctx.w_star, z_groups).tolist()
    cum = np.cumsum(p_exp)
    cum[-1] = 1.0
    cum = cum.tolist()
    rex, rout = rngs["explore"], rngs["outcomes"]
    played = 0
    adaptive = cfg.t0_mode == "adaptive"
    v = np.zeros((y_exp.shape[1], y_exp.shape[1]))
    n_exp = 0

    def result(truncated):
        return np.array(counts, dtype=np.int64), np.array(wins, dtype=np.int64), n_exp, truncated

    while True:  # exploration rounds, pairs i.i.d. from the exploration design
        if adaptive:
            if params.adaptive_threshold <= 0 or (n_exp > 0 and min_eigenvalue(v) >= params.adaptive_threshold):
                break
        elif n_exp >= t0:
            break
        if played >= remaining:
            return result(True)
        u = rex.random()
        i = 0
        while i < g - 1 and u >= cum[i]:
            i += 1
        counts[i] += 1
        wins[i] += yield _Duel(i, int(groups[i, 0]), int(groups[i, 1]), prob[i], rout)
        if adaptive:
            v += np.outer(y_exp[i], y_exp[i])
        played += 1
        n_exp += 1
    for i in range(g):  # scheduled rounds, pairs by index
        for _ in range(int(sched_f[i])):
            if played >= remaining:
                return result(True)
            counts[i] += 1
            wins[i] += yield _Duel(i, int(groups[i, 0]), int(groups[i, 1]), prob[i], rout)
            played += 1
    return result(False)


@dataclass(frozen=True)
class _Duel:
    """A round of the reference engine: the privatised group, the duel (left, right) in canonical
    orientation, the probability that the left arm wins, and the phase's ``outcomes`` stream."""

    group: int
    left: int
    right: int
    p_win: float
    outcomes: np.random.Generator

    def draw(self) -> int:
        """The user's answer from the phase's ``outcomes`` stream."""
        return int(self.outcomes.random() < self.p_win)


class _Tape:
    """A fixed preference table for the reference engine (user t answers o_t whatever duel is
    shown) and the log of which group each round's answer went to (white-box A4, audit tie-in)."""

    def __init__(self, o_table: np.ndarray):
        self.o = np.asarray(o_table, dtype=np.int64)
        self.round_groups: list[int] = []

    def answer(self, group: int) -> int:
        t = len(self.round_groups)
        if t >= self.o.size:
            raise ValueError(f"the o-table has {self.o.size} rounds; round {t + 1} was played")
        self.round_groups.append(int(group))
        return int(self.o[t])


def _run_one(ctx: _Context, horizon: int, run: int, run_seed: np.random.SeedSequence, engine: str,
             tape: _Tape | None = None, observer=None):
    """One run (:func:`_run_steps`), each round's answer drawn from its phase's ``outcomes`` stream
    or, with ``tape`` (reference engine only), the tape's fixed o_t."""
    steps = _run_steps(ctx, horizon, run, run_seed, engine, observer)
    try:
        duel = next(steps)
        while True:
            duel = steps.send(duel.draw() if tape is None else tape.answer(duel.group))
    except StopIteration as stop:
        return stop.value


def _run_steps(ctx: _Context, horizon: int, run: int, run_seed: np.random.SeedSequence, engine: str,
               observer=None):
    """One run as a generator: the reference engine yields every round's :class:`_Duel` and is sent
    the user's answer (the batched engine yields nothing); returns (run row, phase rows).
    ``observer(record)`` is called for every estimated phase with its groups (pairs), play counts,
    exact win sums, the Laplace draws actually added, the noisy sums o_hat and the rounds
    [first, last) the phase played."""
    cfg = ctx.config
    params = phase_parameters(cfg, ctx.instance, horizon)
    d = ctx.d
    survivors = np.arange(ctx.k, dtype=np.int64)
    t_used = 0
    regret = regret_pref = o_acct = 0.0
    rows = []
    best_kept = True
    committed, chosen, commit_time = False, -1, -1
    design1 = None
    phase = 0
    while t_used < horizon:
        phase += 1
        xi = 2.0**-phase
        design = ctx.design(survivors)
        if design1 is None:
            design1 = design
        if design.rank == 0:  # all survivors share one feature vector: nothing to learn
            committed, chosen, commit_time = True, int(survivors[0]), t_used
            phase -= 1
            break
        # privatised groups: C_l (design support), plus pi_1 support pairs for explore = "pi1"
        groups, z_groups = design.pairs, design.z
        p_exp = design.weights
        if cfg.explore == "pi1" and design1 is not design:
            extra = [i for i, pr in enumerate(design1.pairs.tolist())
                     if not np.any(np.all(design.pairs == pr, axis=1))]
            groups = np.vstack([design.pairs, design1.pairs[extra]])
            z_groups = np.vstack([design.z, design1.z[extra]])
            p_exp = np.zeros(groups.shape[0])
            for j, pr in enumerate(design1.pairs.tolist()):
                p_exp[int(np.flatnonzero(np.all(groups == pr, axis=1))[0])] = design1.weights[j]
        p_exp = p_exp / p_exp.sum()
        basis_g = design.basis
        if groups.shape[0] > design.pairs.shape[0]:
            basis_g = span_basis(z_groups)
        y_groups = project(z_groups, basis_g)
        n_priv, n_stat = params.n_priv(phase), params.n_stat(phase)
        n_total = n_priv + n_stat
        sched_f = np.zeros(groups.shape[0])
        sched_f[: design.support] = np.ceil(n_total * design.weights)
        remaining = horizon - t_used
        named = stream_rngs(run_seed, (f"explore/{phase}", f"outcomes/{phase}", f"laplace/{phase}"))
        rngs = {name.split("/")[0]: gen for name, gen in named.items()}
        if engine == "batched":
            counts, wins, n_exp, truncated = _play_batched(ctx, p_exp, y_groups, sched_f, params.t0, params,
                                                           remaining, rngs)
        else:
            counts, wins, n_exp, truncated = yield from _phase_rounds(ctx, p_exp, y_groups, sched_f, params.t0,
                                                                      params, remaining, rngs, groups, z_groups)
        n_l = int(counts.sum())
        pair_regret = ctx.gaps[groups[:, 0]] + ctx.gaps[groups[:, 1]]
        regret_l = math.fsum((counts.astype(float) * pair_regret).tolist())
        regret_pref += math.fsum((counts.astype(float) * (ctx.pref_gaps[groups[:, 0]]
                                                          + ctx.pref_gaps[groups[:, 1]])).tolist())
        regret += regret_l
        share = n_priv / n_total
        o_acct += share * regret_l
        t_used += n_l
        row = dict(horizon=horizon, run=run, phase=phase, xi=xi, n_survivors=int(survivors.size),
                   n_pairs=design.support, g=design.g, rank=design.rank,
                   g_ok=bool(design.g <= design.rank * (1 + G_TOL)), support_bound=design.support_bound,
                   design_reduced=design.reduced, n_l=n_l, t0=int(n_exp), N_priv=n_priv, N_stat=n_stat,
                   N=n_total, lemma8_ok=bool(n_l <= n_exp + n_total + d * d), cond3=params.cond3,
                   regret=regret_l, priv_share=share, truncated=truncated)
        if truncated:
            row.update(n_groups=0, n_laplace=0, e_over_xi=np.nan, edelta_over_xi=np.nan,
                       lambda_min=_lambda_min(y_groups, counts), cond3_ok=False, mle_active=False,
                       mle_residual=np.nan, n_survivors_after=int(survivors.size), max_gap_after=np.nan,
                       best_retained=bool(ctx.best in survivors))
            rows.append(row)
            break
        played = counts > 0
        if wins is None:
            wins = rngs["outcomes"].binomial(counts[played], _win_probability(ctx.w_star, z_groups[played]))
        else:
            wins = wins[played]
        n_groups = int(played.sum())
        lap = group_noise(rngs["laplace"], n_groups, params.laplace_scale)
        o_hat = wins.astype(float) + lap
        fit = mle.canonical_mle(z_groups[played], counts[played], o_hat, ctx.w_max, basis=basis_g)
        w_hat = fit.w_hat
        err = rowdot(ctx.arms[survivors], w_hat - ctx.w_star)
        vals = rowdot(ctx.arms[survivors], w_hat)
        new = survivors[vals + 2 * xi > vals.max()]
        if observer is not None:
            observer({"phase": phase, "pairs": groups[played], "group_index": np.flatnonzero(played),
                      "counts": counts[played], "wins": wins, "laplace": lap, "o_hat": o_hat,
                      "laplace_scale": params.laplace_scale, "first_round": t_used - n_l, "last_round": t_used,
                      "survivors_after": new.copy()})
        lam = _lambda_min(y_groups, counts)
        row.update(n_groups=n_groups, n_laplace=n_groups if cfg.private else 0,
                   e_over_xi=float(np.abs(err).max() / xi), edelta_over_xi=float((err.max() - err.min()) / 2 / xi),
                   lambda_min=lam, cond3_ok=bool(lam >= params.cond3), mle_active=fit.active,
                   mle_residual=fit.residual, n_survivors_after=int(new.size),
                   max_gap_after=float(ctx.gaps[new].max()), best_retained=bool(ctx.best in new))
        rows.append(row)
        best_kept &= bool(ctx.best in new)
        survivors = new
        if survivors.size == 1:
            committed, chosen, commit_time = True, int(survivors[0]), t_used
            break
    regret_commit = 0.0
    if committed and t_used < horizon:
        rest = horizon - t_used
        if engine == "reference":
            per = 2 * ctx.gaps[chosen]
            for _ in range(rest):
                regret_commit += per
        else:
            regret_commit = float(rest) * 2 * ctx.gaps[chosen]
        regret_pref += float(rest) * 2 * ctx.pref_gaps[chosen]
        t_used = horizon
    est = [r for r in rows if not r["truncated"]]
    run_row = dict(horizon=horizon, run=run, epsilon=cfg.epsilon, regret_util=regret + regret_commit,
                   regret_pref=regret_pref, commit_time=commit_time, chosen=chosen, committed=committed,
                   n_phases=len(rows), best_retained=best_kept and (ctx.best in survivors), o_acct=o_acct,
                   regret_phases=regret, regret_commit=regret_commit, rounds=t_used,
                   max_e_over_xi=max((r["e_over_xi"] for r in est), default=np.nan),
                   max_edelta_over_xi=max((r["edelta_over_xi"] for r in est), default=np.nan),
                   edelta_ok=all(r["edelta_over_xi"] <= 1 for r in est),
                   mle_active_phases=sum(r["mle_active"] for r in est), t0=params.t0)
    return run_row, rows


def simulate_goptimal(instance: LinearInstance, config: GOptConfig, horizons: np.ndarray, runs: int,
                      seed: np.random.SeedSequence, engine: str = "batched") -> GOptResult:
    """Simulate ``runs`` independent runs of Algorithm 2 at every horizon (each horizon is its own
    run of the algorithm, since phase lengths depend on T; common random numbers across horizons).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if not isinstance(instance, LinearInstance):
        raise ValueError("instance must be a LinearInstance")
    if not isinstance(config, GOptConfig):
        raise ValueError("config must be a GOptConfig")
    hz = np.atleast_1d(np.asarray(horizons))
    if hz.size == 0 or not np.all(np.isfinite(hz.astype(float))) or np.any(hz.astype(float) < 1) \
            or np.any(hz.astype(float) > _MAX_HORIZON) or np.any(np.floor(hz.astype(float)) != hz.astype(float)):
        raise ValueError(f"horizons must be integers in [1, 2^62], got {horizons!r}")
    hz = [int(h) for h in hz.tolist()]
    if engine == "reference" and max(hz) > _MAX_REFERENCE_HORIZON:
        raise ValueError(f"the reference engine plays every round; horizons must be <= {_MAX_REFERENCE_HORIZON}")
    if not isinstance(runs, (int, np.integer)) or isinstance(runs, bool) or runs < 1:
        raise ValueError(f"runs must be an int >= 1, got {runs!r}")
    if not isinstance(seed, np.random.SeedSequence):
        raise ValueError("seed must be a numpy SeedSequence")
    ctx = _Context(instance, config, DESIGN_CACHE)
    sec0, miss0 = DESIGN_CACHE.seconds, DESIGN_CACHE.misses
    t_start = time.perf_counter()
    run_rows, phase_rows = [], []
    for run in range(int(runs)):
        rs = run_seed(seed, run)
        for h in hz:
            row, rows = _run_one(ctx, h, run, rs, engine)
            run_rows.append(row)
            phase_rows.extend(rows)
    runs_df = pd.DataFrame(run_rows)
    phases_df = pd.DataFrame(phase_rows)
    params = phase_parameters(config, instance, hz[0])
    return GOptResult(runs_df, phases_df, config, instance.name, engine, params.kappa,
                      time.perf_counter() - t_start, DESIGN_CACHE.seconds - sec0, DESIGN_CACHE.misses - miss0)


class GOptimalDPDBReference:
    """Algorithm 2, one run of the per-round reference engine in the dueling family's protocol
    (:mod:`dpbandits.dueling.interface`): :meth:`select` is the next round of the phase's schedule
    (step 3's exploration draws, then step 5's pairs by index, canonical orientation), and
    :meth:`update` hands the user's answer to the engine; once committed, (x_hat, x_hat). The
    answers of :attr:`answer_stream` are the engine's own (each phase's ``outcomes`` stream), so
    the runner reproduces the reference engine's run; ``observer`` as for :func:`trace_goptimal`."""

    def __init__(self, instance: LinearInstance, config: GOptConfig, horizon: int, seed: np.random.SeedSequence,
                 observer=None, run: int = 0):
        if int(horizon) > _MAX_REFERENCE_HORIZON:
            raise ValueError(f"horizon must be <= {_MAX_REFERENCE_HORIZON} for the per-round reference engine")
        self.config = config
        self._steps = _run_steps(_Context(instance, config, DESIGN_CACHE), int(horizon), int(run), seed, "reference",
                                 observer)
        self._duel: _Duel | None = None
        # answers after a commit before any round (a design of rank 0) teach nothing: their own stream
        self._outcomes = stream_rngs(seed, ("answers/committed",))["answers/committed"]
        self.row: dict | None = None   # the engine's run row once the run is decided
        self.phases: list[dict] = []
        self._resume(None)

    @property
    def private(self) -> bool:
        return self.config.private

    @property
    def mechanism(self) -> str:
        if not self.config.private:
            return "none (epsilon = inf: no noise, N_priv = 0)"
        return ("Laplace noise (scale 1/eps; noise='logT': log T / eps) on the win sum of every (phase, pair) "
                "group (step 8); the designs, MLE, eliminations and commit are post-processing of the noisy sums "
                "and of public actions")

    sensitivity = "o_t enters exactly one group of one phase, with coefficient 1: l1-sensitivity 1 per phase"

    def _resume(self, answer) -> None:
        try:
            self._duel = next(self._steps) if answer is None else self._steps.send(answer)
            self._outcomes = self._duel.outcomes
        except StopIteration as stop:
            self._duel = None
            self.row, self.phases = stop.value

    @property
    def answer_stream(self):
        """The users' answers of the reference engine: the current phase's ``outcomes`` stream
        (after the run is decided, the last phase's)."""
        return _CurrentStream(self)

    def select(self) -> tuple[int, int]:
        if self._duel is not None:
            return self._duel.left, self._duel.right
        chosen = -1 if self.row is None else int(self.row["chosen"])
        if chosen < 0:
            raise RuntimeError("GOptimalDPDBReference: no round left to play (the horizon is reached)")
        return chosen, chosen

    def update(self, left: int, right: int, left_won: int) -> None:
        if self._duel is None:
            return
        if (left, right) != (self._duel.left, self._duel.right):
            raise ValueError(f"update({left}, {right}, ...) after select() returned "
                             f"({self._duel.left}, {self._duel.right})")
        self._resume(int(left_won))


class _CurrentStream:
    """Uniforms from the current phase's ``outcomes`` stream of a :class:`GOptimalDPDBReference`."""

    def __init__(self, algorithm: GOptimalDPDBReference):
        self._algorithm = algorithm

    def random(self) -> float:
        return self._algorithm._outcomes.random()


def trace_goptimal(instance: LinearInstance, config: GOptConfig, horizon: int, seed: np.random.SeedSequence,
                   o_table: np.ndarray, run: int = 0) -> tuple[dict, list[dict], list[int]]:
    """One run of the per-round reference engine on a FIXED preference table (user t answers o_t
    whatever duel is shown, spec 1.4): (run row, the observer records of its estimated phases,
    the group each round's answer entered). For the white-box accounting check A4 and to tie the
    A5 audit harness to the production engine."""
    if horizon > _MAX_REFERENCE_HORIZON:
        raise ValueError(f"horizon must be <= {_MAX_REFERENCE_HORIZON} for the reference engine")
    tape, records = _Tape(o_table), []
    row, _ = _run_one(_Context(instance, config, DESIGN_CACHE), int(horizon), run, run_seed(seed, run),
                      "reference", tape, records.append)
    return row, records, tape.round_groups


# --------------------------------------------------------------------------------------------
# A5 audit harness (black-box DP audit of Algorithm 2, spec 5.2)


def audit_instance() -> LinearInstance:
    """d = 2, K = 3: arms at angles 0, 2 pi / 3, 4 pi / 3 on the unit circle (the o-table is fixed, so
    w* only enters through the horizon-free constants; kappa_mode "thm" uses S = 1)."""
    ang = 2 * np.pi * np.arange(3) / 3
    return LinearInstance("A5-audit(K=3,d=2)", np.column_stack([np.cos(ang), np.sin(ang)]),
                          np.array([math.cos(0.3), math.sin(0.3)]))


def group_noise(rng: np.random.Generator, size, scale) -> np.ndarray:
    """Step 8's noise: a Laplace draw of scale ``scale`` (1/eps, Q6) per privatised (phase, pair)
    group, drawn as standard Laplace draws and scaled (the engine and the audit harness)."""
    return rng.laplace(0.0, 1.0, size=size) * scale


def audit_config(epsilon: float = 1.0, noise_multiplier: float = 1.0, horizon: int = 1000,
                 phase1_rounds: int = 20) -> GOptConfig:
    """Tiny multipliers such that phase 1 has about ``phase1_rounds`` rounds (half private, half
    statistical), t_0 = 0 (the t_0 = paper exploration would only add public randomness)."""
    inst = audit_instance()
    base = phase_parameters(GOptConfig(epsilon=epsilon, t0_mode="zero"), inst, horizon)
    half = phase1_rounds / 2
    return GOptConfig(epsilon=epsilon, t0_mode="zero", noise_multiplier=noise_multiplier,
                      c_p=half / base.n_priv(1) if base.n_priv(1) > 0 else 1.0, c_s=half / base.n_stat(1))


@dataclass(frozen=True)
class AuditSetup:
    instance: LinearInstance
    config: GOptConfig
    horizon: int
    design: Design
    schedule: np.ndarray  # scheduled plays per pair (fixed order)
    t0: int
    params: PhaseParameters

    @property
    def phase1_rounds(self) -> int:
        return int(self.t0 + self.schedule.sum())


def audit_setup(config: GOptConfig, horizon: int = 1000, instance: LinearInstance | None = None) -> AuditSetup:
    inst = audit_instance() if instance is None else instance
    params = phase_parameters(config, inst, horizon)
    if config.t0_mode == "adaptive":
        raise ValueError("the audit harness supports t0_mode 'paper' and 'zero'")
    if config.explore != "pi_ell":
        raise ValueError("the audit harness supports explore 'pi_ell' (phase 1 is the same for 'pi1')")
    design = DESIGN_CACHE.get(inst.arms, DesignCache.arms_key(inst.arms), np.arange(inst.k, dtype=np.int64),
                              config.solver)
    sched = np.ceil((params.n_priv(1) + params.n_stat(1)) * design.weights).astype(np.int64)
    return AuditSetup(inst, config, horizon, design, sched, params.t0, params)


def audit_n_codes(setup: AuditSetup) -> int:
    """Codes are bitmasks of D_2 over the K arms: 2^K values."""
    return 2 ** setup.instance.k


def audit_codes(o_table: np.ndarray, setup: AuditSetup, copies: int, rng: np.random.Generator,
                group_scale: np.ndarray | None = None) -> np.ndarray:
    """Released event {D_2 = A} as the bitmask code sum_{k in A} 2^k, for ``copies`` independent
    executions of phase 1 on the FIXED preference table ``o_table`` (length = phase-1 rounds;
    user t answers o_t whatever duel is shown, spec 1.4). Vectorised over copies: exploration pairs
    (if t_0 > 0), Laplace noise, the batched constrained MLE and the elimination rule.
    ``group_scale``: a Laplace scale per pair of the design instead of step 8's (a leaky mutant)."""
    o = np.asarray(o_table, dtype=np.int64)
    n1 = setup.phase1_rounds
    if o.shape != (n1,) or np.any((o != 0) & (o != 1)):
        raise ValueError(f"o_table must be a 0/1 vector of length {n1} (phase-1 rounds)")
    design, s = setup.design, setup.design.support
    t0 = setup.t0
    # scheduled part: fixed slots after the exploration rounds, pairs by index
    slots = np.repeat(np.arange(s), setup.schedule)
    sched_wins = np.bincount(slots, weights=o[t0:], minlength=s)
    counts = np.broadcast_to(setup.schedule.astype(float), (copies, s)).copy()
    wins = np.broadcast_to(sched_wins, (copies, s)).copy()
    if t0 > 0:
        pick = rng.choice(s, size=(copies, t0), p=design.weights)
        for k in range(s):
            hit = pick == k
            counts[:, k] += hit.sum(axis=1)
            wins[:, k] += (hit * o[None, :t0]).sum(axis=1)
    o_hat = wins + group_noise(rng, (copies, s), setup.params.laplace_scale if group_scale is None else group_scale)
    total = counts.sum(axis=1, keepdims=True)
    y = project(design.z, design.basis)
    s_norm = _norm(setup.instance.w_star) if setup.config.s_bound is None else setup.config.s_bound
    w_max = s_norm + 1.0
    theta, _ = mle_batch(y, counts / total, o_hat / total, w_max)
    res, _, _ = kkt_residual(y, counts / total, o_hat / total, theta, w_max)
    if np.nanmax(res) > 1e-6:
        raise RuntimeError(f"audit MLE did not converge (max KKT residual {np.nanmax(res):.3g})")
    w_hat = round_estimate(sum(theta[:, [j]] * design.basis[:, j] for j in range(theta.shape[1])))
    arms = setup.instance.arms  # the production engine's canonical estimate and fixed-order sums:
    vals = sum(w_hat[:, [j]] * arms[:, j] for j in range(arms.shape[1]))  # (copies, K)
    keep = vals + 2 * 0.5 > vals.max(axis=1, keepdims=True)
    return (keep * (2 ** np.arange(setup.instance.k))[None, :]).sum(axis=1).astype(np.int64)


def find_sensitive_table(setup: AuditSetup, rng: np.random.Generator, tries: int = 2000,
                         ) -> tuple[np.ndarray, int]:
    """A phase-1 o-table and a round whose flip changes the noise-free D_2 (so a missing or tiny
    noise is detectable). Deterministic given ``rng``."""
    if setup.t0 != 0:
        raise ValueError("find_sensitive_table needs t_0 = 0 (a deterministic noise-free phase 1)")
    noiseless = audit_setup(replace(setup.config, noise_multiplier=0.0), setup.horizon, setup.instance)
    n1 = setup.phase1_rounds
    for _ in range(tries):
        o = (rng.random(n1) < rng.uniform(0.2, 0.9)).astype(np.int64)
        tables = np.repeat(o[None, :], n1 + 1, axis=0)
        tables[np.arange(1, n1 + 1), np.arange(n1)] ^= 1
        codes = np.array([audit_codes(tb, noiseless, 1, rng)[0] for tb in tables])
        diff = np.flatnonzero(codes[1:] != codes[0])
        if diff.size:
            return o, int(diff[0])
    raise RuntimeError("no sensitive o-table found")


def audit_goptimal(epsilon: float = 1.0, noise_multiplier: float = 1.0, copies: int = 200_000,
                   seed: int | np.random.SeedSequence = 0, confidence: float = 0.999, table_seed: int = 0,
                   leak: str = "none"):
    """A5 for Algorithm 2: lower bound on the privacy loss of {D_2 = A} between a sensitive o-table
    and its neighbour (one o_t flipped in phase 1). Returns (AuditResult, o_table, flipped round).
    ``leak="sensitivity"``: a leaky mutant whose noise is a pair mean's (Lap(1/(n eps)) on a sum of
    n answers) instead of step 8's."""
    if leak not in ("none", "sensitivity"):
        raise ValueError(f"leak must be 'none' or 'sensitivity' (phase 1 alone has one release per pair), got {leak!r}")
    from dpbandits.audit.blackbox import epsilon_lower_bound

    cfg = audit_config(epsilon=epsilon, noise_multiplier=noise_multiplier)
    setup = audit_setup(cfg)
    o, t_flip = find_sensitive_table(setup, np.random.default_rng(table_seed))
    o2 = o.copy()
    o2[t_flip] ^= 1
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    rngs = stream_rngs(ss, ("audit/x", "audit/xprime"))
    group_scale = setup.params.laplace_scale / setup.schedule if leak == "sensitivity" else None
    cx = audit_codes(o, setup, copies, rngs["audit/x"], group_scale)
    cxp = audit_codes(o2, setup, copies, rngs["audit/xprime"], group_scale)
    res = epsilon_lower_bound([(cx, cxp)], audit_n_codes(setup), epsilon, confidence=confidence)
    return res, o, t_flip
