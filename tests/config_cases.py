"""Bad configurations shared by the config tests: each is rejected in process by
``validate_workflow_config`` (tests/test_config.py) and a representative subset end to end through
Snakemake (tests/test_workflow.py), which proves that common.smk runs that validation before any
job and writes nothing."""

from __future__ import annotations

from pathlib import Path

_SMOKE_LINES = (Path(__file__).resolve().parents[1] / "config/smoke.yaml").read_text().splitlines()
_RUNS_LINE = _SMOKE_LINES.index("    runs: 6") + 1  # 1-based line of online.figures.runs
_ONLINE_LINE = _SMOKE_LINES.index("online:") + 1

BAD_VALUES = [
    (["online", "bandit", "horizon"], 5000, "online.bandit.horizon"),
    (["online", "full_info", "long_horizon"], 12345, "online.full_info.long_horizon"),
    (["online", "full_info", "runs"], 1, "online.full_info.runs"),
    (["seed"], -1, "seed"),
    (["seed"], "abc", "seed"),
    (["scale"], "huge", "scale"),
    (["online", "figures", "epsilons"], [0.0, 1.0], "online.figures.epsilons[0]"),
    (["online", "figures", "epsilons"], [-1, 1.0], "online.figures.epsilons[0]"),
    (["online", "figures", "settings", "setting1", "means"], [0.5], "online.figures.settings.setting1.means"),
    (["online", "figures", "settings", "setting2", "means"], [0.5, 1.5], "online.figures.settings.setting2.means[1]"),
    (["online", "figures", "settings", "setting2", "means"], [-0.1, 0.5], "online.figures.settings.setting2.means[0]"),
    (["online", "figures", "runs"], 0, "online.figures.runs"),
    (["online", "figures", "bogus"], 1, "bogus"),
    (["unknown_top"], 1, "unknown_top"),
    (["dueling", "alg1", "runs"], 1, "dueling.alg1.runs"),
    (["dueling", "alg2", "dims"], [2, 4], "dueling.alg2.dims"),
    (["dueling", "alg2", "max_horizon_exponent"], 20, "dueling.alg2.max_horizon_exponent"),
    (["dueling", "audit", "confidence"], 1.5, "dueling.audit.confidence"),
    (["dueling", "audit", "extra"], 1, "extra"),
    (["quantile", "seq", "fig_runs"], 1, "quantile.seq.fig_runs"),
    (["quantile", "seq", "smallest_gap"], 0.001, "quantile.seq.smallest_gap"),
    (["quantile", "audit", "control_noise_multiplier"], 1.5, "quantile.audit.control_noise_multiplier"),
    (["quantile", "analytic", "b2_horizon"], 500, "quantile.analytic.b2_horizon"),
    (["quantile", "dp", "bogus"], 1, "bogus"),
    (["quantile", "baselines", "d1_cap"], 10, "quantile.baselines.d1_cap"),
    (["contextual", "runs"], 1, "contextual.runs"),
    (["contextual", "fig8", "n_aux"], [1000, 2000, 5000, 10000], "contextual.fig8.n_aux"),
    (["contextual", "tables", "target_fraction", "taxi"], 1.5, "contextual.tables.target_fraction.taxi"),
    (["contextual", "audit", "control_noise_multiplier"], 1.0, "contextual.audit.control_noise_multiplier"),
    (["contextual", "presets", "epsilons"], [1, 8], "contextual.presets.epsilons"),
    (["contextual", "bogus"], 1, "bogus"),
    # non-finite numbers, whole-number floats, huge counts, inconsistent values
    (["online", "figures", "epsilons"], [0.25, float("nan")], "'online.figures.epsilons[1]': nan"),
    (["online", "figures", "epsilons"], [float("inf"), 1.0], "'online.figures.epsilons[0]': inf"),
    (["online", "audit", "epsilon"], float("nan"), "'online.audit.epsilon': nan"),
    (["seed"], 7.0, "'seed': 7.0 is not allowed; allowed: an integer"),
    (["online", "figures", "horizon"], 2.0e3, "'online.figures.horizon': 2000.0"),
    (["online", "figures", "runs"], 10**9, "'online.figures.runs': 1000000000 is not allowed; allowed: an integer >= 2 and <= 2000"),
    (["online", "figures", "horizon"], 10**18, "'online.figures.horizon'"),
    (["online", "figures", "checkpoints", "linear"], 5000, "'online.figures.checkpoints.linear': 5000"),
    (["online", "figures", "settings", "setting2", "figure"], "fig1", "'online.figures.settings.setting2.figure'"),
    (["online", "figures", "settings", "setting1", "means"], [0.5, 0.5, 0.2], "a unique best arm"),
    (["contextual", "fig6", "batch"], 5000, "'contextual.fig6.batch': 5000"),
    # bounds the jobs honour: an epsilon whose Laplace scale overflows
    (["online", "figures", "epsilons"], [1e-310, 1.0], "'online.figures.epsilons[0]': 1e-310"),
    (["online", "audit", "epsilon"], 1e-9, "'online.audit.epsilon'"),
    (["online", "audit", "adap_klucb_epsilon"], 1e-300, "'online.audit.adap_klucb_epsilon'"),
    (["quantile", "audit", "epsilon"], 1e-310, "'quantile.audit.epsilon'"),
    (["contextual", "presets", "epsilons"], [1e-310, 1024], "'contextual.presets.epsilons[0]'"),
    (["contextual", "baselines", "epsilon"], 1e-310, "'contextual.baselines.epsilon'"),
    (["contextual", "audit", "epsilon"], 1e-310, "'contextual.audit.epsilon'"),
    # string patterns anchored for real (a schema's $ also matches before a final newline)
    (["online", "figures", "settings", "setting1", "figure"], "fig1\n", "'online.figures.settings.setting1.figure'"),
]


def _bomb_text(levels=7):
    """A YAML alias bomb: 10^(levels + 1) values once expanded, a few hundred bytes as text."""
    return "x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, levels + 1))


# (id, file written: "configfile" (given with --configfile) or "default" (config/config.yaml, read
# by the Snakefile), its text from the smoke config's, extra arguments, fragments of the message)
BAD_FILES = [
    ("duplicate-key", "configfile", lambda t: t.replace("    runs: 6\n", "    runs: 6\n    runs: 60\n", 1), [],
     [f"line {_RUNS_LINE + 1}: duplicate key 'online.figures.runs' (first at line {_RUNS_LINE})"]),
    ("duplicate-section", "configfile", lambda t: t + "online:\n  figures:\n    runs: 5\n", [],
     [f"duplicate key 'online' (first at line {_ONLINE_LINE})"]),
    ("duplicate-in-default-config", "default", lambda t: t + "seed: 8\n", [],
     ["config/config.yaml, line", "duplicate key 'seed'"]),
    ("alias-bomb", "configfile", lambda t: t + _bomb_text(), [], ["too large", "'x7'"]),
    ("dag-too-large", "configfile",
     lambda t: t.replace("    runs: 6\n    runs_per_job: 3 ", "    runs: 2000\n    runs_per_job: 1 ", 1), [],
     ["jobs; allowed: at most 20,000", "'online.figures.runs_per_job'"]),
    ("incomplete-and-bad-override", "configfile", lambda t: t.replace("seed: 7\n", ""),
     ["--config", "scale=huge"], ["missing key(s) 'seed'", "config key 'scale': 'huge'"]),
]
