"""The scored result of a match: what ``scorekeeper score`` prints, and what History, the
statistics and the CSV export read.

Every game's ``result`` (and ``score``) returns a :class:`Scored`: a JSON object (a plain
``dict`` when the program runs, so the output is the JSON it always was) whose common
part every reader may count on, whatever the game:

- ``game``: the record's game; ``sides``: the sides in order (a player, or a team's name);
- ``hands``: each hand's ``number`` (from 1), ``end`` (``"open"`` while it is played, else
  the game's word for how it ended), ``scores`` (every side's score after it), its
  ``settlement`` where the game settles a hand, and whatever else the game says of it;
- ``scores``: every side's score now; ``winner``: the side that won, or None;
- ``target``: the score that wins, where the game has one.

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

__all__ = ["Scored", "ScoredHand"]


class ScoredHand(TypedDict):
    """What every game says of a hand in its scored result (a game's hand adds its own keys)."""

    #: The hand's number, from 1.
    number: int
    #: How the hand ended: ``"open"`` while it is played, else the game's word
    #: (``"domino"``, ``"blocked"``, ``"scored"`` ...).
    end: str
    #: Every side's score after the hand, by the side's name.
    scores: dict[str, int]
    #: What the hand's end added to each side, where the game settles a hand (All Fives'
    #: pips, Broadway's unplayed tiles): the rest of the hand's points were made in play.
    settlement: NotRequired[dict[str, int]]


class Scored(TypedDict):
    """The common part of every game's scored result (see the module's words)."""

    game: str
    sides: list[str]
    hands: list[ScoredHand]
    scores: dict[str, int]
    winner: str | None
    #: The score that wins the match, where the game has one (Broadway plays its hands).
    target: NotRequired[int]
