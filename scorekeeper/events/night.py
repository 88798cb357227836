"""A night sheet: a round robin, Swiss or knockout night on one sheet, for the notice board.

The sheet gives every round's tables with their results ("Table 3: Ann v Ben: 61-40, Ann";
a table with no result yet: "in play" or "not played") and byes, then the standings:
rank, name, played, won, drawn (when any match was drawn), lost, points for and against,
the difference and the score, and the tie-break that put a line below the one above where
it was not the score ("(points difference)", "(head to head)"; "=" and "(level)" for a
shared place). It says how the standings are ranked, and whether they are final (every
round played) or after which round. A league has no night sheet: its sheets are its
fixtures' (:mod:`scorekeeper.events.sheets`).

>>> from scorekeeper.events.draw import new_event
>>> from scorekeeper.events.standings import result_for
>>> e = new_event("e", "Club night", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
>>> r = result_for(e, 1, 1, [("Ann",), ("Ben",)], (61, 40), 0)
>>> s = night_of(e, [r], in_play={(2, 1)})
>>> [t.words for rnd in s.rounds for t in rnd.tables]
['Table 1: Ann v Ben: 61-40, Ann', 'Table 1: Ben v Cy: in play', 'Table 1: Ann v Cy: not played']
>>> s.heading
'Standings after round 1 of 3'
"""

from __future__ import annotations

import csv
import io
import math
import textwrap
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import EventError
from scorekeeper.events.draw import is_complete
from scorekeeper.events.model import Event
from scorekeeper.events.sheets import csv_cell
from scorekeeper.events.standings import Result, Standing, latest, standings, tie_breaks

__all__ = ["NightRound", "NightSheet", "NightTable", "night_of"]

#: A format as the sheet names it.
FORMAT_WORDS = {"round-robin": "Round robin", "swiss": "Swiss", "knockout": "Knockout"}
#: The CSV's columns: a table's (and a bye's), then a standing's.
CSV_HEAD = [
    "event", "row", "round", "table", "player_a", "player_b", "score_a", "score_b", "winner", "status",
    "rank", "name", "played", "won", "drawn", "lost", "points_for", "points_against", "difference", "score",
    "decided_by",
]  # fmt: skip
#: The width a printed sheet's running text is wrapped to.
WIDTH = 78


@dataclass(frozen=True, slots=True)
class NightTable:
    """A table of a round: its players, its result (None: none yet), and whether a match
    of it is being played."""

    round: int
    number: int
    sides: tuple[str, str]
    result: Result | None
    in_play: bool = False

    @property
    def title(self) -> str:
        return f"{self.sides[0]} v {self.sides[1]}"

    @property
    def winner(self) -> str | None:
        r = self.result
        return None if r is None or r.winner is None else self.sides[r.winner]

    @property
    def status(self) -> str:
        """``'won'``, ``'drawn'``, ``'in play'`` or ``'not played'``."""
        if self.result is not None:
            return "drawn" if self.result.winner is None else "won"
        return "in play" if self.in_play else "not played"

    @property
    def outcome(self) -> str:
        """``'61-40, Ann'``, ``'40-40, drawn'``, ``'in play'``, ``'not played'``."""
        r = self.result
        if r is None:
            return self.status
        return f"{r.scores[0]}-{r.scores[1]}, {self.winner or 'drawn'}"

    @property
    def words(self) -> str:
        """``'Table 3: Ann v Ben: 61-40, Ann'``."""
        return f"Table {self.number}: {self.title}: {self.outcome}"


@dataclass(frozen=True, slots=True)
class NightRound:
    """A round of the night: its title, its tables, who had the bye and what a bye scores."""

    number: int
    title: str
    tables: tuple[NightTable, ...]
    byes: tuple[str, ...]
    bye_scores: bool

    @property
    def played(self) -> bool:
        """Every table of the round has its result."""
        return all(t.result is not None for t in self.tables)

    @property
    def bye_words(self) -> str:
        """``'Bye: Cy'``; in a Swiss or knockout ``'Bye: Cy (counts as a match won)'``; ``''``: none."""
        if not self.byes:
            return ""
        return f"Bye: {', '.join(self.byes)}" + (" (counts as a match won)" if self.bye_scores else "")


