"""Issue 47's contract, every rule and every error: scores carried in (``start``), hands
entered as points and adjustments in All Fives, All Fours and Broadway (the spec
points-only.md, ``docs/record-format.md``). Each refusal is one line naming the hand (an
adjustment: the hand it follows), and ``scorekeeper score`` ends with status 2 on it."""

from __future__ import annotations

import json

import pytest
from support import run_cli

from scorekeeper import registry
from scorekeeper.allfours.variants import VARIANTS
from scorekeeper.errors import ScorekeeperError
from scorekeeper.points import Adjust, PointsHand

from .build import EW, NS, adjust, open_hand, points, record

GAMES = ("all-fives", "all-fours", "broadway")
#: Games with a target: the side that reaches it wins.
TARGETED = ("all-fives", "all-fours")


def score(rec):
    return registry.game_of(rec).score(rec)


def refused(rec, start: str, *words: str) -> str:
    """The one line ``rec`` is refused with: it starts with ``start`` and says ``words``."""
    with pytest.raises(ScorekeeperError) as e:
        score(rec)
    line = str(e.value)
    assert "\n" not in line and line.startswith(start), line
    for w in words:
        assert w in line, line
    return line


# ------------------------------------------------------------------ start
@pytest.mark.parametrize("game", GAMES)
def test_the_scores_carried_in_start_every_total(game):
    out = score(record(game, start={NS: 5, EW: 3}))
    assert out["start"] == {NS: 5, EW: 3} and out["scores"] == {NS: 5, EW: 3} and out["winner"] is None


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("start", "words"),
    [
        ({NS: 5}, "every side is named: East-West is missing"),
        ({NS: 5, EW: 3, "Zed": 0}, "'Zed' is not a side"),
        ({NS: 5, EW: 3.0}, "must be a whole number"),
        ({NS: 5, EW: True}, "must be a whole number"),
        ({NS: -1, EW: 3}, "cannot be below 0"),
        ([5, 3], "must map each side"),
    ],
)
def test_a_bad_start_is_refused_naming_it(game, start, words):
    refused(record(game, start=start), "start: ", words)


@pytest.mark.parametrize(("game", "target"), [("all-fives", 200), ("all-fours", 14)])
def test_a_side_starts_below_the_target(game, target):
    refused(record(game, start={NS: target, EW: 0}), "start: ", f"North-South carries in {target}", "below the target")
    assert score(record(game, start={NS: target - 1, EW: 0}))["scores"][NS] == target - 1


# ------------------------------------------------------------------ the shape of the entries
@pytest.mark.parametrize("game", GAMES)
def test_a_hand_entered_as_points_is_numbered_and_an_adjustment_is_not(game):
    out = score(record(game, points(5, 5), adjust(ew=-1), points(5, 0), start={NS: 2, EW: 1}))
    assert out["hands"] == [
        {"number": 1, "end": "points", "points": {NS: 5, EW: 5}, "scores": {NS: 7, EW: 6}},
        {"end": "adjust", "adjust": {EW: -1}, "why": "misdeal", "scores": {NS: 7, EW: 5}},
        {"number": 2, "end": "points", "points": {NS: 5, EW: 0}, "scores": {NS: 12, EW: 5}},
    ]
    assert out["scores"] == {NS: 12, EW: 5}
    assert registry.get(game).load(record(game, points(5, 5), adjust(ew=-1))).to_record()["hands"] == [
        points(5, 5),
        adjust(ew=-1),
    ]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("item", "where", "words"),
    [
        ({"points": {NS: 5, EW: 5}, "turns": []}, "hand 1: ", "unknown key 'turns' in a hand entered as points"),
        ({"points": [3, 1]}, "hand 1, points: ", "must map each side"),
        ({"points": {NS: 5, EW: "5"}}, "hand 1, points: ", "must be a whole number"),
        ({"points": {NS: 5}}, "hand 1, points: ", "East-West is missing"),
        ({"points": {NS: 5, EW: 5, "Zed": 0}}, "hand 1, points: ", "'Zed' is not a side"),
        ({"points": {NS: 5, EW: 5}, "first": 1}, "hand 1, first: ", "must name a side"),
        ({"points": {NS: 5, EW: 5}, "first": "Zed"}, "hand 1, first: ", "'Zed' is not a side"),
    ],
)
def test_a_malformed_hand_entered_as_points_is_refused_naming_the_hand(game, item, where, words):
    refused(record(game, item), where, words)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("item", "where", "words"),
    [
        ({"adjust": {EW: -1}}, "adjustment before hand 1: ", "why is missing"),
        ({"why": "late"}, "adjustment before hand 1: ", "adjust is missing"),
        ({"adjust": {EW: -1}, "why": "late", "first": NS}, "adjustment before hand 1: ", "unknown key 'first'"),
        ({"adjust": {EW: -1}, "why": "  "}, "adjustment before hand 1, why: ", "must say why"),
        ({"adjust": {EW: -1}, "why": 3}, "adjustment before hand 1, why: ", "must say why"),
        ({"adjust": {EW: -1}, "why": "mis\ndeal"}, "adjustment before hand 1, why: ", "must be printable"),
        ({"adjust": {EW: 0}, "why": "late"}, "adjustment before hand 1, adjust: ", "is 0"),
        ({"adjust": {}, "why": "late"}, "adjustment before hand 1, adjust: ", "at least one side"),
        ({"adjust": {"Zed": 1}, "why": "late"}, "adjustment before hand 1, adjust: ", "'Zed' is not a side"),
    ],
)
def test_a_malformed_adjustment_is_refused_naming_where_it_stands(game, item, where, words):
    refused(record(game, item), where, words)


