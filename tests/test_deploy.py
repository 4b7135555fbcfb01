"""The workflow deploys as a Snakemake module with `snakedeploy deploy-workflow` (the Snakemake
workflow catalog's convention) and plans the smoke DAG from the deployment's folder, which holds
only the copied config and profiles: every file of the workflow (schema, entry points, report
templates, design files, the notebook) is found through the module, not the working directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from workflow_runner import copy_workflow, run_snakemake

SNAKEDEPLOY = str(Path(sys.executable).parent / "snakedeploy")


@pytest.mark.workflow
def test_a_snakedeploy_deployment_plans_the_smoke_dag(repo, tmp_path):
    source = copy_workflow(repo, tmp_path / "dpbandits-replication")
    dest = tmp_path / "deployment"
    proc = subprocess.run([SNAKEDEPLOY, "deploy-workflow", str(source), str(dest), "--name", "dpbandits",
                           "--branch", "main"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (dest / "config/config.yaml").is_file() and (dest / "config/smoke.yaml").is_file()
    snakefile = dest / "workflow/Snakefile"
    text = snakefile.read_text()
    assert "module dpbandits:" in text and "use rule * from dpbandits" in text
    # snakedeploy's local provider names the module's Snakefile relative to the repository it
    # copied ("Snakefile"), which from workflow/Snakefile would be the deployment itself; a
    # deployment from GitHub names it github("<owner>/<repo>", path="Snakefile", ...), which
    # Snakemake fetches. Point it at the source's Snakefile, as the fetch would.
    assert '"Snakefile"' in text
    snakefile.write_text(text.replace('"Snakefile"', f'"{source / "Snakefile"}"'))
    shutil.copytree(source / "examples", dest / "examples")  # the smoke config's own algorithms
    proc = run_snakemake(dest, "-n", "--cores", "2", "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    out = proc.stdout + proc.stderr
    for rule in ("online_simulate", "contextual_download_adult", "online_check_fig_c1", "report_captions",
                 "replication_report", "replication_report_pdf", "explore_notebook"):
        assert f"rule {rule}:" in out or f"localrule {rule}:" in out, rule
    assert not (dest / "results").exists() and not (dest / "reports").exists()  # a dry run writes nothing
