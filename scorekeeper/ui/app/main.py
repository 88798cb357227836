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
    /invite           the QR codes and codes that let phones in (host, scorers; served to phones only)
    /players ...      Players: standings, one player, the matches behind a figure,
                      head-to-head, rename or merge (:mod:`scorekeeper.ui.players.data`)
    /join/<secret>    a join link (the QR code's): gives its secret (or a code), then Home
    /events ...       Events: the list, New event, an event's page, its standings (the
                      wall's), a fixture's result sheet and its print view

A browser that has not given a code (see :mod:`scorekeeper.ui.access.gate`) sees the join
screen whatever it opens; a watcher has its own Home, the tables (read-only) and Score
(no History, no Players: those show every stored match).

No rule lives here: the screens show what the view-models say; which screen
draws a match is the registry's (``scorekeeper/registry.py``).
"""

from __future__ import annotations

import re
import sys
import weakref
from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.access.visitor import Visitor, agent, peer
from scorekeeper.ui.app import fletdiff, fletencode, fletinit
from scorekeeper.ui.app.home_view import Home
from scorekeeper.ui.events.view import event_routes
from scorekeeper.ui.history.view import History, StoredMatch
from scorekeeper.ui.join.view import Invite, Join, WatchHome, keep_pass, kept_pass
from scorekeeper.ui.live.view import in_session
from scorekeeper.ui.players.lists_view import player_routes
from scorekeeper.ui.score.view import Score
from scorekeeper.ui.shell.base import Shared, TableModel, game_of, game_title
from scorekeeper.ui.shell.policy import Act, check
from scorekeeper.ui.shell.screens import GameScreens, games_with_screens, screens_of
from scorekeeper.ui.shell.widgets import PAD, Viewport, ViewportContext, cannot_open

__all__ = ["App", "GameTable", "make_main", "paths", "shows_join"]


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
def App(
    shared: Shared,
    viewport: Viewport | None = None,
    visitor: Visitor | None = None,
    above: Callable[[], Any] | None = None,
) -> ft.Control:
    """The app as one browser sees it (``visitor``: who it is; the join screen until it is in).
    ``above``: a component always shown above every screen (the phone's storage line)."""
    role = (visitor or shared.visitor).role
    if role is None or shows_join(shared):  # a stranger: the join screen, whatever it opens
        body: ft.Control = Join(visitor or shared.visitor)
    else:
        body = ViewportContext(
            viewport or Viewport(), lambda: ft.Router(_routes(shared, role), not_found=_home(shared, role))
        )
    if above is not None:
        body = ft.Column([above(), ft.Container(content=body, expand=True)], spacing=0, expand=True)
    return ft.SafeArea(content=ft.Container(content=body, padding=PAD, expand=True), expand=True)


def shows_join(shared: Shared) -> bool:
    """A browser that may not see the table (it gave no code) sees the join screen only."""
    return not shared.may(Act.WATCH).allowed


def paths(shared: Shared) -> list[str]:
    """The routes this browser has (none but the join screen's for a stranger)."""
    role = shared.visitor.role
    if role is None or shows_join(shared):
        return []
    return [r.path or "" for r in _routes(shared, role)]


def _home(shared: Shared, role: Role) -> Callable[[], Any]:
    if role is Role.WATCHER:
        return lambda: WatchHome(shared)
    return lambda: Home(shared)


def _routes(shared: Shared, role: Role) -> list[ft.Route]:
    def param_screen(comp: Callable[..., Any]) -> Callable[[], Any]:
        @ft.component
        def Screen() -> Any:
            mid = ft.use_route_params().get("mid", "")
            return comp(shared, mid, key=mid)  # another match: fresh state

        return Screen

    routes = [
        ft.Route(index=True, component=_home(shared, role)),
        ft.Route(path="table/:mid", component=param_screen(GameTable)),
        ft.Route(path="score/:mid", component=param_screen(Score)),
    ]
    routes += event_routes(shared, role)

    def may(act: Act) -> bool:
        return check(act, role).allowed

    if may(Act.START):
        for g in games_with_screens():
            screens = screens_of(g.id)
            assert screens is not None
            if not any(r.path == "new" for r in routes):
                routes.append(ft.Route(path="new", component=_new_match(screens, shared)))
            routes.append(ft.Route(path=f"new/{g.id}", component=_new_match(screens, shared)))
    if may(Act.HISTORY):  # not a watcher's: every stored match, and the figures of them all
        routes += [
            ft.Route(path="history", component=lambda: History(shared)),
            ft.Route(path="history/:mid", component=param_screen(StoredMatch)),
            *player_routes(shared),
        ]
    if shared.invite is not None and may(Act.INVITE):
        routes.append(ft.Route(path="invite", component=lambda: Invite(shared)))
    return routes


#: a join link: ``/join/<the link's secret>`` (the QR code's), or ``/join/<a typed code>``
#: The routes a browser without a code may be sent on to once it joins (nothing of them is shown before).
WANTED_ROUTE = re.compile(r"^/event/[A-Za-z0-9][A-Za-z0-9._-]{0,63}(/standings)?/?$")
JOIN_ROUTE = re.compile(r"^/join/([A-Za-z0-9_ .-]{1,64})/?$")


#: What the server does with the session of a browser that has not given a code (it keeps few of
#: them: :mod:`scorekeeper.ui.server.strangers`), given the page and its Visitor.
Strangers = Callable[[ft.Page, Visitor], None]


def make_main(
    shared: Shared, above: Callable[[], Any] | None = None, strangers: Strangers | None = None
) -> Callable[[ft.Page], Any]:
    """The Flet entry point for one session (browser tab or window): the app as that
    browser sees it, by its address (see :meth:`Shared.visit`), or by the pass its browser
    kept from an earlier join (see :mod:`scorekeeper.ui.access.passes`). ``above``: see :func:`App`;
    ``strangers``: given every served session of a browser without a code, as it arrives."""
    visitor_class = ft.observable(Visitor)
    fletdiff.install()  # Flet's diff, listing what it adds and removes without walking twice
    fletencode.install()  # Flet's encoder, asking a class what it asked before once
    if sys.platform != "emscripten":  # (the phone alone draws for itself: no loading all of Flet at its start)
        fletinit.install()  # Flet's controls, made without setting their defaults one by one

    async def main(page: ft.Page) -> None:
        fletinit.refresh()  # the classes Flet loaded since (a session draws with them)
        page.title = "Scorekeeper"
        page.theme_mode = ft.ThemeMode.SYSTEM
        page.theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.TEAL)
        page.padding = 0
        # Who the browser is comes from its socket (the guard's peer), never from the page: the
        # browser can set the page's properties, ``client_ip`` among them. A desktop window has
        # no socket and no gate: it is the host's own. (Served without the guard, a browser has
        # no address: it must give a code.)
        view = shared.visit(peer(), visitor_class, agent())
        visitor = view.visitor
        gate = shared.gate
        joining = JOIN_ROUTE.match(page.route or "")
        if joining:
            visitor.join(joining.group(1))
        # a browser that joined before gives its pass (asked once the page is up)
        asking = not joining and visitor.role is None and page.web and gate is not None and not gate.open
        visitor.checking = asking
        if visitor.role is None and page.web and strangers is not None:
            strangers(page, visitor)  # few per client, deleted soon after they drop
        if visitor.role is None and WANTED_ROUTE.match(page.route or ""):
            visitor.wanted = page.route  # an event's page (the wall's QR code): there, once it has joined
        if joining or (visitor.role is None and not asking and (page.route or "/") != "/"):
            page.route = "/"  # the code is not left in the address bar; a stranger's route shows nothing
        viewport = Viewport(page.width, page.height)
        page.on_resize = lambda e: viewport.resize(e.width, e.height)
        page.on_close = lambda e: view.hub.drop(visitor)
        page.on_connect = lambda e: _catch_up(view.hub.screens_of(visitor))
        if gate is not None:
            gate.watch(visitor, _nudger(page, visitor))
        page.render(App, view, viewport, visitor, above)
        if joining and visitor.token:
            await keep_pass(visitor.token)
        elif asking:
            back = visitor.rejoin(await kept_pass())
            visitor.checking = False
            visitor.changed()
            if not back and (page.route or "/") != "/":
                page.navigate("/")
            elif back and (page.route or "/") == "/":
                resume = shared.resume()  # straight back to the seat it had at the match in play
                if resume is not None and visitor.seat(resume["id"]) is not None:
                    page.navigate(f"/table/{resume['id']}")

    return main


def _catch_up(hub_screens: list[object]) -> None:
    """A session connected again: its table screens show what changed meanwhile."""
    for screen in hub_screens:
        if isinstance(screen, TableModel):
            screen.catch_up()


async def _redraw(visitor: Visitor) -> None:
    visitor.changed()


def _nudger(page: ft.Page, visitor: Visitor) -> Callable[[], None]:
    """What the gate calls when the host ends the passes: ``visitor``'s page redraws (and
    shows the join screen), in its own session. Weak: a closed session is not kept."""
    pages, visitors = weakref.ref(page), weakref.ref(visitor)

    def nudge() -> None:
        p, v = pages(), visitors()
        if p is not None and v is not None:
            in_session(p, _redraw, v)

    return nudge
