"""Bring your own algorithm: a researcher's class with the bandit interface of
``dpbandits.online.interface`` runs through ``dpbandits.online.simulate``, is named in the config
(``online.extra_algorithms``, validated before any job), and gets the black-box audit of the
paper's algorithms: the private example (examples/dp_ucb_tree.py) PASSes, the deliberately
leaky one (examples/leaky_ucb.py) FAILs, each with its negative control caught."""

from __future__ import annotations

import copy
import logging
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from dpbandits.audit import AuditResult
from dpbandits.evidence.guards import judge_all
from dpbandits.online import interface
from dpbandits.online.checks.extra import _audit_rows, audit_class, check_x_audit, check_x_regret
from dpbandits.workflow.config import ConfigError, validate_config

DP_UCB = "examples.dp_ucb_tree:DPUCBTree"
LEAKY = "examples.leaky_ucb:LeakyUCB"


@pytest.fixture(autouse=True)
def _at_repo_root(repo, monkeypatch):
    monkeypatch.chdir(repo)  # import paths resolve against the working directory, as in the workflow


def _smoke(repo):
    return yaml.safe_load((repo / "config" / "smoke.yaml").read_text())


class PerStepOnly:
    """A minimal private algorithm with the per-step interface only (no copies)."""

    def __init__(self, n_arms, epsilon, horizon, rng, *, bias: float = 0.0):
        self.k, self.rng, self.bias = n_arms, rng, bias

    def select(self, t):
        return int(self.rng.integers(self.k))

    def update(self, t, arm, reward):
        pass


def test_interface_helpers_on_the_examples():
    cls = interface.load_algorithm(DP_UCB)
    assert interface.interface_problems(cls) == []
    assert interface.supports_copies(cls) and interface.supports_noise_multiplier(cls)
    assert interface.algorithm_params(cls) == {"width": 1.0, "noise_multiplier": 1.0}
    assert interface.interface_problems(dict) and "select" in "; ".join(interface.interface_problems(dict))
    with pytest.raises(ValueError, match=r"'Width' for DPUCBTree; allowed: width, noise_multiplier"):
        interface.check_algorithm_params(cls, {"Width": 2})
    with pytest.raises(ValueError, match="no attribute 'Nope'"):
        interface.load_algorithm("examples.dp_ucb_tree:Nope")
    with pytest.raises(ValueError, match="not of the form"):
        interface.load_algorithm("examples.dp_ucb_tree")
    assert interface.load_algorithm("examples/leaky_ucb.py:LeakyUCB").__name__ == "LeakyUCB"


def test_a_researchers_class_runs_through_simulate():
    from dpbandits.online import simulate

    cls = interface.load_algorithm(DP_UCB)
    fast = simulate(cls, [0.7, 0.5, 0.4], 1.0, 2000, 3, 1, {"width": 0.5}, checkpoints=[100, 2000])
    ref = simulate(DP_UCB, [0.7, 0.5, 0.4], 1.0, 2000, 3, 1, {"width": 0.5}, engine="reference")
    for res in (fast, ref):
        assert res.pulls.sum(axis=1).tolist() == [2000] * 3 and (res.final_regret > 0).all()
    # one copy of the vectorised interface has the per-step object's law: same mean order of magnitude
    assert 0.3 < fast.final_regret.mean() / ref.final_regret.mean() < 3
    per_step = simulate(PerStepOnly, [0.6, 0.4], 1.0, 300, 2, 3, {"bias": 0.1})
    assert per_step.regret.shape == (2, 1)
    with pytest.raises(ValueError, match=r"'alpha' for PerStepOnly; allowed: bias"):
        simulate(PerStepOnly, [0.6, 0.4], 1.0, 300, params={"alpha": 3})
    with pytest.raises(ValueError, match="does not implement the bandit interface"):
        simulate(dict, [0.6, 0.4], 1.0, 300)


