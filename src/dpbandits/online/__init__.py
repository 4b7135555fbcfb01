"""Hu, Huang, Mehta & Hegde: near-optimal algorithms for DP online learning in a stochastic
environment (specification: shared/papers/dp_online_learning.md).

From Python, :func:`simulate` (module :mod:`.api`) runs any of the paper's algorithms, or a
researcher's own class (:mod:`.interface`), at chosen settings and returns a typed
:class:`OnlineResult`::

    >>> from dpbandits.online import simulate
    >>> simulate("anytime_lazy_ucb", [0.9, 0.4], epsilon=1.0, horizon=1000, runs=2, seed=7).runs
    2

One module per algorithm; each holds the plain per-step reference class and the fast engine:

* :mod:`.anytime_lazy_ucb`  Algorithm 1, Anytime-Lazy-UCB (event-driven: analytic index crossings)
* :mod:`.lazy_dp_ts`        Algorithm 3, Lazy-DP-TS (exact chunks, then exact thinning)
* :mod:`.dp_se`             DP-SE, Sajed & Sheffet 2019, beta = 1/T (event-driven by epoch)
* :mod:`.adap_klucb`        AdaP-KLUCB, Azize & Basu 2022, alpha = 3.1 (event-driven by episode)
* :mod:`.ucb1`, :mod:`.ts_beta`  non-private references (UCB1; Algorithm 2, TS with Beta priors)
* :mod:`.rnm_ftnl`, :mod:`.naive_ftnl`  full information: Algorithm 4 and the naive budget split

:mod:`.api` maps algorithm names (as used in the config) to both engines and to their typed
parameters; its ``BANDIT_ALGORITHMS`` are the figures' names and labels.

The paper's experiments (:mod:`.experiments`): the Figures 1-2 grid
(:mod:`.experiments.figure_designs`), the bandit and full-information designs of the checks,
the figures' drawing and the simulation records (:mod:`.experiments.registry`). Its checks
(:mod:`.checks`): the check records (:mod:`.checks.registry`) and the check modules (figure
readings, bandit theory, full information, exact lemma checks, privacy audits).
"""

_API = {name: "dpbandits.online.api" for name in (
    "simulate", "OnlineResult", "ALGORITHMS", "AnytimeLazyUCBParams", "LazyDPTSParams", "DPSEParams",
    "AdaPKLUCBParams", "UCB1Params", "TSBetaParams", "RNMFTNLParams", "NaiveFTNLParams")}
__all__ = list(_API)


def __getattr__(name):
    """The entry point and its types, imported on first use (PEP 562): importing one algorithm
    module of the package does not import every engine, and a job's code digest
    (:mod:`dpbandits.workflow.provenance`, which reads import statements) covers only what it imports."""
    if name in __all__:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
