"""Evidence of the online paper's rows for :mod:`dpbandits.evidence.guards`: where a rate claim
applies (the algorithm has left the trivial policy's regret), and the power of a PASS (the same
rule on a stated alternative).

Conventions, the same for every row of the paper:

* The trivial policy plays an arm chosen uniformly at random every round: its pseudo-regret is
  ``t * mean_j Delta_j`` (mean over all K arms, the optimal one included). A rate or scaling claim
  whose constant the paper leaves open applies only where the algorithm has at least halved it:
  the upper end of the CI of (regret / the trivial policy's) below :data:`REGIME_MARGIN` = 1/2,
  at every point the claim uses.
* A rate in T (regret ~ log T, its constant left open) applies only where the algorithm is *in its
  log T regime*, which halving random play's regret does not show: an algorithm still exploring in
  doubling batches climbs a staircase whose steps come each time t doubles, so its regret grows
  like t (exponent about 1 over a decade: 3.3 doublings, log10 8 = 0.9 to log10 16 = 1.2) while it
  can sit well below the trivial policy's. In the log T regime its steps come each time ln t
  doubles (t squares), and a law b ln(t / t0) grows over the last decade [T/10, T] with exponent
  log10(ln(T/t0) / ln(T/(10 t0))): 0.30 for T = 100 t0, 0.18 for T = 1000 t0, and 0.5 at
  T = 30 t0. :func:`log_t_regime` therefore also asks the upper end of the CI of that exponent
  (``log10(mean R(T) / mean R(T/10))``) to be below :data:`LOG_GROWTH_LIMIT` = 0.5 in every cell.
* Every power statement names the kind of wrong paper its alternative is
  (``Evidence.power_form``, one of :data:`dpbandits.evidence.claims.POWER_FORMS`): a PASS is
  ``supported`` only when the same rule FAILs a way the paper could be wrong, of the claim's own
  form. A slope band ``[lo, hi]`` (claimed slope at its centre) has power when the same CI, shifted
  to the centre +- twice the band's half-width (an exponent off by the band's margin beyond its
  edge), FAILs on both sides (form ``exponent_off``).
* A worst case over a grid of gaps applies where the grid brackets the maximum, or where the
  largest value the maximum could take beyond the grid's end (the pseudo-regret is at most
  T Delta) cannot change the verdict (:func:`bracketed_regime`).
* An explicit bound over cells is judged on every cell's CI (:func:`bound_verdict`); an ordering
  whose members sit at the trivial policy's regret has no power there (:func:`floor_outcome`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from dpbandits.evidence.checks import band_verdict
from dpbandits.evidence.claims import Claim, Evidence
from dpbandits.evidence.guards import checked_power_form, shifted_ci_power

__all__ = ["trivial_regret", "regime_below_trivial", "log_t_regime", "decade_growth", "LOG_GROWTH_LIMIT", "band_power",
           "shifted_power", "perturbed_power", "combined_power",
           "boot_mean_ratio", "bracketed_regime", "REGIME_MARGIN", "bound_verdict",
           "floor_outcome", "identity_row"]


def trivial_regret(means, t: float) -> float:
    """Pseudo-regret of the uniformly random policy after ``t`` rounds: t * mean over arms of the gaps."""
    means = np.asarray(means, dtype=float)
    return float(t * np.mean(means.max() - means))


def boot_mean_ratio(runs, denominator: float, rng: np.random.Generator, n_boot: int) -> tuple[float, float, float]:
    """mean(runs) / denominator with a percentile bootstrap 95% CI (runs resampled)."""
    runs = np.asarray(runs, dtype=float)
    est = float(runs.mean() / denominator)
    if n_boot <= 0 or runs.size < 2:
        return est, est, est
    boots = runs[rng.integers(0, runs.size, size=(n_boot, runs.size))].mean(axis=1) / denominator
    lo, hi = np.quantile(boots, [0.025, 0.975])
    return est, float(lo), float(hi)


REGIME_MARGIN = 0.5  # a rate claim applies where the algorithm has at least halved random play's regret


def regime_below_trivial(cells: Sequence[tuple[str, np.ndarray, float]], rng: np.random.Generator, n_boot: int,
                         what: str = "regret / the trivial policy's", margin: float = REGIME_MARGIN) -> dict:
    """Evidence fields ``regime`` / ``regime_note``: every cell ``(label, runs, trivial)`` has the
    upper end of the CI of mean regret / trivial regret below ``margin`` (the note names the cell
    closest to it). A margin, not merely "significantly below 1": the doubling schedules make
    some algorithms' exploration deterministic (a CI of zero width), and an algorithm at 80% of
    random play's regret is still exploring, whatever its CI."""
    if not cells:
        return {"regime": False, "regime_note": "no cell to judge"}
    ratios = [(label, *boot_mean_ratio(runs, trivial, rng, n_boot)) for label, runs, trivial in cells]
    label, est, lo, hi = max(ratios, key=lambda r: r[3])
    n_out = sum(r[3] >= margin for r in ratios)
    reached = n_out == 0
    note = (f"{what}, worst cell {label}: {est:.3g} [{lo:.3g}, {hi:.3g}]; "
            + (f"every cell below {margin:g}" if reached else
               f"{n_out} of {len(ratios)} cells not below {margin:g} (still exploring)"))
    return {"regime": reached, "regime_note": note}


