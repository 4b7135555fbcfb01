"""The replication notes of the contextual paper (Ma, Jiang, Zhao, Yang & Yu): where this
replication departs from the paper as written and why, the constant the paper leaves open over
which the check rows show their verdicts, and what was easy and what was hard to reproduce. They
quote no value a run writes (the rows give those) and are rendered into
``reports/contextual/replication.md`` by :mod:`dpbandits.evidence.replication`.
"""

from __future__ import annotations

from dpbandits.evidence.replication import Deviation, OpenConstant, ReplicationNotes

__all__ = ["NOTES"]

NOTES = ReplicationNotes(
    deviations=(
        Deviation(
            "Verdicts use the `primary` preset, not the paper's literal constants.",
            ("With the printed tau_s = 2 sqrt(d) 2^(-s/d), bands of 2r, refinement on some arm and no "
             "depth cap the algorithm does not learn at n_P = 160,000 even at eps = 1024 (E-LITERAL, "
             "reported only), so `primary` keeps the paper's faithful LDP randomiser and uniform arm "
             "choice but takes the released code's tau_s scale, band max(r, tau_s), all-arms refinement, "
             "depth cap and warm-up. The paper calls Algorithm 2 tuning-free; these constants act as "
             "tuning choices."),
            claims=("Alg2-tuning-free", "Fig7a-sublinear", "Thm2.6")),
        Deviation(
            "The supplement is not available; its constants and its alternative setting are filled in.",
            ("The exact C_n, the proofs, the implementation details and the extra simulation are in the "
             "supplement, so `primary` writes the radius (14)/(28) with the Laplace and Bernoulli "
             "variances spelled out and the released code's C_n = 2 log2 n (with unit constants (14) "
             "falls far short of its nominal coverage: U-EST-UNIT). The supplement's alternative setting "
             "is rerun on the released code's K = 2 symmetric instance and its sweep over the number of "
             "sources uses settings read from the code."),
            claims=("Prop2.7", "Supp-S1", "Thm2.6")),
        Deviation(
            ("The released code is mimicked by a separate preset, `authors_code`, never used for the "
             "private algorithm's verdicts."),
            ("The published figures were made with code that adds noise only for users inside a bin (not "
             "LDP), uses an over-confident sum-of-cumulative-sums bound and exponential weights; the "
             "mimic serves to compare magnitudes, to ask whether the code reproduces the published "
             "readings, and as the control of the Table 2 pipeline."),
            claims=("Code-reproducible", "Sec4-LDPMAB")),
        Deviation(
            "Experimental settings follow the released code where the text differs.",
            ("30 repetitions instead of the stated 100, policy updates in batches of B users instead of "
             "after every user, the code's reward centres k/(K+1) unless stated (the T-2.6a rows take the "
             "worst of both conventions), and Figure 6 with the code's 10,000 users in batches of 10 "
             "rather than the caption's n_P = 1000. The code and the authors' logs are the only record of "
             "the settings behind the published figures."),
            claims=("Fig6-jumpstart", "Fig7a-sublinear", "Thm2.6")),
        Deviation(
            ("Auxiliary contexts come from the density the text states, with the corrected normalising "
             "constant."),
            ("The printed constant does not normalise the density (erratum E-QNORM), and the released "
             "code's sampler draws transfer exponent d gamma instead of gamma (E-QSAMPLER); the project "
             "samples the stated Q_gamma, so the gamma orderings of Figures 8 and 9 are judged for the "
             "stated exponent and are not a like-for-like comparison with the published panels."),
            claims=("Sec4.1-cnorm", "Gamma-order")),
        Deviation(
            "Jobs and Taxi are replaced by labelled surrogates; Adult's preprocessing is our own.",
            ("Jobs and Taxi cannot be identified from the text, so they are semi-synthetic surrogates "
             "with Table 1's shapes, quoted but not used to judge Table 2. Adult is the real UCI data (US "
             "natives as the target, seven auxiliary sets by region, three features mapped to [0, 1] by "
             "the empirical CDF), choices the paper leaves to its unavailable supplement."),
            claims=("Tab2-best", "Tab2-aux", "Tab2-nonparam", "Tab2-privacy-cost")),
        Deviation(
            "Han et al.'s Linear, the NN and ABSE are reconstructed.",
            ("Their implementations are in the supplement: Linear and NN are inferred from the source "
             "paper and the code's calls, and ABSE, the denominator of Table 2, is Algorithm 2 run "
             "without noise rather than Perchet and Rigollet's algorithm. The Table 2 comparisons "
             "therefore measure these reconstructions as much as the paper's."),
            claims=("Tab2-best", "Tab2-nonparam", "Tab2-privacy-cost")),
        Deviation(
            "A grid far beyond the paper's horizon, labelled as an addition.",
            ("Theorem 2.6 is asymptotic with an unspecified constant, and at the paper's horizons the "
             "faithful algorithm does not leave the uniform policy's regret at small eps, so the "
             "theorem's rate is judged past the onset of learning on a longer factor-2 grid; the figure "
             "readings are still judged at the paper's own settings."),
            claims=("Thm2.6", "Rem-2d")),
    ),
    open_constants=(
        OpenConstant(
            "The radius constant c of C_n = c ln n",
            ("Proposition 2.7 and eq. (28): C_n = c log n_P, 'its exact expression specified in the "
             "proof', which is in the unavailable supplement"),
            "c = 1, 2 and 2/ln 2 (the released code's C_n = 2 log2 n, the value `primary` uses elsewhere)",
            ("F7a-EPS*", "T-2.6-PAST-EPS*", "T-2.6-PAST-D1", "T-2.6-PAST-D3")),
    ),
    easy=(
        ("The user-side randomiser is fully specified in the text (Laplace(4/eps) on U and V for every "
         "active bin and arm), so its privacy could be checked directly: an exact accounting and a "
         "black-box audit with a negative control (P-AUDIT) agree with the claim."),
        ("The erratum in the auxiliary density was exact: a one-line integral shows the printed constant "
         "is the integral of ||x - 1/2||_inf^gamma, not its reciprocal, and the code's density already "
         "uses the right one."),
        ("The released code and the authors' logs fixed what the text omits (batch sizes, repetitions, "
         "the test point, the reward centres), and a line-by-line mimic of the code agrees with the "
         "released code's own means (C-REF-RELEASED); its agreement with the authors' logged means is "
         "less clear-cut (C-REF)."),
        ("Simulating at scale: the Laplace sums of a batch are drawn exactly (Gamma differences, or normal "
         "scale mixtures) and bin counts by binomial thinning, so the paper's grids and a grid far beyond them are cheap, and the "
         "engine is tested in distribution against a plain per-user reference."),
        ("Adult was identified: the US natives among the complete UCI rows match Table 1's target size "
         "exactly, and the data are fetched and pinned by hash."),
    ),
    hard=(
        ("The faithful algorithm never leaves the uniform policy's regret at eps <= 4 within the paper's "
         "horizons at the released code's radius constant, and no radius constant tried makes it "
         "sublinear there, so Figure 7(a) does not reproduce and many figure and table readings have no "
         "power at that floor (root cause Fig7a-sublinear); the published shapes come from code that is "
         "not eps-LDP and whose bound is over-confident."),
        ("The constants: the paper's literal tau_s and bands do not learn at feasible n and C_n is only "
         "in the unavailable supplement, so `primary` had to borrow the released code's thresholds, and "
         "Figure 7(a) and Theorem 2.6 verdicts can depend on the open constant c (the rows show each c's "
         "verdict)."),
        ("Theorem 2.6 could only be judged far past the paper's largest n_P, where a run is costly and "
         "the regime past the onset is short: at eps = 1 it holds too few grid points for a slope, and at "
         "several eps and dimensions the slope's CI cannot separate the theory's exponent from the "
         "tolerance."),
        ("Table 2 rests on reconstructed baselines and on one real dataset with our own preprocessing: "
         "the reconstructed Linear earns more than our non-private ABSE, and even the authors' code "
         "preset does not reproduce the paper's readings through this pipeline (T2-CODE-*), so the rows "
         "it controls are marked unvalidated."),
        ("Separating the paper's algorithm from the released code took a mimic of the code and black-box "
         "audits of its release, its bound and its sampler (E-CODE-LDP, E-CODE-CB, E-QSAMPLER), because "
         "the code departs from the text in several material ways at once."),
    ),
)

