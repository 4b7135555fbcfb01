"""Binary-tree (binary mechanism) counter: Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi &
Song 2011. Exact form as in the dueling specification, section 2.1.

Privacy accounting. With ``L = floor(log2 T_max) + 1`` levels, every stream element lies in exactly
one dyadic node per level, i.e. in ``L`` nodes. Changing one element by at most 1 changes the node
vector by at most ``L`` in l1, so ``Lap(L / epsilon)`` per node makes the node vector epsilon-DP;
every output ``c_t`` is a sum of at most ``L`` completed nodes (post-processing).

Error: ``c_t - S_t`` is a sum of ``popcount(t)`` i.i.d. Lap(L/epsilon), so its variance is
``2 * popcount(t) * (L / epsilon)**2``.

One mechanism, four implementations for four access patterns (same nodes, same noise law, so the
accounting above holds for each):

* :class:`BinaryTreeCounter`: one stream, element by element (the reference implementation);
* :func:`tree_release`: the outputs c_1..c_T of a batch of complete streams (rows), vectorised.
  With ``exact_order=True`` it draws the node noises exactly as :class:`BinaryTreeCounter` objects
  sharing the generator and fed one stream after the other (same draws, same outputs up to
  rounding); ``exact_order=False`` draws the same nodes level by level as an exponential times a
  random sign (same law, other draws);
* :class:`TreeCounterNoise`: the noise path noise(s) = c_s - S_s of one counter at arbitrary
  stream positions, computed lazily in blocks, draw for draw as :class:`BinaryTreeCounter` (the
  node noises do not depend on the data, so c_s = S_s + noise(s)); used by the block engine of
  the dueling paper's Algorithm 1;
* :class:`BatchedTreeCounter`: a (copies x K) grid of independent counters updated together,
  vectorised over the copies; it draws in its own order (per update, one draw per copy in the
  given order), so each counter has the law of a :class:`BinaryTreeCounter` but not the same
  draws as separate counters sharing the generator; used by the dueling paper's black-box audit
  harness.

Every form draws noise only for the nodes an output uses (at element t, the top completed node
(ctz(t), t >> ctz(t)); one draw per element): a lower node completed at t has an even index and
is never part of any c_t', so its noise would be read by no output.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dpbandits.mechanisms.laplace import LaplaceMechanism

__all__ = ["BinaryTreeCounter", "BatchedTreeCounter", "TreeCounterNoise", "tree_release",
           "tree_levels"]


class BinaryTreeCounter:
    """epsilon-DP running sums of a stream of at most ``max_length`` elements.

    Node ``(h, j)`` (level h, j >= 1) covers elements ``((j-1) 2^h, j 2^h]``. Its noisy value is
    drawn once, when the block completes, for the nodes an output can use: at element t the
    completed nodes are those of levels h <= ctz(t); only the top one, (ctz(t), t >> ctz(t)) with
    an odd index, is ever part of a release c_t' (bit h of t' set means t' >> h is odd), so it is
    the only one given its Lap(L / epsilon) noise (one draw per element). The lower, even-indexed
    nodes would have noise that no output reads; leaving it undrawn changes no output's law and
    the accounting above (every node noised) covers the released ones.
    """

    def __init__(self, max_length: int, epsilon: float, rng: np.random.Generator,
                 noise_multiplier: float = 1.0):
        if int(max_length) < 1:
            raise ValueError(f"max_length must be >= 1, got {max_length!r}")
        self.max_length = int(max_length)
        self.levels = int(np.floor(np.log2(self.max_length))) + 1
        # Each element touches `levels` nodes: per-node sensitivity 1, total l1 sensitivity L.
        self.laplace = LaplaceMechanism(epsilon=epsilon, sensitivity=self.levels,
                                        noise_multiplier=noise_multiplier)
        self.epsilon = float(epsilon)
        self._rng = rng
        self.t = 0
        # per level (plain floats: an element costs a few scalar operations, cheaper than numpy's)
        self._partial = [0.0] * self.levels  # exact sum of the open block
        self._noisy = [0.0] * self.levels  # noisy value of the last completed node
        self.true_sum = 0.0

    def nodes_of(self, t: int) -> list[tuple[int, int]]:
        """The L nodes (level, index) containing element t (accounting helper)."""
        return [(h, (t - 1) // (1 << h) + 1) for h in range(self.levels)]

    def add(self, value: float) -> float:
        """Append one element and return the private running sum c_t."""
        if self.t >= self.max_length:
            raise ValueError(f"stream longer than max_length={self.max_length}")
        self.t += 1
        self.true_sum += value
        partial = self._partial
        for h in range(self.levels):
            partial[h] += value
        h = 0
        while h < self.levels and self.t % (1 << h) == 0:  # node (h, t >> h) completes now
            top = h + 1 == self.levels or self.t % (1 << (h + 1)) != 0
            # only the top node (odd index) is ever released: the others keep no noise, unread
            self._noisy[h] = partial[h] + self._node_noise() if top else partial[h]
            partial[h] = 0.0
            h += 1
        return self.value()

    def _node_noise(self) -> float:
        """One node's Lap(L / epsilon) noise, drawn as b (E1 - E2) with E1, E2 i.i.d. Exp(1) (two
        ``standard_exponential`` draws: exactly Laplace, and cheaper than ``rng.laplace``'s
        logarithm); nothing is drawn when the scale is 0."""
        b = self.laplace.scale
        if b == 0:
            return 0.0
        e1 = self._rng.standard_exponential()  # two scalar calls: cheaper than one of size 2,
        e2 = self._rng.standard_exponential()  # and the same values as the block forms' bulk calls
        return b * (e1 - e2)

    def value(self) -> float:
        """c_t: sum of the completed nodes selected by the binary digits of t."""
        return float(sum(self._noisy[h] for h in range(self.levels) if (self.t >> h) & 1))

    def noise_variance(self, t: int | None = None) -> float:
        """Var(c_t - S_t) = 2 popcount(t) (L / epsilon)^2."""
        t = self.t if t is None else t
        return 2.0 * bin(t).count("1") * self.laplace.scale**2


def tree_levels(max_length: int) -> int:
    """L = floor(log2 T_max) + 1 (the number of levels, and of nodes containing an element)."""
    return int(max_length).bit_length()


def _odd_nodes(length: int, levels: int) -> list[np.ndarray]:
    """Per level h < L, the indices j = 1, 3, 5, ... of the completed odd nodes (j 2^h <= T): the
    only nodes a release c_t uses (bit h of t set  <=>  t >> h odd)."""
    return [np.arange(1, (length >> h) + 1, 2, dtype=np.int64) for h in range(levels)]


def _assemble(values: list[np.ndarray], length: int) -> np.ndarray:
    """c[:, t - 1] = sum_{h: bit_h(t) = 1} values[h][:, (t >> h) // 2] for t = 1..T, where
    ``values[h]`` holds one row per stream and one column per odd node (j = 1, 3, ...) of level h.

    Summed from the top level down, in O(T) (compiled): c_t = c_{t - lowbit(t)} + the node
    (ctz(t), t >> ctz(t)), c_0 = 0; for T = 2^k, c_T is the single node (k, 1) itself."""
    offsets = np.cumsum([0] + [v.shape[1] for v in values[:-1]])
    out = np.empty((values[0].shape[0], length))
    _release_path(np.concatenate(values, axis=1), offsets, out)
    if length & (length - 1) == 0:
        out[:, -1] = values[length.bit_length() - 1][:, 0]
    return out


@njit(cache=True)
def _release_path(nodes, offsets, out):
    """The recurrence of :func:`_assemble`; node (h, j) of row r is nodes[r, offsets[h] + j // 2]."""
    for r in range(out.shape[0]):
        for t in range(1, out.shape[1] + 1):
            h = 0
            while (t >> h) & 1 == 0:
                h += 1
            par = t & (t - 1)  # t - lowbit(t)
            out[r, t - 1] = (out[r, par - 1] if par > 0 else 0.0) + nodes[r, offsets[h] + (t >> (h + 1))]


def _odd_block_sums(x: np.ndarray, levels: int) -> list[np.ndarray]:
    """Exact block sums of the completed odd nodes of each level (pairwise, bottom-up, O(T))."""
    n, length = x.shape
    p = 1 << int(length - 1).bit_length()
    cur = np.zeros((n, p))
    cur[:, :length] = x
    out = []
    for h in range(levels):
        m = ((length >> h) + 1) // 2
        out.append(cur[:, 0::2][:, :m].copy() if cur.shape[1] > 1 else cur[:, :m].copy())
        cur = cur[:, 0::2] + cur[:, 1::2] if cur.shape[1] > 1 else np.zeros((n, 1))
    return out


def tree_release(streams, epsilon: float, rng: np.random.Generator, *, max_length: int | None = None,
                 noise_multiplier: float = 1.0, exact_order: bool = True) -> np.ndarray:
    """Outputs c_1..c_T of the BinTree of spec 2.1 for a batch of streams (rows), vectorised.

    Node (h, j) holds its block sum plus eta_{h,j} ~ Lap(b), b = L / epsilon (times the test-only
    ``noise_multiplier``); c_t = sum_{h: bit_h(t)=1} node(h, t >> h), so the error is
    noise(t) = sum_h bit_h(t) eta_h[t >> h]. Only odd nodes (t >> h odd) are ever released.

    ``exact_order=True`` draws the released nodes as the counter does (b (E1 - E2), one node per
    element, stream after stream), so the result equals feeding the streams one after the other
    to :class:`BinaryTreeCounter` objects sharing ``rng``. ``exact_order=False`` draws
    the same nodes level by level as an exponential times a random sign (same law, other draws)."""
    x = np.atleast_2d(np.asarray(streams, dtype=float))
    n, length = x.shape
    levels = tree_levels(length if max_length is None else max_length)
    b = noise_multiplier * levels / epsilon
    odd = _odd_nodes(length, levels)
    if exact_order:
        e = rng.standard_exponential((n, length, 2))  # element t's draw: its top node (ctz(t), t >> ctz(t))
        flat = b * (e[..., 0] - e[..., 1]) if b > 0 else np.zeros((n, length))
        noise = [flat[:, (j << h) - 1] for h, j in enumerate(odd)]
    else:
        noise = _fast_laplace(rng, b, (n, sum(j.size for j in odd)), [j.size for j in odd])
    sums = _odd_block_sums(x, levels)
    return _assemble([s + eta for s, eta in zip(sums, noise, strict=True)], length)


def _fast_laplace(rng: np.random.Generator, b: float, shape, sizes) -> list[np.ndarray]:
    """Lap(b) draws as b x Exp(1) x a random sign (the sign from packed random bytes)."""
    draws = rng.standard_exponential(shape)
    total = int(np.prod(shape))
    bits = np.unpackbits(rng.integers(0, 256, size=(total + 7) // 8, dtype=np.uint8))[:total]
    sign = bits.reshape(shape).astype(np.float64)
    sign *= -2.0 * b
    sign += b  # +b or -b
    draws *= sign
    return np.split(draws, np.cumsum(sizes)[:-1], axis=1)


class TreeCounterNoise:
    """noise(s) = c_s - S_s of a :class:`BinaryTreeCounter` at every stream position s, computed
    lazily, consuming the generator exactly like the counter does (one Laplace draw at position
    s, for the top node (ctz(s), s >> ctz(s)), the only node completed at s that an output uses),
    so that noise(s) = noise(s - lowbit(s)) + eta_top(s).

    ``levels`` is L and ``scale`` the Laplace scale of a node (``BinaryTreeCounter.laplace.scale``
    of the same counter: L / epsilon times the noise multiplier; 0 draws nothing). ``at(q)``
    returns noise(q) for an array of positions q >= the last ``trim`` and ``window(start, n)``
    noise(start .. start + n - 1); ``trim(pos)`` forgets the positions before ``pos``, so memory
    stays proportional to the positions still needed.

    The path is extended in blocks: the block's draws come from one ``standard_exponential`` call
    (the same values as the counter's one-by-one calls, bit for bit: b (E1 - E2) per node) and a
    compiled loop (:func:`_noise_path`) adds each to its parent's noise."""

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
        out = np.zeros(hi - s0)
        if self.scale != 0:
            if hi.bit_length() + 1 > self.pref.size:  # beyond 2^(L+1): higher levels hold noise(0)
                self.pref = np.concatenate([self.pref, np.zeros(hi.bit_length() + 1 - self.pref.size)])
            e = self.rng.standard_exponential(2 * out.size)  # the counter's draws, in its order
            _noise_path(self.scale * (e[0::2] - e[1::2]), s0, self.pref, out)
        self.vals = np.concatenate([self.vals, out])

    def at(self, q: np.ndarray) -> np.ndarray:
        hi = int(q.max()) if q.size else self.base
        if hi > self.upto:
            self._extend(int(max(hi, self.upto + 1024)))
        return self.vals[q - self.base]

    def window(self, start: int, n: int) -> np.ndarray:
        """noise(start), ..., noise(start + n - 1) for start >= the last ``trim`` (a view)."""
        hi = int(start) + int(n) - 1
        if hi > self.upto:
            self._extend(max(hi, self.upto + 1024))
        return self.vals[start - self.base: hi + 1 - self.base]

    def trim(self, pos: int) -> None:
        """Forget the positions before ``pos`` (noise(pos) itself is kept)."""
        pos = int(pos)
        if pos > self.upto:
            self._extend(pos + 1024)
        drop = pos - self.base
        if drop > 0:
            self.vals = self.vals[drop:].copy() if drop > 4096 else self.vals[drop:]
            self.base = pos


@njit(cache=True)
def _noise_path(eta, s0, pref, out):
    """noise(s0 + 1 .. s0 + out.size) into ``out`` from the top-node draws ``eta`` (one per
    position): noise(s) = eta_top(s) + noise(s - lowbit(s)), the parent read from ``out`` or, when
    it precedes the window, from ``pref`` (pref[h] = noise((s >> h) << h) of the last position s,
    updated at the end)."""
    for i in range(out.size):
        s = s0 + 1 + i
        c = 0  # ctz(s)
        while (s >> c) & 1 == 0:
            c += 1
        par = s & (s - 1)  # s - lowbit(s) = (s >> (c + 1)) << (c + 1)
        out[i] = eta[i] + (out[par - s0 - 1] if par > s0 else pref[c + 1])
    hi = s0 + out.size
    for h in range(pref.size):
        p = (hi >> h) << h
        if p > s0:
            pref[h] = out[p - s0 - 1]


class BatchedTreeCounter:
    """(copies x K) independent binary-tree counters with ``levels`` levels and node scale
    ``scale`` (L / epsilon times the noise multiplier; 0 draws nothing), updated together.

    ``push(c, j, value)`` appends ``value`` to counter j of copies c (distinct copies) and returns
    their new outputs. Draw order: per push, one ``standard_exponential`` call with one node
    noise b (E1 - E2) per copy (in the order of ``c``), the noise of the copy's top completed node (ctz(pos), pos >> ctz(pos)),
    the only one an output uses, as in :class:`BinaryTreeCounter` (so one copy of one counter
    draws exactly as that counter does). A counter holds at most 2^levels - 1 elements (not
    checked: the caller sizes ``levels`` as L of its T_max)."""

    def __init__(self, copies: int, k: int, levels: int, scale: float, rng: np.random.Generator):
        self.levels, self.scale, self.rng = levels, scale, rng
        self.pos = np.zeros((copies, k), dtype=np.int64)
        self.partial = np.zeros((copies, k, levels))
        self.noisy = np.zeros((copies, k, levels))

    def push(self, c: np.ndarray, j: np.ndarray, value) -> np.ndarray:
        """Append value to counter j of copies c (distinct copies); return the new outputs."""
        pos = self.pos[c, j] + 1
        self.pos[c, j] = pos
        nodes = _push_nodes(self.partial, self.noisy, c, j, pos,
                            np.broadcast_to(value, pos.shape).astype(float), self._node_noise(c, j))
        return self._outputs(nodes, pos)

    def _node_noise(self, c: np.ndarray, j: np.ndarray) -> np.ndarray:
        """The noise of the node each push completes: b (E1 - E2) per copy, in the order of c, as
        BinaryTreeCounter draws a node (nothing drawn at scale 0)."""
        if self.scale <= 0:
            return np.zeros(c.size)
        e = self.rng.standard_exponential((c.size, 2))
        return self.scale * (e[:, 0] - e[:, 1])

    def value(self, c: np.ndarray, j: np.ndarray) -> np.ndarray:
        return self._outputs(self.noisy[c, j], self.pos[c, j])

    def _outputs(self, nodes: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """Outputs from the counters' last completed nodes (rows) and stream lengths."""
        bits = (pos[:, None] >> np.arange(self.levels)) & 1
        return (nodes * bits).sum(axis=1)


@njit(cache=True)
def _push_nodes(partial, noisy, c, j, pos, value, noise):
    """The element-wise part of :meth:`BatchedTreeCounter.push`, copies in order: value is added
    to every open block of counter (c[i], j[i]); at each level h with 2^h | pos[i] the node
    completes and its block restarts; the top one (h = ctz(pos[i])) gets the copy's draw
    noise[i], the others (never released) none. Returns the counters' node values (one row per
    copy)."""
    levels = partial.shape[2]
    nodes = np.empty((c.size, levels))
    for i in range(c.size):
        ci, ji = c[i], j[i]
        for h in range(levels):
            partial[ci, ji, h] += value[i]
        h = 0
        while h < levels and pos[i] % (1 << h) == 0:
            top = h + 1 == levels or pos[i] % (1 << (h + 1)) != 0
            noisy[ci, ji, h] = partial[ci, ji, h] + noise[i] if top else partial[ci, ji, h]
            partial[ci, ji, h] = 0.0
            h += 1
        nodes[i] = noisy[ci, ji]
    return nodes
