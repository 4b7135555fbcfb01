"""File output that survives interruptions, and intermediate tables whose corruption is detected.

* :func:`atomic_path`: write to a temporary sibling, then ``os.replace`` into place, so that an
  interrupted job never leaves a truncated output behind.
* :func:`write_results` / :func:`read_results`: intermediate Parquet tables under ``results/``.
  They are written atomically with a CRC32 checksum on every data page and a SHA-256 of the whole
  file in a sidecar ``<name>.sha256`` (the page checksums do not cover the footer, where the
  schema and metadata live), and read back with both verified, so a file damaged after it was
  written (a bad disk block, a partial copy, a stray edit) raises :class:`CorruptResultError`
  naming the file instead of being aggregated.
* :func:`find_corrupt_results`: every Parquet table under a directory that fails that read (the
  workflow runs it before scheduling, so that damaged intermediates are rebuilt, see
  :mod:`dpbandits.workflow.guard`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path

import pandas as pd

__all__ = ["atomic_path", "write_results", "read_results", "read_results_or_quarantine",
           "CorruptResultError", "find_corrupt_results", "checksum_path", "TEMP_PREFIX"]

TEMP_PREFIX = "."  # temporary siblings are hidden files: ".<name>.<random><suffix>"
CHECKSUM_SUFFIX = ".sha256"


@contextlib.contextmanager
def atomic_path(path: str | Path, suffix: str | None = None):
    """Yield a temporary path next to ``path``; on success move it over ``path``.

    The temporary file keeps the target's suffix so that writers that infer the format from
    the extension (matplotlib, pandas) keep working. It is created as a plain ``open(path, "w")``
    would create the target (mode 0666 less the process's umask, applied by the kernel), not
    0600 as ``tempfile.mkstemp`` would, so that collaborators on a shared machine can read the
    outputs.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _create_temporary(path, suffix or path.suffix)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _create_temporary(path: Path, suffix: str) -> Path:
    """A new, empty hidden sibling ``.<name>.<random><suffix>`` of ``path`` (the pattern the
    workflow's guard recognises as an unfinished job's temporary), created exclusively with mode
    0666 less the umask."""
    for _ in range(100):
        tmp = path.with_name(f"{TEMP_PREFIX}{path.name}.{secrets.token_hex(4)}{suffix}")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(f"no free temporary name beside {path}")


class CorruptResultError(OSError):
    """An intermediate table cannot be read back intact (bad checksum, truncated, not Parquet)."""


def checksum_path(path: str | Path) -> Path:
    """The sidecar holding the SHA-256 of an intermediate table."""
    path = Path(path)
    return path.with_name(path.name + CHECKSUM_SUFFIX)


def _sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_results(table: pd.DataFrame, path: str | Path, metadata: dict[str, str] | None = None) -> None:
    """Write an intermediate table atomically as Parquet with per-page CRC32 checksums and a
    SHA-256 sidecar (``metadata``: extra key-value pairs stored in the file's schema)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = pa.Table.from_pandas(table, preserve_index=False)
    if metadata:
        meta = dict(arrow.schema.metadata or {})
        meta.update({k.encode(): v.encode() for k, v in metadata.items()})
        arrow = arrow.replace_schema_metadata(meta)
    with atomic_path(path) as tmp:
        pq.write_table(arrow, tmp, write_page_checksum=True)
        # the sidecar goes first: an interruption between the two renames leaves a table whose
        # checksum does not match, which is rebuilt, never an unchecked one
        with atomic_path(checksum_path(path)) as tmp_sum:
            tmp_sum.write_text(_sha256(tmp) + "\n")


def read_results(path: str | Path, with_metadata: bool = False):
    """Read an intermediate table, verifying its SHA-256 sidecar and its page checksums;
    :class:`CorruptResultError` (naming the file) if it is damaged or its sidecar is missing
    (:func:`write_results` always writes one, and without it a changed byte inside the footer's
    metadata would go unseen: no page checksum covers it). With ``with_metadata``: (table,
    key-value metadata)."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(path)
    sidecar = checksum_path(path)
    if not sidecar.is_file():
        raise CorruptResultError(f"intermediate table {path} cannot be verified: its checksum file "
                                 f"{sidecar.name} is missing")
    if _sha256(path) != sidecar.read_text().strip():
        raise CorruptResultError(f"intermediate table {path} is corrupt (its SHA-256 does not match "
                                 f"{sidecar.name})")
    try:
        arrow = pq.read_table(path, page_checksum_verification=True)
        frame = arrow.to_pandas()
    except Exception as exc:  # pyarrow raises OSError / ArrowInvalid / ArrowException subclasses
        raise CorruptResultError(f"intermediate table {path} is corrupt ({exc})") from exc
    if not with_metadata:
        return frame
    meta = {k.decode(): v.decode() for k, v in (arrow.schema.metadata or {}).items()
            if k != b"pandas"}
    return frame, meta


def read_results_or_quarantine(path: str | Path, with_metadata: bool = False):
    """:func:`read_results`, but a corrupt table is moved aside to ``<path>.corrupt`` before the
    error is raised: the job that read it fails (nothing is aggregated from it) and the next run
    of the workflow sees the table missing and rebuilds it."""
    try:
        return read_results(path, with_metadata)
    except CorruptResultError as exc:
        quarantined = Path(f"{path}.corrupt")
        os.replace(path, quarantined)
        checksum_path(path).unlink(missing_ok=True)
        raise CorruptResultError(f"{exc}; moved to {quarantined}: re-run the workflow to rebuild "
                                 "it") from exc


def find_corrupt_results(root: str | Path, verified: dict | None = None) -> list[Path]:
    """Every finished Parquet table under ``root`` that :func:`read_results` rejects (hidden
    temporary files of unfinished writes are not finished tables and are skipped).

    ``verified`` (optional, updated in place) maps a path to the (size, mtime_ns) at which it was
    last read back intact; such files are not read again while both are unchanged and their
    checksum file is there, so that a start-up scan costs only the tables written since the last
    one. A damage that keeps size and time is still caught when a job reads the table
    (:func:`read_results_or_quarantine`)."""
    bad = []
    root = Path(root)
    if not root.is_dir():
        return bad
    for path in sorted(root.rglob("*.parquet")):
        if path.name.startswith(TEMP_PREFIX) or not path.is_file():
            continue
        stat = path.stat()
        stamp = [stat.st_size, stat.st_mtime_ns]
        if verified is not None and verified.get(str(path)) == stamp and checksum_path(path).is_file():
            continue
        try:
            read_results(path)
        except CorruptResultError:
            bad.append(path)
            continue
        if verified is not None:
            verified[str(path)] = stamp
    return bad
