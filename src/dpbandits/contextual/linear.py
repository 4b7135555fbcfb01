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

Implementation: the per-user arithmetic (logits, greedy arm, gradients, clipping, per-arm batch
sums) runs in small numba kernels that add in numpy's order (:mod:`dpbandits.contextual._exact`),
so every parameter is bit-identical to the einsum formulation these kernels replaced (tested);
the sigmoid (``np.tanh``) and the random draws stay in numpy, in the same order. Its plain per-user
reference, in the contextual family's protocol, is :mod:`dpbandits.contextual.sgd_reference`
(the two agree in distribution: tested).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dpbandits.contextual._exact import einsum_dot, np_maximum, np_minimum, pairwise_sum
from dpbandits.mechanisms import laplace_sum

__all__ = ["LogisticModel", "private_sgd_bandit", "private_sgd_bandits", "LinearResult"]


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@njit(cache=True)
def _logistic_logits(params, x, out):
    """out[r, b, k] = theta_k^T (x_rb, 1) for params (R, K, d + 1) and x (R, B, d)."""
    r_, b_, d = x.shape
    k_ = params.shape[1]
    theta, xs = params.ravel(), x.ravel()
    xt = np.ones(d + 1)
    for r in range(r_):
        for b in range(b_):
            xt[:d] = xs[(r * b_ + b) * d:(r * b_ + b + 1) * d]
            for k in range(k_):
                out[r, b, k] = einsum_dot(xt, 0, theta, (r * k_ + k) * (d + 1), d + 1)


@njit(cache=True)
def _logistic_grads(x, sig, y, out):
    """The pulled arm's log-loss gradient (sigma(theta_a^T x~) - y) x~ with x~ = (x, 1), given
    ``sig`` = sigma(theta_a^T x~): out (R, B, d + 1)."""
    r_, b_, d = x.shape
    for r in range(r_):
        for b in range(b_):
            delta = sig[r, b] - y[r, b]
            for j in range(d):
                out[r, b, j] = delta * x[r, b, j]
            out[r, b, d] = delta


@njit(cache=True)
def _greedy(pred, u, idx, y_target, f_target, arm, y, sig, rewards, regrets):
    """Each user's greedy arm argmax_k pred_k + 1e-9 u_k (random tie-break; the first maximum,
    a NaN counting as the maximum, as np.argmax), its reward y_target[user, arm] and its
    prediction pred_arm: arm, y, sig (R, B); per repetition the batch's realised reward and,
    when ``f_target`` has rows, its pseudo-regret sum_b max_k f - f_arm (sums in numpy's
    order)."""
    r_, b_, k_ = pred.shape
    gap = np.empty(b_)
    for r in range(r_):
        for b in range(b_):
            best, top = 0, pred[r, b, 0] + 1e-9 * u[r, b, 0]
            for k in range(1, k_):
                v = pred[r, b, k] + 1e-9 * u[r, b, k]
                if top == top and (v > top or v != v):
                    best, top = k, v
            arm[r, b] = best
            y[r, b] = y_target[idx[r, b], best]
            sig[r, b] = pred[r, b, best]
            if f_target.shape[0]:
                f_max = f_target[idx[r, b], 0]
                for k in range(1, k_):
                    f_max = np_maximum(f_max, f_target[idx[r, b], k])
                gap[b] = f_max - f_target[idx[r, b], best]
        rewards[r] = pairwise_sum(y[r], 0, b_)
        if f_target.shape[0]:
            regrets[r] = pairwise_sum(gap, 0, b_)


@njit(cache=True)
def _clipped_arm_sums(g, arm, clip, total):
    """total[r, a] = sum over the batch's users b with arm a of g[r, b] clipped to l2-norm
    ``clip`` (the released per-user vector is g on the pulled arm's block, 0 elsewhere); users
    are added in batch order, as numpy's sum over the batch axis, and the norm is
    np.linalg.norm's (a pairwise sum of squares)."""
    r_, b_, p = g.shape
    total[:] = 0.0
    sq = np.empty(p)
    for r in range(r_):
        for b in range(b_):
            for j in range(p):
                sq[j] = g[r, b, j] * g[r, b, j]
            norm = np.sqrt(pairwise_sum(sq, 0, p))
            shrink = np_minimum(1.0, clip / np_maximum(norm, 1e-300))
            a = arm[r, b]
            for j in range(p):
                total[r, a, j] += g[r, b, j] * shrink


class LogisticModel:
    """Per-arm logistic regression on (x, 1)."""

    def __init__(self, d: int):
        self.d = d
        self.p = d + 1

    def init(self, r: int, k: int, rng: np.random.Generator) -> np.ndarray:
        return np.zeros((r, k, self.p))

    def forward(self, params: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, None]:
        """params (R, K, p), x (R, B, d) -> the logits theta_k^T (x, 1) (R, B, K), and no hidden
        layer for :meth:`pulled_grads`."""
        out = np.empty(x.shape[:2] + params.shape[1:2])
        _logistic_logits(params, x, out)
        return out, None

    def predict(self, params: np.ndarray, x: np.ndarray) -> np.ndarray:
        """params (R, K, p), x (R, B, d) -> (R, B, K)."""
        return _sigmoid(self.forward(params, x)[0])

    def pulled_grads(self, params, x, arm, sig, y, hidden=None) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters (R, B, p), given its prediction
        ``sig`` (R, B)."""
        out = np.empty(arm.shape + (self.p,))
        _logistic_grads(x, sig, y, out)
        return out

    def grad(self, params, x, arm, y) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters: (R, B, p)."""
        logits, hidden = self.forward(params, x)
        sig = np.take_along_axis(_sigmoid(logits), arm[..., None], axis=-1)[..., 0]
        return self.pulled_grads(params, x, arm, sig, y, hidden)


