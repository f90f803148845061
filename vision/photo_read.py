"""Reading a person's photo in bounded memory (``companion vision identify`` and ``teach``).

A camera never sends big frames, but a photo given on the command line may be a 48 MP phone
photo (8000x6000), or larger: decoded whole, a 16000x12000 PNG took 1.2 GB. The detector
works at 480 px on the long side and the recogniser on 96x144 crops, so a photo above
:data:`MAX_PIXELS` is decoded reduced by 2, 4 or 8 instead, its size read from the file's
header before anything is decoded:

* a baseline JPEG by libjpeg's own scaling (``cv2.IMREAD_REDUCED_COLOR_*``: only the
  reduced image is ever held);
* an 8-bit grey, RGB or RGBA PNG (not interlaced) a strip of rows at a time: OpenCV's
  reduced flags decode a PNG whole and shrink it after, so the strips are handed to OpenCV
  one by one, each led by the row above it, unfiltered;
* anything else (a progressive JPEG, which keeps every coefficient; another PNG; BMP, GIF,
  WebP) is decoded whole only up to :data:`FULL_DECODE_PIXELS`, and refused beyond.

A photo within :data:`MAX_PIXELS` is read exactly as ``cv2.imread`` reads it.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

MAX_PIXELS = 8_000_000  # a photo above this is decoded reduced (a 12 MP photo: to 3 MP)
FULL_DECODE_PIXELS = 16_000_000  # the most decoded whole when it cannot be decoded reduced
STRIP_BYTES = 4 << 20  # a PNG decoded reduced: about this many bytes of rows at a time
# OpenCV refuses an image with a side over this (CV_IO_MAX_IMAGE_WIDTH / _HEIGHT): refused here
# before a strip of rows that wide is held (a PNG claiming 50 million x 1 pixels)
MAX_SIDE = 1 << 20
TOO_LARGE = "too large to read"

_PNG = b"\x89PNG\r\n\x1a\n"
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}
_PNG_CHANNELS = {0: 1, 2: 3, 6: 4}  # 8-bit colour types decoded in strips: grey, RGB, RGBA


@dataclass
class Header:
    kind: str  # "png", "jpeg" or another format whose size the header gives
    width: int
    height: int
    reducible: bool  # can be decoded reduced without ever holding the whole image


@dataclass
class Photo:
    image: np.ndarray | None  # BGR, or None when it cannot be read (``why`` says why)
    why: str = ""
    scale: tuple[float, float] = (1.0, 1.0)  # photo pixels per pixel of ``image`` (x, y)

    def to_photo(self, points: np.ndarray) -> np.ndarray:
        """Points in ``image``'s pixels as pixels of the photo itself (pixel centres kept:
        an image reduced by 2 has its pixel 0 over the photo's pixels 0 and 1)."""
        sx, sy = self.scale
        p = np.asarray(points, np.float64)
        if (sx, sy) == (1.0, 1.0):
            return p
        return (p + 0.5) * np.array([sx, sy]) - 0.5


