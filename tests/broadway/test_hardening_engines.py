"""Hostile Broadway records: non-ASCII digits in tiles, far-off cells, huge numbers and
strings, and a hand that never ends (the same tiles exposed again and again)."""

from __future__ import annotations

import copy

import pytest
from support import finishes

from scorekeeper.broadway import load, score_record
from scorekeeper.broadway.engine import MAX_TURNS
from scorekeeper.broadway.grid import parse_pips
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import HandOverError, IllegalTileError, RecordFormatError, ScorekeeperError

PLAYERS = ["Ann", "Ben", "Cy", "Di"]
DOUBLE = {"play": "6-6", "at": [[0, 0], [0, 1]]}  # Ben (East) sets tiles North-South


def rec(turns, **hand):
    return {
        "format": "scorekeeper/1",
        "game": "broadway",
        "players": PLAYERS,
        "hands": [{"leader": "Ben", "turns": turns, **hand}],
    }


def refused(record, hand=1, turn=None, field=None, cls=ScorekeeperError) -> ScorekeeperError:
    for fn in (load, score_record):
        with pytest.raises(cls) as info:
            fn(copy.deepcopy(record))
        e = info.value
        assert (e.hand, e.turn) == (hand, turn), str(e)
        if field is not None:
            assert e.field == field, str(e)
        assert len(str(e)) < 300, str(e)
    return e


@pytest.mark.parametrize("text", ["٦-٦", "６-６", "६-६", "6-٦"])
def test_tiles_with_non_ascii_digits(text):
    with pytest.raises(IllegalTileError):
        parse_pips(text)
    refused(rec([{"play": text, "at": [[0, 0], [0, 1]]}]), 1, 1, cls=IllegalTileError)
    refused(rec([DOUBLE, {"exposed": text}]), 1, 2, cls=IllegalTileError)


@pytest.mark.parametrize("far", [10_000, -10_000, 10**400, -(10**400)])
def test_far_off_cells(far):
    refused(rec([{"play": "6-6", "at": [[far, 0], [far, 1]]}]), 1, 1, cls=RecordFormatError)
    refused(rec([{"play": "6-6", "at": [[0, far], [0, 1]]}]), 1, 1, cls=RecordFormatError)


def test_cells_up_to_9999():
    out = score_record(rec([{"play": "6-6", "at": [[9_999, -9_999], [9_999, -9_998]]}]))
    assert out["hands"][0]["turns"][0]["at"] == [[9_999, -9_999], [9_999, -9_998]]


@pytest.mark.parametrize(
    "turn",
    [
        {"play": "6-6", "at": [[0, 0], [0, 1]], "player": "Zed" * 10_000},
        {"play": "6" * 10_000, "at": [[0, 0], [0, 1]]},
        {"play": "6-6", "at": [[0, 0], [0, 1]], "k" * 10_000: 1},
        {"pass": "x" * 10_000},
        {"play": "6-6", "at": ["x" * 10_000, [0, 1]]},
    ],
)
def test_huge_turn_values_make_short_messages(turn):
    refused(rec([turn]), 1, 1)


def test_huge_leader_and_unplayed():
    record = rec([])
    record["hands"][0]["leader"] = "Zed" * 10_000
    refused(record, 1, None, "leader")
    passes = [DOUBLE] + [{"pass": True}] * 4  # blocked: Ben set one tile
    for unplayed in ({"Ann": 10**400}, {"Zed" * 10_000: 7}, {"Ann": ["x" * 10_000]}, {"A" * 10_000: "x"}):
        refused(rec(passes, unplayed=unplayed), 1, None, "unplayed")


def _exposing(n):
    """After the double, each seat exposes its own tile again and again (allowed)."""
    own = ["5-2", "4-1", "3-0", "2-1"]  # Cy, Di, Ann, Ben in turn
    return [DOUBLE] + [{"exposed": own[i % 4]} for i in range(n)]


def test_tiles_exposed_again_are_kept_once():
    m = load(rec(_exposing(400)))
    h = m.hand
    assert len(h.turns) == 401
    assert [str(t) for t, _, _ in h.exposures] == ["5-2", "4-1", "3-0", "2-1"]
    assert [turn for _, _, turn in h.exposures] == [2, 3, 4, 5]
    assert h.known_held(2) == (h.exposures[0][0],)


def test_a_hand_takes_at_most_9999_turns():
    with finishes(300):  # quadratic before: hours on a busy machine (a hang guard, not a timing)
        load(rec(_exposing(MAX_TURNS - 1)))  # the double and 9,998 exposures
        e = refused(rec(_exposing(MAX_TURNS)), 1, MAX_TURNS + 1, cls=HandOverError)
    assert "9,999 turns" in e.reason


def test_a_hand_value_stays_what_it_was_when_an_earlier_one_is_extended_again():
    """The turns of a hand are shared between its values (a turn costs O(1), not a copy of
    every turn before it): a value extended a second time, as after an undo, makes a branch
    of its own and changes neither the first branch nor itself."""
    m = load(rec(_exposing(6)))
    base = m.hand
    first, t1 = base.with_exposed(Tile.parse("3-0"))  # Ann, to move, exposes her tile again
    second, t2 = base.with_pass()
    assert (len(base.turns), len(first.turns), len(second.turns)) == (7, 8, 8)
    assert first.turns[-1] is t1 and second.turns[-1] is t2 and t1.kind == "exposed" and t2.kind == "pass"
    assert first.turns[:7] == second.turns[:7] == tuple(base.turns)
    assert base.turns == tuple(base.turns) and base.turns != first.turns != second.turns
    assert list(reversed(first.turns)) == list(reversed(tuple(first.turns)))
    third, _ = first.with_pass()
    assert [t.kind for t in third.turns[-2:]] == ["exposed", "pass"] and len(first.turns) == 8
    m.push(m.pop())  # undo and redo the last turn: the record is the same
    assert m.to_record() == load(rec(_exposing(6))).to_record()
