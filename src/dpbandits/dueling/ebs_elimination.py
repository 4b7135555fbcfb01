"""Algorithm 1 of the dueling paper: DP-EBS-Elimination (Saha & Asi 2024, arXiv 2403.15045v1,
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

Engines. :class:`DPEBSEliminationReference` is the plain per-round implementation (one
:class:`~dpbandits.mechanisms.tree_counter.BinaryTreeCounter` per arm, optional white-box trace,
forced eliminations). :func:`simulate_ebs` with ``engine="fast"`` is the exact R9 block engine:
between eliminations the left-arm schedule is deterministic, so a block of rounds is simulated with
numpy (duels, per-arm cumulative sums, tree noise of every stream position, bounds), the first
round that triggers an elimination is located and the block truncated there. Both engines consume
the same random streams in the same way (per round two uniforms from ``duels`` for (b_t, o_t), one
from ``ldp`` for randomized response, and per counter j the Laplace draws of
``BinaryTreeCounter`` in its order from ``counter{j}``), so for the same seed they produce the same
run (up to floating-point rounding of the noisy sums), which is what the tests check, besides
distributional tests. After commit nothing is random, so the cost is proportional to the commit
time, not to T.

:func:`audit_codes` is the vectorised (over copies) harness of the black-box DP audit A5 with a
fixed o-table (spec 1.4).

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from dpbandits.dueling.instances import FiniteInstance
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter
from dpbandits.rng import stream_rngs

__all__ = [
    "VARIANTS",
    "WIDTHS",
    "ENGINES",
    "EBSConfig",
    "EBSParams",
    "EBSResult",
    "EBSTrace",
    "DPEBSEliminationReference",
    "simulate_ebs",
    "run_seed",
    "audit_codes",
    "n_audit_codes",
    "decode_audit_code",
]

VARIANTS = ("r1", "literal", "nonprivate", "naive", "ldp")
WIDTHS = ("paper", "paper_literal", "calibrated", "scaled", "audit")
ENGINES = ("fast", "reference")
COUNTER_VARIANTS = ("r1", "literal", "naive")


# --------------------------------------------------------------------------------------------
# configuration
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------


@dataclass
class _Run:
    """Outcome of one run (internal; stacked into :class:`EBSResult`)."""

    regret_pref: np.ndarray
    regret_util: np.ndarray
    commit_time: int
    chosen: int
    best_eliminated: bool
    ci_violation: bool
    elim_time: np.ndarray
    elim_count: np.ndarray
    left_plays: np.ndarray
    plays: np.ndarray


@dataclass
class EBSResult:
    """Runs of DP-EBS-Elimination stacked over the first axis.

    regret_pref, regret_util: (runs, checkpoints) cumulative pseudo-regret (spec 1.3) from P / r
        at the checkpoints (computed from the actions, not from the realised o).
    commit_time: round at which |S| became 1 (-1 if never); chosen: that arm (-1 if never).
    best_eliminated: the best arm was eliminated; ci_violation: at some round some surviving i had
        its true EBS B_S(i) outside [LCB(i), UCB(i)] (checked after the round's update, before
        elimination, for every survivor with n(i) > 0).
    elim_time (runs, K): elimination round (-1 never); elim_count (runs, K): effective count n(i)
        when i was eliminated, or at commit / at T for the survivors.
    left_plays (runs, K): #{t <= T: a_t = i}; plays (runs, K): #{t: a_t = i} + #{t: b_t = i}
        (after commit the duel (i^, i^) counts twice), Lemma 11's N_T(i).
    """

    instance: str
    config: EBSConfig
    horizon: int
    checkpoints: np.ndarray
    regret_pref: np.ndarray
    regret_util: np.ndarray
    commit_time: np.ndarray
    chosen: np.ndarray
    best_eliminated: np.ndarray
    ci_violation: np.ndarray
    elim_time: np.ndarray
    elim_count: np.ndarray
    left_plays: np.ndarray
    plays: np.ndarray
    engine: str = "fast"

    @property
    def runs(self) -> int:
        return int(self.commit_time.size)

    @classmethod
    def stack(cls, runs: list[_Run], **meta) -> EBSResult:
        arrays = {f.name: np.stack([getattr(r, f.name) for r in runs]) for f in fields(_Run)}
        return cls(**meta, **arrays)

    def _config_columns(self) -> dict:
        c = self.config
        return {"instance": self.instance, "variant": c.variant, "epsilon": c.epsilon,
                "delta": c.delta if c.delta is not None else 1.0 / self.horizon,
                "width": c.width, "width_scale": c.width_scale, "counter_share": c.counter_share,
                "noise_multiplier": c.noise_multiplier, "horizon": self.horizon,
                "engine": self.engine}

    def to_frame(self) -> pd.DataFrame:
        """Tidy rows, one per (run, checkpoint), with the run-level outcomes repeated."""
        r, c = self.regret_pref.shape
        df = pd.DataFrame({
            "run": np.repeat(np.arange(r), c),
            "t": np.tile(self.checkpoints, r),
            "regret_pref": self.regret_pref.ravel(),
            "regret_util": self.regret_util.ravel(),
            "commit_time": np.repeat(self.commit_time, c),
            "chosen": np.repeat(self.chosen, c),
            "best_eliminated": np.repeat(self.best_eliminated, c),
            "ci_violation": np.repeat(self.ci_violation, c),
        })
        for k, v in self._config_columns().items():
            df[k] = v
        return df

    def arms_frame(self) -> pd.DataFrame:
        """Tidy rows, one per (run, arm): elimination time and count, left plays, plays."""
        r, k = self.elim_time.shape
        df = pd.DataFrame({
            "run": np.repeat(np.arange(r), k),
            "arm": np.tile(np.arange(k), r),
            "elim_time": self.elim_time.ravel(),
            "elim_count": self.elim_count.ravel(),
            "left_plays": self.left_plays.ravel(),
            "plays": self.plays.ravel(),
        })
        for key, v in self._config_columns().items():
            df[key] = v
        return df


def _check_checkpoints(checkpoints, horizon: int) -> np.ndarray:
    cp = np.asarray(checkpoints, dtype=np.int64).ravel()
    if cp.size == 0 or np.any(np.diff(cp) <= 0) or cp[0] < 1 or cp[-1] > horizon:
        raise ValueError(f"checkpoints must be strictly increasing integers in [1, T={horizon}]")
    return cp


def run_seed(seed: np.random.SeedSequence, run: int) -> np.random.SeedSequence:
    """Seed of run ``run``: the same child as ``seed.spawn(runs)[run]`` on a fresh ``seed``,
    but independent of how many children were spawned before (stateless)."""
    return np.random.SeedSequence(entropy=seed.entropy, spawn_key=(*seed.spawn_key, int(run)),
                                  pool_size=seed.pool_size)


def _stream_names(k: int) -> tuple[str, ...]:
    return ("duels", "ldp", *(f"counter{j}" for j in range(k)))


# --------------------------------------------------------------------------------------------
# reference engine
# --------------------------------------------------------------------------------------------


@dataclass
class EBSTrace:
    """White-box trace (check A3).

    elements[t] lists the counter elements o_t entered, as (counter, stream position, coefficient):
    the +o_t element (r1/naive; literal only when o_t = 1) and the later -W(j, i) subtraction
    element(s). stream_lengths[t - 1] are the K stream lengths after round t. actions[t - 1] =
    (a_t, b_t), o[t - 1] = o_t; elim_rounds maps a round to the arms eliminated then.
    """

    elements: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    stream_lengths: list[np.ndarray] = field(default_factory=list)
    actions: list[tuple[int, int]] = field(default_factory=list)
    o: list[int] = field(default_factory=list)
    elim_rounds: dict[int, list[int]] = field(default_factory=dict)


class DPEBSEliminationReference:
    """Plain per-round DP-EBS-Elimination (R1-R8), one instance = one run.

    Random streams (``stream_rngs(seed, ...)``): ``duels`` gives two uniforms per round, u_b and
    u_o, with b_t = S[floor(u_b |S|)] and o_t = 1{u_o < P(a_t, b_t)}; ``ldp`` one uniform per round
    (flip iff u < 1/(1+e^eps)); ``counter{j}`` drives the tree counter of arm j.

    Optional arguments:
    * ``o_table``: fixed o-table (user t answers o_table[t-1] whatever pair is shown, spec 1.4);
    * ``forced_eliminations``: {t: arm or arms} eliminated at the end of round t (together with the
      natural eliminations of that round, R3); arms already eliminated are ignored;
    * ``natural_eliminations=False`` disables the UCB/LCB rule (for Corollary 1 checks, A6(b));
    * ``trace=True`` records an :class:`EBSTrace`.
    """

    def __init__(self, instance: FiniteInstance, config: EBSConfig, horizon: int,
                 seed: np.random.SeedSequence, *, o_table=None,
                 forced_eliminations: Mapping[int, int | Iterable[int]] | None = None,
                 natural_eliminations: bool = True, trace: bool = False):
        self.instance = instance
        self.config = config
        self.k = k = instance.k
        self.horizon = int(horizon)
        self.params = EBSParams.build(config, k, horizon)
        self.P = instance.preference
        rngs = stream_rngs(seed, _stream_names(k))
        self._duels, self._ldp = rngs["duels"], rngs["ldp"]
        self.counters: list[BinaryTreeCounter] | None = None
        if config.uses_counters:
            eps_c = self.params.eps_counter
            self.counters = [BinaryTreeCounter(self.params.t_max, eps_c, rngs[f"counter{j}"],
                                               noise_multiplier=config.noise_multiplier)
                             for j in range(k)]
            assert self.counters[0].levels == self.params.levels
        self.o_table = None if o_table is None else np.asarray(o_table, dtype=int)
        if self.o_table is not None and (self.o_table.shape != (self.horizon,)
                                         or np.any((self.o_table != 0) & (self.o_table != 1))):
            raise ValueError("o_table must be a 0/1 vector of length T")
        self.forced: dict[int, list[int]] = {}
        for t, arms in (forced_eliminations or {}).items():
            self.forced[int(t)] = [int(arms)] if np.ndim(arms) == 0 else [int(a) for a in arms]
        self.natural = bool(natural_eliminations)
        self.trace = EBSTrace() if trace else None
        self._pair_rounds: dict[tuple[int, int], list[int]] = {}
        # plain Python state (K is small; per-round numpy calls would dominate)
        self._Pl = self.P.tolist()
        self.t = 0
        self._S: list[int] = list(range(k))  # survivors, sorted
        self._n = [0] * k  # effective counts
        self._out = [0.0] * k  # latest counter output (or exact sum for nonprivate / ldp)
        self._N = [[0] * k for _ in range(k)]
        self._W = [[0.0] * k for _ in range(k)]
        self.left_plays = np.zeros(k, dtype=np.int64)
        self.plays = np.zeros(k, dtype=np.int64)
        self.elim_time = np.full(k, -1, dtype=np.int64)
        self.elim_count = np.zeros(k, dtype=np.int64)
        self.commit_time = -1
        self.chosen = -1
        self.ci_violation = False
        self._ebs_cache: dict[tuple[int, ...], list[float]] = {}

    # ---- read-only views -----------------------------------------------------------------
    @property
    def survivors(self) -> np.ndarray:
        return np.array(self._S, dtype=np.int64)

    @property
    def alive(self) -> np.ndarray:
        a = np.zeros(self.k, dtype=bool)
        a[self._S] = True
        return a

    @property
    def n(self) -> np.ndarray:
        """Effective counts n(i) (after subtractions)."""
        return np.array(self._n, dtype=np.int64)

    @property
    def committed(self) -> bool:
        return self.commit_time >= 0

    @property
    def estimates(self) -> np.ndarray:
        """Current noisy EBS estimates B~(i) = w~(i) / n(i) (nan if eliminated or n(i) = 0)."""
        est = np.full(self.k, np.nan)
        for i in self._S:
            if self._n[i] > 0:
                est[i] = self._out[i] / self._n[i]
        return est

    def _bound(self, i: int) -> tuple[float, float]:
        ni = self._n[i]
        if ni == 0:
            return math.inf, -math.inf
        est = self._out[i] / ni
        rad = self.params.stat / math.sqrt(ni) + self.params.priv / ni
        return est + rad, est - rad

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(UCB, LCB) of every arm (+-inf if n = 0; nan for eliminated arms)."""
        ucb = np.full(self.k, np.nan)
        lcb = np.full(self.k, np.nan)
        for i in self._S:
            ucb[i], lcb[i] = self._bound(i)
        return ucb, lcb

    def _true_ebs(self) -> list[float]:
        s = tuple(self._S)
        if s not in self._ebs_cache:
            v = [math.nan] * self.k
            for i in s:
                v[i] = sum(self._Pl[i][j] for j in s) / len(s)
            self._ebs_cache[s] = v
        return self._ebs_cache[s]

    def true_ebs(self) -> np.ndarray:
        """B_S(i) for the current S (nan for eliminated arms)."""
        return np.array(self._true_ebs())

    # ---- dynamics ------------------------------------------------------------------------
    def _push(self, j: int, value: float, rounds: list[int], coef: int) -> float:
        c = self.counters[j].add(value)
        if self.trace is not None:
            for r in rounds:
                self.trace.elements.setdefault(r, []).append((j, self.counters[j].t, coef))
        return c

    def step(self) -> None:
        """Play round t + 1 (must not be committed)."""
        if self.committed or self.t >= self.horizon:
            raise RuntimeError("no round left to play")
        self.t += 1
        t, cfg, p = self.t, self.config, self.params
        S, nn = self._S, self._n
        m = len(S)
        a = min(S, key=lambda i: (nn[i], i))  # argmin n, smallest index on ties (R5)
        u_b, u_o = self._duels.random(2)
        b = S[min(int(u_b * m), m - 1)]
        o = int(u_o < self._Pl[a][b]) if self.o_table is None else int(self.o_table[t - 1])
        x = float(o)
        if cfg.variant == "ldp":
            flip = self._ldp.random() < p.ldp_flip
            x = p.ldp_a * (o ^ int(flip)) - p.ldp_b
        self.left_plays[a] += 1
        self.plays[a] += 1
        self.plays[b] += 1
        self._N[a][b] += 1
        self._W[a][b] += x
        nn[a] += 1
        if self.trace is not None:
            self.trace.actions.append((a, b))
            self.trace.o.append(o)
            self._pair_rounds.setdefault((a, b), []).append(t)
        if cfg.variant in ("r1", "naive"):
            self._out[a] = self._push(a, x, [t], +1)
        elif cfg.variant == "literal":
            if o == 1:
                self._out[a] = self._push(a, 1.0, [t], +1)
        else:
            self._out[a] += x

        bnd = {i: self._bound(i) for i in S}
        if not self.ci_violation:
            bs = self._true_ebs()
            self.ci_violation = any(nn[i] > 0 and not (bnd[i][1] <= bs[i] <= bnd[i][0]) for i in S)
        elim = set()
        if self.natural:
            best_lcb = max(v[1] for v in bnd.values())
            elim = {i for i in S if bnd[i][0] < best_lcb}
        elim |= {i for i in self.forced.get(t, []) if i in S}
        if len(elim) == m:
            raise RuntimeError(f"round {t}: eliminating every survivor {sorted(elim)}")
        if elim:
            self._eliminate(sorted(elim))
        if self.trace is not None and self.counters is not None:
            self.trace.stream_lengths.append(np.array([c.t for c in self.counters]))

    def _eliminate(self, elim: list[int]) -> None:
        t = self.t
        for i in elim:
            self.elim_time[i] = t
            self.elim_count[i] = self._n[i]
        self._S = [i for i in self._S if i not in elim]
        if self.trace is not None:
            self.trace.elim_rounds[t] = list(elim)
        for j in self._S:
            for i in elim:
                self._n[j] -= self._N[j][i]
                if self.counters is not None:
                    rounds = self._pair_rounds.get((j, i), []) if self.trace is not None else []
                    self._out[j] = self._push(j, -self._W[j][i], rounds, -1)
                else:
                    self._out[j] -= self._W[j][i]
        if len(self._S) == 1:
            self.commit_time = t
            self.chosen = self._S[0]

    def run_until(self, t: int) -> None:
        """Step until round ``t`` has been played (or the run commits)."""
        while self.t < min(int(t), self.horizon) and not self.committed:
            self.step()

    def run(self, checkpoints=None) -> _Run:
        """Play to the horizon (after commit: (i^, i^) every round) and return the outcome."""
        T = self.horizon
        cp = _check_checkpoints(checkpoints if checkpoints is not None else [T], T)
        gp, gu = self.instance.pref_gaps, self.instance.util_gaps
        reg_p = np.empty(cp.size)
        reg_u = np.empty(cp.size)
        c = 0
        while self.t < T and not self.committed:
            self.step()
            while c < cp.size and cp[c] == self.t:
                reg_p[c], reg_u[c] = self.plays @ gp, self.plays @ gu
                c += 1
        if self.committed:
            base_p, base_u = self.plays @ gp, self.plays @ gu
            i, extra = self.chosen, T - self.commit_time
            rest = cp[c:] - self.commit_time
            reg_p[c:] = base_p + 2 * gp[i] * rest
            reg_u[c:] = base_u + 2 * gu[i] * rest
            self.left_plays[i] += extra
            self.plays[i] += 2 * extra
            self.t = T
        count = self.elim_count.copy()
        count[self._S] = self.n[self._S]
        return _Run(reg_p, reg_u, int(self.commit_time), int(self.chosen),
                    bool(self.instance.best not in self._S), bool(self.ci_violation),
                    self.elim_time.copy(), count, self.left_plays.copy(), self.plays.copy())


