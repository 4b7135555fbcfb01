"""The reviewer's view on the smoke run: the Snakemake report opens in headless
Chromium without errors and lists every figure with a caption, every table compiles in one LaTeX
document with a real pdflatex, checks.md holds every check row and claims.md every claim, and the
exploration notebook ran."""

from __future__ import annotations

import re
import shutil
import subprocess

import pandas as pd
import pytest
from workflow_runner import SMOKE_REPORTS, copy_run, ensure_apt_packages, run_snakemake

from dpbandits.workflow.captions import caption_checks

pytestmark = pytest.mark.workflow

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _figures(work):
    """Every figure of the run, as the PNG the report shows (each PDF has its PNG twin)."""
    pngs = sorted(p.relative_to(work).as_posix() for p in (work / SMOKE_REPORTS / "figures").rglob("*.png"))
    pdfs = {p.with_suffix(".png").relative_to(work).as_posix()
            for p in (work / SMOKE_REPORTS / "figures").rglob("*.pdf")}
    assert pdfs == set(pngs), "every figure is written as PDF and PNG"
    return pngs


@pytest.fixture(scope="module")
def report_html(smoke_run, tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    work = copy_run(smoke_run, base / "run")
    out = base / "report.html"
    proc = run_snakemake(work, "--report", str(out), "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-2000:]  # docutils warnings in captions
    return out


def test_every_table_compiles_in_one_latex_document(smoke_run, tmp_path):
    pdflatex = ensure_apt_packages("pdflatex", ["texlive-latex-base", "texlive-latex-recommended"])
    tables = shutil.copytree(smoke_run / SMOKE_REPORTS / "tables", tmp_path / "tables")
    doc = (tables / "all_tables.tex").read_text()
    inputs = sorted(p.relative_to(tables).with_suffix("").as_posix()
                    for p in tables.glob("*/*.tex"))
    assert inputs and all(f"\\input{{{i}}}" in doc for i in inputs), "a table is missing"
    for _ in range(2):  # longtable settles its column widths on the second pass
        proc = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "all_tables.tex"],
                              cwd=tables, capture_output=True, text=True, timeout=600)
        log = (tables / "all_tables.log").read_text(errors="replace")
        errors = [line for line in log.splitlines() if line.startswith("!")]
        assert proc.returncode == 0 and not errors, "\n".join(errors) or proc.stdout[-3000:]
    assert "Float too large" not in log  # long check tables break across pages
    assert (tables / "all_tables.pdf").stat().st_size > 10_000


def test_the_report_opens_in_chromium_and_lists_every_figure(smoke_run, report_html, tmp_path):
    from playwright.sync_api import sync_playwright

    chromium = ensure_apt_packages("chromium", ["chromium"])
    work = smoke_run
    figures = _figures(work)
    categories = sorted({f.split("/")[3] for f in figures})  # reports/smoke/figures/<paper>/...
    errors, listed = [], set()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        page.on("console", lambda m: errors.append(f"console error: {m.text}") if m.type == "error" else None)
        page.goto(report_html.as_uri())
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(tmp_path / "index.png"))
        body = page.inner_text("body")
        assert "dpbandits-replication" in body and "Claims" in body
        for category in categories:
            page.goto(report_html.as_uri())
            page.wait_for_load_state("networkidle")
            page.get_by_text(category, exact=True).first.click()
            page.wait_for_timeout(300)
            subcategories = [s for s in page.inner_text("body").splitlines()
                             if s.startswith(("Check ", "Figure")) or s == "Tables"]
            assert subcategories, f"category {category} lists nothing"
            for sub in subcategories:
                page.get_by_text(sub, exact=True).first.click()
                page.wait_for_timeout(300)
                listed |= {line.strip() for line in page.inner_text("body").splitlines()
                           if line.strip().startswith(SMOKE_REPORTS + "/")}
                page.get_by_text(category, exact=True).first.click()  # back to the category
                page.wait_for_timeout(200)
        # the claims and the check rows in their own category, and each paper's replication PDF
        page.goto(report_html.as_uri())
        page.wait_for_load_state("networkidle")
        page.get_by_text("Claims", exact=True).first.click()
        page.wait_for_timeout(300)
        results = {line.strip() for line in page.inner_text("body").splitlines()}
        assert {f"{SMOKE_REPORTS}/claims.csv", f"{SMOKE_REPORTS}/checks.csv"} <= results
        for paper in categories:
            page.goto(report_html.as_uri())
            page.wait_for_load_state("networkidle")
            page.get_by_text(paper, exact=True).first.click()
            page.wait_for_timeout(300)
            page.get_by_text("Replication report", exact=True).first.click()
            page.wait_for_timeout(300)
            assert f"{SMOKE_REPORTS}/{paper}/replication.pdf" in page.inner_text("body"), paper
        browser.close()
    assert (tmp_path / "index.png").stat().st_size > 20_000  # a rendered page, not a blank one
    assert not errors, errors
    missing = [f for f in figures if f not in listed]
    assert not missing, f"figures not in the report: {missing}"


