"""The All Fives screens for the app shell (see ``scorekeeper/ui/shell/screens.py``'s
``GameScreens``): a new match (``/new/all-fives``) and the table (``/table/<id>``
of an All Fives match). They draw what the view-models say; no rule lives here.

The table, top to bottom: the top bar, the scores, the players and the boneyard,
a message strip of fixed height ("15!" after a scoring play, what the last entry
did, an error in place, where a tile may go), the layout in a box of fixed
height filling the width, the count as a sum, then the panel of the phase:
entering a play (a row of actions of fixed height, then the picker), the hand
end, the next leader, the winner -- or the corrections. Everything above the
picker keeps its height, so the picker's tiles never move under the thumb.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.errors import message_of
from scorekeeper.tally.svg import pegboard_svg
from scorekeeper.ui.allfives.corrections_view import corrections_panel
from scorekeeper.ui.allfives.fit import drawing_box
from scorekeeper.ui.allfives.history import history_blocks
from scorekeeper.ui.allfives.layout_view import (
    count_line,
    drawing_height,
    fitting_half,
    layout_part,
    picker_height,
)
from scorekeeper.ui.allfives.new_match_view import NewMatch
from scorekeeper.ui.allfives.panels import hand_end_panel, leader_panel, play_panel
from scorekeeper.ui.allfives.play import PickerCell
from scorekeeper.ui.allfives.table import PlayerRow, TableModel
from scorekeeper.ui.live.view import use_live
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.points_view import entry_panel
from scorekeeper.ui.shell.table_view import asked_part, seat_question, watching, your_turn
from scorekeeper.ui.shell.widgets import (
    PAD,
    Kept,
    back_to_event,
    cannot_open,
    error_box,
    go,
    home_button,
    labelled,
    on,
    score_chips,
    svg_image,
    top_bar,
    use_viewport,
)

__all__ = ["BLURB", "NewMatch", "Table", "history_blocks"]

BLURB = "All Fives at the table: enter each tile as it is set"

# The view-model, observable: assigning ``revision`` (done by every action) redraws.
TableVM = ft.observable(TableModel)

STRIP_H = 56  # the message strip's fixed height (px)
TOP_H = 48  # the top bar's
#: A screen at least this wide (and wider than high: a laptop, a tablet on its side) is the
#: table's display: the drawing and the scores on the left, the panel of the phase on the right.
WIDE = 900
SIDE_W = 460  # the panel's column on a wide screen: the picker 9 tiles a row
#: A screen wider than high and lower than this is a phone on its side: two columns too.
LOW = 560
GAP = 16


def _fits(texts: list[str], width: float) -> bool:
    """Whether a row of chips with these texts fits ``width`` (about 8.5 px a character at 14 px,
    16 px of padding and 6 between chips, the phone icon's 18)."""
    return sum(len(t) * 8.5 + 22 for t in texts) + 18 <= width


# The parts of the screen that an entry leaves as they were are the very controls drawn
# last (``Kept``: each part under a name, with what it shows): Flet's diff passes over them,
# and an entry redraws only the parts whose look changed, on every phone of the table.
def _tile_icon() -> ft.Control:
    """The domino between a player's name and the tiles they hold."""
    return ft.Icon(ft.Icons.SPLITSCREEN, size=14)


def _phone_icon(in_row: bool = False) -> ft.Control:
    """The phone before this phone's player's name (``in_row``: in the row of the name, the
    tile and the count, 1 px apart, and 1 px more of its own: 2 px from the name)."""
    return ft.Icon(ft.Icons.PHONE_ANDROID, size=16, margin=ft.Margin.only(right=1) if in_row else None)


def _player_chip(
    p: PlayerRow,
    long: bool,
    mine: bool,
    take_seat: Callable[[str], Any] | None,
    tile: ft.Control | None = None,
    phone: ft.Control | None = None,
) -> ft.Control:
    """A player in the players' row (``long``: in full words, else short; ``mine``: this
    phone's; ``take_seat``: a scorer's phone takes, or gives up, a player's seat by a tap on
    the name; ``tile``, ``phone``: its icons drawn last, where the screen keeps them)."""
    label = p.label + (", this phone" if mine else "")
    bold = ft.FontWeight.BOLD if p.to_move else None
    name: ft.Control
    if long or p.out:
        name = ft.Text(p.text if long else p.short, weight=bold, semantics_label=label)
        if mine:  # this phone's player: a phone before the name
            name = ft.Row([phone if phone is not None else _phone_icon(), name], spacing=2, tight=True)
    else:  # "Ann [tile] 5": a domino before the count, so it does not read as a score
        # (this phone's player: the phone first, in the same row: one row and node a chip)
        first = [phone if phone is not None else _phone_icon(True)] if mine else []
        name = labelled(
            ft.Row(
                [
                    *first,
                    ft.Text(p.name, weight=bold),
                    tile if tile is not None else _tile_icon(),
                    ft.Text(str(p.held), weight=bold),
                ],
                spacing=1,
                tight=True,
            ),
            label,
        )
    return ft.Container(
        content=name,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if p.to_move else None,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=8,
        on_click=None if take_seat is None else on(take_seat, p.name),
    )


def _tools(
    mid: str,
    can_enter: bool,
    undo: Callable[[], Any],
    redo: Callable[[], Any],
    fix: Callable[[], Any],
    as_points: Callable[[], Any] | None = None,
) -> ft.Control:
    """The top bar's icons: Undo, Redo, Correct, the hand as points (while a hand is played;
    not on a watcher's phone), Score."""
    icons = [
        ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=on(undo)),
        ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=on(redo)),
        ft.IconButton(icon=ft.Icons.EDIT_NOTE, tooltip="Correct an entry", on_click=on(fix)),
    ]
    if as_points is not None:
        icons.append(
            ft.IconButton(icon=ft.Icons.CALCULATE, tooltip="Enter this hand as points", on_click=on(as_points))
        )
    score = ft.IconButton(icon=ft.Icons.LEADERBOARD, tooltip="Score", on_click=go(f"/score/{mid}"))
    return ft.Row([*(icons if can_enter else []), score], spacing=0, tight=True)


