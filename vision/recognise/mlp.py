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


@dataclass
class Ensemble:
    """Several MLPs trained on different subsets: where they disagree, the card is unsure.

    A single network trained on a few hundred photos is confidently wrong far too often;
    the weakest of several independent readings is a much more honest confidence.
    """

    members: list[MLP]
    threshold: float = 0.9

    @property
    def labels(self) -> list[str]:
        return self.members[0].labels

    def _fold(self) -> None:
        """One matrix for every member's first layer, standardisation folded in: one BLAS
        call per frame instead of one per member and a pass over the inputs."""
        w1 = [m.w1 / m.std[:, None] for m in self.members]
        b1 = [m.b1 - (m.mean / m.std) @ m.w1 for m in self.members]
        self._w1 = np.ascontiguousarray(np.concatenate(w1, axis=1), dtype=np.float32)
        self._b1 = np.concatenate(b1).astype(np.float32)

    def all_probs(self, x: np.ndarray) -> np.ndarray:
        """(members, rows, classes)"""
        if getattr(self, "_w1", None) is None:
            self._fold()
        h = np.maximum(np.atleast_2d(x).astype(np.float32) @ self._w1 + self._b1, 0.0)
        return self._heads(h)

    def _heads(self, h: np.ndarray) -> np.ndarray:
        """The members' output layers on their slices of the hidden activations."""
        hidden = self.members[0].w1.shape[1]
        out = []
        for i, m in enumerate(self.members):
            logits = h[:, i * hidden:(i + 1) * hidden] @ m.w2 + m.b2
            logits -= logits.max(axis=1, keepdims=True)
            e = np.exp(logits)
            out.append(e / e.sum(axis=1, keepdims=True))
        return np.stack(out)

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {"labels": np.array(self.labels),
                                         "threshold": np.float32(self.threshold),
                                         "n": np.int32(len(self.members))}
        for i, m in enumerate(self.members):
            arrays.update({f"mean_{i}": m.mean.astype(np.float32),
                           f"std_{i}": m.std.astype(np.float32),
                           f"w1_{i}": m.w1.astype(np.float16), f"b1_{i}": m.b1.astype(np.float32),
                           f"w2_{i}": m.w2.astype(np.float16), f"b2_{i}": m.b2.astype(np.float32)})
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> Ensemble:
        with np.load(path, allow_pickle=False) as d:
            labels = [str(s) for s in d["labels"]]
            members = [MLP(d[f"mean_{i}"], d[f"std_{i}"], d[f"w1_{i}"].astype(np.float32),
                           d[f"b1_{i}"], d[f"w2_{i}"].astype(np.float32), d[f"b2_{i}"], labels)
                       for i in range(int(d["n"]))]
            return cls(members, float(d["threshold"]))


def train_mlp(x: np.ndarray, y: np.ndarray, labels: list[str], hidden: int = 192,
              epochs: int = 40, lr: float = 1e-3, weight_decay: float = 1e-4,
              dropout: float = 0.4, batch: int = 128, seed: int = 0,
              sample_weight: np.ndarray | None = None, smoothing: float = 0.1) -> MLP:
    """Softmax MLP trained with Adam on standardised features (label smoothing keeps it
    from learning to be 100% sure of anything)."""
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
            g = p - smoothing / k
            g[np.arange(len(idx)), yb] -= 1 - smoothing
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


class Joint:
    """Several ensembles that read the same features (a factored deck's two halves): their
    first layers in one matrix, so a frame costs one pass over the weights, not two."""

    def __init__(self, ensembles: list[Ensemble]) -> None:
        self.ensembles = ensembles
        members = [m for e in ensembles for m in e.members]
        widths = [m.w1.shape[1] for m in members]
        # folded member by member straight into the one matrix (no second full-size copy)
        self._w1 = np.empty((members[0].w1.shape[0], sum(widths)), np.float32)
        self._b1 = np.empty(sum(widths), np.float32)
        col = 0
        for m, width in zip(members, widths, strict=True):
            self._w1[:, col:col + width] = m.w1 / m.std[:, None]
            self._b1[col:col + width] = m.b1 - (m.mean / m.std) @ m.w1
            col += width
        self._cuts = np.cumsum([0] + [sum(m.w1.shape[1] for m in e.members) for e in ensembles])

    def all_probs(self, x: np.ndarray) -> list[np.ndarray]:
        """One (members, rows, classes) array per ensemble."""
        h = np.maximum(np.atleast_2d(x).astype(np.float32) @ self._w1 + self._b1, 0.0)
        return [e._heads(h[:, a:b]) for e, a, b in
                zip(self.ensembles, self._cuts[:-1], self._cuts[1:], strict=True)]
