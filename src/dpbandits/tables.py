"""Tables: LaTeX (booktabs) and CSV writers shared by every paper."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dpbandits.io import atomic_path

CSV_FLOAT = "%.6g"  # every number a CSV deliverable writes

__all__ = ["CSV_FLOAT", "write_table", "display_form", "to_booktabs", "latex_escape", "tables_document", "ragged"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}",
            "<": r"\textless{}", ">": r"\textgreater{}"}
# Non-ASCII characters the claims may use, as pdflatex-safe text (no package needed).
_UNICODE = {"≤": r"$\le$", "≥": r"$\ge$", "±": r"$\pm$", "×": r"$\times$", "≈": r"$\approx$",
            "ε": r"$\varepsilon$", "δ": r"$\delta$", "κ": r"$\kappa$", "Δ": r"$\Delta$",
            "ξ": r"$\xi$", "ρ": r"$\rho$", "σ": r"$\sigma$", "γ": r"$\gamma$", "θ": r"$\theta$",
            "λ": r"$\lambda$", "μ": r"$\mu$", "π": r"$\pi$", "τ": r"$\tau$", "η": r"$\eta$",
            "α": r"$\alpha$", "β": r"$\beta$", "√": r"$\surd$", "∞": r"$\infty$", "→": r"$\to$",
            "–": "--", "—": "---", "’": "'", "‘": "`", "“": "``", "”": "''", "·": r"$\cdot$",
            "…": r"\ldots{}", "≠": r"$\neq$", "∈": r"$\in$"}
LONG_TABLE_ROWS = 25  # longer tables are longtables (they break across pages)


def ragged(width: str) -> str:
    """A ragged-right paragraph column of the given width (needs the array package)."""
    return rf">{{\raggedright\arraybackslash}}p{{{width}}}"


def latex_escape(text: str) -> str:
    """Text as pdflatex-safe LaTeX: special characters escaped, common non-ASCII symbols mapped
    to math commands, any other non-ASCII character replaced by its code point (never an error)."""
    out = []
    for ch in str(text):
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) > 127:
            out.append(f"[U+{ord(ch):04X}]")
        else:
            out.append(ch)
    return "".join(out)


def to_booktabs(frame: pd.DataFrame, caption: str, label: str, align: str | None = None,
                escape_columns: bool = True) -> str:
    """A booktabs table (cells are pre-formatted): a ``table`` float, or a ``longtable`` (needs
    the longtable package) when it has more than LONG_TABLE_ROWS rows, so that long check
    tables break across pages instead of running off the page."""
    align = align or "l" * frame.shape[1]
    head = " & ".join(latex_escape(c) if escape_columns else str(c) for c in frame.columns)
    body = [" & ".join(latex_escape(v) for v in row) + r" \\" for row in frame.astype(str).to_numpy()]
    if len(body) > LONG_TABLE_ROWS:
        ncol = frame.shape[1]
        return "\n".join([
            rf"\begin{{longtable}}{{{align}}}", rf"\caption{{{latex_escape(caption)}}}",
            rf"\label{{{label}}} \\", r"\toprule", head + r" \\", r"\midrule", r"\endfirsthead",
            rf"\multicolumn{{{ncol}}}{{l}}{{\emph{{(continued)}}}} \\", r"\toprule", head + r" \\",
            r"\midrule", r"\endhead", r"\bottomrule", r"\endlastfoot", *body, r"\end{longtable}", ""])
    return "\n".join([
        r"\begin{table}[ht]", r"\centering", rf"\caption{{{latex_escape(caption)}}}",
        rf"\label{{{label}}}", rf"\begin{{tabular}}{{{align}}}", r"\toprule", head + r" \\",
        r"\midrule", *body, r"\bottomrule", r"\end{tabular}", r"\end{table}", ""])


def display_form(table: pd.DataFrame, spec) -> pd.DataFrame | None:
    """The display form of a check's informational table (:class:`dpbandits.evidence.registry.TableSpec`):
    its display function (``"module:function"``) or its column formats; None = the raw table."""
    if spec.display:
        import importlib

        module, _, name = spec.display.partition(":")
        return getattr(importlib.import_module(module), name)(table)
    if spec.formats:
        return table.assign(**{col: table[col].map(fmt.format) for col, fmt in spec.formats.items()})
    return None


def write_table(frame: pd.DataFrame, tex_path: str | Path, csv_path: str | Path, caption: str,
                label: str, display: pd.DataFrame | None = None, align: str | None = None) -> None:
    """CSV of the numbers (at 6 significant digits: what they mean, and the same bytes on any
    machine whatever the last digits of a solver or a BLAS) and a LaTeX rendering of ``display``
    (formatted cells)."""
    with atomic_path(csv_path) as tmp:
        frame.to_csv(tmp, index=False, float_format=CSV_FLOAT)
    with atomic_path(tex_path) as tmp:
        Path(tmp).write_text(to_booktabs(display if display is not None else frame, caption,
                                         label, align))


def tables_document(tables: dict[str, list[str]], titles: dict[str, str], title: str) -> str:
    """A standalone LaTeX document that ``\\input``s every table: ``tables`` maps a section name
    (a paper id) to the table files, as paths relative to the document's directory."""
    lines = [r"\documentclass[10pt]{article}",
             r"\usepackage[a4paper,landscape,margin=1.5cm]{geometry}",
             r"\usepackage[T1]{fontenc}", r"\usepackage{booktabs,longtable,array}",
             r"\setlength{\LTcapwidth}{\textwidth}", r"\renewcommand{\arraystretch}{1.1}",
             rf"\title{{{latex_escape(title)}}}", r"\date{}", r"\begin{document}", r"\maketitle"]
    for section, files in tables.items():
        lines.append(rf"\section*{{{latex_escape(titles.get(section, section))}}}")
        for f in files:
            lines += [rf"\input{{{Path(f).with_suffix('').as_posix()}}}", r"\clearpage"]
    lines += [r"\end{document}", ""]
    return "\n".join(lines)
