"""Algorithm 2 of the paper: DP Successive Elimination for Quantiles (DP-SEQ).

Paper, Algorithm 2 (lines as in spec 2.4), epochs e = e_*, e_* + 1, ... with Gamma_e = 2^-e and
m_e = |A| frozen at the start of the epoch:

    n_e = ceil(max{16 / Gamma_e^2, 64 (m_e - 1) / (Gamma_e eps)} log(6 m_e e^2 / delta))   (line 8)
    pull every active arm n_e times, FRESH samples, sort                                 (lines 9-11)
    i = floor(n_e (q - Gamma_e / 2)),  j = ceil(n_e (q + Gamma_e / 2))                   (line 12)
    for every ordered pair (a, b), a != b:
        Z_ab ~ Lap(2 (m_e - 1) / eps)                                                    (line 14)
        ell*_ab = max{0 <= l <= L : X^b_(j + l') <= X^a_(i - l') for all l' <= l}         (line 15)
        remove b if max{0, ell*_ab} + Z_ab >= T_e = 4 (m_e - 1) / eps log(6 m_e^2 e^2 / delta)  (line 16)

``e`` in the formulas is the epoch index, not Euler's number. Resolutions (spec 2.4, 7.1):

* e_* = smallest e >= 1 with Gamma_e / 2 <= min(q, 1 - q): epochs start at 1 (the paper's
  N would allow e = 0 and log 0; its union bound sum_{e >= 0} is infinite);
* empty set in line 15 (X^b_(j) > X^a_(i)): ell* = -1, so max{0, ell*} = 0 (the proof's "ell* = 0");
* range L = min(i - 1, n_e - j) (so i - l >= 1); i is clamped to >= 1 and j to <= n_e;
* frozen A_e: b is removed iff some a != b triggers; noise is drawn for all m_e (m_e - 1)
  ordered pairs (post-processing of the exact mechanism). If every arm would be removed, A_e is
  kept and the run flagged (``guard``);
* eps = inf is refused (plugging it in literally zeroes noise and threshold and eliminates every
  arm, spec 7.1 #12); the non-private epoch variant is :mod:`dpbandits.quantile.epoch_seq`.

Privacy (Theorem 6; spec 2.4 (j)): event-level pure eps-DP under continual observation on the
reward table (neighbours differ in one sample X^a_n). max{0, ell*_ab} has global sensitivity 1
(a changed sample moves every order statistic by at most one rank; checked by A8); the Laplace
mechanism with scale 2 (m_e - 1) / eps makes each comparison eps / (2 (m_e - 1))-DP; arm a takes
part in 2 (m_e - 1) ordered pairs, so basic composition gives eps per epoch; epochs read disjoint
samples (parallel composition), and the schedule is post-processing. The accounting is tight: on
tied samples one changed sample moves both orders of a pair (2 (m - 1) statistics), and the exact
per-epoch loss reaches eps (on distinct samples only one order of each pair can be positive, and
it is eps/2). The exact per-epoch loss is :func:`privacy_loss` (A9); the black-box audit of two
epochs is in :mod:`dpbandits.quantile.checks.audits`.

Engines: :func:`dp_seq_run` takes a source (:mod:`dpbandits.quantile.sources`): the reference
reads sorted fresh samples (full ell*); the fast engine draws only the order statistics within
the decision window W = min(L, ceil(T_e + max |Z|) + 1) (ell* >= W already decides "remove"
whatever the noise, so every decision is exact).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.quantile.epoch_seq import EpochAlgorithm, EpochRecords, records, run_epochs
from dpbandits.quantile.instances import QuantileInstance
from dpbandits.quantile.sources import OrderStatSource, SampleSource
from dpbandits.quantile.streams import noise_stream, run_streams

__all__ = ["e_star", "epoch_size", "epoch_ranks", "threshold", "noise_scale", "ell_star",
           "eliminate", "Epoch", "open_epoch", "close_epoch", "DPSEQ", "dp_seq_run", "simulate_dp_seq",
           "removal_probabilities", "privacy_loss", "epoch_sum_bound", "paper_bound", "elimination_epoch_bound"]


def e_star(q: float) -> int:
    """Line 3 with epochs from 1: the smallest e >= 1 with 2^-(e+1) <= min(q, 1 - q)."""
    e = 1
    while 2.0 ** -(e + 1) > min(q, 1 - q):
        e += 1
    return e


def _check_eps(epsilon: float) -> None:
    if not (np.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"DP-SEQ needs a finite epsilon > 0, got {epsilon!r} (use Epoch-SEQ for "
                         "the non-private epoch variant)")


def epoch_size(m: int, e: int, epsilon: float, delta: float) -> int:
    """Line 8 (ceil), with m = |A| at the start of epoch e."""
    _check_eps(epsilon)
    g = 2.0**-e
    return int(math.ceil(max(16 / g**2, 64 * (m - 1) / (g * epsilon)) * math.log(6 * m * e * e / delta)))


def epoch_ranks(n_e: int, e: int, q: float) -> tuple[int, int, int]:
    """Line 12 (i clamped to >= 1, j to <= n_e) and the range L = min(i - 1, n_e - j)."""
    g = 2.0**-e
    i = max(math.floor(n_e * (q - g / 2)), 1)
    j = min(math.ceil(n_e * (q + g / 2)), n_e)
    return i, j, max(min(i - 1, n_e - j), 0)


def threshold(m: int, e: int, epsilon: float, delta: float) -> float:
    """Line 16: T_e = 4 (m - 1) / eps log(6 m^2 e^2 / delta)."""
    return 4 * (m - 1) / epsilon * math.log(6 * m * m * e * e / delta)


def noise_scale(m: int, epsilon: float) -> float:
    """Line 14: Lap(2 (m - 1) / eps), i.e. eps' = eps / (2 (m - 1)) per comparison."""
    return 2 * (m - 1) / epsilon


