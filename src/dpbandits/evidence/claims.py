"""The check row every check returns (the record :class:`Claim`: one statistic of one check, with
its verdict), and the writers of ``reports/checks.csv`` / ``.md``. The claims of the papers, each
counted once and judged from the rows that test it, are :mod:`dpbandits.evidence.inventory`'s.

Schema of a check row (the output contract of reports/checks.csv, docs/verdicts.md):
``paper, check_id, source, kind, claim, statistic, value, ci_low, ci_high, criterion, verdict,
n_runs, scale, reason, stability``.

``kind`` says what a row is about: a claim of the paper (:data:`PAPER_KINDS`), an informational
``report``, or something that is *not* a claim of the paper and never counts as the paper's PASS
or FAIL (:data:`NON_PAPER_KINDS`): a ``control`` (a negative control or tool validation: the
check can see what it must see), a ``sanity`` bar of the specification, an ``identity`` (a
bookkeeping identity, deterministic by construction). ``reason`` says why the verdict is what it
is, from the fixed vocabulary :data:`REASONS` (only dpbandits.evidence.guards.judge writes it, from
the row's verdict, kind and evidence; a check states evidence, never a reason); ``stability`` is how
many root seeds of the last stability sweep gave the same verdict (e.g. ``5/5``; empty if none).

A check may attach :class:`Evidence` to a row (not written out): where the claim applies, whether
the compared quantities are tied at a floor, what the same rule says on a stated alternative, and
what data the row judges. The guards read it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import pandas as pd

from dpbandits.io import atomic_path

__all__ = ["Claim", "Evidence", "POWER_FORMS", "PRIVACY_POWER_FORMS", "COLUMNS", "KINDS", "PAPER_KINDS", "NON_PAPER_KINDS", "REASONS", "VERDICTS",
           "row_dict", "PAPER_TITLES", "write_claims", "read_claims",
           "write_claim_rows", "read_claim_rows", "combine_claims", "render_checks_markdown",
           "claims_table", "value_with_ci"]

# The papers, by id: the titles every human-readable output uses.
PAPER_TITLES = {
    "online": "Hu, Huang, Mehta & Hegde, near-optimal algorithms for DP online learning",
    "dueling": "Saha & Asi, DP-Dueling: learning from preference feedback without compromising user privacy",
    "quantile": "Nikolakakis, Kalogerias, Sheffet & Sarwate, quantile multi-armed bandits: optimal best-arm "
                "identification and a differentially private scheme",
    "contextual": "Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits with transfer learning",
}

PAPER_KINDS = ("figure", "theorem", "lemma", "lower_bound", "privacy", "erratum", "baseline")
NON_PAPER_KINDS = ("control", "sanity", "identity")
KINDS = (*PAPER_KINDS, "report", *NON_PAPER_KINDS)
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "REPORT")

# Why a verdict is what it is (README, "How to read a verdict"; docs/verdicts.md). Paper claims: PASS supported; FAIL
# contradicted (false where the claim applies, with power), not_reproduced (a figure's reading at
# the paper's own settings), erratum (a proof, constant or definition error shown exactly);
# INCONCLUSIVE no_power (the check could not have failed, or compares quantities tied at a floor
# or ceiling), pre_asymptotic (a rate judged before its regime is reached), too_few_points (the
# regime is reached, but too few grid points lie in it for a slope with lack of fit), unvalidated_pipeline
# (a comparison whose pipeline does not reproduce the paper's reading even with the authors' own
# code: it rests on reconstructed baselines), surrogate_data (a claim
# about real data judged on surrogate data), undecided (the CI straddles the criterion at the
# paper's settings). Rows that are not paper claims: validated / violated. REPORT informational.
REASONS = {
    "PASS": ("supported", "validated"),
    "FAIL": ("contradicted", "not_reproduced", "erratum", "violated"),
    "INCONCLUSIVE": ("no_power", "pre_asymptotic", "too_few_points", "surrogate_data", "unvalidated_pipeline",
                     "undecided"),
    "REPORT": ("informational",),
}


# The forms of a wrong paper a PASS may be powered against (Evidence.power_form), each with the
# words the verdict's text uses for it. A claim of the paper may PASS ``supported`` only when its
# power is shown against one of them: the alternative is a way *the paper* could be wrong, of the
# claim's own form, not a straw man (an algorithm nobody proposed, noise removed altogether, the
# labels shuffled). A test's form is that of its null hypothesis (the wrong paper it rejects).
# A privacy claim (kind "privacy") may PASS only with power against a release that is at most
# 2 eps-DP (``privacy_2eps``: its privacy loss, by the mechanism's accounting or computed exactly,
# is no more than twice the claimed eps) or against the paper's own text read another way
# (``paper_reading``): a control that removes the noise, or shrinks it twenty-fold, shows that the
# audit sees a gross leak, not that the paper could have been wrong and been caught.
POWER_FORMS = {
    "exponent_off": "an exponent off by more than the claim's band",
    "effect_absent": "the claimed effect absent (no difference, no dependence, or the order reversed)",
    "constant_off": "a stated constant or threshold off by a factor",
    "bound_violated": "the stated bound violated by a factor where it is tightest",
    "rate_exceeded": "a failure or violation rate above the stated level",
    "paper_reading": "the paper's own text read another way",
    "privacy_2eps": "a release that is only 2 eps-DP",
}
PRIVACY_POWER_FORMS = ("privacy_2eps", "paper_reading")


@dataclass(frozen=True)
class Evidence:
    """What a check knows about where its verdict applies (read by dpbandits.evidence.guards).

    ``regime``: for a rate or scaling claim whose constant the paper leaves open, whether the runs
    reached the regime where it applies (None: not such a claim); ``regime_note`` states the
    criterion and, when it can be estimated, what n would be needed; ``too_few``: the regime is
    reached, but too few grid points lie in it to fit a rate with lack of fit (the note says how
    many). ``floor``: for a comparison or
    ordering, whether the compared quantities are indistinguishable at a floor or ceiling (ties,
    every curve at the trivial policy's regret, every run censored). ``power``: the verdict the
    same rule, at the same sample size, gives on the stated alternative ``power_note`` ("FAIL" is
    the evidence a PASS needs), or "test" when the PASS itself is a significant test at a stated
    level (a false claim passes with at most that probability). ``power_form``: what kind of wrong
    paper the alternative is (:data:`POWER_FORMS`; a privacy claim's PASS needs one of
    :data:`PRIVACY_POWER_FORMS`). ``data``: "synthetic", "real" or "surrogate"; ``claim_on``: what
    the paper's claim is about ("synthetic" or "real").

    Why a check's own INCONCLUSIVE came out so, when the check knows (the row's text says it; the
    guards turn it into the reason): ``blind``, the check could not have failed here (an audit
    that does not catch its negative control or a violation known to exist, nothing to test,
    some compared members tied at a floor); ``unvalidated``, the pipeline does not reproduce the
    paper's reading even with the authors' own code in place of the faithful algorithm."""

    regime: bool | None = None
    regime_note: str = ""
    too_few: bool = False
    floor: bool | None = None
    floor_note: str = ""
    power: str | None = None
    power_note: str = ""
    power_form: str = ""
    data: str = "synthetic"
    claim_on: str = "synthetic"
    blind: bool = False
    unvalidated: bool = False

    def __post_init__(self) -> None:
        if self.power not in (None, "FAIL", "PASS", "INCONCLUSIVE", "test"):
            raise ValueError(f"Evidence.power must be a verdict or 'test', got {self.power!r}")
        if self.power_form not in ("", *POWER_FORMS):
            raise ValueError(f"Evidence.power_form must be one of {tuple(POWER_FORMS)}, got {self.power_form!r}")
        if self.data not in ("synthetic", "real", "surrogate") or self.claim_on not in ("synthetic", "real"):
            raise ValueError(f"Evidence.data / claim_on: got {self.data!r} / {self.claim_on!r}")


@dataclass(frozen=True)
class Claim:
    """One verdict on one claim of a paper."""

    paper: str
    check_id: str
    source: str
    kind: str
    claim: str
    statistic: str
    value: float
    ci_low: float
    ci_high: float
    criterion: str
    verdict: str
    n_runs: int
    scale: str
    reason: str = ""
    stability: str = ""
    evidence: Evidence | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Claim.kind must be one of {KINDS}, got {self.kind!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"Claim.verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.check_id:
            raise ValueError("Claim.check_id must not be empty")
        if self.reason and self.reason not in REASONS[self.verdict]:
            raise ValueError(f"Claim {self.check_id}: reason {self.reason!r} does not go with {self.verdict}; "
                             f"allowed: {', '.join(REASONS[self.verdict])}")

    def with_evidence(self, **kwargs) -> Claim:
        """The same row with its evidence extended (fields of :class:`Evidence`)."""
        return replace(self, evidence=replace(self.evidence or Evidence(), **kwargs))


COLUMNS = [f.name for f in fields(Claim) if f.name != "evidence"]


def row_dict(claim: Claim) -> dict:
    """A claim as a dict of its output columns."""
    return {c: getattr(claim, c) for c in COLUMNS}


def write_claims(claims: Iterable[Claim], path: str | Path) -> None:
    """Write claim rows as CSV (atomically)."""
    frame = pd.DataFrame([row_dict(c) for c in claims], columns=COLUMNS)
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


def read_claims(path: str | Path) -> list[Claim]:
    """Read claim rows; text columns stay text, empty numbers become NaN."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = set(COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: missing claim columns {sorted(missing)}")
    out = []
    for row in frame[COLUMNS].to_dict(orient="records"):
        for key in ("value", "ci_low", "ci_high"):
            row[key] = float(row[key]) if row[key] != "" else math.nan
        row["n_runs"] = int(row["n_runs"])
        out.append(Claim(**row))
    return out


