"""The list of events and the New event form, without any Flet: every option of ``scorekeeper
event new`` (the format; the players, or a league's teams, vice-captains, singles and
doubles games and legs; the game, its preset and the points to win; a Swiss's rounds; the
scoring), the tie-breaks in words, and the form's errors in the form's words (``singles:
...``, never a command line's ``--singles``). Only the event's id is not asked: it is made up.
"""

from __future__ import annotations

from typing import Any

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import new_id
from scorekeeper.events import FORMATS, SCORING_TITLES, Event, new_event
from scorekeeper.events.standings import TIE_BREAKS
from scorekeeper.events.summary import FORMAT_TITLES, count, summary
from scorekeeper.store import message_of
from scorekeeper.ui.events.book import book_of, read, refused
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["LEGS", "EventsModel", "format_title", "formats"]

#: A league's legs: its teams meet once, or home and away.
LEGS = [("Once", 1), ("Home and away", 2)]


def formats() -> list[tuple[str, str]]:
    """The formats as the form offers them: ``("League (teams)", "league")``."""
    return [(FORMAT_TITLES[f] + (" (teams)" if f == "league" else ""), f) for f in FORMATS]


def format_title(fmt: str) -> str:
    """An event's format as a player reads it ("Round robin", not "round-robin")."""
    return FORMAT_TITLES.get(fmt, fmt)


def _whole(typed: str, words: str) -> int | None:
    """A number typed in the form (empty: None, the default); anything else is refused."""
    typed = typed.strip()
    if not typed:
        return None
    if not typed.isdigit():
        raise ScorekeeperError(f"{words} must be a whole number (or left empty)")
    return int(typed)


class EventsModel(Model):
    """The list of events and the New event form."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.error: str | None = None
        self.name = ""
        self.format = "round-robin"
        self.game = registry.ids()[0]
        self.preset: str | None = self._first_preset()
        self.players = ""
        self.teams = ""
        self.rounds = ""
        self.target = ""
        self.scoring: str | None = None
        #: A league fixture's games: empty singles are 9, or none when doubles are given.
        self.singles = ""
        self.doubles = ""
        self.legs = 2

    def events(self) -> list[Event]:
        return read(self._shared, self, lambda book: book.events(), [])

    @staticmethod
    def line(event: Event) -> str:
        """An event in the list: ``'Swiss · All Fives: Muggins (no spinner) · to 250 · 3 rounds · 8 players'``."""
        return f"{summary(event)} · {count(len(event.entrants), 'team' if event.is_league else 'player')}"

    @property
    def may_create(self) -> bool:
        """This browser makes events (the host)."""
        return self._shared.may(Act.EVENT_NEW).allowed

    @property
    def may_league(self) -> bool:
        """This browser links a league and takes its fixtures (the host)."""
        return self._shared.may(Act.LEAGUE).allowed

    @property
    def league(self) -> bool:
        return self.format == "league"

    def presets(self) -> list[tuple[str, str | None]]:
        """The game's presets, the first (its usual rules) chosen when the game is; a game with
        none plays its rules as they are."""
        game = registry.get(self.game)
        return [(p.title, p.id) for p in registry.presets_of(game)] or [("Its usual rules", None)]

    def _first_preset(self) -> str | None:
        return self.presets()[0][1]

    def scorings(self) -> list[tuple[str, str]]:
        """The scorings the format may have, by name: a league's two, the players' one."""
        keys = ("league-2-1", "league-3-1") if self.league else ("singles",)
        return [(SCORING_TITLES[k], k) for k in keys]

    @property
    def scoring_chosen(self) -> str:
        return self.scoring or self.scorings()[0][1]

    def tie_breaks(self) -> str:
        """How the standings of an event of this format are ranked, in words (they are fixed)."""
        return TIE_BREAKS[self.league]

    def set(self, field: str, value: Any) -> None:
        setattr(self, field, value)
        if field == "game":
            self.preset = self._first_preset()
        if field == "format":
            self.scoring = None
        self.error = None
        self._changed()

    def _teams(self) -> tuple[dict[str, list[str]], dict[str, str]]:
        """The teams typed one a line (``Reds: Ann, Cy (vice), Ed``) and their vice-captains."""
        teams: dict[str, list[str]] = {}
        vices: dict[str, str] = {}
        for line in self.teams.splitlines():
            if not line.strip():
                continue
            name, _, members = line.partition(":")
            team = teams[name.strip()] = []
            for m in (m.strip() for m in members.split(",")):
                plain = m.removesuffix("(vice)").strip()
                if plain != m:
                    vices[name.strip()] = plain
                if plain:
                    team.append(plain)
        return teams, vices

    def create(self) -> str | None:
        """Make the event from the form; its id, or None (``error`` says why)."""
        if refused(self._shared, self, Act.EVENT_NEW):
            self._changed()
            return None
        try:
            players = [p.strip() for p in self.players.replace("\n", ",").split(",") if p.strip()]
            teams, vices = self._teams()
            shown = self._shared.names_problem([self.name, *players, *teams, *(p for t in teams.values() for p in t)])
            if shown:
                raise ScorekeeperError(shown)
            league = self.league
            event = new_event(
                new_id(),
                self.name.strip(),
                self.format,
                self.game,
                preset=self.preset,
                players=[] if league else players,
                teams=teams if league else None,
                vices=vices if league else None,
                scoring=self.scoring,
                rounds=_whole(self.rounds, "the rounds") if self.format == "swiss" else None,
                singles=_whole(self.singles, "a fixture's singles games") if league else None,
                doubles=_whole(self.doubles, "a fixture's doubles games") if league else None,
                legs=self.legs if league else 2,
                target=_whole(self.target, "the points to win a match"),
            )
            with self._shared.lock:
                book_of(self._shared).add(event)
            self.error = None
            return event.id
        except ScorekeeperError as e:
            self.error = message_of(e)  # "players: ...": the events name the form's fields
            return None
        finally:
            self._changed()
