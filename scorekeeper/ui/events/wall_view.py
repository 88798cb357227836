"""The wall: an event's standings and the round being played on a screen across a room (a
watcher's standings). It draws what :mod:`scorekeeper.ui.events.wall_model` says, fitted to
the page with nothing to scroll, and turns its pages every few seconds while it is shown."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.events.common import SUMMARY_EVERY, back, use_any_change, use_every
from scorekeeper.ui.events.wall_fit import STATE, Block, Col, Line
from scorekeeper.ui.events.wall_model import Wall, WallModel, turn_seconds
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import PAD, error_box, go, labelled, qr_svg, svg_image, top_bar, use_viewport

__all__ = ["WallScreen", "use_turns"]

WallVM = ft.observable(WallModel)

_BOLD = ft.FontWeight.BOLD


def use_turns(vm: WallModel, seconds: float | None = None) -> None:
    """Turn the wall's pages every ``seconds`` (:func:`turn_seconds`) while it is shown: a
    loop of this session's, started when the wall is shown and cancelled the moment another
    screen replaces it. While its browser is away it turns nothing; once the session is
    over (the browser not back in time: the wall is never taken off the screen then) the
    loop ends by itself. A wall of one page is never drawn again by it."""
    use_every(turn_seconds() if seconds is None else seconds, vm.turn)


def _cell(text: str, size: float, width: float | None, right: bool, bold: bool, dim: bool) -> ft.Control:
    return ft.Container(
        content=ft.Text(
            text,
            size=size,
            weight=_BOLD if bold else None,
            max_lines=1,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
            text_align=ft.TextAlign.RIGHT if right else ft.TextAlign.LEFT,
            color=ft.Colors.ON_SURFACE_VARIANT if dim else None,
        ),
        width=width,
        expand=width is None,
    )


def _line(block: Block, line: Line | None, shade: bool) -> ft.Control:
    """One line of a block (None: its header), as high as the block's fit says: a memoized
    component of plain values, so that a redraw of the wall makes again only the lines that
    changed (a table's that entered), not every line of every block."""
    fit, style = block.fit, block.fit.style
    height = fit.head if line is None else fit.row
    return WallLine(fit.size, style.cols, style.two_line, height, line, shade)


@ft.component
def _WallLine(
    size: float, cols: tuple[Col, ...], two_line: bool, height: float, line: Line | None, shade: bool
) -> ft.Control:
    header = line is None
    cells_text = tuple(c.header for c in cols) if line is None else line.cells
    dim = line is not None and line.dim
    cells: list[ft.Control] = []
    for i, (col, text) in enumerate(zip(cols, cells_text, strict=True)):
        if two_line and i == 1:  # the players, their table's state under them (a header: "Players")
            under = [] if header else [_cell(cells_text[2], size * STATE, None, False, False, True)]
            column = [_cell(text, size, None, False, header, dim), *under]
            cells.append(ft.Column(column, spacing=0, expand=True, alignment=ft.MainAxisAlignment.CENTER))
            break
        cells.append(_cell(text, size, None if col.grow else col.em * size, col.right, header or col.bold, dim))
    row = ft.Container(
        content=ft.Row(cells, spacing=0.5 * size, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=height,
        padding=ft.Padding.symmetric(horizontal=0.25 * size),  # (the half gap at each end of Style.em)
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST if shade else None,
        border_radius=4,
    )
    return row if line is None else labelled(row, line.label)


WallLine = ft.memo(_WallLine)


def _block(block: Block, gutter: float) -> ft.Control:
    columns: list[ft.Control] = []
    for lines in block.columns:
        rows = [_line(block, None, False)] + [_line(block, ln, i % 2 == 1) for i, ln in enumerate(lines)]
        columns.append(ft.Column(rows, spacing=0, expand=True))
    return ft.Row(columns, spacing=gutter, width=block.width, vertical_alignment=ft.CrossAxisAlignment.START)


def _notes(wall: Wall, width: float) -> list[ft.Control]:
    size = wall.room.note
    return [ft.Text(n, size=size, width=width, color=ft.Colors.ON_SURFACE_VARIANT) for n in wall.page.notes]


def _main(wall: Wall) -> ft.Control:
    room = wall.room
    parts: list[ft.Control] = []
    for block in wall.page.blocks:
        drawn = _block(block, room.gutter)
        if block.kind == "standings" and wall.page.notes:
            drawn = ft.Column([drawn, *_notes(wall, block.width)], spacing=room.gap * 0.5, width=block.width)
        parts.append(drawn)
    if wall.page.side_by_side:
        return ft.Row(parts, spacing=room.gutter, vertical_alignment=ft.CrossAxisAlignment.START)
    return ft.Column(parts, spacing=room.gap)


def _join(wall: Wall) -> ft.Control:
    """The way in for a late phone: the table's join link as a QR code, and how to find the event."""
    room = wall.room
    assert wall.qr is not None
    words = [ft.Text(wall.join[0], size=room.note, weight=_BOLD)] + [ft.Text(w, size=room.note) for w in wall.join[1:]]
    return ft.Column(
        [svg_image(qr_svg(wall.qr), "QR code: join this table", max_width=room.qr_width, grow=True), *words],
        width=room.qr_width,
        spacing=room.gap * 0.5,
    )


def _title(wall: Wall) -> ft.Control:
    room = wall.room
    size = room.title
    turn = [ft.Text(f"({wall.index + 1} of {wall.pages})", size=size * 0.6, color=ft.Colors.ON_SURFACE_VARIANT)]
    return ft.Row(
        [
            ft.IconButton(icon=ft.Icons.HOME, tooltip="Home", on_click=go("/"), icon_size=max(20.0, size * 0.8)),
            ft.Text(
                wall.name,
                size=size,
                weight=_BOLD,
                expand=True,
                max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            ft.Text(wall.heading, size=size, weight=_BOLD, color=ft.Colors.PRIMARY),
            *(turn if wall.pages > 1 else []),
        ],
        height=room.title_height,
        spacing=room.gap,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


@ft.component
def WallScreen(shared: Shared, eid: str) -> ft.Control:
    """The wall of event ``eid``: looked at again the moment any match changes, its pages
    turned every few seconds."""
    vm, _ = ft.use_state(lambda: WallVM(shared, eid))
    use_any_change(shared, vm.tick, SUMMARY_EVERY)
    use_turns(vm)
    viewport = use_viewport()
    wall = vm.look(viewport.width, viewport.height, PAD)
    if wall is None:
        return ft.Column([top_bar("Standings"), error_box(vm.error), back("/events", "Events")])
    room = wall.room
    body: list[ft.Control] = [ft.Container(content=_main(wall), expand=True)]
    if wall.qr is not None:
        body.append(_join(wall))
    return ft.Column(
        [
            _title(wall),
            ft.Row(body, spacing=2 * room.gap, vertical_alignment=ft.CrossAxisAlignment.START, expand=True),
        ],
        spacing=room.gap,
        expand=True,
    )
