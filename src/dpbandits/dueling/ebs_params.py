"""Algorithm 1 of the dueling paper, DP-EBS-Elimination (Saha & Asi 2024, arXiv 2403.15045v1,
section 3; specification ``dp_dueling.md`` sections 2.1, 2.2 with resolutions R1-R9).

Round t, survivors S (sorted), effective counts n(i), left-play counters C^i:

1. left arm  a_t = argmin_{i in S} n(i), ties to the smallest index (R5);
2. right arm b_t ~ Uniform(S) (may equal a_t);
3. o_t ~ Ber(P(a_t, b_t)) (1 = the left arm wins);
4. (R1) push the element o_t to C^{a_t} whatever its value; n(a_t) += 1;
5. B~(i) = (latest output of C^i) / n(i);
6. UCB/LCB(i) = B~(i) +- rad(n(i)) for all i in S, +-inf when n(i) = 0 (R4);
7. (R3) E = {i in S: UCB(i) < max_{j in S} LCB(j)} is removed at once; for every survivor j and
   every i in E (increasing i): n(j) -= N(j, i) and the element -W(j, i) is pushed to C^j, where
   N(j, i), W(j, i) count the duels (j, i) and the wins of j in them;
8. when |S| = 1 the remaining arm is played as (i, i) until T.

Natural log everywhere, log2 only for the tree depth: T_max = T + K, L = floor(log2 T_max) + 1.

Variants (``EBSConfig.variant``):

* ``r1`` (default) -- the specification's privacy fix R1 above, eps_c = counter_share * eps per
  counter (eps/4 by default). Every o_t enters at most two elements, both in C^{a_t}, with
  coefficients +1 and -1, so the algorithm is (2 L eps_c / L) = eps/2-DP (R1 accounting).
* ``literal`` -- step 4 of the paper read literally with own-index streams: the element +1 is
  pushed only when o_t = 1 (subtraction elements as in r1). The stream length then reveals o_t:
  the negative control (ii) of audit A5.
* ``nonprivate`` (A1-NP) -- exact sums, no counters, privacy radius 0 (epsilon ignored, may be inf).
* ``naive`` (A1-NAIVE) -- as r1 but each counter gets eps_c = eps / (2K) (``counter_share``
  ignored), widths computed with that eps_c.
* ``ldp`` (A1-LDP, Remark 3) -- randomized response o~ = o w.p. e^eps/(1+e^eps), debiased
  o^ = ((e^eps+1) o~ - 1)/(e^eps - 1), estimate sum o^ / n with exact subtraction, no tree, radius
  coth(eps/2) sqrt(log(KT/delta)/n).

Confidence radius rad(n) = A / sqrt(n) + B / n (``EBSConfig.width``; delta defaults to 1/T; all
privacy radii use the per-counter eps_c, so that with eps_c = eps/4 ``paper`` is the spec's
16 log(KT/delta) log^2.5 T / (n eps)):

* ``paper``          A = sqrt(log(KT/delta)), B = 4 log(KT/delta) log^2.5(T) / eps_c (R2);
* ``paper_literal``  B = 4 log(log(K/delta)) log^2.5(T) / eps_c (the algorithm box's constant);
* ``calibrated``     B = lambda(delta') = b max(sqrt L, sqrt ln(2/delta')) sqrt(8 ln(2/delta')),
  b = L / eps_c, delta' = delta / (K T_max) (spec 2.1, Chan-Shi-Song Cor. 2.9);
* ``scaled``         width_scale x paper;
* ``audit``          A = audit_rho, B = 0 (no statistical radius): aggressive post-processing used
  only by the black-box audits A5 (privacy does not depend on widths; CIs are not valid here).

This module holds the algorithm's configuration (:class:`EBSConfig`) and the constants derived
from it for one (K, T) (:class:`EBSParams`). The engines that run it: :mod:`.ebs_reference`
(per round) and :mod:`.ebs_fast` (exact block engine, :func:`~.ebs_fast.simulate_ebs`); their
common result type: :mod:`.ebs_result`; the A5 audit harness: :mod:`.ebs_audit`.

Choices the specification leaves open (documented deviations):

* all privacy radii are written with the per-counter eps_c (``paper`` = 4 log(KT/delta)
  log^2.5 T / (n eps_c), the spec's 16/(n eps) at eps_c = eps/4); so the "tight" ablation
  (counter_share = 0.5) also halves the privacy radius, and ``naive`` scales it by 2K/4;
* when several arms are eliminated in one round (R3), each survivor j receives one element
  -W(j, i) per eliminated i (increasing i); o_t still enters at most two elements;
* ``literal`` differs from r1 only in step 4 (its subtraction elements are those of r1);
* b_t = S[floor(u |S|)] with u uniform on the 2^-53 grid (bias <= |S| 2^-53), so that both
  engines read the same uniforms whatever |S| is;
* a CI violation is checked once per round, after the update and before elimination, over the
  survivors with n(i) > 0 (R4 bounds are infinite otherwise);
* ``left_plays`` and ``plays`` include the post-commit rounds (i^, i^) (two plays per round);
  ``elim_count`` of the surviving arms is their count at commit (or at T);
* epsilon > 1 is allowed and flagged by ``EBSConfig.outside_theorem``; T > K is enforced (R8).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["VARIANTS", "WIDTHS", "COUNTER_VARIANTS", "EBSConfig", "EBSParams"]

VARIANTS = ("r1", "literal", "nonprivate", "naive", "ldp")
WIDTHS = ("paper", "paper_literal", "calibrated", "scaled", "audit")
COUNTER_VARIANTS = ("r1", "literal", "naive")


def _check_positive(name: str, value, allow_inf: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(v) or v <= 0 or (math.isinf(v) and not allow_inf):
        rng = "(0, inf]" if allow_inf else "(0, inf) (finite)"
        raise ValueError(f"{name} must be in {rng}, got {value!r}")
    return v


@dataclass(frozen=True)
class EBSConfig:
    """Configuration of DP-EBS-Elimination (see the module docstring for the formulas).

    variant:          one of ``VARIANTS`` (default ``r1``, the spec's R1 semantics).
    epsilon:          privacy parameter, > 0; ``inf`` only for ``nonprivate`` (where it is ignored).
                      Values > 1 are allowed but outside Lemmas 1-2 (see ``outside_theorem``).
    delta:            confidence, in (0, 1/2]; ``None`` means 1/T.
    width:            one of ``WIDTHS`` (used by the counter variants r1/literal/naive; the
                      nonprivate and ldp variants have fixed radii and ignore it).
    width_scale:      multiplier of the ``paper`` width for ``width="scaled"``, > 0.
    counter_share:    per-counter budget eps_c = counter_share * eps for r1/literal, in (0, 1]
                      (0.25 = eps/4, the paper; 0.5 = the "tight" ablation).
    noise_multiplier: multiplies the Laplace scale of every tree node, >= 0; 1 is the real
                      mechanism, 0 the noiseless negative control (i) of A5. Widths are unchanged.
    audit_rho:        rho of ``width="audit"`` (radius rho / sqrt(n)), > 0; required there.
    """

    variant: str = "r1"
    epsilon: float = 1.0
    delta: float | None = None
    width: str = "calibrated"
    width_scale: float = 1.0
    counter_share: float = 0.25
    noise_multiplier: float = 1.0
    audit_rho: float | None = None

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        eps = _check_positive("epsilon", self.epsilon, allow_inf=True)
        if math.isinf(eps) and self.variant != "nonprivate":
            raise ValueError(f"epsilon must be finite (in (0, inf)) for variant {self.variant!r}; "
                             "epsilon = inf is allowed only for 'nonprivate'")
        object.__setattr__(self, "epsilon", eps)
        if self.delta is not None:
            d = float(self.delta)
            if not 0 < d <= 0.5:
                raise ValueError(f"delta must be None (= 1/T) or in (0, 1/2], got {self.delta!r}")
            object.__setattr__(self, "delta", d)
        if self.width not in WIDTHS:
            raise ValueError(f"width must be one of {WIDTHS}, got {self.width!r}")
        object.__setattr__(self, "width_scale", _check_positive("width_scale", self.width_scale))
        share = _check_positive("counter_share", self.counter_share)
        if share > 1:
            raise ValueError(f"counter_share must be in (0, 1], got {self.counter_share!r}")
        object.__setattr__(self, "counter_share", share)
        nm = float(self.noise_multiplier)
        if not (math.isfinite(nm) and nm >= 0):
            raise ValueError(f"noise_multiplier must be in [0, inf) (finite), got {self.noise_multiplier!r}")
        object.__setattr__(self, "noise_multiplier", nm)
        if self.width == "audit":
            if self.audit_rho is None:
                raise ValueError("audit_rho must be given (in (0, inf)) when width='audit'")
            object.__setattr__(self, "audit_rho", _check_positive("audit_rho", self.audit_rho))
        elif self.audit_rho is not None:
            object.__setattr__(self, "audit_rho", _check_positive("audit_rho", self.audit_rho))

    @property
    def uses_counters(self) -> bool:
        return self.variant in COUNTER_VARIANTS

    @property
    def outside_theorem(self) -> bool:
        """True for private runs with epsilon > 1 (Lemmas 1-2 assume epsilon <= 1, R8)."""
        return self.variant != "nonprivate" and self.epsilon > 1

    def label(self) -> str:
        return (f"{self.variant}/eps={self.epsilon:g}/width={self.width}"
                + (f"x{self.width_scale:g}" if self.width == "scaled" else "")
                + (f"/rho={self.audit_rho:g}" if self.width == "audit" else ""))


@dataclass(frozen=True)
class EBSParams:
    """Derived constants for one (K, T): rad(n) = stat / sqrt(n) + priv / n."""

    k: int
    horizon: int
    delta: float
    t_max: int
    levels: int
    eps_counter: float  # nan for the variants without counters
    noise_scale: float  # Laplace scale of a tree node (0 if none)
    stat: float
    priv: float
    ldp_flip: float  # randomized-response flip probability (ldp only)
    ldp_a: float  # o^ = ldp_a * o~ - ldp_b
    ldp_b: float

    @classmethod
    def build(cls, config: EBSConfig, k: int, horizon: int) -> EBSParams:
        k, T = int(k), int(horizon)
        if k < 2:
            raise ValueError(f"K must be >= 2, got {k}")
        if k >= T:
            raise ValueError(f"horizon must be > K (Theorem 1, R8), got T={T}, K={k}")
        delta = config.delta if config.delta is not None else 1.0 / T
        t_max = T + k
        levels = t_max.bit_length()  # floor(log2 T_max) + 1
        log_ktd = math.log(k * T / delta)
        eps = config.epsilon
        eps_c, scale, flip, la, lb = math.nan, 0.0, 0.0, 1.0, 0.0
        stat = math.sqrt(log_ktd)
        priv = 0.0
        if config.variant == "ldp":
            stat = math.sqrt(log_ktd) / math.tanh(eps / 2)  # coth(eps/2) sqrt(log(KT/delta))
            ee = math.exp(eps)
            flip = 1.0 / (1.0 + ee)
            la, lb = (ee + 1) / (ee - 1), 1.0 / (ee - 1)
        elif config.uses_counters:
            eps_c = eps / (2 * k) if config.variant == "naive" else eps * config.counter_share
            scale = config.noise_multiplier * levels / eps_c
            paper = 4 * log_ktd * math.log(T) ** 2.5 / eps_c
            if config.width == "paper":
                priv = paper
            elif config.width == "paper_literal":
                priv = 4 * math.log(math.log(k / delta)) * math.log(T) ** 2.5 / eps_c
            elif config.width == "scaled":
                priv = config.width_scale * paper
            elif config.width == "calibrated":
                b = levels / eps_c
                l2 = math.log(2.0 / (delta / (k * t_max)))
                priv = b * max(math.sqrt(levels), math.sqrt(l2)) * math.sqrt(8 * l2)
            else:  # audit
                stat, priv = float(config.audit_rho), 0.0
        return cls(k, T, float(delta), t_max, levels, eps_c, scale, stat, priv, flip, la, lb)

    def radius(self, n):
        """rad(n) = stat / sqrt(n) + priv / n (n >= 1)."""
        n = np.asarray(n, dtype=float)
        return self.stat / np.sqrt(n) + self.priv / n
