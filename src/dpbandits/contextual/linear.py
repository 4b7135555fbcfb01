"""The "Linear" LDP baseline of Table 2: Han, Liang, Wang & Zhang (NeurIPS 2021), Algorithm 2 there,
as the contextual spec infers it (section 5.2; the authors' implementation is not released).

Model: one logistic reward model per arm, f_k(x) = sigma(theta_k^T (x, 1)), parameters initialised
at 0 and learnt by locally private SGD on the log-loss:

* user t (or auxiliary holder) computes, from the public parameters, the greedy arm
  argmax_k f_k(x) (random tie-break), pulls it and observes y;
* its gradient vector over all K arms is (f_a(x) - y) grad_theta_a on the pulled arm's block and 0
  elsewhere (the "synthetic update": the released vector has the same shape whatever the arm);
* the vector is clipped to l2-norm C and released with Laplace noise of scale 2 C sqrt(P) / eps on
  each of its P = K p coordinates. Privacy accounting: ||g||_1 <= sqrt(P) ||g||_2 <= sqrt(P) C, so two
  users' vectors differ by at most 2 sqrt(P) C in l1: eps-LDP. The arm never leaves the user;
* the server averages the batch's noisy vectors and takes a step theta <- theta - lr mean.

"w" (with auxiliary data): before the target stream, the same private SGD runs over the logged
(x, arm, reward) of the FIRST auxiliary dataset with its budget eps_m (the authors' code, spec A25).
Defaults C = 1, lr = 0.01 and batch 100 are the authors' call ``LinearPolicy(eps, n, K, d, batch,
1, 0.01)``. Everything is vectorised over repetitions (leading axis R): each repetition has its
own parameters, data order and noise. :mod:`dpbandits.contextual.nn` swaps the model.
"""

from __future__ import annotations

import numpy as np

from dpbandits.mechanisms import laplace_sum

__all__ = ["LogisticModel", "private_sgd_bandit", "LinearResult"]


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


class LogisticModel:
    """Per-arm logistic regression on (x, 1)."""

    def __init__(self, d: int):
        self.d = d
        self.p = d + 1

    def init(self, r: int, k: int, rng: np.random.Generator) -> np.ndarray:
        return np.zeros((r, k, self.p))

    def _features(self, x):
        return np.concatenate([x, np.ones(x.shape[:-1] + (1,))], axis=-1)

    def predict(self, params: np.ndarray, x: np.ndarray) -> np.ndarray:
        """params (R, K, p), x (R, B, d) -> (R, B, K)."""
        return _sigmoid(np.einsum("rbp,rkp->rbk", self._features(x), params))

    def grad(self, params, x, arm, y) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters: (R, B, p)."""
        xt = self._features(x)
        theta = np.take_along_axis(params, arm[..., None], axis=1)  # (R, B, p)
        pred = _sigmoid(np.einsum("rbp,rbp->rb", xt, theta))
        return (pred - y)[..., None] * xt


class LinearResult:
    def __init__(self, reward_curve: np.ndarray, regret_curve: np.ndarray | None = None):
        self.reward_curve = reward_curve  # (R, batches): realised reward per target batch
        self.regret_curve = regret_curve  # (R, batches): pseudo-regret per batch (if f_target given)


def _sgd_step(model, params, x, arm, y, eps, clip, lr, rng):
    r, b = arm.shape
    k = params.shape[1]
    g = model.grad(params, x, arm, y)  # (R, B, p)
    norm = np.linalg.norm(g, axis=-1, keepdims=True)
    g = g * np.minimum(1.0, clip / np.maximum(norm, 1e-300))
    total = np.zeros_like(params)  # sum over the batch of the (R, K, p) vectors
    for a in range(k):
        total[:, a] = np.sum(np.where((arm == a)[..., None], g, 0.0), axis=1)
    if np.isfinite(eps):
        scale = 2.0 * clip * np.sqrt(k * model.p) / eps
        total = total + laplace_sum(rng, b, scale, size=params.shape)
    return params - lr * total / b


def private_sgd_bandit(model, x_target: np.ndarray, y_target: np.ndarray, order: np.ndarray, epsilon: float,
                       batch: int, rng: np.random.Generator, *, aux: tuple | None = None,
                       aux_epsilon: float | None = None, clip: float = 1.0, lr: float = 0.01,
                       f_target: np.ndarray | None = None) -> LinearResult:
    """Run R repetitions at once on one dataset.

    ``x_target`` (n, d) and ``y_target`` (n, K) (the reward each arm would give) are shared;
    ``order`` (R, n) gives each repetition's arrival order. ``aux = (x, y, order, arm)`` with
    shapes (m, d), (m, K), (R, m), (R, m): the first auxiliary dataset and each repetition's
    order and logged behaviour arms (pre-training with ``aux_epsilon``). Returns the realised
    reward per target batch (the remainder of n // batch is dropped) and, when the mean rewards
    ``f_target`` (n, K) are given, the pseudo-regret per batch."""
    r, n = order.shape
    k = y_target.shape[1]
    params = model.init(r, k, rng)
    if aux is not None:
        xa, ya, order_a, arm_a = aux
        for i in range(order_a.shape[1] // batch):
            sl = slice(i * batch, (i + 1) * batch)
            idx, arm = order_a[:, sl], arm_a[:, sl]
            y = ya[idx, arm]
            params = _sgd_step(model, params, xa[idx], arm, y, aux_epsilon, clip, lr, rng)
    n_batches = n // batch
    rewards = np.zeros((r, n_batches))
    regrets = np.zeros((r, n_batches)) if f_target is not None else None
    for i in range(n_batches):
        idx = order[:, i * batch:(i + 1) * batch]
        x = x_target[idx]
        pred = model.predict(params, x) + 1e-9 * rng.random((r, batch, k))  # random tie-break
        arm = pred.argmax(axis=-1)
        y = y_target[idx, arm]
        rewards[:, i] = y.sum(axis=1)
        if regrets is not None:
            f = f_target[idx]
            regrets[:, i] = (f.max(axis=-1) - np.take_along_axis(f, arm[..., None], axis=-1)[..., 0]).sum(axis=1)
        params = _sgd_step(model, params, x, arm, y, epsilon, clip, lr, rng)
    return LinearResult(rewards, regrets)
