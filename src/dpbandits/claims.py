"""The Claim record every check returns, and the writers of ``reports/claims.csv`` / ``.md``.

Schema (ARCHITECTURE.md, output contract):
``paper, check_id, source, kind, claim, statistic, value, ci_low, ci_high, criterion, verdict,
n_runs, scale``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import pandas as pd

from dpbandits.io import atomic_path

__all__ = ["Claim", "COLUMNS", "KINDS", "VERDICTS", "PAPER_TITLES", "write_claims", "read_claims",
           "write_claim_rows", "read_claim_rows", "combine_claims", "render_claims_markdown",
           "render_claims_at_a_glance", "claims_table"]

# The papers, by id (ARCHITECTURE.md): the titles every human-readable output uses.
PAPER_TITLES = {
    "online": "Hu, Huang, Mehta & Hegde, near-optimal algorithms for DP online learning",
    "dueling": "Saha & Asi, DP-Dueling: learning from preference feedback without compromising user privacy",
    "quantile": "Nikolakakis, Kalogerias, Sheffet & Sarwate, quantile multi-armed bandits: optimal best-arm "
                "identification and a differentially private scheme",
    "contextual": "Ma, Jiang, Zhao, Yang & Yu, locally private nonparametric contextual bandits with transfer learning",
}

KINDS = ("figure", "theorem", "lemma", "lower_bound", "privacy", "erratum", "baseline", "report")
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "REPORT")


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

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Claim.kind must be one of {KINDS}, got {self.kind!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"Claim.verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.check_id:
            raise ValueError("Claim.check_id must not be empty")


COLUMNS = [f.name for f in fields(Claim)]


def write_claims(claims: Iterable[Claim], path: str | Path) -> None:
    """Write claim rows as CSV (atomically)."""
    frame = pd.DataFrame([asdict(c) for c in claims], columns=COLUMNS)
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

    frame = pd.DataFrame([asdict(c) for c in claims], columns=COLUMNS)
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
    rows = [asdict(c) for p in paths for c in _read_any(p)]
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


def render_claims_at_a_glance(frame: pd.DataFrame, titles: dict[str, str] | None = None) -> str:
    """A Markdown table: per paper, the count of each verdict and the ids of its FAILs."""
    titles = PAPER_TITLES if titles is None else titles
    scales = ", ".join(sorted(set(frame["scale"]))) or "none"
    lines = [f"| paper | checks | {' | '.join(VERDICTS)} | failing checks |",
             "|---|---|" + "---|" * len(VERDICTS) + "---|"]
    for paper, group in frame.groupby("paper", sort=True):
        counts = group["verdict"].value_counts()
        fails = ", ".join(f"`{c}`" for c in group.loc[group["verdict"] == "FAIL", "check_id"])
        name = f"`{paper}` ({titles[paper].split(',')[0]})" if paper in titles else f"`{paper}`"
        lines.append(f"| {name} | {len(group)} | "
                     + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + f" | {fails or '-'} |")
    total = frame["verdict"].value_counts()
    lines.append(f"| **all** | {len(frame)} | "
                 + " | ".join(str(total.get(v, 0)) for v in VERDICTS) + " | |")
    lines += ["", f"Scale of these verdicts: {scales}. Every FAIL's reason is in `reports/claims.md`."]
    return "\n".join(lines)


def render_claims_markdown(frame: pd.DataFrame, titles: dict[str, str] | None = None) -> str:
    """Human-readable claims: a summary table over the papers, then the rows grouped by paper,
    with a one-line summary per paper and the reason of every FAIL."""
    titles = PAPER_TITLES if titles is None else titles
    lines = ["# Claims and verdicts", "",
             "Each row is one check of one claim of a paper (see `claims.csv` for the same data).",
             "PASS / FAIL / INCONCLUSIVE are statistical verdicts; REPORT rows are informational.",
             "", "## At a glance", "", render_claims_at_a_glance(frame, titles), ""]
    for paper, group in frame.groupby("paper", sort=True):
        counts = group["verdict"].value_counts()
        summary = ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), "", f"**Summary:** {summary}.", ""]
        lines += ["| check | source | kind | claim | statistic | value [95% CI] | criterion | verdict | runs |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in group.itertuples(index=False):
            ci = f" [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}]" if _fmt(r.ci_low) or _fmt(r.ci_high) else ""
            cells = [r.check_id, r.source, r.kind, r.claim, r.statistic, f"{_fmt(r.value)}{ci}",
                     r.criterion, f"**{r.verdict}**", str(r.n_runs)]
            lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
        fails = group[group["verdict"] == "FAIL"]
        if len(fails):
            lines += ["", "Failures:"]
            lines += [f"- `{r.check_id}`: {r.claim} ({r.criterion})" for r in fails.itertuples()]
        lines.append("")
    return "\n".join(lines)


def claims_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Display form of claim rows for a LaTeX summary table of one paper's checks."""
    def value(r) -> str:
        ci = f" [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}]" if _fmt(r.ci_low) or _fmt(r.ci_high) else ""
        return f"{_fmt(r.value)}{ci}"

    return pd.DataFrame({
        "check": frame["check_id"], "source": frame["source"], "kind": frame["kind"],
        "statistic": frame["statistic"], "value [95% CI]": [value(r) for r in frame.itertuples()],
        "criterion": frame["criterion"], "verdict": frame["verdict"],
    })
