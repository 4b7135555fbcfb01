"""Fast engine of DP-EBS-Elimination (dueling paper, Algorithm 1; the algorithm, its variants
and widths are described in :mod:`.ebs_params`), and :func:`simulate_ebs`, the entry point
that runs either engine.

The fast engine is the exact R9 block engine (spec 2.2). Between eliminations the left-arm
schedule is deterministic (levels of n in increasing order, positions in S within a level), so
the noise each counter will need in a block of rounds is known in advance: it is computed once
per block and counter (:class:`~dpbandits.mechanisms.tree_counter.TreeCounterNoise`, a
compiled recurrence), and a compiled loop (:func:`_block`) then plays the block round by round:
the duel, the stream element, the updated arm's bounds, the CI check, the regret at the
checkpoints, and the elimination test against a running min UCB / max LCB over S, stopping
after the first round that eliminates. The eliminations themselves (R3: subtractions, stream
positions) are applied between blocks.

Both engines consume the same random streams in the same way (per round two uniforms from
``duels`` for (b_t, o_t), one from ``ldp`` for randomized response, and per counter j the
Laplace draws of ``BinaryTreeCounter`` in its order from ``counter{j}``); the block loop draws
its uniforms from the generators itself (numba's ``Generator.random`` reads the same bit
generator as numpy's), so nothing is drawn ahead. For the same seed both engines produce the
same run (up to floating-point rounding of the noisy sums), which is what the tests check,
besides distributional tests. After commit nothing is random, so the cost is proportional to
the commit time, not to T.

Floating-point sums (the arms' sums, W, the regrets at checkpoints) are formed in an order the
blocks define: within a block a cumulative sum from 0, added to the value at the block start, as
the earlier numpy form of this engine formed them, whose results this one reproduces to the bit.
The block lengths (B0, doubled up to B_MAX, truncated at an elimination) are therefore part of
the results' last bits: changing them changes the rounding, not the law.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.dueling.ebs_params import EBSConfig, EBSParams
from dpbandits.dueling.ebs_reference import DPEBSEliminationReference
from dpbandits.dueling.ebs_result import (
    EBSResult,
    EBSRun,
    check_checkpoints,
    stream_names,
)
from dpbandits.dueling.instances import FiniteInstance
from dpbandits.mechanisms.tree_counter import TreeCounterNoise
from dpbandits.rng import run_seed, stream_rngs

__all__ = ["ENGINES", "simulate_ebs"]

ENGINES = ("fast", "reference")


@njit(cache=True)
def _left_plays(n_s, count):
    """Left plays of each survivor in the next ``count`` rounds from counts ``n_s``: repeated
    argmin with smallest-index ties plays levels in increasing order (arm q plays levels n_q,
    n_q + 1, ...) and, within a level, positions in increasing order. With V the level of the
    last round (the largest V with sum_q max(0, V - n_q) < count), every arm plays the levels
    below V and the first remaining ones among the arms with n_q <= V play level V."""
    lo = n_s.min()
    hi = lo + count
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if np.maximum(0, mid - n_s).sum() < count:
            lo = mid
        else:
            hi = mid
    plays = np.maximum(0, lo - n_s)
    rem = count - plays.sum()
    for q in range(n_s.size):
        if rem > 0 and n_s[q] <= lo:
            plays[q] += 1
            rem -= 1
    return plays


@njit(cache=True)
def _bounds(tot, n, stat, priv):
    """(UCB, LCB) = tot / n +- (stat / sqrt(n) + priv / n); (+inf, -inf) when n = 0 (R4)."""
    if n == 0:
        return math.inf, -math.inf
    est = tot / n
    rad = stat / math.sqrt(n) + priv / n
    return est + rad, est - rad


@njit(cache=True)
def _block(duels, ldp_rng, ldp, flip_p, xval, S, P, nb, noise, noff, literal, stat, priv, bs,
           check_ci, phase_start, gp, gu, cp, ci, t, base_p, base_u, reg_p, reg_u,
           n_s, wsum_s, inc_s, ucb_s, lcb_s, N, W):
    """Rounds t + 1, ..., t + nb of one block, stopping after the first round whose update
    triggers an elimination (min UCB < max LCB over S). Returns (rounds played, elimination
    triggered, CI violation seen, next checkpoint index).

    Round: left arm = the first survivor (position q in S) of least count n_s[q]; two uniforms
    from ``duels`` give b = S[floor(u_b |S|)] and o = 1{u_o < P[a, b]}; with ``ldp`` o is
    flipped iff a uniform from ``ldp_rng`` is < flip_p; the stream element is xval[o] (0 / 1,
    or the debiased -b / a - b of ldp). Survivor q's counter noise at stream position pos(q) + i
    is noise[noff[q] + i] (``noff`` empty: no counters; ``literal``: the stream grows only when
    o = 1). bs: the true EBS of S; check_ci: no violation seen yet; phase_start: the block opens
    a phase (the subtractions moved every survivor's estimate: the start state is checked too).

    In/out, per survivor q: n_s (effective counts), wsum_s (exact sums), inc_s (stream growth in
    the block, from 0), ucb_s, lcb_s (set here); per pair a * K + b, from 0: this block's duels
    N and element sums W (the caller adds them to its totals and derives the plays from N). The
    regrets at the checkpoints cp[ci] <= t + rounds played go to reg_p, reg_u (base_p, base_u:
    the regrets at t). Every sum is a cumulative sum from 0 within the block added to its start
    value, as the numpy block engine this loop replaced formed it, so runs are unchanged.
    """
    m, k = S.size, P.shape[0]
    has_noise = noff.size > 0
    acc = np.zeros(m)  # sum of the block's stream elements per survivor
    for q in range(m):
        tot = wsum_s[q] + noise[noff[q]] if has_noise else wsum_s[q]
        ucb_s[q], lcb_s[q] = _bounds(tot, n_s[q], stat, priv)
    first = np.argmin(n_s)
    if check_ci and phase_start:  # the new S changes every true EBS: check the start state
        for q in range(m):
            if q != first and (bs[q] > ucb_s[q] or bs[q] < lcb_s[q]):
                check_ci = False
    imin, imax = np.argmin(ucb_s), np.argmax(lcb_s)
    track = ci < cp.size and cp[ci] <= t + nb  # a checkpoint may fall in the block
    acc_p = acc_u = 0.0
    r, level, triggered = 0, n_s[first], False
    while r < nb and not triggered:
        nn = level + 1  # the count of the arms that play at this level, after their play
        rad = stat / math.sqrt(nn) + priv / nn
        for q in range(m):  # the survivors at this level, in order
            if n_s[q] != level:
                continue
            a = S[q]
            b = S[min(int(duels.random() * m), m - 1)]
            o = duels.random() < P[a, b]
            x = xval[int(o != (ldp_rng.random() < flip_p) if ldp else o)]
            N[a * k + b] += 1
            W[a * k + b] += x
            r += 1
            if track:
                acc_p += gp[a] + gp[b]
                acc_u += gu[a] + gu[b]
                if ci < cp.size and cp[ci] == t + r:
                    reg_p[ci] = base_p + acc_p
                    reg_u[ci] = base_u + acc_u
                    ci += 1
            acc[q] += x
            n_s[q] = nn
            if has_noise:
                inc_s[q] += int(o) if literal else 1
                tot = (wsum_s[q] + acc[q]) + noise[noff[q] + inc_s[q]]
            else:
                tot = wsum_s[q] + acc[q]
            est = tot / nn  # as _bounds
            ub, lb = est + rad, est - rad
            if check_ci and (bs[q] > ub or bs[q] < lb):
                check_ci = False
            # running argmin UCB / argmax LCB: a full scan only when the extreme arm moves inward
            rescan_min, rescan_max = q == imin and ub > ucb_s[q], q == imax and lb < lcb_s[q]
            ucb_s[q], lcb_s[q] = ub, lb
            if rescan_min:
                imin = np.argmin(ucb_s)
            elif ub < ucb_s[imin]:
                imin = q
            if rescan_max:
                imax = np.argmax(lcb_s)
            elif lb > lcb_s[imax]:
                imax = q
            triggered = ucb_s[imin] < lcb_s[imax]
            if triggered or r == nb:
                break
        level += 1
    for q in range(m):
        wsum_s[q] += acc[q]
    return r, triggered, not check_ci, ci


class _FastRun:
    """One run of the R9 block engine (same random streams and semantics as the reference)."""

    B0 = 2048
    B_MAX = 1 << 20

    def __init__(self, instance: FiniteInstance, config: EBSConfig, horizon: int,
                 checkpoints: np.ndarray, seed: np.random.SeedSequence):
        self.inst = instance
        self.cfg = config
        self.k = k = instance.k
        self.T = int(horizon)
        self.cp = checkpoints
        self.p = EBSParams.build(config, k, horizon)
        self.P = instance.preference
        self.rngs = rngs = stream_rngs(seed, stream_names(k))
        self.noise = ([TreeCounterNoise(rngs[f"counter{j}"], self.p.levels, self.p.noise_scale)
                       for j in range(k)] if config.uses_counters else None)

    def _noise_windows(self, S, pos, nS, nb) -> tuple[np.ndarray, np.ndarray]:
        """Survivor q's noise at stream positions pos, ..., pos + (its left plays in the next nb
        rounds), concatenated, and the offset of each survivor's window (empty: no counters)."""
        if self.noise is None:
            return np.empty(0), np.empty(0, dtype=np.int64)
        lengths = _left_plays(nS, nb) + 1
        wins = [self.noise[j].window(pos[j], int(ln)) for j, ln in zip(S, lengths, strict=True)]
        return np.concatenate(wins), np.concatenate([[0], np.cumsum(lengths[:-1])])

    def run(self) -> EBSRun:
        k, T, cfg, p = self.k, self.T, self.cfg, self.p
        ldp = cfg.variant == "ldp"
        # stream element of a (randomized) outcome 0 / 1, as numpy formed a * (o ^ flip) - b
        xval = p.ldp_a * np.array([0.0, 1.0]) - p.ldp_b if ldp else np.array([0.0, 1.0])
        gp, gu = self.inst.pref_gaps, self.inst.util_gaps
        n = np.zeros(k, dtype=np.int64)  # effective counts
        wsum = np.zeros(k)  # exact sums of the stream elements (o, or o^ for ldp)
        pos = np.zeros(k, dtype=np.int64)  # stream lengths
        N = np.zeros(k * k, dtype=np.int64)
        W = np.zeros(k * k)
        alive = np.ones(k, dtype=bool)
        left_plays = np.zeros(k, dtype=np.int64)
        plays = np.zeros(k, dtype=np.int64)
        elim_time = np.full(k, -1, dtype=np.int64)
        elim_count = np.zeros(k, dtype=np.int64)
        cp = self.cp
        reg_p = np.empty(cp.size)
        reg_u = np.empty(cp.size)
        ci = 0  # next checkpoint
        violation = False
        t = 0
        commit = -1
        phase_start = True
        block = max(self.B0, 64 * k)
        while t < T and commit < 0:
            S = np.flatnonzero(alive)
            m = S.size
            nS = n[S]
            catchup = int((nS.max() - nS).sum())
            nb = min(catchup + m * max(1, block // m), T - t)
            if catchup > self.B_MAX:  # pathological imbalance (an emptied count): stay bounded
                nb = min(self.B_MAX, T - t)
            noise, noff = self._noise_windows(S, pos, nS, nb)
            n_s, wsum_s, inc_s = nS.copy(), wsum[S], np.zeros(m, dtype=np.int64)
            ucb_s, lcb_s = np.empty(m), np.empty(m)
            Nb, Wb = np.zeros(k * k, dtype=np.int64), np.zeros(k * k)
            r_end, elim_now, seen, ci = _block(
                self.rngs["duels"], self.rngs["ldp"], ldp, p.ldp_flip, xval, S, self.P, nb,
                noise, noff, cfg.variant == "literal", p.stat, p.priv,
                self.P[np.ix_(S, S)].mean(axis=1), not violation, phase_start, gp, gu, cp, ci, t,
                plays @ gp, plays @ gu, reg_p, reg_u, n_s, wsum_s, inc_s, ucb_s, lcb_s, Nb, Wb)
            violation |= seen
            N += Nb
            W += Wb
            left = Nb.reshape(k, k).sum(axis=1)
            left_plays += left
            plays += left + Nb.reshape(k, k).sum(axis=0)
            n[S], wsum[S] = n_s, wsum_s
            if self.noise is not None:
                pos[S] += inc_s
                for j in S:
                    self.noise[j].trim(pos[j])
            t += r_end
            phase_start = False
            if not elim_now:
                block = min(2 * block, self.B_MAX)
                continue
            # elimination at round t (R3)
            E = S[ucb_s < np.max(lcb_s)]
            assert 0 < E.size < m
            alive[E] = False
            elim_time[E] = t
            elim_count[E] = n[E]
            surv = np.flatnonzero(alive)
            Nm, Wm = N.reshape(k, k), W.reshape(k, k)
            for j in surv:
                for i in E:
                    n[j] -= Nm[j, i]
                    wsum[j] -= Wm[j, i]
                if self.noise is not None:
                    pos[j] += E.size
                    self.noise[j].trim(pos[j])
            if surv.size == 1:
                commit = t
            phase_start = True
            block = max(self.B0, 64 * k)
        # after commit: (i^, i^) for the remaining rounds
        base_p, base_u = plays @ gp, plays @ gu
        if commit >= 0:
            i = int(np.flatnonzero(alive)[0])
            rest = cp[ci:] - commit
            reg_p[ci:] = base_p + 2 * gp[i] * rest
            reg_u[ci:] = base_u + 2 * gu[i] * rest
            left_plays[i] += T - commit
            plays[i] += 2 * (T - commit)
            chosen = i
        else:
            reg_p[ci:], reg_u[ci:] = base_p, base_u
            chosen = -1
        count = elim_count.copy()
        count[alive] = n[alive]
        return EBSRun(reg_p, reg_u, int(commit), chosen, bool(not alive[self.inst.best]),
                       bool(violation), elim_time, count, left_plays, plays)


def simulate_ebs(instance: FiniteInstance, config: EBSConfig, horizon: int,
                 checkpoints: np.ndarray, runs: int, seed: np.random.SeedSequence,
                 engine: str = "fast") -> EBSResult:
    """``runs`` independent runs of DP-EBS-Elimination on ``instance``.

    Run r uses ``run_seed(seed, r)`` (= ``seed.spawn(runs)[r]`` of a fresh seed) and the named
    streams ``duels``, ``ldp``, ``counter{j}`` of it, so that common random numbers hold across
    epsilon values, widths and variants. ``engine`` is ``"fast"`` (R9 block engine, all variants)
    or ``"reference"`` (per-round loop); both give the same runs for the same seed.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if int(runs) < 1:
        raise ValueError(f"runs must be >= 1, got {runs!r}")
    horizon = int(horizon)
    EBSParams.build(config, instance.k, horizon)  # validates K, T
    cp = check_checkpoints(checkpoints, horizon)
    out = []
    for r in range(int(runs)):
        s = run_seed(seed, r)
        if engine == "fast":
            out.append(_FastRun(instance, config, horizon, cp, s).run())
        else:
            out.append(DPEBSEliminationReference(instance, config, horizon, s).run(cp))
    return EBSResult.stack(out, instance=instance.name, config=config, horizon=horizon,
                           checkpoints=cp, engine=engine)