@dataclass(frozen=True, slots=True)
class NightSheet:
    """A singles event's night sheet (see the module)."""

    event: Event
    rounds: tuple[NightRound, ...]
    standings: tuple[Standing, ...]
    #: Every round is played (the event is over).
    final: bool
    #: The rounds played from the first, every table with its result.
    after: int
    #: The rounds the event is played over (a Swiss's planned, a knockout's bracket).
    planned: int
    #: A knockout's winner, once it is over.
    champion: str | None

    @property
    def title(self) -> str:
        return f"{self.event.name}: night sheet"

    @property
    def subtitle(self) -> str:
        """``'Round robin · All Fives · a point a match won'``."""
        e = self.event
        return f"{FORMAT_WORDS.get(e.format, e.format)} · {registry.get(e.game).title} · {e.scoring.title}"

    @property
    def tie_breaks(self) -> str:
        return tie_breaks(self.event)

    @property
    def drawn(self) -> bool:
        """A match was drawn: the standings show the drawn column."""
        return any(s.drawn for s in self.standings)

    @property
    def heading(self) -> str:
        """``'Final standings'``, ``'Standings after round 2 of 3'`` (with the tables of the
        next rounds that count already: ``', and 1 of 2 tables of round 3'``)."""
        if self.final:
            return "Final standings"
        later = [(r, sum(t.result is not None for t in r.tables)) for r in self.rounds[self.after :]]
        later = [(r, n) for r, n in later if n]
        if len(later) == 1:
            r, n = later[0]
            more = f"{n} of {len(r.tables)} tables of round {r.number}"
        else:
            n = sum(k for _, k in later)
            more = f"{n} tables of rounds {later[0][0].number} to {later[-1][0].number}" if later else ""
        if not self.after:
            if len(later) > 1:
                return f"Standings so far: {n} tables played (round 1 is not finished)"
            return f"Standings so far: {more}" if more else "Standings: no table played yet"
        of = f" of {self.planned}" if self.planned >= self.after else ""
        return f"Standings after round {self.after}{of}" + (f", and {more}" if more else "")

    @staticmethod
    def place(s: Standing) -> str:
        """A line's place: ``'2.'``; ``'='`` where it shares the place of the line above."""
        return "=" if s.decided_by == "level" else f"{s.rank}."

    @staticmethod
    def tie_break(s: Standing) -> str:
        """What put the line below the one above, when it was not the score: ``'head to
        head'``, ``'points difference'``, ``'level'``; else ``''``."""
        return "" if s.decided_by in ("", "score") else s.decided_by

    @staticmethod
    def difference(s: Standing) -> str:
        """``'+11'``, ``'0'``, ``'-5'``."""
        return f"{s.difference:+d}" if s.difference else "0"

    def row(self, s: Standing) -> list[str]:
        """A standing's cells as the printed sheet has them (see :meth:`head`)."""
        cells = [self.place(s), s.name, str(s.played), str(s.won)]
        cells += [str(s.drawn)] if self.drawn else []
        cells += [str(s.lost), f"{s.points_for}-{s.points_against}", self.difference(s), str(s.score)]
        why = self.tie_break(s)
        return [*cells, f"({why})" if why else ""]

    @property
    def head(self) -> list[str]:
        return ["#", "name", "played", "won", *(["drawn"] if self.drawn else []), "lost", "points", "diff", "score", ""]

    def table(self) -> list[tuple[list[str], str]]:
        """The standings as printed: the head, then a row a standing, each as its cells and
        as its line (the cells in columns as wide as their longest, two spaces apart)."""
        rows = [self.head, *(self.row(s) for s in self.standings)]
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        return [(row, "  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip()) for row in rows]

    def text(self) -> str:
        """The sheet as text for a terminal or a printer: the standings, then round by round."""
        lines = [self.title, self.subtitle]
        if self.champion is not None:
            lines.append(f"Winner: {self.champion}")
        lines += ["", self.heading, *(line for _, line in self.table())]
        lines += ["", *textwrap.wrap(self.tie_breaks, WIDTH)]
        for rnd in self.rounds:
            lines += ["", rnd.title, *(f"  {t.words}" for t in rnd.tables)]
            if rnd.byes:
                lines.append(f"  {rnd.bye_words}")
        return _text.terminal("\n".join(lines) + "\n")

    def csv(self) -> str:
        """The sheet as CSV (RFC 4180, CRLF): a row a table (and a bye), then a row a standing."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\r\n")
        w.writerow(CSV_HEAD)
        name = csv_cell(self.event.name)
        blank = [""] * 11
        for rnd in self.rounds:
            for t in rnd.tables:
                r = t.result
                scores: list[object] = ["", ""] if r is None else [r.scores[0], r.scores[1]]
                winner = "" if t.winner is None else csv_cell(t.winner)
                sides = [csv_cell(t.sides[0]), csv_cell(t.sides[1])]
                w.writerow([name, "table", rnd.number, t.number, *sides, *scores, winner, t.status, *blank])
            for p in rnd.byes:
                w.writerow([name, "bye", rnd.number, "", csv_cell(p), "", "", "", "", "bye", *blank])
        state = "final" if self.final else f"after round {self.after}"
        for s in self.standings:
            w.writerow(
                [name, "standing", "", "", "", "", "", "", "", state, s.rank, csv_cell(s.name), s.played, s.won]
                + [s.drawn, s.lost, s.points_for, s.points_against, s.difference, s.score, s.decided_by]
            )
        return out.getvalue()


def bracket_rounds(players: int) -> int:
    """The rounds of a knockout of ``players``: 2 -> 1, 5 -> 3, 8 -> 3."""
    return max(1, math.ceil(math.log2(players)))


def _round_title(event: Event, number: int, planned: int) -> str:
    """``'Round 2'``; a knockout's last rounds by name: ``'Round 3: the final'``."""
    if event.format == "knockout":
        names = {planned: "the final", planned - 1: "the semi-finals", planned - 2: "the quarter-finals"}
        if number in names and number > 0:
            return f"Round {number}: {names[number]}"
    return f"Round {number}"


def night_of(event: Event, results: Iterable[Result], in_play: Collection[tuple[int, int]] = ()) -> NightSheet:
    """The night sheet of a round robin, Swiss or knockout ``event`` from its results;
    ``in_play``: the (round, table) of the tables whose match is being played. A league's
    sheets are its fixtures': an :class:`EventError`."""
    if event.is_league:
        raise EventError("a league's result sheets are its fixtures': give the round and the fixture")
    results = list(results)
    done = latest(results)
    if event.format == "swiss":
        planned = event.planned
    elif event.format == "knockout":
        planned = bracket_rounds(len(event.players))
    else:
        planned = len(event.rounds)
    rounds = []
    for rnd in event.rounds:
        tables = tuple(
            NightTable(
                rnd.number,
                t.number,
                (" & ".join(t.sides[0]), " & ".join(t.sides[1])),
                done.get((rnd.number, t.number)),
                (rnd.number, t.number) in in_play,
            )
            for t in rnd.tables
        )
        title = _round_title(event, rnd.number, planned)
        rounds.append(NightRound(rnd.number, title, tables, rnd.byes, event.format != "round-robin"))
    after = 0
    while after < len(rounds) and rounds[after].played:
        after += 1
    final = bool(event.rounds) and is_complete(event, results)
    champion = None
    if final and event.format == "knockout":
        last = rounds[-1]
        champion = last.tables[0].winner if last.tables else (last.byes[0] if last.byes else None)
    return NightSheet(event, tuple(rounds), tuple(standings(event, results)), final, after, planned, champion)
