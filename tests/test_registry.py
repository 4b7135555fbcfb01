"""The one check registry: every check of the four papers is a record with a unique rule
name, an importable function in its calling convention, inputs that the workflow builds, and the
config values it declares; the stability sweep's table and the claims' stability column."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from dpbandits.evidence import registry
from dpbandits.evidence.claims import Claim, write_claim_rows
from dpbandits.evidence.stability import stability_column, sweep_table

ALL = registry.all_checks()


def test_every_paper_has_checks_and_rule_names_are_unique():
    assert {c.paper for c in ALL} == set(registry.PAPERS)
    rules = [c.rule for c in ALL]
    assert len(rules) == len(set(rules))
    assert all(c.rule.replace("_", "").isalnum() for c in ALL)


@pytest.mark.parametrize("check", ALL, ids=[f"{c.paper}:{c.id}" for c in ALL])
def test_every_check_function_fits_its_convention(check):
    fn = check.load()
    params = list(inspect.signature(fn).parameters)
    if check.call == "tables":
        assert params[:4] == ["tables", "rng", "n_boot", "scale"], params
        assert all(f.startswith("sim/") or f.startswith("agg/") for files in check.inputs.values() for f in files)
    elif check.call in ("settings", "args", "sized"):
        assert params[:2] == ["rng", "scale"], params
    else:
        assert params[:3] == ["root_seed", "scale", "a"] or params[0] == "root_seed", params
    if check.call == "sized":
        assert set(check.sizes) == {"paper", "smoke"}
    if not check.seeded:
        assert not check.inputs  # a check that reads seeded results depends on the seed


def test_no_paper_package_imports_another_at_module_level():
    import ast
    from pathlib import Path

    root = Path(registry.__file__).parent
    for paper in registry.PAPERS:
        for path in (root / paper).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dpbandits."):
                    part = node.module.split(".")[1]
                    assert part not in registry.PAPERS or part == paper, (path.name, node.module)


def _claim(check_id, verdict, value, seed_path, tmp_path, name):
    path = tmp_path / seed_path / f"{name}.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_claim_rows([Claim("online", check_id, "s", "theorem", "c", "s", value, value, value, "c", verdict, 1,
                            "smoke", reason={"PASS": "supported", "FAIL": "contradicted"}[verdict])], path)
    return path


def test_sweep_table_and_stability_column(tmp_path):
    seeds = [7, 1, 2]
    files = [_claim("A", v, x, f"seed{s}", tmp_path, "A") for s, v, x in
             ((7, "PASS", 1.0), (1, "PASS", 1.1), (2, "FAIL", 0.2))]
    files.append(_claim("E", "PASS", 3.0, "exact", tmp_path, "E"))
    table = sweep_table(files, seeds)
    assert list(table[table.check_id == "A"].seed) == seeds
    assert table[table.check_id == "E"].seed_free.all() and len(table[table.check_id == "E"]) == 3
    claims = pd.DataFrame({"paper": ["online"] * 3, "check_id": ["A", "E", "B"], "verdict": ["PASS"] * 3,
                           "value": [1.0, 3.0, np.nan]})
    assert list(stability_column(claims, table, 7)) == ["2/3", "3/3", ""]
    stale = claims.assign(value=[1.5, 3.0, np.nan])  # the sweep is older than these claims
    assert list(stability_column(stale, table, 7)) == ["", "3/3", ""]
