"""Black-box specification tests: every error of the All Fives spec.

all-fives.md "Errors (all status 2, naming hand and turn)", record-format.md
"Errors", and docs/rules-decisions.md ("Error locations", refused keys).
Each test checks that a ScorekeeperError is raised and that it names the
hand and turn (`hand H, turn T: ...`), or the hand and field
(`hand H, remaining: ...` / `hand H, leader: ...`), or the envelope / rule
field (`rules.target: ...`).
"""

import copy
import random

import pytest

from scorekeeper.allfives import score_record
from scorekeeper.errors import ScorekeeperError

from .builders import PASS, H, P, record


# --------------------------------------------------------------- helpers
def raises(rec):
    with pytest.raises(ScorekeeperError) as ei:
        score_record(rec)
    e = ei.value
    assert isinstance(e, ValueError)
    assert not str(e).startswith("error:"), "the message carries no 'error: ' prefix"
    return e


def expect_turn_error(rec, hand, turn):
    e = raises(rec)
    prefix = f"hand {hand}, turn {turn}: "
    assert (e.hand, e.turn) == (hand, turn), str(e)
    assert str(e).startswith(prefix), str(e)
    assert len(str(e)) > len(prefix) + 5, "the message says why"
    assert "\n" not in str(e)
    return e


def expect_field_error(rec, hand, field):
    e = raises(rec)
    prefix = f"hand {hand}, {field}: "
    assert e.hand == hand and e.turn is None, str(e)
    assert str(e).startswith(prefix), str(e)
    assert len(str(e)) > len(prefix) + 5
    return e


def expect_envelope_error(rec, field):
    e = raises(rec)
    assert e.hand is None and e.turn is None, str(e)
    assert str(e).startswith(field), str(e)
    return e


def one_hand(turns, rules=None, players=("Ann", "Ben"), teams=None, leader="Ann", remaining=None):
    return record(players=players, teams=teams, rules=rules, hands=[H(turns, leader=leader, remaining=remaining)])


TEAMS = {"North-South": ["Ann", "Cy"], "East-West": ["Ben", "Di"]}
FOUR = ["Ann", "Ben", "Cy", "Di"]


def domino_turns():
    # hand_size 2: Ann 1-2; Ben draws 1, plays 2-3 on 1-2; Ann 1-0 on 1-2 ->
    # Ann dominoes at turn 3. Ben holds 2 - 1 + 1 = 2 tiles (<= 24 pips).
    return [P("1-2"), P("2-3", on="1-2", draw=1), P("1-0", on="1-2")]


def domino_record(remaining, extra_turns=(), rules=None, hands_after=()):
    r = {"hand_size": 2}
    r.update(rules or {})
    h1 = H(domino_turns() + list(extra_turns), leader="Ann", remaining=remaining)
    return record(rules=r, hands=[h1, *hands_after])


def blocked_hand(remaining=None):
    # defaults: Ann 6-3; Ben draws the 10-tile boneyard and passes; Ann
    # passes -> blocked at turn 3. Ann holds 8 tiles, Ben 19.
    return H(
        [P("6-3"), PASS(draw=10), PASS()],
        leader="Ann",
        remaining={"Ann": 20, "Ben": 30} if remaining is None else remaining,
    )


# ------------------------------------------------------------ tiles
@pytest.mark.parametrize("tile", ["7-1", "7-7", "9-9", "x-y", "53", "5-", "-3", "", "5-3-1", "five-three", "5-3x"])
def test_unknown_or_out_of_set_tile(tile):
    expect_turn_error(one_hand([P("3-5"), P(tile)]), 1, 2)


@pytest.mark.parametrize("tile", ["7-1", "x-y", ""])
def test_unknown_tile_on_the_lead(tile):
    expect_turn_error(one_hand([P(tile)]), 1, 1)


@pytest.mark.parametrize("set_,tile", [(9, "10-1"), (9, "10-10"), (12, "13-1"), (12, "13-13")])
def test_out_of_set_tile_in_bigger_sets(set_, tile):
    expect_turn_error(one_hand([P("3-5"), P(tile)], rules={"set": set_}), 1, 2)


