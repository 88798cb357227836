"""History: the stored matches page by page, import; one stored match, read-only, export."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import flet as ft

from scorekeeper.ui.history.model import MAX_PASTE, PAGE_SIZE, HistoryModel
from scorekeeper.ui.history.send_view import SendToTable
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.screens import history_blocks
from scorekeeper.ui.shell.typed import use_typed
from scorekeeper.ui.shell.widgets import cannot_open, error_box, go, heading

__all__ = ["History", "StoredMatch"]

# The view-model, observable: assigning ``revision`` (done by every action) redraws.
HistoryVM = ft.observable(HistoryModel)


def _card(m: dict[str, Any]) -> ft.Control:
    scores = ", ".join(f"{k} {v}" for k, v in (m.get("scores") or {}).items())
    status = f"won by {m['winner']}" if m.get("winner") else m.get("status", "")
    return ft.Card(
        content=ft.Container(
            padding=10,
            content=ft.Column(
                [
                    ft.Text(f"{m['title']} · {(m.get('started') or '')[:10]}", weight=ft.FontWeight.BOLD),
                    ft.Text(f"{' · '.join(m.get('players') or [])}: {scores} ({status})"),
                    ft.Row(
                        [
                            ft.TextButton(
                                content="Open", on_click=go(f"/history/{m['id']}"), tooltip=f"Open match {m['id']}"
                            ),
                            ft.TextButton(
                                content="Play",
                                on_click=go(f"/table/{m['id']}"),
                                tooltip=f"Play match {m['id']}",
                                visible=m["playable"],
                            ),
                        ]
                    ),
                ],
                spacing=2,
            ),
        )
    )


def _bytes(data: Any) -> bytes | None:
    """A picked file's content as bytes (the client may send a list of numbers)."""
    if data is None or isinstance(data, bytes):
        return data
    return bytes(data)


def _picker(on_result: Callable[[Any], None]) -> Any:
    """The page's file picker for History (a service of the page: made once per screen)."""
    return ft.FilePicker(on_result=on_result)


def _question(hist: HistoryModel) -> ft.AlertDialog | None:
    """The record being imported is already stored: import a copy, or not."""
    if not hist.question:
        return None

    def copy(e: Any) -> None:
        hist.import_copy()

    def cancel(e: Any) -> None:
        hist.cancel_import()

    return ft.AlertDialog(
        modal=True,
        title=ft.Text("Already stored"),
        content=ft.Text(hist.question),
        actions=[
            ft.TextButton(content="Cancel", on_click=cancel),
            ft.FilledButton(content="Import a copy", on_click=copy),
        ],
    )


@ft.component
def History(shared: Shared) -> ft.Control:
    hist, _ = ft.use_state(lambda: HistoryVM(shared))
    paste = use_typed()

    def picked(e: Any) -> None:  # the browser read the file: its bytes, no path
        files = getattr(e, "files", None) or []
        if files:
            hist.import_file(files[0].name, _bytes(files[0].bytes))

    picker, _ = ft.use_state(lambda: _picker(picked))

    def pasted(e: Any) -> None:
        if len(e.control.value or "") > MAX_PASTE:  # (the field cuts a paste one character over)
            paste.set("")
            hist.refuse_paste()
            return
        paste.typed(e)

    def import_paste(e: Any) -> None:
        if hist.import_text(paste.text) or hist.question:  # stored, or held for the question
            paste.set("")

    ft.use_dialog(_question(hist))
    body: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/")), heading("History")]),
        ft.Text(f"{hist.total} match{'es' if hist.total != 1 else ''}"),
    ]
    body += [_card(m) for m in hist.items]
    body.append(
        ft.Row(
            [
                ft.OutlinedButton(content="Newer", on_click=lambda e: hist.prev_page(), disabled=hist.offset == 0),
                ft.Text(
                    f"{hist.offset + 1 if hist.total else 0}–{min(hist.total, hist.offset + PAGE_SIZE)} of {hist.total}"
                ),
                ft.OutlinedButton(
                    content="Older",
                    on_click=lambda e: hist.next_page(),
                    disabled=hist.offset + PAGE_SIZE >= hist.total,
                ),
            ]
        )
    )
    body += [
        heading("Import a record", 16),
        ft.OutlinedButton(
            content="Import a file",
            icon=ft.Icons.UPLOAD_FILE,
            tooltip="Import a saved record (scorekeeper-….json)",
            action=ft.PickFiles(picker, with_data=True, cancel_upload_on_window_blur=False),
        ),
        ft.TextField(
            label="Or paste a saved match here",
            value=paste.text,
            multiline=True,
            min_lines=3,
            max_lines=8,
            max_length=MAX_PASTE + 1,
            counter="",
            on_change=pasted,
            key="import-text",
        ),
        ft.FilledTonalButton(content="Import", on_click=import_paste),
        error_box(hist.error),
    ]
    if hist.message:
        body.append(ft.Text(hist.message))
    if shared.post is not None:  # the phone's own site: its finished matches go to the table's laptop
        body.append(SendToTable(shared))
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)


