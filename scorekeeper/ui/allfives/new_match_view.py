"""The All Fives new-match screen (``/new/all-fives``)."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from scorekeeper.allfives.presets import HAND_SIZE_TABLES
from scorekeeper.ui.allfives.form import COUNTS_OFFERED, PRESETS, RULE_CHOICES, RULE_WORDS, NewMatchForm
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.points_view import carried_part
from scorekeeper.ui.shell.widgets import choice_row, error_box, game_choice, go, heading, name_field, on

__all__ = ["NewMatch"]

NewMatchVM = ft.observable(NewMatchForm)


def _rule_typed(form: NewMatchForm, key: str) -> Any:
    def handler(e: Any) -> None:
        form.set_rule(key, e.control.value)

    return handler


def _explained(control: ft.Control, line: str) -> ft.Control:
    """A rule option with the line of plain words that says what it does."""
    return ft.Column([control, ft.Text(line, size=12, color=ft.Colors.ON_SURFACE_VARIANT)], spacing=2)


def _rule_options(form: NewMatchForm) -> list[ft.Control]:
    """Every rule option, in plain words: the numbers as fields, the others as rows of choices."""
    rules = form.rules()
    opts: list[ft.Control] = []
    for key in ("hand_size", "target"):
        default = form.default_of(key)
        words = RULE_WORDS[key]
        opts.append(
            _explained(
                ft.TextField(
                    label=words.name,
                    value=str(form.overrides.get(key, "" if default is None else default)),
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=_rule_typed(form, key),
                    dense=True,
                    width=160,
                    # A new field when the default moves (target 250 -> 61 at scale 5): changing
                    # the text of the same field from the server raced the client, which sent
                    # its old text back as typed.
                    key=f"rule-{key}-{default}",
                ),
                words.line,
            )
        )
    for key, choices in RULE_CHOICES.items():
        current = getattr(rules, key, None) if rules is not None else form.overrides.get(key)
        words = RULE_WORDS[key]
        opts.append(
            _explained(
                choice_row(words.name, [(words.values[c], c) for c in choices], current, partial(form.set_rule, key)),
                words.line,
            )
        )
    return opts


@ft.component
def NewMatch(shared: Shared) -> ft.Control:
    form, _ = ft.use_state(lambda: NewMatchVM(shared))
    show_rules, set_show_rules = ft.use_state(False)
    rules_error = form.rules_error()
    n = len(form.names)

    def start(e: Any) -> None:
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    known = [k for k in form.known if k not in form.names][:8]
    suggestions = (
        ft.Row(
            [ft.Text("Earlier players:")]
            + [ft.TextButton(content=k, on_click=on(form.use_known, k), tooltip=f"Use name {k}") for k in known],
            wrap=True,
        )
        if known
        else ft.Container(visible=False)
    )
    controls: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/")), heading("New match")]),
        game_choice("all-fives"),
        choice_row("Players", [(str(k), k) for k in COUNTS_OFFERED], n, form.set_count),
        *[
            name_field(f"Player {i + 1}", name, partial(form.set_name, i), f"name-{i}-{n}")
            for i, name in enumerate(form.typed)
        ],
        suggestions,
    ]
    if n == 4:
        controls.append(
            ft.Switch(
                label="Partnerships (1 & 3 against 2 & 4)",
                value=form.partners,
                on_change=lambda e: form.set_partners(e.control.value),
            )
        )
    controls.append(choice_row("Rules", [(p.title, key) for key, p in PRESETS.items()], form.preset, form.set_preset))
    controls.append(ft.Text(form.preset_line(), italic=True, key="preset-line"))
    controls.append(
        choice_row(
            "Hand sizes",
            [(label, key) for key, label in HAND_SIZE_TABLES.items()],
            form.hand_sizes,
            form.set_hand_sizes,
        )
    )
    controls.append(
        ft.TextButton(
            content=("Hide rule options" if show_rules else "All rule options"),
            icon=ft.Icons.EXPAND_LESS if show_rules else ft.Icons.EXPAND_MORE,
            on_click=lambda e: set_show_rules(not show_rules),
        )
    )
    if show_rules:
        controls.append(
            ft.Container(content=ft.Column(_rule_options(form), spacing=10), padding=ft.Padding.only(left=8))
        )
    leaders = [("Draw lots", None)] + [(nm, nm) for nm in form.names]
    controls.append(choice_row("First leader", leaders, form.leader, form.set_leader))
    if form.leader is None:
        controls.append(ft.Text("The lots are drawn when the match starts; the table says who won them."))
    controls += carried_part(form)
    controls.append(error_box(form.error or rules_error))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)
