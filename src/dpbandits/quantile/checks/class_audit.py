"""The black-box privacy audit of a researcher's quantile best-arm identification algorithm (a
class of the family's epoch form, :mod:`dpbandits.quantile.interface`), with its negative control
and what it could have found at its size.

Neighbouring inputs are the paper's (Definition 3): two reward tables that differ in one sample.
The class runs on two arms at q = 1/2 for at most ``epochs`` epochs (its ``cap``), each epoch
reading the order statistics of the fresh samples it asked for from a fixed table
(:class:`AuditTable`): arm 1's samples are all 0; arm 0's in the t-th epoch (n of them) hold
floor(l_t n) samples -1 and floor(h_t n) samples +1, 0 elsewhere. The neighbour changes one sample
of arm 0 in one epoch (a +1 to -1 where there is one, else a 0 to -1). The output is the run's
whole public record on two arms: the sample sizes of the epochs it asked for and the arm it names
(a removal ends the run), coded as one integer per run; a lower bound on the privacy loss of the
codes is one for the class.

A black-box class leaks only where its decisions are near their boundary, and a fixed table puts
an algorithm that needs hundreds of samples per arm before its first decision nowhere near it. So
the audit searches for that boundary in the class's own outputs, epoch by epoch
(:func:`boundary_shares`): with the epochs before it fixed at their boundary, it scans arm 0's
share of -1 samples (``lower``: arm 0 falls below arm 1 as it grows) or of +1 samples (``upper``)
in epoch t, a coarse grid then bisection, for the share at which a run that reaches epoch t
decides there half the time (``pilot / 5`` runs per share). The candidate tables
(:func:`candidate_tables`) are each scan's boundary and both at once (``tied``: arm 0's median
ties arm 1's and one changed sample moves a comparison both ways, the worst case of Theorem 6's
accounting), each with one sample of epoch 1, 2, ... or ``epochs`` changed (a class need not
run the same mechanism in every epoch). Each candidate's pilot of ``pilot`` runs per table is split in halves, events from one (the upper and lower sets of the
log-likelihood-ratio score, :func:`dpbandits.audit.scored_lower_bound`), a lower bound from the
other (at :data:`SELECTION_CONFIDENCE`, a ranking only); the :data:`FINALISTS` pairs with the
largest bounds go to the final bound, which takes its
events from their whole pilots and counts ``samples`` fresh runs of each table (Bonferroni over
every event of both). The search costs nothing in validity: the scan, the events and the choice
depend on runs independent of the ones counted.

The negative control is the class built at epsilon / ``control_multiplier``; the power is measured
by the same procedure, at the same size, on DP-SEQ's mutants (:mod:`dpbandits.quantile.checks.leaks`).
Random streams: (seed, "quantile", "audit", "class", role). Time: a few Python calls of the class
per epoch and run (the table's order statistics cost nothing): about 2 x 24 x ``epochs`` scanned
shares, 3 x ``epochs`` candidates of 2 x ``pilot`` runs, and 4 x ``samples`` final runs per audit.
The bound assumes the runs independent: a class must keep no state between its instances. A class
in the per-sample form (one sample at a time, no epochs) is not audited: its samples have no
epochs for the table to place its boundary in (an error says so).
"""

from __future__ import annotations

import math
import time

import numpy as np

from dpbandits.audit import AuditResult, scored_lower_bound
from dpbandits.evidence.audits import ClassAudit
from dpbandits.quantile.checks.leaks import leak_power
from dpbandits.quantile.interface import CheckedSource, class_form, class_params, class_problems
from dpbandits.rng import make_rng
from dpbandits.sim.reference import raised_in

__all__ = ["audit_quantile_class", "AuditTable", "boundary_shares", "candidate_tables", "run_codes", "DIRECTIONS",
           "TABLES"]

