"""The black-box privacy audit of a researcher's dueling algorithm (a class of the family's
protocol, :mod:`dpbandits.dueling.interface`), with its negative control and what it could have
found at its size.

Neighbouring inputs are the paper's (spec 1.4): two fixed o-tables, user t answering o_table[t-1]
whatever duel is shown, that differ in one user's answer. The output is the sequence of duels the
class shows (its public behaviour), read at up to 16 probe rounds spread over the horizon (every
round when T <= 16) and coded as one integer per run: a post-processing of the released duels,
so a lower bound on the privacy loss of the codes is one for the class.

A black-box class leaks only where its decisions are near their boundary, which no fixed table
guarantees: an algorithm that needs hundreds of duels before its first decision shows nothing at
T = 16. So the audit searches, on a pilot sample, over candidate neighbouring pairs: horizons
(``horizons``), balanced o-tables with a given share of answers "left won" (``win_rates``) and
the answer flipped at the first round, half-way or three quarters of the way (not the last: the
last duel is shown before its answer, so no output could depend on it). Each pilot is
split in halves: events from one (the upper and lower sets of the log-likelihood-ratio score,
:func:`dpbandits.audit.scored_lower_bound`), a lower bound from the other; the pair with the
largest bound is chosen. The final bound then takes its events from the chosen pair's whole pilot
and counts ``samples`` fresh runs of each table, so the search costs nothing in validity (the
events and the choice depend on the pilot only, independent of the runs counted).

The negative control is the class built at epsilon / ``control_multiplier``; the power is measured
by the same procedure, at the same size, on the reference mutants of
:mod:`dpbandits.dueling.checks.leaks`. Random streams: (seed, "dueling", "audit", "class", role,
...). Time: one Python call of the class per round and run; the pilot runs every candidate, the
final runs only the chosen pair. The bound assumes the runs independent: a class must keep no
state between its instances (class attributes that change), as the protocol asks.
"""

from __future__ import annotations

import math
import time

import numpy as np

from dpbandits.audit import AuditResult, scored_lower_bound
from dpbandits.dueling.checks.leaks import leak_power
from dpbandits.dueling.instances import f1
from dpbandits.dueling.interface import class_params, class_problems, run_duels
from dpbandits.evidence.audits import ClassAudit
from dpbandits.rng import make_rng

__all__ = ["audit_dueling_class", "candidate_tables", "duel_codes", "PROBES"]

PAPER = "dueling"
PROBES = 16  # probe rounds per run (every round when T <= 16)


