"""A researcher's own dueling, quantile and contextual algorithms in the workflow
(``<family>.extra_algorithms``; dpbandits.<family>.checks.extra):
the config is checked before any job, the audit rows and the comparisons with the paper's
algorithm are the researcher's (never claims of the paper), and a paper's counts do not move when
they are added."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from dpbandits.contextual.checks import extra as contextual_extra
from dpbandits.dueling.checks import extra
from dpbandits.evidence.inventory import (
    judge_claims,
    load_inventory,
    render_claims_at_a_glance,
    render_claims_markdown,
)
from dpbandits.quantile.checks import extra as quantile_extra
from dpbandits.workflow.config import ConfigError, validate_config

REPO = Path(__file__).resolve().parents[1]
KING = "examples.dueling_algorithms:NoisyKingOfTheHill"
BROKEN = "examples.dueling_algorithms:RateNoiseKingOfTheHill"


def _smoke() -> dict:
    return yaml.safe_load((REPO / "config" / "smoke.yaml").read_text())


def test_the_smoke_config_names_a_correct_and_a_broken_example_and_they_validate():
    cfg = _smoke()
    assert [e["import"] for e in cfg["dueling"]["extra_algorithms"]] == [KING, BROKEN]
    validate_config(copy.deepcopy(cfg))


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda e: e[0].update({"import": "examples.dueling_algorithms:Nope"}),
     "config key 'dueling.extra_algorithms[0].import': 'examples.dueling_algorithms:Nope' is not allowed"),
    (lambda e: e[0].update({"import": "examples.contextual_policies:LaplaceReports"}),
     "is not a class of the dueling protocol of dpbandits.dueling.interface: it has no select and no update method"),
    (lambda e: e[0].update({"params": {"mm": 3}}),
     "config key 'dueling.extra_algorithms[0].params': unknown parameter(s) 'mm' for NoisyKingOfTheHill"),
    (lambda e: e[0].update({"params": {"m": "many"}}),
     "config key 'dueling.extra_algorithms[0].params': a dry run (K = 2, epsilon = 1, 5 rounds on F1) fails"),
    # a class of another family: its select returns an arm, not a pair (the dry run says where)
    (lambda e: e[1].update({"import": "examples.leaky_ucb:LeakyUCB"}), "dueling.extra_algorithms[1].params"),
    (lambda e: e[1].update({"name": "dp_ebs_elimination"}), "not taken by the paper's algorithms"),
    (lambda e: e[1].update({"name": "king_of_the_hill"}), "not used by another entry"),
    (lambda e: e[1].update({"name": "king_of_the_hill_control"}),
     "X-AUDIT-KING-OF-THE-HILL-CONTROL is also dueling.extra_algorithms[0]'s"),
    (lambda e: e[0].update({"audit_horizons": [1]}), "dueling.extra_algorithms[0].audit_horizons"),
    (lambda e: e[0].update({"bogus": 1}), "unknown key(s) 'bogus'"),
])
def test_bad_dueling_extra_algorithms_are_rejected_before_any_job(mutate, expected):
    cfg = _smoke()
    mutate(cfg["dueling"]["extra_algorithms"])
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert expected in str(info.value)


def _config(*entries):
    return {"extra_algorithms": [dict(e) for e in entries]}


SMALL = {"audit_samples": 2000, "audit_pilot": 200, "audit_horizons": [16]}


def test_the_audit_rows_are_the_researchers_and_the_broken_example_fails(monkeypatch):
    """Two algorithms at one size: the power table is measured once (the same size and streams give
    the same table); the broken tournament is refuted, each control caught; the rows state the size
    and are kinds that are never a claim of the paper."""
    calls = []
    real = extra.audit_dueling_class

    def counted(*args, **kw):
        calls.append(kw["power"])
        return real(*args, **kw)

    monkeypatch.setattr(extra, "audit_dueling_class", counted)
    rows = extra.check_x_audit(3, "smoke", _config({"name": "king", "import": KING, **SMALL},
                                                   {"name": "broken", "import": BROKEN, **SMALL}))
    assert calls == [True, False]
    got = {r.check_id: r for r in rows}
    assert set(got) == {"X-AUDIT-KING", "X-AUDIT-KING-CONTROL", "X-AUDIT-BROKEN", "X-AUDIT-BROKEN-CONTROL"}
    assert got["X-AUDIT-BROKEN"].verdict == "FAIL" and got["X-AUDIT-BROKEN"].value > 1.0
    assert got["X-AUDIT-KING"].verdict != "FAIL"
    assert got["X-AUDIT-KING-CONTROL"].verdict == got["X-AUDIT-BROKEN-CONTROL"].verdict == "PASS"
    assert {r.kind for r in rows} == {"baseline", "control"}
    for cid in ("X-AUDIT-KING", "X-AUDIT-BROKEN"):  # the second entry states the power table measured once
        assert "K = 2, T = 16" in got[cid].claim and "noise shrunk x0.5" in got[cid].claim, cid
        assert "composition ignored" in got[cid].claim, cid
    assert got["X-AUDIT-KING"].source.removeprefix(
        "extra algorithm ") == "examples.dueling_algorithms:NoisyKingOfTheHill (not in the paper)"


def test_no_extra_algorithm_writes_no_row():
    assert extra.check_x_audit(3, "smoke", {"extra_algorithms": []}) == []
    assert extra.check_x_regret(3, "smoke", {}, 100) == []


def test_the_regret_row_compares_with_algorithm_1_on_the_same_seed():
    from dpbandits.dueling import simulate
    from dpbandits.dueling.instances import f1

    entry = {"name": "king", "import": KING, "arms": 4, "horizon": 400, "runs": 4}
    (row,) = extra.check_x_regret(5, "smoke", _config(entry), 200)
    assert row.check_id == "X-REGRET-KING" and row.kind == "report" and row.verdict == "REPORT"
    mine = simulate(extra.DuelingExtra.from_config(entry).load(), f1(4), 1.0, 400, 4, 5).regret_pref[:, -1]
    ref = simulate("dp_ebs_elimination", f1(4), 1.0, 400, 4, 5).regret_pref[:, -1]
    assert row.value == pytest.approx(mine.mean() / ref.mean())
    assert row.ci_low <= row.value <= row.ci_high and row.n_runs == 4


def test_adding_extra_algorithms_leaves_every_count_of_the_paper_unchanged():
    """The committed paper-scale rows of the dueling paper, judged with and without a researcher's
    rows: the claims, the glance table's counts and the paper's rows counted apart are the same;
    the researcher's rows are listed in a section of their own."""
    checks = pd.read_csv(REPO / "reports" / "checks.csv", dtype=str, keep_default_na=False)
    paper = checks[checks["paper"] == "dueling"]
    mine = paper.iloc[:4].copy()
    mine["check_id"] = ["X-AUDIT-MINE", "X-AUDIT-MINE-CONTROL", "X-REGRET-MINE", "X-AUDIT-OTHER"]
    mine["kind"] = ["baseline", "control", "report", "baseline"]
    mine["verdict"] = ["FAIL", "PASS", "REPORT", "PASS"]
    inventories = {"dueling": load_inventory("dueling")}
    before = judge_claims(paper, None, inventories)
    after = judge_claims(pd.concat([paper, mine], ignore_index=True), None, inventories)
    pd.testing.assert_frame_equal(before[0], after[0])
    assert set(after[1].check_id) - set(before[1].check_id) == set(mine.check_id)
    assert set(after[1].category[after[1].check_id.str.startswith("X-")]) == {"user"}
    titles = {"dueling": "Saha & Asi, a title"}
    glance = render_claims_at_a_glance(*after, titles)
    assert glance.split("\n")[2] == render_claims_at_a_glance(*before, titles).split("\n")[2]
    assert "X-AUDIT-MINE" not in glance and "The 4 rows of a researcher's own algorithms" in glance
    md = render_claims_markdown(*after, titles)
    own = md[md.index("## A researcher's own algorithms"):]
    assert "`X-AUDIT-MINE` | FAIL" in own and "X-AUDIT-MINE" not in md[:md.index("## A researcher's own algorithms")]
    assert np.all(before[0]["verdict"].to_numpy() == after[0]["verdict"].to_numpy())


