"""One protocol for the dueling family (preference feedback: each round shows user t a duel and
observes which arm the user prefers), which every algorithm of the family implements: the paper's
Algorithms 1 (DP-EBS-Elimination) and 2 (GOptimal-DPDB), and the specification's non-private baselines RUCB, RCS, IF2,
Doubler and MaxInP.

**Protocol** (:class:`DuelingAlgorithm`), one round at a time::

    alg.select() -> (left, right)        # the duel shown to the next user (left == right allowed)
    alg.update(left, right, left_won)    # that duel and the user's answer o_t = 1{left preferred}

and states its privacy as attributes: ``private``, ``mechanism`` (what is released, with which
noise), ``sensitivity`` (what one user's answer can change in it). The algorithm never stops: the
runner plays the horizon exactly, and an algorithm that has committed keeps returning its duel.

**Runner** (:func:`run_duels`): after ``select`` the user's answer is drawn from the preference
matrix, o_t = 1{u < P(left, right)} with u the next uniform of the ``answers`` stream (or read
from a fixed o-table: user t answers o_table[t - 1] whatever the duel, spec 1.4), and only then
``update`` is called. Because the order of the draws is fixed, an algorithm may draw its own
randomness from the ``answers`` stream too: Algorithm 1's engines draw u_b (the algorithm's
choice) and u_o (the answer) from one ``duels`` stream per run, and each baseline's engine draws
its choices and the answers from one generator for the whole call, so the papers' classes are built on a shared stream
(:func:`reference_for` returns the algorithm and the stream its answers come from): Algorithm 1's
class gives its engines' runs exactly, and Algorithm 2's class is its per-round reference engine
turned inside out (each phase's schedule is fixed at the phase's start; its answers come from the
engine's per-phase ``outcomes`` streams).

**A researcher's own class** goes through the same door (:func:`run_class`, from
:func:`dpbandits.dueling.api.simulate`): its constructor is ``(n_arms, epsilon, horizon, rng,
**its parameters)`` (a parameter named ``arms`` gets a LinearInstance's feature vectors unless
given), it draws its own randomness from ``rng`` (run r's ``algorithm`` stream) and its users'
answers come from run r's ``answers`` stream, so two researchers' classes see the same users.
Every duel it returns is checked where it returns it. Its privacy claim is audited black-box by
:func:`dpbandits.dueling.checks.class_audit.audit_dueling_class`.

**Table** (:data:`REFERENCES`): each algorithm in the protocol, built from the arguments of
:func:`dpbandits.dueling.api.simulate` (``simulate(..., engine="reference")`` runs it);
``tests/test_dueling_family.py`` holds every algorithm to the protocol's invariants, the papers'
classes to their engines run by run, and each baseline's engine to its class in distribution.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from dpbandits.dueling.baseline_result import check_checkpoints, finite_view
from dpbandits.rng import run_seed, stream_rngs
from dpbandits.sim.reference import checked_arm, constructor_problems, keyword_params, raised_in

__all__ = ["DuelingAlgorithm", "DuelRun", "checked_pair", "run_duels", "REFERENCES", "reference_for",
           "run_reference", "REQUIRED_ARGS", "class_problems", "class_params", "run_class"]

REQUIRED_ARGS = ("n_arms", "epsilon", "horizon", "rng")


@runtime_checkable
class DuelingAlgorithm(Protocol):
    """The per-round protocol of the dueling family (module docstring)."""

    def select(self) -> tuple[int, int]:
        """The duel (left, right) shown to the next user."""
        ...

    def update(self, left: int, right: int, left_won: int) -> None:
        """The duel :meth:`select` returned and the user's answer (1 if left is preferred)."""
        ...


@dataclass
class DuelRun:
    """One run: cumulative pseudo-regret at the checkpoints in preference and utility units
    (spec 1.3: from P and the utilities, never from the realised answers), ``plays`` (K) how often
    each arm took part in a duel (both slots count, so it sums to 2T), ``pairs`` (T, 2) the duels
    if recorded."""

    regret_pref: np.ndarray
    regret_util: np.ndarray
    plays: np.ndarray
    pairs: np.ndarray | None = None