@pytest.mark.parametrize("game", ("all-fives", "broadway"))
def test_an_adjustment_comes_between_hands(game):
    refused(record(game, open_hand(game), adjust(ew=-1)), "adjustment after hand 1: ", "hand 1 has not ended")


@pytest.mark.parametrize("game", GAMES)
def test_nothing_is_entered_into_a_hand_entered_as_points(game):
    item = {"all-fives": {"turns": [{"play": "5-5"}]}, "all-fours": {"high": "Ann"}, "broadway": {"unplayed": {}}}
    line = refused(record(game, points(5, 5), {"points": {NS: 5, EW: 0}, **item[game]}), "hand 2")
    assert "unknown key" in line
    m = registry.get(game).load(record(game, points(5, 5)))
    with pytest.raises(ScorekeeperError, match="hand 1.*entered as points"):
        if game == "all-fours":
            m.enter(high="Ann")
        elif game == "all-fives":
            m.play("5-5")
        else:
            m.play("6-6", [[0, 0], [1, 0]])


def test_the_hand_after_a_hand_entered_as_points_names_its_leader():
    refused(
        record("all-fives", points(10, 5), {"turns": [{"play": "5-5"}]}),
        "hand 2, leader: ",
        "a leader is required after a hand entered as points",
    )
    refused(
        record("all-fives", points(10, 5), {"turns": [{"play": "5-5"}]}, next_leader="left"),
        "hand 2, leader: ",
        "after a hand entered as points",
    )
    assert score(record("all-fives", points(10, 5), open_hand("all-fives")))["hands"][1]["leader"] == "Ann"


def test_all_fours_takes_no_facts_into_a_hand_an_adjustment_follows():
    m = registry.get("all-fours").load(record("all-fours", open_hand("all-fours"), adjust(ew=-1)))
    with pytest.raises(ScorekeeperError, match="^hand 1, low: an adjustment follows the hand"):
        m.enter(low="Ann")
    assert m.suggested_dealer() == m.setup.next_dealer(0), "the hand an adjustment follows was dealt"
    assert registry.get("all-fours").load(record("all-fours", points(1, 0))).suggested_dealer() is None


# ------------------------------------------------------------------ what a hand can give
@pytest.mark.parametrize(
    ("rules", "ns", "words"),
    [
        ({}, 33, "North-South cannot score 33: every count and settlement scores a multiple of 5"),
        ({}, -5, "North-South cannot score -5: a hand takes no points off"),
        ({"scale": 5}, -1, "a hand takes no points off"),
        ({"count": "fives-and-threes"}, -1, "a hand takes no points off"),
    ],
)
def test_all_fives_points_are_what_its_counts_can_give(rules, ns, words):
    refused(record("all-fives", points(ns, 10), **rules), "hand 1, points: ", words)


@pytest.mark.parametrize(
    ("rules", "ns"),
    [({}, 35), ({"scale": 5}, 7), ({"count": "fives-and-threes"}, 13), ({"hand_end": "each-subtracts"}, -15)],
)
def test_all_fives_takes_points_its_counts_can_give(rules, ns):
    assert score(record("all-fives", points(ns, 10), **rules))["scores"][NS] == ns


