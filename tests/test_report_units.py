"""Units of the reviewer's view: caption rendering, the README section, LaTeX escaping and long
tables (the claims-at-a-glance table: tests/test_claim_verdicts.py)."""

from __future__ import annotations

import math

import pandas as pd

from dpbandits.tables import LONG_TABLE_ROWS, latex_escape, tables_document, to_booktabs
from dpbandits.workflow.captions import caption_checks, render_caption
from dpbandits.workflow.readme import replace_marked_section


def _claims():
    rows = [("dueling", "C1", "PASS"), ("dueling", "C10", "FAIL"), ("dueling", "C1-X", "REPORT"),
            ("online", "FT-1", "FAIL"), ("online", "FT-2", "PASS")]
    return pd.DataFrame([{"paper": p, "check_id": c, "source": "Thm 1", "kind": "theorem",
                          "claim": f"claim {c} with a * star", "statistic": "slope", "value": 1.0,
                          "ci_low": 0.9, "ci_high": math.nan, "criterion": "<= 1", "verdict": v,
                          "n_runs": 3, "scale": "smoke"} for p, c, v in rows])


def test_a_caption_states_the_verdicts_of_exactly_its_checks():
    template = "**Figure.** Setting.\n\n.. verdicts:: C1 FT-1\n"
    assert caption_checks(template) == ["C1", "FT-1"]
    text = render_caption(template, _claims())
    assert "``C1`` **PASS**" in text and "``C1-X`` **REPORT**" in text and "``FT-1`` **FAIL**" in text
    claims = _claims().assign(reason="supported", stability="5/5")
    text = render_caption(template, claims)
    assert "``C1`` **PASS**, supported" in text and "stable under 5/5 root seeds" in text
    assert "C10" not in text  # C1 selects C1 and C1-*, not C10
    assert "with a \\* star" in text and ".. verdicts::" not in text
    assert "no claim rows for NOPE" in render_caption(".. verdicts:: NOPE\n", _claims())
    only_online = render_caption(".. verdicts:: C1 FT-1\n", _claims(), paper="online")
    assert "``FT-1``" in only_online and "``C1``" not in only_online  # ids are per paper


def test_the_readme_section_is_replaced_between_its_markers_only(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- glance:start -->\nold\n<!-- glance:end -->\nrest\n")
    assert replace_marked_section(readme, "glance", "| new |")
    assert readme.read_text() == "intro\n<!-- glance:start -->\n| new |\n<!-- glance:end -->\nrest\n"
    assert not replace_marked_section(readme, "glance", "| new |")  # unchanged
    assert not replace_marked_section(readme, "other", "x")  # no markers: untouched


def test_latex_escape_handles_specials_and_any_unicode():
    assert latex_escape("a_b & 50% <= x^2 {y}") == r"a\_b \& 50\% \textless{}= x\^{}2 \{y\}"
    assert latex_escape("ε ≤ 1") == r"$\varepsilon$ $\le$ 1"
    assert latex_escape("☃") == "[U+2603]"


def test_long_tables_break_across_pages():
    short = pd.DataFrame({"a": range(3)})
    long = pd.DataFrame({"a": range(LONG_TABLE_ROWS + 1)})
    assert r"\begin{table}" in to_booktabs(short, "c", "l") and "longtable" not in to_booktabs(short, "c", "l")
    text = to_booktabs(long, "c", "l")
    assert text.startswith(r"\begin{longtable}") and r"\endhead" in text and r"\toprule" in text
    doc = tables_document({"online": ["online/checks.tex"]}, {"online": "Hu et al."}, "All")
    assert r"\input{online/checks}" in doc and r"\usepackage{booktabs,longtable,array}" in doc


def test_a_rendered_caption_is_clean_rst_whatever_the_claim_text():
    """Claim texts carry rst's markup characters (n_* (K = 2: ...), F^-1, |x|, `code`); the
    rendered caption must give docutils no system message (the report would show it)."""
    from docutils.core import publish_parts

    claims = _claims().assign(claim="per-cell n_* (K=2: 39) and e_* tables; |x| <= `a`; 2*3 and n_P_max_")
    text = render_caption("**Figure.** Setting.\n\n.. verdicts:: C1\n", claims)
    parts = publish_parts(text, writer_name="html", settings_overrides={"report_level": 1, "halt_level": 5})
    assert "system-message" not in parts["body"] and "problematic" not in parts["body"]
    assert "n_* (K=2: 39)" in parts["body"] and "|x| &lt;= `a`" in parts["body"]
