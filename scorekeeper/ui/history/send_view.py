"""History's "Send to the table" on the phone's own site (see :mod:`scorekeeper.ui.history.send`)."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.ui.history.send import SendModel
from scorekeeper.ui.join.view import kept_pass
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.typed import use_typed
from scorekeeper.ui.shell.widgets import error_box, heading

__all__ = ["SendToTable"]

SendVM = ft.observable(SendModel)


def _unknown() -> str | None:
    return None


@ft.component
def SendToTable(shared: Shared) -> ft.Control:
    """Back at the table: one tap sends this phone's finished matches to the table's laptop,
    with the pass this browser kept when it joined the table, else the table code typed here."""
    vm, _ = ft.use_state(lambda: SendVM(shared, shared.post))
    state: tuple[str | None, Any] = ft.use_state(_unknown)  # the kept pass ("": none), once the browser said
    held, set_held = state
    code = use_typed()

    async def look() -> None:
        set_held(await kept_pass() or "")

    ft.use_effect(look, [])

    async def send(_: Any) -> None:
        await vm.send(code.text, held or None)

    n = len(vm.finished())
    controls: list[ft.Control] = [
        heading("Send to the table", 16),
        ft.Text(
            "Back on the table's Wi-Fi: the finished matches of this phone go to the table's laptop "
            "(a match it has already is not sent twice).",
            size=13,
        ),
    ]
    if held == "" or vm.ask_code:  # never joined the table (or as a watcher, or its pass ended): the code
        controls.append(
            ft.TextField(
                label="Table code",
                value=code.text,
                on_change=code.typed,
                keyboard_type=ft.KeyboardType.NUMBER,
                max_length=7,
                dense=True,
                key="send-code",
            )
        )
    controls += [
        ft.FilledTonalButton(
            content=f"Send {n} finished match{'es' if n != 1 else ''} to the table",
            icon=ft.Icons.SEND,
            on_click=send,
            disabled=vm.busy or n == 0 or held is None,
        ),
        error_box(vm.error),
    ]
    if vm.line:
        controls.append(ft.Text(vm.line))
    return ft.Column(controls, spacing=8)
