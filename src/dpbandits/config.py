"""Configuration loading and validation (before any job runs).

Errors name the offending key (dotted path, e.g. ``online.figures.epsilons[0]``) and the allowed
values, so a user can fix the config without reading the schema.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema
import yaml

__all__ = ["ConfigError", "validate_config", "validate_config_file", "load_config"]

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """Invalid configuration; the message lists every problem, one per line."""


def _key(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<top level>"


def _allowed(err: jsonschema.ValidationError) -> str:
    v, val = err.validator, err.validator_value
    if v == "minimum":
        return f"a number >= {val}"
    if v == "exclusiveMinimum":
        return f"a number > {val}"
    if v == "maximum":
        return f"a number <= {val}"
    if v == "exclusiveMaximum":
        return f"a number < {val}"
    if v == "enum":
        return "one of " + ", ".join(map(str, val))
    if v == "type":
        return f"a value of type {val}"
    if v == "minItems":
        return f"a list of at least {val} items"
    if v == "uniqueItems":
        return "a list without duplicates"
    if v == "pattern":
        return f"a name matching {val}"
    if v == "minProperties":
        return f"at least {val} entries"
    return f"{v}: {val}"


def _describe(err: jsonschema.ValidationError) -> str:
    key = _key(err.absolute_path)
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed)) if isinstance(err.instance, dict) else []
        where = f" under '{key}'" if err.absolute_path else ""
        return (f"unknown key(s) {', '.join(repr(e) for e in extra)}{where}; "
                f"allowed keys: {', '.join(allowed)}")
    if err.validator == "required":
        missing = [r for r in err.validator_value if r not in (err.instance or {})]
        where = f" under '{key}'" if err.absolute_path else ""
        return f"missing key(s) {', '.join(repr(m) for m in missing)}{where}"
    return f"config key '{key}': {err.instance!r} is not allowed; allowed: {_allowed(err)}"


def validate_config(config, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """Validate ``config`` against the JSON schema; raise :class:`ConfigError` listing all errors."""
    with open(schema_path) as fh:
        schema = yaml.safe_load(fh)
    if not isinstance(config, dict) or not config:
        raise ConfigError("the configuration is empty or not a mapping; expected keys: "
                          + ", ".join(schema.get("required", [])))
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    problems = [_describe(e) for e in errors]
    fig = config.get("online", {}).get("figures", {}) if isinstance(config.get("online"), dict) else {}
    if (isinstance(fig, dict) and isinstance(fig.get("runs"), int)
            and isinstance(fig.get("runs_per_job"), int) and fig["runs_per_job"] > fig["runs"]):
        problems.append(f"config key 'online.figures.runs_per_job': {fig['runs_per_job']} is not "
                        f"allowed; allowed: an integer between 1 and runs ({fig['runs']})")
    if problems:
        raise ConfigError("invalid configuration:\n  - " + "\n  - ".join(problems))
    return config


def load_config(path: str | Path, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """Read a YAML config file and validate it."""
    try:
        with open(path) as fh:
            config = yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror}") from exc
    return validate_config(config, schema_path)


def validate_config_file(path: str | Path, schema_path: str | Path = SCHEMA_PATH) -> dict:
    """A config file given with ``--configfile`` must be a complete configuration on its own.

    Snakemake merges such a file over ``config/config.yaml``, so a file with a missing key, or an
    empty file, would silently run with the paper-scale defaults; it is rejected instead (start
    from ``config/config.yaml`` or ``config/smoke.yaml``; single values can still be overridden
    with ``--config key=value``, which is validated on the merged configuration)."""
    try:
        return load_config(path, schema_path)
    except ConfigError as exc:
        raise ConfigError(f"config file {path} (each --configfile must be a complete "
                          f"configuration): {exc}") from exc
