"""What the workflow does before it schedules anything, so that an interrupted or damaged run can
simply be started again with the same command.

Snakemake already reruns jobs whose outputs are incomplete (``rerun-incomplete`` in the profiles),
and every job writes its outputs atomically (:func:`dpbandits.io.atomic_path`). Three things are
left to the main process of a new run, in :func:`prepare_workdir`:

1. **Stale locks.** A run killed with SIGKILL leaves ``.snakemake/locks`` behind, and the next run
   would refuse to start ("Directory cannot be locked"). Each main process records itself
   (host, pid) in ``.snakemake/dpbandits_owner.json``; locks are stale, and removed, only when
   that owner is no longer a live process on this host *and* no other Snakemake process on this
   host runs in this directory (:func:`other_runs_here`; the owner record alone is not enough: a
   ``snakemake --list-rules`` started while a run was still setting up records itself, then
   exits). Locks held by a live run, or by an unknown / remote owner, are left alone, so
   Snakemake's protection against two concurrent runs stays, and nothing below is checked or
   changed while another run is alive here.
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

Items 3 and 4 look only at the outputs of the scale being run (:func:`in_scope`:
``results/<scale>/`` and that scale's reports, ``reports/`` for the paper scale and
``reports/<scale>/`` otherwise): a run removes only what it will rebuild itself, never another
scale's deliverables (a smoke run after ``rm -rf results/paper`` leaves the committed paper-scale
reports alone; the next paper-scale run rebuilds them).

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

__all__ = ["prepare_workdir", "GuardReport", "OWNER_FILE", "VERIFIED_FILE", "other_runs_here", "in_scope"]

log = logging.getLogger(__name__)

OWNER_FILE = Path(".snakemake") / "dpbandits_owner.json"
VERIFIED_FILE = Path(".snakemake") / "dpbandits_verified.json"
LOCK_DIR = Path(".snakemake") / "locks"
OUTPUT_DIRS = ("results", "reports")
SCALES = ("paper", "smoke")  # the config's scale profiles (workflow/schemas/config.schema.yaml)


def in_scope(path: str | Path, scale: str | None) -> bool:
    """Whether ``path`` (relative to the working directory) is an output a run at ``scale``
    writes: under ``results/<scale>/``, or its reports (``reports/`` without the other scales'
    subdirectories for the paper scale, ``reports/<scale>/`` otherwise). Every path when
    ``scale`` is None."""
    if scale is None:
        return True
    parts = Path(path).parts
    if parts[:1] == ("results",):
        return parts[1:2] == (scale,)
    if parts[:1] == ("reports",):
        if scale == "paper":
            return not (len(parts) > 2 and parts[1] in SCALES)
        return parts[1:2] == (scale,)
    return False


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


def _is_snakemake(argv: list[bytes]) -> bool:
    """Whether a command line runs Snakemake: ``snakemake ...``, ``python .../snakemake ...`` or
    ``python -m snakemake ...`` (not a command that merely names a file under ``.snakemake/``)."""
    head = argv[:3]
    if any(Path(os.fsdecode(a)).name == "snakemake" for a in head):
        return True
    return any(a == b"-m" and b == b"snakemake" for a, b in zip(head, argv[1:4], strict=False))


def _argv(pid: int) -> list[bytes] | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    argv = _argv(pid)
    if argv is not None:  # guard against a recycled pid: the owner was a snakemake process
        return _is_snakemake(argv)
    return True


def _ancestors() -> set[int]:
    """This process and its ancestors (``timeout 600 snakemake``, ``make reproduce``: not other runs)."""
    out, pid = set(), os.getpid()
    while pid > 1 and pid not in out:
        out.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return out


def other_runs_here(workdir: str | Path) -> list[int] | None:
    """The pids of the other live Snakemake processes on this host whose working directory is
    ``workdir`` (this process and its ancestors excluded); None where that cannot be told (no
    ``/proc``). A Snakemake process of another user whose directory cannot be read counts, to be
    safe."""
    proc = Path("/proc")
    if not (proc / "self").is_dir():
        return None
    target = Path(workdir).resolve()
    mine = _ancestors()
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        argv = _argv(int(entry.name))
        if not argv or not _is_snakemake(argv):
            continue
        try:
            here = Path(os.readlink(entry / "cwd")) == target
        except PermissionError:
            here = True
        except OSError:  # gone meanwhile
            continue
        if here:
            found.append(int(entry.name))
    return sorted(found)


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


def _quarantined(workdir: Path, scale: str | None) -> list[Path]:
    """Tables moved aside (``<name>.corrupt``) and not rebuilt since."""
    root = workdir / "results" / (scale or "")
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


def _consumer_outputs(workdir: Path, tables: list[Path], scale: str | None) -> list[Path]:
    """Existing outputs of ``scale`` computed, directly or through other outputs, from any of
    ``tables``. Snakemake does not rerun a job for a missing intermediate while everything
    downstream of it looks up to date, so all of them must go for the damaged table to be rebuilt."""
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
    return sorted(workdir / f for f in found if (workdir / f).exists() and in_scope(f, scale))


def _damaged_outputs(workdir: Path, scale: str | None) -> list[Path]:
    """Recorded outputs of ``scale`` whose current bytes differ from those their job wrote."""
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
        if not path.is_file() or not in_scope(entry["path"], scale):
            continue
        if hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            bad.append(path)
    return bad


def _missing_intermediates(workdir: Path, scale: str | None) -> list[Path]:
    """Outputs under ``results/<scale>/`` that a finished job wrote (Snakemake's metadata records
    them) and that are gone, while outputs computed from them still exist."""
    inputs = _metadata_inputs(workdir)
    consumed = {i for ins in inputs.values() for i in ins}
    return sorted(workdir / out for out in inputs
                  if out.startswith("results/") and in_scope(out, scale) and out in consumed and not (workdir / out).exists()
                  and not Path(f"{workdir / out}.corrupt").exists())


def prepare_workdir(workdir: str | Path = ".", dryrun: bool = False, scale: str | None = None) -> GuardReport:
    """Recover ``workdir`` from an interrupted or damaged run (module docstring); record this
    process as the owner of the run. Call it once, from Snakemake's main process only.
    ``scale``: the run's scale; damaged or missing outputs are looked for among its outputs only
    (:func:`in_scope`; every output when None)."""
    if scale is not None and scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
    workdir = Path(workdir)
    report = GuardReport()
    locks = sorted(p for p in (workdir / LOCK_DIR).glob("*") if p.is_file()) \
        if (workdir / LOCK_DIR).is_dir() else []
    others = other_runs_here(workdir)
    if others:  # another run is alive here: change nothing, Snakemake's lock check decides
        report.live_owner = True
        return report
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
    report.corrupt = find_corrupt_results(workdir / "results" / (scale or ""), verified)
    report.damaged = _damaged_outputs(workdir, scale)
    report.missing = _missing_intermediates(workdir, scale)
    report.invalidated = _consumer_outputs(
        workdir, report.corrupt + _quarantined(workdir, scale) + report.damaged + report.missing, scale)
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
