"""Fast engine of DP-EBS-Elimination (dueling paper, Algorithm 1; the algorithm, its variants
and widths are described in :mod:`.ebs_params`), and :func:`simulate_ebs`, the entry point
that runs either engine.

The fast engine is the exact R9 block engine (spec 2.2): between eliminations the left-arm
schedule is deterministic, so a block of rounds is simulated with numpy (duels, per-arm
cumulative sums, tree noise of every stream position, bounds), the first round that triggers an
elimination is located and the block truncated there. Both engines consume the same random
streams in the same way (per round two uniforms from ``duels`` for (b_t, o_t), one from ``ldp``
for randomized response, and per counter j the Laplace draws of ``BinaryTreeCounter`` in its
order from ``counter{j}``, here through its noise path
:class:`~dpbandits.mechanisms.tree_counter.TreeCounterNoise`), so for the same seed they
produce the same run (up to floating-point rounding of the noisy sums), which is what the tests
check, besides distributional tests. After commit nothing is random, so the cost is
proportional to the commit time, not to T.
"""

from __future__ import annotations

import numpy as np

from dpbandits.dueling.ebs_params import EBSConfig, EBSParams
from dpbandits.dueling.ebs_reference import DPEBSEliminationReference
from dpbandits.dueling.ebs_result import (
    EBSResult,
    EBSRun,
    check_checkpoints,
    run_seed,
    stream_names,
)
from dpbandits.dueling.instances import FiniteInstance
from dpbandits.mechanisms.tree_counter import TreeCounterNoise
from dpbandits.rng import stream_rngs

__all__ = ["ENGINES", "simulate_ebs"]

ENGINES = ("fast", "reference")


class _Uniforms:
    """Buffered uniforms, ``width`` per round, consumed in order (draws ahead never change the
    values a round receives)."""

    def __init__(self, rng: np.random.Generator, width: int):
        self.rng = rng
        self.width = width
        self.buf = np.empty((0, width))

    def peek(self, k: int) -> np.ndarray:
        if self.buf.shape[0] < k:
            more = self.rng.random((max(k - self.buf.shape[0], 4096), self.width))
            self.buf = np.concatenate([self.buf, more])
        return self.buf[:k]

    def consume(self, k: int) -> None:
        self.buf = self.buf[k:]


def _prefix_suffix(g: np.ndarray, op, fill: float) -> tuple[np.ndarray, np.ndarray]:
    """Running ``op`` (np.minimum / np.maximum) along the columns of g: prefix (nrow, m) and
    suffix (nrow, m + 1), the last suffix column being ``fill``."""
    nrow, m = g.shape
    if m > 16:
        pre = op.accumulate(g, axis=1)
        suf = np.empty((nrow, m + 1))
        suf[:, :m] = op.accumulate(g[:, ::-1], axis=1)[:, ::-1]
    else:  # short rows: column loops are faster than accumulate along axis 1
        pre = g.copy()
        for q in range(1, m):
            op(pre[:, q - 1], pre[:, q], out=pre[:, q])
        suf = np.empty((nrow, m + 1))
        suf[:, :m] = g
        for q in range(m - 2, -1, -1):
            op(suf[:, q + 1], suf[:, q], out=suf[:, q])
    suf[:, m] = fill
    return pre, suf


