"""Generated sections of README.md: the text between ``<!-- <name>:start -->`` and
``<!-- <name>:end -->`` is replaced by the workflow (never edited by hand)."""

from __future__ import annotations

from pathlib import Path

from dpbandits.io import atomic_path

__all__ = ["replace_marked_section"]


def replace_marked_section(path: str | Path, name: str, body: str) -> bool:
    """Replace the marked section ``name`` of the file with ``body``; False (file untouched) when
    the file has no such markers, or when the section already holds ``body``."""
    path = Path(path)
    text = path.read_text()
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        return False
    new = text[: i + len(start)] + "\n" + body.strip("\n") + "\n" + text[j:]
    if new == text:
        return False
    with atomic_path(path) as tmp:
        tmp.write_text(new)
    return True
