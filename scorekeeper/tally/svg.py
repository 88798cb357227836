"""The paper-style score displays drawn as standalone SVG documents.

Pure functions, standard library only: :func:`tally_svg` draws a side's
Holsey-Tidwell X tally like pen strokes on ruled paper, :func:`pegboard_svg`
a wooden cribbage board with every side's pegs, and :func:`chart_svg` every
side's score over the turns of a match.

The drawings use only what Flutter's ``flutter_svg`` renders as well as a
browser does: presentation attributes (``fill=``, ``stroke=``, ``font-size=``
...), ``<linearGradient>``, paths, circles, polylines and ``<text>`` -- no
CSS ``<style>``, filters, masks, ``textLength`` or ``dominant-baseline``.
The ``class`` and ``data-*`` attributes are for tests and tools only.
Output is deterministic: the "hand-drawn" wobble comes from a hash of each
mark's position in the drawing, never from a clock or an unseeded random.

>>> from xml.etree import ElementTree as ET
>>> from scorekeeper.tally import tally
>>> svg = tally_svg(tally([10, 10, 5, 15, 35]), previous=tally([10, 10, 5, 15]))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> root = ET.fromstring(svg)
>>> sum('new' in (e.get('class') or '').split() for e in root.iter())
5
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from scorekeeper.tally.pegboard import GROUP, Pegboard, Pegs
from scorekeeper.tally.timeline import Timeline
from scorekeeper.tally.xtally import Symbol, Tally, number_text
from scorekeeper.text import xml_attr, xml_text

__all__ = ["SIDE_COLOURS", "tally_svg", "pegboard_svg", "chart_svg"]

#: Peg and chart-line colour of each side, by side index (wraps round after
#: six sides).  Each reads on cream paper and, with a dark outline, on wood.
SIDE_COLOURS: tuple[str, ...] = (
    "#d1342f",  # red
    "#1f6fd1",  # blue
    "#2a9d4b",  # green
    "#8e3fb5",  # purple
    "#e08a00",  # orange
    "#0f9aa8",  # teal
)

_SVG_NS = "http://www.w3.org/2000/svg"
_FONT = 'font-family="sans-serif"'

# Paper and ink of the tally.
_PAPER = "#fbf6e6"
_RULE = "#9db7e0"
_INK = "#1f3a8a"
_NEW_INK = "#c62828"


# --------------------------------------------------------------------------
# helpers


def _n(v: float) -> str:
    """A coordinate as short, stable text (at most 2 decimals).

    >>> _n(3.0), _n(2.456), _n(-0.004)
    ('3', '2.46', '0')
    """
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _rand(*key: object) -> float:
    """A deterministic pseudo-random number in [-1, 1) for ``key``."""
    h = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") / 2**63 - 1.0


def _colour(i: int) -> str:
    return SIDE_COLOURS[i % len(SIDE_COLOURS)]


def _shade(colour: str, f: float) -> str:
    """``colour`` (#rrggbb) darkened (f < 1) or mixed towards white (f > 1)."""
    rgb = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
    if f <= 1:
        rgb = [round(c * f) for c in rgb]
    else:
        t = min(f - 1, 1)
        rgb = [round(c + (255 - c) * t) for c in rgb]
    return "#" + "".join(f"{min(255, max(0, c)):02x}" for c in rgb)


def _doc(width: float, height: float, title: str, body: Iterable[str], label: str) -> str:
    w, h = _n(width), _n(height)
    head = (
        f'<svg xmlns="{_SVG_NS}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'role="img" aria-label={xml_attr(label)}>'
    )
    return "\n".join([head, f"<title>{xml_text(title)}</title>", *body, "</svg>"])


def _text_width(text: str, size: float) -> float:
    """A rough width of ``text`` in a sans-serif font (for layout only)."""
    return len(text) * size * 0.56


# --------------------------------------------------------------------------
# the X tally

# Centres of the four spaces (top, right, bottom, left), as fractions of a cell.
_SPACES = ((0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5))
_X_INSET = 0.12
_SMALL = 0.17  # length of a small stroke, as a fraction of the cell
_O_RADIUS = 0.08


def _stroke(x1: float, y1: float, x2: float, y2: float, size: float, key: tuple[object, ...], bow: float) -> str:
    """A pen stroke from (x1, y1) to (x2, y2): a quadratic curve bowed a little."""
    j = size * 0.018
    x1 += j * _rand(*key, "x1")
    y1 += j * _rand(*key, "y1")
    x2 += j * _rand(*key, "x2")
    y2 += j * _rand(*key, "y2")
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    off = length * bow * (0.5 + 0.5 * abs(_rand(*key, "bow"))) * (1 if _rand(*key, "side") >= 0 else -1)
    t = 0.5 + 0.12 * _rand(*key, "t")
    cx = x1 + (x2 - x1) * t + nx * off
    cy = y1 + (y2 - y1) * t + ny * off
    return f"M{_n(x1)} {_n(y1)} Q{_n(cx)} {_n(cy)} {_n(x2)} {_n(y2)}"


def _o_path(cx: float, cy: float, r: float, key: tuple[object, ...]) -> str:
    """A small hand-drawn o: a closed, slightly irregular loop."""
    n = 8
    start = math.pi * (0.9 + 0.3 * _rand(*key, "start"))  # pens start an o at the upper left
    squash = 1 + 0.1 * _rand(*key, "squash")
    pts = []
    for k in range(n):
        a = start - 2 * math.pi * k / n  # counter-clockwise, as most people write an o
        rr = r * (1 + 0.1 * _rand(*key, "r", k))
        pts.append((cx + rr * math.cos(a) * squash, cy - rr * math.sin(a) / squash))
    # A smooth closed curve through the midpoints, with the points as controls.
    mids = [((pts[k][0] + pts[(k + 1) % n][0]) / 2, (pts[k][1] + pts[(k + 1) % n][1]) / 2) for k in range(n)]
    d = [f"M{_n(mids[-1][0])} {_n(mids[-1][1])}"]
    for k in range(n):
        d.append(f"Q{_n(pts[k][0])} {_n(pts[k][1])} {_n(mids[k][0])} {_n(mids[k][1])}")
    return " ".join(d) + " Z"


def _marks(sym: Symbol, before: Symbol) -> list[tuple[str, int, int, bool]]:
    """The marks of one symbol in drawing order: (kind, space, stroke, new).

    ``kind`` is ``"X"`` (a stroke of the large X), ``"s"`` (a small stroke) or
    ``"o"``; ``before`` is the same symbol in the previous tally.
    """
    out: list[tuple[str, int, int, bool]] = []
    for k in range(sym.x):
        out.append(("X", -1, k, k >= before.x))
    for j, s in enumerate(sym.spaces):
        p = before.spaces[j]
        if s == "o":
            out.append(("o", j, 0, p != "o"))
        elif s in ("/", "x"):
            out.append(("s", j, 0, p not in ("/", "x")))
            if s == "x":
                out.append(("s", j, 1, p != "x"))
    return out


def tally_svg(
    t: Tally,
    *,
    previous: Tally | None = None,
    per_row: int = 5,
    size: int = 64,
    title: str | None = None,
) -> str:
    """Draw a tally like pen strokes on ruled paper.

    Each symbol fills a ``size`` x ``size`` cell, ``per_row`` to a row.  With
    ``previous`` (the tally before the latest scoring event), what the latest
    event added is drawn in red ink and carries ``class="new"``.  Every stroke
    has ``class="stroke"``, every o ``class="o"``.

    >>> from scorekeeper.tally import tally
    >>> svg = tally_svg(tally([10, 5]))
    >>> svg.count('class="stroke"'), svg.count('class="o"')
    (3, 0)
    >>> '<title>Tally: 15 points: the large X, /</title>' in svg
    True
    """
    if not 1 <= per_row <= 1000:
        raise ValueError(f"per_row must be from 1 to 1000, not {number_text(per_row)}")
    if not 8 <= size <= 1000:
        raise ValueError(f"size must be from 8 to 1000, not {number_text(size)}")
    symbols = t.symbols
    prev = previous.symbols if previous is not None else None
    cells = max(1, len(symbols))
    cols = min(cells, per_row)
    rows = math.ceil(cells / per_row)
    pad = round(size * 0.16)
    width = cols * size + 2 * pad
    height = rows * size + 2 * pad
    sw = _n(2.4 * size / 64)
    ink_attrs = f'fill="none" stroke-width="{sw}" stroke-linecap="round" stroke-linejoin="round"'

    body = [f'<rect width="{width}" height="{height}" fill="{_PAPER}"/>']
    # Faint blue rules, like a page of a notebook.
    gap = size * 0.375
    y = pad * 0.5 + gap * 0.5
    rules = []
    while y < height:
        rules.append(f'<line x1="0" y1="{_n(y)}" x2="{width}" y2="{_n(y)}"/>')
        y += gap
    body.append(f'<g stroke="{_RULE}" stroke-width="{_n(max(0.6, size / 80))}" stroke-opacity="0.55">')
    body += rules
    body.append("</g>")

    empty = Symbol()
    for i, sym in enumerate(symbols):
        before = empty if prev is None else (prev[i] if i < len(prev) else empty)
        ox = pad + (i % per_row) * size + size * 0.02 * _rand("cell", i, "x")
        oy = pad + (i // per_row) * size + size * 0.02 * _rand("cell", i, "y")
        body.append(f"<g {ink_attrs}>")
        for kind, j, k, new in _marks(sym, before):
            new = new and prev is not None
            colour = _NEW_INK if new else _INK
            cls = ("stroke" if kind in "Xs" else "o") + (" new" if new else "")
            if kind == "X":
                a, b = _X_INSET * size, (1 - _X_INSET) * size
                if k == 0:  # top-left to bottom-right
                    d = _stroke(ox + a, oy + a, ox + b, oy + b, size, (i, "X", k), 0.035)
                else:  # top-right to bottom-left
                    d = _stroke(ox + b, oy + a, ox + a, oy + b, size, (i, "X", k), 0.035)
            elif kind == "s":
                cx, cy = ox + _SPACES[j][0] * size, oy + _SPACES[j][1] * size
                h = _SMALL * size / (2 * math.sqrt(2))
                if k == 0:  # "/": bottom-left to top-right
                    d = _stroke(cx - h, cy + h, cx + h, cy - h, size, (i, j, k), 0.06)
                else:  # then "\": top-left to bottom-right
                    d = _stroke(cx - h, cy - h, cx + h, cy + h, size, (i, j, k), 0.06)
            else:
                cx, cy = ox + _SPACES[j][0] * size, oy + _SPACES[j][1] * size
                d = _o_path(cx, cy, _O_RADIUS * size, (i, j, "o"))
            body.append(f'<path class="{cls}" d="{d}" stroke="{colour}"/>')
        body.append("</g>")

    label = title if title is not None else f"Tally: {t.describe()}"
    return _doc(width, height, label, body, label)


# --------------------------------------------------------------------------
# the pegboard

_ROW = 30  # holes per row
_WOOD = ("#c8914f", "#a86d34", "#8a5424")
_HOLE = "#2a1708"
_CREAM = "#f6ecd0"
_GOLD = "#f2c230"


def pegboard_svg(board: Pegboard, *, width: int = 390) -> str:
    """Draw a wooden cribbage board with every side's track and pegs.

    Per side: rows of 30 holes in groups of five, run serpentine (2 rows for
    the 61-hole board, 4 for 121), a start hole (0) left of the first row and
    a bigger game hole left of the last.  A short board (target up to 31) is
    one row of ``target - 1`` holes with the game hole at its right end, and
    the picture only as wide as it needs.  Every hole is a ``class="hole"``
    circle (``board.holes + 1`` per side, start hole included, in hole order
    inside the side's ``class="track"`` group; the start and game holes also
    have class ``start`` / ``game``).  The pegs are
    groups with ``class="peg back"`` / ``class="peg front"`` and
    ``data-side`` / ``data-hole`` attributes.

    >>> from scorekeeper.tally import pegboard
    >>> svg = pegboard_svg(pegboard({"Us": [3, 2, 4], "Them": [5]}))
    >>> svg.count('class="hole'), 'data-side="0" data-hole="9"' in svg
    (124, True)
    """
    if not 200 <= width <= 10_000:
        raise ValueError(f"width must be from 200 to 10000, not {number_text(width)}")
    board_at = _BoardLayout.of(board, width)
    body = _wood(board_at.width, board_at.height)
    pegs_svg: list[str] = []
    for i, (name, p) in enumerate(board.sides):
        btop = board_at.margin + i * (board_at.block_h + board_at.groove)
        top = btop + board_at.label_h + board_at.row_pitch * 0.35  # y of the first row of holes
        body += _side_track(board_at, i, name, p, btop, top)
        pegs_svg += _pegs(board_at, i, p, top)
    body += pegs_svg

    parts = [f"{name} {number_text(p.front)} (back peg {number_text(p.back)})" for name, p in board.sides]
    title = "Pegboard: " + ", ".join(parts) + f"; game at {number_text(board.target)}"
    return _doc(board_at.width, board_at.height, title, body, title)


@dataclass(frozen=True)
class _BoardLayout:
    """Where a pegboard's holes go in the drawing: one block of rows per side, the rows of
    holes in groups of five, the start and game holes in a column of their own."""

    board: Pegboard
    row: int  # holes in a row
    nrows: int
    game_right: bool  # an odd number of rows ends on the right: the game hole is there
    pitch: float  # from one hole to the next in a group
    ggap: float  # the extra gap between two groups
    hole_r: float
    peg_r: float
    row_pitch: float
    label_h: float  # the side's name above its rows
    block_h: float  # a side's block: its name and its rows
    groove: float  # between two sides' blocks
    margin: float
    x0: float  # centre of the first hole of a row
    start_x: float  # the start / game hole column
    width: float
    height: float

    @classmethod
    def of(cls, board: Pegboard, width: float) -> _BoardLayout:
        track = board.track
        row = min(_ROW, max(track, GROUP))  # a short board is one shorter row
        nrows = max(1, math.ceil(track / row))
        groups = math.ceil(row / GROUP)
        margin = 10.0
        left_col = 24.0  # the start / game hole column
        # pitch * (30 + 5 * 0.9) fills what is left: 5 gaps between the 6 groups.
        game_right = nrows % 2 == 1
        pitch = min((width - 2 * margin - left_col - 6) / (row + (groups - 1) * 0.9 + (1.8 if game_right else 0)), 22.0)
        hole_r = pitch * 0.24
        row_pitch = max(pitch * 1.25, 12.0)
        label_h = 15.0
        block_h = label_h + (nrows - 1) * row_pitch + row_pitch * 0.9
        groove = 9.0
        nsides = max(1, len(board.sides))
        height = margin + nsides * block_h + (nsides - 1) * groove + margin
        at = cls(
            board,
            row,
            nrows,
            game_right,
            pitch,
            pitch * 0.9,
            hole_r,
            pitch * 0.5,
            row_pitch,
            label_h,
            block_h,
            groove,
            margin,
            margin + left_col + 3 + pitch / 2,
            margin + left_col / 2 + 2,
            width,
            height,
        )
        if game_right:  # the picture only as wide as the row and its game hole
            narrow = min(width, math.ceil(at.col_x(row - 1) + pitch * 1.5 + hole_r * 1.6 + margin + 4))
            at = replace(at, width=narrow)
        return at

    def col_x(self, col: int) -> float:
        return self.x0 + col * self.pitch + (col // GROUP) * self.ggap

    def hole_xy(self, top: float, hole: int) -> tuple[float, float]:
        """The centre of ``hole`` of the side whose first row is at ``top``."""
        if hole <= 0:
            return self.start_x, top
        if hole >= self.board.holes:
            if self.game_right:
                return self.col_x(self.row - 1) + self.pitch * 1.5, top + (self.nrows - 1) * self.row_pitch
            return self.start_x, top + (self.nrows - 1) * self.row_pitch
        r, idx = divmod(hole - 1, self.row)
        col = idx if r % 2 == 0 else self.row - 1 - idx
        return self.col_x(col), top + r * self.row_pitch


def _wood(width: float, height: float) -> list[str]:
    """The board itself: a wooden rectangle with faint grain lines across it."""
    body = [
        "<defs>",
        '<linearGradient id="wood" x1="0" y1="0" x2="0.25" y2="1">',
        f'<stop offset="0" stop-color="{_WOOD[0]}"/>',
        f'<stop offset="0.55" stop-color="{_WOOD[1]}"/>',
        f'<stop offset="1" stop-color="{_WOOD[2]}"/>',
        "</linearGradient>",
        "</defs>",
        f'<rect x="1" y="1" width="{_n(width - 2)}" height="{_n(height - 2)}" rx="12" ry="12" '
        f'fill="url(#wood)" stroke="#5a3414" stroke-width="2"/>',
    ]
    grain = []
    gy = 5.0
    k = 0
    while gy < height - 4:
        amp = 1.5 + 1.5 * abs(_rand("grain", k, "a"))
        y1 = gy + amp * _rand("grain", k, "1")
        y2 = gy + amp * _rand("grain", k, "2")
        grain.append(
            f'<path d="M4 {_n(gy)} C{_n(width * 0.3)} {_n(y1)} {_n(width * 0.6)} {_n(y2)} '
            f'{_n(width - 4)} {_n(gy + amp * _rand("grain", k, "3"))}"/>'
        )
        gy += 5.5 + 4 * abs(_rand("grain", k, "gap"))
        k += 1
    body.append('<g fill="none" stroke="#4a2a0e" stroke-width="0.7" stroke-opacity="0.16">')
    body += grain
    body.append("</g>")
    return body


def _side_track(at: _BoardLayout, i: int, name: str, p: Pegs, btop: float, top: float) -> list[str]:
    """Side ``i``'s block: the groove above it (after the first), its name, colour and lap,
    the hole numbers, its stripe, its holes and the target's ring."""
    board, width = at.board, at.width
    colour = _colour(i)
    body = []
    if i:
        gyy = btop - at.groove / 2
        body.append(
            f'<line x1="8" y1="{_n(gyy)}" x2="{_n(width - 8)}" y2="{_n(gyy)}" '
            f'stroke="#4a2a0e" stroke-width="2.2" stroke-opacity="0.55" stroke-linecap="round"/>'
        )
        body.append(
            f'<line x1="8" y1="{_n(gyy + 1.4)}" x2="{_n(width - 8)}" y2="{_n(gyy + 1.4)}" '
            f'stroke="#e7bf86" stroke-width="0.8" stroke-opacity="0.5" stroke-linecap="round"/>'
        )
    # The side's name, its colour and its lap.
    ty = btop + at.label_h - 3.5
    body.append(
        f'<circle cx="{_n(at.start_x)}" cy="{_n(ty - 3.5)}" r="4" fill="{colour}" stroke="{_shade(colour, 0.55)}" '
        f'stroke-width="1"/>'
    )
    lap = max(board.place(p.front)[0], board.place(p.back)[0])
    label = xml_text(name) + (f" \u00b7 lap {number_text(lap + 1)}" if lap else "")
    body.append(
        f'<text x="{_n(at.x0 - at.pitch / 2)}" y="{_n(ty)}" {_FONT} font-size="10.5" font-weight="bold" '
        f'fill="{_CREAM}">{label}</text>'
    )
    # Hole numbers every ten holes over the first row, where the name leaves room.
    name_end = at.x0 - at.pitch / 2 + _text_width(name + (f" - lap {number_text(lap + 1)}" if lap else ""), 10.5) + 8
    nums = []
    every = 5 if at.row < _ROW else 10
    for h in range(every, min(board.track, at.row) + 1, every):
        x, _ = at.hole_xy(top, h)
        if x - 5 > name_end:
            nums.append(f'<text x="{_n(x)}" y="{_n(ty)}">{h}</text>')
    body.append(f'<g {_FONT} font-size="7" fill="{_CREAM}" fill-opacity="0.7" text-anchor="middle">')
    body += nums
    body.append("</g>")
    # A thin stripe of the side's colour along the track's left end.
    body.append(
        f'<line x1="{_n(at.start_x + 8)}" y1="{_n(top - 3)}" x2="{_n(at.start_x + 8)}" '
        f'y2="{_n(top + (at.nrows - 1) * at.row_pitch + 3)}" stroke="{colour}" stroke-width="2" '
        f'stroke-linecap="round"/>'
    )
    # Holes.
    holes = []
    for h in range(0, board.holes + 1):
        x, y = at.hole_xy(top, h)
        kind = "hole start" if h == 0 else "hole game" if h == board.holes else "hole"
        r = at.hole_r * (1.6 if h == board.holes else 1.25 if h == 0 else 1)
        holes.append(f'<circle class="{kind}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"/>')
    body.append(
        f'<g class="track" data-side="{i}" fill="{_HOLE}" stroke="#e0b279" stroke-width="0.5" stroke-opacity="0.6">'
    )
    body += holes
    body.append("</g>")
    if board.target < board.holes:
        x, y = at.hole_xy(top, board.target)
        body.append(
            f'<circle class="target" cx="{_n(x)}" cy="{_n(y)}" r="{_n(at.hole_r + 2.2)}" fill="none" '
            f'stroke="{_GOLD}" stroke-width="1.4"/>'
        )
    return body


def _pegs(at: _BoardLayout, i: int, p: Pegs, top: float) -> list[str]:
    """Side ``i``'s two pegs: the back peg first, then the front one on top (drawn after
    every track, so that no side's holes cover another's pegs)."""
    colour = _colour(i)
    fl, fh = at.board.place(p.front)
    bl, bh = at.board.place(p.back)
    same = fh == bh
    out: list[str] = []
    for which, (lp, h) in (("back", (bl, bh)), ("front", (fl, fh))):
        x, y = at.hole_xy(top, h)
        if same:
            x += at.peg_r * (-0.55 if which == "back" else 0.55)
        r = at.peg_r * (0.82 if which == "back" else 1)
        fill = _shade(colour, 1.35) if which == "back" else colour
        score = p.back if which == "back" else p.front
        out += [
            f'<g class="peg {which}" data-side="{i}" data-hole="{h}" data-lap="{number_text(lp)}" '
            f'data-score="{number_text(score)}">',
            f'<circle cx="{_n(x + 0.9)}" cy="{_n(y + 1.2)}" r="{_n(r)}" fill="#000000" fill-opacity="0.35"/>',
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{_shade(colour, 0.5)}" '
            f'stroke-width="1"/>',
            f'<circle cx="{_n(x - r * 0.32)}" cy="{_n(y - r * 0.32)}" r="{_n(r * 0.32)}" fill="#ffffff" '
            f'fill-opacity="0.6"/>',
            "</g>",
        ]
    return out


# --------------------------------------------------------------------------
# the score chart


def _nice_step(span: int, most: int = 6) -> int:
    """The smallest 1/2/5 x 10^k step that cuts ``span`` into at most ``most`` parts
    (whole numbers throughout: a span of any size, no float to overflow).

    >>> _nice_step(61), _nice_step(250), _nice_step(7), _nice_step(10**400) == 2 * 10**399
    (20, 50, 2, True)
    """
    mag = 1
    while True:
        for f in (1, 2, 5):
            if span <= most * f * mag:
                return f * mag
        mag *= 10


def _group(attrs: str, items: list[str]) -> list[str]:
    """``items`` inside one ``<g attrs>`` element."""
    return [f"<g {attrs}>", *items, "</g>"]


def chart_svg(tl: Timeline, *, width: int = 390, height: int = 220) -> str:
    """Draw every side's score over the turns of a match as a line chart.

    One ``class="series"`` polyline per side (``data-side`` = its index) with
    ``len(tl.steps) + 1`` points, a dashed line at the target, a solid zero
    line when a score goes below zero, faint lines where a hand starts, and a
    legend with each side's final score.

    >>> from scorekeeper.tally.timeline import Step, Timeline
    >>> tl = Timeline(("Us", "Them"), 61, 5, (Step(1, 1, (5, 0)), Step(1, 2, (5, 10))))
    >>> svg = chart_svg(tl)
    >>> svg.count('class="series"'), '<title>Score chart: Us 5, Them 10 after 2 turns</title>' in svg
    (2, True)
    """
    if not (120 <= width <= 10_000 and 100 <= height <= 10_000):
        raise ValueError(
            f"the chart is from 120 x 100 to 10000 x 10000, not {number_text(width)} x {number_text(height)}"
        )
    n = len(tl.steps)
    series = [tl.series(i) for i in range(len(tl.sides))]
    finals = list(tl.scores)
    all_scores = [v for s in series for v in s] or [0]
    lo_raw = min(0, min(all_scores))
    hi_raw = max(tl.target, max(all_scores))
    step = _nice_step(max(1, hi_raw - lo_raw))
    lo = lo_raw // step * step  # whole numbers: scores of any size, no float to overflow
    hi = -(-hi_raw // step) * step
    if hi == lo:
        hi = lo + step

    # Legend rows first (they take room at the top).
    fs = 10.5
    entries = [f"{name} {number_text(finals[i])}" for i, name in enumerate(tl.sides)]
    legend_rows: list[list[tuple[int, float]]] = [[]]
    x = 0.0
    avail = width - 20
    for i, e in enumerate(entries):
        w = 14 + _text_width(e, fs) + 12
        if legend_rows[-1] and x + w > avail:
            legend_rows.append([])
            x = 0.0
        legend_rows[-1].append((i, x))
        x += w
    legend_h = 8 + 14 * len(legend_rows)

    left = 10 + max(_text_width(number_text(lo), 9), _text_width(number_text(hi), 9)) + 6
    right = 12.0
    top = legend_h + 8
    bottom = 24.0
    pw = max(10.0, width - left - right)
    ph = max(10.0, height - top - bottom)

    def sx(k: int) -> float:
        return left + (pw * k / n if n else 0.0)

    def sy(v: int) -> float:
        return top + ph * ((hi - v) / (hi - lo))  # int / int first: a fraction, whatever the size

    body = [
        f'<rect width="{width}" height="{height}" fill="#fffdf7"/>',
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(pw)}" height="{_n(ph)}" fill="#ffffff" '
        f'stroke="#d8d2c2" stroke-width="1"/>',
    ]
    # Horizontal grid and y labels.
    grid, ylabels = [], []
    v = lo
    while v <= hi:
        y = sy(v)
        grid.append(f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + pw)}" y2="{_n(y)}"/>')
        ylabels.append(f'<text x="{_n(left - 4)}" y="{_n(y + 3.2)}">{number_text(v)}</text>')
        v += step
    body += _group('stroke="#ebe6da" stroke-width="1"', grid)
    body += _group(f'{_FONT} font-size="9" fill="#6b6457" text-anchor="end"', ylabels)

    # Hand starts: a faint vertical line where step.hand changes.
    hands, hlabels = [], []
    last_label = -1e9
    prev_hand = None
    for k, st in enumerate(tl.steps):
        if st.hand != prev_hand:
            x = sx(k)
            if k:  # the first hand starts at the plot's left edge
                hands.append(f'<line class="hand" x1="{_n(x)}" y1="{_n(top)}" x2="{_n(x)}" y2="{_n(top + ph)}"/>')
            label = f"H{st.hand}"
            # an adjustment before the first hand (hand 0) is no hand: it has no label
            if st.hand and x - last_label >= _text_width(label, 8.5) + 6:
                hlabels.append(f'<text x="{_n(x + 2)}" y="{_n(top + ph + 12)}">{label}</text>')
                last_label = x
            prev_hand = st.hand
    body += _group('stroke="#b9b2a2" stroke-width="0.8" stroke-dasharray="2 2"', hands)
    body += _group(f'{_FONT} font-size="8.5" fill="#8a8373"', hlabels)
    body.append(
        f'<text {_FONT} font-size="8.5" fill="#8a8373" text-anchor="end" x="{_n(left + pw)}" '
        f'y="{_n(top + ph + 21)}">{n} turn{"s" if n != 1 else ""}</text>'
    )

    # The zero line (solid when a side went below zero) and the target.
    y0 = sy(0)
    if min(all_scores) < 0:
        body.append(
            f'<line class="zero" x1="{_n(left)}" y1="{_n(y0)}" x2="{_n(left + pw)}" y2="{_n(y0)}" '
            f'stroke="#555048" stroke-width="1.2"/>'
        )
    if tl.target > 0:  # a game played to a number of hands (Broadway) has no target line
        yt = sy(tl.target)
        body.append(
            f'<line class="target" x1="{_n(left)}" y1="{_n(yt)}" x2="{_n(left + pw)}" y2="{_n(yt)}" '
            f'stroke="#b8860b" stroke-width="1.4" stroke-dasharray="6 4"/>'
        )
        body.append(
            f'<text {_FONT} font-size="9" fill="#8a6508" text-anchor="end" x="{_n(left + pw - 3)}" '
            f'y="{_n(yt - 3)}">target {number_text(tl.target)}</text>'
        )

    # One line per side, and a dot at its latest score.
    for i, s in enumerate(series):
        colour = _colour(i)
        pts = " ".join(f"{_n(sx(k))},{_n(sy(v))}" for k, v in enumerate(s))
        body.append(
            f'<polyline class="series" data-side="{i}" points="{pts}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>'
        )
    for i, s in enumerate(series):
        colour = _colour(i)
        body.append(
            f'<circle class="end" cx="{_n(sx(n))}" cy="{_n(sy(s[-1]))}" r="3.2" fill="{colour}" '
            f'stroke="#ffffff" stroke-width="1"/>'
        )

    # Legend.
    for r, row in enumerate(legend_rows):
        ly = 8 + 14 * r + 9
        for i, lx in row:
            colour = _colour(i)
            body.append(
                f'<line x1="{_n(10 + lx)}" y1="{_n(ly - 3.5)}" x2="{_n(10 + lx + 10)}" y2="{_n(ly - 3.5)}" '
                f'stroke="{colour}" stroke-width="3" stroke-linecap="round"/>'
            )
            body.append(
                f'<text {_FONT} font-size="{fs}" font-weight="bold" fill="{_shade(colour, 0.8)}" '
                f'x="{_n(10 + lx + 14)}" y="{_n(ly)}">{xml_text(entries[i])}</text>'
            )

    turns = f"{n} turn{'s' if n != 1 else ''}"
    title = "Score chart: " + ", ".join(entries) + f" after {turns}"
    return _doc(width, height, title, body, title)
