"""``config/README.md``: every configuration key, generated from the config schema.

One table per section of ``workflow/schemas/config.schema.yaml`` (the top level, then each
paper's sections): every key with its type, the range or values the schema allows, whether it is
required, its value at paper scale (``config/config.yaml``, the default of ``snakemake``) and at
smoke scale (``config/smoke.yaml``), and the schema's description. A key whose value is a mapping
of named entries (``online.figures.settings``) or a list of records (``online.extra_algorithms``)
gets its entries' fields as ``key.<name>.field`` / ``key[].field``. Regenerate with
``python -m dpbandits.workflow.config_docs`` (``make config-docs``); a test keeps the committed file
equal to this rendering of the schema and the two configs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

__all__ = ["render", "schema_rows", "main"]

HEADER = """# Configuration

Generated from `workflow/schemas/config.schema.yaml`, `config/config.yaml` and `config/smoke.yaml`
by `python -m dpbandits.workflow.config_docs` (`make config-docs`); do not edit by hand (a test
compares this file with the schema). Every key is validated before any job runs: the schema
below, then the cross-field rules of `src/dpbandits/workflow/config.py` (checkpoints within the
horizon, batches within the user counts, unique figure names, the size of the DAG). `paper` is the
value in `config/config.yaml` (the default: `snakemake --cores N`), `smoke` the value in
`config/smoke.yaml` (`snakemake --configfile config/smoke.yaml`); "-" where a config leaves an
optional key out. Override one key with `--config`, e.g.
`snakemake --cores 8 --config seed=7`, or a whole file with `--configfile`.
"""


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return json.dumps(value) if isinstance(value, str) else str(value)


def _value(value) -> str:
    """A config value in one table cell (short lists and mappings inline)."""
    if value is None:
        return "-"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return _scalar(value)


def _type(node: dict) -> str:
    kind = node.get("type", "")
    if kind == "array":
        items = node.get("items", {})
        inner = _type(items) if isinstance(items, dict) else ""
        return f"list of {inner}" if inner else "list"
    if kind == "object" and isinstance(node.get("additionalProperties"), dict):
        return "mapping"
    if isinstance(kind, list):
        return " or ".join(kind)
    if not kind and "enum" in node:  # the type of the listed values
        kinds = {"string" if isinstance(v, str) else "number" for v in node["enum"]}
        return kinds.pop() if len(kinds) == 1 else "value"
    return kind


def _bounds(node: dict) -> list[str]:
    out = []
    if "enum" in node:
        out.append("one of " + ", ".join(_scalar(v) for v in node["enum"]))
    if "const" in node:
        out.append(f"= {_scalar(node['const'])}")
    lo = ("> ", node["exclusiveMinimum"]) if "exclusiveMinimum" in node else (">= ", node.get("minimum"))
    hi = ("< ", node["exclusiveMaximum"]) if "exclusiveMaximum" in node else ("<= ", node.get("maximum"))
    if lo[1] is not None and hi[1] is not None:
        out.append(f"{lo[0]}{_scalar(lo[1])}, {hi[0]}{_scalar(hi[1])}")
    elif lo[1] is not None:
        out.append(f"{lo[0]}{_scalar(lo[1])}")
    elif hi[1] is not None:
        out.append(f"{hi[0]}{_scalar(hi[1])}")
    if "pattern" in node:
        out.append(f"matches `{node['pattern']}`")
    return out


def _count(lo, hi, what: str) -> str:
    """"2 to 20 items", "at least 1 item", "at most 50 entries" ("" without bounds)."""
    def unit(n):
        return {"items": "item", "entries": "entry"}[what] if n == 1 else what

    if lo is not None and hi is not None:
        return f"{lo} to {hi} {what}"
    if lo is not None:
        return f"at least {lo} {unit(lo)}"
    return f"at most {hi} {unit(hi)}" if hi is not None else ""


def _range(node: dict) -> str:
    """What the schema allows for a key, in words."""
    parts = _bounds(node)
    if node.get("type") == "array":
        items = node.get("items", {})
        if isinstance(items, dict) and _bounds(items):
            parts.append("each " + "; ".join(_bounds(items)))
        count = _count(node.get("minItems"), node.get("maxItems"), "items")
        if count:
            parts.append(count)
        if node.get("uniqueItems"):
            parts.append("distinct")
        if "contains" in node:
            parts.append("must contain " + "; ".join(_bounds(node["contains"])).removeprefix("= "))
    if node.get("type") == "object":
        count = _count(node.get("minProperties"), node.get("maxProperties"), "entries")
        if count:
            parts.append(count)
    return "; ".join(parts)


def _get(config, path: list[str]):
    for key in path:
        if not isinstance(config, dict) or key not in config:
            return None
        config = config[key]
    return config


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def schema_rows(schema: dict, paper: dict, smoke: dict, path: tuple[str, ...] = ()) -> list[dict]:
    """One row per key of ``schema`` (depth first, in the schema's order): its dotted path, type,
    range, whether required, its paper and smoke values and its description; objects with fixed
    keys are expanded into their keys (and listed themselves only when they carry a description)."""
    rows = []
    required = set(schema.get("required", ()))
    for key, node in schema.get("properties", {}).items():
        here = (*path, key)
        name = ".".join(here)
        fixed = node.get("type") == "object" and "properties" in node
        if not fixed or node.get("description"):
            rows.append({"key": name, "type": "section" if fixed else _type(node), "range": _range(node),
                         "required": key in required,
                         "paper": "" if fixed else _value(_get(paper, list(here))),
                         "smoke": "" if fixed else _value(_get(smoke, list(here))),
                         "description": node.get("description", "")})
        if fixed:
            rows += schema_rows(node, paper, smoke, here)
        entry = node.get("additionalProperties") if node.get("type") == "object" else None
        if isinstance(entry, dict) and "properties" in entry:
            rows += schema_rows(entry, {}, {}, (*here, "<name>"))
        items = node.get("items") if node.get("type") == "array" else None
        if isinstance(items, dict) and "properties" in items:
            rows += schema_rows(items, {}, {}, (*here[:-1], f"{key}[]"))
    return rows


def render(schema: dict, paper: dict, smoke: dict) -> str:
    """``config/README.md`` (module docstring): the header, the schema's own description, then one
    table per top-level section."""
    out = [HEADER, _cell(schema.get("description", "")), ""]
    rows = schema_rows(schema, paper, smoke)
    sections: dict[str, list[dict]] = {}
    for row in rows:
        top = row["key"].split(".")[0].split("[")[0]
        sections.setdefault(top, []).append(row)
    for top, group in sections.items():
        out += [f"## `{top}`", ""]
        node = schema["properties"][top]
        if node.get("description") and node.get("type") == "object":
            out += [_cell(node["description"]), ""]
        out += ["| key | type | allowed | required | paper | smoke | description |", "|---|---|---|---|---|---|---|"]
        for row in group:
            if row["type"] == "section" and row["key"] == top:
                continue
            out.append("| " + " | ".join([f"`{row['key']}`", _cell(row["type"]), _cell(row["range"]),
                                          "yes" if row["required"] else "no", _cell(row["paper"]),
                                          _cell(row["smoke"]), _cell(row["description"])]) + " |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _load(path: Path) -> dict:
    with open(path) as fh:
        return yaml.safe_load(fh)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write config/README.md from the config schema and the two configs.")
    parser.add_argument("--repo", default=".", help="the checkout (default: the working directory)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when config/README.md differs")
    args = parser.parse_args(argv)
    repo = Path(args.repo)
    text = render(_load(repo / "workflow/schemas/config.schema.yaml"), _load(repo / "config/config.yaml"),
                  _load(repo / "config/smoke.yaml"))
    target = repo / "config/README.md"
    if args.check:
        same = target.exists() and target.read_text() == text
        if not same:
            print(f"{target} is not the rendering of the schema: run python -m dpbandits.workflow.config_docs",
                  file=sys.stderr)
        return 0 if same else 1
    tmp = target.with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
