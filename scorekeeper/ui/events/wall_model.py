"""The wall: an event's standings and the round being played, for a screen across a room
(the standings a watcher opens), without any Flet; :mod:`scorekeeper.ui.events.wall_fit`
fits them to the screen, the view only draws what they say.

What it shows: the standings with a difference column (a league's games difference too),
a mark on a line that head to head put below the one above with its footnote ("* placed by
head to head"), and the tie-breaks in words under them; the round being played, table by
table, each with its state and live score ("3  Ann v Ben  in play 35-20"); the heading
("Round 2 of 3", a knockout's "Semi-finals" and "Final", "Final standings" once every
round is played); and the table's join link for a late phone. When the standings and the
tables do not fit on one screen they take turns, a page every :data:`TURN_SECONDS`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from scorekeeper import text as _text
from scorekeeper.eventbook import EventBook, Played
from scorekeeper.events import Event, Standing, is_complete, standings, tie_breaks
from scorekeeper.ui.events.model import EventModel, TableLine, read
from scorekeeper.ui.events.wall_fit import DIGIT, LETTER, Col, Line, Page, Room, Style, arrange
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = [
    "HEAD_TO_HEAD",
    "TURN_SECONDS",
    "Wall",
    "WallModel",
    "round_heading",
    "standing_lines",
    "table_lines",
    "tables_of",
    "turn_seconds",
    "wall_of",
]

#: How long each page is shown when they take turns (``SCOREKEEPER_WALL_SECONDS`` in the
#: environment changes it: a club that likes them slower; the tests, quicker).
TURN_SECONDS = 12.0
#: The most characters of a name the columns make room for (a longer one ends in "...").
NAME_CHARS = 18
#: The footnote of a line that head to head placed.
HEAD_TO_HEAD = "* placed by head to head"


@dataclass(frozen=True)
class Wall:
    """The wall now: the event's name, the heading, the page shown (``index`` of
    ``pages``), the room it was fitted to, and the way in for a late phone (``qr``: the
    join link, None when there is none to show; ``join``: the words under it)."""

    name: str
    heading: str
    page: Page
    room: Room
    index: int = 0
    pages: int = 1
    qr: str | None = None
    join: tuple[str, ...] = field(default=())


def turn_seconds() -> float:
    """How long each page of the wall is shown: ``SCOREKEEPER_WALL_SECONDS`` from the
    environment (3 to 600), else :data:`TURN_SECONDS`.

    >>> turn_seconds() == TURN_SECONDS or "SCOREKEEPER_WALL_SECONDS" in os.environ
    True
    """
    try:
        seconds = float(os.environ.get("SCOREKEEPER_WALL_SECONDS", ""))
    except ValueError:
        return TURN_SECONDS
    return min(600.0, max(3.0, seconds)) if math.isfinite(seconds) else TURN_SECONDS


# ---------------------------------------------------------------- the lines
def _chars(texts: Sequence[str]) -> int:
    return max((len(t) for t in texts), default=0)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def standing_lines(event: Event, rows: Sequence[Standing], wide: bool) -> Style:
    """The standings as a block's columns and lines; ``wide``: with the points (and a
    league's games) for and against, besides their differences."""
    league = event.is_league
    drawn = league or any(r.drawn for r in rows)
    spec: list[tuple[str, str]] = [("#", "rank"), ("Team" if league else "Player", "name"), ("P", "played")]
    spec += [("W", "won")] + ([("D", "drawn")] if drawn else []) + [("L", "lost")]
    if league:
        spec += ([("Games", "games")] if wide else []) + [("GD", "gd")]
    spec += ([("Points", "points")] if wide else []) + [("Diff", "diff"), ("Score", "score")]
    lines = []
    for r in rows:
        mark = "*" if r.decided_by == "head to head" else ""
        cell = {
            "rank": f"{r.rank}{mark}",
            "name": r.name,
            "played": str(r.played),
            "won": str(r.won),
            "drawn": str(r.drawn),
            "lost": str(r.lost),
            "games": f"{r.games_for}-{r.games_against}",
            "gd": _signed(r.games_difference),
            "points": f"{r.points_for}-{r.points_against}",
            "diff": _signed(r.difference),
            "score": str(r.score),
        }
        label = f"Standing {r.rank}. {r.name}: score {r.score}, won {r.won}, played {r.played}"
        lines.append(Line(tuple(cell[k] for _, k in spec), label + (" (placed by head to head)" if mark else "")))
    cols = []
    for i, (header, key) in enumerate(spec):
        values = [ln.cells[i] for ln in lines] + [header]
        if key == "name":
            cols.append(Col(header, LETTER * max(4, min(NAME_CHARS, _chars(values))), grow=True))
        else:
            cols.append(Col(header, DIGIT * _chars(values) + 0.3, right=key != "rank", bold=key == "score"))
    return Style(tuple(cols), lines=tuple(lines))


def _same_side(a: Sequence[str], b: Sequence[str]) -> bool:
    return {_text.name_key(p) for p in a} == {_text.name_key(p) for p in b}


def _state(played: Played | None, sides: tuple[tuple[str, ...], ...]) -> str:
    """A table's state in words, its scores in the table's order of its sides: "not
    started", "in play 35-20", "Ann won 61-40" (the winner's score first), "drawn 30-30"."""
    if played is None:
        return "not started"
    s = (*played.scores, 0, 0)
    flip = len(played.sides) == 2 and _same_side(played.sides[0], sides[1])
    scores = (s[1], s[0]) if flip else (s[0], s[1])
    if not played.finished:
        return f"in play {scores[0]}-{scores[1]}"
    if played.winner is None:
        return f"drawn {scores[0]}-{scores[1]}"
    won = int(played.winner == 0) if flip else played.winner
    return f"{' & '.join(sides[won])} won {scores[won]}-{scores[1 - won]}"


