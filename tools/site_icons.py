"""Draw the site's icons (a domino, 5 over 5, on the app's teal) as PNG files.

    .venv/bin/python -m tools.site_icons    # writes scorekeeper/site/web/icons/*.png

The PNGs are committed: ``scorekeeper site`` copies them as they are. Pure Python (zlib
for the PNG), anti-aliased by each pixel's distance to the shape's edge; the same bytes
on every run.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

TEAL = (0, 121, 107)
WHITE = (250, 250, 247)
INK = (33, 33, 33)

#: name -> (size in pixels, the part of it the domino's height takes)
ICONS = {
    "icon-192.png": (192, 0.80),
    "icon-512.png": (512, 0.80),
    "icon-maskable-192.png": (192, 0.62),  # a maskable icon keeps its drawing inside the middle 80 %
    "icon-maskable-512.png": (512, 0.62),
    "apple-touch-icon-180.png": (180, 0.74),
    "favicon-32.png": (32, 0.90),
}


def _round_rect(x: float, y: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance from (x, y) to a rounded rectangle (negative inside)."""
    qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def _blend(under: tuple[float, float, float], over: tuple[int, int, int], a: float) -> tuple[float, float, float]:
    return (
        under[0] + (over[0] - under[0]) * a,
        under[1] + (over[1] - under[1]) * a,
        under[2] + (over[2] - under[2]) * a,
    )


def draw(size: int, part: float) -> bytes:
    """The icon as PNG bytes: ``size`` pixels square, the domino ``part`` of its height."""
    h = size * part
    w = h / 2
    cx = cy = size / 2
    corner = w * 0.16
    line = max(1.0, h * 0.018)
    pip = w * 0.09
    # the five of each half: corners and middle, in a square of side 0.56 w
    off = w * 0.28
    pips = []
    for half in (-1, 1):
        my = cy + half * h / 4
        pips += [(cx, my)] + [(cx + sx * off, my + sy * off) for sx in (-1, 1) for sy in (-1, 1)]
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        y = j + 0.5
        for i in range(size):
            x = i + 0.5
            c: tuple[float, float, float] = (float(TEAL[0]), float(TEAL[1]), float(TEAL[2]))
            d = _round_rect(x, y, cx, cy, w / 2, h / 2, corner)
            a = min(max(0.5 - d, 0.0), 1.0)
            if a > 0:
                c = _blend(c, WHITE, a)
                # the line across the middle and the pips, inside the tile only
                dl = _round_rect(x, y, cx, cy, w / 2 - w * 0.1, line / 2, line / 2)
                ink = min(max(0.5 - dl, 0.0), 1.0)
                for px, py in pips:
                    if abs(x - px) <= pip + 1 and abs(y - py) <= pip + 1:
                        ink = max(ink, min(max(0.5 - (math.hypot(x - px, y - py) - pip), 0.0), 1.0))
                if ink > 0:
                    c = _blend(c, INK, ink * a)
            row += bytes(round(v) for v in c)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "scorekeeper/site/web/icons"
    out.mkdir(parents=True, exist_ok=True)
    for name, (size, part) in ICONS.items():
        (out / name).write_bytes(draw(size, part))
        print(f"{out / name}: {size}x{size}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
