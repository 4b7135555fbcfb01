"""Configuration validation: both shipped configs are valid; every bad value is reported with
the dotted key path of the offending entry."""

from __future__ import annotations

import copy
import math
import time
from pathlib import Path

import pytest
import yaml
from config_cases import BAD_FILES, BAD_VALUES

from dpbandits.workflow.config import (
    ConfigError,
    load_config,
    validate_config,
    validate_workflow_config,
)

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
     ["'online.figures.epsilons[0]'", ">= 1e-06"]),
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
    # finite numbers only
    ("epsilon-nan", lambda c: _set(c, (*FIG, "epsilons"), [0.25, math.nan]),
     ["config key 'online.figures.epsilons[1]': nan is not allowed; allowed: a finite number >= 1e-06"]),
    ("epsilon-inf", lambda c: _set(c, (*FIG, "epsilons"), [math.inf, 0.5]),
     ["'online.figures.epsilons[0]': inf", "a finite number >= 1e-06"]),
    ("epsilon-minus-inf", lambda c: _set(c, (*FIG, "epsilons"), [0.5, -math.inf]),
     ["'online.figures.epsilons[1]': -inf", "a finite number"]),
    ("audit-epsilon-nan", lambda c: _set(c, ("online", "audit", "epsilon"), math.nan),
     ["'online.audit.epsilon': nan", "a finite number >= 1e-06"]),
    ("mean-nan", lambda c: _set(c, (*FIG, "settings", "setting1", "means"), [0.5, math.nan]),
     ["'online.figures.settings.setting1.means[1]': nan", "a finite number >= 0 and <= 1"]),
    ("alpha-nan", lambda c: _set(c, ("online", "checks", "alpha"), math.nan),
     ["'online.checks.alpha': nan", "a finite number > 0 and < 1"]),
    ("adap-alpha-inf", lambda c: _set(c, (*FIG, "adap_alpha"), math.inf),
     ["'online.figures.adap_alpha': inf", "a finite number > 3"]),
    ("contextual-epsilon-nan", lambda c: _set(c, ("contextual", "presets", "epsilons"), [1024, math.nan]),
     ["'contextual.presets.epsilons[1]': nan"]),
    ("quantile-gap-nan", lambda c: _set(c, ("quantile", "seq", "smallest_gap"), math.nan),
     ["'quantile.seq.smallest_gap': nan"]),
    # integers are integers (jsonschema alone accepts 7.0)
    ("seed-whole-float", lambda c: _set(c, ("seed",), 7.0),
     ["config key 'seed': 7.0 is not allowed; allowed: an integer >= 0"]),
    ("seed-1e30", lambda c: _set(c, ("seed",), 1.0e30), ["'seed': 1e+30", "an integer"]),
    ("horizon-whole-float", lambda c: _set(c, (*FIG, "horizon"), 2.0e3),
     ["'online.figures.horizon': 2000.0", "an integer >= 1000"]),
    ("runs-whole-float", lambda c: _set(c, ("dueling", "alg1", "runs"), 4.0),
     ["'dueling.alg1.runs': 4.0", "an integer"]),
    ("enum-whole-float", lambda c: _set(c, ("online", "bandit", "horizon"), 1.0e5),
     ["'online.bandit.horizon': 100000.0", "one of 10000, 100000"]),
    ("list-item-whole-float", lambda c: _set(c, ("contextual", "fig7", "n_target"), [2000.0, 4000, 8000]),
     ["'contextual.fig7.n_target[0]': 2000.0", "an integer"]),
    ("dims-whole-float", lambda c: _set(c, ("dueling", "alg2", "dims"), [2, 3.0]),
     ["'dueling.alg2.dims[1]': 3.0", "an integer"]),
    ("seed-bool", lambda c: _set(c, ("seed",), True), ["'seed': True", "an integer"]),
    # upper bounds, with the allowed range in the message
    ("runs-1e9", lambda c: _set(c, (*FIG, "runs"), 10**9),
     ["config key 'online.figures.runs': 1000000000 is not allowed; allowed: an integer >= 2 and <= 2000"]),
    ("horizon-1e18", lambda c: _set(c, (*FIG, "horizon"), 10**18),
     ["'online.figures.horizon'", ">= 1000 and <= 100000000"]),
    ("full-info-runs-huge", lambda c: _set(c, ("online", "full_info", "runs"), 10**7),
     ["'online.full_info.runs'", "<= 50000"]),
    ("bootstrap-huge", lambda c: _set(c, ("quantile", "checks", "bootstrap"), 10**8),
     ["'quantile.checks.bootstrap'", ">= 100 and <= 50000"]),
    ("audit-samples-huge", lambda c: _set(c, ("contextual", "audit", "samples"), 10**10),
     ["'contextual.audit.samples'", "<= 20000000"]),
    ("dueling-horizon-huge", lambda c: _set(c, ("dueling", "alg1", "log_t_horizon"), 10**15),
     ["'dueling.alg1.log_t_horizon'", "<= 10000000000"]),
    ("n-target-huge", lambda c: _set(c, ("contextual", "theory", "long_n_target"), [2000, 4000, 8000, 10**9]),
     ["'contextual.theory.long_n_target[3]'", "<= 20000000"]),
    ("epsilon-grid-too-long", lambda c: _set(c, (*FIG, "epsilons"), [0.01 * i for i in range(1, 30)]),
     ["'online.figures.epsilons'", "at most 20 items"]),
    ("arms-too-many", lambda c: _set(c, (*FIG, "settings", "setting1", "means"), [0.9] + [0.1] * 2000),
     ["'online.figures.settings.setting1.means'", "at most 1000 items"]),
    ("settings-too-many", lambda c: _set(c, (*FIG, "settings"),
                                         {f"s{i}": {"figure": f"f{i}", "means": [0.6, 0.5]} for i in range(30)}),
     ["'online.figures.settings'", "at most 20 entries"]),
    ("checkpoints-log-huge", lambda c: _set(c, (*FIG, "checkpoints", "log"), 10**8),
     ["'online.figures.checkpoints.log'", "<= 10000"]),
    # cross-field rules
    ("checkpoints-beyond-horizon", lambda c: (_set(c, (*FIG, "horizon"), 5000),
                                              _set(c, (*FIG, "checkpoints", "linear"), 6000)),
     ["'online.figures.checkpoints.linear': 6000", "<= horizon (5000)"]),
    ("log-checkpoints-beyond-horizon", lambda c: (_set(c, (*FIG, "horizon"), 1000),
                                                  _set(c, (*FIG, "checkpoints", "log"), 1001)),
     ["'online.figures.checkpoints.log': 1001", "<= horizon (1000)"]),
    ("figure-names-duplicate", lambda c: _set(c, (*FIG, "settings", "setting2", "figure"), "fig1"),
     ["'online.figures.settings.setting2.figure': 'fig1'", "a figure name no other setting uses"]),
    ("best-arm-tie", lambda c: _set(c, (*FIG, "settings", "setting1", "means"), [0.5, 0.5, 0.2]),
     ["'online.figures.settings.setting1.means'", "a unique best arm"]),
    ("all-means-equal", lambda c: _set(c, (*FIG, "settings", "setting2", "means"), [0.4, 0.4]),
     ["'online.figures.settings.setting2.means'", "a unique best arm"]),
    ("epsilons-same-file-name", lambda c: _set(c, (*FIG, "epsilons"), [0.1234561, 0.1234562]),
     ["'online.figures.epsilons[1]'", "eps0.123456"]),
    ("figure-algorithm-missing", lambda c: _set(c, (*FIG, "algorithms"), ["dp_se", "lazy_dp_ts"]),
     ["'online.figures.algorithms'", "missing: adap_klucb, anytime_lazy_ucb"]),
    ("fig6-batch-above-users", lambda c: _set(c, ("contextual", "fig6", "batch"), 10**6),
     ["'contextual.fig6.batch': 1000000", "smallest user count it batches",
      "at 'contextual.fig6.n_target'"]),
    ("fig7-batch-above-presets", lambda c: (_set(c, ("contextual", "presets", "n_target"), [1000, 8000]),
                                            _set(c, ("contextual", "fig7", "batch"), 1500),
                                            _set(c, ("contextual", "fig7", "n_aux"), 5000)),
     ["'contextual.fig7.batch': 1500", "(1000 at 'contextual.presets.n_target[0]')"]),
    ("theory-batch-above-users", lambda c: _set(c, ("contextual", "theory", "batch"), 10**6),
     ["'contextual.theory.batch'", "at 'contextual.theory.n_target[0]'"]),
    ("order-batch-above-users", lambda c: _set(c, ("contextual", "fig9", "order_batch"), 10**6),
     ["'contextual.fig9.order_batch'", "at 'contextual.fig9.order_n_target"]),
    ("aux-smaller-than-batch", lambda c: _set(c, ("contextual", "fig7", "n_aux"), 50),
     ["'contextual.fig7.n_aux': 50", ">= 'contextual.fig7.batch' (100)", "never fed"]),
    ("aux-grid-entry-smaller-than-batch", lambda c: _set(c, ("contextual", "fig8", "n_aux"), [0, 10, 20000, 50000]),
     ["'contextual.fig8.n_aux[1]': 10", "contextual.fig8.batch"]),
    ("t34c-aux-smaller-than-batch", lambda c: _set(c, ("contextual", "fig8", "t34c_n_aux"), [4000, 1]),
     ["'contextual.fig8.t34c_n_aux[1]': 1"]),
    ("msweep-aux-smaller-than-batch", lambda c: _set(c, ("contextual", "msweep", "n_aux"), 1),
     ["'contextual.msweep.n_aux': 1"]),
    ("tables-batch-above-quarter", lambda c: (_set(c, ("contextual", "tables", "target_fraction", "adult"), 0.01),
                                              _set(c, ("contextual", "tables", "batch"), 600)),
     ["'contextual.tables.batch': 600", "an integer <= 250", "adult surrogate's 1000 users"]),
    # resource guards
    ("dag-too-large", lambda c: (_set(c, (*FIG, "runs"), 2000), _set(c, (*FIG, "runs_per_job"), 1),
                                 _set(c, ("online", "extra_algorithms"), [])),
     ["jobs; allowed: at most 20,000", "'online.figures.runs' / 'online.figures.runs_per_job'",
      "'online.figures.settings' (2)", "'online.figures.epsilons' (3)", "56,000 simulate jobs"]),
    ("figure-table-too-large", lambda c: (_set(c, (*FIG, "runs"), 2000), _set(c, (*FIG, "runs_per_job"), 200),
                                          _set(c, (*FIG, "checkpoints", "linear"), 100_000)),
     ["regret values in the aggregated figure table", "at most 50,000,000"]),
    ("bootstrap-matrix-too-large", lambda c: (_set(c, ("online", "checks", "bootstrap"), 50_000),
                                              _set(c, ("online", "full_info", "runs"), 50_000)),
     ["'online.checks.bootstrap' x 'online.full_info.runs'", "2,500,000,000 bootstrap draws",
      "at most 500,000,000"]),
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