def checked_pair(pair, k: int, who: str, t: int) -> tuple[int, int]:
    """``pair`` as returned by ``who``'s ``select()`` in round t, if it is two integer arms in
    [0, k - 1]."""
    if not isinstance(pair, (tuple, list, np.ndarray)) or len(pair) != 2:
        raise ValueError(f"{who}.select() in round {t} returned {pair!r}; allowed: a pair (left, right) of "
                         f"integer arms in [0, {k - 1}]")
    call = f"select() in round {t}"
    return checked_arm(pair[0], k, who, t, call), checked_arm(pair[1], k, who, t, call)


def run_duels(algorithm: DuelingAlgorithm, instance, horizon: int, answers: np.random.Generator | None,
              checkpoints=None, *, o_table=None, record_pairs: bool = False, who: str = "") -> DuelRun:
    """Play ``horizon`` rounds of ``algorithm`` on ``instance`` (a FiniteInstance, or a
    LinearInstance through its preference matrix). Each round: ``select``, the user's answer
    (from ``answers``, or ``o_table``), ``update`` (module docstring). With an ``o_table``, a given
    ``answers`` stream still gives one uniform per round, discarded, as Algorithm 1's reference
    engine draws u_o on a fixed table (pass None to draw nothing, as Algorithm 2's does).
    ``checkpoints``: increasing rounds in [1, horizon] (default: the horizon). Every duel is
    checked where it is returned (errors name ``who``, by default the algorithm's class)."""
    who = who or type(algorithm).__name__
    fin = finite_view(instance)
    k, pref = fin.k, fin.preference
    horizon = int(horizon)
    cp = check_checkpoints(horizon, [horizon] if checkpoints is None else checkpoints)
    if o_table is not None:
        o_table = np.asarray(o_table)
        if o_table.shape != (horizon,) or np.any((o_table != 0) & (o_table != 1)):
            raise ValueError(f"o_table must be a 0/1 vector of length horizon = {horizon}")
    elif answers is None:
        raise ValueError("run_duels needs an answers stream or an o_table")
    gp, gu = fin.pref_gaps, fin.util_gaps
    plays = [0] * k  # Python lists and ints in the loop: it runs once per round of every run
    pairs = [] if record_pairs else None
    answer_of = o_table.tolist() if o_table is not None else None
    checks = cp.tolist()
    out_p, out_u = np.empty(cp.size), np.empty(cp.size)
    c = 0
    for t in range(1, horizon + 1):
        with raised_in(who, "select()", t):
            pair = algorithm.select()
        a, b = checked_pair(pair, k, who, t)
        u = answers.random() if answers is not None else None
        o = int(u < pref[a, b]) if answer_of is None else int(answer_of[t - 1])
        with raised_in(who, f"update({a}, {b}, {o})", t):
            algorithm.update(a, b, o)
        plays[a] += 1
        plays[b] += 1
        if pairs is not None:
            pairs.append((a, b))
        while c < len(checks) and checks[c] == t:
            counts = np.array(plays, dtype=np.int64)
            out_p[c], out_u[c] = counts @ gp, counts @ gu  # each duel's regret is the sum over its two slots
            c += 1
    return DuelRun(out_p, out_u, np.array(plays, dtype=np.int64),
                   np.array(pairs, dtype=np.int64).reshape(-1, 2) if pairs is not None else None)


def _dp_ebs_elimination(instance, config, horizon, seed, run=0):
    from dpbandits.dueling.ebs_reference import DPEBSEliminationReference

    alg = DPEBSEliminationReference(finite_view(instance), config, horizon, seed)
    return alg, alg.answer_stream


def _goptimal_dpdb(instance, config, horizon, seed, run=0):
    from dpbandits.dueling.goptimal_dpdb import GOptimalDPDBReference

    alg = GOptimalDPDBReference(instance, config, horizon, seed, run=run)
    return alg, alg.answer_stream


def _rucb(instance, params, horizon, seed, run=0):
    from dpbandits.dueling.rucb import RUCBReference

    rng = np.random.default_rng(seed)
    return RUCBReference(finite_view(instance).k, rng), rng


