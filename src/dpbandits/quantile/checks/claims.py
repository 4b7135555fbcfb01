"""The claim inventory of the quantile paper (Nikolakakis, Kalogerias, Sheffet & Sarwate): every
claim the paper makes, where it makes it, and the check rows of ``reports/checks.csv`` that test
it (:mod:`dpbandits.evidence.inventory` defines the records).

How to read it. :data:`CLAIMS` lists the paper's numbered results (Theorems 1-9, Lemmas 1-2,
Propositions 1-2, Corollary 1, Remark 1), the proof steps the project found wrong or could not
follow, the remarks of the text that state something checkable, and one claim per distinct
reading of Figures 1-4 (the paper has no tables). ``lines`` are the first and last line of the
statement in ``quantile_bandits.txt``; ``statement`` is our paraphrase. A claim names the rows
that test it in ``checks``, or says in ``unchecked`` why no row does. Several rows that restate
one finding (a theorem re-tested on every figure's grid, three statistics of one scaling fit)
sit on one claim, so the claim counts once. ``root_cause`` marks a claim whose verdict follows
from another claim's finding (Theorem 8 from Theorem 7(b) and line 8 of Algorithm 2).
``note`` says what the rows do and do not test: power shown only against a straw man, a verdict
fixed by a choice the paper leaves open, a row whose statistic is not exactly the claim.

:data:`APART` lists the rows that are not a test of a claim of the paper: tool validations
(control), bookkeeping identities, statistics the algorithm's own constants fix and the runs of
comparison-only code under order-preserving maps (identity), the specification's readings and
repairs (specification), and diagnostics beyond the paper (addition). DP-SEQ's scaling rows in 1/eps and K are identities: line 8's epoch size, line 14's
noise scale and line 16's threshold all carry the same factor, so the elimination epochs do not
move and the pulls scale by arithmetic.

Definitions 1-4, statements about prior work that the paper cites rather than shows, and the
pure typos of the specification's errata list (section 7.1) are not listed; typos inside a
proof are in the note of the result they belong to.
"""

from __future__ import annotations

from dpbandits.evidence.inventory import CountedApart, PaperClaim

__all__ = ["CLAIMS", "APART"]

# the reasons shared by several claims
_OVER_ALL = "quantifies over every algorithm (or every delta-PAC policy); no finite experiment on one algorithm tests it"

