"""Provenance: every output reflects the config and code that made it. On a copy of the
finished smoke tree, one change at a time, `snakemake -n` must plan exactly the jobs that depend
on it (Snakemake's params trigger on each job's declared config values, ``params.config``, and on
the digest of the code it runs, ``params.code``), and nothing else; a content-identical checkout
plans nothing. Also the unit tests of dpbandits.workflow.provenance."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from workflow_runner import copy_run, run_snakemake

from dpbandits.evidence import registry
from dpbandits.workflow.provenance import code_digest, import_closure, select_config

SMOKE = ["--cores", "2", "--configfile", "config/smoke.yaml"]

# the rules downstream of every claim: they rerun whenever any check does
REPORTING = {"checks", "claims", "claims_at_a_glance", "replication_report", "replication_report_pdf",
             *[f"claims_summary_{p}" for p in registry.PAPERS], "report_captions", "all_tables",
             "explore_notebook", "all"}


# ---------------------------------------------------------------------------------------------
# Units


def test_select_config_keeps_exactly_the_paths_in_config_order():
    cfg = {"seed": 1, "scale": "smoke", "a": {"x": 1, "y": {"p": 2, "q": 3}, "z": [1, 2]}}
    assert select_config(cfg, ["a.y.q", "seed"]) == {"seed": 1, "a": {"y": {"q": 3}}}
    assert list(select_config(cfg, ["a.z", "a.x"])["a"]) == ["x", "z"]  # the config's order
    assert select_config(cfg, ["a.y", "a.y.p"]) == {"a": {"y": {"p": 2, "q": 3}}}  # a section wins
    with pytest.raises(KeyError, match="'a.w' is missing"):
        select_config(cfg, ["a.w"])


def test_code_digest_follows_imports_and_contents(tmp_path):
    closure = {p.name for p in import_closure(["dpbandits.quantile.checks.dp"])}
    assert {"dp.py", "dp_seq.py", "claims.py", "checks.py", "core.py"} <= closure
    assert "ldpmab.py" not in closure  # no other paper
    script = tmp_path / "entry.py"
    script.write_text("from dpbandits.quantile import dp_seq\n")
    one = code_digest(script)
    script.write_text("from dpbandits.quantile import dp_seq\n\n# a comment\n")
    assert code_digest(script) != one  # contents, not times
    script.write_text("from dpbandits.quantile import dp_seq\n")
    os.utime(script, (1, 1))
    assert code_digest(script) == one
    elsewhere = tmp_path / "zzz" / "entry.py"  # another place: sorts after the package's files
    elsewhere.parent.mkdir()
    elsewhere.write_text(script.read_text())
    assert code_digest(elsewhere) == one


# ---------------------------------------------------------------------------------------------
# On a finished smoke tree


def _planned(work: Path, *args: str, env: dict | None = None) -> dict[str, int]:
    """Rule -> number of jobs `snakemake -n` plans."""
    proc = run_snakemake(work, "-n", *args, env=env, timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    out = proc.stdout
    if "Nothing to be done" in out + proc.stderr:
        return {}
    stats = out[out.index("Job stats:"):]
    found = {}
    for line in stats.splitlines()[3:]:
        m = re.match(r"^(\S+)\s+(\d+)$", line.strip())
        if not m or m.group(1) == "total":
            break
        found[m.group(1)] = int(m.group(2))
    return found


@pytest.fixture
def tree(smoke_run, tmp_path):
    """A copy of the finished smoke tree (times and Snakemake's metadata kept)."""
    return copy_run(smoke_run, tmp_path / "tree")


def _edit_smoke(work: Path, path: str, value) -> None:
    cfg_path = work / "config/smoke.yaml"
    cfg = yaml.safe_load(cfg_path.read_text())
    node = cfg
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = value
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False))


def _rules_of(paper: str) -> set[str]:
    return {c.rule for c in registry.checks_of(paper).values()}


@pytest.mark.workflow
def test_nothing_changed_plans_nothing(tree):
    assert _planned(tree, *SMOKE) == {}


@pytest.mark.workflow
def test_a_horizon_reruns_exactly_its_designs_and_their_checks(tree):
    _edit_smoke(tree, "online.full_info.horizon", 20000)
    ft = registry.in_module("online", "dpbandits.online.checks.full_info").values()
    rules = {c.rule for c in ft} | {f"{c.rule}_figure" for c in ft if c.figure}
    planned = _planned(tree, *SMOKE)
    assert set(planned) == {"online_full_info_simulate", *rules, "online_checks_table", *REPORTING}
    assert planned["online_full_info_simulate"] == 7