class LinearResult:
    def __init__(self, reward_curve: np.ndarray, regret_curve: np.ndarray | None = None):
        self.reward_curve = reward_curve  # (R, batches): realised reward per target batch
        self.regret_curve = regret_curve  # (R, batches): pseudo-regret per batch (if f_target given)


def _sgd_step(params, g, arm, noise, clip, lr):
    """One private SGD step on a batch from its users' gradients ``g`` (rows, B, p): each clipped
    to l2-norm ``clip``, the batch sum per arm block, Laplace noise of scale 2 C sqrt(K p) / eps on
    every coordinate (a Gamma difference: the sum of the batch's B noises), then
    theta <- theta - lr mean. ``noise``: (epsilon, rng) of each run, whose R rows are stacked in
    that order."""
    b = arm.shape[1]
    k, p = params.shape[1:]
    total = np.empty_like(params)
    _clipped_arm_sums(g, arm, clip, total)
    rows = params.shape[0] // len(noise)
    for i, (eps, rng) in enumerate(noise):
        if np.isfinite(eps):
            scale = 2.0 * clip * np.sqrt(k * p) / eps
            total[i * rows:(i + 1) * rows] += laplace_sum(rng, b, scale, size=(rows, k, p))
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
    ``f_target`` (n, K) are given, the pseudo-regret per batch. Random draws from ``rng``: the
    initial parameters, then per batch the tie-break uniforms (target batches only) and the
    Laplace noise."""
    return private_sgd_bandits(model, x_target, y_target, order, batch,
                               [(epsilon, rng, aux_epsilon if aux is not None else None)], aux=aux, clip=clip,
                               lr=lr, f_target=f_target)[0]


def private_sgd_bandits(model, x_target: np.ndarray, y_target: np.ndarray, order: np.ndarray, batch: int,
                        settings: list[tuple], *, aux: tuple | None = None, clip: float = 1.0, lr: float = 0.01,
                        f_target: np.ndarray | None = None) -> list[LinearResult]:
    """Several runs of :func:`private_sgd_bandit` on the same data and arrival orders at once:
    ``settings`` holds per run (epsilon, rng, aux_epsilon), aux_epsilon None for a run without
    pre-training on ``aux``. The runs' repetitions are stacked along the leading axis, so each
    batch is one pass of the kernels for all of them, and every run draws from its own rng
    exactly what it would draw alone. Returns one :class:`LinearResult` per run."""
    r, n = order.shape
    k = y_target.shape[1]
    g = len(settings)
    params = np.concatenate([model.init(r, k, rng) for _, rng, _ in settings])
    pre = [i for i, (_, _, aux_eps) in enumerate(settings) if aux_eps is not None]
    if pre:  # the "w" runs learn from the logged auxiliary data first
        rows = np.concatenate([np.arange(i * r, (i + 1) * r) for i in pre])
        noise = [(settings[i][2], settings[i][1]) for i in pre]
        sub = params[rows]
        xa, ya, order_a, arm_a = aux
        for i in range(order_a.shape[1] // batch):
            sl = slice(i * batch, (i + 1) * batch)
            idx, arm = order_a[:, sl], np.tile(arm_a[:, sl], (len(pre), 1))
            x = np.tile(xa[idx], (len(pre), 1, 1))
            sub = _sgd_step(sub, model.grad(sub, x, arm, np.tile(ya[idx, arm_a[:, sl]], (len(pre), 1))), arm, noise,
                            clip, lr)
        params[rows] = sub
    noise = [(eps, rng) for eps, rng, _ in settings]
    n_batches = n // batch
    rewards = np.zeros((n_batches, g * r))
    regrets = np.zeros((n_batches, g * r if f_target is not None else 0))
    arm = np.empty((g * r, batch), dtype=np.int64)
    y, sig = np.empty((g * r, batch)), np.empty((g * r, batch))
    f = np.empty((0, k)) if f_target is None else f_target
    for i in range(n_batches):
        idx = order[:, i * batch:(i + 1) * batch]
        x = np.tile(x_target[idx], (g, 1, 1))
        idx = np.tile(idx, (g, 1))
        logits, hidden = model.forward(params, x)
        tie_break = np.concatenate([rng.random((r, batch, k)) for _, rng in noise])
        _greedy(_sigmoid(logits), tie_break, idx, y_target, f, arm, y, sig, rewards[i], regrets[i])
        params = _sgd_step(params, model.pulled_grads(params, x, arm, sig, y, hidden), arm, noise, clip, lr)
    return [LinearResult(rewards.T[j * r:(j + 1) * r].copy(),
                         None if f_target is None else regrets.T[j * r:(j + 1) * r].copy()) for j in range(g)]
