"""Seed derivation: deterministic, process-independent, and stream-separated."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from dpbandits.rng import derive_seed, make_rng, stream_rngs

UNIT = ("online", "figures", "setting1", "lazy_dp_ts", 0.25, "block", 3)


def _state(root, *unit, n=8):
    return derive_seed(root, *unit).generate_state(n).tolist()


def test_derive_seed_is_deterministic_within_a_process():
    assert _state(20210215, *UNIT) == _state(20210215, *UNIT)
    a = make_rng(5, *UNIT).random(10)
    b = make_rng(5, *UNIT).random(10)
    np.testing.assert_array_equal(a, b)
    assert isinstance(derive_seed(5, *UNIT), np.random.SeedSequence)


@pytest.mark.parametrize("hashseed", ["0", "12345"])
def test_derive_seed_is_identical_across_processes(hashseed):
    """A fresh interpreter (with a different str-hash salt) derives the same state."""
    code = (
        "import json\n"
        "from dpbandits.rng import derive_seed, make_rng\n"
        f"unit = {UNIT!r}\n"
        "print(json.dumps({'state': derive_seed(20210215, *unit).generate_state(8).tolist(),\n"
        "                  'draws': make_rng(20210215, *unit).integers(0, 2**62, 4).tolist()}))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=env, timeout=60)
    got = json.loads(out.stdout)
    assert got["state"] == _state(20210215, *UNIT)
    assert got["draws"] == make_rng(20210215, *UNIT).integers(0, 2**62, 4).tolist()


def test_derive_seed_known_value_is_stable():
    """Pin the derivation: sha256 of the type-tagged JSON description, root seed first."""
    import hashlib

    digest = hashlib.sha256(b'[["str","online"],["str","figures"],["float","0.25"]]').digest()
    words = np.frombuffer(digest, dtype="<u4").tolist()
    expected = np.random.SeedSequence(entropy=[7, *words]).generate_state(4).tolist()
    assert _state(7, "online", "figures", 0.25, n=4) == expected


@pytest.mark.parametrize(
    "other",
    [
        ("online", "figures", "setting1", "lazy_dp_ts", 0.25, "block", 4),  # next seed block
        ("online", "figures", "setting1", "lazy_dp_ts", 0.5, "block", 3),  # other epsilon
        ("online", "figures", "setting2", "lazy_dp_ts", 0.25, "block", 3),  # other setting
        ("online", "figures", "setting1", "dp_se", 0.25, "block", 3),  # other algorithm
        ("online", "figures", "setting1", "lazy_dp_ts", 0.25, "block"),  # prefix
        ("online", "figures", "setting1", "lazy_dp_ts", 0.25, "block", 3, "x"),  # extension
        (),
    ],
)
def test_different_descriptions_give_different_streams(other):
    assert _state(1, *UNIT) != _state(1, *other)
    a = make_rng(1, *UNIT).random(100)
    b = make_rng(1, *other).random(100)
    assert not np.any(a == b)


def test_different_root_seeds_give_different_streams():
    states = {tuple(_state(r, *UNIT)) for r in range(50)}
    assert len(states) == 50
    assert _state(0, "x") != _state(2**40, "x")  # big roots are fine and distinct


@pytest.mark.parametrize("root", [-1, -(2**40), True, False, 1.0, "7", None])
def test_bad_root_seed_raises(root):
    with pytest.raises(ValueError, match="root seed"):
        derive_seed(root, "online")


def test_numpy_integer_root_seed_is_accepted():
    assert _state(np.int64(9), *UNIT) == _state(9, *UNIT)
    with pytest.raises(ValueError):
        derive_seed(np.int64(-9), "online")


def test_floats_are_described_stably():
    assert _state(3, "eps", 0.25) == _state(3, "eps", 0.250)
    assert _state(3, "eps", 0.25) == _state(3, "eps", np.float64(0.25))
    assert _state(3, "eps", 1 / 4) == _state(3, "eps", 0.25)
    assert _state(3, "eps", 0.5) != _state(3, "eps", 0.25)
    # float formatting is repr (shortest round-trip), so nearby values stay distinct
    assert _state(3, "eps", 0.1 + 0.2) != _state(3, "eps", 0.3)


def test_stream_rngs_are_named_and_independent():
    seed = derive_seed(11, *UNIT)
    rngs = stream_rngs(seed, ("rewards", "noise", "policy"))
    assert set(rngs) == {"rewards", "noise", "policy"}
    draws = {k: g.random(2000) for k, g in rngs.items()}
    names = list(draws)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not np.any(draws[a] == draws[b])
            # independence sanity: sample correlation of 2000 uniforms ~ N(0, 1/2000)
            assert abs(np.corrcoef(draws[a], draws[b])[0, 1]) < 5 / np.sqrt(2000)
    # none of them replays the parent stream
    parent = np.random.default_rng(seed).random(2000)
    assert all(not np.any(d == parent) for d in draws.values())


def test_stream_rngs_are_reproducible_and_order_free():
    seed = derive_seed(11, *UNIT)
    a = stream_rngs(seed, ("rewards", "noise"))
    b = stream_rngs(derive_seed(11, *UNIT), ("noise", "rewards"))
    for name in ("rewards", "noise"):
        np.testing.assert_array_equal(a[name].random(50), b[name].random(50))


def test_adding_a_stream_does_not_shift_existing_ones():
    seed = derive_seed(11, *UNIT)
    before = {k: g.random(100) for k, g in stream_rngs(seed, ("rewards", "noise")).items()}
    after_rngs = stream_rngs(seed, ("audit", "rewards", "extra", "noise"))
    after = {k: g.random(100) for k, g in after_rngs.items()}
    np.testing.assert_array_equal(before["rewards"], after["rewards"])
    np.testing.assert_array_equal(before["noise"], after["noise"])
    assert not np.any(after["audit"] == after["rewards"])


def test_stream_rngs_depend_on_the_parent_seed():
    a = stream_rngs(derive_seed(11, *UNIT), ("noise",))["noise"].random(20)
    b = stream_rngs(derive_seed(12, *UNIT), ("noise",))["noise"].random(20)
    c = stream_rngs(derive_seed(11, "other"), ("noise",))["noise"].random(20)
    assert not np.any(a == b) and not np.any(a == c)


def test_stream_rngs_respect_spawn_key():
    parent = derive_seed(11, *UNIT)
    child0, child1 = parent.spawn(2)
    a = stream_rngs(child0, ("noise",))["noise"].random(20)
    b = stream_rngs(child1, ("noise",))["noise"].random(20)
    c = stream_rngs(parent, ("noise",))["noise"].random(20)
    assert not np.any(a == b) and not np.any(a == c)


@pytest.mark.parametrize("a, b", [(("a/b",), ("a", "b")), ((1,), ("1",)), ((0.5,), ("0.5",))])
def test_descriptions_do_not_collide(a, b):
    assert _state(1, *a) != _state(1, *b)
