"""The library's layers (CONTRIBUTING.md, "Where things are"), asserted over its static import graph:
every ``import`` and ``from ... import`` anywhere in a module (also inside functions), relative
imports resolved.

* the core (rng, io, params, plotting, tables, progress, mechanisms, stats, sim, envs, audit)
  imports only the core;
* the evidence wing (``dpbandits.evidence``) imports the core and itself;
* a paper's algorithms (``dpbandits.<paper>`` outside ``experiments`` and ``checks``) import the
  core and that paper's algorithms;
* a paper's experiments import the core, its algorithms and its experiments;
* a paper's checks import the core, the evidence wing and anything of that paper;
* the workflow wing (``dpbandits.workflow``) may import anything; nothing else imports it;
* no paper imports another, and no two modules import each other (directly or through others).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "dpbandits"
PAPERS = ("online", "dueling", "quantile", "contextual")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The ``dpbandits`` modules that ``name`` imports (a name imported from a package counts as
    the submodule when there is one, else as the package)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            if module.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                full = f"{module}.{alias.name}"
                found.add(full if full in MODULES else module)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer(name: str) -> tuple[str, str | None]:
    """(layer, paper) of a module: core, evidence, workflow, algorithms, experiments or checks."""
    parts = name.split(".")
    if len(parts) == 1:
        return "core", None
    if parts[1] in ("evidence", "workflow"):
        return parts[1], None
    if parts[1] in PAPERS:
        if len(parts) > 2 and parts[2] in ("experiments", "checks"):
            return parts[2], parts[1]
        return "algorithms", parts[1]
    return "core", None


ALLOWED = {
    "core": {"core"},
    "evidence": {"core", "evidence"},
    "algorithms": {"core", "algorithms"},
    "experiments": {"core", "algorithms", "experiments"},
    "checks": {"core", "evidence", "algorithms", "experiments", "checks"},
    "workflow": {"core", "evidence", "algorithms", "experiments", "checks", "workflow"},
}


def test_the_graph_sees_every_layer():
    layers = {layer(name)[0] for name in MODULES}
    assert layers == set(ALLOWED), layers
    for paper in PAPERS:
        assert {layer(n)[0] for n in MODULES if layer(n)[1] == paper} == {"algorithms", "experiments", "checks"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_import_runs_up_a_layer_or_across_papers(name):
    own, paper = layer(name)
    wrong = []
    for target in sorted(GRAPH[name]):
        theirs, their_paper = layer(target)
        if theirs not in ALLOWED[own]:
            wrong.append(f"{target} ({theirs})")
        elif their_paper is not None and paper is not None and their_paper != paper:
            wrong.append(f"{target} (another paper)")
    assert not wrong, f"{name} ({own}) imports {', '.join(wrong)}"


def test_no_import_cycles():
    """Tarjan's strongly connected components of the module graph: each must be one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(MODULES):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


def test_the_layer_rules_catch_a_wrong_import():
    """The rules are not vacuous: an algorithm importing its checks, the core importing the
    evidence wing, and one paper importing another are each reported."""
    def violations(src_name, target):
        own, paper = layer(src_name)
        theirs, their_paper = layer(target)
        return theirs not in ALLOWED[own] or (paper and their_paper and paper != their_paper)

    assert violations("dpbandits.online.api", "dpbandits.online.checks.registry")
    assert violations("dpbandits.audit.blackbox", "dpbandits.evidence.claims")
    assert violations("dpbandits.quantile.checks.seq", "dpbandits.online.api")
    assert violations("dpbandits.evidence.guards", "dpbandits.workflow.config")
    assert not violations("dpbandits.online.checks.bandit", "dpbandits.online.experiments.bandit_designs")


WORKFLOW_ONLY = ("yaml", "jsonschema", "snakemake", "nbformat", "nbclient", "nbconvert", "ipykernel")


def _third_party(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_library_needs_no_workflow_dependency():
    """``pip install dpbandits`` (no extra) gives every module outside ``dpbandits.workflow``:
    none of them imports a package of the ``workflow`` extra (pyproject.toml)."""
    import tomllib

    project = tomllib.loads((SRC.parent / "pyproject.toml").read_text())["project"]
    base = " ".join(project["dependencies"])
    extra = " ".join(project["optional-dependencies"]["workflow"])
    for package in WORKFLOW_ONLY:
        distribution = {"yaml": "pyyaml"}.get(package, package)
        assert distribution in extra and distribution not in base, package
    offenders = {name: sorted(_third_party(path) & set(WORKFLOW_ONLY))
                 for name, path in MODULES.items() if layer(name)[0] != "workflow"}
    assert not {k: v for k, v in offenders.items() if v}
