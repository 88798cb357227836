"""Fives and Threes (issue 18), steps 2 to 4: how a hand ends and who leads the next.

``hand_end`` "go" and "none", ``domino`` "side" (partners play on until both are out),
``next_leader`` "left" and ``win_on_lead`` false, with every error the spec adds for
them, and the spec's worked example played to its end (the go).
"""

from __future__ import annotations

import pytest

from scorekeeper.allfives import score_record
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.record import load, to_record
from scorekeeper.errors import HandOverError, LeaderError, RemainingError, RulesError, WrongPlayerError

from .builders import PASS, H, P, record
from .test_fives_and_threes import WORKED

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
FOUR = ("Ann", "Ben", "Cy", "Di")
TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}
# Partners, hands of 2, no spinner, no drawing, the go (the pub game shortened).
PAIRS = PUB | {"hand_size": 2}


def worked_hand(**extra):
    return H([P(t, on) for t, on, _, _ in WORKED], leader="Ann", **extra)


def turn_error(rec, hand, turn, kind, text):
    with pytest.raises(kind) as ei:
        score_record(rec)
    assert (ei.value.hand, ei.value.turn) == (hand, turn), str(ei.value)
    assert str(ei.value).startswith(f"hand {hand}, turn {turn}: "), str(ei.value)
    assert text in str(ei.value), str(ei.value)


# ------------------------------------------------------------------ the worked example
def test_the_worked_example_ends_with_the_go_ann_18_ben_14_ben_leads():
    out = score_record(record(hands=[worked_hand()], rules=PUB))
    hand = out["hands"][0]
    last = hand["turns"][-1]
    assert (last["count"], last["points"], last["go"]) == (9, 4, 1)
    assert "go" not in hand["turns"][-2]
    assert hand["end"] == "domino" and hand["winner"] == "Ann"
    assert hand["settlement"] == {"Ann": 0, "Ben": 0}
    assert "pips" not in hand  # nobody counted them
    assert out["scores"] == {"Ann": 18, "Ben": 14} and out["winner"] is None
    # Ben leads the next hand: left out, named, or refused when another is named
    m = load(record(hands=[worked_hand(), H([])], rules=PUB))
    assert m.hand.leader == 1 and m.to_move == "Ben"
    load(record(hands=[worked_hand(), H([], leader="Ben")], rules=PUB))
    with pytest.raises(LeaderError) as ei:
        load(record(hands=[worked_hand(), H([], leader="Ann")], rules=PUB))
    assert str(ei.value) == "hand 2, leader: the lead passes to the left: Ben leads hand 2, not Ann"


def test_with_the_go_remaining_is_optional_and_checked_when_given():
    out = score_record(record(hands=[worked_hand(remaining={"Ben": ["6-1"]})], rules=PUB))
    hand = out["hands"][0]
    assert hand["pips"] == {"Ann": 0, "Ben": 7} and hand["settlement"] == {"Ann": 0, "Ben": 0}
    assert out["scores"] == {"Ann": 18, "Ben": 14}  # the pips are recorded, never scored
    for remaining, text in (
        ({"Ben": ["6-6"]}, "Ben cannot hold 6-6: it is on the table"),
        ({"Ben": ["6-1", "1-1"]}, "Ben holds 1 tile but 2 are listed"),
        ({"Ben": 13}, "Ben cannot hold 13 pips in 1 tile (0 to 12)"),
        ({"Ben": ["6-1"], "Zed": 0}, "'Zed' is not a player"),
    ):
        with pytest.raises(RemainingError) as ei:
            score_record(record(hands=[worked_hand(remaining=remaining)], rules=PUB))
        assert str(ei.value) == f"hand 1, remaining: {text}"


def test_remaining_on_an_open_hand_is_still_refused():
    hand = H([P("6-6")], leader="Ann", remaining={"Ben": 0})
    with pytest.raises(RemainingError, match=r"^hand 1, remaining: the hand has not ended"):
        score_record(record(hands=[hand], rules=PUB))


