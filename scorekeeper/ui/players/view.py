"""Players: the standings of each game (most wins first, partnerships apart) and one
player's (or pair's) figures, partners, opponents and a chart of the months. Every
figure that counts matches opens them (:mod:`.players_lists_view`). The figures and
their words are the view-model's (:mod:`scorekeeper.ui.players.model`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.players.data import Bar, Figure, PlayerPage, Row, who_of
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.widgets import error_box, go, heading, labelled, use_viewport

__all__ = ["Player", "Players", "PlayersVM", "back_row", "figure_row", "tappable"]

# The view-model, observable: an action that changes it redraws the screen.
PlayersVM = ft.observable(PlayersModel)

ROW = 48  # the height of anything tapped
MONTHS_SHOWN = 12  # the chart's latest months (then "All months")
PLAYERS_SHOWN = 20  # the standings' first players (then "All 31 players")
PAIRS_SHOWN = 8  # ... partnerships
VERSUS_SHOWN = 6  # a player's partners and opponents, most played first


def back_row(title: str, back: str, tooltip: str = "Back") -> ft.Control:
    return ft.Row(
        [
            ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip=tooltip, on_click=go(back)),
            ft.Text(title, size=20, weight=ft.FontWeight.BOLD, expand=True, max_lines=2),
        ],
        spacing=0,
    )


def tappable(content: ft.Control, label: str, route: str | None, height: float | None = ROW) -> ft.Control:
    """``content`` that opens ``route`` when tapped (nothing when None), read out as ``label``."""
    box = ft.Container(
        content=content,
        height=height,
        alignment=ft.Alignment.CENTER_LEFT,
        padding=ft.Padding.symmetric(horizontal=8),
        border_radius=8,
        on_click=go(route) if route else None,
        ink=route is not None,
    )
    return labelled(box, label, go(route) if route else None)


def figure_row(fig: Figure) -> ft.Control:
    """A figure as a line: its name, its value (under it when long, with its note), and an
    arrow when it opens matches."""
    colour = ft.Colors.PRIMARY if fig.route else None
    arrow = ft.Icon(ft.Icons.CHEVRON_RIGHT, size=20, color=ft.Colors.PRIMARY if fig.route else ft.Colors.TRANSPARENT)
    if len(fig.value) <= 14 and not fig.note:
        value = ft.Text(fig.value, weight=ft.FontWeight.BOLD, color=colour, text_align=ft.TextAlign.RIGHT)
        return tappable(ft.Row([ft.Text(fig.label, expand=True), value, arrow], spacing=8), fig.text, fig.route)
    lines: list[ft.Control] = [ft.Text(fig.label), ft.Text(fig.value, weight=ft.FontWeight.BOLD, color=colour)]
    if fig.note:
        lines.append(ft.Text(fig.note, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
    words = ft.Container(ft.Column(lines, spacing=0, tight=True), expand=True, padding=ft.Padding.symmetric(vertical=6))
    return tappable(ft.Row([words, arrow], spacing=8), fig.text, fig.route, height=None)


def game_row(games: list[tuple[str, str]], current: str, route_of: Callable[[str], str]) -> ft.Control:
    """The games to choose from (``route_of(game)``: where each leads); the current one filled."""
    buttons: list[ft.Control] = []
    for title, game in games:
        handler = go(route_of(game))
        if game == current:
            btn: ft.Control = ft.FilledButton(content=title, on_click=handler, height=ROW)
        else:
            btn = ft.OutlinedButton(content=title, on_click=handler, height=ROW)
        buttons.append(labelled(btn, f"Game: {title}", handler, game == current))
    return ft.Row(buttons, wrap=True, spacing=6, run_spacing=6)


def _section(title: str, rows: list[ft.Control]) -> list[ft.Control]:
    if not rows:
        return []
    return [heading(title, 16), ft.Column(rows, spacing=0)]


# ------------------------------------------------------------------ standings
def _number(fig: Figure) -> ft.Control:
    text = ft.Text(fig.value, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY if fig.route else None)
    box = ft.Container(
        content=text,
        width=64,
        height=ROW,
        alignment=ft.Alignment.CENTER,
        border_radius=8,
        on_click=go(fig.route) if fig.route else None,
        ink=fig.route is not None,
    )
    return labelled(box, fig.text, go(fig.route) if fig.route else None)


def _table(rows: list[Row], who: str) -> list[ft.Control]:
    """The column heads, then a line per player (or pair)."""

    def head(text: str, width: float | None = None) -> ft.Control:
        align = ft.TextAlign.CENTER if width else ft.TextAlign.LEFT
        return ft.Text(
            text, size=13, color=ft.Colors.ON_SURFACE_VARIANT, width=width, expand=width is None, text_align=align
        )

    lines: list[ft.Control] = [
        ft.Container(
            ft.Row([head(who), head("Played", 64), head("Won", 64), head("Win rate", 64)], spacing=0),
            padding=ft.Padding.only(left=8),
        )
    ]
    for r in rows:
        name = ft.Row(
            [
                ft.Text(
                    r.name,
                    weight=ft.FontWeight.W_500,
                    max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                    expand_loose=True,  # a long name wraps, the arrow stays beside it
                ),
                ft.Icon(ft.Icons.CHEVRON_RIGHT, size=18, color=ft.Colors.PRIMARY),
            ],
            spacing=0,
        )
        cell = tappable(name, f"Open {r.name}", r.route)
        cell.expand = True
        rate = ft.Text(r.rate, width=64, text_align=ft.TextAlign.CENTER)
        lines.append(
            ft.Container(
                ft.Row([cell, _number(r.played), _number(r.won), rate], spacing=0),
                border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            )
        )
    return lines


def capped(controls: list[ft.Control], limit: int, every: bool, show_all: Any, what: str) -> list[ft.Control]:
    """The first ``limit`` of ``controls`` and a button for all of them ("All 66 partnerships"),
    unless ``every``: a long list opens quickly and stays short on a phone."""
    if every or len(controls) <= limit:
        return controls
    more = ft.TextButton(content=f"All {len(controls)} {what}", on_click=show_all, height=ROW)
    return [*controls[:limit], more]


@ft.component
def Players(shared: Shared, game: str = "") -> ft.Control:
    """The standings of one game: players, then partnerships; the way to head-to-head."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    every, set_every = ft.use_state(frozenset[str]())
    games = players.games()
    body: list[ft.Control] = [back_row("Players", "/")]
    if players.error:
        body.append(error_box(players.error))
    if not games:
        body.append(ft.Text("No match is stored yet: the figures start with the first match played."))
        return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
    ids = [g for _t, g in games]
    current = game if game in ids else players.games_of()[0]
    if len(games) > 1:
        body.append(game_row(games, current, lambda g: f"/players/{g}"))
    counts = players.stats.counts(current)
    body.append(
        ft.Text(
            "Most wins first. Tap a name for the player, a number for its matches. "
            f"Not counted: {counts['unfinished']} unfinished, {counts['abandoned']} abandoned.",
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
    )

    def show(section: str) -> Any:
        return lambda e: set_every(every | {section})

    head, *lines = _table(players.standings(current), "Player")
    body.append(
        ft.Column([head, *capped(lines, PLAYERS_SHOWN, "players" in every, show("players"), "players")], spacing=0)
    )
    pairs = players.standings(current, pairs=True)
    if pairs:
        head, *lines = _table(pairs, "Partners")
        shown = capped(lines, PAIRS_SHOWN, "pairs" in every, show("pairs"), "partnerships")
        body += [heading("Partnerships", 16), ft.Column([head, *shown], spacing=0)]
    body.append(
        ft.FilledTonalButton(
            content="Head to head", icon=ft.Icons.COMPARE_ARROWS, on_click=go("/head-to-head"), height=ROW
        )
    )
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)