def ell_star(low: np.ndarray, up: np.ndarray) -> int:
    """Line 15 with low[l] = X^a_(i - l), up[l] = X^b_(j + l), l = 0..W: the largest l with
    up[l'] <= low[l'] for all l' <= l, or -1 if the set is empty. The predicate is monotone
    (up non-decreasing, low non-increasing), so binary search (spec 2.4 (f))."""
    n = min(low.size, up.size)
    if n == 0 or up[0] > low[0]:
        return -1
    lo, hi = 0, n - 1  # pred(lo) holds; find the last l where it holds
    if up[hi] <= low[hi]:
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if up[mid] <= low[mid]:
            lo = mid
        else:
            hi = mid
    return lo


def eliminate(s: np.ndarray, z: np.ndarray, t: float) -> np.ndarray:
    """Frozen-set decision of line 16: remove b iff some a != b has s_ab + Z_ab >= T.
    ``s``: (m, m) statistics max{0, ell*}; ``z``: (..., m, m) noise (vectorised over copies).
    Returns the boolean removal mask (..., m) *after* the all-removed guard (then nothing is
    removed)."""
    m = s.shape[-1]
    off = ~np.eye(m, dtype=bool)
    hit = ((s + z) >= t) & off
    removed = hit.any(axis=-2)
    everything = removed.all(axis=-1, keepdims=True)
    return removed & ~everything


@dataclass(frozen=True)
class Epoch:
    """One epoch of Algorithm 2 as it starts: its index, the active set's size m_e, the sample
    size n_e (line 8), the ranks i, j and range L (line 12), the threshold T_e (line 16) and the
    noise Z of every ordered pair (line 14; zero on the diagonal)."""

    e: int
    m: int
    n_e: int
    i: int
    j: int
    span: int
    t: float
    z: np.ndarray


def open_epoch(e: int, m: int, q: float, epsilon: float, delta: float, noise: np.random.Generator,
                noise_multiplier: float = 1.0) -> Epoch:
    """Epoch ``e`` with ``m`` active arms: its constants, and its noise drawn from ``noise`` (the
    m (m - 1) ordered pairs (a, b) in order) before any of its samples is read."""
    n_e = epoch_size(m, e, epsilon, delta)
    i, j, span = epoch_ranks(n_e, e, q)
    mech = LaplaceMechanism(epsilon / (2 * (m - 1)), 1.0, noise_multiplier)
    z = np.zeros((m, m))
    z[~np.eye(m, dtype=bool)] = mech.noise(noise, size=m * (m - 1))
    return Epoch(e, m, n_e, i, j, span, threshold(m, e, epsilon, delta), z)


