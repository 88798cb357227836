"""``export --csv`` rows of hand-built matches of each game, written out by hand.

Each row is shown from the ``hand`` column on: hand, turn, player, side, entry, count,
points, side_score, scores, note (the match, game, started and kind columns are the
same on every row of a match).
"""

from __future__ import annotations

from scorekeeper import registry
from scorekeeper.registry import GameSpec, Row
from scorekeeper.stats.csv_rows import COLUMNS, by_hand, match_table

TEAMS = {"North-South": ["Ann", "Cy"], "East-West": ["Ben", "Di"]}
FOUR = ["Ann", "Ben", "Cy", "Di"]


def rows_of(record):
    lines = match_table("m1", "2024-05-17T19:30:00", record, registry.game_of(record).load(record))
    assert all(line[:3] == ["m1", record["game"], "2024-05-17T19:30:00"] for line in lines)
    assert all(len(line) == len(COLUMNS) and line[-1] == registry.kind_of(record) for line in lines)
    return [tuple(line[3:-1]) for line in lines]


def fives(rules, hands, players=("Ann", "Ben"), teams=None):
    r = {"format": "scorekeeper/1", "game": "all-fives", "players": list(players), "rules": rules, "hands": hands}
    if teams:
        r["teams"] = teams
    return r


def test_the_columns_in_order():
    assert COLUMNS == (
        "match",
        "game",
        "started",
        "hand",
        "turn",
        "player",
        "side",
        "entry",
        "count",
        "points",
        "side_score",
        "scores",
        "note",
        "kind",
    )


# ------------------------------------------------------------------ All Fives
def test_all_fives_turns_a_draw_a_wrong_claim_and_the_settlement_of_a_domino():
    # the hand of docs/record-format.md
    turns = [
        {"play": "5-5"},
        {"play": "5-0", "on": "5-5"},
        {"play": "5-1", "on": "5-5", "claim": 5},
        {"draw": 2, "play": "0-4", "on": "5-0"},
        {"play": "1-3"},
    ]
    rec = fives({"hand_size": 3}, [{"leader": "Ann", "turns": turns, "remaining": {"Ben": ["6-6", "6-3", "2-0"]}}])
    assert rows_of(rec) == [
        (1, 1, "Ann", "Ann", "5-5 (lead)", 10, 10, 10, "Ann 10; Ben 0", ""),
        (1, 2, "Ben", "Ben", "5-0 on 5-5", 10, 10, 10, "Ann 10; Ben 10", ""),
        (1, 3, "Ann", "Ann", "5-1 on 5-5", 1, 0, 10, "Ann 10; Ben 10", "claimed 5 wrong"),
        (1, 4, "Ben", "Ben", "drew 2, 4-0 on 5-0", 5, 5, 15, "Ann 10; Ben 15", ""),
        (1, 5, "Ann", "Ann", "3-1 on 5-1", 7, 0, 10, "Ann 10; Ben 15", ""),
        (1, "", "Ann", "Ann", "settlement: Ann dominoed, 23 pips", "", 25, 35, "Ann 35; Ben 15", ""),
    ]


def test_all_fives_muggins_is_a_row_of_its_own_for_the_callers_side():
    turns = [{"play": "5-5", "claim": 5, "muggins": "Di"}, {"play": "5-0", "on": "5-5", "claim": 10}]
    rec = fives({"claims": "muggins"}, [{"leader": "Ann", "turns": turns}], FOUR, TEAMS)
    assert rows_of(rec) == [
        (1, 1, "Ann", "North-South", "5-5 (lead)", 10, 5, 5, "North-South 5; East-West 0", "claimed 5"),
        (1, 1, "Di", "East-West", "muggins on Ann", "", 5, 5, "North-South 5; East-West 5", ""),
        (1, 2, "Ben", "East-West", "5-0 on 5-5", 10, 10, 15, "North-South 5; East-West 15", "claimed 10"),
    ]


