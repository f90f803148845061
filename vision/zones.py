"""Named zones of the table: rectangles in normalised image coordinates (0..1).

Set from the phone on a live snapshot, or found from printed ArUco markers: markers
2k and 2k+1 (DICT_4X4_50) mark the top-left and bottom-right corners of zone k, so any
table layout can be marked with one printed sheet (``companion vision markers``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

ARUCO_DICT = cv2.aruco.DICT_4X4_50
DEFAULT_NAMES = ["discard", "wall-1", "wall-2", "wall-3", "player-1", "player-2", "player-3",
                 "player-4", "play-area"]


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
    def from_dict(cls, d: dict) -> Zone:
        x0, y0, x1, y1 = (float(v) for v in d["rect"])
        if not (min(x0, x1) >= 0 and max(x0, x1) <= 1 and min(y0, y1) >= 0 and max(y0, y1) <= 1):
            raise ValueError(f"zone {d.get('name')!r}: rect must be within 0..1")
        return cls(str(d["name"]), (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))


def save_zones(zones: list[Zone], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(z) for z in zones], indent=1))


def load_zones(path: Path) -> list[Zone]:
    return [Zone.from_dict(d) for d in json.loads(path.read_text())] if path.is_file() else []


def _detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                   cv2.aruco.DetectorParameters())


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
        zones.append(Zone.from_dict({"name": name, "rect": [c[0] / w, c[1] / h,
                                                            d[0] / w, d[1] / h]}))
    return zones


def marker_sheet(zone_count: int = 4, names: list[str] | None = None,
                 page: tuple[int, int] = (2480, 3508), marker_px: int = 360) -> np.ndarray:
    """A printable A4 page (300 dpi): for each zone its two markers, cut apart and laid at
    the zone's top-left and bottom-right corners."""
    names = names or DEFAULT_NAMES
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    sheet = np.full((page[1], page[0]), 255, np.uint8)
    margin = 160
    cols = 2
    cell_w = (page[0] - 2 * margin) // cols
    cell_h = marker_px + 170
    for k in range(zone_count):
        name = names[k] if k < len(names) else f"zone-{k + 1}"
        for j, corner in enumerate(("top-left", "bottom-right")):
            mid = 2 * k + j
            x = margin + j * cell_w + (cell_w - marker_px) // 2
            y = margin + k * cell_h
            if y + cell_h > page[1] - margin:
                raise ValueError("too many zones for one page")
            marker = cv2.aruco.generateImageMarker(dictionary, mid, marker_px)
            sheet[y:y + marker_px, x:x + marker_px] = marker
            cv2.putText(sheet, f"{name}: {corner} (#{mid})", (x - 40, y + marker_px + 60),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.4, 0, 3, cv2.LINE_AA)
    return sheet