def candidate_tables(horizons, win_rates) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The candidate neighbouring o-tables: for each horizon T and win rate p, the balanced table
    o_t = floor(t p) - floor((t - 1) p) (every run of consecutive answers holds a share p of
    "left won" to within one answer, so a count an algorithm compares with a share of its duels
    sits at its threshold, where one answer can tip it), and its neighbour with the answer of round
    1, ceil(T/2) or ceil(3T/4) flipped; (label, o, o')."""
    out = []
    for t in horizons:
        for p in win_rates:
            rounds = np.arange(1, t + 1)
            o = (np.floor(rounds * p + 1e-9) - np.floor((rounds - 1) * p + 1e-9)).astype(np.int64)
            for s in sorted({1, math.ceil(t / 2), math.ceil(3 * t / 4)}):
                neighbour = o.copy()
                neighbour[s - 1] = 1 - neighbour[s - 1]
                out.append((f"T = {t}, {p:g} of the answers 'left won', round {s}'s answer flipped", o, neighbour))
    return out


def duel_codes(cls, params: dict, epsilon: float, o_table: np.ndarray, arms: int, n: int, rng: np.random.Generator,
               book: dict) -> np.ndarray:
    """The codes of ``n`` independent runs of ``cls`` (built as ``cls(arms, epsilon, T, rng,
    **params)``) on ``o_table``: the duels at the probe rounds, numbered in ``book`` (shared by
    the two tables of a pair, so equal outputs get equal codes)."""
    horizon = o_table.size
    probes = np.unique(np.linspace(1, horizon, min(PROBES, horizon)).round().astype(int)) - 1
    instance = f1(arms)  # the answers come from the table: the instance only names the arms
    codes = np.empty(n, dtype=np.int64)
    for i in range(n):
        alg = cls(arms, epsilon, horizon, rng, **params)
        run = run_duels(alg, instance, horizon, None, o_table=o_table, record_pairs=True, who=cls.__name__)
        key = run.pairs[probes].tobytes()
        codes[i] = book.setdefault(key, len(book))
    return codes


def _audit(cls, params: dict, epsilon: float, claimed: float, candidates, arms: int, pilot: int, samples: int,
           confidence: float, seed: int, role: str) -> AuditResult:
    """The search on the pilot and the final bound (module docstring) for one class."""
    rng = make_rng(seed, PAPER, "audit", "class", role)
    best = None
    for label, o, neighbour in candidates:
        book: dict = {}
        runs = [duel_codes(cls, params, epsilon, x, arms, pilot, rng, book) for x in (o, neighbour)]
        half = pilot // 2
        found = scored_lower_bound([(runs[0][:half], runs[1][:half])], [(runs[0][half:2 * half], runs[1][half:2 * half])],
                                   len(book), claimed, confidence, [label])
        if best is None or found.epsilon_lower_bound > best[0]:
            best = (found.epsilon_lower_bound, label, o, neighbour, book, runs)
    _, label, o, neighbour, book, pilot_runs = best
    final = [duel_codes(cls, params, epsilon, x, arms, samples, rng, book) for x in (o, neighbour)]
    return scored_lower_bound([tuple(pilot_runs)], [tuple(final)], len(book), claimed, confidence, [label])


def audit_dueling_class(cls, epsilon: float = 1.0, params=None, *, arms: int = 2, horizons=(16, 64),
                        win_rates=(0.5, 0.75, 1.0), pilot: int = 1000, samples: int = 20_000, seed: int = 0,
                        confidence: float = 0.999, control_multiplier: float = 0.5, power: bool = True) -> ClassAudit:
    """Audit a dueling class of the family's protocol against epsilon-DP (module docstring):
    the class, its negative control and, if ``power``, the reference's leaky mutants at the same
    size. Bad arguments are errors before any run."""
    problems = class_problems(cls)
    if problems:
        raise ValueError(f"{cls.__name__} cannot run as a dueling algorithm: {'; '.join(problems)}")
    kw = class_params(cls, params)
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be > 0 and finite, got {epsilon!r}")
    if not isinstance(arms, int) or not 2 <= arms <= 8:
        raise ValueError(f"arms must be an integer in [2, 8], got {arms!r}")
    horizons = tuple(horizons)
    if not horizons or any(isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 2 <= t <= 4096
                           for t in horizons):
        raise ValueError(f"horizons must be integers in [2, 4096], got {horizons!r}")
    if not 0.5 <= confidence < 1:
        raise ValueError(f"confidence must be in [0.5, 1), got {confidence!r}")
    if not win_rates or any(not 0 <= p <= 1 for p in win_rates):
        raise ValueError(f"win_rates must be shares in [0, 1], got {tuple(win_rates)!r}")
    for name, value, low in (("pilot", pilot, 20), ("samples", samples, 100)):
        if not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if not 0 < control_multiplier < 1:
        raise ValueError(f"control_multiplier must be in (0, 1), got {control_multiplier!r}")
    start = time.perf_counter()
    candidates = candidate_tables(horizons, win_rates)

    def audit(c, p, eps, role):
        return _audit(c, p, eps, epsilon, candidates, arms, pilot, samples, confidence, seed, role)

    real = audit(cls, kw, epsilon, "real")
    control = audit(cls, kw, epsilon / control_multiplier, "control")
    reference, leaks = leak_power(lambda c, p, role: audit(c, p, epsilon, role)) if power else (None, [])
    size = (f"K = {arms}, T = {', '.join(map(str, horizons))}, o-tables with {', '.join(f'{p:g}' for p in win_rates)} "
            f"of the answers 'left won' and one answer flipped (round 1, T/2 or 3T/4), the pair chosen on a pilot of "
            f"{pilot} runs per table, {samples} runs per table counted")
    return ClassAudit(real, control, leaks, size, time.perf_counter() - start, privacy="eps-DP", reference=reference)
