"""From check rows to claims (dpbandits.evidence.inventory): the stated rule, seeds that disagree,
root causes, rows counted apart, and the tables a reviewer reads first."""

from __future__ import annotations

import pandas as pd
import pytest

from dpbandits.evidence.inventory import (
    CLAIM_COLUMNS,
    CountedApart,
    PaperClaim,
    combine_verdicts,
    judge_claims,
    render_claims_at_a_glance,
    render_claims_markdown,
)

TITLES = {"online": "Hu, Huang, Mehta & Hegde, a title", "dueling": "Saha & Asi, a title"}


def _rows(*rows, paper="online"):
    """Check rows: (id, verdict, reason[, kind[, stability]])."""
    out = []
    for r in rows:
        check_id, verdict, reason, kind, stability = (*r, "theorem", "")[:5] if len(r) == 3 else (*r, "")[:5]
        out.append({"paper": paper, "check_id": check_id, "kind": kind, "verdict": verdict, "reason": reason,
                    "stability": stability})
    return pd.DataFrame(out)


def _claim(claim_id, *checks, **kw):
    base = dict(claim_id=claim_id, location="Section 1, Theorem 1", lines=(3, 5), type="upper_bound",
                statement=f"statement of {claim_id}")
    base.update(kw)
    return PaperClaim(**base, checks=checks) if checks else PaperClaim(**base)


def _judge(rows, claims, apart=(), sweep=None):
    paper = rows["paper"].iloc[0]
    return judge_claims(rows, sweep, {paper: (tuple(claims), tuple(apart))})


def test_the_rule_is_one_conjunction_with_a_stated_precedence():
    assert combine_verdicts(["PASS", "PASS"], ["supported", "supported"]) == ("PASS", "supported")
    assert combine_verdicts(["PASS", "FAIL", "FAIL"], ["supported", "contradicted", "erratum"]) == ("FAIL", "erratum")
    assert combine_verdicts(["PASS", "INCONCLUSIVE"], ["supported", "undecided"]) == ("INCONCLUSIVE", "undecided")
    assert combine_verdicts(["INCONCLUSIVE", "INCONCLUSIVE"], ["undecided", "no_power"]) == ("INCONCLUSIVE", "no_power")
    assert combine_verdicts(["FAIL", "INCONCLUSIVE"], ["not_reproduced", "no_power"]) == ("FAIL", "not_reproduced")


def test_one_defect_shown_by_two_rows_is_one_failing_claim():
    rows = _rows(("P-EXACT", "FAIL", "erratum"), ("P-AUDIT", "FAIL", "contradicted"), ("T-1", "PASS", "supported"))
    claims, apart = _judge(rows, [_claim("Thm8", "P-EXACT", "P-AUDIT"), _claim("Thm1", "T-*")])
    verdict = dict(zip(claims["claim_id"], zip(claims["verdict"], claims["reason"], strict=True), strict=True))
    assert verdict == {"Thm8": ("FAIL", "erratum"), "Thm1": ("PASS", "supported")}
    assert list(claims.columns) == CLAIM_COLUMNS and apart.empty
    assert claims.loc[claims.claim_id == "Thm8", "checks"].item() == "P-EXACT FAIL, P-AUDIT FAIL"


def test_a_verdict_that_differs_across_seeds_is_inconclusive_with_the_split():
    rows = _rows(("A", "PASS", "supported", "theorem", "1/5"), ("B", "PASS", "supported", "theorem", "5/5"),
                 ("C", "FAIL", "contradicted", "theorem", "5/5"))
    seeds = [7, 1, 2, 3, 4]
    sweep = pd.DataFrame([{"paper": "online", "check_id": c, "seed": s,
                           "verdict": ("PASS" if s == 7 else "INCONCLUSIVE") if c == "A" else v}
                          for c, v in (("A", ""), ("B", "PASS"), ("C", "FAIL")) for s in seeds])
    claims, _ = _judge(rows, [_claim("Thm2", "A", "B"), _claim("Thm3", "B"), _claim("Thm4", "A", "C")], sweep=sweep)
    got = {r.claim_id: (r.verdict, r.reason, r.stability) for r in claims.itertuples()}
    assert got["Thm2"] == ("INCONCLUSIVE", "seed_split", "PASS 1/5, INCONCLUSIVE 4/5")
    assert got["Thm3"] == ("PASS", "supported", "5/5")
    assert got["Thm4"] == ("FAIL", "contradicted", "5/5")  # FAIL under every seed, whatever A says
    # without a sweep (or rows the sweep does not hold), the reported verdicts stand, unmarked
    claims, _ = _judge(rows.assign(stability=""), [_claim("Thm2", "A", "B")], sweep=sweep)
    assert (claims.verdict.item(), claims.stability.item()) == ("PASS", "")


def test_a_consequence_of_a_root_cause_is_not_a_finding_of_its_own():
    rows = _rows(("F7", "FAIL", "not_reproduced"), ("F6", "INCONCLUSIVE", "no_power"), ("F8", "PASS", "supported"))
    claims, _ = _judge(rows, [_claim("Fig7", "F7", type="figure"),
                              _claim("Fig6", "F6", type="figure", root_cause="Fig7"),
                              _claim("Fig8", "F8", type="figure", root_cause="Fig7")])
    got = {r.claim_id: (r.verdict, r.reason) for r in claims.itertuples()}
    assert got == {"Fig7": ("FAIL", "not_reproduced"), "Fig6": ("INCONCLUSIVE", "consequence"),
                   "Fig8": ("PASS", "supported")}


