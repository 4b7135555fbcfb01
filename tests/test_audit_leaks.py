"""What the black-box audit of a researcher's online algorithm could have found
(dpbandits.online.checks.leaks): the correct reference is not refuted, each mutant breaks the step
its class names, the audit's power per class is measured at the audit's own size (a leak that
grows with the releases is missed at T = 8 and caught at T = 16), and an audit row is a PASS
`supported` only when every class is caught there."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.audit import AuditResult
from dpbandits.evidence.audits import LeakPower, describe_power
from dpbandits.evidence.guards import judge_all
from dpbandits.online import interface
from dpbandits.online.checks.audits import BANDIT_TABLE
from dpbandits.online.checks.extra import _audit_rows, audit_class
from dpbandits.online.checks.leaks import LEAK_CLASSES, EpochLeader, leak_power


def _power(table, n=100_000, seed=1):
    rng = np.random.default_rng(seed)
    return leak_power(lambda cls, params, role: audit_class(cls, params, 1.0, 1.0, n, rng, 0.999, table=table))


@pytest.fixture(scope="module")
def power_t8():
    return _power(BANDIT_TABLE)


def test_the_reference_is_not_refuted_and_the_audit_sees_some_classes_at_t8(power_t8):
    reference, power = power_t8
    assert not reference.refuted
    caught = {p.leak for p in power if p.caught}
    # measured (scored events, 1e5 runs per table): lower bounds about 1.5, 1.3 and 1.55 > 1
    assert caught == {"noise_shrunk", "noise_reused", "sensitivity_understated"}
    assert "composition_ignored" not in caught  # T = 8: too few releases for the composed loss to show


def test_a_leak_that_grows_with_the_releases_is_caught_on_a_longer_table():
    table = np.tile(BANDIT_TABLE, (2, 1))  # T = 16: one more release before the end
    reference, power = _power(table)
    assert not reference.refuted
    assert {p.leak: p.caught for p in power}["composition_ignored"]


def _run(leak_kw, table, seed=0):
    """One copy's released estimates after the whole table, and its actions."""
    alg = EpochLeader(2, 1.0, table.shape[0], np.random.default_rng(seed), **leak_kw)
    arms = []
    for t in range(1, table.shape[0] + 1):
        a = alg.select(t)
        alg.update(t, a, table[t - 1, a])
        arms.append(a)
    alg.select(table.shape[0] + 1)  # the release that closes the last epoch
    return alg, arms


def test_each_mutant_breaks_the_step_its_class_names():
    table = np.tile(BANDIT_TABLE, (2, 1))
    free, _ = _run({"noise_multiplier": 0.0}, table)  # no noise: the released totals are the true sums
    assert np.allclose(free.released, free.true_total)
    composed, _ = _run({"leak": "composition", "noise_multiplier": 0.0}, table)
    assert np.allclose(composed.released, composed.true_total)  # the cumulative sum, released again each epoch
    reused, _ = _run({"leak": "reuse"}, table, seed=3)
    # every epoch adds the same draw: the released total is the true total plus (epochs) x that draw
    assert np.allclose(reused.released - reused.true_total, reused.epoch * reused.reused)
    for leak, scale in (("sensitivity", 0.25), ("none", 1.0)):  # an epoch of 4 rounds, all of arm 0
        alg = EpochLeader(2, 1.0, 16, np.random.default_rng(0), leak=leak, copies=200_000)
        alg.epoch_pulls[:, 0] = 4
        alg._release()
        # Lap(b) has sd sqrt(2) b: the mutant gives every arm's sum the epoch mean's noise, Lap(1 / (4 eps))
        assert np.std(alg.released[:, 0]) == pytest.approx(np.sqrt(2) * scale, rel=0.02)
        assert np.std(alg.released[:, 1]) == pytest.approx(np.sqrt(2) * scale, rel=0.02)


@pytest.mark.parametrize("kw", [{}, {"leak": "composition"}, {"leak": "reuse"}, {"leak": "sensitivity"}])
def test_the_reference_and_its_mutants_honour_the_family_interface(kw):
    assert isinstance(EpochLeader(2, 1.0, 8, np.random.default_rng(0), **kw), interface.BanditAlgorithm)
    alg = EpochLeader(3, 0.5, 40, np.random.default_rng(1), copies=7, **kw)
    for t in range(1, 41):
        arms = alg.select(t)
        assert arms.shape == (7,) and arms.min() >= 0 and arms.max() < 3
        alg.update(t, arms, np.ones(7))
    assert alg.pulls.sum() == 7 * 40
    with pytest.raises(ValueError, match="leak must be one of"):
        EpochLeader(2, 1.0, 8, np.random.default_rng(0), leak="bogus")


