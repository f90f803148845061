"""Taught decks on disk: <data_path>/decks/<deck>/<label>.npz, one file per card name.

Each file keeps the feature vectors (both ways up) and the SIFT keypoints of every photo the
table showed for that card (not the photo itself), so teaching is just appending, forgetting
is deleting a file, and a table can also correct a built-in deck for its printing by
teaching under the built-in deck's name.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from companion.cards import fold_taught_name
from vision.detect import find_cards, looks_for_bodies, rectify
from vision.recognise import UNKNOWN_READING
from vision.recognise.features import DETAIL_H, DETAIL_W, both_ways
from vision.recognise.keypoints import Keypoints, from_arrays, keypoints, to_arrays

MAX_NAME = 40  # a taught card's name, folded (the phone's box holds 40 characters)
# The least a card's face shows of printed marks (:func:`printed`): measured over the
# shared photos' 173 tight crops, the least was 23; a blank grey photo is 0, one with a
# camera's noise (sd 8), a vignette or a smooth gradient of light at most 5.
LEAST_PRINT = 10.0


class NoCardInView(LookupError):
    """Teaching from a view of the table that shows no card."""


class BlankCard(NoCardInView):
    """Teaching from a photo whose card has nothing printed on it (a blank or grey photo, a
    plain piece of paper): taught, it would name every blank patch the camera sees."""


def printed(crop: np.ndarray) -> float:
    """How strongly marks are printed on a rectified card ``crop``: the 99th percentile,
    over its inside (its edge left out: the table's border around a quad), of a band-pass
    (the difference of Gaussian blurs of 1 and 6 pixels, at the 96x144 crop's scale), the
    strongest of blue, green and red. A smooth change of light and a camera's noise stay
    near 0."""
    if crop.shape[:2] != (DETAIL_H, DETAIL_W):
        crop = cv2.resize(crop, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    my, mx = DETAIL_H * 6 // 100, DETAIL_W * 6 // 100
    inside = crop[my:DETAIL_H - my, mx:DETAIL_W - mx].astype(np.float32)
    band = np.abs(cv2.GaussianBlur(inside, (0, 0), 1) - cv2.GaussianBlur(inside, (0, 0), 6))
    return float(np.percentile(band.max(axis=2) if band.ndim == 3 else band, 99))


def _around(outer: np.ndarray, inner: np.ndarray, clear: bool = True) -> bool:
    """Whether quad ``outer`` holds ``inner`` as a card holds a figure printed on it: the
    inner one's centre inside, and at most half its area (a UNO body fills three quarters
    of its card), or a seventh where ``outer`` runs to the photo's edges (``clear`` False):
    a tight crop's card around a pip, but not a webcam's view around a card lying on the
    table (a blue 0, a fifth of that view, taught so was read wrong)."""
    o = np.asarray(outer, np.float32).reshape(-1, 1, 2)
    c = np.asarray(inner, np.float32).reshape(-1, 2).mean(axis=0)
    share = cv2.contourArea(np.asarray(inner, np.float32)) / max(cv2.contourArea(o), 1.0)
    return (cv2.pointPolygonTest(o, (float(c[0]), float(c[1])), False) > 0
            and share < (0.5 if clear else 1 / 7))


def _clear(corners: np.ndarray, image: np.ndarray) -> bool:
    """Whether a quad lies clear of the photo's edges (2% of its shorter side)."""
    h, w = image.shape[:2]
    m = 0.02 * min(h, w)
    xy = np.asarray(corners, np.float32).reshape(-1, 2)
    return bool(xy[:, 0].min() >= m and xy[:, 1].min() >= m and xy[:, 0].max() <= w - 1 - m
                and xy[:, 1].max() <= h - 1 - m)


def _on_marker(corners: np.ndarray, markers: list[np.ndarray]) -> bool:
    """Whether a quad is a zone marker, part of one, or holds one."""
    quad = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    for m in markers:
        centre = m.mean(axis=0)
        if cv2.pointPolygonTest(quad, (float(centre[0]), float(centre[1])), False) >= 0:
            return True
        mid = quad.reshape(-1, 2).mean(axis=0)
        if cv2.pointPolygonTest(m.astype(np.float32).reshape(-1, 1, 2),
                                (float(mid[0]), float(mid[1])), False) >= 0:
            return True
    return False


class DeckStore:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root) / "decks"
        self._lock = threading.Lock()

    @classmethod
    def default(cls) -> DeckStore:
        from companion.config import load_config

        return cls(load_config().data_path)

    def _dir(self, deck: str) -> Path:
        name = fold_taught_name(deck)
        if not name:
            raise ValueError(f"bad deck name {deck!r}")
        return self.root / name

    def list_decks(self) -> dict[str, list[str]]:
        """Every taught deck with its card names."""
        if not self.root.is_dir():
            return {}
        return {d.name: sorted(p.stem for p in d.glob("*.npz"))
                for d in sorted(self.root.iterdir()) if d.is_dir()}

    def teach(self, deck: str, label: str, image: np.ndarray, crop: bool = False,
              whole: bool = True) -> int:
        """Remember one photo of card ``label``; returns how many photos it now has.

        ``image`` is a photo with the card in view (the largest card found is used) or,
        with ``crop=True``, an already rectified card. ``whole`` False: the photo is a view
        of the table (the camera's), never itself a tight crop of a card, so with no card
        found :class:`NoCardInView` is raised (the detector's whole-photo guess, taught from
        an empty table, had the camera name that table a card and play it). A card with
        nothing printed on it is never taught: :class:`BlankCard` (see :meth:`card_crop`).
        """
        label = fold_taught_name(label)
        if not label:
            raise ValueError("empty card name")
        if not crop:
            image = self.card_crop(image, whole, deck)
        elif printed(image) < LEAST_PRINT:
            raise BlankCard("nothing is printed on the card")
        feats = both_ways(image)
        kps = [keypoints(image)]
        # what the deck's built-in model read this photo as (its sure name, "" for none):
        # a photo taught against that reading is the table's correction of exactly that
        # confusion (recognise.TaughtFirst)
        from vision.recognise import model_reading

        reads = np.array([model_reading(fold_taught_name(deck), image) or ""])
        d = self._dir(deck)
        with self._lock:
            d.mkdir(parents=True, exist_ok=True)
            path = d / f"{label}.npz"
            if path.is_file():
                with np.load(path) as old:
                    earlier = len(old["features"]) // 2
                    feats = np.concatenate([old["features"], feats])
                    if "kp_photo" in old:  # (files taught before keypoints have none)
                        kps = from_arrays(old["kp_points"], old["kp_descriptors"],
                                          old["kp_photo"]) + kps
                    # (files taught before the readings were kept: not known)
                    reads = np.concatenate([old["read_as"] if "read_as" in old
                                            else np.array([UNKNOWN_READING] * earlier), reads])
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, features=feats.astype(np.float32), read_as=reads,
                                **to_arrays(kps))
            tmp.replace(path)
        return len(feats) // 2

    @staticmethod
    def card_crop(image: np.ndarray, whole: bool = True, deck: str = "uno") -> np.ndarray:
        """The card to teach from a photo, rectified: the largest card found with something
        printed on it, looked for as ``deck``'s identifier looks for its cards (by their
        outline, and but for the standard pack and Huang Di by coloured bodies too). The
        largest found may be a plain figure printed on the card (UNO's +2 holds two
        card-shaped ones) or a patch of one colour: then, with ``whole``, a photo shaped
        like a card is taken as a tight crop of it, else the next card found is used. For a
        taught deck (art unknown), a card found by its outline around the first one found is
        taught first: looked for by bodies, a white card's dark pips and picture frame are
        bodies, and a 7 of clubs was taught as two of its clubs (the identifier reads the
        card around them where nothing inside is named). A zone marker, or a quad holding
        one (the sheet or board it lies on), is no card. :class:`NoCardInView` with no card
        found, :class:`BlankCard` when nothing is printed on any (a blank photo given as a
        tight crop, a plain piece of paper)."""
        from vision.zones import marker_quads

        markers = marker_quads(image)
        colour = looks_for_bodies(deck)
        found: list = []
        quads = [q for q in find_cards(image, colour_bodies=colour, whole_fallback=whole,
                                       enclosing=found) if not _on_marker(q.corners, markers)]
        if not quads:
            raise NoCardInView("no card in view")
        order = [*quads[:1], *(q for q in found if q.whole and not _on_marker(q.corners,
                                                                             markers)),
                 *quads[1:]]
        if colour and deck != "uno":
            order[:0] = [q for q in find_cards(image, whole_fallback=False)
                         if not _on_marker(q.corners, markers)
                         and _around(q.corners, quads[0].corners, _clear(q.corners, image))
                         ][:1]
        for quad in order:
            card = rectify(image, quad.corners, (DETAIL_W, DETAIL_H))
            if printed(card) >= LEAST_PRINT:
                return card
        raise BlankCard("nothing is printed on the card")

    def forget(self, deck: str, label: str | None = None) -> bool:
        """Forget one card, or the whole deck when ``label`` is None."""
        d = self._dir(deck)
        with self._lock:
            if label is None:
                if not d.is_dir():
                    return False
                for p in d.glob("*"):
                    p.unlink()
                d.rmdir()
                return True
            name = fold_taught_name(label)
            p = d / f"{name}.npz"
            if name and len(name) <= MAX_NAME and p.is_file():
                p.unlink()
                return True
            return False

    def _files(self, deck: str) -> list[Path]:
        d = self._dir(deck)
        return [p for p in (sorted(d.glob("*.npz")) if d.is_dir() else [])
                if not p.name.endswith(".tmp.npz")]

    def examples(self, deck: str) -> dict[str, np.ndarray]:
        """Each taught card's feature vectors (two rows a photo: as shown, turned round)."""
        out = {}
        for p in self._files(deck):
            with np.load(p) as f:
                out[p.stem] = f["features"]
        return out

    def read_as(self, deck: str) -> dict[str, set[str]]:
        """Each taught card's photos' readings by the deck's built-in model at teach time:
        its sure names (none for a photo it was unsure of), and ``UNKNOWN_READING`` for
        photos taught before these were kept."""
        out = {}
        for p in self._files(deck):
            with np.load(p) as f:
                out[p.stem] = {str(r) for r in f["read_as"] if r} if "read_as" in f \
                    else {UNKNOWN_READING}
        return out

    def keypoints(self, deck: str) -> dict[str, list[Keypoints]]:
        """Each taught card's keypoints, one set a photo (none for photos taught before
        the store kept keypoints)."""
        out = {}
        for p in self._files(deck):
            with np.load(p) as f:
                if "kp_photo" in f:
                    out[p.stem] = from_arrays(f["kp_points"], f["kp_descriptors"],
                                              f["kp_photo"])
        return out
