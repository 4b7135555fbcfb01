"""One protocol for the contextual family (locally private contextual bandits: each target user
holds a context, is shown an arm by the server's public policy, observes a reward, and sends the
server only a locally randomised report), in two parts, as the paper's privacy model has them:

**Policy** (:class:`ContextualPolicy`, the server), one batch of users at a time::

    policy.batch -> int                  # users per batch: what it broadcasts is fixed within one
    policy.public() -> object            # the broadcast of the next batch (it begins the batch)
    policy.act(x) -> int                 # the arm shown to a user with context x
    policy.receive(report)               # that user's report
    policy.end_batch()                   # the server's update after the batch

**Local randomiser** (:class:`LocalRandomizer`, on the user's side)::

    randomizer.release(x, arm, reward, public) -> report

with its privacy stated as attributes: ``epsilon``, ``private``, ``mechanism``, ``sensitivity``.
The local privacy guarantee is the randomiser's alone: for every public broadcast, the reports of
any two users (x, arm, reward) and (x', arm', reward') must be eps-indistinguishable; the policy
sees nothing else of a user.

**Runner** (:func:`run_users`, :func:`play_batch`): per batch, the users' contexts
(``instance.sample_target``), then ``public()``; per user, ``act``, the reward
Y = 1{u < f_arm(x)} with u the next uniform of the users' stream, ``release``, ``receive``; then
``end_batch``. Because that order is fixed, a class may share its generator with the users' draws,
as the paper's per-user reference does (:class:`dpbandits.contextual.reference.ReferenceLDPMAB`,
Algorithm 2 as the server and :class:`~dpbandits.contextual.randomizer.LaplaceRandomizer` as the
randomiser, both on one generator: it runs its target users through :func:`play_batch`). The
runner records the realised pseudo-regret f*(x) - f_arm(x) of every user.

**A researcher's own policy** (:func:`run_class`, from :func:`dpbandits.contextual.api.simulate`):
its constructor is ``(n_arms, dim, epsilon, horizon, rng, **params)``; its randomiser is the
class attribute ``randomizer`` (a class built as ``(epsilon, rng)``), by default the paper's
:class:`~dpbandits.contextual.randomizer.LaplaceRandomizer`, which needs a
:class:`~dpbandits.contextual.randomizer.PublicPartition` as the broadcast and keeps its eps-LDP
guarantee whatever the policy does with the reports. Run r draws the policy's randomness, the
randomiser's noise and the users from three streams of its seed (``policy``, ``randomizer``,
``users``). Every arm is checked where it is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from dpbandits.contextual.randomizer import LaplaceRandomizer
from dpbandits.rng import stream_rngs
from dpbandits.sim.reference import checked_arm, constructor_problems, keyword_params, raised_in

__all__ = ["ContextualPolicy", "LocalRandomizer", "UserRun", "play_batch", "run_users", "REQUIRED_ARGS",
           "class_problems", "class_params", "run_class"]

REQUIRED_ARGS = ("n_arms", "dim", "epsilon", "horizon", "rng")


@runtime_checkable
class ContextualPolicy(Protocol):
    """The server's side of the contextual family's protocol (module docstring)."""

    batch: int

    def public(self) -> object:
        """The broadcast of the next batch."""
        ...

    def act(self, x: np.ndarray) -> int:
        """The arm shown to a user with context x."""
        ...

    def receive(self, report) -> None:
        """A user's report."""
        ...

    def end_batch(self) -> None:
        """The update after the batch's users."""
        ...


@runtime_checkable
class LocalRandomizer(Protocol):
    """The user's side of the contextual family's protocol (module docstring)."""

    epsilon: float

    def release(self, x: np.ndarray, arm: int, reward: float, public) -> object:
        """The report of a user with context x, shown ``arm``, who observed ``reward``."""
        ...


@dataclass
class UserRun:
    """One run: the realised pseudo-regret sum_t f*(X_t) - f_{A_t}(X_t) over the target users
    (``regret``) and per batch (``curve``), and how often each arm was shown (``arms``)."""

    regret: float
    curve: np.ndarray
    arms: np.ndarray