def test_scored_events_bound_the_loss_at_least_as_tightly_as_atoms_with_far_fewer_events():
    """The pilot-chosen score events (threshold auditing) against every action sequence as an
    event, on the same mutant and sizes: a bound no weaker here, from about 48 events, not 768."""
    rng = np.random.default_rng(5)
    atoms = audit_class(EpochLeader, {"noise_multiplier": 0.5}, 1.0, 1.0, 50_000, rng, 0.999, events="atoms")
    scored = audit_class(EpochLeader, {"noise_multiplier": 0.5}, 1.0, 1.0, 50_000, rng, 0.999)
    assert atoms.n_events == 3 * 2**8 and scored.n_events <= 3 * 16
    assert scored.epsilon_lower_bound >= atoms.epsilon_lower_bound - 0.05 and scored.refuted
    with pytest.raises(ValueError, match="events must be 'scored' or 'atoms'"):
        audit_class(EpochLeader, {}, 1.0, 1.0, 1000, rng, events="tails")


def test_the_power_text_names_what_is_caught_and_what_is_not():
    power = [LeakPower("noise_shrunk", LEAK_CLASSES["noise_shrunk"][1], 1.5, True),
             LeakPower("noise_reused", LEAK_CLASSES["noise_reused"][1], 0.4, False)]
    text, missed = describe_power(power)
    assert text == ("catches noise shrunk x0.5 (a release 2 eps-DP) (lower bound 1.5); no power against noise "
                    "reused across releases (one draw per arm) (lower bound 0.4)")
    assert missed == ["noise_reused"]


def test_an_audit_pass_is_supported_only_when_every_class_is_caught_at_its_size():
    spec = interface.ExtraAlgorithm(name="mine", import_path="examples.dp_ucb_tree:DPUCBTree",
                                    epsilon_accounting=1.0)
    real = AuditResult(1.0, 0.8, "output=0", 1000, 0.999, 768)
    control = AuditResult(1.0, 1.6, "output=0", 1000, 0.999, 768)
    every = [LeakPower(k, d, 2.0, True) for k, (_, d) in LEAK_CLASSES.items()]
    main, _ = judge_all(_audit_rows(spec, real, control, "its noise scale x0.5", "smoke", 0.5, every))
    assert (main.verdict, main.reason) == ("PASS", "supported")
    assert "no violation found at K = 2, T = 8 and 16, 3 neighbouring tables per T" in main.claim
    assert "1000 runs per table" in main.claim
    some = every[:2] + [LeakPower(k, d, 0.5, False) for k, (_, d) in list(LEAK_CLASSES.items())[2:]]
    main, _ = judge_all(_audit_rows(spec, real, control, "its noise scale x0.5", "smoke", 0.5, some))
    assert (main.verdict, main.reason) == ("INCONCLUSIVE", "no_power")
    assert "no power against noise reused across releases" in main.claim and "PASS on its own criterion" in main.claim
    refuted = AuditResult(1.0, 1.7, "output=0", 1000, 0.999, 768)
    main, _ = judge_all(_audit_rows(spec, refuted, control, "its noise scale x0.5", "smoke", 0.5, some))
    assert main.verdict == "FAIL" and "violation found at" in main.claim  # a refutation needs no power table


class SilentEpochLeader(EpochLeader):
    """EpochLeader that does not publish its releases: the audit reads its actions only."""

    published = None


def test_the_default_audit_horizons_catch_a_composition_leak_that_t8_alone_misses():
    """The researcher's broken example class: each release epsilon-DP, the composition over the
    releases forgotten. Read through its actions only, at T = 8 alone the audit finds no
    violation; with the default horizons (8 and 16, Bonferroni over both) it FAILs the class. When
    the class publishes its releases, T = 8 alone FAILs it."""
    from dpbandits.online.checks.extra import audit_table, check_x_audit

    assert np.array_equal(audit_table(16), np.vstack([BANDIT_TABLE, BANDIT_TABLE]))
    assert np.array_equal(audit_table(8), BANDIT_TABLE) and audit_table(4).shape == (4, 2)
    entry = {"name": "composed", "import": "tests/test_audit_leaks.py:SilentEpochLeader",
             "params": {"leak": "composition"}, "epsilon_accounting": 1, "audit_samples": 100_000}
    a = {"epsilon": 1.0, "confidence": 0.999, "control_noise_multiplier": 0.5}
    short = judge_all(check_x_audit(3, "smoke", {**a, "extra_algorithms": [{**entry, "audit_horizons": [8]}]}))
    assert short[0].verdict != "FAIL" and "no power against composition ignored" in short[0].claim
    assert "published" not in short[0].claim
    both = judge_all(check_x_audit(3, "smoke", {**a, "extra_algorithms": [entry]}))
    assert both[0].verdict == "FAIL" and "tightest event: T = 16" in both[0].claim
    publishing = {**entry, "import": "dpbandits.online.checks.leaks:EpochLeader", "audit_horizons": [8],
                  "audit_samples": 20_000}
    short = judge_all(check_x_audit(3, "smoke", {**a, "extra_algorithms": [publishing]}))
    assert short[0].verdict == "FAIL" and "actions and published values" in short[0].claim
    assert "whole action sequence and published values" in short[0].claim


