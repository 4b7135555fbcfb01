"""Black-box LDP audit of the contextual paper's user-side randomiser
(:mod:`dpbandits.contextual.randomizer`, eqs. 11-12 / 24-25; spec 6.1 U-PRIV-1 "empirically").

Set-up: a public partition of 4 bins with K = 3 active arms each. Neighbouring raw inputs
z = (bin, arm, y) and z' (any two users are neighbours under LDP):

* (a) different bin and arm: (0, 0, 1) vs (1, 1, 1), four released entries differ;
* (b) same bin, different arm: (0, 0, 1) vs (0, 1, 1);
* (c) same bin and arm, different reward: (0, 0, 1) vs (0, 0, 0), one V entry differs.

Each release is coded by, for each of the entries U~ and V~ at the two (bin, arm) pairs
involved, a ternary symbol (< 0, [0, 1), >= 1) and whether that entry was sent at all
(6^4 atoms). On the atom {U~_z >= 1, U~_z' < 0, V~_z >= 1, V~_z' < 0} of pair (a) the
likelihood ratio of the faithful release is exactly e^eps (probabilities 1/16 and e^-eps/16), so
the audit is tight: its Clopper-Pearson lower bound (Bonferroni over atoms, pairs and both
directions; :func:`dpbandits.audit.epsilon_lower_bound`) approaches eps from below.

* ``P-AUDIT`` (privacy, the paper's claim that the release of eqs. (11)-(12) is eps-LDP): the
  faithful randomiser is not refuted (lower bound <= eps); its power is the control's verdict;
* ``P-AUDIT-CONTROL`` (control, not a claim of the paper): the same release with the Laplace
  scale shrunk (really eps/multiplier-LDP) must be refuted, or the audit has no power (then
  P-AUDIT is INCONCLUSIVE);
* what the audit could have found at its size (:data:`RELEASE_LEAKS`, :func:`release_leak_power`):
  the same audit, on the same rng after the rows above, of leaky mutants of the release: noise
  shrunk x0.5; composition ignored (U~ and V~ each given the whole eps, Lap(2/eps) on both: the
  same law as the shrunk noise, a different mistake); noise reused (one Laplace draw added to every
  entry, so differences of entries are exact); sensitivity understated (V~'s taken as 1, one
  reward in [0, 1], instead of 2: Lap(2/eps) on V~ only, a release 1.5 eps-LDP). P-AUDIT's PASS is
  supported only when it catches every class;
* ``E-CODE-LDP`` (report, a finding about the released code, deviation table "noise reports"):
  the authors' code sends reports only to the bin that contains the context; the presence of a
  report reveals the bin and the audit refutes eps-LDP. The paper's text describes the faithful
  release, so this is not an erratum of the paper.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from dpbandits.audit import AuditResult, epsilon_lower_bound
from dpbandits.contextual.randomizer import PublicPartition, noise_scale, report_batch
from dpbandits.evidence.audits import ClassAudit, LeakPower, audit_claims, state_leak_power
from dpbandits.evidence.claims import Claim
from dpbandits.evidence.guards import privacy_power
from dpbandits.rng import make_rng

__all__ = ["audit_randomizer", "release_codes", "check_audit", "PAIRS", "RELEASE_LEAKS", "release_leak_power",
           "audit_partition", "class_release_codes", "audit_randomizer_class"]

PAPER = "contextual"
ACTIVE = np.ones((4, 3), dtype=bool)
PAIRS = (((0, 0, 1.0), (1, 1, 1.0)), ((0, 0, 1.0), (0, 1, 1.0)), ((0, 0, 1.0), (0, 0, 0.0)))
N_CODES = 6**4  # per entry: 3 symbols x sent / not sent, 4 entries


# The leak classes of the user's release (what the audit could have found):
# name -> (the mutant's ``leak``, its noise multiplier, what it gets wrong)
RELEASE_LEAKS = {
    "noise_shrunk": ("none", 0.5, "noise shrunk x0.5 (a release 2 eps-LDP)"),
    "composition_ignored": ("composition", 1.0,
                            "composition ignored (U~ and V~ each given the whole eps: Lap(2/eps) on both)"),
    "noise_reused": ("reuse", 1.0, "noise reused (one Laplace draw added to every entry of U~ and V~)"),
    "sensitivity_understated": ("sensitivity", 1.0,
                                "sensitivity understated (V~'s taken as 1 instead of 2: Lap(2/eps) on V~, "
                                "a release 1.5 eps-LDP)"),
}


def _release(z, epsilon, n, rng, noise, noise_multiplier, leak):
    """``n`` releases of z by the production randomiser, or by a leaky mutant of it
    (:data:`RELEASE_LEAKS`) built from the production release's parts."""
    if leak == "none":
        return report_batch(z, ACTIVE, epsilon, n, rng, noise, noise_multiplier)
    if leak == "composition":
        return report_batch(z, ACTIVE, epsilon, n, rng, noise, noise_multiplier * 0.5)
    if leak == "sensitivity":
        U, _ = report_batch(z, ACTIVE, epsilon, n, rng, noise, noise_multiplier)
        _, V = report_batch(z, ACTIVE, epsilon, n, rng, noise, noise_multiplier * 0.5)
        return U, V
    if leak == "reuse":
        U, V = report_batch(z, ACTIVE, epsilon, n, rng, noise, 0.0)  # the raw entries
        shared = noise_scale(epsilon, noise_multiplier) * rng.laplace(size=(n, 1, 1))  # one draw per release
        return U + shared, V + shared
    raise ValueError(f"leak must be one of none, composition, reuse, sensitivity, got {leak!r}")


