"""Black-box audit harness of DP-EBS-Elimination (dueling paper, Algorithm 1; configuration in
:mod:`.ebs_params`): :func:`audit_codes` runs many independent copies of the algorithm on a
fixed o-table (spec 1.4), vectorised over the copies, and returns a code of each copy's released
elimination history, for the privacy audit A5 (:mod:`dpbandits.dueling.checks.audits`).

The copies' counters are a :class:`~dpbandits.mechanisms.tree_counter.BatchedTreeCounter`
(the binary-tree counter vectorised over copies: same law as ``BinaryTreeCounter``, its own
draw order), and the harness draws from one generator, not from the engines' named streams:
per round the uniforms of every active copy's right arm (and randomized response), then the
counters' Laplace draws. Each round's duels and elimination test are compiled loops over the
copies (:func:`_duels`, :func:`_eliminated`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.dueling.ebs_params import EBSConfig, EBSParams
from dpbandits.mechanisms.tree_counter import BatchedTreeCounter

__all__ = ["AUDIT_HISTORIES", "COUNTER_NOISE", "audit_codes", "n_audit_codes", "decode_audit_code"]

AUDIT_HISTORIES = ("first", "full")
# The counters' noise: "fresh" (the algorithm's, one draw per released node) or "reused" (a leaky
# mutant for the audit's power table: one draw per copy and counter, reused on every node).
COUNTER_NOISE = ("fresh", "reused")


class _ReusedNoiseCounter(BatchedTreeCounter):
    """A leaky mutant of the counters (``counter_noise="reused"``): each copy's counter draws one
    Laplace value at its scale, at construction, and adds it to every node it releases, so the
    differences of its outputs carry the stream without noise."""

    def __init__(self, copies: int, k: int, levels: int, scale: float, rng: np.random.Generator):
        super().__init__(copies, k, levels, scale, rng)
        e = rng.standard_exponential((copies, k, 2))
        self.reused = scale * (e[..., 0] - e[..., 1])

    def _node_noise(self, c: np.ndarray, j: np.ndarray) -> np.ndarray:
        return self.reused[c, j]


def n_audit_codes(k: int, horizon: int, history: str = "first") -> int:
    """Number of output codes of :func:`audit_codes`.

    ``first``: 0 = no elimination by T, else 1 + (s - 1)(2^K - 2) + (mask - 1) for the first
    elimination round s and the bitmask of the arms eliminated then (1 <= mask <= 2^K - 2);
    ``full``: sum_i e_i (T + 1)^i with e_i the elimination round of arm i (0 = never).
    """
    if history == "first":
        return 1 + int(horizon) * (2 ** int(k) - 2)
    if history == "full":
        return (int(horizon) + 1) ** int(k)
    raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")


def decode_audit_code(code: int, k: int, horizon: int, history: str = "first"):
    """Inverse of the code: ``first`` -> None or (round, arms); ``full`` -> elimination rounds."""
    if history == "first":
        if code == 0:
            return None
        s, mask = divmod(int(code) - 1, 2**k - 2)
        return s + 1, [i for i in range(k) if (mask + 1) >> i & 1]
    if history == "full":
        return [int(code) // (horizon + 1) ** i % (horizon + 1) for i in range(k)]
    raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")


def audit_codes(o_table, k: int, config: EBSConfig, copies: int, rng: np.random.Generator,
                history: str = "first", counter_noise: str = "fresh") -> np.ndarray:
    """Released-event codes of ``copies`` independent runs of Algorithm 1 on a FIXED o-table
    (user t answers o_table[t-1] whatever duel is shown; T = len(o_table)), vectorised over the
    copies. The code (see :func:`n_audit_codes`) is a post-processing of the released duel
    sequence (the elimination history), so a lower bound on the privacy loss of the codes is one
    for the algorithm. Supports every variant; ``literal`` is negative control (ii) and
    ``noise_multiplier=0`` control (i); ``counter_noise="reused"`` is a leaky mutant of the counters
    (:data:`COUNTER_NOISE`). The fast-engine streams are not used (one generator)."""
    o = np.asarray(o_table, dtype=np.int64)
    T = o.size
    if history not in AUDIT_HISTORIES:
        raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")
    if counter_noise not in COUNTER_NOISE:
        raise ValueError(f"counter_noise must be one of {COUNTER_NOISE}, got {counter_noise!r}")
    if np.any((o != 0) & (o != 1)):
        raise ValueError("o_table must be 0/1")
    p = EBSParams.build(config, k, T)
    C = int(copies)
    variant = config.variant
    # stream element of a (randomized) outcome 0 / 1, as numpy formed a * (o ^ flip) - b
    xval = p.ldp_a * np.array([0.0, 1.0]) - p.ldp_b if variant == "ldp" else np.array([0.0, 1.0])
    alive = np.ones((C, k), dtype=bool)
    n = np.zeros((C, k), dtype=np.int64)
    out = np.zeros((C, k))
    N = np.zeros((C, k, k), dtype=np.int64)
    W = np.zeros((C, k, k))
    done = np.zeros(C, dtype=bool)
    elim_round = np.zeros((C, k), dtype=np.int64)
    counter = _ReusedNoiseCounter if counter_noise == "reused" else BatchedTreeCounter
    tree = counter(C, k, p.levels, p.noise_scale, rng) if config.uses_counters else None
    for t in range(1, T + 1):
        act = np.flatnonzero(~done)
        if act.size == 0:
            break
        pick = rng.random(act.size)
        flip = rng.random(act.size) < p.ldp_flip if variant == "ldp" else np.zeros(act.size, dtype=bool)
        a, x = _duels(act, alive, n, N, W, pick, flip, int(o[t - 1]), xval)
        if variant in ("r1", "naive"):
            out[act, a] = tree.push(act, a, x)
        elif variant == "literal":
            if o[t - 1] == 1:
                out[act, a] = tree.push(act, a, 1.0)
        else:
            out[act, a] += x
        E = _eliminated(act, alive, n, out, p.stat, p.priv)
        rows = np.flatnonzero(E.any(axis=1))
        if rows.size == 0:
            continue
        cs = act[rows]
        Er = E[rows]
        elim_round[cs] = np.where(Er, t, elim_round[cs])
        alive[cs] &= ~Er
        for i in range(k):
            hit = Er[:, i]
            if not hit.any():
                continue
            for j in range(k):
                sel = hit & alive[cs, j]
                if not sel.any():
                    continue
                cj = cs[sel]
                n[cj, j] -= N[cj, j, i]
                if tree is not None:
                    jj = np.full(cj.size, j)
                    out[cj, j] = tree.push(cj, jj, -W[cj, j, i])
                else:
                    out[cj, j] -= W[cj, j, i]
        done[cs] |= alive[cs].sum(axis=1) == 1
    if history == "full":
        return (elim_round * (T + 1) ** np.arange(k)).sum(axis=1)
    big = np.iinfo(np.int64).max
    first = np.where(elim_round > 0, elim_round, big).min(axis=1)
    none = first == big
    mask = ((elim_round == first[:, None]) * (1 << np.arange(k))).sum(axis=1)
    code = 1 + (first - 1) * (2**k - 2) + (mask - 1)
    return np.where(none, 0, code)


@njit(cache=True)
def _duels(act, alive, n, N, W, pick, flip, o, xval):
    """One round's duels of the active copies (in order): left arm a = the first survivor of least
    count, right arm b = the survivor of rank floor(pick |S|) (at most |S| - 1), element
    xval[o xor flip]; N, W and n are updated. Returns (a, element) per active copy."""
    k = alive.shape[1]
    a_out = np.empty(act.size, dtype=np.int64)
    x_out = np.empty(act.size)
    for i in range(act.size):
        c = act[i]
        a, m = -1, 0
        for q in range(k):
            if alive[c, q]:
                m += 1
                if a < 0 or n[c, q] < n[c, a]:
                    a = q
        rank = min(int(pick[i] * m), m - 1)
        b = -1
        for q in range(k):
            if alive[c, q]:
                rank -= 1
                if rank < 0:
                    b = q
                    break
        x = xval[o ^ int(flip[i])]
        N[c, a, b] += 1
        W[c, a, b] += x
        n[c, a] += 1
        a_out[i], x_out[i] = a, x
    return a_out, x_out


@njit(cache=True)
def _eliminated(act, alive, n, out, stat, priv):
    """E[i, q]: survivor q of active copy act[i] has UCB < the best LCB of its copy (R3), with
    est = out / n +- (stat / sqrt(n) + priv / n) and +-inf bounds when n = 0 (R4)."""
    k = alive.shape[1]
    E = np.zeros((act.size, k), dtype=np.bool_)
    ucb = np.empty(k)
    for i in range(act.size):
        c = act[i]
        best = -math.inf
        for q in range(k):
            if n[c, q] > 0:
                est = out[c, q] / n[c, q]
                rad = stat / math.sqrt(n[c, q]) + priv / n[c, q]
                ucb[q] = est + rad
                if alive[c, q]:
                    best = max(best, est - rad)
            else:
                ucb[q] = math.inf
        for q in range(k):
            E[i, q] = alive[c, q] and ucb[q] < best
    return E