CLAIMS: tuple[PaperClaim, ...] = (
    # ------------------------------------------------------------------ concentration (Sec. III, App. B)
    PaperClaim(
        "Thm1", "Section III, Theorem 1", (89, 97), "upper_bound",
        "For any n and any zeta between sqrt(log(2/delta)/(2n)) and min(q, 1-q), the q-quantile lies outside "
        "[X_(floor(n(q-zeta))), X_(ceil(n(q+zeta)))] with probability at most delta, for discrete and continuous laws.",
        checks=("B1",),
        note="B1: 594 (law, q, delta', n) cells, including laws with an atom at the quantile (Bernoulli, Poisson, "
             "DISC), 0 cells above target; worst miss rate is 0.24 of its target, so the bound is loose and the Holm test has power "
             "only against gross violations. Theorem 9 (Appendix B) restates this theorem for its proof."),
    PaperClaim(
        "Thm9", "Appendix B, Theorem 9", (632, 640), "upper_bound",
        "The concentration bound of Theorem 1, restated word for word where it is proved.",
        unchecked="a restatement of Theorem 1 (identical hypotheses and conclusion), counted once, under Thm1 (B1)"),
    PaperClaim(
        "Prop2", "Appendix B, Proposition 2", (613, 621), "property",
        "For the left quantile, the mass strictly below F^-1(q) is at most q and the mass strictly above it is at "
        "most 1-q.",
        unchecked="a textbook property of the left quantile, used only inside Theorem 1's proof; no row tests it "
                  "(A1, a control, validates the code's quantile conventions)"),
    PaperClaim(
        "Lem1", "Section IV-C, Lemma 1", (209, 217), "upper_bound",
        "With D(n) = sqrt(log(4Kn^2/delta)/(2n)), the event that every arm's interval at every n >= n_* covers its "
        "q-quantile fails with probability at most delta.",
        checks=("B2",),
        note="B2 follows paths from n_* to 1e4 only (not to infinity); 0 path misses, worst upper bound 0.03 delta: "
             "the union bound is very loose, and the test has power only against violations of order delta."),
    # ------------------------------------------------------------------ the gap (Sec. IV-B, App. A, C)
    PaperClaim(
        "Thm2", "Section IV-B, Theorem 2", (151, 153), "property",
        "When Delta < min(q, 1-q)/2, the gap of Definition 2 equals the total-variation distance to a quantile flip.",
        checks=("A3", "A3-CONSTRUCT"),
        note="A3 computes d_flip by the specification's one-dimensional threshold form (section 1.3), not by the "
             "infimum over pairs of the definition; A3-CONSTRUCT builds explicit flipped pairs on DISC within "
             "Delta + eta, confirming the <= direction and the formula's witnesses. The >= direction rests on the "
             "threshold form's derivation. Power: the identity off by a factor 2 either way (d_flip = Delta/2 or "
             "2 Delta, the slip a total-variation convention with or without its 1/2 would make), which the same "
             "rules FAIL on the same cases."),
    PaperClaim(
        "Thm2-pushpull", "Appendix A, proof of Theorem 2 (eta-push and eta-pull)", (599, 599), "proof_step",
        "Moving eta of mass across the quantile (push or pull) gives a law at TV distance eta whose q-quantile is "
        "F^-1(q + eta) (resp. F^-1(q - eta)).",
        unchecked="a proof step; no row builds the paper's push or pull. The specification notes that the push can "
                  "need mass from an empty interval when an atom sits at the quantile; A3-CONSTRUCT uses the "
                  "specification's threshold construction instead"),
    PaperClaim(
        "Thm2-zero", "Section IV-B, after Theorem 2 (also Section IV-B2)", (155, 155), "property",
        "When the gap is zero no algorithm can tell which arm has the higher q-quantile, at any sample size "
        "(success probability at most 1/2).",
        unchecked=_OVER_ALL + "; B8 shows only that SEQ does not stop on a zero-gap instance (claim Sec1-nonterm)"),
    PaperClaim(
        "Lem2", "Appendix A, Lemma 2", (581, 583), "property",
        "If two laws are at TV distance eta, the q-quantile of one lies between the (q - eta)- and (q + eta)-quantiles "
        "of the other, for q in (eta, 1 - eta).",
        checks=("A4",),
        note="Random pairs on a 20-point support; power against a half-width sandwich (5361 violations)."),
    PaperClaim(
        "Prop1", "Section IV-B1, Proposition 1", (167, 169), "property",
        "For L-Lipschitz, strictly increasing CDFs the gap is at most (L/2) times the difference of the q-quantiles.",
        checks=("A5",),
        note="Gaussian pairs only (L = the larger density's maximum); power against the constant L/4 "
             "(96 of 225 cases violated)."),
    PaperClaim(
        "Cor1", "Appendix C, Corollary 1", (691, 737), "property",
        "Case split on the right quantile of the suboptimal arm: continuous there, or a jump below, at or above the "
        "best arm's quantile, each case saying whether some A > 0 separates the quantiles at q - A and q + A "
        "(so whether Delta > 0).",
        unchecked="no row tests the case split; A2 (a control) computes gaps of instances in several cases (ZG with "
                  "Delta = 0, BERN12, DISC) against closed forms but does not compare them with the corollary's "
                  "predictions"),
    PaperClaim(
        "Fig1-median", "Section IV-B1, Figure 1 (Gaussian panel)", (159, 159), "figure",
        "For the two centred Gaussians the gap is zero at the median (both laws are symmetric) and symmetric in q.",
        checks=("F1",),
        note="F1 is one deterministic row that computes the gap curves and judges four readings (0 violated); "
             "this reading is a property of symmetric laws that A2 (a control) also checks. Power: the stated "
             "orders reversed (the exponential curves' easiest level mirrored below 1/2, the parameters in reverse "
             "order), which the same readings FAIL; the Gaussian symmetry and the tails are not perturbed."),
    PaperClaim(
        "Fig1-peak", "Section IV-B1, Figure 1", (159, 159), "figure",
        "For both panels the easiest level q* (largest gap) lies strictly between 1/2 and 1 (and at 1 - q* for the "
        "Gaussian).",
        checks=("F1",),
        note="F1's reading on the chosen parameters (Gaussian sigma* in {2.5, 3, 4, 6}, exponential lambda* in "
             "{0.8, 0.5, 0.25, 0.1}; the paper does not give them)."),
    PaperClaim(
        "Fig1-tails", "Section IV-B1, Figure 1", (159, 159), "figure",
        "The problem becomes hard again in the tails: the gap falls towards zero as q nears 0 or 1.",
        checks=("F1",),
        note="F1 reads 'hard' as a gap at q = 0.005 and 0.995 below a quarter of the curve's maximum (a chosen "
             "threshold)."),
    PaperClaim(
        "Fig1-rate", "Section IV-B1, Figure 1 (exponential panel)", (159, 159), "figure",
        "For the exponential pair a larger difference in rates makes the problem easier (a larger gap).",
        checks=("F1",),
        note="F1 checks the gap pointwise non-decreasing in the parameter for both panels."),
    PaperClaim(
        "Fig2-gap", "Section IV-B2, Figure 2 (upper panel, caption)", (199, 199), "figure",
        "On the discrete instance of Figure 2 the gap is min{l3 - q, q - l1}, whatever the quantile difference xi.",
        unchecked="only A2, a tool validation (control), evaluates it: the gap engine agrees with this closed form "
                  "for xi = 1 and 1e-5 to 5e-14; a control cannot count as a test of the paper"),
    PaperClaim(
        "Fig2-xi", "Section IV-B1 and Figure 2 (lower panel)", (165, 165), "figure",
        "The quantile difference can be made arbitrarily small (xi = 1 vs 1e-5) while the gap and SEQ's number of "
        "samples stay the same.",
        checks=("F2-EQUAL",),
        note="F2-EQUAL: equivalence of means on independent runs (TOST against the stated equality off by a "
             "factor 1.25). SEQ only compares samples, so the two laws give identical run distributions by "
             "construction and F2-EQUAL can fail only by chance; the pathwise identity under common random numbers "
             "(A10, F2-IDENTITY) confirms that the implementation reads no values and is counted apart as an "
             "identity (its earlier power, runs without common random numbers differing, was a straw man)."),
    PaperClaim(
        "Intro-tails", "Section I", (31, 31), "property",
        "Unlike the mean problem, the complexity of the quantile problem does not depend on the tails or on the range "
        "of the support, only on the gap.",
        checks=("F4A-EQUAL", "D3-SLOPE-Q50", "D3-SLOPE-Q75"),
        note="F4A-EQUAL: SEQ needs the same samples on log-normal as on Gaussian arms (the paper's own heavy-tail "
             "example, Section VI); D3-SLOPE-* show SEQ's samples tracking Theorem 4's rate on Cauchy arms, an "
             "instance the project added. A10's monotone maps (e^x, 1e6 x + 7, x^3) change range and tails and "
             "leave SEQ's runs identical, an implementation identity counted apart."),
    PaperClaim(
        "Sec4B2-BERN", "Section IV-B2 (also Section I-A1)", (194, 194), "property",
        "On the two-arm example with a {1, 2} fair coin against the constant 2, the gap is positive at q = 1/2 (where "
        "the earlier gap is zero) and SEQ terminates: a discontinuity at the level does not make the problem hard.",
        checks=("D1-SEQ",),
        note="D1-SEQ: 0 errors or censored runs in 200 (q = 1/2 and 0.3); B3's BERN12 cell (q = 1/2) shows the same. "
             "The gap's value (Delta = q) is computed only by A2, a control; the earlier (Szorenyi et al.) gap of "
             "zero is not computed by any row."),
    PaperClaim(
        "Sec1-QPAC", "Section I-A1", (55, 57), "property",
        "Szorenyi et al.'s QPAC with epsilon = 0 does not terminate when the level sits at a discontinuity, because it "
        "uses one empirical quantile and a strict inequality.",
        checks=("D1-QPAC", "D1-VARIANT"),
        note="QPAC is reconstructed by the specification (section 5.1) from two public re-implementations. Under the "
             "strict selection rule every statistic equals 2 at q = 1/2, so non-termination (100 of 100 runs "
             "censored) is fixed by the rule; under the V2 ('<=') rule QPAC stops in 100 of 100 runs (D1-VARIANT, "
             "informational). The PASS is the choice of the strict rule, which matches the paper's description; "
             "the paper itself shows no experiment."),
    # ------------------------------------------------------------------ SEQ (Sec. IV-C)
    PaperClaim(
        "Thm3", "Section IV-C, Theorem 3", (205, 207), "property",
        "SEQ (Algorithm 1) returns the best arm with probability at least 1 - delta.",
        checks=("B3", "F2-CORRECT", "F3A-CORRECT", "F3B-CORRECT", "D3-PAC"),
        note="One finding on five grids: B3 (Gaussian, DISC, LOGN10, MIX, BERN12; 0 errors in 12400 runs), the "
             "correctness of every run of the Figure 2 and 3 grids, and Cauchy arms (an instance the project added). "
             "Observed error rates are 0 against delta in {0.05, 0.2}: the guarantee is loose, and the tests reject "
             "only rates at or above delta."),
    PaperClaim(
        "Thm4", "Section IV-C, Theorem 4", (257, 261), "upper_bound",
        "With probability at least 1 - delta, SEQ stops within C times the sum over suboptimal arms of "
        "(log(K/delta) + log(1/Delta_i))/Delta_i^2 samples, for some constant C.",
        checks=("B4", "F3A-BOUND", "F3B-BOUND"),
        note="With C left open the statement cannot be refuted by finite data; the rows test the explicit form the "
             "proof derives (eq. (18): every suboptimal arm gone by the first n with 2 D(n) + 1/n <= Delta_i), a "
             "stronger statement. B4 on B3's runs, F3A/F3B-BOUND on the Figure 3 grids: 0 violations, max T_i / "
             "n_i^UB = 0.56 (the bound is at least 1.8 times every observed count)."),
    PaperClaim(
        "Thm4-AB", "Section IV-C, proof of Theorem 4, steps (A) and (B) of (14)-(15)", (267, 274), "proof_step",
        "On the good event, the order statistics at the shifted ranks lie beyond the quantiles at levels "
        "q -+ (2 D(n) + 1/n).",
        unchecked="a proof step; the specification finds it does not follow from the event E, which controls only "
                  "level q (extra concentration events would be needed); no row tests it, B4 tests the conclusion"),
    PaperClaim(
        "Fig3-match", "Section VI, Figure 3 (also Section IV-C, after Theorem 4, line 263)", (553, 555), "figure",
        "SEQ's average number of samples follows Theorem 4's explicit rate C (log(K/delta) + log(1/Delta))/Delta^2 "
        "with one constant C across each panel (pulls proportional to 1/Delta^2 up to the log factor).",
        checks=("F3A-C-RANGE", "F3B-C-RANGE", "B5-*"),
        note="One finding, shown by eight rows: the spread of C-hat over the figure grids (F3A/F3B-C-RANGE) and over "
             "the wider DISC and ZG grids of B5, where three statistics of one fit (slope on the rate, slope on "
             "1/Delta, spread of C-hat) restate each other. Power: one more factor log(1/Delta). SEQ stops near "
             "D(n) = Delta, so the rate is the inverse of the code's interval width. The paper's experiments fix "
             "delta, so the dependence on delta (B6, B6-LINEAR) is the specification's reading, counted apart."),
    PaperClaim(
        "Fig3-C32", "Section VI, Figure 3", (555, 555), "figure",
        "The constant that matches both panels of Figure 3 is C = 3/2.",
        checks=("F3A-C-MEDIAN", "F3B-C-MEDIAN", "F3A-REPORT", "F3B-REPORT"),
        note="The paper never states delta and C-hat grows with it: at delta = 0.01 both panels give C-hat within "
             "[1.25, 1.75] (1.41, 1.55); at delta = 0.05 the discrete panel gives 1.81 (outside), at 0.1 both "
             "drift up; read on total pulls C doubles. Both rows are INCONCLUSIVE (undecided by the unstated "
             "delta). The upper panel's settings follow the caption (sigma* = 1 vs 0.5); the text describes "
             "another set-up (sigma_i = 2, sigma* varied)."),
    PaperClaim(
        "Sec1-nonterm", "Section I-A1", (61, 61), "property",
        "When the remaining arms have zero gap (e.g. the best arm was wrongly removed and the rest are identical) SEQ "
        "never terminates, so its delta-PAC bound does not bound the expected number of pulls.",
        checks=("B8",),
        note="B8 runs SEQ on the zero-gap ZG instance (two different laws with Delta = 0, not identical arms): 0 of "
             "200 runs stop before the cap of 5e5 samples per arm, as Lemma 1's good event forces at Delta = 0 (the "
             "two intervals keep overlapping); the row does not test the impossibility for every "
             "algorithm (Thm2-zero)."),
    # ------------------------------------------------------------------ lower bound (Thm 5)
    PaperClaim(
        "Thm5", "Section IV-C, Theorem 5", (291, 295), "lower_bound",
        "There is a K-armed instance with gaps in (0, 1/4) on which every delta-PAC policy needs in expectation at "
        "least the sum over j of 3(1-q)^2/(100 Delta_j^2) log(1/(4 delta)) samples.",
        checks=("B7-PAPER", "B7-KL"),
        note="A lower bound over every policy can be refuted by one policy that beats it but not confirmed by one "
             "that does not. Both rows use one policy, the SPRT oracle that knows the instances (error rates "
             "0.038-0.048 < delta = 0.05): its E[T_j] is 2.6x the paper's bound (gamma <= gamma_0 = 0.0857, where "
             "the proof holds) and 1.7x the exact-KL form log(1/(4 delta))/KL(gamma) (B7-KL, the bound of (29) and "
             "(34) without the false step (30)). Power: the bound violated by a factor 2 where it is tightest (the "
             "oracle's CI scaled to half the bound, [0.49, 0.51]) FAILs the same rule. SEQ is 900-1200x above it (B7-SEQ, counted under "
             "Rem-optimal)."),
    PaperClaim(
        "Thm5-gap", "Section IV-C, proof of Theorem 5, eqs. (25) and (27)", (309, 329), "proof_step",
        "For the atom-plus-uniform mixtures the gap between g^w and g^(w+gamma) is (1-q) gamma/(2 - 2w - gamma), "
        "which on the instance is at least (3/5)(1-q) gamma.",
        checks=("A7-CONST",),
        note="A7-CONST checks the inequality Delta >= (3/5)(1-q) gamma on a (q, gamma) grid; the exact formula (25) is "
             "evaluated only by A2, a control."),
    PaperClaim(
        "Thm5-KL", "Section IV-C, proof of Theorem 5, eqs. (30)-(31)", (340, 350), "proof_step",
        "KL(G^(1/3) || G^(1/3 - 2 gamma)) <= 9 gamma^2 + 18 gamma^3 <= 12 gamma^2 for every gamma < 1/6, via "
        "log(1/(1-x)) <= x + x^2/2 + x^3/3.",
        checks=("A7",),
        note="Erratum (A7, FAIL, exact): the series inequality is false on all of (0, 1), the cubic term should be "
             "72 gamma^3 (not 54), the exact KL exceeds 9 gamma^2 + 18 gamma^3 everywhere, and KL <= 12 gamma^2 "
             "holds only up to gamma_0 = 0.0857 (max KL/(12 gamma^2) on (0, 1/6) = 11.2). The theorem is "
             "existential, so restricting gamma <= gamma_0 repairs it (A7-VALID, the specification's repair, "
             "counted apart)."),
    PaperClaim(
        "Thm5-eq35", "Section IV-C, proof of Theorem 5, eq. (35)", (362, 365), "proof_step",
        "From (34) and (27): E[T_j] >= log(1/(4 delta))/(15 gamma^2) >= 3(1-q)^2/(100 Delta^2) log(1/(4 delta)).",
        checks=("A7-CONST",),
        note="A7-CONST shows the constant 3/100 follows from (34) through 1/(12 gamma^2); the displayed intermediate "
             "1/(15 gamma^2) would give only 3/125, so the displayed chain is inconsistent while its conclusion "
             "holds (given (31), itself valid only for gamma <= gamma_0, Thm5-KL)."),
    PaperClaim(
        "Rem-optimal", "Section IV-C, after Theorem 5", (297, 297), "property",
        "Together Theorems 4 and 5 make SEQ optimal up to log factors, its cost necessarily of order 1/Delta^2, "
        "growing without bound as Delta goes to 0.",
        checks=("B7-SEQ",),
        note="Shown, not judged: a comparison of an upper bound with a lower bound on one instance. B7-SEQ reports "
             "SEQ at 916-1168x Theorem 5's bound on its instance (informational; the ratio falls slowly as gamma "
             "grows, as a log factor would). The 1/Delta^2 growth is Fig3-match's finding."),
    PaperClaim(
        "Rem1", "Section IV-C, Remark 1", (374, 376), "property",
        "An instance-dependent lower bound is left open; the gap at q carries only local information about the CDF.",
        unchecked="states future work; nothing to test"),
    # ------------------------------------------------------------------ DP-SEQ (Sec. V)
    PaperClaim(
        "Sec5-epochs", "Section V-B (design of Algorithm 2)", (413, 413), "property",
        "Since each epoch's size is proportional to all pulls before it, starting every epoch afresh (discarding "
        "earlier samples) costs few extra pulls and lets the epochs share the budget eps by parallel composition.",
        unchecked="no row compares DP-SEQ with a variant that keeps earlier epochs' samples; the privacy side is "
                  "part of Thm6"),
    PaperClaim(
        "Sec5-advcomp", "Section V-A, footnote 8", (409, 409), "privacy",
        "With approximate (eps, delta)-DP and advanced composition the privacy loss could shrink by a factor "
        "sqrt(K); the paper keeps pure DP.",
        unchecked="a remark on a variant the paper does not build; no row tests it"),
    PaperClaim(
        "Sec5-median", "Section V", (399, 399), "property",
        "Quantile queries have global sensitivity as large as the data range (the median of {0, 0, 0, M, M} can "
        "jump to M when one sample changes).",
        unchecked="a textbook example motivating the design; no row tests it (the specification notes the typo "
                  "'from 1 to M' for 'from 0 to M')"),
    PaperClaim(
        "Thm6-sens", "Section V-B, proof of Theorem 6 (also V-A)", (445, 465), "proof_step",
        "The pairwise count max{0, ell*} of Algorithm 2 changes by at most 1 when one reward changes, whatever the "
        "support.",
        checks=("A8",),
        note="1e5 random neighbours on Gaussian, tied-integer and Cauchy samples with extreme replacements (+-inf, "
             "+-1e300, duplicates): max change exactly 1 (attained in 7363 trials), so the bound is tight. "
             "Neighbours are random, not a worst-case search."),
    PaperClaim(
        "Thm6", "Section V-B, Theorem 6", (437, 439), "privacy",
        "DP-SEQ (Algorithm 2) is epsilon-differentially private under continual observation (event level).",
        checks=("A9", "AUDIT-DPSEQ"),
        note="Both rows use the specification's frozen removal (the paper's listing removes arms in place). A9 is "
             "exact on one epoch (m in {2, 3, 5, 10}, q = 1/2, distinct and tied samples): the loss reaches eps only "
             "on tied samples, where one changed sample moves both orders of a pair (on distinct samples it is eps/2), "
             "so the paper's accounting is tight and the x0.5 scale, 2 eps there, is its power. The audit runs two "
             "epochs on m = 2 tied tables, where DP-SEQ's exact loss is eps, and states the leak classes it catches "
             "at its size (its row): noise shrunk, composition across epochs ignored, noise reused across epochs. "
             "The released pull sequence is argued, not tested."),
    PaperClaim(
        "Sec5-support", "Section V-A (also Section I, contributions)", (405, 405), "property",
        "Because DP-SEQ only counts pairwise comparisons, its privacy and its sample complexity do not depend on the "
        "size of the support, so it works for continuous and unbounded laws.",
        unchecked="no row tests it: A10-DP (DP-SEQ under monotone maps, runs identical) is an implementation "
                  "identity counted apart (DP-SEQ reads samples only through comparisons, and its elimination epochs "
                  "on these instances are the same whatever the random numbers); B9 runs DP-SEQ on unbounded laws "
                  "(Gaussian, log-normal) as evidence of use, not of support-freeness"),
    PaperClaim(
        "Thm7a", "Section V-B, Theorem 7(a)", (469, 471), "property",
        "With probability at least 1 - delta DP-SEQ always keeps an optimal arm (it returns the best arm).",
        checks=("B9", "F4B-CORRECT"),
        note="One finding on two grids (B9: DISC, Gaussian, LOGN10, MIX, eps in {0.1, 1}, delta in {0.1, 0.4}; "
             "F4B-CORRECT: Figure 4's LOGN10 runs); 0 errors and 0 guard events. The threshold sits at twice the "
             "noise bound, so errors are far rarer than delta: the tests reject only rates at or above delta."),
    PaperClaim(
        "Thm7b", "Section V-B, Theorem 7(b)", (469, 471), "upper_bound",
        "With probability at least 1 - delta DP-SEQ removes each suboptimal arm a by epoch ceil(log2(1/Delta_a)).",
        checks=("B10",),
        note="Elimination epoch minus the bound: -1 in 9547 arm-runs, 0 in 2453, never later. The proof's typos "
             "(E1/E2 levels without margin, Delta for Gamma_e in (43), '* eps' for '/ eps', the threshold's "
             "constants) are the specification's errata; they do not change the statement."),
    PaperClaim(
        "Thm7-union", "Section V-B, proof of Theorem 7, eq. (41)", (488, 490), "proof_step",
        "Summing the per-epoch failure probabilities delta/(2 e^2) over epochs e >= 0 gives at most delta.",
        unchecked="a proof step; as written the sum starts at e = 0 (an infinite term, and Algorithm 2's line 3 "
                  "allows e = 0, where log(6|A| e^2/delta) is undefined); from e = 1 it is pi^2/12 delta. The "
                  "specification's correction (epochs from 1) is built into the code; no row tests the step"),
    PaperClaim(
        "Thm8", "Section V-B, Theorem 8 (and eq. (46))", (511, 517), "upper_bound",
        "With probability at least 1 - delta DP-SEQ pulls each suboptimal arm O((1/Delta_a^2 + K/(eps Delta_a)) "
        "log((K/delta) log(1/Delta_a))) times (explicitly, with the constant 512 of the proof).",
        checks=("B11-EPOCHSUM", "B11-PAPER"),
        root_cause="Thm7b",
        note="Not an independent finding: a run's pulls are the sum of line 8's epoch sizes up to its elimination "
             "epoch, so T_a <= U^DP_a is Theorem 7(b)'s event read through line 8 (exactly for K = 2; with more "
             "arms up to the smaller |A| of later epochs), and the proof's 512-constant bound dominates U^DP_a "
             "(specification: ratio <= 0.6). Both rows PASS whenever B10 does (max T_a/U^DP_a = 1.000, max ratio "
             "to the 512 bound 0.19); they check the proof's arithmetic on the tested configurations."),
    PaperClaim(
        "Thm8-nonprivate", "Section V-B, after Theorem 8, eq. (45)", (519, 527), "upper_bound",
        "Letting eps grow, Theorem 8 gives the non-private epoch variant's bound O(sum 1/Delta^2 log((K/delta) "
        "log(1/Delta))), which replaces Theorem 4's log(1/Delta) by log log(1/Delta).",
        checks=("B13-NONPRIVATE", "B15-PAC"),
        note="B15-PAC: the non-private epoch variant (reconstructed by the specification, section 2.3; the paper "
             "gives no listing) is delta-PAC, 0 errors. B13-NONPRIVATE: DP-SEQ at eps = 1000 grows like "
             "1/Delta^2.14; its slope equals line 8's epoch sums at the observed elimination epochs (B13-FORMULA, "
             "identity), every run of a point leaving at the same epoch, so its only empirical content is that "
             "the elimination epoch moves by one per halving of Delta (Theorem 7(b)'s finding). The log log "
             "improvement itself is not tested (see Epoch-const)."),
    PaperClaim(
        "Epoch-const", "Section V-B, after Theorem 8 (also Sections I-A and IV-A)", (527, 527), "property",
        "The epoch-based variant buys the log log(1/Delta) factor at the price of much larger constants than SEQ.",
        checks=("B15",),
        note="Shown, not judged: B15 reports Epoch-SEQ / SEQ total pulls from 0.88 to 1.79 over the DISC grid (median "
             "1.29), no criterion; 'much larger' is not visible at these gaps, and neither is the log log gain."),
    # ------------------------------------------------------------------ Figure 4 and the discussion (Sec. VI, VII)
    PaperClaim(
        "Fig4a-equal", "Section VI, Figure 4 (upper panel)", (561, 563), "figure",
        "Gaussian and log-normal arms with the same sigmas have identical gaps and SEQ needs the same number of "
        "samples on both, although the log-normal quantile differences are far larger.",
        checks=("F4A-EQUAL", "F4A-QDIFF"),
        note="F4A-EQUAL's equivalence on independent runs (24 of 24 ratio CIs in [0.8, 1.25]; TOST against the "
             "stated equality off by a factor 1.25); SEQ only compares samples, so equality holds by construction "
             "(A10's pathwise identity and F4A-IDENTITY, its repeat on the figure's pair, are counted apart as "
             "identities). F4A-QDIFF reports the "
             "quantile differences (e.g. 2.56 vs 155 at q = 0.9, sigma* = 4). The equality of the gaps is checked "
             "only by A2 (a control)."),
    PaperClaim(
        "Fig4b-mono", "Section VI, Figure 4 (lower panel)", (567, 567), "figure",
        "DP-SEQ's sample complexity decreases as eps increases.",
        unchecked="true by construction and measured only by an identity row: line 8's epoch size falls with eps and "
                  "the elimination epochs do not move with eps (the 1/eps factor of line 8 is also in the noise "
                  "scale and the threshold), so F4B-MONOTONE's rho = -1 is arithmetic (counted apart)"),
    PaperClaim(
        "Fig4b-gap", "Section VI, Figure 4 (lower panel)", (567, 567), "figure",
        "The gap in expected pulls between DP-SEQ and SEQ shrinks as the quantile level decreases (q = 0.85 vs 0.9).",
        checks=("F4B-ABSDIFF", "F4B-RATIO"),
        note="Two readings disagree: the absolute difference DP - SEQ is smaller at q = 0.85 at every eps (as the "
             "text says), the ratio DP/SEQ (the vertical gap of the log-scale plot) is larger there (ratio of "
             "ratios 0.73-0.77, F4B-RATIO). INCONCLUSIVE. Much of the absolute difference is line 8's larger "
             "first epoch at q = 0.9 (e_* = 3 vs 2)."),
    PaperClaim(
        "Fig4b-cost", "Section VI, Figure 4 (lower panel)", (567, 567), "figure",
        "Privacy is expensive in this example: DP-SEQ needs far more samples than SEQ, leaving room for a less "
        "aggressive epoch schedule.",
        unchecked="true by construction and measured only by an identity row: line 8 fixes DP-SEQ's first epoch "
                  "at K n_e* pulls, tens of times SEQ's mean at eps = 1 (F4B-ABOVE's ratio), so F4B-ABOVE's bar "
                  "DP/SEQ > 1 could not fail (counted apart)"),
    PaperClaim(
        "Sec7-cost", "Section VII (open problem for privacy)", (573, 573), "property",
        "DP-SEQ pulls each suboptimal arm about K/(eps Delta) times more than SEQ; the factor K comes from the "
        "private pairwise comparisons (SEQ has only log K).",
        checks=("B13-PRIVATE", "B14-SEQ"),
        note="Only two of the four factors have an empirical test. B14-SEQ: SEQ's pulls per suboptimal arm do not "
             "grow with K (slope -0.04; power against slope 1). B13-PRIVATE: DP-SEQ's pulls grow like 1/Delta^1.21 "
             "at eps = 0.02; its slope equals line 8's epoch sums at the observed elimination epochs (B13-FORMULA), "
             "with no Monte Carlo spread, so its only empirical content is Theorem 7(b)'s elimination epoch "
             "moving with Delta. The 1/eps and K factors of DP-SEQ are measured only by identity rows (B12, "
             "B14-DP, F4B-SLOPE, counted apart)."),
    PaperClaim(
        "Sec7-contam", "Section VII", (575, 575), "property",
        "The results imply that up to a Delta_i/2 fraction of contaminated samples can be tolerated for any q.",
        unchecked="a remark that follows from Lemma 2; no row tests it (the specification marks it as not a "
                  "workflow check)"),
    PaperClaim(
        "Sec5-UCB", "Section V-A (private UCB)", (407, 407), "property",
        "A tree-based private quantile-UCB would pay polylog(T) instead of DP-SEQ's log log(T) and would need the "
        "horizon in advance.",
        unchecked="an argument about an algorithm the paper neither builds nor runs; no row tests it"),
)

