"""Seed derivation (ARCHITECTURE.md, "Seeds").

Every stochastic unit derives its own :class:`numpy.random.SeedSequence` from the root seed and a
stable, human-readable description of the unit (paper, experiment, cell, seed block, stream).
The description is hashed with SHA-256, never with Python's ``hash()`` (salted per process) and
never from job order, so results are identical whatever ``--cores``, executor or job order.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

__all__ = ["derive_seed", "make_rng", "stream_rngs"]


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

    >>> derive_seed(1, "online", "figures").generate_state(1)[0] == derive_seed(1, "online", "figures").generate_state(1)[0]
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