def test_hand_end_none_scores_the_last_play_alone():
    out = score_record(record(hands=[worked_hand()], rules=PUB | {"hand_end": "none"}))
    last = out["hands"][0]["turns"][-1]
    assert last["points"] == 3 and "go" not in last
    assert out["scores"] == {"Ann": 17, "Ben": 14}
    assert out["hands"][0]["settlement"] == {"Ann": 0, "Ben": 0}


def test_the_go_with_winner_takes_is_not_given():
    rules = PUB | {"hand_end": "winner-takes"}
    out = score_record(record(hands=[worked_hand(remaining={"Ben": ["6-1"]})], rules=rules))
    assert "go" not in out["hands"][0]["turns"][-1]
    assert out["hands"][0]["settlement"] == {"Ann": 5, "Ben": 0}  # round5(7)
    with pytest.raises(RemainingError, match=r"^hand 1, remaining: .*missing"):
        score_record(record(hands=[worked_hand()], rules=rules))


# ------------------------------------------------------------------ exactly 61, with the go
def short_hand(target):
    """Ann leads 6-6 (12: 4), Ben knocks, Ann's last tile 6-0 on it (12: 4, and the go 1)."""
    rules = PUB | {"hand_size": 2, "target": target}
    return record(hands=[H([P("6-6"), PASS(), P("6-0", "6-6")], leader="Ann")], rules=rules)


def test_a_last_tile_whose_points_and_go_pass_the_target_scores_nothing():
    out = score_record(short_hand(8))  # at 4: 4 + 1 = 5 would make 9
    last = out["hands"][0]["turns"][-1]
    assert (last["points"], last["go"], last.get("voided")) == (0, 1, True)
    assert out["scores"] == {"Ann": 4, "Ben": 0} and out["winner"] is None
    assert out["hands"][0]["end"] == "domino"  # the hand still ends: Ann is out
    out = score_record(short_hand(9))  # exactly: Ann wins with the go
    assert out["scores"] == {"Ann": 9, "Ben": 0} and out["winner"] == "Ann"
    assert out["hands"][0]["turns"][-1]["points"] == 5


def test_the_spec_case_two_short_of_the_target_a_last_tile_making_6_is_voided_whole():
    # The spec: at 59, a last tile that makes 6 is 2 + 1 = 3 and nothing is scored. Here Ann
    # is at 2 with a target of 4: the same two short.
    def rec(target):
        hand = H([P("3-3"), PASS(), P("3-0", "3-3")], leader="Ann")  # 6: 2; knock; 6 + 0 = 6: 2 + go
        return record(hands=[hand], rules=PUB | {"hand_size": 2, "target": target})

    out = score_record(rec(4))
    assert [t["points"] for t in out["hands"][0]["turns"]] == [2, 0, 0]
    assert out["hands"][0]["turns"][-1]["voided"] is True and out["scores"]["Ann"] == 2
    out = score_record(rec(5))  # three short: 2 + 1 makes it exactly
    assert out["scores"]["Ann"] == 5 and out["winner"] == "Ann"


def test_a_blocked_hand_scores_nothing_with_the_go():
    rules = PUB | {"hand_size": 2}
    out = score_record(record(hands=[H([P("6-6"), PASS(), PASS()], leader="Ann")], rules=rules))
    hand = out["hands"][0]
    assert hand["end"] == "blocked" and hand["winner"] is None
    assert hand["settlement"] == {"Ann": 0, "Ben": 0} and out["scores"] == {"Ann": 4, "Ben": 0}
    # the next hand needs no remaining and passes the lead to the left
    m = load(record(hands=[H([P("6-6"), PASS(), PASS()], leader="Ann"), H([P("5-5")])], rules=rules))
    assert m.hand.leader == 1 and m.scores == [4, 2]  # 5-5: 10 scores 2


# ------------------------------------------------------------------ partners play on
def pairs_hand(turns, **extra):
    return record(players=FOUR, teams=TEAMS, hands=[H(turns, leader="Ann", **extra)], rules=PAIRS)