APART: tuple[CountedApart, ...] = (
    # tool validations
    CountedApart("A1", "control",
                 "validates the code's conventions (left quantile, index clamping, the n_* and e_* tables)"),
    CountedApart("A2", "control",
                 "validates the gap engine against closed forms and invariances; it also confirms the paper's closed "
                 "forms for DISC and MIX, which are counted as unchecked (Fig2-gap) for that reason"),
    CountedApart("AUDIT-DPSEQ-CONTROL", "control",
                 "the audit's negative control: DP-SEQ with the Laplace scale x0.25 is caught (its row's bound)"),
    # bookkeeping identities and statistics fixed by the code's constants
    CountedApart("A11", "identity", "run records add up (pulls, epochs, totals): bookkeeping"),
    CountedApart("B13-FORMULA", "identity",
                 "the observed slope equals line 8's epoch sums at the observed elimination epochs: bookkeeping"),
    CountedApart("A10", "identity",
                 "SEQ's runs identical under order-preserving maps with common random numbers: SEQ reads samples only "
                 "through comparisons, so the records are equal whatever the random numbers; a test of the "
                 "implementation, not of the paper (its former power, runs without common random numbers differing, "
                 "was a straw man)"),
    CountedApart("A10-DP", "identity", "A10's identity for DP-SEQ (reference engine), comparison-only as SEQ"),
    CountedApart("F2-IDENTITY", "identity", "A10's pathwise identity repeated on Figure 2's grid"),
    CountedApart("F4A-IDENTITY", "identity", "A10's pathwise identity repeated on Figure 4's pair"),
    CountedApart("B12", "identity",
                 "DP-SEQ's slope on 1/eps (1.000, every run of every point at the same epochs): in the privacy "
                 "regime line 8's epoch size, line 14's noise scale and line 16's threshold all carry the same 1/eps, "
                 "so the elimination epochs do not move with eps and the pulls are 1/eps times a constant"),
    CountedApart("F4B-SLOPE", "identity",
                 "B12's identity on Figure 4's LOGN10 runs (slope 1.000): the 1/eps of line 8 read back"),
    CountedApart("B14-DP", "identity",
                 "DP-SEQ's slope on K - 1 (1.10): line 8's privacy term, the noise scale and the threshold all carry "
                 "m - 1, so the elimination epochs do not move with K and the pulls grow like (K - 1) times line 8's "
                 "log(6 m e^2/delta); power only against slope 0"),
    CountedApart("F4B-MONOTONE", "identity",
                 "rho = -1 of DP-SEQ's pulls with eps: with the epochs fixed (B12), line 8's size falls with eps; its "
                 "power is against shuffled eps labels (a straw man)"),
    CountedApart("F4B-ABOVE", "identity",
                 "min DP/SEQ = 33.6: line 8 alone makes DP-SEQ's first epoch 26 (q = 0.85) and 34 (q = 0.9) times "
                 "SEQ's mean at eps = 1, so the bar DP/SEQ > 1 could not fail"),
    # the specification's readings and repairs
    CountedApart("B6", "specification",
                 "the slope 1/(2 Delta^2) in log(1/delta) is the specification's derivation; Theorem 4 leaves C open"),
    CountedApart("B6-LINEAR", "specification",
                 "the specification's reading that SEQ's samples are linear in log(1/delta) (R^2 >= 0.95): Theorem 4 "
                 "only bounds them from above and the paper's experiments fix delta; INCONCLUSIVE, stability 4/5"),
    CountedApart("F2-MONOTONE", "specification",
                 "the specification's sanity reading of Figure 2 (samples fall as Delta grows), which the paper does "
                 "not state; its power, shuffled Delta labels, is no wrong paper (INCONCLUSIVE no_power)"),
    CountedApart("A7-VALID", "specification",
                 "the specification's repair of Theorem 5 (with the exact KL the 3/100 bound holds up to gamma_1 = "
                 "0.123), reported"),
    # additions beyond the paper
    CountedApart("D2-*", "addition",
                 "SEQ against QPAC, QLUCB and Max-Q on the same streams: context the paper never runs, reported"),
    # the researcher's own algorithms (quantile.extra_algorithms), run beside SEQ or DP-SEQ
    CountedApart("X-*", "user",
                 "a researcher's own algorithm (quantile.extra_algorithms): its audit, its negative control and "
                 "its comparison with the paper's algorithm are the researcher's, never a claim of the paper"),
)
