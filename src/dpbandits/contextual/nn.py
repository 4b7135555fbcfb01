"""The "NN" LDP baseline of Table 2 (spec section 5.3, inferred): the Linear baseline's locally
private SGD bandit (:func:`dpbandits.contextual.linear.private_sgd_bandit`: greedy arm, per-user
gradient over all arms' parameters clipped to l2-norm C, Laplace scale 2 C sqrt(P) / eps per
coordinate, eps-LDP) with, per arm, a one-hidden-layer network of width 2d (the authors' call
``NNPolicy(..., hidden_dim = 2 * dim)``), ReLU, sigmoid output, trained on the log-loss.
Weights start from a seeded He-uniform draw (zero weights would make every ReLU gradient vanish).
"""

from __future__ import annotations

import numpy as np

from dpbandits.contextual.linear import _sigmoid

__all__ = ["MLPModel"]


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

    def _unpack(self, params):
        h, d = self.h, self.d
        w1 = params[..., : h * d].reshape(params.shape[:-1] + (h, d))
        b1 = params[..., h * d: h * d + h]
        w2 = params[..., h * d + h: h * d + 2 * h]
        b2 = params[..., -1]
        return w1, b1, w2, b2

    def predict(self, params, x) -> np.ndarray:
        """params (R, K, p), x (R, B, d) -> (R, B, K)."""
        w1, b1, w2, b2 = self._unpack(params)
        pre = np.einsum("rkhd,rbd->rbkh", w1, x) + b1[:, None]
        hid = np.maximum(pre, 0.0)
        return _sigmoid(np.einsum("rbkh,rkh->rbk", hid, w2) + b2[:, None])

    def grad(self, params, x, arm, y) -> np.ndarray:
        """Log-loss gradient of the pulled arm's parameters: (R, B, p)."""
        theta = np.take_along_axis(params, arm[..., None], axis=1)  # (R, B, p)
        w1, b1, w2, b2 = self._unpack(theta)
        pre = np.einsum("rbhd,rbd->rbh", w1, x) + b1
        hid = np.maximum(pre, 0.0)
        delta = _sigmoid(np.einsum("rbh,rbh->rb", hid, w2) + b2) - y
        dhid = delta[..., None] * w2 * (pre > 0)
        dw1 = dhid[..., None] * x[..., None, :]
        return np.concatenate([dw1.reshape(dw1.shape[:2] + (-1,)), dhid, delta[..., None] * hid,
                               delta[..., None]], axis=-1)
