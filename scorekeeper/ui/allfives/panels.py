"""The panels under the All Fives layout, one per phase of the table: entering a play
(the actions row, then the picker), the hand end, the next leader.

Every row above the picker has a fixed height, and the picker keeps every tile
of the set in the same cell, so a tile is where it was on every turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from scorekeeper.ui.allfives.layout_view import picker_grid
from scorekeeper.ui.allfives.play import PickerCell
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.allfives.tiles import tile_border
from scorekeeper.ui.shell.points_view import entry_buttons
from scorekeeper.ui.shell.widgets import PAD, Kept, heading, labelled, on

__all__ = ["ACTIONS_H", "hand_end_panel", "leader_panel", "play_panel", "typed"]

ACTIONS_H = 48  # the actions row's fixed height (px)


def typed(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A text field's change handler that calls ``fn(*args, text)``."""

    def handler(e: Any) -> None:
        fn(*args, e.control.value)

    return handler


def _actions(table: TableModel, kept: Kept | None = None) -> ft.Control:
    """The counts a player may have drawn (one tap for any number), Pass (when legal), Claims,
    Muggins!: one row of fixed height (the draws counted show in the message strip; Undo
    takes them back); ``kept``: the very component drawn last while they are the same."""
    play, claims = table.play, table.claims
    switch = table.rules.claims == "check" and not table.fixes.active
    args = (
        play.draw_counts if play.playing else 0,
        play.draws,
        (("Pass" if table.rules.draw else "Knock") if play.can_pass else None),  # no drawing: a knock
        claims.mode if switch else None,
        tuple(claims.muggins_callers()),
        Handlers(play.drew, play.pass_, claims.set_mode, claims.call_muggins),
    )
    if kept is None:
        return Actions(*args, key="actions")
    return kept("actions", args, lambda: Actions(*args, key="actions"))


@dataclass(frozen=True)
class Handlers:
    """The actions row's handlers: the view-model's bound methods (equal on every render)."""

    drew: Callable[[int], Any]
    pass_: Callable[[], Any]
    set_mode: Callable[[bool], Any]
    muggins: Callable[[str], Any]


COUNT_W = 44  # a count's button: a thumb's width


def _count(n: int, drawn: int, drew: Callable[[int], Any]) -> ft.Control:
    """The button of ``n`` tiles drawn (filled once that is the count; ``Drew 1`` spelt out)."""
    handler = on(drew, n)
    now = n == drawn
    box = ft.Container(
        content=ft.Text(
            f"Drew {n}" if n == 1 else str(n),
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.ON_PRIMARY if now else ft.Colors.PRIMARY,
            no_wrap=True,
        ),
        width=None if n == 1 else COUNT_W,
        height=40,
        padding=ft.Padding.symmetric(horizontal=10 if n == 1 else 0),
        alignment=ft.Alignment.CENTER,
        border=tile_border(1, ft.Colors.OUTLINE),
        border_radius=20,
        bgcolor=ft.Colors.PRIMARY if now else None,
        on_click=handler,
    )
    return labelled(box, f"Drew {n}", handler, selected=now)


@ft.component
def _Actions(
    counts: int, drawn: int, pass_: str | None, claims: bool | None, muggins: tuple[str, ...], do: Handlers
) -> ft.Control:
    """The actions row, redrawn only when it changes (``counts``: the most tiles that may be
    drawn this turn, one button each, ``drawn`` the one counted; ``pass_``: the words of the
    pass, when it is offered; ``claims``: the Claims switch's value, when it is shown)."""
    lead: list[ft.Control] = []
    if pass_ is not None:  # first: once the rest is drawn, it is what comes next
        lead.append(ft.FilledTonalButton(content=pass_, on_click=on(do.pass_)))
    for c in muggins:
        lead.append(
            ft.FilledButton(
                content=f"Muggins! ({c})",
                on_click=on(do.muggins, c),
                bgcolor=ft.Colors.ERROR,
                color=ft.Colors.ON_ERROR,
            )
        )
    counts_row = [_count(n, drawn, do.drew) for n in range(1, counts + 1)]
    items: list[ft.Control] = [
        *lead,
        ft.Container(
            content=ft.Row(counts_row, spacing=4, scroll=ft.ScrollMode.HIDDEN),
            expand=True,
            key="counts",
        ),
    ]
    if claims is not None:
        items.append(ft.Switch(label="Claims", value=claims, on_change=lambda e: do.set_mode(e.control.value)))
    return ft.Container(
        content=ft.Row(items, spacing=6),
        height=ACTIONS_H,
        alignment=ft.Alignment.CENTER_LEFT,
    )


Actions = ft.memo(_Actions)


def _claim_prompt(table: TableModel) -> ft.Control:
    """The points announced for the play waiting for them (in place of the picker)."""
    claims = table.claims
    assert claims.claiming is not None
    tile, where = claims.claiming
    buttons: list[ft.Control] = []
    for p in claims.choices():
        handler = on(claims.claim, p)
        buttons.append(labelled(ft.OutlinedButton(content=str(p), on_click=handler), f"claim {p}", handler))
    return _prompt(table, f"{tile}{f' on {where}' if where else ''}: points announced?", buttons, "claims")


def _prompt(table: TableModel, question: str, buttons: list[ft.Control], key: str) -> ft.Control:
    """A question about the play waiting, with its answers and Cancel (in place of the picker)."""
    buttons = [*buttons, ft.TextButton(content="Cancel", on_click=on(table.play.cancel))]
    return ft.Container(
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=PAD,
        border_radius=8,
        content=ft.Column([ft.Text(question, size=18), ft.Row(buttons, wrap=True)]),
        key=key,
    )


