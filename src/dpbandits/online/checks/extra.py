"""Checks of the researcher's own algorithms (``online.extra_algorithms``; interface in
:mod:`dpbandits.online.interface`). None of them is a claim of the paper: each algorithm gets

* ``X-AUDIT-<NAME>`` (kind baseline) and ``X-AUDIT-<NAME>-CONTROL`` (kind control): the
  black-box audit of the paper's algorithms (spec 6.5 P-MC-BANDIT: the fixed K = 2, T = 8 reward
  table of :data:`dpbandits.online.checks.audits.BANDIT_TABLE`, neighbours that mirror the reward vector
  of round h in {1, 3, 4}, the output being the whole action sequence, and, for a class that
  publishes its releases (``published()``), also the action sequence with the published values:
  :func:`audit_class`), at each of the
  algorithm's ``audit_horizons`` (default 8 and 16: the table's rows repeated; Bonferroni over the
  horizons), with its ``audit_arms`` (default 2: :func:`audit_table`) and its ``audit_rounds``
  (default 1, 3, 4) if the config sets them, run on the class at its
  claimed epsilon (``epsilon_accounting`` x ``online.audit.epsilon``), with a negative control
  the audit must catch;
* ``X-REGRET-<NAME>`` (kind report): its final regret relative to Lazy-DP-TS (Alg. 3) in every
  panel of Figures 1-2, with a bootstrap CI.

The negative control of an arbitrary algorithm. The paper's audits shrink the Laplace scale of
the audited mechanism (x ``online.audit.control_noise_multiplier`` = m; an extra algorithm's own
``control_noise_multiplier`` overrides it) and must refute the
resulting, really eps/m-DP mutant: that shows the audit, at this sample size and on these
neighbours, would have caught a mechanism that leaks 1/m times more than claimed. A researcher's
class is a black box, so the control is the closest mutant it exposes:

* if its constructor takes ``noise_multiplier``, the class with its noise scale x m (the paper's
  control, exactly);
* otherwise the class constructed at epsilon / m (its own accounting then spends 1/m times the
  claimed budget, so a correct, reasonably tight algorithm leaks about 1/m times more).

Either way an uncaught control means the audit has no power on this algorithm: its verdict is
INCONCLUSIVE (no_power), never a PASS. Beyond its own control, the row states what the audit
could have found at its size: the same audit (table, neighbours, runs, confidence) on mutants of
a correct algorithm of the family, one per class of leak (noise shrunk, composition ignored across
releases, noise reused across releases, sensitivity understated;
:mod:`dpbandits.online.checks.leaks`). A PASS is supported only when the audit catches every
class there; otherwise the row says "no violation found at <size>; no power against <classes>"
and is INCONCLUSIVE (no_power). A PASS says only that this audit found no violation where
it could see a 1/m-fold one; a FAIL is a proof (at the stated confidence) that the claim is false.
As for the paper's audits (:func:`dpbandits.evidence.guards.privacy_power`), a caught control is
power of the claim's form only when it is a release at most 2 eps-DP (m >= 1/2); a grosser
control caught shows that the audit sees gross leaks, and the PASS stays INCONCLUSIVE no_power.

Every run of the audit is a run of the class itself: with its vectorised interface (``copies``)
all copies advance together, otherwise one per-step object after the other, sharing one
generator (runs are independent because they draw different numbers from it). Random streams:
(root seed, "online", "audit", "extra", name, role) for role real / control,
(root seed, "online", "audit", "leaks", name, role) for the power table's reference and mutants, and
(root seed, "online", "check", "X-REGRET") for the bootstraps.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd

from dpbandits.audit import AuditResult, epsilon_lower_bound, scored_lower_bound
from dpbandits.audit.releases import JOINT_LEVELS
from dpbandits.evidence.audits import LeakPower, user_audit_rows
from dpbandits.evidence.claims import Claim
from dpbandits.online.checks.audits import BANDIT_TABLE
from dpbandits.online.checks.leaks import leak_power
from dpbandits.online.interface import (
    AUDIT_ROUNDS,
    ExtraAlgorithm,
    check_algorithm_params,
    checked_published,
    extra_algorithms,
    supports_copies,
    supports_noise_multiplier,
    supports_published,
)
from dpbandits.rng import make_rng
from dpbandits.sim.reference import checked_arm, checked_arms
from dpbandits.stats import bootstrap_ratio_of_means

__all__ = ["class_runs", "class_action_codes", "audit_class", "audit_table", "audit_over_horizons", "audit_extra", "audit_power",
           "audit_size", "control_multiplier", "reads_published",
           "check_x_audit", "check_x_regret", "AUDIT_ROUNDS"]

PAPER = "online"
PUBLISHED_LEVELS = JOINT_LEVELS  # the quantiles that cut each published value into cells
REFERENCE = "lazy_dp_ts"  # what X-REGRET compares with: the paper's best algorithm in Figs 1-2


def class_runs(cls, params, table: np.ndarray, epsilon: float, n_samples: int, rng: np.random.Generator,
               noise_multiplier: float | None = None, published: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """``n_samples`` independent runs of ``cls`` on one fixed reward table (T x K): their action
    sequences as integer codes sum_t a_t K^(T - t) (all T rounds), and, with ``published``, the
    values each run has published after round T (``published()``; shape (runs, r), r the most any
    run published, NaN where a run published fewer; None without). ``noise_multiplier`` (None:
    not passed) needs the class to accept it."""
    horizon, k = table.shape
    kw = dict(check_algorithm_params(cls, params))
    if noise_multiplier is not None:
        kw["noise_multiplier"] = noise_multiplier
    codes = np.zeros(n_samples, dtype=np.int64)
    if supports_copies(cls):
        alg = cls(k, epsilon, horizon, rng, copies=n_samples, **kw)
        for t in range(1, horizon + 1):
            arms = checked_arms(alg.select(t), k, n_samples, cls.__name__, t)
            alg.update(t, arms, table[t - 1, arms])
            codes = codes * k + arms
        return codes, (checked_published(alg.published(), n_samples, cls.__name__, horizon) if published else None)
    values = []
    for i in range(n_samples):
        alg = cls(k, epsilon, horizon, rng, **kw)
        code = 0
        for t in range(1, horizon + 1):
            arm = checked_arm(alg.select(t), k, cls.__name__, t)
            alg.update(t, arm, float(table[t - 1, arm]))
            code = code * k + arm
        codes[i] = code
        if published:
            values.append(checked_published(alg.published(), None, cls.__name__, horizon)[0])
    if not published:
        return codes, None
    out = np.full((n_samples, max((v.size for v in values), default=0)), np.nan)
    for i, v in enumerate(values):
        out[i, :v.size] = v
    return codes, out


def class_action_codes(cls, params, table: np.ndarray, epsilon: float, n_samples: int,
                       rng: np.random.Generator, noise_multiplier: float | None = None) -> np.ndarray:
    """The action codes of :func:`class_runs`."""
    return class_runs(cls, params, table, epsilon, n_samples, rng, noise_multiplier)[0]


def _published_cuts(*values: np.ndarray) -> list[np.ndarray]:
    """Per published position, the cuts of its cells: the :data:`PUBLISHED_LEVELS` quantiles of
    that position's values over the runs given (a first pilot of both tables of a pair); none where
    no run published there."""
    width = max(v.shape[1] for v in values)
    stacked = np.vstack([np.pad(v, ((0, 0), (0, width - v.shape[1])), constant_values=np.nan) for v in values])
    cuts = []
    for c in range(width):
        column = stacked[:, c][~np.isnan(stacked[:, c])]
        cuts.append(np.quantile(column, PUBLISHED_LEVELS) if column.size else np.empty(0))
    return cuts


def _joint_rows(codes: np.ndarray, values: np.ndarray, cuts: list[np.ndarray]) -> np.ndarray:
    """One row per run: its action code, then each published position's cell (at or below the
    first cut = 0, ..., above the last = len(levels); not published = len(levels) + 1). Positions beyond
    the cuts' (published by no run of the first pilot) are left out."""
    absent = len(PUBLISHED_LEVELS) + 1
    rows = np.empty((codes.size, 1 + len(cuts)), dtype=np.int64)
    rows[:, 0] = codes
    for c, cut in enumerate(cuts):
        column = values[:, c] if c < values.shape[1] else np.full(codes.size, np.nan)
        rows[:, 1 + c] = np.where(np.isnan(column), absent, np.searchsorted(cut, column))
    return rows