# ---------------------------------------------------------------------------------------------
# Hardening: each bad value once, bounded messages, strict YAML, the DAG-size guard


@pytest.mark.parametrize(("mutate", "expected"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_each_bad_value_is_reported_once(mutate, expected):
    cfg = _base("smoke.yaml")
    mutate(cfg)
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    lines = str(info.value).splitlines()[1:]
    assert 1 <= len(lines) <= 2, lines  # (a list may break two rules: length and duplicates)
    assert all(len(line) <= 600 for line in lines), lines


def _scale_counts(node, factor):
    """Every run count, resample count, sample size, user count and free horizon times factor."""
    words = ("runs", "bootstrap", "samples", "trials", "pairs", "problems", "n_target", "n_aux")
    for key, value in node.items():
        if isinstance(value, dict):
            _scale_counts(value, factor)
        elif any(w in key for w in words) or key.endswith("horizon"):
            if isinstance(value, list):
                node[key] = [v * factor for v in value]
            elif isinstance(value, int) and key not in ("long_horizon",):
                node[key] = value * factor


def test_the_bounds_admit_a_ten_times_larger_study():
    cfg = _base("config.yaml")
    _scale_counts(cfg, 10)
    cfg["online"]["bandit"]["horizon"] = 10**7  # enum: 10^4 .. 10^7
    assert cfg["online"]["figures"]["runs"] == 200 and cfg["contextual"]["theory"]["long_n_target"][-1] == 12_800_000
    validate_config(cfg)


@pytest.mark.parametrize("name", BASES)
def test_shipped_configs_pass_the_workflow_validation(name):
    path = CONFIG_DIR / name
    cfg = _base(name)
    assert validate_workflow_config(cfg, [CONFIG_DIR / "config.yaml", path], [path]) is cfg


@pytest.mark.parametrize(("runs", "per_job", "epsilons", "references", "settings"),
                         [(20, 20, 3, 2, 2), (6, 3, 3, 2, 2), (7, 3, 2, 0, 1), (100, 7, 5, 1, 3), (2, 1, 20, 2, 20)])
def test_job_estimate_counts_the_figure_grid_exactly(runs, per_job, epsilons, references, settings):
    from dpbandits.online.experiments.figure_designs import extra_cells, figure_cells
    from dpbandits.workflow.config import estimate_jobs

    cfg = _base("smoke.yaml")
    fig = cfg["online"]["figures"]
    fig.update(runs=runs, runs_per_job=per_job, epsilons=[0.1 * (i + 1) for i in range(epsilons)],
               references=["ucb1", "ts_beta"][:references],
               settings={f"s{i}": {"figure": f"f{i}", "means": [0.6, 0.5]} for i in range(settings)})
    grid, total = estimate_jobs(cfg)
    assert grid == len(figure_cells(cfg)) + len(extra_cells(cfg))  # the smoke config's extra algorithms
    assert total == grid + settings + 250


def test_job_estimate_builds_no_list():
    from dpbandits.workflow.config import estimate_jobs

    cfg = _base("smoke.yaml")
    cfg["online"]["figures"].update(runs=10**18, runs_per_job=1)
    start = time.perf_counter()
    grid, _ = estimate_jobs(cfg)
    assert grid == 2 * 10**18 * ((4 + 2) * 3 + 2)  # (algorithms + the smoke config's extra ones) x eps + refs
    assert time.perf_counter() - start < 1.0


def test_dag_guard_names_the_keys_even_within_every_bound():
    cfg = _base("smoke.yaml")
    fig = cfg["online"]["figures"]
    fig.update(runs=2000, runs_per_job=1, epsilons=[0.1 * (i + 1) for i in range(20)])
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    msg = str(info.value)
    assert "config key" not in msg  # every single value is within its bound ...
    assert "at most 20,000" in msg and "'online.figures.runs_per_job'" in msg  # ... the product is not
    fig["runs_per_job"] = 200  # 10 seed blocks: fine
    validate_config(cfg)


def test_cross_field_rules_skip_keys_the_schema_rejected():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["runs"] = -5  # runs_per_job (3) > runs, but runs is already wrong
    cfg["contextual"]["fig6"]["n_target"] = "many"
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    lines = str(info.value).splitlines()[1:]
    assert len(lines) == 2, lines
    assert "runs_per_job" not in str(info.value) and "batch" not in str(info.value)


def test_unknown_key_does_not_hide_cross_field_rules():
    cfg = _base("smoke.yaml")
    cfg["bogus"] = 1
    cfg["online"]["figures"]["settings"]["setting2"]["figure"] = "fig1"
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert "'bogus'" in str(info.value) and "figure name no other setting uses" in str(info.value)


def test_integer_values_are_fine_for_number_keys():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["epsilons"] = [1, 2]
    cfg["online"]["figures"]["settings"]["setting1"]["means"] = [1, 0]
    cfg["online"]["audit"]["epsilon"] = 2
    validate_config(cfg)


def test_messages_are_bounded():
    cfg = _base("smoke.yaml")
    cfg["scale"] = "x" * 100_000
    cfg["online"]["figures"]["algorithms"] = ["magic" * 1000] * 3
    cfg["seed"] = 10**400
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    msg = str(info.value)
    assert len(msg) < 3000, len(msg)
    assert all(len(line) <= 400 for line in msg.splitlines())
    assert "..." in msg and "'scale'" in msg and "'seed'" in msg


def test_integer_too_long_to_print():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["runs"] = 10**5000  # str() of it raises in Python >= 3.11
    with pytest.raises(ConfigError, match="'online.figures.runs': an integer of about 5000 digits"):
        validate_config(cfg)


def test_many_problems_are_capped():
    from dpbandits.workflow.config import MAX_PROBLEMS

    cfg = _base("smoke.yaml")
    for i in range(200):
        cfg[f"extra{i}"] = 1
    cfg["contextual"]["fig7"]["n_target"] = [-1.5 - i for i in range(49)] + ["x"]
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    lines = str(info.value).splitlines()
    assert len(lines) == 1 + MAX_PROBLEMS + 1
    assert lines[-1].startswith("  - ... and ") and lines[-1].endswith("more problem(s)")


def _bomb(levels: int) -> list:
    x = [1.0] * 10
    for _ in range(levels):
        x = [x] * 10  # shared references, as YAML aliases build them
    return x


def test_alias_bomb_dict_gets_a_short_message():
    cfg = _base("smoke.yaml")
    cfg["online"]["figures"]["epsilons"] = _bomb(7)  # 10^8 values once expanded
    start = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert time.perf_counter() - start < 5
    msg = str(info.value)
    assert len(msg) < 500 and "config key 'online.figures.epsilons' is too large" in msg


def test_self_referencing_config_is_rejected():
    cfg = _base("smoke.yaml")
    loop: list = []
    loop.append(loop)
    cfg["online"]["figures"]["references"] = loop
    with pytest.raises(ConfigError, match="'online.figures.references' is too large"):
        validate_config(cfg)


# ---- strict YAML loading: duplicate keys, alias bombs -----------------------------------------


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


SMOKE_TEXT = (CONFIG_DIR / "smoke.yaml").read_text()

_SMOKE_LINES = (Path(__file__).resolve().parents[1] / "config/smoke.yaml").read_text().splitlines()
_RUNS_LINE = _SMOKE_LINES.index("    runs: 6") + 1  # 1-based line of online.figures.runs
_ONLINE_LINE = _SMOKE_LINES.index("online:") + 1


@pytest.mark.parametrize(("text", "expected"), [
    (SMOKE_TEXT + "seed: 8\n", [f"line {SMOKE_TEXT.count(chr(10)) + 1}: duplicate key 'seed' (first at line 2)"]),
    (SMOKE_TEXT.replace("    runs: 6\n", "    runs: 6\n    runs: 60\n", 1),
     [f"line {_RUNS_LINE + 1}: duplicate key 'online.figures.runs' (first at line {_RUNS_LINE})"]),
    (SMOKE_TEXT + "online:\n  figures:\n    runs: 5\n", [f"duplicate key 'online' (first at line {_ONLINE_LINE})"]),
    (SMOKE_TEXT.replace("setting2: {figure: fig2,", "setting2: {figure: fig2, figure: fig3,", 1),
     ["duplicate key 'online.figures.settings.setting2.figure'"]),
    (SMOKE_TEXT.replace("setting2:", "setting1:", 1), ["duplicate key 'online.figures.settings.setting1'"]),
    ("a: [{x: 1, x: 2}]\n", ["line 1: duplicate key 'a[0].x'"]),
    ('{"seed": 1,\t"seed": 2}\n', ["duplicate key 'seed'"]),  # JSON (with a tab PyYAML rejects)
])
def test_duplicate_keys_are_rejected_with_line_and_key(tmp_path, text, expected):
    from dpbandits.workflow.config import load_yaml_strict

    path = _write(tmp_path, "dup.yaml", text)
    with pytest.raises(ConfigError) as info:
        load_yaml_strict(path)
    for fragment in expected:
        assert fragment in str(info.value), str(info.value)
    assert str(path) in str(info.value)


def test_merge_keys_and_small_aliases_are_fine(tmp_path):
    from dpbandits.workflow.config import load_yaml_strict

    text = "base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\nlist: &l [1, 2]\nagain: *l\n"
    data = load_yaml_strict(_write(tmp_path, "ok.yaml", text))
    assert data["use"] == {"x": 1, "y": 3} and data["again"] == [1, 2]


def test_alias_bomb_file_gets_a_short_message(tmp_path):
    from dpbandits.workflow.config import load_yaml_strict

    text = "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 8))
    start = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        load_yaml_strict(_write(tmp_path, "bomb.yaml", text))
    assert time.perf_counter() - start < 5
    msg = str(info.value)
    assert len(msg) < 500 and "too large" in msg and "'a7'" in msg


def test_recursive_alias_file_is_rejected(tmp_path):
    from dpbandits.workflow.config import load_yaml_strict

    with pytest.raises(ConfigError, match="too large"):
        load_yaml_strict(_write(tmp_path, "loop.yaml", "seed: &s [1, *s]\n"))


def test_unsafe_tag_is_not_valid_yaml(tmp_path):
    from dpbandits.workflow.config import load_yaml_strict

    path = _write(tmp_path, "tag.yaml", "seed: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(ConfigError, match="not valid YAML") as info:
        load_yaml_strict(path)
    assert len(str(info.value)) < 600


def test_load_config_rejects_duplicates(tmp_path):
    path = _write(tmp_path, "dup.yaml", SMOKE_TEXT + "scale: paper\n")
    with pytest.raises(ConfigError, match="duplicate key 'scale'"):
        load_config(path)


# ---- validate_workflow_config: every config file, then the merged config ----------------------


def test_workflow_validation_reports_every_problem_at_once(tmp_path):
    default = _write(tmp_path, "default.yaml", SMOKE_TEXT.replace("scale: smoke\n", "scale: smoke\nscale: paper\n"))
    user = _write(tmp_path, "user.yaml", SMOKE_TEXT.replace("seed: 7\n", ""))
    merged = _base("smoke.yaml")
    merged["online"]["figures"]["epsilons"] = [0.5, math.nan]
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(merged, [default, user], [user])
    lines = str(info.value).splitlines()
    assert lines[0] == "invalid configuration:" and len(lines) == 4, lines
    assert f"config file {default}, line 4: duplicate key 'scale' (first at line 3)" in lines[1]
    assert f"config file {user} (each --configfile must be a complete configuration): missing key(s) 'seed'" in lines[2]
    assert "'online.figures.epsilons[1]': nan" in lines[3]


def test_only_configfiles_must_be_complete(tmp_path):
    partial = _write(tmp_path, "partial.yaml", "seed: 3\n")
    cfg = _base("smoke.yaml")
    validate_workflow_config(cfg, [partial], [])  # the Snakefile's own configfile: may be partial
    with pytest.raises(ConfigError, match="must be a complete configuration.*missing key"):
        validate_workflow_config(cfg, [partial], [partial])


@pytest.mark.parametrize("text", ["", "# nothing\n", "{}\n", "- seed\n"])
def test_empty_configfile_is_rejected(tmp_path, text):
    path = _write(tmp_path, "empty.yaml", text)
    with pytest.raises(ConfigError, match="empty or not a mapping"):
        validate_workflow_config(_base("smoke.yaml"), [path], [path])


def test_a_file_listed_twice_is_reported_once(tmp_path):
    path = _write(tmp_path, "dup.yaml", SMOKE_TEXT + "seed: 8\n")
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(_base("smoke.yaml"), [path, str(path)], [path])
    assert str(info.value).count("duplicate key") == 1


def test_unreadable_configfile(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the config file"):
        validate_workflow_config(_base("smoke.yaml"), [tmp_path / "nope.yaml"], [])


# ---------------------------------------------------------------------------------------------
# Every bad config of the workflow tests, in process, through the function common.smk calls with
# the same files (tests/test_workflow.py runs a subset end to end through Snakemake).


@pytest.mark.parametrize("path, value, key", BAD_VALUES, ids=[b[2] for b in BAD_VALUES])
def test_every_bad_value_is_rejected_by_the_workflow_validation(tmp_path, path, value, key):
    cfg = _base("smoke.yaml")
    _set(cfg, tuple(path), value)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(cfg))
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(cfg, [CONFIG_DIR / "config.yaml", bad], [bad])
    msg = str(info.value)
    assert key in msg and len(msg) < 10_000, msg[-2000:]


@pytest.mark.parametrize("which, edit, extra, fragments", [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_every_bad_file_is_rejected_by_the_workflow_validation(tmp_path, which, edit, extra, fragments):
    from snakemake.utils import update_config

    text = edit((CONFIG_DIR / "smoke.yaml").read_text())
    default, given = CONFIG_DIR / "config.yaml", CONFIG_DIR / "smoke.yaml"
    bad = tmp_path / ("config/config.yaml" if which == "default" else "bad.yaml")
    bad.parent.mkdir(exist_ok=True)
    bad.write_text(text)
    if which == "default":
        default = bad
    else:
        given = bad
    merged = {}
    for f in (default, given):
        try:
            data = yaml.safe_load(f.read_text())
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            update_config(merged, data)
    overrides = dict(arg.split("=", 1) for arg in extra[1:]) if extra else {}
    merged.update(overrides)
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(merged, [default, given], [given])
    msg = str(info.value)
    for fragment in fragments:
        assert fragment in msg, (fragment, msg[-2000:])
    assert len(msg) < 10_000


def test_a_key_missing_from_a_configfile_is_reported_once(tmp_path):
    """A key missing from a --configfile is missing from the merged configuration too: one line,
    the file's (it says which file), not a second one for the merged configuration."""
    user = _write(tmp_path, "user.yaml", SMOKE_TEXT.replace("seed: 7\n", ""))
    merged = _base("smoke.yaml")
    del merged["seed"]
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(merged, [user], [user])
    lines = str(info.value).splitlines()
    assert len(lines) == 2 and f"config file {user}" in lines[1] and "missing key(s) 'seed'" in lines[1], lines
