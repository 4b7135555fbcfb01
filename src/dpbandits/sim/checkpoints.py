"""Checkpoint grid and an exact recorder of cumulative pseudo-regret at checkpoints.

Fast engines add rounds in stretches: ``constant`` (one arm pulled for a stretch: regret grows
by its gap each round), ``cycle`` (round-robin over a set of arms), ``dense`` (an explicit
sequence of per-round gaps) or ``sparse`` (one gap every round except a few listed ones). The
recorder fills in the exact cumulative regret at every checkpoint the stretch covers, so no
interpolation error is made.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CheckpointRecorder", "checkpoint_grid"]


def checkpoint_grid(horizon: int, n_log: int = 60, n_linear: int = 1000, start: int = 10) -> np.ndarray:
    """Union of ``n_log`` log-spaced rounds in [start, T] and ``n_linear`` evenly spaced rounds
    in [1, T] (online spec section 6.0), always including T."""
    horizon = int(horizon)
    start = min(start, horizon)
    logs = np.geomspace(start, horizon, num=n_log) if n_log > 0 else np.array([])
    lins = np.linspace(1, horizon, num=n_linear) if n_linear > 0 else np.array([])
    grid = np.unique(np.concatenate([np.rint(logs), np.rint(lins), [horizon]]).astype(np.int64))
    return grid[(grid >= 1) & (grid <= horizon)]


class CheckpointRecorder:
    """Cumulative pseudo-regret at integer checkpoints, filled stretch by stretch."""

    def __init__(self, checkpoints: np.ndarray):
        self.checkpoints = np.asarray(checkpoints, dtype=np.int64)
        self.values = np.full(self.checkpoints.size, np.nan)
        self.t = 0  # last round recorded
        self.regret = 0.0
        self._next = 0  # index of the first checkpoint not yet filled

    def _covered(self, t_end: int) -> slice:
        stop = int(np.searchsorted(self.checkpoints, t_end, side="right"))
        sl = slice(self._next, stop)
        self._next = stop
        return sl

    def constant(self, n_rounds: int, gap: float) -> None:
        """``n_rounds`` consecutive rounds, each costing ``gap``."""
        if n_rounds <= 0:
            return
        start = self.t
        self.t += n_rounds
        sl = self._covered(self.t)
        self.values[sl] = self.regret + (self.checkpoints[sl] - start) * gap
        self.regret += n_rounds * gap

    def cycle(self, n_rounds: int, cycle_gaps: np.ndarray) -> None:
        """``n_rounds`` rounds of round-robin over arms with gaps ``cycle_gaps`` (in order)."""
        if n_rounds <= 0:
            return
        cycle_gaps = np.asarray(cycle_gaps, dtype=float)
        prefix = np.concatenate([[0.0], np.cumsum(cycle_gaps)])
        m = cycle_gaps.size
        start = self.t
        self.t += n_rounds
        sl = self._covered(self.t)
        u = self.checkpoints[sl] - start
        self.values[sl] = self.regret + (u // m) * prefix[-1] + prefix[u % m]
        self.regret += (n_rounds // m) * prefix[-1] + prefix[n_rounds % m]

    def dense(self, round_gaps: np.ndarray) -> None:
        """One round per entry of ``round_gaps``."""
        n_rounds = len(round_gaps)
        if n_rounds == 0:
            return
        cum = self.regret + np.cumsum(round_gaps)
        start = self.t
        self.t += n_rounds
        sl = self._covered(self.t)
        self.values[sl] = cum[self.checkpoints[sl] - start - 1]
        self.regret = float(cum[-1])

    def sparse(self, n_rounds: int, base_gap: float, offsets: np.ndarray, offset_gaps: np.ndarray) -> None:
        """``n_rounds`` rounds costing ``base_gap`` each, except the rounds at 0-based
        ``offsets`` (increasing) which cost ``offset_gaps``."""
        if n_rounds <= 0:
            return
        offsets = np.asarray(offsets, dtype=np.int64)
        extra = np.concatenate([[0.0], np.cumsum(np.asarray(offset_gaps, dtype=float) - base_gap)])
        start = self.t
        self.t += n_rounds
        sl = self._covered(self.t)
        u = self.checkpoints[sl] - start  # rounds of the stretch up to each checkpoint
        self.values[sl] = self.regret + u * base_gap + extra[np.searchsorted(offsets, u)]
        self.regret += n_rounds * base_gap + extra[-1]