# ------------------------------------------------------------------ one player
def _bar(bar: Bar, most: int, width: float) -> ft.Control:
    """A month: a bar as long as its matches, the won part filled."""
    unit = width / max(1, most)
    track = ft.Row(
        [
            ft.Container(width=unit * bar.wins, height=20, bgcolor=ft.Colors.PRIMARY),
            ft.Container(width=unit * (bar.matches - bar.wins), height=20, bgcolor=ft.Colors.SECONDARY_CONTAINER),
        ],
        spacing=0,
        width=width,
    )
    content = ft.Row(
        [
            ft.Text(bar.month, width=72, size=13),
            track,
            ft.Text(f"{bar.wins} of {bar.matches}", width=60, size=13, text_align=ft.TextAlign.RIGHT),
        ],
        spacing=6,
    )
    return tappable(content, bar.text, bar.route)


def _chart(months: list[Bar], width: float, every: bool, show_all: Any) -> list[ft.Control]:
    if not months:
        return []
    shown = months if every else months[-MONTHS_SHOWN:]
    most = max(b.matches for b in months)
    legend = ft.Row(
        [
            ft.Container(width=14, height=14, bgcolor=ft.Colors.PRIMARY),
            ft.Text("won", size=13),
            ft.Container(width=14, height=14, bgcolor=ft.Colors.SECONDARY_CONTAINER),
            ft.Text("lost", size=13),
        ],
        spacing=6,
    )
    out: list[ft.Control] = [heading("Month by month", 16), legend]
    bar_width = max(60.0, width - 72 - 60 - 2 * 6 - 16 - 8)
    out.append(ft.Column([_bar(b, most, bar_width) for b in shown], spacing=0))
    if len(months) > len(shown):
        out.append(ft.TextButton(content=f"All {len(months)} months", on_click=show_all, height=ROW))
    return out


