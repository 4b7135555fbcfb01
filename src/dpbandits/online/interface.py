"""Bring your own algorithm: the interface a bandit algorithm implements so that
:func:`dpbandits.online.simulate` runs it, the workflow draws it beside the paper's algorithms in
Figures 1-2 and the final-regret table, and the black-box audit tests its privacy claim.

**Per-step interface** (required; the reference engine :func:`dpbandits.sim.run_reference`
drives it, one round at a time, exactly as it drives the paper's algorithms)::

    class MyAlgorithm:
        private = True   # optional class attribute (default True): a private algorithm needs epsilon > 0

        def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: numpy.random.Generator,
                     *, my_param: float = 0.5, noise_multiplier: float = 1.0):
            ...
        def select(self, t: int) -> int:                          # the arm pulled at round t = 1, 2, ...
            ...
        def update(self, t: int, arm: int, reward: float) -> None:  # its Bernoulli reward
            ...
        releases: numpy.ndarray   # optional: number of private releases per arm (reported)
        def published(self) -> numpy.ndarray:  # optional: every private value released so far
            ...

* ``rng`` is the algorithm's own random stream (never the rewards'); an algorithm with several
  mechanisms splits it (``rng.spawn(2)``) so that no stream serves two mechanisms.
* Parameters are keyword arguments with defaults; the config's ``params`` (and ``simulate``'s)
  are checked against them, so a misspelt parameter is an error naming the allowed ones.
* ``published()`` (optional method): the values the algorithm has released so far, in the order
  released (e.g. each arm's noisy sum at the end of each epoch), as a 1-D float array (per-step; it
  may grow from round to round) or an array of shape (copies, r) (vectorised; NaN where a copy has
  released fewer than r values). The audit then reads them beside the actions: a leak the actions
  hide (a reward in several releases, noise reused) shows in the values themselves. (``releases``
  is taken: it is the count of releases per arm that ``simulate`` reports.)
* ``noise_multiplier`` (optional keyword, default 1) multiplies the scale of every privacy noise.
  When it exists, the audit's negative control is the algorithm with its noise scale multiplied by
  its entry's ``control_noise_multiplier`` (default ``online.audit.control_noise_multiplier``, as
  for the paper's algorithms); otherwise the
  control is the algorithm constructed at epsilon / multiplier (see
  :mod:`dpbandits.online.checks.extra`).

**Vectorised interface** (optional): a keyword ``copies`` (default None). With ``copies = n`` one
object holds n independent copies of the algorithm: ``select(t)`` returns an int array of n arms
and ``update(t, arms, rewards)`` takes arrays of n. The copies must have the law of n per-step
objects (they share ``rng``). The audit uses it (n independent runs on one reward table), and so
does ``simulate(..., engine="fast")`` (the runs of a cell advance together); without it both run
per-step objects one after the other.

The workflow names a class in the config (``online.extra_algorithms``, validated before any job
by :func:`extra_algorithm_problems`, a dry run of a few rounds included; every arm a class returns
is checked where it returns it, :func:`dpbandits.sim.reference.checked_arm`): ``import`` is ``"package.module:Class"`` (importable from
the installed packages or the working directory) or ``"path/to/file.py:Class"`` (relative to the
working directory). ``examples/`` holds a private DP-UCB with tree-based counters and a
deliberately leaky UCB that the audit refutes.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from dpbandits.sim.extra import (  # re-exported: the family's own door
    check_id_part,
    extra_check_ids,
    load_algorithm,
    loaded_entries,
    source_file,
)
from dpbandits.sim.reference import checked_arm, checked_arms

__all__ = ["BanditAlgorithm", "load_algorithm", "algorithm_params", "check_algorithm_params", "interface_problems",
           "supports_copies", "supports_noise_multiplier", "is_private", "ExtraAlgorithm",
           "extra_algorithms", "extra_algorithm_problems", "source_file", "REQUIRED_ARGS",
           "PAPER_NAMES", "checked_arm", "checked_arms", "extra_check_ids", "dry_run_problems", "AUDIT_ROUNDS",
           "MAX_AUDIT_CODES", "supports_published", "checked_published"]

REQUIRED_ARGS = ("n_arms", "epsilon", "horizon", "rng")
AUDIT_ROUNDS = (1, 3, 4)  # the rounds whose reward vector the audit's neighbours mirror (as P-MC-BANDIT)
MAX_AUDIT_CODES = 2**22  # action sequences an audit of a researcher's algorithm may code (K^T)
_ENGINE_ARGS = ("copies",)  # keywords the engines set, not parameters of the algorithm
# names taken by the paper's algorithms and references (the figure grid's algorithm wildcard)
PAPER_NAMES = ("anytime_lazy_ucb", "lazy_dp_ts", "dp_se", "adap_klucb", "ucb1", "ts_beta",
               "rnm_ftnl", "naive_ftnl")



@runtime_checkable
class BanditAlgorithm(Protocol):
    """The per-step protocol of the online family: the paper's reference classes (one per
    algorithm of :data:`dpbandits.online.api.ALGORITHMS` with bandit feedback) and a researcher's
    class (module docstring) implement it, and the reference engine
    (:func:`dpbandits.sim.run_reference`), the black-box audit and the workflow drive any of them
    through it. The paper's classes also state their privacy as class attributes: ``private``,
    ``mechanism`` (what is released, with which noise) and ``sensitivity`` (of a released sum
    when one reward changes); a private one keeps its ``epsilon``. ``tests/test_online_family.py``
    holds every algorithm of the family to the same invariants."""

    def select(self, t: int) -> int:
        """The arm pulled at round t = 1, 2, ..."""
        ...

    def update(self, t: int, arm: int, reward: float) -> None:
        """The reward of the arm pulled at round t."""
        ...


def _signature(cls) -> inspect.Signature:
    return inspect.signature(cls.__init__)


def algorithm_params(cls) -> dict[str, object]:
    """The algorithm's parameters (keyword arguments after ``n_arms, epsilon, horizon, rng``)
    and their defaults; ``copies`` is the engines', not a parameter."""
    out = {}
    for i, (name, p) in enumerate(_signature(cls).parameters.items()):
        if i == 0 or name in REQUIRED_ARGS or name in _ENGINE_ARGS:
            continue  # self, the engine's arguments
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        out[name] = p.default
    return out


