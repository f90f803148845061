"""Huge pictures from a camera folder (vision/sources/replay.py): a 50-megapixel photo, or a
small file that claims a huge picture (a decompression bomb), took the server to 1.6 GB.
They are refused by their header, before anything is decoded."""

from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import replay
from vision.sources.replay import MAX_FRAME_PIXELS, SAMPLES, ReplaySource


def _png_claiming(path: Path, width: int, height: int) -> None:
    """A PNG of a few hundred bytes whose header says ``width`` x ``height`` grey pixels:
    its rows of zeros compress to almost nothing (a decompression bomb)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * (width + 1) * 64)  # (the first rows only)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows)
                     + chunk(b"IEND", b""))


@pytest.fixture
def decoded(monkeypatch):
    """The files the replay decoded."""
    seen: list[str] = []
    real = cv2.imread

    def imread(path, *args):
        seen.append(Path(path).name)
        return real(path, *args)

    monkeypatch.setattr(replay.cv2, "imread", imread)
    return seen


def test_photos_over_the_frame_limit_are_refused_before_decoding(tmp_path, decoded, caplog):
    shutil.copy(SAMPLES / "01_uno_wood.jpg", tmp_path / "a.jpg")
    side = int(MAX_FRAME_PIXELS ** 0.5) + 16  # (just over the limit: a real JPEG)
    cv2.imwrite(str(tmp_path / "b_big.jpg"), np.zeros((side, side, 3), np.uint8))
    _png_claiming(tmp_path / "c_bomb.png", 40_000, 40_000)
    (tmp_path / "d_junk.png").write_bytes(b"not a picture at all")
    source = ReplaySource(tmp_path, stepped=True)
    source.start()
    assert decoded == ["a.jpg"]
    frames = [source.read() for _ in range(3)]
    assert all(f.image.shape == frames[0].image.shape for f in frames)
    assert "b_big.jpg" in caplog.text and "c_bomb.png" in caplog.text


def test_a_folder_of_nothing_but_huge_photos_is_no_camera(tmp_path, decoded):
    _png_claiming(tmp_path / "bomb.png", 100_000, 100_000)
    with pytest.raises(FileNotFoundError):
        ReplaySource(tmp_path, stepped=True).start()
    assert decoded == []


def test_the_sample_photos_are_all_frames():
    source = ReplaySource(SAMPLES, stepped=True)
    source.start()
    files = [p for p in SAMPLES.iterdir() if p.suffix.lower() in replay.IMAGE_EXT]
    assert len(source._images) == len(files)
