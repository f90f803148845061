#!/usr/bin/env python3
"""Train the standard pack's corner-index reader (vision/models/french_corner.onnx + .json).

Overlapping cards show little more than their corner index, so vision/fan.py reads that with
a small depthwise-separable network of two heads (rank A..K, JOKER, none x suit S H D C,
black, red, none), run at play time through OpenCV's dnn module; torch is needed here only.

Data (patches cut by vision.corner_index.cut_patch, the same cut fan.py makes):
* the labelled photos of ../shared/data/playing_* in tools/train_vision.py's "train" split
  only (read in place, nothing copied): each card found by vision.detect.find_cards and
  matched to its label by train_vision.positives_of gives its top-left and bottom-right
  index (positives) and its two other corners (no index there: "none"), with jitter of
  position, turn and scale, light and compression, and a neighbouring card over part of it;
* drawn fans, rows and piles (vision.synth_fan), whose every card corner is known;
* "none" patches anywhere else (card middles, pips, the table).
The "calib" split and held-out drawn seeds pick the unsure threshold (no wrong name said);
the "test" split is never trained on and is reported at the end.

    PYTHONPATH=. /tmp/tv/bin/python tools/train_corner_index.py [--epochs 14]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import load_sets, photometric, positives_of, read_small, split_of  # noqa: E402

from vision import synth, synth_fan  # noqa: E402
from vision.corner_index import (  # noqa: E402
    MODELS,
    PATCH_H,
    PATCH_W,
    RANKS,
    SUITS,
    CornerReader,
    cut_patch,
    parts,
)
from vision.detect import find_cards, order_portrait  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
NAME = "french_corner"
TRAIN_SEEDS = range(100_000, 100_700)  # drawn scenes to learn from
CALIB_SEEDS = range(200_000, 200_060)  # drawn scenes that pick the threshold
FLOOR = 0.5  # never name an index below this confidence
# A share of the patches is cut from a card taken as this much smaller than it is (its index
# 1.1-1.7 times as big in the patch, as a jumbo-index printing's is). Trained without the
# photos of a deck whose index is about twice the others' (playing_wmcnicho), the network's
# better corner named 23 of its 64 cards at 0.5, 6 wrong; with these patches, 46, 2 wrong
BIG_INDEX, BIG_INDEX_SHARE = (0.6, 0.9), 1 / 3


def unit(a: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(a))
    return a / n if n > 0 else a


def frames(q: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, bool]]:
    """The four corner frames of a card (TL TR BR BL): (corner, u, v, has_index); u, v as in
    vision.corner_index (cross(u, v) > 0: the card is not seen mirrored)."""
    tl, tr, br, bl = (np.asarray(p, np.float32) for p in q)
    return [(tl, unit(tr - tl), unit(bl - tl), True), (tr, unit(br - tr), unit(tl - tr), False),
            (br, unit(bl - br), unit(tr - br), True), (bl, unit(tl - bl), unit(br - bl), False)]


def card_height(q: np.ndarray) -> float:
    return float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2


def turn(u: np.ndarray, v: np.ndarray, deg: float) -> tuple[np.ndarray, np.ndarray]:
    r = np.deg2rad(deg)
    m = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]], np.float32)
    return m @ u, m @ v


def jittered(image: np.ndarray, p: np.ndarray, u: np.ndarray, v: np.ndarray, h: float,
             rng: np.random.Generator, amount: float = 1.0) -> np.ndarray:
    """A patch cut as the run-time finder might cut it: the corner a little off, the edges a
    little turned, the card height misjudged."""
    p = p + (u * rng.normal(0, 0.015) + v * rng.normal(0, 0.015)) * h * amount
    u, v = turn(u, v, rng.normal(0, 3.0) * amount)
    return cut_patch(image, p, u, v, h * float(np.exp(rng.normal(0, 0.1) * amount)))


def occlude(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A neighbouring card over the patch's far side (as in a fan: its edge a little turned),
    leaving the index in view."""
    out = patch.copy()
    top = rng.uniform(0.45, 0.95) * PATCH_W
    bottom = top + rng.uniform(-0.3, 0.1) * PATCH_W
    xs = np.arange(PATCH_W, dtype=np.float32)[None, :]
    edge = top + (bottom - top) * np.linspace(0, 1, PATCH_H, dtype=np.float32)[:, None]
    cover = xs >= np.maximum(edge, 0.4 * PATCH_W)
    tone = rng.uniform(180, 250)
    fill = np.clip(tone + rng.normal(0, 4, out.shape), 0, 255).astype(np.uint8)
    out[cover] = fill[cover]
    rim = (xs >= edge - 1) & (xs < edge + 1)
    out[rim] = (out[rim] * 0.7).astype(np.uint8)
    return out