PAPER = "quantile"
ARMS, Q = 2, 0.5
DIRECTIONS = ("lower", "upper")  # the scans: arm 0's share of -1 samples, or of +1 samples (0 elsewhere)
TABLES = ("lower", "upper", "tied")  # the candidate tables: each scan's boundary, and both at once
COARSE, BISECTIONS = 16, 8  # scan points: a coarse grid over [0, 1], then bisection of its first crossing
FINALISTS = 2  # candidate pairs counted by the final bound (the pilot's best two; Bonferroni over both)
# The pilot ranks the candidates by their split-half lower bound at this confidence: a ranking only
# (the final bound has the audit's own), lenient so that a loss on rarer outputs still ranks high.
SELECTION_CONFIDENCE = 0.9


class AuditTable:
    """The audit's reward table (module docstring) as a source of order statistics: arm 0's samples
    in the t-th epoch the class asks for (n of them) hold floor(l_t n) samples -1 and floor(h_t n)
    samples +1, 0 elsewhere (``shares``: the pairs (l_t, h_t)); with ``changed`` = t >= 1, one
    sample of that epoch is changed (a +1 to -1 where there is one, else a 0 to -1, else a -1 to
    +1). Every other arm's samples are 0."""

    exact_window = True

    def __init__(self, shares, changed: int = 0):
        self.shares, self.changed = tuple((float(lo), float(hi)) for lo, hi in shares), int(changed)
        if any(not (min(lo, hi) >= 0 and lo + hi <= 1) for lo, hi in self.shares):
            raise ValueError(f"shares must be pairs of shares in [0, 1] summing to at most 1, got {shares!r}")
        self.t, self.n = 0, 0

    def counts(self, t: int, n: int) -> tuple[int, int]:
        """Arm 0's numbers of -1 and +1 samples in epoch ``t`` of ``n`` samples."""
        lo, hi = self.shares[t - 1] if t <= len(self.shares) else (0.0, 0.0)
        low = min(math.floor(lo * n + 1e-9), n)
        high = min(math.floor(hi * n + 1e-9), n - low)
        if t == self.changed:
            low, high = (low + 1, high - 1) if high else ((low + 1, 0) if low < n else (low - 1, 1))
        return low, high

    def epoch(self, arms, n_e: int) -> None:
        self.t, self.n = self.t + 1, int(n_e)

    def order_stats(self, arm: int, ranks: np.ndarray) -> np.ndarray:
        if arm != 0:
            return np.zeros(len(ranks))
        low, high = self.counts(self.t, self.n)
        ranks = np.asarray(ranks)
        return np.where(ranks <= low, -1.0, np.where(ranks > self.n - high, 1.0, 0.0))


def _shares(direction: str, c: float) -> tuple[float, float]:
    return (c, 0.0) if direction == "lower" else (0.0, c)


def _run(cls, kw: dict, epsilon: float, epochs: int, table: AuditTable, rng: np.random.Generator,
         stop: int, checked: bool = True) -> tuple[tuple, int]:
    """One run of ``cls`` on ``table`` for at most ``stop`` epochs: its public record (the epochs'
    sample sizes and the arm it names, -1 if none) and the epoch it decided in (0: none).
    ``checked``: every epoch and read checked (:class:`~dpbandits.quantile.interface.CheckedSource`;
    the first run of every batch is, the rest read the table directly, a third faster)."""
    who, table.t = cls.__name__, 0
    alg = cls(ARMS, Q, epsilon, rng, epochs, **kw)
    source = CheckedSource(table, who, ARMS, epochs) if checked else table
    sizes = []
    for t in range(1, stop + 1):
        with raised_in(who, "next_epoch()", t, "epoch"):
            request = alg.next_epoch()
        if request is None:
            break
        source.epoch(*request)
        sizes.append(table.n)
        with raised_in(who, "end_epoch(source)", t, "epoch"):
            alg.end_epoch(source)
        with raised_in(who, "result()", t, "epoch"):
            k_hat = alg.result()["k_hat"]
        if k_hat >= 0:
            return (tuple(sizes), int(k_hat)), t
    return (tuple(sizes), -1), 0


