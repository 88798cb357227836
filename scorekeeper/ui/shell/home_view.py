"""Home: resume the unfinished match in one tap, start a new one, history, players."""

from __future__ import annotations

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.shell.base import Shared, game_title
from scorekeeper.ui.shell.screens import games_with_screens, screens_of
from scorekeeper.ui.shell.widgets import PAD, go, heading

__all__ = ["Home"]


def blurb() -> str:
    """One line per game, from each game's screens."""
    lines = []
    for g in games_with_screens():
        screens = screens_of(g.id)
        if screens is not None:
            lines.append(screens.BLURB)
    return ". ".join(lines) + "."


def latest_event(shared: Shared) -> tuple[str, str] | None:
    """The id and name of the event made last, if any (and readable)."""
    try:
        with shared.lock:
            events = shared.events.events()
    except ScorekeeperError:
        return None  # the Events screen says why
    return (events[-1].id, events[-1].name) if events else None


@ft.component
def Home(shared: Shared) -> ft.Control:
    resume = shared.resume()
    items: list[ft.Control] = [heading("Scorekeeper", 28), ft.Text(blurb())]
    if resume:
        scores = ", ".join(f"{k} {v}" for k, v in (resume.get("scores") or {}).items())
        title = resume.get("title") or game_title(resume.get("game"))
        items.append(
            ft.Card(
                content=ft.Container(
                    padding=PAD,
                    content=ft.Column(
                        [
                            ft.Text("Unfinished match", weight=ft.FontWeight.BOLD),
                            ft.Text(f"{title}: {' · '.join(resume['players'])}"),
                            ft.Text(f"Hand {resume.get('hands')}: {scores}"),
                            ft.FilledButton(
                                content="Resume match",
                                icon=ft.Icons.PLAY_ARROW,
                                on_click=go(f"/table/{resume['id']}"),
                                height=56,
                            ),
                        ]
                    ),
                )
            )
        )
    latest = latest_event(shared)
    if latest is not None:  # tonight's event: a phone goes straight to its own table from there
        eid, name = latest
        items.append(
            ft.FilledTonalButton(
                content=f"Event: {name}", icon=ft.Icons.EMOJI_EVENTS, on_click=go(f"/event/{eid}"), height=56
            )
        )
    items += [
        ft.FilledTonalButton(content="New match", icon=ft.Icons.ADD, on_click=go("/new"), height=56),
        ft.OutlinedButton(
            content="Events: club nights, leagues", icon=ft.Icons.EMOJI_EVENTS, on_click=go("/events"), height=48
        ),
        ft.OutlinedButton(content="History", icon=ft.Icons.HISTORY, on_click=go("/history"), height=48),
        ft.OutlinedButton(content="Players", icon=ft.Icons.LEADERBOARD, on_click=go("/players"), height=48),
    ]
    if shared.invite is not None:  # served to phones: how they join
        items.append(
            ft.OutlinedButton(
                content="Phones at this table", icon=ft.Icons.QR_CODE_2, on_click=go("/invite"), height=48
            )
        )
    return ft.Column(items, spacing=16, scroll=ft.ScrollMode.AUTO, expand=True)
