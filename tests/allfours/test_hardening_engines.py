"""Hostile All Fours records: every wrong JSON type in every field, falsy values read as
"none", huge numbers and strings, thousands of players. Each must be refused with a
ScorekeeperError naming the hand and the field (never a TypeError, KeyError or
AttributeError), with a short message, and quickly."""

from __future__ import annotations

import copy

import pytest
from support import finishes

from scorekeeper.allfours import load, score_record
from scorekeeper.errors import RecordFormatError, RulesError, ScorekeeperError

FOUR = ["Ann", "Ben", "Cy", "Di"]
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}

#: Every fact filled in (a revoke and an award among the penalties).
HAND = {
    "dealer": "Ann",
    "turn_up": ["6"],
    "beg": "stand",
    "high": "Ben",
    "low": "Cy",
    "jack": {"held": "Ann", "won": "Ben"},
    "game": {"Us": 23, "Them": 30},
    "penalties": [
        {"type": "revoke", "by": "Cy", "honour": False},
        {"type": "award", "side": "Us", "points": 1, "reason": "house"},
    ],
}
CARDS_HAND = {"dealer": "Ann", "game_cards": {"Us": ["A", "10"], "Them": ["K"]}}


def rec(*hands, rules=None):
    r = {"format": "scorekeeper/1", "game": "all-fours", "players": FOUR, "teams": TEAMS, "hands": list(hands)}
    if rules is not None:
        r["rules"] = rules
    return r


def refused(record, field: str | None, hand: int | None = 1, cls=ScorekeeperError) -> ScorekeeperError:
    """``score_record`` and ``load`` both refuse ``record`` with ``cls`` at ``hand``/``field``."""
    for fn in (load, score_record):
        with pytest.raises(cls) as info:
            fn(copy.deepcopy(record))
        e = info.value
        assert e.hand == hand, str(e)
        if field is not None:
            assert e.field is not None and e.field.startswith(field), str(e)
        assert len(str(e)) < 300, str(e)
    return e


def test_the_full_hand_is_fine():
    out = score_record(rec(copy.deepcopy(HAND), copy.deepcopy(CARDS_HAND)))
    assert out["hands"][1]["card_points"] == {"Us": 14, "Them": 3}


JUNK = [[], {}, ["Ann"], {"a": 1}, True, False, 1.5, 0, 7, -1, 10**400, "Zed", "x" * 100_000]


@pytest.mark.parametrize("value", [[], {}, ["trinidad"], {"trinidad": 1}, True, 1, 1.5])
def test_variant_of_a_wrong_type(value):
    e = refused(rec(rules={"variant": value}), "rules.variant", hand=None, cls=RulesError)
    assert "unknown variant" in e.reason


@pytest.mark.parametrize("value", [[], {}, ["revoke"], {"revoke": 1}, True, 1, None])
def test_penalty_type_of_a_wrong_type(value):
    hand = {"dealer": "Ann", "penalties": [{"type": value, "by": "Cy"}]}
    refused(rec(hand), "penalties[1]")


PATHS = [
    ("dealer",),
    ("high",),
    ("low",),
    ("jack", "held"),
    ("jack", "won"),
    ("beg",),
    ("game", "Us"),
    ("penalties", 0, "by"),
    ("penalties", 0, "honour"),
    ("penalties", 1, "side"),
    ("penalties", 1, "points"),
    ("penalties", 1, "reason"),
]


def _set(obj, path, value):
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


@pytest.mark.parametrize("path", PATHS, ids=lambda p: ".".join(map(str, p)))
@pytest.mark.parametrize("value", JUNK, ids=lambda v: repr(v)[:12])
def test_every_field_of_a_wrong_type(path, value):
    hand = copy.deepcopy(HAND)
    _set(hand, path, value)
    r = rec(hand)
    try:
        score_record(copy.deepcopy(r))
    except ScorekeeperError as e:
        assert e.hand == 1 and e.field is not None, str(e)
        assert len(str(e)) < 300
    else:  # only a value of the right type may pass (a number of points, a player...)
        assert path[-1] in ("game", "Us", "points", "reason") or path == ("penalties", 0, "honour")
        load(r)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("game", "Us"), True),
        (("game", "Us"), 23.0),
        (("game", "Us"), 81),
        (("game", "Us"), 10**400),
        (("penalties", 1, "points"), True),
        (("penalties", 1, "points"), 1.0),
        (("penalties", 1, "points"), 10_000),
        (("penalties", 1, "points"), 10**400),
        (("penalties", 0, "honour"), 0),
        (("penalties", 0, "honour"), "yes"),
        (("penalties", 1, "reason"), 5),
    ],
)
def test_exact_json_types_and_bounds(path, value):
    hand = copy.deepcopy(HAND)
    _set(hand, path, value)
    refused(rec(hand), "game" if path[0] == "game" else "penalties[")