class Collector:
    def __init__(self) -> None:
        self.x: list[np.ndarray] = []
        self.ya: list[int] = []
        self.yb: list[int] = []

    def add(self, patch: np.ndarray, label: str | None) -> None:
        r, s = parts(label) if label else ("none", "none")
        self.x.append(patch)
        self.ya.append(RANKS.index(r))
        self.yb.append(SUITS.index(s))

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.stack(self.x), np.array(self.ya, np.int64), np.array(self.yb, np.int64)


def random_frame(rng: np.random.Generator, w: int, h: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
    a = rng.uniform(0, 2 * np.pi)
    u = np.array([np.cos(a), np.sin(a)], np.float32)
    return p, u, np.array([-u[1], u[0]], np.float32)


def real_cards(split: str, data: Path = DATA) -> list[tuple[np.ndarray, np.ndarray, str, str]]:
    """(image, portrait corners, label, source/file) of every matched card of a split."""
    out = []
    for s in load_sets(data):
        if s["deck"] != "french":
            continue
        for name, entries in sorted(s["images"].items()):
            if split_of(s["folder"].name, name) != split:
                continue
            img, sc = read_small(s["folder"] / name)
            pos, _ = positives_of(img, sc, entries, "french",
                                  find_cards(img, colour_bodies=False))
            for corners, label in pos:
                out.append((img, order_portrait(corners), label, f"{s['folder'].name}/{name}"))
    return out


def add_card(col: Collector, img: np.ndarray, q: np.ndarray, label: str, n_aug: int,
             rng: np.random.Generator, owner_ok: list[bool] | None = None) -> None:
    h = card_height(q)
    for k, (p, u, v, has) in enumerate(frames(q)):
        if owner_ok is not None and not owner_ok[k]:
            continue
        for _ in range(n_aug):
            # some printings have a far bigger index (jumbo-index decks): a patch cut as if
            # the card were smaller shows this one's index as big as theirs
            zoom = rng.uniform(*BIG_INDEX) if rng.random() < BIG_INDEX_SHARE else 1.0
            patch = photometric(jittered(img, p, u, v, h * zoom, rng), rng)
            if has and rng.random() < 0.4:
                patch = occlude(patch, rng)
            col.add(patch, label if has else None)
        # the corner missed: the patch slid into the card, the index out of it
        for _ in range(max(1, n_aug // 3)):
            du, dv = rng.uniform(0.17, 0.5), rng.uniform(-0.05, 0.5)
            if rng.random() < 0.5:
                du, dv = rng.uniform(-0.05, 0.3), rng.uniform(0.3, 0.7)
            col.add(photometric(cut_patch(img, p + (u * du + v * dv) * h, u, v, h), rng), None)


def gather(rng: np.random.Generator, n_aug: int, data: Path = DATA) -> tuple[np.ndarray, ...]:
    col = Collector()
    cards = real_cards("train", data)
    print(f"real train cards: {len(cards)}", flush=True)
    for img, q, label, _ in cards:
        add_card(col, img, q, label, n_aug, rng)
        for _ in range(n_aug):  # the table, the card's middle, pips
            p, u, v = random_frame(rng, img.shape[1], img.shape[0])
            col.add(photometric(cut_patch(img, p, u, v, card_height(q)), rng), None)
    n_real = len(col.x)
    for seed in TRAIN_SEEDS:
        sc = synth_fan.random_fan(seed)
        add_scene(col, sc, rng, 2)
    for i, label in enumerate(synth_fan.FRENCH_NAMES * 3):  # single drawn cards
        scene = synth.table_texture(str(rng.choice(["wood", "cloth", "white", "pattern"])),
                                    (640, 480), rng)
        q = synth.place_card(scene, synth.draw_card("french", label),
                             (rng.uniform(200, 440), rng.uniform(180, 300)),
                             rng.uniform(120, 300), rng.uniform(-180, 180))
        add_card(col, cv2.GaussianBlur(scene, (3, 3), 0), q, label, 2, rng)
        del i
    print(f"patches: {len(col.x)} ({n_real} from photos)", flush=True)
    return col.arrays()


def visible(sc: synth_fan.FanScene, i: int) -> list[bool]:
    """Per corner frame of card i: is its index area on top (not under a later card)?"""
    q = sc.corners[i]
    h = sc.card_h
    ok = []
    for p, u, v, _ in frames(q):
        pts = [p + (u * a + v * b) * h for a in (0.03, 0.1) for b in (0.04, 0.18)]
        ok.append(all(synth_fan.owner_of(sc, (float(x), float(y))) == i for x, y in pts))
    return ok


def add_scene(col: Collector, sc: synth_fan.FanScene, rng: np.random.Generator,
              n_aug: int) -> None:
    for i, (label, q) in enumerate(zip(sc.labels, sc.corners, strict=True)):
        ok = visible(sc, i)
        add_card(col, sc.image, q, label, n_aug, rng, ok)
        # a corner under another card shows that card's middle: no index of this one
        for (p, u, v, has), seen in zip(frames(q), ok, strict=True):
            if has and not seen:
                col.add(photometric(cut_patch(sc.image, p, u, v, sc.card_h), rng), None)
    for _ in range(4):
        p, u, v = random_frame(rng, sc.image.shape[1], sc.image.shape[0])
        col.add(photometric(cut_patch(sc.image, p, u, v, sc.card_h), rng), None)


def build_net(na: int, nb: int):
    import torch
    from torch import nn

    def cbr(ci: int, co: int, s: int, g: int = 1, k: int = 3) -> list:
        return [nn.Conv2d(ci, co, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(co),
                nn.ReLU(inplace=True)]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # stride 2 at once and few channels: ~2 ms for 30 patches in cv2.dnn on one
            # core (a first layer at full size with 24 channels and a wider trunk cost 20 ms)
            layers = cbr(3, 16, 2)
            c = 16
            for s, co in ((1, 32), (2, 64), (1, 64), (2, 96)):
                layers += cbr(c, c, s, g=c) + cbr(c, co, 1, k=1)  # depthwise, pointwise
                c = co
            self.trunk = nn.Sequential(*layers)
            with torch.no_grad():
                n = self.trunk(torch.zeros(1, 3, PATCH_H, PATCH_W)).numel()
            self.neck = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(n, 64),
                                      nn.ReLU(inplace=True))
            self.head_a = nn.Linear(64, na)
            self.head_b = nn.Linear(64, nb)
            self.softmax = False

        def forward(self, x):
            z = self.neck(self.trunk(x))
            a, b = self.head_a(z), self.head_b(z)
            if self.softmax:
                return torch.cat([a.softmax(1), b.softmax(1)], 1)
            return a, b

    return Net()


def prepared(x: np.ndarray) -> np.ndarray:
    from vision.corner_index import normalise

    return np.stack([normalise(p) for p in x])


def train(data: tuple[np.ndarray, ...], epochs: int, seed: int):
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # the 2-core box is shared
    x_np, ya, yb = data
    x = torch.from_numpy(prepared(x_np)).permute(0, 3, 1, 2).float().div_(255.0).sub_(0.5)
    ya_t, yb_t = torch.from_numpy(ya), torch.from_numpy(yb)
    net = build_net(len(RANKS), len(SUITS))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-3)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    ce = nn.CrossEntropyLoss(label_smoothing=0.02)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total, t0 = 0.0, time.time()
        for i in range(0, len(x), batch):
            idx = order[i:i + batch]
            xb = x[idx]
            dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=gen))
            xb = torch.roll(xb, (dy, dx), (2, 3))
            xb = xb + 0.02 * torch.randn(xb.shape, generator=gen)
            a, b = net(xb)
            loss = ce(a, ya_t[idx]) + ce(b, yb_t[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(x):.4f} ({time.time() - t0:.0f}s)",
              flush=True)
    net.eval()
    net.softmax = True
    return net


