"""Speed benchmarks of the online paper's engines (not a timed test).

    .venv/bin/python benchmarks/bench_online.py            # everything below
    .venv/bin/python benchmarks/bench_online.py --quick    # smaller reference measurement

Measures, on one core:
1. T-scaling of each lazy engine: one run at T = 10^6 vs T = 10^8 (target: ratio <= 3);
2. the whole paper-scale Figures 1-2 set (4 algorithms x 3 eps x 2 settings x 20 runs,
   T = 10^6; target < 60 s), plus the non-private reference lines separately;
3. the per-step reference engine on one cell, extrapolated to the same cell's 20 runs at
   T = 10^6, for the speed-up of the fast engine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dpbandits.online import simulate
from dpbandits.rng import derive_seed
from dpbandits.sim.checkpoints import checkpoint_grid

SETTINGS = {"setting1": [0.75, 0.625, 0.5, 0.375, 0.25], "setting2": [0.5, 0.4, 0.4, 0.4, 0.4]}
PRIVATE = ["anytime_lazy_ucb", "lazy_dp_ts", "dp_se", "adap_klucb"]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def cell(name, means, eps, horizon, runs, engine="fast", tag="bench"):
    cps = checkpoint_grid(horizon)
    params = {"alpha": 3.1} if name == "adap_klucb" else None  # AdaP-KLUCB's exploration exponent
    return simulate(name, means, eps, horizon, runs, derive_seed(1, tag, name, eps), params, checkpoints=cps,
                    engine=engine)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    means = SETTINGS["setting1"]

    print("1. T-scaling, one run each (seconds), setting 1, eps = 0.5")
    for name in PRIVATE:
        horizons = [10**6, 10**8]
        times = [timed(lambda h=h, n=name: cell(n, means, 0.5, h, 3))[0] / 3 for h in horizons]
        print(f"   {name:18s} T={horizons[0]:.0e}: {times[0]:7.3f}  T={horizons[1]:.0e}: "
              f"{times[1]:7.3f}  ratio {times[1] / times[0]:6.2f}")

    print("2. Paper-scale Figures 1-2 set, 20 runs per cell, T = 10^6")
    per_alg = {n: 0.0 for n in PRIVATE}
    for setting, mu in SETTINGS.items():
        for eps in (0.25, 0.5, 1.0):
            for name in PRIVATE:
                per_alg[name] += timed(lambda n=name, m=mu, e=eps, s=setting:
                                       cell(n, m, e, 10**6, 20, tag=s))[0]
    for name, sec in per_alg.items():
        print(f"   {name:18s} {sec:7.2f} s (6 cells)")
    print(f"   total (4 private algorithms): {sum(per_alg.values()):.1f} s")
    refs = sum(timed(lambda n=n, m=mu: cell(n, m, None, 10**6, 20))[0]
               for n in ("ucb1", "ts_beta") for mu in SETTINGS.values())
    print(f"   non-private reference lines (4 cells): {refs:.1f} s")

    print("3. Per-step reference engine vs fast engine on one cell (setting 1, eps = 0.5)")
    horizon = 10**4 if args.quick else 10**5
    for name in PRIVATE:
        t_ref, _ = timed(lambda n=name: cell(n, means, 0.5, horizon, 1, engine="reference"))
        ref_cell = t_ref * (10**6 / horizon) * 20  # the reference engine is linear in T and runs
        t_fast, _ = timed(lambda n=name: cell(n, means, 0.5, 10**6, 20))
        print(f"   {name:18s} reference ~{ref_cell:8.1f} s (extrapolated from T={horizon:.0e}) "
              f"fast {t_fast:6.2f} s  speed-up ~{ref_cell / t_fast:7.0f}x")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
