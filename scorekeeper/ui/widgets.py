"""Small building blocks shared by the screens (All Fives and All Fours)."""

from __future__ import annotations

import re

import flet as ft

PAD = 12


def _go(route: str):
    def handler(e=None):
        ft.context.page.navigate(route)

    return handler


def _heading(text: str, size: int = 20) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def _error(text: str | None) -> ft.Control:
    if not text:
        return ft.Container(visible=False)
    return ft.Container(
        content=ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER, semantics_label=text),
        bgcolor=ft.Colors.ERROR_CONTAINER,
        padding=ft.Padding.all(10),
        border_radius=8,
    )


def _labelled(content: ft.Control, label: str, on_tap=None, selected: bool | None = None) -> ft.Control:
    """One semantics node with exactly ``label`` (the content's own texts are not
    merged in), tappable by screen readers and the browser tests."""
    return ft.Semantics(
        content=content,
        label=label,
        button=on_tap is not None,
        selected=selected,
        on_tap=on_tap,
        exclude_semantics=True,
    )


def _choice_row(label: str, options: list[tuple[str, object]], current, on_pick) -> ft.Control:
    """A row of buttons for one option; the current one is filled."""
    buttons = []
    for text, value in options:
        selected = value == current
        handler = (lambda v: lambda e: on_pick(v))(value)
        btn = (
            ft.FilledButton(content=text, on_click=handler)
            if selected
            else ft.OutlinedButton(content=text, on_click=handler)
        )
        buttons.append(_labelled(btn, f"{label}: {text}", handler, selected))
    return ft.Column(
        [ft.Text(label, weight=ft.FontWeight.W_500), ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)],
        spacing=4,
    )


def _svg(svg: str, label: str, max_width: float = 390) -> ft.Control:
    """An SVG drawing (from :mod:`scorekeeper.tally.svg`) shown at its own size
    (scaled down to ``max_width``), read out as ``label``."""
    w = float(re.search(r'width="([\d.]+)"', svg).group(1))
    h = float(re.search(r'height="([\d.]+)"', svg).group(1))
    scale = min(1.0, max_width / w)
    return ft.Image(src=svg, width=w * scale, height=h * scale, fit=ft.BoxFit.CONTAIN, semantics_label=label)
