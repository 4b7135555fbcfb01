"""Reliability guarantees of the workflow, end to end through Snakemake:

* config fuzzing: malformed configs of every class are rejected before any job, with a message
  naming the key, a non-zero exit code, and nothing written under results/ or reports/;
* kill and resume: a run killed mid-simulation (SIGTERM, or SIGKILL, which leaves Snakemake's
  locks behind) completes when the same command is run again, redoes only unfinished jobs, and
  leaves no truncated or stale output;
* a corrupted intermediate Parquet table is detected (never aggregated) and rebuilt.
"""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml
from workflow_runner import (
    SMOKE_REPORTS,
    SMOKE_RESULTS,
    SNAKEMAKE,
    copy_run,
    copy_workflow,
    run_snakemake,
)

from dpbandits.io import checksum_path, read_results

SMOKE = ["--cores", "2", "--configfile", "config/smoke.yaml"]  # targets go before it (nargs)
R, RES = SMOKE_REPORTS, SMOKE_RESULTS
ONLINE_TARGETS = [f"{R}/tables/online/final_regret.csv", f"{R}/figures/online/fig1.png"]


# ---------------------------------------------------------------------------------------------
# Config fuzzing


def _smoke_config(repo: Path) -> dict:
    return yaml.safe_load((repo / "config/smoke.yaml").read_text())


def _set(cfg: dict, path: str, value) -> dict:
    keys = path.split(".")
    node = cfg
    for k in keys[:-1]:
        node = node[k]
    node[keys[-1]] = value
    return cfg


def _delete(cfg: dict, path: str) -> dict:
    keys = path.split(".")
    node = cfg
    for k in keys[:-1]:
        node = node[k]
    del node[keys[-1]]
    return cfg


# (case id, mutation of the smoke config or raw file text, text the error message must contain).
# Files that are not a YAML mapping (empty, a list, a syntax error) are rejected by Snakemake
# itself when it loads them, before the workflow is parsed; its message names the problem but no
# key (there is none). Every other case is rejected by the schema validation in common.smk.
WRONG_TYPE = [
    ("type-seed-string", ("set", "seed", "abc"), "seed"),
    ("type-seed-float", ("set", "seed", 1.5), "seed"),
    ("type-scale-number", ("set", "scale", 3), "scale"),
    ("type-runs-string", ("set", "online.figures.runs", "10"), "online.figures.runs"),
    ("type-epsilons-scalar", ("set", "online.figures.epsilons", 0.5), "online.figures.epsilons"),
    ("type-section-list", ("set", "online", [1, 2]), "online"),
    ("type-dims-string", ("set", "dueling.alg2.dims", "2,3"), "dueling.alg2.dims"),
    ("type-confidence-string", ("set", "dueling.audit.confidence", "high"), "dueling.audit.confidence"),
    ("type-runs-list", ("set", "dueling.alg1.runs", [4]), "dueling.alg1.runs"),
]
OUT_OF_RANGE = [
    ("range-seed-negative", ("set", "seed", -1), "seed"),
    ("range-scale-enum", ("set", "scale", "huge"), "scale"),
    ("range-runs-zero", ("set", "online.figures.runs", 0), "online.figures.runs"),
    ("range-horizon-enum", ("set", "online.bandit.horizon", 5000), "online.bandit.horizon"),
    ("range-epsilon-zero", ("set", "online.figures.epsilons", [0.0, 1.0]), "online.figures.epsilons[0]"),
    ("range-mean-above-one", ("set", "online.figures.settings.setting2.means", [0.5, 1.5]),
     "online.figures.settings.setting2.means[1]"),
    ("range-horizon-exponent", ("set", "dueling.alg2.max_horizon_exponent", 20),
     "dueling.alg2.max_horizon_exponent"),
    ("range-confidence-above-one", ("set", "dueling.audit.confidence", 1.5), "dueling.audit.confidence"),
    ("range-bootstrap-small", ("set", "dueling.checks.bootstrap", 10), "dueling.checks.bootstrap"),
    ("range-dims-without-3", ("set", "dueling.alg2.dims", [2, 4]), "dueling.alg2.dims"),
]
MISSING = [
    ("missing-seed", ("delete", "seed"), "'seed'"),
    ("missing-scale", ("delete", "scale"), "'scale'"),
    ("missing-online-section", ("delete", "online"), "'online'"),
    ("missing-dueling-horizon", ("delete", "dueling.alg1.horizon"), "'horizon' under 'dueling.alg1'"),
    ("missing-figure-runs", ("delete", "online.figures.runs"), "'runs' under 'online.figures'"),
    ("missing-dueling-checks", ("delete", "dueling.checks"), "'checks' under 'dueling'"),
]
UNKNOWN = [
    ("unknown-top-level", ("set", "seeds", 1), "'seeds'"),
    ("unknown-in-figures", ("set", "online.figures.bogus", 1), "'bogus' under 'online.figures'"),
    ("unknown-typo", ("set", "dueling.alg1.run", 4), "'run' under 'dueling.alg1'"),
    ("unknown-in-audit", ("set", "dueling.audit.extra", 1), "'extra' under 'dueling.audit'"),
]
RAW = [
    ("empty-file", ("raw", ""), "Config file"),
    ("comment-only-file", ("raw", "# nothing here\n"), "Config file"),
    ("empty-mapping", ("raw", "{}\n"), "empty"),
    ("top-level-list", ("raw", "- seed\n- scale\n"), "Config file"),
    ("yaml-unclosed-bracket", ("raw", "seed: [1, 2\nscale: smoke\n"), "not valid JSON or YAML"),
    ("yaml-bad-indentation", ("raw", "seed: 1\n  scale: smoke\n"), "not valid JSON or YAML"),
    ("yaml-tab-indent", ("raw", "online:\n\tfigures: 1\n"), "not valid JSON or YAML"),
]
FUZZ = WRONG_TYPE + OUT_OF_RANGE + MISSING + UNKNOWN + RAW


