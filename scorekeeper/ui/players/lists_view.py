"""The matches behind a figure (each opens the stored match), head-to-head between two
players or two pairs, renaming and merging a player -- and the routes of every
Players screen (:func:`player_routes`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.ui.players.data import PAGE, Behind, MatchRow, Meeting, slug, who_of
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.players.view import ROW, Player, Players, PlayersVM, back_row, figure_row
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.typed import use_typed
from scorekeeper.ui.shell.widgets import error_box, go, heading, labelled, on

__all__ = ["HeadToHead", "Matches", "Rename", "player_routes"]


# ------------------------------------------------------------------ the matches behind a figure
def _match(row: MatchRow) -> ft.Control:
    content = ft.Column(
        [
            ft.Text(f"{row.when} · {row.game} · {row.outcome}", weight=ft.FontWeight.BOLD),
            ft.Text(row.sides),
        ],
        spacing=2,
        tight=True,
    )
    box = ft.Container(
        content=ft.Row([ft.Container(content, expand=True), ft.Icon(ft.Icons.CHEVRON_RIGHT, color=ft.Colors.PRIMARY)]),
        padding=ft.Padding.symmetric(horizontal=8, vertical=8),
        border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
        on_click=go(row.route),
        ink=True,
    )
    return labelled(box, f"Open {row.text}", go(row.route))


def _listing(
    players: PlayersModel, behind: Behind | None, members: tuple[str, ...], here: str, offset: int, move: Any
) -> ft.Control:
    if behind is None:
        return ft.Column(
            [
                back_row("Matches", "/players"),
                error_box(players.error),
                ft.Text("Nothing to show here: the figure has no matches (any more)."),
            ],
            spacing=10,
        )
    total = len(behind.ids)
    body: list[ft.Control] = [back_row(behind.title, behind.back), ft.Text(behind.subtitle)]
    body += [_match(r) for r in players.rows(behind.ids[offset : offset + PAGE], members, here)]
    body.append(error_box(players.error))
    if total > PAGE:
        body.append(
            ft.Row(
                [
                    ft.OutlinedButton(content="Newer", on_click=on(move, -PAGE), disabled=offset == 0, height=ROW),
                    ft.Text(f"{offset + 1}–{min(total, offset + PAGE)} of {total}"),
                    ft.OutlinedButton(
                        content="Older", on_click=on(move, PAGE), disabled=offset + PAGE >= total, height=ROW
                    ),
                ],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            )
        )
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)


@ft.component
def Matches(shared: Shared, who: str, game: str, figure: str, other: str = "") -> ft.Control:
    """The matches behind one figure of a player's (or pair's) page, newest first."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    offset, set_offset = ft.use_state(0)
    members = who_of(who) or ()
    behind = players.behind(members, game, figure, other or None) if members else None
    here = f"/player/{who}/{game}/{figure}" + (f"/{other}" if other else "")
    return _listing(players, behind, members, here, offset, lambda step: set_offset(max(0, offset + step)))


@ft.component
def MeetingMatches(shared: Shared, a: str, b: str, game: str, figure: str) -> ft.Control:
    """The matches behind a head-to-head figure."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    offset, set_offset = ft.use_state(0)
    side_a, side_b = who_of(a), who_of(b)
    behind = players.meeting_behind(side_a, side_b, game, figure) if side_a and side_b else None
    here = f"/head-to-head/{a}/{b}/{game}/{figure}"
    return _listing(players, behind, side_a or (), here, offset, lambda step: set_offset(max(0, offset + step)))


# ------------------------------------------------------------------ head-to-head
def _picker(title: str, people: list[tuple[str, str]], mine: tuple[str, ...], theirs: tuple[str, ...], pick: Any):
    buttons = []
    for name, person in people:
        chosen = person in mine
        handler = on(pick, person)
        if chosen:
            btn: ft.Control = ft.FilledButton(content=name, on_click=handler, height=ROW)
        else:
            btn = ft.OutlinedButton(content=name, on_click=handler, height=ROW, disabled=person in theirs)
        buttons.append(labelled(btn, f"{title}: {name}", None if person in theirs else handler, chosen))
    return ft.Column(
        [
            ft.Text(f"{title}: one player, or two partners", weight=ft.FontWeight.W_500),
            ft.Row(buttons, wrap=True, spacing=6, run_spacing=6),
        ],
        spacing=4,
    )


def _meeting(m: Meeting) -> ft.Control:
    rows: list[ft.Control] = [heading(m.title, 16), *[figure_row(f) for f in m.figures]]
    if m.margin:
        rows.append(ft.Text(m.margin, weight=ft.FontWeight.W_500))
    return ft.Card(ft.Container(ft.Column(rows, spacing=0), padding=10))


def _toggle(side: tuple[str, ...], person: str) -> tuple[str, ...]:
    if person in side:
        return tuple(p for p in side if p != person)
    return tuple(sorted((*side[-1:], person) if len(side) >= 2 else (*side, person)))


@ft.component
def HeadToHead(shared: Shared, a: str = "", b: str = "") -> ft.Control:
    """Two players (or two pairs) against each other: per game, matches, wins each, by how much."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    side_a, set_a = ft.use_state(who_of(a) or () if a else ())
    side_b, set_b = ft.use_state(who_of(b) or () if b else ())
    people = players.people()
    body: list[ft.Control] = [back_row("Head to head", "/players")]
    if players.error:
        body.append(error_box(players.error))
    body.append(_picker("First side", people, side_a, side_b, lambda p: set_a(_toggle(side_a, p))))
    body.append(_picker("Second side", people, side_b, side_a, lambda p: set_b(_toggle(side_b, p))))
    if side_a and side_b:
        meetings = players.meetings(side_a, side_b)
        name_a, name_b = players.name_of(side_a), players.name_of(side_b)
        body.append(heading(f"{name_a} against {name_b}", 18))
        if not meetings:
            body.append(ft.Text("They have not finished a match against each other yet."))
        body += [_meeting(m) for m in meetings]
    else:
        body.append(ft.Text("Pick both sides to see their matches against each other."))
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)