def _codes(U: np.ndarray, V: np.ndarray, cells) -> np.ndarray:
    """The code of each release (U, V arrays (n, bins, K), NaN = not sent): per observed entry a
    ternary symbol (< 0, [0, 1), >= 1) and a sent / not-sent bit."""
    code = np.zeros(U.shape[0], dtype=np.int64)
    for arr in (U, V):
        for b, k in cells:
            v = arr[:, b, k]
            sent = ~np.isnan(v)
            sym = np.where(v < 0, 0, np.where(v < 1, 1, 2))
            code = code * 6 + np.where(sent, sym, 0) * 2 + sent
    return code


def release_codes(z, cells, epsilon, n, rng, noise="faithful", noise_multiplier=1.0, chunk=200_000, leak="none"):
    """Integer codes of ``n`` releases of input z, observing the entries U~ and V~ at the two
    (bin, arm) ``cells``: per entry a ternary symbol and a sent / not-sent bit. ``leak``: of a
    leaky mutant of the release (:data:`RELEASE_LEAKS`)."""
    out = []
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        out.append(_codes(*_release(z, epsilon, m, rng, noise, noise_multiplier, leak), cells))
    return np.concatenate(out)


def audit_randomizer(epsilon, n, rng, confidence=0.999, noise="faithful", noise_multiplier=1.0,
                     leak="none") -> AuditResult:
    pairs, labels = [], []
    for z, zp in PAIRS:
        cells = [(z[0], z[1]), (zp[0], zp[1])]
        pairs.append((release_codes(z, cells, epsilon, n, rng, noise, noise_multiplier, leak=leak),
                      release_codes(zp, cells, epsilon, n, rng, noise, noise_multiplier, leak=leak)))
        labels.append(f"z={z}, z'={zp}")
    return epsilon_lower_bound(pairs, N_CODES, epsilon, confidence, "atoms", labels)


def release_leak_power(epsilon, n, rng, confidence=0.999) -> list[LeakPower]:
    """The audit of :func:`audit_randomizer` (same pairs, events, samples and confidence) on each
    leaky mutant of the release (:data:`RELEASE_LEAKS`): caught when it refutes eps-LDP."""
    out = []
    for name, (leak, multiplier, description) in RELEASE_LEAKS.items():
        result = audit_randomizer(epsilon, n, rng, confidence, "faithful", multiplier, leak)
        out.append(LeakPower(name, description, float(result.epsilon_lower_bound), bool(result.refuted)))
    return out


def check_audit(rng, scale, acfg, *, noise="faithful", noise_multiplier=1.0) -> list[Claim]:
    """P-AUDIT, P-AUDIT-CONTROL and E-CODE-LDP (module docstring). ``noise`` and
    ``noise_multiplier`` are test hooks that replace the audited mechanism."""
    eps, n, conf = float(acfg["epsilon"]), int(acfg["samples"]), float(acfg["confidence"])
    control_mult = float(acfg["control_noise_multiplier"])
    real = audit_randomizer(eps, n, rng, conf, noise, noise_multiplier)
    control = audit_randomizer(eps, n, rng, conf, noise, noise_multiplier * control_mult)
    audit, ctrl = audit_claims("P-AUDIT", "LDPMAB user release (U~, V~ with Laplace(4/eps) for every active bin and arm)",
                               "eqs. (11)-(12), Thm 2.6 (privacy)", real, control, control_mult, scale, paper=PAPER)
    found = (f"the same audit gives a lower bound {control.epsilon_lower_bound:.3g}, "
             f"{'FAIL' if control.refuted else 'PASS'} (P-AUDIT-CONTROL)")
    code = audit_randomizer(eps, n, rng, conf, "inbin_only", 1.0)
    power = privacy_power(control.refuted, 1.0 / control_mult, f"the release with its Laplace scale x{control_mult:g}",
                          found)
    if noise == "faithful" and noise_multiplier == 1.0:  # what the audit of the faithful release could have found
        leaks = release_leak_power(eps, n, rng, conf)
        size = (f"4 bins x 3 active arms, 3 neighbouring pairs of inputs (bin and arm, arm, reward changed), {n} "
                "releases per input, every atom of the two cells' U~ and V~ entries an event")
        audit = state_leak_power(audit, power, leaks, size, "leaky mutants of the release", violated=real.refuted)
    else:
        audit = audit.with_evidence(**power)
    claims = [audit, replace(ctrl, kind="control", claim=f"[negative control of the audit] {ctrl.claim}")]
    if not control.refuted:
        outcome = "undecided (the audit's control was not caught)"
    elif code.refuted:
        outcome = f"refuted: lower bound {code.epsilon_lower_bound:.3g} > eps = {eps:g}"
    else:
        outcome = "not refuted"
    claims.append(Claim(
        PAPER, "E-CODE-LDP", "authors' code (deviation table: noise reports)", "report",
        "[released code, not the paper's text] The authors' code's release (noisy U, V only for the bin that contains "
        f"the context, A12) is eps-LDP - measured: {outcome}; tightest event: {code.best_event}",
        "Clopper-Pearson lower bound on the privacy loss", code.epsilon_lower_bound, np.nan, np.nan,
        f"informational (bar: lower bound <= eps = {eps:g})", "REPORT", code.n_samples, scale))
    return claims


