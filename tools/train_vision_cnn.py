#!/usr/bin/env python3
"""Train the convolutional card recognisers (vision/models/<deck>.onnx + <deck>.json).

A small depthwise-separable CNN with two heads (UNO: symbol x colour; standard pack:
rank x suit; each head with a "not a card" class), trained with PyTorch on the CPU and
exported to ONNX, which the companion runs through OpenCV's dnn module: torch is needed
here only, never at run time, and never on the Pi.

Data and splits are those of tools/train_vision.py (the labelled photos of ../shared/data,
read in place, put by a hash of their name into train 63% / calib 12% / test 25%, plus
drawn cards for the classes no photo shows). The calib split picks the unsure threshold;
the test split is never seen and is reported at the end. Huang Di has no photos at all: it
is learned from drawings (vision/synth.py) only, single cards and whole table scenes cut
where the detector finds the cards, and calibrated on drawn scenes (other photos' cards
and backgrounds teach it "not a card").

Needs torch and onnx, which the product does not depend on; a throw-away venv will do:

    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install torch onnx numpy opencv-python-headless
    /tmp/tv/bin/python tools/train_vision_cnn.py [--deck uno] [--epochs 30]
    /tmp/tv/bin/python tools/train_vision_cnn.py --deck huangdi --members 1 --epochs 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_vision import (  # noqa: E402
    MIN_THRESHOLD,
    NOT_CARDS,
    WRONG_BUDGET,
    bbox_iou,
    held_positives,
    jitter,
    load_sets,
    photometric,
    positives_of,
    random_negative,
    read_small,
    score_images,
    split_of,
    synth_check,
    synth_rows,
    table,
)

from companion.cards import DECKS  # noqa: E402
from vision import synth  # noqa: E402
from vision.detect import (  # noqa: E402
    closeup_body,
    find_cards,
    order_portrait,
    quarter_turned,
    rectify,
)
from vision.held import card_tops  # noqa: E402
from vision.identify import PART_SURE, Identifier  # noqa: E402
from vision.recognise.builtin import FACTORS, MODELS, NONE  # noqa: E402
from vision.recognise.cnn import CnnRecogniser, clear_cache, prepare  # noqa: E402

# (w, h) the net reads. The standard pack's was 80x120 for its corner index, which the corner
# network now reads apart (cnn._corner_scores): at 64x96 the two folders left out in turn
# were named as well (81 and 36 of 86 and 64 cards, against 81 and 38; 1 wrong each way),
# and 5 cards at 640x480 cost ~1 ms less, which the edge search and the corner reading took
SIZES = {"uno": (64, 96), "french": (64, 96), "huangdi": (64, 96)}
TABLES = ["wood", "cloth", "white", "pattern"]
# A deck no photo shows (Huang Di): drawn cards per label, and drawn table scenes (seeds from
# SCENE_SEED on: apart from the benchmark's 0.., synth_check's 1000.. and calibration's 2000..)
DRAWN_ONLY_CARDS = 150
DRAWN_ONLY_SCENES = 700
SCENE_SEED = 100_000
# The trunk's channels (``--widths`` to try others). About half as many (16, 32, 32, 64, 64,
# 96: 5 crops read in 0.82 ms, not 1.25) were tried on 24 Nov and not kept, each deck
# trained as shipped: UNO's network grew unsure of drawn cards, so its second network and
# corner index read 3 and 8 times the crops (slower overall), and held out it named 245 of
# 255 cards with one wrong (246, none wrong); the standard pack's named every shared photo
# as the wider one did, but a blurred king of clubs the king of spades, and missed a card
# touching another on drawn cloth; Huang Di's named 63 of 72 cards printed otherwise, one
# wrong (66, none wrong).
WIDE = (24, 48, 48, 96, 96, 160)
WIDTHS = {"uno": WIDE, "french": WIDE, "huangdi": WIDE}  # (any other: WIDE)


def part_of(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The quad of the part of a card left in view when a hand or the photo's edge hides
    one end (and maybe a strip of a side): the detector then boxes only what it sees, and
    the crop is that part stretched to a whole card."""
    tl, tr, br, bl = (np.asarray(p, np.float32) for p in corners)
    if rng.random() < 0.5:  # which end is hidden
        tl, tr, br, bl = br, bl, tl, tr
    t = rng.uniform(0.5, 0.85)
    bl, br = tl + t * (bl - tl), tr + t * (br - tr)
    if rng.random() < 0.3:
        s = rng.uniform(0.0, 0.2)
        tr, br = tr + s * (tl - tr), br + s * (bl - br)
    return np.stack([tl, tr, br, bl]).astype(np.float32)


