"""Shared result type and regret bookkeeping of the non-private dueling baselines (spec 5.5, checks
B8 and C10 of the dueling paper's replication).

Every engine here runs all repetitions at once, each run with its own clock ``t`` (runs may jump over
different stretches of rounds in one vectorised step). :class:`Recorder` turns "run r plays L rounds
with constant per-round regret rho starting at its round t" into the cumulative pseudo-regret at the
requested checkpoints, in both units of spec 1.3 (computed from the known P / utilities, never from
the realised o):

* preference units: Delta(best, a) + Delta(best, b);
* utility units:    2 r* - r_a - r_b.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BaselineResult", "Recorder", "finite_view", "check_checkpoints"]


@dataclass(frozen=True)
class BaselineResult:
    """Cumulative pseudo-regret of ``runs`` repetitions at the checkpoints.

    regret_pref, regret_util: (runs, checkpoints); plays: (runs, K), how often each arm took part in a
    duel (each duel counts both slots, so a row sums to 2T; float, since Doubler books its left slot
    in expectation); recommended: (runs,), the algorithm's
    final recommendation (each module says which rule)."""

    name: str
    checkpoints: np.ndarray
    regret_pref: np.ndarray
    regret_util: np.ndarray
    plays: np.ndarray
    recommended: np.ndarray

    @property
    def final_pref(self) -> np.ndarray:
        return self.regret_pref[:, -1]

    @property
    def final_util(self) -> np.ndarray:
        return self.regret_util[:, -1]


def finite_view(instance):
    """The FiniteInstance of an instance (LinearInstance -> as_finite())."""
    return instance.as_finite() if hasattr(instance, "as_finite") else instance


def check_checkpoints(horizon: int, checkpoints) -> np.ndarray:
    cp = np.asarray(checkpoints, dtype=np.int64)
    if cp.ndim != 1 or cp.size == 0 or np.any(np.diff(cp) <= 0) or cp[0] < 1 or cp[-1] > horizon:
        raise ValueError("checkpoints must be strictly increasing rounds in [1, horizon]")
    return cp


class Recorder:
    """Per-run clocks and cumulative regret, filled in at the checkpoints.

    ``t[r]`` is the next round run r plays (1-based); the run is finished once t > horizon."""

    def __init__(self, runs: int, horizon: int, checkpoints, k: int):
        self.horizon = int(horizon)
        self.cp = check_checkpoints(horizon, checkpoints)
        self.t = np.ones(runs, dtype=np.int64)
        self.cum_pref = np.zeros(runs)
        self.cum_util = np.zeros(runs)
        self.ptr = np.zeros(runs, dtype=np.int64)
        self.out_pref = np.full((runs, self.cp.size), np.nan)
        self.out_util = np.full((runs, self.cp.size), np.nan)
        self.plays = np.zeros((runs, k))
        self.rows = np.arange(runs)

    @property
    def active(self) -> np.ndarray:
        return self.t <= self.horizon

    def remaining(self) -> np.ndarray:
        return np.maximum(self.horizon - self.t + 1, 0)

    def advance(self, length, rate_pref, rate_util) -> None:
        """Run r plays ``length[r]`` (capped at the horizon) rounds at constant per-round regret."""
        length = np.minimum(np.asarray(length, dtype=np.int64), self.remaining())
        new_t = self.t + length
        ncp = self.cp.size
        while True:
            p = np.minimum(self.ptr, ncp - 1)
            sel = (self.ptr < ncp) & (self.cp[p] < new_t)
            if not sel.any():
                break
            r = self.rows[sel]
            n_in = self.cp[self.ptr[r]] - self.t[r] + 1
            self.out_pref[r, self.ptr[r]] = self.cum_pref[r] + n_in * rate_pref[r]
            self.out_util[r, self.ptr[r]] = self.cum_util[r] + n_in * rate_util[r]
            self.ptr[r] += 1
        self.cum_pref += length * rate_pref
        self.cum_util += length * rate_util
        self.t = new_t

    def duel(self, mask, a, b, length, fin) -> None:
        """Runs in ``mask`` play the duel (a[r], b[r]) for length[r] rounds (0 elsewhere)."""
        length = np.where(mask, np.minimum(length, self.remaining()), 0)
        rp = fin.regret_pref(a, b) * 1.0
        ru = fin.regret_util(a, b) * 1.0
        self.advance(length, rp, ru)
        np.add.at(self.plays, (self.rows, a), length)
        np.add.at(self.plays, (self.rows, b), length)

    def result(self, name: str, recommended) -> BaselineResult:
        assert not self.active.any() and not np.isnan(self.out_pref).any()
        return BaselineResult(name, self.cp.copy(), self.out_pref, self.out_util, self.plays,
                              np.asarray(recommended, dtype=np.int64))
