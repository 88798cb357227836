"""The list of events and New event: every option the command line's ``event new`` has,
each in the form's words, and the tie-breaks of the format said under it."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from scorekeeper import registry
from scorekeeper.ui.events.common import told
from scorekeeper.ui.events.new_event import LEGS, EventsModel, formats
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import choice_row, error_box, go, labelled, top_bar

__all__ = ["Events", "NewEvent"]

EventsVM = ft.observable(EventsModel)

#: The fields typed as numbers.
_NUMBERS = ("rounds", "target", "singles", "doubles")


@ft.component
def Events(shared: Shared) -> ft.Control:
    vm, _ = ft.use_state(lambda: EventsVM(shared))
    events = vm.events()
    items: list[ft.Control] = [top_bar("Events: club nights, tournaments, leagues")]
    if vm.error:
        items.append(error_box(vm.error))
    if vm.may_create:
        items.append(
            ft.FilledTonalButton(content="New event", icon=ft.Icons.ADD, on_click=go("/events/new"), height=56)
        )
    if vm.may_league:
        items.append(
            ft.TextButton(
                content="League: link, fixtures, results", icon=ft.Icons.CLOUD_SYNC, on_click=go("/events/league")
            )
        )
    if not events:
        items.append(ft.Text("No events yet.", italic=True))
    for e in reversed(events):
        tile = ft.ListTile(
            title=ft.Text(e.name, weight=ft.FontWeight.BOLD),
            subtitle=ft.Text(vm.line(e)),
            on_click=go(f"/event/{e.id}"),
        )
        items.append(ft.Card(content=labelled(tile, f"Open {e.name}", go(f"/event/{e.id}"))))
    return ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


@ft.component
def NewEvent(shared: Shared) -> ft.Control:
    vm, _ = ft.use_state(lambda: EventsVM(shared))

    def create(_: Any) -> None:
        eid = vm.create()
        if eid is not None:
            told(shared, vm)
            ft.context.page.navigate(f"/event/{eid}")

    def field(label: str, name: str, multiline: bool = False, hint: str | None = None) -> ft.Control:
        box = ft.TextField(
            label=label,
            value=getattr(vm, name),
            hint_text=hint,
            multiline=multiline,
            min_lines=3 if multiline else None,
            keyboard_type=ft.KeyboardType.NUMBER
            if name in _NUMBERS
            else (ft.KeyboardType.MULTILINE if multiline else ft.KeyboardType.TEXT),
            on_change=lambda e: vm.set(name, e.control.value),
            dense=True,
            expand=True,
        )
        return ft.Row([box])  # the screen's width: a long label on one line

    items: list[ft.Control] = [
        top_bar("New event"),
        field("Name of the event", "name", hint="Friday club night"),
        choice_row("Format", formats(), vm.format, partial(vm.set, "format")),
        ft.Text(vm.tie_breaks(), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        choice_row("Game", [(g.title, g.id) for g in registry.games()], vm.game, partial(vm.set, "game")),
        choice_row("Rules", vm.presets(), vm.preset, partial(vm.set, "preset")),
    ]
    if vm.league:
        items += [
            field(
                "Teams: one a line, the captain first; (vice) after the vice-captain",
                "teams",
                True,
                "Reds: Ann, Cy (vice), Ed",
            ),
            field("Singles games a fixture (empty: 9, or none with doubles)", "singles", hint="9"),
            field("Doubles games a fixture, partners opposite (empty: none)", "doubles", hint="4"),
            choice_row("The teams meet", LEGS, vm.legs, partial(vm.set, "legs")),
        ]
    else:
        items.append(field("Players, in seeding order (commas or one a line)", "players", True, "Ann, Ben, Cy, Di"))
    if vm.format == "swiss":
        items.append(field("Rounds (empty: as many as a round robin's, at most 5)", "rounds", hint="5"))
    items += [
        choice_row("Scoring", vm.scorings(), vm.scoring_chosen, partial(vm.set, "scoring")),
        field("Points to win a match (empty: the rules')", "target", hint="61"),
        error_box(vm.error),
        ft.FilledButton(content="Make the event", icon=ft.Icons.CHECK, on_click=create, height=56),
    ]
    return ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