LOG_GROWTH_LIMIT = 0.5  # a log T regime grows over the last decade with exponent below this (module docstring)


def decade_growth(ts, mat, rng: np.random.Generator, n_boot: int) -> tuple[float, float, float]:
    """The growth exponent of the mean regret over the last decade, log10(mean R(T) / mean R(T/10)),
    with a percentile bootstrap 95% CI (runs resampled whole). ``ts``: the checkpoints (T/10 among
    them, to within 1%), ``mat``: runs x checkpoints. Infinite where no regret is incurred by T/10."""
    ts = np.asarray(ts, dtype=float)
    mat = np.asarray(mat, dtype=float)
    tenth = int(np.argmin(np.abs(np.log(ts / (ts[-1] / 10)))))
    if abs(ts[tenth] / (ts[-1] / 10) - 1) > 0.01:
        raise ValueError(f"the checkpoints {ts.tolist()} do not include T/10 = {ts[-1] / 10:g}")

    def exponent(first: np.ndarray, last: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(first > 0, np.log10(last / np.where(first > 0, first, 1.0)), np.inf)

    est = float(exponent(mat[:, tenth].mean(), mat[:, -1].mean()))
    if n_boot <= 0 or mat.shape[0] < 2 or not math.isfinite(est):
        return est, est, est
    idx = rng.integers(0, mat.shape[0], size=(n_boot, mat.shape[0]))
    lo, hi = np.quantile(exponent(mat[idx, tenth].mean(1), mat[idx, -1].mean(1)), [0.025, 0.975])
    return est, float(lo), float(hi)


def log_t_regime(cells: Sequence[tuple[str, np.ndarray, np.ndarray, float]], rng: np.random.Generator,
                 n_boot: int, what: str = "R(T) / the trivial policy's", margin: float = REGIME_MARGIN,
                 limit: float = LOG_GROWTH_LIMIT) -> dict:
    """Evidence fields ``regime`` / ``regime_note`` of a claim about the log T regime: every cell
    ``(label, checkpoints, runs x checkpoints regret, trivial policy's regret at T)`` has its
    regret at T below ``margin`` x the trivial policy's (:func:`regime_below_trivial`) and its
    growth exponent over the last decade (:func:`decade_growth`) below ``limit`` (upper CI end):
    the staircase of an algorithm still exploring in doubling batches grows with exponent about 1
    (module docstring)."""
    below = regime_below_trivial([(label, mat[:, -1], trivial) for label, _, mat, trivial in cells],
                                 rng, n_boot, what, margin)
    growth = [(label, *decade_growth(ts, mat, rng, n_boot)) for label, ts, mat, _ in cells]
    if not growth:
        return below
    label, est, lo, hi = max(growth, key=lambda g: g[3])
    n_out = sum(not g[3] < limit for g in growth)
    note = (f"{below['regime_note']}; growth exponent of the mean regret over [T/10, T], worst cell {label}: "
            f"{est:.3g} [{lo:.3g}, {hi:.3g}]; "
            + (f"every cell below {limit:g} (a log T law)" if n_out == 0 else
               f"{n_out} of {len(growth)} cells not below {limit:g} (still growing like exploration's "
               "doubling staircase, exponent about 1)"))
    return {"regime": bool(below["regime"]) and n_out == 0, "regime_note": note}


def combined_power(parts: Sequence[dict], form: str) -> dict:
    """Evidence fields of several alternatives of one form: "FAIL" only if every one FAILs."""
    verdicts = [p["power"] for p in parts]
    power = "FAIL" if all(v == "FAIL" for v in verdicts) else next(v for v in verdicts if v != "FAIL")
    return {"power": power, "power_note": "; ".join(p["power_note"] for p in parts), "power_form": checked_power_form(form)}


def shifted_power(lo: float, hi: float, value: float, alternatives: Sequence[float],
                  band_lo: float = -math.inf, band_hi: float = math.inf, label: str = "alternative", *,
                  form: str) -> dict:
    """Evidence fields ``power`` / ``power_note`` / ``power_form``: the same CI-in-band rule with
    its CI shifted to each alternative value (``guards.shifted_ci_power``); "FAIL" only if every
    alternative FAILs. ``form``: the kind of wrong paper the alternatives are (``POWER_FORMS``)."""
    return combined_power([shifted_ci_power(value, lo, hi, a, band_lo, band_hi, label, form=form)
                           for a in alternatives], form)


def band_power(lo: float, hi: float, value: float, band_lo: float, band_hi: float, what: str = "slope") -> dict:
    """Power of a two-sided band rule on a rate's exponent: the CI shifted to centre +- 2
    half-widths (an exponent off by the band's margin beyond either edge) must FAIL."""
    centre, half = (band_lo + band_hi) / 2, (band_hi - band_lo) / 2
    return shifted_power(lo, hi, value, (centre - 2 * half, centre + 2 * half), band_lo, band_hi,
                         f"{what} twice as far from {centre:g} as the band allows", form="exponent_off")


def perturbed_power(verdict: str, alternative: str, *, form: str) -> dict:
    """Power from re-running the same rule on the data perturbed to a stated alternative law;
    ``form``: the kind of wrong paper that law is (``POWER_FORMS``)."""
    return {"power": verdict, "power_form": checked_power_form(form),
            "power_note": f"the same rule on the data perturbed to {alternative} gives {verdict}"}


def bracketed_regime(ts, point, argmax: Sequence[int], gaps, lo: float, hi: float, slope: float,
                     band_lo: float, band_hi: float, gap_max: float) -> dict:
    """Regime of a worst-case slope (max over a grid of gaps of the mean regret, fitted against T).

    Where the maximising gap is at an end of the grid, the grid may truncate the maximum. The
    pseudo-regret never exceeds T Delta, so beyond the small end the maximum is at most
    T Delta_min(grid), and beyond the large end at most T gap_max (the largest gap the instance
    allows). The regime is reached when raising any subset of those truncated points to their
    largest possible value leaves the verdict of the slope band unchanged (the slope's CI moved
    by the change of the OLS slope)."""
    ts = np.asarray(ts, dtype=float)
    point = np.asarray(point, dtype=float)
    u = np.log(ts)
    uc = u - u.mean()
    ceiling = {0: lambda t: t * gaps[0], len(gaps) - 1: lambda t: t * gap_max}
    edge = [i for i, a in enumerate(argmax) if a in ceiling]
    verdict = band_verdict(lo, hi, band_lo, band_hi)
    if not edge:
        return {"regime": True, "regime_note": "the maximising gap is inside the grid at every T"}
    changed = []
    for mask in range(1, 2 ** len(edge)):
        y = point.copy()
        for b, i in enumerate(edge):
            if mask >> b & 1:
                y[i] = max(y[i], ceiling[argmax[i]](ts[i]))
        shift = float(np.log(y) @ uc / (uc @ uc)) - slope
        if band_verdict(lo + shift, hi + shift, band_lo, band_hi) != verdict:
            changed.append(shift)
    where = ", ".join(f"T={ts[i]:g}: Delta={gaps[argmax[i]]:.3g}" for i in edge)
    if changed:
        return {"regime": False,
                "regime_note": f"the maximising gap is at an end of the grid ({where}) and the maximum beyond it "
                               f"(at most T Delta) could move the slope by up to {max(changed, key=abs):+.3f} "
                               "and change the verdict"}
    return {"regime": True,
            "regime_note": f"the maximising gap is at an end of the grid ({where}), but even at its largest "
                           "possible value (T Delta) the maximum beyond it leaves the verdict unchanged"}


def bound_verdict(cells: Sequence[tuple[float, float]], limit: float = 1.0, upper: bool = True) -> str:
    """Verdict of "every cell's statistic <= limit" (``upper``) or ">= limit", each cell given by
    the (low, high) ends of its CI: PASS when every CI is on the right side, FAIL when some CI is
    entirely on the wrong side, INCONCLUSIVE otherwise."""
    if upper:
        return "PASS" if all(hi <= limit for _, hi in cells) else "FAIL" if any(lo > limit for lo, _ in cells) \
            else "INCONCLUSIVE"
    return "PASS" if all(lo >= limit for lo, _ in cells) else "FAIL" if any(hi < limit for _, hi in cells) \
        else "INCONCLUSIVE"


def floor_outcome(row: Claim, ties: Sequence[str], n_members: int) -> Claim:
    """Floor guard of an ordering over ``n_members`` compared members, ``ties`` of them tied at the
    trivial policy's regret: ``evidence.floor`` when every member is (no ordering can be seen);
    when only some are, those members carry no information, so the claim about every member
    cannot PASS (INCONCLUSIVE, no_power), while a FAIL elsewhere stands."""
    note = "; ".join(ties)
    if ties and len(ties) < n_members and row.verdict == "PASS":
        row = replace(row, verdict="INCONCLUSIVE",
                      claim=f"{row.claim} [no_power: {len(ties)} of {n_members} compared members tied at the "
                            f"trivial policy's regret: {note}; PASS on the others]").with_evidence(blind=True)
    elif ties and len(ties) < n_members and row.verdict == "INCONCLUSIVE":
        row = replace(row, claim=f"{row.claim} [{len(ties)} of {n_members} compared "
                                 f"members tied at the trivial policy's regret: {note}]").with_evidence(blind=True)
    return row.with_evidence(floor=len(ties) == n_members and n_members > 0,
                             floor_note=note or "no compared member is tied at the trivial policy's regret")


def identity_row(row: Claim, why: str) -> Claim:
    """The row as kind ``identity``: its statistic is fixed by the algorithm's own constants (true
    by the algorithm's form whatever the rewards), so its PASS is no evidence about the paper's
    analysis and it carries no power. ``why`` says which constants fix it. Where the row's regime
    evidence says the regime is not reached, the guards judge the row INCONCLUSIVE pre_asymptotic,
    as they would judge a claim there (an identity of the log T regime says nothing before it)."""
    ev = row.evidence or Evidence()
    return replace(row, kind="identity", claim=f"{row.claim} [an identity, not a test of the paper: {why}]",
                   evidence=replace(ev, power=None, power_note="", power_form=""))