def test_all_fours_gives_no_side_more_than_one_hand_can_in_the_variant():
    assert [VARIANTS[v].hand_most() for v in VARIANTS] == [13, 13, 4, 4, 6, 9, 6, 6, 4]
    assert VARIANTS["trinidad"].hand_most(sides=3) == 14  # the gift to each side but the dealer's
    refused(
        record("all-fours", points(14, 0)), "hand 1, points: ", "North-South cannot score 14", "at most 13 in Trinidad"
    )
    refused(record("all-fours", points(8, 6)), "hand 1, points: ", "the points add up to 14", "at most 13")
    refused(record("all-fours", points(5, 0), variant="pitch"), "hand 1, points: ", "at most 4 in Pitch")
    refused(record("all-fours", points(-1, 2)), "hand 1, points: ", "a hand takes no points off")
    assert score(record("all-fours", points(9, 4)))["scores"] == {NS: 9, EW: 4}


def test_broadway_points_are_what_a_hand_can_give_under_the_penalty():
    assert score(record("broadway", points(-14, 270)))["scores"] == {NS: -14, EW: 270}
    refused(record("broadway", points(-15, 3)), "hand 1, points: ", "a hand takes at most 14 off")
    refused(record("broadway", points(271, 3)), "hand 1, points: ", "at most 270")
    refused(
        record("broadway", points(-1, 3), unplayed_penalty="to-opponents"),
        "hand 1, points: ",
        "a hand takes no points off (unplayed tiles go to the opponents)",
    )


# ------------------------------------------------------------------ winning
def test_two_sides_reaching_the_target_in_one_hand_say_which_got_there_first():
    rec = record("all-fives", points(20, 20), points(20, 20), points(21, 21), scale=5)
    refused(rec, "hand 3: both sides reach 61: say which got there first")
    rec["hands"][2]["first"] = EW
    out = score(rec)
    assert out["winner"] == EW and out["scores"] == {NS: 61, EW: 61}
    rec["hands"][2]["first"] = NS
    assert score(rec)["winner"] == NS


def test_the_command_line_refuses_in_one_line_with_status_2(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record("all-fives", points(20, 20), points(20, 20), points(21, 21), scale=5)))
    ran = run_cli("score", path)
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        2,
        "",
        "error: hand 3: both sides reach 61: say which got there first\n",
    )


@pytest.mark.parametrize("game", TARGETED)
def test_first_names_a_side_that_reached_the_target_in_that_hand(game):
    start, target, few = ({NS: 190, EW: 190}, 200, 5) if game == "all-fives" else ({NS: 10, EW: 10}, 14, 2)
    refused(record(game, points(few, 0, first=NS), start=start), "hand 1, first: ", f"no side reaches {target}")
    refused(record(game, points(10, 0, first=EW), start=start), "hand 1, first: ", "only North-South reaches")
    assert score(record(game, points(10, 0, first=NS), start=start))["winner"] == NS
    assert score(record(game, points(10, 0), start=start))["winner"] == NS


def test_broadway_has_no_target_and_takes_no_first():
    refused(record("broadway", points(3, 1, first=NS)), "hand 1, first: ", "no target")


def test_points_past_an_exact_target_are_voided_and_an_adjustment_never():
    rec = record("all-fives", points(15, 5), start={NS: 50, EW: 30}, target=61, exact_target=True)
    (hand,) = score(rec)["hands"]
    assert hand == {
        "number": 1,
        "end": "points",
        "points": {NS: 15, EW: 5},
        "voided": True,
        "voided_sides": [NS],
        "scores": {NS: 50, EW: 35},
    }
    rec["hands"].append(adjust(ns=15, why="penalty"))
    out = score(rec)
    assert out["scores"] == {NS: 65, EW: 35} and out["winner"] == NS


@pytest.mark.parametrize("game", GAMES)
def test_nothing_follows_the_entry_that_won(game):
    if game == "broadway":
        won = record("broadway", *[points(3, 1)] * 7)
        assert score(won)["winner"] == NS and score(won)["won_at"] == {"hand": 7, "turn": None}
        after = "hand 8: the match is over: North-South won 21 to 7 at the end of hand 7"
    else:
        won = record(game, points(10, 0), start={NS: 195, EW: 0} if game == "all-fives" else {NS: 10, EW: 0})
        assert score(won)["winner"] == NS
        after = "hand 2: the match is over"
    refused({**won, "hands": [*won["hands"], points(1 if game != "all-fives" else 5, 0)]}, after)
    refused({**won, "hands": [*won["hands"], adjust(ew=1)]}, "adjustment after hand", "the match is over")