def table_lines(event: Event, number: int, played: Sequence[Played]) -> Style:
    """Round ``number``'s tables as a block's columns and lines, each with its match's
    state (the last stored for it), the byes last."""
    last = {(p.round, p.table): p for p in played}
    rnd = event.round(number)
    lines = []
    for t in rnd.tables:
        p = last.get((number, t.number))
        state = _state(p, t.sides)
        label = f"Table {t.number}: {t.title}, {state}"
        lines.append(Line((str(t.number), t.title, state), label, dim=p is not None and p.finished))
    if rnd.byes:
        bye = f"Bye: {', '.join(rnd.byes)}"
        lines.append(Line(("", bye, ""), bye))
    cols = (
        Col("Table", DIGIT * max(5, _chars([ln.cells[0] for ln in lines])) + 0.3, bold=True),
        Col("Players", LETTER * max(7, _chars([ln.cells[1] for ln in lines])), grow=True),
        Col("Now", LETTER * max(3, _chars([ln.cells[2] for ln in lines])), right=True),
    )
    return Style(cols, lines=tuple(lines))


def round_heading(event: Event, now: int, complete: bool) -> str:
    """The wall's heading: "Final standings" once every round is played; else the round
    being played, "Round 2 of 3" (a Swiss: of the rounds planned; a round robin or a
    league: of those drawn), a knockout's "Round 2", "Semi-finals", "Final"."""
    if complete:
        return "Final standings"
    if event.format == "knockout":
        rnd = event.round(now)
        places = len(rnd.tables) + len(rnd.byes)
        return "Final" if places == 1 else "Semi-finals" if places == 2 else f"Round {now}"
    of = event.planned if event.format == "swiss" else len(event.rounds)
    return f"Round {now} of {max(of, now)}"


def wall_of(
    event: Event, rows: Sequence[Standing], played: Sequence[Played], complete: bool, room: Room
) -> tuple[str, list[Page]]:
    """The heading of the wall of ``event`` and every page of it (its standings ``rows``,
    the ``played`` matches of its tables; ``complete``: every round played), fitted to
    ``room``."""
    now = EventModel.current(event, tables_of(event, played)) if event.rounds else 0
    heading = round_heading(event, now, complete) if now else "Standings"
    notes = ((HEAD_TO_HEAD,) if any(r.decided_by == "head to head" for r in rows) else ()) + (tie_breaks(event),)
    draw = None if complete or not now else table_lines(event, now, played)
    return heading, arrange(standing_lines(event, rows, True), standing_lines(event, rows, False), draw, notes, room)


def tables_of(event: Event, played: Sequence[Played]) -> list[TableLine]:
    """Every table of every round with its match (the last stored for it), as the event's
    page has them (what says which round is being played)."""
    last = {(p.round, p.table): p for p in played}
    out = []
    for rnd in event.rounds:
        for t in rnd.tables:
            p = last.get((rnd.number, t.number))
            status = "not opened" if p is None else "won" if p.finished else "in play"
            mid = None if p is None else p.id
            out.append(TableLine(rnd.number, t.number, t.title, mid, status, "", False, t.players))
    return out


# ---------------------------------------------------------------- the model
class WallModel(Model):
    """The wall of one event: looked at again whenever a match changes (``tick``), its
    pages turned by ``turn``."""

    def __init__(self, shared: Shared, eid: str) -> None:
        self._shared = shared
        self.eid = eid
        self.error: str | None = None
        self.shown = 0  # the turns taken: the page shown is this one of them, in a round
        self.pages = 1  # how many pages the wall had when it was last looked at

    def tick(self, origin: object = None) -> None:
        """A match or an event changed somewhere: look again."""
        self._changed()

    def turn(self) -> bool:
        """The next page, when there is more than one (the wall redraws); with one, nothing
        changes and nothing is drawn again. True when it turned."""
        if self.pages <= 1:
            return False
        self.shown += 1
        self._changed()
        return True

    def _join(self, event: Event) -> tuple[str | None, tuple[str, ...]]:
        """The way in for a late phone. A screen that may show the codes (the host's, a
        scorer's: the rules' INVITE) shows the join link; a watcher's wall shows none: its QR
        code opens the event's address, where the phone types the table code it is given."""
        invite = self._shared.invite
        if invite is None:
            return None, ()
        codes = invite.codes
        if not self._shared.may(Act.INVITE).allowed and codes is not None:
            address = f"{invite.base}/event/{event.id}"
            return address, ("Late? Scan this,", "type the table code from the host, and you are at the event.")
        words = ["Late? Scan this to join,", f"then open Events: {event.name}."]
        if codes is not None:
            address = invite.base.removeprefix("http://")
            words.append(f"Or open {address} and type {codes.scorer[:3]} {codes.scorer[3:]}.")
        return invite.scorer_link, tuple(words)

    def look(self, width: float, height: float, pad: float = 12) -> Wall | None:
        """The wall now, for a screen ``width`` x ``height`` px (None: no such event; ``error`` says why)."""

        def get(book: EventBook) -> tuple[Event, list[Standing], list[Played], bool]:
            event = book.get(self.eid)
            played = book.played(event)
            results = book.results(event, played)
            return event, standings(event, results), played, is_complete(event, results)

        got = read(self._shared, self, get, None)
        if got is None:
            return None
        event, rows, played, complete = got
        link, join = self._join(event)
        room = Room(width, height, pad, qr=link is not None)
        heading, pages = wall_of(event, rows, played, complete, room)
        self.pages = len(pages)
        index = self.shown % len(pages)
        return Wall(event.name, heading, pages[index], room, index, len(pages), link if room.qr_width else None, join)
