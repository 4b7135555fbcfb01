"""The privacy-regret frontier probe of the dueling paper's lower bound (LB-FRONTIER): the noise
multiplier moves Algorithm 1 towards Lemma 11's 1/eps, and the audit sees the leak of a variant
whose noise is nearly gone."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.dueling.checks.frontier import check_lb_frontier


def test_the_frontier_reports_plays_and_the_audited_loss_per_multiplier():
    out = check_lb_frontier(np.random.default_rng(3), "smoke", k=4, horizon=40_000, runs=3, epsilon=1e-3,
                            samples=2_000, n_boot=200, multipliers=(1.0, 1e-7))
    (row,) = out.claims
    assert (row.check_id, row.kind, row.verdict) == ("LB-FRONTIER", "report", "REPORT")
    plays = out.figure.points[out.figure.points.series.str.startswith("plays")].sort_values("x")
    audited = out.figure.points[out.figure.points.series.str.startswith("audited")]
    # less noise, fewer plays of the least-played suboptimal arm (each in multiples of 1/eps)
    assert plays["mean"].iloc[0] < plays["mean"].iloc[1]
    # the nearly noiseless variant is not eps-DP in the audit; the real mechanism is not refuted
    assert (audited["x"] == 1e-7).any() and audited.loc[audited.x == 1e-7, "mean"].item() > 1
    assert "m = 1: " in row.claim and "audited eps >= 0 " in row.claim.replace(";", " ")


@pytest.mark.parametrize("bad", [dict(epsilon=2.0), dict(epsilon=1e-3, horizon=10_000)])
def test_the_frontier_refuses_settings_outside_lemma_11(bad):
    with pytest.raises(ValueError, match="Lemma 11 needs"):
        check_lb_frontier(np.random.default_rng(0), "smoke", **{"k": 4, "horizon": 40_000, **bad})
