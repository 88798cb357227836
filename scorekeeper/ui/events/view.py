"""The events' screens: the list and New event (:mod:`scorekeeper.ui.events.new_view`), an event's page (rounds, tables, "I'm
Ann", open a round, the next round), the standings (large on the wall's watcher screen,
updated the moment a match changes) and a league fixture's result sheet (confirmed by
both captains on their own phones; a print view; CSV)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.events import Event
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.events.common import back, told, use_any_change
from scorekeeper.ui.events.league_view import LeagueScreen
from scorekeeper.ui.events.model import EventModel, TableLine
from scorekeeper.ui.events.new_view import Events, NewEvent
from scorekeeper.ui.events.night_view import NightPrint, NightView
from scorekeeper.ui.events.sheet_view import SheetPrint, SheetView
from scorekeeper.ui.events.standings_view import Standings
from scorekeeper.ui.events.wall_view import WallScreen
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.policy import Act, check
from scorekeeper.ui.shell.widgets import PAD, error_box, go, heading, labelled, on, top_bar

__all__ = ["EventPage", "Events", "NewEvent", "Standings", "event_routes"]

EventVM = ft.observable(EventModel)


# ------------------------------------------------------------ an event's page
def _table_button(vm: EventModel, t: TableLine, prefix: str = "", in_round: bool = True) -> ft.Control:
    """One table's line; in its round's card it is "Table N", alone (the phone's own) "Round R, table N"."""
    label = f"{prefix}Round {t.round}, table {t.number}: {t.title}"
    status = t.status + (f" · {t.scores}" if t.scores else "")

    def open_it(_: Any) -> None:
        if t.match is None:
            return
        vm.sit(t)
        ft.context.page.navigate(f"/table/{t.match}")

    tile = ft.ListTile(
        title=ft.Text(
            f"Table {t.number}: {t.title}" if in_round else f"Round {t.round}, table {t.number}: {t.title}",
            weight=ft.FontWeight.BOLD if t.mine else None,
        ),
        subtitle=ft.Text(status),
        leading=ft.Icon(ft.Icons.TABLE_RESTAURANT if t.match else ft.Icons.SCHEDULE),
        on_click=open_it if t.match else None,
    )
    return labelled(tile, f"{label} ({status})", open_it if t.match else None)


def _teams_card(vm: EventModel, event: Event) -> ft.Control:
    """A league's teams, and for the host the way to change one (players, vice-captain)."""
    rows: list[ft.Control] = [heading("Teams", 18)]
    for team in event.teams:
        words = ", ".join(
            p + (" (captain)" if p == team.captain else " (vice-captain)" if p == team.vice else "")
            for p in team.players
        )
        line: Any = TeamLine  # a component takes a key (its state stays with its team)
        rows.append(line(vm, team.name, words, ", ".join(team.players), team.vice or "", key=team.name))
    return ft.Card(content=ft.Container(ft.Column(rows, spacing=4), padding=PAD))


@ft.component
def TeamLine(vm: EventModel, name: str, words: str, players: str, vice: str) -> ft.Control:
    """One team: its players in words; the host's Edit opens its players and vice-captain."""
    editing, set_editing = ft.use_state(False)
    typed, set_typed = ft.use_state((players, vice))
    line = ft.Row(
        [
            ft.Text(f"{name}: {words}", expand=True),
            *(
                [ft.TextButton(content="Edit", on_click=lambda e: set_editing(True))]
                if vm.runs_it and not editing
                else []
            ),
        ],
    )
    if not editing:
        return line

    def save(_: Any) -> None:
        if vm.set_team(name, typed[0], typed[1]):
            set_editing(False)

    return ft.Column(
        [
            line,
            ft.TextField(
                label=f"{name}'s players, the captain first",
                value=typed[0],
                on_change=lambda e: set_typed((e.control.value, typed[1])),
                dense=True,
            ),
            ft.TextField(
                label="Vice-captain (empty: none)",
                value=typed[1],
                on_change=lambda e: set_typed((typed[0], e.control.value)),
                dense=True,
            ),
            ft.Row(
                [
                    ft.FilledButton(content=f"Save {name}", on_click=save),
                    ft.TextButton(content="Cancel", on_click=lambda e: set_editing(False)),
                ]
            ),
        ]
    )


@ft.component
def DeleteEvent(shared: Shared, vm: EventModel, name: str) -> ft.Control:
    """The host's way to forget an event: one tap asks, the second does it."""
    asking, set_asking = ft.use_state(False)

    def delete(_: Any) -> None:
        if vm.delete():
            told(shared, vm)
            ft.context.page.navigate("/events")

    if not asking:
        return ft.TextButton(content="Delete event", icon=ft.Icons.DELETE_OUTLINE, on_click=lambda e: set_asking(True))
    return ft.Row(
        [
            ft.Text(f"Delete {name}? Its matches stay in History.", weight=ft.FontWeight.BOLD),
            ft.FilledButton(content="Delete", on_click=delete),
            ft.OutlinedButton(content="Keep it", on_click=lambda e: set_asking(False)),
        ],
        wrap=True,
    )


def _who_am_i(vm: EventModel, event: Event) -> ft.Control:
    me = vm.me
    if me is not None:
        return ft.Row(
            [ft.Text(f"This phone is {me}'s."), ft.TextButton(content="Change", on_click=on(vm.iam, None))], wrap=True
        )
    buttons: list[ft.Control] = [ft.Text("This phone is:", weight=ft.FontWeight.BOLD)]
    buttons += [ft.OutlinedButton(content=f"I'm {p}", on_click=on(vm.iam, p)) for p in event.everyone]
    return ft.Row(buttons, wrap=True, spacing=6, run_spacing=4)


@ft.component
def EventPage(shared: Shared, eid: str) -> ft.Control:
    vm, _ = ft.use_state(lambda: EventVM(shared, eid))
    use_any_change(shared, vm.tick)
    event = vm.event()
    if event is None:
        return ft.Column([top_bar("Event"), error_box(vm.error), back("/events", "Events")])
    tables = vm.tables(event)
    waiting, over = vm.waiting(event)

    def act(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
        def run(_: Any) -> None:
            fn(*args)
            told(shared, vm)

        return run

    items: list[ft.Control] = [
        top_bar(event.name),
        ft.Text(vm.heading(event)),
        ft.Row(
            [
                ft.FilledTonalButton(
                    content="Standings", icon=ft.Icons.LEADERBOARD, on_click=go(f"/event/{eid}/standings")
                ),
                *(
                    []
                    if event.is_league
                    else [
                        ft.OutlinedButton(
                            content="Night sheet", icon=ft.Icons.ARTICLE, on_click=go(f"/event/{eid}/night")
                        )
                    ]
                ),
                back("/events", "Events"),
            ],
            wrap=True,
        ),
    ]
    if shared.visitor.role is not Role.WATCHER:
        items.append(_who_am_i(vm, event))
    mine = vm.my_tables(event, tables)
    bye = vm.my_bye(event, tables)
    if mine or bye is not None:
        card: list[ft.Control] = [ft.Text("Your table" if len(mine) < 2 else "Your tables", weight=ft.FontWeight.BOLD)]
        if bye is not None:
            card.append(ft.Text(f"Round {bye}: {vm.me} has the bye (no match this round).", size=16))
        card += [_table_button(vm, t, "Your table: ", in_round=False) for t in mine]
        items.append(
            ft.Container(
                content=ft.Column(card),
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
                padding=PAD,
                border_radius=12,
            )
        )
    if vm.note:
        items.append(ft.Text(vm.note, italic=True))
    items.append(error_box(vm.error))
    if over:
        items.append(ft.Text("Every round is played: the standings are final.", weight=ft.FontWeight.BOLD))
    elif vm.runs_it and event.format in ("swiss", "knockout") and not waiting:
        items.append(ft.FilledButton(content="Draw the next round", icon=ft.Icons.SHUFFLE, on_click=act(vm.next_round)))
    now = vm.current(event, tables)
    order = [r for r in event.rounds if r.number >= now] + [r for r in reversed(event.rounds) if r.number < now]
    for rnd in order:
        lines = [t for t in tables if t.round == rnd.number]
        played = " (played)" if rnd.number < now else (" (now)" if rnd.number == now else "")
        head: list[ft.Control] = [heading(f"Round {rnd.number}{played}", 18)]
        if vm.runs_it and any(t.match is None for t in lines):
            head.append(
                ft.FilledButton(
                    content=f"Open round {rnd.number}",
                    icon=ft.Icons.PLAY_ARROW,
                    on_click=act(vm.open_round, rnd.number),
                )
            )
        body: list[ft.Control] = [ft.Row(head, wrap=True)]
        for f in rnd.fixtures:
            body.append(
                ft.OutlinedButton(
                    content=f"Fixture {f.number}: {f.home} v {f.away} · result sheet",
                    on_click=go(f"/event/{eid}/sheet/{rnd.number}/{f.number}"),
                )
            )
        body += [_table_button(vm, t) for t in lines]
        if rnd.byes:
            body.append(ft.Text(f"Bye: {', '.join(rnd.byes)}", italic=True))
        items.append(ft.Card(content=ft.Container(ft.Column(body, spacing=4), padding=PAD)))
    if event.is_league:
        items.append(_teams_card(vm, event))
    if vm.runs_it:
        items.append(DeleteEvent(shared, vm, event.name))
    elif vm.can_enter and any(t.match is None for t in tables):
        items.append(ft.Text("The host opens the rounds and draws the next.", italic=True))
    return ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


def event_routes(shared: Shared, role: Role) -> list[ft.Route]:
    """The events' routes (a watcher's: the list, the pages, the standings, the sheets)."""

    def with_event(comp: Callable[..., Any]) -> Callable[[], Any]:
        @ft.component
        def Screen() -> Any:
            p = ft.use_route_params()
            eid = p.get("eid", "")
            if "round" in p:
                r, f = int(p.get("round", "0")), int(p.get("fixture", "0"))
                return comp(shared, eid, r, f, key=f"{eid}/{r}/{f}")
            return comp(shared, eid, key=eid)

        return Screen

    routes = [
        ft.Route(path="events", component=lambda: Events(shared)),
        ft.Route(path="event/:eid", component=with_event(EventPage)),
        # the wall's (a watcher's: a screen across the room) or a phone's
        ft.Route(path="event/:eid/standings", component=with_event(WallScreen if role is Role.WATCHER else Standings)),
        ft.Route(path="event/:eid/night", component=with_event(NightView)),
        ft.Route(path="event/:eid/night/print", component=with_event(NightPrint)),
        ft.Route(path="event/:eid/sheet/:round(\\d+)/:fixture(\\d+)", component=with_event(SheetView)),
        ft.Route(path="event/:eid/sheet/:round(\\d+)/:fixture(\\d+)/print", component=with_event(SheetPrint)),
    ]
    if check(Act.EVENT_NEW, role).allowed:
        routes.insert(1, ft.Route(path="events/new", component=lambda: NewEvent(shared)))
    if check(Act.LEAGUE, role).allowed:
        routes.insert(1, ft.Route(path="events/league", component=lambda: LeagueScreen(shared)))
    return routes
