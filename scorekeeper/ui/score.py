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

from scorekeeper.registry import Game
from scorekeeper.tally import Pegboard, Tally, TallyError, pegboard, tally
from scorekeeper.tally.timeline import Timeline

__all__ = ["ScoreDisplays", "SideDisplay", "score_displays"]


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

    summary: dict[str, Any]  # the ``scorekeeper score`` object
    timeline: Timeline
    sides: tuple[SideDisplay, ...]
    pegboard: Pegboard | None  # one point, one hole (scale 5) only
    note: str | None  # why there are no tallies and no board (the scores can go down)


def score_displays(game: Game, match: Any) -> ScoreDisplays:
    """The tallies, the pegboard and the chart of a match of ``game``, as data."""
    tl = game.timeline(match)
    summary = game.result(match)
    if tl.note:
        sides = tuple(SideDisplay(n, sc, None, None) for n, sc in zip(tl.sides, tl.scores, strict=True))
        return ScoreDisplays(summary, tl, sides, None, tl.note)
    events = tl.events()
    shown = []
    for name, score, ev in zip(tl.sides, tl.scores, events, strict=True):
        try:
            shown.append(SideDisplay(name, score, tally(ev, tl.scale), tally(ev[:-1], tl.scale)))
        except TallyError as e:  # a muggins claim of, say, 7 in a scale-1 match
            shown.append(SideDisplay(name, score, None, None, f"No X tally: {e.reason}."))
    board = pegboard(dict(zip(tl.sides, events, strict=True)), target=tl.target) if tl.scale == 5 else None
    return ScoreDisplays(summary, tl, tuple(shown), board, None)