def _page(
    page: PlayerPage, can_rename: bool, width: float, every: frozenset[str], show: Callable[[str], Any]
) -> list[ft.Control]:
    body: list[ft.Control] = [back_row(page.name, f"/players/{page.game}")]
    if len(page.games) > 1:
        body.append(game_row(page.games, page.game, lambda g: f"/player/{page.who}/{g}"))
    elif page.games:
        body.append(ft.Text(page.games[0][0], weight=ft.FontWeight.W_500))
    body += _section("Figures", [figure_row(f) for f in page.figures])
    apart = [figure_row(f) for f in page.apart if f.value != "0"]
    body += _section("Not finished (not in the win rate)", apart)
    for title, figs in (("Partners", page.partners), ("Opponents", page.opponents)):
        rows = capped([figure_row(f) for f in figs], VERSUS_SHOWN, title in every, show(title), title.lower())
        body += _section(title, rows)
    body += _chart(page.months, width, "months" in every, show("months"))
    actions: list[ft.Control] = [
        ft.FilledTonalButton(
            content="Head to head", icon=ft.Icons.COMPARE_ARROWS, on_click=go(f"/head-to-head/{page.who}"), height=ROW
        )
    ]
    if can_rename and not page.pair:
        actions.append(
            ft.OutlinedButton(
                content="Rename or merge", icon=ft.Icons.EDIT, on_click=go(f"/player/{page.who}/rename"), height=ROW
            )
        )
    body.append(ft.Row(actions, wrap=True, spacing=8, run_spacing=8))
    return body


@ft.component
def Player(shared: Shared, who: str, game: str = "") -> ft.Control:
    """One player's (or pair's) figures in one game."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    every, set_every = ft.use_state(frozenset[str]())
    viewport = use_viewport()
    members = who_of(who)
    page = players.player(members, game or None) if members else None
    if page is None:
        body: list[ft.Control] = [back_row("Player", "/players"), error_box(players.error)]
        body.append(ft.Text("This player is not in the records (renamed or merged?)."))
        return ft.Column(body, spacing=10)

    def show(section: str) -> Any:
        return lambda e: set_every(every | {section})

    body = _page(page, players.can_rename, viewport.content_width, every, show)
    body.insert(1, error_box(players.error))
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
