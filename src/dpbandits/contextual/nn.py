"""The "NN" LDP baseline of Table 2 (spec section 5.3, inferred): the Linear baseline's locally
private SGD bandit (:func:`dpbandits.contextual.linear.private_sgd_bandit`: greedy arm, per-user
gradient over all arms' parameters clipped to l2-norm C, Laplace scale 2 C sqrt(P) / eps per
coordinate, eps-LDP) with, per arm, a one-hidden-layer network of width 2d (the authors' call
``NNPolicy(..., hidden_dim = 2 * dim)``), ReLU, sigmoid output, trained on the log-loss.
Weights start from a seeded He-uniform draw (zero weights would make every ReLU gradient vanish).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dpbandits.contextual._exact import einsum_dot, np_maximum
from dpbandits.contextual.linear import _sigmoid

__all__ = ["MLPModel"]


@njit(cache=True)
def _mlp_forward(params, x, h, pre, out):
    """pre[r, b, k] = W1_k x_rb + b1_k (R, B, K, h) and the logits
    out[r, b, k] = w2_k . relu(pre[r, b, k]) + b2_k (R, B, K)."""
    r_, b_, d = x.shape
    k_, p = params.shape[1:]
    theta, xs = params.ravel(), x.ravel()
    hid = np.empty(h)
    for r in range(r_):
        for b in range(b_):
            for k in range(k_):
                t0 = (r * k_ + k) * p
                for j in range(h):
                    pre[r, b, k, j] = einsum_dot(theta, t0 + j * d, xs, (r * b_ + b) * d, d) + theta[t0 + h * d + j]
                    hid[j] = np_maximum(pre[r, b, k, j], 0.0)
                out[r, b, k] = einsum_dot(hid, 0, theta, t0 + h * d + h, h) + theta[t0 + p - 1]


@njit(cache=True)
def _mlp_grads(params, x, arm, sig, y, pre, out):
    """The pulled arm's log-loss gradient [dW1, db1, dw2, db2] (R, B, p) from its hidden
    pre-activations ``pre`` (R, B, K, h) and prediction ``sig`` (R, B): delta = sig - y,
    db2 = delta, dw2 = delta relu(pre), db1 = delta w2 1(pre > 0), dW1 = db1 x^T."""
    r_, b_, d = x.shape
    k_, p = params.shape[1:]
    h = pre.shape[3]
    for r in range(r_):
        for b in range(b_):
            a = arm[r, b]
            delta = sig[r, b] - y[r, b]
            for j in range(h):
                dhid = delta * params[r, a, h * d + h + j] * (1.0 if pre[r, b, a, j] > 0.0 else 0.0)
                for i in range(d):
                    out[r, b, j * d + i] = dhid * x[r, b, i]
                out[r, b, h * d + j] = dhid
                out[r, b, h * d + h + j] = delta * np_maximum(pre[r, b, a, j], 0.0)
            out[r, b, p - 1] = delta


class MLPModel:
    """Per-arm MLP: x -> relu(W1 x + b1) -> sigma(w2 . h + b2); parameters flattened per arm as
    [W1 (h x d), b1 (h), w2 (h), b2 (1)]."""

    def __init__(self, d: int, hidden: int | None = None):
        self.d = d
        self.h = 2 * d if hidden is None else hidden
        self.p = self.h * d + 2 * self.h + 1

    def init(self, r: int, k: int, rng: np.random.Generator) -> np.ndarray:
        params = np.zeros((r, k, self.p))
        h, d = self.h, self.d
        params[..., : h * d] = rng.uniform(-1, 1, size=(r, k, h * d)) * np.sqrt(6.0 / d)
        params[..., h * d + h: h * d + 2 * h] = rng.uniform(-1, 1, size=(r, k, h)) * np.sqrt(6.0 / h)
        return params

    def forward(self, params, x) -> tuple[np.ndarray, np.ndarray]:
        """params (R, K, p), x (R, B, d) -> the logits (R, B, K) and the hidden layer's
        pre-activations (R, B, K, h) for :meth:`pulled_grads`."""
        out = np.empty(x.shape[:2] + params.shape[1:2])
        pre = np.empty(out.shape + (self.h,))
        _mlp_forward(params, x, self.h, pre, out)
        return out, pre

    def predict(self, params, x) -> np.ndarray:
        """params (R, K, p), x (R, B, d) -> (R, B, K)."""
        return _sigmoid(self.forward(params, x)[0])

    def pulled_grads(self, params, x, arm, sig, y, hidden) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters (R, B, p), given its prediction
        ``sig`` (R, B) and the hidden pre-activations of :meth:`forward`."""
        out = np.empty(arm.shape + (self.p,))
        _mlp_grads(params, x, arm, sig, y, hidden, out)
        return out

    def grad(self, params, x, arm, y) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters: (R, B, p)."""
        logits, hidden = self.forward(params, x)
        sig = np.take_along_axis(_sigmoid(logits), arm[..., None], axis=-1)[..., 0]
        return self.pulled_grads(params, x, arm, sig, y, hidden)
