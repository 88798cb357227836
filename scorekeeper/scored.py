"""The scored result of a match: what ``scorekeeper score`` prints, and what History, the
statistics and the CSV export read.

Every game's ``result`` (and ``score``) returns a :class:`Scored`: a JSON object (a plain
``dict`` when the program runs, so the output is the JSON it always was) whose common
part every reader may count on, whatever the game:

- ``game``: the record's game; ``sides``: the sides in order (a player, or a team's name);
- ``hands``: each hand's ``number`` (from 1), ``end`` (``"open"`` while it is played, else
  the game's word for how it ended), ``scores`` (every side's score after it), its
  ``settlement`` where the game settles a hand, and whatever else the game says of it.
  Two entries of ``hands`` are the same in every game (:mod:`scorekeeper.points`): a
  hand entered as points (``end`` ``"points"``, its ``number``, the ``points`` of each
  side and, where an exact target voided some, ``voided`` and ``voided_sides``) and an
  adjustment (``end`` ``"adjust"``, **no** ``number``: it is not a hand; ``adjust``, the
  sides it changed, and ``why``). :func:`played` gives a game's own hands without them;
- ``scores``: every side's score now (the scores carried in included); ``winner``: the
  side that won, or None;
- ``target``: the score that wins, where the game has one; ``start``: every side's score
  carried in, where the record carries some in.

A game adds its own keys beside these (All Fives its ``rules`` and ``teams``,
Broadway its ``seats`` ...): its own type is a :class:`Scored` with them, and its own
readers (its ``text``, ``rows`` and ``stats``) read them through it. The game contract
(``tests/registry/test_game_contract.py``) checks every game keeps the common part.

>>> from scorekeeper.broadway import score_record
>>> out = score_record({"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"]})
>>> out["sides"], out["scores"], out["winner"], out["hands"]
(['North-South', 'East-West'], {'North-South': 0, 'East-West': 0}, None, [])
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

__all__ = ["ADJUST", "POINTS", "Scored", "ScoredHand", "is_adjustment", "played"]

#: The ``end`` of a hand entered as points, and of an adjustment.
POINTS = "points"
ADJUST = "adjust"


class ScoredHand(TypedDict):
    """What every game says of a hand in its scored result (a game's hand adds its own keys),
    and of an adjustment, which stands among the hands (``end`` ``"adjust"``, no ``number``)."""

    #: The hand's number, from 1 (an adjustment has none: it is not a hand).
    number: NotRequired[int]
    #: How the hand ended: ``"open"`` while it is played, else the game's word
    #: (``"domino"``, ``"blocked"``, ``"scored"`` ...).
    end: str
    #: Every side's score after the hand, by the side's name.
    scores: dict[str, int]
    #: What the hand's end added to each side, where the game settles a hand (All Fives'
    #: pips, Broadway's unplayed tiles): the rest of the hand's points were made in play.
    settlement: NotRequired[dict[str, int]]
    #: A hand entered as points: the sides whose points an exact target voided (its
    #: ``points``, each side's as entered, are a key of the game's own hands too).
    voided_sides: NotRequired[list[str]]
    #: An adjustment: the change of each side it names, and why it was made.
    adjust: NotRequired[dict[str, int]]
    why: NotRequired[str]


class Scored(TypedDict):
    """The common part of every game's scored result (see the module's words)."""

    game: str
    sides: list[str]
    hands: list[ScoredHand]
    scores: dict[str, int]
    winner: str | None
    #: The score that wins the match, where the game has one (Broadway plays its hands).
    target: NotRequired[int]
    #: Every side's score carried in when the match began, where the record gives one.
    start: NotRequired[dict[str, int]]


def is_adjustment(hand: ScoredHand) -> bool:
    """Whether an entry of a scored result's ``hands`` is an adjustment (not a hand)."""
    return hand["end"] == ADJUST


def played(hands: list[ScoredHand]) -> list[ScoredHand]:
    """The hands played tile by tile or fact by fact: ``hands`` without the hands entered
    as points and the adjustments (the ones a game's own readers read its own keys of).

    >>> [h.get("number") for h in played([{"number": 1, "end": "points", "scores": {}},
    ...     {"end": "adjust", "scores": {}}, {"number": 2, "end": "open", "scores": {}}])]
    [2]
    """
    return [h for h in hands if h["end"] not in (POINTS, ADJUST)]
