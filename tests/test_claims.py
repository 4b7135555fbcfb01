"""Check-row records (Claim) and the checks.csv / checks.md writers."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from dpbandits.evidence.claims import (
    COLUMNS,
    KINDS,
    VERDICTS,
    Claim,
    combine_claims,
    read_claims,
    render_checks_markdown,
    write_claims,
)


def _claim(check_id="C1", verdict="PASS", paper="online", **kw) -> Claim:
    base = dict(paper=paper, check_id=check_id, source="Sec 6, Fig 1", kind="figure",
                claim=f"claim text of {check_id}", statistic="ratio of means", value=1.25,
                ci_low=1.1, ci_high=1.4, criterion="CI below 2", verdict=verdict, n_runs=20,
                scale="smoke")
    base.update(kw)
    return Claim(**base)


def _same(a: Claim, b: Claim) -> bool:
    """Field-wise equality treating NaN == NaN."""
    for col in COLUMNS:
        x, y = getattr(a, col), getattr(b, col)
        if isinstance(x, float) and math.isnan(x):
            if not (isinstance(y, float) and math.isnan(y)):
                return False
        elif x != y or type(x) is not type(y):
            return False
    return True


def test_columns_are_exactly_the_contract():
    assert COLUMNS == ["paper", "check_id", "source", "kind", "claim", "statistic", "value",
                       "ci_low", "ci_high", "criterion", "verdict", "n_runs", "scale", "reason", "stability"]


def test_claim_accepts_every_kind_and_verdict():
    for kind in KINDS:
        for verdict in VERDICTS:
            c = _claim(kind=kind, verdict=verdict)
            assert (c.kind, c.verdict) == (kind, verdict)
    assert set(VERDICTS) == {"PASS", "FAIL", "INCONCLUSIVE", "REPORT"}


@pytest.mark.parametrize("kind", ["figures", "Figure", "", "bogus"])
def test_claim_rejects_unknown_kind(kind):
    with pytest.raises(ValueError, match="kind"):
        _claim(kind=kind)


@pytest.mark.parametrize("verdict", ["pass", "OK", "", "UNKNOWN"])
def test_claim_rejects_unknown_verdict(verdict):
    with pytest.raises(ValueError, match="verdict"):
        _claim(verdict=verdict)


def test_claim_rejects_empty_check_id():
    with pytest.raises(ValueError, match="check_id"):
        _claim(check_id="")


def test_claim_is_frozen():
    c = _claim()
    with pytest.raises(AttributeError):
        c.verdict = "FAIL"  # type: ignore[misc]


def test_write_read_round_trip(tmp_path):
    claims = [
        _claim("FIG-C1"),
        _claim("FIG-C2", verdict="FAIL", value=0.5, ci_low=math.nan, ci_high=math.nan),
        _claim("PRIV-1", verdict="REPORT", kind="privacy", value=math.nan, ci_low=math.nan,
               ci_high=math.nan, claim='text with, comma and "quotes" | pipe', n_runs=1),
        _claim("THM-3", verdict="INCONCLUSIVE", kind="theorem", value=-3.5e-7, ci_low=-1e6,
               ci_high=2.0, statistic="NA", criterion="None", scale="paper"),
    ]
    path = tmp_path / "nested" / "dir" / "claims.csv"
    write_claims(claims, path)
    assert path.exists()
    assert [p.name for p in path.parent.iterdir()] == ["claims.csv"]  # no temp file left
    header = path.read_text().splitlines()[0]
    assert header.split(",") == COLUMNS
    back = read_claims(path)
    assert len(back) == len(claims)
    for a, b in zip(claims, back, strict=True):
        assert _same(a, b), (a, b)
    # NaN CIs really come back as NaN floats; n_runs as int
    assert math.isnan(back[1].ci_low) and math.isnan(back[1].ci_high)
    assert math.isnan(back[2].value)
    assert all(type(c.n_runs) is int for c in back)
    # the literal strings "NA" / "None" are text, not missing values
    assert back[3].statistic == "NA" and back[3].criterion == "None"


def test_write_empty_claims_has_header(tmp_path):
    path = tmp_path / "empty.csv"
    write_claims([], path)
    assert path.read_text().strip().split(",") == COLUMNS
    assert read_claims(path) == []


def test_read_claims_rejects_missing_columns(tmp_path):
    path = tmp_path / "bad.csv"
    frame = pd.DataFrame([{c: "x" for c in COLUMNS if c != "verdict"}])
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError, match="verdict"):
        read_claims(path)


def test_read_claims_validates_rows(tmp_path):
    path = tmp_path / "bad.csv"
    write_claims([_claim()], path)
    path.write_text(path.read_text().replace(",PASS,", ",MAYBE,"))
    with pytest.raises(ValueError, match="verdict"):
        read_claims(path)


@pytest.mark.parametrize(
    "fields",
    [
        {"check_id": "01"},  # comes back as int 1
        {"check_id": "0"},  # comes back as int 0 -> Claim rejects it as an empty check_id
        {"claim": "1.5"},  # comes back as float 1.5
        {"source": ""},  # comes back as float nan
    ],
)
def test_round_trip_text_columns_stay_text(tmp_path, fields):
    claim = _claim(**fields)
    path = tmp_path / "claims.csv"
    write_claims([claim], path)
    back = read_claims(path)
    assert len(back) == 1 and _same(claim, back[0])


def test_combine_claims_sorts_and_unions(tmp_path):
    p1, p2 = tmp_path / "a.csv", tmp_path / "b.csv"
    write_claims([_claim("Z-9"), _claim("A-1", paper="zeta")], p1)
    write_claims([_claim("B-2"), _claim("A-1", verdict="FAIL")], p2)
    frame = combine_claims([p1, p2])
    assert list(frame.columns) == COLUMNS
    assert list(zip(frame["paper"], frame["check_id"], strict=True)) == [
        ("online", "A-1"), ("online", "B-2"), ("online", "Z-9"), ("zeta", "A-1")]
    assert list(frame.index) == [0, 1, 2, 3]
    # same check id under different papers is fine; the row content follows its id
    assert frame.loc[0, "verdict"] == "FAIL" and frame.loc[3, "verdict"] == "PASS"


def test_combine_claims_rejects_duplicates(tmp_path):
    p1, p2 = tmp_path / "a.csv", tmp_path / "b.csv"
    write_claims([_claim("DUP-1"), _claim("OK-1")], p1)
    write_claims([replace(_claim("DUP-1"), verdict="FAIL")], p2)
    with pytest.raises(ValueError, match="DUP-1"):
        combine_claims([p1, p2])
    with pytest.raises(ValueError, match="duplicate"):
        combine_claims([p1, p1])


def _frame(claims) -> pd.DataFrame:
    return pd.DataFrame([c.__dict__ for c in claims], columns=COLUMNS)


def test_render_markdown_summary_rows_and_failures(tmp_path):
    claims = [
        _claim("ON-PASS-1"),
        _claim("ON-PASS-2", ci_low=math.nan, ci_high=math.nan),
        _claim("ON-FAIL-1", verdict="FAIL", claim="regret is logarithmic",
               criterion="slope CI below 0.6"),
        _claim("ON-INC-1", verdict="INCONCLUSIVE"),
        _claim("ON-REP-1", verdict="REPORT", kind="report", value=math.nan, ci_low=math.nan,
               ci_high=math.nan),
        _claim("ON-REP-2", verdict="REPORT", kind="report"),
        _claim("ON-REP-3", verdict="REPORT", kind="report"),
        _claim("DU-1", paper="dueling", verdict="FAIL", claim="weak regret a | b",
               criterion="ratio <= 3"),
        _claim("DU-2", paper="dueling", verdict="FAIL", claim="second failure",
               criterion="p < 0.05"),
        _claim("SH-1", paper="shuffle", verdict="PASS"),
    ]
    path = tmp_path / "claims.csv"
    write_claims(claims, path)
    md = render_checks_markdown(combine_claims([path]),
                                titles={"online": "Optimal private online learning"})
    lines = md.splitlines()

    assert "## online: Optimal private online learning" in lines
    assert "## dueling" in lines and "## shuffle" in lines  # no title: no dangling colon
    summaries = [ln for ln in lines if ln.startswith("**Summary:**")]
    assert "**Summary:** 7 rows: 2 PASS, 1 FAIL, 1 INCONCLUSIVE, 3 REPORT." in summaries
    assert "**Summary:** 2 rows: 0 PASS, 2 FAIL, 0 INCONCLUSIVE, 0 REPORT." in summaries
    assert "**Summary:** 1 rows: 1 PASS, 0 FAIL, 0 INCONCLUSIVE, 0 REPORT." in summaries
    assert lines.index("## dueling") < lines.index("## online: Optimal private online learning") \
        < lines.index("## shuffle")

    for c in claims:
        rows = [ln for ln in lines if ln.startswith(f"| {c.check_id} |")]
        assert len(rows) == 1, c.check_id
        assert f"**{c.verdict}**" in rows[0]
        assert f"| {c.n_runs} | " in rows[0]
    row = next(ln for ln in lines if ln.startswith("| ON-PASS-1 |"))
    assert "1.25 [1.1, 1.4]" in row
    row = next(ln for ln in lines if ln.startswith("| ON-PASS-2 |"))
    assert "| 1.25 |" in row  # NaN CI: no brackets
    row = next(ln for ln in lines if ln.startswith("| DU-1 |"))
    assert "weak regret a \\| b" in row  # pipes escaped inside table cells

    # one section of failing rows per paper with FAIL rows, listing id, claim and criterion
    assert md.count("Failing rows:") == 2
    assert "- `ON-FAIL-1`: regret is logarithmic (slope CI below 0.6)" in lines
    assert "- `DU-1`: weak regret a | b (ratio <= 3)" in lines
    assert "- `DU-2`: second failure (p < 0.05)" in lines
    shuffle_part = md.split("## shuffle", 1)[1]
    assert "Failing rows:" not in shuffle_part
    online_part = md.split("## online", 1)[1].split("## shuffle", 1)[0]
    failure_lines = online_part.split("Failing rows:", 1)[1]
    assert "ON-PASS-1" not in failure_lines and "ON-REP-1" not in failure_lines


def test_render_markdown_from_plain_frame():
    md = render_checks_markdown(_frame([_claim("X-1", verdict="INCONCLUSIVE")]))
    assert md.startswith("# Check rows and their verdicts")
    assert "**Summary:** 1 rows: 0 PASS, 0 FAIL, 1 INCONCLUSIVE, 0 REPORT." in md
    assert "| X-1 |" in md
    assert "Failing rows:" not in md
