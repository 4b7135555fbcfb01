"""Results of DP-EBS-Elimination (dueling paper, Algorithm 1; configuration in
:mod:`.ebs_params`), shared by its two engines (:mod:`.ebs_reference`, :mod:`.ebs_fast`):
the outcome of one run, runs stacked into tidy tables, and the seeding contract that makes
both engines consume the same random streams (:func:`dpbandits.rng.run_seed`, :func:`stream_names`)."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from dpbandits.dueling.ebs_params import EBSConfig

__all__ = ["EBSRun", "EBSResult", "check_checkpoints", "stream_names"]


@dataclass
class EBSRun:
    """Outcome of one run (what both engines return; stacked into :class:`EBSResult`)."""

    regret_pref: np.ndarray
    regret_util: np.ndarray
    commit_time: int
    chosen: int
    best_eliminated: bool
    ci_violation: bool
    elim_time: np.ndarray
    elim_count: np.ndarray
    left_plays: np.ndarray
    plays: np.ndarray


@dataclass
class EBSResult:
    """Runs of DP-EBS-Elimination stacked over the first axis.

    regret_pref, regret_util: (runs, checkpoints) cumulative pseudo-regret (spec 1.3) from P / r
        at the checkpoints (computed from the actions, not from the realised o).
    commit_time: round at which |S| became 1 (-1 if never); chosen: that arm (-1 if never).
    best_eliminated: the best arm was eliminated; ci_violation: at some round some surviving i had
        its true EBS B_S(i) outside [LCB(i), UCB(i)] (checked after the round's update, before
        elimination, for every survivor with n(i) > 0).
    elim_time (runs, K): elimination round (-1 never); elim_count (runs, K): effective count n(i)
        when i was eliminated, or at commit / at T for the survivors.
    left_plays (runs, K): #{t <= T: a_t = i}; plays (runs, K): #{t: a_t = i} + #{t: b_t = i}
        (after commit the duel (i^, i^) counts twice), Lemma 11's N_T(i).
    """

    instance: str
    config: EBSConfig
    horizon: int
    checkpoints: np.ndarray
    regret_pref: np.ndarray
    regret_util: np.ndarray
    commit_time: np.ndarray
    chosen: np.ndarray
    best_eliminated: np.ndarray
    ci_violation: np.ndarray
    elim_time: np.ndarray
    elim_count: np.ndarray
    left_plays: np.ndarray
    plays: np.ndarray
    engine: str = "fast"

    @property
    def runs(self) -> int:
        return int(self.commit_time.size)

    @classmethod
    def stack(cls, runs: list[EBSRun], **meta) -> EBSResult:
        arrays = {f.name: np.stack([getattr(r, f.name) for r in runs]) for f in fields(EBSRun)}
        return cls(**meta, **arrays)

    def _config_columns(self) -> dict:
        c = self.config
        return {"instance": self.instance, "variant": c.variant, "epsilon": c.epsilon,
                "delta": c.delta if c.delta is not None else 1.0 / self.horizon,
                "width": c.width, "width_scale": c.width_scale, "counter_share": c.counter_share,
                "noise_multiplier": c.noise_multiplier, "horizon": self.horizon,
                "engine": self.engine}

    def to_frame(self) -> pd.DataFrame:
        """Tidy rows, one per (run, checkpoint), with the run-level outcomes repeated."""
        r, c = self.regret_pref.shape
        df = pd.DataFrame({
            "run": np.repeat(np.arange(r), c),
            "t": np.tile(self.checkpoints, r),
            "regret_pref": self.regret_pref.ravel(),
            "regret_util": self.regret_util.ravel(),
            "commit_time": np.repeat(self.commit_time, c),
            "chosen": np.repeat(self.chosen, c),
            "best_eliminated": np.repeat(self.best_eliminated, c),
            "ci_violation": np.repeat(self.ci_violation, c),
        })
        for k, v in self._config_columns().items():
            df[k] = v
        return df

    def arms_frame(self) -> pd.DataFrame:
        """Tidy rows, one per (run, arm): elimination time and count, left plays, plays."""
        r, k = self.elim_time.shape
        df = pd.DataFrame({
            "run": np.repeat(np.arange(r), k),
            "arm": np.tile(np.arange(k), r),
            "elim_time": self.elim_time.ravel(),
            "elim_count": self.elim_count.ravel(),
            "left_plays": self.left_plays.ravel(),
            "plays": self.plays.ravel(),
        })
        for key, v in self._config_columns().items():
            df[key] = v
        return df


def check_checkpoints(checkpoints, horizon: int) -> np.ndarray:
    cp = np.asarray(checkpoints, dtype=np.int64).ravel()
    if cp.size == 0 or np.any(np.diff(cp) <= 0) or cp[0] < 1 or cp[-1] > horizon:
        raise ValueError(f"checkpoints must be strictly increasing integers in [1, T={horizon}]")
    return cp


def stream_names(k: int) -> tuple[str, ...]:
    return ("duels", "ldp", *(f"counter{j}" for j in range(k)))
