"""What each job depends on besides its input files, so that Snakemake reruns exactly the jobs a
config or code change affects (and nothing else).

* **Config.** :func:`select_config` cuts from the run's config the values one job reads, as a
  nested dict in the config's own key order. Rules pass it as ``params.config`` and the entry
  points read their settings from it (never from the global config), so a value a job does not
  declare is a ``KeyError`` in that job, and Snakemake's params trigger reruns a job exactly when
  a value it declares changes.
* **Code.** :func:`code_digest` is the SHA-256 of every ``dpbandits`` module a job can execute:
  the import closure of its entry point and of the library functions it names, read statically
  from the source (``import`` / ``from ... import`` anywhere in a module, also inside functions).
  Rules pass it as ``params.code``; an edit to one of those files reruns the job, while a checkout
  that restores the same content reruns nothing (the digest is of contents, not of times).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

__all__ = ["select_config", "code_digest", "module_file", "import_closure"]

PACKAGE = "dpbandits"
PACKAGE_DIR = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# Config


def _split(path: str) -> list[str]:
    if not path or any(not part for part in path.split(".")):
        raise ValueError(f"bad config path {path!r}")
    return path.split(".")


def select_config(config: Mapping, paths: Iterable[str]) -> dict:
    """The sub-config holding exactly the dotted ``paths`` (a path selects its whole subtree),
    nested as in ``config`` and in its key order.

    >>> select_config({"seed": 1, "online": {"a": 1, "b": {"c": 2, "d": 3}}}, ["online.b.d", "seed"])
    {'seed': 1, 'online': {'b': {'d': 3}}}
    """
    wanted: dict = {}
    for path in paths:
        node, parts = wanted, _split(path)
        for part in parts[:-1]:
            if node is True:
                break
            node = node.setdefault(part, {})
        else:
            if node is not True:
                node[parts[-1]] = True

    def cut(source, want, where):
        if want is True:
            return source
        if not isinstance(source, Mapping):
            raise KeyError(f"config key '{where}' is not a section")
        missing = [k for k in want if k not in source]
        if missing:
            raise KeyError(f"config key '{where + '.' if where else ''}{missing[0]}' is missing")
        return {k: cut(v, want[k], f"{where}.{k}" if where else k) for k, v in source.items() if k in want}

    return cut(config, wanted, "")


# ---------------------------------------------------------------------------------------------
# Code


@cache
def module_file(name: str) -> Path | None:
    """Source file of the ``dpbandits`` module ``name`` (None if it is not a module)."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    if name == PACKAGE:
        return PACKAGE_DIR / "__init__.py"
    rel = Path(*name.split(".")[1:])
    for candidate in (PACKAGE_DIR / rel.with_suffix(".py"), PACKAGE_DIR / rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    rel = path.resolve().relative_to(PACKAGE_DIR).with_suffix("")
    parts = [PACKAGE, *rel.parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_mtime_ns, st.st_size


def _direct_imports(path: Path) -> tuple[str, ...]:
    """``dpbandits`` modules ``path`` imports (anywhere in the file), parents included."""
    return _imports_of(path, _stamp(path))


# ``import a.b as c, d`` and ``from .a import (b, c as d)`` anywhere in a file (also inside
# functions); a text scan, not a parse: an import-like line inside a string only adds a file to
# the digest (a rerun too many), never hides one.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)"
                     r"|import[ \t]+([^\n#;]+))", re.MULTILINE)


def _names(text: str) -> list[str]:
    return [part.split(" as ")[0].strip() for part in text.strip("() \t\n").replace("\\\n", " ").split(",")
            if part.strip()]


@cache
def _imports_of(path: Path, stamp: tuple[int, int]) -> tuple[str, ...]:
    try:
        here = _module_name(path)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    except ValueError:  # an entry point outside the package
        package = ""
    found: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            if module_file(".".join(parts[:i])) is not None:
                found.add(".".join(parts[:i]))

    for m in _IMPORT.finditer(path.read_text()):
        if m.group(3) is not None:  # import a.b, c
            for name in _names(m.group(3)):
                add(name)
            continue
        module, names = m.group(1), _names(m.group(2))
        level = len(module) - len(module.lstrip("."))
        base = module.lstrip(".")
        if level:
            anchor = package.split(".")[: len(package.split(".")) - level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        add(base)
        for name in names:
            add(f"{base}.{name}")
    return tuple(sorted(found))


def import_closure(entries: Iterable[str | Path]) -> list[Path]:
    """Every ``dpbandits`` source file the entries (module names or file paths) can execute."""
    todo: list[Path] = []
    for entry in entries:
        if isinstance(entry, Path) or str(entry).endswith(".py"):
            todo.append(Path(entry).resolve())
        else:
            path = module_file(str(entry))
            if path is None:
                raise ValueError(f"{entry!r} is not a module of the {PACKAGE} package")
            todo.append(path)
    seen: set[Path] = set()
    for path in todo:
        seen |= _closure_of(path)
    return sorted(seen)


def _closure_of(path: Path) -> frozenset[Path]:
    """The import closure of one file. The workflow asks for hundreds of closures that share
    most files, so closures are cached, keyed by the stamps of the files they hold (an edit to
    any of them recomputes it)."""
    cached = _CLOSURES.get(path)
    if cached is not None and all(_stamp(p) == stamp for p, stamp in cached[1]):
        return cached[0]
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(module_file(m) for m in _direct_imports(current))
    closure = frozenset(seen)
    _CLOSURES[path] = (closure, tuple((p, _stamp(p)) for p in closure))
    return closure


_CLOSURES: dict[Path, tuple[frozenset[Path], tuple]] = {}


def _file_digest(path: Path) -> str:
    return _digest_of(path, _stamp(path))


@cache
def _digest_of(path: Path, stamp: tuple[int, int]) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def code_digest(*entries: str | Path) -> str:
    """SHA-256 (first 16 hex digits) of the contents of :func:`import_closure` of ``entries``;
    files are named relative to the package (entry points by file name), so the digest does not
    depend on where the checkout lives."""
    lines = []
    for path in import_closure(entries):
        try:
            name = path.relative_to(PACKAGE_DIR).as_posix()
        except ValueError:
            name = f"<entry>/{path.name}"
        lines.append(f"{name} {_file_digest(path)}\n")
    # ordered by the names, not by absolute paths: where the checkout and the workflow live
    # must not change the digest
    return hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()[:16]
