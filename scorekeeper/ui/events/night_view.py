"""A round robin's, Swiss's or knockout's night sheet on the screen: the standings with the
tie-break that decided each place, every round's tables and results, a print view (the
text, black on white, for the browser's Print), and its CSV saved or copied."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.events.night import NightRound, NightSheet
from scorekeeper.ui.events.common import SUMMARY_EVERY, back, use_any_change
from scorekeeper.ui.events.night_model import NightModel
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import PAD, error_box, go, heading, labelled, top_bar, use_viewport

__all__ = ["NightPrint", "NightView"]

NightVM = ft.observable(NightModel)

BOLD = ft.FontWeight.BOLD
#: The most width the standings take (a wide screen: the columns stay together), and a
#: round's width when the rounds stand side by side.
MOST = 560
ROUND = 330
#: The standings' numeric columns on the screen, in px at size 15 (the name takes the rest):
#: place, played, won, drawn, lost, points for-against ("1205-1140"), difference, score.
COLUMNS = {"#": 26, "P": 20, "W": 22, "D": 20, "L": 20, "Points": 82, "+/-": 42, "Score": 44}


def _standings(vm: NightModel, sheet: NightSheet) -> ft.Control:
    """The standings as a table: a row a line, read whole (its label) by a screen reader;
    what put a line below the one above (when not the score) under the name."""
    drawn = sheet.drawn
    numbers = [c for c in COLUMNS if c != "#" and (drawn or c != "D")]

    def cell(text: str, column: str, bold: bool = False) -> ft.Control:
        return ft.Text(text, size=15, width=COLUMNS[column], no_wrap=True, weight=ft.FontWeight.BOLD if bold else None)

    head = ft.Row(
        [cell("#", "#", True), ft.Text("Player", size=15, weight=ft.FontWeight.BOLD, expand=True)]
        + [cell(c, c, True) for c in numbers],
        spacing=6,
    )
    rows: list[ft.Control] = [head, ft.Divider(height=1)]
    for s in sheet.standings:
        why = NightSheet.tie_break(s)
        name = ft.Text(s.name, size=15, expand=True, weight=ft.FontWeight.BOLD if s.rank == 1 else None)
        values = [str(s.played), str(s.won), *([str(s.drawn)] if drawn else []), str(s.lost)]
        values += [f"{s.points_for}-{s.points_against}", NightSheet.difference(s), str(s.score)]
        cells = [cell(v, c, bold=c == "Score") for v, c in zip(values, numbers, strict=True)]
        row: ft.Control = ft.Row([cell(NightSheet.place(s), "#"), name, *cells], spacing=6)
        if why:  # what put it below the line above, under its name
            note = ft.Text(f"({why})", size=12, italic=True, color=ft.Colors.ON_SURFACE_VARIANT)
            row = ft.Column([row, ft.Container(note, padding=ft.Padding.only(left=COLUMNS["#"] + 6))], spacing=0)
        rows.append(labelled(row, vm.label(s)))
    return ft.Column(rows, spacing=6)


def _round(rnd: NightRound, width: float) -> ft.Control:
    """A round: its tables' lines and its byes, each line a text of its own."""
    lines: list[ft.Control] = [heading(rnd.title, 17)]
    for t in rnd.tables:
        played = t.result is not None
        lines.append(
            ft.Text(t.words, size=15, italic=not played, color=None if played else ft.Colors.ON_SURFACE_VARIANT)
        )
    if rnd.byes:
        lines.append(ft.Text(rnd.bye_words, size=15, italic=True))
    return ft.Container(
        ft.Column(lines, spacing=4),
        width=width,
        padding=PAD,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
    )


