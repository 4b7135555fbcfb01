"""Ma, Jiang, Zhao, Yang & Yu: locally private nonparametric contextual multi-armed bandits with
transfer learning (spec ``shared/papers/ldp_contextual.md``; paper id ``contextual``).

Algorithms (one module each):

* :mod:`partition` - Algorithm 1, the max-edge dyadic partition;
* :mod:`ldpmab` - Algorithm 2 (LDPMAB) and Algorithm 3 (jump-start transfer, reweighted
  multi-source estimator): the exact, event-driven fast engine; presets in :mod:`config`
  (``literal``, ``primary``, ``authors_code``, ``abse``, ``unit_constants``);
* :mod:`reference` - the plain per-user reference implementation (audit mode);
* :mod:`randomizer` - the user-side Laplace randomiser and its privacy accounting;
* :mod:`abse` - the non-private ABSE baseline (Algorithm 2 without noise);
* :mod:`linear` / :mod:`nn` - the "Linear" (Han et al. 2021) and "NN" LDP baselines.

Data: :mod:`instances` (synthetic rewards, the Q_gamma sampler, bin moments), :mod:`realdata`
(Adult loader and download, Jobs/Taxi-shaped CSV loader, semi-synthetic surrogates).
Checks: :mod:`unit_checks`, :mod:`audits`, :mod:`theory_checks`, :mod:`figure_checks`, listed in
:mod:`registry`; drawing: :mod:`figures`. Experiments: :mod:`dpbandits.experiments.contextual`.
"""
