"""Shared fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from workflow_runner import copy_workflow, run_snakemake, snapshot

REPO = Path(__file__).resolve().parents[1]
# The smoke config's extra algorithms are "examples.<module>:<Class>" (issue 20), importable from
# the repository root, as from a workflow's working directory.
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


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
