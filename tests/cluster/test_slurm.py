"""The workflow on a real SLURM cluster (issue 7): a single-node cluster started on this host by
tests/cluster/start_slurm.sh (Debian's slurm-wlm and munge), the smoke config run through
`--profile workflow/profiles/slurm`, and every report compared byte for byte with a local run."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from workflow_runner import copy_workflow, run_snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.cluster, pytest.mark.xdist_group("workflow")]

START = Path(__file__).with_name("start_slurm.sh")


@pytest.fixture(scope="session")
def slurm_partition() -> str:
    """Start (or reuse) the test cluster; fails with the script's reason if it cannot start."""
    proc = subprocess.run(["bash", str(START)], capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, f"the test SLURM cluster did not start:\n{proc.stderr[-3000:]}"
    partition = proc.stdout.strip().splitlines()[-1]
    sinfo = subprocess.run(["sinfo", "-h", "-p", partition, "-o", "%T"], capture_output=True,
                           text=True, check=True)
    assert sinfo.stdout.split()[0] in ("idle", "mixed", "allocated"), sinfo.stdout
    return partition


def _slurm_job_logs(work: Path) -> set[str]:
    """SLURM job ids of this run, from the executor plugin's per-job logs."""
    logs = work / ".snakemake" / "slurm_logs"
    return {p.stem for p in logs.rglob("*.log")} if logs.exists() else set()


def test_the_smoke_workflow_on_slurm_equals_the_local_run(repo, tmp_path, slurm_partition, smoke_runs):
    work = copy_workflow(repo, tmp_path / "slurm")
    start = time.monotonic()
    proc = run_snakemake(work, "--profile", "workflow/profiles/slurm", "--configfile",
                         "config/smoke.yaml", "--slurm-keep-successful-logs", timeout=3600)
    wall = time.monotonic() - start
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    out = proc.stdout + proc.stderr
    assert "Job" in out and "submitted" in out.lower(), out[-2000:]  # jobs went to SLURM
    assert _slurm_job_logs(work), "no SLURM job logs: nothing ran on the cluster"
    local = smoke_runs["2"]
    files = sorted(p.relative_to(local) for p in (local / "reports").rglob("*") if p.is_file())
    assert files
    differ = [str(f) for f in files if (work / f).read_bytes() != (local / f).read_bytes()]
    assert not differ, f"SLURM and local runs differ: {differ}"
    extra = sorted(str(p.relative_to(work)) for p in (work / "reports").rglob("*")
                   if p.is_file() and not (local / p.relative_to(work)).exists())
    assert not extra, extra
    print(f"SLURM smoke run: {wall:.0f} s wall, {len(files)} report files identical to local")
