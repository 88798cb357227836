"""What every game's table screen shows around its game: the question of which player this
phone is, a change of a finished match waiting for the other side, "Your turn", and a
watcher's line in place of the entries."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.shell.base import TableModel
from scorekeeper.ui.shell.widgets import on

__all__ = ["asked_part", "seat_question", "watching", "your_turn"]


def seat_question(table: TableModel) -> ft.Control:
    """ "This phone is: [Ann] [Ben] ... [nobody]": asked once of a phone that joined by the
    table code; its player's turn then lights it up (it can be changed by tapping a name
    in the players' row)."""
    players: list[str] = list(table.match.setup.players)
    buttons: list[ft.Control] = [ft.Text("This phone is:", weight=ft.FontWeight.BOLD)]
    buttons += [ft.OutlinedButton(content=f"I'm {p}", on_click=on(table.take_seat, p)) for p in players]
    buttons.append(ft.TextButton(content="Nobody's", on_click=on(table.take_seat, None), tooltip="It only scores"))
    # Wrapped, never scrolled: every name in sight, and nothing slides under the thumb.
    return ft.Row(buttons, spacing=6, run_spacing=4, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def asked_part(table: TableModel) -> list[ft.Control]:
    """A change of this finished match that one side asked for (see
    :mod:`scorekeeper.ui.shell.asks`): on a phone of a side it waits for (and the host's),
    Agree and Refuse; on the asking phone, Take back; on the others, what is asked."""
    asking = table.asks
    question = asking.question()
    if question is None:
        return []
    buttons: list[ft.Control] = []
    if asking.can_answer:
        buttons = [
            ft.FilledButton(content="Agree", icon=ft.Icons.CHECK, on_click=on(asking.agree), height=48),
            ft.OutlinedButton(content="Refuse", on_click=on(asking.decline), height=48),
        ]
    elif asking.is_mine:
        buttons = [ft.OutlinedButton(content="Take it back", on_click=on(asking.decline), height=48)]
    return [
        ft.Container(
            content=ft.Column([ft.Text(question, weight=ft.FontWeight.BOLD), ft.Row(buttons, wrap=True)], spacing=8),
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
            padding=12,
            border_radius=12,
            key="asked",
        )
    ]


def your_turn(table: TableModel, text: str | None) -> str | None:
    """``text`` with "Your turn, Ann." before it when it is this phone's player's turn."""
    if not table.my_turn:
        return text
    return f"Your turn, {table.seat}." + (f" {text}" if text else "")


def watching() -> ft.Control:
    """What a watcher's phone shows in the place of the entries."""
    return ft.Text("Watching: this phone sees the table; it cannot change it.", italic=True)
