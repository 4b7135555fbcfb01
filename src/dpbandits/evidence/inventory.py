"""The claim inventory: what each paper claims, where, and which check rows test it.

A check row (``reports/checks.csv``) is one statistic with one verdict; a claim of a paper is the
unit a reviewer counts. Each paper lists its claims in ``dpbandits.<paper>.checks.claims`` as
:class:`PaperClaim` records (every numbered result, every statement about its figures and tables,
and the statements the project found to be errata), and the check rows that are *not* a claim of
the paper as :class:`CountedApart` records (controls, a comparator's own claims, the
specification's corrections, implementation tests, identities, labelled additions). Every check
row of a paper-scale run belongs to one of the two (tests/test_claim_inventory.py).

A check is named by its row id or by an fnmatch pattern (``BT-4-*``) for rows a check writes per
setting.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

import pandas as pd

__all__ = ["PaperClaim", "CountedApart", "CLAIM_TYPES", "APART_CATEGORIES", "SOURCES", "matches",
           "CLAIM_VERDICTS", "CLAIM_REASONS", "CLAIM_COLUMNS", "APART_COLUMNS", "combine_verdicts",
           "claim_verdict", "load_inventory", "judge_claims", "papers_apart", "render_claims_at_a_glance",
           "render_claims_markdown", "markdown_cell", "user_row_meaning"]

# What a claim is (the types; ``property`` is a stated fact about an algorithm or quantity
# that is none of the others: a sample size, a constant's value, an algorithm's correctness).
CLAIM_TYPES = ("upper_bound", "lower_bound", "privacy", "proof_step", "property", "figure", "table")

# Why a check row is not a claim of the paper.
APART_CATEGORIES = {
    "control": "a negative control or a tool's validation: the check can see what it must see",
    "comparator": "a claim of a comparator (a baseline's own guarantee), not of the paper",
    "specification": "the specification's correction or sanity bar, not the paper's statement",
    "implementation": "a test of our implementation (an engine against its reference, a solver)",
    "identity": "a statistic fixed by the code's own constants: true by construction",
    "addition": "a labelled addition of this project beyond the paper (a wider grid, a diagnostic)",
    "user": "a row of a researcher's own algorithm (bring your own): never a claim of the paper",
}

# The papers' own text, in ../shared/papers/source/ (a claim's line range refers to this file).
SOURCES = {
    "online": "dp_online_learning.txt",
    "dueling": "dp_dueling.md",
    "quantile": "quantile_bandits.txt",
    "contextual": "ldp_contextual.txt",
}


def matches(pattern: str, check_id: str) -> bool:
    """Whether ``check_id`` is named by ``pattern`` (an id or an fnmatch pattern)."""
    return pattern == check_id or fnmatchcase(check_id, pattern)


@dataclass(frozen=True)
class PaperClaim:
    """One claim of a paper.

    ``claim_id``: short, unique within the paper (``Thm5``, ``Fig2-order``). ``location``: where the
    paper states it ("Section 4.2, Theorem 5"); ``lines``: the first and last line of the statement
    in the paper's source text (:data:`SOURCES`). ``type``: one of :data:`CLAIM_TYPES`.
    ``statement``: a one-line paraphrase. ``checks``: the check rows that test it (ids or
    patterns); a claim's verdict is derived from them (:func:`claim_verdict`).
    ``unchecked``: why it has no check (required exactly when ``checks`` is empty). ``root_cause``:
    the claim whose finding this one follows from (a figure reading that cannot come out because
    the faithful algorithm never leaves the uniform policy): its verdict is then not an
    independent finding. ``note``: what the checks do and do not test, a decision taken where the
    specification and the paper disagree, or an erratum's exact counterexample."""

    claim_id: str
    location: str
    lines: tuple[int, int]
    type: str
    statement: str
    checks: tuple[str, ...] = ()
    unchecked: str = ""
    root_cause: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if not self.claim_id or any(c.isspace() for c in self.claim_id):
            raise ValueError(f"PaperClaim.claim_id must be a non-empty word, got {self.claim_id!r}")
        if self.type not in CLAIM_TYPES:
            raise ValueError(f"PaperClaim {self.claim_id}: type must be one of {CLAIM_TYPES}, got {self.type!r}")
        first, last = self.lines
        if not (isinstance(first, int) and isinstance(last, int) and 1 <= first <= last):
            raise ValueError(f"PaperClaim {self.claim_id}: lines must be (first, last) with 1 <= first <= last, "
                             f"got {self.lines!r}")
        if bool(self.checks) == bool(self.unchecked):
            raise ValueError(f"PaperClaim {self.claim_id}: give either checks or the reason it is unchecked "
                             "(`unchecked`), not both and not neither")
        if not self.statement:
            raise ValueError(f"PaperClaim {self.claim_id}: statement must not be empty")

    def tested_by(self, check_id: str) -> bool:
        return any(matches(p, check_id) for p in self.checks)


