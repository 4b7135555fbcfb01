"""The per-paper replication report (dpbandits.evidence.replication): every claim of the paper and
only its own, each section where its claims belong, the check rows' numbers read from the table,
and the figures beside the claims they support."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from dpbandits.evidence.replication import figure_of_row, render_replication_report

CLAIM_COLS = ["paper", "claim_id", "location", "lines", "type", "statement", "verdict", "reason", "stability",
              "checks", "root_cause", "note"]


def _claims():
    rows = [
        ("online", "Thm1", "Section 3, Theorem 1", "10-12", "upper_bound", "Regret is O(log T).", "PASS",
         "supported", "5/5", "BT-1-ALG1 PASS", "", ""),
        ("online", "Thm8", "Section 5, Theorem 8", "40-41", "privacy", "RNM with Lap(1/eps) is eps-DP.", "FAIL",
         "erratum", "", "P-EXACT-RNM FAIL", "", "exact loss 2 eps on a two-action table"),
        ("online", "Fig1", "Section 6, Figure 1", "60-61", "figure", "TS beats UCB.", "FAIL", "not_reproduced", "",
         "FIG-C2 FAIL", "", ""),
        ("online", "Lem6", "Appendix, Lemma 6", "90-91", "proof_step", "An odds ratio step.", "UNCHECKED", "no_check",
         "", "", "", "a proof step; no check"),
        ("online", "Thm3", "Section 3, Theorem 3", "20-22", "upper_bound", "Explicit constant.", "INCONCLUSIVE",
         "seed_split", "PASS 1/5, INCONCLUSIVE 4/5", "BT-5 PASS", "", ""),
        ("quantile", "Thm1", "Section 2, Theorem 1", "5-6", "upper_bound", "Another paper's claim.", "PASS",
         "supported", "", "B1 PASS", "", ""),
    ]
    return pd.DataFrame(rows, columns=CLAIM_COLS)


def _checks():
    cols = ["paper", "check_id", "statistic", "value", "ci_low", "ci_high", "criterion", "verdict", "reason", "n_runs",
            "claim"]
    rows = [("online", "BT-1-ALG1", "growth exponent", "0.123456", "0.1", "0.15", "CI upper end < 0.35", "PASS",
             "supported", "50", "log T growth [power against an exponent off: sqrt(T) growth FAILs]"),
            ("online", "P-EXACT-RNM", "max loss / eps", "2", "", "", "<= 1", "FAIL", "erratum", "1", "loss"),
            ("online", "FIG-C2", "ratio", "1.5", "1.2", "1.8", "< 1", "FAIL", "not_reproduced", "30", "ratio"),
            ("online", "BT-5", "ratio to bound", "0.5", "0.4", "0.6", "<= 1", "PASS", "supported", "50", "bound")]
    return pd.DataFrame(rows, columns=cols)


def _apart():
    return pd.DataFrame([("online", "P-MC-ALG1-CONTROL", "control", "control", "FAIL", "violated", "a control")],
                        columns=["paper", "check_id", "category", "kind", "verdict", "reason", "why"])


def _render(figures=("check_BT-1", "check_FT-1")):
    return render_replication_report("online", "Hu et al., a title", _claims(), _apart(), _checks(), list(figures),
                                     "bandit: {runs: 50, horizon: 1000000}\n", "paper", 20210215,
                                     [20210215, 1, 2], [("BT-1", "online_check_BT_1", "log T growth")])


def test_the_report_holds_every_claim_of_the_paper_and_only_its_own():
    text = _render()
    for cid in ("Thm1", "Thm8", "Fig1", "Lem6", "Thm3"):
        assert f"### `{cid}`" in text
    assert "Another paper's claim" not in text
    assert "5 claims" in text and "1 PASS, 2 FAIL, 1 INCONCLUSIVE, 1 UNCHECKED" in text


def test_each_claim_lands_in_its_section():
    text = _render()
    errata = text[text.index("## 4. Errata found"):text.index("## 5.")]
    findings = text[text.index("## 5."):text.index("## 6.")]
    inconclusive = text[text.index("## 6."):text.index("## 7.")]
    unchecked = text[text.index("## 7."):text.index("## 8.")]
    assert "`Thm8`" in errata and "exact loss 2 eps" in errata and "`Fig1`" not in errata
    assert "`Fig1`" in findings and "`Thm8`" not in findings
    assert "`Thm3`" in inconclusive and "PASS 1/5, INCONCLUSIVE 4/5" in inconclusive
    assert "`Lem6`" in unchecked and "a proof step; no check" in unchecked
    assert "`P-MC-ALG1-CONTROL`" in text[text.index("## 8."):]


def test_the_numbers_and_figures_come_from_the_run():
    text = _render()
    thm1 = text[text.index("### `Thm1`"):text.index("### `Thm8`")]
    assert "0.1235 [0.1, 0.15]" in thm1 and "CI upper end < 0.35" in thm1  # the row's value and CI
    assert "![check_BT-1](../figures/online/check_BT-1.png)" in thm1  # the figure beside its claim
    assert "../figures/online/check_FT-1.png" not in text  # no claim reads that figure's rows
    assert "bandit: {runs: 50, horizon: 1000000}" in text  # the run's settings
    assert "root seed 20210215" in text and "20210215, 1, 2" in text
    assert "`online_check_BT_1`" in text
    assert "- `BT-1-ALG1`: power against an exponent off: sqrt(T) growth FAILs" in thm1  # the wrong paper it rules out


def test_no_figure_no_link_and_an_unknown_paper_is_an_error():
    text = _render(figures=())
    assert re.findall(r"!\[[^]]*\]\(([^)]+)\)", text) == ["../figures/online/claims_summary.png"]  # the summary only
    with pytest.raises(ValueError, match="no claims of paper 'dueling'"):
        render_replication_report("dueling", "t", _claims(), _apart(), _checks(), [], "", "paper", 1, [1], [])


@pytest.mark.parametrize(("row", "figure"), [("BT-4-ALG1", "check_BT-4"), ("BT-4", "check_BT-4"),
                                             ("FT-1", "check_FT-1"), ("BT-40", None), ("X-1", None)])
def test_figure_of_row_takes_the_longest_check_prefix(row, figure):
    assert figure_of_row(row, ["check_BT-4", "check_FT-1", "check_BT-4-ALG3"]) == figure


def test_the_design_of_the_runs_is_in_section_2_before_the_checks():
    text = render_replication_report("online", "t", _claims(), _apart(), _checks(), [], "", "paper", 1, [1],
                                     [("BT-1", "online_check_BT_1", "log T growth")],
                                     design="* Figures 1-2: T = 10^6, K = 5, 20 runs.\n")
    run = text[text.index("## 2. What was run"):text.index("## 3.")]
    assert run.index("### How the paper's experiments and claims are run") < run.index("T = 10^6, K = 5") \
        < run.index("### The checks") < run.index("`online_check_BT_1`")


@pytest.mark.parametrize("paper", ["online", "dueling", "quantile", "contextual"])
def test_each_paper_has_a_design_file_that_states_no_result(repo, paper):
    """The design of a paper's runs (workflow/report/<paper>/design.md, included in its report) says
    how the experiments and checks are run; results come from the run (no verdict, no CI)."""
    import re

    text = (repo / "workflow" / "report" / paper / "design.md").read_text()
    assert len(text.splitlines()) > 20
    assert not re.findall(r"\b(?:PASS|FAIL|INCONCLUSIVE)\b", text)
    assert not re.findall(r"\[-?\d[\d.e+-]*, -?\d[\d.e+-]*\]", text)  # a confidence interval


def test_the_readme_states_no_result_outside_its_generated_section(repo):
    """Every verdict count the README shows is written by the workflow (between the
    claims-at-a-glance markers); the per-paper results live in the replication reports."""
    import re

    text = (repo / "README.md").read_text()
    start, end = "<!-- claims-at-a-glance:start -->", "<!-- claims-at-a-glance:end -->"
    outside = text[:text.index(start)] + text[text.index(end):]
    outside = re.sub(r"`[^`\n]*`", "", outside)  # code spans: formats and examples, not results
    assert not re.findall(r"\b\d+ (?:PASS|FAIL|INCONCLUSIVE|REPORT)\b", outside)
    assert not re.findall(r"\b(?:PASS|FAIL|INCONCLUSIVE) (?:[02-9]|1\d)/\d\b", outside)  # a stability split
    for paper in ("online", "dueling", "quantile", "contextual"):
        assert f"(reports/{paper}/replication.md)" in text


@pytest.mark.parametrize(("location", "expected"), [
    ("Section 4.1, Figure 7(a) and its text", ["fig7_regret_vs_n", "fig7a_authors_code"]),
    ("Section 6, Figures 1-2", ["fig1", "fig1_logx", "fig2"]),
    ("Figures 6 and 7", ["fig6_learning", "fig7_regret_vs_n", "fig7a_authors_code"]),
    ("Section 3, Theorem 1", []),
])
def test_a_figure_claim_finds_the_papers_figure_as_drawn(location, expected):
    from dpbandits.evidence.replication import paper_figures_of_claim

    names = ["fig1", "fig10", "fig1_logx", "fig2", "fig6_learning", "fig7_regret_vs_n", "fig7a_authors_code", "check_F7a"]
    assert paper_figures_of_claim(location, names) == expected


def test_figure_and_table_claims_show_the_papers_figure_and_link_its_table():
    claims = _claims()
    claims.loc[claims.claim_id == "Fig1", "location"] = "Section 6, Figure 1"
    extra = claims.iloc[[0]].assign(claim_id="Tab2", location="Section 4.2, text on Table 2", type="table",
                                    checks="", verdict="UNCHECKED", reason="no_check")
    text = render_replication_report("online", "t", pd.concat([claims, extra]), _apart(), _checks(),
                                     ["fig1", "fig10", "check_BT-1"], "", "paper", 1, [1], [],
                                     tables=["table2_reward_ratio", "checks"])
    fig1 = text[text.index("### `Fig1`"):text.index("### `Lem6`")]
    assert "![fig1](../figures/online/fig1.png)" in fig1 and "fig10" not in fig1
    tab2 = text[text.index("### `Tab2`"):]
    assert "[`table2_reward_ratio.csv`](../tables/online/table2_reward_ratio.csv)" in tab2
    thm1 = text[text.index("### `Thm1`"):text.index("### `Thm8`")]
    assert "fig1.png" not in thm1  # a theorem shows no paper figure


def test_a_power_note_keeps_the_brackets_inside_it():
    """The shifted CI inside a power note ("... shifted there [0.09, 0.12] gives FAIL") is part of
    the note, not its end."""
    from dpbandits.evidence.replication import _power_text

    claim = "slope in band [power against an exponent off: the same CI shifted there [0.09, 0.12] gives FAIL] tail"
    assert _power_text(claim) == "power against an exponent off: the same CI shifted there [0.09, 0.12] gives FAIL"
    assert _power_text("no note [0.1, 0.2]") == ""


# A value quoted by hand: a decimal with two or more places, or a number in e-notation.
_QUOTED = re.compile(r"(?<![\w.])-?\d+\.\d{2,}(?:e[-+]?\d+)?|(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _written(token: str, pool: list[float]) -> bool:
    """``token`` is one of ``pool`` at the precision it is written with (0.94 for 0.9492 fails,
    0.95 passes; 1.9e5 stands for anything in [1.85e5, 1.95e5])."""
    mantissa, _, exponent = token.partition("e")
    places = len(mantissa.partition(".")[2])
    tolerance = 0.5 * 10.0 ** -places * 10.0 ** int(exponent or 0) * (1 + 1e-9)
    return any(abs(abs(x) - abs(float(token))) <= tolerance for x in pool)


@pytest.mark.parametrize("paper", ["online", "dueling", "quantile", "contextual"])
def test_every_value_a_claim_note_quotes_is_one_the_last_run_wrote(repo, paper):
    """The claim inventories' notes are hand-written and rendered into claims.md and the reports;
    a value they quote (a slope, a bound, a ratio) must be a number the committed paper-scale run
    wrote for that paper (a row's value, CI, or a number in its text, statistic or criterion) or
    one of the paper's text or its specification, at the precision the note writes it. A check
    whose value moves makes the note that quoted it fail here: point at the row instead."""
    from dpbandits.evidence.inventory import SOURCES, load_inventory

    papers = repo.parent / "shared" / "papers"
    if not papers.is_dir():
        pytest.skip("../shared/papers (the papers' text and specifications) is not beside the checkout")
    rows = pd.read_csv(repo / "reports/checks.csv", dtype=str, keep_default_na=False)
    rows = rows[rows["paper"] == paper]
    pool = [float(v) for column in ("value", "ci_low", "ci_high") for v in rows[column] if v not in ("", "nan")]
    for column in ("claim", "statistic", "criterion"):
        pool += [float(t) for text in rows[column] for t in _NUMBER.findall(text)]
    source = SOURCES[paper]
    texts = (papers / "source" / source).read_text() + (papers / source.replace(".txt", ".md")).read_text()
    pool += [float(t) for t in _NUMBER.findall(texts)]
    claims, apart = load_inventory(paper)
    stale = [(c.claim_id, token) for c in claims for token in _QUOTED.findall(f"{c.note} {c.unchecked}")
             if not _written(token, pool)]
    stale += [(a.checks, token) for a in apart for token in _QUOTED.findall(a.why) if not _written(token, pool)]
    assert not stale, f"values quoted by hand that the last paper-scale run did not write: {stale}"


def test_a_quoted_value_is_matched_at_its_own_precision():
    assert _written("0.95", [0.9492]) and not _written("0.94", [0.9492])
    assert _written("1.9e5", [1.87e5]) and not _written("1.9e5", [1.8e5])
    assert _written("-0.87", [0.866])  # a slope quoted with its sign, the row's magnitude


def test_the_deviations_open_constants_and_experience_come_between_the_findings_and_what_remains_open():
    from dpbandits.evidence.replication import Deviation, OpenConstant, ReplicationNotes

    notes = ReplicationNotes(
        deviations=(Deviation("Lap(2/eps) beside Lap(1/eps)", "Theorem 8's noise is not eps-DP.", ("Thm8",)),),
        open_constants=(OpenConstant("the bound's constant", "Theorem 3 states O(.) only", "C = 10", ("BT-5",)),
                        OpenConstant("an unswept one", "Section 9", "1 to 2", ("NONE-*",))),
        easy=("the schedule",), hard=("the horizons",))
    text = render_replication_report("online", "t", _claims(), _apart(), _checks(), [], "", "paper", 1, [1], [],
                                     notes=notes)
    order = [text.index(h) for h in ("## 5. Findings", "## 6. Deviations from the paper, and why",
                                     "## 7. Sensitivity to the constants the paper leaves open",
                                     "## 8. What was easy and what was hard", "## 9. What remains open: inconclusive",
                                     "## 10. What remains open: claims without", "## 11. Check rows counted apart")]
    assert order == sorted(order)
    assert "- **Lap(2/eps) beside Lap(1/eps)** Theorem 8's noise is not eps-DP. (claims: `Thm8`)" in text
    constants = text[text.index("## 7."):text.index("## 8.")]
    assert "**the bound's constant.** Theorem 3 states O(.) only; shown over C = 10." in constants
    assert "| `BT-5` | PASS `supported` | 0.5 [0.4, 0.6] |" in constants  # the row's verdict and value, from the run
    assert "No row of this run shows it." in constants
    assert "Easy:\n\n- the schedule\n\nHard:\n\n- the horizons" in text
    assert "counted apart (section 11)" in text


def test_notes_without_deviations_or_experience_are_an_error():
    from dpbandits.evidence.replication import Deviation, OpenConstant, ReplicationNotes

    with pytest.raises(ValueError, match="deviations, what was easy and what was hard"):
        ReplicationNotes(deviations=(), open_constants=(), easy=("x",), hard=("y",))
    with pytest.raises(ValueError, match="say what departs"):
        Deviation("", "why")
    with pytest.raises(ValueError, match="the rows that show them"):
        OpenConstant("c", "Section 1", "1 to 2", ())


@pytest.mark.parametrize("paper", ["online", "dueling", "quantile", "contextual"])
def test_every_paper_states_its_deviations_and_its_open_constants_show_rows_of_the_run(repo, paper):
    """Each paper's notes (dpbandits.<paper>.checks.replication) name claims of its inventory, and
    every open constant's rows exist in the committed paper-scale run; the notes quote no value of
    the run by hand (the report prints the rows' values)."""
    from dpbandits.evidence.inventory import load_inventory, matches
    from dpbandits.evidence.replication import load_replication_notes

    notes = load_replication_notes(paper)
    ids = {c.claim_id for c in load_inventory(paper)[0]}
    assert {c for d in notes.deviations for c in d.claims} <= ids
    rows = pd.read_csv(repo / "reports/checks.csv", dtype=str, keep_default_na=False)
    rows = rows[rows["paper"] == paper]
    for k in notes.open_constants:
        assert all(any(matches(p, i) for i in rows["check_id"]) for p in k.checks), (k.name, k.checks)
    texts = [f"{d.what} {d.why}" for d in notes.deviations] + list(notes.easy) + list(notes.hard)
    texts += [f"{k.name} {k.where} {k.values}" for k in notes.open_constants]
    papers = repo.parent / "shared" / "papers"
    if papers.is_dir():
        from dpbandits.evidence.inventory import SOURCES

        source = SOURCES[paper]
        allowed = (papers / "source" / source).read_text() + (papers / source.replace(".txt", ".md")).read_text()
        pool = [float(t) for t in _NUMBER.findall(allowed)]
        quoted = [t for text in texts for t in _QUOTED.findall(text) if not _written(t, pool)]
        assert not quoted, f"values of the run quoted by hand: {quoted}"
