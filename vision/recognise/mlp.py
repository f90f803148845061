"""A one-hidden-layer perceptron in numpy: small enough for a Pi, no torch at run time.

Training lives here too (plain numpy Adam) so that ``tools/train_vision.py`` is the only
thing needed to rebuild the committed weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass
class MLP:
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    labels: list[str]
    threshold: float = 0.9
    temperature: float = 1.0

    def probs(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(x) - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0.0)
        logits = (h @ self.w2 + self.b2) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, mean=self.mean.astype(np.float32), std=self.std.astype(np.float32),
            w1=self.w1.astype(np.float16), b1=self.b1.astype(np.float32),
            w2=self.w2.astype(np.float16), b2=self.b2.astype(np.float32),
            labels=np.array(self.labels), threshold=np.float32(self.threshold),
            temperature=np.float32(self.temperature))

    @classmethod
    def load(cls, path: Path) -> MLP:
        with np.load(path, allow_pickle=False) as d:
            return cls(d["mean"], d["std"], d["w1"].astype(np.float32), d["b1"],
                       d["w2"].astype(np.float32), d["b2"], [str(s) for s in d["labels"]],
                       float(d["threshold"]), float(d["temperature"]))


def train_mlp(x: np.ndarray, y: np.ndarray, labels: list[str], hidden: int = 192,
              epochs: int = 40, lr: float = 1e-3, weight_decay: float = 1e-4,
              dropout: float = 0.4, batch: int = 128, seed: int = 0,
              sample_weight: np.ndarray | None = None) -> MLP:
    """Softmax MLP trained with Adam on standardised features."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    z = ((x - mean) / std).astype(np.float32)
    n, d = z.shape
    k = len(labels)
    params = {
        "w1": (rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, k)) * np.sqrt(1.0 / hidden)).astype(np.float32),
        "b2": np.zeros(k, np.float32),
    }
    m = {key: np.zeros_like(v) for key, v in params.items()}
    v = {key: np.zeros_like(val) for key, val in params.items()}
    sw = np.ones(n, np.float32) if sample_weight is None else sample_weight.astype(np.float32)
    step = 0
    for _epoch in range(epochs):
        order = rng.permutation(n)
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            xb, yb, wb = z[idx], y[idx], sw[idx]
            xb = xb + rng.normal(0, 0.1, xb.shape).astype(np.float32)
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0)
            mask = (rng.random(h.shape) > dropout).astype(np.float32) / (1 - dropout)
            hd = h * mask
            logits = hd @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            g = p.copy()
            g[np.arange(len(idx)), yb] -= 1
            g *= (wb / wb.sum())[:, None]
            grads = {"w2": hd.T @ g, "b2": g.sum(axis=0)}
            gh = (g @ params["w2"].T) * mask * (h_pre > 0)
            grads["w1"] = xb.T @ gh
            grads["b1"] = gh.sum(axis=0)
            step += 1
            for key in params:
                gk = grads[key] + weight_decay * params[key] * (key[0] == "w")
                m[key] = 0.9 * m[key] + 0.1 * gk
                v[key] = 0.999 * v[key] + 0.001 * gk * gk
                mh = m[key] / (1 - 0.9 ** step)
                vh = v[key] / (1 - 0.999 ** step)
                params[key] -= lr * mh / (np.sqrt(vh) + 1e-8)
    return MLP(mean, std, params["w1"], params["b1"], params["w2"], params["b2"], list(labels))
