"""What the workflow does before it schedules anything, so that an interrupted or damaged run can
simply be started again with the same command.

Snakemake already reruns jobs whose outputs are incomplete (``rerun-incomplete`` in the profiles),
and every job writes its outputs atomically (:func:`dpbandits.io.atomic_path`). Three things are
left to the main process of a new run, in :func:`prepare_workdir`:

1. **Stale locks.** A run killed with SIGKILL leaves ``.snakemake/locks`` behind, and the next run
   would refuse to start ("Directory cannot be locked"). Each main process records itself
   (host, pid) in ``.snakemake/dpbandits_owner.json``; locks whose recorded owner is no longer a
   live process on this host are removed. Locks held by a live owner, or by an unknown / remote
   owner, are left alone, so Snakemake's protection against two concurrent runs stays.
2. **Orphaned temporaries.** A killed job leaves its hidden temporary sibling
   (``.<name>.<random><suffix>``) under ``results/`` or ``reports/``; they are removed.
   Checksum sidecars whose table is gone (a job killed between its two renames) go too.
3. **Damaged or deleted outputs.** Every finished output that is not a checksummed table (CSV,
   TeX, Markdown, figures, HTML) has a SHA-256 record written when its job finished
   (:func:`dpbandits.workflow.jobs.record_outputs`); one whose bytes no longer match is removed, and so
   is everything computed from it or from an intermediate that was deleted by hand, so that the
   same run rebuilds them (Snakemake alone reruns neither a changed output nor a missing
   intermediate whose consumers look up to date).
4. **Corrupt intermediates.** Every Parquet table under ``results/`` written since the last scan
   is read back with its checksums (:func:`dpbandits.io.find_corrupt_results`); a damaged one is
   moved aside to ``<name>.corrupt`` (a job that reads a damaged table does the same, see
   :func:`dpbandits.io.read_results_or_quarantine`). Snakemake does not rebuild a missing
   intermediate while everything downstream of it looks up to date, so for every table moved
   aside the outputs computed from it, directly or not (each job's inputs are in Snakemake's
   metadata records), are removed too: the same run then rebuilds the table and everything
   downstream of it.

Nothing is changed when another live run owns the directory, and a dry run only reports.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import shutil
import socket
from dataclasses import dataclass, field
from pathlib import Path

from dpbandits.io import (
    CHECKSUM_SUFFIX,
    TEMP_PREFIX,
    atomic_path,
    checksum_path,
    find_corrupt_results,
)
from dpbandits.workflow.jobs import OUTPUT_RECORDS

__all__ = ["prepare_workdir", "GuardReport", "OWNER_FILE", "VERIFIED_FILE"]

log = logging.getLogger(__name__)

OWNER_FILE = Path(".snakemake") / "dpbandits_owner.json"
VERIFIED_FILE = Path(".snakemake") / "dpbandits_verified.json"
LOCK_DIR = Path(".snakemake") / "locks"
OUTPUT_DIRS = ("results", "reports")


@dataclass
class GuardReport:
    """What :func:`prepare_workdir` found and did (paths relative to the working directory)."""

    live_owner: bool = False
    stale_locks: list[Path] = field(default_factory=list)
    orphaned_temporaries: list[Path] = field(default_factory=list)
    corrupt: list[Path] = field(default_factory=list)
    damaged: list[Path] = field(default_factory=list)  # deliverables whose bytes changed
    missing: list[Path] = field(default_factory=list)  # intermediates deleted since their job
    orphaned_sidecars: list[Path] = field(default_factory=list)
    invalidated: list[Path] = field(default_factory=list)  # outputs derived from damaged tables
    changed: bool = False

    def messages(self) -> list[str]:
        verb = "removed" if self.changed else "found (dry run: left as they are)"
        out = []
        if self.live_owner:
            out.append("another live Snakemake run owns this directory: nothing was checked")
        if self.stale_locks:
            out.append(f"{verb} {len(self.stale_locks)} stale lock file(s) of a run that was killed")
        if self.orphaned_temporaries:
            out.append(f"{verb} {len(self.orphaned_temporaries)} temporary file(s) of unfinished jobs")
        if self.orphaned_sidecars:
            out.append(f"{verb} {len(self.orphaned_sidecars)} checksum file(s) whose table is gone")
        for path in self.damaged:
            what = "removed to rebuild it" if self.changed else "would be rebuilt"
            out.append(f"damaged output {path} (its bytes differ from those its job wrote): {what}")
        for path in self.missing:
            out.append(f"missing intermediate {path}: it and everything computed from it "
                       + ("are rebuilt" if self.changed else "would be rebuilt"))
        for path in self.corrupt:
            what = "moved aside to rebuild it" if self.changed else "would be rebuilt"
            out.append(f"corrupt intermediate table {path}: {what}")
        if self.invalidated:
            what = "removed" if self.changed else "would be removed"
            out.append(f"{what} {len(self.invalidated)} output(s) computed from damaged tables, so that they are "
                       f"rebuilt: {', '.join(str(p) for p in self.invalidated[:5])}"
                       + (" ..." if len(self.invalidated) > 5 else ""))
        return out


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.exists():  # guard against a recycled pid: the owner was a snakemake process
        try:
            return b"snakemake" in cmdline.read_bytes()
        except OSError:
            return True
    return True


def _owner_alive(workdir: Path) -> bool | None:
    """True / False when the recorded owner is / is not a live process on this host; None when
    it cannot be told (no record, unreadable record, or another host)."""
    try:
        owner = json.loads((workdir / OWNER_FILE).read_text())
        host, pid = owner["host"], int(owner["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if host != socket.gethostname():
        return None
    return _process_alive(pid)


def _orphaned_temporaries(workdir: Path) -> list[Path]:
    found = []
    for top in OUTPUT_DIRS:
        root = workdir / top
        if root.is_dir():
            found += [p for p in root.rglob(f"{TEMP_PREFIX}*") if p.is_file()
                      and p.name.count(".") >= 2]
    return sorted(found)


def _orphaned_checksums(workdir: Path) -> list[Path]:
    root = workdir / "results"
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob(f"*{CHECKSUM_SUFFIX}")
                  if p.is_file() and not p.with_name(p.name.removesuffix(CHECKSUM_SUFFIX)).exists())


def _quarantined(workdir: Path) -> list[Path]:
    """Tables moved aside (``<name>.corrupt``) and not rebuilt since."""
    root = workdir / "results"
    if not root.is_dir():
        return []
    return sorted(p.with_name(p.name.removesuffix(".corrupt")) for p in root.rglob("*.corrupt")
                  if p.is_file() and not p.with_name(p.name.removesuffix(".corrupt")).exists())


def _metadata_inputs(workdir: Path) -> dict[str, list[str]]:
    """output path -> the input paths of the job that wrote it, from Snakemake's metadata records
    (``.snakemake/metadata``: one JSON record per output, named by the url-safe base64 of its path,
    split into "@"-prefixed directories when long)."""
    root = workdir / ".snakemake" / "metadata"
    out = {}
    if not root.is_dir():
        return out
    for record in root.rglob("*"):
        if not record.is_file():
            continue
        try:
            name = "".join(part.lstrip("@") for part in record.relative_to(root).parts)
            out[base64.urlsafe_b64decode(name).decode()] = list(json.loads(record.read_text()).get("input", []))
        except (ValueError, OSError, AttributeError, TypeError):
            continue
    return out


def _consumer_outputs(workdir: Path, tables: list[Path]) -> list[Path]:
    """Existing outputs computed, directly or through other outputs, from any of ``tables``.
    Snakemake does not rerun a job for a missing intermediate while everything downstream of it
    looks up to date, so all of them must go for the damaged table to be rebuilt."""
    tainted = {str(t.relative_to(workdir)) for t in tables}
    if not tainted:
        return []
    inputs = _metadata_inputs(workdir)
    found: set[str] = set()
    while True:
        new = {out for out, ins in inputs.items() if out not in found and tainted.intersection(ins)}
        if not new:
            break
        found |= new
        tainted |= new
    return sorted(workdir / f for f in found if (workdir / f).exists())


def _damaged_outputs(workdir: Path) -> list[Path]:
    """Recorded outputs whose current bytes differ from those their job wrote."""
    import hashlib

    records = workdir / OUTPUT_RECORDS
    bad = []
    if not records.is_dir():
        return bad
    for record in sorted(records.glob("*.json")):
        try:
            entry = json.loads(record.read_text())
            path = workdir / entry["path"]
        except (OSError, ValueError, KeyError, TypeError):
            record.unlink(missing_ok=True)
            continue
        if not path.is_file():
            continue
        if hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            bad.append(path)
    return bad


def _missing_intermediates(workdir: Path) -> list[Path]:
    """Outputs under results/ that a finished job wrote (Snakemake's metadata records them) and
    that are gone, while outputs computed from them still exist."""
    inputs = _metadata_inputs(workdir)
    consumed = {i for ins in inputs.values() for i in ins}
    return sorted(workdir / out for out in inputs
                  if out.startswith("results/") and out in consumed and not (workdir / out).exists()
                  and not Path(f"{workdir / out}.corrupt").exists())


def prepare_workdir(workdir: str | Path = ".", dryrun: bool = False) -> GuardReport:
    """Recover ``workdir`` from an interrupted or damaged run (module docstring); record this
    process as the owner of the run. Call it once, from Snakemake's main process only."""
    workdir = Path(workdir)
    report = GuardReport()
    locks = sorted(p for p in (workdir / LOCK_DIR).glob("*") if p.is_file()) \
        if (workdir / LOCK_DIR).is_dir() else []
    if locks:
        alive = _owner_alive(workdir)
        if alive is not False:  # a live or an unknown owner: Snakemake's lock check decides
            report.live_owner = bool(alive)
            return report
        report.stale_locks = locks
    report.orphaned_temporaries = _orphaned_temporaries(workdir)
    report.orphaned_sidecars = _orphaned_checksums(workdir)
    verified_path = workdir / VERIFIED_FILE
    try:
        verified = json.loads(verified_path.read_text())
    except (OSError, ValueError):
        verified = {}
    report.corrupt = find_corrupt_results(workdir / "results", verified)
    report.damaged = _damaged_outputs(workdir)
    report.missing = _missing_intermediates(workdir)
    report.invalidated = _consumer_outputs(
        workdir, report.corrupt + _quarantined(workdir) + report.damaged + report.missing)
    if dryrun:  # nothing is changed; only the cache of tables read back intact is kept
        if not report.corrupt and (workdir / ".snakemake").is_dir():
            with atomic_path(verified_path) as tmp:
                tmp.write_text(json.dumps(verified))
        return report
    for path in (*report.stale_locks, *report.orphaned_temporaries, *report.orphaned_sidecars):
        path.unlink(missing_ok=True)
    for path in report.damaged:
        path.unlink(missing_ok=True)
    for path in report.corrupt:
        os.replace(path, f"{path}.corrupt")
        checksum_path(path).unlink(missing_ok=True)
        verified.pop(str(path), None)
    for path in report.invalidated:
        if path.is_dir():  # a directory() output
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
            checksum_path(path).unlink(missing_ok=True)
        verified.pop(str(path), None)
    report.changed = True
    (workdir / ".snakemake").mkdir(exist_ok=True)
    with atomic_path(verified_path) as tmp:
        tmp.write_text(json.dumps(verified))
    with atomic_path(workdir / OWNER_FILE) as tmp:
        tmp.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}))
    return report
