"""Checks of a researcher's own quantile best-arm identification algorithms
(``quantile.extra_algorithms``; a class of the family's protocol in either form,
:mod:`dpbandits.quantile.interface`). None of them is a claim of the paper: each algorithm gets

* ``X-SAMPLES-<NAME>`` (kind report): on the specification's two-arm discrete instance (q = 0.4,
  the gap ``gap``), its mean number of samples until it recommends an arm relative to the paper's
  algorithm of its kind (DP-SEQ, Algorithm 2, at the same ``epsilon`` for a private class; SEQ,
  Algorithm 1, for a non-private one) at the class's own ``delta`` parameter if it has one (else
  the project's default, the paper states none), on the same ``runs`` and root seed, with a
  bootstrap 95% CI; the claim states both deltas, error rates and caps and the censored runs (a
  run that reaches its cap: ``cap`` samples per arm of a per-sample class, or its last epoch; by
  default the library's, :func:`dpbandits.quantile.simulate`).

* ``X-AUDIT-<NAME>`` (kind baseline) and ``X-AUDIT-<NAME>-CONTROL`` (kind control), for a private
  class: the black-box audit of :func:`dpbandits.quantile.checks.class_audit.audit_quantile_class`
  (two arms at q = 1/2, at most ``audit_epochs`` epochs, reward tables placed at the decision
  boundary a scan of the class's own outputs finds in each epoch, one sample changed, two pairs
  chosen on a pilot of ``audit_pilot`` runs per candidate, ``audit_samples`` runs per table
  counted) at its claimed ``epsilon``, with its negative control (the class built at 2 epsilon)
  and what the audit catches at that size of DP-SEQ's leak classes (noise shrunk, composition
  ignored, noise reused, sensitivity understated; :mod:`dpbandits.quantile.checks.leaks`). A
  PASS is supported only when the control and every class are caught there; otherwise the row
  says what it could not see (INCONCLUSIVE no_power). A private class in the per-sample form gets
  one row of kind report instead, saying that its privacy is not audited (the audit's tables
  place the boundary in epochs, which that form does not have). A non-private class claims no
  privacy and gets no audit row.

Random streams: the simulations' (root seed, "quantile", "api") of
:func:`dpbandits.quantile.simulate` (the class and the paper's algorithm on the same reward
streams); the bootstrap (root seed, "quantile", "check", "X-SAMPLES"); the audit's (root seed,
"quantile", "audit", "class", role) of :mod:`dpbandits.quantile.checks.class_audit`.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from dpbandits.evidence.audits import user_audit_rows
from dpbandits.evidence.claims import Claim
from dpbandits.quantile import interface
from dpbandits.quantile.api import ALGORITHMS
from dpbandits.quantile.checks.class_audit import audit_quantile_class
from dpbandits.quantile.instances import disc
from dpbandits.rng import make_rng
from dpbandits.sim.extra import ExtraEntry, check_id_part, protocol_entry_problems
from dpbandits.stats import bootstrap_ratio_of_means

__all__ = ["QuantileExtra", "extra_algorithms", "extra_check_ids", "extra_problems", "dry_run", "check_x_samples",
           "check_x_audit"]

PAPER = "quantile"
KEY = "quantile.extra_algorithms"
CONTROL_MULTIPLIER = 0.5  # the audit's negative control: the class built at epsilon / 0.5 (2 eps)


@dataclass(frozen=True)
class QuantileExtra(ExtraEntry):
    """One entry of ``quantile.extra_algorithms`` (the schema, ``workflow/schemas``, says each
    key): the class (``import_path``, ``params``), the epsilon a private class is built with, the
    instance's ``gap``, the ``cap`` (samples per arm of a per-sample class, the last epoch of an
    epoch algorithm; 0: the library's default) and the ``runs``; a private class's audit size
    (``audit_samples`` runs per table counted, a pilot of ``audit_pilot`` runs per candidate
    table, at most ``audit_epochs`` epochs)."""

    epsilon: float = 1.0
    gap: float = 0.2
    cap: int = 0  # 0: the library's default (an epoch algorithm's last epoch 30; a per-sample class's from delta)
    runs: int = 20
    audit_samples: int = 20_000
    audit_pilot: int = 1000
    audit_epochs: int = 3


def extra_algorithms(section: Mapping) -> list[QuantileExtra]:
    """The entries of ``quantile.extra_algorithms`` of the ``quantile`` config section (none if absent)."""
    return QuantileExtra.entries(section)


def extra_check_ids(name: str) -> tuple[str, ...]:
    """Every check id an extra algorithm's name produces."""
    part = check_id_part(name)
    return f"X-SAMPLES-{part}", f"X-AUDIT-{part}", f"X-AUDIT-{part}-CONTROL"


def extra_problems(entries, key: str = KEY) -> list[str]:
    """Problems of the ``quantile.extra_algorithms`` entries the schema cannot see, each naming its
    key (:func:`dpbandits.sim.extra.protocol_entry_problems`), with a dry run of 3 runs on
    the instance at a cap of 200."""
    return protocol_entry_problems(entries, key, interface, ALGORITHMS, dry_run, extra_check_ids)