OUT_FIRST = [
    P("6-6"),  # Ann 12: 4
    P("6-5", "6-6"),  # Ben 12 + 5 = 17
    P("6-4", "6-6"),  # Cy 5 + 4 = 9: 3
    P("5-5", "6-5"),  # Di 10 + 4 = 14
    P("4-4", "6-4"),  # Ann 10 + 8 = 18: 6, and Ann is out
]


def test_a_partner_out_first_is_skipped_and_the_hand_goes_on_until_the_side_is_out():
    m = load(pairs_hand(OUT_FIRST))
    assert m.hand.end is None and m.hand.held == [0, 1, 1, 1]
    assert m.to_move == "Ben"
    m.pass_()
    m.pass_()  # Cy knocks
    m.play("5-3", on="5-5")  # Di is out: 3 + 8 = 11; Ben still holds a tile
    assert m.hand.end is None and m.to_move == "Ben"  # Ann is passed over
    m.play("4-1", on="4-4")  # Ben: 3 + 1 = 4; his side is out: the domino, and the go
    h = m.hand
    assert h.end == "domino" and h.domino_player == 1 and h.winner == 1
    turn = h.turns[-1]
    assert (turn.points, turn.go) == (1, 1)
    assert m.scores == [13, 1]
    assert [t.go for t in h.turns[:-1]] == [0] * (len(h.turns) - 1)  # Di's last tile earned no go


def test_the_player_who_finishes_the_side_leads_with_next_leader_winner():
    rules = PAIRS | {"next_leader": "winner"}
    turns = [*OUT_FIRST, PASS(), PASS(), P("5-3", "5-5"), P("4-1", "4-4")]
    rec = record(players=FOUR, teams=TEAMS, hands=[H(turns, leader="Ann"), H([])], rules=rules)
    assert load(rec).hand.leader == 1  # Ben
    rec["hands"][1]["leader"] = "Di"
    with pytest.raises(LeaderError, match=r"^hand 2, leader: Ben dominoed hand 1 and leads, not Di$"):
        load(rec)


def test_blocked_is_every_player_still_holding_tiles_passing_in_succession():
    m = load(pairs_hand([*OUT_FIRST, P("5-3", "5-5")]))  # Ben out too
    assert m.to_move == "Cy"
    m.pass_()
    assert m.hand.end is None
    m.pass_()  # Di: the two who hold tiles have passed
    assert m.hand.end == "blocked" and m.hand.winner is None and m.hand.settled


def test_a_turn_naming_a_player_who_is_out_is_refused():
    turn_error(pairs_hand([*OUT_FIRST, PASS(player="Ann")]), 1, 6, WrongPlayerError, "Ann is out")
    turn_error(pairs_hand([*OUT_FIRST, P("5-3", "5-5", player="Ann")]), 1, 6, WrongPlayerError, "it is Ben's turn")


def test_with_domino_player_the_first_out_ends_the_hand_and_a_later_turn_is_refused():
    rec = pairs_hand([*OUT_FIRST, PASS()])
    rec["rules"] = PAIRS | {"domino": "player"}
    turn_error(rec, 1, 6, HandOverError, "the hand has already ended (Ann dominoed)")
    rec["hands"][0]["turns"].pop()
    out = score_record(rec)
    assert out["hands"][0]["end"] == "domino" and out["hands"][0]["turns"][-1]["go"] == 1
    assert out["scores"] == {"Us": 14, "Them": 0}  # 4 + 3 + 6 + the go


def test_domino_side_without_teams_is_domino_player():
    rules = PUB | {"hand_size": 1}
    rec = record(players=("Ann", "Ben", "Cy"), hands=[H([P("6-6"), P("6-5", "6-6")], leader="Ann")], rules=rules)
    turn_error(rec, 1, 2, HandOverError, "Ann dominoed")