def test_published_values_let_the_audit_see_at_t8_the_leaks_the_actions_hide():
    """With the class's published values read beside its actions (``published()``), the audit at
    T = 8 and 20,000 runs per table catches every leak class, the composition leak included, which
    the action sequences alone miss there; the eps-DP reference's releases are not refuted.
    Measured (seed 3): reference 0.69; composition ignored 1.50 (0.92 from the actions alone),
    noise reused 6.7, noise shrunk 1.74, sensitivity understated 1.62."""
    rng = np.random.default_rng(3)

    def audit(cls, params, role, published=True):
        return audit_class(cls, params, 1.0, 1.0, 20_000, rng, 0.999, published=published)

    reference, power = leak_power(audit)
    assert not reference.refuted
    assert all(p.caught for p in power), [(p.leak, p.lower_bound) for p in power]
    assert not audit(EpochLeader, {"leak": "composition"}, "actions only", published=False).refuted
    with pytest.raises(ValueError, match="events='atoms' reads the action sequences only"):
        audit_class(EpochLeader, {}, 1.0, 1.0, 1000, rng, events="atoms", published=True)


def test_each_run_publishes_its_epochs_releases_per_step_and_vectorised():
    """``class_runs`` reads ``published()`` after the last round: per-step runs padded with NaN to
    the longest, vectorised runs as returned; EpochLeader publishes each epoch's noisy sums, whose
    running total is its released estimate."""
    from dpbandits.online.checks.extra import class_runs

    table = np.tile(BANDIT_TABLE, (2, 1))
    alg, _ = _run({}, table, seed=4)
    assert np.allclose(alg.published().reshape(-1, 2).sum(axis=0), alg.released)
    composed, _ = _run({"leak": "composition"}, table, seed=4)  # each release the running total
    assert np.array_equal(composed.published()[-2:], composed.released[0])
    codes, values = class_runs(EpochLeader, {}, table, 1.0, 50, np.random.default_rng(0), published=True)
    assert codes.shape == (50,) and values.shape == (50, 6)  # epochs 0-2 released within T = 16, 2 arms each

    class Ragged(EpochLeader):  # per-step only, publishing one value per odd run
        calls = 0

        def __init__(self, n_arms, epsilon, horizon, rng, *, leak="none", noise_multiplier=1.0):
            super().__init__(n_arms, epsilon, horizon, rng, leak=leak, noise_multiplier=noise_multiplier)

        def published(self):
            Ragged.calls += 1
            return np.ones(Ragged.calls % 2)

    _, values = class_runs(Ragged, {}, BANDIT_TABLE, 1.0, 4, np.random.default_rng(0), published=True)
    assert values.shape == (4, 1) and np.isnan(values[1::2, 0]).all() and (values[0::2, 0] == 1).all()


class _BadPublisher(EpochLeader):
    """A per-step class whose ``published()`` returns ``value`` (set per test)."""

    value = None

    def __init__(self, n_arms, epsilon, horizon, rng, *, leak="none", noise_multiplier=1.0):
        super().__init__(n_arms, epsilon, horizon, rng, leak=leak, noise_multiplier=noise_multiplier)

    def published(self):
        return type(self).value