def test_rows_apart_and_rows_of_no_claim_are_never_counted_as_the_papers():
    rows = _rows(("T-1", "PASS", "supported"), ("T-1-CONTROL", "PASS", "validated", "control"),
                 ("B8", "FAIL", "violated", "sanity"), ("X-AUDIT-MINE", "PASS", "supported", "baseline"),
                 ("R-1", "REPORT", "informational", "report"))
    claims, apart = _judge(rows, [_claim("Thm1", "T-1"), _claim("Fig1", "R-1", type="figure"),
                                  _claim("Lem6", unchecked="a proof step inside Theorem 5's proof")],
                           [CountedApart("*-CONTROL", "control", "negative control"),
                            CountedApart("B8", "specification", "the specification's sanity bar")])
    got = {r.claim_id: (r.verdict, r.reason) for r in claims.itertuples()}
    assert got == {"Thm1": ("PASS", "supported"), "Fig1": ("UNCHECKED", "shown_not_judged"),
                   "Lem6": ("UNCHECKED", "no_check")}
    assert claims.loc[claims.claim_id == "Lem6", "note"].item() == "a proof step inside Theorem 5's proof"
    assert dict(zip(apart.check_id, apart.category, strict=True)) == {
        "T-1-CONTROL": "control", "B8": "specification", "X-AUDIT-MINE": "unassigned"}
    table = render_claims_at_a_glance(claims, apart, TITLES, "smoke")
    assert "| `online` (Hu) | 3 | 1 | 0 | 0 | 2 | 0 errata, 0 contradicted, 0 not reproduced | 0, 0 " \
           "| 3 (2/3 PASS; FAIL: `B8`), 1 not in the inventory | - |" in table
    assert "Scale of these verdicts: smoke." in table
    linked = render_claims_at_a_glance(claims, apart, TITLES, "smoke", "reports/smoke")
    assert ("| [`online`](reports/smoke/online/replication.md) (Hu; [PDF](reports/smoke/online/replication.pdf)) "
            "| 3 | 1 |") in linked and "links its replication report" in linked
    md = render_claims_markdown(claims, apart, TITLES, "smoke")
    assert render_claims_at_a_glance(claims, apart, TITLES, "smoke", ".").split("\n\n")[0] in md  # linked beside it
    assert "- `Lem6` (no_check): statement of Lem6 Why: a proof step inside Theorem 5's proof" in md
    assert "| specification | `B8` FAIL | the specification's sanity bar |" in md


def test_a_users_rows_say_in_words_that_a_failed_control_is_the_audits_lack_of_power():
    """A researcher's correct class whose audit has no power shows INCONCLUSIVE beside a FAIL
    control: the users' section says that FAIL is the audit's, not the class's."""
    rows = _rows(("T-1", "PASS", "supported"), ("X-AUDIT-MINE", "INCONCLUSIVE", "no_power", "baseline"),
                 ("X-AUDIT-MINE-CONTROL", "FAIL", "violated", "control"),
                 ("X-REGRET-MINE", "REPORT", "informational", "report"),
                 ("X-AUDIT-LEAKY-CONTROL", "FAIL", "contradicted", "baseline"))  # a class named leaky_control
    claims, apart = _judge(rows, [_claim("Thm1", "T-1")],
                           [CountedApart("X-*", "user", "a researcher's own algorithm")])
    md = render_claims_markdown(claims, apart, TITLES, "smoke")
    assert ("| `online` | `X-AUDIT-MINE-CONTROL` | FAIL | violated | the audit's negative control (the class at a "
            "larger epsilon) is not caught: the audit has no power at its size; not a verdict on the class |") in md
    assert "| `online` | `X-AUDIT-MINE` | INCONCLUSIVE | no_power | no violation found at the audit's size, where" in md
    assert "| `X-REGRET-MINE` | REPORT | informational | a comparison with the paper's algorithms" in md
    assert ("| `X-AUDIT-LEAKY-CONTROL` | FAIL | contradicted | the privacy audit refutes the class's claimed "
            "epsilon |") in md


def test_the_glance_table_counts_claims_across_papers():
    online = _rows(("A", "FAIL", "erratum"), ("B", "PASS", "supported"))
    dueling = _rows(("C", "FAIL", "contradicted"), paper="dueling")
    inventories = {"online": ((_claim("Thm8", "A"), _claim("Thm1", "B")), ()), "dueling": ((_claim("Thm3", "C"),), ())}
    claims, apart = judge_claims(pd.concat([online, dueling]), None, inventories)
    table = render_claims_at_a_glance(claims, apart, TITLES)
    assert "| `dueling` (Saha & Asi) | 1 | 0 | 1 | 0 | 0 | 0 errata, 1 contradicted, 0 not reproduced | 0, 0 " \
           "| 0 (0/0 PASS) | `Thm3` |" in table
    assert "| **all** | 3 | 1 | 2 | 0 | 0 | 1 errata, 1 contradicted, 0 not reproduced | 0, 0 | 0 (0/0 PASS) |  |" \
        in table


@pytest.mark.parametrize("bad", [dict(lines=(5, 3)), dict(type="theorem"), dict(unchecked="why")])
def test_a_malformed_claim_names_its_field(bad):
    with pytest.raises(ValueError, match="PaperClaim"):
        _claim("Thm1", "T-1", **bad)
    with pytest.raises(ValueError, match="claim_id"):
        _claim("Thm 1", "T-1")
    with pytest.raises(ValueError, match="unchecked"):
        _claim("Thm1")  # neither checks nor why not
