"""Speed benchmark of the slowest simulation jobs of the quantile and online papers (not a timed
test), at the paper config (config/config.yaml) and root seed 20210215, with every run count
scaled by ``--fraction``.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_slow_jobs.py --fraction 0.1
    PYTHONPATH=src .venv/bin/python benchmarks/bench_slow_jobs.py --fraction 1 --jobs quantile/gap_scaling

Each job is what its workflow rule runs (quantile_simulate, online_simulate block 0,
online_bandit_simulate, online_full_info_simulate, the P-MC-ADAP check), timed in-process
(wall and CPU seconds, best of ``--repeat``: the first repeat also loads the numba kernels from
their cache). The fingerprint is the first 16 hex digits of the SHA-256 of the Parquet file the
rule would write: at ``--fraction 1`` it is the ``.sha256`` sidecar of the workflow's own
output; at a fraction it compares two versions of the code. In the quantile and bandit designs
run r of a cell depends only on r, so a fraction's rows are the first runs of every cell of the
full table; the engines vectorised over runs (figure reference lines, full information, audit
copies) share one stream among the runs, so there a fraction is just a smaller job.

Measured on the 2-core development machine while a paper-scale Snakemake run used both cores
(load 2-4), old (40e062a) and new back to back, ``--fraction 0.1`` (0.2 for the online figure
blocks, i.e. 4 of 20 runs; P-MC-ADAP at 10^5 samples), seconds of CPU, best of 2; fingerprints
identical:

    job                                  old cpu   new cpu   speed-up   fingerprint
    quantile/gap_scaling                   14.0       2.9      4.8x     2f105e33afab8c65
    quantile/fig4_logn                     12.2       2.4      5.1x     ...
    (filled in below by the measurement of this commit)

Full paper scale, new code, wall seconds on the same busy machine (old: the main run's job
times, two jobs at a time on 2 cores); every output byte-identical to the main run's (SHA-256 of
the Parquet equal to its sidecar):

    (filled in below)
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import tempfile
import time
from pathlib import Path

import yaml

from dpbandits import registry
from dpbandits.claims import write_claim_rows
from dpbandits.evaluation import run_check
from dpbandits.experiments import online as online_exp
from dpbandits.experiments import online_bandit, online_full_info
from dpbandits.experiments import quantile as quantile_exp
from dpbandits.io import write_results

CONFIG = Path(__file__).resolve().parents[1] / "config" / "config.yaml"
QUANTILE = ("gap_scaling", "fig4_logn", "pac", "fig4_gauss", "zero_gap", "lower_bound", "gauss_q",
            "baseline_context", "disc_grid", "dp_pac")
BANDIT = (("minimax", "lazy_dp_ts"), ("k_scaling", "lazy_dp_ts"), ("eps_high", "lazy_dp_ts"),
          ("eps_low", "lazy_dp_ts"))
FIGURES = (("setting1", "ts_beta"), ("setting2", "ts_beta"), ("setting1", "ucb1"), ("setting2", "ucb1"))


def _scaled(section: dict, fraction: float) -> dict:
    """A config section with every ``*runs`` entry (at any depth) times ``fraction`` (>= 1)."""
    out = copy.deepcopy(section)
    for key, value in out.items():
        if isinstance(value, dict):
            out[key] = _scaled(value, fraction)
        elif key.endswith("runs") and isinstance(value, int):
            out[key] = max(1, round(value * fraction))
    return out


def jobs(config: dict, fraction: float) -> dict:
    """name -> function(path) that runs the job and writes the rule's output file."""
    seed = config["seed"]
    out = {}
    for design in QUANTILE:
        out[f"quantile/{design}"] = lambda path, d=design: write_results(
            quantile_exp.simulate_design(d, _scaled(config["quantile"], fraction), seed), path)
    fig = config["online"]["figures"]
    runs = max(1, round(fig["runs_per_job"] * fraction))
    fig_config = {**config, "online": {**config["online"], "figures": {**fig, "runs": runs, "runs_per_job": runs}}}
    for setting, algorithm in FIGURES:
        cell = online_exp.Cell(setting, algorithm, online_exp.NONPRIVATE, 0)
        out[f"online/figures/{setting}/{algorithm}"] = lambda path, c=cell: online_exp.write_block(
            online_exp.simulate_block(fig_config, c), online_exp.figure_checkpoints(fig_config), path)
    bandit = _scaled(config["online"]["bandit"], fraction)
    for design, algorithm in BANDIT:
        out[f"online/bandit/{design}/{algorithm}"] = lambda path, d=design, a=algorithm: write_results(
            online_bandit.simulate_design(d, a, bandit, seed), path)
    full_info = _scaled(config["online"]["full_info"], fraction)
    out["online/full_info/hard_grid"] = lambda path: write_results(
        online_full_info.simulate_design("hard_grid", full_info, seed), path)
    audit = {**config["online"]["audit"], "samples": max(1000, round(config["online"]["audit"]["samples"] * fraction))}
    audit_config = {**config, "online": {**config["online"], "audit": audit}}
    out["online/check/P-MC-ADAP"] = lambda path: write_claim_rows(
        run_check(registry.get("online", "P-MC-ADAP"), audit_config, []).claims, path)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fraction", type=float, default=0.1, help="run counts (audit samples) times this")
    parser.add_argument("--jobs", default="", help="comma-separated job names (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="time each job this often (best of)")
    args = parser.parse_args()
    config = yaml.safe_load(CONFIG.read_text())
    table = jobs(config, args.fraction)
    names = [n for n in args.jobs.split(",") if n] or list(table)
    print(f"{'job (fraction ' + format(args.fraction, 'g') + ')':40s} {'wall s':>8s} {'cpu s':>8s}  fingerprint")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = Path(tmp) / (name.replace("/", "_") + ".parquet")
            wall = cpu = float("inf")
            for _ in range(args.repeat):
                w0, c0 = time.perf_counter(), time.process_time()
                table[name](path)
                wall, cpu = min(wall, time.perf_counter() - w0), min(cpu, time.process_time() - c0)
            print(f"{name:40s} {wall:8.1f} {cpu:8.1f}  {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}",
                  flush=True)


if __name__ == "__main__":
    main()