@pytest.mark.workflow
def test_a_run_count_reruns_exactly_the_designs_that_read_it(tree):
    _edit_smoke(tree, "quantile.dp.k_runs", 3)
    planned = _planned(tree, *SMOKE)
    assert planned.pop("quantile_simulate") == 1  # dp_k only
    assert set(planned) == {"quantile_dp_cost_vs_K", "quantile_dp_cost_vs_K_figure", "quantile_run_records",
                            "quantile_checks_table", *REPORTING}


@pytest.mark.workflow
def test_a_new_grid_value_adds_its_cells_and_reruns_nothing_else_upstream(tree):
    _edit_smoke(tree, "online.figures.epsilons", [0.25, 0.5, 0.75, 1.0])
    planned = _planned(tree, *SMOKE)
    assert planned["online_simulate"] == 2 * 4 * 2  # settings x algorithms x blocks at the new eps only
    assert "online_full_info_simulate" not in planned and "online_bandit_simulate" not in planned
    assert not any(r.startswith(("dueling", "quantile", "contextual")) for r in planned)
    assert {"online_aggregate", "online_figure", "online_final_regret_table", "online_check_fig_c1"} <= set(planned)


@pytest.mark.workflow
def test_jobs_rerun_only_for_what_they_read_of_an_extra_algorithm(tree):
    """An extra algorithm's label reruns its audit's text and the drawings, not its simulations;
    the paper's audit size reruns the paper's audits, not the extra algorithms' (they have their
    own audit_samples)."""
    cfg_path = tree / "config/smoke.yaml"
    original = cfg_path.read_text()
    cfg = yaml.safe_load(original)
    cfg["online"]["extra_algorithms"][0]["label"] = "DP-UCB (renamed)"
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    planned = _planned(tree, *SMOKE)
    assert "online_extra_simulate" not in planned and "online_simulate" not in planned
    assert {"online_extra_audit", "online_figure"} <= set(planned)
    cfg_path.write_text(original)
    _edit_smoke(tree, "online.audit.samples", 50000)
    planned = _planned(tree, *SMOKE)
    assert "audit_online_dp_se" in planned and "online_extra_audit" not in planned


@pytest.mark.workflow
def test_another_seed_reruns_every_seeded_job_and_no_exact_check(tree):
    planned = _planned(tree, *SMOKE, "--config", "seed=8")
    exact = {c.rule for c in registry.all_checks() if not c.seeded and not c.inputs}
    assert exact and not exact & set(planned)
    for rule in ("online_simulate", "dueling_alg2_simulate", "quantile_simulate", "contextual_simulate"):
        assert rule in planned
    seeded = {c.rule for c in registry.all_checks()} - exact
    assert seeded <= set(planned)


@pytest.mark.workflow
def test_another_scale_never_reuses_the_smoke_results(tree):
    planned = _planned(tree, "--cores", "2", "--config", "scale=paper")  # paper-scale config otherwise
    assert planned["online_simulate"] > 0 and planned["claims"] == 1
    exact = {c.rule for c in registry.all_checks() if not c.seeded and not c.inputs}
    assert exact <= set(planned)  # even the exact checks: their results/paper/exact root is empty


@pytest.mark.workflow
def test_a_library_edit_reruns_exactly_the_rules_that_run_it(tree, repo):
    src = Path(shutil.copytree(repo / "src", tree / "src_copy"))
    env = {**os.environ, "PYTHONPATH": str(src)}
    assert _planned(tree, *SMOKE, env=env) == {}  # a content-identical checkout elsewhere
    target = src / "dpbandits/quantile/qlucb.py"
    target.write_text(target.read_text() + "\n# an edit\n")
    planned = _planned(tree, *SMOKE, env=env)
    assert planned["quantile_simulate"] == 21  # every design: the script imports every engine
    assert not any(r.startswith(("online", "dueling", "contextual", "audit")) for r in planned), planned
    checks = {r for r in planned if r in _rules_of("quantile")}
    assert checks and "quantile_conventions" not in checks  # exact analytic checks do not import it


def test_the_import_scan_finds_every_import_the_parser_finds():
    """The digest's text scan of imports (fast: the workflow asks for hundreds of closures) misses
    nothing the Python parser finds, in every module of the package and every entry point."""
    import ast

    from dpbandits.workflow import provenance as pv

    def parsed(path):
        tree = ast.parse(path.read_text())
        try:
            here = pv._module_name(path)
            package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        except ValueError:
            package = ""
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                names |= {base} | {f"{base}.{a.name}" for a in node.names}
        return {".".join(n.split(".")[:i]) for n in names for i in range(1, n.count(".") + 2)
                if pv.module_file(".".join(n.split(".")[:i])) is not None}

    files = [*pv.PACKAGE_DIR.rglob("*.py"), *(Path(__file__).parents[1] / "workflow/scripts").glob("*.py")]
    assert len(files) > 100
    for path in files:
        path = path.resolve()
        assert parsed(path) <= set(pv._direct_imports(path)), path