def _accepts_any_keyword(cls) -> bool:
    return any(p.kind == p.VAR_KEYWORD for p in _signature(cls).parameters.values())


def supports_copies(cls) -> bool:
    """Does the class implement the optional vectorised interface (a ``copies`` keyword)?"""
    return "copies" in _signature(cls).parameters


def supports_noise_multiplier(cls) -> bool:
    return "noise_multiplier" in _signature(cls).parameters


def supports_published(cls) -> bool:
    """Does the class publish its private releases (the optional ``published()`` method)?"""
    return callable(getattr(cls, "published", None))


def _shown(values, limit: int = 80) -> str:
    """``repr(values)`` on one line, cut to ``limit`` characters for an error message."""
    text = " ".join(repr(values).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def checked_published(values, copies: int | None, who: str, t: int) -> np.ndarray:
    """The values of ``who.published()`` after round ``t`` as a new float array of shape (1, r)
    (per-step: ``copies`` None) or (copies, r), if they are real numbers (integers or floats; NaN,
    or a masked entry, for not released by that copy); otherwise a ``ValueError`` naming the class,
    the call, the round and the value (booleans, complex numbers, strings, dates are refused)."""
    call = f"{who}.published() after round {t}" + ("" if copies is None else f" with copies={copies}")
    allowed = "allowed: an array of real numbers (NaN: not released)"
    if np.ma.isMaskedArray(values):
        values = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan)
    try:
        kind = np.asarray(values).dtype.kind
        a = np.array(values, dtype=float) if kind in "iufO" else None  # a copy: the class may reuse its buffer
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{call} returned {_shown(values)}; {allowed}") from None
    if a is None:
        raise ValueError(f"{call} returned {_shown(values)} (dtype kind {kind!r}); {allowed}")
    expected = "(r,)" if copies is None else f"({copies}, r)"
    if (copies is None and a.ndim != 1) or (copies is not None and (a.ndim != 2 or a.shape[0] != copies)):
        raise ValueError(f"{call} returned shape {a.shape}: {_shown(values)}; expected {expected}")
    if np.isinf(a).any():
        raise ValueError(f"{call} returned {a[np.isinf(a)].flat[0].item()!r}; allowed: finite values (NaN: not released)")
    return a[None, :] if copies is None else a