def play_batch(policy: ContextualPolicy, randomizer: LocalRandomizer, instance, users: np.random.Generator,
               arms: np.ndarray, who: str = "", first_user: int = 1) -> float:
    """One batch of ``policy.batch`` target users (module docstring); returns the batch's realised
    pseudo-regret and adds the arms shown to ``arms``."""
    who = who or type(policy).__name__
    n = int(policy.batch)
    x = instance.sample_target(n, users)
    f = instance.reward(x)
    with raised_in(who, "public()", first_user, "target user"):
        public = policy.public()
    regret = 0.0
    local = type(randomizer).__name__
    for i in range(n):
        t = first_user + i
        with raised_in(who, "act(x)", t, "target user"):
            arm = policy.act(x[i])
        arm = checked_arm(arm, f.shape[1], who, t, f"act(x) for target user {t}")
        y = float(users.random() < f[i, arm])
        regret += f[i].max() - f[i, arm]
        arms[arm] += 1
        with raised_in(local, "release(x, arm, reward, public)", t, "target user"):
            report = randomizer.release(x[i], arm, y, public)
        with raised_in(who, "receive(report)", t, "target user"):
            policy.receive(report)
    with raised_in(who, "end_batch()", first_user + n - 1, "target user"):
        policy.end_batch()
    return regret


def run_users(policy: ContextualPolicy, randomizer: LocalRandomizer, instance, horizon: int,
              users: np.random.Generator, who: str = "") -> UserRun:
    """Batches of target users while a whole batch fits in ``horizon`` (a last partial batch is
    not played, as in the paper's algorithm); the batch size is read at each batch's start."""
    who = who or type(policy).__name__
    arms = np.zeros(instance.k, dtype=np.int64)
    curve, played = [], 0
    while True:
        batch = _checked_batch(policy, who)
        if played + batch > int(horizon):
            break
        curve.append(play_batch(policy, randomizer, instance, users, arms, who, played + 1))
        played += batch
    if not curve:
        raise ValueError(f"{who}.batch = {batch} is larger than the horizon ({int(horizon)} target users): "
                         "no batch would be played")
    return UserRun(float(sum(curve)), np.array(curve), arms)


def _checked_batch(policy, who: str) -> int:
    batch = getattr(policy, "batch", None)
    if batch is None:
        raise ValueError(f"{who} has no batch: set self.batch (users per batch, an integer >= 1)")
    if isinstance(batch, (bool, np.bool_)) or not isinstance(batch, (int, np.integer)) or batch < 1:
        raise ValueError(f"{who}.batch is {batch!r}; allowed: an integer >= 1")
    return int(batch)


def class_problems(cls) -> list[str]:
    """What keeps a researcher's policy from the family's door (empty if nothing): the policy's
    methods, a ``batch``, a constructor ``(n_arms, dim, epsilon, horizon, rng, **params)`` and,
    if it names one, a randomiser with ``release``."""
    missing = [m for m in ("public", "act", "receive", "end_batch") if not callable(getattr(cls, m, None))]
    problems = [f"it has no {', '.join(missing)} method{'s' if len(missing) > 1 else ''}"] if missing else []
    randomizer = getattr(cls, "randomizer", LaplaceRandomizer)
    if not callable(getattr(randomizer, "release", None)):
        problems.append(f"its randomizer {getattr(randomizer, '__name__', randomizer)!r} has no release method")
    return [*problems, *constructor_problems(cls, REQUIRED_ARGS)]


def class_params(cls, params) -> dict:
    """``params`` checked against the keyword parameters of ``cls`` after :data:`REQUIRED_ARGS`."""
    return keyword_params(cls, params, REQUIRED_ARGS)


def run_class(cls, instance, epsilon: float, params: dict, horizon: int,
              seeds: list[np.random.SeedSequence]) -> list[UserRun]:
    """One run of a researcher's policy per seed (module docstring)."""
    randomizer = getattr(cls, "randomizer", LaplaceRandomizer)
    out = []
    for seed in seeds:
        rngs = stream_rngs(seed, ("policy", "randomizer", "users"))
        policy = cls(instance.k, instance.d, epsilon, int(horizon), rngs["policy"], **params)
        local = randomizer(epsilon, rngs["randomizer"])
        out.append(run_users(policy, local, instance, horizon, rngs["users"], cls.__name__))
    return out