def run_codes(cls, kw: dict, epsilon: float, epochs: int, table: AuditTable, n: int, rng: np.random.Generator,
              book: dict) -> np.ndarray:
    """The codes of ``n`` independent runs of ``cls`` on ``table``: their public records, numbered
    in ``book`` (shared by the two tables of a pair, so equal records get equal codes)."""
    codes = np.empty(n, dtype=np.int64)
    for r in range(n):
        record, _ = _run(cls, kw, epsilon, epochs, table, rng, epochs, checked=r == 0)
        codes[r] = book.setdefault(record, len(book))
    return codes


def _decision_rate(cls, kw, epsilon, epochs, shares, t, runs, rng) -> float:
    """The share of ``runs`` runs reaching epoch ``t`` that decide there (nan if none reaches it)."""
    table = AuditTable(shares)
    reached = decided = 0
    for r in range(runs):
        record, when = _run(cls, kw, epsilon, epochs, table, rng, t, checked=r == 0)
        if len(record[0]) == t:
            reached += 1
            decided += when == t
    return decided / reached if reached else math.nan


def boundary_shares(cls, kw: dict, epsilon: float, epochs: int, direction: str, runs: int,
                    rng: np.random.Generator) -> tuple[float, ...]:
    """Epoch by epoch, the share c_t of arm 0's -1 samples (``lower``) or +1 samples (``upper``)
    at which a run reaching epoch t decides there with probability 1/2 (module docstring): a
    coarse grid over [0, 1] finds the first share whose rate reaches 1/2, and bisection between it
    and the point before it; with no such share, the grid's point of the largest rate."""
    shares: list[tuple[float, float]] = []
    for t in range(1, epochs + 1):

        def rate(c, t=t):
            return _decision_rate(cls, kw, epsilon, epochs, [*shares, _shares(direction, c)], t, runs, rng)

        grid = np.linspace(0.0, 1.0, COARSE)
        rates = np.array([rate(c) for c in grid])
        crossing = np.flatnonzero(rates >= 0.5)
        if not crossing.size:
            c = float(grid[int(np.nanargmax(rates))]) if np.isfinite(rates).any() else 0.0
        elif crossing[0] == 0:
            c = 0.0
        else:
            lo, hi = float(grid[crossing[0] - 1]), float(grid[crossing[0]])
            for _ in range(BISECTIONS):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if rate(mid) >= 0.5 else (mid, hi)
            c = hi
        shares.append(_shares(direction, c))
    return tuple(pair[0] if direction == "lower" else pair[1] for pair in shares)


def candidate_tables(lower: tuple[float, ...], upper: tuple[float, ...]) -> dict[str, tuple]:
    """The candidate tables' shares per epoch (:data:`TABLES`): each scan's boundary, and the tied
    table holding both at once (arm 0's -1 samples at the lower boundary, its +1 samples at the
    upper one, so that one changed sample moves a comparison both ways, the worst case of
    Theorem 6's accounting), clipped to shares summing to at most 1."""
    tied = tuple((lo, min(hi, 1.0 - lo)) for lo, hi in zip(lower, upper, strict=True))
    return dict(zip(TABLES, (tuple((c, 0.0) for c in lower), tuple((0.0, c) for c in upper), tied), strict=True))