#: Where a stored match's Back may lead besides History (``?back=``: the list it was opened from).
_BACK = re.compile(r"/(player|head-to-head)(/[\w~+.-]+)*")


def back_of(route: str | None) -> str:
    """Where Back goes from a stored match opened at ``route``: the Players list it was
    opened from (``?back=/player/...``), else History."""
    back = parse_qs(urlparse(route or "").query).get("back", [""])[0]
    return back if _BACK.fullmatch(back) else "/history"


@ft.component
def StoredMatch(shared: Shared, mid: str) -> ft.Control:
    hist, _ = ft.use_state(lambda: HistoryVM(shared))
    shown, set_shown = ft.use_state(False)
    summary = hist.summary(mid)
    if summary is None:
        return cannot_open(hist.error, "/history", "History")
    text = hist.export(mid) or ""

    async def copy(e: Any) -> None:
        await ft.Clipboard().set(text)
        ft.context.page.show_dialog(ft.SnackBar(ft.Text("Record copied")))

    async def save(e: Any) -> None:
        try:
            await ft.FilePicker().save_file(file_name=f"scorekeeper-{mid}.json", src_bytes=text.encode())
        except Exception as exc:  # the platform has no save dialog
            ft.context.page.show_dialog(ft.SnackBar(ft.Text(f"Cannot save here ({exc}); use Copy")))

    # Back and the record's actions stay in view above the match, which scrolls under them (a
    # long match is thousands of pixels)
    head: list[ft.Control] = [
        ft.Row(
            [
                ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go(back_of(ft.context.page.route))),
                heading("Match"),
            ]
        ),
        ft.Row(
            [
                ft.FilledTonalButton(
                    content="Export record", icon=ft.Icons.IOS_SHARE, on_click=lambda e: set_shown(not shown)
                ),
                ft.OutlinedButton(content="Copy", icon=ft.Icons.COPY, on_click=copy, tooltip="Copy the record"),
                ft.OutlinedButton(
                    content="Save", icon=ft.Icons.SAVE, on_click=save, tooltip="Save the record as a file"
                ),
            ],
            wrap=True,
        ),
    ]
    body: list[ft.Control] = []
    if shown:
        body.append(ft.TextField(value=text, multiline=True, read_only=True, max_lines=16, label="Record (JSON)"))
    body += [
        ft.Text(
            ", ".join(f"{k} {v}" for k, v in summary["scores"].items())
            + (f" - {summary['winner']} won" if summary["winner"] else "")
        ),
        *[ft.Text(block, font_family="monospace", size=13) for block in history_blocks(summary)],
    ]
    return ft.Column(
        [*head, ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, key="match")],
        spacing=10,
        expand=True,
    )