@pytest.mark.parametrize("on", ["7-7", "x", ""])
def test_unknown_tile_in_on(on):
    expect_turn_error(one_hand([P("3-5"), P("5-1", on=on)]), 1, 2)


@pytest.mark.parametrize("again", ["5-3", "3-5", "5:3", "[3-5]", "3|5"])
def test_tile_already_down(again):
    # 3-5 lead, Ben 5-1 on 3-5, Ann plays the lead tile again (any spelling)
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P(again)]), 1, 3)


def test_tile_already_down_in_an_earlier_turn_with_on():
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P("1-5", on="5-1")]), 1, 3)


@pytest.mark.parametrize("tile", ["6-6", "6-1", "0-4"])
def test_tile_matching_no_open_end(tile):
    # open ends after lead 3-5 are 3 and 5
    expect_turn_error(one_hand([P("3-5"), P(tile)]), 1, 2)


def test_tile_matching_only_a_covered_half():
    # 3-5, then 5-1 on the 5: open ends 3 and 1; 5-2 matches nothing open
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P("5-2")]), 1, 3)


def test_on_names_tile_not_in_layout():
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="6-6")]), 1, 2)


def test_on_names_tile_with_no_matching_pips():
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P("1-6", on="3-5")]), 1, 3)


def test_on_names_tile_whose_matching_half_is_covered():
    # 3-5's 5 is covered by 5-1; 5-2 on 3-5 has no matching open point
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P("5-2", on="3-5")]), 1, 3)


def test_spec_example_both_sides_of_double_covered():
    # record-format.md: "hand 1, turn 4: 3-5 cannot be played on 3-3: both
    # sides of 3-3 are covered" -- no spinner, so 3-3 takes two tiles only
    turns = [P("3-3"), P("3-1", on="3-3"), P("3-2", on="3-3"), P("3-5", on="3-3")]
    e = expect_turn_error(one_hand(turns, rules={"spinner": "none"}), 1, 4)
    assert "3-3" in str(e)


def test_spinner_with_all_four_arms_taken():
    # worked example: the spinner 2-2 has 3-2, 2-4 on its sides and 2-0, 2-5 on
    # its ends; nothing more goes on it
    turns = [
        P("3-2"),
        P("2-2", on="3-2"),
        P("2-4", on="2-2"),
        P("2-0", on="2-2"),
        P("3-6", on="3-2"),
        P("2-5", on="2-2"),
        P("2-1", on="2-2"),
    ]
    expect_turn_error(one_hand(turns), 1, 7)


def test_ambiguous_placement_without_on():
    # 3-5, 5-1 on 3-5: open ends 3 (on 3-5) and 1 (on 5-1); 3-1 fits both tiles
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5"), P("3-1")]), 1, 3)


def test_ambiguous_placement_spinner_and_line():
    # 3-2; 2-2 on 3-2 (spinner, one side open: 2); 6-3 on the 3 of 3-2 (open 6).
    # 6-2 fits 6-3 (its 6) and 2-2 (its 2) -> ambiguous
    turns = [P("3-2"), P("2-2", on="3-2"), P("6-3", on="3-2"), P("6-2")]
    expect_turn_error(one_hand(turns), 1, 4)


@pytest.mark.parametrize("on", ["5-5", "3-3", "5-3"])
def test_on_on_the_lead(on):
    expect_turn_error(one_hand([P("5-3", on=on)]), 1, 1)


# ------------------------------------------------------------ draws and passes
def test_pass_while_tiles_can_be_drawn():
    expect_turn_error(one_hand([P("3-5"), PASS()]), 1, 2)


def test_pass_after_drawing_too_few():
    # boneyard 10: after drawing 9 one tile can still be drawn
    expect_turn_error(one_hand([P("3-5"), PASS(draw=9)]), 1, 2)


def test_pass_above_reserve():
    # reserve 1: 9 of 10 may be drawn; after drawing 8 a pass is refused
    expect_turn_error(one_hand([P("3-5"), PASS(draw=8)], rules={"boneyard_reserve": 1}), 1, 2)


def test_pass_as_the_lead():
    expect_turn_error(one_hand([PASS()]), 1, 1)


def test_draw_more_than_boneyard_at_once():
    expect_turn_error(one_hand([P("3-5"), PASS(draw=11)]), 1, 2)


