"""Fives and Threes (the additions of issue 18), step 1: the ``count`` and ``draw`` rules.

The Fives and Threes count (fives and/or threes: 15 scores 8), its default target 61
and scale 1, and play without drawing (a player who cannot play knocks). How a hand
ends and who leads next are in ``test_fives_threes_hands.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.allfives import score_record
from scorekeeper.allfives.rules import Rules, fives_and_threes
from scorekeeper.errors import IllegalDrawError, RulesError, ScorekeeperError

from .builders import PASS, H, P, record

PUB_SO_FAR = {"count": "fives-and-threes", "spinner": "none", "draw": False, "hand_size": 7}

# The spec's worked example, up to (not including) the go: Ann's last tile ends the hand.
WORKED = [
    ("6-6", None, 12, 4),
    ("6-4", "6-6", 16, 0),
    ("4-4", "6-4", 20, 4),
    ("6-3", "6-6", 11, 0),
    ("3-1", "6-3", 9, 3),
    ("4-2", "4-4", 3, 1),
    ("2-2", "4-2", 5, 1),
    ("1-5", "3-1", 9, 3),
    ("2-5", "2-2", 10, 2),
    ("5-5", "1-5", 15, 8),
    ("5-6", "2-5", 16, 0),
    ("5-0", "5-5", 6, 2),
    ("0-3", "5-0", 9, 3),
]


def test_the_points_table_of_the_spec():
    table = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8, 25: 5, 27: 9, 30: 16}
    table |= {33: 11, 35: 7, 36: 12}
    for count, points in table.items():
        assert fives_and_threes(count) == points, count
    assert Rules.parse({"count": "fives-and-threes"}, players=2).worth(15) == 8


@given(st.integers(-50, 400))
def test_a_count_scores_its_fives_plus_its_threes(count):
    expected = 0 if count <= 0 else (count % 5 == 0) * count // 5 + (count % 3 == 0) * count // 3
    assert fives_and_threes(count) == expected
    assert Rules.parse({}, players=2).worth(count) == (count if count % 5 == 0 else 0)  # All Fives unchanged


def test_the_worked_example_counts_and_points():
    turns = [P(t, on) for t, on, _, _ in WORKED]
    out = score_record(record(hands=[H(turns, leader="Ann", remaining={"Ben": ["1-1"]})], rules=PUB_SO_FAR))
    got = [(t["count"], t["points"]) for t in out["hands"][0]["turns"]]
    assert got == [(c, p) for _, _, c, p in WORKED]
    assert out["target"] == 61
    assert out["hands"][0]["end"] == "domino"


def test_defaults_and_combinations():
    r = Rules.parse({"count": "fives-and-threes"}, players=4)
    assert (r.target, r.scale, r.draw, r.exact_target) == (61, 1, True, False)
    assert Rules.parse({}, players=2).count == "fives" and Rules.parse({}, players=2).draw is True


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"count": "threes"}, "rules.count"),
        ({"count": ["fives"]}, "rules.count"),
        ({"draw": 0}, "rules.draw"),
        ({"draw": "false"}, "rules.draw"),
        ({"count": "fives-and-threes", "scale": 5}, "rules.scale"),
        ({"draw": False, "boneyard_reserve": 2}, "rules.boneyard_reserve"),
    ],
)
def test_rule_errors_name_the_rule(rules, field):
    with pytest.raises(RulesError) as e:
        score_record(record(rules=rules))
    assert str(e.value).startswith(f"{field}: ")


def test_no_drawing_a_draw_is_refused_naming_hand_and_turn():
    rec = record(hands=[H([P("6-6"), P("6-4", "6-6", draw=1)], leader="Ann")], rules=PUB_SO_FAR)
    with pytest.raises(IllegalDrawError) as e:
        score_record(rec)
    assert str(e.value).startswith("hand 1, turn 2: there is no drawing")
    rec = record(hands=[H([P("6-6"), PASS(draw=2)], leader="Ann")], rules=PUB_SO_FAR)
    with pytest.raises(IllegalDrawError, match=r"^hand 1, turn 2: "):
        score_record(rec)


def test_no_drawing_a_knock_is_allowed_with_tiles_out_of_play_and_all_knocking_blocks():
    # 2 x 7 tiles dealt: 14 are out of play, yet a player may knock at once
    hand = H([P("6-6"), PASS(), PASS()], leader="Ann", remaining={"Ann": 24, "Ben": 30})
    out = score_record(record(hands=[hand], rules=PUB_SO_FAR))
    assert out["hands"][0]["end"] == "blocked"
    with pytest.raises(ScorekeeperError, match=r"^hand 1, turn 2: .*cannot pass"):  # All Fives still draws first
        score_record(record(hands=[H([P("6-6"), PASS()], leader="Ann")]))


def test_the_lead_may_not_be_a_knock():
    with pytest.raises(ScorekeeperError, match=r"^hand 1, turn 1: "):
        score_record(record(hands=[H([PASS()], leader="Ann")], rules=PUB_SO_FAR))


def test_the_table_offers_the_knock_and_no_draws_where_there_is_no_drawing(shared):
    from .test_ui_model import new_table, play

    table = new_table(shared, rules={"count": "fives-and-threes", "spinner": "none", "draw": False, "hand_size": 7})
    assert table.play.drawable == 0 and not table.play.can_pass  # the lead is a tile
    play(table, "6-6")
    assert table.play.drawable == 0 and table.play.can_pass  # 14 tiles undealt, yet Ben may knock
    table.play.pass_()
    assert table.error is None, table.error
    turn = table.match.hand.turns[-1]
    assert turn.tile is None and turn.drew == 0
    # with drawing (the default) the same position asks to draw first
    drawing = new_table(shared, rules={"spinner": "none"})
    play(drawing, "6-6")
    assert drawing.play.drawable > 0 and not drawing.play.can_pass