def test_award_points_up_to_9999():
    hand = {"dealer": "Ann", "penalties": [{"type": "award", "side": "Us", "points": 9_999}]}
    out = score_record(rec(hand, rules={"target": 9_999}))
    assert out["winner"] == "Us"


@pytest.mark.parametrize("value", [[], ["Us"], {"Us": "A"}, {"Us": [6]}, {"Us": ["A"] * 5}, {"Zed": []}, 0, None])
def test_game_cards_of_a_wrong_type(value):
    refused(rec({"dealer": "Ann", "game_cards": value}), "game_cards")


@pytest.mark.parametrize("value", [0, False, "", {}, 1, True, "J", {"J": 1}])
def test_turn_up_that_is_not_a_list(value):
    # only an absent key, null and [] mean "no card turned up" ("Empty or absent")
    e = refused(rec({"dealer": "Ann", "turn_up": value}), "turn_up", cls=RecordFormatError)
    assert "list of ranks" in e.reason


@pytest.mark.parametrize("value", [None, []])
def test_turn_up_empty_or_null(value):
    out = score_record(rec({"dealer": "Ann", "turn_up": value}))
    assert out["hands"][0]["points"] == []


@pytest.mark.parametrize("rank", [6, 10, 1.5, True, None, [], "１０", "٣", "JJ", "j " * 50])
def test_a_rank_is_a_rank_string(rank):
    refused(rec({"dealer": "Ann", "turn_up": [rank]}), "turn_up")
    refused(rec({"dealer": "Ann", "game_cards": {"Us": [rank]}}), "game_cards")


def test_more_than_four_of_a_rank_turned_up():
    refused(rec({"dealer": "Ann", "beg": "run", "turn_up": ["6"] * 5}), "turn_up")
    out = score_record(rec({"dealer": "Ann", "beg": "run", "turn_up": ["5"] * 4}))
    assert out["hands"][0]["end"] == "open"


@pytest.mark.parametrize(("key", "value"), [("jack", False), ("jack", 0), ("jack", []), ("jack", ""), ("penalties", 0), ("penalties", False), ("penalties", {}), ("penalties", ""), ("game", 0), ("game", False), ("game", []), ("game", ""), ("game_cards", 0), ("game_cards", [])])  # fmt: skip
def test_falsy_values_are_not_none(key, value):
    refused(rec({"dealer": "Ann", key: value}), key)


@pytest.mark.parametrize("target", [0, -1, 10_000, 10**400, True, 14.0, "14", None, []])
def test_target_bounded(target):
    e = refused(rec(rules={"target": target}), "rules.target", hand=None, cls=RulesError)
    assert "9,999" in e.reason


def test_target_9999_is_fine():
    assert score_record(rec(rules={"target": 9_999}))["target"] == 9_999


def test_long_names_and_values_are_cut_in_messages():
    long = "Zed" * 30_000
    for path in PATHS[:5]:
        hand = copy.deepcopy(HAND)
        _set(hand, path, long)
        e = refused(rec(hand), None)
        assert "ZedZedZed" in e.reason and len(e.reason) < 200
    e = refused(rec(rules={"variant": long}), "rules.variant", hand=None)
    assert len(e.reason) < 250


def test_thousands_of_players_are_refused_quickly():
    players = [f"P{i}" for i in range(40_000)]
    record = {"format": "scorekeeper/1", "game": "all-fours", "players": players, "hands": []}
    with finishes(120), pytest.raises(RecordFormatError) as info:
        load(record)
    assert info.value.field == "players"