def export(net) -> None:
    import torch

    path = MODELS / f"{NAME}.onnx"
    torch.onnx.export(net, torch.zeros(1, 3, PATCH_H, PATCH_W), str(path), input_names=["patches"],
                      output_names=["probs"], dynamic_axes={"patches": {0: "n"}},
                      dynamo=False, opset_version=13)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", flush=True)


def write_meta(threshold: float) -> None:
    meta = {"ranks": list(RANKS), "suits": list(SUITS), "threshold": round(threshold, 4),
            "patch": [PATCH_W, PATCH_H]}
    (MODELS / f"{NAME}.json").write_text(json.dumps(meta, indent=1) + "\n")


def eval_cards(reader: CornerReader, cards: list) -> list[tuple[float, bool, str, str]]:
    """(confidence, right, truth, best) for both index corners of each card, cut exactly."""
    rows = []
    for img, q, label, _ in cards:
        h = card_height(q)
        fr = [f for f in frames(q) if f[3]]
        for r in reader.read([cut_patch(img, p, u, v, h) for p, u, v, _ in fr]):
            rows.append((r.confidence, r.best == label, label, str(r.best)))
    return rows


def eval_scenes(reader: CornerReader, seeds: range) -> list[tuple[float, bool, str, str]]:
    rows = []
    for seed in seeds:
        sc = synth_fan.random_fan(seed)
        for i, (label, q) in enumerate(zip(sc.labels, sc.corners, strict=True)):
            for (p, u, v, has), seen in zip(frames(q), visible(sc, i), strict=True):
                if has and seen:
                    r = reader.read([cut_patch(sc.image, p, u, v, sc.card_h)])[0]
                    rows.append((r.confidence, r.best == label, label, str(r.best)))
    return rows


