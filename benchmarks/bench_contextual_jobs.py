"""Speed benchmark of the contextual paper's slowest simulation jobs (not a timed test).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_contextual_jobs.py                 # JOBS, paper scale
    PYTHONPATH=src .venv/bin/python benchmarks/bench_contextual_jobs.py --runs 3 fig7_code_1024 table_taxi
    PYTHONPATH=src .venv/bin/python benchmarks/bench_contextual_jobs.py --before /tmp/old/src \\
        --reference results/paper/seed20210215/sim/contextual      # before/after, and identity

Each job (``simulate_job``, ``simulate_table`` or ``simulate_beyond`` at config/config.yaml, root
seed 20210215; ``--runs`` overrides every repetition count) runs in a fresh interpreter, as a
Snakemake job does; the wall and CPU seconds are those of the simulation call (imports excluded,
numba's load of its compiled kernels from the on-disk cache included). ``--before SRC`` also runs
each job with the library at SRC (e.g. ``git archive 40e062a src | tar -x -C /tmp/old``), right
before the current code, so that both see the same machine load. The fingerprint is the SHA-256
of the table written and read back with the workflow's Parquet writer, every column but the
timing column ``seconds`` (table_adult reads real Adult through ``--adult-manifest`` when that
file exists, as the workflow does, else the surrogate); ``--reference DIR`` also compares the table with DIR/<job>.parquet
(``DataFrame.equals``, same columns; with ``--runs``, the reference's rows rep < runs, and not
for the tables, whose data orders are drawn for all repetitions at once).

The per-job seconds before and after the compiled kernels, at paper scale and with every
output compared byte for byte, are those of two whole rebuilds (``benchmarks/bench_workflow.py``,
table ``benchmarks/workflow_timing.md``); this script is for timing and checking one job at a time.

The synthetic scan drawn batch by batch, with its faster exact samplers (new random streams, the
same law), measured with ``--before`` at paper scale on the 2-core development machine while a
test run shared it (before = 6b535cf, after = cba195f, one job of each right after the other;
CPU seconds of the simulation call):

    job              before   after   speed-up
    fig7              52.0     37.6     1.38x
    fig8              34.7     27.2     1.28x
    sym8              45.0     39.5     1.14x
    fig9b             36.2     28.2     1.28x
    presets           24.6     14.2     1.73x
    beyond_c1_dims    33.5     16.9     1.98x
    total            226.0    163.6     1.38x

What is left in these jobs is mostly outside the draws: the bin moments of each new bin (the
symmetric instance's quadrature in sym8), the children's per-batch counts for the rest of the
horizon, and the per-event bookkeeping in Python.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED = 20210215
JOBS = ("table_taxi", "fig7_code_1024", "fig7_code_8", "fig7_code_4", "fig7_code_2", "fig7_code_1", "fig7",
        "sym8", "fig8", "fig9b", "presets", "sym9", "sym7", "theory_n", "baselines_n", "fig9a", "table_adult")

_CHILD = r"""
import hashlib, json, sys, tempfile, time
import numpy as np, yaml

job, runs, out, manifest, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[5] or None, int(sys.argv[6])
cfg = yaml.safe_load(open(sys.argv[4]))["contextual"]
if runs > 0:
    cfg["runs"] = cfg["theory"]["runs"] = cfg["fig6"]["runs"] = cfg["tables"]["runs"] = runs
    cfg["beyond"]["runs"] = runs
from dpbandits.io import write_results
if job.startswith("table_"):
    from dpbandits.contextual.experiments.designs import simulate_table as run
    args = (job.removeprefix("table_"), cfg, seed, manifest if job == "table_adult" else None)
elif job.startswith("beyond_"):
    from dpbandits.contextual.experiments.beyond_designs import simulate_beyond as run
    args = (job, cfg, seed)
else:
    from dpbandits.contextual.experiments.designs import simulate_job as run
    args = (job, cfg, seed)
wall, cpu = time.perf_counter(), time.process_time()
table = run(*args)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
table.attrs.pop("provenance", None)
write_results(table, out)
print(json.dumps({"wall": wall, "cpu": cpu}))
"""


def fingerprint(table) -> str:
    """SHA-256 of every column but ``seconds`` (values, then column names)."""
    import numpy as np

    digest = hashlib.sha256()
    for name in table.columns:
        if name == "seconds":
            continue
        values = table[name].to_numpy()
        if values.dtype == object:
            digest.update(repr([v.tolist() if isinstance(v, np.ndarray) else v for v in values]).encode())
        else:
            digest.update(np.ascontiguousarray(values).tobytes())
        digest.update(name.encode())
    return digest.hexdigest()[:16]


def run_job(job: str, runs: int, src: Path, workdir: Path, manifest: str) -> tuple[dict, object]:
    from dpbandits.io import read_results

    out = workdir / f"{job}-{abs(hash(str(src)))}.parquet"
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, job, str(runs), str(out), str(ROOT / "config/config.yaml"),
                           manifest, str(SEED)], env=env, cwd=src.parent, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1]), read_results(out)


def same_as_reference(table, reference: Path, job: str, runs: int) -> str:
    """"True"/"False"; "n/a" for a table at reduced repetitions (its data orders are drawn for
    all repetitions at once, so fewer repetitions draw other orders)."""
    from dpbandits.io import read_results

    if runs > 0 and job.startswith("table_"):
        return "n/a"
    ref = read_results(reference / f"{job}.parquet")
    if runs > 0:
        ref = ref[ref["rep"] < runs].reset_index(drop=True)
    cols = [c for c in ref.columns if c != "seconds"]
    return str(list(table.columns) == list(ref.columns) and table[cols].reset_index(drop=True).equals(ref[cols]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("jobs", nargs="*", default=list(JOBS))
    parser.add_argument("--runs", type=int, default=0, help="repetitions per cell (0: the config's)")
    parser.add_argument("--before", type=Path, help="another src tree to time first, job by job")
    parser.add_argument("--reference", type=Path, help="directory of the workflow's tables to compare with")
    parser.add_argument("--adult-manifest", default=str(ROOT / "resources/contextual/adult/manifest.json"),
                        help="the download manifest of real Adult for table_adult (rule contextual_download_adult)")
    args = parser.parse_args()
    trees = ([("before", args.before.resolve())] if args.before else []) + [("after", ROOT / "src")]
    print(f"{'job':16s} " + " ".join(f"{name + ' cpu (wall)':>20s}" for name, _ in trees)
          + "  fingerprint       identical")
    with tempfile.TemporaryDirectory() as tmp:
        for job in args.jobs:
            cells, prints, same = [], [], "-"
            for _, src in trees:
                manifest = args.adult_manifest if Path(args.adult_manifest).is_file() else ""
                times, table = run_job(job, args.runs, src, Path(tmp), manifest)
                cells.append(f"{times['cpu']:8.1f} ({times['wall']:6.1f})")
                prints.append(fingerprint(table))
                if args.reference and src == ROOT / "src":
                    same = same_as_reference(table, args.reference, job, args.runs)
            agree = "" if len(set(prints)) == 1 else " (fingerprints differ)"
            print(f"{job:16s} " + " ".join(f"{c:>20s}" for c in cells) + f"  {prints[-1]}  {same}{agree}",
                  flush=True)


if __name__ == "__main__":
    main()
