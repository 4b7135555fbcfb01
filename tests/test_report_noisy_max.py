"""Report Noisy Max: the exact privacy loss behind the online paper's issue P1 (Theorem 8)."""

from __future__ import annotations

import numpy as np
import pytest

from dpbandits.mechanisms.report_noisy_max import (
    ReportNoisyMax,
    _choice_probability,
    exact_loss,
    exact_loss_two,
    laplace_difference_cdf,
)

# Spec section 6.5 table (re-derived there by enumeration and numerical convolution).
SPEC_TABLE = {  # (eps, c): losses at n = 1, 2, 8, 64, 1024
    (0.25, 1): [0.249, 0.277, 0.366, 0.472, 0.498],
    (0.25, 2): [0.125, 0.132, 0.163, 0.225, 0.248],
    (0.5, 1): [0.493, 0.595, 0.818, 0.970, 0.998],
    (1.0, 1): [0.965, 1.307, 1.777, 1.969, 1.998],
    (1.0, 2): [0.493, 0.595, 0.818, 0.970, 0.998],
}


@pytest.mark.parametrize(("eps", "c"), list(SPEC_TABLE))
def test_two_action_loss_matches_the_spec_table(eps, c):
    got = [exact_loss_two(n, c / eps) for n in (1, 2, 8, 64, 1024)]
    np.testing.assert_allclose(got, SPEC_TABLE[(eps, c)], atol=6e-4)


def test_closed_form_equals_quadrature_and_enumeration():
    for n in (1, 2, 5, 16):
        assert exact_loss(2, n, 1.0) == pytest.approx(exact_loss_two(n, 1.0), rel=1e-9)
    # Brute force over every feasible pair of sums and both directions, K = 2, n = 3, b = 1.
    b, n, worst = 1.0, 3, 0.0
    for phi1 in range(n + 1):
        for phi2 in range(n + 1):
            for d1, d2 in ((1, -1), (-1, 1), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1)):
                q1, q2 = phi1 + d1, phi2 + d2
                if not (0 <= q1 <= n and 0 <= q2 <= n):
                    continue
                p = laplace_difference_cdf(phi1 - phi2, b)  # P(choose 1) = P(W <= phi1 - phi2)
                q = laplace_difference_cdf(q1 - q2, b)
                worst = max(worst, abs(np.log(p / q)), abs(np.log((1 - p) / (1 - q))))
    assert worst == pytest.approx(exact_loss_two(n, b), rel=1e-12)


def test_more_actions_leak_more_and_the_corrected_scale_is_private():
    # Spec 6.5 reference values at eps = 1, c = 1.
    assert exact_loss(3, 1, 1.0) == pytest.approx(1.425, abs=1e-3)
    assert exact_loss(5, 1, 1.0) == pytest.approx(1.759, abs=1e-3)
    assert exact_loss(3, 2, 1.0) == pytest.approx(1.804, abs=1e-3)
    for k in (2, 3, 5, 10):
        for n in (1, 2, 8):
            assert exact_loss(k, n, 2.0) <= 1.0 + 1e-9  # Lap(2/eps) at eps = 1


def test_quadrature_matches_monte_carlo():
    rng = np.random.default_rng(0)
    scores = np.array([0.0, 2.0, 1.0])
    rnm = ReportNoisyMax(epsilon=1.0)
    picks = rnm.release(np.tile(scores, (400_000, 1)), rng)
    freq = np.bincount(picks, minlength=3) / picks.size
    exact = [_choice_probability(j, scores, 1.0) for j in range(3)]
    assert sum(exact) == pytest.approx(1.0, abs=1e-9)
    np.testing.assert_allclose(freq, exact, atol=4 * np.sqrt(0.25 / picks.size))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="epsilon"):
        ReportNoisyMax(epsilon=0.0)
    with pytest.raises(ValueError, match="scale_factor"):
        ReportNoisyMax(epsilon=1.0, scale_factor=-1)
    with pytest.raises(ValueError, match="n must be >= 1"):
        exact_loss_two(0, 1.0)
    with pytest.raises(ValueError, match="n / scale"):
        exact_loss(3, 1024, 1.0)