def test_draw_more_than_boneyard_over_turns():
    # 6 + 5 = 11 > 10
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5", draw=6), P("3-2", on="3-5", draw=5)]), 1, 3)


def test_draw_into_the_reserve():
    expect_turn_error(one_hand([P("3-5"), PASS(draw=9)], rules={"boneyard_reserve": 2}), 1, 2)


@pytest.mark.parametrize("draw", [0, -1, 1.5, "2", True, None, [1]])
def test_draw_must_be_a_whole_number_at_least_1(draw):
    expect_turn_error(one_hand([P("3-5"), {"draw": draw, "play": "5-1", "on": "3-5"}]), 1, 2)


def test_turn_with_only_a_draw():
    expect_turn_error(one_hand([P("3-5"), {"draw": 2}]), 1, 2)


def test_turn_with_play_and_pass():
    expect_turn_error(one_hand([P("3-5"), {"play": "5-1", "pass": True}]), 1, 2)


@pytest.mark.parametrize(
    "turn",
    [
        {},
        {"pass": False},
        {"pass": "yes"},
        {"play": 53},
        {"play": None},
        {"play": "5-1", "on": 35},
        {"play": ["5", "1"]},
    ],
)
def test_malformed_turns(turn):
    expect_turn_error(one_hand([P("3-5"), turn]), 1, 2)


@pytest.mark.parametrize("turn", ["5-1", 5, None, ["play", "5-1"]])
def test_turn_that_is_not_an_object(turn):
    expect_turn_error(one_hand([P("3-5"), turn]), 1, 2)


def test_unknown_key_on_a_turn():
    # rules-decisions: "clam" must not be silently ignored
    e = expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5", clam=10)]), 1, 2)
    assert "clam" in str(e)


# ------------------------------------------------------------ players
def test_turn_by_the_wrong_player():
    expect_turn_error(one_hand([P("3-5", player="Ann"), P("5-1", on="3-5", player="Ann")]), 1, 2)


def test_lead_by_the_wrong_player():
    expect_turn_error(one_hand([P("3-5", player="Ben")]), 1, 1)


def test_turn_by_an_unknown_player():
    expect_turn_error(one_hand([P("3-5"), P("5-1", on="3-5", player="Eve")]), 1, 2)


def test_wrong_player_in_a_partnership():
    # seating Ann, Ben, Cy, Di: turn 3 is Cy's, not Di's
    turns = [P("3-5"), P("5-1", on="3-5"), P("3-2", on="3-5", player="Di")]
    expect_turn_error(one_hand(turns, players=FOUR, teams=TEAMS), 1, 3)


# ------------------------------------------------------------ hand over
def test_turn_after_domino():
    expect_turn_error(domino_record({"Ben": 10}, extra_turns=[PASS()]), 1, 4)


def test_play_after_domino():
    expect_turn_error(domino_record({"Ben": 10}, extra_turns=[P("3-4", on="2-3")]), 1, 4)


def test_turn_after_block():
    h = blocked_hand()
    h["turns"].append(P("3-1", on="6-3"))
    expect_turn_error(record(hands=[h]), 1, 4)


def test_errors_in_a_later_hand_name_that_hand():
    # hand 1 ends by domino (leader of hand 2 defaults to Ann); hand 2 turn 2
    # plays a tile that matches nothing (lead 3-5: open 3 and 5)
    rec = domino_record({"Ben": 10}, hands_after=[H([P("3-5"), P("6-6")])])
    expect_turn_error(rec, 2, 2)


def test_tiles_are_not_down_across_hands_but_are_within():
    # 1-2 was played in hand 1; in hand 2 it may be led, and then not again
    rec = domino_record({"Ben": 10}, hands_after=[H([P("1-2"), P("2-1")])])
    expect_turn_error(rec, 2, 2)


# ------------------------------------------------------------ remaining
def test_remaining_missing_after_domino():
    expect_field_error(domino_record(None), 1, "remaining")


def test_remaining_missing_after_block():
    h = blocked_hand()
    del h["remaining"]
    expect_field_error(record(hands=[h]), 1, "remaining")


