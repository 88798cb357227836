"""The Score screen's view-model, without Flet: the totals, each side's X tally
(and the tally before its latest scoring event, so the new strokes can be told
apart), the cribbage pegboard and the chart -- computed from the stored record
through the game's timeline in the registry.

>>> from scorekeeper import registry
>>> game = registry.get("all-fives")
>>> m = game.load({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...                "rules": {"hand_size": 3}, "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}]}]})
>>> d = score_displays(game, m)
>>> [(s.name, str(s.tally), s.previous.total) for s in d.sides]
[('Ann', '[X . . . .]', 0), ('Ben', '', 0)]
>>> d.pegboard is None, d.note is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper import registry
from scorekeeper.points import entry_words
from scorekeeper.registry import Game
from scorekeeper.scored import Scored, ScoredHand
from scorekeeper.tally import Pegboard, Tally, TallyError, pegboard, tally
from scorekeeper.tally.timeline import Timeline

__all__ = [
    "DEDUCTION_NOTE",
    "HandCell",
    "HandRow",
    "ScoreDisplays",
    "SideDisplay",
    "hand_rows",
    "pegs_note",
    "score_displays",
    "winner_line",
]


@dataclass(frozen=True)
class SideDisplay:
    """One side on the score screen: its tally and the one before its latest scoring
    event, or why there is none."""

    name: str
    score: int
    tally: Tally | None
    previous: Tally | None
    note: str | None = None


@dataclass(frozen=True)
class ScoreDisplays:
    """Everything the score screen draws, computed from the stored record."""

    summary: Scored  # the ``scorekeeper score`` object
    timeline: Timeline
    sides: tuple[SideDisplay, ...]
    pegboard: Pegboard | None  # one point, one hole (scale 5, Fives and Threes) only
    note: str | None  # why there are no tallies and no board (the scores can go down)
    winner_line: str | None = None  # "Ann wins the match!", "Ann & Cy win the match!"


#: Why a match kept on the pegboard shows neither board nor tally once a score went down.
DEDUCTION_NOTE = (
    "No pegboard or X tally: an adjustment took points off, and a board or a tally cannot show a "
    "deduction. The chart shows the dip."
)


def winner_line(match: Any) -> str | None:
    """Who won the match, in words (a partnership wins in the plural), or None."""
    if match.winner is None:
        return None
    setup = match.setup
    members = sum(1 for s in setup.side_of if s == match.winner)
    return f"{setup.sides[match.winner]} {'win' if members > 1 else 'wins'} the match!"


def pegs_note(match: Any) -> str:
    """Why a match kept on the pegboard shows no X tally, naming its kind of game (the
    registry's title of it: "Fives and Threes")."""
    title = registry.kind_title(registry.kind_of(match.to_record()))
    return f"Kept on the pegboard: {title} points are pegs, not the fives an X tally counts."


def score_displays(game: Game, match: Any) -> ScoreDisplays:
    """The tallies, the pegboard and the chart of a match of ``game``, as data."""
    tl = game.timeline(match)
    summary = game.result(match)
    if tl.note:
        sides = tuple(SideDisplay(n, sc, None, None) for n, sc in zip(tl.sides, tl.scores, strict=True))
        return ScoreDisplays(summary, tl, sides, None, tl.note, winner_line(match))
    events = tl.events()
    shown = []
    note = pegs_note(match) if tl.pegs else None  # the board is its tally
    if note is not None and tl.deductions:  # an adjustment took points off: no peg goes back
        note = DEDUCTION_NOTE
    for name, score, ev in zip(tl.sides, tl.scores, events, strict=True):
        if note is not None:
            shown.append(SideDisplay(name, score, None, None, note))
            continue
        try:
            shown.append(SideDisplay(name, score, tally(ev, tl.scale), tally(ev[:-1], tl.scale)))
        except TallyError as e:  # a muggins claim of, say, 7 in a scale-1 match; a deduction
            why = (
                f"No X tally: an adjustment took points off {name}, and a tally cannot show a deduction. "
                "The chart shows the dip."
                if tl.deductions and min(ev, default=0) < 0
                else f"No X tally: {e.reason}."
            )
            shown.append(SideDisplay(name, score, None, None, why))
    # the board has a game hole: a match with no target (Broadway plays its hands) has none;
    # a peg never goes back, so a match whose score went down (an adjustment) has none either
    on_board = (tl.scale == 5 or tl.pegs) and tl.target > 0 and not tl.deductions
    board = pegboard(dict(zip(tl.sides, events, strict=True)), target=tl.target) if on_board else None
    return ScoreDisplays(summary, tl, tuple(shown), board, None, winner_line(match))


# ------------------------------------------------------------------ the per-hand table
@dataclass(frozen=True)
class HandCell:
    """One side after one hand: the running total (shown large) and, under it, what
    the hand added -- never written as a sum, so no cell reads as a wrong one."""

    side: str
    total: str  # "105"
    lines: tuple[str, ...]  # ("+40 in play", "+30 at the end")
    label: str  # for screen readers: "Ann after hand 2: 105 (+40 in play, +30 at the end)"

    @property
    def detail(self) -> str:
        return ", ".join(self.lines)


@dataclass(frozen=True)
class HandRow:
    """One hand of the per-hand table: "Hand 2 · domino" ("Hand 3 · playing", the last hand
    of a won match "Hand 8 · Ann & Cy won the match", a hand entered as points "Hand 4 ·
    entered as points") and one cell per side; or an adjustment, "Adjustment: East-West -10
    (misdeal)", whose ``number`` is None (it is not a hand)."""

    number: int | None
    title: str
    cells: tuple[HandCell, ...]


def hand_rows(summary: Scored) -> list[HandRow]:
    """The per-hand table of a scored match (the ``scorekeeper score`` object) as text.

    A hand's points are split into those made in play and those of the hand-end
    settlement where the game has one (All Fives, Broadway); else they are the hand's.
    The totals start from the scores carried in; a hand entered as points and an
    adjustment each have their row, in their place.

    >>> rows = hand_rows({"sides": ["Ann", "Ben"], "hands": [
    ...     {"number": 1, "end": "domino", "settlement": {"Ann": 30, "Ben": 0}, "scores": {"Ann": 70, "Ben": 0}}]})
    >>> [(c.total, c.detail) for c in rows[0].cells]
    [('70', '+40 in play, +30 at the end'), ('0', 'no points')]
    >>> rows = hand_rows({"sides": ["Us", "Them"], "start": {"Us": 85, "Them": 70}, "winner": None, "hands": [
    ...     {"number": 1, "end": "points", "points": {"Us": 35, "Them": 10}, "scores": {"Us": 120, "Them": 80}},
    ...     {"end": "adjust", "adjust": {"Them": -10}, "why": "misdeal", "scores": {"Us": 120, "Them": 70}}]})
    >>> [(r.title, [c.detail for c in r.cells]) for r in rows]
    [('Hand 1 · entered as points', ['+35 this hand', '+10 this hand']), ('Adjustment: Them -10 (misdeal)', ['no change', '-10 adjusted'])]
    """
    sides = summary["sides"]
    before = dict(summary.get("start") or dict.fromkeys(sides, 0))
    rows = []
    hands = summary["hands"]
    winner = summary.get("winner")
    for h in hands:
        shared = entry_words(h)
        if shared is not None:  # a hand entered as points, an adjustment: "Hand 4 · entered as points"
            adjusted = h["end"] == "adjust"
            rows.append(HandRow(h.get("number"), shared, _cells(sides, before, h, adjusted, winner, h is hands[-1])))
            before = h["scores"]
            continue
        open_hand = h["end"] == "open"
        # the winning moment cut the last hand short: it is over, and so is the match
        won = open_hand and winner is not None and h is hands[-1]
        cells = []
        for s in sides:
            total = h["scores"][s]
            if "settlement" in h:
                settle = h["settlement"].get(s, 0)
                play = total - before[s] - settle  # every point of the hand not from its settlement
                lines = [f"{play:+d} in play"] if play else []
                if settle:
                    lines.append(f"{settle:+d} at the end")
            else:
                added = total - before[s]
                lines = [f"{added:+d} this hand"] if added else []
            lines = lines or ["no points"]
            if won:
                when = f"at the end of the match (hand {h['number']})"
            else:
                when = f"after hand {h['number']}" + (" so far" if open_hand else "")
            cells.append(HandCell(s, str(total), tuple(lines), f"{s} {when}: {total} ({', '.join(lines)})"))
        state = f"{winner} won the match" if won else "playing" if open_hand else h["end"]
        title = f"Hand {h['number']} · {state}"
        rows.append(HandRow(h["number"], title, tuple(cells)))
        before = h["scores"]
    return rows


def _cells(
    sides: list[str], before: dict[str, int], h: ScoredHand, adjusted: bool, winner: str | None, last: bool
) -> tuple[HandCell, ...]:
    """The cells of a hand entered as points or of an adjustment: each side's total and what
    the entry changed ("+35 this hand", "-10 adjusted")."""
    cells = []
    what = "the adjustment" if adjusted else f"hand {h['number']}"
    when = f"at the end of the match ({what})" if winner is not None and last else f"after {what}"
    voided = h.get("voided_sides") or []
    for s in sides:
        total = h["scores"][s]
        added = total - before[s]
        if adjusted:
            lines = [f"{added:+d} adjusted"] if added else ["no change"]
        elif s in voided:
            lines = ["voided: would pass the target"]
        else:
            lines = [f"{added:+d} this hand"] if added else ["no points"]
        cells.append(HandCell(s, str(total), tuple(lines), f"{s} {when}: {total} ({', '.join(lines)})"))
    return tuple(cells)
