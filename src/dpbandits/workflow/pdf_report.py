"""The replication report as a PDF (``reports/<paper>/replication.pdf``): the Markdown report the
workflow writes (:mod:`dpbandits.evidence.replication`) typeset by a real ``pdflatex``, with its
figures embedded (the vector PDF beside each PNG the Markdown shows).

The converter reads the subset of Markdown that the report generator and the design files write,
and nothing else: headings (``#`` title, ``##`` section, ``###`` claim), paragraphs, ``**bold**``,
``*emphasis*``, code spans, links, block quotes, bullet and numbered lists, pipe tables, fenced
code blocks and images on a line of their own. A construct outside it is typeset as plain text,
never dropped. The PDF is reproducible: no dates, no random trailer id (pdfTeX's own switches).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from dpbandits.io import atomic_path

__all__ = ["markdown_to_latex", "compile_pdf", "write_replication_pdf", "TEX_PACKAGES"]

TEX_PACKAGES = ("texlive-latex-base", "texlive-latex-recommended")  # Debian packages with pdflatex

_PREAMBLE = r"""\pdfinfoomitdate=1
\pdftrailerid{}
\pdfsuppressptexinfo=-1
\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx,longtable,booktabs,array,xcolor}
\usepackage[hidelinks,bookmarksnumbered]{hyperref}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5\baselineskip}
\setlength{\tabcolsep}{3pt}
\renewcommand{\arraystretch}{1.15}
\setcounter{tocdepth}{1}
\sloppy
"""

_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
            "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
            "<": r"$<$", ">": r"$>$", "|": r"$|$"}
_ESCAPE = re.compile("|".join(re.escape(c) for c in _ESCAPES))


def _escape(text: str) -> str:
    """Plain text made safe for LaTeX (the OT1 encoding: <, > and | through math mode)."""
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(0)], text)


def _code(text: str) -> str:
    """A code span: typewriter, breakable after / - _ . , (a path or an id must not overrun a
    table cell)."""
    out = _escape(text)
    out = re.sub(r"(/|-|\\_|\.|,)", r"\1\\allowbreak{}", out)
    return r"\texttt{" + out + "}"


_LINK = re.compile(r"\[((?:`[^`]*`|[^\]`])+)\]\(([^)\s]+)\)")
_CODE = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    """One line or cell of Markdown text as LaTeX: links, code spans, bold and emphasis."""
    out, pos = [], 0
    for m in _LINK.finditer(text):
        out.append(_spans(text[pos:m.start()]))
        label, target = _spans(m.group(1)), m.group(2)
        out.append(r"\href{" + target.replace("%", r"\%").replace("#", r"\#") + "}{" + label + "}"
                   if re.match(r"https?://", target) else label)
        pos = m.end()
    out.append(_spans(text[pos:]))
    return "".join(out)


def _spans(text: str) -> str:
    out, pos = [], 0
    for m in _CODE.finditer(text):
        out.append(_emphasis(_escape(text[pos:m.start()])))
        out.append(_code(m.group(1)))
        pos = m.end()
    out.append(_emphasis(_escape(text[pos:])))
    return "".join(out)


def _emphasis(escaped: str) -> str:
    escaped = re.sub(r"\*\*(\S(?:.*?\S)?)\*\*", r"\\textbf{\1}", escaped)
    return re.sub(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])", r"\\emph{\1}", escaped)


def _plain(text: str) -> str:
    """Markdown text without its markup (for PDF bookmarks)."""
    return _escape(re.sub(r"[`*]", "", text))


def _cells(line: str) -> list[str]:
    """The cells of a pipe-table row (``\\|`` is a pipe inside a cell)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


_CHARS_PER_LINE = 105  # characters of \footnotesize text across \linewidth (A4, 2 cm margins)


def _widths(rows: list[list[str]]) -> list[float]:
    """Column widths as fractions of the line: each column at least its longest unbreakable word
    (a code span breaks at / - _ . ,), the rest shared by how much longer its cells run on average."""
    n = len(rows[0])
    words = [max((len(w) for r in rows for w in re.split(r"[\s/_.,-]+" if "`" in r[j] else r"\s+",
                                                          r[j].replace("`", "").replace("**", ""))), default=1)
             for j in range(n)]
    least = [w + 2 for w in words]
    natural = [max(least[j], min(150, sum(len(r[j]) for r in rows) / len(rows))) for j in range(n)]
    spare = _CHARS_PER_LINE - sum(least)
    extra = [natural[j] - least[j] for j in range(n)]
    if spare > 0 and sum(extra) > 0:
        least = [least[j] + spare * extra[j] / sum(extra) for j in range(n)]
    total = sum(least)
    return [w / total for w in least]


def _table(lines: list[str]) -> list[str]:
    """A pipe table as a longtable of ragged-right paragraph columns, widths by content."""
    header, body = _cells(lines[0]), [_cells(x) for x in lines[2:]]
    n = len(header)
    body = [(row + [""] * n)[:n] for row in body]
    spec = "".join(rf">{{\raggedright\arraybackslash}}p{{\dimexpr {w:.3f}\linewidth-2\tabcolsep\relax}}"
                   for w in _widths([header, *body]))
    row = lambda cells: " & ".join(_inline(c) for c in cells) + r" \\"  # noqa: E731
    head = r"\textbf{" + r"} & \textbf{".join(_inline(c) for c in header) + r"} \\"
    return [r"{\footnotesize", rf"\begin{{longtable}}{{@{{}}{spec}@{{}}}}", r"\toprule", head, r"\midrule",
            r"\endhead", *[row(r) for r in body], r"\bottomrule", r"\end{longtable}}", ""]


def _wrap(line: str, width: int = 100) -> list[str]:
    return [line[i:i + width] for i in range(0, len(line), width)] or [""]