def test_remaining_missing_for_one_player():
    # three players, hand_size 2: Ann 1-2, Ben 2-3, Cy 1-4 on 1-2, Ann 3-0 on
    # 2-3 -> Ann dominoes; Ben and Cy both hold one tile; Cy is not listed
    turns = [P("1-2"), P("2-3", on="1-2"), P("1-4", on="1-2"), P("3-0", on="2-3")]
    rec = one_hand(turns, players=["Ann", "Ben", "Cy"], rules={"hand_size": 2}, remaining={"Ben": 5})
    expect_field_error(rec, 1, "remaining")


def test_remaining_missing_for_a_later_hand():
    h2 = blocked_hand()
    del h2["remaining"]
    rec = record(hands=[blocked_hand(), h2])
    expect_field_error(rec, 2, "remaining")


@pytest.mark.parametrize(
    "ben",
    [
        ["6-6"],  # Ben holds 2 tiles, 1 listed
        ["6-6", "5-5", "4-4"],  # 3 listed
        [],  # none listed
        ["6-6", "1-2"],  # 1-2 is on the table
        ["6-6", "[3-2]"],  # 2-3 is on the table (other spelling)
        ["6-6", "6-6"],  # listed twice
        ["6-6", "6|6"],  # listed twice, other spelling
        ["6-6", "7-7"],  # not a tile of the set
        ["6-6", "x"],  # not a tile
        25,  # 2 tiles hold at most 2 x 12 = 24 pips
        -1,  # negative
        1.5,  # not a whole number
        "10",  # wrong type
        None,
        {"6-6": 1},
    ],
)
def test_impossible_remaining(ben):
    expect_field_error(domino_record({"Ben": ben}), 1, "remaining")


def test_remaining_tile_listed_by_two_players():
    # three players, hand_size 2, Ann dominoes; Ben and Cy hold one tile each
    turns = [P("1-2"), P("2-3", on="1-2"), P("1-4", on="1-2"), P("3-0", on="2-3")]
    rec = one_hand(
        turns, players=["Ann", "Ben", "Cy"], rules={"hand_size": 2}, remaining={"Ben": ["6-6"], "Cy": ["6-6"]}
    )
    expect_field_error(rec, 1, "remaining")


def test_remaining_for_unknown_player():
    expect_field_error(domino_record({"Ben": 10, "Eve": 5}), 1, "remaining")


@pytest.mark.parametrize("ann", [["6-6"], 5])
def test_remaining_tiles_for_the_dominoing_player(ann):
    expect_field_error(domino_record({"Ben": 10, "Ann": ann}), 1, "remaining")


def test_remaining_pips_out_of_range_in_set_9():
    # set 9: one tile holds at most 2 x 9 = 18; Ben holds 2 tiles -> max 36
    expect_field_error(domino_record({"Ben": 37}, rules={"set": 9}), 1, "remaining")


def test_remaining_on_an_open_hand():
    expect_field_error(one_hand([P("3-5"), P("5-1", on="3-5")], remaining={"Ann": 10, "Ben": 10}), 1, "remaining")


@pytest.mark.parametrize("rem", [[["Ben", 10]], "Ben: 10", 10])
def test_remaining_not_an_object(rem):
    expect_field_error(domino_record(rem), 1, "remaining")


# ------------------------------------------------------------ leader
def test_leader_missing_for_hand_1():
    expect_field_error(record(hands=[H([P("3-5")])]), 1, "leader")


def test_leader_missing_after_block():
    expect_field_error(record(hands=[blocked_hand(), H([P("3-5")])]), 2, "leader")


def test_leader_different_from_dominoing_player():
    rec = domino_record({"Ben": 10}, hands_after=[H([P("3-5")], leader="Ben")])
    expect_field_error(rec, 2, "leader")


@pytest.mark.parametrize("leader", ["Eve", "", 1, ["Ann"]])
def test_leader_unknown_or_wrong_type(leader):
    expect_field_error(record(hands=[H([P("3-5")], leader=leader)]), 1, "leader")


# ------------------------------------------------------------ claims
def test_claim_on_a_pass():
    expect_turn_error(one_hand([P("3-5"), PASS(draw=10, claim=0)]), 1, 2)