def _audit(cls, kw: dict, epsilon: float, claimed: float, epochs: int, pilot: int, samples: int,
           confidence: float, seed: int, role: str) -> tuple[AuditResult, str]:
    """The boundary search, the choice on the pilot and the final bound (module docstring) for one
    class: the result and the chosen pairs in words."""
    rng = make_rng(seed, PAPER, "audit", "class", role)
    scan = max(pilot // 5, 20)
    tables = candidate_tables(*(boundary_shares(cls, kw, epsilon, epochs, d, scan, rng) for d in DIRECTIONS))
    found = []
    for name, shares in tables.items():
        for t in range(1, epochs + 1):
            label = (f"{name} table at shares (-1, +1) {', '.join(f'({lo:.4f}, {hi:.4f})' for lo, hi in shares)} "
                     f"by epoch, one sample of epoch {t} changed")
            pair = (AuditTable(shares), AuditTable(shares, changed=t))
            book: dict = {}
            runs = [run_codes(cls, kw, epsilon, epochs, x, pilot, rng, book) for x in pair]
            half = pilot // 2
            bound = scored_lower_bound([(runs[0][:half], runs[1][:half])],
                                       [(runs[0][half:2 * half], runs[1][half:2 * half])],
                                       len(book), claimed, SELECTION_CONFIDENCE, [label]).epsilon_lower_bound
            found.append((bound, len(found), label, pair, book, runs))
    chosen = sorted(found, key=lambda f: (-f[0], f[1]))[:FINALISTS]
    pilots, finals, labels, offset = [], [], [], 0
    for _, _, label, pair, book, runs in chosen:  # one numbering of the codes across the finalists
        final = [run_codes(cls, kw, epsilon, epochs, x, samples, rng, book) for x in pair]
        pilots.append((runs[0] + offset, runs[1] + offset))
        finals.append((final[0] + offset, final[1] + offset))
        labels.append(label)
        offset += len(book)
    result = scored_lower_bound(pilots, finals, offset, claimed, confidence, labels)
    return result, " or ".join(labels)


def audit_quantile_class(cls, epsilon: float = 1.0, params=None, *, epochs: int = 3, pilot: int = 1000,
                         samples: int = 20_000, seed: int = 0, confidence: float = 0.999,
                         control_multiplier: float = 0.5, power: bool = True) -> ClassAudit:
    """Audit a private quantile class of the family's epoch form against eps-DP (module
    docstring): the class, its negative control and, if ``power``, DP-SEQ's leaky mutants at the
    same size. Bad arguments are errors before any run."""
    problems = class_problems(cls)
    if problems:
        raise ValueError(f"{cls.__name__} cannot run as a quantile algorithm: {'; '.join(problems)}")
    if class_form(cls) != "epochs":
        raise ValueError(f"{cls.__name__} is in the per-sample form: the audit reads the epoch form (next_epoch, "
                         "end_epoch, result), whose epochs its table places the decision boundary in")
    kw = class_params(cls, params)
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be > 0 and finite, got {epsilon!r}")
    if isinstance(epochs, bool) or not isinstance(epochs, (int, np.integer)) or not 1 <= epochs <= 6:
        raise ValueError(f"epochs must be an integer in [1, 6], got {epochs!r}")
    if not 0.5 <= confidence < 1:
        raise ValueError(f"confidence must be in [0.5, 1), got {confidence!r}")
    for name, value, low in (("pilot", pilot, 100), ("samples", samples, 100)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if not 0 < control_multiplier < 1:
        raise ValueError(f"control_multiplier must be in (0, 1), got {control_multiplier!r}")
    start = time.perf_counter()
    chosen: dict[str, str] = {}

    def audit(c, p, eps, role):
        result, chosen[role] = _audit(c, p, eps, epsilon, epochs, pilot, samples, confidence, seed, role)
        return result

    real = audit(cls, kw, epsilon, "real")
    control = audit(cls, kw, epsilon / control_multiplier, "control")
    reference, leaks = leak_power(lambda c, p, role: audit(c, p, epsilon, role)) if power else (None, [])
    changed = "1" if epochs == 1 else f"1 to {epochs}"
    size = (f"m = 2 arms, q = 1/2, at most {epochs} epochs, tables with arm 0's share of -1 samples, of +1 samples, "
            f"or both (tied), at the decision boundary a scan of the class's outputs found in each epoch "
            f"({max(pilot // 5, 20)} runs per scanned share), one sample of epoch {changed} changed (the {FINALISTS} "
            f"pairs chosen on a pilot of {pilot} runs per table, for the class: {chosen['real']}), {samples} runs per "
            "table counted")
    return ClassAudit(real, control, leaks, size, time.perf_counter() - start, privacy="eps-DP", reference=reference)
