"""Correcting an entry of an All Fives match, on the table screen: the list of every
entry, hand by hand; then the entry re-entered the way it was entered (a turn on the
drawing and the picker as they were before it, a leader by a tap, what was left by
its pips); then what the correction changes, before it is saved."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.allfives.panels import play_panel, typed
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.shell.widgets import PAD, heading, labelled, on

__all__ = ["corrections_panel"]


def _list(table: TableModel) -> list[ft.Control]:
    fixes = table.fixes
    rows: list[ft.Control] = [
        ft.Row(
            [heading("Correct an entry", 18), ft.TextButton(content="Close", on_click=on(fixes.close))],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        ),
        ft.Text("Tap the entry to correct."),
    ]
    hand = 0
    for row in fixes.entries():
        if row.hand != hand and row.where != "adjust":  # an adjustment stands between hands
            hand = row.hand
            rows.append(ft.Text(f"Hand {hand}", weight=ft.FontWeight.BOLD))
        number = f"{row.where}." if isinstance(row.where, int) else ""
        handler = on(fixes.pick, row.hand, row.where)
        rows.append(
            labelled(
                ft.Container(
                    content=ft.Row(
                        [
                            ft.Text(number, width=28, color=ft.Colors.ON_SURFACE_VARIANT),
                            ft.Text(row.text, expand=True),
                            ft.Text(row.detail, color=ft.Colors.ON_SURFACE_VARIANT),
                            ft.Icon(ft.Icons.EDIT, size=18),
                        ]
                    ),
                    padding=ft.Padding.symmetric(horizontal=8, vertical=10),
                    border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
                    on_click=handler,
                    ink=True,
                ),
                row.label,
                handler,
            )
        )
    if len(rows) == 2:
        rows.append(ft.Text("Nothing entered yet."))
    return rows


def _proposal(table: TableModel) -> ft.Control:
    fixes = table.fixes
    return ft.Container(
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=PAD,
        border_radius=8,
        key="proposal",
        content=ft.Column(
            [
                ft.Text(
                    fixes.preview or "", size=16, weight=ft.FontWeight.BOLD, semantics_label=f"Change: {fixes.preview}"
                ),
                ft.Row(
                    [
                        ft.FilledButton(content="Save correction", on_click=on(fixes.save)),
                        ft.OutlinedButton(content="Enter it again", on_click=on(fixes.again)),
                    ],
                    wrap=True,
                ),
            ]
        ),
    )


_WHAT = {"leader": "leader", "points": "points"}


def _points_fix(table: TableModel) -> list[ft.Control]:
    """A hand entered as points, or an adjustment, corrected: each side's figure (and the
    reason of an adjustment) typed again."""
    fixes = table.fixes
    assert fixes.picked is not None
    hand, where = fixes.picked
    out: list[ft.Control] = [
        ft.TextField(
            label=side,
            value=text,
            width=160,
            dense=True,
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=typed(fixes.set_pips, side),
            key=f"fix-{where}-{hand}-{side}",
        )
        for side, text in fixes.pips.items()
    ]
    if where == "adjust":
        out.append(
            ft.TextField(
                label="Why", value=fixes.why, dense=True, on_change=typed(fixes.set_why), key=f"fix-why-{hand}"
            )
        )
    out.append(ft.FilledTonalButton(content="Count again", on_click=on(fixes.propose_points)))
    return out


def corrections_panel(table: TableModel) -> list[ft.Control]:
    fixes = table.fixes
    if fixes.picked is None:
        return _list(table)
    hand, where = fixes.picked
    what = f"turn {where}" if isinstance(where, int) else _WHAT.get(str(where), "tiles left")
    title = f"Correcting adjustment {hand}" if where == "adjust" else f"Correcting hand {hand}, {what}"
    out: list[ft.Control] = [
        ft.Row(
            [
                heading(title, 16),
                ft.TextButton(content="Cancel", on_click=on(fixes.close)),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        ),
        ft.Text(f"Now: {fixes.was()}", color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if fixes.draft is not None:
        out.append(_proposal(table))
        return out
    if isinstance(where, int):
        out.append(ft.Text(f"Tap what {table.to_move} did instead: the tile, its end, the draws or the pass."))
        out += play_panel(table)
    elif where in ("points", "adjust"):
        out += _points_fix(table)
    elif where == "leader":
        out.append(
            ft.Row(
                [
                    ft.OutlinedButton(content=f"{name} leads", on_click=on(fixes.set_leader, name))
                    for name in table.match.setup.players
                ],
                wrap=True,
            )
        )
    else:
        for name, held in fixes.holders():
            out.append(
                ft.TextField(
                    label=f"{name} pips ({held} tile{'s' if held != 1 else ''})",
                    value=fixes.pips.get(name, ""),
                    width=200,
                    dense=True,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=typed(fixes.set_pips, name),
                    key=f"fix-pips-{hand}-{name}",
                )
            )
        out.append(ft.FilledTonalButton(content="Count again", on_click=on(fixes.propose_remaining)))
    return out
