"""A league fixture's result sheet on the screen: filled from its matches, confirmed by both
captains on their own phones, a print view, and its CSV saved or copied."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.events.sheets import when
from scorekeeper.ui.events.common import back, told, use_any_change
from scorekeeper.ui.events.sheet_model import SheetModel
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import error_box, go, on, top_bar

__all__ = ["SheetPrint", "SheetView"]

SheetVM = ft.observable(SheetModel)


# ------------------------------------------------------------ result sheets
@ft.component
def SheetView(shared: Shared, eid: str, round_number: int, fixture: int) -> ft.Control:
    vm, _ = ft.use_state(lambda: SheetVM(shared, eid, round_number, fixture))
    use_any_change(shared, vm.tick)
    sheet = vm.sheet()
    if sheet is None:
        return ft.Column([top_bar("Result sheet"), error_box(vm.error), back(f"/event/{eid}", "The event")])
    lines: list[ft.Control] = [
        top_bar(f"Result sheet: {sheet.home} v {sheet.away}"),
        ft.Text(f"{sheet.event.name}, round {sheet.round}, fixture {sheet.fixture}"),
    ]
    for g in sheet.games:
        lines.append(ft.Text(f"Game {g.game} (table {g.table}): {g.title}: {g.state}"))
    h, a = sheet.games_won
    lh, la = sheet.league_points
    lines.append(ft.Text(f"Games: {sheet.home} {h}, {sheet.away} {a}", weight=ft.FontWeight.BOLD, size=18))
    lines.append(ft.Text(f"League points: {sheet.home} {lh}, {sheet.away} {la}"))
    for team in (sheet.home, sheet.away):
        c = sheet.confirmed(team)
        found = sheet.event.team(team)
        leaders = found.leaders if found is not None else team
        if c is not None:
            lines.append(ft.Text(f"Confirmed for {team} by {c.words} at {when(c.at)}", color=ft.Colors.PRIMARY))
        elif (needs := vm.needs_captain(team)) is not None:
            lines.append(ft.Text(needs, italic=True))
        elif vm.can_confirm(team):
            me = vm.me
            as_who = "as the host" if vm.can_reopen else f"as {me}"
            lines.append(
                ft.FilledButton(
                    content=f"Confirm for {team} {as_who}",
                    on_click=on(_confirm, vm, shared, team),
                    disabled=not sheet.complete,
                )
            )
        else:
            old = sheet.stale(team)
            changed = f" (confirmed {old.games[0]}-{old.games[1]} before a change)" if old is not None else ""
            lines.append(ft.Text(f"{team}: waiting for its captain, {leaders}{changed}", italic=True))
    for r in sheet.reopenings:  # its captains see that the host re-opened it, and what it was
        lines.append(ft.Text(r.words()[:1].upper() + r.words()[1:] + ".", italic=True, color=ft.Colors.ERROR))
    if sheet.locked:
        lines.append(ft.Text("Confirmed: its games cannot change until the host re-opens it.", italic=True))
        if vm.can_reopen:
            lines.append(
                ft.OutlinedButton(
                    content="Re-open the sheet", icon=ft.Icons.LOCK_OPEN, on_click=on(_reopen, vm, shared)
                )
            )
    if vm.note:
        lines.append(ft.Text(vm.note, italic=True))
    csv_text = sheet.csv()
    name = f"result-sheet-{eid}-round-{round_number}-fixture-{fixture}.csv"

    async def copy_csv(_: Any) -> None:
        await ft.Clipboard().set(csv_text)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text("The sheet is copied, as CSV")))

    async def save_csv(_: Any) -> None:
        try:
            await ft.FilePicker().save_file(file_name=name, src_bytes=csv_text.encode())
        except Exception as exc:  # the platform has no save dialog
            ft.context.page.show_dialog(ft.SnackBar(ft.Text(f"Cannot save here ({exc}); use Copy")))

    lines += [
        error_box(vm.error),
        ft.Row(
            [
                ft.OutlinedButton(
                    content="Print view",
                    icon=ft.Icons.PRINT,
                    on_click=go(f"/event/{eid}/sheet/{round_number}/{fixture}/print"),
                ),
                back(f"/event/{eid}", "The event"),
            ],
            wrap=True,
        ),
        ft.Row(
            [
                ft.OutlinedButton(
                    content="Save CSV",
                    icon=ft.Icons.SAVE,
                    on_click=save_csv,
                    tooltip="Save the sheet for a spreadsheet",
                ),
                ft.OutlinedButton(
                    content="Copy CSV", icon=ft.Icons.COPY, on_click=copy_csv, tooltip="Copy the sheet as CSV"
                ),
            ],
            wrap=True,
        ),
    ]
    return ft.Column(lines, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)


def _confirm(vm: SheetModel, shared: Shared, team: str) -> None:
    vm.confirm(team)
    told(shared, vm)


def _reopen(vm: SheetModel, shared: Shared) -> None:
    vm.reopen()
    told(shared, vm)


@ft.component
def SheetPrint(shared: Shared, eid: str, round_number: int, fixture: int) -> ft.Control:
    """The sheet as it is printed (the browser's Print): the text, black on white."""
    vm, _ = ft.use_state(lambda: SheetVM(shared, eid, round_number, fixture))
    sheet = vm.sheet()
    text = sheet.text() if sheet is not None else (vm.error or "")
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(text, selectable=True, font_family="monospace", size=13, color=ft.Colors.BLACK),
                ft.TextButton(content="Back", on_click=go(f"/event/{eid}/sheet/{round_number}/{fixture}")),
            ],
            scroll=ft.ScrollMode.AUTO,
        ),
        bgcolor=ft.Colors.WHITE,
        padding=24,
        expand=True,
    )
