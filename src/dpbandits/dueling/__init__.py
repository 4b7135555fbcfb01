"""Saha & Asi: DP-Dueling, learning from preference feedback without compromising user privacy
(specification: shared/papers/dp_dueling.md). The paper has no experiments; every theorem and
lemma is turned into a check (spec section 5).

* :mod:`.instances`          the logistic preference model, instances F1-F4 / G1-G4, both regret
                             units, the kappa modes
* :mod:`.ebs_elimination`    Algorithm 1, DP-EBS-Elimination (reference + exact block engine; the
                             literal variant kept as a negative control; A1-NP, A1-NAIVE, A1-LDP)
* :mod:`.design`             the G-optimal (D-optimal) design: cvxpy log-det, Frank-Wolfe,
                             Caratheodory support reduction
* :mod:`.mle`                the private norm-constrained logistic MLE
* :mod:`.goptimal_dpdb`      Algorithm 2, GOptimal-DPDB (per-round reference + batched simulator)
* :mod:`.rucb`, :mod:`.rcs`, :mod:`.interleaved_filter`, :mod:`.doubler`, :mod:`.maxinp`
                             non-private baselines (:mod:`.baselines` registry)
* :mod:`.unit_checks`        mechanism / EBS / errata checks (A1, A2, A6a, Lemmas 6 and 10, kappa)
* :mod:`.audits`             privacy: white-box accounting A3 / A4, black-box audits A5 with
                             negative controls; A6(b) unbiasedness after eliminations
* :mod:`.alg1_checks`        Algorithm 1 checks B1-B9
* :mod:`.alg2_checks`        Algorithm 2 checks C1-C11
"""