def test_every_figure_has_a_caption_with_its_verdicts(smoke_run, repo):
    work = smoke_run
    claims = pd.read_csv(work / SMOKE_REPORTS / "checks.csv", dtype={"check_id": str})
    captions = work / "results/smoke/report/captions"
    for template in sorted((repo / "workflow/report").glob("*/*.rst")):
        rendered = (captions / template.relative_to(repo / "workflow/report")).read_text()
        assert ".. verdicts::" not in rendered
        mine = claims[claims.paper == template.parent.name]
        for check in caption_checks(template.read_text()):
            ids = mine.loc[(mine.check_id == check) | mine.check_id.str.startswith(f"{check}-"), "check_id"]
            assert len(ids), f"{template.name} names {check}, which has no claim row"
            assert all(f"``{i}``" in rendered for i in ids), (template.name, check)
    # every figure's rule points at a caption template (checked through the rendered names)
    names = {p.stem for p in captions.glob("*/*.rst")}
    for fig in _figures(work):
        stem = fig.rsplit("/", 1)[1].removesuffix(".png").removesuffix("_logx")
        assert stem in names or stem.rstrip("0123456789") in names, f"no caption for {fig}"


def test_checks_md_holds_every_row_and_claims_md_every_claim_and_the_glance_table(smoke_run):
    from dpbandits.evidence.inventory import CLAIM_COLUMNS, CLAIM_VERDICTS, load_inventory

    work = smoke_run
    checks = pd.read_csv(work / SMOKE_REPORTS / "checks.csv", dtype={"check_id": str})
    assert all(f"| {c} |" in (work / SMOKE_REPORTS / "checks.md").read_text() for c in checks.check_id)
    claims = pd.read_csv(work / SMOKE_REPORTS / "claims.csv", dtype=str, keep_default_na=False)
    apart = pd.read_csv(work / SMOKE_REPORTS / "claims_apart.csv", dtype=str, keep_default_na=False)
    assert list(claims.columns) == CLAIM_COLUMNS and set(claims.verdict) <= set(CLAIM_VERDICTS)
    for paper, group in claims.groupby("paper"):  # every claim of the inventory, once
        assert list(group.claim_id) == [c.claim_id for c in load_inventory(paper)[0]], paper
    # every check row is either named by a claim's checks or counted apart
    named = {i.split(" ")[0] for cell in claims.checks if cell for i in cell.split(", ")}
    assert set(checks.check_id) == named | set(apart.check_id)
    # the user's own algorithms (the smoke config's examples) are never claims of the paper
    assert set(checks.check_id[checks.check_id.str.startswith("X-")]) <= set(apart.check_id)
    md = (work / SMOKE_REPORTS / "claims.md").read_text()
    glance = (work / SMOKE_REPORTS / "claims_at_a_glance.md").read_text()
    # the same table; the links to the reports are relative to the README (glance) or to claims.md
    def same_links(text):
        return re.sub(r"\]\((?:[^()]*/)?(\w+/replication\.(?:md|pdf))\)", r"](\1)", text)

    assert "(reports/smoke/online/replication.md)" in glance and "(./online/replication.md)" in md
    assert same_links(glance.split("\n\n")[0]) in same_links(md)
    for paper, group in claims.groupby("paper"):
        for r in group.itertuples():
            assert f"| `{r.claim_id}` |" in md, (paper, r.claim_id)
            if r.verdict == "FAIL":  # every failing claim named in the glance table, with its reason
                assert f"`{r.claim_id}`" in glance and f"- `{r.claim_id}` ({r.reason}" in md, (paper, r.claim_id)
