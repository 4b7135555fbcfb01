"""Saha & Asi: DP-Dueling, learning from preference feedback without compromising user privacy
(specification: shared/papers/dp_dueling.md). The paper has no experiments; every theorem and
lemma is turned into a check (spec section 5).

From Python, :func:`simulate` (module :mod:`.api`) runs Algorithm 1, Algorithm 2 or a baseline on
an instance and returns a typed :class:`DuelingResult`::

    >>> from dpbandits.dueling import f1, simulate
    >>> simulate("rucb", f1(4), None, horizon=1000, runs=2, seed=5).runs
    2

* :mod:`.instances`          the logistic preference model, instances F1-F4 / G1-G4, both regret
                             units, the kappa modes
* :mod:`.ebs_params`         Algorithm 1, DP-EBS-Elimination: the algorithm's steps and its
                             configuration, its variants (the literal one kept as a negative
                             control; A1-NP, A1-NAIVE, A1-LDP) and widths, :class:`EBSConfig` /
                             :class:`EBSParams`
* :mod:`.ebs_reference`      its per-round class (:class:`DPEBSEliminationReference`: the reference
                             engine, in the family's protocol; white-box trace, forced eliminations)
* :mod:`.ebs_fast`           its exact block engine (R9) and :func:`simulate_ebs`
* :mod:`.ebs_result`         the engines' common run / result types and seeding
* :mod:`.ebs_audit`          its black-box audit harness (A5), vectorised over copies
* :mod:`.design`             the G-optimal (D-optimal) design of Algorithm 2: Frank-Wolfe with
                             away steps drives the simulations (no BLAS, the same design on every
                             machine), cvxpy's log-det solution is its cross-check (check A7);
                             Caratheodory support reduction, canonical weights
* :mod:`.mle`                the private norm-constrained logistic MLE
* :mod:`.goptimal_dpdb`      Algorithm 2, GOptimal-DPDB (per-round reference + batched simulator)
* :mod:`.rucb`, :mod:`.rcs`, :mod:`.interleaved_filter`, :mod:`.doubler`, :mod:`.maxinp`
                             non-private baselines (:mod:`.baselines` registry)
* :mod:`.interface`          the family's protocol (select a duel, update with the user's
                             answer), its runner and table; a researcher's class runs through
                             ``simulate(MyClass, ...)``

The paper's experiments (:mod:`.experiments`): :mod:`.experiments.designs` (the specification's
designs, their cells and simulation) and :mod:`.experiments.registry` (their simulation records).

Its checks (:mod:`.checks`): :mod:`.checks.registry` (every check record); :mod:`.checks.alg1`
(Algorithm 1, B1-B9), :mod:`.checks.alg2` (Algorithm 2, C1-C11), :mod:`.checks.audits` (privacy:
white-box bookkeeping A3 / A4, black-box audits A5 with negative controls; A6(b)), and by
subject :mod:`.checks.bintree` (A1, A2), :mod:`.checks.ebs_properties` (A6a),
:mod:`.checks.lemmas` (Lemmas 6 and 10), :mod:`.checks.lower_bound` (LB, B7-F1-MATRIX), :mod:`.checks.frontier` (LB-FRONTIER),
:mod:`.checks.kappa` (kappa), :mod:`.checks.solver` (A7, A8). A researcher's class is audited by
:mod:`.checks.class_audit`, whose power is measured on the leak classes of :mod:`.checks.leaks`.
"""

_API = {name: "dpbandits.dueling.api" for name in ("simulate", "DuelingResult", "ALGORITHMS", "config_for")}
_API.update({name: "dpbandits.dueling.instances" for name in ("f1", "f2", "f3", "f4", "g1", "g2", "g3",
                                                              "FiniteInstance", "LinearInstance")})
_API.update({"EBSConfig": "dpbandits.dueling.ebs_params", "GOptConfig": "dpbandits.dueling.goptimal_dpdb"})
__all__ = list(_API)


def __getattr__(name):
    """The entry point, its types and the instance generators, imported on first use (PEP 562):
    importing one module of the package does not import every engine, and a job's code digest
    (:mod:`dpbandits.workflow.provenance`, which reads import statements) covers only what it imports."""
    if name in __all__:
        import importlib

        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
