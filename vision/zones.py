"""Named zones of the table: rectangles in normalised image coordinates (0..1).

Set from the phone on a live snapshot, or found from printed ArUco markers: markers
2k and 2k+1 (DICT_4X4_50) mark the top-left and bottom-right corners of zone k, so any
table layout can be marked with one printed sheet (``companion vision markers``).
"""

from __future__ import annotations

import json
import math
import numbers
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MAX_ZONES = 16  # on one printed page (the markers then about 1.2 cm), as the phone offers
DEFAULT_NAMES = ["discard", "wall-1", "wall-2", "wall-3", "player-1", "player-2", "player-3",
                 "player-4", "play-area"]
NAME_MAX = 40  # characters in a zone's name (it is printed on the marker sheet)
MIN_SIDE = 0.02  # a zone's least width and height, as a fraction of the picture's


class ZoneError(ValueError):
    """A zone the table cannot use; ``field`` says what is wrong with it: its ``name``, or
    its ``rect``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _coordinate(v: object) -> bool:
    """A real number (a JSON int or float, a numpy float), not a bool, and finite."""
    return (isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
            and math.isfinite(float(v)))


@dataclass(frozen=True)
class Zone:
    name: str
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of width/height

    def contains(self, x: float, y: float, width: int, height: int) -> bool:
        u, v = x / width, y / height
        return self.rect[0] <= u <= self.rect[2] and self.rect[1] <= v <= self.rect[3]

    def pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = self.rect
        return round(x0 * width), round(y0 * height), round(x1 * width), round(y1 * height)

    @classmethod
    def from_dict(cls, d: object) -> Zone:
        """A zone from its JSON (``{"name", "rect": [x0, y0, x1, y1]}``), checked: a phone
        sends it, and what it stores is printed on markers and keys the game's zones. The
        name is a string of 1 to NAME_MAX characters once stripped (no control characters);
        the rectangle four finite numbers within 0..1, its corners in either order, each
        side at least MIN_SIDE of the picture (a zero-size zone never holds a card).
        ZoneError (a ValueError) says which is wrong."""
        if not isinstance(d, dict):
            raise ZoneError("rect", "a zone is an object with a name and a rect")
        name = d.get("name")
        if not isinstance(name, str):
            raise ZoneError("name", f"zone name must be a string, not {type(name).__name__}")
        name = name.strip()
        if not 1 <= len(name) <= NAME_MAX or any(
                unicodedata.category(c).startswith("C") for c in name):
            raise ZoneError("name", f"zone name must have 1 to {NAME_MAX} printable characters")
        rect = d.get("rect")
        if not isinstance(rect, (list, tuple)) or len(rect) != 4 or not all(
                _coordinate(v) for v in rect):
            raise ZoneError("rect", f"zone {name!r}: rect is four numbers x0, y0, x1, y1")
        x0, y0, x1, y1 = (float(v) for v in rect)
        if not all(0.0 <= v <= 1.0 for v in (x0, y0, x1, y1)):
            raise ZoneError("rect", f"zone {name!r}: rect must be within 0..1")
        if abs(x1 - x0) < MIN_SIDE or abs(y1 - y0) < MIN_SIDE:
            raise ZoneError("rect", f"zone {name!r}: each side at least {MIN_SIDE} of the picture")
        return cls(name, (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))


def save_zones(zones: list[Zone], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(z) for z in zones], indent=1))


def load_zones(path: Path) -> list[Zone]:
    return [Zone.from_dict(d) for d in json.loads(path.read_text())] if path.is_file() else []


def _detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                   cv2.aruco.DetectorParameters())


def marker_quads(image: np.ndarray) -> list[np.ndarray]:
    """The four corners (pixels) of every zone marker in view: the detector takes a marker's
    square for a card, and teaching must not take one (nor a sheet around it) for one."""
    corners, ids, _ = _detector().detectMarkers(image)
    return [] if ids is None else [c.reshape(4, 2) for c in corners]


def zones_from_markers(image: np.ndarray, names: list[str] | None = None) -> list[Zone]:
    """Zones from the marker pairs visible in a photo of the table."""
    names = names or DEFAULT_NAMES
    corners, ids, _ = _detector().detectMarkers(image)
    if ids is None:
        return []
    h, w = image.shape[:2]
    centre = {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners,
                                                                     strict=True)}
    zones = []
    for mid, c in sorted(centre.items()):
        if mid % 2 or mid + 1 not in centre:
            continue
        k = mid // 2
        d = centre[mid + 1]
        name = names[k] if k < len(names) else f"zone-{k + 1}"
        try:
            rect = [float(c[0] / w), float(c[1] / h), float(d[0] / w), float(d[1] / h)]
            zones.append(Zone.from_dict({"name": name, "rect": rect}))
        except ZoneError:  # (two markers laid on top of each other: no zone between them)
            continue
    return zones


def marker_image(mid: int, px: int = 360) -> np.ndarray:
    """Marker ``mid`` alone, ``px`` pixels, in the white margin a detector needs around it
    (a tenth of its width each side): one cell of the printable page (/camera/markers)."""
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                           mid, px)
    pad = px // 10
    return cv2.copyMakeBorder(marker, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def printable(text: str) -> str | None:
    """``text`` as cv2.putText can print it (its Hershey fonts know ASCII only): accents
    dropped; None where anything else would be lost (a Chinese name prints as '?')."""
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return folded if folded.isascii() and folded.isprintable() else None


def marker_sheet(zone_count: int | None = None, names: list[str] | None = None,
                 page: tuple[int, int] = (2480, 3508), marker_px: int = 360) -> np.ndarray:
    """A printable A4 page (300 dpi): for each zone its two markers, cut apart and laid at
    the zone's top-left and bottom-right corners, each captioned with the zone's number (as
    the phone lists the zones) and name (left out where cv2 cannot print it).

    ``zone_count`` defaults to the number of ``names`` given, else 4. Up to 6 zones a row
    each (markers 360 pixels, 3 cm); more go two to a row, and the markers shrink to fit
    the page (16 zones: 138 pixels, about 1.2 cm)."""
    if zone_count is None:
        zone_count = len(names) if names else 4
    names = names or DEFAULT_NAMES
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    sheet = np.full((page[1], page[0]), 255, np.uint8)
    # the bottom-right marker sits lower than its top-left one, as on the table (and so a
    # photo of the sheet itself gives zones of some height)
    margin, caption, drop = 160, 170, 90
    per_row = 1 if zone_count <= 6 else 2
    rows = -(-zone_count // per_row)
    cell_w = (page[0] - 2 * margin) // (2 * per_row)
    marker_px = min(marker_px, cell_w - 80,
                    (page[1] - 2 * margin) // max(rows, 1) - caption - drop)
    if marker_px < 120 or 2 * zone_count > 50:  # (DICT_4X4_50: markers 0..49)
        raise ValueError("too many zones for one page")
    cell_h = marker_px + caption + drop
    for k in range(zone_count):
        name = names[k] if k < len(names) else ""
        name = printable(name) or ""
        row, col = divmod(k, per_row)
        for j, corner in enumerate(("top-left", "bottom-right")):
            mid = 2 * k + j
            x0 = margin + (2 * col + j) * cell_w
            x = x0 + (cell_w - marker_px) // 2
            y = margin + row * cell_h + j * drop
            marker = cv2.aruco.generateImageMarker(dictionary, mid, marker_px)
            sheet[y:y + marker_px, x:x + marker_px] = marker
            # numbered as the phone lists the zones: the link where a name cannot print
            text = f"{k + 1}. {name}: {corner} (#{mid})" if name else \
                f"{k + 1}: {corner} (#{mid})"
            scale = 1.4
            width = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)[0][0]
            if width > cell_w - 20:  # (a long name: the caption shrinks to its cell)
                scale *= (cell_w - 20) / width
                width = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)[0][0]
            cv2.putText(sheet, text, (x0 + (cell_w - width) // 2, y + marker_px + 60),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 3, cv2.LINE_AA)
    return sheet
