"""Speed of the whole workflow, a benchmark, not a timed test.

    .venv/bin/python benchmarks/bench_workflow.py --scale smoke            # the smoke DAG
    .venv/bin/python benchmarks/bench_workflow.py --scale paper            # the paper DAG (~minutes)
    .venv/bin/python benchmarks/bench_workflow.py --scale smoke --repo /path/to/old/checkout --label before

Runs ``snakemake --cores N --forceall`` on a fresh copy of the workflow (the ``--repo`` checkout's
Snakefile, workflow/ and config/, and its ``src`` on PYTHONPATH) and reports the wall time and the
CPU time of the whole run (and, of it, Snakemake's own main process: parsing, DAG, scheduling,
file checks; ``snakemake_cpu_s``), then splits the jobs' time per paper and per rule family
(simulate / check / figure / table / report / other): a job's *work* is what its entry point
measured itself ("done in X s" in its log), its *start-up* is the rest of the job's time as
Snakemake saw it (interpreter start, imports, Snakemake's own job handling; second resolution, so
only sums are meaningful). Appends one line per run to ``benchmarks/workflow_timing.csv`` and its
per-family split to ``benchmarks/workflow_timing_families.csv``, and rewrites
``benchmarks/workflow_timing.md`` from both (one column per run, so before and after sit side by side).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CSV = HERE / "workflow_timing.csv"
MD = HERE / "workflow_timing.md"
FAMILIES = HERE / "workflow_timing_families.csv"  # per run: seconds per paper and rule family
PAPERS = ("online", "dueling", "quantile", "contextual")
REPORT_RULES = {"claims", "claims_at_a_glance", "replication_report", "report_captions", "all_tables", "explore_notebook",
                "verdict_stability", "all"}


def family(rule: str) -> str:
    if rule in REPORT_RULES:
        return "report"
    if rule.endswith("_simulate"):
        return "simulate"
    if rule.endswith("_figure") or "_fig" in rule and not rule.endswith("_claims") and "check" not in rule:
        return "figure"
    if rule.endswith("_table") or rule.startswith("contextual_table"):
        return "table"
    if rule.endswith(("_aggregate", "_download_adult")):
        return "other"
    return "check"


def paper_of(rule: str) -> str:
    for paper in PAPERS:
        if rule.startswith(paper) or rule.startswith(f"audit_{paper}"):
            return paper
    return "all"


_STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")


def parse_main_log(text: str) -> pd.DataFrame:
    """One row per finished job: rule, log file, start and end times (Snakemake's log)."""
    jobs, stamp, current = {}, None, None
    for line in text.splitlines():
        line = line.rstrip()
        m = _STAMP.match(line)
        if m:
            stamp = dt.datetime.strptime(m.group(1), "%a %b %d %H:%M:%S %Y")
            continue
        m = re.match(r"^(?:local)?rule (\S+):$", line)
        if m:
            current = {"rule": m.group(1), "start": stamp, "log": ""}
            continue
        if current is not None:
            m = re.match(r"^\s+log: (\S+)", line)
            if m:
                current["log"] = m.group(1)
            m = re.match(r"^\s+jobid: (\d+)", line)
            if m:
                jobs[int(m.group(1))] = current
                current = None
        m = re.match(r"^Finished jobid: (\d+)", line)
        if m and int(m.group(1)) in jobs:
            jobs[int(m.group(1))]["end"] = stamp
    rows = [j for j in jobs.values() if "end" in j and j["start"] is not None]
    frame = pd.DataFrame(rows)
    frame["seconds"] = (frame["end"] - frame["start"]).dt.total_seconds()
    return frame


# Runs Snakemake's command line in this interpreter and, at exit, writes the CPU seconds of this
# process alone (Snakemake's main process; the jobs run in its worker pool, which are children).
_MAIN_CPU = r"""
import atexit, json, resource, runpy, sys
out, script = sys.argv[1], sys.argv[2]
def _record():
    use = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "w") as handle:
        json.dump({"cpu_s": use.ru_utime + use.ru_stime}, handle)
atexit.register(_record)
sys.argv = [script, *sys.argv[3:]]
runpy.run_path(script, run_name="__main__")
"""


def work_seconds(workdir: Path, log: str) -> float:
    path = workdir / log
    if not log or not path.exists():
        return 0.0
    m = re.findall(r"done in ([0-9.]+) s", path.read_text(errors="replace"))
    return float(m[-1]) if m else 0.0


def run(repo: Path, scale: str, cores: int, keep: Path | None) -> tuple[dict, pd.DataFrame]:
    work = keep or Path(tempfile.mkdtemp(prefix=f"bench_{scale}_"))
    work.mkdir(parents=True, exist_ok=True)
    for sub in ("workflow", "config", "examples"):  # examples: the smoke config's extra algorithms
        shutil.rmtree(work / sub, ignore_errors=True)
        if (repo / sub).exists():
            shutil.copytree(repo / sub, work / sub, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(repo / "Snakefile", work / "Snakefile")
    if not (work / "profiles").exists():
        os.symlink("workflow/profiles", work / "profiles")
    main_cpu = work / ".bench_main_cpu.json"
    args = [sys.executable, "-c", _MAIN_CPU, str(main_cpu), str(Path(sys.executable).parent / "snakemake"),
            "--cores", str(cores), "--forceall"]
    if scale == "smoke":
        args += ["--configfile", "config/smoke.yaml"]
    env = {**os.environ, "PYTHONPATH": str(repo / "src")}
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"snakemake failed:\n{proc.stderr[-3000:]}")
    jobs = parse_main_log(proc.stderr + proc.stdout)
    jobs["work"] = [work_seconds(work, log) for log in jobs["log"]]
    jobs["startup"] = (jobs["seconds"] - jobs["work"]).clip(lower=0)
    jobs["family"] = jobs["rule"].map(family)
    jobs["paper"] = jobs["rule"].map(paper_of)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = {"when": dt.datetime.now().isoformat(timespec="seconds"), "scale": scale, "cores": cores,
               "jobs": len(jobs), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
               "snakemake_cpu_s": round(json.loads(main_cpu.read_text())["cpu_s"], 1),
               "work_s": round(float(jobs["work"].sum()), 1), "startup_s": round(float(jobs["startup"].sum()), 1),
               "load_before": round(load_before, 2)}
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return summary, jobs


def from_log(log: Path, workdir: Path, scale: str, cores: int) -> tuple[dict, pd.DataFrame]:
    """The same split for a run that has already happened (its Snakemake log and its working
    directory, for the jobs' own logs): no re-run. The wall time is the span of the log's time
    stamps; the CPU time is unknown (NaN). For an incremental run only the jobs it ran count."""
    text = log.read_text(errors="replace")
    jobs = parse_main_log(text)
    jobs["work"] = [work_seconds(workdir, name) for name in jobs["log"]]
    jobs["startup"] = (jobs["seconds"] - jobs["work"]).clip(lower=0)
    jobs["family"] = jobs["rule"].map(family)
    jobs["paper"] = jobs["rule"].map(paper_of)
    stamps = [dt.datetime.strptime(m, "%a %b %d %H:%M:%S %Y")
              for m in re.findall(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$", text, re.M)]
    when = min(stamps) if stamps else dt.datetime.now()  # the run's start, not this analysis
    summary = {"when": when.isoformat(timespec="seconds"), "scale": scale, "cores": cores,
               "jobs": len(jobs), "wall_s": (max(stamps) - min(stamps)).total_seconds() if stamps else float("nan"),
               "cpu_s": float("nan"), "snakemake_cpu_s": float("nan"), "work_s": round(float(jobs["work"].sum()), 1),
               "startup_s": round(float(jobs["startup"].sum()), 1), "load_before": float("nan")}
    return summary, jobs


def _markdown(frame: pd.DataFrame) -> str:
    cols = list(frame.columns)
    out = ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(out)


def family_table(jobs: pd.DataFrame) -> pd.DataFrame:
    """Seconds (Snakemake's), work, start-up and job count per paper and rule family."""
    table = jobs.pivot_table(index=["paper", "family"], values=["seconds", "work", "startup"],
                             aggfunc="sum").round(1)
    return table.join(jobs.groupby(["paper", "family"]).size().rename("jobs")).reset_index()


def write_markdown(history: pd.DataFrame, families: pd.DataFrame) -> None:
    lines = ["# Workflow timing (benchmarks/bench_workflow.py)", "",
             "Whole runs (`snakemake --cores N --forceall`: on a fresh copy, or read from a run's log with",
             "`--from-log`). `work`: the sum of the jobs' own",
             "measured time; `startup`: the rest of their time as Snakemake saw it (interpreter, imports,",
             "job handling; with `--cores` above the machine's CPUs also the time a started job waits for",
             "one of the warm workers, which are capped at the CPUs); `snakemake_cpu_s`: the CPU time of",
             "Snakemake's own main process (parsing, DAG,",
             "scheduling, file checks; part of `cpu_s`, measured from the runs of 2026-11-28 on).",
             "Machine: 2 cores; `load_before` is the load average when the run started (from 2026-11-28",
             "on; earlier rows took it when the run had ended).", "",
             _markdown(history), ""]
    for scale, runs in families.groupby("scale", sort=False):
        wide = runs.pivot_table(index=["paper", "family"], columns="run", values="seconds", aggfunc="sum",
                                sort=False)
        wide = wide[list(dict.fromkeys(runs["run"]))]  # runs in the order they were measured
        total = wide.sum().to_frame().T
        total.index = pd.MultiIndex.from_tuples([("all", "total")], names=["paper", "family"])
        lines += [f"## Job seconds per paper and rule family, {scale} scale (one column per run)", "",
                  _markdown(pd.concat([wide, total]).round(0).reset_index()), ""]
    MD.write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", choices=("smoke", "paper"), default="smoke")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout whose workflow and src are timed")
    parser.add_argument("--label", default="", help="e.g. before / after")
    parser.add_argument("--keep", type=Path, default=None, help="run in this directory and keep it")
    parser.add_argument("--from-log", type=Path, default=None,
                        help="measure a finished run from its Snakemake log instead (no re-run); "
                             "--keep names its working directory")
    args = parser.parse_args()
    if args.from_log is not None:
        if args.keep is None:
            parser.error("--from-log needs --keep (the run's working directory, for the jobs' logs)")
        summary, jobs = from_log(args.from_log, args.keep, args.scale, args.cores)
    else:
        summary, jobs = run(args.repo.resolve(), args.scale, args.cores, args.keep)
    summary["label"] = args.label
    history = pd.read_csv(CSV) if CSV.exists() else pd.DataFrame()
    history = pd.concat([history, pd.DataFrame([summary])], ignore_index=True)
    history = history[list(summary)]  # the columns in one order (rows from before a column existed: NaN)
    history.to_csv(CSV, index=False)
    table = family_table(jobs).assign(run=f"{summary['when']} {args.label}".strip(), scale=args.scale)
    families = pd.read_csv(FAMILIES) if FAMILIES.exists() else pd.DataFrame()
    families = pd.concat([families, table], ignore_index=True)
    families.to_csv(FAMILIES, index=False)
    write_markdown(history, families)
    print(summary)
    print(jobs.groupby(["paper", "family"])[["seconds", "work", "startup"]].sum().round(1))


if __name__ == "__main__":
    main()
