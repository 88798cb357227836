"""Public building blocks of the screens (every game's and the shell's).

Every control a player touches carries a label (tooltips, button texts or
``ft.Semantics``) that screen readers -- and the browser tests -- find.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import flet as ft
import segno

from scorekeeper.ui.shell.screens import games_with_screens

__all__ = [
    "PAD",
    "Kept",
    "Viewport",
    "ViewportContext",
    "use_viewport",
    "cannot_open",
    "choice_row",
    "error_box",
    "game_choice",
    "go",
    "heading",
    "home_button",
    "labelled",
    "name_field",
    "on",
    "qr_svg",
    "score_chips",
    "svg_image",
    "top_bar",
    "winner_panel",
]

PAD = 12


@ft.observable
class Viewport:
    """The size of the page (the browser window, the phone's screen), kept up to date by
    the shell from the page's resize events: screens lay out to the width they have."""

    def __init__(self, width: float | None = None, height: float | None = None) -> None:
        self.width = float(width or 412)
        self.height = float(height or 915)

    def resize(self, width: float, height: float) -> None:
        if (width, height) != (self.width, self.height):
            self.width, self.height = float(width), float(height)

    @property
    def content_width(self) -> float:
        """The width inside the page's padding."""
        return max(240.0, self.width - 2 * PAD)


#: The page's :class:`Viewport`, for any component that lays out to the width it has.
ViewportContext = ft.create_context(Viewport())


C = TypeVar("C")


class Kept:
    """The controls a screen drew last, each under a name with what it showed (its look):
    a screen asks for a part by its name and look, and is given the very control it drew
    last where the look is the same, else the one ``make`` makes. Flet's diff passes over
    a control that is the same object as before without looking into it, where an equal
    new one is made, compared property by property and checked again.

    A look is a tuple of plain values (texts, numbers, flags, the view-model's rows and
    bound methods, compared with ``==``) and of controls (compared by identity: a part
    whose children were given again is the same, one with a new child is new). A look of
    None is never kept. Each control is given once a render, and only a control of the
    last render is given again (one that left the screen is never brought back): call
    :meth:`begin` as each render begins. One a screen, kept for as long as it is shown
    (``ft.use_ref(Kept)``)."""

    __slots__ = ("_last", "_now")

    def __init__(self) -> None:
        self._last: dict[str, tuple[tuple[Any, ...], Any]] = {}
        self._now: dict[str, tuple[tuple[Any, ...], Any]] = {}

    def begin(self) -> Kept:
        """A render begins: what the last one drew may be given again."""
        self._last, self._now = self._now, {}
        return self

    def __call__(self, name: str, look: tuple[Any, ...] | None, make: Callable[[], C]) -> C:
        """The part ``name`` that shows ``look``: the control drawn last, if it showed the
        same, else ``make()``."""
        was = self._last.pop(name, None)
        if look is None:
            return make()
        if was is not None and _same(was[0], look):
            control: C = was[1]
        else:
            control = make()
        self._now[name] = (look, control)
        return control


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two looks are the same: equal values, the same controls."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x is not y and (isinstance(x, ft.BaseControl) or isinstance(y, ft.BaseControl) or x != y):
            return False
    return True


def use_viewport() -> Viewport:
    """The page's size in a component (it renders again when the page is resized)."""
    return ft.use_context(ViewportContext)


def on(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A click handler that calls ``fn(*args)``: the arguments are bound now, not when
    the handler runs (a lambda in a loop would see the loop's last values)."""

    def handler(e: Any = None) -> None:
        fn(*args)

    return handler


def go(route: str) -> Callable[[Any], None]:
    """A click handler that opens ``route``."""

    def handler(e: Any = None) -> None:
        ft.context.page.navigate(route)

    return handler


def heading(text: str, size: int = 20) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def error_box(text: str | None) -> ft.Control:
    """The message of a refused entry, in place (nothing when there is none)."""
    if not text:
        return ft.Container(visible=False)
    return ft.Container(
        content=ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER, semantics_label=text),
        bgcolor=ft.Colors.ERROR_CONTAINER,
        padding=ft.Padding.all(10),
        border_radius=8,
    )


def cannot_open(message: str | None, back: str = "/", back_text: str = "Home") -> ft.Control:
    """The screen of a match that cannot be shown (unknown id, another game's match ...)."""
    return ft.Column(
        [heading("Cannot open this match"), error_box(message), ft.Button(content=back_text, on_click=go(back))]
    )


def labelled(
    content: ft.Control, label: str, on_tap: Any = None, selected: bool | None = None, key: str | None = None
) -> ft.Control:
    """One semantics node with exactly ``label`` (the content's own texts are not
    merged in), tappable by screen readers and the browser tests (``key``: the node's
    key in a list, see Flet's keyed reconciliation)."""
    return ft.Semantics(
        content=content,
        label=label,
        button=on_tap is not None,
        selected=selected,
        on_tap=on_tap,
        exclude_semantics=True,
        key=key,
    )


def choice_row(
    label: str, options: Sequence[tuple[str, Any]], current: Any, on_pick: Callable[[Any], Any]
) -> ft.Control:
    """A row of buttons for one option; the current one is filled."""
    buttons = []
    for text, value in options:
        selected = value == current
        handler = on(on_pick, value)
        btn = (
            ft.FilledButton(content=text, on_click=handler)
            if selected
            else ft.OutlinedButton(content=text, on_click=handler)
        )
        buttons.append(labelled(btn, f"{label}: {text}", handler, selected))
    return ft.Column(
        [ft.Text(label, weight=ft.FontWeight.W_500), ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)],
        spacing=4,
    )


def game_choice(current: str) -> ft.Control:
    """The Game row at the top of every new-match screen (the games of the registry)."""

    def pick(game: str) -> None:
        if game != current:
            ft.context.page.navigate(f"/new/{game}")

    return choice_row("Game", [(g.title, g.id) for g in games_with_screens()], current, pick)


def name_field(label: str, value: str, on_change: Callable[[str], Any], key: str) -> ft.Control:
    """A player's name on a new-match screen."""
    return ft.TextField(label=label, value=value, on_change=lambda e: on_change(e.control.value), dense=True, key=key)


def home_button() -> ft.Control:
    """The top bar's Home."""
    return ft.IconButton(icon=ft.Icons.HOME, tooltip="Home", on_click=go("/"))


def top_bar(
    title: str,
    *actions: ft.Control,
    home: ft.Control | None = None,
    key: str | None = None,
    height: float | None = None,
) -> ft.Control:
    """A table screen's top row: Home, what is going on (``title``), then the screen's icons
    (``home``: the Home button drawn last, where the screen keeps it; ``key``, ``height``:
    the row's, where the screen sets them)."""
    return ft.Row(
        [
            home if home is not None else home_button(),
            ft.Text(
                title,
                size=16,
                weight=ft.FontWeight.BOLD,
                expand=True,
                max_lines=2,  # a narrow phone: two lines rather than a title cut short
                overflow=ft.TextOverflow.ELLIPSIS,
                semantics_label=title.replace(" · ", ", "),
            ),
            *actions,
        ],
        spacing=0,
        key=key,
        height=height,
    )


def score_chips(scores: dict[str, int], after: str, wrap: bool = True) -> ft.Control:
    """Each side's score as a chip, then ``after`` (e.g. "to 250"); ``wrap=False``: one
    line of fixed height (it scrolls sideways when it is too long)."""
    chips: list[ft.Control] = [
        ft.Container(
            content=ft.Text(
                f"{side}: {score}", size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Score {side} {score}"
            ),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=ft.Padding.symmetric(horizontal=10, vertical=4),
            border_radius=12,
        )
        for side, score in scores.items()
    ]
    chips.append(ft.Text(after, color=ft.Colors.ON_SURFACE_VARIANT))
    if wrap:
        return ft.Row(chips, wrap=True, spacing=8)
    return ft.Row(chips, spacing=8, scroll=ft.ScrollMode.HIDDEN)


def back_to_event(route: str | None) -> list[ft.Control]:
    """The won match of an event's table leads back to the event's page (``route``), first."""
    if route is None:
        return []
    return [ft.FilledButton(content="Back to the event", icon=ft.Icons.EMOJI_EVENTS, on_click=go(route))]


def winner_panel(line: str, new_match: str, can_enter: bool = True, event: str | None = None) -> ft.Control:
    """The match is won: ``line`` says who, how and when; back to the event it was played
    for (``event``: its page), a new match (``new_match``: its route) or History (not on a
    watcher's phone: ``can_enter`` False)."""
    return ft.Container(
        content=ft.Column(
            [
                ft.Text(line, size=24, weight=ft.FontWeight.BOLD, semantics_label=f"Winner {line}"),
                ft.Row(back_to_event(event), visible=event is not None),
                ft.Row(
                    [
                        ft.OutlinedButton(content="New match", on_click=go(new_match)),
                        ft.OutlinedButton(content="History", on_click=go("/history")),
                    ],
                    visible=can_enter,
                ),
            ]
        ),
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
        padding=PAD,
        border_radius=12,
    )


def svg_image(
    svg: str, label: str, max_width: float = 390, grow: bool = False, max_height: float | None = None
) -> ft.Control:
    """An SVG drawing (from :mod:`scorekeeper.tally.svg`) shown at its own size
    (scaled down to ``max_width``; ``grow``: scaled to it, up or down; never higher than
    ``max_height``), read out as ``label``."""
    w_match = re.search(r'width="([\d.]+)"', svg)
    h_match = re.search(r'height="([\d.]+)"', svg)
    w = float(w_match.group(1)) if w_match else max_width
    h = float(h_match.group(1)) if h_match else max_width
    scale = max_width / w if grow else min(1.0, max_width / w)
    if max_height is not None:
        scale = min(scale, max_height / h)
    return ft.Image(src=svg, width=w * scale, height=h * scale, fit=ft.BoxFit.CONTAIN, semantics_label=label)


@functools.lru_cache(maxsize=64)
def qr_svg(text: str, border: int = 2) -> str:
    """``text`` as a QR code, black on white (a phone's camera reads it in any theme): one
    filled square per dark module (not strokes, which Flutter draws thinner, leaving gaps).
    Made once a text (the wall draws its QR code again every second while tables enter).

    >>> svg = qr_svg("http://192.168.1.20:8550/join/482913")
    >>> svg.startswith("<svg") and "stroke" not in svg
    True
    """
    matrix = segno.make(text, error="m").matrix
    size = len(matrix) + 2 * border
    squares = "".join(
        f"M{x + border} {y + border}h1v1h-1z" for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size * 8}" height="{size * 8}" viewBox="0 0 {size} {size}"'
        ' shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d="{squares}"/></svg>'
    )