def _figure(path: str, base: Path) -> list[str]:
    """An image line: the vector PDF beside the PNG when there is one, else the image itself (pdfTeX
    embeds a file shown beside several claims once)."""
    target = (base / path).resolve()
    vector = target.with_suffix(".pdf")
    use = vector if vector.is_file() else target
    if not use.is_file():
        raise FileNotFoundError(f"the report shows {path}, which does not exist ({use})")
    return [r"\begin{center}",
            rf"\includegraphics[width=0.9\linewidth,height=0.42\textheight,keepaspectratio]{{{use.as_posix()}}}",
            r"\end{center}", ""]


_ITEM = re.compile(r"^(\s*)([*-]|\d+\.)\s+(.*)$")
_IMAGE = re.compile(r"^!\[[^\]]*\]\(([^)\s]+)\)\s*$")


def markdown_to_latex(markdown: str, base: Path | str) -> str:
    """The whole LaTeX document of a report whose Markdown is ``markdown``; image paths are
    relative to ``base`` (the report's folder)."""
    base = Path(base)
    lines = markdown.splitlines()
    out: list[str] = []
    title = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            out.append("")
            i += 1
        elif line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            body = [w for x in lines[i + 1:j] for w in _wrap(x)]
            out += [r"{\footnotesize", r"\begin{verbatim}", *body, r"\end{verbatim}", "}", ""]
            i = j + 1
        elif m := re.match(r"^(#{1,6})\s+(.*)$", line):
            level, text = len(m.group(1)), m.group(2).strip()
            if level == 1 and not title:
                title = text
            else:
                command = {1: "section", 2: "section", 3: "subsection"}.get(level, "subsubsection")
                toc = "" if command == "subsubsection" else rf"\addcontentsline{{toc}}{{{command}}}{{{_plain(text)}}}"
                out += [rf"\{command}*{{\texorpdfstring{{{_inline(text)}}}{{{_plain(text)}}}}}{toc}", ""]
            i += 1
        elif line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            block = lines[i:j]
            if len(block) >= 2 and re.fullmatch(r"\|?[\s:|-]+\|?", block[1].strip()):
                out += _table(block)
            else:
                out += [_inline(x) for x in block] + [""]
            i = j
        elif line.startswith(">"):
            j = i
            while j < len(lines) and lines[j].startswith(">"):
                j += 1
            text = " ".join(x[1:].strip() for x in lines[i:j])
            out += [r"\begin{quote}", _inline(text), r"\end{quote}", ""]
            i = j
        elif m := _IMAGE.match(line):
            out += _figure(m.group(1), base)
            i += 1
        elif m := _ITEM.match(line):
            numbered = m.group(2)[0].isdigit()
            items: list[str] = []
            j = i
            while j < len(lines) and lines[j].strip():
                if (n := _ITEM.match(lines[j])) and len(n.group(1)) == len(m.group(1)):
                    items.append(n.group(3))
                else:
                    items[-1] += " " + lines[j].strip()
                j += 1
            env = "enumerate" if numbered else "itemize"
            out += [rf"\begin{{{env}}}", *[r"\item " + _inline(x) for x in items], rf"\end{{{env}}}", ""]
            i = j
        else:
            j = i
            while (j < len(lines) and lines[j].strip() and not lines[j].startswith(("#", ">", "```", "|"))
                   and not _IMAGE.match(lines[j]) and not (j > i and _ITEM.match(lines[j]))):
                j += 1
            out += [_inline(" ".join(x.strip() for x in lines[i:j])), ""]
            i = j
    head = [_PREAMBLE, r"\begin{document}"]
    if title:
        head += [r"\begin{center}{\Large\bfseries " + _inline(title) + r"}\end{center}",
                 r"\hypersetup{pdftitle={" + _plain(title) + "}}"]
    head += [r"\tableofcontents", r"\bigskip", ""]
    return "\n".join(head + out + [r"\end{document}", ""])


def pdflatex() -> str:
    """The ``pdflatex`` executable, or an error that says how to get it."""
    found = shutil.which("pdflatex")
    if not found:
        raise RuntimeError("pdflatex not found: the replication PDFs need TeX. On Debian or Ubuntu: "
                           f"apt-get install {' '.join(TEX_PACKAGES)} (`make tex` does it; `make reproduce` "
                           "runs it first)")
    return found


def compile_pdf(tex: str, out_pdf: Path | str, passes: int = 2) -> None:
    """Typeset ``tex`` with pdflatex in a temporary folder (two passes: the contents and the long
    tables' widths settle) and move the PDF to ``out_pdf`` atomically; a LaTeX error raises with
    the end of its log and leaves nothing behind."""
    exe = pdflatex()
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    with tempfile.TemporaryDirectory(prefix="dpbandits-tex-") as tmp:
        (Path(tmp) / "report.tex").write_text(tex)
        for _ in range(passes):
            proc = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                                  cwd=tmp, capture_output=True, text=True, env=env, timeout=600)
            if proc.returncode != 0:
                log = Path(tmp, "report.log")
                tail = log.read_text(errors="replace")[-3000:] if log.is_file() else proc.stdout[-3000:]
                raise RuntimeError(f"pdflatex failed on the report:\n{tail}")
        with atomic_path(out_pdf) as dest:
            shutil.copyfile(Path(tmp) / "report.pdf", dest)


def write_replication_pdf(markdown_path: Path | str, out_pdf: Path | str) -> None:
    """``reports/<paper>/replication.md`` typeset as ``replication.pdf`` (module docstring)."""
    markdown_path = Path(markdown_path)
    compile_pdf(markdown_to_latex(markdown_path.read_text(), markdown_path.parent), out_pdf)
