"""The All Fours screens (for the app shell; see ``scorekeeper/ui/shell/screens.py``'s
GameScreens): a new match (``/new/all-fours``) and the hand screen
(``/table/<id>`` of an All Fours match).  They draw what the view-models
(:mod:`~scorekeeper.ui.allfours.form`, :mod:`~scorekeeper.ui.allfours.table`)
say; no rule lives here.

The hand screen is one column, top to bottom: the scores and the pegboard (or
Seven Up's chips), what the last tap credited, the deal (turn-up card picker,
beg / give / run the pack), the end-of-hand facts (High, Low, Jack, Game --
one tap each; Game also by counting the cards), penalties, and the hands so far
(the parts are in :mod:`~scorekeeper.ui.allfours.hand_view`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.errors import message_of
from scorekeeper.ui.allfours.form import PLAYER_COUNTS, VARIANT_CHOICES, FoursNewMatchForm, variant_line
from scorekeeper.ui.allfours.hand_view import (
    board,
    deal_next,
    deal_section,
    end_section,
    penalty_section,
    winner_panel,
)
from scorekeeper.ui.allfours.table import FoursTableModel
from scorekeeper.ui.live.view import use_live
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.points_view import carried_part, entry_buttons, entry_panel
from scorekeeper.ui.shell.table_view import asked_part, watching
from scorekeeper.ui.shell.typed import Typed, use_typed
from scorekeeper.ui.shell.widgets import (
    PAD,
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

BLURB = "All Fours: the facts of each hand"


FoursFormVM = ft.observable(FoursNewMatchForm)
FoursTableVM = ft.observable(FoursTableModel)


# ----------------------------------------------------------------- new match
@ft.component
def NewMatch(shared: Shared) -> ft.Control:
    """The new-match screen: players, sides, variant, target, first dealer."""
    state, _ = ft.use_state(lambda: FoursFormVM(shared))
    form: FoursNewMatchForm = state
    n = len(form.names)

    def start(e: Any) -> None:
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    controls: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/")), heading("New match")]),
        game_choice("all-fours"),
        choice_row("Players", [(str(k), k) for k in PLAYER_COUNTS], n, form.set_count),
    ]
    for i, name in enumerate(form.typed):
        controls.append(name_field(f"Player {i + 1}", name, partial(form.set_name, i), f"fours-name-{i}-{n}"))
    controls.append(
        ft.Text("Sides: " + " against ".join(form.sides()) + ("  (partners sit opposite)" if form.teams() else ""))
    )
    controls.append(choice_row("Variant", VARIANT_CHOICES, form.variant, form.set_variant))
    default = form.default_target()

    def set_target(e: Any) -> None:  # the variant's own target stays "" (it follows the variant)
        text = e.control.value or ""
        form.set_target("" if text.strip() == str(default) else text)

    controls.append(ft.Text(variant_line(form.spec, default), color=ft.Colors.ON_SURFACE_VARIANT))
    controls.append(
        ft.TextField(
            label="target",
            value=form.target_text or str(default),
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=set_target,
            dense=True,
            width=160,
            key=f"fours-target-{form.variant}-{n}",
        )
    )
    dealers = [("Cut for deal", None), *((nm, nm) for nm in form.names)]
    controls.append(choice_row("First dealer", dealers, form.dealer, form.set_dealer))
    controls += carried_part(form)
    controls.append(error_box(form.error or form.target_error()))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


# ---------------------------------------------------------------- the hand
def _hand_panel(t: FoursTableModel, award_points: Typed) -> list[ft.Control]:
    """While a hand is entered: a win waiting for earlier facts, the hand's items, the facts to tap."""
    panel: list[ft.Control] = []
    pending = t.pending_note()
    if pending:
        panel.append(
            ft.Container(
                content=ft.Text(pending, semantics_label=f"Pending {pending}"),
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                padding=PAD,
                border_radius=8,
            )
        )
    items = t.items()
    panel.append(
        ft.Text(
            "This hand: " + ("; ".join(items) if items else "nothing credited yet"),
            semantics_label="This hand: " + ("; ".join(items) if items else "nothing"),
        )
    )
    deal = deal_section(t)
    if deal is not None:
        panel.append(deal)
    panel.append(end_section(t))
    panel.append(penalty_section(t, award_points))
    panel.append(entry_buttons(t.entries, adjust=False))
    return panel


@ft.component
def Table(shared: Shared, mid: str) -> ft.Control:
    """The hand screen of one All Fours match."""

    def make() -> Any:
        """The observable view-model, or why the match cannot be opened (a str)."""
        try:
            return FoursTableVM(shared, mid)
        except ScorekeeperError as e:
            return message_of(e)

    opened, _ = ft.use_state(make)
    award_points = use_typed("1")
    if isinstance(opened, str):
        return cannot_open(opened)
    t: FoursTableModel = opened
    use_live(t)
    phase = t.phase
    status = f"{t.dealer} deals" if phase == "hand" else "hand counted" if phase == "deal" else f"{t.winner} won"
    changes = [
        ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=on(t.undo)),
        ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=on(t.redo)),
    ]
    score = ft.IconButton(icon=ft.Icons.LEADERBOARD, tooltip="Score", on_click=go(f"/score/{mid}"))
    top = top_bar(f"Hand {t.hand_number} · {status}", *(changes if t.can_enter else []), score)
    body: list[ft.Control] = [
        ft.Container(content=top, key="top"),
        ft.Container(content=score_chips(t.scores, f"to {t.target}"), key="scores"),
        ft.Container(content=board(t), key="board"),
        ft.Text(
            t.note or "",
            size=18,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
            semantics_label=f"Credited {t.note}" if t.note else None,
            visible=bool(t.note),
            key="note",
        ),
        ft.Container(content=error_box(t.error), key="error"),
    ]
    panel: list[ft.Control]
    if phase == "over":
        panel = [*asked_part(t), winner_panel(t)]
    elif not t.can_enter:
        panel, phase = [watching()], "watch"
    elif t.entries.open:
        panel, phase = entry_panel(t.entries), "entries"
    elif phase == "deal":
        panel = [ft.Text(t.hand_lines()[0])] if t.hand else []
        panel += [*deal_next(t), entry_buttons(t.entries)]
    else:
        panel = _hand_panel(t, award_points)
    body.append(ft.Column(panel, spacing=10, key=f"panel-{phase}", horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    lines = t.hand_lines()
    if lines:
        hands: list[ft.Control] = [heading("Hands", 16), *(ft.Text(x, size=13) for x in lines)]
        body.append(ft.Container(content=ft.Column(hands, spacing=4), key="hands"))
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
