"""Speed benchmark of AdaP-KLUCB's fast engine (not a timed test).

    PYTHONPATH=src .venv/bin/python benchmarks/bench_adap_klucb.py           # both cells
    PYTHONPATH=src .venv/bin/python benchmarks/bench_adap_klucb.py --quick   # first cell only

Times ``dpbandits.online.simulate("adap_klucb", ..., engine="fast")`` (alpha = 3.1, eps = 1) on:
1. K = 3, means (0.75, 0.5, 0.25), T = 10^5, 100 runs;
2. one paper-scale Figures 1-2 cell: setting 1, means (0.75, 0.625, 0.5, 0.375, 0.25),
   T = 10^6, 20 runs (config/config.yaml, online.figures);
3. all six Figures 1-2 cells of AdaP-KLUCB (settings 1 and 2 x eps 0.25, 0.5, 1; T = 10^6,
   20 runs each; seeds are the benchmark's, not the workflow's).
Checkpoints: the figures' grid (60 log-spaced + 1000 linear). Each cell is timed ``--repeat``
times (best of); a fingerprint of the results (SHA-256 of the regret, pull and release arrays)
lets two versions of the code be compared for identical output.

Measured on the 2-core development machine (best of 3, seconds; old = per-run engine with one
40-step bisection per episode, new = runs batched; fingerprints identical):
    K=3, T=1e5, 100 runs          old 1.99   new 0.060   (33x)
    Fig. 1 cell, eps = 1          old 0.64   new 0.037   (17x)
    Figs 1-2, 6 cells             old 4.33   new 0.249   (17x)
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from dpbandits.online import simulate
from dpbandits.rng import derive_seed
from dpbandits.sim.checkpoints import checkpoint_grid

SETTING1 = [0.75, 0.625, 0.5, 0.375, 0.25]
SETTING2 = [0.5, 0.4, 0.4, 0.4, 0.4]
CELLS = [  # label, [(means, eps), ...], T, runs
    ("K=3, T=1e5, 100 runs", [([0.75, 0.5, 0.25], 1.0)], 10**5, 100),
    ("K=5, T=1e6, 20 runs (Fig. 1 cell)", [(SETTING1, 1.0)], 10**6, 20),
    ("Figs 1-2: 6 cells, T=1e6, 20 runs", [(m, e) for m in (SETTING1, SETTING2)
                                           for e in (0.25, 0.5, 1.0)], 10**6, 20),
]


def run_cells(cells, horizon, runs):
    cps = checkpoint_grid(horizon, 60, 1000)
    return [simulate("adap_klucb", means, eps, horizon, runs,
                     derive_seed(1, "bench-adap", horizon, runs, *means, eps), {"alpha": 3.1},
                     checkpoints=cps, engine="fast")
            for means, eps in cells]


def fingerprint(results) -> str:
    digest = hashlib.sha256()
    for res in results:
        for arr in (res.regret, res.pulls, res.releases):
            digest.update(np.ascontiguousarray(arr).tobytes())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="only the first (K = 3) measurement")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    cells = CELLS[:1] if args.quick else CELLS
    print(f"{'cells (alpha = 3.1; eps = 1 unless said)':40s} {'seconds':>9s}  {'per run':>9s}  "
          "fingerprint")
    for label, group, horizon, runs in cells:
        best, results = np.inf, None
        for _ in range(args.repeat):
            start = time.perf_counter()
            results = run_cells(group, horizon, runs)
            best = min(best, time.perf_counter() - start)
        print(f"{label:40s} {best:9.3f}  {best / (runs * len(group)):9.4f}  "
              f"{fingerprint(results)}")


if __name__ == "__main__":
    main()