def close_epoch(ep: Epoch, active: list[int], source, trace: list | None = None) -> tuple[list[int], bool]:
    """Lines 12-16 of epoch ``ep`` on the order statistics of its fresh samples (``source``, after
    ``source.epoch(active, ep.n_e)``): the arms removed and whether the all-removed guard kept the
    set. A source with ``exact_window`` reads ell* over its whole range; otherwise only the window
    W = min(L, ceil(T_e + max |Z|) + 1) that can decide (module docstring)."""
    m, i, j, t = ep.m, ep.i, ep.j, ep.t
    w = ep.span if source.exact_window else min(ep.span, int(math.ceil(t + np.abs(ep.z).max())) + 1)
    ranks = np.concatenate([np.arange(i - w, i + 1), np.arange(j, j + w + 1)])
    low, up = [], []
    for a in active:
        v = source.order_stats(a, ranks)
        low.append(v[: w + 1][::-1])
        up.append(v[w + 1:])
    s = np.zeros((m, m))
    for x, y in product(range(m), range(m)):
        if x != y:
            s[x, y] = max(0, ell_star(low[x], up[y]))
    removed = eliminate(s, ep.z, t)
    if trace is not None:
        trace.append({"epoch": ep.e, "m": m, "n_e": ep.n_e, "i": i, "j": j, "T": t, "arms": list(active),
                      "s": s, "z": ep.z, "removed": removed})
    fired = bool(((s + ep.z >= t) & ~np.eye(m, dtype=bool)).any(axis=0).all())
    return [a for a, r in zip(active, removed, strict=True) if r], fired


class DPSEQ(EpochAlgorithm):
    """Algorithm 2 as an :class:`~dpbandits.quantile.epoch_seq.EpochAlgorithm`: each epoch opens
    with :func:`open_epoch` (its noise drawn from ``noise`` before any of its samples is read)
    and closes with :func:`close_epoch`. ``max_epoch``: the last epoch (a run still undecided there
    is censored); ``noise_multiplier`` < 1 only as an audit's negative control; ``trace`` (a list)
    receives one dict per epoch (m, n_e, i, j, T, s, z).

    Privacy (Theorem 6, module docstring): eps-DP under continual observation, neighbouring
    reward tables differing in one sample."""

    private = True
    mechanism = ("Laplace(2 (m_e - 1) / eps) on every ordered pair's statistic max{0, ell*_ab} of an epoch "
                 "(Algorithm 2, line 14)")
    sensitivity = ("1 per pair statistic; 2 (m_e - 1) statistics per changed sample, so eps per epoch by basic "
                   "composition; epochs read disjoint samples")

    def __init__(self, k: int, q: float, delta: float, epsilon: float, noise: np.random.Generator,
                 max_epoch: int = 30, noise_multiplier: float = 1.0, trace: list | None = None):
        _check_eps(epsilon)
        self.q, self.delta, self.epsilon = float(q), float(delta), float(epsilon)
        self.noise, self.noise_multiplier, self.trace = noise, float(noise_multiplier), trace
        super().__init__(k, e_star(self.q), max_epoch)

    def _open(self, e: int) -> int:
        self.epoch = open_epoch(e, len(self.active), self.q, self.epsilon, self.delta, self.noise,
                                 self.noise_multiplier)
        return self.epoch.n_e

    def _close(self, source) -> list[int] | None:
        gone, fired = close_epoch(self.epoch, self.active, source, self.trace)
        return None if fired else gone  # the guard fired: eliminate() removed nothing


def dp_seq_run(instance: QuantileInstance, epsilon: float, delta: float, source,
               noise: np.random.Generator, max_epoch: int, noise_multiplier: float = 1.0,
               trace: list | None = None) -> dict:
    """One run of Algorithm 2 on ``source`` (:class:`DPSEQ`, :func:`run_epochs`)."""
    return run_epochs(DPSEQ(instance.k, instance.q, delta, epsilon, noise, max_epoch, noise_multiplier, trace), source)


def simulate_dp_seq(instance: QuantileInstance, epsilon: float, delta: float, runs: int,
                    seed: np.random.SeedSequence, max_epoch: int = 30, engine: str = "fast",
                    noise_multiplier: float = 1.0) -> EpochRecords:
    """``runs`` runs; run r reads the reward streams and the noise stream of (seed, r).
    ``engine`` = "fast" (order statistics in the decision window) or "reference"."""
    source_cls = {"fast": OrderStatSource, "reference": SampleSource}[engine]
    rows = [dp_seq_run(instance, epsilon, delta, source_cls(instance, run_streams(seed, r, instance.k)),
                       noise_stream(seed, r), max_epoch, noise_multiplier) for r in range(runs)]
    return records(rows)


