"""A second floor for ``tools/loadtest/ui_latency.py``: a table-shaped screen in plain Flet 1.0.

What a play changes on a domino table, with no rules and no app behind it: one
``@ft.component`` holding a count of plays in ``ft.use_state``. At each tap on the box
"Tap" (a tappable box without ink, as Scorekeeper's tiles are) the screen changes the way
a table's does at a play:

* the note (``count=N``, what the harness waits for) and the title (whose turn it is);
* the two players' chips: the one to play outlined, the tiles left in each hand;
* the count line and the scores;
* the drawing: one more laid tile (a box with its two digits, one semantics node),
  placed in rows in a box of its own, 18 plays to a hand, then an empty drawing;
* the picker: 28 cells, each keyed by its tile, the tiles played so far empty, the lit
  ones (those that "fit") changing at every play.

It is lighter than Scorekeeper's table (no top bar, no open ends' marks, no split cells, no
"15!", no row of draw buttons, smaller cells), and it is written the plain way: the whole
screen made again by the component at each play and diffed by Flet. Whatever a tap costs
here, on top of the minimal app's (``ui_baseline_app.py``), is what Flet's web client costs
a screen that changes at a play what a table's changes; ``ui_latency`` times its taps like
the minimal app's and prints ours against both.

    FLET_FORCE_WEB_SERVER=1 python -m tools.loadtest.ui_table_app PORT [HOST]

Served like ``scorekeeper web``: Flet's web server, ``no_cdn=True``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import flet as ft

HALF = 22  # a picker cell's half, px (Scorekeeper's phone cells are larger)
PLAYS = 18  # plays to a hand
NAMES = ("Ann", "Ben")
TILES = [(a, b) for a in range(7) for b in range(a + 1)]


def digits(a: int, b: int, half: float, horizontal: bool = False) -> ft.Control:
    """A tile's two digits and the line between them."""
    line = ft.Container(
        width=1 if horizontal else half * 0.8, height=half * 0.8 if horizontal else 1, bgcolor=ft.Colors.OUTLINE
    )
    parts = [ft.Text(str(d), size=half * 0.6, weight=ft.FontWeight.BOLD) for d in (a, b)]
    parts.insert(1, line)
    even = ft.MainAxisAlignment.SPACE_EVENLY
    if horizontal:
        return ft.Row(parts, spacing=0, alignment=even, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column(parts, spacing=0, alignment=even, horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def labelled(content: ft.Control, label: str, on_tap: Any = None) -> ft.Control:
    """One semantics node with exactly ``label``."""
    return ft.Semantics(content=content, label=label, button=on_tap is not None, on_tap=on_tap, exclude_semantics=True)


@ft.component
def Table() -> ft.Control:
    n, set_n = ft.use_state(0)
    play = n % PLAYS
    who = NAMES[play % 2]

    def tap() -> None:
        set_n(n + 1)

    chips = []
    for i, name in enumerate(NAMES):
        left = 9 - (play + 1 - i) // 2
        chips.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Icon(ft.Icons.PERSON, size=16),
                        ft.Text(name, weight=ft.FontWeight.BOLD),
                        ft.Text(f"{left} tiles"),
                    ],
                    spacing=4,
                    tight=True,
                ),
                padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                border_radius=16,
                border=ft.Border.all(2 if name == who else 1, ft.Colors.PRIMARY if name == who else ft.Colors.OUTLINE),
                key=f"chip-{name}",
            )
        )
    laid = []
    for j in range(play):
        a, b = TILES[(j * 5) % len(TILES)]
        horizontal = j % 2 == 0
        w, h = (2 * HALF, HALF) if horizontal else (HALF, 2 * HALF)
        laid.append(
            ft.Container(
                content=labelled(digits(a, b, HALF * 0.8, horizontal), f"{a}-{b} laid"),
                left=10 + (j % 6) * 50,
                top=10 + (j // 6) * 50,
                width=w,
                height=h,
                border=ft.Border.all(1, ft.Colors.OUTLINE),
                border_radius=4,
                bgcolor=ft.Colors.SURFACE,
                key=f"laid-{a}-{b}",
            )
        )
    cells: list[ft.Control] = []
    for i, (a, b) in enumerate(TILES):
        if i < play:
            cells.append(
                ft.Container(
                    width=HALF + 4,
                    height=2 * HALF + 4,
                    border_radius=6,
                    border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                    key=f"cell-{i}",
                )
            )
            continue
        fits = (i + play) % 5 == 0
        cells.append(
            ft.Container(
                content=labelled(digits(a, b, HALF), f"tile {a}-{b}", tap),
                width=HALF + 4,
                height=2 * HALF + 4,
                bgcolor=ft.Colors.PRIMARY_CONTAINER if fits else ft.Colors.SURFACE_CONTAINER_LOW,
                border=ft.Border.all(2, ft.Colors.PRIMARY if fits else ft.Colors.OUTLINE_VARIANT),
                border_radius=4,
                opacity=1.0 if fits else 0.45,
                on_click=tap,
                key=f"cell-{i}",
            )
        )
    return ft.Column(
        [
            ft.Text(f"count={n}", size=16),
            ft.Text(f"Hand {n // PLAYS + 1}, {who} to play", size=20, weight=ft.FontWeight.BOLD),
            ft.Row(chips, scroll=ft.ScrollMode.AUTO),
            ft.Text(f"Count {(play * 5) % 35}: ends 5, 3, 2", size=14),
            ft.Row([ft.Text(f"Ann {n * 5 // 2}", size=16), ft.Text(f"Ben {n * 5 // 3}", size=16)]),
            ft.Container(content=ft.Stack(laid), width=340, height=170, bgcolor=ft.Colors.SURFACE_CONTAINER),
            ft.Row(cells, wrap=True, spacing=4, run_spacing=4),
            ft.Container(
                content=labelled(ft.Text("Tap", size=16), "Tap", tap),
                on_click=tap,
                padding=10,
                width=80,
                border=ft.Border.all(1, ft.Colors.OUTLINE),
                border_radius=6,
            ),
        ],
        spacing=8,
    )


def main(page: ft.Page) -> None:
    page.title = "Table-shaped floor"
    page.render(Table)


if __name__ == "__main__":
    port = int(sys.argv[1])
    host = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
    os.environ.setdefault("FLET_FORCE_WEB_SERVER", "1")  # serve only: never open a browser
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True)
