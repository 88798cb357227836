"""Hostile All Fives records: non-ASCII digits in tiles and in the short notation, huge
numbers (target, hand size, claims, draws, pips) and huge strings. Each is refused with a
ScorekeeperError naming the hand and turn (or the rule), with a short message."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.allfives import load, score_record
from scorekeeper.allfives.notation import parse_turn_text
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import IllegalTileError, RulesError, ScorekeeperError


def rec(turns, rules=None, players=("Ann", "Ben"), **hand):
    r = {"format": "scorekeeper/1", "game": "all-fives", "players": list(players)}
    if rules is not None:
        r["rules"] = rules
    r["hands"] = [{"leader": "Ann", "turns": turns, **hand}]
    return r


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


NON_ASCII = ["٣-٥", "３-５", "۳-۵", "३-५", "3-٥", "[٣|٥]", "٣:٥"]


@pytest.mark.parametrize("text", NON_ASCII)
def test_tiles_with_non_ascii_digits(text):
    with pytest.raises(IllegalTileError):
        Tile.parse(text)
    refused(rec([{"play": text}]), 1, 1, cls=IllegalTileError)
    refused(rec([{"play": "5-3"}, {"play": "3-3", "on": text}]), 1, 2, cls=IllegalTileError)
    refused(rec([{"play": "5-3"}], remaining={"Ben": [text]}), 1, None, "remaining")


@pytest.mark.parametrize("text", ["٣-٥", "３-５ on 5-5", "+٢ pass", "+２ 5-3", "5-3 claim ١٠", "5-3 on ٥-٥"])
def test_short_notation_with_non_ascii_digits(text):
    with pytest.raises(ValueError):
        parse_turn_text(text)


def test_short_notation_still_reads_ascii():
    assert parse_turn_text("+2 5-3 on 5-5 claim 10") == {"draw": 2, "play": "5-3", "on": "5-5", "claim": 10}
    with pytest.raises(ValueError) as info:
        parse_turn_text("+" + "9" * 5000 + " pass")
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("target", [0, 10_000, 10**400, True, 61.0])
def test_target_bounded(target):
    e = refused(rec([], rules={"target": target}), None, None, "rules.target", cls=RulesError)
    assert len(e.reason) < 100


def test_target_9999_is_fine():
    assert score_record(rec([], rules={"target": 9_999}))["target"] == 9_999


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("hand_size", 10**400),
        ("hand_size", -(10**400)),
        ("set", 10**400),
        ("scale", "x" * 10_000),
        ("exact_target", [0] * 10_000),
    ],
)
def test_huge_rule_values_make_short_messages(key, value):
    e = refused(rec([], rules={key: value}), None, None, f"rules.{key}", cls=RulesError)
    assert len(e.reason) < 120


def test_unknown_huge_rule_key():
    e = refused(rec([], rules={"k" * 10_000: 1}), None, None, cls=RulesError)
    assert len(str(e)) < 300  # the key is cut to 40 characters; the rest is the list of known rules


@pytest.mark.parametrize("claim", [10_000, 10**400, -1, 1.0, True])
def test_claims_bounded(claim):
    refused(rec([{"play": "5-5", "claim": claim}], rules={"claims": "muggins"}), 1, 1)


@pytest.mark.parametrize(
    "turn",
    [
        {"draw": 10**400, "play": "5-5"},
        {"play": "5-5", "player": "Zed" * 10_000},
        {"play": "5-5", "muggins": "Zed" * 10_000},
        {"play": "5" * 10_000},
        {"play": "5-5", "k" * 10_000: 1},
        {"pass": "x" * 10_000},
    ],
)
def test_huge_turn_values_make_short_messages(turn):
    refused(rec([turn], rules={"claims": "muggins"}), 1, 1)


@pytest.mark.parametrize("held", [10**400, -(10**400), "x" * 10_000])
def test_huge_remaining_values_make_short_messages(held):
    # Ann dominoes with her only tile; Ben's pips are given
    record = rec([{"play": "5-5"}], rules={"hand_size": 1}, remaining={"Ben": held})
    refused(record, 1, None, "remaining")
    record = rec([{"play": "5-5"}], rules={"hand_size": 1}, remaining={"Zed" * 10_000: 3})
    refused(record, 1, None, "remaining")


def test_huge_leader():
    record = rec([])
    record["hands"][0]["leader"] = "Zed" * 10_000
    refused(record, 1, None, "leader")
