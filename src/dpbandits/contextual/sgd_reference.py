"""The Linear and NN baselines of Table 2, per user, in the contextual family's protocol
(:mod:`.interface`): a plain reference of the vectorised engine :func:`.linear.private_sgd_bandits`
(the "Linear" model, :class:`.linear.LogisticModel`, and the "NN" model, :class:`.nn.MLPModel`).

Written in plain numpy, independently of the engine's compiled kernels; the engine must agree with
it in distribution (tests). Each batch of users:

* the server broadcasts every arm's parameters (K, p) and the clipping norm C
  (:class:`ModelBroadcast`: :meth:`PrivateSGDPolicy.public`);
* it shows a user with context x the greedy arm argmax_k f_k(x) + 1e-9 u_k, u uniform (a random
  tie-break, :meth:`PrivateSGDPolicy.act`);
* the user (:class:`ClippedGradientRandomizer`) computes, from the broadcast, the log-loss gradient
  of the pulled arm's parameters, clips it to l2-norm C, places it in the pulled arm's block of a
  zero (K, p) vector (the "synthetic update": the released vector has the same shape whatever the
  arm) and adds Laplace noise of scale 2 C sqrt(K p) / eps to every coordinate;
* the server sums the batch's reports and steps theta <- theta - lr sum / batch
  (:meth:`PrivateSGDPolicy.end_batch`).

Privacy accounting: a released vector has l2-norm at most C on one block of p coordinates, so two
users' vectors differ by at most 2 sqrt(K p) C in l1 (the bound of the Linear baseline's paper,
Han et al. 2021, and of the engine; sqrt(p) would do); Laplace scale 2 C sqrt(K p) / eps on each
coordinate makes the release eps-LDP whatever the broadcast, since the randomiser reads C and the
shape from it. The arm never leaves the user. The "w" variant's pre-training on the logged
auxiliary data runs in the engine only (:func:`.linear.private_sgd_bandits`, ``aux``).

Defaults are the authors' calls: batch 100, C = 1, lr = 0.01, a hidden layer of width 2d (NN,
He-uniform initial weights); :class:`LinearPolicy` and :class:`NNPolicy` run through
``simulate("linear" | "nn", ...)`` (:mod:`.api`). Random streams: the policy draws its initial
weights (NN) and its tie-break uniforms from its generator, the randomiser its noise from its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["MODELS", "ModelBroadcast", "ClippedGradientRandomizer", "PrivateSGDPolicy", "LinearPolicy", "NNPolicy"]

MODELS = ("logistic", "mlp")


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@dataclass(frozen=True)
class ModelBroadcast:
    """What the server publishes before a batch: the model (``kind`` one of :data:`MODELS`, the
    MLP's ``hidden`` width), every arm's parameters ``params`` (K, p) and the clipping norm
    ``clip``. Public: it depends on earlier batches' noisy reports only."""

    kind: str
    params: np.ndarray
    clip: float
    hidden: int = 0

    def _mlp(self, arm: int):
        h = self.hidden
        d = (self.params.shape[1] - 2 * h - 1) // h  # p = h d + 2 h + 1
        theta = self.params[arm]
        return theta[:h * d].reshape(h, d), theta[h * d:h * d + h], theta[h * d + h:h * d + 2 * h], theta[-1]

    def logit(self, x: np.ndarray, arm: int) -> float:
        """theta_arm^T (x, 1) (logistic), or w2 . relu(W1 x + b1) + b2 (MLP)."""
        if self.kind == "logistic":
            return float(self.params[arm] @ np.append(x, 1.0))
        w1, b1, w2, b2 = self._mlp(arm)
        return float(w2 @ np.maximum(w1 @ x + b1, 0.0) + b2)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Every arm's predicted reward sigma(logit) (K,)."""
        return _sigmoid(np.array([self.logit(x, k) for k in range(self.params.shape[0])]))

    def gradient(self, x: np.ndarray, arm: int, reward: float) -> np.ndarray:
        """The log-loss gradient of the pulled arm's parameters (p,): (sigma - y) (x, 1)
        (logistic); backpropagation through the hidden layer (MLP, parameters laid out as
        [W1 row by row, b1, w2, b2])."""
        delta = _sigmoid(self.logit(x, arm)) - reward
        if self.kind == "logistic":
            return delta * np.append(x, 1.0)
        w1, b1, w2, _ = self._mlp(arm)
        pre = w1 @ x + b1
        dpre = delta * w2 * (pre > 0.0)
        return np.concatenate([np.outer(dpre, x).ravel(), dpre, delta * np.maximum(pre, 0.0), [delta]])


class ClippedGradientRandomizer:
    """The user's side (module docstring): the clipped gradient of the pulled arm in a (K, p)
    vector, with Laplace(2 C sqrt(K p) / eps) noise on every coordinate; no noise when
    ``epsilon`` is infinite (not private)."""

    sensitivity = "||g(z) - g(z')||_1 <= 2 sqrt(K p) C (each released vector: l2-norm <= C on one arm's block)"

    def __init__(self, epsilon: float, rng: np.random.Generator):
        self.epsilon, self.rng = epsilon, rng
        self.private = math.isfinite(epsilon)

    @property
    def mechanism(self) -> str:
        if not self.private:
            return "none: the clipped gradient exactly (not private)"
        return "Laplace(2 C sqrt(K p) / eps) on every coordinate of the clipped (K, p) gradient vector: eps-LDP"

    def release(self, x, arm: int, reward: float, public: ModelBroadcast) -> np.ndarray:
        if not isinstance(public, ModelBroadcast):
            raise ValueError(f"the broadcast (the policy's public()) is a {type(public).__name__}; the clipped-"
                             "gradient randomiser needs a ModelBroadcast (dpbandits.contextual.sgd_reference)")
        g = public.gradient(np.asarray(x, dtype=float), arm, reward)
        g = g * min(1.0, public.clip / max(float(np.linalg.norm(g)), 1e-300))
        vector = np.zeros(public.params.shape)
        vector[arm] = g
        if self.private:
            vector += self.rng.laplace(0.0, 2.0 * public.clip * math.sqrt(vector.size) / self.epsilon, vector.shape)
        return vector


class PrivateSGDPolicy:
    """The server's side (module docstring): greedy on the public model, one SGD step per batch
    on the batch's mean report. ``model`` is the class's (:class:`LinearPolicy`,
    :class:`NNPolicy`)."""

    model = "logistic"
    randomizer = ClippedGradientRandomizer

    def __init__(self, n_arms: int, dim: int, epsilon: float, horizon: int, rng: np.random.Generator,
                 batch: int = 100, clip: float = 1.0, lr: float = 0.01, hidden: int | None = None):
        if self.model not in MODELS:
            raise ValueError(f"{type(self).__name__}.model is {self.model!r}; allowed: {', '.join(MODELS)}")
        if not clip > 0:
            raise ValueError(f"clip (the l2 clipping norm C) must be > 0, got {clip!r}")
        if not math.isfinite(lr):
            raise ValueError(f"lr (the SGD step) must be a finite number, got {lr!r}")
        if self.model == "logistic" and hidden is not None:
            raise ValueError(f"{type(self).__name__} has no hidden layer: hidden is the NN model's, got {hidden!r}")
        if hidden is not None and (not isinstance(hidden, int) or hidden < 1):
            raise ValueError(f"hidden (the hidden layer's width) must be an integer >= 1, got {hidden!r}")
        self.k, self.rng, self.batch, self.clip, self.lr = n_arms, rng, batch, float(clip), lr
        self.epsilon = epsilon
        if self.model == "logistic":
            self.hidden = 0
            self.params = np.zeros((n_arms, dim + 1))
        else:  # He-uniform weights, zero biases: zero weights would make every ReLU gradient vanish
            h = self.hidden = 2 * dim if hidden is None else hidden
            self.params = np.zeros((n_arms, h * dim + 2 * h + 1))
            self.params[:, :h * dim] = rng.uniform(-1, 1, size=(n_arms, h * dim)) * math.sqrt(6.0 / dim)
            self.params[:, h * dim + h:h * dim + 2 * h] = rng.uniform(-1, 1, size=(n_arms, h)) * math.sqrt(6.0 / h)
        self._broadcast = None
        self._sum, self._reports = np.zeros_like(self.params), 0

    def public(self) -> ModelBroadcast:
        self._broadcast = ModelBroadcast(self.model, self.params.copy(), self.clip, self.hidden)
        return self._broadcast

    def act(self, x) -> int:
        return int(np.argmax(self._broadcast.predict(np.asarray(x, dtype=float)) + 1e-9 * self.rng.random(self.k)))

    def receive(self, report) -> None:
        self._sum += report
        self._reports += 1

    def end_batch(self) -> None:
        self.params = self.params - self.lr * self._sum / self._reports
        self._sum, self._reports = np.zeros_like(self.params), 0


class LinearPolicy(PrivateSGDPolicy):
    """The "Linear" baseline: per-arm logistic regression on (x, 1), parameters from 0."""

    model = "logistic"


class NNPolicy(PrivateSGDPolicy):
    """The "NN" baseline: per-arm x -> relu(W1 x + b1) -> sigma(w2 . h + b2), width 2d."""

    model = "mlp"