def _top(table: TableModel, mid: str, kept: Kept) -> ft.Control:
    """The top bar: Home, the hand and who is to play (or "Correcting"), the tools."""
    fixes, phase = table.fixes, table.phase
    title = "Correcting" if fixes.picked is not None else f"Hand {table.hand_number} · {_status(table)}"
    how = (
        mid,
        table.can_enter,
        table.undo,
        table.redo,
        fixes.open,
        table.entries.open_points if phase in ("play", "hand-end") else None,
    )
    tools = kept("tools", how, lambda: _tools(*how))
    home = kept("home", (), home_button)
    return kept("top", (title, tools), lambda: top_bar(title, tools, home=home, key="top", height=TOP_H))


def _players_strip(table: TableModel, width: float, kept: Kept) -> ft.Control:
    """The players' row, each a chip (in a container of fixed height), and the boneyard."""
    seat = table.seat
    take_seat = table.take_seat if table.can_enter else None
    boneyard = [f"Boneyard {table.boneyard}"] if table.rules.draw else []
    long = _fits([p.text for p in table.player_rows] + boneyard, width)
    items: list[ft.Control] = []
    for p in table.player_rows:
        mine = p.name == seat
        # its icons, kept while they are shown (a chip drawn again keeps them)
        in_row = not (long or p.out)  # "Ann [tile] 5": its icons in the row of the name
        tile = kept(f"chip-tile-{p.name}", (), _tile_icon) if in_row else None
        phone = kept(f"chip-phone-{p.name}", (in_row,), functools.partial(_phone_icon, in_row)) if mine else None
        how = (p, long, mine, take_seat, tile, phone)
        items.append(kept(f"chip-{p.name}", how, functools.partial(_player_chip, *how)))
    if table.rules.draw:  # without drawing the tiles not dealt are out of play: nothing to count
        text = boneyard[0]
        items.append(kept("boneyard", (text,), lambda: ft.Text(text, semantics_label=text)))
    return kept(
        "players",
        tuple(items),
        lambda: ft.Row(items, spacing=6, scroll=ft.ScrollMode.HIDDEN, height=32, key="players"),
    )


