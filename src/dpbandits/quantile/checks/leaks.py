"""What a black-box audit of a quantile best-arm identification algorithm could have found: its
power against named classes of leak, measured at the audit's own size on mutants of one correct
algorithm of the family.

The reference, :class:`LeakyDPSEQ` with ``leak = "none"``, is Algorithm 2 (DP-SEQ) itself in the
family's epoch form, with the constructor of a researcher's class (``(n_arms, q, epsilon, rng,
cap, **params)``, :mod:`dpbandits.quantile.interface`): eps-DP under continual observation
(Theorem 6: Lap(2 (m_e - 1) / eps) on each of the 2 (m_e - 1) pair statistics an arm enters, each
of sensitivity 1; epochs read disjoint fresh samples). The mutants each break one step of that
argument, as a researcher's algorithm might:

* ``noise_shrunk``: the Laplace scale x0.5: each epoch 2 eps-DP;
* ``composition_ignored``: epoch e's pair statistics on every sample of the arm so far (epoch e's
  ranks of the pooled count), with fresh noise: a sample enters every later epoch's statistics, so
  the loss grows with the number of epochs;
* ``noise_reused``: epoch 1's Laplace draws added again in every later epoch (differences of the
  epochs' decisions then carry no noise);
* ``sensitivity_understated``: the noise of the statistic's share of the epoch's range,
  Lap(2 (m_e - 1) / (L eps)) with L = min(i - 1, n_e - j), added to the count itself, whose
  sensitivity is 1: L times too little noise, more so in later epochs.

:func:`leak_power` audits the reference and each mutant with the audit whose power it states
(:func:`dpbandits.quantile.checks.class_audit.audit_quantile_class`): a class is caught when that
audit refutes the mutant's epsilon claim; the reference itself must not be refuted (a test).
:func:`code_law` is the exact law of the audit's output (the epoch a run decides in and the arm it
names) for the reference and each mutant on two arms at q = 1/2, so that a test can hold the sampled
codes to it and state the exact loss each mutant shows on the tables the audit searches.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from dpbandits.evidence.audits import LeakPower, measure_leak_power
from dpbandits.quantile import dp_seq
from dpbandits.quantile.checks.analytic import statistics_matrix

__all__ = ["LeakyDPSEQ", "LEAK_CLASSES", "leak_power", "code_law", "exact_loss"]

# leak class -> (the mutant's constructor keywords, what it gets wrong)
LEAK_CLASSES: dict[str, tuple[dict, str]] = {
    "noise_shrunk": ({"noise_multiplier": 0.5}, "noise shrunk x0.5 (each epoch 2 eps-DP)"),
    "composition_ignored": ({"leak": "composition"},
                            "composition ignored across epochs (each epoch's statistics on every sample so far)"),
    "noise_reused": ({"leak": "reuse"}, "noise reused across epochs (epoch 1's draws added again)"),
    "sensitivity_understated": ({"leak": "sensitivity"},
                                "sensitivity understated (the noise of the statistic's share of the range on "
                                "the count)"),
}


class LeakyDPSEQ(dp_seq.DPSEQ):
    """DP-SEQ (Algorithm 2) with a researcher's constructor, and its leaky mutants (``leak``;
    module docstring). ``cap``: the last epoch; ``delta``: the confidence (0.1, the project's
    default for DP-SEQ)."""

    LEAKS = ("none", "composition", "reuse", "sensitivity")

    def __init__(self, n_arms: int, q: float, epsilon: float, rng: np.random.Generator, cap: int, *,
                 delta: float = 0.1, leak: str = "none", noise_multiplier: float = 1.0):
        if leak not in self.LEAKS:
            raise ValueError(f"leak must be one of {self.LEAKS}, got {leak!r}")
        super().__init__(n_arms, q, delta, epsilon, rng, cap, noise_multiplier)
        self.leak = leak
        self.first_noise: np.ndarray | None = None
        self.pooled: dict[int, np.ndarray] = {}

    def _open(self, e: int) -> int:
        m = len(self.active)
        multiplier = self.noise_multiplier
        if self.leak == "sensitivity":
            n_e = dp_seq.epoch_size(m, e, self.epsilon, self.delta)
            multiplier /= max(dp_seq.epoch_ranks(n_e, e, self.q)[2], 1)
        self.epoch = dp_seq.open_epoch(e, m, self.q, self.epsilon, self.delta, self.noise, multiplier)
        if self.leak == "reuse":
            if self.first_noise is None or self.first_noise.shape != self.epoch.z.shape:
                self.first_noise = self.epoch.z
            self.epoch = replace(self.epoch, z=self.first_noise)
        return self.epoch.n_e

    def _close(self, source) -> list[int] | None:
        if self.leak != "composition":
            return super()._close(source)
        ep, every = self.epoch, np.arange(1, self.epoch.n_e + 1)
        for a in self.active:  # every sample of the epoch, pooled with the arm's earlier ones
            self.pooled[a] = np.sort(np.concatenate([self.pooled.get(a, np.empty(0)), source.order_stats(a, every)]))
        i, j, _ = dp_seq.epoch_ranks(self.pooled[self.active[0]].size, ep.e, self.q)
        s = statistics_matrix([self.pooled[a] for a in self.active], i, j)
        removed = dp_seq.eliminate(s, ep.z, ep.t)
        fired = bool(((s + ep.z >= ep.t) & ~np.eye(ep.m, dtype=bool)).any(axis=0).all())
        return None if fired else [a for a, r in zip(self.active, removed, strict=True) if r]


def leak_power(audit: Callable[..., object]) -> tuple[object, list[LeakPower]]:
    """The reference's audit and each leak class's (:data:`LEAK_CLASSES`), by ``audit(cls,
    params, role)``: the audit whose power is stated, run on :class:`LeakyDPSEQ` with the
    mutant's keywords (``role``: "reference" or the class name, for the caller's random streams)."""
    return measure_leak_power(audit, LeakyDPSEQ, LEAK_CLASSES)


def _laplace_sf(x: float, scale: float) -> float:
    """P(Z >= x) for Z ~ Lap(scale); 1 at -inf, 0 at +inf."""
    if x == -math.inf:
        return 1.0
    if x == math.inf:
        return 0.0
    return 0.5 * math.exp(-x / scale) if x >= 0 else 1.0 - 0.5 * math.exp(x / scale)


def code_law(table, epsilon: float, epochs: int, *, leak: str = "none", noise_multiplier: float = 1.0,
             delta: float = 0.1) -> dict[tuple[int, int], float]:
    """The exact law of :class:`LeakyDPSEQ`'s output on two arms at q = 1/2 (epochs from 1, as the
    audit runs it: its ``cap`` is the number of epochs) for at most ``epochs`` epochs on
    ``table`` (an object with ``counts(t, n)``: arm 0's numbers of -1 and +1 samples among the n of
    its t-th epoch; arm 1's are all 0, as in the audit's tables): code (epoch, arm named) of a run
    that decides in that epoch, (0, -1) of one that does not. In epoch e the pair (a, b) hits iff
    s_ab + Z_ab >= T_e; exactly one hit removes the other arm and ends the run (both: the guard,
    none). The noise of the two pairs is independent; with ``reuse`` a pair's noise is one draw for
    every epoch, so its hits over the epochs are those of one Laplace variable."""
    if leak not in LeakyDPSEQ.LEAKS:
        raise ValueError(f"leak must be one of {LeakyDPSEQ.LEAKS}, got {leak!r}")
    thresholds = {(0, 1): [], (1, 0): []}  # per pair, per epoch: the noise level x_e it must reach
    scales, low, high, total = [], 0, 0, 0
    q = 0.5  # e_* = 1: epoch e is the table's e-th
    for e in range(1, epochs + 1):
        n = dp_seq.epoch_size(2, e, epsilon, delta)
        lo, hi = table.counts(e, n)
        scale = dp_seq.noise_scale(2, epsilon) * noise_multiplier
        if leak == "sensitivity":
            scale /= max(dp_seq.epoch_ranks(n, e, q)[2], 1)
        if leak == "composition":
            low, high, total = low + lo, high + hi, total + n
        else:
            low, high, total = lo, hi, n
        arm0 = np.concatenate([np.full(low, -1.0), np.zeros(total - low - high), np.ones(high)])
        i, j, _ = dp_seq.epoch_ranks(total, e, q)
        s = statistics_matrix([arm0, np.zeros(total)], i, j)
        t = dp_seq.threshold(2, e, epsilon, delta)
        scales.append(scale)
        thresholds[(0, 1)].append(t - s[0, 1])
        thresholds[(1, 0)].append(t - s[1, 0])

    def pattern_law(pair):
        x = thresholds[pair]
        out = {}
        for hits in itertools.product((0, 1), repeat=epochs):
            if leak == "reuse":  # one draw: Z >= every hit's level and Z < every miss's level
                floor = max((x[e] for e in range(epochs) if hits[e]), default=-math.inf)
                ceiling = min((x[e] for e in range(epochs) if not hits[e]), default=math.inf)
                p = max(0.0, _laplace_sf(floor, scales[0]) - _laplace_sf(ceiling, scales[0])) if floor < ceiling else 0.0
            else:
                p = math.prod(_laplace_sf(x[e], scales[e]) if hits[e] else 1.0 - _laplace_sf(x[e], scales[e])
                              for e in range(epochs))
            out[hits] = p
        return out

    law: dict[tuple[int, int], float] = {}
    for (h01, p01), (h10, p10) in itertools.product(pattern_law((0, 1)).items(), pattern_law((1, 0)).items()):
        code = next(((e + 1, 0 if h01[e] else 1) for e in range(epochs) if h01[e] != h10[e]), (0, -1))
        law[code] = law.get(code, 0.0) + p01 * p10
    return law


def exact_loss(table, neighbour, epsilon: float, epochs: int, **mutant) -> float:
    """The largest |log P(code | table) - log P(code | neighbour)| over the codes of
    :func:`code_law` (``mutant``: its keywords; inf where one side has a code the other cannot)."""
    p, p_prime = code_law(table, epsilon, epochs, **mutant), code_law(neighbour, epsilon, epochs, **mutant)
    worst = 0.0
    for code in set(p) | set(p_prime):
        a, b = p.get(code, 0.0), p_prime.get(code, 0.0)
        if a > 1e-300 or b > 1e-300:
            worst = max(worst, math.inf if min(a, b) <= 1e-300 else abs(math.log(a / b)))
    return worst
