"""Configuration loading and validation (before any job runs).

Errors name the offending key (dotted path, e.g. ``online.figures.epsilons[0]``) and the allowed
values, so a user can fix the config without reading the schema. Every problem is reported at
once, one per line, and no message can grow large: values are shown truncated and at most
:data:`MAX_PROBLEMS` problems are listed.

What is checked (:func:`validate_workflow_config` does all of it; ``common.smk`` calls it once):

* each config file the run reads, re-read with a strict YAML loader: no duplicate keys (plain YAML
  keeps the last value silently) and no alias bomb; each ``--configfile`` must be complete;
* the merged configuration against ``workflow/schemas/config.schema.yaml`` (Draft 7), where
  numbers must be finite (NaN and infinity are rejected) and integers must be integers (``7.0``
  and ``2.0e+3`` are rejected: jsonschema alone accepts them);
* cross-field rules the schema cannot express (:func:`cross_field_problems`);
* resource guards (:func:`resource_problems`): the number of jobs the DAG will have, the size of
  the aggregated figure table and of the bootstrap index matrices, computed arithmetically before
  Snakemake builds anything.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
import reprlib
from collections.abc import Iterable
from pathlib import Path

import jsonschema
import yaml

__all__ = ["ConfigError", "validate_workflow_config", "validate_config", "validate_config_file",
           "load_config", "load_yaml_strict", "estimate_jobs", "cross_field_problems",
           "resource_problems", "MAX_JOBS"]

SCHEMA_PATH = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "config.schema.yaml"

MAX_PROBLEMS = 50  # lines listed in one error message
MAX_REPR = 200  # characters of a value shown in a message
MAX_VALUES = 100_000  # values in a config once YAML aliases are expanded (config.yaml: ~300)
MAX_DEPTH = 20  # nesting levels (config.yaml: 5)
MAX_JOBS = 20_000  # jobs in the DAG (paper scale: 274)
OTHER_JOBS = 250  # jobs besides the online figure grid and its figures (measured: 244)
MAX_FIGURE_VALUES = 50_000_000  # regret values in results/agg/online/figures.parquet (paper: 6e5)
MAX_BOOTSTRAP_DRAWS = 500_000_000  # resamples x runs of one cell: ~4 GB of indices (paper: 4e6)
FIGURE_ALGORITHMS = ("lazy_dp_ts", "adap_klucb", "dp_se", "anytime_lazy_ucb")  # FIG-C1, FIG-C2


class ConfigError(ValueError):
    """Invalid configuration; the message lists every problem, one per line."""


# ---------------------------------------------------------------------------------------------
# Messages


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxtuple = 3, 8, 8, 8
_REPR.maxstring, _REPR.maxother, _REPR.maxlong = 80, 80, 40


def _show(value) -> str:
    """A short repr: never longer than MAX_REPR characters, and never built in full (a YAML alias
    bomb, or a list of a million entries, prints as its first few items)."""
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # e.g. an int beyond Python's 4300-digit str limit
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def _key(path: Iterable) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<top level>"


def _num(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _kind(schema: dict) -> str:
    """What a (sub)schema allows, in words: 'an integer >= 2 and <= 2000', 'a finite number > 0'."""
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    kind = schema.get("type")
    if kind in ("integer", "number"):
        bounds = []
        for word, op in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="),
                         ("exclusiveMaximum", "<")):
            if word in schema:
                bounds.append(f"{op} {_num(schema[word])}")
        text = "an integer" if kind == "integer" else "a finite number"
        return text + (" " + " and ".join(bounds) if bounds else "")
    if kind == "array":
        size = []
        if "minItems" in schema:
            size.append(f"at least {schema['minItems']}")
        if "maxItems" in schema:
            size.append(f"at most {schema['maxItems']}")
        text = "a list" + (f" of {' and '.join(size)} items" if size else "")
        if "contains" in schema and "const" in schema["contains"]:
            text += f" that contains {schema['contains']['const']}"
        if schema.get("uniqueItems"):
            text += " without duplicates"
        return text
    if kind == "object":
        return "a mapping"
    if kind == "string":
        if "pattern" in schema:
            return f"a name matching {schema['pattern']}"
        return "a non-empty string" if schema.get("minLength") else "a string"
    return "a value of type " + str(kind)


def _allowed(err: jsonschema.ValidationError) -> str:
    v, val = err.validator, err.validator_value
    if v in ("type", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "enum"):
        return _kind(err.schema)
    if v == "minItems":
        return f"a list of at least {val} items"
    if v == "maxItems":
        return f"a list of at most {val} items"
    if v == "uniqueItems":
        return "a list without duplicates"
    if v == "contains" and isinstance(val, dict) and "const" in val:
        return f"a list that contains {val['const']}"
    if v == "pattern":
        return f"a name matching {val}"
    if v == "minProperties":
        return f"at least {val} entries"
    if v == "maxProperties":
        return f"at most {val} entries"
    if v == "minLength":
        return "a non-empty string"
    return _show(f"{v}: {val}")


def _describe(err: jsonschema.ValidationError) -> str:
    key = _key(err.absolute_path)
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(map(str, set(err.instance) - set(allowed))) if isinstance(err.instance, dict) else []
        where = f" under '{key}'" if err.absolute_path else ""
        shown = ", ".join(_show(e) for e in extra[:10]) + (", ..." if len(extra) > 10 else "")
        return f"unknown key(s) {shown}{where}; allowed keys: {', '.join(allowed)}"
    if err.validator == "required":
        missing = [r for r in err.validator_value if r not in (err.instance or {})]
        where = f" under '{key}'" if err.absolute_path else ""
        return f"missing key(s) {', '.join(repr(m) for m in missing)}{where}"
    return f"config key '{key}': {_show(err.instance)} is not allowed; allowed: {_allowed(err)}"


def _bad(key: str, value, allowed: str) -> str:
    return f"config key '{key}': {_show(value)} is not allowed; allowed: {allowed}"


def _message(problems: list[str], header: str = "invalid configuration:") -> str:
    shown = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        shown.append(f"... and {len(problems) - MAX_PROBLEMS} more problem(s)")
    return header + "\n  - " + "\n  - ".join(shown)


# ---------------------------------------------------------------------------------------------
# Strict YAML loading


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _node_key(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else "<complex key>"


def _duplicate_keys(root: yaml.Node, where: str) -> list[str]:
    """Duplicate mapping keys anywhere in a composed YAML document, with their lines and key
    paths. Each node is visited once, so aliases (shared nodes) cost nothing."""
    problems, seen, stack = [], set(), [(root, ())]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    stack.append((value_node, path))
                    continue
                key = (key_node.tag, key_node.value) if isinstance(key_node, yaml.ScalarNode) else id(key_node)
                name = _node_key(key_node)
                line = key_node.start_mark.line + 1
                if key in first:
                    problems.append((line, (
                        f"{where}, line {line}: duplicate key '{_key((*path, name))}' (first at line "
                        f"{first[key]}); a key may appear only once (YAML would silently keep the "
                        "last value)")))
                else:
                    first[key] = line
                stack.append((value_node, (*path, name)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, (*path, i)) for i, child in enumerate(node.value))
    return [text for _, text in sorted(problems)]


def _json_duplicates(text: str) -> tuple[object, list[str]]:
    dups: list[str] = []

    def pairs(items):
        out = {}
        for k, v in items:
            if k in out:
                dups.append(k)
            out[k] = v
        return out

    return json.loads(text, object_pairs_hook=pairs), dups


def _read_strict(path: str | Path) -> tuple[object, list[str]]:
    """(content, problems) of a YAML (or JSON) config file read strictly."""
    where = f"config file {path}"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        return None, [f"{where}: cannot read the config file: {exc.strerror}"]
    except UnicodeDecodeError as exc:
        return None, [f"{where}: not a UTF-8 text file ({exc.reason})"]
    loader = yaml.SafeLoader(text)
    loader.name = str(path)  # error marks name the file
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as exc:
            try:  # Snakemake reads JSON first; a JSON file PyYAML rejects (tabs) is still valid
                data, dups = _json_duplicates(text)
            except ValueError:
                return None, [f"{where}: not valid YAML: {_show_error(exc)}"]
            return data, [f"{where}: duplicate key '{k}'; a key may appear only once" for k in dups]
        if node is None:
            return None, []
        problems = _duplicate_keys(node, where)
        if problems:
            return None, problems
        try:
            data = loader.construct_document(node)
        except yaml.YAMLError as exc:
            return None, [f"{where}: not valid YAML: {_show_error(exc)}"]
    finally:
        loader.dispose()
    return data, _size_problems(data, where + ": ")


def load_yaml_strict(path: str | Path):
    """Read a YAML (or JSON) config file; raise :class:`ConfigError` on a syntax error, a
    duplicate key (with its line and key path) or a value too large once YAML aliases are
    expanded (an alias bomb), with a short message."""
    data, problems = _read_strict(path)
    if problems:
        raise ConfigError(problems[0] if len(problems) == 1 else _message(problems))
    return data


def _show_error(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 2 * MAX_REPR else text[: 2 * MAX_REPR - 3] + "..."


# ---------------------------------------------------------------------------------------------
# Size of a config (YAML alias bombs, cycles)


def _expanded_size(value, memo: dict, stack: set, depth: int = 0) -> float:
    """Number of values once shared references are expanded, stopping early past MAX_VALUES;
    infinite for a cycle or nesting beyond MAX_DEPTH. Each container is visited once."""
    if not isinstance(value, (dict, list)):
        return 1
    if id(value) in memo:
        return memo[id(value)]
    if id(value) in stack or depth > MAX_DEPTH:
        return math.inf
    stack.add(id(value))
    total = 1.0
    for child in (value.values() if isinstance(value, dict) else value):
        total += _expanded_size(child, memo, stack, depth + 1)
        if total > MAX_VALUES:
            break
    stack.discard(id(value))
    memo[id(value)] = total
    return total


def _size_problems(config, prefix: str = "") -> list[str]:
    memo: dict = {}
    if _expanded_size(config, memo, set()) <= MAX_VALUES:
        return []
    path, node, big = [], config, []
    while isinstance(node, dict):  # descend to the mapping key(s) that hold the bulk
        big = [k for k, v in node.items() if _expanded_size(v, memo, set()) > MAX_VALUES]
        if len(big) != 1:
            break
        path.append(big[0])
        node = node[big[0]]
    if len(big) > 1:
        names = [_key((*path, k)) for k in big[:5]] + (["..."] if len(big) > 5 else [])
        where = "config keys " + ", ".join(f"'{n}'" for n in names) + " are"
    else:
        where = (f"config key '{_key(path)}'" if path else "the configuration") + " is"
    return [f"{prefix}{where} too large: more than {MAX_VALUES:,} values once YAML aliases are "
            f"expanded, nested more than {MAX_DEPTH} levels, or referring to itself; allowed: "
            "a configuration like config/config.yaml (about 300 values)"]


# ---------------------------------------------------------------------------------------------
# Schema


def _is_integer(checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_number(checker, instance) -> bool:
    if isinstance(instance, bool):
        return False
    if isinstance(instance, int):
        return True
    return isinstance(instance, float) and math.isfinite(instance)


_Validator = jsonschema.validators.extend(
    jsonschema.Draft7Validator,
    type_checker=jsonschema.Draft7Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}),
)


def _load_schema(schema_path: str | Path) -> dict:
    path = Path(schema_path)
    return copy.deepcopy(_read_schema(str(path), path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=4)
def _read_schema(path: str, mtime_ns: int) -> dict:
    with open(path) as fh:
        return yaml.safe_load(fh)


def _schema_errors(config: dict, schema: dict) -> list[jsonschema.ValidationError]:
    """Schema errors, one per key: a type error hides the bound errors of the same key."""
    errors = list(_Validator(schema).iter_errors(config))
    typed = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    errors = [e for e in errors if e.validator == "type" or tuple(e.absolute_path) not in typed
              or e.validator in ("required", "additionalProperties")]
    return sorted(errors, key=lambda e: list(map(str, e.absolute_path)))


# ---------------------------------------------------------------------------------------------
# Cross-field rules and resource guards


_MISSING = object()


def _at(config, path: tuple):
    node = config
    for p in path:
        if isinstance(p, int):
            if not isinstance(node, list) or p >= len(node):
                return _MISSING
        elif not isinstance(node, dict) or p not in node:
            return _MISSING
        node = node[p]
    return node


def _path(dotted: str) -> tuple:
    return tuple(dotted.split("."))


class _View:
    """Read access to keys that exist and passed the schema (cross-field rules only look at
    those, so that a bad value is reported once, by the schema)."""

    def __init__(self, config: dict, bad_paths: Iterable[tuple]):
        self.config = config
        self.bad = [tuple(p) for p in bad_paths]

    def ok(self, *dotted: str) -> bool:
        for d in dotted:
            path = _path(d)
            if _at(self.config, path) is _MISSING:
                return False
            for bad in self.bad:
                n = min(len(bad), len(path))
                if bad[:n] == path[:n]:
                    return False
        return True

    def __getitem__(self, dotted: str):
        return _at(self.config, _path(dotted))


def _online_problems(v: _View) -> list[str]:
    out = []
    f = "online.figures"
    if v.ok(f"{f}.runs", f"{f}.runs_per_job") and v[f"{f}.runs_per_job"] > v[f"{f}.runs"]:
        out.append(_bad(f"{f}.runs_per_job", v[f"{f}.runs_per_job"],
                        f"an integer between 1 and runs ({v[f'{f}.runs']})"))
    for which in ("log", "linear"):
        key = f"{f}.checkpoints.{which}"
        if v.ok(key, f"{f}.horizon") and v[key] > v[f"{f}.horizon"]:
            out.append(_bad(key, v[key], f"an integer <= horizon ({v[f'{f}.horizon']}): the checkpoints "
                                         "are rounds 1..horizon"))
    if v.ok(f"{f}.settings"):
        drawn: dict = {}
        for name, spec in v[f"{f}.settings"].items():
            fig = spec["figure"]
            if fig in drawn:
                out.append(_bad(f"{f}.settings.{name}.figure", fig,
                                f"a figure name no other setting uses (setting {drawn[fig]!r} already draws {fig!r}; "
                                "two settings would write the same figure files)"))
            else:
                drawn[fig] = name
            means = spec["means"]
            if means.count(max(means)) > 1:
                out.append(_bad(f"{f}.settings.{name}.means", means,
                                "means with a unique best arm (the figures' regret, FIG-SHAPE and "
                                "FIG-C1/C2 assume a positive gap to the best arm)"))
    if v.ok(f"{f}.epsilons"):
        names: dict = {}
        for i, eps in enumerate(v[f"{f}.epsilons"]):
            name = f"{float(eps):g}"  # the eps wildcard of the simulation files
            if name in names:
                out.append(_bad(f"{f}.epsilons[{i}]", eps,
                                f"an epsilon that differs from epsilons[{names[name]}] in its first 6 "
                                f"significant digits (both would write the files eps{name})"))
            names.setdefault(name, i)
    if v.ok(f"{f}.algorithms"):
        missing = [a for a in FIGURE_ALGORITHMS if a not in v[f"{f}.algorithms"]]
        if missing:
            out.append(_bad(f"{f}.algorithms", v[f"{f}.algorithms"],
                            f"a list that includes {', '.join(FIGURE_ALGORITHMS)} (FIG-C1 and FIG-C2 "
                            f"compare them; missing: {', '.join(missing)})"))
    return out


def _contextual_problems(v: _View) -> list[str]:
    out = []
    c = "contextual"

    def counts(*keys):
        """(key, user count) of every entry of the given keys (scalars or lists)."""
        for key in keys:
            value = v[key]
            if isinstance(value, list):
                yield from ((f"{key}[{i}]", n) for i, n in enumerate(value))
            else:
                yield key, value

    # batch -> (the user counts it batches, the auxiliary sizes fed in batches of it)
    rules = {
        f"{c}.fig6.batch": ((f"{c}.fig6.n_target",), (f"{c}.fig6.n_aux",)),
        f"{c}.fig7.batch": ((f"{c}.fig7.n_target", f"{c}.presets.n_target", f"{c}.baselines.n_target"),
                            (f"{c}.fig7.n_aux",)),
        f"{c}.fig8.batch": ((f"{c}.fig8.n_target",), (f"{c}.fig8.n_aux", f"{c}.fig8.t34c_n_aux")),
        f"{c}.fig9.batch": ((f"{c}.fig9.n_target",), (f"{c}.fig9.n_aux",)),
        f"{c}.fig9.order_batch": ((f"{c}.fig9.order_n_target",), (f"{c}.fig9.n_aux",)),
        f"{c}.theory.batch": ((f"{c}.theory.n_target", f"{c}.theory.long_n_target",
                               f"{c}.theory.eps_n_target"), ()),
        f"{c}.msweep.batch": ((f"{c}.msweep.n_target",), (f"{c}.msweep.n_aux",)),
    }
    for batch_key, (targets, auxes) in rules.items():
        if not v.ok(batch_key, *targets):
            continue
        batch = v[batch_key]
        where, smallest = min(counts(*targets), key=lambda kv: kv[1])
        if batch > smallest:
            out.append(_bad(batch_key, batch, f"an integer between 1 and the smallest user count it "
                                              f"batches ({smallest} at '{where}')"))
            continue
        if not v.ok(*auxes):
            continue
        for key, n in counts(*auxes):
            if 0 < n < batch:  # 0 is Figures 8-9's no-auxiliary-data baseline
                out.append(_bad(key, n, f"0 or an integer >= '{batch_key}' ({batch}): an auxiliary "
                                        "dataset smaller than one batch is never fed"))
    t = f"{c}.tables"
    if v.ok(f"{t}.batch", f"{t}.target_fraction"):
        from dpbandits.contextual.realdata import TABLE1

        batch = v[f"{t}.batch"]
        for name, fraction in v[f"{t}.target_fraction"].items():
            if v[f"{t}.{name}_csv"] not in ("", _MISSING):
                continue  # a real CSV: its size is known only when it is read
            n = TABLE1[name]["n_target"]
            n = n if fraction == 1 else max(1000, int(round(n * fraction)))
            if 4 * batch > n:
                out.append(_bad(f"{t}.batch", batch,
                                f"an integer <= {n // 4}: Table 2 reads the reward at a quarter of the "
                                f"{name} surrogate's {n} users (target_fraction.{name} = {fraction:g})"))
                break
    return out + _beyond_problems(v)


def _beyond_problems(v: _View) -> list[str]:
    """contextual.beyond: every repetition block has a run; the batch is at most the
    grid's first n and the report's n; every curve has at least 3 grid points (an onset and a
    slope need them)."""
    b = "contextual.beyond"
    keys = [f"{b}.{k}" for k in ("batch", "n_base", "min_n_eps2", "n_max", "coarse_max_n_eps2", "dim_n_max",
                                 "report_n")]
    if not v.ok(*keys):
        return []
    from dpbandits.contextual.experiments.beyond_designs import (
        BEYOND_DIMS,
        BEYOND_EPS,
        DIM_EPS,
        MAX_BLOCKS,
        curve_n,
    )

    bcfg = v[b]
    out = []
    if v.ok(f"{b}.runs") and bcfg["runs"] < MAX_BLOCKS:
        out.append(_bad(f"{b}.runs", bcfg["runs"], f"an integer >= {MAX_BLOCKS} (the repetitions are split into up to "
                                                   f"{MAX_BLOCKS} blocks, one job each; every block needs a run)"))
    if bcfg["batch"] > min(bcfg["n_base"], bcfg["report_n"]):
        out.append(_bad(f"{b}.batch", bcfg["batch"], f"an integer between 1 and {b}.n_base ({bcfg['n_base']}) "
                                                     f"and {b}.report_n ({bcfg['report_n']})"))
    curves = [("primary", eps, 2, f"{b}.n_max[{i}]") for i, eps in enumerate(BEYOND_EPS)]
    curves += [("coarse_fixed", eps, 2, f"{b}.coarse_max_n_eps2") for eps in BEYOND_EPS]
    curves += [("primary", DIM_EPS, d, f"{b}.dim_n_max[{i}]") for i, d in enumerate(BEYOND_DIMS)]
    for variant, eps, d, key in curves:
        points = curve_n(bcfg, variant, eps, d)
        if len(points) < 3:
            out.append(f"config key '{key}': the {variant} curve at eps = {eps:g}, d = {d} has {len(points)} grid "
                       f"points (n = {b}.n_base x 2^j with n eps^2 >= {b}.min_n_eps2 = {bcfg['min_n_eps2']:g}); "
                       "allowed: a cap that leaves at least 3 points")
    return out


def cross_field_problems(config: dict, bad_paths: Iterable[tuple] = ()) -> list[str]:
    """Rules between keys that the schema cannot express. Keys in ``bad_paths`` (schema errors)
    are skipped, so that each bad value is reported once.

    * online figures: runs_per_job <= runs; checkpoints (log, linear) <= horizon; figure names
      unique; every setting has a unique best arm (a positive gap: the figures plot regret against
      it and FIG-SHAPE / FIG-C1 / FIG-C2 assume it); epsilons distinct in the 6 significant digits
      of their file names; the algorithms FIG-C1 and FIG-C2 compare are all run;
    * contextual: every batch size is at most the user counts it batches (a run of n users in
      batches of B has n // B batches); a positive auxiliary size is at least its batch (else that
      source is never fed); Table 2's batch leaves at least 4 batches in each surrogate (it reads
      the reward at a quarter of the users);
    * ``online.extra_algorithms``: every name unused by the paper's algorithms and unique, every
      ``import`` importable and a class with the bandit interface, its ``params`` its own (the
      error names ``online.extra_algorithms[i].import``).
    * ``dueling``, ``quantile`` and ``contextual.extra_algorithms``: the same, for a class of the
      family's protocol (a contextual policy: also a horizon of at least one of its batches).

    K >= 2 (means: minItems 2), the levels in (0, 1) (alpha, the audits' confidence, the
    surrogates' target fractions) and the quantile designs' gaps are schema rules; the quantile
    levels q and every other instance are fixed in code (src/dpbandits/quantile/experiments).
    """
    view = _View(config, bad_paths)
    return (_stability_problems(view) + _online_problems(view) + _extra_problems(view)
            + _family_extra_problems(view) + _contextual_problems(view))


def _extra_problems(v: _View) -> list[str]:
    """``online.extra_algorithms``: names not taken, each ``import`` importable, a class with the
    bandit interface (dpbandits.online.interface), ``params`` among its parameters."""
    key = "online.extra_algorithms"
    if not v.ok(key):
        return []
    from dpbandits.online.interface import extra_algorithm_problems

    return extra_algorithm_problems(v[key], key)


def _family_extra_problems(v: _View) -> list[str]:
    """``dueling``, ``quantile`` and ``contextual.extra_algorithms``: names not taken, each
    ``import`` importable, a class of the family's protocol (dpbandits.<family>.interface), its
    ``params`` among its parameters, a dry run."""
    import importlib

    out = []
    for family in ("dueling", "quantile", "contextual"):
        key = f"{family}.extra_algorithms"
        if v.ok(key):
            out += importlib.import_module(f"dpbandits.{family}.checks.extra").extra_problems(v[key], key)
    return out


STABILITY_MIN_SEEDS = {"paper": 4, "smoke": 2}


def _stability_problems(v: _View) -> list[str]:
    """The stability sweep: enough further seeds for the scale, none equal to the root seed."""
    if not v.ok("stability.seeds", "scale", "seed"):
        return []
    seeds, scale, root = v["stability.seeds"], v["scale"], v["seed"]
    out = []
    need = STABILITY_MIN_SEEDS[scale]
    if len(seeds) < need:
        out.append(_bad("stability.seeds", seeds, f"at least {need} further root seeds at {scale} scale"))
    if root in seeds:
        out.append(_bad("stability.seeds", seeds, f"root seeds other than seed ({root})"))
    return out


def estimate_jobs(config: dict) -> tuple[int, int]:
    """(jobs of the online figure grid, estimated jobs of the whole DAG), arithmetically.

    The figure grid (online/experiments/figure_designs.py ``figure_cells`` and ``extra_cells``) is settings x
    seed blocks (ceil(runs / runs_per_job)) x ((algorithms + extra algorithms) x epsilons +
    references) simulate jobs, plus one
    figure job per setting; every other grid of the workflow is fixed in code (OTHER_JOBS)."""
    fig = config["online"]["figures"]
    blocks = -(-fig["runs"] // fig["runs_per_job"])  # integer ceil: no float overflow
    extras = len(config["online"].get("extra_algorithms") or [])  # extra.smk: same cells
    curves = (len(fig["algorithms"]) + extras) * len(fig["epsilons"]) + len(fig["references"])
    grid = len(fig["settings"]) * blocks * curves
    return grid, grid + len(fig["settings"]) + OTHER_JOBS


def resource_problems(config: dict, bad_paths: Iterable[tuple] = ()) -> list[str]:
    """Guards computed before Snakemake builds its DAG: the number of jobs (MAX_JOBS), the size
    of the aggregated figure table (MAX_FIGURE_VALUES) and of one bootstrap index matrix
    (resamples x runs of one cell, MAX_BOOTSTRAP_DRAWS)."""
    v = _View(config, bad_paths)
    out = []
    f = "online.figures"
    keys = [f"{f}.{k}" for k in ("settings", "runs", "runs_per_job", "algorithms", "epsilons",
                                  "references")]
    if v.ok(*keys):
        fig = v[f]
        grid, total = estimate_jobs(config)
        if total > MAX_JOBS:
            blocks = -(-fig["runs"] // fig["runs_per_job"])
            extras = len(config["online"].get("extra_algorithms") or [])
            algorithms = f"'{f}.algorithms' ({len(fig['algorithms'])})"
            if extras:
                algorithms = f"({algorithms} + 'online.extra_algorithms' ({extras}))"
            out.append(
                f"the configuration implies about {total:,} jobs; allowed: at most {MAX_JOBS:,}. "
                f"The online figure grid drives it: '{f}.settings' ({len(fig['settings'])}) x "
                f"ceil('{f}.runs' / '{f}.runs_per_job') ({fig['runs']} / {fig['runs_per_job']} -> "
                f"{blocks}) x ({algorithms} x '{f}.epsilons' "
                f"({len(fig['epsilons'])}) + '{f}.references' ({len(fig['references'])})) = "
                f"{grid:,} simulate jobs; raise runs_per_job or lower runs")
    if v.ok(*keys, f"{f}.horizon", f"{f}.checkpoints"):
        fig = v[f]
        curves = len(fig["algorithms"]) * len(fig["epsilons"]) + len(fig["references"])
        checkpoints = (fig["checkpoints"]["log"] + fig["checkpoints"]["linear"]
                       + len(str(fig["horizon"])))  # + T and the decades (FIG-SHAPE)
        values = len(fig["settings"]) * curves * fig["runs"] * checkpoints
        if values > MAX_FIGURE_VALUES:
            out.append(
                f"config keys '{f}.runs' x '{f}.checkpoints' imply about {values:,} regret values "
                f"in the aggregated figure table ({len(fig['settings'])} settings x {curves} curves x "
                f"{fig['runs']} runs x ~{checkpoints} checkpoints); allowed: at most "
                f"{MAX_FIGURE_VALUES:,}; lower runs or checkpoints.log / checkpoints.linear")
    per_paper = {
        "online": ("online.checks.bootstrap", ("online.figures.runs", "online.full_info.runs",
                                               "online.bandit.runs", "online.bandit.minimax_runs")),
        "dueling": ("dueling.checks.bootstrap", tuple(
            f"dueling.{k}" for k in ("alg1.runs", "alg1.correctness_runs", "alg1.stress_runs",
                                     "alg1.baseline_runs", "alg2.runs", "alg2.finite_runs"))),
        "quantile": ("quantile.checks.bootstrap", tuple(
            f"quantile.{k}" for k in ("seq.fig_runs", "seq.fig4_runs", "seq.invariance_runs",
                                      "seq.pac_runs", "seq.pac_heavy_runs", "seq.scaling_runs",
                                      "seq.lb_runs", "seq.zg_runs", "seq.k_runs", "seq.logn10_runs",
                                      "dp.invariance_runs", "dp.fig4_runs", "dp.pac_runs",
                                      "dp.scaling_runs", "dp.k_runs", "baselines.d1_runs",
                                      "baselines.d2_runs", "baselines.d3_runs"))),
        "contextual": ("contextual.checks.bootstrap", ("contextual.runs", "contextual.fig6.runs",
                                                       "contextual.theory.runs", "contextual.tables.runs",
                                                       "contextual.beyond.runs")),
    }
    for boot_key, run_keys in per_paper.values():
        present = [k for k in run_keys if v.ok(k)]
        if not v.ok(boot_key) or not present:
            continue
        runs_key = max(present, key=lambda k: v[k])
        draws = v[boot_key] * v[runs_key]
        if draws > MAX_BOOTSTRAP_DRAWS:
            out.append(
                f"config keys '{boot_key}' x '{runs_key}': {v[boot_key]} resamples x {v[runs_key]} "
                f"runs = {draws:,} bootstrap draws for one cell; allowed: at most "
                f"{MAX_BOOTSTRAP_DRAWS:,} (about 4 GB of indices); lower one of them")
    return out


# ---------------------------------------------------------------------------------------------
# Entry points


def _giant_integers(node, path=()) -> list[str]:
    """Integers Python cannot even print (over 4300 digits): jsonschema's messages would fail."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _giant_integers(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _giant_integers(v, (*path, i))]
    if isinstance(node, int) and not isinstance(node, bool) and abs(node).bit_length() > 13_000:
        return [f"config key '{_key(path)}': an integer of about {int(abs(node).bit_length() * 0.30103)} "
                "digits is not allowed; allowed: see workflow/schemas/config.schema.yaml"]
    return []


def _config_problems(config, schema: dict) -> list[str]:
    if not isinstance(config, dict) or not config:
        return ["the configuration is empty or not a mapping; expected keys: "
                + ", ".join(schema.get("required", []))]
    problems = _size_problems(config) or _giant_integers(config)
    if problems:
        return problems
    errors = _schema_errors(config, schema)
    problems = [_describe(e) for e in errors]
    # a missing or unknown key is not a bad value: it gates no cross-field rule of its siblings
    bad = [tuple(e.absolute_path) for e in errors if e.validator not in ("required", "additionalProperties")]
    return problems + cross_field_problems(config, bad) + resource_problems(config, bad)


def validate_config(config, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """Validate a configuration (schema, cross-field rules, resource guards); raise
    :class:`ConfigError` listing every problem."""
    problems = _config_problems(config, _load_schema(schema_path))
    if problems:
        raise ConfigError(_message(problems))
    return config


def _complete_file_problems(path, data, schema: dict) -> list[str]:
    where = f"config file {path} (each --configfile must be a complete configuration)"
    if not isinstance(data, dict) or not data:
        return [f"{where}: the configuration is empty or not a mapping; expected keys: "
                + ", ".join(schema.get("required", []))]
    missing = [e for e in _Validator(schema).iter_errors(data) if e.validator == "required"]
    return [f"{where}: {_describe(e)}" for e in sorted(missing, key=lambda e: list(map(str, e.absolute_path)))]


def _file_problems(path, schema: dict, complete: bool) -> list[str]:
    data, problems = _read_strict(path)
    if problems:
        return problems
    return _complete_file_problems(path, data, schema) if complete else []


def validate_workflow_config(config, configfiles: Iterable = (), complete_configfiles: Iterable = (),
                             schema_path: str | Path = SCHEMA_PATH) -> dict:
    """Everything ``common.smk`` checks before Snakemake builds its DAG, reported at once.

    ``configfiles``: every config file the run reads (Snakemake's ``workflow.configfiles``: the
    Snakefile's ``configfile:`` and each ``--configfile``), each re-read with the strict loader
    (Snakemake's own loader keeps the last of duplicate keys); ``complete_configfiles``: the
    ``--configfile`` files (``workflow.overwrite_configfiles``), each of which must be a complete
    configuration on its own (Snakemake merges it over config/config.yaml, so a file with a
    missing key would silently run with the paper-scale value); ``config``: the merged
    configuration, including ``--config key=value`` overrides."""
    schema = _load_schema(schema_path)
    complete = {os.path.abspath(str(p)) for p in complete_configfiles}
    problems, seen = [], set()
    for path in [*configfiles, *complete_configfiles]:
        norm = os.path.abspath(str(path))
        if norm not in seen:
            seen.add(norm)
            problems += _file_problems(path, schema, norm in complete)
    # a key missing from a --configfile is missing from the merged configuration too: say it once
    said = {p.split(": ", 1)[1] for p in problems if ": " in p}
    problems += [p for p in _config_problems(config, schema) if p not in said]
    if problems:
        raise ConfigError(_message(problems))
    return config


def load_config(path: str | Path, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """Read a YAML config file (strictly: no duplicate keys) and validate it."""
    return validate_config(load_yaml_strict(path), schema_path)


def validate_config_file(path: str | Path, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """A config file given with ``--configfile`` must be a complete, valid configuration on its
    own (start from ``config/config.yaml`` or ``config/smoke.yaml``)."""
    return validate_workflow_config(load_yaml_strict(path), [path], [path], schema_path)