@pytest.mark.parametrize(("value", "message"), [
    (np.ones((2, 2)), r"_BadPublisher.published\(\) after round 8 returned shape \(2, 2\): array\(\[\[1., 1.\], \[1., 1.\]\]\); expected \(r,\)"),
    (np.array([1.0, np.inf]), r"after round 8 returned inf; allowed: finite values \(NaN: not released\)"),
    (["a"], r"after round 8 returned \['a'\] \(dtype kind 'U'\); allowed: an array of real numbers"),
    (np.array([True]), r"after round 8 returned array\(\[ True\]\) \(dtype kind 'b'\)"),
    (np.array([1 + 2j]), r"after round 8 returned array\(\[1.\+2.j\]\) \(dtype kind 'c'\)"),
    ([10**400], r"after round 8 returned \[1000.*; allowed: an array of real numbers"),
])
def test_published_values_are_checked_where_the_class_returns_them(value, message):
    from dpbandits.online.checks.extra import class_runs

    _BadPublisher.value = value
    with pytest.raises(ValueError, match=message):
        class_runs(_BadPublisher, {}, BANDIT_TABLE, 1.0, 2, np.random.default_rng(0), published=True)
    (problem,) = interface.dry_run_problems(_BadPublisher, {})
    assert "published() after round 5" in problem
    copies = interface.checked_published(np.zeros((3, 2)), 3, "C", 4)
    assert copies.shape == (3, 2)
    buffer = np.zeros(2)  # a class that reuses its buffer: the values read are a copy
    read = interface.checked_published(buffer, None, "C", 4)
    buffer[0] = 5.0
    assert read.tolist() == [[0.0, 0.0]]
    masked = np.ma.masked_array([1.0, 2.0], mask=[False, True])  # a masked entry: not released
    assert np.array_equal(interface.checked_published(masked, None, "C", 4), [[1.0, np.nan]], equal_nan=True)
    with pytest.raises(ValueError, match=r"C.published\(\) after round 4 with copies=3 returned shape \(2, 2\): "
                                         r"array\(.*\); expected \(3, r\)"):
        interface.checked_published(np.zeros((2, 2)), 3, "C", 4)


def test_joint_rows_code_each_published_value_by_its_cell():
    """A value at or below the first cut is cell 0, above the last cell len(levels), not published
    (NaN, or a position past the run's values) len(levels) + 1; positions past the cuts are left
    out; distinct rows get distinct codes, shared across the pilot and the counted runs."""
    from dpbandits.online.checks.extra import (
        PUBLISHED_LEVELS,
        _joint_rows,
        _published_cuts,
        _published_pair,
    )

    levels = len(PUBLISHED_LEVELS)
    cuts = [np.array([0.0, 1.0, 2.0, 3.0, 4.0]), np.empty(0)]
    values = np.array([[0.0, 7.0, 9.0], [4.5, np.nan, 9.0], [1.5, 7.0, 9.0]])
    rows = _joint_rows(np.array([3, 4, 5]), values, cuts)
    assert rows.tolist() == [[3, 0, 0], [4, levels, levels + 1], [5, 2, 0]]
    short = _joint_rows(np.array([1]), np.array([[2.0]]), cuts)  # a run that published one value
    assert short.tolist() == [[1, 2, levels + 1]]
    pilot_cuts = _published_cuts(np.array([[1.0], [2.0]]), np.array([[np.nan, 5.0]]))
    assert pilot_cuts[0].size == levels and np.allclose(pilot_cuts[1], 5.0)
    runs = [(np.zeros(2, dtype=np.int64), np.array([[0.0], [9.0]])) for _ in range(2)]
    pilot, counted, distinct = _published_pair(runs, runs, runs)
    assert distinct == 2 and pilot[0].tolist() == counted[1].tolist() and pilot[0][0] != pilot[0][1]


def test_a_class_whose_published_values_stay_empty_is_audited_on_its_actions():
    """No value published on the audit's tables: the audit and its power table read the actions
    alone, so the reference's releases lend the class no power its own audit lacks."""
    from dpbandits.online.checks.extra import reads_published

    def spec(path):
        return interface.ExtraAlgorithm(name="mine", import_path=path, audit_horizons=(8,))

    assert reads_published(spec("dpbandits.online.checks.leaks:EpochLeader"))
    assert not reads_published(spec("tests/test_audit_leaks.py:EmptyPublisher"))
    assert not reads_published(spec("tests/test_audit_leaks.py:SilentEpochLeader"))
    assert interface.interface_problems(PropertyPublisher) == [
        "its published is a property; the optional hook is a method, published()"]


class EmptyPublisher(EpochLeader):
    """Publishes nothing (an empty array) whatever it releases."""

    def published(self):
        return np.zeros((self.rows.size, 0)) if self.copies is not None else np.zeros(0)


class PropertyPublisher(EpochLeader):
    """The hook written as a property: refused, not silently ignored."""

    @property
    def published(self):
        return np.zeros(0)
