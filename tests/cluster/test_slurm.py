"""The workflow on a real SLURM cluster: a single-node cluster started on this host by
tests/cluster/start_slurm.sh (Debian's slurm-wlm and munge), a part of the smoke DAG that covers
every family of rules that runs as a cluster job (each paper's simulations, every check calling
convention, a Table 2 design reading the Adult download) and the local rules around them (the
download, check figures and tables, paper figures), run through
`--profile workflow/profiles/slurm`, and every output compared byte for byte with the local run.
The rules that need every check (claims, the checks tables, the report) are local rules: they
run on the submitting host exactly as in a local run."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
from workflow_runner import (
    SMOKE_REPORTS,
    SMOKE_RESULTS,
    copy_workflow,
    run_snakemake,
    start_slurm_command,
)

from dpbandits.io import read_results

pytestmark = [pytest.mark.workflow, pytest.mark.cluster]

R, RES = SMOKE_REPORTS, SMOKE_RESULTS
TARGETS = [  # one or more of every rule family that runs as a cluster job
    f"{RES}/sim/online/figures/setting1/lazy_dp_ts/eps0.5/block0.parquet",  # online_simulate
    f"{R}/figures/online/check_FT-1.png",  # full-information design, a tables check, its figure
    f"{R}/tables/online/rnm_privacy_loss.tex",  # an exact settings check and its table
    f"{RES}/claims/online/P-AUDIT-DPSE.parquet",  # a seeds check (audit with its control)
    f"{RES}/claims/online/BT-4.parquet",  # bandit designs
    f"{RES}/claims/dueling/A2.parquet",  # a sized check
    f"{RES}/claims/dueling/A3.parquet",  # an args check
    f"{R}/figures/dueling/check_B5.png",  # Algorithm 1 designs
    f"{R}/figures/dueling/check_C8.png",  # an Algorithm 2 design
    f"{RES}/sim/dueling/alg2/maxinp.parquet",
    f"{RES}/sim/dueling/baselines/rcs.parquet",
    f"{R}/figures/quantile/fig2.png",  # a quantile design and a paper figure
    f"{R}/figures/contextual/fig9a_kappa.png",  # a contextual job and a paper figure
    f"{RES}/sim/contextual/table_adult.parquet",  # the Adult download and a Table 2 design reading it
]


@pytest.fixture(scope="session")
def slurm_partition() -> str:
    """Start (or reuse) the test cluster; fails with the script's reason if it cannot start.
    Usually started early in the background (conftest.py): this waits for that start's lock."""
    proc = subprocess.run(start_slurm_command(), capture_output=True, text=True, timeout=1500)
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


def test_the_workflow_on_slurm_equals_the_local_run(repo, tmp_path, slurm_partition, request):
    work = copy_workflow(repo, tmp_path / "slurm")
    start = time.monotonic()
    proc = run_snakemake(work, *TARGETS, "--profile", "workflow/profiles/slurm", "--configfile",
                         "config/smoke.yaml", "--slurm-keep-successful-logs",
                         # the plugin first polls 40 s after a submission (then every 40-180 s):
                         # right for a busy cluster, but most of this run's wall time on an idle
                         # test node; the outputs compared do not depend on it
                         "--slurm-init-seconds-before-status-checks", "2", timeout=3600)
    wall = time.monotonic() - start
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    out = proc.stdout + proc.stderr
    assert "Job" in out and "submitted" in out.lower(), out[-2000:]  # jobs went to SLURM
    assert _slurm_job_logs(work), "no SLURM job logs: nothing ran on the cluster"
    # the local run to compare with, asked for only now: the shared smoke run is usually still
    # being built by the other test worker while the cluster run above goes on
    smoke_run = request.getfixturevalue("smoke_run")
    reports = sorted(p.relative_to(work) for p in (work / R).rglob("*") if p.is_file())
    assert len(reports) >= 10
    differ = [str(f) for f in reports if (work / f).read_bytes() != (smoke_run / f).read_bytes()]
    assert not differ, f"SLURM and local runs differ: {differ}"
    # seeded claims under results/smoke/seed7, exact ones (P-EXACT-RNM) under results/smoke/exact
    claims = sorted(p.relative_to(work) for p in (work / "results" / "smoke").rglob("claims/*/*.parquet"))
    assert len(claims) >= 8, claims
    for rel in claims:
        pd.testing.assert_frame_equal(read_results(work / rel), read_results(smoke_run / rel))
    print(f"SLURM run: {wall:.0f} s wall, {len(reports)} report files and {len(claims)} claim tables "
          "identical to the local run")