# ------------------------------------------------------------------ the lead passes to the left
def test_next_leader_left_goes_round_the_table_whatever_the_end():
    rules = PUB | {"hand_size": 1, "hand_end": "none"}
    hands = [H([P("6-6")], leader="Cy"), H([P("5-5")]), H([P("4-4")], leader="Ben"), H([P("3-3")])]
    m = load(record(players=("Ann", "Ben", "Cy"), hands=hands, rules=rules))
    assert [h.leader for h in m.hands] == [2, 0, 1, 2]
    hands[3]["leader"] = "Ann"
    with pytest.raises(LeaderError, match=r"^hand 4, leader: the lead passes to the left: Cy leads hand 4, not Ann$"):
        load(record(players=("Ann", "Ben", "Cy"), hands=hands, rules=rules))
    with pytest.raises(LeaderError, match=r"^hand 1, leader: a leader is required for the first hand$"):
        load(record(hands=[H([P("6-6")])], rules=rules))


# ------------------------------------------------------------------ the down may not win
def test_a_lead_that_would_win_is_voided_and_play_goes_on():
    rules = {"count": "fives-and-threes", "spinner": "none", "draw": False, "hand_size": 3, "win_on_lead": False}
    out = score_record(record(hands=[H([P("6-6"), P("6-3", "6-6")], leader="Ann")], rules=rules | {"target": 4}))
    lead, second = out["hands"][0]["turns"]
    assert (lead["points"], lead.get("voided")) == (0, True)
    assert second["points"] == 8 and out["winner"] == "Ben"  # a later tile may win
    out = score_record(record(hands=[H([P("6-6")], leader="Ann")], rules=rules | {"target": 5}))
    assert out["hands"][0]["turns"][0]["points"] == 4  # below the target it scores
    out = score_record(record(hands=[H([P("6-6")], leader="Ann")], rules=rules | {"target": 4, "win_on_lead": True}))
    assert out["winner"] == "Ann"  # the default: the down wins like any tile


# ------------------------------------------------------------------ claims and the go
def test_a_claim_is_compared_with_the_count_alone():
    turns = [P(t, on) for t, on, _, _ in WORKED]
    turns[-1]["claim"] = 3
    out = score_record(record(hands=[H(turns, leader="Ann")], rules=PUB))
    last = out["hands"][0]["turns"][-1]
    assert (last["points"], last["claim_ok"], last["go"]) == (4, True, 1)
    turns[-1]["claim"] = 4
    out = score_record(record(hands=[H(turns, leader="Ann")], rules=PUB))
    assert out["hands"][0]["turns"][-1]["claim_ok"] is False


def test_under_muggins_the_go_is_scored_with_what_is_claimed():
    turns = [P(t, on, claim=p) for t, on, _, p in WORKED]
    turns[-1]["claim"] = 0
    out = score_record(record(hands=[H(turns, leader="Ann")], rules=PUB | {"claims": "muggins"}))
    assert out["hands"][0]["turns"][-1]["points"] == 1 and out["scores"] == {"Ann": 15, "Ben": 14}


# ------------------------------------------------------------------ rules and records
@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("domino", "team"),
        ("domino", True),
        ("hand_end", "gone"),
        ("next_leader", "right"),
        ("next_leader", None),
        ("win_on_lead", 0),
        ("win_on_lead", "false"),
    ],
)
def test_an_invalid_new_rule_is_refused_naming_it(key, value):
    with pytest.raises(RulesError) as ei:
        Setup.new(["Ann", "Ben"], rules={key: value})
    assert str(ei.value).startswith(f"rules.{key}: "), str(ei.value)


def test_records_without_the_new_rules_score_as_before():
    m = Match(Setup.new(["Ann", "Ben"]))
    r = m.rules
    assert (r.domino, r.hand_end, r.next_leader, r.win_on_lead) == ("player", "winner-takes", "winner", True)
    assert r.settles_pips


def test_a_pub_match_round_trips_through_its_record_with_remaining_left_out():
    rec = record(hands=[worked_hand(), H([P("5-5"), P("5-0", "5-5")])], rules=PUB)
    m = load(rec)
    written = to_record(m)["hands"]
    assert "remaining" not in written[0] and written[1] == {"turns": [{"play": "5-5"}, {"play": "5-0", "on": "5-5"}]}
    assert load(to_record(m)).state() == m.state()
    out = score_record(rec)
    assert out["rules"]["domino"] == "side" and out["rules"]["next_leader"] == "left"
