"""Speed benchmark of AdaP-KLUCB's fast engine (issue 17; not a timed test).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_adap_klucb.py           # both cells
    PYTHONPATH=src .venv/bin/python benchmarks/bench_adap_klucb.py --quick   # first cell only

Times ``simulate_cell("adap_klucb", ..., engine="fast")`` (alpha = 3.1, eps = 1) on:
1. K = 3, means (0.75, 0.5, 0.25), T = 10^5, 100 runs;
2. one paper-scale Figures 1-2 cell: setting 1, means (0.75, 0.625, 0.5, 0.375, 0.25),
   T = 10^6, 20 runs (config/config.yaml, online.figures).
Checkpoints: the figures' grid (60 log-spaced + 1000 linear). Each cell is timed ``--repeat``
times (best of); a fingerprint of the results (SHA-256 of the regret, pull and release arrays)
lets two versions of the code be compared for identical output.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from dpbandits.online.registry import simulate_cell
from dpbandits.rng import derive_seed
from dpbandits.sim.checkpoints import checkpoint_grid

CELLS = [
    ("K=3, T=1e5, 100 runs", [0.75, 0.5, 0.25], 10**5, 100),
    ("K=5, T=1e6, 20 runs (Fig. 1 cell)", [0.75, 0.625, 0.5, 0.375, 0.25], 10**6, 20),
]


def run_cell(means, horizon, runs, eps=1.0):
    cps = checkpoint_grid(horizon, 60, 1000)
    return simulate_cell("adap_klucb", means, eps, horizon, cps, runs,
                         derive_seed(1, "bench-adap", horizon, runs), engine="fast",
                         params={"alpha": 3.1})


def fingerprint(res) -> str:
    digest = hashlib.sha256()
    for arr in (res.regret, res.pulls, res.releases):
        digest.update(np.ascontiguousarray(arr).tobytes())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="only the K = 3 cell")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    cells = CELLS[:1] if args.quick else CELLS
    print(f"{'cell (eps = 1, alpha = 3.1)':36s} {'seconds':>9s}  {'per run':>9s}  fingerprint")
    for label, means, horizon, runs in cells:
        best, res = np.inf, None
        for _ in range(args.repeat):
            start = time.perf_counter()
            res = run_cell(means, horizon, runs)
            best = min(best, time.perf_counter() - start)
        print(f"{label:36s} {best:9.3f}  {best / runs:9.4f}  {fingerprint(res)}")


if __name__ == "__main__":
    main()
