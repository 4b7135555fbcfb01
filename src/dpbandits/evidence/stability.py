"""The verdict-stability sweep: the claim rows of every check under several root seeds
(``snakemake verdict_stability``), and the ``stability`` column of the claims that summarises it.

Checks that draw no random numbers and read no seeded results (exact and analytic checks) are run
once: their rows stand for every seed (``seed_free``). A row's stability is ``k/n``: of the ``n``
root seeds of the sweep (the reports' own seed first), ``k`` gave the verdict the reports show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from dpbandits.evidence.claims import read_claim_rows

__all__ = ["sweep_table", "read_sweep", "stability_column", "SWEEP_COLUMNS"]

SWEEP_COLUMNS = ["paper", "check_id", "seed", "seed_free", "verdict", "reason", "value", "ci_low", "ci_high"]
_SEED = re.compile(r"/seed(\d+)/")


def sweep_table(paths: Iterable[str | Path], seeds: Sequence[int]) -> pd.DataFrame:
    """Check x seed: the claim rows of ``paths`` (per-check claim files; the seed is the path's
    ``seed<k>`` directory, a seed-free file stands for every seed of ``seeds``)."""
    rows = []
    for path in paths:
        match = _SEED.search(str(path))
        for_seeds = [int(match.group(1))] if match else list(seeds)
        for c in read_claim_rows(path):
            for seed in for_seeds:
                rows.append({"paper": c.paper, "check_id": c.check_id, "seed": seed, "seed_free": match is None,
                             "verdict": c.verdict, "reason": c.reason, "value": c.value, "ci_low": c.ci_low,
                             "ci_high": c.ci_high})
    frame = pd.DataFrame(rows, columns=SWEEP_COLUMNS)
    order = {s: i for i, s in enumerate(seeds)}
    frame["_order"] = frame["seed"].map(order)
    if frame["_order"].isna().any():
        raise ValueError(f"claim files of seeds outside the sweep {list(seeds)}")
    return (frame.sort_values(["paper", "check_id", "_order"], kind="stable").drop(columns="_order")
            .reset_index(drop=True))


def read_sweep(path: str | Path) -> pd.DataFrame:
    """The sweep's table as written by :func:`sweep_table` (ids and reasons stay text)."""
    return pd.read_csv(path, dtype={"check_id": str, "reason": str}, keep_default_na=False,
                       na_values={"value": [""], "ci_low": [""], "ci_high": [""]})


def stability_column(claims: pd.DataFrame, sweep: pd.DataFrame, main_seed: int) -> pd.Series:
    """``k/n`` per claim row (same index as ``claims``): of the sweep's n seeds, how many gave the
    claims' verdict. Empty where the sweep does not hold the row, or holds it with another verdict
    or value under the main seed (a sweep older than the claims: stale, not shown)."""
    out = pd.Series("", index=claims.index, dtype=object)
    if sweep.empty:
        return out
    groups = {key: g for key, g in sweep.groupby(["paper", "check_id"], sort=False)}
    for idx, row in claims.iterrows():
        g = groups.get((row["paper"], row["check_id"]))
        if g is None:
            continue
        main = g[g["seed"] == main_seed]
        if len(main) != 1:
            continue
        m = main.iloc[0]
        same_value = (m["value"] == row["value"]) or (np.isnan(m["value"]) and np.isnan(row["value"])) \
            or np.isclose(m["value"], row["value"], rtol=1e-5, atol=0)
        if m["verdict"] != row["verdict"] or not same_value:
            continue
        out[idx] = f"{int((g['verdict'] == row['verdict']).sum())}/{len(g)}"
    return out
