"""QPAC: the quantile PAC algorithm of Szorenyi, Busa-Fekete, Weng & Hullermeier, "Qualitative
multi-armed bandits: a quantile-based approach", ICML 2015 (their Algorithm 1), as the spec
transcribes it (section 5.1). **Addition, not from the replicated paper**: Nikolakakis et al.
discuss QPAC (Sec. I, IV-B) but never run it; we run it for the optional checks D1 and D2.

Round t pulls every active arm once (each has t samples), then, with K the initial arm count,

    c_t = sqrt(log(pi^2 K t^2 / (3 delta)) / (2 t))         (DKW + union bound over t and arms)
    Q_k(p) = X^k_(ceil(p t)), -inf for p <= 0, +inf for p > 1
    L_k = Q_k(tau - c_t), U_k = Q_k(tau + c_t), Le_k = Q_k(tau + eps - c_t), Ue_k = Q_k(tau + eps + c_t)
    x- = max_k L_k over the active arms
    SELECT   strict (the variant of Howard & Ramdas' re-implementation, ``variant="strict"``):
                 return k if max_{k' != k} U_k' < Le_k;
             "V2" (``variant="v2"``, the non-strict rule of Zhang & Ong's re-implementation):
                 return k if max_{k'} U_k' <= Le_k
    DISCARD  remove every k with Ue_k < x-  (strict, as the replicated paper stresses)
    stop when one arm is left.

tau is the level q of the replicated paper (same left quantile). With eps = 0 and q at a level
where a CDF is flat (BERN12 at q = 1/2) every statistic of the strict variant equals 2 and the
algorithm never stops (claim C5 of the paper, check D1); V2 stops at once. Several arms passing
SELECT in one round: the one with the largest Le_k (lowest index on ties) is returned. The first
check is at t = 1. Every run has a per-arm cap on t and is censored there (``terminated`` False).
Privacy: none.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dpbandits.quantile.baseline_engine import (
    CAPPED,
    NEED_MORE,
    STOPPED,
    ArmSamples,
    fenwick_insert,
    order_stat,
    run_baseline,
    top_power,
)
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.seq import SeqRecords

__all__ = ["qpac_width", "simulate_qpac", "QPACReference", "VARIANTS"]

VARIANTS = ("strict", "v2")


def qpac_width(t, k: int, delta: float):
    """c_t = sqrt(log(pi^2 K t^2 / (3 delta)) / (2 t)) (natural log)."""
    t = np.asarray(t, dtype=float)
    return np.sqrt(np.log(math.pi**2 * k * t * t / (3 * delta)) / (2 * t))


@njit(cache=True)
def _q_hat(tree, top, sorted_vals, p, t):
    if p <= 0.0:
        return -np.inf
    if p > 1.0:
        return np.inf
    return order_stat(tree, top, sorted_vals, int(np.ceil(p * t)), t)


@njit(cache=True)
def _qpac_kernel(rank, sorted_vals, size, cap, counts, elim, tau, eps, delta, strict):
    k_arms = rank.shape[0]
    tree = np.zeros((k_arms, size + 1), dtype=np.int32)
    top = top_power(size)
    active = np.ones(k_arms, dtype=np.bool_)
    n_active = k_arms
    lo = np.empty(k_arms)
    up = np.empty(k_arms)
    lo_e = np.empty(k_arms)
    up_e = np.empty(k_arms)
    t = 0
    while True:
        if t >= cap:
            return CAPPED, -1, t
        if t >= size:
            return NEED_MORE, -1, t
        t += 1
        for k in range(k_arms):
            if active[k]:
                fenwick_insert(tree[k], rank[k, t - 1])
                counts[k] = t
        c = np.sqrt(np.log(np.pi**2 * (k_arms * 1.0) * t * t / (3.0 * delta)) / (2.0 * t))
        x_minus = -np.inf
        for k in range(k_arms):
            if active[k]:
                lo[k] = _q_hat(tree[k], top, sorted_vals[k], tau - c, t)
                up[k] = _q_hat(tree[k], top, sorted_vals[k], tau + c, t)
                lo_e[k] = _q_hat(tree[k], top, sorted_vals[k], tau + eps - c, t)
                up_e[k] = _q_hat(tree[k], top, sorted_vals[k], tau + eps + c, t)
                if lo[k] > x_minus:
                    x_minus = lo[k]
        chosen = -1
        for k in range(k_arms):
            if not active[k]:
                continue
            other = -np.inf
            for j in range(k_arms):
                if active[j] and (j != k or not strict) and up[j] > other:
                    other = up[j]
            ok = other < lo_e[k] if strict else other <= lo_e[k]
            if ok and (chosen < 0 or lo_e[k] > lo_e[chosen]):
                chosen = k
        if chosen >= 0:
            return STOPPED, chosen, t
        for k in range(k_arms):
            if active[k] and up_e[k] < x_minus:
                active[k] = False
                elim[k] = t
                n_active -= 1
        if n_active == 1:
            for k in range(k_arms):
                if active[k]:
                    return STOPPED, k, t


def simulate_qpac(instance: QuantileInstance, delta: float, cap: int, runs: int, seed: np.random.SeedSequence,
                  eps: float = 0.0, variant: str = "strict", block: int = 4096) -> SeqRecords:
    """QPAC on ``runs`` runs; ``cap``: maximum rounds t (= samples per arm). Records as SEQ's:
    ``n_final`` = rounds, ``pulls`` per arm, ``elim_n`` = round of discard (-1 if never)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown QPAC variant {variant!r}; allowed: {', '.join(VARIANTS)}")
    if not 0 < delta < 1 or eps < 0:
        raise ValueError("QPAC needs delta in (0, 1) and eps >= 0")
    strict = variant == "strict"

    def kernel(rank, sorted_vals, size, cap_, counts, elim):
        return _qpac_kernel(rank, sorted_vals, size, cap_, counts, elim, instance.q, float(eps), float(delta),
                            strict)

    return run_baseline(instance, kernel, int(cap), runs, seed, min(int(cap), block))


