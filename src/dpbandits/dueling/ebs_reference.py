"""Per-round reference engine of DP-EBS-Elimination (dueling paper, Algorithm 1; the
algorithm, its variants and widths are described in :mod:`.ebs_params`).

:class:`DPEBSEliminationReference` is the plain implementation: one
:class:`~dpbandits.mechanisms.tree_counter.BinaryTreeCounter` per arm, an optional white-box
trace (:class:`EBSTrace`, check A3), fixed o-tables and forced eliminations (A6(b)). It
consumes the random streams of :func:`~.ebs_result.stream_names` exactly as the block engine
:mod:`.ebs_fast` does, which is tested against it run by run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from dpbandits.dueling.ebs_params import EBSConfig, EBSParams
from dpbandits.dueling.ebs_result import EBSRun, check_checkpoints, stream_names
from dpbandits.dueling.instances import FiniteInstance
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter
from dpbandits.rng import stream_rngs

__all__ = ["EBSTrace", "DPEBSEliminationReference"]

# what each variant releases (ebs_params) and what one user's answer can change in it
_MECHANISMS = {
    "r1": "one binary-tree counter per arm (Lemma 2) releases its noisy Borda sum, Laplace noise on every "
          "tree node at eps_c = counter_share * eps: 2 eps_c-DP by the R1 accounting (eps/2 at the default "
          "counter_share 1/4)",
    "naive": "as r1 with eps_c = eps / (2K) per counter",
    "literal": "as r1, but the +1 element enters only when o_t = 1: the stream length reveals o_t "
               "(not DP; the audit's negative control)",
    "ldp": "randomized response on each answer (kept with probability e^eps / (1 + e^eps)), debiased: eps-LDP",
    "nonprivate": "none: exact sums",
}
_SENSITIVITY = {
    "r1": "o_t enters its left arm's counter stream at most twice (+o_t, then -o_t when its right arm "
          "is eliminated), coefficients +1 and -1",
    "naive": "as r1",
    "literal": "as r1 in value, but the number of elements depends on o_t",
    "ldp": "each answer is randomised on its own (local)",
    "nonprivate": "none (not private)",
}


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
        rngs = stream_rngs(seed, stream_names(k))
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

    # the dueling family's protocol (dpbandits.dueling.interface): select, then the user's
    # answer (drawn from the same ``duels`` stream, u_o after u_b, by step or by the runner), then update
    @property
    def private(self) -> bool:
        return self.config.variant != "nonprivate"

    @property
    def mechanism(self) -> str:
        return _MECHANISMS[self.config.variant]

    @property
    def sensitivity(self) -> str:
        return _SENSITIVITY[self.config.variant]

    @property
    def answer_stream(self) -> np.random.Generator:
        """The ``duels`` stream: u_b for :meth:`select`, then u_o for the user's answer."""
        return self._duels

    def select(self) -> tuple[int, int]:
        """The duel (a_t, b_t) of the next round (R5: a_t = argmin n over S, b_t uniform on S,
        one uniform u_b of the ``duels`` stream); (i^, i^) once committed."""
        if self.committed:
            return self.chosen, self.chosen
        if self.t >= self.horizon:
            raise RuntimeError("no round left to play")
        S, nn = self._S, self._n
        m = len(S)
        a = min(S, key=lambda i: (nn[i], i))  # argmin n, smallest index on ties (R5)
        b = S[min(int(self._duels.random() * m), m - 1)]
        return a, b

    def step(self) -> None:
        """Play round t + 1 (must not be committed): :meth:`select`, the user's answer
        o_t = 1{u_o < P(a_t, b_t)} (or the o-table's), :meth:`update`."""
        if self.committed or self.t >= self.horizon:
            raise RuntimeError("no round left to play")
        a, b = self.select()
        u_o = self._duels.random()
        o = int(u_o < self._Pl[a][b]) if self.o_table is None else int(self.o_table[self.t])
        self.update(a, b, o)

    def update(self, left: int, right: int, left_won: int) -> None:
        """Round t + 1 with the duel (left, right) that :meth:`select` returned and the user's
        answer o_t = left_won (R6-R8: privatise, count, eliminate)."""
        if self.committed:  # the duel (i^, i^) to the horizon: nothing is learnt
            self.t += 1
            self.left_plays[left] += 1
            self.plays[left] += 1
            self.plays[right] += 1
            return
        self.t += 1
        t, cfg, p = self.t, self.config, self.params
        S, nn = self._S, self._n
        m = len(S)
        a, b, o = left, right, int(left_won)
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

    def run(self, checkpoints=None) -> EBSRun:
        """Play to the horizon (after commit: (i^, i^) every round) and return the outcome."""
        T = self.horizon
        cp = check_checkpoints(checkpoints if checkpoints is not None else [T], T)
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
        return EBSRun(reg_p, reg_u, int(self.commit_time), int(self.chosen),
                       bool(self.instance.best not in self._S), bool(self.ci_violation),
                       self.elim_time.copy(), count, self.left_plays.copy(), self.plays.copy())