def read_header(path: Path) -> Header | None:
    """The size a PNG, JPEG, BMP, GIF or WebP file says it has, without decoding it; None
    for another format or a header that does not make sense."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head.startswith(_PNG) and head[12:16] == b"IHDR":
                w, h, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", head[16:29])
                plain = depth == 8 and ctype in _PNG_CHANNELS and interlace == 0
                return Header("png", w, h, plain and not _png_exif(f))
            if head.startswith(b"\xff\xd8"):
                return _jpeg_header(f)
            if head.startswith(b"BM") and len(head) >= 26:
                w, h = struct.unpack("<ii", head[18:26])
                return Header("bmp", abs(w), abs(h), False)
            if head[:6] in (b"GIF87a", b"GIF89a"):
                w, h = struct.unpack("<HH", head[6:10])
                return Header("gif", w, h, False)
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return _webp_header(head)
    except (OSError, struct.error):
        return None
    return None


def _png_exif(f: BinaryIO) -> bool:
    """Whether the PNG has an eXIf chunk before its image data (OpenCV then turns the image
    as the camera was held: left to OpenCV's own decoding)."""
    f.seek(8)
    while True:
        head = f.read(8)
        if len(head) < 8:
            return False
        n, kind = struct.unpack(">I4s", head)
        if kind in (b"IDAT", b"IEND"):
            return False
        if kind == b"eXIf":
            return True
        f.seek(n + 4, 1)


def _jpeg_header(f: BinaryIO) -> Header | None:
    f.seek(2)
    while True:
        b = f.read(1)
        if b != b"\xff":
            return None
        while b == b"\xff":  # (fill bytes before a marker)
            b = f.read(1)
        if not b:
            return None
        marker = b[0]
        if marker in (0x01, *range(0xD0, 0xD9)):  # no length
            continue
        (n,) = struct.unpack(">H", f.read(2))
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD,
                      0xCE, 0xCF):
            _precision, h, w = struct.unpack(">BHH", f.read(5))
            # baseline and extended sequential: libjpeg decodes reduced row by row; the
            # others (progressive above all) keep every coefficient of the whole image
            return Header("jpeg", w, h, marker in (0xC0, 0xC1)) if w and h else None
        if marker == 0xDA or n < 2:  # image data before any frame header
            return None
        f.seek(n - 2, 1)


def _webp_header(head: bytes) -> Header | None:
    chunk = head[12:16]
    if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", head[26:30])
        return Header("webp", w & 0x3FFF, h & 0x3FFF, False)
    if chunk == b"VP8L" and head[20] == 0x2F:
        (bits,) = struct.unpack("<I", head[21:25])
        return Header("webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, False)
    if chunk == b"VP8X":
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return Header("webp", w, h, False)
    return None


def reduction(width: int, height: int) -> int | None:
    """By how much to reduce a photo this size (1: not at all); None when even by 8 it
    stays above :data:`MAX_PIXELS`."""
    for d in (1, 2, 4, 8):
        if -(-width // d) * -(-height // d) <= MAX_PIXELS:
            return d
    return None


def reduce(image: np.ndarray, d: int) -> np.ndarray:
    """``image`` reduced by ``d``: each pixel the mean of a d x d block (the last rows and
    columns that make no whole block are left out)."""
    if d == 1:
        return image
    h, w = image.shape[0] // d, image.shape[1] // d
    if not h or not w:
        return image[:h, :w]
    return cv2.resize(image[:h * d, :w * d], (w, h), interpolation=cv2.INTER_AREA)


def read_photo(path: Path) -> Photo:
    """The photo at ``path`` (BGR) within :data:`MAX_PIXELS`, or why it cannot be read, in
    words a person can act on: no such file, a folder, not an image OpenCV reads, or too
    large to read (a PNG whose header claims 100000x100000 pixels made OpenCV raise)."""
    path = Path(path)
    if not path.exists():
        return Photo(None, "no such file")
    if path.is_dir():
        return Photo(None, "a folder, not an image")
    header = read_header(path)
    if header is not None and header.width * header.height > MAX_PIXELS:
        return _read_reduced(path, header)
    try:
        image = cv2.imread(str(path))  # (as ever: a photo within the budget is read as is)
    except cv2.error:
        return Photo(None, TOO_LARGE)
    if image is None or not image.size:
        return Photo(None, "not an image")
    h, w = image.shape[:2]
    if header is None and w * h > MAX_PIXELS:  # (a format whose header is not read here)
        d = reduction(w, h) or 8
        return _photo(reduce(image, d), d)
    return Photo(image)


def _read_reduced(path: Path, header: Header) -> Photo:
    d = reduction(header.width, header.height)
    if d is None or max(header.width, header.height) > MAX_SIDE or (not header.reducible
                     and header.width * header.height > FULL_DECODE_PIXELS):
        return Photo(None, TOO_LARGE)
    try:
        if header.kind == "jpeg":
            image = cv2.imread(str(path), _REDUCED[d])
        elif header.reducible:
            image = _png_reduced(path, header, d)
        else:
            image = cv2.imread(str(path))
            image = None if image is None else reduce(image, d)
    except cv2.error:
        return Photo(None, TOO_LARGE)
    except (ValueError, IndexError, KeyError, zlib.error, OSError, struct.error):
        # (a PNG cut short or corrupt: its IHDR short, an unknown colour type)
        return Photo(None, "not an image")
    if image is None or not image.size:
        return Photo(None, "not an image")
    return _photo(image, d)


def _photo(image: np.ndarray, d: int) -> Photo:
    """``image``, decoded reduced by ``d`` (each of its pixels d x d of the photo's, as
    libjpeg's scaling and :func:`reduce` make them, whichever way OpenCV turned it)."""
    return Photo(image, "", (float(d), float(d)))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join((struct.pack(">I", len(data)), kind, data,
                     struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))))


