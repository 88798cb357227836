"""The Flet app: the shell around the games' screens, built from the registry.

Declarative Flet 1.0: every screen is an ``@ft.component``; the view-models are
made observable (``ft.observable``) and held in ``ft.use_state``, so an action
that changes one redraws the screen. ``ft.Router`` maps the routes

    /                 Home: resume, new match, history
    /new              New match (the first game's; its Game row offers the others)
    /new/<game>       New match of a game (``all-fives``, ``all-fours``, ``broadway``)
    /table/<id>       the Table of a match: its game's screen (the main screen)
    /score/<id>       Score: totals, tallies, pegboard, chart (any game)
    /history          History (paged), import
    /history/<id>     one stored match, read-only, export

No rule lives here: the screens show what the view-models say; which screen
draws a match is the registry's (``scorekeeper/registry.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.base import GameScreens, Shared, game_of, game_title, games_with_screens, screens_of
from scorekeeper.ui.history_view import History, StoredMatch
from scorekeeper.ui.home_view import Home
from scorekeeper.ui.score_view import Score
from scorekeeper.ui.widgets import PAD, Viewport, ViewportContext, cannot_open

__all__ = ["App", "GameTable", "make_main"]


@ft.component
def GameTable(shared: Shared, mid: str) -> ft.Control:
    """The table of a match, drawn by its game's screens."""
    game = game_of(shared, mid)
    if game is None:
        return cannot_open(f"no match {mid!r} is stored here")
    screens = screens_of(game)
    if screens is None:
        return cannot_open(
            f"match {mid} is {game_title(game)}: this app has no table screen for it", "/history", "History"
        )
    return screens.Table(shared, mid)


def _new_match(screens: GameScreens, shared: Shared) -> Callable[[], Any]:
    return lambda: screens.NewMatch(shared)


@ft.component
def App(shared: Shared, viewport: Viewport | None = None) -> ft.Control:
    def param_screen(comp: Callable[..., Any]) -> Callable[[], Any]:
        @ft.component
        def Screen() -> Any:
            mid = ft.use_route_params().get("mid", "")
            return comp(shared, mid, key=mid)  # another match: fresh state

        return Screen

    new_routes: list[ft.Route] = []
    for g in games_with_screens():
        screens = screens_of(g.id)
        assert screens is not None
        if not new_routes:
            new_routes.append(ft.Route(path="new", component=_new_match(screens, shared)))
        new_routes.append(ft.Route(path=f"new/{g.id}", component=_new_match(screens, shared)))
    router = ViewportContext(
        viewport or Viewport(),
        lambda: ft.Router(
            [
                ft.Route(index=True, component=lambda: Home(shared)),
                *new_routes,
                ft.Route(path="table/:mid", component=param_screen(GameTable)),
                ft.Route(path="score/:mid", component=param_screen(Score)),
                ft.Route(path="history", component=lambda: History(shared)),
                ft.Route(path="history/:mid", component=param_screen(StoredMatch)),
            ],
            not_found=lambda: Home(shared),
        ),
    )
    return ft.SafeArea(content=ft.Container(content=router, padding=PAD, expand=True), expand=True)


def make_main(shared: Shared) -> Callable[[ft.Page], None]:
    """The Flet entry point for one session (browser tab or window)."""

    def main(page: ft.Page) -> None:
        page.title = "Scorekeeper"
        page.theme_mode = ft.ThemeMode.SYSTEM
        page.theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.padding = 0
        viewport = Viewport(page.width, page.height)
        page.on_resize = lambda e: viewport.resize(e.width, e.height)
        page.render(App, shared, viewport)

    return main
