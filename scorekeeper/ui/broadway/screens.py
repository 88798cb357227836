"""The Broadway screens for the app shell (see ``scorekeeper/ui/shell/screens.py``'s
``GameScreens``): a new match (``/new/broadway``) and the table (``/table/<id>``
of a Broadway match).  They draw what the view-models
(:mod:`scorekeeper.ui.broadway.form`, :mod:`scorekeeper.ui.broadway.table`)
say; no rule lives here.

The table, top to bottom: the top bar (hand, double, whose turn; undo / redo),
the scores, the players and the tiles they hold, what the last entry did, an
error in place, the grid of half-tile cells (:mod:`~scorekeeper.ui.broadway.grid_view`:
it pans and zooms), the panel of the phase (:mod:`~scorekeeper.ui.broadway.panels`:
setting a tile with its preview before "Set it", pass / exposed, the tiles left
after a blocked hand, the next hand's leader, the winner), and the hand's turns.
"""

from __future__ import annotations

from functools import partial

import flet as ft

from scorekeeper.broadway.engine import SEATS
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.errors import message_of
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.broadway.grid_view import grid_view
from scorekeeper.ui.broadway.panels import over_panel, play_panel, start_panel, unplayed_panel
from scorekeeper.ui.broadway.table import BroadwayTableModel
from scorekeeper.ui.live.view import use_live
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.points_view import carried_part, entry_buttons, entry_panel
from scorekeeper.ui.shell.table_view import seat_question, watching, your_turn
from scorekeeper.ui.shell.widgets import (
    cannot_open,
    choice_row,
    error_box,
    game_choice,
    go,
    heading,
    name_field,
    on,
    score_chips,
    top_bar,
)

__all__ = ["BLURB", "NewMatch", "Table"]

BLURB = "Broadway: the grid"


# The view-models, observable: assigning ``revision`` (done by every action) redraws.
FormVM = ft.observable(BroadwayNewMatchForm)
TableVM = ft.observable(BroadwayTableModel)


