"""Home: resume the unfinished match in one tap, start a new one, history, players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.events.model import EventModel, Lead, TableLine, home_lead
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


def _my_tables(shared: Shared, lead: Lead) -> ft.Control:
    """This phone's tables at tonight's event, each opened in one tap (the phone then is its
    player's there); a table not opened yet says so."""
    assert lead.event is not None
    page = EventModel(shared, lead.event.id)

    def open_it(t: TableLine) -> Callable[[Any], None]:
        def run(_: Any) -> None:
            page.sit(t)
            ft.context.page.navigate(f"/table/{t.match}")

        return run

    rows: list[ft.Control] = [
        ft.Text(f"Your table{'s' if len(lead.tables) > 1 else ''} at {lead.event.name}", weight=ft.FontWeight.BOLD)
    ]
    for t in lead.tables:
        label = f"Round {t.round}, table {t.number}: {t.title}"
        if t.match is None:
            rows.append(ft.Text(f"{label}: not opened yet (the host opens the round)"))
        else:
            scores = f" · {t.scores}" if t.scores else ""
            rows.append(ft.FilledButton(content=f"{label} ({t.status}{scores})", on_click=open_it(t), height=56))
    return ft.Card(content=ft.Container(padding=PAD, content=ft.Column(rows)))


@ft.component
def Home(shared: Shared) -> ft.Control:
    lead = home_lead(shared)
    resume = lead.match
    items: list[ft.Control] = [heading("Scorekeeper", 28), ft.Text(blurb())]
    if lead.tables and not resume:
        items.append(_my_tables(shared, lead))
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
    latest = (lead.event.id, lead.event.name) if lead.event is not None else latest_event(shared)
    if latest is not None:  # tonight's event: a phone goes straight to its own table from there
        eid, name = latest
        items.append(
            ft.FilledTonalButton(
                content=f"Event: {name}", icon=ft.Icons.EMOJI_EVENTS, on_click=go(f"/event/{eid}"), height=56
            )
        )
        if lead.event is not None and not lead.match and not lead.tables and shared.visitor.role is Role.SCORER:
            items.append(ft.Text("Say who you are there (I'm ...): your table then shows here.", italic=True))
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
