"""The one registry of every check of the four papers (ARCHITECTURE.md, "Checks").

Each paper lists its checks in ``dpbandits.<paper>.checks.registry`` as :class:`Check` records:
plain data, cheap to import (the workflow's main process reads them to build its rules; the check
functions themselves are imported only by the job that runs them). ``workflow/rules/checks.smk``
turns every record into one named rule and ``workflow/scripts/check.py`` runs any of them; the
guards of :mod:`dpbandits.evidence.guards` are applied there, to every row of every check.

A check is one rule: it may write several claim rows (``T-2.6a`` writes ``T-2.6a-EPS2``,
``T-2.6a-PERROUND``, ...), one CSV of rows, plus the data of its scaling figure or of an
informational table, which their own rules draw.

Calling conventions (``Check.call``):

``tables``    ``function(tables, rng, n_boot, scale)``; ``tables`` maps each input name to a
              DataFrame (the union of that input's files), or, for names with a ``/`` (e.g.
              ``dense/runs``), to a dict of DataFrames (``tables["dense"]["runs"]``).
``settings``  ``function(rng, scale, settings)``; ``settings`` merges the config sections the
              check declares (``Check.config``; a leaf path contributes ``{leaf: value}``).
``args``      ``function(rng, scale, *values)``: the values of the declared config paths, in
              order (e.g. ``("dueling.audit.samples", "dueling.audit.confidence")``).
``sized``     ``function(rng, scale, **Check.sizes[scale])``: sizes fixed per scale in the
              registry itself.
``seeds``     ``function(root_seed, scale, settings)``: checks that derive several named random
              streams themselves (the audits with their negative controls).

``rng`` is ``make_rng(root_seed, paper, "check", id)`` (``Check.rng_unit`` overrides the unit);
checks with ``seeded=False`` get ``rng=None`` and run once, whatever the seed (exact and
analytic checks), which the stability sweep relies on.

``Check.guards`` say, per row pattern, where the claims apply (a regime criterion), which rows
compare quantities (floor guard), the alternative a PASS must fail, and which rows are claims
about real data; :mod:`dpbandits.evidence.guards` enforces them on every row.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from dpbandits.records import PAPERS, load_records, lookup

__all__ = ["Check", "Guard", "TableSpec", "PAPERS", "all_checks", "checks_of", "in_module", "get", "CALLS"]

CALLS = ("tables", "settings", "args", "sized", "seeds")


@dataclass(frozen=True)
class Guard:
    """What the registry says about some rows of a check (``rows``: an fnmatch pattern of their
    ids). ``regime``: the criterion of the regime where the claim applies (rows need
    ``evidence.regime``); ``compares``: the rows compare or order quantities (they need
    ``evidence.floor``); ``alternative``: the stated alternative a PASS must fail (power);
    ``claim_on``: "real" for claims about real data (rows need ``evidence.data``)."""

    rows: str = "*"
    regime: str = ""
    compares: bool = False
    alternative: str = ""
    claim_on: str = "synthetic"

    def covers(self, check_id: str) -> bool:
        return fnmatchcase(check_id, self.rows)


@dataclass(frozen=True)
class TableSpec:
    """An informational table a check writes besides its claims (``reports/tables/<paper>/``)."""

    name: str
    caption: str
    label: str
    display: str | None = None  # "module:function" turning the table into its display form
    formats: Mapping[str, str] = field(default_factory=dict)  # column -> format for the display


@dataclass(frozen=True)
class Check:
    """One check of one paper: a rule that writes claim rows (module docstring)."""

    id: str
    paper: str
    rule: str
    function: str  # "module:attribute"
    call: str = "tables"
    inputs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name -> result files
    config: tuple[str, ...] = ()  # dotted config paths read (settings; bootstrap for tables)
    figure: bool = False  # writes the data of a scaling figure (drawn by its own rule)
    table: TableSpec | None = None
    seeded: bool = True
    sizes: Mapping[str, Mapping] | None = None  # call == "sized"
    rng_unit: tuple | None = None
    title: str = ""  # what the rule reproduces, for its docstring and --list-rules
    guards: tuple[Guard, ...] = ()  # where its claims apply and their power (dpbandits.evidence.guards)

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"check {self.id}: paper must be one of {PAPERS}, got {self.paper!r}")
        if self.call not in CALLS:
            raise ValueError(f"check {self.id}: call must be one of {CALLS}, got {self.call!r}")
        if ":" not in self.function:
            raise ValueError(f"check {self.id}: function must be 'module:attribute'")
        if self.call == "sized" and not self.sizes:
            raise ValueError(f"check {self.id}: a sized check needs sizes per scale")
        if self.call == "tables" and not self.inputs:
            raise ValueError(f"check {self.id}: a tables check needs inputs")

    @property
    def module(self) -> str:
        return self.function.partition(":")[0]

    def load(self) -> Callable:
        module, _, name = self.function.partition(":")
        return getattr(importlib.import_module(module), name)

    @property
    def config_paths(self) -> tuple[str, ...]:
        """The config values its job depends on: the scale, the seed when it draws random numbers
        or reads seeded simulations, and what it declares."""
        seed = ("seed",) if self.seeded or self.inputs else ()
        return ("scale", *seed, *self.config)

    @property
    def unit(self) -> tuple:
        """The description its random generator derives from (dpbandits.rng)."""
        return self.rng_unit or (self.paper, "check", self.id)


def checks_of(paper: str) -> dict[str, Check]:
    """The checks of one paper, by id, in the registry's order."""
    return load_records(paper, "checks.registry", "CHECKS", "check")


def all_checks() -> list[Check]:
    """Every check of every paper; rule names are unique."""
    checks = [c for paper in PAPERS for c in checks_of(paper).values()]
    rules = [c.rule for c in checks]
    duplicated = sorted({r for r in rules if rules.count(r) > 1})
    if duplicated:
        raise ValueError(f"duplicate check rule names: {duplicated}")
    return checks


def in_module(paper: str, module: str) -> dict[str, Check]:
    """The checks of one paper whose function lives in ``module`` (e.g.
    ``dpbandits.dueling.checks.alg1``), by id."""
    return {k: c for k, c in checks_of(paper).items() if c.module == module}


def get(paper: str, check_id: str) -> Check:
    return lookup(checks_of(paper), "check", paper, check_id)
