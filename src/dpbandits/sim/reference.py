"""The plain per-step reference engine.

It runs any algorithm that has the family interface ``select(t) -> arm`` and
``update(t, arm, reward)`` one round at a time, drawing the reward of the pulled arm from the
environment. It is deliberately simple: every fast engine is tested against it. Every arm an
algorithm returns is checked where it returns it (:func:`checked_arm`: an integer in [0, K - 1],
never a float or a negative index that numpy would read as another arm).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["RunResult", "run_reference", "checked_arm", "checked_arms", "constructor_problems", "keyword_params",
           "raised_in", "class_run_arguments"]


@dataclass
class RunResult:
    """Outcome of one run: cumulative pseudo-regret at the checkpoints, pull counts, number of
    private releases per arm (0 for non-private algorithms), and the actions if recorded."""

    regret: np.ndarray
    pulls: np.ndarray
    releases: np.ndarray
    actions: np.ndarray | None = None


def checked_arm(arm, k: int, who: str, t: int, call: str = "") -> int:
    """``arm`` as returned by ``who``'s ``select(t)`` (or the ``call`` described), if it is an
    integer in [0, k - 1] (never a float, a bool or a negative index, which numpy would silently
    read as another arm)."""
    if isinstance(arm, (bool, np.bool_)) or not isinstance(arm, (int, np.integer)) or not 0 <= arm < k:
        raise ValueError(f"{who}.{call or f'select(t={t})'} returned {arm!r}; allowed: an integer arm in [0, {k - 1}]")
    return int(arm)


def checked_arms(arms, k: int, copies: int, who: str, t: int) -> np.ndarray:
    """The arms of a vectorised ``select(t)`` (``copies`` of them), if they are integers in
    [0, k - 1] with shape (copies,)."""
    a = np.asarray(arms)
    if a.shape != (copies,):
        raise ValueError(f"{who}.select(t={t}) with copies={copies} returned shape {a.shape}; expected ({copies},)")
    if a.dtype.kind not in "iu" or (a.size and (a.min() < 0 or a.max() >= k)):
        bad = a[(a < 0) | (a >= k)] if a.dtype.kind in "iuf" else a
        shown = (bad if bad.size else a).flat[0]
        shown = shown.item() if hasattr(shown, "item") else shown
        raise ValueError(f"{who}.select(t={t}) with copies={copies} returned {shown!r} (dtype {a.dtype}); allowed: "
                         f"integer arms in [0, {k - 1}]")
    return a.astype(np.int64, copy=False)


class raised_in:  # noqa: N801 - used as a context manager, named as one
    """An error raised inside a researcher's method says where: a note naming the class, the call
    and the round (or ``unit``, e.g. target user) t is added to it, and it propagates unchanged
    otherwise. A plain class, not a generator: it wraps every call of every round."""

    __slots__ = ("who", "call", "t", "unit")

    def __init__(self, who: str, call: str, t: int, unit: str = "round"):
        self.who, self.call, self.t, self.unit = who, call, t, unit

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if isinstance(error, Exception):
            error.add_note(f"raised in {self.who}.{self.call} at {self.unit} {self.t}")
        return False


def class_run_arguments(runs, horizon, epsilon, horizon_name: str = "horizon") -> tuple[int, int, float]:
    """``runs``, ``horizon`` and ``epsilon`` of a run of a researcher's class, checked: two ints
    >= 1 and an epsilon > 0 (None: not private, inf)."""
    for name, value in (("runs", runs), (horizon_name, horizon)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    eps = float("inf") if epsilon is None else float(epsilon)
    if not eps > 0:
        raise ValueError(f"epsilon must be > 0 (or None: not private), got {epsilon!r}")
    return int(runs), int(horizon), eps


def constructor_problems(cls, required: tuple[str, ...]) -> list[str]:
    """What is wrong with the constructor of a researcher's class ``cls`` (empty if nothing): it
    must start with the family's ``required`` arguments, in order."""
    try:
        names = list(inspect.signature(cls.__init__).parameters)[1:]
    except (TypeError, ValueError):
        return ["its constructor has no inspectable signature"]
    if tuple(names[:len(required)]) != tuple(required):
        return [f"its constructor must start with ({', '.join(required)}), got ({', '.join(names)})"]
    return []


def keyword_params(cls, params, required: tuple[str, ...]) -> dict:
    """``params`` (a mapping, or None) checked against the keyword parameters of ``cls``'s
    constructor after the family's ``required`` arguments: an unknown key is an error naming the
    allowed ones (a constructor taking ``**kwargs`` accepts any key; its own checks apply)."""
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"params for {cls.__name__} must be a mapping, got {type(params).__name__}")
    rest = list(inspect.signature(cls.__init__).parameters.values())[1 + len(required):]
    if any(p.kind == p.VAR_KEYWORD for p in rest):
        return dict(params or {})
    allowed = [p.name for p in rest if p.kind != p.VAR_POSITIONAL]
    unknown = sorted(k for k in (params or {}) if k not in allowed)
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(map(repr, unknown))} for {cls.__name__}; "
                         f"allowed: {', '.join(allowed) if allowed else 'none (it takes no parameters)'}")
    return dict(params or {})


def run_reference(algorithm, env, horizon: int, checkpoints: np.ndarray,
                  reward_rng: np.random.Generator, record_actions: bool = False) -> RunResult:
    gaps = env.gaps
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    values = np.empty(checkpoints.size)
    pulls = np.zeros(env.n_arms, dtype=np.int64)
    actions = np.empty(horizon, dtype=np.int64) if record_actions else None
    regret = 0.0
    c = 0
    who = type(algorithm).__name__
    for t in range(1, horizon + 1):
        with raised_in(who, "select(t)", t):
            arm = algorithm.select(t)
        arm = checked_arm(arm, env.n_arms, who, t)
        reward = env.reward(t, arm, reward_rng)
        with raised_in(who, "update(t, arm, reward)", t):
            algorithm.update(t, arm, reward)
        pulls[arm] += 1
        regret += gaps[arm]
        if actions is not None:
            actions[t - 1] = arm
        while c < checkpoints.size and checkpoints[c] == t:
            values[c] = regret
            c += 1
    releases = np.asarray(getattr(algorithm, "releases", np.zeros(env.n_arms)), dtype=np.int64)
    return RunResult(values, pulls, releases.copy(), actions)
