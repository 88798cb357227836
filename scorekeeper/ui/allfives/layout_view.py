"""The All Fives layout as drawn on the table screen, and the picker's tiles.

The drawing fills the box it has (a phone's width, a desktop's column) at a fixed
height, so nothing under it moves as the layout grows; it is laid out for that box
(its arms turn at the box's edges, see ``fit.py``) so that its digits stay legible.
While a tile that fits several places waits, each place it may go is a button at
least 44 px square beyond that open end, on no tile, saying which end it is and
what the tile would score there. A tap redraws only the tiles whose look changed: the
drawing and the picker keep the controls they drew last, and a tile whose look did not
change is the same control again, which Flet's diff passes over without looking into it
(see :func:`_PickerGrid`, :func:`_drawing_box`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import flet as ft

from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.drawing import Drawing
from scorekeeper.ui.allfives.fit import Spot, button_size, drawing_box, end_buttons, half_px, origin, unit_for
from scorekeeper.ui.allfives.play import EndChoice, PickerCell, Place
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.allfives.tiles import MIN_DIGITS, tile_border, tile_digits, tile_face
from scorekeeper.ui.shell.widgets import Kept, labelled, on

__all__ = [
    "CELL_H",
    "CELL_W",
    "TILE_W",
    "count_line",
    "drawing_height",
    "layout_part",
    "layout_view",
    "picker_grid",
    "fitting_half",
    "picker_half",
    "picker_height",
]

TILE_W = 40  # picker tile: width of one half (px)
CELL_W = TILE_W + 4  # a picker cell: the tile and its border, the same for every tile
CELL_H = 2 * TILE_W + 4


def drawing_height(width: float) -> float:
    """The height of the drawing's box for a content ``width`` (fixed for the whole match)."""
    return max(200.0, min(width * 0.55, 420.0))


def _laid_tile(
    tile: str, first: int, second: int, horizontal: bool, half: float, spinner: bool, lit: bool, sniff: bool = False
) -> ft.Control:
    """A tile of the layout drawing (``lit``: a place the tile being set may go; ``sniff``: the
    sniff, drawn as a spinner)."""
    face = tile_face(first, second, horizontal, half, spinner, ft.Colors.TERTIARY_CONTAINER if lit else None)
    return labelled(face, f"{tile}{' sniff' if sniff else ' spinner' if spinner else ''} on the table")


#: The least half-tile size of the picker (px): a thumb's width.
MIN_HALF = 34.0