def _sniff_prompt(table: TableModel) -> ft.Control:
    """The sniff waiting for how it is set: across or in line, each with its count (in place
    of the picker); the drawing then shows it that way."""
    play = table.play
    assert play.sniffing is not None
    tile, where = play.sniffing
    buttons: list[ft.Control] = [
        ft.FilledButton(content=c.label, on_click=on(play.set_sniff, c.way), height=56) for c in play.sniff_choices()
    ]
    question = f"{tile}{f' on {where}' if where else ''} is the sniff: set it across or in line?"
    return _prompt(table, question, buttons, "sniff")


def play_panel(
    table: TableModel,
    width: float | None = None,
    short: bool = False,
    half: float | None = None,
    kept: Kept | None = None,
    cells: list[PickerCell] | None = None,
) -> list[ft.Control]:
    """The actions row and the picker (or the question waiting in its place); ``short``: the
    picker's tiles at their least size, on a screen too short for them and the drawing;
    ``half``: the tiles' half size the screen sets (a phone on its side); ``kept``: the
    table screen's parts drawn last, the actions row and the picker given again while
    they show the same; ``cells``: the picker's, where the screen has them already."""
    out: list[ft.Control] = [_actions(table, kept)]
    if table.play.sniffing:
        out.append(_sniff_prompt(table))
    elif table.claims.claiming:
        out.append(_claim_prompt(table))
    else:
        play = table.play
        shown = play.picker() if cells is None else cells
        out.append(picker_grid(shown, play.tap, width=width, short=short, on_place=play.place, half=half, kept=kept))
    return out


def hand_end_panel(table: TableModel, width: float | None = None) -> list[ft.Control]:
    """What each player holds (their tiles picked, or their pips typed), the tiles to pick
    from, then the settlement with its rounding and the button that enters it."""
    end = table.hand_end
    h = table.match.hand
    assert h is not None
    who = end.rule_leader()
    title = f"Hand {h.number} over: " + (f"{who} dominoed" if who else "blocked")
    asked = end.asked()
    ask = "What is left in hands? Tap the tiles or type the pips." if asked else "No tiles left to count."
    rows: list[ft.Control] = [heading(title, 18), ft.Text(ask)]
    if left_out := end.not_asked():  # the side that dominoed: its tiles change nothing
        them = " and ".join(f"{n}'s" for n in left_out)
        rows.append(ft.Text(f"{them} tiles do not count: not asked.", color=ft.Colors.ON_SURFACE_VARIANT))
    implied = end.implied()
    for name, held in asked:
        v = end.remaining.get(name)
        picked = v if isinstance(v, list) else []
        text = v if isinstance(v, str) else ""
        hint = f"the rest: {implied[1]}" if implied is not None and implied[0] == name else None
        tiles = "tile" if held == 1 else "tiles"
        rows.append(
            ft.Row(
                [
                    ft.Text(f"{name} ({held})", width=60, semantics_label=f"{name} holds {held} {tiles}"),
                    ft.OutlinedButton(
                        content=("Picking" if end.picking_for == name else f"Pick ({len(picked)} of {held})"),
                        on_click=on(end.pick_for, name),
                        tooltip=f"Pick {name}'s tiles",
                    ),
                    ft.TextField(
                        label=f"{name} pips",
                        value=text,
                        width=100,
                        dense=True,
                        keyboard_type=ft.KeyboardType.NUMBER,
                        on_change=typed(end.set_pips, name),
                        hint_text=hint,
                        key=f"pips-{h.number}-{name}",
                    ),
                ],
                wrap=True,
            )
        )
        if picked:
            rows.append(ft.Text(f"   {name}: {' '.join(picked)}", color=ft.Colors.ON_SURFACE_VARIANT))
    if end.picking_for:
        rows.append(ft.Text(f"Tap {end.picking_for}'s tiles:"))
        rows.append(
            picker_grid(  # the tiles not on the table: one of them is in a hand
                end.picking_cells(table.play.picker()),
                end.pick_remaining,
                key="remaining-picker",
                label="remaining tile",
                width=None if width is None else width - 2 * PAD - 4,
            )
        )
    lines, problem = end.settlement_preview()
    if lines:
        rows += [ft.Text(line, size=18, weight=ft.FontWeight.BOLD) for line in lines]
        if who is not None:
            rows.append(ft.Text(f"Then {who} leads hand {h.number + 1}."))
    elif problem:
        rows.append(ft.Text(problem, color=ft.Colors.ERROR, italic=True))
    else:
        waiting = end.waiting()
        if waiting:
            rows.append(ft.Text(f"Still to enter: {', '.join(waiting)}.", color=ft.Colors.ON_SURFACE_VARIANT))
    rows.append(ft.FilledButton(content="Settle hand", on_click=on(end.settle), disabled=not lines, height=52))
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
    named = end.rule_leader()
    if named is not None:  # the rules name the leader: one tap, nothing to choose
        button = ft.FilledButton(content=f"{named} leads hand {nxt}", on_click=on(end.start_hand, named), height=52)
        return [heading(f"Hand {table.hand_number} is over", 18), button, entry_buttons(table.entries)]
    suggested = end.suggested_leader()
    buttons: list[ft.Control] = [
        (ft.FilledButton if name == suggested else ft.OutlinedButton)(
            content=f"{name} leads", on_click=on(end.start_hand, name)
        )
        for name in table.match.setup.players
    ]
    buttons.append(ft.TextButton(content="Draw lots", on_click=on(end.start_hand, None)))
    return [heading(f"Hand {nxt}: who leads?", 18), ft.Row(buttons, wrap=True), entry_buttons(table.entries)]
