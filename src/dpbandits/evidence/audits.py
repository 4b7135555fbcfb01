"""The claim rows of a black-box privacy audit (:mod:`dpbandits.audit`): the audit of the real
mechanism and its negative control, whose verdicts the guards then read; and what an audit could
have found at its size (:class:`LeakPower`, one per class of leak measured on a mutant of the
audited mechanism), which decides whether its PASS is supported."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from dpbandits.audit import AuditResult
from dpbandits.evidence.claims import Claim, Evidence
from dpbandits.evidence.guards import privacy_power

__all__ = ["audit_claims", "LeakPower", "ClassAudit", "measure_leak_power", "describe_power", "with_leak_power",
           "power_statement", "state_leak_power", "user_audit_rows"]


def audit_claims(check_id: str, mechanism: str, source: str, real: AuditResult,
                 control: AuditResult, control_multiplier: float, scale: str,
                 paper: str) -> list[Claim]:
    """Two claim rows: the audit of the real mechanism and its negative control (the audit row
    FAILs when the mechanism is refuted, whatever the control; otherwise it is blind, INCONCLUSIVE
    no_power, when the control is not caught)."""
    criterion = (f"CP lower bound <= epsilon = {real.epsilon:g} "
                 f"({real.confidence:g} confidence, Bonferroni over {real.n_events} events x 2)")
    # A refutation stands on its own (its lower bound is valid whatever the control); without a
    # refutation and without power (the broken control not caught) the audit says nothing.
    verdict = "FAIL" if real.refuted else ("PASS" if control.refuted else "INCONCLUSIVE")
    stat = "Clopper-Pearson lower bound on the privacy loss"
    return [
        Claim(paper, check_id, source, "privacy",
              f"{mechanism} is epsilon-DP (black-box audit; tightest event: {real.best_event})",
              stat, real.epsilon_lower_bound, np.nan, np.nan, criterion, verdict,
              real.n_samples, scale, evidence=Evidence(blind=not control.refuted and not real.refuted)),
        Claim(paper, f"{check_id}-CONTROL", source, "privacy",
              f"negative control: {mechanism} with its Laplace scale x{control_multiplier:g} "
              f"(really epsilon/{control_multiplier:g}-DP) is caught by the audit",
              stat, control.epsilon_lower_bound, np.nan, np.nan,
              f"lower bound > epsilon = {control.epsilon:g}",
              "PASS" if control.refuted else "FAIL", control.n_samples, scale),
    ]


@dataclass(frozen=True)
class LeakPower:
    """One leak class at one audit size: the audit's lower bound on the mutant's privacy loss
    and whether it refutes the mutant's epsilon claim (caught)."""

    leak: str
    description: str
    lower_bound: float
    caught: bool


@dataclass(frozen=True)
class ClassAudit:
    """The black-box audit of a researcher's class (a contextual local randomiser, a dueling
    algorithm): the real audit at its claimed epsilon (``privacy``: "eps-DP" or "eps-LDP"), the
    negative control (the class built at epsilon / its control multiplier: a correct, tight class
    then leaks 1 / multiplier times more than claimed), what the same audit catches of the family's
    reference mutants at the same size (``leaks``; empty when not measured), the audit of the
    family's correct reference itself at that size (``reference``, where the family has one: if it
    is refuted, the audit is not valid there), the size, the time taken, and the verdict in
    words."""

    real: AuditResult
    control: AuditResult
    leaks: list
    size: str
    seconds: float
    privacy: str = "eps-LDP"
    reference: AuditResult | None = None

    @property
    def verdict(self) -> str:
        missed = [leak.leak for leak in self.leaks if not leak.caught]
        if self.reference is not None and self.reference.refuted:
            return (f"INCONCLUSIVE: the audit refuted the family's {self.privacy} reference at {self.size} (lower "
                    f"bound {self.reference.epsilon_lower_bound:.3g}): it is not valid there")
        if self.real.refuted:
            return (f"FAIL: not {self.privacy}, lower bound {self.real.epsilon_lower_bound:.3g} > eps = "
                    f"{self.real.epsilon:g} ({self.real.best_event})")
        if not self.control.refuted:
            return f"INCONCLUSIVE: no violation found at {self.size}; the negative control was not caught (no power)"
        if missed:
            return f"INCONCLUSIVE: no violation found at {self.size}; no power against {', '.join(missed)}"
        if not self.leaks:
            return f"PASS: no violation found at {self.size}; its control caught there (the leak classes not measured)"
        return f"PASS: no violation found at {self.size}; its control and every leak class caught there"


def measure_leak_power(audit, reference: type, classes: dict) -> tuple[object, list[LeakPower]]:
    """A family's reference and each of its leak classes (``classes``: name -> (the mutant's
    constructor keywords, its description)) audited by ``audit(cls, params, role)``, the audit whose
    power is stated (``role``: "reference" or the class name, for the caller's random streams): the
    reference's result, and per class whether the audit refutes the mutant's epsilon claim."""
    result = audit(reference, {}, "reference")
    out = []
    for name, (params, description) in classes.items():
        found = audit(reference, params, name)
        out.append(LeakPower(name, description, float(found.epsilon_lower_bound), bool(found.refuted)))
    return result, out


