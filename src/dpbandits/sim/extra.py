"""A researcher's own algorithms, for every family: loading a class named by an import path
(``package.module:Class`` or ``path/to/file.py:Class``), and the entries of a family's
``<family>.extra_algorithms`` config key (their base, :class:`ExtraEntry`; the names, imports and
protocol checked before any job, each problem naming its key; the check ids a name produces).
Each family's door (``dpbandits.<family>.interface``) checks a loaded class against its protocol."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path

__all__ = ["load_algorithm", "source_file", "check_id_part", "extra_check_ids", "ExtraEntry", "loaded_entries",
           "protocol_entry_problems"]

_FILE_MODULES: dict[str, object] = {}


def _split(import_path: str) -> tuple[str, str]:
    module, sep, name = str(import_path).partition(":")
    if not sep or not module or not name.isidentifier():
        raise ValueError(f"import path {import_path!r} is not of the form 'package.module:Class' "
                         "or 'path/to/file.py:Class'")
    return module, name


def _module(module: str):
    if module.endswith(".py"):
        path = Path(module)
        if not path.is_absolute():
            path = Path.cwd() / path
        path = path.resolve()
        if not path.is_file():
            raise ValueError(f"no file {module!r} (paths are relative to the working directory "
                             f"{Path.cwd()})")
        key = str(path)
        if key not in _FILE_MODULES:
            if str(path.parent) not in sys.path:  # helper modules beside the file import as usual
                sys.path.append(str(path.parent))
            spec = importlib.util.spec_from_file_location(f"dpbandits_user_{path.stem}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            _FILE_MODULES[key] = mod
        return _FILE_MODULES[key]
    cwd = str(Path.cwd())
    if cwd not in sys.path:  # a module next to the workflow (e.g. examples.dp_ucb_tree)
        sys.path.append(cwd)
    return importlib.import_module(module)


def load_algorithm(import_path: str) -> type:
    """The class named by ``import_path`` ("package.module:Class" or "file.py:Class"), with a
    clear ``ValueError`` when the module does not import or the class is missing."""
    module, name = _split(import_path)
    try:
        mod = _module(module)
    except ValueError:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any import failure of user code is reported
        raise ValueError(f"cannot import {module!r}: {type(exc).__name__}: {exc}") from exc
    cls = getattr(mod, name, None)
    if cls is None:
        raise ValueError(f"module {module!r} has no attribute {name!r}")
    if not inspect.isclass(cls):
        raise ValueError(f"{import_path!r} is not a class")
    return cls


def source_file(import_path: str) -> Path | None:
    """The source file of the module ``import_path`` names (for the code digest of its jobs)."""
    module, _ = _split(import_path)
    if module.endswith(".py"):
        return (Path.cwd() / module).resolve()
    mod = _module(module)
    origin = getattr(mod, "__file__", None)
    return Path(origin).resolve() if origin else None


def check_id_part(name: str) -> str:
    """A name as it appears in claim ids (``my_algorithm`` -> ``MY-ALGORITHM``)."""
    return name.upper().replace("_", "-")


@dataclass(frozen=True)
class ExtraEntry:
    """One entry of a family's ``extra_algorithms`` (dueling, quantile, contextual): the class
    (``import_path``, ``params``) and its label; a family's subclass adds its settings, each with
    its default, read from the entry's key of the same name (the schema states them)."""

    name: str
    import_path: str
    params: Mapping = field(default_factory=dict)
    label: str = ""

    @classmethod
    def from_config(cls, entry: Mapping):
        kw = {"name": entry["name"], "import_path": entry["import"], "params": dict(entry.get("params") or {}),
              "label": entry.get("label") or entry["name"]}
        for f in fields(cls)[4:]:
            default = f.default if f.default is not MISSING else f.default_factory()
            value = entry.get(f.name, default)
            if isinstance(default, tuple):  # e.g. horizons: the items typed as the default's
                kw[f.name] = tuple(type(default[0])(v) for v in value) if default else tuple(value)
            elif default is None or isinstance(default, bool):  # the schema types them
                kw[f.name] = value
            else:
                kw[f.name] = type(default)(value)
        return cls(**kw)

    @classmethod
    def entries(cls, section: Mapping) -> list:
        """The entries of ``section["extra_algorithms"]`` (none if absent)."""
        return [cls.from_config(e) for e in section.get("extra_algorithms") or []]

    def load(self) -> type:
        return load_algorithm(self.import_path)

    @property
    def check_id(self) -> str:
        """The name as it appears in claim ids (X-AUDIT-<ID>, X-REGRET-<ID>)."""
        return check_id_part(self.name)


