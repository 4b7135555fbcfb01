"""Tables: LaTeX (booktabs) and CSV writers shared by every paper."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dpbandits.io import atomic_path

__all__ = ["write_table", "to_booktabs", "latex_escape"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}"}


def latex_escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in str(text))


def to_booktabs(frame: pd.DataFrame, caption: str, label: str, align: str | None = None,
                escape_columns: bool = True) -> str:
    """A self-contained ``table`` environment with booktabs rules (cells are pre-formatted)."""
    align = align or "l" * frame.shape[1]
    head = " & ".join(latex_escape(c) if escape_columns else str(c) for c in frame.columns)
    body = [" & ".join(latex_escape(v) for v in row) + r" \\" for row in frame.astype(str).to_numpy()]
    return "\n".join([
        r"\begin{table}[ht]", r"\centering", rf"\caption{{{latex_escape(caption)}}}",
        rf"\label{{{label}}}", rf"\begin{{tabular}}{{{align}}}", r"\toprule", head + r" \\",
        r"\midrule", *body, r"\bottomrule", r"\end{tabular}", r"\end{table}", ""])


def write_table(frame: pd.DataFrame, tex_path: str | Path, csv_path: str | Path, caption: str,
                label: str, display: pd.DataFrame | None = None, align: str | None = None) -> None:
    """CSV of the raw numbers and a LaTeX rendering of ``display`` (formatted cells)."""
    with atomic_path(csv_path) as tmp:
        frame.to_csv(tmp, index=False)
    with atomic_path(tex_path) as tmp:
        Path(tmp).write_text(to_booktabs(display if display is not None else frame, caption,
                                         label, align))