def test_a_researchers_class_reads_the_documented_streams():
    """Without ``copies`` (or with engine="reference") run r is the class driven by the reference
    engine on the streams ``rewards`` and ``algorithm`` of ``seed.spawn(runs)[r]`` (the module
    docstring of dpbandits.online.api): reproducible by hand, and an int seed is a root seed."""
    from dpbandits.envs.bernoulli import BernoulliBandit
    from dpbandits.online import api
    from dpbandits.rng import derive_seed, stream_rngs
    from dpbandits.sim.reference import run_reference

    means, cps = np.array([0.6, 0.4, 0.3]), np.array([50, 400])
    res = api.simulate(PerStepOnly, means, 1.0, 400, 3, 9, {"bias": 0.2}, checkpoints=cps)
    for r, run_seed in enumerate(derive_seed(9, "online", "api").spawn(3)):
        rngs = stream_rngs(run_seed, api.USER_STREAMS)
        one = run_reference(PerStepOnly(3, 1.0, 400, rngs["algorithm"], bias=0.2), BernoulliBandit(means), 400,
                            cps, rngs["rewards"])
        np.testing.assert_array_equal(res.regret[r], one.regret)
        np.testing.assert_array_equal(res.pulls[r], one.pulls)
    assert res.params == {"bias": 0.2} and res.algorithm == "PerStepOnly"
    cls = interface.load_algorithm(DP_UCB)  # has copies: the reference engine still runs per-step objects
    ref = api.simulate(cls, means, 1.0, 400, 2, 9, engine="reference")
    rngs = stream_rngs(derive_seed(9, "online", "api").spawn(2)[1], api.USER_STREAMS)
    one = run_reference(cls(3, 1.0, 400, rngs["algorithm"]), BernoulliBandit(means), 400, np.array([400]),
                        rngs["rewards"])
    assert ref.final_regret[1] == one.regret[-1]


def test_the_smoke_config_names_both_examples_and_they_validate(repo):
    cfg = _smoke(repo)
    names = [e["name"] for e in cfg["online"]["extra_algorithms"]]
    assert names == ["dp_ucb_tree", "leaky_ucb"]
    validate_config(copy.deepcopy(cfg))


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda e: e[0].update({"import": "examples.dp_ucb_tree:Nope"}),
     "config key 'online.extra_algorithms[0].import': 'examples.dp_ucb_tree:Nope' is not allowed"),
    (lambda e: e[1].update({"import": "no_such_package.mod:Cls"}),
     "'online.extra_algorithms[1].import': 'no_such_package.mod:Cls' is not allowed: cannot import"),
    (lambda e: e[0].update({"import": "examples.dp_ucb_tree"}), "online.extra_algorithms[0].import"),
    (lambda e: e[0].update({"import": "dpbandits.online.ucb1:UCB1"}),
     "does not implement the bandit interface"),
    (lambda e: e[0].update({"params": {"widht": 2}}),
     "'online.extra_algorithms[0].params': unknown parameter(s) 'widht' for DPUCBTree; allowed: width"),
    (lambda e: e[1].update({"name": "dp_ucb_tree"}), "not used by another entry"),
    (lambda e: e[1].update({"name": "lazy_dp_ts"}), "not taken by the paper's algorithms"),
    (lambda e: e[1].pop("epsilon_accounting"), "missing key(s) 'epsilon_accounting'"),
    (lambda e: e[1].update({"bogus": 1}), "unknown key(s) 'bogus'"),
    (lambda e: e[0].update({"name": "dp_ucb_tree\n"}), "online.extra_algorithms[0].name"),
    # every id the names produce is unique: X-AUDIT-DP-UCB-TREE-CONTROL is entry 0's control row
    (lambda e: e[1].update({"name": "dp_ucb_tree_control"}),
     "'online.extra_algorithms[1].name': 'dp_ucb_tree_control' is not allowed; allowed: a name whose check ids do "
     "not collide with another entry's (X-AUDIT-DP-UCB-TREE-CONTROL is also online.extra_algorithms[0]'s)"),
    # params of the right name and the wrong type: a dry run meets the job's error before any job
    (lambda e: e[0].update({"params": {"width": "wide"}}),
     "'online.extra_algorithms[0].params': a dry run (per-step, K = 2, epsilon = 1, 5 rounds) fails: ValueError"),
    # the audit's size: a mirrored round beyond the shortest table, too many action sequences, out of range
    (lambda e: e[0].update({"audit_horizons": [6, 12], "audit_rounds": [1, 7]}),
     "config key 'online.extra_algorithms[0].audit_rounds': [1, 7] is not allowed; allowed: rounds in [1, 6]"),
    (lambda e: e[0].update({"audit_arms": 3}),
     "config key 'online.extra_algorithms[0].audit_arms': 3 (with audit_horizons up to 16: 43046721 action "
     "sequences) is not allowed; allowed: at most 4194304 action sequences"),
    (lambda e: e[0].update({"audit_arms": 9}), "online.extra_algorithms[0].audit_arms"),
])
def test_bad_extra_algorithms_are_rejected_before_any_job(repo, mutate, expected):
    cfg = _smoke(repo)
    mutate(cfg["online"]["extra_algorithms"])
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert expected in str(info.value), str(info.value)


