"""A small actor-critic network in numpy: one hidden layer feeding a policy head (masked softmax over the actions)
and a value head (the expected team score from here), trained with Adam.  The gradients are written out by hand
(two matrix products each way), so the example needs nothing beyond numpy (issue 60 item 3).

It has the linear policy's interface (``features``, ``probabilities``, ``save``/``load``), so the policy bot
(:mod:`.policy_bot`) plays either."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


@dataclass
class Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place."""

    lr: float = 1e-3
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: list[FloatArray] = field(default_factory=list)
    v: list[FloatArray] = field(default_factory=list)

    def step(self, params: list[FloatArray], grads: list[FloatArray]) -> None:
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


@dataclass
class Forward:
    """What one forward pass keeps for the backward one."""

    x: FloatArray           # features, with the bias column
    hidden: FloatArray      # the hidden layer after ReLU, with the bias column
    p: FloatArray           # action probabilities (0 off the mask)
    value: FloatArray       # (n,)


@dataclass
class Net:
    """Features (the observation scaled by each piece's range, and a bias) → ReLU layer → policy and value."""

    w1: FloatArray          # (features + 1, hidden)
    w2: FloatArray          # (hidden + 1, actions)
    wv: FloatArray          # (hidden + 1, 1)
    scale: FloatArray

    @classmethod
    def new(cls, observation_size: int, num_actions: int, scale: FloatArray, hidden: int = 128,
            seed: int = 0) -> Net:
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0, np.sqrt(2 / (observation_size + 1)), (observation_size + 1, hidden))
        return cls(w1, np.zeros((hidden + 1, num_actions)), np.zeros((hidden + 1, 1)), scale)

    @property
    def params(self) -> list[FloatArray]:
        return [self.w1, self.w2, self.wv]

    def features(self, obs: npt.NDArray[np.float32]) -> FloatArray:
        x = obs.astype(np.float64) * self.scale
        out: FloatArray = np.concatenate([x, np.ones((len(x), 1))], axis=1)
        return out

    def forward(self, x: FloatArray, mask: BoolArray) -> Forward:
        h = np.maximum(x @ self.w1, 0.0)
        hidden = np.concatenate([h, np.ones((len(h), 1))], axis=1)
        logits = np.where(mask, hidden @ self.w2, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return Forward(x, hidden, e / e.sum(axis=1, keepdims=True), (hidden @ self.wv)[:, 0])

    def probabilities(self, x: FloatArray, mask: BoolArray) -> FloatArray:
        return self.forward(x, mask).p

    def gradients(self, f: Forward, actions: IntArray, returns: FloatArray, entropy: float,
                  value_weight: float) -> tuple[list[FloatArray], dict[str, float]]:
        """The gradients of the mean loss ``-A log p(a) - entropy * H(p) + value_weight * (V - G)^2`` over the
        batch, the advantage ``A = G - V`` normalised over the batch and held fixed."""
        n = len(actions)
        adv = returns - f.value
        a = (adv - adv.mean()) / (adv.std() + 1e-8)
        rows = np.arange(n)
        dz = f.p * a[:, None]
        dz[rows, actions] -= a                                      # -A (onehot - p)
        logp = np.log(np.where(f.p > 0, f.p, 1.0))
        h = -(f.p * logp).sum(axis=1)
        dz += entropy * f.p * (logp + h[:, None])                   # the gradient of -entropy * H
        dv = (2 * value_weight * (f.value - returns))[:, None]
        dz /= n
        dv /= n
        dh = (dz @ self.w2.T + dv @ self.wv.T)[:, :-1] * (f.hidden[:, :-1] > 0)
        grads = [f.x.T @ dh, f.hidden.T @ dz, f.hidden.T @ dv]
        return grads, {"entropy": float(h.mean()), "value_error": float(np.mean((f.value - returns) ** 2))}

    def imitation_gradients(self, f: Forward, taught: IntArray) -> list[FloatArray]:
        """The gradients of the mean ``-log p(taught)`` (behaviour cloning); the value head is left alone."""
        dz = f.p.copy()
        dz[np.arange(len(taught)), taught] -= 1.0
        dz /= len(taught)
        dh = (dz @ self.w2.T)[:, :-1] * (f.hidden[:, :-1] > 0)
        return [f.x.T @ dh, f.hidden.T @ dz, np.zeros_like(self.wv)]

    def save(self, path: str, rules: object) -> None:
        np.savez(path, w1=self.w1, w2=self.w2, wv=self.wv, scale=self.scale, rules=json.dumps(rules))
