"""LDPMAB (Algorithm 2) with the jump-start transfer of Algorithm 3 and its reweighted multi-source
estimator: the fast, exact engine (spec ``ldp_contextual.md`` sections 2.2-2.6 and 2.9).

Algorithm (paper; presets in :mod:`dpbandits.contextual.config`). The server keeps an active
partition of [0, 1]^d (max-edge bins, Algorithm 1) and an active arm set per bin. Sources are fed
in order: auxiliary datasets 1..M (logged arm and reward of a fixed behaviour policy, Algorithm 3
"jump-start"), then the target users (Algorithm 2 step 2: a uniformly random active arm of the
user's bin, eq. 8). Every user of source m releases, for every active bin and active arm, the
Laplace-privatised indicators U and V with scale 4/eps_m (eqs. 11-12, 24-25; accounting in
:mod:`dpbandits.contextual.randomizer`). After every batch of B users (B = 1 in the paper; the
policy is frozen within a batch, spec A14) each active bin updates, per source m, the count
t_m of users received while active and the noisy sums SU_m, SV_m, then

* weights (27): lambda_m = min(|eps_m^2 SU_m / t_m|, 1) if t_m >= W else 0;
* estimate (26): f~_k = sum_m lambda_m SV_m / sum_m lambda_m SU_m;
* radius (28): r_k = sqrt(C_n sum_m lambda_m^2 max(t_m / eps_m^2, SU_m)) / sum_m lambda_m SU_m,
  +inf if the denominator is <= 0 or no source is past warm-up (guards A4/A5); with M = 0 this is
  Algorithm 2's (13)-(14);
* elimination (16)/(29): remove k* if some active k has f~_k - rad_k > f~_k* + rad_k*, rad = 2r
  (paper) or max(r, tau_s) (calibrated presets); simultaneous, so the best-LCB arm survives;
* refinement (17): split the bin (Algorithm 1) when r_k < tau_s for some (or all) active arms;
  the children inherit the active set and start with empty statistics for every source.

Regret is the paper's eq. (1): each target user adds the expected instantaneous regret of the
current policy on a fresh context, sum_B P(B) sum_k pi_B(k) E[f* - f_k | B]. It has the mean of
the realised pseudo-regret (what the authors log) and is what Theorems 2.6 and 3.4 bound.

Exact fast simulation. Two facts make a run cost O(number of bins x batches), not O(users x bins):

1. The noise of a bin-arm entry over a batch is a sum of B i.i.d. Laplace terms (B users report
   to every active bin), drawn exactly in O(1): as a Gamma difference (:func:`laplace_sum`), or
   in the synthetic scan as a normal scale mixture (:func:`~dpbandits.contextual._scan.laplace_sums`);
   the authors' in-bin noise is a sum over the in-bin users only.
2. Between two decisions the policy is fixed (uniform arm choice), so a chunk of future
   batches can be simulated under it and the first batch with an elimination or a refinement
   found by a scan (compiled for the paper's bound: :mod:`dpbandits.contextual._scan`). On a
   synthetic instance under the paper's bound the scan draws each batch's statistics as it
   reaches it and stops there; otherwise (a dataset, or the authors' bound) the chunk's
   statistics are drawn at once and the draws after that batch are discarded and redrawn under
   the new policy (a stopping time: the law is unchanged either way). The exponential-weights
   policy of the authors' code changes every batch and runs batch by batch (on synthetic
   instances in one compiled loop up to the next event: :mod:`dpbandits.contextual._expweights`).

The compiled loops (numba, cached on disk) of the authors' code preset and the dataset scan make
the same random draws in the same order as the numpy formulation they replaced and add in
numpy's order (:mod:`dpbandits.contextual._exact`), so a run's results are the same bits whichever
path computes them (tested: the authors' preset against its per-batch numpy path, the scan
against _paper_terms, _radius and _decide). The synthetic scan draws the same law with faster
exact samplers (few users one by one, the Laplace sums as normal scale mixtures; tested against
the numpy chunk path in distribution).

Data feeders. :class:`MassFeeder` (synthetic instances) never draws contexts: the number of users
of a batch in each active bin is Multinomial(B, bin masses), generated exactly by binomial
thinning down the partition tree (a child's per-batch counts are Binomial(parent's counts,
mass ratio) for the rest of the horizon, drawn when the child is created), arm counts are
multinomial given the bin count, and reward sums Binomial(arm count, E[f_k | bin]) with the bin
moments of :mod:`dpbandits.contextual.instances`. :class:`SampleFeeder` (datasets, e.g. the real
data of Table 2) routes actual rows through the tree and realises arms and rewards per user.
Bins with a single active arm are frozen: their further refinements cannot change the policy, so
they are no longer simulated (this changes partition-size diagnostics only). Both feeders are
tested in distribution against the plain per-user reference :mod:`dpbandits.contextual.reference`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from dpbandits.contextual._exact import libm_exp, libm_log
from dpbandits.contextual._expweights import target_batches
from dpbandits.contextual._samples import sample_target_batches, tally, target_arms
from dpbandits.contextual._scan import mass_scan, paper_scan
from dpbandits.contextual.config import LDPMABConfig
from dpbandits.contextual.instances import behaviour_probabilities, q_effective_gamma
from dpbandits.contextual.partition import PartitionTree, tau
from dpbandits.mechanisms import laplace_sum
from dpbandits.rng import stream_rngs

__all__ = ["Source", "RunSettings", "LDPMABResult", "run_ldpmab", "MassFeeder", "SampleFeeder",
           "settings_for", "expweights_probabilities", "STREAMS"]

STREAMS = ("contexts", "arms", "rewards", "noise", "splitter")
_MAX_CHUNK_ELEMENTS = 250_000
_MAX_WINDOW = 4096  # target batches per call of the compiled authors_code loop
_BANDS = {"2r": 0, "r": 1, "max_r_tau": 2}  # the codes of _scan.paper_scan and _scan.mass_scan
_REFINE_RULES = {"never": 0, "any": 1, "all": 2}


@dataclass(frozen=True)
class Source:
    """A data source: an auxiliary dataset (``target=False``; contexts from Q_gamma, behaviour
    policy with exploration coefficient kappa) or the target stream. ``epsilon = inf`` only for
    the non-private ABSE preset."""

    n: int
    epsilon: float
    gamma: float = 0.0
    kappa: float = 1.0
    sampler: str = "correct"
    target: bool = False


@dataclass(frozen=True)
class RunSettings:
    """Constants of one run derived from the config and the sources (spec A7, A9, A15)."""

    n: int  # n_P v max n_Qm (the paper's n of Theorem 3.4)
    n_eff: float  # max_m n_m min(1, eps_m)^2 (the code's n_max)
    c_n: float  # C_n
    warmup: float  # W
    s_max: int  # depth cap
    tau_c: float  # tau_s = tau_c 2^(-s/d)


def settings_for(config: LDPMABConfig, sources: list[Source], d: int) -> RunSettings:
    n = max(s.n for s in sources)
    eff = [s.n * min(1.0, s.epsilon) ** 2 for s in sources]
    n_eff = max(eff)
    n_c = n if config.n_for_c == "n" else n_eff
    c_n = config.c_C * math.log(max(n_c, 2.0))
    warmup = math.log(n) ** 2 if config.warmup == "paper" else float(int(math.log2(max(n_eff, 2.0))) ** 2)
    if config.depth_cap == "code":
        m1 = len(sources)  # M + 1 (auxiliary sources as declared, even with n = 0, as the code)
        caps = []
        for s in sources:
            if s.n > 0:
                a = math.log2(2 * s.n * m1) * d / (2 + d)
                b = math.inf if math.isinf(s.epsilon) else math.log2(2 * s.n * s.epsilon**2 * m1) * d / (2 + 2 * d)
                caps.append(min(a, b))
        s_max = max(0, int(math.floor(max(caps))))
    else:
        s_max = config.max_depth
    return RunSettings(n, n_eff, c_n, warmup, s_max, config.tau_constant(d))


def expweights_probabilities(est: np.ndarray, active: np.ndarray, k: int) -> np.ndarray:
    """The code's arm distribution (spec A11): p ~ exp(f_k log(1.2K/|A|) / (range + 1e-4)) over
    the active arms, uniform if the range of the active estimates is < 0.01. Rows = bins. The
    logarithm and the exponential are the C library's (``_exact.libm_log``, ``libm_exp``), as in
    the compiled target phase (``_expweights.expweights_policy``), so that both give the same bits on every
    CPU (numpy's own AVX-512 ``exp`` and ``log`` differ in the last bit)."""
    n_act = active.sum(axis=1, keepdims=True)
    hi = np.where(active, est, -np.inf).max(axis=1, keepdims=True)
    lo = np.where(active, est, np.inf).min(axis=1, keepdims=True)
    rng_ = hi - lo
    expo = np.where(active, est * libm_log(1.2 * k / n_act) / (rng_ + 1e-4), -np.inf)
    w = libm_exp(expo - np.where(active, expo, -np.inf).max(axis=1, keepdims=True))
    w = np.where(active, w, 0.0)
    p = w / w.sum(axis=1, keepdims=True)
    uniform = active / n_act
    return np.where(rng_ < 0.01, uniform, p)


@dataclass
class LDPMABResult:
    regret: float  # cumulative regret over the target users (eq. 1, or realised for datasets)
    regret_curve: np.ndarray  # per target batch
    reward_curve: np.ndarray | None  # realised reward per target batch (SampleFeeder)
    x_mask: np.ndarray | None  # active-arm bitmask at the test point, per target batch
    x_mask_start: int  # bitmask at the test point when the target phase starts
    n_leaves: int
    max_depth: int
    n_splits: int
    n_eliminations: int
    seconds: float
    settings: RunSettings
    leaves: dict = field(default_factory=dict)  # the final partition (``_Run._leaves``)
    trace: list | None = None  # decision and split events (``trace=True``; check U-ALG)


# ---------------------------------------------------------------------------------------------
# decisions


def _paper_terms(t, su, sv, eps: float, warmup: float, private: bool, vp: float = 1.0, vn: float = 1.0):
    """Per-source terms of (26)-(28): lambda SV, lambda SU, lambda^2 max(vp t/eps^2, vn SU)."""
    past = t >= warmup
    if private:
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.where(past, np.minimum(np.abs(eps**2 * su / np.where(t > 0, t, 1.0)), 1.0), 0.0)
        v = np.maximum(vp * t / eps**2, vn * su)
    else:
        lam = np.where(past, 1.0, 0.0)
        v = vn * np.maximum(su, 0.0)
    return lam * sv, lam * su, lam * lam * v


def _radius(num, den, var, c_n):
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = den > 0
        f = np.where(pos, num / np.where(pos, den, 1.0), 0.0)
        r = np.where(pos, np.sqrt(c_n * var) / np.where(pos, den, 1.0), np.inf)
    return f, r


def _decide(f, r, active, tau_s, depth_ok, config: LDPMABConfig):
    """Elimination and refinement masks for statistics f, r of shape (L, nb, K)."""
    if config.band == "2r":
        rad = 2.0 * r
    elif config.band == "r":
        rad = r
    else:
        rad = np.maximum(r, tau_s[:, None])
    with np.errstate(invalid="ignore"):
        lcb = np.where(active, f - rad, -np.inf)
        ucb = f + rad
    elim = active & (lcb.max(axis=-1, keepdims=True) > ucb)
    arms = active & ~elim if config.refine_arms == "post" else active
    small = r < tau_s[:, None]
    if config.refine_rule == "never":
        refine = np.zeros(small.shape[:-1], dtype=bool)
    elif config.refine_rule == "any":
        refine = (arms & small).any(axis=-1)
    else:
        refine = (small | ~arms).all(axis=-1) & arms.any(axis=-1)
    return elim, refine & depth_ok


# ---------------------------------------------------------------------------------------------
# feeders


_MOMENTS_CACHE: dict[tuple, dict] = {}
# Runs of a synthetic instance are a function of (config, sources, seed, instance, test point):
# designs that repeat a cell (e.g. the n_Q = 0 baseline of every kappa of Figure 9(a)) get the
# run they already computed (callers only read results).
_RUN_CACHE: dict[tuple, object] = {}


def _rows(arrays) -> np.ndarray:
    """A 1-d object array holding one per-batch count array per bin: bins are reordered and
    concatenated at every event, and object rows move references, not the arrays (a bin's
    counts span the whole horizon: 1.28e6 batches at n = 1.28e8, B = 100)."""
    out = np.empty(len(arrays), dtype=object)
    for i, a in enumerate(arrays):
        out[i] = a
    return out


class MassFeeder:
    """Synthetic data through bin moments (no contexts are drawn); see the module docstring.
    ``seq`` holds, per bin, its number of users in every batch (:func:`_rows`)."""

    def __init__(self, instance, sources: list[Source], batch: int):
        self.instance = instance
        self.sources = sources
        self.batch = batch
        self.behaviour = [None if s.target else behaviour_probabilities(s.kappa, instance.k) for s in sources]

    def moments(self, lo, hi) -> dict:
        """Per bin: P-mass and E_P[f* - f_k] (regret), and per source its mass and E[f_k].
        Memoised per (instance, sources' laws, boxes): the partitions of different runs share
        their dyadic boxes, and a batch of boxes is always recomputed as the same batch (the two
        children of one split), so a hit returns the very numbers a recomputation would."""
        key = (self.instance, tuple((s.target, q_effective_gamma(s.gamma, self.instance.d, s.sampler))
                                    for s in self.sources), np.asarray(lo).tobytes(), np.asarray(hi).tobytes())
        hit = _MOMENTS_CACHE.get(key)
        if hit is None:
            if len(_MOMENTS_CACHE) > 100_000:
                _MOMENTS_CACHE.clear()
            hit = _MOMENTS_CACHE[key] = self._moments(lo, hi)
        return {name: value.copy() for name, value in hit.items()}

    def _moments(self, lo, hi) -> dict:
        mass_p, mean_p, gap = self.instance.target_moments(lo, hi)
        masses, rewards = [], []
        for s in self.sources:
            if s.target:
                masses.append(mass_p)
                rewards.append(mean_p)
            else:
                m, r = self.instance.aux_moments(lo, hi, q_effective_gamma(s.gamma, self.instance.d, s.sampler))
                masses.append(m)
                rewards.append(r)
        return {"mass_p": mass_p, "gap": gap, "mass": np.column_stack(masses),
                "rew": np.stack(rewards, axis=1)}

    def init(self, run: _Run) -> dict:
        fields = self.moments(np.zeros((1, run.d)), np.ones((1, run.d)))
        fields["seq"] = _rows([np.full(run.n_batches, self.batch, dtype=np.int64)])
        return fields

    def children(self, run: _Run, row: int, lo, hi, g_next: int) -> dict:
        """Moments of the two children of the bin in ``row`` and their per-batch counts for
        batches >= g_next: the left child's are Binomial(parent's, mass ratio of the batch's
        source)."""
        fields = self.moments(lo, hi)
        seq = [np.zeros(run.n_batches, dtype=np.int64) for _ in range(2)]
        if g_next < run.n_batches:
            pm = run.bins["mass"][row]
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.clip(np.where(pm > 0, fields["mass"][0] / np.where(pm > 0, pm, 1.0), 0.5), 0.0, 1.0)
            par = run.bins["seq"][row][g_next:]
            left = run.rngs["contexts"].binomial(par, ratio[run.batch_source[g_next:]])
            seq[0][g_next:] = left
            seq[1][g_next:] = par - left
        fields["seq"] = _rows(seq)
        return fields

    def draw(self, run: _Run, s: int, g: int, L: int, probs: np.ndarray):
        """Counts in each bin (L, nb), arm counts (L, nb, K) and reward sums (L, nb, K)."""
        bins = run.bins
        n_b = np.stack([q[g:g + L] for q in bins["seq"]], axis=1)
        rem = n_b.copy()
        counts = np.empty((L, *probs.shape), dtype=np.int64)
        arms = run.rngs["arms"]
        k = probs.shape[1]
        for j, pj in enumerate(run.arm_split(s, probs)):
            counts[..., j] = arms.binomial(rem, pj)
            rem = rem - counts[..., j]
        counts[..., k - 1] = rem
        vsum = run.rngs["rewards"].binomial(counts, bins["rew"][:, s, :])
        return n_b, counts, vsum, None

    def policy_probs(self, run: _Run, s: int) -> np.ndarray:
        if self.sources[s].target:
            return run.target_probs()
        return np.broadcast_to(self.behaviour[s], run.bins["active"].shape)


class SampleFeeder:
    """Dataset rows routed through the partition tree.

    ``data[s]`` per source: ``x`` (n, d); auxiliary sources also ``arm`` (n,) and ``y`` (n,)
    (the logged arm and reward); the target ``y`` (n, K), the reward every arm would give, and
    optionally ``f`` (n, K), the mean rewards, for the realised pseudo-regret."""

    def __init__(self, data: list[dict], batch: int):
        self.data = data
        self.batch = batch

    def init(self, run: _Run) -> dict:
        return {}

    def children(self, run: _Run, row: int, lo, hi, g_next: int) -> dict:
        return {}

    def policy_probs(self, run: _Run, s: int) -> np.ndarray | None:
        return run.target_probs() if run.sources[s].target else None

    def draw(self, run: _Run, s: int, g: int, L: int, probs):
        B = self.batch
        start = (g - run.source_start[s]) * B
        sl = slice(start, start + L * B)
        src = self.data[s]
        node = run.tree.route(src["x"][sl])
        row = run.node_row[node]
        nb, k = run.bins["active"].shape
        batch_idx = np.repeat(np.arange(L), B)
        if run.sources[s].target:
            n_in = int(np.count_nonzero(row >= 0))
            u = run.rngs["arms"].random(n_in) if n_in else np.empty(0)
            arm = np.empty(node.size, dtype=np.int64)
            target_arms(node, row, run.frozen_arm, probs, u, arm)
            y = src["y"][sl][np.arange(arm.size), arm]
            reward = np.bincount(batch_idx, weights=y, minlength=L)
            regret = None
            if "f" in src:
                f = src["f"][sl]
                regret = np.bincount(batch_idx, weights=f.max(axis=1) - f[np.arange(arm.size), arm], minlength=L)
            extra = (reward, regret)
        else:
            arm = src["arm"][sl]
            y = src["y"][sl]
            extra = None
        n_b = np.zeros((L, nb), dtype=np.int64)
        counts = np.zeros((L, nb, k), dtype=np.int64)
        vsum = np.zeros((L, nb, k))
        tally(row, arm, np.asarray(y, dtype=float), B, n_b, counts, vsum)
        return n_b, counts, vsum, extra


# ---------------------------------------------------------------------------------------------
# the engine


class _Run:
    def __init__(self, config: LDPMABConfig, d: int, k: int, sources: list[Source], feeder,
                 seed: np.random.SeedSequence, test_point=None, trace: bool = False):
        if config.cb == "refcode" and not config.private:
            raise ValueError("the refcode bound needs a private config")
        self.config, self.d, self.k, self.sources, self.feeder = config, d, k, sources, feeder
        self.rngs = stream_rngs(seed, STREAMS)
        self.settings = settings_for(config, sources, d)
        B = config.batch
        self.n_src = len(sources)
        nb_src = [s.n // B for s in sources]
        self.source_start = np.concatenate([[0], np.cumsum(nb_src)[:-1]]).astype(int)
        self.batch_source = np.repeat(np.arange(self.n_src), nb_src)
        self.n_batches = int(sum(nb_src))
        self.target = next(i for i, s in enumerate(sources) if s.target)
        self.n_target_batches = nb_src[self.target]
        self.eps = np.array([s.epsilon for s in sources], dtype=float)
        self.tree = PartitionTree(d)
        self.node_row = np.full(64, -1, dtype=np.int64)
        self.frozen_arm = np.full(64, -1, dtype=np.int64)
        self.test_point = None if test_point is None else np.asarray(test_point, dtype=float).reshape(1, -1)
        self.trace: list[dict] | None = [] if trace else None
        S = self.n_src
        root = {"node": np.array([0]), "depth": np.array([0]), "active": np.ones((1, k), dtype=bool),
                "t": np.zeros((1, S)), "su": np.zeros((1, S, k)), "sv": np.zeros((1, S, k)),
                "ev": np.zeros((1, S, k)), "eu": np.zeros((1, S, k)), "bv": np.zeros((1, S, k)),
                "est": np.zeros((1, k)), "born": np.zeros(1, dtype=np.int64)}
        root.update(feeder.init(self))
        self.bins = root
        self.frozen_rate = 0.0
        self.frozen_cells: list[tuple[np.ndarray, np.ndarray, int]] = []
        self.n_splits = 0
        self.n_elims = 0
        self.max_depth = 0
        self._version, self._commits = 0, 0
        self._others_key = self._probs_key = self._split_key = self._depth_key = None
        # the authors_code preset's target phase runs in a compiled loop (_expweights on a synthetic
        # instance, _samples on a dataset)
        self._compiled_target = (isinstance(feeder, (MassFeeder, SampleFeeder)) and config.arm_policy == "expweights"
                                 and config.cb == "refcode" and config.noise == "inbin_only"
                                 and config.band == "max_r_tau" and config.refine_arms == "pre"
                                 and config.refine_rule == "all")
        # a synthetic instance under the paper's bound draws its chunks batch by batch in the
        # compiled scan (_mass_chunk)
        self._compiled_chunks = isinstance(feeder, MassFeeder) and config.cb == "paper"
        self._reindex()
        for _ in range(config.initial_depth):  # a fixed partition: the complete tree, before any user
            self._apply_events(np.zeros(self.bins["active"].shape, dtype=bool),
                               np.ones(self.bins["node"].size, dtype=bool), -1)

    # -- bookkeeping --------------------------------------------------------------------------

    def _reindex(self) -> None:
        cap = self.tree.feature.size
        if self.node_row.size < cap:
            self.node_row = np.full(cap, -1, dtype=np.int64)
            fa = np.full(cap, -1, dtype=np.int64)
            fa[: self.frozen_arm.size] = self.frozen_arm
            self.frozen_arm = fa
        self.node_row[:] = -1
        self.node_row[self.bins["node"]] = np.arange(self.bins["node"].size)

    def _policy_key(self, s: int):
        """What source s's arm probabilities depend on: the partition and active sets (their
        version), and for the target's exponential weights also the committed estimates."""
        if self.sources[s].target and self.config.arm_policy == "expweights":
            return self._version, self._commits
        return self._version

    def target_probs(self) -> np.ndarray:
        """The target policy's arm probabilities per active bin; cached until they can change
        (:meth:`_policy_key`; callers only read it)."""
        key = self._policy_key(self.target)
        if self._probs_key == key:
            return self._probs
        act = self.bins["active"]
        if self.config.arm_policy == "uniform":
            p = act / act.sum(axis=1, keepdims=True)
        else:
            p = expweights_probabilities(self.bins["est"], act, self.k)
            root = self.bins["depth"] == 0  # the code reads scores from an empty child: uniform
            p[root] = (act / act.sum(axis=1, keepdims=True))[root]
        self._probs, self._probs_key = p, key
        return p

    def arm_split(self, s: int, probs: np.ndarray) -> list[np.ndarray]:
        """The arm counts of a bin as successive binomials: P(arm j | not an earlier arm), j < K - 1
        (``probs`` is the policy of source s now; cached with it)."""
        key = (s, self._policy_key(s))
        if self._split_key != key:
            out, left_p = [], np.ones(probs.shape[0])
            for j in range(probs.shape[1] - 1):
                with np.errstate(divide="ignore", invalid="ignore"):
                    pj = np.where(left_p > 1e-12, probs[:, j] / np.where(left_p > 1e-12, left_p, 1.0), 0.0)
                out.append(np.clip(pj, 0.0, 1.0))
                left_p = left_p - probs[:, j]
            self._split, self._split_key = out, key
        return self._split

    def _regret_rate(self) -> float:
        """Eq. (1) per target batch under the current policy (synthetic instances): the frozen
        bins' rate plus sum_bins B P(bin) sum_k pi(k | bin) E[f* - f_k | bin]."""
        p = self.target_probs()
        return self.frozen_rate + (self.config.batch * self.bins["mass_p"] * (p * self.bins["gap"]).sum(axis=1)).sum()

    def _x_mask(self) -> int:
        if self.test_point is None:
            return 0
        node = int(self.tree.route(self.test_point)[0])
        row = self.node_row[node]
        if row >= 0:
            return int(np.dot(self.bins["active"][row], 1 << np.arange(self.k)))
        return 1 << int(self.frozen_arm[node])

    # -- events ---------------------------------------------------------------------------------

    def _apply_events(self, elim: np.ndarray, refine: np.ndarray, g: int) -> None:
        """Apply batch g's decisions: the eliminations, then the refinements (Algorithm 1; the
        children follow the kept bins, in split order), then freeze the bins with one arm left."""
        self._version += 1
        bins = self.bins
        if elim.any():
            self.n_elims += int(elim.sum())
            bins["active"] = bins["active"] & ~elim
        children = [self._split_bin(row, g) for row in np.flatnonzero(refine)]
        if children:
            keep = ~refine
            bins = {key: np.concatenate([val[keep], *(child[key] for child in children)]) for key, val in bins.items()}
        # freeze bins with one arm left: the policy there can no longer change
        single = bins["active"].sum(axis=1) == 1
        if single.any():
            self._reindex_tree_capacity()
            for row in np.flatnonzero(single):
                arm = int(np.argmax(bins["active"][row]))
                node = int(bins["node"][row])
                self.frozen_arm[node] = arm
                if "mass_p" in bins:
                    self.frozen_rate += self.config.batch * bins["mass_p"][row] * bins["gap"][row, arm]
                self.frozen_cells.append((self.tree.lo[node].copy(), self.tree.hi[node].copy(), arm))
            bins = {key: val[~single] for key, val in bins.items()}
        self.bins = bins
        self._reindex()

    def _split_bin(self, row: int, g: int) -> dict:
        """Split the bin in ``row`` after batch g (Algorithm 1): its two children's fields; they
        inherit the active set and start with empty statistics for every source."""
        bins, S, k = self.bins, self.n_src, self.k
        node = int(bins["node"][row])
        a, b = self.tree.split(node, self.rngs["splitter"])
        self.n_splits += 1
        child = self.feeder.children(self, row, self.tree.lo[[a, b]], self.tree.hi[[a, b]], g + 1)
        active, depth = bins["active"][row], int(bins["depth"][row])
        child.update({"node": np.array([a, b]), "depth": np.full(2, depth + 1),
                      "active": np.repeat(active[None], 2, axis=0),
                      "t": np.zeros((2, S)), "su": np.zeros((2, S, k)), "sv": np.zeros((2, S, k)),
                      "ev": np.zeros((2, S, k)), "eu": np.zeros((2, S, k)), "bv": np.zeros((2, S, k)),
                      "est": np.zeros((2, k)), "born": np.full(2, g + 1)})
        self.max_depth = max(self.max_depth, depth + 1)
        if self.trace is not None:
            self.trace.append({"kind": "split", "g": g, "node": node, "children": (a, b),
                               "parent_active": active.copy(), "child_active": child["active"].copy(),
                               "child_stats": float(np.abs(child["t"]).sum() + np.abs(child["su"]).sum()
                                                    + np.abs(child["sv"]).sum())})
        return child

    def _reindex_tree_capacity(self) -> None:
        cap = self.tree.feature.size
        if self.frozen_arm.size < cap:
            fa = np.full(cap, -1, dtype=np.int64)
            fa[: self.frozen_arm.size] = self.frozen_arm
            self.frozen_arm = fa

    # -- statistics of a chunk ------------------------------------------------------------------

    def _chunk_noise(self, s: int, n_b, shape) -> tuple:
        """The Laplace noise on the chunk's U and V sums (None without privacy): per batch, bin
        and arm, the sum of B draws (faithful: every user reports to every active bin), or of
        the bin's users' only (the authors' code; laplace_sum's array path, inlined)."""
        if not self.config.private:
            return None, None
        scale, noise, B = 4.0 / self.eps[s], self.rngs["noise"], self.config.batch
        if self.config.noise == "faithful":
            return laplace_sum(noise, B, scale, shape), laplace_sum(noise, B, scale, shape)
        m = np.broadcast_to(n_b[..., None].astype(float), shape)
        return (scale * (noise.standard_gamma(m) - noise.standard_gamma(m)),
                scale * (noise.standard_gamma(m) - noise.standard_gamma(m)))

    def _mass_chunk(self, s: int, g: int, L: int, probs: np.ndarray):
        """:meth:`_chunk_stats` of a chunk of up to L batches from batch g of a synthetic
        instance, drawn batch by batch in the compiled scan (:func:`~dpbandits.contextual._scan.mass_scan`:
        the law of ``MassFeeder.draw`` and :meth:`_chunk_noise`, nothing drawn after the first event)."""
        cfg, st, bins = self.config, self.settings, self.bins
        act = bins["active"]
        nb, k = act.shape
        n_in_bin = np.stack([q[g:g + L] for q in bins["seq"]], axis=1)
        split = np.array(self.arm_split(s, probs), dtype=float).reshape(k - 1, nb)
        tau_s, depth_ok = self._depth_terms()
        others = [m for m in range(self.n_src) if m != s]
        state = {"t": np.empty(nb), "su": np.empty((nb, k)), "sv": np.empty((nb, k)), "est": np.empty((nb, k)),
                 "r": np.empty((nb, k))}
        elim, refine = np.empty((nb, k), dtype=bool), np.empty(nb, dtype=bool)
        i, hit = mass_scan(
            n_in_bin, split, np.ascontiguousarray(bins["rew"][:, s, :]), cfg.noise == "faithful",
            4.0 / self.eps[s] if cfg.private else 0.0, self.rngs["arms"], self.rngs["rewards"], self.rngs["noise"],
            act, bins["t"], bins["su"], bins["sv"], s, *self._others_terms(s, others, act.shape), self.eps[s] ** 2,
            st.warmup, cfg.private, cfg.var_private, cfg.var_nonprivate, cfg.batch, st.c_n, tau_s, depth_ok,
            _BANDS[cfg.band], cfg.refine_arms == "post", _REFINE_RULES[cfg.refine_rule], state["t"], state["su"],
            state["sv"], state["est"], state["r"], elim, refine)
        return state, elim, refine, i, hit

    def _chunk_stats(self, s: int, n_b, counts, vsum, L: int):
        """The chunk's statistics up to its first batch with an event (an elimination or a
        refinement), or its last batch: (that batch's state, its decisions elim (bins, K) and
        refine (bins,), its index in the chunk, event?). The state holds t, su, sv, est and r
        (and the authors' bound's ev, eu, bv and allowed) of source s."""
        cfg, st, bins, B = self.config, self.settings, self.bins, self.config.batch
        noise_u, noise_v = self._chunk_noise(s, n_b, counts.shape)
        tau_s, depth_ok = self._depth_terms()
        others = [m for m in range(self.n_src) if m != s]
        act = bins["active"]
        if cfg.cb == "paper":  # compiled (_scan module docstring)
            nb, k = act.shape
            state = {"t": np.empty(nb), "su": np.empty((nb, k)), "sv": np.empty((nb, k)), "est": np.empty((nb, k)),
                     "r": np.empty((nb, k))}
            elim, refine = np.empty((nb, k), dtype=bool), np.empty(nb, dtype=bool)
            if noise_u is None:
                noise_u = noise_v = np.zeros(counts.shape)
            i, hit = paper_scan(
                counts, vsum, noise_u, noise_v, act, bins["t"], bins["su"], bins["sv"], s,
                *self._others_terms(s, others, act.shape), self.eps[s] ** 2, st.warmup, cfg.private,
                cfg.var_private, cfg.var_nonprivate, B, st.c_n, tau_s, depth_ok, _BANDS[cfg.band],
                cfg.refine_arms == "post", _REFINE_RULES[cfg.refine_rule], state["t"], state["su"], state["sv"],
                state["est"], state["r"], elim, refine)
            return state, elim, refine, i, hit
        # refcode: the authors' sum-of-cumulative-sums bound (spec A13 / 2.8 block), private
        counts = np.where(act, counts, 0)
        vsum = np.where(act, vsum, 0.0)
        su = bins["su"][:, s, :] + np.cumsum(counts + noise_u, axis=0)
        sv = bins["sv"][:, s, :] + np.cumsum(vsum + noise_v, axis=0)
        t = bins["t"][:, s][None, :] + B * np.arange(1, L + 1)[:, None]
        eps = self.eps[s]
        tt = t[..., None]
        lam = np.where(tt > st.warmup, np.minimum(1.0, eps**2 * su / tt), 0.0)
        ev = bins["ev"][:, s] + np.cumsum(sv * lam, axis=0)
        eu = bins["eu"][:, s] + np.cumsum(su * lam, axis=0)
        bv = bins["bv"][:, s] + np.cumsum(np.maximum(su, tt / eps**2) * lam**2, axis=0)
        ev_o, eu_o, bv_o = self._others_terms(s, others, act.shape)
        f = np.clip((ev + ev_o) / (eu + eu_o + 1e-4), 0.0, 1.0)
        with np.errstate(divide="ignore"):
            r = np.sqrt(bv + bv_o + 1e-4) / np.abs(eu + eu_o) * math.sqrt(st.c_n)
        allowed = t >= st.warmup
        elim, refine = _decide(f, r, act, tau_s, depth_ok, cfg)
        elim &= allowed[..., None]
        refine &= allowed
        hit = np.flatnonzero((elim.any(axis=-1) | refine).any(axis=1))
        i = int(hit[0]) if hit.size else L - 1
        state = {"t": t[i], "su": su[i], "sv": sv[i], "ev": ev[i], "eu": eu[i], "bv": bv[i], "est": f[i],
                 "allowed": allowed[i], "r": r[i]}
        return state, elim[i], refine[i], i, bool(hit.size)

    def _depth_terms(self) -> tuple[np.ndarray, np.ndarray]:
        """tau_s and depth < s_max per bin (constant until an event)."""
        if self._depth_key != self._version:
            depth = self.bins["depth"]
            self._depth = (tau(depth, self.d, self.settings.tau_c), depth < self.settings.s_max)
            self._depth_key = self._version
        return self._depth

    def _others_terms(self, s: int, others: list[int], shape) -> tuple:
        """The other sources' terms of (26)-(28) (or of the authors' bound): constant while source
        s is fed, until an event reorders the bins, so computed once per (s, partition version)."""
        key = (s, self._version)
        if self._others_key != key:
            bins, st, cfg = self.bins, self.settings, self.config
            if cfg.cb == "paper":
                num, den, var = np.zeros(shape), np.zeros(shape), np.zeros(shape)
                for m in others:
                    a_, b_, c_ = _paper_terms(bins["t"][:, m][:, None], bins["su"][:, m], bins["sv"][:, m],
                                              self.eps[m], st.warmup, cfg.private, cfg.var_private,
                                              cfg.var_nonprivate)
                    num, den, var = num + a_, den + b_, var + c_
                self._others = (num, den, var)
            else:
                self._others = tuple(sum((bins[name][:, m] for m in others), np.zeros(shape))
                                     for name in ("ev", "eu", "bv"))
            self._others_key = key
        return self._others

    def _commit(self, s: int, state: dict) -> None:
        self._commits += 1
        bins = self.bins
        bins["su"][:, s] = state["su"]
        bins["sv"][:, s] = state["sv"]
        bins["t"][:, s] = state["t"]
        if self.config.cb == "refcode":
            bins["ev"][:, s] = state["ev"]
            bins["eu"][:, s] = state["eu"]
            bins["bv"][:, s] = state["bv"]
            upd = state["allowed"]
            bins["est"][upd] = state["est"][upd]
        else:
            bins["est"] = state["est"]

    # -- main loop --------------------------------------------------------------------------

    def run(self) -> LDPMABResult:
        t0 = time.perf_counter()
        nt = self.n_target_batches
        regret = np.zeros(nt)
        reward = np.zeros(nt) if isinstance(self.feeder, SampleFeeder) else None
        x_mask = np.zeros(nt, dtype=np.int64) if self.test_point is not None else None
        x_start = None
        g, chunk, window = 0, 16, 16
        while g < self.n_batches:
            s = int(self.batch_source[g])
            phase_end = self.source_start[s] + (self.sources[s].n // self.config.batch)
            gt = g - self.source_start[self.target]
            if self.sources[s].target and x_start is None:
                x_start = self._x_mask()
            nb = self.bins["node"].size
            if nb == 0:  # every bin frozen: the policy is final
                if self.sources[s].target and reward is None:
                    regret[gt:] = self.frozen_rate
                    if x_mask is not None:
                        x_mask[gt:] = self._x_mask()
                    break
                if not self.sources[s].target:
                    g = phase_end
                    continue
            if self.sources[s].target and self._compiled_target:
                mask = self._x_mask()  # the policy's, before the window's event is applied
                done, hit = self._expweights_batches(s, g, min(window, phase_end - g), regret[gt:],
                                                     None if reward is None else reward[gt:])
                if x_mask is not None:
                    x_mask[gt:gt + done] = mask
                window = 16 if hit else min(2 * window, _MAX_WINDOW)
                g += done
                continue
            per_batch = max(1, nb * self.k)
            L = int(min(chunk, phase_end - g, max(1, _MAX_CHUNK_ELEMENTS // per_batch)))
            if self.sources[s].target and self.config.arm_policy == "expweights":
                L = 1
            probs = self.feeder.policy_probs(self, s)
            if nb and self._compiled_chunks:
                state, elim, refine, i, hit = self._mass_chunk(s, g, L, probs)
                extra = None
            else:
                n_b, counts, vsum, extra = self.feeder.draw(self, s, g, L, probs)
                if nb:
                    state, elim, refine, i, hit = self._chunk_stats(s, n_b, counts, vsum, L)
                else:
                    i = L - 1
            if self.sources[s].target:
                span = slice(gt, gt + i + 1)
                if reward is not None:
                    reward[span] = extra[0][: i + 1]
                    if extra[1] is not None:
                        regret[span] = extra[1][: i + 1]
                else:
                    regret[span] = self._regret_rate()
                if x_mask is not None:
                    x_mask[span] = self._x_mask()
            if nb:
                self._commit(s, state)
                if hit:
                    if self.trace is not None:
                        self._trace_decisions(s, state, elim, refine, g + i)
                    self._apply_events(elim, refine, g + i)
                    chunk = max(16, 2 * (i + 1))
                else:
                    chunk = 2 * chunk
            g += i + 1
        leaves = self._leaves()
        # eq. (1) sums per-bin contributions: partitions that differ but give the same policy
        # differ by float rounding (~1e-9); 4 decimals keep paired tests from seeing that noise
        return LDPMABResult(
            regret=round(float(regret.sum()), 4), regret_curve=regret, reward_curve=reward, x_mask=x_mask,
            x_mask_start=int(x_start if x_start is not None else self._x_mask()),
            n_leaves=int(leaves["lo"].shape[0]), max_depth=self.max_depth, n_splits=self.n_splits,
            n_eliminations=self.n_elims, seconds=time.perf_counter() - t0, settings=self.settings,
            leaves=leaves, trace=self.trace)

    def _expweights_batches(self, s: int, g: int, n: int, regret: np.ndarray,
                            reward: np.ndarray | None = None) -> tuple[int, bool]:
        """Up to ``n`` target batches from batch g in the compiled loop of the authors_code preset
        (:mod:`dpbandits.contextual._expweights` on a synthetic instance,
        :mod:`dpbandits.contextual._samples` on a dataset; the same draws and arithmetic as the
        per-batch numpy path: _chunk_stats with L = 1), then the event of the last batch, if any,
        as the main loop applies it. Writes the batches' regret from ``regret[0]`` (on a dataset:
        the realised reward from ``reward[0]``, and the pseudo-regret when the target has mean
        rewards ``f``); returns (batches simulated, event)."""
        bins, st = self.bins, self.settings
        nb, k = bins["active"].shape
        tau_s, depth_ok = self._depth_terms()
        ev_o, eu_o, bv_o = self._others_terms(s, [m for m in range(self.n_src) if m != s], (nb, k))
        elim, refine = np.empty((nb, k), dtype=bool), np.empty(nb, dtype=bool)
        r, allowed = np.empty((nb, k)), np.empty(nb, dtype=bool)
        eps = self.eps[s]
        stats = (bins["t"], bins["su"], bins["sv"], bins["ev"], bins["eu"], bins["bv"], s)
        shared = (ev_o, eu_o, bv_o, tau_s, depth_ok, self.config.batch, eps**2, 4.0 / eps, st.warmup,
                  math.sqrt(st.c_n))
        if isinstance(self.feeder, SampleFeeder):
            B, src = self.config.batch, self.feeder.data[s]
            sl = slice((g - self.source_start[s]) * B, (g - self.source_start[s] + n) * B)
            node = self.tree.route(src["x"][sl])
            f = src.get("f")
            done, hit = sample_target_batches(
                node, self.node_row[node], np.ascontiguousarray(src["y"][sl], dtype=float),
                np.zeros((1, k)) if f is None else np.ascontiguousarray(f[sl], dtype=float), f is not None,
                self.frozen_arm, bins["active"], bins["depth"], bins["est"], *stats, *shared, self.rngs["arms"],
                self.rngs["noise"], reward, regret, elim, refine, r, allowed)
        else:
            done, hit = target_batches(
                np.stack([q[g:g + n] for q in bins["seq"]], axis=1), bins["active"], bins["depth"], bins["est"],
                *stats, bins["mass_p"], bins["gap"], np.ascontiguousarray(bins["rew"][:, s, :]), *shared,
                self.frozen_rate, self.rngs["arms"], self.rngs["rewards"], self.rngs["noise"], regret, elim, refine, r,
                allowed)
        self._commits += done
        if hit:
            if self.trace is not None:
                self._trace_decisions(s, {"r": r, "allowed": allowed}, elim, refine, g + done - 1)
            self._apply_events(elim, refine, g + done - 1)
        return done, hit

    def _trace_decisions(self, s, state, elim, refine, g) -> None:
        bins, st = self.bins, self.settings
        warm = (bins["t"] >= st.warmup).any(axis=1)
        if self.config.cb == "refcode":
            warm = state["allowed"]
        for row in np.flatnonzero(elim.any(axis=1) | refine):
            self.trace.append({
                "kind": "decision", "g": g, "node": int(bins["node"][row]), "depth": int(bins["depth"][row]),
                "lo": self.tree.lo[int(bins["node"][row])].copy(), "hi": self.tree.hi[int(bins["node"][row])].copy(),
                "born": int(bins["born"][row]), "t_sum": float(bins["t"][row].sum()),
                "batch": self.config.batch, "active": bins["active"][row].copy(),
                "eliminated": elim[row].copy(), "refined": bool(refine[row]), "r": state["r"][row].copy(),
                "tau": float(tau(bins["depth"][row], self.d, st.tau_c)), "warm": bool(warm[row]),
                "s_max": st.s_max})

    def _leaves(self) -> dict:
        """The final partition: lo, hi, active mask and depth of every leaf; for the bins still
        active (not frozen) also t (users received while active, summed over the sources) and the
        radius r per arm of (14)/(28) (NaN for frozen bins and the authors' bound)."""
        bins, nodes = self.bins, self.bins["node"]
        lo = [self.tree.lo[nodes]] + [c[0][None] for c in self.frozen_cells]
        hi = [self.tree.hi[nodes]] + [c[1][None] for c in self.frozen_cells]
        masks = [bins["active"]] + [np.eye(self.k, dtype=bool)[[c[2]]] for c in self.frozen_cells]
        lo, hi = np.concatenate(lo), np.concatenate(hi)
        nf = len(self.frozen_cells)
        r = np.full((nodes.size, self.k), np.nan)
        if self.config.cb == "paper" and nodes.size:
            st, cfg = self.settings, self.config
            num, den, var = (np.zeros(bins["active"].shape) for _ in range(3))
            for m in range(self.n_src):
                a_, b_, c_ = _paper_terms(bins["t"][:, m][:, None], bins["su"][:, m], bins["sv"][:, m], self.eps[m],
                                          st.warmup, cfg.private, cfg.var_private, cfg.var_nonprivate)
                num, den, var = num + a_, den + b_, var + c_
            r = _radius(num, den, var, st.c_n)[1]
        depth = np.rint(-np.log2(np.prod(hi - lo, axis=1))).astype(np.int64)
        return {"lo": lo, "hi": hi, "active": np.concatenate(masks), "depth": depth,
                "t": np.concatenate([bins["t"].sum(axis=1), np.full(nf, np.nan)]),
                "r": np.concatenate([r, np.full((nf, self.k), np.nan)])}


def run_ldpmab(config: LDPMABConfig, sources: list[Source], seed: np.random.SeedSequence, *,
               instance=None, data: list[dict] | None = None, k: int | None = None,
               d: int | None = None, test_point=None, trace: bool = False) -> LDPMABResult:
    """One run of Algorithm 3 (Algorithm 2 when no auxiliary source has data).

    ``sources``: the auxiliary datasets in feeding order (n = 0 allowed: declared but empty, as the
    code's M) followed by exactly one target source. Synthetic runs are memoised (``_RUN_CACHE``):
    a repeated (config, sources, seed, instance, test point) returns the same result object. Give either a synthetic ``instance``
    (:class:`MassFeeder`) or ``data`` (one dict per source, :class:`SampleFeeder`, with ``k`` and
    ``d``). ``test_point`` records the active arms at x per target batch (Figure 6)."""
    if sum(s.target for s in sources) != 1 or not sources[-1].target:
        raise ValueError("sources must end with exactly one target source")
    fed = [s for s in sources if s.n > 0]
    if not config.private and any(math.isfinite(s.epsilon) for s in fed) and config.noise != "faithful":
        raise ValueError("a non-private config takes no noise mode")
    if instance is not None:
        key = None
        if not trace:
            entropy = tuple(seed.entropy) if isinstance(seed.entropy, (list, tuple)) else seed.entropy
            key = (config, tuple(sources), entropy, tuple(seed.spawn_key), seed.pool_size, instance,
                   None if test_point is None else tuple(np.ravel(test_point)))
            if key in _RUN_CACHE:
                return _RUN_CACHE[key]
        feeder = MassFeeder(instance, sources, config.batch)
        res = _Run(config, instance.d, instance.k, sources, feeder, seed, test_point, trace).run()
        if key is not None and res.regret_curve.size <= 5_000:  # at most ~2000 x 40 kB
            if len(_RUN_CACHE) >= 2_000:
                _RUN_CACHE.clear()
            _RUN_CACHE[key] = res
        return res
    elif data is not None:
        if k is None or d is None:
            raise ValueError("data runs need k and d")
        feeder = SampleFeeder(data, config.batch)
    else:
        raise ValueError("give a synthetic instance or data")
    return _Run(config, d, k, sources, feeder, seed, test_point, trace).run()
