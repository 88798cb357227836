"""The host's list of the seats at the table: which phone holds each ("Ann: Chrome on
Android, joined 20:14"), at every match and event, and the host's Free (the phone that held
it is told, and another phone may take the seat)."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.events.book import seat_key
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.policy import Act
from scorekeeper.ui.shell.widgets import heading

__all__ = ["Seats", "place_titles"]


def place_titles(shared: Shared, places: list[str]) -> dict[str, str]:
    """What each place is, for people: a match's title and players, an event's name; a place
    that is gone is left out (its seats are not shown)."""
    out: dict[str, str] = {}
    with shared.lock:
        try:
            events = {seat_key(e.id): e.name for e in shared.events.events()}
        except ScorekeeperError:
            events = {}
        for place in places:
            if place in events:
                out[place] = f"Event: {events[place]}"
                continue
            try:
                summary = shared.store.summary(place)
            except ScorekeeperError:
                continue
            players = " · ".join(summary.get("players") or [])
            title = summary.get("title")
            out[place] = f"{title}: {players}" if title else players
    return out


@ft.component
def Seats(shared: Shared) -> ft.Control:
    """Every seat held, place by place, each with its phone and the host's Free."""
    freed, set_freed = ft.use_state(0)
    gate = shared.gate
    if gate is None or not shared.may(Act.SEATS).allowed:
        return ft.Container()
    seating = gate.passes.seating()
    titles = place_titles(shared, list(dict.fromkeys(place for place, _, _ in seating)))
    items: list[ft.Control] = [heading("Seats")]
    if not any(place in titles for place, _, _ in seating):
        items.append(ft.Text("No phone holds a seat yet: a phone says who it is at its table (I'm Ann)."))
    for place, title in titles.items():
        items.append(ft.Text(title, weight=ft.FontWeight.BOLD))
        for where, player, holder in seating:
            if where != place:
                continue

            def free(_: Any, where: str = where, player: str = player) -> None:
                shared.free_seat(where, player)
                set_freed(freed + 1)

            items.append(
                ft.Row(
                    [
                        ft.Text(f"{player}: {holder.words()}", expand=True),
                        ft.OutlinedButton(
                            content="Free", on_click=free, tooltip=f"Free {player}'s seat: another phone may take it"
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
    items.append(
        ft.Text(
            "A seat is held by one phone. Free it when a player changes phones; the phone that held it is told.",
            italic=True,
        )
    )
    return ft.Column(items, spacing=6)