def write_claim_rows(claims: Iterable[Claim], path: str | Path) -> None:
    """A check's claim rows as an intermediate table (checksummed Parquet, :mod:`dpbandits.io`)."""
    from dpbandits.io import write_results

    frame = pd.DataFrame([row_dict(c) for c in claims], columns=COLUMNS)
    write_results(frame.astype({"value": float, "ci_low": float, "ci_high": float, "n_runs": "int64"}), path)


def read_claim_rows(path: str | Path) -> list[Claim]:
    """Claim rows of one check (a damaged file is quarantined and raises, naming the file)."""
    from dpbandits.io import read_results_or_quarantine

    frame = read_results_or_quarantine(path)
    missing = set(COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"{path}: missing claim columns {sorted(missing)}")
    out = []
    for row in frame[COLUMNS].to_dict(orient="records"):
        row["n_runs"] = int(row["n_runs"])
        for key in ("value", "ci_low", "ci_high"):
            row[key] = float(row[key])
        out.append(Claim(**row))
    return out


def _read_any(path: str | Path) -> list[Claim]:
    return read_claim_rows(path) if str(path).endswith(".parquet") else read_claims(path)


def combine_claims(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Union of per-check claim files, sorted by paper and check id; duplicate ids are an error."""
    rows = [row_dict(c) for p in paths for c in _read_any(p)]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    dup = frame.duplicated(["paper", "check_id"], keep=False)
    if dup.any():
        raise ValueError(f"duplicate check ids: {sorted(set(frame.loc[dup, 'check_id']))}")
    return frame.sort_values(["paper", "check_id"], kind="stable").reset_index(drop=True)


def _fmt(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, float):
        if x == 0 or 1e-3 <= abs(x) < 1e5:
            return f"{x:.4g}"
        return f"{x:.3e}"
    return str(x)


def value_with_ci(value, lo, hi) -> str:
    """A statistic as the reports print it: ``value [lo, hi]`` (4 significant digits), the CI left
    out when it has no end."""
    ci = f" [{_fmt(lo)}, {_fmt(hi)}]" if _fmt(lo) or _fmt(hi) else ""
    return f"{_fmt(value)}{ci}"


def _value(r) -> str:
    return value_with_ci(r.value, r.ci_low, r.ci_high)


def render_checks_markdown(frame: pd.DataFrame, titles: dict[str, str] | None = None) -> str:
    """``checks.md``: every check row, grouped by paper, with a one-line count of the rows per
    paper and every FAIL and INCONCLUSIVE row with its reason. The claims of the papers, each
    counted once, are in ``claims.md`` (:mod:`dpbandits.evidence.inventory`)."""
    titles = PAPER_TITLES if titles is None else titles
    frame = frame.assign(**{c: frame.get(c, "") for c in ("reason", "stability")})
    lines = ["# Check rows and their verdicts", "",
             "Each row is one statistic of one check (see `checks.csv` for the same data); several rows may test",
             "one claim of a paper, and some rows are not claims of the paper at all. The claims, each counted",
             "once with its verdict, are in `claims.md`.",
             "PASS / FAIL / INCONCLUSIVE are statistical verdicts; REPORT rows are informational.",
             "The reason says why: PASS `supported`; FAIL `contradicted` (false where the claim applies, with",
             "power), `not_reproduced` (a figure's reading at the paper's own settings), `erratum` (an error of",
             "the paper shown exactly); INCONCLUSIVE `no_power`, `pre_asymptotic`, `too_few_points`, `surrogate_data`,",
             "`unvalidated_pipeline`, `undecided`;",
             "rows of kind control / sanity / identity are not claims of the paper (`validated` / `violated`).",
             "`stability`: of the stability sweep's root seeds, how many gave the row's verdict.", ""]
    for paper, group in frame.groupby("paper", sort=True):
        counts = group["verdict"].value_counts()
        summary = f"{len(group)} rows: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), "", f"**Summary:** {summary}.", ""]
        lines += ["| check | source | kind | claim | statistic | value [95% CI] | criterion | verdict | reason "
                  "| runs | stability |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in group.itertuples(index=False):
            cells = [r.check_id, r.source, r.kind, r.claim, r.statistic, _value(r),
                     r.criterion, f"**{r.verdict}**", r.reason, str(r.n_runs), r.stability]
            lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
        for verdict, title in (("FAIL", "Failing rows"), ("INCONCLUSIVE", "Inconclusive rows")):
            rows = group[group["verdict"] == verdict]
            if len(rows):
                lines += ["", f"{title}:"]
                lines += [f"- `{r.check_id}`{f' ({r.reason})' if r.reason else ''}: {r.claim} ({r.criterion})"
                          for r in rows.itertuples()]
        lines.append("")
    return "\n".join(lines)


def claims_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Display form of claim rows for a LaTeX summary table of one paper's checks."""
    return pd.DataFrame({
        "check": frame["check_id"], "source": frame["source"], "kind": frame["kind"],
        "statistic": frame["statistic"], "value [95% CI]": [_value(r) for r in frame.itertuples()],
        "criterion": frame["criterion"], "verdict": frame["verdict"], "reason": frame["reason"],
    })
