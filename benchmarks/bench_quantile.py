"""Speed benchmarks of the quantile paper's engines (not a timed test).

    .venv/bin/python benchmarks/bench_quantile.py

Measures, on one core:
1. SEQ: the window engine against the per-step reference on the same runs (identical records),
   per-pull cost, and the cost of one Figure 3 (upper) point at q = 0.55 (n ~ 4e4 per arm);
2. DP-SEQ: the order-statistic engine against the reference (sorted fresh samples) on LOGN10,
   q = 0.85, eps = 0.05 (about 6e6 pulls per run), per run;
3. the paper-scale Figure 4 (upper) design (8 q x 3 sigma* x 500 runs, one family).
"""

from __future__ import annotations

import time

import numpy as np

from dpbandits.quantile import dp_seq, seq
from dpbandits.quantile import instances as inst
from dpbandits.quantile.experiments import designs as qexp
from dpbandits.rng import derive_seed


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    seq.simulate_seq(inst.disc(0.4, 0.2), 0.05, 10**6, 1, derive_seed(0, "warm"))  # compile
    g = inst.gauss(1.0, [0.5], 0.7)
    t_ref, ref = timed(lambda: seq.run_reference(g, 0.05, 10**6, 5, derive_seed(1, "bench")))
    t_fast, fast = timed(lambda: seq.simulate_seq(g, 0.05, 10**6, 5, derive_seed(1, "bench")))
    pulls = int(ref.total_pulls.sum())
    assert np.array_equal(ref.pulls, fast.pulls)
    print(f"SEQ reference: {t_ref:.2f} s ({1e6 * t_ref / pulls:.2f} us/pull); window engine: {t_fast:.3f} s "
          f"({1e6 * t_fast / pulls:.3f} us/pull), speed-up {t_ref / t_fast:.0f}x, identical records")
    t, rec = timed(lambda: seq.simulate_seq(inst.gauss(1.0, [0.5], 0.55), 0.05, 10**7, 100, derive_seed(2, "fig3")))
    print(f"Fig. 3 upper, q = 0.55, 100 runs: {t:.1f} s (mean n = {rec.n_final.mean():.0f})")
    l10 = inst.logn10(0.85)
    t_ref, ref = timed(lambda: dp_seq.simulate_dp_seq(l10, 0.05, 0.1, 2, derive_seed(3, "dp"), engine="reference"))
    t_fast, fast = timed(lambda: dp_seq.simulate_dp_seq(l10, 0.05, 0.1, 2, derive_seed(3, "dp")))
    print(f"DP-SEQ LOGN10 q = 0.85 eps = 0.05 ({ref.total_pulls.mean():.2e} pulls per run): reference "
          f"{t_ref / 2:.2f} s/run, order-statistic engine {t_fast / 2:.3f} s/run")
    settings = {"seq": {"fig4_runs": 500, "cap_factor": 20}, "dp": {}}
    t, table = timed(lambda: qexp.simulate_design("fig4_gauss", settings, 1))
    print(f"Fig. 4 upper, Gaussian family, 24 points x 500 runs: {t:.1f} s "
          f"({table['total_pulls'].sum():.2e} pulls)")


if __name__ == "__main__":
    main()
