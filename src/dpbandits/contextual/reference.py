"""A plain, per-user reference implementation of Algorithms 2-3 (audit mode; spec 2.9).

Written independently of the fast engine (:mod:`dpbandits.contextual.ldpmab`) and as literally as
possible: every user draws a context, the server's public policy gives its arm, and the user
materialises its whole report vector, one Laplace(4/eps) draw per (active bin, active arm) for U
and for V (``noise="inbin_only"``: one draw per in-bin user for its own bin only, the authors'
code). The server sums the reports of a batch per bin, then updates every active bin with scalar
arithmetic: weights (27), estimate (26), radius (28), elimination (29) and refinement (17), or
the code's sum-of-cumulative-sums bound. Single-arm bins keep refining, as in the paper.

It is the paper's policy in the contextual family's protocol (:mod:`.interface`: ``public``, ``act``,
``receive``, ``end_batch``), with the paper's :class:`~.randomizer.LaplaceRandomizer` as the users'
side; its target users run through :func:`.interface.play_batch`, on one generator.

It is slow (O(users x bins x K)) and is used only by the tests: the fast engine must agree with it
in distribution (KS / Mann-Whitney with Holm), and the number of messages per user must equal
sum_B |A_B| whatever the user's context (spec U-PRIV-2). Regret is logged both as eq. (1) and as
the realised pseudo-regret f*(X_t) - f_{A_t}(X_t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dpbandits.contextual.config import LDPMABConfig
from dpbandits.contextual.instances import behaviour_probabilities, sample_q
from dpbandits.contextual.interface import play_batch
from dpbandits.contextual.ldpmab import Source, expweights_probabilities, settings_for
from dpbandits.contextual.partition import split_box, split_dimension
from dpbandits.contextual.randomizer import LaplaceRandomizer, PublicPartition, Report

__all__ = ["ReferenceLDPMAB", "ReferenceResult"]


@dataclass(eq=False)
class _Bin:
    lo: np.ndarray
    hi: np.ndarray
    depth: int
    active: list[int]
    n_sources: int
    k: int
    t: list[float] = field(default_factory=list)
    su: np.ndarray = None
    sv: np.ndarray = None
    ev: np.ndarray = None
    eu: np.ndarray = None
    bv: np.ndarray = None
    est: np.ndarray = None

    def __post_init__(self):
        self.t = [0.0] * self.n_sources
        z = np.zeros((self.n_sources, self.k))
        self.su, self.sv, self.ev, self.eu, self.bv = z.copy(), z.copy(), z.copy(), z.copy(), z.copy()
        self.est = np.zeros(self.k)


@dataclass
class ReferenceResult:
    regret: float  # eq. (1)
    realised_regret: float
    regret_curve: np.ndarray
    n_leaves: int
    n_eliminations: int
    messages: list[int]  # per target user: number of (bin, arm) entries released (U~ and V~ each)
    expected_messages: list[int]  # per target user: sum over active bins of |A_B| (public)
    elimination_log: list[tuple[int, int, int]]  # (global batch, depth, arm)


class ReferenceLDPMAB:
    """Per-user simulation of one run (see the module docstring)."""

    def __init__(self, config: LDPMABConfig, instance, sources: list[Source], seed: int):
        self.cfg, self.inst, self.sources = config, instance, sources
        self.rng = np.random.default_rng(seed)
        self.k, self.d = instance.k, instance.d
        self.st = settings_for(config, sources, self.d)
        self.bins = [_Bin(np.zeros(self.d), np.ones(self.d), 0, list(range(self.k)), len(sources), self.k)]
        for _ in range(config.initial_depth):  # a fixed partition (coarse_fixed): split before any user
            self.bins = [c for b in self.bins for c in self._split(b)]
        self.n_elims = 0
        self.log: list[tuple[int, int, int]] = []
        self.expected: list[int] = []
        # the protocol's state: the target source, the global batch index, eq. (1) per target
        # batch and, when recorded, the messages of every target user
        self._m = next((m for m, s in enumerate(sources) if s.target), len(sources) - 1)
        self._g = 0
        self._curve: list[float] = []
        self._messages: list[int] | None = None

    def _arm_probs(self, b: _Bin) -> np.ndarray:
        mask = np.zeros((1, self.k), dtype=bool)
        mask[0, b.active] = True
        if self.cfg.arm_policy == "expweights" and b.depth > 0:
            return expweights_probabilities(b.est[None], mask, self.k)[0]
        return mask[0] / mask.sum()

    # -- server side ------------------------------------------------------------------------

    def _stats(self, b: _Bin):
        """Estimate and radius per arm (k not active: unused)."""
        cfg, st = self.cfg, self.st
        f, r = np.zeros(self.k), np.full(self.k, np.inf)
        for k in b.active:
            if cfg.cb == "paper":
                num = den = var = 0.0
                for m, s in enumerate(self.sources):
                    t, su, sv = b.t[m], b.su[m, k], b.sv[m, k]
                    if t < st.warmup:
                        continue
                    if cfg.private:
                        lam = min(abs(s.epsilon**2 * su / t), 1.0)
                        v = max(cfg.var_private * t / s.epsilon**2, cfg.var_nonprivate * su)
                    else:
                        lam, v = 1.0, cfg.var_nonprivate * max(su, 0.0)
                    num += lam * sv
                    den += lam * su
                    var += lam * lam * v
                if den > 0:
                    f[k] = num / den
                    r[k] = math.sqrt(st.c_n * var) / den
            else:
                ev, eu, bv = b.ev[:, k].sum(), b.eu[:, k].sum(), b.bv[:, k].sum()
                f[k] = min(max(ev / (eu + 1e-4), 0.0), 1.0)
                r[k] = math.sqrt(bv + 1e-4) / abs(eu) * math.sqrt(st.c_n) if eu != 0 else math.inf
        return f, r

    def _update_bin(self, b: _Bin, m: int, du: np.ndarray, dv: np.ndarray, g: int) -> list[_Bin]:
        cfg, st = self.cfg, self.st
        eps = self.sources[m].epsilon
        b.t[m] += cfg.batch
        b.su[m] += du
        b.sv[m] += dv
        if cfg.cb == "refcode":
            for k in b.active:
                t, su = b.t[m], b.su[m, k]
                lam = min(1.0, eps**2 * su / t) if t > st.warmup else 0.0
                b.ev[m, k] += b.sv[m, k] * lam
                b.eu[m, k] += su * lam
                b.bv[m, k] += max(su, t / eps**2) * lam * lam
            if b.t[m] < st.warmup:
                return [b]
        f, r = self._stats(b)
        if cfg.cb == "refcode":
            b.est = f.copy()
        tau_s = st.tau_c * 2.0 ** (-b.depth / self.d)
        rad = {k: (2 * r[k] if cfg.band == "2r" else r[k] if cfg.band == "r" else max(r[k], tau_s))
               for k in b.active}
        max_lcb = max(f[k] - rad[k] for k in b.active)
        removed = [k for k in b.active if max_lcb > f[k] + rad[k]]
        before = list(b.active)
        b.active = [k for k in b.active if k not in removed]
        for k in removed:
            self.n_elims += 1
            self.log.append((g, b.depth, k))
        arms = b.active if cfg.refine_arms == "post" else before
        small = [r[k] < tau_s for k in arms]
        if cfg.refine_rule == "never":
            refine = False
        else:
            refine = any(small) if cfg.refine_rule == "any" else (all(small) and len(arms) > 0)
        if refine and b.depth < st.s_max:
            return self._split(b)
        return [b]

    def _split(self, b: _Bin) -> list[_Bin]:
        """Algorithm 1 on one bin; the children inherit its active arms, with empty statistics."""
        dim = split_dimension(b.lo, b.hi, self.rng)
        llo, lhi, rlo, rhi, _ = split_box(b.lo, b.hi, dim)
        return [_Bin(llo, lhi, b.depth + 1, list(b.active), len(self.sources), self.k),
                _Bin(rlo, rhi, b.depth + 1, list(b.active), len(self.sources), self.k)]

    # -- one batch of an auxiliary source --------------------------------------------------------

    def _auxiliary_batch(self, m: int, g: int) -> None:
        """A batch of auxiliary samples (Algorithm 3): logged contexts, arms and rewards, each
        sample randomised as a target user's report is (eqs. 24-25)."""
        cfg, s, rng = self.cfg, self.sources[m], self.rng
        B = cfg.batch
        x = sample_q(B, s.gamma, self.d, rng, s.sampler)
        logged = rng.choice(self.k, size=B, p=behaviour_probabilities(s.kappa, self.k))
        f = self.inst.reward(x)
        public = self._public_partition()
        local = LaplaceRandomizer(s.epsilon, rng, cfg.private, cfg.noise)
        du = np.zeros(public.active.shape)
        dv = np.zeros(public.active.shape)
        for i in range(B):
            arm = int(logged[i])
            y = float(rng.random() < f[i, arm])
            report = local.release(x[i], arm, y, public)
            du += report.u
            dv += report.v
        self._update_bins(m, g, du, dv)

    def _update_bins(self, m: int, g: int, du: np.ndarray, dv: np.ndarray) -> None:
        new_bins = []
        for jb, b in enumerate(self.bins):
            new_bins += self._update_bin(b, m, du[jb], dv[jb], g)
        self.bins = new_bins

    def _public_partition(self) -> PublicPartition:
        active = np.zeros((len(self.bins), self.k), dtype=bool)
        for jb, b in enumerate(self.bins):
            active[jb, b.active] = True
        return PublicPartition(np.array([b.lo for b in self.bins]), np.array([b.hi for b in self.bins]), active)

    # -- the contextual family's protocol (dpbandits.contextual.interface), the server's side -------
    # a target batch: public() (eq. (1)'s regret of the batch's policy, the broadcast), then per
    # user act / the reward / the randomiser's release / receive, then end_batch (eqs. 26-29, 17)

    @property
    def batch(self) -> int:
        return self.cfg.batch

    def public(self) -> PublicPartition:
        self._curve.append(self.cfg.batch * self._policy_regret())
        self._public = self._public_partition()
        self._probs = [self._arm_probs(b) for b in self.bins]
        self._du = np.zeros(self._public.active.shape)
        self._dv = np.zeros(self._public.active.shape)
        return self._public

    def act(self, x: np.ndarray) -> int:
        return int(self.rng.choice(self.k, p=self._probs[self._public.bin_of(x)]))

    def receive(self, report: Report) -> None:
        self._du += report.u
        self._dv += report.v
        if self._messages is not None:
            self._messages.append(report.sent)
            self.expected.append(sum(len(b.active) for b in self.bins))

    def end_batch(self) -> None:
        self._update_bins(self._m, self._g, self._du, self._dv)
        self._g += 1

    def _policy_regret(self) -> float:
        """Eq. (1) for one user: sum_B P(B) sum_k pi_B(k) E[f* - f_k | B]."""
        lo = np.array([b.lo for b in self.bins])
        hi = np.array([b.hi for b in self.bins])
        mass, _, gap = self.inst.target_moments(lo, hi)
        probs = np.array([self._arm_probs(b) for b in self.bins])
        return float(np.sum(mass * (probs * gap).sum(axis=1)))

    def run(self, record_messages: bool = False) -> ReferenceResult:
        self._messages: list[int] | None = [] if record_messages else None
        self._curve: list[float] = []
        realised, g, arms = 0.0, 0, np.zeros(self.k, dtype=np.int64)
        for m, s in enumerate(self.sources):
            local = LaplaceRandomizer(s.epsilon, self.rng, self.cfg.private, self.cfg.noise) if s.target else None
            for _ in range(s.n // self.cfg.batch):
                if s.target:
                    self._m, self._g = m, g
                    realised += play_batch(self, local, self.inst, self.rng, arms)
                else:
                    self._auxiliary_batch(m, g)
                g += 1
        curve = np.array(self._curve)
        return ReferenceResult(float(curve.sum()), realised, curve, len(self.bins), self.n_elims,
                               self._messages or [], self.expected, self.log)
