"""Running one registered check (:mod:`dpbandits.evidence.registry`): its tables, settings and random
generator, the call in its convention, and the guards every verdict passes through."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from dpbandits.evidence.checks import CheckOutput
from dpbandits.evidence.guards import judge_all
from dpbandits.evidence.registry import Check
from dpbandits.rng import make_rng

__all__ = ["run_check", "check_settings", "check_keywords", "read_tables"]


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


def check_keywords(spec: Check, config: Mapping) -> dict:
    """The keyword arguments of ``spec``'s function on the run's ``config``: each declared keyword
    (a path's value, or a tuple of paths merged by :func:`check_settings`), then the sizes the
    registry fixes for the run's scale."""
    out = {name: _value(config, paths) if isinstance(paths, str) else check_settings(paths, config)
           for name, paths in spec.keywords.items()}
    if spec.sizes:
        out.update(spec.sizes[config["scale"]])
    return out


def run_check(spec: Check, config: Mapping, paths: Sequence[str] = ()) -> CheckOutput:
    """Run ``spec`` on the job's config (``params.config``) and input files, in its convention
    (:mod:`dpbandits.evidence.registry`)."""
    scale = config["scale"]
    if spec.root_seed:
        rng = int(config["seed"])
    else:
        rng = make_rng(int(config["seed"]), *spec.unit) if spec.seeded else None
    fn = spec.load()
    keywords = check_keywords(spec, config)
    if spec.inputs:
        n_boot = int(_value(config, spec.bootstrap_path)) if spec.bootstrap else 0
        out = fn(read_tables(spec, paths), rng, n_boot, scale, **keywords)
    else:
        out = fn(rng, scale, **keywords)
    if not isinstance(out, CheckOutput):
        out = CheckOutput(list(out))
    out.claims = judge_all(out.claims, spec.guards, f"{spec.paper} {spec.id}")
    if spec.figure and out.figure is None:
        raise ValueError(f"check {spec.id} declares a figure but returned none")
    if spec.table is not None and out.table is None:
        raise ValueError(f"check {spec.id} declares table {spec.table.name} but returned none")
    return out
