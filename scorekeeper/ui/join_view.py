"""Getting in: the join screen (all a browser without a code ever sees), the host's
invitation (the QR codes of the table code and the watch code) and a watcher's Home.
"""

from __future__ import annotations

from typing import Any

import flet as ft
import segno

from scorekeeper.ui.access import Visitor, spaced
from scorekeeper.ui.base import Shared, game_title
from scorekeeper.ui.widgets import error_box, go, heading, svg_image

__all__ = ["Invite", "Join", "WatchHome", "qr_svg"]


def qr_svg(text: str, border: int = 2) -> str:
    """``text`` as a QR code, black on white (a phone's camera reads it in any theme): one
    filled square per dark module (not strokes, which Flutter draws thinner, leaving gaps).

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


@ft.component
def Join(visitor: Visitor) -> ft.Control:
    """The one screen of a browser that has not given a code: nothing of any match."""
    code, set_code = ft.use_state("")

    def join(e: Any = None) -> None:
        if visitor.join(code):
            ft.context.page.navigate("/")

    return ft.Column(
        [
            heading("Scorekeeper", 28),
            heading("Join the table"),
            ft.Text("Type the table code shown on the host's screen, or scan its QR code with the camera."),
            ft.TextField(
                label="Table code",
                value=code,
                key="code",
                keyboard_type=ft.KeyboardType.NUMBER,
                text_size=24,
                on_change=lambda e: set_code(e.control.value),
                on_submit=join,
            ),
            ft.FilledButton(content="Join", icon=ft.Icons.LOGIN, on_click=join, height=56),
            error_box(visitor.error),
        ],
        spacing=16,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


def _code_block(title: str, link: str, code: str | None, size: int, note: str) -> ft.Control:
    items: list[ft.Control] = [heading(title)]
    items.append(svg_image(qr_svg(link), f"QR code: {link}", max_width=size))
    if code is not None:
        items.append(ft.Text(spaced(code), size=32, weight=ft.FontWeight.BOLD, semantics_label=f"{title} code {code}"))
    items += [ft.Text(link, selectable=True, semantics_label=f"{title} link {link}"), ft.Text(note)]
    return ft.Column(items, horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=8)


@ft.component
def Invite(shared: Shared) -> ft.Control:
    """The QR codes that let phones in: the table code (scorers) and the watch code."""
    back = ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/"))
    invite = shared.invite
    if invite is None:
        body: list[ft.Control] = [
            ft.Text(
                "This app is not served to phones. Run `scorekeeper web` (or `make run`) "
                "and open the address it prints."
            )
        ]
    elif invite.codes is None:
        body = [
            _code_block(
                "Players",
                invite.scorer_link,
                None,
                260,
                "Open table (--open): no code is asked; every phone on this network can enter.",
            )
        ]
    else:
        body = [
            _code_block(
                "Players",
                invite.scorer_link,
                invite.codes.scorer,
                260,
                "Scan it with the phone's camera, or open the address and type the code.",
            ),
            ft.Divider(),
            _code_block(
                "Watchers",
                invite.watcher_link,
                invite.codes.watcher,
                180,
                "Watchers see the table and the scores; they cannot change or export anything.",
            ),
        ]
    return ft.Column(
        [ft.Row([back, heading("Phones at this table")]), *body],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )


@ft.component
def WatchHome(shared: Shared) -> ft.Control:
    """A watcher's Home: the matches in play, to watch; nothing else of the store."""
    with shared.lock:
        playing = [m for m in shared.store.list(0, 20) if m.get("status") != "won"]
    items: list[ft.Control] = [
        heading("Scorekeeper", 28),
        ft.Text("Watching: you see the table and the scores; you cannot change anything."),
    ]
    if not playing:
        items.append(ft.Text("No match is being played yet."))
    for m in playing:
        scores = ", ".join(f"{k} {v}" for k, v in (m.get("scores") or {}).items())
        title = m.get("title") or game_title(m.get("game"))
        items.append(
            ft.FilledTonalButton(
                content=f"Watch {' · '.join(m['players'])} ({title}: {scores})",
                icon=ft.Icons.VISIBILITY,
                on_click=go(f"/table/{m['id']}"),
                height=56,
            )
        )
    return ft.Column(items, spacing=16, scroll=ft.ScrollMode.AUTO, expand=True)