def picker_half(width: float, short: bool = False) -> float:
    """The half-tile size of the picker for a panel ``width`` wide: 40 px, less on a narrow
    phone so that 8 tiles still make a row, and on a screen too short for both the drawing
    and the picker (``short``) the least, :data:`MIN_HALF`."""
    return MIN_HALF if short else max(MIN_HALF, min(float(TILE_W), (width + 4) // 8 - 8))


def picker_height(cells: int, width: float, short: bool = False, half: float | None = None) -> float:
    """The height of a picker of ``cells`` tiles in a panel ``width`` wide (``half``: the tiles'
    half size, if not the panel's own)."""
    if half is None:
        half = picker_half(width, short)
    per_row = max(1, int((width + 4) // (half + 8)))
    rows = -(-cells // per_row)
    return rows * (2 * half + 8) - 4 if rows else 0.0


#: The least half-tile size (px) a phone on its side gives the picker so that every row of it
#: is in view beside the actions (a tile 28 px wide, still a fingertip's).
LEAST_HALF = 24.0


def fitting_half(cells: int, width: float, room: float) -> float:
    """The largest half-tile size (px) from the picker's own down to :data:`LEAST_HALF` whose
    picker of ``cells`` tiles, ``width`` wide, is no higher than ``room`` (a phone on its side:
    the picker and the actions in view together).

    >>> fitting_half(28, 436, 1000), fitting_half(28, 436, 250)
    (40.0, 36.0)
    """
    half = picker_half(width)
    while half > LEAST_HALF and picker_height(cells, width, half=half) > room:
        half -= 1
    return half


#: How a tile that fits no open end now is drawn: its box, border and digits pale (the whole
#: tile at this opacity), the same size as a lit one, so that it stays in its place.
PALE = 0.45
#: A lit tile's opacity: drawn as 1 (255 of 255 in the browser), but never Flet's default
#: 1.0, which Flet does not send. A cell drawn lit at 1.0 has no opacity layer in Flet's
#: client, so the first time it went pale the client put one above it and built its whole
#: subtree (box, semantics node, digits) again from nothing, not patched: at a hand's
#: first play, every tile that stopped fitting at once.
LIT = 0.999


class _Drawn:
    """A picker cell as the grid last drew it: what it showed (``cell``), its control, the
    parts of it that a new look of the same kind keeps (``parts``: its digits in their
    semantics node; a split cell's targets, each in its place), and its tap handler."""

    __slots__ = ("cell", "control", "parts", "tapped")

    def __init__(self, cell: PickerCell, control: ft.Control, parts: dict[Any, ft.Control], tapped: Any) -> None:
        self.cell = cell
        self.control = control
        self.parts = parts
        self.tapped = tapped


class _Held:
    """What a part of the table screen drew last, for as long as it is on the screen
    (``current``): the drawing's tiles and marks, the picker's cells."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: Any = None


def _draw_cell(
    c: PickerCell,
    was: _Drawn | None,
    on_tap: Callable[[Tile], Any],
    label: str,
    half: float,
    on_place: Callable[[Tile, Tile], Any] | None,
) -> _Drawn:
    """One cell of the picker: the tile (lit where it fits now, pale where it does not), split
    into one target per place where it fits two or three, or an empty cell once it is down
    (``was``: the same tile as the grid last drew it, whose parts it keeps where they show
    the same)."""
    tile, key = c.tile, f"cell-{c.tile}"
    tapped = was.tapped if was is not None else on(on_tap, tile)
    kept = was.parts if was is not None else {}
    if c.state == "down":
        box = ft.Container(
            width=half + 4,
            height=2 * half + 4,
            border=tile_border(1, ft.Colors.OUTLINE_VARIANT),
            border_radius=6,
            key=key,
        )
        return _Drawn(c, box, {}, tapped)
    if c.places and on_place is not None:
        parts: dict[Any, ft.Control] = {}
        return _Drawn(c, split_tile(tile, c.places, on_place, half, key, kept, parts), parts, tapped)
    fits = c.state == "fits"
    # its digits in their semantics node, inside the box: a tile that comes to fit or stops
    # fitting is a new box around the same node (one control compared and patched, not two)
    node = kept.get("node") or labelled(tile_digits(tile.hi, tile.lo, False, half), f"{label} {tile}", tapped)
    box = ft.Container(
        content=node,
        width=half + 4,  # the cell's size, lit or pale (its border 2 px either way)
        height=2 * half + 4,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if fits else ft.Colors.SURFACE_CONTAINER_LOW,
        border=tile_border(2, ft.Colors.PRIMARY, lit=True) if fits else tile_border(2, ft.Colors.OUTLINE_VARIANT),
        border_radius=max(3, half * 0.15),
        opacity=LIT if fits else PALE,
        on_click=tapped,
        key=key,
    )
    return _Drawn(c, box, {"node": node}, tapped)


def split_tile(
    tile: Tile,
    places: tuple[Place, ...],
    on_place: Callable[[Tile, Tile], Any],
    half: float,
    key: str | None = None,
    kept: dict[Any, ft.Control] | None = None,
    parts: dict[Any, ft.Control] | None = None,
) -> ft.Control:
    """A tile that fits two or three places, its cell split into one target per place, top to
    bottom: each says where it goes ("on 5-5") and what it scores there ("+10"); with two,
    each keeps its half's digit, so the tile still reads as itself (the place its higher
    half joins is on top). Read out as what it shows: ``set 5-3 on 5-5: scores 15``.

    The cell holds no count (a place's count changes at every entry, its points seldom):
    it is drawn again only when a place or what it scores changes, and then keeps from
    the cell as last drawn (``kept``) each target that is the same in the same place;
    ``parts`` is given this cell's, to keep for the next. The line between two targets is
    no control: the 1 px between them shows the cell's own colour."""
    kept = {} if kept is None else kept
    parts = {} if parts is None else parts
    n = len(places)
    h = (2 * half) / n  # each target's height inside the cell's border
    digits = (tile.hi, tile.lo) if n == 2 else (None,) * n
    targets: list[ft.Control] = []
    for i, (choice, digit) in enumerate(zip(places, digits, strict=True)):
        last = i == n - 1
        target = kept.get((n, i, choice))
        if target is None:
            tapped = on(on_place, tile, choice.on)
            body = _split_target(choice.on, digit, choice.gain, half, h - (0 if last else 1), tapped)
            target = labelled(body, f"set {tile} on {choice.on}: scores {choice.points}", tapped)
        parts[(n, i, choice)] = target
        targets.append(target)
    return ft.Container(
        content=ft.Column(targets, spacing=1, tight=True),
        width=half + 4,
        height=2 * half + 4,
        bgcolor=ft.Colors.ON_TERTIARY_CONTAINER,
        border=tile_border(2, ft.Colors.TERTIARY),
        border_radius=max(3, half * 0.15),
        clip_behavior=ft.ClipBehavior.HARD_EDGE,
        key=key,
    )


@lru_cache(maxsize=16)
def _span_style(size: int, color: str | None = None) -> ft.TextStyle:
    """A span's style: one object for each size and colour, shared by every target drawn with
    it (Flet's diff passes over a value that is the same object as before, see
    :func:`tile_border`); bold from its text."""
    return ft.TextStyle(size=size, color=color)


def _split_target(place: Tile, digit: int | None, gain: str, half: float, height: float, tapped: Any) -> ft.Control:
    """One target of a split cell: set on ``place`` (``digit``: the half's, where the cell
    keeps it; ``gain``: what it scores there, "+10" or nothing).

    Its words are one text, centred, in spans of their own sizes and colours: the digit and
    the gain beside it on the first line, where it goes on the next ("5 +10" over "on 5-5"),
    or where it goes over the gain. Each text or row or column is a control that Flet makes,
    diffs, checks and sends when the target is drawn again (a place or its score changed);
    a span is a smaller one, and a target is three controls and its spans, not up to seven."""
    small = 10 if half < TILE_W else 11
    where = f"on {place}"
    spans: list[ft.TextSpan] = []
    if digit is not None:  # the half's digit, what it scores beside it, where it goes under
        first, size = str(digit), round(half * 0.42)
        if gain:
            spans.append(ft.TextSpan(f" {gain}", style=_span_style(small, ft.Colors.PRIMARY)))
        spans.append(ft.TextSpan(f"\n{where}", style=_span_style(small)))
    else:  # where it goes, what it scores under it
        first, size = where, small
        if gain:
            spans.append(ft.TextSpan(f"\n{gain}", style=_span_style(small, ft.Colors.PRIMARY)))
    return ft.Container(
        content=ft.Text(
            first,
            size=size,
            weight=ft.FontWeight.BOLD,
            spans=spans or None,
            text_align=ft.TextAlign.CENTER,
            no_wrap=True,
        ),
        width=half,
        height=height,
        alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        on_click=tapped,
    )


def picker_grid(
    cells: list[PickerCell],
    on_tap: Callable[[Tile], Any],
    key: str = "picker",
    label: str = "tile",
    width: float | None = None,
    short: bool = False,
    on_place: Callable[[Tile, Tile], Any] | None = None,
    half: float | None = None,
    kept: Kept | None = None,
) -> ft.Control:
    """Every tile of ``cells``, each always in the same cell (``label``: what a tile is read out
    as, before its name; ``width``: the panel's, which sizes the tiles; ``short``: the screen
    is short, the tiles the least size; ``on_place``: a target of a split cell tapped;
    ``half``: the tiles' half size, if the screen sets it). A memoized component, or with
    ``kept`` (the table screen's parts drawn last) the row itself, the very row drawn last
    while its cells are the same, its cells kept with it while the picker is shown."""
    if half is None:
        half = (MIN_HALF if short else TILE_W) if width is None else picker_half(width, short)
    if kept is None:
        return PickerGrid(tuple(cells), on_tap, label, half, on_place, key=key)
    held = kept(f"{key}-cells", (), _Held)
    look = (tuple(cells), on_tap, label, half, on_place)
    return kept(key, look, lambda: _grid_row(cells, on_tap, label, half, on_place, held, key))


def _grid_row(
    cells: Sequence[PickerCell],
    on_tap: Callable[[Tile], Any],
    label: str,
    half: float,
    on_place: Callable[[Tile, Tile], Any] | None,
    kept: Any,
    key: str | None = None,
) -> ft.Control:
    """The picker's cells in a row that wraps (``key``: the row's), each drawn again only
    when its look changes: ``kept.current`` holds what the row drew last (see
    :func:`_PickerGrid`), and is given this drawing's."""
    how = (on_tap, label, half, on_place)
    last: dict[Tile, _Drawn] = kept.current[1] if kept.current is not None and kept.current[0] == how else {}
    drawn: dict[Tile, _Drawn] = {}
    for c in cells:
        was = last.get(c.tile)
        drawn[c.tile] = was if was is not None and was.cell == c else _draw_cell(c, was, on_tap, label, half, on_place)
    kept.current = (how, drawn)
    return ft.Row([d.control for d in drawn.values()], wrap=True, spacing=4, run_spacing=4, key=key)


@ft.component
def _PickerGrid(
    cells: tuple[PickerCell, ...],
    on_tap: Callable[[Tile], Any],
    label: str,
    half: float,
    on_place: Callable[[Tile, Tile], Any] | None = None,
) -> ft.Control:
    """The picker's cells in a row that wraps, each drawn again only when its look changes.

    The grid keeps what it drew last (a ref: for as long as it is on the screen, with the
    same handlers, label and size) and gives a cell whose :class:`PickerCell` is the same
    the very control it gave before. Flet's diff passes over a control that is the same
    object as before without looking into it, where an equal new one is compared property
    by property -- a component per tile cost its making and diff for every tile of the set
    at every entry, about 28 a phone. A tile that comes to fit or stops fitting is a new
    box (Flet sends its changed properties: colour, border, opacity) around the same
    semantics node and digits; a tile set is the same keyed box emptied (every cell is a
    box keyed by its tile: a control of another type would replace it in the row, and
    Flet's client would build the whole row again); a split cell keeps each target that is
    the same in the same place (:func:`split_tile`). Only a control of the last drawing is
    given again: one that left the screen is never brought back."""
    return _grid_row(cells, on_tap, label, half, on_place, ft.use_ref(None))


#: Drawn again only when a tile changes (not for a draw, a note, an entry at the hand end).
PickerGrid = ft.memo(_PickerGrid)


def _end_button(tile: Tile, choice: EndChoice, spot: Spot, choose: Callable[[Tile], Any]) -> ft.Control:
    """A place the tile waiting may go, on the drawing beyond its open end: where ("top end")
    over what it scores there ("+10"), one text (its gain a span of its own size, as a split
    cell's target: :func:`_split_target`)."""
    handler = on(choose, choice.on)
    gained = [ft.TextSpan(f"\n{choice.gain}", style=_span_style(15))] if choice.gain else None
    text = ft.Text(
        choice.where,
        size=12,
        no_wrap=True,
        weight=ft.FontWeight.BOLD,
        color=ft.Colors.ON_TERTIARY,
        spans=gained,
        text_align=ft.TextAlign.CENTER,
    )
    return ft.Container(
        content=labelled(
            ft.Container(
                content=text,
                width=spot.width,
                height=spot.height,
                border_radius=12,
                bgcolor=ft.Colors.TERTIARY,
                border=ft.Border.all(3, ft.Colors.ON_TERTIARY),
                alignment=ft.Alignment.CENTER,
                on_click=handler,
            ),
            f"set {tile} on {choice.on}: count {choice.count}, scores {choice.points}",
            handler,
        ),
        left=spot.left,
        top=spot.top,
        key=f"end-{choice.on}",
    )


def _layout_of(
    table: TableModel, d: Drawing, width: float, height: float, sheet: _Held | None = None
) -> tuple[tuple[Any, ...], Callable[[], ft.Control]]:
    """The drawing in its box as :func:`layout_view` draws it: what it shows (its look) and
    how it is made (``sheet``: the tiles and marks drawn last, given again where they look
    the same; the box is then the table screen's, keyed "layout")."""
    key = None if sheet is None else "layout"
    if not d.tiles:
        if sheet is not None:  # no tile drawn now: none is given again later
            sheet.current = None
        h = table.match.hand
        if table.phase == "leader" and h is not None and h.entered is not None:
            words = f"Hand {h.number} was entered as points: no tiles to show."
        else:
            words = "No tile down yet: tap the lead tile below." if table.can_enter else "No tile down yet."
        return (words, height), lambda: ft.Container(
            content=ft.Text(words), height=height, alignment=ft.Alignment.CENTER, key=key
        )
    box = drawing_box(width, height)
    if d.box != box:
        d = table.drawing(box)
    play = table.play
    choices = tuple(play.end_choices()) if play.choosing else ()
    args = (d, width, height, play.choosing, choices, play.choose)
    return args, lambda: _drawing_box(*args, sheet, key)


def layout_view(table: TableModel, d: Drawing, width: float, height: float) -> ft.Control:
    """The drawing in a box of ``width`` x ``height`` px; the places to choose while a tile
    waits. A drawing ``d`` laid out for another box (or none) is laid out again for this one."""
    return _layout_of(table, d, width, height)[1]()


def layout_part(table: TableModel, d: Drawing, width: float, height: float, kept: Kept) -> ft.Control:
    """:func:`layout_view` as the table screen shows it, its box keyed "layout": drawn again
    only when the drawing or the places to choose change (not for a draw, a note, an entry
    at the hand end), and the very control drawn last (``kept``) while they do not; drawn
    again, it keeps the tiles and marks that look the same in the same place (its sheet,
    kept while the drawing is shown)."""
    sheet = kept("layout-sheet", (), _Held)
    look, make = _layout_of(table, d, width, height, sheet)
    return kept("layout", look, make)


def _drawing_box(
    d: Drawing,
    width: float,
    height: float,
    choosing: tuple[Tile, list[Tile]] | None,
    choices: tuple[EndChoice, ...],
    choose: Callable[[Tile], Any],
    kept: _Held | None = None,
    box_key: str | None = None,
) -> ft.Control:
    """The drawing ``d`` (laid out for this box) and, while a tile waits, the places it may go.

    The tiles and the marks of the open ends are placed on a sheet of their own, the
    drawing's size, which is placed in the box: when the drawing moves in its box (it
    stays in the middle as it grows) the sheet moves, not each tile. ``kept`` (from
    :func:`layout_part`): the tiles and marks drawn last, each given again, the same control,
    where it looks the same in the same place on the sheet -- Flet's diff passes over it
    without looking into it -- and a tile's face where only its place changed; ``box_key``:
    the box's key."""
    unit = unit_for(d, width, height)  # under MIN_UNIT only where the layout would not fit its box
    targets = set(choosing[1]) if choosing else set()
    ox, oy = origin(d, unit, width, height)
    buttons: list[ft.Control] = []
    if choosing:  # the places the tile waiting may go (the drawing moved in its box if need be)
        marks = {m.tile: m for m in reversed(d.ends)}  # the first open end of each tile
        wanted = [(c, marks[c.on]) for c in choices if c.on in marks]
        sizes = [button_size([c.where, c.gain] if c.gain else [c.where]) for c, _ in wanted]
        placed = end_buttons(d, unit, width, height, [(m, size) for (_, m), size in zip(wanted, sizes, strict=True)])
        unit, (ox, oy) = placed.unit, placed.origin
        for (choice, _), spot in zip(wanted, placed.spots, strict=True):
            buttons.append(_end_button(choosing[0], choice, spot, choose))
    last: dict[Any, ft.Control] = kept.current if kept is not None and kept.current is not None else {}
    drawn: dict[Any, ft.Control] = {}
    r = 1.6 * unit  # an open end's mark: a disc this wide
    pad = r  # the sheet's margin, room for the marks at its edges
    sheet: list[ft.Control] = []
    marked: set[str] = set()
    for g in d.tiles:
        t = str(g.tile)
        half = half_px(unit, g.spinner)
        look = (t, g.first, g.second, g.w > g.h, half, g.spinner, g.tile in targets, g.sniff is not None)
        face = last.get(look) or _laid_tile(*look)
        drawn[look] = face
        place = (look, g.x, g.y, g.w, g.h, unit)
        tile = last.get(place) or ft.Container(
            content=face,
            width=g.w * unit,
            height=g.h * unit,
            left=pad + g.x * unit,
            top=pad + g.y * unit,
            key=f"laid-{t}",
        )
        drawn[place] = tile
        sheet.append(tile)
    for m in d.ends:
        strong = bool(m.counts) or not m.tile.is_double
        key = f"mark-{m.x},{m.y}"  # each compared with the mark that was in its place
        while key in marked:  # two ends in one place
            key += "+"
        marked.add(key)
        at = (key, m.value, strong, unit)
        mark = last.get(at) or ft.Container(
            content=ft.Text(
                str(m.value),
                size=min(max(MIN_DIGITS, unit * 0.9), r),
                weight=ft.FontWeight.BOLD,
                color=ft.Colors.ON_PRIMARY if strong else ft.Colors.ON_SURFACE,
            ),
            bgcolor=ft.Colors.PRIMARY if strong else ft.Colors.SURFACE_CONTAINER,
            width=r,
            height=r,
            border_radius=r / 2,
            alignment=ft.Alignment.CENTER,
            left=pad + m.x * unit - r / 2,
            top=pad + m.y * unit - r / 2,
            tooltip=f"open end {m.value}",
            key=key,
        )
        drawn[at] = mark
        sheet.append(mark)
    if kept is not None:
        kept.current = drawn
    on_sheet = ft.Stack(
        sheet,
        width=d.width * unit + 2 * pad,
        height=d.height * unit + 2 * pad,
        left=ox - pad,
        top=oy - pad,
        clip_behavior=ft.ClipBehavior.NONE,
        key="sheet",
    )
    # scaled to fit (no pinch-zoom: on the web a mouse wheel over a zoomable
    # area zooms it instead of scrolling the page)
    # (the box is this stack, of its size: a box around it would be one control more to diff)
    return ft.Stack([on_sheet, *buttons], width=width, height=height, clip_behavior=ft.ClipBehavior.NONE, key=box_key)


def count_line(d: Drawing, key: str | None = None, height: float | None = None) -> ft.Control:
    """The count as a sum ("Count 15 = 5-5 (10) + 5"), a row (``key``, ``height``: the row's,
    where the table screen sets them)."""
    terms = " + ".join(f"{t} ({v})" if "-" in t else t for t, v in d.terms) if d.terms else "nothing open"
    return ft.Row(
        [
            ft.Text(f"Count {d.count}", size=22, weight=ft.FontWeight.BOLD, semantics_label=f"Count {d.count}"),
            ft.Text(
                f"= {terms}",
                size=14,
                color=ft.Colors.ON_SURFACE_VARIANT,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
                expand=True,
            ),
        ],
        key=key,
        height=height,
    )
