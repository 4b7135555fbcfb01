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
* :mod:`.ebs_params`         Algorithm 1, DP-EBS-Elimination: the algorithm, its variants (the
                             literal one kept as a negative control; A1-NP, A1-NAIVE, A1-LDP) and
                             widths, :class:`EBSConfig` / :class:`EBSParams`
* :mod:`.ebs_reference`      its per-round reference engine (white-box trace, forced eliminations)
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
* :mod:`.check_registry`     every check of the paper (the workflow's registry); the checks
                             without bandit simulation live by subject:
                             :mod:`.bintree_checks` (A1, A2), :mod:`.ebs_property_checks` (A6a),
                             :mod:`.lemma_checks` (Lemmas 6 and 10), :mod:`.lower_bound_checks`
                             (LB, B7-F1-MATRIX), :mod:`.kappa_checks` (kappa)
* :mod:`.audits`             privacy: white-box bookkeeping A3 / A4, black-box audits A5 with
                             negative controls; A6(b) unbiasedness after eliminations
* :mod:`.alg1_checks`        Algorithm 1 checks B1-B9
* :mod:`.alg2_checks`        Algorithm 2 checks C1-C11
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