@ft.component
def NightView(shared: Shared, eid: str) -> ft.Control:
    vm, _ = ft.use_state(lambda: NightVM(shared, eid))
    use_any_change(shared, vm.tick, SUMMARY_EVERY)
    viewport = use_viewport()
    sheet = vm.sheet()
    if sheet is None:
        return ft.Column([top_bar("Night sheet"), error_box(vm.error), back(f"/event/{eid}", "The event")])
    csv_text = sheet.csv()

    async def copy_csv(_: Any) -> None:
        await ft.Clipboard().set(csv_text)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text("The night sheet is copied, as CSV")))

    async def save_csv(_: Any) -> None:
        try:
            await ft.FilePicker().save_file(file_name=vm.csv_name, src_bytes=csv_text.encode())
        except Exception as exc:  # the platform has no save dialog
            ft.context.page.show_dialog(ft.SnackBar(ft.Text(f"Cannot save here ({exc}); use Copy")))

    wide = viewport.content_width > 2 * ROUND  # a laptop: the standings kept together, the rounds side by side
    top: list[ft.Control] = [top_bar(f"Night sheet: {sheet.event.name}"), ft.Text(sheet.subtitle)]
    if sheet.champion is not None:
        top.append(ft.Text(f"Winner: {sheet.champion}", size=22, weight=ft.FontWeight.BOLD))
    top += [heading(sheet.heading, 18), _standings(vm, sheet), ft.Text(sheet.tie_breaks, size=12, italic=True)]
    width = ROUND if wide else viewport.content_width
    rounds = ft.Row([_round(rnd, width) for rnd in sheet.rounds], wrap=True, spacing=10, run_spacing=10)
    buttons = [
        ft.OutlinedButton(content="Print view", icon=ft.Icons.PRINT, on_click=go(f"/event/{eid}/night/print")),
        ft.OutlinedButton(
            content="Save CSV", icon=ft.Icons.SAVE, on_click=save_csv, tooltip="Save the sheet for a spreadsheet"
        ),
        ft.OutlinedButton(content="Copy CSV", icon=ft.Icons.COPY, on_click=copy_csv, tooltip="Copy the sheet as CSV"),
        back(f"/event/{eid}", "The event"),
    ]
    return ft.Column(
        [
            ft.Container(ft.Column(top, spacing=10), width=MOST if wide else None),
            rounds,
            ft.Row(buttons, wrap=True),
        ],
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


@ft.component
def NightPrint(shared: Shared, eid: str) -> ft.Control:
    """The night sheet as it is printed (the browser's Print): its text, black on white. The
    standings' columns are cells of fixed widths (the browser has no monospaced font to
    line up spaces with): each row reads as the printed line (its label)."""
    vm, _ = ft.use_state(lambda: NightVM(shared, eid))
    sheet = vm.sheet()

    def line(text: str, bold: bool = False) -> ft.Control:
        return ft.Text(text, size=13, color=ft.Colors.BLACK, weight=ft.FontWeight.BOLD if bold else None)

    if sheet is None:
        items = [line(vm.error or "")]
    else:
        items = [line(sheet.title, True), line(sheet.subtitle)]
        items += [line(f"Winner: {sheet.champion}", True)] if sheet.champion else []
        items += [ft.Container(height=8), line(sheet.heading, True), _printed_standings(sheet)]
        items += [ft.Container(height=8), line(sheet.tie_breaks)]
        for rnd in sheet.rounds:
            items += [ft.Container(height=8), line(rnd.title, True)]
            items += [line(f"  {t.words}") for t in rnd.tables]
            items += [line(f"  {rnd.bye_words}")] if rnd.byes else []
    items.append(ft.TextButton(content="Back", on_click=go(f"/event/{eid}/night")))
    return ft.Container(
        content=ft.Column(items, spacing=2, scroll=ft.ScrollMode.AUTO),
        bgcolor=ft.Colors.WHITE,
        padding=24,
        expand=True,
    )


def _printed_standings(sheet: NightSheet) -> ft.Control:
    """The standings' lines as :meth:`NightSheet.text` prints them (each row's label), each
    cell as wide as its column's longest text; sideways on a narrow screen rather than wrapped."""
    table = sheet.table()
    chars = [max(len(cells[c]) for cells, _ in table) for c in range(len(table[0][0]))]
    rows: list[ft.Control] = []
    for i, (cells, text) in enumerate(table):
        row = ft.Row(
            [
                ft.Text(c, size=13, color=ft.Colors.BLACK, no_wrap=True, width=8 * n + 12, weight=None if i else BOLD)
                for c, n in zip(cells, chars, strict=True)
            ],
            spacing=0,
        )
        rows.append(labelled(row, text))
    return ft.Row([ft.Column(rows, spacing=2)], scroll=ft.ScrollMode.AUTO)
