"""Captions of the Snakemake report: the templates in ``workflow/report/<paper>/<name>.rst`` state
the paper's setting and what is plotted; a line

    .. verdicts:: FT-1 FT-3

is replaced by the verdicts of those checks (a check id X selects X and every X-<suffix>) read
from ``reports/checks.csv``, so that each caption states the verdicts of the checks its figure or
table supports, as of the run that built it. Everything else of the template is kept as it is
(Snakemake renders the result with Jinja2 and reStructuredText when it builds the report).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

__all__ = ["render_caption", "render_captions", "caption_checks", "MARKER"]

MARKER = re.compile(r"^\.\. verdicts::(?P<ids>.*)$", re.MULTILINE)


def caption_checks(template: str) -> list[str]:
    """The check ids a template's verdicts line names (empty if it has none)."""
    return [i for m in MARKER.finditer(template) for i in m.group("ids").split()]


def _selected(claims: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    cid = claims["check_id"].astype(str)
    mask = pd.Series(False, index=claims.index)
    for i in ids:
        mask |= (cid == i) | cid.str.startswith(f"{i}-")
    return claims[mask]


def _number(x) -> str:
    x = float(x)
    if math.isnan(x):
        return ""
    return f"{x:.4g}" if x == 0 or 1e-3 <= abs(x) < 1e5 else f"{x:.3e}"


def _rst_text(text: str) -> str:
    """Plain text safe inside an rst paragraph (no accidental markup: emphasis, literals,
    substitutions, and references such as the ``n_`` of "n_* (K = 2: ...)", which docutils would
    report as an unknown target inside the rendered report)."""
    out = str(text).replace("\\", "\\\\")
    for char in "*`|_":
        out = out.replace(char, "\\" + char)
    return out


def _verdict_lines(rows: pd.DataFrame, ids: list[str]) -> list[str]:
    if rows.empty:
        return [f"**Verdicts:** no claim rows for {', '.join(ids)} in reports/checks.csv."]
    scales = sorted(set(rows["scale"]))
    counts = rows["verdict"].value_counts()
    summary = ", ".join(f"{counts[v]} {v}" for v in ("PASS", "FAIL", "INCONCLUSIVE", "REPORT") if v in counts)
    out = [f"**Verdicts** ({summary}; scale: {', '.join(scales)}):", ""]
    for r in rows.itertuples(index=False):
        value = _number(r.value)
        ci = f" [{_number(r.ci_low)}, {_number(r.ci_high)}]" if _number(r.ci_low) or _number(r.ci_high) else ""
        stat = f"{_rst_text(r.statistic)} = {value}{ci}" if value else _rst_text(r.statistic)
        reason = f", {r.reason}" if getattr(r, "reason", "") else ""
        stability = getattr(r, "stability", "")
        stable = f"; stable under {stability} root seeds" if isinstance(stability, str) and stability else ""
        out.append(f"- ``{r.check_id}`` **{r.verdict}**{reason} ({_rst_text(r.source)}): {_rst_text(r.claim)} "
                   f"-- {stat}; criterion: {_rst_text(r.criterion)}{stable}.")
    return out


def render_caption(template: str, claims: pd.DataFrame, paper: str | None = None) -> str:
    """The template with each verdicts line replaced by the verdicts of its checks (of ``paper``
    only, when given: check ids are unique within a paper, not across papers)."""
    if paper is not None:
        claims = claims[claims["paper"] == paper]

    def replace(match: re.Match) -> str:
        ids = match.group("ids").split()
        return "\n".join(_verdict_lines(_selected(claims, ids), ids))

    return MARKER.sub(replace, template)


def render_captions(template_dir: str | Path, claims: pd.DataFrame, out_dir: str | Path) -> list[Path]:
    """Render every ``<paper>/<name>.rst`` template under ``template_dir`` into ``out_dir`` (same
    relative paths), each with the verdicts of its own paper's checks; returns the written files."""
    template_dir, out_dir = Path(template_dir), Path(out_dir)
    written = []
    for template in sorted(template_dir.glob("*/*.rst")):
        rel = template.relative_to(template_dir)
        target = out_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_caption(template.read_text(), claims, paper=template.parent.name))
        written.append(target)
    return written