def test_the_audit_fails_the_leaky_example_and_passes_the_private_one(caplog):
    """Both at a small size, with a stronger control (x0.1) than the workflow's so that the
    private example's control is caught at 3e4 runs per table (the smoke workflow uses x0.25 and
    1e5 runs). A control that leaks 10 eps is caught, but a release leaking 10 eps is no way a
    private algorithm's claim could be wrong by a factor the audit was shown to see: the private
    example passes its own criterion and stays INCONCLUSIVE no_power (a 2 eps control: below)."""
    a = {"epsilon": 1.0, "confidence": 0.999, "control_noise_multiplier": 0.1, "extra_algorithms": [
        {"name": "dp_ucb_tree", "import": DP_UCB, "epsilon_accounting": 1, "audit_samples": 30000},
        {"name": "leaky_ucb", "import": LEAKY, "epsilon_accounting": 1, "audit_samples": 20000}]}
    with caplog.at_level(logging.INFO):
        rows = {c.check_id: c for c in judge_all(check_x_audit(7, "smoke", a))}
    for name, samples in (("dp_ucb_tree", 30000), ("leaky_ucb", 20000)):  # each audit's time, in the job's log
        assert re.search(rf"audit of {name}: \d+\.\d s for the algorithm and its control, \d+\.\d s for the "
                         rf"power table \(the eps-DP reference and 4 leak classes\); audit_samples {samples}",
                         caplog.text), caplog.text
    private = rows["X-AUDIT-DP-UCB-TREE"]
    assert (private.verdict, private.reason) == ("INCONCLUSIVE", "no_power") and "PASS on its own" in private.claim
    assert "a leak of 10 eps" in private.claim
    assert rows["X-AUDIT-LEAKY-UCB"].verdict == "FAIL" and rows["X-AUDIT-LEAKY-UCB"].value > 1.5
    assert rows["X-AUDIT-DP-UCB-TREE-CONTROL"].verdict == rows["X-AUDIT-LEAKY-UCB-CONTROL"].verdict == "PASS"
    assert {r.kind for r in rows.values()} == {"baseline", "control"}


def test_an_audit_pass_is_supported_only_against_a_control_at_most_2_eps():
    """The audit row's power, as for the paper's audits: a caught control at x0.5 (a release that
    is 2 eps-DP) supports the PASS; the same caught control at x0.25 (4 eps) does not."""
    spec = interface.ExtraAlgorithm(name="mine", import_path=DP_UCB, epsilon_accounting=1.0)
    real = AuditResult(1.0, 0.8, "output=0", 1000, 0.999, 4)
    control = AuditResult(1.0, 1.6, "output=0", 1000, 0.999, 4)
    for m, reason, form in ((0.5, "supported", "privacy_2eps"), (0.25, "no_power", "")):
        main, ctrl = judge_all(_audit_rows(spec, real, control, f"its noise scale x{m:g}", "smoke", m))
        assert (main.verdict, main.reason, main.evidence.power_form) == (
            "PASS" if form else "INCONCLUSIVE", reason, form), main.claim
        assert (ctrl.kind, ctrl.verdict) == ("control", "PASS")


