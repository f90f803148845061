"""Reading a person's photo in bounded memory (vision.photo_read): a big photo is decoded
reduced, its cards' corners said in the photo's own pixels; an ordinary one as ever."""

from __future__ import annotations

import argparse
import json
import struct
import tracemalloc
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import photo_read
from vision.photo_read import read_header, read_photo
from vision.synth import render_scene


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data))


def read_traced(path: Path):
    """``read_photo(path)`` and the peak of the memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        photo = read_photo(path)
        return photo, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def blank_png(path: Path, w: int, h: int, grey: int = 128) -> Path:
    """A grey RGB PNG written a row at a time (never held whole in memory)."""
    z = zlib.compressobj(1)
    row = b"\x00" + bytes([grey]) * (3 * w)
    data = b"".join([z.compress(row) for _ in range(h)] + [z.flush()])
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(
        ">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))
    return path


def test_a_48_mp_png_is_read_reduced_without_ever_holding_it_whole(tmp_path: Path) -> None:
    """A 8000x6000 PNG (a phone photo's size) decoded whole is a 144 MB array (a 16000x12000
    one took 1.25 GB of the vision process's 150 MB): it is decoded a strip at a time, to
    2000x1500, and said to be 4 times that."""
    photo, peak = read_traced(blank_png(tmp_path / "big.png", 8000, 6000))
    assert photo.why == "" and photo.image.shape == (1500, 2000, 3)
    assert photo.scale == (4.0, 4.0) and (photo.image == 128).all()
    assert peak < 8000 * 6000 * 3 / 3, f"{peak / 1e6:.0f} MB"


@pytest.mark.parametrize("kind", ["rgb", "grey", "rgba"])
@pytest.mark.parametrize("png_filter", ["NONE", "SUB", "UP", "AVG", "PAETH", "ALL"])
def test_a_png_read_in_strips_is_the_png_reduced(tmp_path: Path, monkeypatch, kind: str,
                                                 png_filter: str) -> None:
    """Every row filter PNG has (each strip is unfiltered against the row above it), in
    strips of a few rows, ends and odd sizes included: the same pixels as the whole PNG
    decoded by OpenCV and then reduced. (OpenCV 4.11, a Pi's, cannot choose the filter
    when it writes: there the test runs with its default filters once.)"""
    if not hasattr(cv2, "IMWRITE_PNG_FILTER"):
        if png_filter != "ALL":
            pytest.skip("this OpenCV writes PNGs with its own filters only")
        params: list[int] = []
    else:
        name = "IMWRITE_PNG_ALL_FILTERS" if png_filter == "ALL" else \
            f"IMWRITE_PNG_FILTER_{png_filter}"
        params = [cv2.IMWRITE_PNG_FILTER, getattr(cv2, name)]
    monkeypatch.setattr(photo_read, "MAX_PIXELS", 10_000)
    monkeypatch.setattr(photo_read, "STRIP_BYTES", 5000)
    rng = np.random.default_rng(1)
    image = cv2.GaussianBlur(rng.integers(0, 255, (301, 407, 3), np.uint8), (0, 0), 2)
    image = cv2.add(image, rng.integers(0, 40, image.shape, np.uint8))
    image = {"rgb": image, "grey": cv2.cvtColor(image, cv2.COLOR_BGR2GRAY),
             "rgba": cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)}[kind]
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), image, params)
    header = read_header(path)
    assert (header.kind, header.width, header.height, header.reducible) == ("png", 407, 301,
                                                                           True)
    photo = read_photo(path)
    # (each pixel 4 x 4 of the photo's: the last 3 columns and the last row, no whole block,
    # are left out, so the scale is 4, not 407 / 101, which put far corners 3 pixels off)
    assert photo.image.shape == (75, 101, 3) and photo.scale == (4.0, 4.0)
    assert photo.to_photo(np.array([[100.0, 74.0]])).tolist() == [[401.5, 297.5]]
    assert np.array_equal(photo.image, photo_read.reduce(cv2.imread(str(path)), 4))


def test_a_big_png_cut_short_or_spoilt_is_not_an_image(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(photo_read, "MAX_PIXELS", 10_000)
    data = blank_png(tmp_path / "whole.png", 400, 300).read_bytes()
    cut, spoilt = tmp_path / "cut.png", tmp_path / "spoilt.png"
    cut.write_bytes(data[:len(data) // 2])
    spoilt.write_bytes(data[:60] + bytes(len(data) - 60))
    assert read_photo(tmp_path / "whole.png").image.shape == (75, 100, 3)
    assert read_photo(cut).why == read_photo(spoilt).why == "not an image"
    short = tmp_path / "short.png"  # (its IHDR says it is 5 bytes long: no colour type)
    short.write_bytes(data[:8] + (5).to_bytes(4, "big") + data[12:])
    assert read_photo(short).why == "not an image"


def test_an_ordinary_photo_is_read_as_ever(tmp_path: Path) -> None:
    image, _ = render_scene([("uno", "red-7")], size=(1280, 960), seed=1)
    for name in ("scene.jpg", "scene.png"):
        path = tmp_path / name
        cv2.imwrite(str(path), image)
        photo = read_photo(path)
        assert np.array_equal(photo.image, cv2.imread(str(path))) and photo.scale == (1, 1)


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """``jpeg`` with an EXIF block saying how the camera was held (as a phone writes it)."""
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + \
        struct.pack(">I", 0)
    exif = b"Exif\x00\x00" + b"MM\x00\x2a" + struct.pack(">I", 8) + ifd
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]


def test_a_big_jpeg_taken_on_its_side_is_read_reduced_and_turned(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """A phone held upright writes its photo on its side and says so (EXIF orientation 6):
    OpenCV turns it, reduced or not; a point of the reduced image is said where it is in
    the photo as OpenCV reads it whole."""
    monkeypatch.setattr(photo_read, "MAX_PIXELS", 100_000)
    image = np.full((800, 1600, 3), 200, np.uint8)
    cv2.circle(image, (1200, 200), 40, (0, 0, 0), -1)
    path = tmp_path / "side.jpg"
    path.write_bytes(_with_orientation(cv2.imencode(".jpg", image)[1].tobytes(), 6))
    header = read_header(path)
    assert (header.kind, header.width, header.height, header.reducible) == ("jpeg", 1600, 800,
                                                                           True)
    whole = cv2.imread(str(path))
    assert whole.shape[:2] == (1600, 800)  # (turned)
    photo = read_photo(path)
    assert photo.image.shape[:2] == (400, 200) and photo.scale == (4.0, 4.0)

    def dot(img: np.ndarray) -> np.ndarray:
        ys, xs = np.nonzero(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < 100)
        return np.array([xs.mean(), ys.mean()])

    assert np.abs(photo.to_photo(dot(photo.image)) - dot(whole)).max() < 2


def test_what_cannot_be_read_reduced_is_read_whole_only_when_small_enough(
        tmp_path: Path, monkeypatch) -> None:
    """A progressive JPEG (libjpeg keeps the whole image's coefficients) and a 16-bit PNG
    are decoded whole up to FULL_DECODE_PIXELS, then reduced; beyond, too large to read."""
    monkeypatch.setattr(photo_read, "MAX_PIXELS", 10_000)
    image = np.random.default_rng(2).integers(0, 255, (240, 320, 3), np.uint8)
    prog = tmp_path / "prog.jpg"
    cv2.imwrite(str(prog), image, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), image.astype(np.uint16) * 257)
    for path in (prog, deep):
        assert not read_header(path).reducible
        photo = read_photo(path)
        assert photo.image.shape == (60, 80, 3) and photo.scale == (4.0, 4.0), path
    monkeypatch.setattr(photo_read, "FULL_DECODE_PIXELS", 50_000)
    for path in (prog, deep):
        assert read_photo(path).why == "too large to read"


def test_identify_reads_a_big_photo_reduced_and_says_its_corners_in_the_photo(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """The JSON contract holds for a photo read reduced: the corners are the photo's own
    pixels (here 4 times those of the same scene drawn 640x480)."""
    from vision.cli import add_parser
    from vision.identify import Identifier

    scene, _ = render_scene([("uno", "red-7"), ("uno", "blue-2")], seed=3)
    small, big = tmp_path / "small.png", tmp_path / "big.png"
    cv2.imwrite(str(small), scene)
    cv2.imwrite(str(big), cv2.resize(scene, (2560, 1920), interpolation=cv2.INTER_NEAREST))
    seen: list[tuple[int, ...]] = []
    timed = Identifier.timed
    monkeypatch.setattr(Identifier, "timed",
                        lambda self, image: seen.append(image.shape) or timed(self, image))
    monkeypatch.setattr(photo_read, "MAX_PIXELS", 640 * 480)
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["vision", "identify", "--deck", "uno", "--json", "--data-dir",
                              str(tmp_path), str(small), str(big)])
    assert args.func(args) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert seen == [(480, 640, 3), (480, 640, 3)]
    assert [r["image"] for r in rows] == [str(small), str(big)]
    assert [c["label"] for c in rows[1]["cards"]] == [c["label"] for c in rows[0]["cards"]]
    assert {c["label"] for c in rows[0]["cards"]} == {"red-7", "blue-2"}
    for one, four in zip(rows[0]["cards"], rows[1]["cards"], strict=True):
        assert set(four) == {"label", "confidence", "corners"}
        assert np.abs(np.array(four["corners"]) - (np.array(one["corners"]) * 4 + 1.5)
                      ).max() < 0.3


def test_a_png_claiming_a_side_longer_than_opencv_reads_is_refused_before_its_rows(
        tmp_path: Path) -> None:
    """50 million pixels by 1 is within the budget once reduced, but one row of it is 150 MB:
    OpenCV would refuse the strip anyway, so it is refused from the header, holding nothing."""
    wide = tmp_path / "wide.png"
    wide.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(
        ">IIBBBBB", 50_000_000, 1, 8, 2, 0, 0, 0)) + _chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + _chunk(b"IEND", b""))
    photo, peak = read_traced(wide)
    assert photo.why == "too large to read"
    assert peak < 5_000_000