@pytest.mark.parametrize("game", TARGETED)
def test_an_adjustment_that_reaches_the_target_wins_and_one_side_at_a_time(game):
    start = {NS: 190, EW: 190} if game == "all-fives" else {NS: 10, EW: 10}
    out = score(record(game, adjust(ns=10, why="renege"), start=start))
    assert out["winner"] == NS
    refused(
        record(game, {"adjust": {NS: 10, EW: 10}, "why": "both"}, start=start),
        "adjustment before hand 1, adjust: ",
        "adjust one side at a time",
    )
    refused(
        record(game, adjust(ns=10), points(0, 0), start=start),
        "hand 1: the match is over",
        "at the adjustment before hand 1",
    )


def test_broadway_decides_after_seven_hands_and_an_adjustment_in_sudden_death():
    level = [points(3, 3)] * 7
    assert score(record("broadway", *level))["winner"] is None
    assert score(record("broadway", *level, adjust(ew=1)))["winner"] is None, "a lead of one is not enough"
    out = score(record("broadway", *level, adjust(ew=2)))
    assert out["winner"] == EW and out["won_at"] == {"hand": 7, "turn": None, "adjust": True}
    assert score(record("broadway", *[points(3, 3)] * 6, adjust(ew=5)))["winner"] is None, "seven hands first"
    assert score(record("broadway", *[points(3, 3)] * 6, adjust(ew=5), points(0, 0)))["winner"] == EW


def test_of_three_sides_first_names_one_that_reached_the_target():
    three = {**record("all-fives", {"points": {"Ann": 10, "Ben": 10, "Cy": 0}}), "players": ["Ann", "Ben", "Cy"]}
    del three["teams"]
    three["start"] = {"Ann": 190, "Ben": 195, "Cy": 0}
    refused(three, "hand 1: Ann and Ben reach 200: say which got there first")
    three["hands"][0]["first"] = "Cy"
    refused(three, "hand 1, first: ", "Cy does not reach 200 in this hand (Ann and Ben do)")
    three["hands"][0]["first"] = "Ben"
    assert score(three)["winner"] == "Ben"


@pytest.mark.parametrize("item", [points(10, 5), adjust(ew=-5)])
def test_a_hand_ended_but_not_settled_is_settled_first(item):
    domino = {"leader": "Ann", "turns": [{"play": "5-5"}]}  # Ann's one tile: she dominoes
    refused(record("all-fives", domino, item, hand_size=1), "hand 1, remaining: ", "remaining is missing")
    settled = {**domino, "remaining": {"Ben": 0, "Cy": 0, "Di": 0}}
    assert score(record("all-fives", settled, item, hand_size=1))["hands"][-1]["end"] in ("points", "adjust")


def test_nothing_is_left_in_hands_of_a_hand_entered_as_points_nor_after_an_adjustment():
    from scorekeeper.allfives.events import Settle

    fives = registry.get("all-fives").load(record("all-fives", points(10, 5)))
    with pytest.raises(ScorekeeperError, match="^hand 1, remaining: the hand was entered as points"):
        fives.push(Settle(()))
    gone = {"leader": "Ann", "turns": [{"play": "5-5"}]}  # with the go, a domino is settled at once
    fives = registry.get("all-fives").load(record("all-fives", gone, adjust(ew=-1), hand_size=1, hand_end="go"))
    with pytest.raises(ScorekeeperError, match="^hand 1, remaining: an adjustment follows the hand"):
        fives.push(Settle((("Ben", 0),)))
    broadway = registry.get("broadway").load(record("broadway", points(10, 5)))
    with pytest.raises(ScorekeeperError, match="^hand 1, unplayed: the hand was entered as points"):
        broadway.settle({})


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("event", "where", "words"),
    [
        (PointsHand(((NS, "5"), (EW, 0))), "hand 1, points: ", "must be a whole number"),
        (PointsHand(((NS, 5), (NS, 0))), "hand 1, points: ", "North-South is named twice"),
        (Adjust(((NS, True),), "late"), "adjustment before hand 1, adjust: ", "must be a whole number but 0"),
        (Adjust(((NS, 1),), ""), "adjustment before hand 1, why: ", "must say why"),
        (Adjust(((NS, 1),), "late\x1b[2J"), "adjustment before hand 1, why: ", "must be printable"),
    ],
)
def test_an_event_made_without_a_record_is_checked_as_a_records_is(game, event, where, words):
    m = registry.get(game).load(record(game))
    with pytest.raises(ScorekeeperError) as e:
        m.push(event)
    assert str(e.value).startswith(where) and words in str(e.value), str(e.value)
    assert m.scores == [0, 0] and not m.events, "nothing changed"
