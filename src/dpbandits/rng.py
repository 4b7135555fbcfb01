"""Seed derivation (docs/workflow.md).

Every stochastic unit derives its own :class:`numpy.random.SeedSequence` from the root seed and a
stable, human-readable description of the unit (paper, experiment, cell, seed block, stream).
The description is hashed with SHA-256, never with Python's ``hash()`` (salted per process) and
never from job order, so results are identical whatever ``--cores``, executor or job order.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

__all__ = ["derive_seed", "make_rng", "run_seed", "stream_rngs", "resolve_seed"]


def _describe(unit: tuple[object, ...]) -> str:
    """Unambiguous text of a unit: each part tagged with its type, JSON-encoded, so that
    ("a/b",) and ("a", "b"), or 1 and "1", never collide."""
    parts = []
    for u in unit:
        if isinstance(u, (float, np.floating)):
            parts.append(["float", repr(float(u))])
        elif isinstance(u, (int, np.integer)) and not isinstance(u, bool):
            parts.append(["int", str(int(u))])
        else:
            parts.append([type(u).__name__, str(u)])
    return json.dumps(parts, separators=(",", ":"))


def derive_seed(root_seed: int, *unit: object) -> np.random.SeedSequence:
    """SeedSequence of the unit described by ``unit`` under ``root_seed``.

    >>> bool(derive_seed(1, "online", "figures").generate_state(1)[0] == derive_seed(1, "online", "figures").generate_state(1)[0])
    True
    """
    if not isinstance(root_seed, (int, np.integer)) or isinstance(root_seed, bool) or root_seed < 0:
        raise ValueError(f"root seed must be an int >= 0, got {root_seed!r}")
    digest = hashlib.sha256(_describe(unit).encode("utf-8")).digest()
    words = np.frombuffer(digest, dtype="<u4").tolist()
    return np.random.SeedSequence(entropy=[int(root_seed), *words])


def make_rng(root_seed: int, *unit: object) -> np.random.Generator:
    """A Generator for the unit described by ``unit``."""
    return np.random.default_rng(derive_seed(root_seed, *unit))


def run_seed(seed: np.random.SeedSequence, run: int) -> np.random.SeedSequence:
    """The seed of run ``run`` of a block: the child ``seed.spawn(runs)[run]`` of a fresh ``seed``,
    whatever was spawned before (stateless), so the same run gets the same numbers whatever the
    block's size, horizon, epsilon or variant (common random numbers)."""
    return np.random.SeedSequence(entropy=seed.entropy, spawn_key=(*seed.spawn_key, int(run)),
                                  pool_size=seed.pool_size)


def stream_rngs(seed: np.random.SeedSequence, names: tuple[str, ...]) -> dict[str, np.random.Generator]:
    """Independent named generators (one per random stream, e.g. rewards / noise / policy).

    Each name derives its own child from ``seed``'s entropy and spawn key plus the name, so adding
    a stream never shifts another one, and no stream is shared by two mechanisms.
    """
    out = {}
    for name in names:
        digest = hashlib.sha256(name.encode("utf-8")).digest()
        words = np.frombuffer(digest, dtype="<u4").tolist()
        child = np.random.SeedSequence(entropy=seed.entropy, spawn_key=(*seed.spawn_key, *words))
        out[name] = np.random.default_rng(child)
    return out


def resolve_seed(seed, *unit: object) -> np.random.SeedSequence:
    """The SeedSequence a library entry point (``dpbandits.<paper>.simulate``) runs from.

    An int ``seed`` is a root seed, derived like every unit of the workflow:
    ``derive_seed(seed, *unit)`` (the entry points pass ``(paper, "api")``), so the same int gives
    the same runs in every session. A :class:`numpy.random.SeedSequence` is used as given (this is
    how the workflow calls the entry points); it is copied, never advanced, so two calls with the
    same SeedSequence give the same runs.

    >>> resolve_seed(3, "online", "api").entropy == derive_seed(3, "online", "api").entropy
    True
    >>> resolve_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be an int >= 0 or a numpy.random.SeedSequence, got -1
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(entropy=seed.entropy, spawn_key=seed.spawn_key,
                                      pool_size=seed.pool_size)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return derive_seed(int(seed), *unit)
    raise ValueError(f"seed must be an int >= 0 or a numpy.random.SeedSequence, got {seed!r}")
