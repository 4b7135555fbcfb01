"""Registry of the mechanism and unit checks of the dueling paper (Saha & Asi 2024) that need no
bandit simulation (specification ``dp_dueling.md`` sections 2.1, 3, 5.2 A1 / A2 / A6(a), 7
errata 4, 13, 15, 16, 24, 31).

Check ids (stable; one claim row each, ``paper = "dueling"``):

===================  =========  ==============================================================
check_id             kind       claim
===================  =========  ==============================================================
A1                   lemma      Lemma 1: (1-delta) quantile of |c_t - S_t| <= 4 log(1/delta) log^2.5 T / eps
A1-CAL               lemma      same quantiles <= the calibrated bound lambda(delta) (spec 2.1)
A1-RATIO             report     conservativeness of Lemma 1: bound / empirical quantile
A1-SLOPE-EPS         lemma      std of c_t - S_t (pooled over t) vs 1/eps: slope in [0.95, 1.05]
A1-SLOPE-L           lemma      pooled std vs the number of levels L: slope in [1.3, 1.7]
A1-SLOPE-POW2        lemma      std at t = 2^j (popcount 1) vs L: slope in [0.9, 1.1]
A2-NODES             privacy    every element lies in exactly L nodes; sensitivity L is used
A2-SCALE             privacy    each completed node gets exactly one Lap(L / eps_c) draw
A2                   privacy    exact log-likelihood ratio of the node vector <= eps_c
A6-P1                lemma      EBS Property (1) on every subset of random logistic instances
A6-P2                lemma      EBS Property (2) in the Appendix form (<= 2 Delta)
A6-P2-MAIN           erratum    EBS Property (2) in the main-text form (<= Delta) is false
A6-MIDDLE            report     B_S(1) - B_S(i) >= Delta(1, i) for middle arms (fails; Lemma 6)
A6-ORDER             lemma      the EBS orders every subset as the utilities do
L6-PAPER             erratum    Lemma 6's count does not force elimination (K = 2 counterexample)
L6-CORR              lemma      the corrected count gives 4 rad <= 0.625 Delta
L10-PAPER            erratum    Lemma 10's "eliminated once xi < Delta / 2" is false (Delta = 3 xi survives)
L10-CORR             lemma      the corrected threshold: survivors have Delta <= 4 xi
B7-F1-MATRIX         lower_bound  instance F1 equals the paper's lower-bound matrix
LB-ALT               erratum    the lower bound's alternative P' is not logistic-realisable (K >= 3)
LB-ALT-FIX           lower_bound  the in-class replacement r'_{i0} = 2 ln 3 has the needed gaps
KAPPA-ALG            theorem    Algorithm 2's kappa equals sigma'(2 (S + 1)) (brute force)
KAPPA-THM            theorem    Theorem 3's kappa equals sigma'(S + 1) (brute force)
KAPPA                erratum    the two kappa definitions differ (5.94x at S = 1)
===================  =========  ==============================================================

This module is the registry of these checks; the check functions live by subject:
:mod:`.bintree_checks` (A1, A2), :mod:`.ebs_property_checks` (A6a), :mod:`.lemma_checks`
(L6, L10), :mod:`.lower_bound_checks` (LB) and :mod:`.kappa_checks` (KAPPA), each
``(rng, scale, **sizes) -> CheckOutput``. :data:`CHECKS` maps a registry key to (function,
{"paper": sizes, "smoke": sizes}), :data:`CLAIM_IDS` to the claim ids it emits, and
:func:`run_check` runs one key at one scale (the workflow dispatches through it).

Sizes (keyword arguments) per registry key:

* ``A1``: ``horizons`` (T grid), ``epsilons``, ``deltas``, ``n_streams`` (streams per (T, eps)
  cell), ``n_boot``. Test-only: ``noise_multiplier``, ``formula`` (``"all_levels"`` = broken
  formula adding the noise of all L nodes that contain t instead of the popcount(t) released
  nodes; ``"unit_sensitivity"`` = Lap(1/eps) per node, the sensitivity-1 bug).
* ``A2``: ``epsilons``, ``horizon`` (stream length of the LLR draws), ``n_draws`` (per eps),
  ``max_lengths`` (T_max grid of the node / scale checks). Test-only: ``noise_multiplier``.
* ``A6a``: ``n_instances``, ``k_min``, ``k_max``, ``scales`` (utility scales s). Test-only:
  ``instances`` (a list of (utilities, preference) pairs replacing the random draw),
  ``counterexample``.
* ``L6``: ``horizons`` (paper-count grid), ``epsilon``; ``corr_horizons``, ``corr_epsilons``,
  ``corr_gaps``, ``corr_ks`` (grid of the corrected count). Test-only: ``paper_constants``,
  ``corr_constants``.
* ``L10``: ``n_trials``, ``n_arms``. Test-only: ``margin`` (the rule's 2), ``threshold``.
* ``LB``: ``ks``. Test-only: ``instance`` (replaces :func:`f1`), ``alt_utility``.
* ``KAPPA``: ``n_samples`` (random search), ``dims``, ``norms`` (S grid), ``n_polish``.
  Test-only: ``alg_closed_form``, ``thm_closed_form``.

Conventions: natural logs (spec 1.1).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpbandits.checks import CheckOutput
from dpbandits.dueling.bintree_checks import check_a1, check_a2
from dpbandits.dueling.ebs_property_checks import check_a6
from dpbandits.dueling.kappa_checks import check_kappa
from dpbandits.dueling.lemma_checks import check_lemma6, check_lemma10
from dpbandits.dueling.lower_bound_checks import check_lower_bound

__all__ = ["CHECKS", "CLAIM_IDS", "run_check"]


CHECKS: dict[str, tuple[Callable[..., CheckOutput], dict[str, dict]]] = {
    "A1": (check_a1, {
        "paper": {"horizons": (2**10, 2**14, 2**18, 2**20), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 200, "n_boot": 2000},
        "smoke": {"horizons": (2**4, 2**7, 2**10), "epsilons": (0.1, 0.5, 1.0),
                  "deltas": (0.1, 0.01), "n_streams": 1000, "n_boot": 500}}),
    "A2": (check_a2, {
        "paper": {"epsilons": (0.1, 0.5, 1.0), "horizon": 32, "n_draws": 10_000},
        "smoke": {"epsilons": (0.5, 1.0), "horizon": 16, "n_draws": 1000,
                  "max_lengths": list(range(1, 65))}}),
    "A6a": (check_a6, {
        "paper": {"n_instances": 200, "k_min": 3, "k_max": 7},
        "smoke": {"n_instances": 30, "k_min": 3, "k_max": 6}}),
    "L6": (check_lemma6, {"paper": {}, "smoke": {}}),
    "L10": (check_lemma10, {"paper": {"n_trials": 100_000}, "smoke": {"n_trials": 10_000}}),
    "LB": (check_lower_bound, {"paper": {"ks": (2, 4, 8, 16, 32, 64)},
                               "smoke": {"ks": (2, 4, 8)}}),
    "KAPPA": (check_kappa, {"paper": {"n_samples": 1_000_000},
                            "smoke": {"n_samples": 50_000, "norms": (1.0,)}}),
}
"""Registry key -> (check function, sizes per scale). Claim ids per key: A1 -> A1, A1-CAL,
A1-RATIO, A1-SLOPE-EPS, A1-SLOPE-L, A1-SLOPE-POW2 (and a figure); A2 -> A2-NODES, A2-SCALE, A2;
A6a -> A6-P1, A6-P2, A6-P2-MAIN, A6-MIDDLE, A6-ORDER; L6 -> L6-PAPER, L6-CORR; L10 -> L10-PAPER,
L10-CORR; LB -> B7-F1-MATRIX, LB-ALT, LB-ALT-FIX; KAPPA -> KAPPA-ALG, KAPPA-THM, KAPPA."""

CLAIM_IDS: dict[str, tuple[str, ...]] = {
    "A1": ("A1", "A1-CAL", "A1-RATIO", "A1-SLOPE-EPS", "A1-SLOPE-L", "A1-SLOPE-POW2"),
    "A2": ("A2-NODES", "A2-SCALE", "A2"),
    "A6a": ("A6-P1", "A6-P2", "A6-P2-MAIN", "A6-MIDDLE", "A6-ORDER"),
    "L6": ("L6-PAPER", "L6-CORR"),
    "L10": ("L10-PAPER", "L10-CORR"),
    "LB": ("B7-F1-MATRIX", "LB-ALT", "LB-ALT-FIX"),
    "KAPPA": ("KAPPA-ALG", "KAPPA-THM", "KAPPA"),
}


def run_check(key: str, rng: np.random.Generator, scale: str, **overrides) -> CheckOutput:
    """Run registry check ``key`` at ``scale`` ("paper" or "smoke"), sizes overridable."""
    function, sizes = CHECKS[key]
    return function(rng, scale, **{**sizes[scale], **overrides})
