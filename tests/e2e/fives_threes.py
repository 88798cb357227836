"""The pub match of Fives and Threes (the rules' worked example), played by the browser
tests of Fives and Threes, the layout sizes' tests and ``tools/screenshots.py``.

Expected notes are written here from the engine's turn, not from the view-models."""

from __future__ import annotations

import re

from scorekeeper.allfives.engine import Match
from scorekeeper.dominoes.tiles import Tile

from . import harness

PUB = {
    "count": "fives-and-threes",
    "spinner": "none",
    "draw": False,
    "hand_size": 7,
    "hand_end": "go",
    "domino": "side",
    "next_leader": "left",
    "target": 61,
    "exact_target": True,
}
# The worked example of the rules (Ann 18, Ben 14), played three times with the lead
# passing left: Ann 50, Ben 46 when Ben leads hand 4.
WORKED = [
    ("6-6", None),
    ("6-4", "6-6"),
    ("4-4", "6-4"),
    ("6-3", "6-6"),
    ("3-1", "6-3"),
    ("4-2", "4-4"),
    ("2-2", "4-2"),
    ("1-5", "3-1"),
    ("2-5", "2-2"),
    ("5-5", "1-5"),
    ("5-6", "2-5"),
    ("5-0", "5-5"),
    ("0-3", "5-0"),
]
# Hand 4, tapped in: Ben 6-6 (12: 4), Ann 6-3 (15: 8, Ann 58), Ben 3-2 (14), Ann 6-2 (18: 6
# would make 64: bust), Ben 6-4 (10: 2), Ann 4-3 (9: 3, Ann 61 exactly: she wins).
LAST_HAND = [("6-6", None), ("6-3", "6-6"), ("3-2", "6-3"), ("6-2", "3-2"), ("6-4", "6-6"), ("4-3", "6-4")]


def pub_record() -> dict:
    """A pub match of three hands (the worked example, the lead passing left): Ann 50, Ben 46."""
    hand = [{"play": t, **({"on": o} if o else {})} for t, o in WORKED]
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": PUB,
        "hands": [{"leader": "Ann", "turns": hand}, {"turns": hand}, {"turns": hand}],
    }


def note(m: Match, turn) -> str:
    """What the strip says after a play, from the engine's turn."""
    s, r = m.setup, m.rules
    who = s.players[turn.player]
    side = s.sides[s.side_of[turn.player]]
    worth = r.worth(turn.count)
    bits = [f"{turn.count} = {worth}" if worth else f"count {turn.count}"]
    if turn.go:
        bits.append(f"go {turn.go}")
    if turn.points:
        bits.append(f"{side} +{turn.points}")
    if turn.voided:
        bits.append(f"bust: {worth + turn.go} would pass {r.target}, nothing scored")
    h = m.hand
    if h.end == "domino":
        bits.append(f"{who} went out: the hand is over")
    elif not h.held[turn.player]:
        bits.append(f"{who} is out; partners play on")
    return f"{who} set {turn.tile}: " + ", ".join(bits)


def set_tile(page, m: Match, tile: str, on: str | None):
    """Tap ``tile`` (and its end on the drawing when it fits more than one); the engine
    ``m`` takes the same play; wait for the strip's note. Returns the turn."""
    t = Tile.parse(tile)
    places = m.placements(t)
    turn = m.play(tile, on)
    harness.set_tile(page, t, Tile.parse(on) if on else None, len(places))
    harness.wait_text(page, re.compile("^(Note: )?" + re.escape(note(m, turn)) + "$"))
    return turn