# ---- contextual policies -----------------------------------------------------------------------

GREEDY = "examples.contextual_policies:GreedyOnOneBin"
REUSED = "examples.contextual_policies:GreedyWithReusedNoise"


def test_the_smoke_config_names_a_correct_and_a_broken_policy():
    assert [e["import"] for e in _smoke()["contextual"]["extra_algorithms"]] == [GREEDY, REUSED]


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda e: e[0].update({"import": "examples.contextual_policies:LaplaceReports"}),
     "is not a class of the contextual protocol of dpbandits.contextual.interface: it has no public, act, receive, "
     "end_batch methods"),
    (lambda e: e[0].update({"params": {"batchh": 10}}),
     "config key 'contextual.extra_algorithms[0].params': unknown parameter(s) 'batchh' for GreedyOnOneBin"),
    (lambda e: e[0].update({"params": {"batch": "ten"}}),
     "config key 'contextual.extra_algorithms[0].params': a dry run (epsilon = 1, one batch of the bump instance) "
     "fails"),
    (lambda e: e[0].update({"horizon": 10}),
     "config key 'contextual.extra_algorithms[0].horizon': 10 is not allowed; allowed: at least one batch of the "
     "policy (50 users)"),
    (lambda e: e[1].update({"name": "primary"}), "not taken by the paper's algorithms"),
    (lambda e: e[1].update({"name": "greedy_one_bin"}), "not used by another entry"),
    (lambda e: e[0].update({"audit_samples": 10}), "contextual.extra_algorithms[0].audit_samples"),
])
def test_bad_contextual_extra_algorithms_are_rejected_before_any_job(mutate, expected):
    cfg = _smoke()
    mutate(cfg["contextual"]["extra_algorithms"])
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert expected in str(info.value)


