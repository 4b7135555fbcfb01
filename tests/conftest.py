"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
from workflow_runner import copy_workflow, run_snakemake

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def smoke_runs(repo, tmp_path_factory):
    """The whole smoke DAG run locally with --cores 2 and with --cores 1 (each once per test
    session and worker: the tests that use it share the xdist group "workflow")."""
    runs = {}
    for cores in ("2", "1"):
        work = copy_workflow(repo, tmp_path_factory.mktemp(f"smoke_cores{cores}"))
        proc = run_snakemake(work, "--cores", cores, "--configfile", "config/smoke.yaml")
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs[cores] = work
    return runs
