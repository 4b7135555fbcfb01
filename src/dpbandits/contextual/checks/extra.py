"""Checks of a researcher's own contextual policies (``contextual.extra_algorithms``; a server
policy of the family's protocol with its local randomiser, :mod:`dpbandits.contextual.interface`).
None of them is a claim of the paper: each policy gets

* ``X-AUDIT-<NAME>`` (kind baseline) and ``X-AUDIT-<NAME>-CONTROL`` (kind control): the LDP audit
  of its local randomiser (the class attribute ``randomizer``, by default the paper's
  :class:`~dpbandits.contextual.randomizer.LaplaceRandomizer`) by
  :func:`dpbandits.contextual.checks.audits.audit_randomizer_class`: 4 bins x 3 active arms, three
  neighbouring pairs of one user's inputs, ``audit_samples`` releases per input, at the claimed
  ``epsilon``; its negative control is the randomiser built at 2 eps, and what the audit catches at
  that size of the leak classes of the paper's randomiser (noise shrunk, composition ignored, noise
  reused, sensitivity understated) decides whether a PASS is supported;
* ``X-REGRET-<NAME>`` (kind report): its mean cumulative regret over ``horizon`` target users of
  the specification's bump instance, relative to the paper's LDPMAB (the ``primary`` preset) at the
  same epsilon, runs and root seed, with a bootstrap 95% CI. The policy's regret is realised
  (f*(x) - f_arm(x) per user), LDPMAB's is eq. (1) (the policy's expected regret per batch): the
  same in expectation.

Random streams: the audit's (root seed, "contextual", "audit", "class", role); the simulations'
(root seed, "contextual", "api") of :func:`dpbandits.contextual.simulate`; the bootstrap (root seed,
"contextual", "check", "X-REGRET").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from dpbandits.contextual import interface
from dpbandits.contextual.api import ALGORITHMS, run_seeds
from dpbandits.contextual.checks.audits import PAIRS, audit_randomizer_class, class_release_codes
from dpbandits.contextual.instances import BumpInstance
from dpbandits.contextual.interface import run_class
from dpbandits.contextual.randomizer import LaplaceRandomizer
from dpbandits.evidence.audits import user_audit_rows
from dpbandits.evidence.claims import Claim
from dpbandits.rng import make_rng
from dpbandits.sim.extra import ExtraEntry, extra_check_ids, protocol_entry_problems
from dpbandits.stats import bootstrap_ratio_of_means

__all__ = ["ContextualExtra", "extra_algorithms", "extra_check_ids", "extra_problems", "dry_run", "check_x_audit",
           "check_x_regret", "REFERENCE"]

PAPER = "contextual"
REFERENCE = "primary"  # what X-REGRET compares with: the paper's LDPMAB as the paper states it
KEY = "contextual.extra_algorithms"
CONTROL_MULTIPLIER = 0.5  # the audit's negative control: the randomiser built at epsilon / 0.5 (2 eps)


@dataclass(frozen=True)
class ContextualExtra(ExtraEntry):
    """One entry of ``contextual.extra_algorithms`` (the schema, ``workflow/schemas``, says each
    key): the policy (``import_path``, ``params``), the epsilon it is built with and whose LDP its
    randomiser claims, the audit's ``audit_samples`` releases per input, and its comparison
    (``horizon`` target users, ``runs`` runs)."""

    epsilon: float = 1.0
    audit_samples: int = 100_000
    horizon: int = 5000
    runs: int = 10


def extra_algorithms(section: Mapping) -> list[ContextualExtra]:
    """The entries of ``contextual.extra_algorithms`` of the ``contextual`` config section (none if absent)."""
    return ContextualExtra.entries(section)


def extra_problems(entries, key: str = KEY) -> list[str]:
    """Problems of the ``contextual.extra_algorithms`` entries the schema cannot see, each naming
    its key: a name taken by the paper's presets or comparators or used twice, or whose check ids
    collide with another entry's; an ``import`` that does not load or is not a policy of the
    family's protocol (with a randomiser that releases); ``params`` that are not its parameters; a
    dry run (K = 3, epsilon = 1, one batch of the bump instance) that fails, or a ``horizon``
    shorter than one batch."""
    return protocol_entry_problems(entries, key, interface, ALGORITHMS, dry_run)


def dry_run(cls, params: dict, entry: Mapping) -> list[tuple[str, str]]:
    """One batch of the policy on the bump instance at epsilon = 1 and the entry's horizon (the
    error a job would meet), a horizon of at least one batch, and two releases of its randomiser on
    the audit's public partition (the report format the audit reads)."""
    instance = BumpInstance()
    horizon = int(entry.get("horizon", ContextualExtra("", "").horizon))
    try:
        batch = cls(instance.k, instance.d, 1.0, horizon, np.random.default_rng(0), **params).batch
        if horizon < batch:
            return [("horizon", f"{horizon} is not allowed; allowed: at least one batch of the policy ({batch} users)")]
        run_class(cls, instance, 1.0, params, int(batch), run_seeds(0, 1))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code is reported
        return [("params", f"a dry run (epsilon = 1, one batch of the bump instance) fails: {type(exc).__name__}: "
                           f"{exc}")]
    randomizer = getattr(cls, "randomizer", LaplaceRandomizer)
    try:
        class_release_codes(randomizer(1.0, np.random.default_rng(0)), PAIRS[0][0], [(0, 0), (1, 1)], 2)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code is reported
        return [("import", f"its randomiser {randomizer.__name__} cannot be audited: two releases on the audit's "
                           f"public partition (4 bins x 3 arms; reports with u and v arrays (bins, K)) fail: "
                           f"{type(exc).__name__}: {exc}")]
    return []