# ---------------------------------------------------------------------------------------------
# Exact privacy loss of one epoch (check A9) and the sample-complexity bounds (B10, B11)


def _log_cdf_below(x, scale):
    """log P(Z < x) for Z ~ Lap(scale), computed stably."""
    x = np.asarray(x, dtype=float)
    return np.where(x < 0, np.log(0.5) + x / scale, np.log1p(-0.5 * np.exp(-np.abs(x) / scale)))


def _log_sf(x, scale):
    """log P(Z >= x)."""
    x = np.asarray(x, dtype=float)
    return np.where(x >= 0, np.log(0.5) - x / scale, np.log1p(-0.5 * np.exp(-np.abs(x) / scale)))


def removal_probabilities(s: np.ndarray, t: float, scale: float) -> np.ndarray:
    """log P(b kept) per arm b = sum_{a != b} log P(Z_ab < T - s_ab) (independent noise)."""
    m = s.shape[0]
    off = ~np.eye(m, dtype=bool)
    logs = np.where(off, _log_cdf_below(t - s, scale), 0.0)
    return logs.sum(axis=0)


def privacy_loss(s: np.ndarray, s_prime: np.ndarray, t: float, scale: float) -> dict:
    """Exact privacy loss of one epoch between neighbouring statistics matrices (spec A9):
    max over removal sets R of |log P(R | s) - log P(R | s')| (raw R and the guarded output),
    and the loss of the full vector of pairwise decisions."""
    m = s.shape[0]
    off = ~np.eye(m, dtype=bool)

    def set_logs(stat):
        log_keep = removal_probabilities(stat, t, scale)
        p_keep = np.exp(log_keep)
        with np.errstate(divide="ignore"):
            log_remove = np.log1p(-np.minimum(p_keep, 1.0))
        out = {}
        for mask in product((False, True), repeat=m):
            mask = np.array(mask)
            out[tuple(mask)] = float(np.where(mask, log_remove, log_keep).sum())
        return out

    def diff(x, y):
        return 0.0 if x == y == -np.inf else abs(x - y)

    a, b = set_logs(s), set_logs(s_prime)
    raw = max(diff(a[r], b[r]) for r in a)
    # guarded output: "nothing removed" absorbs "everything removed"
    none, full = tuple([False] * m), tuple([True] * m)
    ga = {r: v for r, v in a.items() if r != full}
    gb = {r: v for r, v in b.items() if r != full}
    ga[none] = float(np.logaddexp(a[none], a[full]))
    gb[none] = float(np.logaddexp(b[none], b[full]))
    guarded = max(diff(ga[r], gb[r]) for r in ga)
    # pairwise decision vector: product over pairs of Bernoulli(P(Z >= T - s))
    d_hit = np.abs(_log_sf(t - s, scale) - _log_sf(t - s_prime, scale))
    d_miss = np.abs(_log_cdf_below(t - s, scale) - _log_cdf_below(t - s_prime, scale))
    pairwise = float(np.where(off, np.maximum(d_hit, d_miss), 0.0).sum())
    return {"raw": float(raw), "guarded": float(guarded), "pairwise": pairwise}


def elimination_epoch_bound(gap: float, q: float) -> int:
    """Theorem 7(b): a suboptimal arm is removed by epoch max(e_*, ceil(log2(1 / Delta)))."""
    return max(e_star(q), math.ceil(math.log2(1 / gap) - 1e-12))


def epoch_sum_bound(gap: float, k: int, q: float, epsilon: float, delta: float) -> int:
    """U^DP_a (spec 3, derived): sum over e = e_*..e^UB of ceil(max{16 4^e, 64 (K - 1) 2^e / eps}
    log(6 K e^2 / delta)); on Theorem 7's event T_a <= U^DP_a (n_e grows with |A| <= K)."""
    return int(sum(epoch_size(k, e, epsilon, delta) for e in range(e_star(q), elimination_epoch_bound(gap, q) + 1)))


def paper_bound(gap: float, k: int, epsilon: float, delta: float) -> float:
    """Theorem 8's explicit constant: (1/Delta^2 + K/(eps Delta)) 512 log(6K/delta log(1/Delta))."""
    return (1 / gap**2 + k / (epsilon * gap)) * 512 * math.log(6 * k / delta * math.log(1 / gap))
