"""Hu, Huang, Mehta & Hegde: near-optimal algorithms for DP online learning in a stochastic
environment (specification: shared/papers/dp_online_learning.md).

One module per algorithm; each holds the plain per-step reference class and the fast engine:

* :mod:`.anytime_lazy_ucb`  Algorithm 1, Anytime-Lazy-UCB (event-driven: analytic index crossings)
* :mod:`.lazy_dp_ts`        Algorithm 3, Lazy-DP-TS (exact chunks, then exact thinning)
* :mod:`.dp_se`             DP-SE, Sajed & Sheffet 2019, beta = 1/T (event-driven by epoch)
* :mod:`.adap_klucb`        AdaP-KLUCB, Azize & Basu 2022, alpha = 3.1 (event-driven by episode)
* :mod:`.ucb1`, :mod:`.ts_beta`  non-private references (UCB1; Algorithm 2, TS with Beta priors)

:mod:`.registry` maps algorithm names (as used in the config) to both engines.
"""
