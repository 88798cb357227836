"""The standings on a phone (every browser but the wall's): a scrolling page, worked out
again the moment any match changes, with the same lines as the wall's (the difference
column, the mark of a place head to head decided, the tie-breaks in words under them)."""

from __future__ import annotations

import flet as ft

from scorekeeper.events import SCORING_TITLES, tie_breaks
from scorekeeper.ui.events.common import SUMMARY_EVERY, back, use_any_change
from scorekeeper.ui.events.model import StandingsModel
from scorekeeper.ui.events.wall_fit import Line
from scorekeeper.ui.events.wall_model import HEAD_TO_HEAD, standing_lines
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import error_box, labelled, top_bar, use_viewport

__all__ = ["Standings"]

StandingsVM = ft.observable(StandingsModel)
SIZE = 16


@ft.component
def Standings(shared: Shared, eid: str) -> ft.Control:
    vm, _ = ft.use_state(lambda: StandingsVM(shared, eid))
    use_any_change(shared, vm.tick, SUMMARY_EVERY)
    viewport = use_viewport()
    event, rows = vm.rows()
    if event is None:
        return ft.Column([top_bar("Standings"), error_box(vm.error), back("/events", "Events")])
    style = standing_lines(event, rows, wide=True)  # the points for and against too, where they fit
    if viewport.content_width < style.em * SIZE:
        style = standing_lines(event, rows, wide=False)
    weights = [max(1, round(c.em * 2)) for c in style.cols]

    def line(cells: tuple[str, ...], bold: bool = False) -> ft.Control:
        return ft.Row(
            [
                ft.Text(
                    text,
                    size=SIZE,
                    expand=w,
                    weight=ft.FontWeight.BOLD if bold or col.bold else None,
                    text_align=ft.TextAlign.RIGHT if col.right else ft.TextAlign.LEFT,
                )
                for text, w, col in zip(cells, weights, style.cols, strict=True)
            ],
            spacing=6,
        )

    def standing(ln: Line) -> ft.Control:
        return labelled(line(ln.cells), ln.label)

    table = [line(tuple(c.header for c in style.cols), bold=True), *map(standing, style.lines)]
    marked = any(r.decided_by == "head to head" for r in rows)
    notes = [ft.Text(HEAD_TO_HEAD)] if marked else []
    return ft.Column(
        [
            top_bar(f"{event.name}: standings"),
            ft.Text(SCORING_TITLES.get(event.scoring.preset, event.scoring.title)),
            ft.Column(table, spacing=6),
            *notes,
            ft.Text(tie_breaks(event), color=ft.Colors.ON_SURFACE_VARIANT),
            back(f"/event/{eid}", "The event"),
        ],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )
