"""What every game's screens show of a match carried on from paper: New match's "Scores
so far", and on a table (and on Score) a hand entered as points and "Adjust score". They
draw what :class:`~scorekeeper.ui.shell.form.FormModel` and
:class:`~scorekeeper.ui.shell.points.PointsPart` say."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.ui.shell.form import FormModel
from scorekeeper.ui.shell.points import ADJUST, POINTS, PointsPart
from scorekeeper.ui.shell.widgets import choice_row, heading, on

__all__ = ["carried_part", "entry_buttons", "entry_panel"]


def _typed(fn: Any, *args: Any) -> Any:
    """An ``on_change`` that hands the field's text to ``fn(*args, text)``."""

    def handler(e: Any) -> None:
        fn(*args, e.control.value or "")

    return handler


def carried_part(form: FormModel) -> list[ft.Control]:
    """New match's "Scores so far" (off by default): on, a field per side for the score it
    carries in from paper (empty: 0)."""
    out: list[ft.Control] = [
        ft.Switch(
            label="Scores so far (a match carried on from paper)",
            value=form.carry,
            on_change=lambda e: form.set_carry(bool(e.control.value)),
        )
    ]
    if not form.carry:
        return out
    sides = form.carried_sides()
    fields: list[ft.Control] = [
        ft.TextField(
            label=f"{side} so far",
            value=form.carried[i] if i < len(form.carried) else "",
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=_typed(form.set_carried, i),
            dense=True,
            width=160,
            key=f"carried-{i}-{len(sides)}",
        )
        for i, side in enumerate(sides)
    ]
    out.append(ft.Row(fields, wrap=True, spacing=8, run_spacing=8))
    return out


def entry_buttons(part: PointsPart, *, points: bool = True, adjust: bool = True) -> ft.Control:
    """The buttons that open the forms: "Hand as points" and "Adjust score"."""
    buttons: list[ft.Control] = []
    if points:
        buttons.append(
            ft.OutlinedButton(
                content=f"Hand {part.next_number()} as points",
                icon=ft.Icons.CALCULATE,
                on_click=on(part.open_points),
                tooltip="Enter a hand as each side's points",
            )
        )
    if adjust:
        buttons.append(
            ft.OutlinedButton(
                content="Adjust score",
                icon=ft.Icons.EXPOSURE,
                on_click=on(part.open_adjust),
                tooltip="Give or take points, with a reason",
            )
        )
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=4, key="entry-buttons")


def _confirm(part: PointsPart) -> list[ft.Control]:
    """A hand begun tile by tile: asked before what was entered of it is dropped."""
    return [
        ft.Text(f"Enter hand {part.next_number()} as points instead? {str(part.dropped()).capitalize()} is dropped."),
        ft.Row(
            [
                ft.FilledButton(content="Drop it, enter as points", on_click=on(part.confirm), height=48),
                ft.OutlinedButton(content="Keep the hand", on_click=on(part.close), height=48),
            ],
            wrap=True,
        ),
    ]


#: A step button as narrow as its words: a field and four steps make one row on a phone.
_STEP = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=6))


def _side_row(part: PointsPart, i: int, side: str) -> ft.Control:
    """One side's field, with the game's quick steps after it when entering points."""
    field = ft.TextField(
        label=side,  # the form's heading and its line say what is typed: points, or the change
        value=part.typed[i],
        keyboard_type=ft.KeyboardType.NUMBER,
        on_change=_typed(part.set_text, i),
        dense=True,
        width=112,
        key=f"entry-{part.mode}-{i}-{part.fresh}",
    )
    controls: list[ft.Control] = [field]
    if part.mode == POINTS:
        controls += [
            ft.TextButton(content=name, on_click=on(part.step, i, n), tooltip=f"{side} {name}", style=_STEP)
            for name, n in part.steps
        ]
    return ft.Row(controls, wrap=True, spacing=4, run_spacing=2, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def entry_panel(part: PointsPart) -> list[ft.Control]:
    """The open form (nothing when none is): a field per side, the steps, who got there first
    where two sides reach the target, the reason of an adjustment, Save and Cancel."""
    if part.mode is None:
        return []
    body: list[ft.Control] = [heading(part.title(), 18)]
    if part.confirming:
        body += _confirm(part)
    else:
        sides = part.sides
        if part.mode == POINTS:
            body.append(ft.Text("Each side's points in the hand, all in (0 for none).", italic=True))
        else:
            body.append(ft.Text("The sides it changes: +10 gives 10, -10 takes 10 off.", italic=True))
        body += [_side_row(part, i, side) for i, side in enumerate(sides)]
        reaching = part.reaching()
        if len(reaching) > 1:
            body.append(choice_row("Got there first", [(s, s) for s in reaching], part.first, part.set_first))
        if part.mode == ADJUST:
            body.append(
                ft.TextField(
                    label="Why (a misdeal, a penalty agreed ...)",
                    value=part.why,
                    on_change=_typed(part.set_why),
                    dense=True,
                    max_length=120,
                    key=f"entry-why-{part.fresh}",
                )
            )
        body.append(
            ft.Row(
                [
                    ft.FilledButton(content="Save", icon=ft.Icons.CHECK, on_click=on(part.save), height=48),
                    ft.OutlinedButton(content="Cancel", on_click=on(part.close), height=48),
                ],
                wrap=True,
            )
        )
    return [
        ft.Container(
            content=ft.Column(body, spacing=8),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=12,
            border_radius=12,
            key=f"entry-{part.mode}",
        )
    ]
