"""Intermediate tables whose damage is detected, and the recovery a new run applies before
scheduling (stale locks, orphaned temporaries, corrupt tables): dpbandits.io and
dpbandits.workflow.guard."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from dpbandits.io import (
    CorruptResultError,
    atomic_path,
    checksum_path,
    find_corrupt_results,
    read_results,
    read_results_or_quarantine,
    write_results,
)
from dpbandits.workflow.guard import (
    OWNER_FILE,
    VERIFIED_FILE,
    in_scope,
    other_runs_here,
    prepare_workdir,
)


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_an_atomic_write_gets_the_mode_of_a_plain_write(tmp_path, umask):
    """The temporary file is created 0600; the file moved into place reads as a plain open()
    would have made it, so a collaborator can read the outputs (and not under a strict umask)."""
    old = os.umask(umask)
    try:
        with atomic_path(tmp_path / "report.md") as tmp:
            tmp.write_text("table")
        write_results(_table(10), tmp_path / "t.parquet")
        (tmp_path / "plain.md").write_text("table")
    finally:
        os.umask(old)
    expected = 0o666 & ~umask
    assert (tmp_path / "plain.md").stat().st_mode & 0o777 == expected
    for name in ("report.md", "t.parquet"):
        assert (tmp_path / name).stat().st_mode & 0o777 == expected, name


def _table(n=20_000):
    rng = np.random.default_rng(0)
    return pd.DataFrame({"run": np.arange(n), "regret": rng.random(n), "arm": rng.integers(0, 5, n)})


def _flip_byte(path, where=0.5):
    data = bytearray(path.read_bytes())
    data[int(len(data) * where)] ^= 0xFF
    path.write_bytes(bytes(data))


def test_results_round_trip_with_metadata(tmp_path):
    path = tmp_path / "t.parquet"
    write_results(_table(), path, {"dpbandits.grid": "[1, 2]"})
    frame, meta = read_results(path, with_metadata=True)
    pd.testing.assert_frame_equal(frame, _table())
    assert meta == {"dpbandits.grid": "[1, 2]"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet", "t.parquet.sha256"]  # no temporary


# Without its sidecar the page checksums would still catch damage to the data, but not a flipped
# byte inside a metadata string of the footer: a table whose sidecar is gone cannot be verified,
# and is rejected as corrupt whatever else happened to it.
DAMAGES = [(d, True) for d in ("flip_middle", "flip_start", "flip_footer", "truncate", "empty", "text")]
DAMAGES += [(d, False) for d in ("none", "flip_middle", "flip_start", "flip_footer", "truncate", "empty", "text")]


@pytest.mark.parametrize("damage, sidecar", DAMAGES)
def test_damaged_tables_are_detected(tmp_path, damage, sidecar):
    path = tmp_path / "t.parquet"
    write_results(_table(), path, {"dpbandits.note": "x" * 2000})
    if not sidecar:
        checksum_path(path).unlink()
    if damage == "flip_middle":
        _flip_byte(path, 0.5)
    elif damage == "flip_start":
        _flip_byte(path, 0.05)
    elif damage == "flip_footer":  # inside the key-value metadata, which no page checksum covers
        data = path.read_bytes()
        _flip_byte(path, (data.index(b"x" * 100) + 50) / len(data))
    elif damage == "truncate":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "text":
        path.write_text("run,regret\n1,0.5\n")
    with pytest.raises(CorruptResultError, match="t.parquet" if sidecar else "t.parquet.sha256 is missing"):
        read_results(path)
    assert find_corrupt_results(tmp_path) == [path]


def test_a_verified_table_whose_sidecar_is_deleted_is_found_by_the_next_scan(tmp_path):
    path = tmp_path / "t.parquet"
    write_results(_table(), path)
    verified = {}
    assert find_corrupt_results(tmp_path, verified) == [] and str(path) in verified
    checksum_path(path).unlink()  # size and time of the table unchanged
    assert find_corrupt_results(tmp_path, verified) == [path]


def test_the_checksum_sidecar_is_written_with_the_table(tmp_path):
    path = tmp_path / "t.parquet"
    write_results(_table(), path)
    assert checksum_path(path).read_text().strip() == hashlib.sha256(path.read_bytes()).hexdigest()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet", "t.parquet.sha256"]


def test_a_job_reading_a_corrupt_table_fails_and_moves_it_aside(tmp_path):
    path = tmp_path / "t.parquet"
    write_results(_table(), path)
    _flip_byte(path)
    with pytest.raises(CorruptResultError, match="re-run the workflow"):
        read_results_or_quarantine(path)
    assert not path.exists() and (tmp_path / "t.parquet.corrupt").exists()
    assert not checksum_path(path).exists()


def test_the_scan_skips_verified_unchanged_tables_and_temporaries(tmp_path):
    good, bad = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write_results(_table(), good)
    write_results(_table(), bad)
    (tmp_path / ".c.parquet.x1y2.parquet").write_bytes(b"half a write")  # an unfinished write
    verified = {}
    assert find_corrupt_results(tmp_path, verified) == []
    assert set(verified) == {str(good), str(bad)}
    _flip_byte(bad)  # a rewrite changes size or time, so the file is read again
    assert find_corrupt_results(tmp_path, verified) == [bad]


def _workdir(tmp_path):
    (tmp_path / "results" / "sim").mkdir(parents=True)
    (tmp_path / "reports").mkdir()
    (tmp_path / ".snakemake" / "locks").mkdir(parents=True)
    return tmp_path


def _lock(work):
    path = work / ".snakemake" / "locks" / "0.input.lock"
    path.write_text("results/sim/a.parquet\n")
    return path


def _own(work, pid, host=None):
    (work / OWNER_FILE).write_text(json.dumps({"host": host or socket.gethostname(), "pid": pid}))


def _wait_for_exec(pid, word, timeout=10.0):
    """Until the child has exec'd (its /proc cmdline is its own, not the forking parent's)."""
    cmdline = f"/proc/{pid}/cmdline"
    deadline = time.monotonic() + timeout
    while os.path.exists(cmdline) and time.monotonic() < deadline:
        with open(cmdline, "rb") as fh:
            if word in fh.read():
                return
        time.sleep(0.01)


def _fake_snakemake(cwd, argv0=None):
    """A live process whose command line is that of a Snakemake run (``python .../snakemake``),
    working in ``cwd``."""
    cwd.mkdir(parents=True, exist_ok=True)
    script = cwd.parent / "bin" / "snakemake"
    script.parent.mkdir(exist_ok=True)
    script.write_text("import time\ntime.sleep(30)\n")
    proc = subprocess.Popen([sys.executable, str(script)], cwd=cwd)
    _wait_for_exec(proc.pid, b"bin/snakemake")
    return proc


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_run_is_recovered(tmp_path):
    work = _workdir(tmp_path)
    lock = _lock(work)
    _own(work, _dead_pid())
    good, bad = work / "results" / "sim" / "a.parquet", work / "results" / "sim" / "b.parquet"
    write_results(_table(), good)
    write_results(_table(), bad)
    bad.write_bytes(bad.read_bytes()[:100])
    orphan = work / "results" / "sim" / ".c.parquet.abc123.parquet"
    orphan.write_bytes(b"partial")
    with atomic_path(work / "reports" / "fig.png") as tmp:  # a finished write is kept
        tmp.write_bytes(b"png")

    dry = prepare_workdir(work, dryrun=True)
    assert dry.stale_locks == [lock] and dry.orphaned_temporaries == [orphan] and dry.corrupt == [bad]
    assert lock.exists() and orphan.exists() and bad.exists() and not dry.changed

    report = prepare_workdir(work)
    assert report.changed and not lock.exists() and not orphan.exists()
    assert not bad.exists() and (work / "results" / "sim" / "b.parquet.corrupt").exists()
    assert good.exists() and (work / "reports" / "fig.png").read_bytes() == b"png"
    assert json.loads((work / OWNER_FILE).read_text())["pid"] == os.getpid()
    assert str(good) in json.loads((work / VERIFIED_FILE).read_text())
    assert any("corrupt intermediate table" in m for m in report.messages())


@pytest.mark.parametrize("owner", ["live", "other_host", "unknown"])
def test_locks_of_a_live_or_unknown_owner_are_left_alone(tmp_path, owner):
    work = _workdir(tmp_path)
    lock = _lock(work)
    bad = work / "results" / "sim" / "b.parquet"
    bad.write_bytes(b"not parquet")
    if owner == "live":  # a live snakemake process on this host owns the run
        proc = _fake_snakemake(tmp_path / "elsewhere")
        try:
            _own(work, proc.pid)
            report = prepare_workdir(work)
        finally:
            proc.kill()
            proc.wait()
        assert report.live_owner
    else:
        if owner == "other_host":
            _own(work, 1, host="some-other-node")
        report = prepare_workdir(work)
    assert lock.exists() and bad.exists() and not report.changed


def test_a_recycled_pid_that_is_not_snakemake_is_not_an_owner(tmp_path):
    if not os.path.exists(f"/proc/{os.getpid()}/cmdline"):
        pytest.skip("needs /proc to tell a recycled pid")
    work = _workdir(tmp_path)
    lock = _lock(work)
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        _wait_for_exec(proc.pid, b"time.sleep")
        _own(work, proc.pid)
        report = prepare_workdir(work)
    finally:
        proc.kill()
        proc.wait()
    assert report.changed and not lock.exists()


def _metadata(work, output, inputs):
    """A Snakemake metadata record (file persistence): named by the url-safe base64 of the output."""
    name = base64.urlsafe_b64encode(output.encode()).decode()
    (work / ".snakemake" / "metadata").mkdir(parents=True, exist_ok=True)
    (work / ".snakemake" / "metadata" / name).write_text(json.dumps({"rule": "r", "input": inputs}))


def test_outputs_computed_from_a_damaged_table_are_removed_so_that_both_are_rebuilt(tmp_path):
    work = _workdir(tmp_path)
    block, other = work / "results/sim/block0.parquet", work / "results/sim/block1.parquet"
    write_results(_table(), block)
    write_results(_table(), other)
    (work / "results/agg").mkdir()
    agg, untouched = work / "results/agg/all.parquet", work / "results/agg/other.parquet"
    write_results(_table(), agg)
    write_results(_table(), untouched)
    figure = work / "reports/fig.png"  # computed from agg, so indirectly from block0
    figure.write_bytes(b"png")
    captions = work / "results/captions"  # a directory() output computed from the figure
    captions.mkdir()
    (captions / "a.rst").write_text("x")
    _metadata(work, "results/agg/all.parquet", ["results/sim/block0.parquet", "results/sim/block1.parquet"])
    _metadata(work, "results/agg/other.parquet", ["results/sim/block1.parquet"])
    _metadata(work, "reports/fig.png", ["results/agg/all.parquet"])
    _metadata(work, "results/captions", ["reports/fig.png"])
    block.write_bytes(block.read_bytes()[:-50])
    dry = prepare_workdir(work, dryrun=True)
    assert dry.corrupt == [block] and dry.invalidated == sorted([agg, figure, captions]) and agg.exists()
    report = prepare_workdir(work)
    assert not block.exists() and not agg.exists() and not checksum_path(agg).exists()
    assert not figure.exists() and not captions.exists() and other.exists() and untouched.exists()
    assert any("computed from damaged tables" in m for m in report.messages())
    # a table a job moved aside (read_results_or_quarantine) invalidates its consumers the same way
    write_results(_table(), agg)
    other.write_bytes(b"damaged")
    with pytest.raises(CorruptResultError):
        read_results_or_quarantine(other)
    figure.write_bytes(b"png")
    captions.mkdir()
    report = prepare_workdir(work)
    assert report.invalidated == sorted([agg, untouched, figure, captions]) and not untouched.exists()


def test_a_checksum_sidecar_without_its_table_is_removed(tmp_path):
    work = _workdir(tmp_path)
    path = work / "results/sim/a.parquet"
    write_results(_table(), path)
    path.unlink()  # killed between the sidecar's rename and the table's
    report = prepare_workdir(work)
    assert report.orphaned_sidecars == [checksum_path(path)] and not checksum_path(path).exists()
    assert "checksum file(s) whose table is gone" in " ".join(report.messages())


def test_a_run_alive_in_the_directory_keeps_its_locks_whatever_the_owner_record_says(tmp_path):
    # A run sets up; `snakemake --list-rules` started meanwhile records itself as the owner and
    # exits; a second run must still see the first one alive and leave its locks alone.
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc")
    work = _workdir(tmp_path / "work")
    lock = _lock(work)
    _own(work, _dead_pid())  # the --list-rules process, gone
    bad = work / "results" / "sim" / "b.parquet"
    bad.write_bytes(b"not parquet")
    proc = _fake_snakemake(work)
    try:
        assert other_runs_here(work) == [proc.pid]
        report = prepare_workdir(work)
    finally:
        proc.kill()
        proc.wait()
    assert report.live_owner and not report.changed and lock.exists() and bad.exists()
    assert other_runs_here(work) == []
    assert prepare_workdir(work).stale_locks == [lock] and not lock.exists()  # now they are stale


def test_a_process_that_only_names_a_snakemake_file_is_not_a_run(tmp_path):
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc")
    work = _workdir(tmp_path)
    (work / ".snakemake" / "log").mkdir()
    log = work / ".snakemake" / "log" / "run.snakemake.log"
    log.write_text("")
    proc = subprocess.Popen(["tail", "-f", str(log)], cwd=work, stdout=subprocess.DEVNULL)
    try:
        _wait_for_exec(proc.pid, b"tail")
        assert other_runs_here(work) == []
    finally:
        proc.kill()
        proc.wait()


def test_a_run_removes_only_outputs_of_its_own_scale(tmp_path):
    # After a paper-scale run, `rm -rf results/paper` then a smoke run: the paper-scale reports
    # computed from the deleted tables are not the smoke run's to remove (it would not rebuild
    # them); the next paper-scale run removes and rebuilds them.
    work = _workdir(tmp_path)
    table = "results/paper/seed1/agg/online/runs.parquet"
    report_csv, smoke_csv = work / "reports/tables/online/x.csv", work / "reports/smoke/tables/x.csv"
    for path in (report_csv, smoke_csv):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a\n")
    write_results(_table(), work / "results/smoke/seed1/agg/online/runs.parquet")
    _metadata(work, table, [])
    _metadata(work, "reports/tables/online/x.csv", [table])
    _metadata(work, "results/smoke/seed1/agg/online/runs.parquet", [])
    _metadata(work, "reports/smoke/tables/x.csv", ["results/smoke/seed1/agg/online/runs.parquet"])
    smoke = prepare_workdir(work, scale="smoke")
    assert smoke.missing == [] and smoke.invalidated == [] and report_csv.exists() and smoke_csv.exists()
    paper = prepare_workdir(work, dryrun=True, scale="paper")
    assert paper.missing == [work / table] and paper.invalidated == [report_csv]
    # a damaged deliverable of the other scale is left alone too
    smoke_csv.write_text("b\n")
    record = {"path": "reports/smoke/tables/x.csv", "sha256": hashlib.sha256(b"a\n").hexdigest()}
    (work / ".snakemake/dpbandits/outputs").mkdir(parents=True)
    (work / ".snakemake/dpbandits/outputs/r.json").write_text(json.dumps(record))
    assert prepare_workdir(work, dryrun=True, scale="paper").damaged == []
    assert prepare_workdir(work, dryrun=True, scale="smoke").damaged == [smoke_csv]
    with pytest.raises(ValueError, match="scale must be one of"):
        prepare_workdir(work, scale="huge")


@pytest.mark.parametrize(("path", "paper", "smoke"), [
    ("results/paper/seed1/a.parquet", True, False),
    ("results/smoke/seed1/a.parquet", False, True),
    ("reports/tables/online/x.csv", True, False),
    ("reports/claims.csv", True, False),
    ("reports/smoke/claims.csv", False, True),
    ("README.md", False, False),
])
def test_the_scope_of_a_scale(path, paper, smoke):
    assert (in_scope(path, "paper"), in_scope(path, "smoke"), in_scope(path, None)) == (paper, smoke, True)