@pytest.mark.parametrize("claim", ["10", [10], -5, 2.5])
def test_claim_wrong_value(claim):
    expect_turn_error(one_hand([P("5-5"), P("5-0", on="5-5", claim=claim)]), 1, 2)


def test_muggins_call_without_muggins_rule():
    expect_turn_error(one_hand([P("5-5", claim=5), P("5-0", on="5-5", muggins="Ann")]), 1, 2)
    expect_turn_error(one_hand([P("5-5", claim=5, muggins="Ben")]), 1, 1)


@pytest.mark.parametrize("caller", ["Ann", "Cy", "Eve", 5])
def test_muggins_caller_must_be_an_opponent(caller):
    # Ann (North-South) claims 5 of 10; Ann herself, partner Cy, or an unknown
    # name cannot call muggins on her
    rec = one_hand([P("5-5", claim=5, muggins=caller)], players=FOUR, teams=TEAMS, rules={"claims": "muggins"})
    expect_turn_error(rec, 1, 1)


# ------------------------------------------------------------ match over
def test_turn_after_match_won():
    # target 10: Ann's lead 5-5 (10) wins; Ben's turn 2 is refused
    expect_turn_error(one_hand([P("5-5"), P("5-0", on="5-5")], rules={"target": 10}), 1, 2)


def test_remaining_after_match_won_mid_hand():
    # rules-decisions: no `remaining` for the hand in which the match was won
    rec = one_hand([P("5-5")], rules={"target": 10, "hand_size": 1}, remaining={"Ben": 5})
    expect_field_error(rec, 1, "remaining")


def test_hand_after_match_won_mid_hand():
    rec = record(rules={"target": 10}, hands=[H([P("5-5")], leader="Ann"), H([P("3-5")], leader="Ann")])
    e = raises(rec)
    assert e.hand == 2 and str(e).startswith("hand 2"), str(e)


def test_hand_after_match_won_at_settlement():
    # target 10: Ben holds 12 -> round5(12) = 10 -> Ann wins at the settlement
    rec = domino_record({"Ben": 12}, rules={"target": 10}, hands_after=[H([P("3-5")])])
    e = raises(rec)
    assert e.hand == 2 and str(e).startswith("hand 2"), str(e)


def test_unfinished_hand_followed_by_another():
    # only the last hand may be unfinished
    rec = record(hands=[H([P("3-5")], leader="Ann"), H([P("3-5")], leader="Ann")])
    e = raises(rec)
    assert e.hand in (1, 2), str(e)
    assert str(e).startswith(f"hand {e.hand}")


# ------------------------------------------------------------ rules
BAD_RULES = [
    ("set", 7),
    ("set", 5),
    ("set", 0),
    ("set", "6"),
    ("set", None),
    ("set", True),
    ("set", 6.5),
    ("spinner", "first"),
    ("spinner", "None"),
    ("spinner", 1),
    ("spinner", None),
    ("hand_size", 0),
    ("hand_size", -1),
    ("hand_size", "5"),
    ("hand_size", 2.5),
    ("hand_size", True),
    ("hand_size", None),
    ("hand_end", "winner"),
    ("hand_end", 1),
    ("hand_end", None),
    ("block_winner", "team"),
    ("block_winner", 0),
    ("block_winner", None),
    ("scale", 2),
    ("scale", 0),
    ("scale", 10),
    ("scale", "5"),
    ("scale", None),
    ("scale", True),
    ("target", 0),
    ("target", -10),
    ("target", "250"),
    ("target", 2.5),
    ("target", True),
    ("target", None),
    ("exact_target", "true"),
    ("exact_target", 1),
    ("exact_target", None),
    ("boneyard_reserve", 3),
    ("boneyard_reserve", -1),
    ("boneyard_reserve", "1"),
    ("boneyard_reserve", True),
    ("boneyard_reserve", 1.5),
    ("claims", "strict"),
    ("claims", True),
    ("claims", None),
]


@pytest.mark.parametrize("key,value", BAD_RULES, ids=[f"{k}={v!r}" for k, v in BAD_RULES])
def test_invalid_rule_value(key, value):
    e = expect_envelope_error(record(rules={key: value}, hands=[H([P("3-5")], leader="Ann")]), f"rules.{key}")
    assert str(e).startswith(f"rules.{key}: ")


