"""The panels under the All Fives layout, one per phase of the table: entering a
play (prompts, draws, pass, claims, the picker), the hand end, the next leader,
and the corrections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.allfives.layout_view import TILE_W, PickerTile
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.widgets import PAD, heading, labelled, on, tile_button

__all__ = ["corrections_panel", "hand_end_panel", "leader_panel", "play_panel"]

Editing = tuple[int, int, str] | None


def _typed(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A text field's change handler that calls ``fn(*args, text)``."""

    def handler(e: Any) -> None:
        fn(*args, e.control.value)

    return handler


def _prompt(table: TableModel, question: str, buttons: list[ft.Control]) -> ft.Control:
    """A question about the entry being made, its answers and Cancel."""
    return ft.Container(
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=PAD,
        border_radius=8,
        content=ft.Column(
            [
                ft.Text(question),
                ft.Row([*buttons, ft.TextButton(content="Cancel", on_click=on(table.play.cancel))], wrap=True),
            ]
        ),
    )


def _prompts(table: TableModel) -> list[ft.Control]:
    prompts: list[ft.Control] = []
    play, claims = table.play, table.claims
    if play.choosing:
        tile, ends = play.choosing
        prompts.append(
            _prompt(
                table,
                f"{tile} fits {len(ends)} ends: tap the one it goes on (on the drawing or here)",
                [ft.FilledButton(content=f"on {end}", on_click=on(play.choose, end)) for end in ends],
            )
        )
    if claims.claiming:
        tile, where = claims.claiming
        buttons = []
        for p in claims.choices():
            handler = on(claims.claim, p)
            buttons.append(labelled(ft.OutlinedButton(content=str(p), on_click=handler), f"claim {p}", handler))
        prompts.append(_prompt(table, f"{tile}{' on ' + where if where else ''}: points announced?", buttons))
    callers = claims.muggins_callers()
    if callers:
        prompts.append(
            ft.Row(
                [
                    ft.FilledButton(
                        content=f"Muggins! ({c})",
                        on_click=on(claims.call_muggins, c),
                        bgcolor=ft.Colors.ERROR,
                        color=ft.Colors.ON_ERROR,
                    )
                    for c in callers
                ],
                wrap=True,
            )
        )
    return prompts


