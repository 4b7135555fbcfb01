"""Ma, Jiang, Zhao, Yang & Yu: locally private nonparametric contextual multi-armed bandits with
transfer learning (spec ``shared/papers/ldp_contextual.md``; paper id ``contextual``).

From Python, :func:`simulate` (module :mod:`.api`) runs LDPMAB in any preset on a synthetic
instance, with auxiliary datasets for Algorithm 3, and returns a typed :class:`ContextualResult`::

    >>> from dpbandits.contextual import BumpInstance, simulate
    >>> simulate("primary", BumpInstance(), epsilon=2.0, horizon=1000, runs=2, seed=4).runs
    2

Algorithms (one module each):

* :mod:`partition` - Algorithm 1, the max-edge dyadic partition;
* :mod:`ldpmab` - Algorithm 2 (LDPMAB) and Algorithm 3 (jump-start transfer, reweighted
  multi-source estimator): the exact, event-driven fast engine; presets in :mod:`config`
  (``literal``, ``primary``, ``authors_code``, ``abse``, ``unit_constants``);
* :mod:`reference` - the plain per-user reference implementation (audit mode), the paper's
  policy in the family's protocol (:mod:`interface`: a server policy and a local randomiser;
  a researcher's policy runs through ``simulate(MyPolicy, ...)``);
* :mod:`randomizer` - the user-side Laplace randomiser and its privacy accounting;
* :mod:`abse` - the non-private ABSE baseline (Algorithm 2 without noise);
* :mod:`linear` / :mod:`nn` - the "Linear" (Han et al. 2021) and "NN" LDP baselines, vectorised
  over repetitions; :mod:`sgd_reference` - the same two per user, policies of the protocol with a
  clipped-gradient local randomiser (``simulate("linear" | "nn", ...)``).

Data: :mod:`instances` (synthetic rewards, the Q_gamma sampler, bin moments), :mod:`realdata`
(Adult loader and download, Jobs/Taxi-shaped CSV loader, semi-synthetic surrogates).
Experiments (:mod:`.experiments`): the paper's simulation jobs (:mod:`.experiments.designs`),
the runs beyond the paper's horizon (:mod:`.experiments.beyond_designs`), Figures 3-9 and Tables
1-2 (:mod:`.experiments.figures`) and their records (:mod:`.experiments.registry`). Checks
(:mod:`.checks`): the check records (:mod:`.checks.registry`) and the check modules
(:mod:`.checks.units`, :mod:`.checks.audits`, :mod:`.checks.theory`, :mod:`.checks.figures`,
:mod:`.checks.beyond`).
"""

_API = {name: "dpbandits.contextual.api" for name in ("simulate", "ContextualResult", "ALGORITHMS")}
_API.update({name: "dpbandits.contextual.instances" for name in ("BumpInstance", "SymmetricInstance")})
_API.update({"Source": "dpbandits.contextual.ldpmab", "LDPMABConfig": "dpbandits.contextual.config"})
__all__ = list(_API)


def __getattr__(name):
    """The entry point, its types and the instances, imported on first use (PEP 562): importing
    one module of the package does not import the engine, and a job's code digest
    (:mod:`dpbandits.workflow.provenance`, which reads import statements) covers only what it imports."""
    if name in __all__:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
