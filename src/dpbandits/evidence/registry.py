"""The one registry of every check of the four papers (CONTRIBUTING.md, "Add a check").

Each paper lists its checks in ``dpbandits.<paper>.checks.registry`` as :class:`Check` records:
plain data, cheap to import (the workflow's main process reads them to build its rules; the check
functions themselves are imported only by the job that runs them). ``workflow/rules/checks.smk``
turns every record into one named rule and ``workflow/scripts/check.py`` runs any of them; the
guards of :mod:`dpbandits.evidence.guards` are applied there, to every row of every check.

A check is one rule: it may write several claim rows (``T-2.6a`` writes ``T-2.6a-EPS2``,
``T-2.6a-PERROUND``, ...), one CSV of rows, plus the data of its scaling figure or of an
informational table, which their own rules draw.

Two calling conventions, told apart by whether the check reads result files (``Check.inputs``):

* a check of the simulations' tables: ``function(tables, rng, n_boot, scale, **keywords)``;
  ``tables`` maps each input name to a DataFrame (the union of that input's files), or, for
  names with a ``/`` (e.g. ``dense/runs``), to a dict of DataFrames (``tables["dense"]["runs"]``);
  ``n_boot`` is the paper's ``<paper>.checks.bootstrap`` when ``Check.bootstrap``, else 0;
* a check that computes or draws its own data: ``function(rng, scale, **keywords)``.

``keywords`` are typed in the record: ``Check.keywords`` maps an argument to a config path (its
value) or to a tuple of paths (their values merged into one dict: a section contributes its
items, a leaf ``{leaf: value}``), and ``Check.sizes[scale]`` adds arguments fixed per scale in
the registry itself. ``rng`` is ``make_rng(root_seed, paper, "check", id)`` (``Check.rng_unit``
overrides the unit); checks with ``seeded=False`` get ``rng=None`` and run once, whatever the seed
(exact and analytic checks), which the stability sweep relies on; a check that derives several
named random streams itself (the audits with their negative controls; ``root_seed=True``) gets
the run's root seed (an int) in its place.

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

__all__ = ["Check", "Guard", "TableSpec", "PAPERS", "all_checks", "checks_of", "in_module", "get"]


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
    inputs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name -> result files
    keywords: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)  # argument -> config path(s)
    bootstrap: bool = False  # n_boot from <paper>.checks.bootstrap (a check of tables)
    figure: bool = False  # writes the data of a scaling figure (drawn by its own rule)
    table: TableSpec | None = None
    seeded: bool = True
    root_seed: bool = False  # gets the root seed instead of a generator (derives its own streams)
    sizes: Mapping[str, Mapping] | None = None  # arguments fixed per scale
    rng_unit: tuple | None = None
    title: str = ""  # what the rule reproduces, for its docstring and --list-rules
    guards: tuple[Guard, ...] = ()  # where its claims apply and their power (dpbandits.evidence.guards)

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"check {self.id}: paper must be one of {PAPERS}, got {self.paper!r}")
        if ":" not in self.function:
            raise ValueError(f"check {self.id}: function must be 'module:attribute'")
        if self.bootstrap and not self.inputs:
            raise ValueError(f"check {self.id}: only a check of result tables takes a bootstrap count")
        if self.root_seed and not self.seeded:
            raise ValueError(f"check {self.id}: a check that derives its streams from the root seed is seeded")
        for name, paths in self.keywords.items():
            if not name.isidentifier() or not isinstance(paths, (str, tuple)):
                raise ValueError(f"check {self.id}: keyword {name!r} must name an argument and map to a config path "
                                 "or a tuple of paths")
        if self.sizes and set(self.sizes) != {"paper", "smoke"}:
            raise ValueError(f"check {self.id}: sizes must be given for the scales paper and smoke, got {sorted(self.sizes)}")
        fixed = set(self.sizes["paper"]) | set(self.sizes["smoke"]) if self.sizes else set()
        if fixed & set(self.keywords):
            raise ValueError(f"check {self.id}: arguments {sorted(fixed & set(self.keywords))} are both sizes and keywords")

    @property
    def module(self) -> str:
        return self.function.partition(":")[0]

    def load(self) -> Callable:
        module, _, name = self.function.partition(":")
        return getattr(importlib.import_module(module), name)

    @property
    def bootstrap_path(self) -> str:
        return f"{self.paper}.checks.bootstrap"

    @property
    def config_paths(self) -> tuple[str, ...]:
        """The config values its job depends on: the scale, the seed when it draws random numbers
        or reads seeded simulations, its bootstrap count and the paths of its keywords."""
        seed = ("seed",) if self.seeded or self.inputs else ()
        boot = (self.bootstrap_path,) if self.bootstrap else ()
        paths = [p for v in self.keywords.values() for p in ((v,) if isinstance(v, str) else v)]
        return ("scale", *seed, *boot, *dict.fromkeys(paths))

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