def test_all_fives_points_over_an_exact_target_are_0_with_a_note():
    turns = [
        {"play": "5-5"},
        {"play": "5-0", "on": "5-5"},
        {"play": "0-0", "on": "5-0", "claim": 10},
        {"play": "0-1", "on": "0-0"},
        {"play": "5-4", "on": "5-5"},
    ]
    rec = fives({"target": 15, "exact_target": True}, [{"leader": "Ann", "turns": turns}])
    assert rows_of(rec) == [
        (1, 1, "Ann", "Ann", "5-5 (lead)", 10, 10, 10, "Ann 10; Ben 0", ""),
        (1, 2, "Ben", "Ben", "5-0 on 5-5", 10, 10, 10, "Ann 10; Ben 10", ""),
        (1, 3, "Ann", "Ann", "0-0 on 5-0", 10, 0, 10, "Ann 10; Ben 10", "claimed 10 ok; voided"),
        (1, 4, "Ben", "Ben", "1-0 on 0-0", 11, 0, 10, "Ann 10; Ben 10", ""),
        (1, 5, "Ann", "Ann", "5-4 on 5-5", 5, 5, 15, "Ann 15; Ben 10", ""),
    ]


def test_all_fives_a_voided_settlement_and_a_voided_muggins():
    turns = [{"play": "1-2"}, {"play": "2-3", "on": "1-2", "draw": 1}, {"play": "1-0", "on": "1-2"}]
    rec = fives(
        {"hand_size": 2, "target": 10, "exact_target": True},
        [{"leader": "Ann", "turns": turns, "remaining": {"Ben": 14}}],
    )
    assert rows_of(rec)[-1] == (
        1,
        "",
        "Ann",
        "Ann",
        "settlement: Ann dominoed, 14 pips",
        "",
        0,
        0,
        "Ann 0; Ben 0",
        "voided",
    )
    rec = fives(
        {"claims": "muggins", "target": 5, "exact_target": True},
        [{"leader": "Ann", "turns": [{"play": "5-5", "claim": 0, "muggins": "Ben"}]}],
    )
    assert rows_of(rec) == [
        (1, 1, "Ann", "Ann", "5-5 (lead)", 10, 0, 0, "Ann 0; Ben 0", "claimed 0"),
        (1, 1, "Ben", "Ben", "muggins on Ann", "", 0, 0, "Ann 0; Ben 0", "voided"),
    ]


def test_all_fives_each_subtracts_takes_points_off_every_side_holding_pips():
    turns = [{"play": "6-3"}, {"pass": True, "draw": 10}, {"pass": True}]
    rec = fives(
        {"hand_end": "each-subtracts"}, [{"leader": "Ann", "turns": turns, "remaining": {"Ann": 13, "Ben": 22}}]
    )
    assert rows_of(rec) == [
        (1, 1, "Ann", "Ann", "6-3 (lead)", 9, 0, 0, "Ann 0; Ben 0", ""),
        (1, 2, "Ben", "Ben", "drew 10, pass", "", 0, 0, "Ann 0; Ben 0", ""),
        (1, 3, "Ann", "Ann", "pass", "", 0, 0, "Ann 0; Ben 0", ""),
        (1, "", "", "Ann", "settlement: blocked, 13 pips left", "", -15, -15, "Ann -15; Ben 0", ""),
        (1, "", "", "Ben", "settlement: blocked, 22 pips left", "", -20, -20, "Ann -15; Ben -20", ""),
    ]


def test_all_fives_a_blocked_hand_shared_by_two_sides_and_one_tied_by_all():
    def blocked(remaining):
        turns = [{"play": "6-3"}, {"pass": True}, {"pass": True}, {"pass": True}]
        hands = [{"leader": "Ann", "turns": turns, "remaining": remaining}]
        return fives({"hand_size": 9, "boneyard_reserve": 1}, hands, ["Ann", "Ben", "Cy"])

    assert rows_of(blocked({"Ann": 10, "Ben": 10, "Cy": 17}))[4:] == [
        (1, "", "", "Ann", "settlement: blocked, 17 pips", "", 10, 10, "Ann 10; Ben 0; Cy 0", ""),
        (1, "", "", "Ben", "settlement: blocked, 17 pips", "", 10, 10, "Ann 10; Ben 10; Cy 0", ""),
    ]
    assert rows_of(blocked({"Ann": 10, "Ben": 10, "Cy": 10}))[4:] == [
        (1, "", "", "", "settlement: blocked, tied", "", 0, "", "Ann 0; Ben 0; Cy 0", ""),
    ]


def test_all_fives_the_knock_and_the_go():
    turns = [{"play": "5-5"}, {"pass": True}, {"play": "5-0", "on": "5-5"}]
    rules = {"draw": False, "hand_size": 2, "hand_end": "go", "spinner": "none"}
    assert rows_of(fives(rules, [{"leader": "Ann", "turns": turns}])) == [
        (1, 1, "Ann", "Ann", "5-5 (lead)", 10, 10, 10, "Ann 10; Ben 0", ""),
        (1, 2, "Ben", "Ben", "knock", "", 0, 0, "Ann 10; Ben 0", ""),
        (1, 3, "Ann", "Ann", "5-0 on 5-5", 10, 11, 21, "Ann 21; Ben 0", "with the go"),
    ]