def _published_pair(cut_pilot, pilot, counted) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], int]:
    """One neighbouring pair's outputs read jointly (actions and published values): the pilot's and
    the counted runs' codes, numbered 0, 1, ... over the distinct rows of :func:`_joint_rows`, and
    how many there are. The numbering uses every run, but an output's score (its estimated
    log-likelihood ratio) depends on the pilot's counts of it alone, so the events stay the
    pilot's (:func:`dpbandits.audit.scored_lower_bound`)."""
    cuts = _published_cuts(*(values for _, values in cut_pilot))
    blocks = [_joint_rows(codes, values, cuts) for codes, values in (*pilot, *counted)]
    distinct, dense = np.unique(np.vstack(blocks), axis=0, return_inverse=True)
    parts = np.split(dense.ravel(), np.cumsum([b.shape[0] for b in blocks])[:-1])
    return (parts[0], parts[1]), (parts[2], parts[3]), int(distinct.shape[0])


def audit_class(cls, params, epsilon: float, claimed_epsilon: float, n_samples: int,
                rng: np.random.Generator, confidence: float = 0.999,
                noise_multiplier: float | None = None, table: np.ndarray = BANDIT_TABLE,
                rounds: tuple[int, ...] = AUDIT_ROUNDS, events: str = "scored",
                published: bool = False) -> AuditResult:
    """The black-box audit of P-MC-BANDIT on ``cls`` constructed at ``epsilon``: one neighbouring
    pair per round h (its reward vector mirrored), tested against ``claimed_epsilon``. Events:
    "scored" (default), the upper and lower sets of each action sequence's log-likelihood ratio
    estimated on an independent pilot of ``n_samples`` // 4 runs per table
    (:func:`dpbandits.audit.scored_lower_bound`); "atoms", every one of the K^T sequences.

    With ``published`` (the class's ``published()``; scored events only) every run is read twice:
    as its action sequence (as above) and as its action sequence together with the values it
    published, each value cut into cells at :data:`PUBLISHED_LEVELS` quantiles of a first pilot of
    ``n_samples`` // 10 runs per table (at least 1000) and the cells coded jointly, so that a leak
    only the values show (a reward in several releases, noise reused) is within reach; one
    Bonferroni correction covers the events of both readings. Every pilot is independent of the
    runs the bound counts."""
    if events not in ("scored", "atoms"):
        raise ValueError(f"events must be 'scored' or 'atoms', got {events!r}")
    if published and events != "scored":
        raise ValueError("events='atoms' reads the action sequences only; the published values need "
                         "events='scored'")
    horizon, k = table.shape
    tables, labels = [], []
    for h in rounds:
        neighbour = table.copy()
        neighbour[h - 1] = 1.0 - neighbour[h - 1]
        tables.append((table, neighbour))
        labels.append(f"round {h} vector mirrored")

    def codes(n):
        return [tuple(class_action_codes(cls, params, x, epsilon, n, rng, noise_multiplier) for x in pair)
                for pair in tables]

    if events == "atoms":
        return epsilon_lower_bound(codes(n_samples), k ** horizon, claimed_epsilon, confidence, "atoms", labels)
    if not published:
        pilot = codes(max(1000, n_samples // 4))
        return scored_lower_bound(pilot, codes(n_samples), k ** horizon, claimed_epsilon, confidence, labels)

    def runs(n):
        return [tuple(class_runs(cls, params, x, epsilon, n, rng, noise_multiplier, published=True) for x in pair)
                for pair in tables]

    cut_pilot, pilot, counted = runs(max(1000, n_samples // 10)), runs(max(1000, n_samples // 4)), runs(n_samples)
    pilots, pairs, names, n_codes = [], [], [], k ** horizon
    for label, cut_runs, pilot_runs, counted_runs in zip(labels, cut_pilot, pilot, counted, strict=True):
        pilots.append(tuple(codes for codes, _ in pilot_runs))
        pairs.append(tuple(codes for codes, _ in counted_runs))
        names.append(f"{label}, actions")
        joint_pilot, joint_counted, distinct = _published_pair(cut_runs, pilot_runs, counted_runs)
        pilots.append(joint_pilot)
        pairs.append(joint_counted)
        names.append(f"{label}, actions and published values")
        n_codes = max(n_codes, distinct)
    return scored_lower_bound(pilots, pairs, n_codes, claimed_epsilon, confidence, names)


def audit_table(horizon: int, k: int = 2) -> np.ndarray:
    """The audit's reward table at ``horizon`` with ``k`` arms: the rows of :data:`BANDIT_TABLE`
    repeated (T = 8 is that table itself, T = 16 it twice); arm j >= 2 holds column j mod 2 shifted
    down by j rounds."""
    base = BANDIT_TABLE[np.arange(int(horizon)) % BANDIT_TABLE.shape[0]]
    extra = [np.roll(base[:, j % 2], j) for j in range(2, int(k))]
    return np.column_stack([base, *extra]) if extra else base


def audit_over_horizons(cls, params, epsilon: float, claimed_epsilon: float, n_samples: int,
                        rng: np.random.Generator, confidence: float, horizons: tuple[int, ...],
                        noise_multiplier: float | None = None, k: int = 2,
                        rounds: tuple[int, ...] = AUDIT_ROUNDS, published: bool = False) -> AuditResult:
    """:func:`audit_class` at every horizon of ``horizons`` (tables :func:`audit_table` with ``k``
    arms, neighbours mirroring the vectors of ``rounds``; with ``published``, the published values
    read too), each at confidence 1 - (1 - ``confidence``) / H (Bonferroni over the H horizons, so
    the largest lower bound holds at ``confidence``): the largest bound, with its horizon named in
    the event. A leak that grows with the releases shows at the longer tables."""
    h = len(horizons)
    each = 1.0 - (1.0 - confidence) / h
    results = [(t, audit_class(cls, params, epsilon, claimed_epsilon, n_samples, rng, each, noise_multiplier,
                               table=audit_table(t, k), rounds=rounds, published=published)) for t in horizons]
    t, best = max(results, key=lambda r: r[1].epsilon_lower_bound)
    return AuditResult(best.epsilon, best.epsilon_lower_bound, f"T = {t}, {best.best_event}", best.n_samples,
                       confidence, sum(r.n_events for _, r in results))


def reads_published(spec: ExtraAlgorithm) -> bool:
    """Does the audit of ``spec`` read published values: the class has ``published()`` and, in a
    probe of 20 runs on its longest audit table (epsilon = 1, a fixed seed), publishes at least one
    value? A class whose ``published()`` stays empty is audited, and its power measured, on its
    actions alone: the reference's releases must not lend it power its own audit lacks."""
    cls = spec.load()
    if not supports_published(cls):
        return False
    table = audit_table(max(spec.audit_horizons), spec.audit_arms)
    _, values = class_runs(cls, spec.params, table, 1.0, 20, np.random.default_rng(0), published=True)
    return bool(np.isfinite(values).any())


def control_multiplier(spec: ExtraAlgorithm, a: dict) -> float:
    """The negative control's multiplier m of one extra algorithm (its own, else the section's)."""
    return float(a["control_noise_multiplier"] if spec.control_noise_multiplier is None
                 else spec.control_noise_multiplier)


def audit_extra(spec: ExtraAlgorithm, root_seed: int, a: dict) -> tuple[AuditResult, AuditResult, str]:
    """The real audit, its negative control and the control's description (module docstring)
    of one extra algorithm; ``a`` is the config section ``online.audit``. What the same audit
    could have found: :func:`audit_power`."""
    cls = spec.load()
    eps = float(a["epsilon"])
    m = control_multiplier(spec, a)
    claimed = spec.epsilon_accounting * eps
    conf, n = float(a["confidence"]), int(spec.audit_samples)

    def stream(role):
        return make_rng(root_seed, PAPER, "audit", "extra", spec.name, role)

    horizons = spec.audit_horizons
    size = {"k": spec.audit_arms, "rounds": spec.audit_rounds, "published": reads_published(spec)}
    real = audit_over_horizons(cls, spec.params, eps, claimed, n, stream("real"), conf, horizons, **size)
    if supports_noise_multiplier(cls):
        control = audit_over_horizons(cls, spec.params, eps, claimed, n, stream("control"), conf, horizons,
                                      noise_multiplier=m, **size)
        how = f"its noise scale x{m:g} (noise_multiplier)"
    else:
        if m <= 0:
            raise ValueError("a control_noise_multiplier of 0 cannot build an epsilon / m control "
                             f"for {spec.name} (its class takes no noise_multiplier)")
        control = audit_over_horizons(cls, spec.params, eps / m, claimed, n, stream("control"), conf, horizons,
                                      **size)
        how = f"constructed at epsilon / {m:g} (it takes no noise_multiplier)"
    return real, control, how


def audit_power(spec: ExtraAlgorithm, root_seed: int, a: dict) -> tuple[AuditResult, list[LeakPower]]:
    """What the audit of ``spec`` could have found at its size: the same audit (its table,
    neighbours, runs and confidence, at its claimed epsilon) on the correct reference of the family
    and on one mutant per class of leak (:func:`dpbandits.online.checks.leaks.leak_power`).
    Streams: (root seed, "online", "audit", "leaks", name, role)."""
    eps, claimed = float(a["epsilon"]), spec.epsilon_accounting * float(a["epsilon"])
    published = reads_published(spec)  # the reference and mutants read the same way

    def run(cls, params, role):
        rng = make_rng(root_seed, PAPER, "audit", "leaks", spec.name, role)
        return audit_over_horizons(cls, params, eps, claimed, int(spec.audit_samples), rng, float(a["confidence"]),
                                   spec.audit_horizons, k=spec.audit_arms, rounds=spec.audit_rounds,
                                   published=published)

    return leak_power(run)


def audit_size(result: AuditResult, horizons: tuple[int, ...], k: int = 2, rounds: tuple[int, ...] = AUDIT_ROUNDS,
               published: bool = False) -> str:
    """The size an audit of :func:`audit_over_horizons` looked at, in words."""
    output = ("each run's action sequence, and its action sequence with the values it published (each cut at "
              f"{len(PUBLISHED_LEVELS)} quantiles of a first pilot)" if published else "each run's action sequence")
    return (f"K = {k}, T = {' and '.join(str(t) for t in horizons)}, {len(rounds)} neighbouring tables per T "
            f"(the reward vector of round {', '.join(str(h) for h in rounds)} mirrored), "
            f"{result.n_samples} runs per table, {result.n_events} events (thresholds of the log-likelihood "
            f"ratio of {output}, chosen on an independent pilot)")


def _audit_rows(spec: ExtraAlgorithm, real: AuditResult, control: AuditResult, how: str,
                scale: str, multiplier: float, power: list[LeakPower] | None = None) -> list[Claim]:
    """The audit row and its control's (:func:`dpbandits.evidence.audits.user_audit_rows`); with
    ``power`` (:func:`audit_power`), the audit row states what it could have found at its size,
    and a PASS not powered against every leak class is INCONCLUSIVE no_power (module docstring)."""
    published = reads_published(spec)
    what = (f"{spec.label} ({spec.name}), whole action sequence{' and published values' if published else ''}, "
            f"K = {spec.audit_arms}, T = {' and '.join(str(t) for t in spec.audit_horizons)}, one reward vector "
            f"replaced, claims {spec.epsilon_accounting:g} x epsilon")
    size = (None if power is None
            else audit_size(real, spec.audit_horizons, spec.audit_arms, spec.audit_rounds, published))
    mutants = "mutants of an eps-DP algorithm of the family" + (
        ", their published epoch releases read beside their actions" if published else "")
    return user_audit_rows(PAPER, f"X-AUDIT-{spec.check_id}", spec.import_path, spec.label, what, real, control, how,
                           multiplier, scale, power, size, mutants=mutants)


def check_x_audit(root_seed: int, scale: str, a: dict) -> list[Claim]:
    """X-AUDIT-*: the black-box audit of every extra algorithm (none configured: no rows).
    ``a``: the config section ``online.audit`` merged with ``online.extra_algorithms``."""
    rows = []
    for spec in extra_algorithms(a):
        start = time.perf_counter()
        real, control, how = audit_extra(spec, root_seed, a)
        middle = time.perf_counter()
        reference, power = audit_power(spec, root_seed, a)
        logging.info("audit of %s: %.1f s for the algorithm and its control, %.1f s for the power table (the "
                     "eps-DP reference and %d leak classes); audit_samples %d, audit_horizons %s", spec.name,
                     middle - start, time.perf_counter() - middle, len(power), spec.audit_samples,
                     list(spec.audit_horizons))
        if reference.refuted:  # the correct reference refuted: the audit itself is broken
            raise RuntimeError(f"the audit of {spec.name} refutes the eps-DP reference of its power table "
                               f"(lower bound {reference.epsilon_lower_bound:.3g} > {reference.epsilon:g})")
        rows += _audit_rows(spec, real, control, how, scale, control_multiplier(spec, a), power)
    return rows


def _finals(runs: pd.DataFrame, setting: str, algorithm: str, eps: float) -> np.ndarray:
    rows = runs[(runs.setting == setting) & (runs.algorithm == algorithm) & np.isclose(runs.epsilon, eps)]
    if rows.empty:
        raise ValueError(f"no runs of {algorithm} in {setting} at epsilon = {eps:g}")
    return rows.sort_values("run")["final_regret"].to_numpy(dtype=float)


def check_x_regret(tables, rng: np.random.Generator, n_boot: int, scale: str) -> list[Claim]:
    """X-REGRET-*: per extra algorithm, mean final regret / Lazy-DP-TS's in every panel (setting x
    epsilon) of Figures 1-2, with bootstrap 95% CIs; the row's value is the panel with the
    largest ratio. Informational (kind report): not a claim of the paper."""
    paper, extra = tables["runs"], tables["extra"]
    rows = []
    for name in sorted(extra.algorithm.unique()):
        mine = extra[extra.algorithm == name]
        panels = []
        for setting, eps in sorted({(s, e) for s, e in zip(mine.setting, mine.epsilon, strict=True)}):
            est, lo, hi = bootstrap_ratio_of_means(_finals(mine, setting, name, eps),
                                                   _finals(paper, setting, REFERENCE, eps), rng, n_boot)
            panels.append((est, lo, hi, f"{setting} eps={eps:g}"))
        est, lo, hi, where = max(panels)
        listing = "; ".join(f"{w}: {e:.2f} [{a:.2f}, {b:.2f}]" for e, a, b, w in panels)
        n_runs = int(mine.groupby(["setting", "epsilon"]).size().min())
        rows.append(Claim(
            PAPER, f"X-REGRET-{name.upper().replace('_', '-')}", "extra algorithm (not in the paper); Figs 1-2",
            "report", f"final regret of {name} relative to Lazy-DP-TS in every panel of Figures 1-2: {listing}",
            "mean R(T) / mean R_Lazy-DP-TS(T), panel with the largest ratio (bootstrap 95% CI)",
            est, lo, hi, f"informational (largest ratio at {where})", "REPORT", n_runs, scale))
    return rows