def check_x_audit(root_seed: int, scale: str, a: dict) -> list[Claim]:
    """X-AUDIT-*: the LDP audit of every extra policy's local randomiser (none configured: no
    rows). ``a``: the config section ``contextual`` (its ``extra_algorithms``)."""
    rows, powers = [], {}
    m = CONTROL_MULTIPLIER
    for spec in extra_algorithms(a):
        randomizer = getattr(spec.load(), "randomizer", LaplaceRandomizer)
        size = (spec.epsilon, spec.audit_samples)
        audit = audit_randomizer_class(randomizer, spec.epsilon, spec.audit_samples, root_seed, control_multiplier=m,
                                       power=size not in powers)
        # the leak classes are the paper's randomiser's: the same at the same size and streams, measured once
        audit = replace(audit, leaks=powers.setdefault(size, audit.leaks))
        logging.info("audit of %s (randomiser %s): %.1f s; audit_samples %d", spec.name, randomizer.__name__,
                     audit.seconds, spec.audit_samples)
        what = (f"{spec.label} ({spec.name}): its local randomiser {randomizer.__name__}, one user's report, "
                "4 bins x 3 active arms, one user's (bin, arm, reward) changed")
        rows += user_audit_rows(PAPER, f"X-AUDIT-{spec.check_id}", spec.import_path, spec.label, what, audit.real,
                                audit.control, f"with its randomiser built at epsilon / {m:g}", m, scale, audit.leaks,
                                audit.size, privacy="epsilon-LDP", mutants="mutants of the paper's eps-LDP randomiser")
    return rows


def check_x_regret(root_seed: int, scale: str, a: dict, n_boot: int) -> list[Claim]:
    """X-REGRET-*: per extra policy, its mean cumulative regret on the bump instance over LDPMAB's
    (``primary``) at the same epsilon, horizon, runs and root seed (bootstrap 95% CI).
    Informational (kind report): not a claim of the paper."""
    from dpbandits.contextual import simulate

    rng = make_rng(root_seed, PAPER, "check", "X-REGRET")
    rows = []
    for spec in extra_algorithms(a):
        instance = BumpInstance()
        mine = simulate(spec.load(), instance, spec.epsilon, spec.horizon, spec.runs, root_seed, spec.params).regret
        ref = simulate(REFERENCE, instance, spec.epsilon, spec.horizon, spec.runs, root_seed).regret
        est, lo, hi = bootstrap_ratio_of_means(mine, ref, rng, n_boot)
        rows.append(Claim(
            PAPER, f"X-REGRET-{spec.check_id}", f"extra algorithm {spec.import_path} (not in the paper)", "report",
            f"cumulative regret of {spec.label} ({spec.name}) relative to LDPMAB (the primary preset) on the bump "
            f"instance, {spec.horizon} target users, eps = {spec.epsilon:g}: means {mine.mean():.4g} (realised) vs "
            f"{ref.mean():.4g} (eq. (1)); the same in expectation",
            "mean R_n / mean R_n of LDPMAB (bootstrap 95% CI)", est, lo, hi, "informational", "REPORT",
            spec.runs, scale))
    return rows
