"""Random streams of one run (spec 2.0 RNG design): one independent stream per arm (the reward
table of Definition 3: arm k's n-th sample is the n-th draw of its stream, whatever the schedule)
and one stream for the Laplace noise of DP-SEQ. Run r of a cell derives its streams from the
cell's SeedSequence and r only, so common random numbers across instances that are monotone
transforms of each other, and across algorithms, come for free."""

from __future__ import annotations

import numpy as np

from dpbandits.rng import run_seed, stream_rngs

__all__ = ["run_streams", "noise_stream"]


def run_streams(seed: np.random.SeedSequence, run: int, k: int) -> list[np.random.Generator]:
    """The K per-arm reward streams of run ``run``."""
    rngs = stream_rngs(run_seed(seed, run), tuple(f"arm{a}" for a in range(k)))
    return [rngs[f"arm{a}"] for a in range(k)]


def noise_stream(seed: np.random.SeedSequence, run: int) -> np.random.Generator:
    """The Laplace-noise stream of run ``run`` (never shared with a reward stream)."""
    return stream_rngs(run_seed(seed, run), ("noise",))["noise"]