# ------------------------------------------------------------------ rename or merge
@ft.component
def Rename(shared: Shared, who: str) -> ft.Control:
    """Rename a player, or merge the player into another (same person, two spellings); undo a merge."""
    players, _ = ft.use_state(lambda: PlayersVM(shared))
    typed = use_typed()
    members = who_of(who) or ()
    person = members[0] if len(members) == 1 else ""
    name = players.renamable(person)
    if name is None:
        return ft.Column([back_row("Rename", "/players"), ft.Text("This player is not in the records (any more).")])
    body: list[ft.Control] = [back_row(f"Rename or merge {name}", f"/player/{who}")]
    if not players.can_rename:
        body.append(ft.Text("Only the host and the scorers may rename players."))
        return ft.Column(body, spacing=10)
    other = players.merging_into(person, typed.text)
    clean = " ".join(typed.text.split())
    word = f"Merge {name} into {other}" if other else f"Rename {name} to {clean}" if clean else "Rename"

    def save(e: Any = None) -> None:
        now = players.rename(person, typed.text)
        if now is not None:
            ft.context.page.navigate(f"/player/{slug(now)}")

    def separate(spelling: str) -> None:
        now = players.separate(spelling)
        if now is not None:
            ft.context.page.navigate(f"/player/{slug(now)}")

    body += [
        ft.Text("A new name for every match of this player, or the name of another player to merge the two."),
        ft.TextField(label="New name", value=typed.text, on_change=typed.typed, key="rename", max_length=40),
        error_box(players.error),
        ft.FilledButton(content=word, icon=ft.Icons.MERGE if other else ft.Icons.EDIT, on_click=save, height=ROW),
    ]
    others = [(n, p) for n, p in players.people() if p != person]
    if others:
        picks: list[ft.Control] = [
            ft.OutlinedButton(content=n, on_click=on(typed.set, n), height=ROW) for n, _p in others
        ]
        body += [
            ft.Text("The same person as:", weight=ft.FontWeight.W_500),
            ft.Row(picks, wrap=True, spacing=6, run_spacing=6),
        ]
    spellings = players.spellings(person)
    if spellings:
        body.append(ft.Text("Also entered as (undo a merge or a rename):", weight=ft.FontWeight.W_500))
        for shown, spelling in spellings:
            body.append(
                ft.Row(
                    [
                        ft.Text(shown, expand=True),
                        ft.OutlinedButton(content=f"Separate {shown}", on_click=on(separate, spelling), height=ROW),
                    ]
                )
            )
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)


# ------------------------------------------------------------------ routes
def player_routes(shared: Shared) -> list[ft.Route]:
    """The Players screens' routes (see :mod:`scorekeeper.ui.players.data`)."""

    def screen(comp: Callable[..., Any]) -> Callable[[], Any]:
        @ft.component
        def Screen() -> Any:
            params = {k: v for k, v in ft.use_route_params().items() if v}
            return comp(shared, **params, key=ft.use_route_location())  # another address: fresh state

        return Screen

    return [
        ft.Route(path="players", component=screen(Players)),
        ft.Route(path="players/:game", component=screen(Players)),
        ft.Route(path="player/:who/rename", component=screen(Rename)),
        ft.Route(path="player/:who", component=screen(Player)),
        ft.Route(path="player/:who/:game", component=screen(Player)),
        ft.Route(path="player/:who/:game/:figure", component=screen(Matches)),
        ft.Route(path="player/:who/:game/:figure/:other", component=screen(Matches)),
        ft.Route(path="head-to-head", component=screen(HeadToHead)),
        ft.Route(path="head-to-head/:a", component=screen(HeadToHead)),
        ft.Route(path="head-to-head/:a/:b", component=screen(HeadToHead)),
        ft.Route(path="head-to-head/:a/:b/:game/:figure", component=screen(MeetingMatches)),
    ]