def test_the_fuzz_covers_at_least_30_configs_of_every_class():
    assert len(FUZZ) >= 30
    assert all(len(group) >= 4 for group in (WRONG_TYPE, OUT_OF_RANGE, MISSING, UNKNOWN, RAW))
    assert len({case for case, _, _ in FUZZ}) == len(FUZZ)


@pytest.mark.parametrize("case, mutation, named", [f for f in FUZZ if f[1][0] != "raw"],
                         ids=[c for c, m, _ in FUZZ if m[0] != "raw"])
def test_a_malformed_config_is_rejected_by_the_workflow_validation(repo, tmp_path, case, mutation, named):
    """Every non-raw case in process, through the function common.smk calls before any job, on
    the config Snakemake would build (the file merged over config/config.yaml)."""
    from snakemake.utils import update_config

    from dpbandits.workflow.config import ConfigError, validate_workflow_config

    cfg = _smoke_config(repo)
    cfg = _set(cfg, mutation[1], mutation[2]) if mutation[0] == "set" else _delete(cfg, mutation[1])
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(cfg))
    merged = yaml.safe_load((repo / "config/config.yaml").read_text())
    update_config(merged, cfg)
    with pytest.raises(ConfigError) as info:
        validate_workflow_config(merged, [repo / "config/config.yaml", bad], [bad])
    assert named in str(info.value), str(info.value)[-2000:]


# End to end through Snakemake: the raw files (Snakemake's own loader rejects them) and one case
# of each other class; nothing may be written.
E2E = [f for f in FUZZ if f[0] in ("type-seed-float", "range-epsilon-zero", "missing-dueling-horizon",
                                   "unknown-typo", "empty-file", "top-level-list", "yaml-tab-indent")]


@pytest.mark.workflow
@pytest.mark.xdist_group("fuzz")
@pytest.mark.parametrize("case, mutation, named", E2E, ids=[c for c, _, _ in E2E])
def test_a_malformed_config_is_rejected_before_any_job(repo, tmp_path, case, mutation, named):
    work = copy_workflow(repo, tmp_path / "fuzz")
    kind = mutation[0]
    if kind == "raw":
        text = mutation[1]
    else:
        cfg = _smoke_config(repo)
        cfg = _set(cfg, mutation[1], mutation[2]) if kind == "set" else _delete(cfg, mutation[1])
        text = yaml.safe_dump(cfg)
    (work / "bad.yaml").write_text(text)
    proc = run_snakemake(work, "--cores", "1", "--configfile", "bad.yaml", timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-2000:]
    assert named in out, out[-2000:]
    assert "Traceback" not in out or "ConfigError" in out or "WorkflowError" in out
    assert not (work / "results").exists() and not (work / "reports").exists()
    assert not (work / "logs").exists()


# ---------------------------------------------------------------------------------------------
# Kill and resume


