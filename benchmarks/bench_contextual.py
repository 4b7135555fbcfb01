"""Speed benchmarks of the contextual paper's engine (not a timed test).

    .venv/bin/python benchmarks/bench_contextual.py           # everything below
    .venv/bin/python benchmarks/bench_contextual.py --reps 5  # fewer repetitions per cell

Measures, on one core, wall and CPU time per repetition (Figure 7(a) settings, B = 100, code
centres) at the two cells the issue names, where the authors' released code takes about 1.5 s
(eps = 1, n_P = 10^4) and 1390 s (eps = 1024, n_P = 2.4 x 10^5) per repetition (their logs):

1. the ``primary`` preset (faithful LDP; exact Gamma-difference Laplace sums; event-driven);
2. the ``authors_code`` preset (their algorithm; exponential weights, so batch by batch);
3. the per-user reference engine at a small cell, extrapolated, for the speed-up.

Targets: primary < 1 s and authors_code < 10 s per repetition at the large cell.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dpbandits.contextual.config import preset
from dpbandits.contextual.instances import BumpInstance
from dpbandits.contextual.ldpmab import Source, run_ldpmab
from dpbandits.contextual.reference import ReferenceLDPMAB
from dpbandits.rng import derive_seed

AUTHORS_SECONDS = {(1.0, 10000): 1.5, (1024.0, 240000): 1390.0}


def per_rep(name: str, eps: float, n: int, reps: int) -> tuple[float, float]:
    inst = BumpInstance(3, 2, "code")
    aux = [Source(0, 1024.0), Source(0, 1024.0)] if name == "authors_code" else []
    cfg = preset(name, batch=100)
    wall, cpu = time.perf_counter(), time.process_time()
    for r in range(reps):
        run_ldpmab(cfg, [*aux, Source(n, eps, target=True)], derive_seed(1, "bench", r), instance=inst)
    return (time.perf_counter() - wall) / reps, (time.process_time() - cpu) / reps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args()
    print("per-repetition seconds (wall / CPU), Figure 7(a) setting, B = 100")
    for (eps, n), theirs in AUTHORS_SECONDS.items():
        for name in ("primary", "authors_code"):
            w, c = per_rep(name, eps, n, args.reps)
            print(f"  {name:13s} eps = {eps:6g}  n_P = {n:7d}: {w:7.3f} / {c:7.3f}   (authors' code: ~{theirs:g} s)")
    inst = BumpInstance(3, 2, "code")
    start = time.process_time()
    ReferenceLDPMAB(preset("primary", batch=100), inst, [Source(5000, 1024.0, target=True)], 0).run()
    ref = time.process_time() - start
    _, fast = per_rep("primary", 1024.0, 5000, args.reps)
    print(f"reference engine, eps = 1024, n_P = 5000: {ref:.2f} s CPU per run; fast engine {fast:.4f} s "
          f"(x{ref / max(fast, 1e-9):.0f})")
    print(f"numpy {np.__version__}")


if __name__ == "__main__":
    main()