def over_of(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The quad of a card and a strip of the table beyond one end of it: the detector's
    outline sometimes runs on into a wood grain or a shadow (the crop then shows the card
    shifted to one end; still that card)."""
    tl, tr, br, bl = (np.asarray(p, np.float32) for p in corners)
    if rng.random() < 0.5:
        tl, tr, br, bl = br, bl, tl, tr
    t = rng.uniform(1.1, 1.4)
    bl, br = tl + t * (bl - tl), tr + t * (br - tr)
    return np.stack([tl, tr, br, bl]).astype(np.float32)


# A share of the training crops (blurred, dimmed) as a cheaper camera or a dimmer room gives
# them, on top of photometric's light, noise and compression: out of focus (a Gaussian blur
# of 1-3 pixels of the crop, cut at twice the network's size), or a quarter to half the light
# with a sensor's noise (the read white-balances the card back up, noise and all). UNO's train
# and calib photos read blurred by 1% of the frame's width, or at a third of the light with
# noise (tools/measure_stretched.py --modes light), were named 492 and 596 of 728 before, 531
# and 630 after (712 as they are, was 714); a UNO folder left out of training, 84 of 88 (was
# 81), none wrong. The standard pack keeps none: trained so without the jumbo-index folder,
# its whole-card network named 4 of that folder's cards wrong (the ace of spades, surely),
# against none, for 15 more of 241 blurred cards
DEGRADED = {"uno": (0.15, 0.15), "french": (0.0, 0.0), "huangdi": (0.0, 0.0)}


def degraded(crop: np.ndarray, rng: np.random.Generator, shares: tuple[float, float]
             ) -> np.ndarray:
    """``photometric``, and for ``shares`` of the crops a blurred or a dim camera's view."""
    out = photometric(crop, rng)
    blur, dim = shares
    if not blur and not dim:
        return out
    r = rng.random()
    if r < blur:
        return cv2.GaussianBlur(out, (0, 0), rng.uniform(1.0, 3.0))
    if r < blur + dim:
        f = out.astype(np.float32) * rng.uniform(0.25, 0.5)
        f += rng.normal(0, rng.uniform(1.5, 4.0), f.shape).astype(np.float32)
        return np.clip(f, 0, 255).astype(np.uint8)
    return out


def gather(deck: str, sets: list[dict], rng: np.random.Generator, n_aug: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crops (N, h, w, 3 uint8, already prepared), head-A and head-B targets, weights."""
    w, h = SIZES[deck]
    first, second, parts = FACTORS[deck]
    shares = DEGRADED[deck]
    crops, ya, yb, ws = [], [], [], []

    def add(crop: np.ndarray, label: str, weight: float = 1.0) -> None:
        a, b = parts(label)
        crops.append(prepare(crop, (w, h)))
        ya.append(first.index(a))
        yb.append(second.index(b))
        ws.append(weight)

    def cut(img: np.ndarray, corners: np.ndarray) -> np.ndarray:
        # rectified at twice the size, as identify hands over a finer crop than the net reads
        return rectify(img, corners, (2 * w, 2 * h))

    seen: Counter = Counter()

    def learn(img: np.ndarray, corners: np.ndarray, label: str, n: int) -> None:
        """``n`` crops of one card of ``img``: as found, then jittered (colour, light, blur:
        ``degraded``), one in four cut to the part a hand or the frame leaves in view."""
        seen[label] += 1
        for k in range(n):
            c = corners if k == 0 else jitter(corners, rng)
            if k % 4 == 3:
                c = part_of(c, rng)
            crop = cut(img, c)
            add(crop if k == 0 else degraded(crop, rng, shares), label)

    t0 = time.time()
    for ds in sets:
        source = ds["folder"].name
        for name, entries in ds["images"].items():
            if split_of(source, name) != "train":
                continue
            if ds["deck"] != deck:
                if rng.random() < 0.3:  # another deck's photo: a good "not this deck"
                    img, _ = read_small(ds["folder"] / name)
                    q = random_negative(img, [], rng)
                    if q is not None:
                        add(degraded(cut(img, q), rng, shares), NONE, 0.5)
                    quads = find_cards(img, colour_bodies=deck == "uno")
                    for quad in quads[:1]:
                        if not quad.whole:
                            add(degraded(cut(img, quad.corners), rng, shares), NONE, 0.5)
                continue
            img, s = read_small(ds["folder"] / name)
            quads = play_quads(img, deck)
            pos, neg = positives_of(img, s, entries, deck, quads)
            if deck == "uno":
                pos += held_positives(img, s, entries)
            for corners, label in pos:
                learn(img, corners, label, n_aug)
                # read across (the identifier reads a nearly square quad both ways and keeps
                # the surer reading): a card turned a quarter and squeezed is no card
                add(degraded(cut(img, quarter_turned(corners)), rng, shares), NONE, 0.5)
            for scene, corners, label in crop_on_tables(img, ds["kind"], entries, deck, rng):
                learn(scene, corners, label, CROP_TABLE_AUG)
            for corners in neg[:3]:
                add(degraded(cut(img, corners), rng, shares), NONE)
            if whole_frame_is_no_card(img, ds["kind"], pos):
                add(degraded(cut(img, whole_frame(img)), rng, shares), NONE)
            q = random_negative(img, [c for c, _ in pos], rng)
            if q is not None and pos and not (len(pos) == 1 and quads[0].whole):
                add(degraded(cut(img, q), rng, shares), NONE)
    print(f"[{deck}] photos: {sum(seen.values())} cards, {len(seen)} labels,"
          f" {time.time() - t0:.0f}s", flush=True)
    drawn_only = not seen
    for label in DECKS[deck]:
        # drawn cards for every class: the only source for unseen classes (jokers,
        # wild-swap) and what keeps the packaged sample photos readable
        n = DRAWN_ONLY_CARDS if drawn_only else 12 if seen[label] >= 3 else 40
        for _ in range(n):
            scene, corners = drawn_card(deck, label, rng)
            crop = cut(scene, jitter(corners, rng, 0.02))
            add(degraded(crop, rng, shares), label, 0.7)
            if drawn_only:
                crop = cut(scene, jitter(over_of(corners, rng), rng, 0.02))
                add(degraded(crop, rng, shares), label, 0.7)
    if drawn_only:
        t0 = time.time()
        for scene, found in drawn_scenes(deck, DRAWN_ONLY_SCENES, rng):
            for corners, label in found:
                add(degraded(cut(scene, corners), rng, shares), label)
        # the other decks' drawings (their jokers and wilds have no photo either)
        for other in (d for d in sorted(SIZES) if d != deck):
            for _ in range(60):
                scene = synth.table_texture(str(rng.choice(TABLES)), (640, 480), rng)
                corners = synth.place_card(
                    scene, synth.draw_card(other, str(rng.choice(DECKS[other]))),
                    (rng.uniform(200, 440), rng.uniform(180, 300)), rng.uniform(120, 300),
                    rng.uniform(-180, 180))
                crop = cut(scene, jitter(order_portrait(corners), rng, 0.02))
                add(degraded(crop, rng, shares), NONE, 0.5)
        print(f"[{deck}] drawn scenes {time.time() - t0:.0f}s", flush=True)
    for scene, q in drawn_negatives(300, rng):
        add(degraded(cut(scene, q), rng, shares), NONE)
    return (np.stack(crops), np.array(ya), np.array(yb), np.array(ws, np.float32))


# A photo of a folder of tight crops ("kind": "crop ...") is one card, its frame the card's
# edge: the detector finds inside it what a photo of a table shows too (the card's outline a
# little in, or on a wild +4 a figure printed on it, ``positives_of``'s pick), but never the
# card whole on a table, with table round it. So each such photo is also laid whole on this
# many drawn tables (turned, 110-320 pixels long at 640x480) and learnt from the quads the
# detector finds there on it, or, where it finds none, from where it lies; CROP_TABLE_AUG
# crops each (jittered, a share as a part: as ``gather``'s photos). Without it, the UNO
# network read criscard's wild +4s (the white-centred design), lying whole on any drawn table
# or on black, as "not a card" at 0.6-0.95, and none of 72 was named (30 Nov, issue 33).
CROPS_ON_TABLES = {"uno": 4, "french": 0, "huangdi": 0}
CROP_TABLE_AUG = 4


def crop_on_tables(img: np.ndarray, kind: str, entries: list[dict], deck: str,
                   rng: np.random.Generator
                   ) -> Iterator[tuple[np.ndarray, np.ndarray, str]]:
    """(scene, portrait corners, label): a tight-crop photo of one card laid on
    ``CROPS_ON_TABLES[deck]`` drawn tables, and where on each the card is to be read."""
    labels = [e["label"] for e in entries if e["label"] not in NOT_CARDS]
    if not kind.startswith("crop") or len(entries) != 1 or len(labels) != 1:
        return
    for _ in range(CROPS_ON_TABLES.get(deck, 0)):
        scene = synth.table_texture(str(rng.choice(TABLES)), (640, 480), rng)
        truth = order_portrait(synth.place_card(
            scene, img, (rng.uniform(200, 440), rng.uniform(170, 310)),
            rng.uniform(110, 320), rng.uniform(-180, 180)))
        found = [q.corners for q in find_cards(scene, colour_bodies=deck == "uno")
                 if not q.whole and bbox_iou(q.corners, truth) > 0.6]
        yield scene, (found[0] if found else truth), labels[0]


def whole_frame(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    return order_portrait(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))


def whole_frame_is_no_card(img: np.ndarray, kind: str, pos: list) -> bool:
    """Whether a photo of a scene, read whole, is "not a card": its cards were found, each
    on under half the frame. (Where a scene's card is not found the identifier reads the
    whole frame, as it does a tight crop; the standard network had learned to name such
    frames, e.g. a webcam's grey paper with a card on it as the six of hearts at 0.99.)"""
    if not kind.startswith("whole-scene") or not pos:
        return False
    frame = img.shape[0] * img.shape[1]
    return all(cv2.contourArea(corners) < 0.5 * frame for corners, _ in pos)


def play_quads(img: np.ndarray, deck: str) -> list:
    """Every quad a photo's cards may be read from at play, in the order a labelled card
    takes the first that holds its box: the detector's; for UNO then the quads dropped for
    holding another (a wild +4 or +2 whose printed figures were found) and the close-up
    second look's boxes and tops (``Identifier._enclosing``, ``Identifier._second_look``).
    (Card tops on every photo: play looks for them only where the body search found a
    region, which 598 of the 613 UNO train photos give.)"""
    if deck != "uno":
        return find_cards(img)
    held: list = []
    quads = find_cards(img, colour_bodies=True, enclosing=held)
    return quads + held + closeup_body(img) + card_tops(img)


# Huang Di, whose real printing is not known, is learned from many printings
# (synth.random_printing: fonts, colours, frames, corner indices, words on its joker and
# invert, any stroke weight) besides our own art, which this share of its drawn cards and
# tables keep. Learned from our art alone, the network named 219 wrong in 822 cards drawn in
# other printings and faces (a 9 as a 6, an invert as the joker at 1.0); so learned, 42
# (tools/measure_printings.py, on OpenCV 5 and 4: docs/vision.md).
OWN_ART = {"huangdi": 0.4}


def art_of(deck: str, rng: np.random.Generator):
    """How one deck's drawn cards are printed: our art, or (Huang Di, ``OWN_ART``) a printing
    drawn at random."""
    if deck not in OWN_ART or rng.random() < OWN_ART[deck]:
        return synth.draw_card
    return synth.random_printing(rng).art


def drawn_card(deck: str, label: str, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray]:
    """One drawn card on a drawn table (a 640x480 scene) and its portrait corners: for the
    classes no photo shows."""
    scene = synth.table_texture(str(rng.choice(TABLES)), (640, 480), rng)
    corners = synth.place_card(scene, art_of(deck, rng)(deck, label),
                               (rng.uniform(200, 440), rng.uniform(180, 300)),
                               rng.uniform(120, 300), rng.uniform(-180, 180))
    return scene, order_portrait(corners)


def drawn_negatives(n: int, rng: np.random.Generator
                    ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Up to ``n`` card-sized patches of drawn empty tables: "not a card"."""
    for _ in range(n):
        scene = synth.table_texture(str(rng.choice(TABLES)), (640, 480), rng)
        q = random_negative(scene, [], rng)
        if q is not None:
            yield scene, q


def drawn_scenes(deck: str, n: int, rng: np.random.Generator
                 ) -> Iterator[tuple[np.ndarray, list[tuple[np.ndarray, str]]]]:
    """``n`` drawn table scenes of 1 to 10 cards, each with (corners, label) of the quads the
    detector finds there: the crops it will be handed, a little off the card's outline at
    times. A quad on a card is that card (as found, jittered a little and more: a quad a
    corner off, with some table in it, must still read as the card); one on no card, or
    on a part of a card only (a joker on a white table can give a quad on a third of it),
    is NONE: "not a card" or unsure, rather than another card's name. One in between is
    left out."""
    names = DECKS[deck]
    for k in range(n):
        cards = [(deck, str(rng.choice(names))) for _ in range(int(rng.integers(1, 11)))]
        size = (1280, 720) if rng.random() < 0.3 else (640, 480)
        scene, truth = synth.render_scene(cards, size=size, table=str(rng.choice(TABLES)),
                                          seed=SCENE_SEED + k, glare=rng.random() < 0.8,
                                          art=art_of(deck, rng))
        used: set[int] = set()
        out = []
        for q in find_cards(scene, colour_bodies=False):
            ious = [bbox_iou(q.corners, t) for t in truth]
            j = int(np.argmax(ious))
            if ious[j] > 0.6 and j not in used:
                used.add(j)
                out.append((q.corners, cards[j][1]))
                out.append((jitter(q.corners, rng, 0.02), cards[j][1]))
                out.append((jitter(q.corners, rng, 0.05), cards[j][1]))
            elif ious[j] < 0.45 and not q.whole:
                out.append((q.corners, NONE))
        yield scene, out


def build_net(w: int, h: int, na: int, nb: int, widths: tuple[int, ...] = WIDE):
    import torch
    from torch import nn

    def cbr(ci: int, co: int, s: int, g: int = 1, k: int = 3) -> list:
        return [nn.Conv2d(ci, co, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(co),
                nn.ReLU(inplace=True)]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers = cbr(3, widths[0], 2)
            c = widths[0]
            for i, co in enumerate(widths[1:]):  # depthwise then pointwise: cheap on a CPU
                layers += cbr(c, c, 2 if i % 2 == 0 else 1, g=c) + cbr(c, co, 1, k=1)
                c = co
            self.trunk = nn.Sequential(*layers)
            with torch.no_grad():
                n = self.trunk(torch.zeros(1, 3, h, w)).numel()
            # flattened, not pooled: where a mark sits on the card (the corner index) matters
            self.neck = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(n, 128),
                                      nn.ReLU(inplace=True))
            self.head_a = nn.Linear(128, na)
            self.head_b = nn.Linear(128, nb)
            self.softmax = False  # the exported graph ends in probabilities

        def forward(self, x):
            z = self.neck(self.trunk(x))
            a, b = self.head_a(z), self.head_b(z)
            if self.softmax:
                return torch.cat([a.softmax(1), b.softmax(1)], 1)
            return a, b

    return Net()


def to_tensor(crops: np.ndarray):
    import torch

    return torch.from_numpy(crops).permute(0, 3, 1, 2).float().div_(255.0).sub_(0.5)


def train(deck: str, data: tuple, epochs: int, seed: int, turn_round: bool = True,
          occlude: float = 0.25):
    """``turn_round``: turn half of each batch round (a whole card's crop may come either way
    up; an index patch never does). ``occlude``: the share given a random patch over it."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # two threads fight over a shared 2-core box
    w, h = SIZES[deck]
    first, second, _ = FACTORS[deck]
    x_all, ya, yb, ws = data
    x = to_tensor(x_all)
    ya, yb, ws = torch.from_numpy(ya), torch.from_numpy(yb), torch.from_numpy(ws)
    net = build_net(w, h, len(first), len(second), WIDTHS.get(deck, WIDE))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-3)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    ce = nn.CrossEntropyLoss(reduction="none")
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total, t0 = 0.0, time.time()
        for i in range(0, len(x), batch):
            idx = order[i:i + batch]
            xb = x[idx].clone()
            turn = torch.rand(len(idx), generator=gen) < (0.5 if turn_round else 0.0)
            xb[turn] = xb[turn].flip(2, 3)
            # small shifts, a little more light or colour cast, sensor noise
            dx, dy = (int(v) for v in torch.randint(-3, 4, (2,), generator=gen))
            xb = torch.roll(xb, (dy, dx), (2, 3))
            gain = 1 + 0.15 * (torch.rand(len(idx), 3, 1, 1, generator=gen) - 0.5)
            xb = (xb + 0.5) * gain - 0.5 + 0.1 * (torch.rand(len(idx), 1, 1, 1,
                                                             generator=gen) - 0.5)
            xb = xb + 0.02 * torch.randn(xb.shape, generator=gen)
            # a finger or a neighbouring card over part of it: one patch, anywhere
            for j in torch.nonzero(torch.rand(len(idx), generator=gen) < occlude).ravel():
                ph, pw = (int(v) for v in torch.randint(h // 8, h // 3, (2,), generator=gen))
                py = int(torch.randint(0, h - ph, (1,), generator=gen))
                px = int(torch.randint(0, max(1, w - pw), (1,), generator=gen))
                xb[j, :, py:py + ph, px:px + pw] = torch.rand(3, 1, 1, generator=gen) - 0.5
            a, b = net(xb)
            loss = ((ce(a, ya[idx]) + ce(b, yb[idx])) * ws[idx]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"[{deck}] epoch {epoch + 1}/{epochs} loss {total / len(x):.4f}"
              f" ({time.time() - t0:.0f}s)", flush=True)
    net.eval()
    net.softmax = True
    return net


def average(nets: list):
    """One graph that runs every member and averages their probabilities."""
    from torch import nn

    class Average(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = nn.ModuleList(nets)

        def forward(self, x):
            # a sum over the count, not torch.stack(...).mean(0): OpenCV 4.x read that
            # graph's stacked mean as one row for a batch of crops
            # (tools/onnx_mean_as_sum.py rewrote the networks exported so)
            total = self.members[0](x)
            for m in self.members[1:]:
                total = total + m(x)
            return total / len(self.members)

    return Average().eval()


def export(net, deck: str, path: Path | None = None) -> None:
    import torch

    w, h = SIZES[deck]
    path = path or MODELS / f"{deck}.onnx"
    torch.onnx.export(net, torch.zeros(1, 3, h, w), str(path), input_names=["crops"],
                      output_names=["probs"], dynamic_axes={"crops": {0: "n"}},
                      dynamo=False, opset_version=13)
    print(f"[{deck}] wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", flush=True)


# A card seen only in part is never named below this: the calib split holds ~40 such cards,
# too few to resolve a 1% wrong rate (with the networks of an earlier round, a floor of 0.9
# let 3 wrong names through on the held-out photos, hence PART_SURE, the level at which the
# identifier's second look judges its boxes sure). UNO's close-ups were measured apart:
# networks trained without half of uno_hemant's train photos (tools/measure_part_floor.py)
# read 144 cards seen in part on the other half, and named 2 wrong from 0.7, none from 0.8
# (90 named; 81 from 0.9, 77 from 0.95); with the shipped index network beside them, which
# had learnt that half (and the index's share of a part's reading at 0.8, not 0.9), 4 wrong
# from 0.7, 2 from 0.8 and 0.85, none from 0.9. The calib split's 42: none wrong from 0.7.
# 0.9 is the lowest level with no wrong name in any of the three.
PART_FLOOR = {"uno": 0.9}


def calib_pairs(deck: str, ident: Identifier, calib: list, others: list | None = None
                ) -> tuple[list[tuple[float, bool]], list[tuple[float, bool]],
                           list[tuple[float, bool]]]:
    """(confidence, right?) of every card on the calib photos, split into cards seen whole
    and cards seen only in part, and of every card of drawn scenes (seeds apart from the
    tests; a deck with no calib photos, Huang Di, gets four times as many, half of them
    busy tables of up to 10 cards). ``others``: the other decks' calib photos, where every
    card named is wrong (a standard deck on the table is no UNO game: a queen of hearts was
    named a red +2 at 0.56)."""
    seeds = ((2000, 5),) if calib else ((2000, 5), (3000, 5), (4000, 10), (5000, 10))
    drawn = [c for seed, most in seeds for r in synth_rows(deck, ident, seed, most)
             for c in r[4]]
    if deck in OWN_ART:  # and as many tables again in printings drawn at random
        drawn += [c for seed, most in ((6000, 5), (6500, 5), (7000, 10), (7500, 10))
                  for r in synth_rows(deck, ident, seed, most, printed=True) for c in r[4]]
    whole, part = [], []
    for path, entries, _ in calib + [(path, [], source) for path, _, source in others or []]:
        truth = Counter(e["label"] for e in entries if e["label"] not in NOT_CARDS)
        for card in sorted(ident.identify(cv2.imread(str(path))), key=lambda c: -c.confidence):
            ok = card.best is not None and truth[card.best] > 0
            if ok:
                truth[card.best] -= 1
            (part if card.partial else whole).append((card.confidence, ok))
    return whole, part, drawn


def lowest_safe(*sets: list[tuple[float, bool]], floor: float) -> float:
    """The lowest confidence (not below ``floor``) at which the names said stay within the
    wrong-name budget in *each* set: the drawn scenes keep the classes only drawings teach
    honest, but must not dilute the photos' wrong names (with ~100 calib photos' cards a
    single wrong name is already over 1%, so none may be left)."""
    for t in np.arange(floor, 0.995, 0.005):
        if all(len(named) - sum(named) <= WRONG_BUDGET * len(named)
               for named in ([ok for conf, ok in pairs if conf >= t] for pairs in sets)):
            return float(round(t, 3))
    return 0.995


def write_meta(deck: str, threshold: float, part_threshold: float = 0.0,
               turned: bool = False) -> None:
    first, second, _ = FACTORS[deck]
    w, h = SIZES[deck]
    meta = {"deck": deck, "size": [w, h], "heads": [list(first), list(second)],
            "threshold": threshold, "part_threshold": part_threshold, "none": NONE,
            "turned": turned}
    (MODELS / f"{deck}.json").write_text(json.dumps(meta, indent=1) + "\n")


def calibrate(deck: str, calib: list, turned: bool, others: list | None = None) -> None:
    """Pick the unsure thresholds (cards seen whole, cards seen in part) on the calib split
    (and the other decks' calib photos, where nothing may be named)."""
    write_meta(deck, 0.0, 0.0, turned)
    clear_cache()
    ident = Identifier(deck, CnnRecogniser(deck, threshold=0.0))
    whole, part, drawn = calib_pairs(deck, ident, calib, others)
    threshold = lowest_safe(whole, drawn, floor=MIN_THRESHOLD[deck])
    part_threshold = lowest_safe(part, floor=max(PART_FLOOR.get(deck, PART_SURE), threshold))
    write_meta(deck, threshold, part_threshold, turned)
    clear_cache()
    print(f"[{deck}] unsure threshold {threshold:.3f}, seen in part {part_threshold:.3f}"
          f" ({len(whole)} / {len(part)} calib cards, {len(drawn)} drawn)", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--deck", action="append", choices=sorted(SIZES))
    ap.add_argument("--aug", type=int, default=8, help="crops per labelled card")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--members", type=int, default=2,
                    help="networks averaged (the second ones only where the first is unsure)")
    ap.add_argument("--cache", type=Path, help="keep the gathered crops here between runs")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--turned", action="store_true",
                    help="also read each card turned round (twice the time; the Pi's budget"
                         " at 640x480 with 5 cards is 8 ms for everything)")
    ap.add_argument("--calibrate-only", action="store_true",
                    help="keep the network, pick the unsure thresholds again")
    ap.add_argument("--size", help="WxH the network reads (default: SIZES)")
    ap.add_argument("--widths", help="the trunk's channels, comma-separated (default: WIDTHS;"
                                     " with --deck)")
    args = ap.parse_args()
    if args.widths:
        for deck in args.deck or []:
            WIDTHS[deck] = tuple(int(v) for v in args.widths.split(","))
    if args.size:
        for deck in args.deck or []:
            SIZES[deck] = tuple(int(v) for v in args.size.lower().split("x"))
    cv2.setNumThreads(1)
    sets = load_sets(args.data)
    for deck in args.deck or sorted(SIZES):
        calib = [(ds["folder"] / n, e, ds["folder"].name) for ds in sets if ds["deck"] == deck
                 for n, e in ds["images"].items() if split_of(ds["folder"].name, n) == "calib"]
        others = [(ds["folder"] / n, e, ds["folder"].name) for ds in sets if ds["deck"] != deck
                  for n, e in ds["images"].items() if split_of(ds["folder"].name, n) == "calib"]
        if args.calibrate_only:
            calibrate(deck, calib, args.turned, others)
        elif not args.report_only:
            cache = args.cache / f"{deck}.npz" if args.cache else None
            if cache and cache.is_file():
                z = np.load(cache)
                data = (z["x"], z["ya"], z["yb"], z["w"])
            else:
                data = gather(deck, sets, np.random.default_rng(7), args.aug)
                if cache:
                    cache.parent.mkdir(parents=True, exist_ok=True)
                    np.savez(cache, x=data[0], ya=data[1], yb=data[2], w=data[3])
            print(f"[{deck}] training on {len(data[0])} crops", flush=True)
            nets = [train(deck, data, args.epochs, seed=1 + m) for m in range(args.members)]
            # the first network reads every crop, the others (averaged) only the crops it is
            # not sure of (vision/recognise/cnn.SECOND_BELOW)
            export(nets[0], deck)
            second = MODELS / f"{deck}_second.onnx"
            if len(nets) > 1:
                export(nets[1] if len(nets) == 2 else average(nets[1:]), deck, second)
            else:
                second.unlink(missing_ok=True)
            calibrate(deck, calib, args.turned, others)
        ident = Identifier(deck, CnnRecogniser(deck))
        # the calib split is what a choice between two trainings may look at; the test split
        # only reports
        test = [(ds["folder"] / n, e, ds["folder"].name) for ds in sets if ds["deck"] == deck
                for n, e in ds["images"].items() if split_of(ds["folder"].name, n) == "test"]
        if calib or test:  # Huang Di has no photos
            print(table(score_images(ident, calib), f"[{deck}] calib split"), flush=True)
            print(table(score_images(ident, test), f"[{deck}] HELD-OUT test split"),
                  flush=True)
        print(synth_check(deck, ident), flush=True)
        if deck in OWN_ART:
            print(synth_check(deck, ident, 8000, printed=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