def _message(table: TableModel) -> tuple[str | None, str | None]:
    """What the strip says besides "15!", and how it is read out: where a waiting tile may
    go, else what the last entry did ("Note: ...")."""
    choosing = table.play.choosing
    if choosing:
        tile, ends = choosing
        text = f"{tile} fits {len(ends)} ends: tap the one it goes on, on the drawing (or {tile} again to put it back)"
        return text, text
    sniffing = table.play.sniffing
    if sniffing:
        text = f"{sniffing[0]} is the sniff: tap Across or In line below (or {sniffing[0]} again to put it back)"
        return text, text
    draws = table.play.draws
    if draws and table.phase == "play":
        them = "it" if draws == 1 else "them"
        text = f"{table.to_move} drew {draws}. Undo puts {them} back."
        return text, text
    picked = table.fixes.picked
    if picked is not None:  # the last entry's note would not match the table shown
        hand, where = picked
        text = f"The table as it stood before hand {hand}, turn {where}." if isinstance(where, int) else ""
        return text, text or None
    note = table.note
    shown = your_turn(table, note)
    return shown, (shown if table.my_turn else f"Note: {note}" if note else None)


def _strip_body(table: TableModel) -> tuple[tuple[Any, ...] | None, Callable[[], ft.Control], bool]:
    """What the strip shows beside "15!": its look (None: drawn afresh every time), how it is
    made (a message takes the rest of the row itself), and whether it asks for a seat (the
    strip then grows to show every name)."""
    message, label = _message(table)
    other = table.play.asking
    if other is not None:  # a tap for another player than this phone's: one more tap says so
        return (
            None,
            lambda: ft.Row(
                [
                    ft.Text(other.question, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, expand=True),
                    ft.FilledButton(content=f"For {other.player}", on_click=on(table.play.confirm_other)),
                    ft.TextButton(content="Cancel", on_click=on(table.play.cancel)),
                ],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            False,
        )
    error = table.error
    if error:
        return ("error", error), lambda: error_box(error), False
    if table.ask_seat and not (table.note or table.play.choosing or table.play.draws or table.fixes.active):
        # asked before the first entry, never over a play's note (then the players' row takes a seat)
        return None, lambda: seat_question(table), True  # asked once: the strip grows to show every name
    text = message or ""
    return (
        ("text", text, label),
        lambda: ft.Text(text, semantics_label=label, max_lines=3, overflow=ft.TextOverflow.ELLIPSIS, expand=True),
        False,
    )


def _flash(flash: str | None) -> ft.Control:
    """ "15!" after a scoring play (hidden, empty, otherwise)."""
    return ft.Text(
        flash or "",
        size=36,
        weight=ft.FontWeight.BOLD,
        color=ft.Colors.PRIMARY,
        semantics_label=f"Scored {flash}" if flash else None,
        visible=bool(flash),
    )


def _strip(table: TableModel, kept: Kept) -> ft.Control:
    """ "15!", the message or the error: one strip of fixed height (lit on the turn of the
    player this phone is)."""
    flash = table.flash if table.phase == "play" else None  # never up into the hand end
    look, make, asking = _strip_body(table)
    body = kept("strip-body", look, make)
    shown = kept("flash", (flash,), lambda: _flash(flash))
    lit = table.my_turn
    return kept(
        "strip",
        (shown, body, asking, lit),
        lambda: ft.Container(
            content=ft.Row(
                # (the text takes the rest of the row itself; anything else in a container that does)
                [shown, body if isinstance(body, ft.Text) else ft.Container(content=body, expand=True)],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            height=None if asking else STRIP_H,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if lit else None,
            border_radius=8,
            key="strip",
        ),
    )


CHIPS_H = 40
#: The drawing's box never gets lower than this to make room for the pegboard.
MIN_DRAWING_H = 170.0
MIN_PHONE_H = 130.0  # on a short phone the picker comes first, down to this
#: The least room (px) the drawing may have beside the picker and the pegboard on a phone: with
#: less, the chips take the board's place (the sums above are a little generous: at 360 x 800
#: the two-track board leaves 127 px, and everything fits).
MIN_BOARD_ROOM = 100.0
#: The most of a wide screen's height the pegboard takes (four tracks would push the drawing out).
BOARD_SHARE = 0.45
ACTIONS_H = 48  # the row of actions above the picker


def _scores(
    table: TableModel,
    width: float,
    kept: Kept,
    grow: bool = False,
    max_height: float | None = None,
    as_chips: bool = False,
) -> tuple[ft.Control, float]:
    """The scores and their height: a chip per side, or for Fives and Threes the cribbage board
    they know (front and back pegs; the game hole is exactly the target), no higher than
    ``max_height``; ``as_chips``: the chips even so (a phone too short for the board of four
    players and the picker: the board is on the Score screen). Either keeps one height."""
    board = table.board()
    if board is None or as_chips:
        scores, after = dict(table.scores), f"to {table.target}"
        chips = kept(
            "scores-chips",
            (tuple(scores.items()), after),
            lambda: ft.Container(content=score_chips(scores, after, wrap=False), height=CHIPS_H, key="scores"),
        )
        return chips, CHIPS_H
    exact = " exactly" if table.rules.exact_target else ""
    label = f"Pegboard to {board.target}{exact}: " + ", ".join(
        f"{side} {score} (back peg {p.back})"
        for (_, p), (side, score) in zip(board.sides, table.scores.items(), strict=True)
    )
    shown = kept(
        "scores-board",
        (board, label, width, grow, max_height),
        lambda: ft.Container(
            content=svg_image(pegboard_svg(board), label, max_width=width, grow=grow, max_height=max_height),
            key="scores",
        ),
    )
    return shown, float(getattr(shown.content, "height", None) or CHIPS_H)


def _over_panel(table: TableModel) -> list[ft.Control]:
    return [
        *asked_part(table),
        ft.Container(
            content=ft.Column(
                [
                    ft.Text(
                        table.winner_line() or "",
                        size=28,
                        weight=ft.FontWeight.BOLD,
                        semantics_label=f"Winner {table.winner}",
                    ),
                    ft.Row(
                        [
                            *back_to_event(table.event_route()),
                            ft.FilledButton(content="Score", on_click=go(f"/score/{table.mid}")),
                            ft.OutlinedButton(
                                content="New match", on_click=go("/new/all-fives"), visible=table.can_enter
                            ),
                        ],
                        wrap=True,  # three buttons are wider than a phone with "Back to the event"
                        run_spacing=8,
                    ),
                ]
            ),
            bgcolor=ft.Colors.PRIMARY_CONTAINER,
            padding=PAD,
            border_radius=12,
        ),
    ]


def _status(table: TableModel) -> str:
    phase = table.phase
    if phase == "play":
        return f"{table.to_move} to play"
    if phase == "hand-end":
        return "hand over"
    if phase == "leader":
        return "next hand"
    return f"{table.winner} won"


def _panel(table: TableModel, room: _Room, cells: list[PickerCell], kept: Kept) -> tuple[list[ft.Control], str]:
    """The panel of the phase, and its kind (its column's key says it); ``cells``: the picker's."""
    side = room.side
    phase = table.phase
    if phase != "over" and not table.can_enter:
        return [watching()], "watch"
    if table.fixes.listing:
        return corrections_panel(table), "fixes"
    if table.entries.open and phase != "over":
        return entry_panel(table.entries), "entries"
    if phase == "play":
        return play_panel(table, side, room.short, room.half, kept, cells), "play"
    if phase == "hand-end":
        return hand_end_panel(table, side), "hand-end"
    if phase == "leader":
        return leader_panel(table), "leader"
    return _over_panel(table), "over"


class _Room:
    """How the table screen shares its room: the panel's column beside the drawing
    (``wide``) or under it, the widths, the drawing's box's height, the picker's tiles'
    size (``short``, ``half``), and the scores drawn for it with their height."""

    def __init__(self, table: TableModel, viewport: Any, kept: Kept, cells: int) -> None:
        width = viewport.content_width
        # two columns on a laptop, and on a phone on its side (too low for the picker under the drawing)
        side_on = viewport.width > viewport.height and viewport.height < LOW
        self.wide = wide = viewport.width > viewport.height and (viewport.width >= WIDE or side_on)
        self.side = side = SIDE_W if wide else width  # the panel's column: beside the drawing on a wide screen
        self.main_w = main_w = width - side - GAP if wide else width
        self.short = False  # the picker's tiles at their least size, for a short screen
        self.half: float | None = None  # the picker's half size, where the screen sets it
        if wide:  # the table's display: the drawing takes the height the rest leaves
            self.scores, scores_h = _scores(table, main_w, kept, grow=True, max_height=viewport.height * BOARD_SHARE)
            least = MIN_PHONE_H if side_on else MIN_DRAWING_H
            self.box = max(least, viewport.height - 2 * PAD - TOP_H - scores_h - 32 - STRIP_H - 32 - 6 * 6)
            if side_on:  # every row of the picker in view beside the actions: smaller tiles if need be
                room = viewport.height - 2 * PAD - TOP_H - 6 - ACTIONS_H - 8
                self.half = fitting_half(cells, side, room)
            return
        # the pegboard is taller than the chips: the drawing gives up that room, and on a short
        # screen what the picker needs, so that the picker's last row stays on a phone's screen
        # (the same for the whole match); where that leaves the drawing too little, the
        # picker's tiles are made smaller (a four-track board on a 412 x 915 phone), and last
        # the board gives way to the chips (four tracks on a 360 x 800 phone)
        for chips in (False, True):
            self.scores, scores_h = _scores(table, main_w, kept, as_chips=chips)
            room = viewport.height - 2 * PAD - TOP_H - scores_h - 32 - STRIP_H - 32 - ACTIONS_H - 7 * 6
            self.short = room - picker_height(cells, width) < MIN_PHONE_H
            room -= picker_height(cells, width, self.short)
            if room >= MIN_BOARD_ROOM:
                break
        self.box = max(MIN_PHONE_H, min(drawing_height(width) - max(0.0, scores_h - CHIPS_H), room))


@ft.component
def Table(shared: Shared, mid: str) -> ft.Control:
    def make() -> TableModel | str:
        try:
            return TableVM(shared, mid)
        except ScorekeeperError as e:
            return message_of(e)

    # (annotated: mypy cannot infer Flet's use_state from a factory)
    made: tuple[TableModel | str, object] = ft.use_state(make)
    table = made[0]
    viewport = use_viewport()
    # the parts drawn last (annotated: mypy cannot infer Flet's use_ref from a factory)
    parts: Any = ft.use_ref(Kept)
    kept: Kept = parts.current.begin()
    if isinstance(table, str):
        return cannot_open(table)
    use_live(table)
    cells = table.play.picker()
    room = _Room(table, viewport, kept, len(cells))
    main_w, box = room.main_w, room.box
    drawing = table.drawing(drawing_box(main_w, box))  # laid out for the box it is drawn in
    # The same keyed items in the same order on every render: Flet then patches
    # only what changed instead of re-sending the drawing and the picker.
    table_part: list[ft.Control] = [room.scores, _players_strip(table, main_w, kept), _strip(table, kept)]
    if room.wide or table.phase != "hand-end":  # a phone counting what is left in hands needs the room
        count = (drawing.count, tuple(drawing.terms))
        table_part += [
            layout_part(table, drawing, main_w, box, kept),
            kept("count", count, lambda: count_line(drawing, key="count", height=32)),
        ]
    panel, kind = _panel(table, room, cells, kept)
    top_row = _top(table, mid, kept)
    if room.wide:
        return kept(
            "screen",
            (top_row, *table_part, kind, room.main_w, room.side, *panel),
            lambda: _wide(top_row, table_part, panel, kind, room),
        )
    column = kept("panel", (kind, *panel), lambda: ft.Column(panel, spacing=8, key=f"panel-{kind}"))
    return kept(
        "screen",
        (top_row, *table_part, column),
        lambda: ft.Column([top_row, *table_part, column], spacing=6, scroll=ft.ScrollMode.AUTO, expand=True),
    )


def _wide(
    top_row: ft.Control, table_part: list[ft.Control], panel: list[ft.Control], kind: str, room: _Room
) -> ft.Control:
    """The table's display: the top bar over the drawing and the scores on the left, the panel
    of the phase on the right."""
    return ft.Column(
        [
            top_row,
            ft.Row(
                [
                    ft.Column(table_part, spacing=6, width=room.main_w, key="table", scroll=ft.ScrollMode.AUTO),
                    ft.Column(panel, spacing=8, width=room.side, scroll=ft.ScrollMode.AUTO, key=f"panel-{kind}"),
                ],
                spacing=GAP,
                vertical_alignment=ft.CrossAxisAlignment.START,
                expand=True,
            ),
        ],
        spacing=6,
        expand=True,
    )