def is_private(cls) -> bool:
    return bool(getattr(cls, "private", True))


def interface_problems(cls) -> list[str]:
    """What keeps ``cls`` from the per-step interface (empty if it implements it)."""
    problems = []
    try:
        params = list(_signature(cls).parameters)[1:]
    except (TypeError, ValueError):
        return ["its constructor has no inspectable signature"]
    if tuple(params[:4]) != REQUIRED_ARGS:
        problems.append(f"its constructor must start with ({', '.join(REQUIRED_ARGS)}), "
                        f"got ({', '.join(params[:4])})")
    for method in ("select", "update"):
        if not callable(getattr(cls, method, None)):
            problems.append(f"it has no method {method}()")
    if isinstance(getattr(cls, "published", None), property):
        problems.append("its published is a property; the optional hook is a method, published()")
    required = [n for n, d in algorithm_params(cls).items() if d is inspect.Parameter.empty]
    if required:
        problems.append(f"its parameters {', '.join(required)} have no default")
    return problems


def check_algorithm_params(cls, params: Mapping | None) -> dict:
    """``params`` as a dict, if every key is a parameter of ``cls``; otherwise a ``ValueError``
    naming the unknown keys and the allowed ones."""
    params = dict(params or {})
    allowed = list(algorithm_params(cls))
    reserved = REQUIRED_ARGS + _ENGINE_ARGS
    open_ended = _accepts_any_keyword(cls)  # **kwargs: any name but the engine's arguments
    unknown = sorted(k for k in params if k in reserved or (k not in allowed and not open_ended))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(map(repr, unknown))} for {cls.__name__}; "
                         f"allowed: {', '.join(allowed) if allowed else 'none'}")
    return params


@dataclass(frozen=True)
class ExtraAlgorithm:
    """One entry of ``online.extra_algorithms``: a researcher's algorithm, simulated on the
    Figures 1-2 grid beside the paper's and audited at its claimed epsilon.

    ``epsilon_accounting``: the privacy the algorithm claims when constructed with ``epsilon``, as
    a multiple of it (1: "epsilon-DP"; 2: "2 epsilon-DP"), under the paper's neighbouring relation
    (two reward tables that differ in one round's reward vector). The audit tests that claim.
    ``audit_samples``: runs per neighbouring reward table of its black-box audit;
    ``audit_horizons``: the horizons of its audit's reward tables (a leak that grows with the
    number of releases shows only on longer tables); ``audit_arms``: the arms of those tables;
    ``audit_rounds``: the rounds whose reward vector a neighbouring table mirrors (one neighbour
    each; at most the shortest horizon);
    ``control_noise_multiplier``: its audit's negative control (None: the section's
    ``online.audit.control_noise_multiplier``)."""

    name: str
    import_path: str
    params: Mapping = field(default_factory=dict)
    epsilon_accounting: float = 1.0
    label: str = ""
    audit_samples: int = 100000
    control_noise_multiplier: float | None = None
    audit_horizons: tuple[int, ...] = (8, 16)
    audit_arms: int = 2
    audit_rounds: tuple[int, ...] = AUDIT_ROUNDS

    @classmethod
    def from_config(cls, entry: Mapping) -> ExtraAlgorithm:
        return cls(name=entry["name"], import_path=entry["import"], params=dict(entry.get("params") or {}),
                   epsilon_accounting=float(entry.get("epsilon_accounting", 1.0)),
                   label=entry.get("label") or entry["name"],
                   audit_samples=int(entry.get("audit_samples", 100000)),
                   control_noise_multiplier=(None if entry.get("control_noise_multiplier") is None
                                             else float(entry["control_noise_multiplier"])),
                   audit_horizons=tuple(int(t) for t in entry.get("audit_horizons", (8, 16))),
                   audit_arms=int(entry.get("audit_arms", 2)),
                   audit_rounds=tuple(int(h) for h in entry.get("audit_rounds", AUDIT_ROUNDS)))

    def audit_problems(self) -> list[tuple[str, str, str]]:
        """What the audit's size cannot be, as (field, its value, what is allowed) triples: a
        mirrored round beyond the shortest table, or more action sequences than the audit can code
        (no horizons at all is the schema's to report)."""
        out = []
        if not self.audit_horizons:
            return out
        shortest = min(self.audit_horizons)
        late = [h for h in self.audit_rounds if h > shortest]
        if late:
            out.append(("audit_rounds", f"{list(self.audit_rounds)}",
                        f"rounds in [1, {shortest}] (the shortest of audit_horizons {list(self.audit_horizons)})"))
        codes = self.audit_arms ** max(self.audit_horizons)
        if codes > MAX_AUDIT_CODES:
            out.append(("audit_arms", f"{self.audit_arms} (with audit_horizons up to {max(self.audit_horizons)}: "
                                      f"{codes} action sequences)",
                        f"at most {MAX_AUDIT_CODES} action sequences (the audit codes each one): fewer arms or "
                        "shorter horizons"))
        return out

    def load(self) -> type:
        return load_algorithm(self.import_path)

    @property
    def check_id(self) -> str:
        """The name as it appears in claim ids (X-AUDIT-<ID>, X-REGRET-<ID>)."""
        return check_id_part(self.name)