class QPACReference:
    """QPAC one sample at a time: the family's protocol
    (:class:`dpbandits.quantile.interface.QuantileAlgorithm`), a plain transcription of the
    module docstring's rule (the compiled kernel's reference: on the same reward streams it gives
    :func:`simulate_qpac`'s record exactly). A round samples every active arm once, in index
    order; ``cap``: the last round (censored there). Privacy: none."""

    private = False
    mechanism = "none"
    sensitivity = "none"

    def __init__(self, k: int, q: float, delta: float, cap: int, eps: float = 0.0, variant: str = "strict"):
        if variant not in VARIANTS:
            raise ValueError(f"unknown QPAC variant {variant!r}; allowed: {', '.join(VARIANTS)}")
        if not 0 < delta < 1 or eps < 0:
            raise ValueError("QPAC needs delta in (0, 1) and eps >= 0")
        self.k, self.tau, self.delta, self.cap, self.eps = int(k), float(q), float(delta), int(cap), float(eps)
        self.strict = variant == "strict"
        self.samples = ArmSamples(self.k)
        self.active = list(range(self.k))
        self.elim = [-1] * self.k
        self.t, self.k_hat, self.done = 0, -1, self.cap < 1
        self._queue: list[int] = []

    def select(self) -> int:
        if not self._queue:
            self._queue = list(self.active)
        return self._queue[0]

    def update(self, arm: int, sample: float) -> None:
        if self.done or not self._queue or arm != self._queue[0]:
            raise RuntimeError("update() must follow select() on a running algorithm")
        self._queue.pop(0)
        self.samples.add(arm, sample)
        if not self._queue:
            self.t += 1
            self._decide()

    def _q_hat(self, arm: int, p: float) -> float:
        if p <= 0.0:
            return -math.inf
        if p > 1.0:
            return math.inf
        return self.samples.stat(arm, int(math.ceil(p * self.t)))

    def _decide(self) -> None:
        t, tau, eps = self.t, self.tau, self.eps
        c = math.sqrt(math.log(math.pi**2 * float(self.k) * t * t / (3.0 * self.delta)) / (2.0 * t))
        lo = {a: self._q_hat(a, tau - c) for a in self.active}
        up = {a: self._q_hat(a, tau + c) for a in self.active}
        lo_e = {a: self._q_hat(a, tau + eps - c) for a in self.active}
        up_e = {a: self._q_hat(a, tau + eps + c) for a in self.active}
        x_minus = max(lo.values())
        chosen = -1
        for a in self.active:
            other = max((up[b] for b in self.active if b != a or not self.strict), default=-math.inf)
            ok = other < lo_e[a] if self.strict else other <= lo_e[a]
            if ok and (chosen < 0 or lo_e[a] > lo_e[chosen]):
                chosen = a
        if chosen >= 0:
            self.k_hat, self.done = chosen, True
            return
        for a in [a for a in self.active if up_e[a] < x_minus]:
            self.active.remove(a)
            self.elim[a] = t
        if len(self.active) == 1:
            self.k_hat, self.done = self.active[0], True
        elif t >= self.cap:
            self.done = True

    def result(self) -> dict:
        terminated = self.k_hat >= 0
        pulls = [self.t if self.elim[a] < 0 else self.elim[a] for a in range(self.k)]
        return {"k_hat": self.k_hat, "terminated": terminated, "n_final": self.t, "pulls": pulls,
                "elim": list(self.elim), "guard": 0}
