"""The League screen (``/events/league``, the host's): link this app to a league (the link
of the secretary's QR code, or the league's address and the club's code), this club's
fixtures, one taken as an event here, and the sheets waiting to be sent (see
:mod:`scorekeeper.ui.events.league_model`)."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.ui.events.common import told, use_every
from scorekeeper.ui.events.league_model import FixtureLine, LeagueModel
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.policy import Act
from scorekeeper.ui.shell.widgets import error_box, go, heading, labelled, top_bar

__all__ = ["LeagueScreen"]

LeagueVM = ft.observable(LeagueModel)

#: Seconds between two looks at the outbox while the screen is shown (the sheets go in the background).
LOOK_EVERY = 2.0


def _use_looks(vm: LeagueModel) -> None:
    """Look at the outbox again every :data:`LOOK_EVERY` seconds while the screen is shown."""
    use_every(LOOK_EVERY, vm.tick)


def _field(vm: LeagueModel, label: str, name: str, hint: str) -> ft.Control:
    return ft.Row(
        [
            ft.TextField(
                label=label,
                value=getattr(vm, name),
                hint_text=hint,
                on_change=lambda e: vm.set(name, e.control.value),
                keyboard_type=ft.KeyboardType.URL if name == "typed" else ft.KeyboardType.TEXT,
                dense=True,
                expand=True,
            )
        ]
    )


def _link_form(vm: LeagueModel, again: bool) -> list[ft.Control]:
    async def connect(_: Any) -> None:
        await vm.connect()

    return [
        heading("Link to another league" if again else "Link to the league", 16),
        ft.Text(
            "Paste the link under the secretary's QR code (https://.../link#CODE), "
            "or the league's address and the club's code.",
            size=13,
        ),
        _field(vm, "League link or address", "typed", "https://league.example.org/link#CODE"),
        _field(vm, "Club's code (if the link has none)", "code", ""),
        ft.FilledButton(content="Link", icon=ft.Icons.LINK, on_click=connect, disabled=vm.busy, height=48),
    ]


def _fixture(shared: Shared, vm: LeagueModel, line: FixtureLine) -> ft.Control:
    async def take(_: Any) -> None:
        eid = await vm.take(line.id)
        if eid is not None:
            told(shared, vm)
            ft.context.page.navigate(f"/event/{eid}")

    tap: Any
    if line.event is not None:
        action: ft.Control = ft.TextButton(content="Open", on_click=go(f"/event/{line.event}"))
        label, tap = f"Open fixture {line.id}: {line.title}", go(f"/event/{line.event}")
    else:
        action = ft.FilledTonalButton(content="Take", on_click=take, disabled=vm.busy)
        label, tap = f"Take fixture {line.id}: {line.title}", take
    tile = ft.ListTile(
        title=ft.Text(f"{line.id}: {line.title}", weight=ft.FontWeight.BOLD),
        subtitle=ft.Text(line.when),
        trailing=action,
        on_click=tap,
    )
    return ft.Card(content=labelled(tile, label, tap))


@ft.component
def LeagueScreen(shared: Shared) -> ft.Control:
    vm, _ = ft.use_state(lambda: LeagueVM(shared))
    _use_looks(vm)

    async def first_look() -> None:  # linked already: this club's fixtures, asked as the screen opens
        if vm.allowed and vm.fixtures is None and vm.link() is not None:
            await vm.refresh()

    ft.use_effect(first_look, [])
    items: list[ft.Control] = [top_bar("League: fixtures and results")]
    if not vm.allowed:
        return ft.Column([*items, error_box(shared.may(Act.LEAGUE).words)])
    lk = vm.link()
    items.append(error_box(vm.error))
    if vm.note:
        items.append(ft.Text(vm.note, semantics_label=vm.note))
    if vm.busy:
        items.append(ft.Row([ft.ProgressRing(width=20, height=20), ft.Text("Asking the league ...")]))
    if lk is None:
        items += _link_form(vm, again=False)
        return ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)

    async def refresh(_: Any) -> None:
        await vm.refresh()

    linked = f"Linked to {lk.url} as {lk.club}"
    items += [ft.Text(linked, semantics_label=linked)]
    waiting, problem = vm.waiting(), vm.problem()
    if waiting:
        line = f"{waiting} sheet{'s' if waiting != 1 else ''} waiting to be sent" + (f": {problem}" if problem else "")
        items += [
            ft.Text(line, semantics_label=line),
            ft.TextButton(content="Send now", icon=ft.Icons.SEND, on_click=lambda e: vm.send_now()),
        ]
    else:
        items.append(ft.Text("No sheet waiting to be sent", semantics_label="No sheet waiting to be sent"))
    for why in vm.refusals():
        items.append(error_box(f"The league refused the sheet of {why}"))
    items.append(
        ft.FilledTonalButton(
            content="This club's fixtures", icon=ft.Icons.REFRESH, on_click=refresh, disabled=vm.busy, height=48
        )
    )
    if vm.fixtures is not None:
        if not vm.fixtures:
            items.append(ft.Text("The league has no fixtures for this club.", italic=True))
        items += [_fixture(shared, vm, f) for f in vm.fixtures]
    items += _link_form(vm, again=True)
    return ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
