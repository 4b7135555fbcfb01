"""Plain records of what the workflow builds for each paper besides its checks: one
:class:`Simulation` per simulation design and one :class:`Figure` per figure or table of a paper.

Each paper lists them in ``dpbandits.<paper>.experiments.registry`` (``SIMULATIONS``,
``FIGURES``), as the check registry (:mod:`dpbandits.evidence.registry`) lists its checks: data,
cheap to import (the workflow's main process reads them to build its rules; the functions they
name are imported only by the job that runs them). ``workflow/rules/simulations.smk`` and
``workflow/rules/figures.smk`` turn every record into one named rule, and
``workflow/scripts/simulate.py`` and ``workflow/scripts/figure.py`` run any of them.

A record's ``function`` (``"module:attribute"``) is called as ``function(job)``: ``job`` carries
the rule's named ``input`` and ``output`` files, its ``wildcards``, and ``job.config``, the config
values the record declares (and nothing else: a value it does not declare is a ``KeyError``,
so a config change reruns exactly the jobs that read the changed value). The function writes
every output (tables with :func:`dpbandits.io.write_results`, figures with
:func:`dpbandits.plotting.save_figure`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["Simulation", "Figure", "PAPERS", "simulations_of", "figures_of", "get_simulation", "get_figure",
           "load_records", "lookup"]

PAPERS = ("online", "dueling", "quantile", "contextual")


def _load(function: str) -> Callable:
    module, _, name = function.partition(":")
    return getattr(importlib.import_module(module), name)


def _check_common(kind: str, paper: str, ident: str, function: str) -> None:
    if paper not in PAPERS:
        raise ValueError(f"{kind} {ident}: paper must be one of {PAPERS}, got {paper!r}")
    if ":" not in function:
        raise ValueError(f"{kind} {ident}: function must be 'module:attribute', got {function!r}")


@dataclass(frozen=True)
class Simulation:
    """One simulation design of a paper: one rule, one job per combination of the wildcards in
    its output paths (a grid cell, a seed block, a design, a variant, ...).

    ``outputs``: name -> path pattern under the run's seed root (``results/<scale>/seed<seed>/``),
    e.g. ``{"table": "sim/dueling/alg1/{design}/{variant}.parquet"}``; ``log``: the log's path
    pattern under ``logs/<scale>/<paper>/``. ``config``: the dotted config paths its jobs read
    besides the scale and the seed (``{wildcard}`` fields are filled per job); ``config_of``:
    ``(wildcard, "module:function")``, a function of that wildcard's value giving further paths
    (designs that read different sections)."""

    paper: str
    id: str
    rule: str
    function: str
    outputs: Mapping[str, str]
    log: str
    config: tuple[str, ...] = ()
    config_of: tuple[str, str] | None = None
    mem_mb: int = 2000
    runtime: int = 30  # minutes (the cluster's time limit)
    title: str = ""

    def __post_init__(self) -> None:
        _check_common("simulation", self.paper, self.id, self.function)
        if not self.outputs:
            raise ValueError(f"simulation {self.id}: no outputs")
        if self.config_of is not None and f"{{{self.config_of[0]}}}" not in "".join(self.outputs.values()):
            raise ValueError(f"simulation {self.id}: config_of names wildcard {self.config_of[0]!r}, "
                             "which no output path has")

    @property
    def module(self) -> str:
        return self.function.partition(":")[0]

    def load(self) -> Callable:
        return _load(self.function)

    def config_paths(self, wildcards: Mapping[str, str]) -> tuple[str, ...]:
        """The config paths one job reads (besides the scale and the seed)."""
        paths = tuple(p.format(**wildcards) for p in self.config)
        if self.config_of is not None:
            name, function = self.config_of
            paths += tuple(_load(function)(wildcards[name]))
        return paths


@dataclass(frozen=True)
class Figure:
    """One figure (``kind="figure"``: a PDF and a PNG under ``reports/figures/<paper>/``) or
    table (``kind="table"``: LaTeX and CSV under ``reports/tables/<paper>/``) of a paper.

    ``name``: the files' name; ``inputs``: input name -> path(s) under the main run's seed root
    (the run the reports show); its caption is ``workflow/report/<paper>/<name>.rst``;
    ``subcategory``: where the Snakemake report files it; ``config``: the
    config paths it reads (``"seed"`` when it draws random numbers)."""

    paper: str
    id: str
    rule: str
    function: str
    name: str
    kind: str = "figure"
    inputs: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    config: tuple[str, ...] = ()
    subcategory: str = ""
    title: str = ""

    def __post_init__(self) -> None:
        _check_common("figure", self.paper, self.id, self.function)
        if self.kind not in ("figure", "table"):
            raise ValueError(f"figure {self.id}: kind must be 'figure' or 'table', got {self.kind!r}")

    @property
    def module(self) -> str:
        return self.function.partition(":")[0]

    def load(self) -> Callable:
        return _load(self.function)

    @property
    def extensions(self) -> tuple[str, str]:
        return ("pdf", "png") if self.kind == "figure" else ("tex", "csv")

    @property
    def folder(self) -> str:
        return "figures" if self.kind == "figure" else "tables"


def load_records(paper: str, module: str, attribute: str, kind: str) -> dict:
    """The records ``attribute`` of ``dpbandits.<paper>.<module>``, by id, in their order; each
    must name that paper, and ids are unique. Shared by the three registries (simulations,
    figures, and the checks of :mod:`dpbandits.evidence.registry`)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; allowed: {', '.join(PAPERS)}")
    source = importlib.import_module(f"dpbandits.{paper}.{module}")
    out: dict = {}
    for record in getattr(source, attribute):
        if record.paper != paper:
            raise ValueError(f"{source.__name__}: {kind} {record.id} says paper {record.paper!r}")
        if record.id in out:
            raise ValueError(f"{source.__name__}: duplicate {kind} id {record.id}")
        out[record.id] = record
    return out


def lookup(records: Mapping, kind: str, paper: str, ident: str):
    """One record by id, or a KeyError naming the known ones."""
    if ident not in records:
        raise KeyError(f"no {kind} {ident!r} in paper {paper!r}; known: {', '.join(records)}")
    return records[ident]


def simulations_of(paper: str) -> dict[str, Simulation]:
    """The simulation designs of one paper, by id, in the registry's order."""
    return load_records(paper, "experiments.registry", "SIMULATIONS", "simulation")


def figures_of(paper: str) -> dict[str, Figure]:
    """The figures and tables of one paper, by id, in the registry's order."""
    return load_records(paper, "experiments.registry", "FIGURES", "figure")


def get_simulation(paper: str, ident: str) -> Simulation:
    return lookup(simulations_of(paper), "simulation", paper, ident)


def get_figure(paper: str, ident: str) -> Figure:
    return lookup(figures_of(paper), "figure", paper, ident)