# -- a researcher's local randomiser (dpbandits.contextual.interface), audited on the same inputs --

def audit_partition():
    """The audit's public broadcast as a :class:`~dpbandits.contextual.randomizer.PublicPartition`:
    the 4 bins of :data:`ACTIVE` as vertical strips of [0, 1]^2, K = 3 arms active in each."""
    edges = np.linspace(0.0, 1.0, ACTIVE.shape[0] + 1)
    lo = np.column_stack([edges[:-1], np.zeros(ACTIVE.shape[0])])
    hi = np.column_stack([edges[1:], np.ones(ACTIVE.shape[0])])
    return PublicPartition(lo, hi, ACTIVE.copy())


def class_release_codes(randomizer, z, cells, n: int) -> np.ndarray:
    """:func:`release_codes` of ``n`` releases of input z = (bin, arm, reward) by a randomiser of
    the family's protocol (``release(x, arm, reward, public)`` returning U~ and V~ as ``u`` and
    ``v`` arrays (bins, K), zero where nothing is sent, as the paper's Report): the context is the
    centre of bin z[0]'s strip; an entry exactly 0 counts as not sent (a sent entry carries
    noise)."""
    public = audit_partition()
    x = np.array([(public.lo[z[0], 0] + public.hi[z[0], 0]) / 2, 0.5])
    U = np.empty((n, *ACTIVE.shape))
    V = np.empty((n, *ACTIVE.shape))
    for i in range(n):
        report = randomizer.release(x, z[1], float(z[2]), public)
        U[i], V[i] = report.u, report.v
    U[U == 0.0] = np.nan
    V[V == 0.0] = np.nan
    return _codes(U, V, cells)


def audit_randomizer_class(randomizer_cls, epsilon: float = 1.0, samples: int = 100_000, seed: int = 0,
                           confidence: float = 0.999, control_multiplier: float = 0.5,
                           power: bool = True) -> ClassAudit:
    """Audit a local randomiser of the contextual family's protocol, built as
    ``randomizer_cls(epsilon, rng)``, on :data:`PAIRS` (the paper's audit: 4 bins x 3 arms, every
    atom of the two cells' entries an event, Bonferroni over atoms, pairs and directions), with
    ``samples`` releases per input; its negative control is the class built at epsilon /
    ``control_multiplier`` (audited against epsilon); and the paper's randomiser's leaky mutants
    (:data:`RELEASE_LEAKS`) at the same size say what the audit could have found (``power`` False:
    not measured, ``leaks`` empty). Random streams: (seed, "contextual", "audit", "class", role)."""
    if not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be an int >= 1, got {samples!r}")
    if not 0.0 < control_multiplier < 1.0:
        raise ValueError(f"control_multiplier must be in (0, 1), got {control_multiplier!r}")
    start = time.perf_counter()

    def audit(eps, role):
        randomizer = randomizer_cls(eps, make_rng(seed, PAPER, "audit", "class", role))
        pairs, labels = [], []
        for z, zp in PAIRS:
            cells = [(z[0], z[1]), (zp[0], zp[1])]
            pairs.append((class_release_codes(randomizer, z, cells, samples),
                          class_release_codes(randomizer, zp, cells, samples)))
            labels.append(f"z={z}, z'={zp}")
        return epsilon_lower_bound(pairs, N_CODES, epsilon, confidence, "atoms", labels)

    real = audit(epsilon, "real")
    control = audit(epsilon / control_multiplier, "control")
    leaks = (release_leak_power(epsilon, samples, make_rng(seed, PAPER, "audit", "class", "leaks"), confidence)
             if power else [])
    size = (f"4 bins x 3 active arms, 3 neighbouring pairs of inputs (bin and arm, arm, reward changed), {samples} "
            "releases per input")
    return ClassAudit(real, control, leaks, size, time.perf_counter() - start)
