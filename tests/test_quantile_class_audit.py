"""The black-box audit of a researcher's quantile class (dpbandits.quantile.checks.class_audit)
and DP-SEQ's leak classes (dpbandits.quantile.checks.leaks): the tables differ in one sample; the
reference is DP-SEQ itself; the sampled outputs follow their exact law; the tables the audit's
boundary search finds show each leak class a loss above epsilon and DP-SEQ none (a test per class);
the examples' verdicts are right for the right reason; bad arguments stop before any run; the
workflow's rows."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest

from dpbandits.quantile import make_instance, simulate
from dpbandits.quantile.checks import extra as quantile_extra
from dpbandits.quantile.checks.class_audit import (
    AuditTable,
    audit_quantile_class,
    boundary_shares,
    candidate_tables,
    run_codes,
)
from dpbandits.quantile.checks.leaks import LEAK_CLASSES, LeakyDPSEQ, code_law, exact_loss
from dpbandits.quantile.dp_seq import epoch_ranks, epoch_size, threshold
from dpbandits.sim.extra import load_algorithm

EPOCHS = 3
SHARES = ((0.2135, 0.2146), (0.3568, 0.3576), (0.4331, 0.4333))  # DP-SEQ's boundary at eps = 1 (tied)
MUTANTS = {"reference": {}, **{name: kw for name, (kw, _) in LEAK_CLASSES.items()}}


def _samples(table: AuditTable, t: int, n: int) -> np.ndarray:
    table.t, table.n = t, n
    return table.order_stats(0, np.arange(1, n + 1))


@pytest.mark.parametrize("changed", [1, 2, 3])
def test_a_table_and_its_neighbour_differ_in_one_sample_of_the_changed_epoch(changed):
    for shares in (SHARES, ((0.3, 0.0),) * 3, ((0.0, 0.0),) * 3, ((1.0, 0.0),) * 3):
        table, neighbour = AuditTable(shares), AuditTable(shares, changed=changed)
        for t, n in ((1, 613), (2, 1580), (3, 7150)):
            x, y = _samples(table, t, n), _samples(neighbour, t, n)
            assert np.all(np.diff(x) >= 0) and np.all(np.diff(y) >= 0)  # order statistics
            only_x, only_y = Counter(x.tolist()) - Counter(y.tolist()), Counter(y.tolist()) - Counter(x.tolist())
            assert sum(only_x.values()) == sum(only_y.values()) == (1 if t == changed else 0)
            low, high = table.counts(t, n)
            assert (x == -1).sum() == low and (x == 1).sum() == high
        assert np.all(table.order_stats(1, np.arange(1, 11)) == 0)  # arm 1: all 0
    with pytest.raises(ValueError, match="summing to at most 1"):
        AuditTable(((0.7, 0.6),))


def test_the_reference_is_dp_seq_itself():
    """On the same streams, the reference with a researcher's constructor gives DP-SEQ's records."""
    inst = make_instance("disc", q=0.4, a=0.2, b=1.0)
    mine = simulate(LeakyDPSEQ, inst, 1.0, 12, 3)
    paper = simulate("dp_seq", inst, 1.0, 12, 3, {"delta": 0.1})
    assert np.array_equal(mine.k_hat, paper.k_hat) and np.array_equal(mine.total_pulls, paper.total_pulls)


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_the_sampled_outputs_follow_their_exact_law(mutant):
    rng = np.random.default_rng(11)
    n = 6000
    for table in (AuditTable(SHARES), AuditTable(tuple((lo, 0.0) for lo, _ in SHARES)),
                  AuditTable(SHARES, changed=1)):
        book = {}
        codes = run_codes(LeakyDPSEQ, MUTANTS[mutant], 1.0, EPOCHS, table, n, rng, book)
        law = code_law(table, 1.0, EPOCHS, **MUTANTS[mutant])
        assert math.isclose(sum(law.values()), 1.0, rel_tol=1e-9)
        seen = {(len(sizes), k) if k >= 0 else (0, -1): np.mean(codes == c) for (sizes, k), c in book.items()}
        for code in set(law) | set(seen):
            p = law.get(code, 0.0)
            assert abs(seen.get(code, 0.0) - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-3, (table.shares, code)


def test_the_scan_finds_dp_seqs_decision_boundary():
    """Lower scan, epoch 1: arm 0's -1 share where s_01 = i - 1 - low reaches T_1, about 130 of 613
    samples at eps = 1 (within a few samples: the Laplace scale is 2)."""
    shares = boundary_shares(LeakyDPSEQ, {}, 1.0, 2, "lower", 100, np.random.default_rng(2))
    n = epoch_size(2, 1, 1.0, 0.1)
    i, _, _ = epoch_ranks(n, 1, 0.5)
    assert abs(shares[0] * n - (i - 1 - threshold(2, 1, 1.0, 0.1))) <= 4


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_the_searched_tables_show_each_leak_class_and_not_dp_seq(mutant):
    """The exact loss over the candidate pairs the audit builds from the boundary it finds for the
    class: above epsilon for each leak class, at most epsilon for DP-SEQ (which the sampled
    audit can then see with enough runs; the power measured at the audit's size is its row's)."""
    kw = MUTANTS[mutant]
    rng = np.random.default_rng(4)
    lower, upper = (boundary_shares(LeakyDPSEQ, kw, 1.0, EPOCHS, d, 60, rng) for d in ("lower", "upper"))
    worst = max(exact_loss(AuditTable(shares), AuditTable(shares, changed=t), 1.0, EPOCHS, **kw)
                for shares in candidate_tables(lower, upper).values() for t in range(1, EPOCHS + 1))
    if mutant == "reference":
        assert worst <= 1.0 + 1e-9
    else:
        assert worst > 1.2


@pytest.fixture(scope="module")
def examples():
    return (load_algorithm("examples/quantile_algorithms.py:GeometricDPSEQ"),
            load_algorithm("examples/quantile_algorithms.py:ShareNoiseDPSEQ"))


def test_the_broken_example_fails_and_the_correct_one_stands(examples):
    good, broken = examples
    small = {"epochs": 2, "pilot": 300, "samples": 3000, "seed": 5, "power": False}
    bad = audit_quantile_class(broken, 1.0, **small)
    assert bad.real.refuted and bad.real.epsilon_lower_bound > 3 and bad.verdict.startswith("FAIL: not eps-DP")
    fine = audit_quantile_class(good, 1.0, **small)
    assert not fine.real.refuted and fine.control.refuted
    assert fine.verdict.startswith("PASS: no violation found at m = 2 arms, q = 1/2, at most 2 epochs, tables")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"epsilon": 0.0}, "epsilon must be > 0"),
    ({"epochs": 7}, "epochs must be an integer in [1, 6]"),
    ({"pilot": 50}, "pilot must be an integer >= 100"),
    ({"samples": 10}, "samples must be an integer >= 100"),
    ({"control_multiplier": 1.0}, "control_multiplier must be in (0, 1)"),
    ({"params": {"delt": 0.1}}, "unknown parameter"),
])
def test_bad_arguments_stop_before_any_run(examples, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        audit_quantile_class(examples[0], **kwargs)


def test_a_per_sample_class_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="per-sample form"):
        audit_quantile_class(load_algorithm("examples/quantile_algorithms.py:DKWRacing"))


def test_the_workflow_rows_of_each_kind_of_class():
    """No row for a non-private class, a report row for a private per-sample one, the audit's two
    rows (kinds baseline and control) for a private epoch class."""
    entries = [{"name": "dkw", "import": "examples.quantile_algorithms:DKWRacing"},
               {"name": "share", "import": "examples.quantile_algorithms:ShareNoiseDPSEQ", "audit_samples": 500,
                "audit_pilot": 100, "audit_epochs": 1}]
    rows = quantile_extra.check_x_audit(5, "smoke", {"extra_algorithms": entries})
    assert [(r.check_id, r.kind, r.verdict) for r in rows] == [
        ("X-AUDIT-SHARE", "baseline", "FAIL"), ("X-AUDIT-SHARE-CONTROL", "control", "PASS")]
    assert "DP-SEQ" in rows[0].claim and "at most 1 epochs" in rows[0].claim
    assert quantile_extra.check_x_audit(5, "smoke", {}) == []
    assert set(quantile_extra.extra_check_ids("share")) == {"X-SAMPLES-SHARE", "X-AUDIT-SHARE", "X-AUDIT-SHARE-CONTROL"}


class _PrivatePerSample:
    private = True

    def __init__(self, n_arms, q, epsilon, rng, cap):
        self.done = True

    def select(self):
        return 0

    def update(self, arm, sample):
        pass

    def result(self):
        return {"k_hat": 0, "terminated": True, "n_final": 0}


def test_a_private_per_sample_class_gets_a_row_saying_it_is_not_audited(monkeypatch):
    monkeypatch.setattr(quantile_extra.QuantileExtra, "load", lambda self: _PrivatePerSample)
    (row,) = quantile_extra.check_x_audit(5, "smoke", {"extra_algorithms": [{"name": "mine", "import": "x:Y"}]})
    assert (row.check_id, row.kind, row.verdict) == ("X-AUDIT-MINE", "report", "REPORT")
    assert "not audited" in row.claim and "per-sample form" in row.claim