# ----------------------------------------------------------------- new match
@ft.component
def NewMatch(shared: Shared) -> ft.Control:
    """Four names by seat, how tiles are set, the penalty for tiles left, who holds 6-6."""
    form: BroadwayNewMatchForm
    form, _ = ft.use_state(lambda: FormVM(shared))

    def start(e: object) -> None:
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    controls: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/")), heading("New match")]),
        game_choice("broadway"),
        ft.Text("Four players, North-South against East-West; seven hands on the doubles 6-6 down to 0-0."),
    ]
    for i, name in enumerate(form.typed):
        controls.append(name_field(SEATS[i], name, partial(form.set_name, i), key=f"bw-name-{i}"))
    controls.append(
        choice_row("Tiles set", [("by seat", "seat"), ("any way", "free")], form.orientation, form.set_orientation)
    )
    controls.append(
        ft.Text(
            "By seat: North and South set tiles East-West, East and West North-South.",
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
    )
    controls.append(
        choice_row(
            "Tiles left at the end",
            [("-1 each to the holder's side", "subtract"), ("+1 each to the other side", "to-opponents")],
            form.penalty,
            form.set_penalty,
        )
    )
    controls.append(choice_row("Who holds 6-6?", [(n, n) for n in form.names], form.leader, form.set_leader))
    controls += carried_part(form)
    controls.append(error_box(form.error))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


# --------------------------------------------------------------------- table
def _seats(t: BroadwayTableModel) -> ft.Control:
    """Each player with seat and tiles held; the player to move stands out."""
    return ft.Row(
        [
            ft.Container(
                content=ft.Text(
                    f"{n} ({SEATS[i][0]}) {held}",
                    weight=ft.FontWeight.BOLD if n == t.to_move else None,
                    semantics_label=f"{n} holds {held}{', to play' if n == t.to_move else ''}",
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if n == t.to_move else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                border_radius=8,
            )
            for i, (n, held) in enumerate(t.held())
        ],
        wrap=True,
        spacing=6,
    )


def _asking(t: BroadwayTableModel) -> ft.Control:
    """ "It is Ann's turn. Enter 6-5 for Ann?" [For Ann] [Cancel] on a phone that is Ben's."""
    if t.asking is None:
        return ft.Container()
    who = t.to_move or ""
    return ft.Container(
        content=ft.Row(
            [
                ft.Text(t.asking[0], expand=True),
                ft.FilledButton(content=f"For {who}", on_click=on(t.confirm_other)),
                ft.TextButton(content="Cancel", on_click=on(t.cancel)),
            ],
            wrap=True,
        ),
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        border_radius=8,
    )


def _open(shared: Shared, mid: str) -> BroadwayTableModel | str:
    """The table's view-model, or why the match cannot be shown."""
    try:
        model: BroadwayTableModel = TableVM(shared, mid)
        return model
    except ScorekeeperError as e:
        return message_of(e)


@ft.component
def Table(shared: Shared, mid: str) -> ft.Control:
    """The table of one Broadway match."""
    # (annotated: mypy cannot infer Flet's use_state from a factory returning a union)
    made: tuple[BroadwayTableModel | str, object] = ft.use_state(partial(_open, shared, mid))
    t = made[0]
    if isinstance(t, str):
        return cannot_open(t)
    use_live(t)
    phase = t.phase
    changes = [
        ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=on(t.undo)),
        ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=on(t.redo)),
    ]
    score = ft.IconButton(icon=ft.Icons.LEADERBOARD, tooltip="Score", on_click=go(f"/score/{mid}"))
    after = "sudden death: first to lead by 2" if t.sudden_death() else "seven hands"
    note = your_turn(t, t.note)
    body: list[ft.Control] = [
        ft.Container(content=top_bar(t.status(), *(changes if t.can_enter else []), score), key="top"),
        ft.Container(content=score_chips(t.scores, after), key="totals"),
        ft.Container(content=_seats(t), key="seats"),
        ft.Container(
            content=seat_question(t)
            if t.ask_seat and not t.note  # never over a play's note
            else ft.Text(note or "", semantics_label=(note if t.my_turn else f"Note: {note}") if note else None),
            visible=bool(note) or t.ask_seat,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if t.my_turn else None,
            padding=ft.Padding.symmetric(horizontal=6, vertical=4),
            border_radius=8,
            key="note",
        ),
        ft.Container(content=error_box(t.error), key="error"),
        ft.Container(content=_asking(t), visible=t.asking is not None, key="asking"),
        ft.Row(
            [
                ft.Text("North ^", color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                ft.IconButton(icon=ft.Icons.ZOOM_OUT, tooltip="Zoom out", on_click=lambda e: t.zoom_by(0.8)),
                ft.IconButton(icon=ft.Icons.ZOOM_IN, tooltip="Zoom in", on_click=lambda e: t.zoom_by(1.25)),
            ],
            key="zoom",
        ),
        ft.Container(content=grid_view(t), key="grid"),
    ]
    panels = {"play": play_panel, "unplayed": unplayed_panel, "start": start_panel}
    kind = phase if phase in panels else "over"
    panel: list[ft.Control]
    if kind != "over" and not t.can_enter:
        panel, kind = [watching()], "watch"
    elif kind != "over" and t.entries.open:
        panel, kind = entry_panel(t.entries), "entries"
    else:
        panel = panels.get(phase, over_panel)(t)
        if kind != "over":  # between hands both; while a hand is played, the hand as points
            panel.append(entry_buttons(t.entries, adjust=kind == "start"))
    body.append(ft.Column(panel, spacing=8, key=f"panel-{kind}"))
    lines = t.turn_lines()
    if lines:
        title = "This hand" if phase in ("play", "unplayed") else f"Hand {t.hand_number}"
        body.append(
            ft.Container(
                content=ft.Column([heading(title, 16), *(ft.Text(x, size=13) for x in lines)], spacing=2), key="turns"
            )
        )
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