def test_a_control_by_epsilon_for_classes_without_noise_multiplier():
    """Without a noise_multiplier the control is the class at epsilon / m; a class whose actions
    ignore the data cannot be caught, so its audit is INCONCLUSIVE (no power), never a PASS."""
    a = {"epsilon": 1.0, "confidence": 0.999, "control_noise_multiplier": 0.25, "extra_algorithms": [
        {"name": "blind", "import": "tests/test_extra_algorithms.py:PerStepOnly", "epsilon_accounting": 1,
         "audit_samples": 2000}]}
    rows = judge_all(check_x_audit(1, "smoke", a))
    assert [r.verdict for r in rows] == ["INCONCLUSIVE", "FAIL"] and rows[0].reason == "no_power"
    assert "epsilon / 0.25" in rows[1].claim
    rng = np.random.default_rng(0)
    assert audit_class(PerStepOnly, {}, 1.0, 1.0, 500, rng).epsilon_lower_bound == 0.0


def test_regret_rows_relative_to_lazy_dp_ts():
    rng = np.random.default_rng(1)
    paper = pd.DataFrame({"setting": "s1", "algorithm": "lazy_dp_ts", "epsilon": 0.5, "run": range(6),
                          "final_regret": rng.normal(100, 5, 6)})
    extra = pd.DataFrame({"setting": "s1", "algorithm": "mine", "epsilon": 0.5, "run": range(6),
                          "final_regret": rng.normal(200, 5, 6)})
    (row,) = judge_all(check_x_regret({"runs": paper, "extra": extra}, rng, 200, "smoke"))
    assert row.check_id == "X-REGRET-MINE" and row.verdict == "REPORT" and row.kind == "report"
    assert 1.7 < row.ci_low <= row.value <= row.ci_high < 2.3
    assert check_x_regret({"runs": paper, "extra": extra.iloc[:0]}, rng, 200, "smoke") == []


def test_extra_rows_leave_the_papers_final_regret_rows_unchanged(tmp_path):
    from dpbandits.online.experiments.figures import final_regret_table

    rng = np.random.default_rng(2)
    paper = pd.DataFrame({"setting": "s1", "algorithm": np.repeat(["lazy_dp_ts", "ucb1"], 4),
                          "epsilon": np.repeat([0.5, np.nan], 4), "run": np.tile(range(4), 2),
                          "final_regret": rng.normal(100, 5, 8)})
    extra = paper[paper.algorithm == "lazy_dp_ts"].assign(algorithm="mine", final_regret=lambda f: f.final_regret * 2)
    alone = final_regret_table(paper, 100, tmp_path / "a.tex", tmp_path / "a.csv", np.random.default_rng(3), 200)
    both = final_regret_table(paper, 100, tmp_path / "b.tex", tmp_path / "b.csv", np.random.default_rng(3), 200,
                              extra_runs=extra, extra_labels={"mine": "Mine"})
    pd.testing.assert_frame_equal(both[both.algorithm != "mine"].reset_index(drop=True), alone)
    assert both[both.algorithm == "mine"].label.tolist() == ["Mine (extra)"]


def test_the_dag_guard_counts_the_extra_algorithms(repo):
    cfg = _smoke(repo)
    cfg["online"]["figures"].update(runs=2000, runs_per_job=1)
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    msg = str(info.value)  # 2 settings x 2000 blocks x ((4 + 2) x 3 epsilons + 2 references)
    assert "('online.figures.algorithms' (4) + 'online.extra_algorithms' (2))" in msg and "80,000 simulate jobs" in msg


class ArmOutOfRange(PerStepOnly):
    """select() returns -1, which numpy would silently read as the last arm."""

    def select(self, t):
        return -1


class FloatArms:
    """A vectorised select() returning a float, which an int cast would silently read as arm 0."""

    def __init__(self, n_arms, epsilon, horizon, rng, *, copies=None):
        self.copies = copies

    def select(self, t):
        return 0.9 if self.copies is None else np.full(self.copies, 0.9)

    def update(self, t, arm, reward):
        pass


