"""Nikolakakis, Kalogerias, Sheffet & Sarwate: quantile multi-armed bandits, optimal best-arm
identification and a differentially private scheme (specification:
shared/papers/quantile_bandits.md).

From Python, :func:`simulate` (module :mod:`.api`) runs any of the paper's algorithms (or the
specification's baselines) on a quantile instance and returns a typed :class:`QuantileResult`
with explicit ``correct`` and ``censored`` fields::

    >>> from dpbandits.quantile import make_instance, simulate
    >>> simulate("dp_seq", make_instance("disc", 0.4, 0.1875), epsilon=1.0, runs=2, seed=3).runs
    2

Modules:

* :mod:`.arms`, :mod:`.instances`, :mod:`.gap`  the arms (left quantile functions), the
  instance generators of spec 2.6 and the gap of Definition 2 (closed forms and bisection);
* :mod:`.seq`       Algorithm 1, SEQ (per-step reference and a compiled order-statistic engine);
* :mod:`.epoch_seq` the non-private epoch variant;  :mod:`.dp_seq`  Algorithm 2, DP-SEQ, with its
  exact per-epoch privacy loss; :mod:`.sources`, :mod:`.streams`  order statistics and streams;
* :mod:`.qpac`, :mod:`.qlucb`, :mod:`.max_q`  baselines of the specification (not in the paper);
* :mod:`.interface` the family's protocol (``select`` / ``update`` / ``done`` / ``result``), which a
  per-sample class of every algorithm above implements, and its runner;
* :mod:`.experiments` the paper's designs (:mod:`.experiments.designs`), Figures 1-4
  (:mod:`.experiments.figures`) and their records (:mod:`.experiments.registry`);
* :mod:`.checks` the check records (:mod:`.checks.registry`) and the check modules
  (:mod:`.checks.seq`, :mod:`.checks.dp`, :mod:`.checks.analytic`, :mod:`.checks.audits`, ...).
"""

_API = {name: "dpbandits.quantile.api" for name in (
    "simulate", "QuantileResult", "ALGORITHMS", "SEQParams", "EpochSEQParams", "DPSEQParams", "QPACParams",
    "QLUCBParams", "MaxQParams", "default_cap")}
_API.update({name: "dpbandits.quantile.instances" for name in ("make_instance", "QuantileInstance")})
__all__ = list(_API)


def __getattr__(name):
    """The entry point and its types, imported on first use (PEP 562): importing one algorithm
    module of the package does not import every engine, and a job's code digest
    (:mod:`dpbandits.workflow.provenance`, which reads import statements) covers only what it imports."""
    if name in __all__:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
