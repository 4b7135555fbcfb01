"""Run the workflow in a temporary copy (the workflow, reliability and cluster tests)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

APT_LOCK = "/tmp/dpbandits-apt.lock"  # shared with tests/cluster/start_slurm.sh
START_SLURM = Path(__file__).with_name("cluster") / "start_slurm.sh"
# held by every run of start_slurm.sh from the tests: the early start (conftest.py) and the
# cluster fixture's own start never overlap, and the fixture waits for an early start in progress
SLURM_START_LOCK = "/tmp/dpbandits-slurm-start.lock"


def start_slurm_command() -> list[str]:
    """start_slurm.sh under :data:`SLURM_START_LOCK` (one start at a time). ``flock -o``: the
    lock stays with flock itself, so the daemons the script starts do not inherit it (without
    -o, munged kept the lock and every later start waited for ever)."""
    return ["flock", "-o", SLURM_START_LOCK, "bash", str(START_SLURM)]


SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


SMOKE_REPORTS = "reports/smoke"  # where a smoke run writes its reports
SMOKE_RESULTS = "results/smoke/seed7"  # its seeded results (config/smoke.yaml: seed 7)


def copy_workflow(repo: Path, dest: Path, checkout: bool = False) -> Path:
    """A runnable copy of the workflow (Snakefile, workflow/, config/, examples/, and the ``profiles`` link
    through which Snakemake finds the default workflow profile) in ``dest``; with ``checkout``
    also the README and the committed paper-scale ``reports/``, as in a clone of the repository."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(repo / "Snakefile", dest / "Snakefile")
    os.symlink(os.readlink(repo / "profiles"), dest / "profiles")
    for sub in ("workflow", "config", "examples"):  # examples/: the smoke config's extra algorithms
        shutil.copytree(repo / sub, dest / sub, ignore=shutil.ignore_patterns("__pycache__"))
    if checkout:
        shutil.copy(repo / "README.md", dest / "README.md")
        shutil.copytree(repo / "reports", dest / "reports",
                        ignore=shutil.ignore_patterns("smoke", "report.html", "report.zip"))
    return dest


def copy_run(run: Path, dest: Path) -> Path:
    """A copy of a finished run (the shared smoke run is read-only: a test that runs Snakemake
    on it or changes it works on a copy); keeps mtimes, Snakemake's metadata and symlinks, so
    Snakemake finds the copy as up to date as the original."""
    return Path(shutil.copytree(run, dest, symlinks=True))


def snapshot(root: Path, sub: str) -> dict[str, bytes]:
    """Every file under ``root / sub`` (relative path -> bytes)."""
    base = root / sub
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()} \
        if base.exists() else {}


def run_snakemake(workdir: Path, *args: str, timeout: int = 3600, env: dict | None = None) -> subprocess.CompletedProcess:
    """Snakemake in ``workdir``; the generous timeout only guards against a hung run."""
    return subprocess.run([SNAKEMAKE, *args], cwd=workdir, capture_output=True, text=True,
                          timeout=timeout, env=env)


def ensure_apt_packages(probe: str, packages: list[str]) -> str:
    """The path of the executable ``probe``, installing Debian ``packages`` with apt-get first
    when it is missing (the test machine has only Python, pip and apt; installing needs root).
    Raises with apt's output when it cannot be installed."""
    found = shutil.which(probe)
    if found:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    wait = ["-o", "DPkg::Lock::Timeout=1200"]  # another apt run on the machine: wait, do not fail
    with open(APT_LOCK, "w") as lock:  # one apt at a time across the test workers
        fcntl.flock(lock, fcntl.LOCK_EX)
        for cmd in (["apt-get", *wait, "update", "-qq"],
                    ["apt-get", *wait, "install", "-y", "-qq", "--no-install-recommends", *packages]):
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
            if proc.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed (needs root and apt):\n{proc.stderr[-2000:]}")
    found = shutil.which(probe)
    if not found:
        raise RuntimeError(f"{probe} is still missing after installing {packages}")
    return found