@dataclass(frozen=True)
class CountedApart:
    """Check rows (an id or a pattern) that are not a claim of the paper, and why."""

    checks: str
    category: str
    why: str

    def __post_init__(self) -> None:
        if self.category not in APART_CATEGORIES:
            raise ValueError(f"CountedApart {self.checks}: category must be one of {tuple(APART_CATEGORIES)}, "
                             f"got {self.category!r}")
        if not self.why:
            raise ValueError(f"CountedApart {self.checks}: say why the rows are not a claim of the paper")


# ---- verdicts per claim ------------------------------------------------------------------------

# A claim's verdict, from its checks' rows (the rule of :func:`claim_verdict`). UNCHECKED: no
# check row judges it (the inventory says why, or its rows only show a value).
CLAIM_VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "UNCHECKED")
CLAIM_REASONS = {
    "PASS": ("supported",),
    "FAIL": ("erratum", "contradicted", "not_reproduced"),
    "INCONCLUSIVE": ("seed_split", "consequence", "no_power", "pre_asymptotic", "too_few_points", "surrogate_data",
                     "unvalidated_pipeline", "undecided"),
    "UNCHECKED": ("no_check", "shown_not_judged", "not_run"),
}
CLAIM_COLUMNS = ["paper", "claim_id", "location", "lines", "type", "statement", "verdict", "reason",
                 "stability", "checks", "root_cause", "note"]
APART_COLUMNS = ["paper", "check_id", "category", "kind", "verdict", "reason", "why"]
_FAIL_ORDER = CLAIM_REASONS["FAIL"]
_INCONCLUSIVE_ORDER = ("no_power", "pre_asymptotic", "too_few_points", "surrogate_data", "unvalidated_pipeline",
                       "undecided")


def combine_verdicts(verdicts: Sequence[str], reasons: Sequence[str] = ()) -> tuple[str, str]:
    """The rule from check rows to a claim (the rows are read as one conjunction, since a claim
    holds only where each of its tests holds): FAIL if any row FAILs (the reason by precedence
    erratum, contradicted, not reproduced); PASS if every row PASSes; else INCONCLUSIVE, with the
    first of no_power, pre_asymptotic, too_few_points, surrogate_data, unvalidated_pipeline,
    undecided among the rows' reasons."""
    reasons = list(reasons) or [""] * len(verdicts)
    if "FAIL" in verdicts:
        fails = {r for v, r in zip(verdicts, reasons, strict=True) if v == "FAIL"}
        return "FAIL", next((r for r in _FAIL_ORDER if r in fails), "contradicted")
    if verdicts and all(v == "PASS" for v in verdicts):
        return "PASS", "supported"
    found = set(reasons)
    return "INCONCLUSIVE", next((r for r in _INCONCLUSIVE_ORDER if r in found), "undecided")


def _split(per_seed: Sequence[str]) -> str:
    counts = Counter(per_seed)
    return ", ".join(f"{v} {counts[v]}/{len(per_seed)}" for v in CLAIM_VERDICTS if counts.get(v))


def claim_verdict(claim: PaperClaim, rows: pd.DataFrame, sweep: pd.DataFrame | None = None) -> dict:
    """One claim's verdict, reason and stability from its check rows (``rows``: the paper's rows
    of ``checks.csv``) and the stability sweep's table (``sweep``: one row per check and seed).

    A claim is PASS or FAIL only if every swept root seed gives that verdict: the rule of
    :func:`combine_verdicts` is applied per seed (a row the sweep does not hold, or holds stale,
    counts with its reported verdict under every seed); seeds that disagree make the claim
    INCONCLUSIVE ``seed_split``, with the split in ``stability`` ("PASS 1/5, INCONCLUSIVE 4/5").
    A claim with a root cause that does not PASS is INCONCLUSIVE ``consequence``: its reading
    follows from that claim's finding and is not counted as a finding of its own."""
    mine = rows[[claim.tested_by(i) for i in rows["check_id"]]] if len(rows) else rows
    listed = ", ".join(f"{i} {v}" for i, v in zip(mine["check_id"], mine["verdict"], strict=True)) if len(mine) else ""
    out = {"checks": listed, "stability": ""}
    if not claim.checks:
        return {**out, "verdict": "UNCHECKED", "reason": "no_check"}
    if mine.empty:
        return {**out, "verdict": "UNCHECKED", "reason": "not_run"}
    judged = mine[mine["verdict"] != "REPORT"]
    if judged.empty:
        return {**out, "verdict": "UNCHECKED", "reason": "shown_not_judged"}
    verdict, reason = combine_verdicts(list(judged["verdict"]), list(judged["reason"]))
    per_seed = _per_seed_verdicts(judged, sweep)
    if per_seed:
        out["stability"] = _split(per_seed) if len(set(per_seed)) > 1 else f"{len(per_seed)}/{len(per_seed)}"
        if len(set(per_seed)) > 1:
            verdict, reason = "INCONCLUSIVE", "seed_split"
    if claim.root_cause and verdict != "PASS":
        verdict, reason = "INCONCLUSIVE", "consequence"
    return {**out, "verdict": verdict, "reason": reason}