def test_the_randomiser_audit_rows_are_the_researchers_and_the_broken_one_fails(monkeypatch):
    """Two policies at one size: the leak classes measured once; the policy whose randomiser shares
    one noise draw per user is refuted, each control caught; the rows name the randomiser."""
    calls = []
    real = contextual_extra.audit_randomizer_class

    def counted(*args, **kw):
        calls.append(kw["power"])
        return real(*args, **kw)

    monkeypatch.setattr(contextual_extra, "audit_randomizer_class", counted)
    entries = [{"name": "greedy", "import": GREEDY, "audit_samples": 5000},
               {"name": "reused", "import": REUSED, "audit_samples": 5000}]
    rows = contextual_extra.check_x_audit(3, "smoke", {"extra_algorithms": entries})
    assert calls == [True, False]
    got = {r.check_id: r for r in rows}
    assert got["X-AUDIT-REUSED"].verdict == "FAIL" and got["X-AUDIT-GREEDY"].verdict != "FAIL"
    assert got["X-AUDIT-REUSED-CONTROL"].verdict == "PASS"
    assert "its local randomiser ReusedNoiseReports" in got["X-AUDIT-REUSED"].claim
    assert "epsilon-LDP" in got["X-AUDIT-GREEDY"].claim and "5000 releases per input" in got["X-AUDIT-GREEDY"].claim
    for cid in ("X-AUDIT-GREEDY", "X-AUDIT-REUSED"):  # both state the leak classes, measured once
        assert "mutants of the paper's eps-LDP randomiser" in got[cid].claim and "noise reused" in got[cid].claim
    assert {r.kind for r in rows} == {"baseline", "control"}


def test_the_policy_regret_row_compares_with_ldpmab_on_the_same_seed():
    from dpbandits.contextual import simulate
    from dpbandits.contextual.instances import BumpInstance

    entry = {"name": "greedy", "import": GREEDY, "horizon": 500, "runs": 3}
    (row,) = contextual_extra.check_x_regret(5, "smoke", {"extra_algorithms": [entry]}, 200)
    assert (row.check_id, row.kind, row.verdict, row.n_runs) == ("X-REGRET-GREEDY", "report", "REPORT", 3)
    mine = simulate(contextual_extra.ContextualExtra.from_config(entry).load(), BumpInstance(), 1.0, 500, 3, 5).regret
    ref = simulate("primary", BumpInstance(), 1.0, 500, 3, 5).regret
    assert row.value == pytest.approx(mine.mean() / ref.mean())
    assert contextual_extra.check_x_audit(5, "smoke", {}) == contextual_extra.check_x_regret(5, "smoke", {}, 10) == []


# ---- quantile algorithms -----------------------------------------------------------------------

DKW = "examples.quantile_algorithms:DKWRacing"