@pytest.mark.parametrize("key", ["spiner", "Set", "handsize", "muggins", "target_score"])
def test_unknown_rule_key(key):
    e = expect_envelope_error(record(rules={key: 1}), "rules")
    assert key in str(e)


@pytest.mark.parametrize("rules", [[], "first-double", 6])
def test_rules_not_an_object(rules):
    expect_envelope_error(record(rules=rules), "rules")


@pytest.mark.parametrize(
    "players,rules",
    [
        (2, {"hand_size": 15}),  # 30 > 28
        (5, {"hand_size": 6}),  # 30 > 28
        (4, {"hand_size": 8}),  # 32 > 28
        (2, {"set": 9, "hand_size": 28}),  # 56 > 55
        (3, {"set": 12, "hand_size": 31}),  # 93 > 91
    ],
)
def test_more_tiles_dealt_than_the_set_holds(players, rules):
    names = ["Ann", "Ben", "Cy", "Di", "Ed"][:players]
    expect_envelope_error(record(players=names, rules=rules), "rules.hand_size")


def test_tiles_dealt_up_to_the_set_are_fine():
    # boundaries of the previous test: 2 x 14 = 28, 2 x 27 = 54 <= 55
    assert score_record(record(rules={"hand_size": 14}))["target"] == 250
    assert score_record(record(rules={"set": 9, "hand_size": 27}))["target"] == 250


