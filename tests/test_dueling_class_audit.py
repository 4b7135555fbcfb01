"""The black-box audit of a researcher's dueling class (dpbandits.dueling.checks.class_audit): the
family's eps-DP reference is not refuted and each of its leak classes is caught, a test per class;
the examples' verdicts are right for the right reason (the broken one refuted, the correct one not,
with its control caught; the one that decides late is INCONCLUSIVE, no power); bad arguments stop
before any run."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.dueling.checks.class_audit import audit_dueling_class, candidate_tables, duel_codes
from dpbandits.dueling.checks.leaks import LEAK_CLASSES, EpochLeaderDuels
from dpbandits.online.interface import load_algorithm


@pytest.fixture(scope="module")
def reference_audit():
    return audit_dueling_class(EpochLeaderDuels, horizons=(16,), pilot=500, samples=10_000, seed=3)


def test_the_reference_is_not_refuted_and_its_control_is_caught(reference_audit):
    assert not reference_audit.real.refuted and reference_audit.control.refuted
    assert not reference_audit.reference.refuted  # the power table's own audit of the reference
    assert reference_audit.verdict.startswith("PASS: no violation found at K = 2, T = 16")


@pytest.mark.parametrize("leak", list(LEAK_CLASSES))
def test_each_leak_class_is_caught_at_the_audits_size(reference_audit, leak):
    power = {p.leak: p for p in reference_audit.leaks}
    assert power[leak].caught and power[leak].lower_bound > 1.0


def test_balanced_tables_hold_their_share_in_every_window_and_neighbours_differ_in_one_answer():
    for label, o, neighbour in candidate_tables((16, 64), (0.5, 0.75, 1.0)):
        share = float(label.split(", ")[1].split(" ")[0])
        windows = np.lib.stride_tricks.sliding_window_view(o, 8).sum(axis=1)
        assert np.all(np.abs(windows - 8 * share) <= 1)
        assert np.count_nonzero(o != neighbour) == 1


def test_the_codes_are_the_duels_at_the_probe_rounds():
    """Nearly noiseless, the leader keeps the lead while it wins (one output) and passes it after
    an epoch it loses: the duels at the probe rounds then differ from round 2 on (another code)."""
    rng = np.random.default_rng(0)
    book: dict = {}
    wins = np.ones(32, dtype=np.int64)
    first_lost = wins.copy()
    first_lost[0] = 0  # epoch 1 (round 1) lost: arm 1 leads from round 2
    codes = [duel_codes(EpochLeaderDuels, {"noise_multiplier": 1e-9}, 1.0, o, 2, 5, rng, book) for o in (wins, first_lost)]
    assert np.all(codes[0] == 0) and np.all(codes[1] == 1) and len(book) == 2
    pairs = [np.frombuffer(key, dtype=np.int64).reshape(-1, 2) for key in book]
    assert np.all(pairs[0] == [0, 1]) and pairs[1][0].tolist() == [0, 1] and np.all(pairs[1][1:] == [1, 0])


class _Counting(EpochLeaderDuels):
    built = 0

    def __init__(self, n_arms, epsilon, horizon, rng, *, leak="none", noise_multiplier=1.0):
        type(self).built += 1
        super().__init__(n_arms, epsilon, horizon, rng, leak=leak, noise_multiplier=noise_multiplier)


def test_the_bound_counts_fresh_runs_after_the_pilot():
    """The pilot runs every candidate pair (both tables), the final bound counts ``samples`` new
    runs of each table of the chosen pair: the runs the bound counts are not the pilot's."""
    _Counting.built = 0
    audit = audit_dueling_class(_Counting, horizons=(16,), win_rates=(0.5,), pilot=40, samples=300, power=False)
    candidates = len(candidate_tables((16,), (0.5,)))
    per_audit = 2 * 40 * candidates + 2 * 300
    assert _Counting.built == 2 * per_audit  # the class and its control
    assert audit.real.n_samples == 300 and audit.control.n_samples == 300


@pytest.mark.parametrize(("name", "refuted"), [("RateNoiseKingOfTheHill", True), ("NoisyKingOfTheHill", False)])
def test_the_examples_verdicts(name, refuted):
    audit = audit_dueling_class(load_algorithm(f"examples/dueling_algorithms.py:{name}"), horizons=(16,), pilot=300,
                                samples=4000, seed=3, power=False)
    assert audit.real.refuted is refuted
    assert audit.control.refuted  # the audit has power on it at this size
    assert audit.verdict.startswith("FAIL: not eps-DP" if refuted else "PASS")
    if not refuted:
        assert "the leak classes not measured" in audit.verdict  # power=False: no claim of power


def test_an_algorithm_that_decides_late_shows_nothing_at_small_horizons():
    audit = audit_dueling_class(load_algorithm("examples/dueling_algorithms.py:NoisyBordaElimination"), horizons=(16,),
                                pilot=100, samples=500, seed=3, power=False)
    assert audit.real.epsilon_lower_bound == 0 and not audit.control.refuted
    assert "the negative control was not caught (no power)" in audit.verdict


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"epsilon": 0.0}, "epsilon must be > 0 and finite"),
    ({"arms": 9}, "arms must be an integer in [2, 8]"),
    ({"horizons": (1,)}, "horizons must be integers in [2, 4096]"),
    ({"win_rates": (1.5,)}, "win_rates must be shares in [0, 1]"),
    ({"pilot": 5}, "pilot must be an integer >= 20"),
    ({"horizons": (16.5,)}, "horizons must be integers in [2, 4096]"),
    ({"confidence": 1.0}, "confidence must be in [0.5, 1)"),
    ({"control_multiplier": 1.0}, "control_multiplier must be in (0, 1)"),
    ({"params": {"lek": "reuse"}}, "unknown parameter(s) 'lek'"),
])
def test_bad_arguments_stop_before_any_run(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        audit_dueling_class(EpochLeaderDuels, **kwargs)
