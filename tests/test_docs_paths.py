"""Every file or folder of the repository that the README and the contributor's guide name
exists: a path in backquotes (`src/...`, `workflow/...`, `reports/...`, ...), with `<paper>`
standing for each of the four papers, another `<placeholder>` or `*` for any name, and
`{a,b}` for each alternative. Outputs that a run writes but git does not track (results/,
logs/, the smoke reports, the HTML report) are not looked for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "CONTRIBUTING.md", "docs/verdicts.md", "docs/workflow.md", "docs/library.md")
PAPERS = ("online", "dueling", "quantile", "contextual")
TOP = ("src/", "workflow/", "config/", "tests/", "benchmarks/", "examples/", "reports/", "profiles/", "docs/",
       ".ci/")
UNTRACKED = ("results/", "logs/", "reports/smoke", "reports/report.html", "reports/report.zip")
TOKEN = re.compile(r"`([^`\s]+)`")


def _expand(path: str) -> list[str]:
    """Brace alternatives and <paper> made concrete; other placeholders become globs."""
    out = [path]
    while any("{" in p for p in out):
        new = []
        for p in out:
            m = re.search(r"\{([^{}]*)\}", p)
            if not m:
                new.append(p)
                continue
            new += [p[: m.start()] + alt + p[m.end():] for alt in m.group(1).split(",")]
        out = new
    out = [p.replace("<paper>", paper) for p in out for paper in (PAPERS if "<paper>" in p else ("",))]
    return [re.sub(r"<[^<>]+>", "*", p) for p in out]


def mentioned_paths(text: str) -> set[str]:
    found = set()
    for token in TOKEN.findall(text):
        token = token.rstrip(".,;:)").split(":")[0]
        if token.startswith(TOP) and not token.startswith(UNTRACKED):
            found.add(token)
    return found


def test_the_scan_finds_paths_and_expands_them():
    assert mentioned_paths("see `src/dpbandits/records.py`, and `make test`.") == {"src/dpbandits/records.py"}
    assert _expand("reports/figures/<paper>/fig1.{pdf,png}")[:2] == ["reports/figures/online/fig1.pdf",
                                                                     "reports/figures/dueling/fig1.pdf"]


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc):
    text = (ROOT / doc).read_text()
    paths = mentioned_paths(text)
    assert paths, f"{doc} names no path: the scan is broken"
    missing = []
    for path in sorted(paths):
        for concrete in _expand(path):
            found = any(ROOT.glob(concrete.rstrip("/"))) if "*" in concrete else (ROOT / concrete).exists()
            if not found:
                missing.append(concrete)
    assert not missing, f"{doc} names paths that do not exist: {missing}"


OLD_NAMES = ("dpbandits.experiments", "dpbandits/experiments/", "check_registry", "dpbandits.registry",
             "dpbandits.guards", "dpbandits.claims", "dpbandits.config", "dpbandits.workflow_guard",
             "dpbandits.provenance", "dpbandits/registry.py", "dpbandits/guards.py", "dpbandits/config.py")


def test_the_docs_name_no_moved_module_at_its_old_place():
    for doc in DOCS:
        text = (ROOT / doc).read_text()
        assert not [name for name in OLD_NAMES if name in text], doc


def _module_exists(name: str) -> bool:
    path = ROOT / "src" / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_every_module_a_docstring_names_exists():
    """``:mod:`` references in the library's docstrings (relative ``.x``, absolute ``dpbandits.x``,
    or a bare name in the same package) name modules that exist: the package docstrings are a
    newcomer's map of each paper."""
    missing = []
    for path in sorted((ROOT / "src" / "dpbandits").rglob("*.py")):
        parts = path.relative_to(ROOT / "src").with_suffix("").parts
        package = parts[:-1]
        for ref in re.findall(r":mod:`~?([.\w]+)`", path.read_text()):
            if ref.startswith("."):
                lead = len(ref) - len(ref.lstrip("."))
                base = list(package[: len(package) - (lead - 1)])
                name = ".".join([*base, ref.lstrip(".")] if ref.lstrip(".") else base)
            elif ref.startswith("dpbandits"):
                name = ref
            else:
                name = ".".join([*package, ref])
            if not _module_exists(name):
                missing.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not missing, missing


SECTION = re.compile(r'\((README|CONTRIBUTING\.md|docs/\w+\.md), "([^"]+)"', re.S)


def test_a_section_a_source_file_cites_exists_and_no_file_cites_notes_outside_the_repository():
    """A docstring or comment that sends the reader to a section of the README or of a guide (the
    file's name, then the section's title in double quotes, in parentheses) names a heading of that
    file; and no file of the repository cites the maintainers' architecture notes, which live
    outside it."""
    files = [p for top in ("src", "examples", "tests", "workflow") for p in (ROOT / top).rglob("*")
             if p.suffix in (".py", ".smk", ".md", ".rst") and "__pycache__" not in p.parts]
    files.append(ROOT / "Snakefile")
    missing, outside = [], []
    for path in files:
        text = path.read_text()
        if "ARCHITECTURE" + ".md" in text:
            outside.append(str(path.relative_to(ROOT)))
        for doc, section in SECTION.findall(text):
            target = ROOT / ("README.md" if doc == "README" else doc)
            titles = re.findall(r"^#+ (.+)$", target.read_text(), re.M)  # a title with or without its "(...)"
            headings = {h.strip() for h in titles} | {h.split(" (")[0].strip() for h in titles}
            if " ".join(section.split()) not in headings:
                missing.append(f"{path.relative_to(ROOT)}: ({doc}, {section!r})")
    assert not outside, f"files citing notes outside the repository: {outside}"
    assert not missing, f"sections that do not exist: {missing}"
