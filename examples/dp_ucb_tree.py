"""DP-UCB with one binary-tree counter per arm: an epsilon-DP bandit algorithm that is not in the
online paper, as an example of ``online.extra_algorithms`` (README, "The Python API,
and bringing your own algorithm").

The idea is Mishra & Thakurta (2015) and Tossou & Dimitrakakis (2016): keep each arm's reward sum
in a private counter under continual observation (the binary mechanism of Dwork, Naor, Pitassi &
Rothblum 2010 and Chan, Shi & Song 2011) and run UCB on the private sums. Written for this
project from those descriptions, with the library's counter
(:class:`dpbandits.mechanisms.tree_counter.BatchedTreeCounter`).

Algorithm (K arms, horizon T, L = floor(log2 (T - K + 1)) + 1 tree levels: an arm is pulled at
most T - K + 1 times; b = L / epsilon):

* rounds 1..K pull arm j at round j; afterwards pull argmax_j of
  ``c_j / n_j + sqrt(2 ln t / n_j) + width * b * sqrt(L) * ln(t) / n_j``,
  with n_j the arm's pulls, c_j its private running sum (ties to the lowest index);
* every reward of arm j is pushed into arm j's counter, whose nodes carry Lap(b) noise.

Privacy (epsilon-DP under the online paper's Definition 1: two reward tables that differ in one
round's reward vector): the changed round's observed reward is one element of one arm's stream,
so it changes one counter's nodes by at most 1 each, in L nodes: l1 sensitivity L, and Lap(L/eps)
per node makes that counter's node vector epsilon-DP (the other counters do not change). The arm
and stream position the change enters are decided by earlier, identical data, and the binary
mechanism stays epsilon-DP when its stream is chosen adaptively from its own past outputs (the
argument of the papers cited); the actions are post-processing of the released sums.
The privacy term of the index bounds the counter's error, a sum of at most L Lap(b) draws, with
high probability (up to constants: ``width`` scales it).

Interface: the per-step one of :mod:`dpbandits.online.interface`, and its optional vectorised
form (``copies``), so the audit and the simulation advance many copies together.
"""

from __future__ import annotations

import math

import numpy as np

from dpbandits.mechanisms.tree_counter import BatchedTreeCounter, tree_levels


class DPUCBTree:
    """DP-UCB on per-arm tree counters (module docstring). ``width`` scales the privacy term
    of the index (1 is the default); ``noise_multiplier`` multiplies the counters' Laplace scale
    (1 is the real mechanism; < 1 only as the audit's negative control)."""

    private = True

    def __init__(self, n_arms: int, epsilon: float, horizon: int, rng: np.random.Generator, *,
                 width: float = 1.0, noise_multiplier: float = 1.0, copies: int | None = None):
        if not epsilon > 0:
            raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
        self.k, self.copies = int(n_arms), copies
        n = 1 if copies is None else int(copies)
        self.levels = tree_levels(max(horizon - self.k + 1, 1))  # an arm holds <= T - K + 1 rewards
        self.b = self.levels / float(epsilon)  # the node scale the algorithm accounts for
        self.width = float(width)
        self.counter = BatchedTreeCounter(n, self.k, self.levels, noise_multiplier * self.b, rng)
        self.rows = np.arange(n)
        self.n = np.zeros((n, self.k))
        self.c = np.zeros((n, self.k))  # private running sums

    @property
    def releases(self) -> np.ndarray:
        """Counter outputs released per arm (one per pull): shape (K,) or (copies, K)."""
        out = self.n.astype(np.int64)
        return out[0] if self.copies is None else out

    def select(self, t: int):
        if t <= self.k:
            arms = np.full(self.rows.size, t - 1)
        else:
            log_t = math.log(t)
            index = (self.c / self.n + np.sqrt(2.0 * log_t / self.n)
                     + self.width * self.b * math.sqrt(self.levels) * log_t / self.n)
            arms = np.argmax(index, axis=1)
        return int(arms[0]) if self.copies is None else arms

    def update(self, t: int, arm, reward) -> None:
        arms = np.atleast_1d(np.asarray(arm, dtype=np.int64))
        rewards = np.atleast_1d(np.asarray(reward, dtype=float))
        self.n[self.rows, arms] += 1
        self.c[self.rows, arms] = self.counter.push(self.rows, arms, rewards)
