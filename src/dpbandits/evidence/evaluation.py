"""Running one registered check (:mod:`dpbandits.evidence.registry`): its tables, settings and random
generator, the call in its convention, and the guards every verdict passes through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from dpbandits.evidence.checks import CheckOutput
from dpbandits.evidence.guards import judge_all
from dpbandits.evidence.registry import Check
from dpbandits.rng import make_rng

__all__ = ["run_check", "check_settings", "read_tables"]


def _value(config: Mapping, path: str):
    node = config
    for part in path.split("."):
        node = node[part]
    return node


def check_settings(paths: Sequence[str], config: Mapping) -> dict:
    """The config values at ``paths`` merged into one dict (a section contributes its items, a
    leaf ``{leaf: value}``)."""
    out: dict = {}
    for path in paths:
        value = _value(config, path)
        if isinstance(value, Mapping):
            out.update(value)
        else:
            out[path.rpartition(".")[2]] = value
    return out


def read_tables(spec: Check, paths: Sequence[str]) -> dict:
    """The check's input tables, by name, from ``paths`` (its input files in registry order); a
    name ``a/b`` nests (``tables["a"]["b"]``)."""
    from dpbandits.io import read_results_or_quarantine

    it = iter(paths)
    tables: dict = {}
    for name, files in spec.inputs.items():
        frame = pd.concat([read_results_or_quarantine(next(it)) for _ in files], ignore_index=True)
        if "/" in name:
            outer, inner = name.split("/", 1)
            tables.setdefault(outer, {})[inner] = frame
        else:
            tables[name] = frame
    rest = list(it)
    if rest:
        raise ValueError(f"check {spec.id}: unexpected input files {rest}")
    return tables


def run_check(spec: Check, config: Mapping, paths: Sequence[str] = ()) -> CheckOutput:
    """Run ``spec`` on the job's config (``params.config``) and input files."""
    scale = config["scale"]
    rng = make_rng(int(config["seed"]), *spec.unit) if spec.seeded else None
    fn = spec.load()
    if spec.call == "tables":
        tables = read_tables(spec, paths)
        boot = [p for p in spec.config if p.endswith(".bootstrap")]
        n_boot = int(_value(config, boot[0])) if boot else 0
        other = [p for p in spec.config if not p.endswith(".bootstrap")]
        if other:
            out = fn(tables, rng, n_boot, scale, check_settings(other, config))
        else:
            out = fn(tables, rng, n_boot, scale)
    elif spec.call == "settings":
        out = fn(rng, scale, check_settings(spec.config, config))
    elif spec.call == "args":
        out = fn(rng, scale, *[_value(config, p) for p in spec.config])
    elif spec.call == "sized":
        out = fn(rng, scale, **spec.sizes[scale])
    else:  # "seeds"
        out = fn(int(config["seed"]), scale, check_settings(spec.config, config))
    if not isinstance(out, CheckOutput):
        out = CheckOutput(list(out))
    out.claims = judge_all(out.claims, spec.guards, f"{spec.paper} {spec.id}")
    if spec.figure and out.figure is None:
        raise ValueError(f"check {spec.id} declares a figure but returned none")
    if spec.table is not None and out.table is None:
        raise ValueError(f"check {spec.id} declares table {spec.table.name} but returned none")
    return out
