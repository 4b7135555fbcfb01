"""Hybrid counter for streams of unknown length (Chan, Shi & Song 2011, section 4).

Segments: element 1 alone, then ``(2^k, 2^(k+1)]`` for k = 0, 1, 2, ...
* A logarithmic mechanism releases each completed segment's sum with Lap(2/epsilon) noise;
  its running total gives the private count at every power of two.
* Inside the current segment, a :class:`BinaryTreeCounter` of length ``2^k`` at epsilon/2 counts
  the elements seen so far in that segment.

Privacy accounting: an element lies in exactly one segment sum (sensitivity 1, Lap(2/eps):
epsilon/2) and in exactly one binary tree (epsilon/2), so the counter is epsilon-DP by basic
composition over the two disjoint mechanisms' outputs (post-processing for c_t).
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism
from dpbandits.mechanisms.tree_counter import BinaryTreeCounter

__all__ = ["HybridCounter"]


class HybridCounter:
    """epsilon-DP running sums of an unbounded stream."""

    def __init__(self, epsilon: float, rng: np.random.Generator, noise_multiplier: float = 1.0):
        self.epsilon = float(epsilon)
        self.segment_laplace = LaplaceMechanism(epsilon=epsilon / 2.0, sensitivity=1.0,
                                                noise_multiplier=noise_multiplier)
        self._noise_multiplier = noise_multiplier
        self._rng = rng
        self.t = 0
        self.true_sum = 0.0
        self._log_total = 0.0  # noisy count up to the last segment boundary
        self._segment_sum = 0.0
        self._segment_end = 1
        self._tree: BinaryTreeCounter | None = None

    def _open_tree(self) -> None:
        length = self._segment_end - self.t
        self._tree = (BinaryTreeCounter(length, self.epsilon / 2.0, self._rng, self._noise_multiplier)
                      if length > 0 else None)

    def add(self, value: float) -> float:
        self.t += 1
        self.true_sum += value
        self._segment_sum += value
        if self._tree is not None:
            self._tree.add(value)
        if self.t == self._segment_end:  # segment complete: logarithmic-mechanism release
            self._log_total += self._segment_sum + self.segment_laplace.noise(self._rng)
            self._segment_sum = 0.0
            self._segment_end *= 2
            self._open_tree()
        return self.value()

    def value(self) -> float:
        inside = self._tree.value() if (self._tree is not None and self._tree.t > 0) else 0.0
        return self._log_total + inside

    def noise_variance(self) -> float:
        """Var(c_t - S_t): one segment noise per completed segment plus the tree's noise."""
        completed = int(np.floor(np.log2(self.t))) + 1 if self.t >= 1 else 0
        var = completed * 2.0 * self.segment_laplace.scale**2
        if self._tree is not None and self._tree.t > 0:
            var += self._tree.noise_variance()
        return var
