"""Small match records built by hand for the statistics tests (each one scored by the engine)."""

from __future__ import annotations

import json
from typing import Any

Record = dict[str, Any]


def duel(winner: str, loser: str, started: str, *, loser_first: bool = False) -> Record:
    """A two-player All Fives match to 10: ``winner`` sets 5-5 (10, won). With
    ``loser_first`` the loser leads 5-0 first (5 points): 10 to 5."""
    turns: list[Record] = [{"play": "5-5"}]
    leader = winner
    if loser_first:
        turns = [{"play": "5-0"}, {"play": "5-5", "on": "5-0"}]
        leader = loser
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [winner, loser],
        "started": started,
        "rules": {"target": 10},
        "hands": [{"leader": leader, "turns": turns}],
    }


def unfinished(a: str, b: str, started: str) -> Record:
    """Two players, one play, nobody won (5 to 0)."""
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [a, b],
        "started": started,
        "hands": [{"leader": a, "turns": [{"play": "5-0"}]}],
    }


def partners(us: tuple[str, str], them: tuple[str, str], started: str) -> Record:
    """Four players in partnership; ``us[0]`` leads 5-5 and the side wins 10 to 0."""
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [us[0], them[0], us[1], them[1]],
        "teams": {f"{us[0]} & {us[1]}": list(us), f"{them[0]} & {them[1]}": list(them)},
        "started": started,
        "rules": {"target": 10},
        "hands": [{"leader": us[0], "turns": [{"play": "5-5"}]}],
    }


def fives_threes(winner: str, loser: str, started: str) -> Record:
    """Fives and Threes to 8: ``loser`` leads 6-3 (9 = 3 threes: 3), ``winner`` sets
    6-6 on it (15: an 8, the match)."""
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [loser, winner],
        "started": started,
        "rules": {"count": "fives-and-threes", "draw": False, "hand_end": "go", "target": 8},
        "hands": [{"leader": loser, "turns": [{"play": "6-3"}, {"play": "6-6", "on": "6-3"}]}],
    }


def all_fours(started: str, target: int = 7) -> Record:
    """Trinidad, Ann and Ben: hand 1 Ben makes all four with a hang jack (High, Low,
    hang jack 3, Game: 6); hand 2 only High, to Ben (7: the match, at the default target)."""
    return {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "started": started,
        "rules": {"variant": "trinidad", "target": target},
        "hands": [
            {
                "dealer": "Ann",
                "turn_up": ["3"],
                "high": "Ben",
                "low": "Ben",
                "jack": {"held": "Ann", "won": "Ben"},
                "game": {"Ann": 10, "Ben": 30},
            },
            {
                "dealer": "Ben",
                "turn_up": ["4"],
                "high": "Ben",
                "low": None,
                "jack": None,
                "game": {"Ann": 20, "Ben": 20},
            },
        ],
    }


def renamed(record: Record, names: dict[str, str]) -> Record:
    """The record with every quoted name replaced (players, teams, leaders ...)."""
    text = json.dumps(record)
    for old, new in names.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    return json.loads(text)