# --------------------------------------------------------------------------------------------
# fast engine (R9)
# --------------------------------------------------------------------------------------------


class _Uniforms:
    """Buffered uniforms, ``width`` per round, consumed in order (draws ahead never change the
    values a round receives)."""

    def __init__(self, rng: np.random.Generator, width: int):
        self.rng = rng
        self.width = width
        self.buf = np.empty((0, width))

    def peek(self, k: int) -> np.ndarray:
        if self.buf.shape[0] < k:
            more = self.rng.random((max(k - self.buf.shape[0], 4096), self.width))
            self.buf = np.concatenate([self.buf, more])
        return self.buf[:k]

    def consume(self, k: int) -> None:
        self.buf = self.buf[k:]


class _TreeNoise:
    """noise(s) = c_s - S_s of a :class:`BinaryTreeCounter` at every stream position s, computed
    lazily, consuming the generator exactly like the counter does (ctz(s) + 1 Laplace draws at
    position s, levels in increasing order). Only the top node drawn at s, (ctz(s), s >> ctz(s)),
    is ever used by an output, and noise(s) = noise(s - lowbit(s)) + eta_top(s)."""

    def __init__(self, rng: np.random.Generator, levels: int, scale: float):
        self.rng = rng
        self.levels = levels
        self.scale = scale
        self.base = 0
        self.vals = np.zeros(1)  # noise(base..upto); noise(0) = 0
        self.pref = np.zeros(levels + 2)  # pref[h] = noise((upto >> h) << h)

    @property
    def upto(self) -> int:
        return self.base + self.vals.size - 1

    def _extend(self, hi: int) -> None:
        s0 = self.upto
        n = hi - s0
        if self.scale == 0:
            self.vals = np.concatenate([self.vals, np.zeros(n)])
            return
        s = np.arange(s0 + 1, hi + 1, dtype=np.int64)
        ctz = np.bitwise_count((s & -s) - 1).astype(np.int64)
        csum = np.cumsum(ctz + 1)
        z = self.rng.laplace(0.0, self.scale, size=int(csum[-1]))
        top = z[csum - 1]
        out = np.empty(n)
        for h in range(hi.bit_length() - 1, -1, -1):
            half, step = 1 << h, 1 << (h + 1)
            q0 = max(0, -(-(s0 + 1 - half) // step))
            first = half + step * q0
            if first > hi:
                continue
            ids = np.arange(first - s0 - 1, n, step)
            par = ids - half
            vals = top[ids]
            if par[0] < 0:  # parent at or before s0
                vals[0] += self.pref[h + 1]
                vals[1:] += out[par[1:]]
            else:
                vals += out[par]
            out[ids] = vals
        pref = self.pref.copy()
        for h in range(self.levels + 2):
            p = (hi >> h) << h
            if p > s0:
                pref[h] = out[p - s0 - 1]
            elif p == 0:
                pref[h] = 0.0
        self.pref = pref
        self.vals = np.concatenate([self.vals, out])

    def at(self, q: np.ndarray) -> np.ndarray:
        hi = int(q.max()) if q.size else self.base
        if hi > self.upto:
            self._extend(int(max(hi, self.upto + 1024)))
        return self.vals[q - self.base]

    def trim(self, pos: int) -> None:
        """Forget the positions before ``pos`` (noise(pos) itself is kept)."""
        pos = int(pos)
        if pos > self.upto:
            self._extend(pos + 1024)
        drop = pos - self.base
        if drop > 0:
            self.vals = self.vals[drop:].copy() if drop > 4096 else self.vals[drop:]
            self.base = pos


def _prefix_suffix(g: np.ndarray, op, fill: float) -> tuple[np.ndarray, np.ndarray]:
    """Running ``op`` (np.minimum / np.maximum) along the columns of g: prefix (nrow, m) and
    suffix (nrow, m + 1), the last suffix column being ``fill``."""
    nrow, m = g.shape
    if m > 16:
        pre = op.accumulate(g, axis=1)
        suf = np.empty((nrow, m + 1))
        suf[:, :m] = op.accumulate(g[:, ::-1], axis=1)[:, ::-1]
    else:  # short rows: column loops are faster than accumulate along axis 1
        pre = g.copy()
        for q in range(1, m):
            op(pre[:, q - 1], pre[:, q], out=pre[:, q])
        suf = np.empty((nrow, m + 1))
        suf[:, :m] = g
        for q in range(m - 2, -1, -1):
            op(suf[:, q + 1], suf[:, q], out=suf[:, q])
    suf[:, m] = fill
    return pre, suf


def _schedule(n_s: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """First ``count`` left plays from counts ``n_s`` (positions in S): repeated argmin with
    smallest-index ties = plays sorted by (level, position), arm p playing levels n_p, n_p+1, ...
    Returns (position, level) per round."""
    m = n_s.size
    thresholds = np.unique(n_s)
    ps, vs = [], []
    left = count
    for q, d in enumerate(thresholds):
        active = np.flatnonzero(n_s <= d)
        size = active.size
        span = (thresholds[q + 1] - d) if q + 1 < thresholds.size else None
        need = -(-left // size)
        nl = need if span is None else min(span, need)
        take = min(left, nl * size)
        ps.append(np.tile(active, nl)[:take])
        vs.append(np.repeat(np.arange(d, d + nl, dtype=np.int64), size)[:take])
        left -= take
        if left == 0:
            break
    assert left == 0 and m > 0
    return np.concatenate(ps), np.concatenate(vs)


class _FastRun:
    """One run of the R9 block engine (same random streams and semantics as the reference)."""

    B0 = 2048
    B_MAX = 1 << 20

    def __init__(self, instance: FiniteInstance, config: EBSConfig, horizon: int,
                 checkpoints: np.ndarray, seed: np.random.SeedSequence):
        self.inst = instance
        self.cfg = config
        self.k = k = instance.k
        self.T = int(horizon)
        self.cp = checkpoints
        self.p = EBSParams.build(config, k, horizon)
        self.P = instance.preference
        rngs = stream_rngs(seed, _stream_names(k))
        self.duels = _Uniforms(rngs["duels"], 2)
        self.ldp = _Uniforms(rngs["ldp"], 1) if config.variant == "ldp" else None
        self.noise = ([_TreeNoise(rngs[f"counter{j}"], self.p.levels, self.p.noise_scale)
                       for j in range(k)] if config.uses_counters else None)

    def run(self) -> _Run:
        k, T, cfg = self.k, self.T, self.cfg
        literal = cfg.variant == "literal"
        stat, priv = self.p.stat, self.p.priv
        p_flat = self.P.ravel()
        gp, gu = self.inst.pref_gaps, self.inst.util_gaps
        n = np.zeros(k, dtype=np.int64)  # effective counts
        wsum = np.zeros(k)  # exact sums of the stream elements (o, or o^ for ldp)
        pos = np.zeros(k, dtype=np.int64)  # stream lengths
        N = np.zeros(k * k, dtype=np.int64)
        W = np.zeros(k * k)
        alive = np.ones(k, dtype=bool)
        left_plays = np.zeros(k, dtype=np.int64)
        plays = np.zeros(k, dtype=np.int64)
        elim_time = np.full(k, -1, dtype=np.int64)
        elim_count = np.zeros(k, dtype=np.int64)
        cp = self.cp
        reg_p = np.empty(cp.size)
        reg_u = np.empty(cp.size)
        ci = 0  # next checkpoint
        violation = False
        t = 0
        commit = -1
        phase_start = True
        block = max(self.B0, 64 * k)
        while t < T and commit < 0:
            S = np.flatnonzero(alive)
            m = S.size
            ar = np.arange(m)
            nS = n[S]
            catchup = int((nS.max() - nS).sum())
            nb = min(catchup + m * max(1, block // m), T - t)
            if catchup > self.B_MAX:  # pathological imbalance (an emptied count): stay bounded
                nb = min(self.B_MAX, T - t)
            dense = catchup == 0 and nb % m == 0
            if dense:
                nrow = nb // m + 1
                p_r = np.tile(ar, nb // m)
                flat = None
            else:
                p_r, v_r = _schedule(nS, nb)
                row = v_r - int(nS.min()) + 1
                nrow = int(row[-1]) + 1
                flat = row * m + p_r

            def grid(values, dtype, flat=flat, nrow=nrow, m=m):
                g = np.zeros(nrow * m, dtype=dtype)
                if flat is None:
                    g[m:] = values
                else:
                    g[flat] = values
                return g.reshape(nrow, m)

            a_r = S[p_r]
            u = self.duels.peek(nb)
            b_r = S[np.minimum((u[:, 0] * m).astype(np.int64), m - 1)]
            pair = a_r * k + b_r
            o_r = u[:, 1] < p_flat[pair]
            if self.ldp is not None:
                flip = self.ldp.peek(nb)[:, 0] < self.p.ldp_flip
                x_r = self.p.ldp_a * (o_r ^ flip) - self.p.ldp_b
            else:
                x_r = o_r.astype(float)
            # grid (row = level - min level + 1, column = position in S); row 0 = block start.
            # Cell (v, p) holds arm p's values after its play at level v (its start values if
            # it has not played yet); at round (v, p) arms p' <= p show row v, the others v - 1.
            played = None if flat is None else grid(True, bool)
            if flat is None:  # all counts equal: one column suffices
                cnt = np.arange(nrow)[:, None]
                nn = nS[0] + cnt
                cumx = np.empty((nrow, m))
                cumx[0] = wsum[S]
                np.cumsum(x_r.reshape(nrow - 1, m), axis=0, out=cumx[1:])
                cumx[1:] += wsum[S]
            else:
                cnt = np.cumsum(played, axis=0)
                nn = nS + cnt
                cumx = wsum[S] + np.cumsum(grid(x_r, float), axis=0)
            tot = cumx
            if self.noise is not None:
                inc = np.cumsum(grid(o_r, np.int64), axis=0) if literal else cnt
                qpos = pos[S] + inc
                if qpos.shape[1] != m:
                    qpos = np.broadcast_to(qpos, (nrow, m))
                tot = cumx.copy()
                for q in range(m):
                    tot[:, q] += self.noise[S[q]].at(qpos[:, q])
            with np.errstate(divide="ignore", invalid="ignore"):
                est = tot / nn
                rad = stat / np.sqrt(nn) + priv / nn
                gu_ = est + rad
                gl_ = est - rad
            if nS.min() == 0:
                zero = np.broadcast_to(nn == 0, gu_.shape)
                gu_[zero] = np.inf
                gl_[zero] = -np.inf
            # state at every round: min UCB / max LCB over p' <= p in row v and p' > p in row v-1
            pmin, smin = _prefix_suffix(gu_, np.minimum, np.inf)
            pmax, smax = _prefix_suffix(gl_, np.maximum, -np.inf)
            trig = np.minimum(pmin[1:], smin[:-1, 1:]) < np.maximum(pmax[1:], smax[:-1, 1:])
            if played is not None:
                trig &= played[1:]
            cells = np.flatnonzero(trig.ravel())
            elim_now = cells.size > 0
            if elim_now:
                c_end = int(cells[0])
                r_end = c_end + 1 if flat is None else int(np.searchsorted(flat - m, c_end)) + 1
            else:
                r_end = nb
                c_end = nb - 1 if flat is None else int(flat[-1]) - m
            row_end, p_end = divmod(c_end, m)
            row_end += 1
            srow = np.where(ar <= p_end, row_end, row_end - 1)  # state after round r_end
            # CI violations (after each update; the post-subtraction state at a phase start)
            if not violation:
                bs = self.P[np.ix_(S, S)].mean(axis=1)
                bad = ((bs > gu_[1:]) | (bs < gl_[1:]))
                if played is not None:
                    bad &= played[1:]
                if bad.ravel()[:c_end + 1].any():
                    violation = True
                if phase_start:
                    others = ar != p_r[0]
                    if np.any((bs[others] > gu_[0, others]) | (bs[others] < gl_[0, others])):
                        violation = True
            # regret at checkpoints inside the kept rounds
            a_k, b_k = a_r[:r_end], b_r[:r_end]
            if ci < cp.size and cp[ci] <= t + r_end:
                base_p, base_u = plays @ gp, plays @ gu
                cs_p = base_p + np.cumsum(gp[a_k] + gp[b_k])
                cs_u = base_u + np.cumsum(gu[a_k] + gu[b_k])
                while ci < cp.size and cp[ci] <= t + r_end:
                    reg_p[ci] = cs_p[cp[ci] - t - 1]
                    reg_u[ci] = cs_u[cp[ci] - t - 1]
                    ci += 1
            # commit the kept rounds to the state
            left = np.bincount(a_k, minlength=k)
            left_plays += left
            plays += left + np.bincount(b_k, minlength=k)
            N += np.bincount(pair[:r_end], minlength=k * k)
            W += np.bincount(pair[:r_end], weights=x_r[:r_end], minlength=k * k)
            ucb_s, lcb_s = gu_[srow, ar], gl_[srow, ar]
            n[S] = np.broadcast_to(nn, (nrow, m))[srow, ar]
            wsum[S] = cumx[srow, ar]
            if self.noise is not None:
                pos[S] = qpos[srow, ar]
                for q in range(m):
                    self.noise[S[q]].trim(pos[S[q]])
            self.duels.consume(r_end)
            if self.ldp is not None:
                self.ldp.consume(r_end)
            t += r_end
            phase_start = False
            if not elim_now:
                block = min(2 * block, self.B_MAX)
                continue
            # elimination at round t (R3)
            E = S[ucb_s < np.max(lcb_s)]
            assert 0 < E.size < m
            alive[E] = False
            elim_time[E] = t
            elim_count[E] = n[E]
            surv = np.flatnonzero(alive)
            Nm, Wm = N.reshape(k, k), W.reshape(k, k)
            for j in surv:
                for i in E:
                    n[j] -= Nm[j, i]
                    wsum[j] -= Wm[j, i]
                if self.noise is not None:
                    pos[j] += E.size
                    self.noise[j].trim(pos[j])
            if surv.size == 1:
                commit = t
            phase_start = True
            block = max(self.B0, 64 * k)
        # after commit: (i^, i^) for the remaining rounds
        base_p, base_u = plays @ gp, plays @ gu
        if commit >= 0:
            i = int(np.flatnonzero(alive)[0])
            rest = cp[ci:] - commit
            reg_p[ci:] = base_p + 2 * gp[i] * rest
            reg_u[ci:] = base_u + 2 * gu[i] * rest
            left_plays[i] += T - commit
            plays[i] += 2 * (T - commit)
            chosen = i
        else:
            reg_p[ci:], reg_u[ci:] = base_p, base_u
            chosen = -1
        count = elim_count.copy()
        count[alive] = n[alive]
        return _Run(reg_p, reg_u, int(commit), chosen, bool(not alive[self.inst.best]),
                    bool(violation), elim_time, count, left_plays, plays)


def simulate_ebs(instance: FiniteInstance, config: EBSConfig, horizon: int,
                 checkpoints: np.ndarray, runs: int, seed: np.random.SeedSequence,
                 engine: str = "fast") -> EBSResult:
    """``runs`` independent runs of DP-EBS-Elimination on ``instance``.

    Run r uses ``run_seed(seed, r)`` (= ``seed.spawn(runs)[r]`` of a fresh seed) and the named
    streams ``duels``, ``ldp``, ``counter{j}`` of it, so that common random numbers hold across
    epsilon values, widths and variants. ``engine`` is ``"fast"`` (R9 block engine, all variants)
    or ``"reference"`` (per-round loop); both give the same runs for the same seed.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if int(runs) < 1:
        raise ValueError(f"runs must be >= 1, got {runs!r}")
    horizon = int(horizon)
    EBSParams.build(config, instance.k, horizon)  # validates K, T
    cp = _check_checkpoints(checkpoints, horizon)
    out = []
    for r in range(int(runs)):
        s = run_seed(seed, r)
        if engine == "fast":
            out.append(_FastRun(instance, config, horizon, cp, s).run())
        else:
            out.append(DPEBSEliminationReference(instance, config, horizon, s).run(cp))
    return EBSResult.stack(out, instance=instance.name, config=config, horizon=horizon,
                           checkpoints=cp, engine=engine)


# --------------------------------------------------------------------------------------------
# black-box audit harness (A5)
# --------------------------------------------------------------------------------------------

AUDIT_HISTORIES = ("first", "full")


def n_audit_codes(k: int, horizon: int, history: str = "first") -> int:
    """Number of output codes of :func:`audit_codes`.

    ``first``: 0 = no elimination by T, else 1 + (s - 1)(2^K - 2) + (mask - 1) for the first
    elimination round s and the bitmask of the arms eliminated then (1 <= mask <= 2^K - 2);
    ``full``: sum_i e_i (T + 1)^i with e_i the elimination round of arm i (0 = never).
    """
    if history == "first":
        return 1 + int(horizon) * (2 ** int(k) - 2)
    if history == "full":
        return (int(horizon) + 1) ** int(k)
    raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")


def decode_audit_code(code: int, k: int, horizon: int, history: str = "first"):
    """Inverse of the code: ``first`` -> None or (round, arms); ``full`` -> elimination rounds."""
    if history == "first":
        if code == 0:
            return None
        s, mask = divmod(int(code) - 1, 2**k - 2)
        return s + 1, [i for i in range(k) if (mask + 1) >> i & 1]
    if history == "full":
        return [int(code) // (horizon + 1) ** i % (horizon + 1) for i in range(k)]
    raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")


class _VecTree:
    """BinaryTreeCounter for (copies x K) independent counters (audit harness)."""

    def __init__(self, copies: int, k: int, levels: int, scale: float, rng: np.random.Generator):
        self.levels, self.scale, self.rng = levels, scale, rng
        self.pos = np.zeros((copies, k), dtype=np.int64)
        self.partial = np.zeros((copies, k, levels))
        self.noisy = np.zeros((copies, k, levels))

    def push(self, c: np.ndarray, j: np.ndarray, value) -> np.ndarray:
        """Append value to counter j of copies c (distinct copies); return the new outputs."""
        self.pos[c, j] += 1
        pos = self.pos[c, j]
        part = self.partial[c, j] + np.asarray(value, dtype=float).reshape(-1, 1)
        noisy = self.noisy[c, j]
        for h in range(self.levels):
            done = pos % (1 << h) == 0
            if not done.any():
                break
            nd = int(done.sum())
            noise = self.rng.laplace(0.0, self.scale, nd) if self.scale > 0 else 0.0
            noisy[done, h] = part[done, h] + noise
            part[done, h] = 0.0
        self.partial[c, j] = part
        self.noisy[c, j] = noisy
        return self.value(c, j)

    def value(self, c: np.ndarray, j: np.ndarray) -> np.ndarray:
        pos = self.pos[c, j]
        bits = (pos[:, None] >> np.arange(self.levels)) & 1
        return (self.noisy[c, j] * bits).sum(axis=1)


def audit_codes(o_table, k: int, config: EBSConfig, copies: int, rng: np.random.Generator,
                history: str = "first") -> np.ndarray:
    """Released-event codes of ``copies`` independent runs of Algorithm 1 on a FIXED o-table
    (user t answers o_table[t-1] whatever duel is shown; T = len(o_table)), vectorised over the
    copies. The code (see :func:`n_audit_codes`) is a post-processing of the released duel
    sequence (the elimination history), so a lower bound on the privacy loss of the codes is one
    for the algorithm. Supports every variant; ``literal`` is negative control (ii) and
    ``noise_multiplier=0`` control (i). The fast-engine streams are not used (one generator)."""
    o = np.asarray(o_table, dtype=np.int64)
    T = o.size
    if history not in AUDIT_HISTORIES:
        raise ValueError(f"history must be one of {AUDIT_HISTORIES}, got {history!r}")
    if np.any((o != 0) & (o != 1)):
        raise ValueError("o_table must be 0/1")
    p = EBSParams.build(config, k, T)
    C = int(copies)
    variant = config.variant
    alive = np.ones((C, k), dtype=bool)
    n = np.zeros((C, k), dtype=np.int64)
    out = np.zeros((C, k))
    N = np.zeros((C, k, k), dtype=np.int64)
    W = np.zeros((C, k, k))
    done = np.zeros(C, dtype=bool)
    elim_round = np.zeros((C, k), dtype=np.int64)
    tree = _VecTree(C, k, p.levels, p.noise_scale, rng) if config.uses_counters else None
    big = np.iinfo(np.int64).max
    for t in range(1, T + 1):
        act = np.flatnonzero(~done)
        if act.size == 0:
            break
        al = alive[act]
        a = np.argmin(np.where(al, n[act], big), axis=1)
        m = al.sum(axis=1)
        pick = np.minimum((rng.random(act.size) * m).astype(np.int64), m - 1)
        b = np.argmax(np.cumsum(al, axis=1) > pick[:, None], axis=1)
        ot = int(o[t - 1])
        if variant == "ldp":
            flip = (rng.random(act.size) < p.ldp_flip).astype(np.int64)
            x = p.ldp_a * (ot ^ flip) - p.ldp_b
        else:
            x = np.full(act.size, float(ot))
        N[act, a, b] += 1
        W[act, a, b] += x
        n[act, a] += 1
        if variant in ("r1", "naive"):
            out[act, a] = tree.push(act, a, x)
        elif variant == "literal":
            if ot == 1:
                out[act, a] = tree.push(act, a, 1.0)
        else:
            out[act, a] += x
        na = n[act]
        with np.errstate(divide="ignore", invalid="ignore"):
            est = out[act] / na
            rad = p.stat / np.sqrt(na) + p.priv / na
        ucb = np.where(na > 0, est + rad, np.inf)
        lcb = np.where(na > 0, est - rad, -np.inf)
        best = np.max(np.where(al, lcb, -np.inf), axis=1)
        E = al & (ucb < best[:, None])
        rows = np.flatnonzero(E.any(axis=1))
        if rows.size == 0:
            continue
        cs = act[rows]
        Er = E[rows]
        elim_round[cs] = np.where(Er, t, elim_round[cs])
        alive[cs] &= ~Er
        for i in range(k):
            hit = Er[:, i]
            if not hit.any():
                continue
            for j in range(k):
                sel = hit & alive[cs, j]
                if not sel.any():
                    continue
                cj = cs[sel]
                n[cj, j] -= N[cj, j, i]
                if tree is not None:
                    jj = np.full(cj.size, j)
                    out[cj, j] = tree.push(cj, jj, -W[cj, j, i])
                else:
                    out[cj, j] -= W[cj, j, i]
        done[cs] |= alive[cs].sum(axis=1) == 1
    if history == "full":
        return (elim_round * (T + 1) ** np.arange(k)).sum(axis=1)
    first = np.where(elim_round > 0, elim_round, big).min(axis=1)
    none = first == big
    mask = ((elim_round == first[:, None]) * (1 << np.arange(k))).sum(axis=1)
    code = 1 + (first - 1) * (2**k - 2) + (mask - 1)
    return np.where(none, 0, code)