def _incomplete_outputs(work: Path) -> set[str]:
    """Outputs of jobs Snakemake had started but not finished: its .snakemake/incomplete markers,
    whose relative path is the url-safe base64 of the output path, split into "@"-prefixed
    directory components when long."""
    root = work / ".snakemake" / "incomplete"
    found = set()
    for marker in root.rglob("*"):
        if marker.is_file():
            b64 = "".join(part.lstrip("@") for part in marker.relative_to(root).parts)
            try:
                found.add(base64.urlsafe_b64decode(b64).decode())
            except ValueError:
                continue
    return found


def _finished_files(work: Path) -> dict[str, int]:
    """Every finished (non-temporary) output file under results/ and reports/ -> mtime_ns
    (checksum sidecars are not Snakemake outputs; read_results verifies them below)."""
    out = {}
    for top in ("results", "reports"):
        for path in (work / top).rglob("*"):
            if path.is_file() and not path.name.startswith(".") and not path.name.endswith(".sha256"):
                out[str(path.relative_to(work))] = path.stat().st_mtime_ns
    return out


def _signals_as_in_a_terminal() -> None:
    """In the run's process: SIGINT handled as in a terminal's foreground job (Python's
    KeyboardInterrupt). A shell starts a background job (``make test &`` in a script) with SIGINT
    ignored, and a child inherits that; the run would then go on past a Ctrl-C that a terminal
    user could never have sent it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.workflow
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_a_killed_run_resumes_and_redoes_only_unfinished_jobs(repo, tmp_path, request, how):
    work = copy_workflow(repo, tmp_path / "kill")
    cmd = [SNAKEMAKE, *ONLINE_TARGETS, *SMOKE]
    proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_signals_as_in_a_terminal)
    sim = work / RES / "sim" / "online"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # mid-simulation: some blocks done, more to come
        done = [p for p in sim.rglob("*.parquet") if not p.name.startswith(".")] if sim.exists() else []
        if len(done) >= 3:
            break
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.05)
    else:
        pytest.fail("no simulation block was written within 300 s")
    os.killpg(proc.pid, getattr(signal, how))
    if how != "SIGKILL":  # a graceful stop (a terminal's Ctrl-C, a scheduler's TERM) ends the run by itself
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
            pytest.fail(f"the run did not end within 60 s of {how} (dpbandits.workflow.signals)")
    proc.wait(timeout=60)
    time.sleep(0.5)  # let the killed job processes of the group disappear
    assert not (work / f"{R}/tables/online/final_regret.csv").exists(), "killed too late"
    unfinished = _incomplete_outputs(work)
    before = {k: v for k, v in _finished_files(work).items() if k not in unfinished}
    assert before, "no finished job before the kill"

    again = run_snakemake(work, *ONLINE_TARGETS, *SMOKE)
    assert again.returncode == 0, again.stderr[-3000:]
    after = _finished_files(work)
    redone = [k for k, t in before.items() if after.get(k) != t]
    assert not redone, f"finished outputs were redone or lost: {redone[:5]}"
    # nothing truncated, no temporary left, and the outputs are those of an uninterrupted run
    leftovers = [p for top in ("results", "reports") for p in (work / top).rglob(".*") if p.is_file()]
    assert not leftovers, leftovers
    for path in (work / "results").rglob("*.parquet"):
        read_results(path)
    reference = request.getfixturevalue("smoke_run")  # asked for last: it may still be building
    for rel in (*ONLINE_TARGETS, f"{RES}/agg/online/figures_runs.parquet"):
        if rel.endswith(".parquet"):
            pd.testing.assert_frame_equal(read_results(work / rel), read_results(reference / rel))
        else:
            assert (work / rel).read_bytes() == (reference / rel).read_bytes(), rel
    assert "Nothing to be done" in run_snakemake(work, *ONLINE_TARGETS, "-n", *SMOKE).stdout


# ---------------------------------------------------------------------------------------------
# Corrupted intermediate tables


def _flip_middle_byte(path: Path, keep_time: bool) -> None:
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    if keep_time:  # a damage that neither size nor time shows (bit rot)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.workflow
@pytest.mark.parametrize("damage", ["flipped byte", "deleted checksum file"])
def test_a_corrupted_table_is_rebuilt_on_the_next_run(tmp_path, smoke_run, damage):
    work = copy_run(smoke_run, tmp_path / "corrupt")
    block = sorted((work / RES / "sim/online/figures").rglob("block*.parquet"))[0]
    if damage == "flipped byte":
        _flip_middle_byte(block, keep_time=False)
    else:  # a table that cannot be verified any more is rebuilt, its sidecar with it
        checksum_path(block).unlink()
    proc = run_snakemake(work, *SMOKE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "corrupt intermediate table" in proc.stderr and block.name in proc.stderr
    read_results(block)  # rebuilt intact
    for rel in (f"{R}/claims.csv", f"{R}/tables/online/final_regret.csv"):
        assert (work / rel).read_bytes() == (smoke_run / rel).read_bytes(), rel


@pytest.mark.workflow
def test_a_silently_corrupted_table_is_never_aggregated(tmp_path, smoke_run):
    work = copy_run(smoke_run, tmp_path / "bitrot")
    assert run_snakemake(work, *SMOKE).returncode == 0  # nothing to do; every table now verified
    block = sorted((work / RES / "sim/online/figures").rglob("block*.parquet"))[0]
    _flip_middle_byte(block, keep_time=True)  # so the start-up scan does not read it again
    aggregate = work / RES / "agg/online/figures_runs.parquet"
    before = aggregate.read_bytes()
    proc = run_snakemake(work, *SMOKE, "--forcerun", "online_aggregate")
    assert proc.returncode != 0
    log = (work / "logs/smoke/online/seed7/aggregate.log").read_text()
    assert "CorruptResultError" in log and block.name in log
    assert not aggregate.exists() or aggregate.read_bytes() == before  # never a result from it
    assert Path(f"{block}.corrupt").exists() and not block.exists()
    proc = run_snakemake(work, *SMOKE)  # the same command again rebuilds it
    assert proc.returncode == 0, proc.stderr[-3000:]
    read_results(block)
    assert (work / f"{R}/claims.csv").read_bytes() == (smoke_run / f"{R}/claims.csv").read_bytes()


@pytest.mark.workflow
@pytest.mark.parametrize("rel", [f"{R}/tables/online/final_regret.csv", f"{R}/claims.csv"])
def test_a_damaged_report_is_regenerated(tmp_path, smoke_run, rel):
    """A half-truncated deliverable (its bytes differ from those its job wrote) is rebuilt by the
    next run, with everything computed from it."""
    work = copy_run(smoke_run, tmp_path / "damaged")
    path = work / rel
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    proc = run_snakemake(work, *SMOKE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "damaged output" in proc.stderr and rel in proc.stderr
    assert path.read_bytes() == (smoke_run / rel).read_bytes()
    assert "Nothing to be done" in run_snakemake(work, "-n", *SMOKE).stdout


@pytest.mark.workflow
@pytest.mark.parametrize("damage", ["truncate", "delete"])
def test_a_damaged_or_deleted_claim_file_is_rebuilt_with_everything_downstream(tmp_path, smoke_run, damage):
    """A check's claim rows (an intermediate) half-truncated or deleted: the same run rebuilds
    them and everything computed from them (claims, checks table), with the same bytes."""
    work = copy_run(smoke_run, tmp_path / "claim")
    rows = work / RES / "claims/online/FIG-C1.parquet"
    if damage == "truncate":
        rows.write_bytes(rows.read_bytes()[: rows.stat().st_size // 2])
    else:
        rows.unlink()
    proc = run_snakemake(work, *SMOKE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    read_results(rows)
    for rel in (f"{R}/claims.csv", f"{R}/tables/online/checks.csv"):
        assert (work / rel).read_bytes() == (smoke_run / rel).read_bytes(), rel
    assert "Nothing to be done" in run_snakemake(work, "-n", *SMOKE).stdout


@pytest.mark.workflow
def test_the_notebook_declares_every_figure_it_shows(tmp_path, smoke_run):
    """The exploration notebook lists every figure under reports/figures: a run that rebuilds a
    figure reruns the notebook after it, which is never up to date without it."""
    work = copy_run(smoke_run, tmp_path / "notebook")
    figure = sorted((work / R / "figures" / "quantile").glob("check_*.png"))[-1]
    figure.unlink()
    plan = run_snakemake(work, "-n", *SMOKE)
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert "explore_notebook" in plan.stdout, plan.stdout[-3000:]
    proc = run_snakemake(work, *SMOKE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    html = (work / R / "notebooks" / "explore.html").read_text()
    assert figure.name in html and figure.exists()
    # its listing is its declared inputs, whatever the order of the jobs: not the claims summaries
    # (drawn by other jobs, perhaps while it runs) nor a hidden temporary file being written
    listed = [line for line in html.splitlines() if " figures: " in line]
    assert listed and not any("claims_summary" in line or ": ." in line or ", ." in line for line in listed)
