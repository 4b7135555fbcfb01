"""The replication report as a PDF (dpbandits.workflow.pdf_report) and the one-figure summary atop
each report (dpbandits.evidence.replication.plot_claims_summary): the Markdown subset the reports
use becomes LaTeX that a real pdflatex typesets, with the figures embedded, the same bytes on
every run; a LaTeX error leaves nothing behind."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from workflow_runner import SMOKE_REPORTS, ensure_apt_packages

from dpbandits.evidence.replication import claims_summary_counts, plot_claims_summary
from dpbandits.workflow.pdf_report import TEX_PACKAGES, _widths, compile_pdf, markdown_to_latex


def _body(tex: str) -> str:
    return tex[tex.index(r"\tableofcontents"):]


def test_special_characters_are_escaped_outside_and_inside_code():
    tex = _body(markdown_to_latex("a_b & 50% $x$ #1 {y} ~ ^ <3> |z| \\ and `n_Q <= 5e4 | x%`", "."))
    line = next(x for x in tex.splitlines() if x.startswith("a"))
    assert line.startswith(r"a\_b \& 50\% \$x\$ \#1 \{y\} \textasciitilde{} \textasciicircum{} $<$3$>$ $|$z$|$ \textbackslash{}")
    assert r"\texttt{n\_\allowbreak{}Q $<$= 5e4 $|$ x\%}" in line


def test_headings_emphasis_quotes_lists_links_and_code_blocks():
    md = "\n".join([
        "# Replication report: a paper", "", "## 1. Scope", "", "### `Thm1`: Section 2", "",
        "**PASS** `supported`. *upper_bound*, lines 3-4.", "", "> The regret is O(log T).", "",
        "* first item", "  continued", "* second [`t.csv`](../tables/t.csv) and [site](https://x.org/a)", "",
        "1. one", "2. two", "", "```yaml", "a: " + "x" * 150, "```", ""])
    tex = markdown_to_latex(md, ".")
    assert r"{\Large\bfseries Replication report: a paper}" in tex and r"pdftitle={Replication report: a paper}" in tex
    assert r"\section*{\texorpdfstring{1. Scope}{1. Scope}}\addcontentsline{toc}{section}{1. Scope}" in tex
    assert r"\subsection*{\texorpdfstring{\texttt{Thm1}: Section 2}{Thm1: Section 2}}" in tex
    assert r"\textbf{PASS} \texttt{supported}. \emph{upper\_bound}, lines 3-4." in tex
    assert "\\begin{quote}\nThe regret is O(log T).\n\\end{quote}" in tex
    assert r"\item first item continued" in tex
    assert r"\item second \texttt{t.\allowbreak{}csv} and \href{https://x.org/a}{site}" in tex
    assert "\\begin{enumerate}\n\\item one\n\\item two\n\\end{enumerate}" in tex
    verbatim = tex[tex.index(r"\begin{verbatim}"):tex.index(r"\end{verbatim}")].splitlines()[1:]
    assert verbatim == ["a: " + "x" * 97, "x" * 53]  # wrapped at 100 characters, nothing lost


def test_a_table_becomes_a_longtable_whose_columns_fit_their_longest_word():
    md = ("| claim | type | statement |\n|---|---|---|\n"
          "| `Thm3-indep` | upper_bound | " + "a long statement " * 8 + "|\n| `A\\|B` | figure | short |\n")
    tex = markdown_to_latex(md, ".")
    assert r"\begin{longtable}" in tex and r"\toprule" in tex and r"\endhead" in tex
    assert r"\texttt{A$|$B} & figure & short \\" in tex  # an escaped pipe stays in its cell
    widths = _widths([["claim", "type", "statement"], ["`Thm3-indep`", "upper_bound", "a long statement " * 8]])
    assert sum(widths) == pytest.approx(1.0)
    assert widths[1] >= (len("upper_bound") + 2) / 105  # the unbreakable word fits
    assert widths[2] == max(widths)  # the long text takes the spare width


def test_an_image_embeds_the_vector_pdf_beside_it_and_a_missing_one_is_an_error(tmp_path):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs/a.png").write_bytes(b"png")
    (tmp_path / "figs/a.pdf").write_bytes(b"pdf")
    (tmp_path / "figs/b.png").write_bytes(b"png")
    tex = markdown_to_latex("![a](figs/a.png)\n\n![b](figs/b.png)\n", tmp_path)
    assert f"{{{(tmp_path / 'figs/a.pdf').as_posix()}}}" in tex
    assert f"{{{(tmp_path / 'figs/b.png').as_posix()}}}" in tex  # no PDF beside it: the PNG
    with pytest.raises(FileNotFoundError, match="figs/c.png"):
        markdown_to_latex("![c](figs/c.png)\n", tmp_path)


def _claims() -> pd.DataFrame:
    rows = [("p", "A", "upper_bound", "PASS", "supported"), ("p", "B", "upper_bound", "FAIL", "erratum"),
            ("p", "C", "figure", "FAIL", "not_reproduced"), ("p", "D", "figure", "INCONCLUSIVE", "undecided"),
            ("p", "E", "property", "UNCHECKED", "no_check"), ("q", "F", "privacy", "PASS", "supported")]
    return pd.DataFrame(rows, columns=["paper", "claim_id", "type", "verdict", "reason"])


def test_the_summary_counts_every_claim_of_the_paper_once_and_the_errata_apart():
    counts = claims_summary_counts(_claims(), "p")
    assert list(counts.index) == ["upper_bound", "property", "figure"]  # the paper's types, in order
    assert counts.loc["upper_bound", "FAIL: erratum"] == 1 and counts.loc["upper_bound", "PASS"] == 1
    assert counts.loc["figure", "FAIL: contradicted or not reproduced"] == 1
    assert int(counts.to_numpy().sum()) == 5  # every claim of p, none of q
    with pytest.raises(ValueError, match="no claims of paper 'r'"):
        claims_summary_counts(_claims(), "r")
    odd = _claims()
    odd.loc[odd.claim_id == "C", "reason"] = "violated"  # a FAIL reason no segment shows
    with pytest.raises(ValueError, match="shows 4 of its 5 claims"):
        claims_summary_counts(odd, "p")


@pytest.fixture(scope="module")
def pdflatex():
    return ensure_apt_packages("pdflatex", list(TEX_PACKAGES))


def test_a_report_with_its_figure_compiles_the_same_bytes_twice(pdflatex, tmp_path):
    plot_claims_summary(_claims(), "p", "Doe & Roe, a paper", tmp_path / "s.pdf", tmp_path / "s.png")
    md = ("# Replication report: Doe & Roe\n\n![s](s.png)\n\n## 1. Scope\n\n"
          "| claim | statement |\n|---|---|\n| `A_1` | 50% of $x & y_i$ {z} |\n\n> quoted\n")
    tex = markdown_to_latex(md, tmp_path)
    first, second = tmp_path / "one.pdf", tmp_path / "two.pdf"
    compile_pdf(tex, first)
    compile_pdf(tex, second)
    data = first.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert data == second.read_bytes()  # no date, no random trailer id
    assert re.search(rb"/Subtype\s*/Form", data)  # the summary figure embedded as a vector form


def test_a_latex_error_raises_with_its_log_and_leaves_no_pdf(pdflatex, tmp_path):
    out = tmp_path / "bad.pdf"
    with pytest.raises(RuntimeError, match=r"pdflatex failed(.|\n)*Undefined control sequence"):
        compile_pdf("\\documentclass{article}\\begin{document}\\nosuchcommand\\end{document}", out)
    assert not out.exists() and not list(tmp_path.iterdir())


def test_every_paper_has_its_replication_pdf_and_summary_figure(smoke_run):
    """reports/smoke/<paper>/replication.pdf, typeset from its Markdown, and the summary figure
    the Markdown shows first."""
    claims = pd.read_csv(smoke_run / f"{SMOKE_REPORTS}/claims.csv", dtype=str, keep_default_na=False)
    for paper in sorted(set(claims["paper"])):
        pdf = (smoke_run / SMOKE_REPORTS / paper / "replication.pdf").read_bytes()
        assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000, paper
        text = (smoke_run / SMOKE_REPORTS / paper / "replication.md").read_text()
        first = re.search(r"!\[[^]]*\]\(([^)]+)\)", text).group(1)
        assert first == f"../figures/{paper}/claims_summary.png", paper
        assert (smoke_run / SMOKE_REPORTS / "figures" / paper / "claims_summary.pdf").is_file()
