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

Measured on the 2-core development machine (about 3x slower than a laptop) while a paper-scale
Snakemake run kept both cores busy (load 3-3.7), old = 40e062a (main before this branch) and
new = this branch run back to back, one process per job and version, CPU seconds; run counts x
0.1 (P-MC-ADAP: 10^5 copies per table), except the figure blocks, run in full (their old numpy
loops cost the same per round whatever the run count). Fingerprints identical old vs new (at
fraction 1 they are the main run's SHA-256 sidecars):

    job (fraction)                          old cpu   new cpu   speed-up   fingerprint
    quantile/gap_scaling (0.1)                17.4       2.1      8.3x     2f105e33afab8c65
    quantile/fig4_logn (0.1)                  16.2       3.4      4.8x     a262a4a23f7e8725
    quantile/pac (0.1)                        13.6       2.9      4.7x     f8af9ac53eb8f5a0
    quantile/fig4_gauss (0.1)                 16.0       3.0      5.3x     53c93dd724b223e3
    quantile/zero_gap (0.1)                    6.7       2.2      3.0x     fb46ebd50ba8af8f
    quantile/lower_bound (0.1)                 4.7       1.1      4.3x     5e45b59e08ad91f0
    quantile/gauss_q (0.1)                     5.8       1.3      4.5x     b199323d70eff029
    quantile/baseline_context (0.1)            3.8       2.8      1.4x     5b5fdf7ae4431e9a
    quantile/disc_grid (0.1)                   2.3       0.9      2.6x     9ced882d4afd00aa
    quantile/dp_pac (0.1, engine unchanged)    1.4       1.4      1.0x     f23a801d9d655065
    online/bandit/minimax/lazy_dp_ts (0.1)    15.9      12.8      1.2x     b3d3ed40db015f1e
    online/bandit/k_scaling/lazy_dp_ts (0.1)   3.8       3.0      1.3x     5ca3b69d5b2129e4
    online/bandit/eps_high/lazy_dp_ts (0.1)    1.7       1.9      0.9x     27ec449fb79e5f64
    online/bandit/eps_low/lazy_dp_ts (0.1)     2.3       2.3      1.0x     35b5fe9a93c1c36b
    online/full_info/hard_grid (0.1, unchanged) 2.9      2.9      1.0x     fad06cbac062a406
    online/check/P-MC-ADAP (0.1)               6.1       1.1      5.5x     63fb165e19096284
    online/figures/setting1/ts_beta (1)       45.7       7.1      6.4x     7045ae8f7c684a49
    online/figures/setting2/ts_beta (1)       57.5       6.7      8.6x     a8714a8734392270
    online/figures/setting1/ucb1 (1)          19.3       1.1     17.5x     3a2dcb1749e93d70
    online/figures/setting2/ucb1 (1)          26.2       1.2     21.8x     f7552c1c7f66604d

The Lazy-DP-TS jobs are bound by numpy's Beta draws (chunks) and scipy's incomplete-Beta
inverses (thinning), which must stay the same numbers; hard_grid by its Binomial and Laplace
draws.

Full paper scale (fraction 1), new code, same machine and load (wall / CPU seconds); every
fingerprint equals the main run's sidecar; "main run" is the job's wall time in the paper-scale
run of 40e062a (two jobs at a time on the 2 cores):

    job                                   new wall   new cpu   main run
    quantile/gap_scaling                     24.5      20.6       195
    quantile/fig4_logn                       33.4      27.8       176
    quantile/pac                             39.3      26.5       163
    quantile/fig4_gauss                      37.5      26.3       146
    quantile/zero_gap                        19.6      15.6        97
    quantile/lower_bound                      8.2       5.5        57
    quantile/gauss_q                         11.9       8.0        56
    quantile/baseline_context                33.4      22.4        46
    quantile/disc_grid                        7.1       4.4        21
    quantile/dp_pac (unchanged)              22.3      15.1        20
    online/bandit/minimax/lazy_dp_ts        115.5     101.0       202
    online/bandit/k_scaling/lazy_dp_ts       26.4      26.2        57
    online/bandit/eps_high/lazy_dp_ts        19.5      19.4        25
    online/bandit/eps_low/lazy_dp_ts         20.4      20.3        21
    online/full_info/hard_grid (unchanged)   27.0      26.8        42
    online/check/P-MC-ADAP                   12.8      12.7       123

Old code at full scale right after, same load: quantile/gap_scaling 153.9 s wall / 152.4 s CPU
(7.4x the new CPU), online/bandit/minimax/lazy_dp_ts 161.5 / 160.4 (1.6x); same fingerprints.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import tempfile
import time
from pathlib import Path

import yaml

from dpbandits.evidence import registry
from dpbandits.evidence.claims import write_claim_rows
from dpbandits.evidence.evaluation import run_check
from dpbandits.io import write_results
from dpbandits.online.experiments import bandit_designs as online_bandit
from dpbandits.online.experiments import figure_designs as online_exp
from dpbandits.online.experiments import full_info_designs as online_full_info
from dpbandits.quantile.experiments import designs as quantile_exp

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