def dry_run(cls, params: dict, entry: Mapping) -> list[tuple[str, str]]:
    """3 runs on the instance, stopped early (3 epochs of an epoch algorithm, 200 samples per arm of a
    per-sample class): the error a job would meet."""
    from dpbandits.quantile import simulate
    from dpbandits.quantile.interface import class_form

    eps = float(entry.get("epsilon", 1.0)) if getattr(cls, "private", True) else None
    cap = 3 if class_form(cls) == "epochs" else 200
    try:
        simulate(cls, disc(0.4, float(entry.get("gap", 0.2))), eps, 3, 0, params, cap=cap)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code is reported
        return [("params", f"a dry run (3 runs stopped at a cap of {cap} on the two-arm discrete instance) fails: "
                           f"{type(exc).__name__}: {exc}")]
    return []


def check_x_samples(root_seed: int, scale: str, a: dict, n_boot: int) -> list[Claim]:
    """X-SAMPLES-*: per extra algorithm, its mean samples until a recommendation over the paper's
    algorithm of its kind (module docstring), bootstrap 95% CI. Informational (kind report)."""
    from dpbandits.quantile import simulate

    rng = make_rng(root_seed, PAPER, "check", "X-SAMPLES")
    rows = []
    for spec in extra_algorithms(a):
        cls = spec.load()
        private = getattr(cls, "private", True)
        instance = disc(0.4, spec.gap)
        eps = spec.epsilon if private else None
        mine = simulate(cls, instance, eps, spec.runs, root_seed, spec.params, cap=spec.cap or None)
        paper = "dp_seq" if private else "seq"
        ref = simulate(paper, instance, eps, spec.runs, root_seed,
                       {"delta": mine.delta} if np.isfinite(mine.delta) else None)
        est, lo, hi = bootstrap_ratio_of_means(mine.total_pulls.astype(float), ref.total_pulls.astype(float), rng,
                                               n_boot)
        name = "DP-SEQ (Algorithm 2)" if private else "SEQ (Algorithm 1)"

        def summary(res):
            return (f"{res.total_pulls.mean():.4g} samples, error rate {1 - np.mean(res.correct):.2f} at delta "
                    f"{res.delta:g}, {int(res.censored.sum())} censored at cap {res.cap}")

        rows.append(Claim(
            PAPER, f"X-SAMPLES-{spec.check_id}", f"extra algorithm {spec.import_path} (not in the paper)", "report",
            f"samples until a recommendation of {spec.label} ({spec.name}) relative to {name} on the two-arm "
            f"discrete instance (q = 0.4, gap {spec.gap:g}){f', eps = {eps:g}' if private else ''}: theirs "
            f"{summary(mine)}; {name} {summary(ref)}",
            f"mean total samples / mean of {name} (bootstrap 95% CI)", est, lo, hi, "informational", "REPORT",
            spec.runs, scale))
    return rows


def check_x_audit(root_seed: int, scale: str, a: dict) -> list[Claim]:
    """X-AUDIT-*: the black-box audit of every private extra algorithm (module docstring; none
    configured: no rows). ``a``: the config section ``quantile`` (its ``extra_algorithms``)."""
    from dpbandits.quantile.interface import class_form

    rows, powers = [], {}
    m = CONTROL_MULTIPLIER
    for spec in extra_algorithms(a):
        cls = spec.load()
        if not getattr(cls, "private", True):
            continue
        cid = f"X-AUDIT-{spec.check_id}"
        if class_form(cls) != "epochs":
            rows.append(Claim(
                PAPER, cid, f"extra algorithm {spec.import_path} (not in the paper)", "report",
                f"{spec.label} ({spec.name}) claims eps-DP at eps = {spec.epsilon:g} but is in the per-sample form: "
                "its privacy is not audited (the audit's reward tables place the decision boundary in epochs, which "
                "the per-sample form does not have; give the class the epoch form to audit it)",
                "none", math.nan, math.nan, math.nan, "not audited", "REPORT", 0, scale))
            continue
        size = (spec.epsilon, spec.audit_epochs, spec.audit_pilot, spec.audit_samples)
        measured = size not in powers
        audit = audit_quantile_class(cls, spec.epsilon, spec.params, epochs=spec.audit_epochs, pilot=spec.audit_pilot,
                                     samples=spec.audit_samples, seed=root_seed, control_multiplier=m, power=measured)
        # the power table depends on the size and the streams only: measured once per size
        powers.setdefault(size, (audit.reference, audit.leaks))
        audit = replace(audit, reference=powers[size][0], leaks=powers[size][1])
        logging.info("audit of %s: %.1f s (the class, its control%s); audit_samples %d, audit_pilot %d, "
                     "audit_epochs %d", spec.name, audit.seconds,
                     ", DP-SEQ and its leak classes" if measured else "",
                     spec.audit_samples, spec.audit_pilot, spec.audit_epochs)
        if audit.reference.refuted:  # the audit itself is broken there
            raise RuntimeError(f"the audit of {spec.name} refutes DP-SEQ, the eps-DP reference of its power table "
                               f"(lower bound {audit.reference.epsilon_lower_bound:.3g} > {spec.epsilon:g})")
        what = (f"{spec.label} ({spec.name}), its epochs' sample sizes and the arm it names, 2 arms, q = 1/2, at most "
                f"{spec.audit_epochs} epochs, one sample changed")
        rows += user_audit_rows(PAPER, cid, spec.import_path, spec.label, what, audit.real, audit.control,
                                f"built at epsilon / {m:g}", m, scale, audit.leaks, audit.size,
                                mutants="mutants of DP-SEQ (Algorithm 2)")
    return rows
