"""Algorithm 1 of Ma, Jiang, Zhao, Yang & Yu (the max-edge rule) and the dyadic partition tree it
grows (spec ``ldp_contextual.md`` section 2.1).

A bin is a half-open box ``prod_k [lo_k, hi_k)`` (the upper boundary 1 belongs to the last bin).
Algorithm 1 draws a dimension uniformly among the longest edges and halves the bin there; the
left child ``x^k < midpoint`` is ``B_{s+1}^{2j-1}``, the right child ``B_{s+1}^{2j}``. A depth-s
bin has volume 2^-s and edges 2^-floor(s/d) or 2^-ceil(s/d), hence diameter at most
``sqrt(d) 2^-floor(s/d) <= 2 sqrt(d) 2^(-s/d) = tau_s`` (eq. 17). Edge lengths are powers of two,
so the longest-edge ties are exact in floating point.

:class:`PartitionTree` stores the tree as flat arrays (feature, threshold, children) and routes a
batch of contexts to its leaves in a compiled descent.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["split_dimension", "split_box", "tau", "diameter_bound", "PartitionTree"]


def split_dimension(lo: np.ndarray, hi: np.ndarray, rng: np.random.Generator) -> int:
    """Algorithm 1 step 1: a dimension drawn uniformly among those with the longest edge."""
    edges = np.asarray(hi, dtype=float) - np.asarray(lo, dtype=float)
    longest = np.flatnonzero(edges == edges.max())
    return int(longest[0]) if longest.size == 1 else int(rng.choice(longest))


def split_box(lo: np.ndarray, hi: np.ndarray, dim: int):
    """Algorithm 1 step 2: halve the box along ``dim``. Returns (left_lo, left_hi, right_lo,
    right_hi, threshold); the left child holds ``x[dim] < threshold``."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    mid = 0.5 * (lo[dim] + hi[dim])
    left_hi, right_lo = hi.copy(), lo.copy()
    left_hi[dim] = mid
    right_lo[dim] = mid
    return lo.copy(), left_hi, right_lo, hi.copy(), float(mid)


def diameter_bound(depth, d: int):
    """Eq. (17): tau_s = 2 sqrt(d) 2^(-s/d), an upper bound on the diameter of a depth-s bin."""
    return 2.0 * math.sqrt(d) * np.power(2.0, -np.asarray(depth, dtype=float) / d)


def tau(depth, d: int, c_tau: float):
    """Refinement threshold c_tau 2^(-s/d): c_tau = 2 sqrt(d) is the paper's (17), c_tau = 1 the
    authors' code (spec A8)."""
    return c_tau * np.power(2.0, -np.asarray(depth, dtype=float) / d)


@njit(cache=True)
def _route(feature, threshold, left, right, x, node):
    """Descend every row of x from the root: left when x[feature] < threshold (a NaN goes right)."""
    for i in range(x.shape[0]):
        at = 0
        while left[at] >= 0:
            at = left[at] if x[i, feature[at]] < threshold[at] else right[at]
        node[i] = at


class PartitionTree:
    """A growing max-edge tree on [0, 1]^d. Node 0 is the root; ``leaf`` marks current leaves."""

    def __init__(self, d: int, capacity: int = 64):
        self.d = d
        self.feature = np.full(capacity, -1, dtype=np.int64)
        self.threshold = np.zeros(capacity)
        self.left = np.full(capacity, -1, dtype=np.int64)
        self.right = np.full(capacity, -1, dtype=np.int64)
        self.lo = np.zeros((capacity, d))
        self.hi = np.ones((capacity, d))
        self.depth = np.zeros(capacity, dtype=np.int64)
        self.size = 1

    def _grow(self) -> None:
        cap = 2 * self.feature.size
        for name, fill in (("feature", -1), ("threshold", 0.0), ("left", -1), ("right", -1),
                           ("depth", 0)):
            old = getattr(self, name)
            new = np.full(cap, fill, dtype=old.dtype)
            new[: old.size] = old
            setattr(self, name, new)
        for name in ("lo", "hi"):
            old = getattr(self, name)
            new = np.zeros((cap, self.d))
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def split(self, node: int, rng: np.random.Generator) -> tuple[int, int]:
        """Split leaf ``node`` with Algorithm 1; returns the ids of its (left, right) children."""
        if self.left[node] >= 0:
            raise ValueError(f"node {node} is not a leaf")
        while self.size + 2 > self.feature.size:
            self._grow()
        dim = split_dimension(self.lo[node], self.hi[node], rng)
        llo, lhi, rlo, rhi, thr = split_box(self.lo[node], self.hi[node], dim)
        a, b = self.size, self.size + 1
        self.size += 2
        self.feature[node], self.threshold[node] = dim, thr
        self.left[node], self.right[node] = a, b
        self.lo[a], self.hi[a], self.lo[b], self.hi[b] = llo, lhi, rlo, rhi
        self.depth[a] = self.depth[b] = self.depth[node] + 1
        return a, b

    def route(self, x: np.ndarray) -> np.ndarray:
        """Leaf id of every row of ``x`` (half-open bins; ``x < threshold`` goes left)."""
        x = np.ascontiguousarray(np.atleast_2d(np.asarray(x, dtype=float)))
        node = np.empty(x.shape[0], dtype=np.int64)
        _route(self.feature, self.threshold, self.left, self.right, x, node)
        return node

    def leaves(self) -> np.ndarray:
        ids = np.arange(self.size)
        return ids[self.left[: self.size] < 0]
