"""The panels under the Broadway grid, one per phase of the match: setting a tile
(the preview, the direction of the other half, pass / exposed, the tile picker),
the tiles left after a blocked hand and its penalties, who holds the next
hand's double, and the winner.  They draw what the table view-model
(:class:`~scorekeeper.ui.broadway.table.BroadwayTableModel`) says."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.broadway.table import BroadwayTableModel
from scorekeeper.ui.shell.table_view import asked_part
from scorekeeper.ui.shell.widgets import PAD, heading, labelled, on, winner_panel

__all__ = ["over_panel", "play_panel", "start_panel", "unplayed_panel"]


def _picker(t: BroadwayTableModel) -> list[ft.Control]:
    fits, others = t.picker()

    def btn(tile: str, strong: bool) -> ft.Control:
        handler = on(t.pick, tile)
        kind = ft.FilledButton if tile == t.tile else ft.OutlinedButton if strong else ft.TextButton
        return labelled(kind(content=tile, on_click=handler), f"tile {tile}", handler, tile == t.tile)

    out: list[ft.Control] = [
        ft.Text(f"Fits now ({len(fits)})", weight=ft.FontWeight.W_500),
        ft.Row([btn(x, True) for x in fits], wrap=True, spacing=4, run_spacing=4),
    ]
    if others:
        out += [
            ft.Text(f"Other tiles not down ({len(others)})", color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row([btn(x, False) for x in others], wrap=True, spacing=2, run_spacing=2),
        ]
    return out


def play_panel(t: BroadwayTableModel) -> list[ft.Control]:
    """Setting a tile: its preview ("Set it"), or what to tap next; pass, exposed; the picker."""
    out: list[ft.Control] = []
    line = t.preview_line()
    if line:
        out.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(line, size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Preview {line}"),
                        ft.Row(
                            [
                                ft.FilledButton(content="Set it", on_click=lambda e: t.confirm()),
                                ft.OutlinedButton(content="Turn round", on_click=lambda e: t.swap()),
                                ft.TextButton(content="Cancel", on_click=lambda e: t.cancel()),
                            ],
                            wrap=True,
                        ),
                    ]
                ),
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                padding=PAD,
                border_radius=8,
            )
        )
    elif t.tile and t.first is None:
        out.append(ft.Text(f"{t.tile}: tap the cell for its first half, then the cell next to it"))
    elif t.tile:
        ways = t.directions()
        out.append(
            ft.Text(
                f"{t.tile}: now the cell next to it for the other half"
                + (", or its direction:" if ways else " (no way fits here)")
            )
        )
        buttons = []
        for d in ways:
            handler = on(t.toward, d)
            buttons.append(labelled(ft.OutlinedButton(content=d, on_click=handler), f"Other half {d}", handler))
        if buttons:
            out.append(ft.Row(buttons, wrap=True))
    if t.pass_open:  # not on a hand's first turn: it can only set the double
        out.append(
            ft.Row(
                [
                    ft.FilledTonalButton(content="Pass", on_click=lambda e: t.pass_()),
                    ft.OutlinedButton(
                        content="Exposed",
                        on_click=lambda e: t.expose(),
                        tooltip="The player showed the picked tile: turn lost",
                        disabled=t.tile is None,
                    ),
                ],
                wrap=True,
            )
        )
    out += _picker(t)
    return out


def unplayed_panel(t: BroadwayTableModel) -> list[ft.Control]:
    """A blocked hand: the tiles each player has left (- / +), the penalties, "Settle hand"."""
    rows: list[ft.Control] = [heading(f"Hand {t.hand_number} blocked: tiles left", 18)]
    for name, held in t.held():
        n = t.unplayed.get(name, held)
        minus, plus = on(t.set_unplayed, name, n - 1), on(t.set_unplayed, name, n + 1)
        rows.append(
            ft.Row(
                [
                    ft.Text(f"{name}: {n}", width=120, semantics_label=f"{name} left {n}"),
                    labelled(ft.IconButton(icon=ft.Icons.REMOVE, on_click=minus), f"{name} fewer", minus),
                    labelled(ft.IconButton(icon=ft.Icons.ADD, on_click=plus), f"{name} more", plus),
                ]
            )
        )
    pens, problem = t.penalty_preview()
    if pens is not None:
        text = "Penalties: " + ", ".join(f"{s} {v:+d}" for s, v in pens.items())
        rows.append(ft.Text(text, size=18, weight=ft.FontWeight.BOLD, semantics_label=text))
    elif problem:
        rows.append(ft.Text(problem, italic=True))
    rows.append(ft.FilledButton(content="Settle hand", on_click=lambda e: t.settle(), disabled=pens is None))
    return rows


def start_panel(t: BroadwayTableModel) -> list[ft.Control]:
    """Between hands: who holds the next hand's double (that player leads)."""
    nxt = t.hand_number + 1
    d = t.double
    sd = " (sudden death)" if t.sudden_death() else ""
    return [
        heading(f"Hand {nxt}{sd} on {d}: who holds it?", 18),
        ft.Row(
            [ft.OutlinedButton(content=f"{n} holds {d}", on_click=on(t.start_hand, n)) for n in t.players],
            wrap=True,
        ),
    ]


def over_panel(t: BroadwayTableModel) -> list[ft.Control]:
    """The match is won: who won, how and when; a new match, History."""
    return [*asked_part(t), winner_panel(t.winner_line() or "", "/new/broadway", t.can_enter, t.event_route())]