def play_panel(table: TableModel) -> list[ft.Control]:
    play, claims = table.play, table.claims
    out: list[ft.Control] = [ft.Column(_prompts(table), spacing=8, key="prompts")]
    # draw / pass / claims
    actions: list[ft.Control] = [
        ft.OutlinedButton(content="Draw +1", on_click=on(play.draw, 1), disabled=play.drawable == 0),
        ft.OutlinedButton(content="+3", on_click=on(play.draw, 3), disabled=play.drawable < 3, tooltip="Drew 3"),
    ]
    if play.draws:
        actions.append(
            ft.TextButton(
                content=f"Drew {play.draws} (clear)", on_click=on(play.clear_draws), tooltip="Clear the draws"
            )
        )
    if play.can_pass:
        actions.append(ft.FilledTonalButton(content="Pass", on_click=on(play.pass_)))
    if table.rules.claims == "check":
        actions.append(
            ft.Switch(label="Claims", value=claims.mode, on_change=lambda e: claims.set_mode(e.control.value))
        )
    out.append(ft.Row(actions, wrap=True, spacing=6, key="actions"))
    fits, others = play.picker()
    out.append(ft.Text(f"Fits an open end ({len(fits)})", weight=ft.FontWeight.W_500))
    out.append(
        ft.Row(
            [PickerTile(t, f"tile {t}", True, TILE_W, play.tap, key=f"fit-{t}") for t in fits],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
    )
    out.append(ft.Text(f"Other tiles not down ({len(others)})", color=ft.Colors.ON_SURFACE_VARIANT))
    out.append(
        ft.Row(
            [PickerTile(t, f"tile {t}", False, 30, play.tap, key=f"other-{t}") for t in others],
            wrap=True,
            spacing=4,
            run_spacing=4,
        )
    )
    return out


def hand_end_panel(table: TableModel) -> list[ft.Control]:
    end = table.hand_end
    h = table.match.hand
    assert h is not None
    who = table.match.setup.players[h.domino_player] if h.end == "domino" and h.domino_player is not None else None
    title = f"Hand {h.number} over: " + (f"{who} dominoed" if who else "blocked")
    rows: list[ft.Control] = [heading(title, 18), ft.Text("What is left in hands? Pick the tiles or type the pips.")]
    for name, held in end.holding():
        v = end.remaining.get(name)
        picked = v if isinstance(v, list) else []
        typed = v if isinstance(v, str) else ""
        rows.append(
            ft.Row(
                [
                    ft.Text(f"{name} ({held})", width=70, semantics_label=f"{name} holds {held}"),
                    ft.OutlinedButton(
                        content=("Picking" if end.picking_for == name else f"Pick {len(picked)}/{held}"),
                        on_click=on(end.pick_for, name),
                        tooltip=f"Pick {name}'s tiles",
                    ),
                    ft.TextField(
                        label=f"{name} pips",
                        value=typed,
                        width=100,
                        dense=True,
                        keyboard_type=ft.KeyboardType.NUMBER,
                        on_change=_typed(end.set_pips, name),
                        key=f"pips-{h.number}-{name}",
                    ),
                ],
                wrap=True,
            )
        )
        if picked:
            rows.append(ft.Text(f"   {name}: {' '.join(picked)}", color=ft.Colors.ON_SURFACE_VARIANT))
    lines, problem = end.settlement_preview()
    if lines:
        rows += [ft.Text(line, size=18, weight=ft.FontWeight.BOLD) for line in lines]
    elif problem:
        rows.append(ft.Text(problem, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    rows.append(ft.FilledButton(content="Settle hand", on_click=on(end.settle), disabled=not lines, height=52))
    if end.picking_for:
        _, others = table.play.picker()
        rows.append(ft.Text(f"Tap {end.picking_for}'s tiles:"))
        rows.append(
            ft.Row(
                [tile_button(t, on(end.pick_remaining, t), f"remaining tile {t}", fits=True, half=30) for t in others],
                wrap=True,
                spacing=4,
                run_spacing=4,
            )
        )
    return [
        ft.Container(
            content=ft.Column(rows, spacing=8),
            padding=PAD,
            border=ft.Border.all(2, ft.Colors.PRIMARY),
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )
    ]


def leader_panel(table: TableModel) -> list[ft.Control]:
    end = table.hand_end
    nxt = table.hand_number + 1
    suggested = end.suggested_leader()
    buttons: list[ft.Control] = [
        (ft.FilledButton if name == suggested else ft.OutlinedButton)(
            content=f"{name} leads", on_click=on(end.start_hand, name)
        )
        for name in table.match.setup.players
    ]
    buttons.append(ft.TextButton(content="Draw lots", on_click=on(end.start_hand, None)))
    return [heading(f"Hand {nxt}: who leads?", 18), ft.Row(buttons, wrap=True)]


def corrections_panel(table: TableModel, editing: Editing, set_editing: Callable[[Editing], None]) -> list[ft.Control]:
    rows: list[ft.Control] = [heading("Correct an entry", 18)]
    entries = table.fixes.entries()

    def save(hand: int, turn: int, text: str) -> None:
        table.fixes.correct(hand, turn, text)
        if table.error is None:
            set_editing(None)

    def edit(hand: int, turn: int, text: str) -> None:
        set_editing((hand, turn, text))

    for hand, turn, text in entries[-12:]:
        if editing and editing[:2] == (hand, turn):
            rows.append(
                ft.Column(
                    [
                        ft.TextField(
                            label=f"Hand {hand}, turn {turn}",
                            value=editing[2],
                            on_change=_typed(edit, hand, turn),
                            helper="e.g. 5-3 on 5-5, +2 5-3, pass, +3 pass",
                            key=f"edit-{hand}-{turn}",
                        ),
                        ft.Row(
                            [
                                ft.FilledButton(content="Save correction", on_click=on(save, hand, turn, editing[2])),
                                ft.TextButton(content="Cancel", on_click=on(set_editing, None)),
                            ]
                        ),
                    ]
                )
            )
        else:
            short = text.split(": ", 1)[1]
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{hand}.{turn}  {text}", expand=True),
                        ft.IconButton(
                            icon=ft.Icons.EDIT,
                            tooltip=f"Correct hand {hand} turn {turn}",
                            on_click=on(set_editing, (hand, turn, short)),
                        ),
                    ]
                )
            )
    if not entries:
        rows.append(ft.Text("No turns entered yet."))
    return rows
