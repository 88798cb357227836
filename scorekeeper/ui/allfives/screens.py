"""The All Fives screens for the app shell (see ``scorekeeper/ui/base.py``'s
``GameScreens``): a new match (``/new/all-fives``) and the table (``/table/<id>``
of an All Fives match). They draw what the view-models say; no rule lives here.

The table, top to bottom: the top bar, the scores, the players and the boneyard,
"15!" after a scoring play, what the last entry did, an error in place, the
layout with its open ends, the count as a sum, then the panel of the phase:
entering a play, the hand end, the next leader, the winner (or the corrections).
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.allfives.history import history_blocks
from scorekeeper.ui.allfives.layout_view import count_line, layout_view
from scorekeeper.ui.allfives.new_match_view import NewMatch
from scorekeeper.ui.allfives.panels import Editing, corrections_panel, hand_end_panel, leader_panel, play_panel
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.base import Shared
from scorekeeper.ui.widgets import PAD, cannot_open, error_box, go, score_chips, top_bar

__all__ = ["BLURB", "NewMatch", "Table", "history_blocks"]

BLURB = "All Fives at the table: enter each tile as it is set"

# The view-model, observable: assigning ``revision`` (done by every action) redraws.
TableVM = ft.observable(TableModel)


def _players_strip(table: TableModel) -> ft.Control:
    items: list[ft.Control] = []
    for p in table.players:
        items.append(
            ft.Container(
                content=ft.Text(
                    f"{p.name} · {p.held} tile{'s' if p.held != 1 else ''}{' · to play' if p.to_move else ''}",
                    weight=ft.FontWeight.BOLD if p.to_move else None,
                    semantics_label=f"{p.name} holds {p.held} tiles{', to play' if p.to_move else ''}",
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if p.to_move else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                border_radius=8,
            )
        )
    items.append(ft.Text(f"Boneyard {table.boneyard}", semantics_label=f"Boneyard {table.boneyard}"))
    return ft.Row(items, wrap=True, spacing=6)


def _over_panel(table: TableModel) -> list[ft.Control]:
    return [
        ft.Container(
            content=ft.Column(
                [
                    ft.Text(
                        f"{table.winner} wins the match!",
                        size=28,
                        weight=ft.FontWeight.BOLD,
                        semantics_label=f"Winner {table.winner}",
                    ),
                    ft.Row(
                        [
                            ft.FilledButton(content="Score", on_click=go(f"/score/{table.mid}")),
                            ft.OutlinedButton(content="New match", on_click=go("/new/all-fives")),
                        ]
                    ),
                ]
            ),
            bgcolor=ft.Colors.PRIMARY_CONTAINER,
            padding=PAD,
            border_radius=12,
        )
    ]


def _status(table: TableModel) -> str:
    phase = table.phase
    if phase == "play":
        return f"{table.to_move} to play"
    if phase == "hand-end":
        return "hand over"
    if phase == "leader":
        return "next hand"
    return f"{table.winner} won"


@ft.component
def Table(shared: Shared, mid: str) -> ft.Control:
    def make() -> TableModel | str:
        try:
            return TableVM(shared, mid)
        except ScorekeeperError as e:
            return str(e)

    # (annotated: mypy cannot infer Flet's use_state from a factory)
    made: tuple[TableModel | str, object] = ft.use_state(make)
    table = made[0]
    show_fixes, set_show_fixes = ft.use_state(False)
    fixing: tuple[Editing, Callable[[Editing], None]] = ft.use_state(None)
    editing, set_editing = fixing
    if isinstance(table, str):
        return cannot_open(table)
    phase = table.phase
    top = top_bar(
        f"Hand {table.hand_number} · {_status(table)}",
        ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=lambda e: table.undo()),
        ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=lambda e: table.redo()),
        ft.IconButton(
            icon=ft.Icons.EDIT_NOTE, tooltip="Correct an entry", on_click=lambda e: set_show_fixes(not show_fixes)
        ),
        ft.IconButton(icon=ft.Icons.LEADERBOARD, tooltip="Score", on_click=go(f"/score/{mid}")),
    )
    # The same keyed items in the same order on every render: Flet then patches
    # only what changed instead of re-sending the drawing and the picker.
    drawing = table.drawing()
    body: list[ft.Control] = [
        ft.Container(content=top, key="top"),
        ft.Container(content=score_chips(table.scores, f"to {table.target}"), key="scores"),
        ft.Container(content=_players_strip(table), key="players"),
        ft.Text(
            table.flash or "",
            size=44,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
            semantics_label=f"Scored {table.flash}" if table.flash else None,
            visible=bool(table.flash),
            key="flash",
        ),
        ft.Text(
            table.note or "",
            semantics_label=f"Note: {table.note}" if table.note else None,
            visible=bool(table.note),
            key="note",
        ),
        ft.Container(content=error_box(table.error), key="error"),
        ft.Container(content=layout_view(table, drawing), key="layout"),
        ft.Container(content=count_line(drawing), key="count"),
    ]
    panel: list[ft.Control]
    if show_fixes:
        panel, kind = corrections_panel(table, editing, set_editing), "fixes"
    elif phase == "play":
        panel, kind = play_panel(table), "play"
    elif phase == "hand-end":
        panel, kind = hand_end_panel(table), "hand-end"
    elif phase == "leader":
        panel, kind = leader_panel(table), "leader"
    else:
        panel, kind = _over_panel(table), "over"
    body.append(ft.Column(panel, spacing=8, key=f"panel-{kind}"))
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