def extra_check_ids(name: str) -> tuple[str, ...]:
    """Every check id an extra algorithm's name produces (its audit, its control, its regret)."""
    cid = check_id_part(name)
    return (f"X-AUDIT-{cid}", f"X-AUDIT-{cid}-CONTROL", f"X-REGRET-{cid}")


def loaded_entries(entries, key: str, taken, check_ids):
    """The names and imports of the entries of a family's ``extra_algorithms`` (``key``), entry by
    entry: (its key, the entry, its class or None, the problems of its name and import), the
    problems being a name among ``taken`` (the paper's algorithms) or used twice, or two names whose
    check ids (``check_ids(name)``) collide, and an ``import`` that does not load; each names its
    key. Entries that are not mappings are the schema's to report."""
    seen, ids = {}, {}
    for i, entry in enumerate(entries or []):
        if not isinstance(entry, Mapping):
            continue
        where, out, cls = f"{key}[{i}]", [], None
        name = entry.get("name")
        if name in taken:
            out.append(f"config key '{where}.name': {name!r} is not allowed; allowed: a name not "
                       f"taken by the paper's algorithms ({', '.join(taken)})")
        elif name in seen:
            out.append(f"config key '{where}.name': {name!r} is not allowed; allowed: a name not "
                       f"used by another entry (used at {key}[{seen[name]}])")
        else:
            seen[name] = i
            for cid in check_ids(name) if isinstance(name, str) else ():
                if cid in ids:
                    out.append(f"config key '{where}.name': {name!r} is not allowed; allowed: a name whose check ids "
                               f"do not collide with another entry's ({cid} is also {key}[{ids[cid]}]'s)")
                    break
            for cid in check_ids(name) if isinstance(name, str) else ():
                ids.setdefault(cid, i)
        path = entry.get("import")
        if isinstance(path, str):
            try:
                cls = load_algorithm(path)
            except ValueError as exc:
                out.append(f"config key '{where}.import': {path!r} is not allowed: {exc}; allowed: an "
                           "importable 'package.module:Class' or 'path/to/file.py:Class'")
        yield where, entry, cls, out


def protocol_entry_problems(entries, key: str, interface, taken, dry_run, check_ids=None) -> list[str]:
    """Problems of the entries of ``<family>.extra_algorithms`` (``key``) for a family with a
    protocol module, ``interface`` (``dpbandits.<family>.interface``: its ``class_problems`` and
    ``class_params``): those of :func:`loaded_entries`, a class that is not of the protocol,
    ``params`` that are not its parameters, and what ``dry_run(cls, params, entry)`` finds, as (the entry's field, the problem)
    pairs; each names its key. ``check_ids``: the ids a name produces (default
    :func:`extra_check_ids`)."""
    family = interface.__name__.split(".")[1]
    out = []
    for where, entry, cls, problems in loaded_entries(entries, key, taken, check_ids or extra_check_ids):
        out += problems
        if cls is None:
            continue
        problems = interface.class_problems(cls)
        if problems:
            out.append(f"config key '{where}.import': {entry['import']!r} is not a class of the {family} protocol of "
                       f"dpbandits.{family}.interface: {'; '.join(problems)}")
            continue
        try:
            params = interface.class_params(cls, entry.get("params"))
        except ValueError as exc:
            out.append(f"config key '{where}.params': {exc}")
            continue
        out += [f"config key '{where}.{name}': {problem}" for name, problem in dry_run(cls, params, entry)]
    return out