def _per_seed_verdicts(judged: pd.DataFrame, sweep: pd.DataFrame | None) -> list[str]:
    """The claim's verdict under each seed of the sweep (empty: none of its rows was swept)."""
    if sweep is None or sweep.empty:
        return []
    swept = judged[judged["stability"].fillna("") != ""] if "stability" in judged else judged.iloc[:0]
    if swept.empty:
        return []
    seeds = list(dict.fromkeys(sweep["seed"]))
    table = sweep[sweep["check_id"].isin(set(swept["check_id"])) & (sweep["paper"] == judged["paper"].iloc[0])]
    by_seed = {s: dict(zip(g["check_id"], g["verdict"], strict=True)) for s, g in table.groupby("seed", sort=False)}
    verdicts = []
    for seed in seeds:
        got = by_seed.get(seed, {})
        verdicts.append(combine_verdicts([got.get(i, v) for i, v in zip(judged["check_id"], judged["verdict"], strict=True)])[0])
    return verdicts


def load_inventory(paper: str) -> tuple[tuple[PaperClaim, ...], tuple[CountedApart, ...]]:
    """A paper's claims and the rows it counts apart (``dpbandits.<paper>.checks.claims``)."""
    module = importlib.import_module(f"dpbandits.{paper}.checks.claims")
    return module.CLAIMS, module.APART