def test_every_arm_a_class_returns_is_checked_where_it_returns_it():
    from dpbandits.online import simulate

    with pytest.raises(ValueError, match=r"ArmOutOfRange.select\(t=1\) returned -1; allowed: an integer arm in \[0, 1\]"):
        simulate(ArmOutOfRange, [0.6, 0.4], 1.0, 10, 1, 0)
    with pytest.raises(ValueError, match=r"FloatArms.select\(t=1\) with copies=3 returned 0.9"):
        simulate(FloatArms, [0.6, 0.4], 1.0, 10, 3, 0)  # fast engine: the vectorised interface
    with pytest.raises(ValueError, match=r"FloatArms.select\(t=1\) returned 0.9"):
        simulate(FloatArms, [0.6, 0.4], 1.0, 10, 2, 0, engine="reference")
    with pytest.raises(ValueError, match=r"FloatArms.select\(t=1\) with copies=\d+ returned 0.9"):  # its pilot first
        audit_class(FloatArms, {}, 1.0, 1.0, 50, np.random.default_rng(0))
    problems = interface.dry_run_problems(FloatArms, {})
    assert len(problems) == 2 and "per-step" in problems[0] and "copies=2" in problems[1]
    assert interface.dry_run_problems(interface.load_algorithm(DP_UCB), {"width": 1.0}) == []


def test_a_module_that_exits_on_import_is_a_clear_error(tmp_path):
    """sys.exit on import must not end the run with exit 0 and no message: it is an import error."""
    module = tmp_path / "exits.py"
    module.write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(ValueError, match="cannot import .*exits.py.*SystemExit"):
        interface.load_algorithm(f"{module}:Anything")


def test_a_file_path_algorithm_imports_a_helper_module_beside_it(tmp_path):
    """'path/to/file.py:Class' loads the file as a module; a helper next to it imports as it would
    from that directory."""
    (tmp_path / "mybandit_helpers.py").write_text("def first_arm(t):\n    return 0\n")
    (tmp_path / "mybandit.py").write_text(
        "from mybandit_helpers import first_arm\n\n\n"
        "class Greedy:\n"
        "    def __init__(self, n_arms, epsilon, horizon, rng):\n        self.n_arms = n_arms\n\n"
        "    def select(self, t):\n        return first_arm(t)\n\n"
        "    def update(self, t, arm, reward):\n        pass\n")
    cls = interface.load_algorithm(f"{tmp_path / 'mybandit.py'}:Greedy")
    assert cls(2, 1.0, 10, np.random.default_rng(0)).select(1) == 0


def test_the_audit_size_is_the_configs_arms_and_rounds():
    """K = 3 and other mirrored rounds: the table has three arms (arm 2 is column 0 shifted by two
    rounds), the neighbours mirror the configured rounds, and the row says so; the leaky example
    still FAILs there."""
    from dpbandits.online.checks.audits import BANDIT_TABLE
    from dpbandits.online.checks.extra import audit_table

    np.testing.assert_array_equal(audit_table(8), BANDIT_TABLE)  # the default is the paper audit's table
    three = audit_table(8, 3)
    assert three.shape == (8, 3)
    np.testing.assert_array_equal(three[:, :2], BANDIT_TABLE)
    np.testing.assert_array_equal(three[:, 2], np.roll(BANDIT_TABLE[:, 0], 2))
    a = {"epsilon": 1.0, "confidence": 0.999, "control_noise_multiplier": 0.25, "extra_algorithms": [
        {"name": "leaky_ucb", "import": LEAKY, "epsilon_accounting": 1, "audit_samples": 20000,
         "audit_horizons": [8], "audit_arms": 3, "audit_rounds": [1, 5]}]}
    rows = {c.check_id: c for c in judge_all(check_x_audit(7, "smoke", a))}
    leaky = rows["X-AUDIT-LEAKY-UCB"]
    assert leaky.verdict == "FAIL" and "K = 3, T = 8, 2 neighbouring tables per T (the reward vector of round 1, 5" \
        in leaky.claim, leaky.claim

