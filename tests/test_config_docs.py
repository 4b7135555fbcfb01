"""config/README.md is generated from the config schema and the two configs, and kept in step."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from dpbandits.workflow import config_docs

REPO = Path(__file__).resolve().parents[1]


def _load(rel: str) -> dict:
    with open(REPO / rel) as fh:
        return yaml.safe_load(fh)


def _leaves(schema: dict, path=()):
    for key, node in schema.get("properties", {}).items():
        if node.get("type") == "object" and "properties" in node:
            yield from _leaves(node, (*path, key))
        else:
            yield ".".join((*path, key))


def test_the_committed_config_readme_is_the_rendering_of_the_schema():
    assert config_docs.main(["--repo", str(REPO), "--check"]) == 0, (
        "config/README.md is stale: run python -m dpbandits.workflow.config_docs")


def test_every_key_of_the_schema_has_a_row_with_its_range_and_both_values():
    schema, paper, smoke = _load("workflow/schemas/config.schema.yaml"), _load("config/config.yaml"), _load("config/smoke.yaml")
    rows = {r["key"]: r for r in config_docs.schema_rows(schema, paper, smoke)}
    leaves = list(_leaves(schema))
    assert len(leaves) > 100 and not [k for k in leaves if k not in rows]
    horizon = rows["online.figures.horizon"]
    assert (horizon["type"], horizon["range"], horizon["required"]) == ("integer", ">= 1000, <= 100000000", True)
    assert (horizon["paper"], horizon["smoke"]) == (str(paper["online"]["figures"]["horizon"]),
                                                     str(smoke["online"]["figures"]["horizon"]))
    assert rows["online.extra_algorithms[].epsilon_accounting"]["range"] == "> 0, <= 1000"
    assert rows["stability.papers"]["paper"] == "-"  # an optional key the paper config leaves out


def test_a_key_added_to_the_schema_appears_and_a_changed_bound_shows():
    schema, paper, smoke = _load("workflow/schemas/config.schema.yaml"), _load("config/config.yaml"), _load("config/smoke.yaml")
    changed = copy.deepcopy(schema)
    changed["properties"]["dueling"]["properties"]["audit"]["properties"]["new_key"] = {
        "type": "integer", "minimum": 3, "description": "a new knob"}
    changed["properties"]["online"]["properties"]["figures"]["properties"]["runs"]["maximum"] = 4000
    text = config_docs.render(changed, paper, smoke)
    assert "| `dueling.audit.new_key` | integer | >= 3 | no | - | - | a new knob |" in text
    assert "| `online.figures.runs` | integer | >= 2, <= 4000 |" in text
    assert text != config_docs.render(schema, paper, smoke)
