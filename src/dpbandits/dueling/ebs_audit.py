"""Black-box audit harness of DP-EBS-Elimination (dueling paper, Algorithm 1; configuration in
:mod:`.ebs_params`): :func:`audit_codes` runs many independent copies of the algorithm on a
fixed o-table (spec 1.4), vectorised over the copies, and returns a code of each copy's released
elimination history, for the privacy audit A5 (:mod:`.audits`).

The copies' counters are a :class:`~dpbandits.mechanisms.tree_counter.BatchedTreeCounter`
(the binary-tree counter vectorised over copies: same law as ``BinaryTreeCounter``, its own
draw order), and the harness draws from one generator, not from the engines' named streams.
"""

from __future__ import annotations

import numpy as np

from dpbandits.dueling.ebs_params import EBSConfig, EBSParams
from dpbandits.mechanisms.tree_counter import BatchedTreeCounter

__all__ = ["AUDIT_HISTORIES", "audit_codes", "n_audit_codes", "decode_audit_code"]

AUDIT_HISTORIES = ("first", "full")


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
                history: str = "first") -> np.ndarray:
    """Released-event codes of ``copies`` independent runs of Algorithm 1 on a FIXED o-table
    (user t answers o_table[t-1] whatever duel is shown; T = len(o_table)), vectorised over the
    copies. The code (see :func:`n_audit_codes`) is a post-processing of the released duel
    sequence (the elimination history), so a lower bound on the privacy loss of the codes is one
    for the algorithm. Supports every variant; ``literal`` is negative control (ii) and
    ``noise_multiplier=0`` control (i). The fast-engine streams are not used (one generator)."""
    o = np.asarray(o_table, dtype=np.int64)
    T = o.size
    if history not in AUDIT_HISTORIES:
        raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")
    if np.any((o != 0) & (o != 1)):
        raise ValueError("o_table must be 0/1")
    p = EBSParams.build(config, k, T)
    C = int(copies)
    variant = config.variant
    alive = np.ones((C, k), dtype=bool)
    n = np.zeros((C, k), dtype=np.int64)
    out = np.zeros((C, k))
    N = np.zeros((C, k, k), dtype=np.int64)
    W = np.zeros((C, k, k))
    done = np.zeros(C, dtype=bool)
    elim_round = np.zeros((C, k), dtype=np.int64)
    tree = BatchedTreeCounter(C, k, p.levels, p.noise_scale, rng) if config.uses_counters else None
    big = np.iinfo(np.int64).max
    for t in range(1, T + 1):
        act = np.flatnonzero(~done)
        if act.size == 0:
            break
        al = alive[act]
        a = np.argmin(np.where(al, n[act], big), axis=1)
        m = al.sum(axis=1)
        pick = np.minimum((rng.random(act.size) * m).astype(np.int64), m - 1)
        b = np.argmax(np.cumsum(al, axis=1) > pick[:, None], axis=1)
        ot = int(o[t - 1])
        if variant == "ldp":
            flip = (rng.random(act.size) < p.ldp_flip).astype(np.int64)
            x = p.ldp_a * (ot ^ flip) - p.ldp_b
        else:
            x = np.full(act.size, float(ot))
        N[act, a, b] += 1
        W[act, a, b] += x
        n[act, a] += 1
        if variant in ("r1", "naive"):
            out[act, a] = tree.push(act, a, x)
        elif variant == "literal":
            if ot == 1:
                out[act, a] = tree.push(act, a, 1.0)
        else:
            out[act, a] += x
        na = n[act]
        with np.errstate(divide="ignore", invalid="ignore"):
            est = out[act] / na
            rad = p.stat / np.sqrt(na) + p.priv / na
        ucb = np.where(na > 0, est + rad, np.inf)
        lcb = np.where(na > 0, est - rad, -np.inf)
        best = np.max(np.where(al, lcb, -np.inf), axis=1)
        E = al & (ucb < best[:, None])
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
    first = np.where(elim_round > 0, elim_round, big).min(axis=1)
    none = first == big
    mask = ((elim_round == first[:, None]) * (1 << np.arange(k))).sum(axis=1)
    code = 1 + (first - 1) * (2**k - 2) + (mask - 1)
    return np.where(none, 0, code)
