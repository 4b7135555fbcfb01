"""Binary-tree (binary mechanism) counter: Dwork, Naor, Pitassi & Rothblum 2010; Chan, Shi &
Song 2011. Exact form as in the dueling specification, section 2.1.

Privacy accounting. With ``L = floor(log2 T_max) + 1`` levels, every stream element lies in exactly
one dyadic node per level, i.e. in ``L`` nodes. Changing one element by at most 1 changes the node
vector by at most ``L`` in l1, so ``Lap(L / epsilon)`` per node makes the node vector epsilon-DP;
every output ``c_t`` is a sum of at most ``L`` completed nodes (post-processing).

Error: ``c_t - S_t`` is a sum of ``popcount(t)`` i.i.d. Lap(L/epsilon), so its variance is
``2 * popcount(t) * (L / epsilon)**2``.
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism

__all__ = ["BinaryTreeCounter"]


class BinaryTreeCounter:
    """epsilon-DP running sums of a stream of at most ``max_length`` elements.

    Node ``(h, j)`` (level h, j >= 1) covers elements ``((j-1) 2^h, j 2^h]``. Its noisy value is
    drawn once, when the block completes.
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
        self._partial = np.zeros(self.levels)  # exact sum of the open block at each level
        self._noisy = np.zeros(self.levels)  # noisy value of the last completed node per level
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
        self._partial += value
        for h in range(self.levels):
            if self.t % (1 << h) == 0:  # node (h, t >> h) completes now
                self._noisy[h] = self._partial[h] + self.laplace.noise(self._rng)
                self._partial[h] = 0.0
        return self.value()

    def value(self) -> float:
        """c_t: sum of the completed nodes selected by the binary digits of t."""
        return float(sum(self._noisy[h] for h in range(self.levels) if (self.t >> h) & 1))

    def noise_variance(self, t: int | None = None) -> float:
        """Var(c_t - S_t) = 2 popcount(t) (L / epsilon)^2."""
        t = self.t if t is None else t
        return 2.0 * bin(t).count("1") * self.laplace.scale**2
