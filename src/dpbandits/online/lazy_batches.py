"""The inner mechanism shared by Algorithm 1 (Anytime-Lazy-UCB) and Algorithm 3 (Lazy-DP-TS).

Per arm, observations are collected in forgetful doubling batches (sizes 1, 2, 4, ...). When a
batch completes, its reward *sum* is released with one Lap(1/epsilon) draw and divided by the
batch size; earlier batches are discarded (Alg. 1 steps 1 and 2.3-2.4; Alg. 3 lines 6-9).

Privacy accounting (Theorems 2 and 4): a changed reward vector at round h changes only the
observed reward X_{J_h}(h), which enters exactly one released sum (sensitivity 1), so each
released sum is epsilon-DP by the Laplace mechanism and the batches are disjoint; everything the
algorithms do with the private means is post-processing.
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms.laplace import LaplaceMechanism

__all__ = ["DoublingBatchMeans"]


class DoublingBatchMeans:
    """State ``O, r, mu_tilde, N, Phi`` of the online paper's section 2 notation, for K arms."""

    def __init__(self, n_arms: int, epsilon: float, rng: np.random.Generator,
                 noise_multiplier: float = 1.0, copies: int | None = None):
        self.laplace = LaplaceMechanism(epsilon=epsilon, sensitivity=1.0,
                                        noise_multiplier=noise_multiplier)
        self.epsilon = float(epsilon)
        self.rng = rng
        self.O = np.ones(n_arms, dtype=np.int64)  # size of the last processed batch
        self.r = np.zeros(n_arms, dtype=np.int64)  # index of the last processed epoch
        # ``copies``: the black-box audit runs many independent noise draws on one fixed data
        # stream at once; then each private mean is a vector of ``copies`` values.
        self.copies = copies
        self.mu_tilde = np.zeros(n_arms if copies is None else (n_arms, copies))
        self.N = np.zeros(n_arms, dtype=np.int64)  # observations in the open batch
        self.Phi = np.zeros(n_arms)  # reward sum of the open batch
        self.releases = np.zeros(n_arms, dtype=np.int64)
        self.batch_sizes: list[list[int]] = [[] for _ in range(n_arms)]

    def initialise(self, arm: int, reward: float) -> None:
        """Initialisation round of ``arm`` (Alg. 1 step 1): a batch of size 1."""
        self.O[arm] = 1
        self.r[arm] = 0
        self.mu_tilde[arm] = (reward + self.laplace.noise(self.rng, self.copies)) / 1.0
        self.N[arm] = 0
        self.Phi[arm] = 0.0
        self._released(arm, 1)

    def remaining(self, arm: int) -> int:
        """Observations still needed to complete the open batch of ``arm`` (2 O - N)."""
        return int(2 * self.O[arm] - self.N[arm])

    def add(self, arm: int, n_obs: int, total: float) -> bool:
        """Add ``n_obs`` observations summing to ``total``; release if the batch completes.

        Returns True when a release happened. Adding past the batch end is an error.
        """
        self.N[arm] += n_obs
        self.Phi[arm] += total
        if self.N[arm] > 2 * self.O[arm]:
            raise RuntimeError("batch overrun: an engine skipped a release")
        if self.N[arm] == 2 * self.O[arm]:  # N_{J_t} = 2^{r+1}
            self.O[arm] *= 2
            self.mu_tilde[arm] = ((self.Phi[arm] + self.laplace.noise(self.rng, self.copies))
                                  / self.O[arm])
            self.r[arm] += 1
            self.N[arm] = 0
            self.Phi[arm] = 0.0
            self._released(arm, int(self.O[arm]))
            return True
        return False

    def _released(self, arm: int, size: int) -> None:
        self.releases[arm] += 1
        self.batch_sizes[arm].append(size)
