"""dpbandits.stats.common_slope: one slope over groups with their own intercepts."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.stats.common_slope import common_slope
from dpbandits.stats.slopes import fit_line


def _draws(y, sd, rng, n_boot=1000):
    return y + rng.normal(0.0, sd, size=(n_boot, y.size))


def test_one_group_is_fit_line():
    rng = np.random.default_rng(1)
    u = np.log([1.0, 2.0, 4.0, 8.0])
    y = 2.0 - 0.7 * u + np.array([0.05, -0.08, 0.06, -0.02])  # lack of fit well above the noise
    boots = _draws(y, 0.01, rng)
    a = fit_line(u, y, boots, np.random.default_rng(5))
    b = common_slope([u], [y], [boots], np.random.default_rng(5))
    for field in ("slope", "ci_low", "ci_high", "intercept", "resid_se", "r2", "lof_sd", "mc_ci_low", "mc_ci_high"):
        assert getattr(b, field) == pytest.approx(getattr(a, field), rel=1e-9, abs=1e-12), field
    assert b.resid_df == a.resid_df == 2 and b.lof_assessed


def test_groups_share_the_slope_and_pool_their_degrees_of_freedom():
    rng = np.random.default_rng(2)
    u = np.log([2.0, 4.0, 8.0])
    groups = [(u, 5.0 + k - 0.9 * u) for k in range(3)]  # intercepts 5, 6, 7; slope -0.9
    fit = common_slope([g[0] for g in groups], [g[1] for g in groups],
                       [_draws(g[1], 0.005, rng) for g in groups], rng)
    assert fit.slope == pytest.approx(-0.9) and fit.resid_df == 9 - 4
    assert fit.ci_low < -0.9 < fit.ci_high and fit.ci_high - fit.ci_low < 0.05
    # the per-group intercepts matter: one line through all the points has the wrong slope
    pooled = fit_line(np.concatenate([u] * 3), np.concatenate([g[1] for g in groups]),
                      np.concatenate([_draws(g[1], 0.005, rng) for g in groups], axis=1), rng)
    assert pooled.slope == pytest.approx(-0.9)  # balanced design: same slope
    shifted = common_slope([u, u[:2]], [groups[0][1], groups[1][1][:2]],
                           [_draws(groups[0][1], 0.005, rng), _draws(groups[1][1][:2], 0.005, rng)], rng)
    assert shifted.slope == pytest.approx(-0.9)


def test_coverage_with_lack_of_fit():
    """Three groups of three points scattering about slope -2/3 by 4x their Monte Carlo noise:
    the 95% CI covers the true slope in about 95% of 300 seeded replications."""
    rng = np.random.default_rng(3)
    u = np.log([2.0, 4.0, 8.0])
    hits = 0
    for _ in range(300):
        ys, bs = [], []
        for k in range(3):
            y = k - (2 / 3) * u + rng.normal(0, 0.04, 3) + rng.normal(0, 0.01, 3)
            ys.append(y)
            bs.append(_draws(y, 0.01, rng, 500))
        fit = common_slope([u] * 3, ys, bs, rng)
        hits += fit.ci_low <= -2 / 3 <= fit.ci_high
    assert 0.90 <= hits / 300 <= 0.99


def test_bad_input_names_the_group():
    rng = np.random.default_rng(4)
    u = np.log([2.0, 4.0])
    with pytest.raises(ValueError, match="group 1 needs at least two distinct x"):
        common_slope([u, np.zeros(2)], [u, u], [_draws(u, 0.1, rng), _draws(u, 0.1, rng)], rng)
    with pytest.raises(ValueError, match="group 0"):
        common_slope([u], [u[:1]], [_draws(u, 0.1, rng)], rng)
