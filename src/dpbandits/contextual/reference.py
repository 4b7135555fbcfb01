"""A plain, per-user reference implementation of Algorithms 2-3 (audit mode; spec 2.9).

Written independently of the fast engine (:mod:`dpbandits.contextual.ldpmab`) and as literally as
possible: every user draws a context, the server's public policy gives its arm, and the user
materialises its whole report vector, one Laplace(4/eps) draw per (active bin, active arm) for U
and for V (``noise="inbin_only"``: one draw per in-bin user for its own bin only, the authors'
code). The server sums the reports of a batch per bin, then updates every active bin with scalar
arithmetic: weights (27), estimate (26), radius (28), elimination (29) and refinement (17), or
the code's sum-of-cumulative-sums bound. Single-arm bins keep refining, as in the paper.

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
from dpbandits.contextual.ldpmab import Source, expweights_probabilities, settings_for
from dpbandits.contextual.partition import split_box, split_dimension

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

    def contains(self, x: np.ndarray) -> bool:
        return bool(np.all(x >= self.lo) and np.all((x < self.hi) | ((self.hi == 1.0) & (x <= 1.0))))


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

    def _find(self, x: np.ndarray) -> int:
        for j, b in enumerate(self.bins):
            if b.contains(x):
                return j
        raise AssertionError(f"no bin contains {x}")

    def _find_all(self, x: np.ndarray) -> np.ndarray:
        """:meth:`_find` for every row of x at once (the bins are disjoint: exactly one contains
        each context)."""
        lo = np.array([b.lo for b in self.bins])
        hi = np.array([b.hi for b in self.bins])
        inside = np.all((x[:, None, :] >= lo) & ((x[:, None, :] < hi) | ((hi == 1.0) & (x[:, None, :] <= 1.0))),
                        axis=2)
        if not np.all(inside.sum(axis=1) == 1):
            raise AssertionError("the bins do not partition the contexts")
        return inside.argmax(axis=1)

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

    # -- one batch ------------------------------------------------------------------------------

    def _batch(self, m: int, g: int, messages: list[int] | None):
        cfg, s, rng = self.cfg, self.sources[m], self.rng
        B = cfg.batch
        if s.target:
            x = self.inst.sample_target(B, rng)
        else:
            x = sample_q(B, s.gamma, self.d, rng, s.sampler)
            logged = rng.choice(self.k, size=B, p=behaviour_probabilities(s.kappa, self.k))
        f = self.inst.reward(x)
        nb = len(self.bins)
        du = np.zeros((nb, self.k))
        dv = np.zeros((nb, self.k))
        regret1 = realised = 0.0
        if s.target:
            regret1 = B * self._policy_regret()
        scale = 4.0 / s.epsilon if cfg.private else 0.0
        # public within the batch: the bin of each context, each bin's arm distribution, and the
        # (bin, arm) pairs every user reports (the active ones; the authors' code: the home bin's)
        homes = self._find_all(x)
        probs = [self._arm_probs(b) for b in self.bins] if s.target else None
        public = np.zeros((nb, self.k), dtype=bool)
        for jb, b in enumerate(self.bins):
            public[jb, b.active] = True
        for i in range(B):
            j = int(homes[i])
            arm = int(rng.choice(self.k, p=probs[j])) if s.target else int(logged[i])
            y = float(rng.random() < f[i, arm])
            if s.target:
                realised += f[i].max() - f[i, arm]
            # the user's report vector: one entry per (active bin, active arm) pair
            if cfg.noise == "inbin_only":
                mask = np.zeros((nb, self.k), dtype=bool)
                mask[j] = public[j]
            else:
                mask = public
            u = np.zeros((nb, self.k))
            u[j, arm] = 1.0 if mask[j, arm] else 0.0
            if cfg.private:
                du += np.where(mask, u + scale * rng.laplace(size=u.shape), 0.0)
                dv += np.where(mask, y * u + scale * rng.laplace(size=u.shape), 0.0)
            else:
                du += u
                dv += y * u
            sent = int(mask.sum())
            if messages is not None and s.target:
                messages.append(sent)
                self.expected.append(sum(len(b.active) for b in self.bins))
        new_bins = []
        for jb, b in enumerate(self.bins):
            new_bins += self._update_bin(b, m, du[jb], dv[jb], g)
        self.bins = new_bins
        return regret1, realised

    def _policy_regret(self) -> float:
        """Eq. (1) for one user: sum_B P(B) sum_k pi_B(k) E[f* - f_k | B]."""
        lo = np.array([b.lo for b in self.bins])
        hi = np.array([b.hi for b in self.bins])
        mass, _, gap = self.inst.target_moments(lo, hi)
        probs = np.array([self._arm_probs(b) for b in self.bins])
        return float(np.sum(mass * (probs * gap).sum(axis=1)))

    def run(self, record_messages: bool = False) -> ReferenceResult:
        messages: list[int] | None = [] if record_messages else None
        curve, realised, g = [], 0.0, 0
        for m, s in enumerate(self.sources):
            for _ in range(s.n // self.cfg.batch):
                r1, r2 = self._batch(m, g, messages)
                if s.target:
                    curve.append(r1)
                    realised += r2
                g += 1
        curve = np.array(curve)
        return ReferenceResult(float(curve.sum()), realised, curve, len(self.bins), self.n_elims,
                               messages or [], self.expected, self.log)
