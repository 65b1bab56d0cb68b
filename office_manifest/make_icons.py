"""Draw the add-in's icons (a white document on a Word-blue square) as PNGs.

Office asks for 16/32/80 px ribbon icons, 32/64 px add-in icons and a 128 px store icon.
They are drawn here from shapes, with the standard library only (no Pillow on the build
machines), so anyone can regenerate them:

    python office_manifest/make_icons.py

writes office_manifest/assets/icon-N.png (the copies a person looks at or uploads) and
addin_server/static/taskpane/assets/icon-N.png (the copies the server serves at
<base_url>/taskpane/assets/, which is where the manifest's icon URLs point).
tests/addin/test_manifest.py checks the two sets are identical.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

SIZES = (16, 32, 64, 80, 128)
BLUE = (15, 108, 189)  # Fluent 2 brand blue (#0F6CBD), the colour of Word's own accents
PAGE = (255, 255, 255)
FOLD = (200, 222, 244)
LINE = (15, 108, 189)
SUPERSAMPLE = 4  # 4x4 samples a pixel: enough anti-aliasing for 16 px to stay crisp

ROOT = Path(__file__).resolve().parent.parent
OUTPUT_DIRS = (
    ROOT / "office_manifest" / "assets",
    ROOT / "addin_server" / "static" / "taskpane" / "assets",
)


def _inside_rounded_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _colour_at(u: float, v: float) -> tuple[int, int, int, int]:
    """Colour of the point (u, v) in unit coordinates (0..1, y down)."""
    if not _inside_rounded_rect(u, v, 0.0, 0.0, 1.0, 1.0, 0.18):
        return (0, 0, 0, 0)
    # The page: a portrait sheet with its top-right corner folded over.
    px0, py0, px1, py1, fold = 0.24, 0.14, 0.76, 0.86, 0.16
    on_page = px0 <= u <= px1 and py0 <= v <= py1
    if on_page:
        dx, dy = u - (px1 - fold), v - py0  # position relative to the fold's corner
        if dx > 0 and dy < fold:
            if dx > dy:  # beyond the diagonal: the corner is folded away
                return (*BLUE, 255)
            return (*FOLD, 255)
        # Text lines, the last one short, as on a clause.
        for top, right in ((0.38, 0.66), (0.50, 0.66), (0.62, 0.66), (0.74, 0.52)):
            if top <= v <= top + 0.055 and px0 + 0.08 <= u <= right:
                return (*LINE, 255)
        return (*PAGE, 255)
    return (*BLUE, 255)


def draw_icon(size: int) -> bytes:
    """Return the PNG bytes of the icon at ``size`` x ``size`` pixels."""
    rows = []
    n = SUPERSAMPLE
    for y in range(size):
        row = bytearray([0])  # PNG filter type 0 (None) for each scanline
        for x in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    r, g, b, a = _colour_at((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            alpha = acc[3] / (n * n)
            if acc[3]:
                rgb = [round(c / acc[3]) for c in acc[:3]]
            else:
                rgb = [0, 0, 0]
            row.extend([*rgb, round(alpha)])
        rows.append(bytes(row))
    return _png(size, size, b"".join(rows))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> int:
    for directory in OUTPUT_DIRS:
        directory.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        data = draw_icon(size)
        for directory in OUTPUT_DIRS:
            (directory / f"icon-{size}.png").write_bytes(data)
    print(f"wrote icons {', '.join(map(str, SIZES))} px to " + ", ".join(str(d.relative_to(ROOT)) for d in OUTPUT_DIRS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
