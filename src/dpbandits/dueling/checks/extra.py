"""Checks of a researcher's own dueling algorithms (``dueling.extra_algorithms``; a class of the
family's protocol, :mod:`dpbandits.dueling.interface`). None of them is a claim of the paper:
each algorithm gets

* ``X-AUDIT-<NAME>`` (kind baseline) and ``X-AUDIT-<NAME>-CONTROL`` (kind control): the
  black-box audit of :func:`dpbandits.dueling.checks.class_audit.audit_dueling_class` (two
  neighbouring answer tables differing in one user's answer, the neighbouring pair chosen on a
  pilot among the algorithm's ``audit_horizons``, balanced tables and flipped rounds, the duels
  shown at 16 probe rounds as the output) at its claimed ``epsilon``, with its negative control
  (the class built at 2 epsilon: a correct, tight class then leaks twice what it claims) and what the audit catches at that size of the leak classes of the
  family's eps-DP reference (noise shrunk, composition ignored, noise reused, sensitivity
  understated; :mod:`dpbandits.dueling.checks.leaks`). A PASS is supported only when the control
  and every class are caught there; otherwise the row says what it could not see
  (INCONCLUSIVE no_power);
* ``X-REGRET-<NAME>`` (kind report): its mean cumulative pseudo-regret at ``horizon`` on the
  specification's instance F1 with ``arms`` arms, relative to Algorithm 1 (DP-EBS-Elimination,
  the paper's eps-DP algorithm for finite arm sets) at the same epsilon, horizon, runs and root
  seed, with a bootstrap 95% CI.

Random streams: the audit's (root seed, "dueling", "audit", "class", role, ...) of
:mod:`dpbandits.dueling.checks.class_audit`; the simulations' (root seed, "dueling", "api") of
:func:`dpbandits.dueling.simulate` (the class and Algorithm 1 on the same seed, as the command line
does); the bootstrap (root seed, "dueling", "check", "X-REGRET").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from dpbandits.dueling import interface
from dpbandits.dueling.api import ALGORITHMS
from dpbandits.dueling.checks.class_audit import audit_dueling_class
from dpbandits.dueling.instances import f1
from dpbandits.dueling.interface import run_duels
from dpbandits.evidence.audits import user_audit_rows
from dpbandits.evidence.claims import Claim
from dpbandits.rng import make_rng
from dpbandits.sim.extra import ExtraEntry, extra_check_ids, protocol_entry_problems
from dpbandits.stats import bootstrap_ratio_of_means

__all__ = ["DuelingExtra", "extra_algorithms", "extra_check_ids", "extra_problems", "dry_run", "check_x_audit", "check_x_regret", "REFERENCE"]

PAPER = "dueling"
REFERENCE = "dp_ebs_elimination"  # what X-REGRET compares with: the paper's eps-DP Algorithm 1
KEY = "dueling.extra_algorithms"
CONTROL_MULTIPLIER = 0.5  # the audit's negative control: the class built at epsilon / 0.5 (2 eps)


@dataclass(frozen=True)
class DuelingExtra(ExtraEntry):
    """One entry of ``dueling.extra_algorithms`` (the schema, ``workflow/schemas``, says each key):
    the class (``import_path``, ``params``), the epsilon it claims to be DP at, its audit's size
    (``audit_samples`` runs per table counted, a pilot of ``audit_pilot`` runs per candidate table,
    ``audit_horizons``, ``audit_arms``) and its comparison (F1 with ``arms`` arms, ``horizon``
    rounds, ``runs`` runs)."""

    epsilon: float = 1.0
    audit_samples: int = 20_000
    audit_pilot: int = 1000
    audit_horizons: tuple[int, ...] = (16, 64)
    audit_arms: int = 2
    arms: int = 8
    horizon: int = 20_000
    runs: int = 20


def extra_algorithms(section: Mapping) -> list[DuelingExtra]:
    """The entries of ``dueling.extra_algorithms`` of the ``dueling`` config section (none if absent)."""
    return DuelingExtra.entries(section)


def extra_problems(entries, key: str = KEY) -> list[str]:
    """Problems of the ``dueling.extra_algorithms`` entries the schema cannot see, each naming its
    key: a name taken by the paper's algorithms or used twice, or whose check ids collide with
    another entry's; an ``import`` that does not load or is not a class of the family's protocol;
    ``params`` that are not its parameters; a dry run (K = 2, epsilon = 1, 5 rounds) that fails."""
    return protocol_entry_problems(entries, key, interface, ALGORITHMS, dry_run)


def dry_run(cls, params: dict, entry: Mapping) -> list[tuple[str, str]]:
    """A run of 5 rounds of the class on F1 with K = 2 at epsilon = 1: the error a job would meet."""
    try:
        run_duels(cls(2, 1.0, 5, np.random.default_rng(0), **params), f1(2), 5, np.random.default_rng(1), None,
                  who=cls.__name__)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code is reported
        return [("params", f"a dry run (K = 2, epsilon = 1, 5 rounds on F1) fails: {type(exc).__name__}: {exc}")]
    return []


def check_x_audit(root_seed: int, scale: str, a: dict) -> list[Claim]:
    """X-AUDIT-*: the black-box audit of every extra algorithm (none configured: no rows). ``a``:
    the config section ``dueling`` (its ``extra_algorithms``)."""
    rows, powers = [], {}
    m = CONTROL_MULTIPLIER
    for spec in extra_algorithms(a):
        size = (spec.epsilon, spec.audit_arms, spec.audit_horizons, spec.audit_pilot, spec.audit_samples)
        measured = size not in powers
        audit = audit_dueling_class(spec.load(), spec.epsilon, spec.params, arms=spec.audit_arms,
                                    horizons=spec.audit_horizons, pilot=spec.audit_pilot, samples=spec.audit_samples,
                                    seed=root_seed, control_multiplier=m, power=measured)
        # the power table depends on the size and the streams only: measured once per size
        powers.setdefault(size, (audit.reference, audit.leaks))
        audit = replace(audit, reference=powers[size][0], leaks=powers[size][1])
        logging.info("audit of %s: %.1f s (the class, its control%s); audit_samples %d, audit_pilot %d, "
                     "audit_horizons %s", spec.name, audit.seconds,
                     ", the eps-DP reference and its leak classes" if measured else "",
                     spec.audit_samples, spec.audit_pilot, list(spec.audit_horizons))
        if audit.reference.refuted:  # the audit itself is broken there
            raise RuntimeError(f"the audit of {spec.name} refutes the eps-DP reference of its power table "
                               f"(lower bound {audit.reference.epsilon_lower_bound:.3g} > {spec.epsilon:g})")
        what = (f"{spec.label} ({spec.name}), the duels shown, K = {spec.audit_arms}, "
                f"T = {' and '.join(map(str, spec.audit_horizons))}, one user's answer changed")
        rows += user_audit_rows(PAPER, f"X-AUDIT-{spec.check_id}", spec.import_path, spec.label, what, audit.real,
                                audit.control, f"built at epsilon / {m:g}", m, scale, audit.leaks, audit.size)
    return rows


def check_x_regret(root_seed: int, scale: str, a: dict, n_boot: int) -> list[Claim]:
    """X-REGRET-*: per extra algorithm, its mean cumulative pseudo-regret at its horizon on F1 over
    Algorithm 1's at the same epsilon, horizon, runs and root seed (bootstrap 95% CI).
    Informational (kind report): not a claim of the paper."""
    from dpbandits.dueling import simulate

    rng = make_rng(root_seed, PAPER, "check", "X-REGRET")
    rows = []
    for spec in extra_algorithms(a):
        instance = f1(spec.arms)
        mine = simulate(spec.load(), instance, spec.epsilon, spec.horizon, spec.runs, root_seed, spec.params)
        ref = simulate(REFERENCE, instance, spec.epsilon, spec.horizon, spec.runs, root_seed)
        est, lo, hi = bootstrap_ratio_of_means(mine.regret_pref[:, -1], ref.regret_pref[:, -1], rng, n_boot)
        rows.append(Claim(
            PAPER, f"X-REGRET-{spec.check_id}", f"extra algorithm {spec.import_path} (not in the paper)", "report",
            f"cumulative pseudo-regret of {spec.label} ({spec.name}) relative to Algorithm 1 (DP-EBS-Elimination) on "
            f"F1 with K = {spec.arms}, T = {spec.horizon}, eps = {spec.epsilon:g}: means "
            f"{mine.regret_pref[:, -1].mean():.4g} vs {ref.regret_pref[:, -1].mean():.4g}",
            "mean R(T) / mean R_Algorithm 1(T) (bootstrap 95% CI)", est, lo, hi, "informational", "REPORT",
            spec.runs, scale))
    return rows