def describe_power(power: list[LeakPower]) -> tuple[str, list[str]]:
    """The text of a power table ("catches: ...; no power against: ...") and the classes missed."""
    caught = [f"{p.description} (lower bound {p.lower_bound:.3g})" for p in power if p.caught]
    missed = [p for p in power if not p.caught]
    text = (f"catches {'; '.join(caught) if caught else 'none of the leak classes'}"
            + (f"; no power against {'; '.join(f'{p.description} (lower bound {p.lower_bound:.3g})' for p in missed)}"
               if missed else ""))
    return text, [p.leak for p in missed]


def with_leak_power(evidence: dict, power: list[LeakPower]) -> dict:
    """An audit row's power evidence (Evidence fields) once its leak classes are measured: kept
    when the audit catches every class at its size; otherwise without a form, so that the guards
    keep the PASS only on its own criterion (INCONCLUSIVE no_power), naming the classes missed."""
    missed = [p for p in power if not p.caught]
    if not missed:
        return evidence
    return {"power": None, "power_form": "",
            "power_note": (f"{evidence['power_note']}; but at this size the audit has no power against "
                           + ", ".join(p.description for p in missed))}


def power_statement(violated: bool, size: str, power: list[LeakPower], mutants: str) -> str:
    """What an audit row adds to its claim: " [no violation found at <size>; on <mutants>, at this
    size the audit catches ...; no power against ...]" (``violated``: "violation found")."""
    return (f" [{'violation' if violated else 'no violation'} found at {size}; on {mutants}, at this size the audit "
            f"{describe_power(power)[0]}]")


def state_leak_power(row: Claim, evidence: dict, power: list[LeakPower], size: str,
                     mutants: str = "leaky mutants of the mechanism", violated: bool | None = None) -> Claim:
    """An audit row once its leak classes are measured at its size: its claim states the size and
    what the audit catches there (:func:`power_statement`; ``violated``: whether the audit refuted
    the mechanism, by default the row's FAIL), and its power ``evidence`` (Evidence fields) is kept
    only when it catches every class (:func:`with_leak_power`)."""
    violated = row.verdict == "FAIL" if violated is None else violated
    return replace(row, claim=row.claim + power_statement(violated, size, power, mutants)).with_evidence(
        **with_leak_power(evidence, power))


def user_audit_rows(paper: str, cid: str, import_path: str, label: str, what: str, real: AuditResult,
                    control: AuditResult, how: str, multiplier: float, scale: str,
                    power: list[LeakPower] | None = None, size: str = "", privacy: str = "epsilon-DP",
                    mutants: str = "mutants of an eps-DP algorithm of the family") -> list[Claim]:
    """The two rows of the audit of a researcher's own algorithm (``<family>.extra_algorithms``;
    never a claim of the paper): ``cid`` (kind baseline), the class audited at its claimed epsilon,
    and ``cid``-CONTROL (kind control), its negative control (``how``: what was changed; a tight
    class then leaks 1 / ``multiplier`` times more). ``what``: the class and the audit's setting in
    words (``label``: the class's name in the control's row). A refuted class FAILs; otherwise,
    without a caught control, the audit row is INCONCLUSIVE (blind). With ``power`` (the family's
    leak classes at the same ``size``), the row states what the audit could have found
    there (``mutants``: what the classes were measured on), and a PASS not powered against every
    class is INCONCLUSIVE no_power (:func:`state_leak_power`)."""
    source = f"extra algorithm {import_path} (not in the paper)"
    stat = "Clopper-Pearson lower bound on the privacy loss"
    caught = control.refuted
    verdict = "FAIL" if real.refuted else ("PASS" if caught else "INCONCLUSIVE")  # a refutation stands alone
    shown = (f"CP lower bound {control.epsilon_lower_bound:.3g} {'>' if caught else '<='} eps = {control.epsilon:g}, "
             f"{'caught: the same audit FAILs it' if caught else 'not caught: the audit has no power'}")
    evidence = privacy_power(caught, 1.0 / multiplier if multiplier > 0 else math.inf,
                             f"negative control ({how})", shown)
    main = Claim(paper, cid, source, "baseline",
                 f"{what}: {privacy} at its claimed epsilon (black-box audit; tightest event: {real.best_event})",
                 stat, real.epsilon_lower_bound, np.nan, np.nan,
                 f"CP lower bound <= claimed epsilon = {real.epsilon:g} ({real.confidence:g} confidence, "
                 f"Bonferroni over {real.n_events} events x 2)", verdict, real.n_samples, scale,
                 evidence=Evidence(blind=not caught and not real.refuted))
    if power is None:
        main = main.with_evidence(**evidence)
    else:
        main = state_leak_power(main, evidence, power, size, mutants, violated=real.refuted)
    ctrl = Claim(paper, f"{cid}-CONTROL", source, "control",
                 f"negative control of the audit (its power, not a verdict on the class): {label} {how} is caught "
                 "by the audit", stat, control.epsilon_lower_bound, np.nan, np.nan,
                 f"lower bound > epsilon = {control.epsilon:g}", "PASS" if caught else "FAIL", control.n_samples, scale)
    return [main, ctrl]