def test_a_hand_with_no_turn_yet_has_one_row():
    rec = fives({}, [{"leader": "Ann", "turns": []}])
    assert rows_of(rec) == [(1, "", "", "", "nothing scored", "", 0, "", "Ann 0; Ben 0", "hand open")]
    assert rows_of(fives({}, [])) == []


# ------------------------------------------------------------------ All Fours
def fours(hands, players=FOUR, teams=None, **rules):
    r = {"format": "scorekeeper/1", "game": "all-fours", "players": list(players), "hands": hands}
    if teams:
        r["teams"] = teams
    if rules:
        r["rules"] = rules
    return r


US = {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}


def test_all_fours_hang_jack_all_four_a_misdeal_and_the_penalties():
    hands = [
        {
            "dealer": "Ann",
            "turn_up": ["J"],
            "beg": None,
            "high": "Ben",
            "low": "Ben",
            "jack": {"held": "Ann", "won": "Di"},
            "game": {"Us": 20, "Them": 40},
        },
        {"dealer": "Di", "penalties": [{"type": "misdeal"}]},
        {
            "dealer": "Di",
            "turn_up": ["6", "A"],
            "beg": "give",
            "penalties": [
                {"type": "revoke", "by": "Cy"},
                {"type": "peek", "by": "Ben"},
                {"type": "award", "side": "Us", "points": 0},
                {"type": "award", "side": "Us", "points": 2, "reason": "=house"},
            ],
            "high": "Ann",
        },
    ]
    assert rows_of(fours(hands, teams=US)) == [
        (1, 1, "Ann", "Us", "turn-up J", "", 3, 3, "Us 3; Them 0", ""),
        (1, 2, "Ben", "Them", "high", "", 1, 1, "Us 3; Them 1", ""),
        (1, 3, "Ben", "Them", "low", "", 1, 2, "Us 3; Them 2", ""),
        (1, 4, "Di", "Them", "hang jack", "", 3, 5, "Us 3; Them 5", ""),
        (1, 5, "", "Them", "game (card points Us 20, Them 40)", "", 1, 6, "Us 3; Them 6", "all four"),
        (2, 1, "", "Us", "misdeal", "", 1, 4, "Us 4; Them 6", ""),
        (3, 1, "Di", "Them", "turn-up 6", "", 2, 8, "Us 4; Them 8", ""),
        (3, 2, "Di", "Them", "turn-up A", "", 1, 9, "Us 4; Them 9", ""),
        (3, 3, "", "Us", "gift", "", 1, 5, "Us 5; Them 9", ""),
        (3, 4, "", "Them", "revoke by Cy", "", 1, 10, "Us 5; Them 10", ""),
        (3, 5, "", "Us", "peek by Ben", "", 4, 9, "Us 9; Them 10", ""),
        (3, 6, "", "Us", "award: =house", "", 2, 11, "Us 11; Them 10", ""),
        (3, 7, "Ann", "Us", "high", "", 1, 12, "Us 12; Them 10", ""),
    ]


def test_all_fours_a_jack_kept_and_an_honour_revoke():
    hands = [
        {"dealer": "Ann", "turn_up": ["5"], "jack": {"held": "Ben", "won": "Ben"}, "game": {"Ann": 30, "Ben": 30}},
        {"dealer": "Ben", "turn_up": ["J"], "penalties": [{"type": "revoke", "by": "Ann", "honour": True}]},
    ]
    assert rows_of(fours(hands, players=["Ann", "Ben"])) == [
        (1, 1, "Ben", "Ben", "jack", "", 1, 1, "Ann 0; Ben 1", ""),
        (2, 1, "Ben", "Ben", "turn-up J", "", 3, 4, "Ann 0; Ben 4", ""),
        (2, 2, "Ann", "Ann", "honour revoke by Ann", "", 0, 0, "Ann 0; Ben 4", "Ann lost the match"),
    ]


def test_all_fours_a_hand_that_credited_nothing_yet():
    rows = rows_of(fours([{"dealer": "Ann", "turn_up": ["5"], "high": None}], players=["Ann", "Ben"]))
    assert rows == [(1, "", "", "", "nothing scored", "", 0, "", "Ann 0; Ben 0", "hand open")]


