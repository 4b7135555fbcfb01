"""Speed benchmark of the dueling paper's Algorithm 1 simulations (DP-EBS-Elimination, fast
block engine; not a timed test).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_dueling_alg1.py                 # every job
    PYTHONPATH=src .venv/bin/python benchmarks/bench_dueling_alg1.py k_grid/naive    # some jobs

Times ``simulate_alg1(design, variant, settings, 20210215)``, the function behind rule
``dueling_alg1_simulate``, for each Algorithm 1 job (design/variant) with the paper-scale
settings of config/config.yaml (``dueling.alg1``: horizons, grids) but fewer runs per cell
(``--runs``, ``--stress-runs``; ``--paper`` for the paper's own counts). Runs are independent
(run r has its own seed, whatever the number of runs), so the times scale linearly in the runs
and the rows are those of the paper-scale table for the first runs; the "paper s" column
extrapolates to the paper's counts. Times are CPU seconds of this process (``process_time``, the
machine being shared), after a warm-up cell that loads the compiled kernels. The fingerprint
(SHA-256 of every column's bytes) lets two versions of the code be compared for identical output.

Measured on the project's 2-core machine while both cores ran another paper-scale workflow
(CPU seconds of this process, best of 2 runs with old and new interleaved job by job; 2 runs
per cell, 40 per stress cell; "paper" = extrapolated to the paper's run counts; old = commit
40e062a, the numpy block engine (level x position grids) with the numpy tree-noise recurrence;
new = compiled per-round block loop and compiled tree-noise path; fingerprints identical):

    job                     old s  new s   paper old  new   speed-up  fingerprint
    correctness/r1           7.05   2.37    105.7   35.5    3.0x   e713e3ab9702b920
    stress/r1                4.78   1.65    119.6   41.2    2.9x   9d805cefc050908d
    eps_grid/r1              2.98   1.14     44.7   17.0    2.6x   db2c5180d1fbcaa6
    eps_grid/nonprivate      0.01   0.01      0.1    0.1      -    324021232c5b696c
    eps_grid/ldp             1.48   0.45     22.2    6.7    3.3x   f5ce10c03193a79d
    k_grid/r1                6.76   2.60    101.4   39.0    2.6x   47a84b99b269b110
    k_grid/naive            23.18   9.84    347.7  147.5    2.4x   3caea545c0e67524
    k_grid/nonprivate        0.17   0.06      2.5    0.9    2.8x   cc34caf4f0b5609f
    gap_grid/r1              5.17   2.13     77.5   31.9    2.4x   42fa2eeeba1935d8
    gap_grid/nonprivate      0.19   0.05      2.8    0.8    3.8x   c5ce8946abeabab1
    log_t/r1                13.57   4.28    203.6   64.2    3.2x   dfe0f214cc6b8052
    baselines/r1             0.48   0.16      4.8    1.6    3.0x   7074b238f1245c5c
    baselines/nonprivate     0.10   0.03      1.0    0.3    3.3x   463f560361871a2c
    all jobs (paper)                       1033.6  386.7    2.7x

What remains per round (K = 32, naive): two PCG64 uniforms for the duel, about two more per
counter position for its Laplace draws and one libm log per position (the released node), and
the bounds of the updated arm; these are the same numbers as before, by construction.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np
import yaml

from dpbandits.dueling.experiments.designs import alg1_cells, alg1_jobs, simulate_alg1

ROOT = Path(__file__).resolve().parents[1]
ROOT_SEED = 20210215
RUN_KEYS = ("runs", "correctness_runs", "baseline_runs")  # every cell's run count but stress's


def paper_settings() -> dict:
    with open(ROOT / "config" / "config.yaml") as fh:
        return yaml.safe_load(fh)["dueling"]["alg1"]


def reduced(settings: dict, runs: int, stress_runs: int) -> dict:
    out = dict(settings)
    out.update({key: min(runs, int(settings[key])) for key in RUN_KEYS})
    out["stress_runs"] = min(stress_runs, int(settings["stress_runs"]))
    return out


def fingerprint(table) -> str:
    digest = hashlib.sha256()
    for name, col in table.items():
        values = col.to_numpy()
        if values.dtype == object:  # per-arm arrays (K per row), or strings
            values = np.concatenate(values) if isinstance(values[0], np.ndarray) else values.astype(str)
        digest.update(name.encode() + np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()[:16]


def total_runs(design: str, variant: str, settings: dict) -> int:
    return sum(cell.runs for cell in alg1_cells(design, variant, settings))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("jobs", nargs="*", help="design/variant (default: every Algorithm 1 job)")
    parser.add_argument("--runs", type=int, default=2, help="runs per cell (stress cells: --stress-runs)")
    parser.add_argument("--stress-runs", type=int, default=40)
    parser.add_argument("--paper", action="store_true", help="the paper's run counts")
    args = parser.parse_args()
    paper = paper_settings()
    settings = paper if args.paper else reduced(paper, args.runs, args.stress_runs)
    jobs = [tuple(j.split("/")) for j in args.jobs] or alg1_jobs()
    warm = dict(settings, horizon=20_000, runs=1)
    for variant in ("r1", "ldp", "nonprivate"):  # load (or compile) the kernels
        simulate_alg1("eps_grid", variant, warm, ROOT_SEED)
    print(f"{'job':24s} {'runs':>5s} {'CPU s':>8s} {'paper s':>8s}  fingerprint")
    for design, variant in jobs:
        start = time.process_time()
        table = simulate_alg1(design, variant, settings, ROOT_SEED)
        cpu = time.process_time() - start
        scale = total_runs(design, variant, paper) / total_runs(design, variant, settings)
        print(f"{design + '/' + variant:24s} {len(table):5d} {cpu:8.2f} {cpu * scale:8.1f}  "
              f"{fingerprint(table)}", flush=True)


if __name__ == "__main__":
    main()
