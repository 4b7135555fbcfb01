"""Configuration validation: both shipped configs are valid; every bad value is reported with
the dotted key path of the offending entry."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from dpbandits.config import ConfigError, load_config, validate_config

CONFIG_DIR = Path(__file__).resolve().parents[1] / "config"
BASES = ["config.yaml", "smoke.yaml"]


def _base(name: str) -> dict:
    with open(CONFIG_DIR / name) as fh:
        return yaml.safe_load(fh)


@pytest.mark.parametrize("name", BASES)
def test_shipped_configs_validate(name):
    cfg = _base(name)
    assert validate_config(copy.deepcopy(cfg)) == cfg
    loaded = load_config(CONFIG_DIR / name)
    assert loaded == cfg
    assert loaded["scale"] == name.removesuffix(".yaml").replace("config", "paper")


def _set(cfg: dict, path: tuple, value) -> None:
    node = cfg
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _delete(cfg: dict, path: tuple) -> None:
    node = cfg
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]


FIG = ("online", "figures")

# (id, mutation, substring(s) that must appear in the message)
BAD = [
    ("seed-negative", lambda c: _set(c, ("seed",), -1), ["'seed'", ">= 0"]),
    ("seed-string", lambda c: _set(c, ("seed",), "abc"), ["'seed'", "'abc'", "integer"]),
    ("seed-float", lambda c: _set(c, ("seed",), 1.5), ["'seed'", "integer"]),
    ("scale-huge", lambda c: _set(c, ("scale",), "huge"), ["'scale'", "'huge'", "smoke, paper"]),
    ("epsilon-zero", lambda c: _set(c, (*FIG, "epsilons"), [0, 0.5, 1.0]),
     ["'online.figures.epsilons[0]'", "> 0"]),
    ("epsilon-negative", lambda c: _set(c, (*FIG, "epsilons"), [0.25, -0.5]),
     ["'online.figures.epsilons[1]'", "-0.5"]),
    ("epsilons-duplicate", lambda c: _set(c, (*FIG, "epsilons"), [0.5, 0.5]),
     ["'online.figures.epsilons'", "duplicates"]),
    ("one-arm", lambda c: _set(c, (*FIG, "settings", "setting1", "means"), [0.5]),
     ["'online.figures.settings.setting1.means'", "at least 2"]),
    ("mean-above-one", lambda c: _set(c, (*FIG, "settings", "setting2", "means"), [0.5, 1.5]),
     ["'online.figures.settings.setting2.means[1]'", "<= 1"]),
    ("mean-negative", lambda c: _set(c, (*FIG, "settings", "setting1", "means"), [-0.1, 0.5, 0.2]),
     ["'online.figures.settings.setting1.means[0]'", ">= 0"]),
    ("runs-zero", lambda c: _set(c, (*FIG, "runs"), 0), ["'online.figures.runs'", ">= 2"]),
    ("horizon-small", lambda c: _set(c, (*FIG, "horizon"), 10),
     ["'online.figures.horizon'", ">= 1000"]),
    ("unknown-top-level", lambda c: _set(c, ("bogus_key",), 1), ["'bogus_key'", "allowed keys"]),
    ("unknown-nested", lambda c: _set(c, (*FIG, "horizont"), 5000),
     ["'horizont'", "under 'online.figures'"]),
    ("unknown-setting-key", lambda c: _set(c, (*FIG, "settings", "setting1", "arms"), 3),
     ["'arms'", "under 'online.figures.settings.setting1'"]),
    ("missing-seed", lambda c: _delete(c, ("seed",)), ["missing", "'seed'"]),
    ("missing-nested", lambda c: _delete(c, (*FIG, "epsilons")),
     ["missing", "'epsilons'", "under 'online.figures'"]),
    ("adap-alpha-3", lambda c: _set(c, (*FIG, "adap_alpha"), 3),
     ["'online.figures.adap_alpha'", "> 3"]),
    ("adap-alpha-2", lambda c: _set(c, (*FIG, "adap_alpha"), 2.5),
     ["'online.figures.adap_alpha'"]),
    ("runs-per-job-too-big", lambda c: _set(c, (*FIG, "runs_per_job"), c["online"]["figures"]["runs"] + 1),
     ["'online.figures.runs_per_job'"]),
    ("unknown-algorithm", lambda c: _set(c, (*FIG, "algorithms"), ["dp_se", "magic"]),
     ["'online.figures.algorithms[1]'", "'magic'"]),
    ("bad-setting-name", lambda c: _set(c, (*FIG, "settings", "bad name!"), {"figure": "f", "means": [0.1, 0.2]}),
     ["'bad name!'"]),
    ("alpha-one", lambda c: _set(c, ("online", "checks", "alpha"), 1.0),
     ["'online.checks.alpha'", "< 1"]),
]


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize(("mutate", "expected"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_values_name_the_key(base, mutate, expected):
    cfg = _base(base)
    validate_config(copy.deepcopy(cfg))  # the base is valid ...
    mutate(cfg)
    with pytest.raises(ConfigError) as info:  # ... so the mutation is what is rejected
        validate_config(cfg)
    msg = str(info.value)
    for fragment in expected:
        assert fragment in msg, (fragment, msg)


@pytest.mark.parametrize("empty", [{}, None, [], "seed: 1"])
def test_empty_or_non_mapping_config(empty):
    with pytest.raises(ConfigError, match="empty or not a mapping"):
        validate_config(empty)


def test_runs_per_job_equal_to_runs_is_fine():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["runs_per_job"] = cfg["online"]["figures"]["runs"]
    validate_config(cfg)


def test_runs_per_job_message_mentions_runs():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["runs"] = 4
    cfg["online"]["figures"]["runs_per_job"] = 5
    with pytest.raises(ConfigError, match=r"runs_per_job'.*between 1 and runs \(4\)"):
        validate_config(cfg)


def test_all_problems_are_listed():
    cfg = _base("config.yaml")
    cfg["seed"] = -3
    cfg["scale"] = "huge"
    cfg["online"]["figures"]["horizon"] = 5
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    lines = str(info.value).splitlines()
    assert lines[0] == "invalid configuration:"
    problems = lines[1:]
    assert len(problems) == 3
    assert all(p.startswith("  - ") for p in problems)
    joined = "\n".join(problems)
    for key in ("'seed'", "'scale'", "'online.figures.horizon'"):
        assert key in joined


def test_config_error_is_value_error():
    assert issubclass(ConfigError, ValueError)


def test_load_config_yaml_syntax_error(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("seed: 7\nscale: smoke\nonline: {figures: [1, 2\n")
    with pytest.raises(ConfigError, match="not valid YAML") as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_load_config_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing here\n")
    with pytest.raises(ConfigError, match="empty"):
        load_config(path)


def test_load_config_validates(tmp_path):
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["epsilons"] = [0.5, 0]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(cfg))
    with pytest.raises(ConfigError, match=r"'online\.figures\.epsilons\[1\]'"):
        load_config(path)