# ------------------------------------------------------------------ Broadway
BROADWAY_HAND = {
    "leader": "Ann",
    "turns": [
        {"play": "6-6", "at": [[0, 0], [1, 0]]},
        {"play": "6-4", "at": [[-1, 0], [-1, -1]]},
        {"play": "5-4", "at": [[1, -1], [0, -1]]},
        {"play": "4-1", "at": [[-2, -1], [-2, -2]]},
        {"play": "6-1", "at": [[0, 1], [-1, 1]]},
        {"play": "1-1", "at": [[-2, 1], [-2, 2]]},
        {"play": "4-0", "at": [[-1, -2], [0, -2]]},
        {"play": "6-0", "at": [[1, 1], [1, 2]]},
        {"play": "1-0", "at": [[-1, 2], [0, 2]]},
        {"pass": True},
        {"exposed": "5-2"},
        {"pass": True},
        {"pass": True},
        {"pass": True},
        {"pass": True},
    ],
    "unplayed": {"Ann": 4, "Ben": 5, "Cy": ["5-2", "3-3", "2-2", "5-0", "3-0"], "Di": 5},
}
NS, EW = "North-South", "East-West"


def test_broadway_every_turn_and_the_settlement():
    rec = {"format": "scorekeeper/1", "game": "broadway", "players": FOUR, "hands": [BROADWAY_HAND]}
    rows = rows_of(rec)
    assert rows[:2] == [
        (1, 1, "Ann", NS, "6-6 at (0,0)-(1,0)", "", 0, 0, f"{NS} 0; {EW} 0", ""),
        (1, 2, "Ben", EW, "6-4 at (-1,0)-(-1,-1)", "", 0, 0, f"{NS} 0; {EW} 0", "matched 1"),
    ]
    assert rows[7:] == [
        (1, 8, "Di", EW, "6-0 at (1,1)-(1,2)", "", 1, 1, f"{NS} 0; {EW} 1", "matched 2"),
        (1, 9, "Ann", NS, "1-0 at (-1,2)-(0,2)", "", 5, 5, f"{NS} 5; {EW} 1", "matched 3"),
        (1, 10, "Ben", EW, "pass", "", 0, 1, f"{NS} 5; {EW} 1", ""),
        (1, 11, "Cy", NS, "exposed 5-2", "", 0, 5, f"{NS} 5; {EW} 1", "turn lost"),
        (1, 12, "Di", EW, "pass", "", 0, 1, f"{NS} 5; {EW} 1", ""),
        (1, 13, "Ann", NS, "pass", "", 0, 5, f"{NS} 5; {EW} 1", ""),
        (1, 14, "Ben", EW, "pass", "", 0, 1, f"{NS} 5; {EW} 1", ""),
        (1, 15, "Cy", NS, "pass", "", 0, 5, f"{NS} 5; {EW} 1", ""),
        (1, "", "", NS, "settlement: blocked, 9 tiles left", "", -9, -4, f"{NS} -4; {EW} 1", ""),
        (1, "", "", EW, "settlement: blocked, 10 tiles left", "", -10, -9, f"{NS} -4; {EW} -9", ""),
    ]
    rec["rules"] = {"unplayed_penalty": "to-opponents"}
    assert rows_of(rec)[-2:] == [
        (1, "", "", NS, f"settlement: blocked, 10 tiles left by {EW}", "", 10, 15, f"{NS} 15; {EW} 1", ""),
        (1, "", "", EW, f"settlement: blocked, 9 tiles left by {NS}", "", 9, 10, f"{NS} 15; {EW} 10", ""),
    ]


# ------------------------------------------------------------------ a game without rows
def test_a_game_without_rows_has_a_row_per_hand_and_side_that_scored():
    scored = {
        "sides": ["Ann", "Ben"],
        "hands": [
            {"number": 1, "scores": {"Ann": 10, "Ben": 4}},
            {"number": 2, "scores": {"Ann": 10, "Ben": 4}},
            {"number": 3, "scores": {"Ann": 30, "Ben": 4}},
        ],
    }
    assert by_hand(scored) == [
        Row(1, None, "", "Ann", "hand 1", 10),
        Row(1, None, "", "Ben", "hand 1", 4),
        Row(3, None, "", "Ann", "hand 3", 20),
    ]


def test_the_game_spec_has_no_rows_unless_given():
    spec = registry.get("all-fives")
    assert isinstance(spec, GameSpec) and spec.rows is not None
    assert GameSpec.__dataclass_fields__["rows"].default is None