def _rcs(instance, params, horizon, seed, run=0):
    from dpbandits.dueling.rcs import RCSReference

    rng = np.random.default_rng(seed)
    return RCSReference(finite_view(instance).k, rng), rng


def _if2(instance, params, horizon, seed, run=0):
    from dpbandits.dueling.interleaved_filter import IF2Reference

    rng = np.random.default_rng(seed)
    return IF2Reference(finite_view(instance).k, horizon, rng), rng


def _doubler(instance, params, horizon, seed, run=0):
    from dpbandits.dueling.doubler import DoublerReference

    rng = np.random.default_rng(seed)
    return DoublerReference(finite_view(instance).k, rng), rng


def _maxinp(instance, params, horizon, seed, run=0):
    from dpbandits.dueling.maxinp import MaxInPReference

    rng = np.random.default_rng(seed)
    return MaxInPReference(instance, horizon, rng, **params), rng


# name -> (algorithm of one run, the stream its users' answers come from), from (instance, the typed
# config of Algorithm 1 or 2, or the baseline's parameters, horizon, the run's SeedSequence, the
# run's index)
REFERENCES: dict[str, Callable[..., tuple[DuelingAlgorithm, np.random.Generator]]] = {
    "dp_ebs_elimination": _dp_ebs_elimination, "goptimal_dpdb": _goptimal_dpdb, "rucb": _rucb, "rcs": _rcs, "if2": _if2, "doubler": _doubler,
    "maxinp": _maxinp,
}


def reference_for(name: str) -> Callable[..., tuple[DuelingAlgorithm, np.random.Generator]]:
    if name not in REFERENCES:
        raise ValueError(f"{name!r} has no class in the dueling protocol; allowed: {', '.join(REFERENCES)}")
    return REFERENCES[name]


def run_reference(name: str, instance, params, horizon: int, checkpoints, runs: int,
                  seed: np.random.SeedSequence) -> list[DuelRun]:
    """Every run of a paper's algorithm in the protocol, run r on ``run_seed(seed, r)`` (Algorithm
    1 and 2: the same streams as their engines, so the same runs)."""
    build = reference_for(name)
    out = []
    for r in range(int(runs)):
        alg, answers = build(instance, params, horizon, run_seed(seed, r), r)
        out.append(run_duels(alg, instance, horizon, answers, checkpoints))
    return out


def class_problems(cls) -> list[str]:
    """What keeps a researcher's class from the family's door (empty if nothing): ``select`` and
    ``update`` methods, and a constructor ``(n_arms, epsilon, horizon, rng, **its parameters)``."""
    missing = [m for m in ("select", "update") if not callable(getattr(cls, m, None))]
    problems = [f"it has no {' and no '.join(missing)} method"] if missing else []
    return [*problems, *constructor_problems(cls, REQUIRED_ARGS)]


def class_params(cls, params) -> dict:
    """``params`` checked against the keyword parameters of ``cls`` after :data:`REQUIRED_ARGS`."""
    return keyword_params(cls, params, REQUIRED_ARGS)


def run_class(cls, instance, epsilon: float, params: dict, horizon: int, checkpoints, runs: int,
              seed: np.random.SeedSequence) -> list[DuelRun]:
    """``runs`` runs of a researcher's class (module docstring): run r builds
    ``cls(K, epsilon, horizon, rng, **params)`` with rng the ``algorithm`` stream of
    ``run_seed(seed, r)``, and its users answer from that seed's ``answers`` stream."""
    fin = finite_view(instance)
    params = dict(params)
    if "arms" in inspect.signature(cls.__init__).parameters and "arms" not in params and hasattr(instance, "arms"):
        params["arms"] = instance.arms
    out = []
    for r in range(int(runs)):
        rngs = stream_rngs(run_seed(seed, r), ("algorithm", "answers"))
        alg = cls(fin.k, epsilon, int(horizon), rngs["algorithm"], **params)
        out.append(run_duels(alg, instance, horizon, rngs["answers"], checkpoints, who=cls.__name__))
    return out
