"""Shared fixtures."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_runner import copy_workflow, run_snakemake, snapshot, start_slurm_command

REPO = Path(__file__).resolve().parents[1]
# The smoke config's extra algorithms are "examples.<module>:<Class>" (issue 20), importable from
# the repository root, as from a workflow's working directory.
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


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
    """The whole smoke DAG, run once per test session (and xdist worker: the tests that use it
    share the xdist group "workflow") with --cores 2, in a copy of the checkout that holds the
    README and the committed paper-scale reports/, which a smoke run must leave untouched."""
    work = copy_workflow(repo, tmp_path_factory.mktemp("smoke"), checkout=True)
    committed = {**snapshot(work, "reports"), "README.md": (work / "README.md").read_bytes()}
    proc = run_snakemake(work, "--cores", "2", "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, proc.stderr[-3000:]
    after = {k: v for k, v in snapshot(work, "reports").items() if not k.startswith("reports/smoke/")}
    after["README.md"] = (work / "README.md").read_bytes()
    assert after == committed, "a smoke run changed the committed reports/ or the README"
    return work
