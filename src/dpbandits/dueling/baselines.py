"""Registry of the non-private dueling baselines (spec 5.5; checks B8 and C10).

Each entry is ``simulate_<name>(instance, horizon, checkpoints, runs, seed) -> BaselineResult``.
``FINITE`` work on any instance (a LinearInstance is reduced with ``as_finite()``); ``LINEAR`` need
a LinearInstance (arms and w_star).
"""

from __future__ import annotations

from .doubler import simulate_doubler
from .interleaved_filter import simulate_if2
from .maxinp import simulate_maxinp
from .rcs import simulate_rcs
from .rucb import simulate_rucb

__all__ = ["BASELINES", "FINITE", "LINEAR"]

BASELINES = {
    "rucb": simulate_rucb,
    "rcs": simulate_rcs,
    "if2": simulate_if2,
    "doubler": simulate_doubler,
    "maxinp": simulate_maxinp,
}
FINITE = ("rucb", "rcs", "if2", "doubler")
LINEAR = ("maxinp",)
