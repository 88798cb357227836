"""A probe of every engine with hostile records: take example records of each game,
replace the value at each path in turn by a value of a wrong JSON type (a list, an
object, null, a boolean, a fraction, a string, a huge number, a non-ASCII digit ...),
and read, score, write out and draw the result. Whatever the engine makes of it, only a
ScorekeeperError may escape (the command line's status 2, one line), with a short
message; anything else (a TypeError, a KeyError, an OverflowError ...) is a bug."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from support import RECORDS

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.tally import TallyError, pegboard, tally
from scorekeeper.tally.svg import chart_svg, pegboard_svg, tally_svg

ALL_FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben", "Cy", "Di"],
    "teams": {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]},
    "rules": {"variant": "trinidad", "target": 14},
    "hands": [
        {
            "dealer": "Ann",
            "turn_up": ["6", "J"],
            "beg": "run",
            "high": "Ben",
            "low": "Cy",
            "jack": {"held": "Ann", "won": "Ben"},
            "game": {"Us": 23, "Them": 30},
            "penalties": [
                {"type": "revoke", "by": "Cy", "honour": False},
                {"type": "award", "side": "Us", "points": 1, "reason": "house"},
            ],
        },
        {"dealer": "Ben", "turn_up": ["5"], "game_cards": {"Us": ["A", "10"], "Them": ["K"]}},
        {"dealer": "Cy", "penalties": [{"type": "misdeal"}]},
    ],
}
ALL_FIVES_CLAIMS = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Ann", "Ben"],
    "rules": {"set": 6, "target": 250, "hand_size": 9, "claims": "muggins", "scale": 1, "exact_target": False},
    "hands": [
        {
            "leader": "Ann",
            "turns": [
                {"play": "3-2", "claim": 5},
                {"play": "2-2", "on": "3-2", "player": "Ben", "muggins": "Ann"},
                {"draw": 2, "play": "2-4", "on": "2-2"},
            ],
        }
    ],
}
BROADWAY = {
    "format": "scorekeeper/1",
    "game": "broadway",
    "players": ["Ann", "Ben", "Cy", "Di"],
    "rules": {"orientation": "seat", "unplayed_penalty": "to-opponents"},
    "hands": [
        {
            "leader": "Ben",
            "turns": [
                {"play": "6-6", "at": [[0, 0], [0, 1]]},
                {"play": "6-3", "at": [[1, 0], [2, 0]], "player": "Cy"},
                {"pass": True},
                {"exposed": "5-2"},
                {"pass": True},
                {"pass": True},
                {"pass": True},
                {"pass": True},
            ],
            "unplayed": {"Ann": ["5-2", "0-0", "1-1", "2-2", "3-3", "4-4", "5-5"], "Ben": 6, "Cy": 6, "Di": 7},
        },
        {"leader": "Ann", "turns": [{"play": "5-5", "at": [[0, 0], [1, 0]]}]},
    ],
}


def examples() -> list[dict[str, Any]]:
    out = [ALL_FOURS, ALL_FIVES_CLAIMS, BROADWAY]
    out += [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RECORDS.glob("*.json"))]
    return out


#: What a hostile record puts in place of a value.
JUNK: list[Any] = [[], {}, None, True, False, 0, -1, 1.5, 5.0, "", "x", 10**9, 10**400, "٣", "３-５", "٣-٥", [[]], {"a": []}, "Ann" * 1000]  # fmt: skip


def paths(obj: Any, pre: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield pre
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, pre + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, pre + (i,))


def replaced(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(record)
    cur = out
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return out


def exercise(record: Any) -> None:
    """Everything the command line, the store and the app do with a record."""
    game = registry.get(record["game"]) if isinstance(record, dict) and record.get("game") in registry.ids() else None
    if game is None:
        registry.game_of(record)  # the envelope's error
        return
    try:
        match = game.load(record)
    except ScorekeeperError:
        return
    game.entries.entries_of(record)
    game.render(game.result(match))
    match.to_record()
    tl = game.timeline(match)
    chart_svg(tl)
    if tl.note is None:
        for events in tl.events():
            try:
                tally_svg(tally(events, tl.scale))
            except TallyError:
                pass  # a claim of 7 in a scale-1 match: the screen says so
        if tl.scale == 5 and tl.target > 0:
            pegboard_svg(pegboard(dict(zip(tl.sides, tl.events(), strict=True)), target=tl.target))
    game.render(game.score(record))


def _cases() -> Iterator[tuple[str, dict[str, Any], tuple[Any, ...]]]:
    for n, rec in enumerate(examples()):
        for path in paths(rec):
            yield f"{rec['game']}#{n}:" + ".".join(map(str, path)), rec, path


CASES = list(_cases())


def test_examples_are_fine():
    for rec in examples():
        game = registry.get(rec["game"])
        exercise(rec)
        game.load(rec)


@pytest.mark.parametrize(("rec", "path"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_only_scorekeeper_errors_escape(rec, path):
    wrong = []
    for value in JUNK:
        record = replaced(rec, path, value)
        try:
            exercise(record)
        except ScorekeeperError as e:
            if len(str(e)) > 300:
                wrong.append(f"{value!r:.20}: message of {len(str(e))} characters: {str(e)[:100]}")
        except Exception as e:  # a bug: the command line's "exit 70", the web session dies
            wrong.append(f"{value!r:.20}: {type(e).__name__}: {str(e)[:100]}")
    assert not wrong, "\n".join(wrong)
