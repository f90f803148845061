"""The live preview: frames with detected cards, names and zones drawn, as JPEG or MJPEG.

``mjpeg_chunks(hub, ...)`` yields the parts of a multipart/x-mixed-replace response; the web
layer only has to wrap it in a streaming Response with ``MJPEG_MIMETYPE``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import cv2
import numpy as np

from vision.identify import Card
from vision.zones import Zone

BOUNDARY = "frame"
MJPEG_MIMETYPE = f"multipart/x-mixed-replace; boundary={BOUNDARY}"


def free_row(x: int, y: int, w: int, h: int, plates: list[tuple[int, int, int, int]],
             height: int) -> int:
    """The bottom edge for a name plate ``w`` x ``h`` at ``x``, at ``y`` or lower, clear of
    the ``plates`` (x0, y0, x1, y1) drawn already: two cards side by side had their names
    drawn over each other ("ld-draw4 0.99" under "green-reverse 1.00"). Where no row below
    is clear within the picture, ``y`` as asked."""
    at = y
    for _ in range(len(plates)):
        hit = [p for p in plates if x < p[2] and p[0] < x + w and at - h < p[3] and p[1] < at]
        if not hit:
            return at
        at = max(p[3] for p in hit) + h + 1
        if at > height:
            return y
    return at


def plate_text(card: Card) -> str:
    """What a card's plate says on the phone's picture: its name, or its best guess with a
    "?", or "?" alone. No confidence: "? 0.00" on every sample card said nothing a person
    could read (the page's legend says what green and orange mean)."""
    if card.label:
        return card.label
    return f"{card.best}?" if card.best else "?"


def draw(image: np.ndarray, cards: list[Card], zones: list[Zone] = ()) -> np.ndarray:
    """A copy of ``image`` with zones (blue), named cards (green) and unsure ones (orange)."""
    out = image.copy()
    h, w = out.shape[:2]
    lw = max(1, round(max(h, w) / 400))
    for z in zones:
        x0, y0, x1, y1 = z.pixels(w, h)
        cv2.rectangle(out, (x0, y0), (x1, y1), (255, 140, 0), lw)
        cv2.putText(out, z.name, (x0 + 4, y0 + 18 * lw), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * lw,
                    (255, 140, 0), lw, cv2.LINE_AA)
    plates: list[tuple[int, int, int, int]] = []  # the name plates drawn so far
    for c in cards:
        colour = (60, 200, 60) if c.label else (0, 140, 255)
        pts = c.corners.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, lw + 1, cv2.LINE_AA)
        text = plate_text(c)
        # on a dark plate: a green name on wood or a patterned cloth is lost at phone size
        scale = 0.6 * lw
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, lw)
        x, y = (int(v) for v in c.corners.min(axis=0))
        x = min(max(0, x), max(0, w - tw - 4))
        y = free_row(x, max(th + base + 4, y - 4), tw + 4, th + base + 4, plates, h)
        plates.append((x, y - th - base - 4, x + tw + 4, y))
        cv2.rectangle(out, (x, y - th - base - 4), (x + tw + 4, y), (20, 20, 20), -1)
        cv2.putText(out, text, (x + 2, y - base - 2), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                    lw, cv2.LINE_AA)
    return out


def encode_jpeg(image: np.ndarray, quality: int = 75, max_side: int = 960) -> bytes:
    h, w = image.shape[:2]
    s = min(1.0, max_side / max(h, w))
    if s < 1:
        image = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return buf.tobytes()


def mjpeg_part(jpeg: bytes) -> bytes:
    return (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
            .encode() + jpeg + b"\r\n")


def mjpeg_chunks(hub: object, identify: Callable[[np.ndarray], list[Card]] | None = None,
                 zones: Callable[[], list[Zone]] | list[Zone] = (), max_frames: int | None = None,
                 timeout: float = 2.0) -> Iterator[bytes]:
    """Multipart MJPEG parts, one per new frame of ``hub`` (a FrameHub), annotated.

    Stops after ``max_frames`` or when no frame comes within ``timeout`` seconds.
    """
    seq = 0
    sent = 0
    while max_frames is None or sent < max_frames:
        frame = hub.wait_next(seq, timeout=timeout)  # type: ignore[attr-defined]
        if frame is None:
            return
        seq = frame.seq
        cards = identify(frame.image) if identify else []
        zs = zones() if callable(zones) else list(zones)
        yield mjpeg_part(encode_jpeg(draw(frame.image, cards, zs)))
        sent += 1