def test_six_players_need_an_explicit_hand_size():
    # rules-decisions: the defaults cover 2-5 players only
    e = raises(record(players=["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]))
    assert e.hand is None and "hand_size" in str(e)
    # 6 x 5 = 30 > 28
    e = raises(record(players=["Ann", "Ben", "Cy", "Di", "Ed", "Flo"], rules={"hand_size": 5}))
    assert "hand_size" in str(e)


# ------------------------------------------------------------ envelope
def base():
    return record(hands=[H([P("3-5")], leader="Ann")])


@pytest.mark.parametrize("value", ["scorekeeper/2", "scorekeeper", "", 1, None])
def test_bad_format(value):
    rec = base()
    rec["format"] = value
    expect_envelope_error(rec, "format")


def test_missing_format():
    rec = base()
    del rec["format"]
    expect_envelope_error(rec, "format")


@pytest.mark.parametrize("value", ["chess", "All-Fives", "", 5, None, "all-fours", "broadway"])
def test_bad_or_unsupported_game(value):
    rec = base()
    rec["game"] = value
    expect_envelope_error(rec, "game")


def test_missing_game():
    rec = base()
    del rec["game"]
    expect_envelope_error(rec, "game")


@pytest.mark.parametrize(
    "players",
    [[], ["Ann"], ["Ann", "Ann"], ["Ann", ""], ["Ann", 5], ["Ann", None], "Ann", "Ann,Ben", None, {"Ann": 1}],
)
def test_bad_players(players):
    rec = base()
    rec["players"] = players
    expect_envelope_error(rec, "players")


def test_missing_players():
    rec = base()
    del rec["players"]
    expect_envelope_error(rec, "players")


@pytest.mark.parametrize(
    "teams",
    [
        {"NS": ["Ann", "Cy"], "EW": ["Ben"]},  # Di in no team
        {"NS": ["Ann", "Cy"], "EW": ["Ben", "Di", "Ann"]},  # Ann twice
        {"NS": ["Ann", "Cy", "Cy"], "EW": ["Ben", "Di"]},  # Cy twice in one team
        {"NS": ["Ann", "Cy"], "EW": ["Ben", "Di", "Eve"]},  # unknown player
        {"NS": ["Ann", "Cy"], "EW": "Ben,Di"},  # not a list
        [["Ann", "Cy"], ["Ben", "Di"]],  # not an object
        {"NS": ["Ann", "Cy"], "EW": ["Ben", 4]},  # not a name
        {},  # nobody covered
    ],
)
def test_teams_must_cover_every_player_exactly_once(teams):
    rec = record(players=FOUR, teams=teams, hands=[H([P("3-5")], leader="Ann")])
    expect_envelope_error(rec, "teams")


@pytest.mark.parametrize("key", ["colour", "rule", "team", "Hands", "version"])
def test_unknown_envelope_key(key):
    rec = base()
    rec[key] = "x"
    e = raises(rec)
    assert e.hand is None and key in str(e)


@pytest.mark.parametrize("key", ["id", "title", "started", "notes"])
def test_metadata_must_be_strings(key):
    rec = base()
    rec[key] = 5
    e = raises(rec)
    assert e.hand is None and key in str(e)


@pytest.mark.parametrize("hands", [{}, "hand", 5, None])
def test_hands_not_a_list(hands):
    rec = base()
    rec["hands"] = hands
    expect_envelope_error(rec, "hands")


@pytest.mark.parametrize("hand", [5, "hand", None, ["Ann"]])
def test_hand_not_an_object(hand):
    rec = record(hands=[hand])
    e = raises(rec)
    assert e.hand == 1 and str(e).startswith("hand 1"), str(e)


@pytest.mark.parametrize("turns", [{}, "3-5", None, 5])
def test_turns_not_a_list(turns):
    rec = record(hands=[{"leader": "Ann", "turns": turns}])
    e = raises(rec)
    assert e.hand == 1 and str(e).startswith("hand 1"), str(e)


def test_unknown_key_on_a_hand():
    rec = record(hands=[H([P("3-5")], leader="Ann", remainder={"Ben": 3})])
    e = raises(rec)
    assert e.hand == 1 and str(e).startswith("hand 1") and "remainder" in str(e), str(e)


def test_same_bad_record_gives_the_same_error():
    # the same bad record raises the same error twice (no hidden state)
    rec = one_hand([P("3-5"), P("6-6")])
    e1 = raises(copy.deepcopy(rec))
    e2 = raises(copy.deepcopy(rec))
    assert str(e1) == str(e2)


# ------------------------------------------------------------ no traceback, ever
def _valid_records():
    dom = domino_record({"Ben": ["6-6", "5-5"]})
    blk = record(hands=[blocked_hand(), H([P("5-5"), P("5-0", on="5-5", claim=10)], leader="Ben")])
    team = one_hand(
        [P("3-2"), P("2-2", on="3-2"), P("2-4", on="2-2", claim=0)],
        players=FOUR,
        teams=TEAMS,
        rules={"claims": "muggins"},
    )
    mug = one_hand([P("5-5", claim=5, muggins="Ben")], rules={"claims": "muggins", "scale": 5})
    for r in (dom, blk, team, mug):
        score_record(copy.deepcopy(r))  # the seeds themselves are valid
    return [dom, blk, team, mug]


_JUNK = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    5,
    10**20,
    1.5,
    float("nan"),
    "",
    "x",
    "5-5",
    "6-6",
    "7-7",
    "Ann",
    "Ben",
    "Eve",
    [],
    [1],
    {},
    {"a": 1},
    ["6-6"],
    "3-2",
    "2-2",
]


def _paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _paths(v, p + (i,))


def test_mutated_records_only_ever_raise_scorekeeper_error():
    # record-format.md: "No bad input ever produces a Python traceback".
    # Randomly damaged valid records must score or raise ScorekeeperError
    # with a one-line message, never any other exception.
    rng = random.Random(20240501)
    seeds = _valid_records()
    for _ in range(3000):
        rec = copy.deepcopy(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            p = rng.choice([q for q in _paths(rec) if q])
            parent = rec
            for k in p[:-1]:
                parent = parent[k]
            roll = rng.random()
            if roll < 0.6:
                parent[p[-1]] = copy.deepcopy(rng.choice(_JUNK))
            elif roll < 0.8:
                del parent[p[-1]]
            elif isinstance(parent, list):
                parent.insert(p[-1], copy.deepcopy(rng.choice(_JUNK)))
            else:
                key = rng.choice(["claim", "muggins", "draw", "pass", "on", "player", "play", "leader", "remaining"])
                parent[key] = copy.deepcopy(rng.choice(_JUNK))
        try:
            out = score_record(copy.deepcopy(rec))
        except ScorekeeperError as e:
            assert str(e) and "\n" not in str(e), (rec, str(e))
        else:
            assert isinstance(out, dict)