def _idat(f: BinaryIO):
    """The compressed image data of a PNG, a piece at a time (``f`` after its IHDR)."""
    while True:
        head = f.read(8)
        if len(head) < 8:
            raise ValueError("PNG cut short")
        n, kind = struct.unpack(">I4s", head)
        if kind == b"IEND":
            return
        if kind != b"IDAT":
            f.seek(n + 4, 1)
            continue
        while n:
            piece = f.read(min(n, 1 << 20))
            if not piece:
                raise ValueError("PNG cut short")
            n -= len(piece)
            yield piece
        f.seek(4, 1)


def _png_reduced(path: Path, header: Header, d: int) -> np.ndarray:
    """An 8-bit grey, RGB or RGBA PNG (not interlaced) reduced by ``d``, decoded a strip at
    a time: each strip is made a PNG of its own, led by the row above it unfiltered (a row
    is unfiltered against the one above it), and decoded by OpenCV."""
    w, h = header.width, header.height
    with open(path, "rb") as f:
        f.seek(8)
        (n,) = struct.unpack(">I", f.read(4))
        ctype = f.read(4 + n)[13]  # (IHDR: its name, width, height, depth, colour type)
        f.seek(4, 1)
        channels = _PNG_CHANNELS[ctype]
        stride = w * channels + 1  # (each row led by its filter's byte)
        rows = max(d, STRIP_BYTES // stride // d * d)
        out = np.empty((h // d, w // d, 3), np.uint8)
        above = bytes(stride)  # (above the first row: zeros, filtered by none)
        pieces, inflate, buf = _idat(f), zlib.decompressobj(), bytearray()
        for y in range(0, h, rows):
            k = min(rows, h - y)
            need = k * stride
            while len(buf) < need:
                data = inflate.unconsumed_tail or next(pieces, None)
                if data is None:
                    raise ValueError("PNG cut short")
                buf += inflate.decompress(data, need - len(buf))
            ihdr = struct.pack(">IIBBBBB", w, k + 1, 8, ctype, 0, 0, 0)
            rows_z = zlib.compress(above + buf[:need], 0)  # (stored, not compressed again)
            del buf[:need]
            strip = cv2.imdecode(np.frombuffer(b"".join((
                _PNG, _chunk(b"IHDR", ihdr), _chunk(b"IDAT", rows_z), _chunk(b"IEND", b""))),
                np.uint8), cv2.IMREAD_UNCHANGED)
            del rows_z
            if strip is None:
                raise ValueError("PNG not decoded")
            last = strip[-1] if ctype == 0 else strip[-1][:, [2, 1, 0, 3][:channels]]
            above = b"\x00" + last.tobytes()  # (as the file has it: RGB, not BGR)
            strip = strip[1:]
            if ctype == 0:
                strip = cv2.cvtColor(strip, cv2.COLOR_GRAY2BGR)
            elif ctype == 6:
                strip = cv2.cvtColor(strip, cv2.COLOR_BGRA2BGR)
            small = reduce(strip, d)
            out[y // d: y // d + len(small)] = small
        return out