def _schedule(n_s: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """First ``count`` left plays from counts ``n_s`` (positions in S): repeated argmin with
    smallest-index ties = plays sorted by (level, position), arm p playing levels n_p, n_p+1, ...
    Returns (position, level) per round."""
    m = n_s.size
    thresholds = np.unique(n_s)
    ps, vs = [], []
    left = count
    for q, d in enumerate(thresholds):
        active = np.flatnonzero(n_s <= d)
        size = active.size
        span = (thresholds[q + 1] - d) if q + 1 < thresholds.size else None
        need = -(-left // size)
        nl = need if span is None else min(span, need)
        take = min(left, nl * size)
        ps.append(np.tile(active, nl)[:take])
        vs.append(np.repeat(np.arange(d, d + nl, dtype=np.int64), size)[:take])
        left -= take
        if left == 0:
            break
    assert left == 0 and m > 0
    return np.concatenate(ps), np.concatenate(vs)


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
        rngs = stream_rngs(seed, stream_names(k))
        self.duels = _Uniforms(rngs["duels"], 2)
        self.ldp = _Uniforms(rngs["ldp"], 1) if config.variant == "ldp" else None
        self.noise = ([TreeCounterNoise(rngs[f"counter{j}"], self.p.levels, self.p.noise_scale)
                       for j in range(k)] if config.uses_counters else None)

    def run(self) -> EBSRun:
        k, T, cfg = self.k, self.T, self.cfg
        literal = cfg.variant == "literal"
        stat, priv = self.p.stat, self.p.priv
        p_flat = self.P.ravel()
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
            ar = np.arange(m)
            nS = n[S]
            catchup = int((nS.max() - nS).sum())
            nb = min(catchup + m * max(1, block // m), T - t)
            if catchup > self.B_MAX:  # pathological imbalance (an emptied count): stay bounded
                nb = min(self.B_MAX, T - t)
            dense = catchup == 0 and nb % m == 0
            if dense:
                nrow = nb // m + 1
                p_r = np.tile(ar, nb // m)
                flat = None
            else:
                p_r, v_r = _schedule(nS, nb)
                row = v_r - int(nS.min()) + 1
                nrow = int(row[-1]) + 1
                flat = row * m + p_r

            def grid(values, dtype, flat=flat, nrow=nrow, m=m):
                g = np.zeros(nrow * m, dtype=dtype)
                if flat is None:
                    g[m:] = values
                else:
                    g[flat] = values
                return g.reshape(nrow, m)

            a_r = S[p_r]
            u = self.duels.peek(nb)
            b_r = S[np.minimum((u[:, 0] * m).astype(np.int64), m - 1)]
            pair = a_r * k + b_r
            o_r = u[:, 1] < p_flat[pair]
            if self.ldp is not None:
                flip = self.ldp.peek(nb)[:, 0] < self.p.ldp_flip
                x_r = self.p.ldp_a * (o_r ^ flip) - self.p.ldp_b
            else:
                x_r = o_r.astype(float)
            # grid (row = level - min level + 1, column = position in S); row 0 = block start.
            # Cell (v, p) holds arm p's values after its play at level v (its start values if
            # it has not played yet); at round (v, p) arms p' <= p show row v, the others v - 1.
            played = None if flat is None else grid(True, bool)
            if flat is None:  # all counts equal: one column suffices
                cnt = np.arange(nrow)[:, None]
                nn = nS[0] + cnt
                cumx = np.empty((nrow, m))
                cumx[0] = wsum[S]
                np.cumsum(x_r.reshape(nrow - 1, m), axis=0, out=cumx[1:])
                cumx[1:] += wsum[S]
            else:
                cnt = np.cumsum(played, axis=0)
                nn = nS + cnt
                cumx = wsum[S] + np.cumsum(grid(x_r, float), axis=0)
            tot = cumx
            if self.noise is not None:
                inc = np.cumsum(grid(o_r, np.int64), axis=0) if literal else cnt
                qpos = pos[S] + inc
                if qpos.shape[1] != m:
                    qpos = np.broadcast_to(qpos, (nrow, m))
                tot = cumx.copy()
                for q in range(m):
                    tot[:, q] += self.noise[S[q]].at(qpos[:, q])
            with np.errstate(divide="ignore", invalid="ignore"):
                est = tot / nn
                rad = stat / np.sqrt(nn) + priv / nn
                gu_ = est + rad
                gl_ = est - rad
            if nS.min() == 0:
                zero = np.broadcast_to(nn == 0, gu_.shape)
                gu_[zero] = np.inf
                gl_[zero] = -np.inf
            # state at every round: min UCB / max LCB over p' <= p in row v and p' > p in row v-1
            pmin, smin = _prefix_suffix(gu_, np.minimum, np.inf)
            pmax, smax = _prefix_suffix(gl_, np.maximum, -np.inf)
            trig = np.minimum(pmin[1:], smin[:-1, 1:]) < np.maximum(pmax[1:], smax[:-1, 1:])
            if played is not None:
                trig &= played[1:]
            cells = np.flatnonzero(trig.ravel())
            elim_now = cells.size > 0
            if elim_now:
                c_end = int(cells[0])
                r_end = c_end + 1 if flat is None else int(np.searchsorted(flat - m, c_end)) + 1
            else:
                r_end = nb
                c_end = nb - 1 if flat is None else int(flat[-1]) - m
            row_end, p_end = divmod(c_end, m)
            row_end += 1
            srow = np.where(ar <= p_end, row_end, row_end - 1)  # state after round r_end
            # CI violations (after each update; the post-subtraction state at a phase start)
            if not violation:
                bs = self.P[np.ix_(S, S)].mean(axis=1)
                bad = ((bs > gu_[1:]) | (bs < gl_[1:]))
                if played is not None:
                    bad &= played[1:]
                if bad.ravel()[:c_end + 1].any():
                    violation = True
                if phase_start:
                    others = ar != p_r[0]
                    if np.any((bs[others] > gu_[0, others]) | (bs[others] < gl_[0, others])):
                        violation = True
            # regret at checkpoints inside the kept rounds
            a_k, b_k = a_r[:r_end], b_r[:r_end]
            if ci < cp.size and cp[ci] <= t + r_end:
                base_p, base_u = plays @ gp, plays @ gu
                cs_p = base_p + np.cumsum(gp[a_k] + gp[b_k])
                cs_u = base_u + np.cumsum(gu[a_k] + gu[b_k])
                while ci < cp.size and cp[ci] <= t + r_end:
                    reg_p[ci] = cs_p[cp[ci] - t - 1]
                    reg_u[ci] = cs_u[cp[ci] - t - 1]
                    ci += 1
            # commit the kept rounds to the state
            left = np.bincount(a_k, minlength=k)
            left_plays += left
            plays += left + np.bincount(b_k, minlength=k)
            N += np.bincount(pair[:r_end], minlength=k * k)
            W += np.bincount(pair[:r_end], weights=x_r[:r_end], minlength=k * k)
            ucb_s, lcb_s = gu_[srow, ar], gl_[srow, ar]
            n[S] = np.broadcast_to(nn, (nrow, m))[srow, ar]
            wsum[S] = cumx[srow, ar]
            if self.noise is not None:
                pos[S] = qpos[srow, ar]
                for q in range(m):
                    self.noise[S[q]].trim(pos[S[q]])
            self.duels.consume(r_end)
            if self.ldp is not None:
                self.ldp.consume(r_end)
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