def lowest_safe(rows: list[tuple[float, bool, str, str]]) -> float:
    """The lowest threshold (not below FLOOR) at which no wrong name would be said."""
    wrong = [c for c, ok, _, _ in rows if not ok]
    return max(FLOOR, min(0.99, max(wrong, default=0.0) + 1e-3))


def summary(name: str, rows: list, threshold: float) -> str:
    said = [(c, ok) for c, ok, _, _ in rows if c >= threshold]
    right = sum(ok for _, ok in said)
    top1 = sum(ok for _, ok, _, _ in rows)
    n = max(1, len(rows))
    return (f"{name}: {len(rows)} indices, right {right} ({100 * right / n:.1f}%), "
            f"wrong {len(said) - right}, unsure {len(rows) - len(said)}, "
            f"top-1 {100 * top1 / n:.1f}%")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--aug", type=int, default=8)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/corner_index_data.npz"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--data", type=Path, default=DATA,
                    help="the labelled photos (a licensed-only build: tools/make_licensed_set.py)")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    if not args.report_only:
        if args.cache.is_file():
            z = np.load(args.cache)
            data = (z["x"], z["ya"], z["yb"])
        else:
            data = gather(rng, args.aug, args.data)
            np.savez(args.cache, x=data[0], ya=data[1], yb=data[2])
        print(f"{len(data[0])} patches, {int((data[1] != RANKS.index('none')).sum())} indices",
              flush=True)
        net = train(data, args.epochs, 0)
        export(net)
        write_meta(0.5)
    from vision import corner_index

    corner_index._load.cache_clear()
    reader = CornerReader(NAME, threshold=0.0)
    calib = eval_cards(reader, real_cards("calib", args.data)) + eval_scenes(reader, CALIB_SEEDS)
    threshold = lowest_safe(calib)
    if not args.report_only:
        write_meta(threshold)
    print(f"threshold {threshold:.3f}")
    print(summary("calib (photos + drawn)", calib, threshold))
    test = eval_cards(reader, real_cards("test", args.data))
    print(summary("TEST photos (held out)", test, threshold))
    bad = [(t, b, round(c, 3)) for c, ok, t, b in test if not ok and c >= threshold]
    print("test wrong said:", bad)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
