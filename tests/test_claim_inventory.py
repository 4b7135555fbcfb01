"""Each paper's claim inventory (``dpbandits.<paper>.checks.claims``) against the committed
paper-scale check rows: every check row is a test of a claim of the paper or counted apart (never
both, never neither), no pattern names nothing, a claim's tests are rows that can judge a claim
of the paper, and every line range lies inside the paper's source text."""

from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd
import pytest

from dpbandits.evidence.claims import NON_PAPER_KINDS
from dpbandits.evidence.inventory import SOURCES, CountedApart, PaperClaim, matches
from dpbandits.records import PAPERS

ROOT = Path(__file__).resolve().parents[1]
CHECK_ROWS = ROOT / "reports" / "checks.csv"
PAPER_SOURCES = ROOT.parent / "shared" / "papers" / "source"  # the papers' text, beside the checkout


def _inventory(paper):
    module = importlib.import_module(f"dpbandits.{paper}.checks.claims")
    return module.CLAIMS, module.APART


def _rows(paper) -> pd.DataFrame:
    frame = pd.read_csv(CHECK_ROWS, dtype=str, keep_default_na=False)
    return frame[frame["paper"] == paper]


@pytest.mark.parametrize("paper", PAPERS)
def test_inventory_records_are_well_formed(paper):
    claims, apart = _inventory(paper)
    assert claims and all(isinstance(c, PaperClaim) for c in claims)
    assert all(isinstance(a, CountedApart) for a in apart)
    ids = [c.claim_id for c in claims]
    assert len(ids) == len(set(ids)), f"duplicate claim ids: {sorted({i for i in ids if ids.count(i) > 1})}"
    for c in claims:
        assert not c.root_cause or c.root_cause in ids, f"{c.claim_id}: root cause {c.root_cause} is not a claim"
        assert c.root_cause != c.claim_id


@pytest.mark.parametrize("paper", PAPERS)
def test_every_check_row_is_a_claims_test_or_counted_apart(paper):
    claims, apart = _inventory(paper)
    rows = _rows(paper)
    problems = []
    for check_id, kind in zip(rows["check_id"], rows["kind"], strict=True):
        testing = [c.claim_id for c in claims if c.tested_by(check_id)]
        aside = [a.checks for a in apart if matches(a.checks, check_id)]
        if testing and aside:
            problems.append(f"{check_id}: tests {testing} and is counted apart by {aside}")
        elif not testing and not aside:
            problems.append(f"{check_id}: neither tests a claim nor is counted apart")
        elif len(aside) > 1:
            problems.append(f"{check_id}: counted apart twice ({aside})")
        elif testing and kind in NON_PAPER_KINDS:
            problems.append(f"{check_id}: a {kind} row cannot judge a claim of the paper ({testing})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("paper", PAPERS)
def test_no_pattern_names_nothing(paper):
    claims, apart = _inventory(paper)
    ids = list(_rows(paper)["check_id"])
    dangling = [f"{c.claim_id}: {p}" for c in claims for p in c.checks if not any(matches(p, i) for i in ids)]
    dangling += [f"apart: {a.checks}" for a in apart
                 if a.category != "user" and not any(matches(a.checks, i) for i in ids)]  # none at paper scale
    assert not dangling, "patterns that name no check row of the paper-scale run:\n" + "\n".join(dangling)


@pytest.mark.parametrize("paper", PAPERS)
def test_line_ranges_lie_in_the_papers_text(paper):
    source = PAPER_SOURCES / SOURCES[paper]
    if not source.exists():
        pytest.skip(f"the paper's text is not beside this checkout ({source})")
    n_lines = len(source.read_text(encoding="utf-8").splitlines())
    claims, _ = _inventory(paper)
    outside = [f"{c.claim_id}: {c.lines}" for c in claims if c.lines[1] > n_lines]
    assert not outside, f"{source.name} has {n_lines} lines: " + ", ".join(outside)