@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda e: e[0].update({"import": "examples.dueling_algorithms:NoisyKingOfTheHill"}),
     "is not a class of the quantile protocol of dpbandits.quantile.interface"),
    (lambda e: e[0].update({"params": {"delt": 0.1}}),
     "config key 'quantile.extra_algorithms[0].params': unknown parameter(s) 'delt' for DKWRacing"),
    (lambda e: e[0].update({"params": {"delta": "small"}}),
     "config key 'quantile.extra_algorithms[0].params': a dry run (3 runs stopped at a cap of 200 on the two-arm "
     "discrete instance) fails"),
    (lambda e: e[0].update({"name": "dp_seq"}), "not taken by the paper's algorithms"),
    (lambda e: e[0].update({"gap": 0.7}), "quantile.extra_algorithms[0].gap"),
    (lambda e: e[0].update({"audit_epochs": 7}), "quantile.extra_algorithms[0].audit_epochs"),
    (lambda e: e[0].update({"audit_pilot": 50}), "quantile.extra_algorithms[0].audit_pilot"),
])
def test_bad_quantile_extra_algorithms_are_rejected_before_any_job(mutate, expected):
    cfg = _smoke()
    assert cfg["quantile"]["extra_algorithms"][0]["import"] == DKW
    mutate(cfg["quantile"]["extra_algorithms"])
    with pytest.raises(ConfigError) as info:
        validate_config(cfg)
    assert expected in str(info.value)


def test_the_samples_row_compares_with_seq_on_the_same_streams():
    from dpbandits.quantile import simulate
    from dpbandits.quantile.instances import disc

    entry = {"name": "dkw", "import": DKW, "runs": 4, "cap": 5000}
    (row,) = quantile_extra.check_x_samples(5, "smoke", {"extra_algorithms": [entry]}, 200)
    assert (row.check_id, row.kind, row.verdict, row.n_runs) == ("X-SAMPLES-DKW", "report", "REPORT", 4)
    mine = simulate(quantile_extra.QuantileExtra.from_config(entry).load(), disc(0.4, 0.2), None, 4, 5, cap=5000)
    ref = simulate("seq", disc(0.4, 0.2), None, 4, 5)
    assert row.value == pytest.approx(mine.total_pulls.mean() / ref.total_pulls.mean())
    assert "relative to SEQ (Algorithm 1)" in row.claim and "error rate" in row.claim
    assert quantile_extra.check_x_samples(5, "smoke", {}, 10) == []


class _HorizonBatched:
    """A policy whose batch is 1% of its horizon (its randomiser the paper's)."""

    def __init__(self, n_arms, dim, epsilon, horizon, rng):
        self.k, self.rng, self.batch = n_arms, rng, max(1, horizon // 100)
        from dpbandits.contextual.randomizer import PublicPartition

        self.partition = PublicPartition(np.zeros((1, dim)), np.ones((1, dim)), np.ones((1, n_arms), dtype=bool))

    def public(self):
        return self.partition

    def act(self, x):
        return int(self.rng.integers(self.k))

    def receive(self, report):
        pass

    def end_batch(self):
        pass


class _NoReport:
    """A randomiser that returns no report the audit can read."""

    def __init__(self, epsilon, rng):
        self.epsilon = epsilon

    def release(self, x, arm, reward, public):
        return (arm, reward)


class _WrongReports(_HorizonBatched):
    randomizer = _NoReport


def test_a_policy_is_checked_at_its_own_horizon_and_its_randomiser_in_the_audits_format(tmp_path, monkeypatch):
    """The batch is read at the entry's horizon (a batch of horizon // 100 passes at any horizon); a
    randomiser whose reports the audit cannot read is an error before any job, naming the import."""
    module = tmp_path / "my_policies.py"
    module.write_text(Path(__file__).read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    ok = [{"name": "batched", "import": "my_policies:_HorizonBatched", "horizon": 5000}]
    assert contextual_extra.extra_problems(ok) == []
    bad = [{"name": "wrong", "import": "my_policies:_WrongReports", "horizon": 5000}]
    (problem,) = contextual_extra.extra_problems(bad)
    assert problem.startswith("config key 'contextual.extra_algorithms[0].import': its randomiser _NoReport cannot "
                              "be audited")


def test_an_epoch_class_passes_the_quantile_dry_run_at_a_few_epochs():
    """The dry run stops an epoch algorithm after a few epochs (a cap of 200 epochs would overflow)."""
    entry = {"name": "mine", "import": f"{Path(__file__).parent / 'test_quantile_family.py'}:MyDPSEQ"}
    assert quantile_extra.extra_problems([entry]) == []
