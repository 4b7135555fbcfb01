"""The command line (dpbandits.workflow.cli; console script `dpbandits`): a researcher's class from
a file, of any family, runs beside the paper's algorithms on the same seeds, its audit FAILs a
leaky class (online, dueling, quantile) or a leaky local randomiser (contextual), and bad input
stops before any work with the argument's name."""

from __future__ import annotations

import re
import shutil
from importlib.metadata import entry_points

import pandas as pd
import pytest

from dpbandits.workflow.cli import main, parse_params


@pytest.fixture
def mine(repo, tmp_path):
    """The examples' classes as a researcher's files, outside the package and the repository."""
    for name in ("dp_ucb_tree.py", "leaky_ucb.py", "dueling_algorithms.py", "quantile_algorithms.py",
                 "contextual_policies.py"):
        shutil.copy(repo / "examples" / name, tmp_path / name)
    return tmp_path


def test_the_console_script_is_declared():
    assert any(e.name == "dpbandits" and e.value == "dpbandits.workflow.cli:main"
               for e in entry_points(group="console_scripts"))


def test_simulate_runs_the_class_beside_the_papers_algorithms_on_the_same_seeds(mine, tmp_path, capsys):
    argv = ["simulate", f"{mine}/dp_ucb_tree.py:DPUCBTree", "--param", "width=1", "--horizon", "3000",
            "--runs", "4", "--compare", "lazy_dp_ts,dp_se"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    table = pd.read_csv(tmp_path / "a/simulate.csv")
    assert list(table.algorithm) == ["DPUCBTree", "lazy_dp_ts", "dp_se"]
    assert (table.ci_low <= table.mean_final_regret).all() and (table.mean_final_regret <= table.ci_high).all()
    assert (tmp_path / "a/simulate.pdf").is_file() and (tmp_path / "a/simulate.png").is_file()
    assert "DPUCBTree" in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0  # the same seed: the same runs
    assert (tmp_path / "a/simulate.csv").read_bytes() == (tmp_path / "b/simulate.csv").read_bytes()


def test_audit_fails_a_leaky_class_and_states_its_size_and_power(mine, tmp_path, capsys):
    out = tmp_path / "audit"
    assert main(["audit", f"{mine}/leaky_ucb.py:LeakyUCB", "--samples", "20000", "--out", str(out)]) == 0
    rows = pd.read_csv(out / "audit.csv").set_index("check_id")
    assert rows.loc["X-AUDIT-LEAKYUCB", "verdict"] == "FAIL"
    assert rows.loc["X-AUDIT-LEAKYUCB-CONTROL", "verdict"] == "PASS"
    claim = rows.loc["X-AUDIT-LEAKYUCB", "claim"]
    assert "violation found at K = 2, T = 8 and 16" in claim and "20000 runs per table" in claim
    assert "composition ignored" in claim  # the leak classes at this size
    printed = capsys.readouterr()
    assert (out / "audit.png").is_file() and "X-AUDIT-LEAKYUCB: " in printed.out
    assert re.search(r"audit took \d+\.\d s for the algorithm and its control, \d+\.\d s for the power table",
                     printed.err)  # the audit's time, shown


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "nope.py:X"], "no file 'nope.py'"),
    (["simulate", "{mine}/dp_ucb_tree.py:DPUCBTree", "--param", "wdth=1"], "unknown parameter(s) 'wdth'"),
    (["simulate", "{mine}/dp_ucb_tree.py:DPUCBTree", "--param", "1x=2"], "--param '1x=2'"),
    (["simulate", "lazy_dp_ts", "--horizon", "3"], "--horizon 3: allowed an integer in [5, 1e8]"),
    (["simulate", "adap_klucb", "--param", "alfa=2"], "unknown parameter(s) 'alfa'"),
    (["simulate", "lazy_dp_ts", "--means", "0.5"], "--means '0.5': expected at least two arm means"),
    (["simulate", "lazy_dp_ts", "--compare", "bogus"], "ALGORITHM 'bogus'"),
    (["audit", "lazy_dp_ts"], "expected path/to/file.py:Class"),
    (["audit", "{mine}/leaky_ucb.py:LeakyUCB", "--horizons", "8", "32"], "--horizons [8, 32]: allowed distinct"),
    (["audit", "{mine}/leaky_ucb.py:LeakyUCB", "--control", "1.5"], "--control 1.5: allowed a number in (0, 1)"),
    (["audit", "{mine}/leaky_ucb.py:LeakyUCB", "--arms", "9"], "--arms 9: allowed an integer in [2, 8]"),
    (["audit", "{mine}/leaky_ucb.py:LeakyUCB", "--horizons", "8", "--rounds", "1", "9"],
     "--rounds [1, 9]: allowed rounds in [1, 8]"),
    (["audit", "{mine}/leaky_ucb.py:LeakyUCB", "--arms", "4"], "--arms 4 (with audit_horizons up to 16"),
])
def test_bad_input_stops_before_any_work_naming_the_argument(mine, tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    argv = [a.replace("{mine}", str(mine)) for a in argv]
    assert main([*argv, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()  # nothing written


@pytest.mark.parametrize(("family", "target", "extra", "compare"), [
    ("dueling", "dueling_algorithms.py:NoisyBordaElimination", ["--horizon", "3000", "--instance", "f1(4)"],
     ["dp_ebs_elimination", "rucb"]),
    ("quantile", "quantile_algorithms.py:DKWRacing", [], ["seq", "dp_seq"]),
    ("contextual", "contextual_policies.py:GreedyOnOneBin", ["--horizon", "500"], ["primary", "linear"]),
])
def test_simulate_runs_a_class_of_every_family_beside_the_papers(mine, tmp_path, capsys, family, target, extra,
                                                                 compare):
    argv = ["simulate", f"{mine}/{target}", "--family", family, "--runs", "3", "--compare", ",".join(compare),
            *extra]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    table = pd.read_csv(tmp_path / "a/simulate.csv")
    assert list(table.algorithm) == [target.rpartition(":")[2], *compare]
    assert (table.ci_low <= table["mean"]).all() and (table["mean"] <= table.ci_high).all() and (table.runs == 3).all()
    assert (tmp_path / "a/simulate.pdf").is_file() and (tmp_path / "a/simulate.png").is_file()
    assert target.rpartition(":")[2] in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0  # the same seed: the same runs
    assert (tmp_path / "a/simulate.csv").read_bytes() == (tmp_path / "b/simulate.csv").read_bytes()
    if family == "quantile":
        assert (table.error_rate == 0).all() and (table.censored == 0).all()
    if family == "contextual":  # the paper's policy reports eq. (1), a class the realised pseudo-regret
        assert "eq. (1)" in table.measure[1] and "realised" in table.measure[0] and "realised" in table.measure[2]


def test_the_contextual_audit_fails_a_leaky_randomiser_and_states_its_power(mine, tmp_path, capsys):
    out = tmp_path / "audit"
    assert main(["audit", f"{mine}/contextual_policies.py:ReusedNoiseReports", "--family", "contextual",
                 "--samples", "5000", "--out", str(out)]) == 0
    rows = pd.read_csv(out / "audit.csv")
    assert rows.verdict[0].startswith("FAIL: not eps-LDP") and rows.refuted[0]
    assert rows.refuted[1]  # its negative control is caught
    assert {"leak class: noise_reused", "leak class: noise_shrunk"} <= set(rows.audited)
    assert (out / "audit.png").is_file() and "FAIL: not eps-LDP" in capsys.readouterr().out
    assert main(["audit", f"{mine}/contextual_policies.py:LaplaceReports", "--family", "contextual",
                 "--samples", "5000", "--out", str(tmp_path / "good")]) == 0
    assert not pd.read_csv(tmp_path / "good/audit.csv").refuted[0]


def test_the_quantile_audit_fails_a_broken_class_and_passes_a_correct_one(mine, tmp_path, capsys):
    small = ["--family", "quantile", "--epochs", "2", "--pilot", "300", "--samples", "3000", "--seed", "5",
             "--no-power"]
    out = tmp_path / "audit"
    assert main(["audit", f"{mine}/quantile_algorithms.py:ShareNoiseDPSEQ", *small, "--out", str(out)]) == 0
    rows = pd.read_csv(out / "audit.csv")
    assert rows.verdict[0].startswith("FAIL: not eps-DP") and rows.refuted[0] and rows.refuted[1] and len(rows) == 2
    assert (out / "audit.png").is_file() and "FAIL: not eps-DP" in capsys.readouterr().out
    assert main(["audit", f"{mine}/quantile_algorithms.py:GeometricDPSEQ", *small, "--out", str(tmp_path / "good")]) == 0
    good = pd.read_csv(tmp_path / "good/audit.csv")
    assert not good.refuted[0] and good.refuted[1] and good.verdict[0].startswith("PASS: no violation found")


def test_the_dueling_audit_fails_a_broken_class_and_passes_a_correct_one(mine, tmp_path, capsys):
    small = ["--family", "dueling", "--horizons", "16", "--pilot", "300", "--samples", "4000", "--seed", "3"]
    out = tmp_path / "audit"
    assert main(["audit", f"{mine}/dueling_algorithms.py:RateNoiseKingOfTheHill", *small, "--out", str(out)]) == 0
    rows = pd.read_csv(out / "audit.csv")
    assert rows.verdict[0].startswith("FAIL: not eps-DP") and rows.refuted[0] and rows.refuted[1]
    assert set(rows.audited[2:]) == {"the family's eps-DP reference (must not be refuted)", "leak class: noise_shrunk",
                                     "leak class: composition_ignored", "leak class: noise_reused",
                                     "leak class: sensitivity_understated"}
    assert not rows.refuted[2] and rows.refuted[3:].all()  # the reference stands, every leak class is caught
    assert (out / "audit.png").is_file() and "FAIL: not eps-DP" in capsys.readouterr().out
    assert main(["audit", f"{mine}/dueling_algorithms.py:NoisyKingOfTheHill", *small, "--param", "m=4", "--no-power",
                 "--out", str(tmp_path / "good")]) == 0
    good = pd.read_csv(tmp_path / "good/audit.csv")
    assert not good.refuted[0] and good.refuted[1] and len(good) == 2  # the class and its caught control only


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--means", "0.5,0.4"],
     "--means is the online family's"),
    (["simulate", "{mine}/dp_ucb_tree.py:DPUCBTree", "--instance", "f1(4)"], "--instance is for the dueling"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--instance", "h1(4)"],
     "unknown constructor 'h1' for the dueling family; allowed: f1(...)"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--instance", "f2(4, 2)"],
     "--instance 'f2(4, 2)': gap must be in (0, 1/2)"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--param", "dlta=1"],
     "unknown parameter(s) 'dlta'"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--compare", "ucb1"],
     "--compare ucb1: allowed for the dueling family"),
    (["simulate", "{mine}/quantile_algorithms.py:DKWRacing", "--family", "quantile", "--horizon", "100"],
     "--horizon: the quantile family has none"),
    (["simulate", "{mine}/contextual_policies.py:LaplaceReports", "--family", "contextual"],
     "audit it with dpbandits audit --family contextual"),
    (["simulate", "rucb", "--family", "dueling"], "expected path/to/file.py:Class"),
    (["audit", "{mine}/quantile_algorithms.py:DKWRacing", "--family", "quantile"],
     "is in the per-sample form: the quantile audit reads the epoch form"),
    (["audit", "{mine}/quantile_algorithms.py:GeometricDPSEQ", "--family", "quantile", "--horizons", "8"],
     "--horizons is not the quantile audit's"),
    (["audit", "{mine}/quantile_algorithms.py:GeometricDPSEQ", "--family", "quantile", "--epochs", "9"],
     "--epochs 9: allowed an integer in [1, 6]"),
    (["audit", "{mine}/dueling_algorithms.py:NoisyKingOfTheHill", "--family", "dueling", "--epochs", "2"],
     "--epochs is not the dueling audit's"),
    (["audit", "{mine}/dp_ucb_tree.py:DPUCBTree", "--epochs", "2"], "--epochs is the quantile audit's"),
    (["audit", "{mine}/contextual_policies.py:LaplaceReports", "--family", "contextual", "--arms", "3"],
     "--arms is not the contextual audit's"),
    (["audit", "{mine}/dueling_algorithms.py:NoisyKingOfTheHill", "--family", "dueling", "--rounds", "3"],
     "--rounds is not the dueling audit's"),
    (["audit", "{mine}/dueling_algorithms.py:NoisyKingOfTheHill", "--family", "dueling", "--horizons", "1"],
     "--horizons [1]: allowed distinct integers in [2, 4096]"),
    (["audit", "{mine}/dueling_algorithms.py:NoisyKingOfTheHill", "--family", "dueling", "--param", "n=3"],
     "unknown parameter(s) 'n'"),
    (["audit", "{mine}/dp_ucb_tree.py:DPUCBTree", "--pilot", "100"], "--pilot is the dueling and quantile audits'"),
    (["audit", "{mine}/contextual_policies.py:LaplaceReports", "--family", "contextual", "--no-power"],
     "--no-power is not the contextual audit's"),
    (["simulate", "{mine}/contextual_policies.py:GreedyOnOneBin", "--family", "contextual", "--horizon", "60"],
     "--horizon 60: allowed at least one batch of every algorithm (batches: primary 100, linear 100, nn 100)"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--epsilon", "inf"],
     "--epsilon inf: allowed a finite number > 0"),
    (["simulate", "{mine}/dueling_algorithms.py:NoisyBordaElimination", "--family", "dueling", "--compare",
      "goptimal_dpdb"], "--compare goptimal_dpdb: Algorithm 2 needs a linear instance"),
    (["simulate", "{mine}/dp_ucb_tree.py:DPUCBTree", "--setting", "2", "--means", "0.5,0.4"],
     "--setting and --means: give one"),
    (["audit", "{mine}/contextual_policies.py:GreedyOnOneBin", "--family", "contextual"], "has no release method"),
])
def test_bad_input_of_the_other_families_stops_before_any_work(mine, tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    argv = [a.replace("{mine}", str(mine)) for a in argv]
    assert main([*argv, "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


_MISUSED = """
import numpy as np


class OutOfRange:
    \"\"\"A dueling class whose select names an arm beyond K.\"\"\"
    private = True

    def __init__(self, n_arms, epsilon, horizon, rng, m=2):
        self.k, self.m = n_arms, int(m)

    def select(self):
        return 0, self.k

    def update(self, left, right, winner):
        pass


class Duel(OutOfRange):
    \"\"\"A correct dueling class (always duels arms 0 and 1).\"\"\"

    def select(self):
        return 0, 1
"""


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "{mine}/misused.py:OutOfRange", "--family", "dueling"],
     "OutOfRange: a dry run (K = 2, epsilon = 1, 5 rounds on F1) fails: ValueError: OutOfRange.select() in round 1"),
    (["simulate", "{mine}/misused.py:Duel"],
     "it runs as a dueling algorithm: is --family dueling missing?"),
    (["audit", "{mine}/misused.py:Duel"],
     "it runs as a dueling algorithm: is --family dueling missing?"),
    (["simulate", "{mine}/misused.py:Duel", "--family", "dueling", "--param", "m=abc"],
     "Duel (--param m='abc'): a dry run (K = 2, epsilon = 1, 5 rounds on F1) fails: ValueError: invalid literal"),
])
def test_a_class_that_fails_a_dry_run_stops_with_one_line_naming_it(mine, tmp_path, capsys, argv, message):
    """The CLI runs the config check's dry run of the class before any work: a bad return value,
    a class of another family (with the --family it runs under) and a bad --param value each stop
    with one line (no traceback) that names the class and the problem."""
    (mine / "misused.py").write_text(_MISUSED)
    out = tmp_path / "out"
    argv = [a.replace("{mine}", str(mine)) for a in argv]
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_the_dry_run_of_a_contextual_policy_uses_the_runs_horizon(mine, tmp_path, capsys):
    """A policy whose batch exceeds the config check's default horizon runs when --horizon holds
    a batch (the dry run reads the command's horizon), and is stopped, naming --horizon, when not."""
    argv = ["simulate", f"{mine}/contextual_policies.py:GreedyOnOneBin", "--family", "contextual", "--param",
            "batch=6000", "--compare", "linear", "--runs", "1"]
    assert main([*argv, "--horizon", "12000", "--out", str(tmp_path / "a")]) == 0
    assert main([*argv, "--horizon", "3000", "--out", str(tmp_path / "b")]) == 2
    assert "--horizon 3000 is not allowed; allowed: at least one batch of the policy (6000 users)" in \
        capsys.readouterr().err


def test_parameters_are_python_literals_or_strings():
    assert parse_params(["width=1", "alpha=3.1", "name=ucb", "flag=True"]) == {
        "width": 1, "alpha": 3.1, "name": "ucb", "flag": True}