def extra_algorithms(online: Mapping) -> list[ExtraAlgorithm]:
    """The entries of ``online.extra_algorithms`` of the ``online`` config section (none if absent)."""
    return [ExtraAlgorithm.from_config(e) for e in online.get("extra_algorithms") or []]


def dry_run_problems(cls, params: Mapping, steps: int = 5) -> list[str]:
    """A dry construction of ``cls`` with ``params`` (K = 2, epsilon = 1, T = ``steps``) and its
    first rounds, per-step and, if it has them, with two copies, and then its published values if
    it publishes them (``published()``): the errors a job would meet."""
    out = []
    for copies in ((None, 2) if supports_copies(cls) else (None,)):
        where = "per-step" if copies is None else f"with copies={copies}"
        try:
            kw = dict(params) if copies is None else {**params, "copies": copies}
            alg = cls(2, 1.0, steps, np.random.default_rng(0), **kw)
            for t in range(1, steps + 1):
                if copies is None:
                    arm = checked_arm(alg.select(t), 2, cls.__name__, t)
                    alg.update(t, arm, 1.0)
                else:
                    arms = checked_arms(alg.select(t), 2, copies, cls.__name__, t)
                    alg.update(t, arms, np.ones(copies))
            if supports_published(cls):
                checked_published(alg.published(), copies, cls.__name__, steps)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code is reported
            out.append(f"a dry run ({where}, K = 2, epsilon = 1, {steps} rounds) fails: {type(exc).__name__}: {exc}")
    return out


def extra_algorithm_problems(entries, key: str = "online.extra_algorithms") -> list[str]:
    """Problems of the ``online.extra_algorithms`` entries the schema cannot see: a name taken by
    the paper's algorithms or used twice, or two names whose check ids collide (``leaky`` and
    ``leaky_control`` both produce X-AUDIT-LEAKY-CONTROL), and, for each ``import``, that the module
    imports, the class exists and implements the per-step interface, its ``params`` are parameters
    of it, and a dry run with them (construction and a few rounds) succeeds. Each problem names its
    key (``online.extra_algorithms[0].import``)."""
    out = []
    for where, entry, cls, problems in loaded_entries(entries, key, PAPER_NAMES, extra_check_ids):
        out += problems
        if cls is None:
            continue
        path = entry["import"]
        problems = interface_problems(cls)
        if problems:
            out.append(f"config key '{where}.import': {path!r} does not implement the bandit "
                       f"interface of dpbandits.online.interface: {'; '.join(problems)}")
            continue
        try:
            params = check_algorithm_params(cls, entry.get("params"))
        except ValueError as exc:
            out.append(f"config key '{where}.params': {exc}")
        else:
            out += [f"config key '{where}.params': {p}" for p in dry_run_problems(cls, params)]
        try:
            spec = ExtraAlgorithm.from_config(entry)
        except (KeyError, TypeError, ValueError):
            spec = None  # the schema reports malformed entries
        for field_name, value, allowed in spec.audit_problems() if spec is not None else ():
            out.append(f"config key '{where}.{field_name}': {value} is not allowed; allowed: {allowed}")
        if not is_private(cls):
            out.append(f"config key '{where}.import': {path!r} says private = False; allowed: a "
                       "private algorithm (the extra algorithms are drawn in the private panels "
                       "and audited at their claimed epsilon)")
    return out
