"""The All Fives layout as drawn on the table screen: the tiles where
:mod:`scorekeeper.ui.allfives.drawing` puts them, the open ends' marks, the count
as a sum; and the picker's tiles. Tiles are memoized components: a tap redraws
only the tiles whose look changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.allfives.drawing import Drawing
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.widgets import labelled, tile_button, tile_face

__all__ = ["TILE_W", "LaidTile", "PickerTile", "count_line", "layout_view"]

TILE_W = 40  # picker tile: width of one half (px)


@ft.component
def _LaidTile(
    tile: str,
    first: int,
    second: int,
    horizontal: bool,
    half: float,
    spinner: bool,
    setting: str | None,
    on_choose: Callable[[str], Any],
) -> ft.Control:
    """A tile of the layout drawing; ``setting``: the tile being set, when this one is an end it may go on."""
    face = tile_face(first, second, horizontal, half, spinner, ft.Colors.TERTIARY_CONTAINER if setting else None)
    if setting is None:
        return labelled(face, f"{tile}{' spinner' if spinner else ''} on the table")

    def handler(e: Any) -> None:
        on_choose(tile)

    return labelled(ft.Container(content=face, on_click=handler), f"set {setting} on {tile}", handler)


#: Memoized like the picker tiles: a tap redraws only the tiles whose look changed.
LaidTile = ft.memo(_LaidTile)


@ft.component
def _PickerTile(tile: str, label: str, fits: bool, half: float, on_tap: Callable[[str], Any]) -> ft.Control:
    return tile_button(tile, lambda e: on_tap(tile), label, fits, half)


#: A picker tile re-renders only when its own arguments change (``on_tap`` is a
#: bound method of the view-model, equal from one render to the next), so a tap
#: rebuilds a handful of controls instead of every tile of the set.
PickerTile = ft.memo(_PickerTile)


def layout_view(table: TableModel, d: Drawing, width: float = 380, height: float = 300) -> ft.Control:
    if not d.tiles:
        return ft.Container(
            content=ft.Text("No tile down yet: tap the lead tile below."),
            height=80,
            alignment=ft.Alignment.CENTER,
        )
    unit = max(4.0, min(width / d.width, height / d.height, 14.0))
    choosing = table.play.choosing
    targets = set(choosing[1]) if choosing else set()
    children: list[ft.Control] = []
    for g in d.tiles:
        t = str(g.tile)
        half = 2 * unit - (4 if g.spinner else 2)
        children.append(
            ft.Container(
                content=LaidTile(
                    t,
                    g.first,
                    g.second,
                    g.w > g.h,
                    half,
                    g.spinner,
                    choosing[0] if choosing and t in targets else None,
                    table.play.choose,
                ),
                width=g.w * unit,
                height=g.h * unit,
                left=g.x * unit,
                top=g.y * unit,
                key=f"laid-{t}",
            )
        )
    for m in d.ends:
        r = 1.6 * unit
        strong = m.counts or not m.tile.is_double
        children.append(
            ft.Container(
                content=ft.Text(
                    str(m.value),
                    size=max(8, unit * 0.9),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ON_PRIMARY if strong else ft.Colors.ON_SURFACE,
                ),
                bgcolor=ft.Colors.PRIMARY if strong else ft.Colors.SURFACE_CONTAINER,
                width=r,
                height=r,
                border_radius=r / 2,
                alignment=ft.Alignment.CENTER,
                left=m.x * unit - r / 2,
                top=m.y * unit - r / 2,
                tooltip=f"open end {m.value}",
            )
        )
    stack = ft.Stack(children, width=d.width * unit, height=d.height * unit)
    # scaled to fit (no pinch-zoom: on the web a mouse wheel over a zoomable
    # area zooms it instead of scrolling the page)
    return ft.Container(content=stack, alignment=ft.Alignment.CENTER, height=min(height, d.height * unit) + 8)


def count_line(d: Drawing) -> ft.Control:
    terms = " + ".join(f"{t} ({v})" if "-" in t else t for t, v in d.terms) if d.terms else "nothing open"
    return ft.Row(
        [
            ft.Text(f"Count {d.count}", size=22, weight=ft.FontWeight.BOLD, semantics_label=f"Count {d.count}"),
            ft.Text(f"= {terms}", size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        ],
        wrap=True,
    )