def judge_claims(checks: pd.DataFrame, sweep: pd.DataFrame | None = None,
                 inventories: Mapping[str, tuple] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The claims table (one row per claim of each paper in ``checks``) and the table of the
    check rows counted apart. A row that neither tests a claim nor is listed apart (a user's own
    algorithm, a check added without its claim) is counted apart as ``unassigned``: it never counts
    as a claim of the paper."""
    claim_rows, apart_rows = [], []
    for paper, rows in checks.groupby("paper", sort=True):
        claims, apart = (inventories or {}).get(paper) or load_inventory(paper)
        for claim in claims:
            judged = claim_verdict(claim, rows, sweep)
            claim_rows.append({"paper": paper, "claim_id": claim.claim_id, "location": claim.location,
                               "lines": f"{claim.lines[0]}-{claim.lines[1]}", "type": claim.type,
                               "statement": claim.statement, **judged, "root_cause": claim.root_cause,
                               "note": claim.unchecked if not claim.checks else claim.note})
        for r in rows.itertuples(index=False):
            if any(c.tested_by(r.check_id) for c in claims):
                continue
            home = next((a for a in apart if matches(a.checks, r.check_id)), None)
            category, why = (home.category, home.why) if home else (
                "unassigned", "not in the paper's claim inventory (e.g. a user's own algorithm)")
            apart_rows.append({"paper": paper, "check_id": r.check_id, "category": category, "kind": r.kind,
                               "verdict": r.verdict, "reason": r.reason, "why": why})
    return (pd.DataFrame(claim_rows, columns=CLAIM_COLUMNS), pd.DataFrame(apart_rows, columns=APART_COLUMNS))


# ---- the claims table as Markdown ----------------------------------------------------------------

def markdown_cell(text) -> str:
    """Text fit for one cell of a Markdown table (pipes escaped, on one line)."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _fails(claims: pd.DataFrame) -> str:
    counts = claims.loc[claims["verdict"] == "FAIL", "reason"].value_counts()
    return ", ".join(f"{counts.get(r, 0)} {label}" for r, label in
                     (("erratum", "errata"), ("contradicted", "contradicted"), ("not_reproduced", "not reproduced")))


def papers_apart(apart: pd.DataFrame) -> pd.DataFrame:
    """The rows counted apart that belong to a paper's record: all but a researcher's own
    algorithms' (category ``user``), which no count or summary of a paper includes (they have a
    section of their own)."""
    return apart[apart["category"] != "user"]


def _user_note(apart: pd.DataFrame) -> str:
    users = apart[apart["category"] == "user"]
    if users.empty:
        return ""
    return (f" The {len(users)} rows of a researcher's own algorithms (`X-*`) are in no count of this table "
            "(`claims.md`, last section).")


def _apart_cell(apart: pd.DataFrame) -> str:
    judged = apart[apart["verdict"].isin(("PASS", "FAIL"))]
    failed = judged.loc[judged["verdict"] == "FAIL", "check_id"]
    cell = f"{len(apart)} ({int((judged['verdict'] == 'PASS').sum())}/{len(judged)} PASS"
    cell += f"; FAIL: {', '.join(f'`{c}`' for c in failed)})" if len(failed) else ")"
    unassigned = int((apart["category"] == "unassigned").sum())
    return cell + (f", {unassigned} not in the inventory" if unassigned else "")


def render_claims_at_a_glance(claims: pd.DataFrame, apart: pd.DataFrame, titles: Mapping[str, str],
                              scale: str = "", reports: str = "") -> str:
    """Per paper, the claims of the paper by verdict (the unit a reviewer counts), how many FAILs
    are errata, contradictions and figures not reproduced, how many claims are INCONCLUSIVE because
    their seeds disagree or because they follow from another finding, the check rows counted
    apart (not claims of the paper) and the ids of the failing claims. With ``reports`` (the
    reports folder, relative to where the table is read: ``reports`` from the README), each paper
    links its replication report and its PDF."""
    lines = ["| paper | claims | PASS | FAIL | INCONCLUSIVE | unchecked | FAILs: errata, contradicted, not reproduced "
             "| INCONCLUSIVE: seeds split, consequence of another finding | check rows counted apart (PASS/judged) "
             "| failing claims |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ours = papers_apart(apart)

    def row(name, mine, rows_apart, ids=True):
        counts = mine["verdict"].value_counts()
        inconclusive = mine.loc[mine["verdict"] == "INCONCLUSIVE", "reason"].value_counts()
        failing = ", ".join(f"`{c}`" for c in mine.loc[mine["verdict"] == "FAIL", "claim_id"]) if ids else ""
        return (f"| {name} | {len(mine)} | " + " | ".join(str(counts.get(v, 0)) for v in CLAIM_VERDICTS)
                + f" | {_fails(mine)} | {inconclusive.get('seed_split', 0)}, {inconclusive.get('consequence', 0)} "
                f"| {_apart_cell(rows_apart)} | {failing or ('-' if ids else '')} |")

    for paper, mine in claims.groupby("paper", sort=True):
        name = f"`{paper}` ({titles[paper].split(',')[0]})" if paper in titles else f"`{paper}`"
        if reports and paper in titles:
            name = (f"[`{paper}`]({reports}/{paper}/replication.md) ({titles[paper].split(',')[0]}; "
                    f"[PDF]({reports}/{paper}/replication.pdf))")
        lines.append(row(name, mine, ours[ours["paper"] == paper]))
    lines.append(row("**all**", claims, ours, ids=False))
    lines += ["", "Each claim of a paper counts once, whatever the number of its check rows (`claims.md`: the "
              "claims, where each is stated, the rule from rows to a claim's verdict; `checks.md`: every check "
              "row). A claim is PASS or FAIL only if every root seed of the stability sweep gives that verdict."
              + (" Each paper's name links its replication report, the document to read first." if reports else "")
              + _user_note(apart) + (f" Scale of these verdicts: {scale}." if scale else "")]
    return "\n".join(lines)


def render_claims_markdown(claims: pd.DataFrame, apart: pd.DataFrame, titles: Mapping[str, str],
                           scale: str = "") -> str:
    """``claims.md``: the rule, the glance table, then per paper its claims (where stated, type,
    paraphrase, verdict, reason, stability over the seeds, the check rows that test it), the
    failing, inconclusive and unchecked claims with their notes, and the rows counted apart."""
    lines = ["# Claims of the papers and their verdicts", "",
             "One row per claim of a paper: every numbered result, every statement about a figure or table, and",
             "the statements found to be errata, each with where the paper states it (section, number, lines of",
             "the paper's text). A claim's verdict comes from the check rows that test it (`checks.md`), read as",
             "one conjunction: FAIL if any row FAILs (reason by precedence: erratum, contradicted, not",
             "reproduced), PASS if every row PASSes, else INCONCLUSIVE. The rule is applied under every root seed",
             "of the stability sweep; seeds that disagree make the claim INCONCLUSIVE `seed_split` (the split",
             "is shown). A claim whose reading follows from another claim's finding (its root cause) and does",
             "not PASS is INCONCLUSIVE `consequence`, not a finding of its own. UNCHECKED: no row judges it",
             "(`no_check`: the note says why; `shown_not_judged`: its rows only report a value; `not_run`: its",
             "checks do not run at this scale). Check rows that are not a claim of the paper (controls, a",
             "comparator's own claims, the specification's corrections, implementation tests, identities,",
             "additions) are counted apart, at the end of each paper's section.", "",
             "## At a glance", "", render_claims_at_a_glance(claims, apart, titles, scale, "."), ""]
    for paper, mine in claims.groupby("paper", sort=True):
        counts = mine["verdict"].value_counts()
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), "",
                  f"**{len(mine)} claims:** " + ", ".join(f"{counts.get(v, 0)} {v}" for v in CLAIM_VERDICTS)
                  + f"; FAILs: {_fails(mine)}.", "",
                  "| claim | where (lines) | type | statement | verdict | reason | seeds | check rows |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in mine.itertuples(index=False):
            cells = [f"`{r.claim_id}`", f"{r.location} ({r.lines})", r.type, r.statement, f"**{r.verdict}**",
                     r.reason + (f" (of `{r.root_cause}`)" if r.root_cause else ""), r.stability, r.checks]
            lines.append("| " + " | ".join(markdown_cell(c) for c in cells) + " |")
        for verdict, title in (("FAIL", "Failing claims"), ("INCONCLUSIVE", "Inconclusive claims"),
                               ("UNCHECKED", "Unchecked claims, and why")):
            rows = mine[mine["verdict"] == verdict]
            if len(rows):
                lines += ["", f"{title}:"]
                lines += [f"- `{r.claim_id}` ({r.reason}{f', seeds: {r.stability}' if r.reason == 'seed_split' else ''})"
                          f": {r.statement}" + (f" {'Why' if verdict == 'UNCHECKED' else 'Note'}: {r.note}" if r.note else "")
                          for r in rows.itertuples()]
        mine_apart = papers_apart(apart[apart["paper"] == paper])
        if len(mine_apart):
            lines += ["", f"Check rows counted apart (not claims of the paper): {_apart_cell(mine_apart)}.", "",
                      "| category | rows (verdict) | why |", "|---|---|---|"]
            for (category, why), g in mine_apart.groupby(["category", "why"], sort=True):
                ids = ", ".join(f"`{i}` {v}" for i, v in zip(g["check_id"], g["verdict"], strict=True))
                lines.append(f"| {category} | {markdown_cell(ids)} | {markdown_cell(why)} |")
        lines.append("")
    users = apart[apart["category"] == "user"]
    if len(users):
        lines += ["## A researcher's own algorithms (never a claim of a paper)", "",
                  "The rows of the algorithms named under `<paper>.extra_algorithms` in the config: their audits, "
                  "negative controls and comparisons with the paper's algorithms. No count above includes them.", "",
                  "| paper | row | verdict | reason | what the row says |", "|---|---|---|---|---|"]
        lines += ["| " + " | ".join(markdown_cell(x) for x in (f"`{r.paper}`", f"`{r.check_id}`", r.verdict, r.reason,
                                                               user_row_meaning(r.check_id, r.kind, r.verdict)))
                  + " |" for r in users.itertuples(index=False)]
        lines.append("")
    return "\n".join(lines)


def user_row_meaning(check_id: str, kind: str, verdict: str) -> str:
    """What a row of a researcher's own algorithm says, in words (its verdict read for the class),
    by the row's kind (a name may end in "control" without being a control): above all that a FAIL
    of an audit's negative control is the audit's lack of power, not a leak of the class."""
    if kind == "control":
        return {"PASS": "the audit's negative control (the class at a larger epsilon) is caught: the audit has power "
                        "at its size",
                "FAIL": "the audit's negative control (the class at a larger epsilon) is not caught: the audit has no "
                        "power at its size; not a verdict on the class"}.get(verdict, "the audit's negative control")
    if kind == "baseline" and check_id.startswith("X-AUDIT-"):
        return {"PASS": "no violation found by the privacy audit at its claimed epsilon, with power there",
                "FAIL": "the privacy audit refutes the class's claimed epsilon",
                "INCONCLUSIVE": "no violation found at the audit's size, where the audit lacks power (checks.md "
                                "names what it missed)"}.get(verdict, "the class's privacy audit")
    if check_id.startswith("X-AUDIT-"):
        return "not audited (checks.md gives the reason)"
    return "a comparison with the paper's algorithms (informational)"
