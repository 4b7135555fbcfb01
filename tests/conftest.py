"""Shared fixtures."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_runner import (
    copy_workflow,
    ensure_apt_packages,
    run_snakemake,
    snapshot,
    start_slurm_command,
)

REPO = Path(__file__).resolve().parents[1]
# The smoke config's extra algorithms are "examples.<module>:<Class>", importable from
# the repository root, as from a workflow's working directory.
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_collection_modifyitems(config, items) -> None:
    """Longest first, so that the two xdist workers finish together: the SLURM test, then the
    tests that run Snakemake (most on the shared smoke run, whose build therefore starts at
    once), then the unit tests, which fill the gaps at the end. Stable: within each class the
    collection order is kept."""
    def rank(item) -> int:
        if item.get_closest_marker("cluster"):
            return 0
        return 1 if item.get_closest_marker("workflow") or "smoke_run" in item.fixturenames else 2
    items.sort(key=rank)


def pytest_collection_finish(session) -> None:
    """Start the SLURM test cluster in the background as soon as a session (or xdist worker) has
    selected the cluster test: on a fresh machine its apt install takes minutes, which then
    overlap the smoke run instead of adding to the suite's longest chain. The cluster fixture
    runs the same start under the same lock, so it waits for this one and then reuses the
    cluster; if this start fails, the fixture's own start reports why."""
    if not any(item.get_closest_marker("cluster") for item in session.items) or not shutil.which("flock"):
        return
    with open("/tmp/dpbandits-slurm-start.log", "ab") as log:
        subprocess.Popen(start_slurm_command(), stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                         start_new_session=True)


@pytest.fixture(scope="session")
def smoke_run(repo, tmp_path_factory):
    """The whole smoke DAG with --cores 2, run once per test session and shared by every xdist
    worker (the first worker to ask builds it under a file lock, the others wait for it), in a
    copy of the checkout that holds the README and the committed paper-scale reports/, which a
    smoke run must leave untouched. Read-only: a test that runs Snakemake on it or changes it
    works on its own copy (workflow_runner.copy_run)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # xdist: the workers' base temps share one parent
        root = root.parent
    work, failed = root / "smoke_run", root / "smoke_run.failed"
    with open(root / "smoke_run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if failed.exists():  # another worker's build failed: report its reason, do not rebuild
            pytest.fail(failed.read_text(), pytrace=False)
        if not (root / "smoke_run.done").exists():
            try:
                _build_smoke_run(repo, work)
            except AssertionError as err:
                failed.write_text(f"the shared smoke run failed: {err}")
                raise
            (root / "smoke_run.done").touch()
    return work


def _build_smoke_run(repo: Path, work: Path) -> None:
    if work.exists():  # a build interrupted in this session's directory: start afresh
        shutil.rmtree(work)
    from dpbandits.workflow.pdf_report import TEX_PACKAGES

    ensure_apt_packages("pdflatex", list(TEX_PACKAGES))  # the replication PDFs (make test: `make tex`)
    copy_workflow(repo, work, checkout=True)
    committed = {**snapshot(work, "reports"), "README.md": (work / "README.md").read_bytes()}
    proc = run_snakemake(work, "--cores", "2", "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = {k: v for k, v in snapshot(work, "reports").items() if not k.startswith("reports/smoke/")}
    after["README.md"] = (work / "README.md").read_bytes()
    assert after == committed, "a smoke run changed the committed reports/ or the README"
