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
    """Two conventions (dpbandits.evidence.registry): a check of result tables is called
    ``function(tables, rng, n_boot, scale, **keywords)``, any other ``function(rng, scale,
    **keywords)``; every keyword and size the record declares is an argument of the function, and
    every argument without a default is supplied."""
    sig = inspect.signature(check.load())
    params = list(sig.parameters)
    lead = ["tables", "rng", "n_boot", "scale"] if check.inputs else ["root_seed" if check.root_seed else "rng", "scale"]
    assert params[:len(lead)] == lead, params
    if check.inputs:
        assert all(f.startswith("sim/") or f.startswith("agg/") for files in check.inputs.values() for f in files)
    for scale in ("paper", "smoke"):
        given = set(check.keywords) | set(check.sizes[scale] if check.sizes else ())
        assert given <= set(params[len(lead):]), sorted(given - set(params))
        required = {n for n, p in list(sig.parameters.items())[len(lead):] if p.default is inspect.Parameter.empty}
        assert required <= given, sorted(required - given)
    if not check.seeded:
        assert not check.inputs  # a check that reads seeded results depends on the seed


def test_a_record_says_what_it_reads_in_one_typed_place():
    """No name-suffix rule: the bootstrap count is a flag, the config values the keywords; a
    malformed record is an error naming the check."""
    spec = registry.Check("X", "online", "online_x", "m:f", inputs={"t": ("sim/x.parquet",)}, bootstrap=True,
                          keywords={"settings": ("online.checks.alpha", "online.figures"), "alpha": "online.checks.alpha"})
    assert spec.config_paths == ("scale", "seed", "online.checks.bootstrap", "online.checks.alpha", "online.figures")
    from dpbandits.evidence.evaluation import check_keywords
    config = {"scale": "smoke", "online": {"checks": {"alpha": 0.05, "bootstrap": 200}, "figures": {"T": 10}}}
    assert check_keywords(spec, config) == {"settings": {"alpha": 0.05, "T": 10}, "alpha": 0.05}
    with pytest.raises(ValueError, match="check X: only a check of result tables"):
        registry.Check("X", "online", "online_x", "m:f", bootstrap=True)
    with pytest.raises(ValueError, match="check X: keyword 'a b'"):
        registry.Check("X", "online", "online_x", "m:f", keywords={"a b": "online.audit"})
    with pytest.raises(ValueError, match="check X: sizes must be given for the scales paper and smoke"):
        registry.Check("X", "online", "online_x", "m:f", sizes={"paper": {}})


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
