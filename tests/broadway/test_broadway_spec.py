"""Black-box specification tests: Broadway.

Every expected number here is derived by hand from docs/rules/broadway.md,
docs/record-format.md (the envelope) and docs/broadway-engine.md (the
engine's contract, which fixes what the spec leaves open); the arithmetic is
in the comments.  The engine is seen through ``score_record(record)`` (the
object ``scorekeeper score`` prints), ``load(record)`` and the command line.

Seats: players are North, East, South, West in that order; North and South
(Ann, Cy) set tiles East-West (same y), East and West (Ben, Di) North-South
(same x).
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from support import run_cli

from scorekeeper.broadway import load, render, score_record
from scorekeeper.broadway.engine import (
    HandSizeError,
    NoMatchError,
    NotAdjacentError,
    OccupiedCellError,
    OrientationError,
    WrongDoubleError,
)
from scorekeeper.broadway.simulate import random_record
from scorekeeper.errors import (
    HandOverError,
    IllegalTileError,
    LeaderError,
    MatchOverError,
    RecordFormatError,
    RemainingError,
    RulesError,
    ScorekeeperError,
    WrongPlayerError,
)

PLAYERS = ["Ann", "Ben", "Cy", "Di"]  # North, East, South, West
NS, EW = "North-South", "East-West"


# ------------------------------------------------------------------ helpers
def rec(hands, players=PLAYERS, teams=None, **rules):
    r = {"format": "scorekeeper/1", "game": "broadway", "players": list(players)}
    if teams is not None:
        r["teams"] = teams
    if rules:
        r["rules"] = rules
    r["hands"] = hands
    return r


def P(tile, a, b, **kw):
    """A play: ``tile``'s first number on cell ``a``, its second on ``b``."""
    return {"play": tile, "at": [list(a), list(b)], **kw}


PASS = {"pass": True}


def X(tile):
    return {"exposed": tile}


def H(leader, turns, unplayed=None):
    h = {"leader": leader, "turns": list(turns)}
    if unplayed is not None:
        h["unplayed"] = unplayed
    return h


def turns_out(out, hand=0):
    return out["hands"][hand]["turns"]


def refused(record, cls=ScorekeeperError, hand=None, turn=None, field=None, match=None):
    """The record is refused with ``cls``; the message starts with ``hand H, turn T: ``
    (or ``hand H, FIELD: ``) and says why in one line."""
    with pytest.raises(cls) as ei:
        score_record(record)
    e = ei.value
    msg = str(e)
    assert isinstance(e, ValueError)
    assert "\n" not in msg
    prefix = ", ".join(p for p in (f"hand {hand}" if hand else None, f"turn {turn}" if turn else None, field) if p)
    if prefix:
        assert msg.startswith(prefix + ": "), msg
        assert (e.hand, e.turn) == (hand, turn), msg
    assert len(msg) > len(prefix) + 10, msg
    if match is not None:
        assert re.search(match, msg), msg
    return e


# ----------------------------------------------------------------- layouts
# The scoring layout (hand 1 on 6-6, leader Ann; every turn legal under the seat
# rule, so the same record holds with orientation "free"):
#
#   y=3   6(Ben) 6-6(Ann) 6(Di)          6-3 by Ben at (-1,3)(-1,2), 6-2 by Di at (2,3)(2,2)
#   y=2   3             2
#   y=1   3-3(Ann) 2-2(Cy)               3-3 at (-1,1)(0,1), 2-2 at (1,1)(2,1)
#   y=0   3(Di)  [F F]  2(Ben)           3-1 by Di at (-1,0)(-1,-1), 2-0 by Ben at (2,0)(2,-1)
#   y=-1  1             0
#        x=-1   0  1    2
#
# The free cells (0,0) and (1,0) are then flanked by 3 (left and above the left
# one) and 2 (right and above the right one).
BASE = [
    P("6-6", (0, 3), (1, 3)),  # 1 Ann: the double, no matched section counted
    P("6-3", (-1, 3), (-1, 2)),  # 2 Ben: 6 touches the 6 at (0,3): 1 matched -> 0
    PASS,  # 3 Cy
    P("6-2", (2, 3), (2, 2)),  # 4 Di: 6 touches (1,3): 1 -> 0
    P("3-3", (-1, 1), (0, 1)),  # 5 Ann: (-1,1) touches the 3 at (-1,2): 1 -> 0
    PASS,  # 6 Ben
    P("2-2", (1, 1), (2, 1)),  # 7 Cy: (2,1) touches the 2 at (2,2): 1 -> 0 ((1,1) next to a 3: no match, fine)
    P("3-1", (-1, 0), (-1, -1)),  # 8 Di: (-1,0) touches the 3 at (-1,1): 1 -> 0
    PASS,  # 9 Ann
    P("2-0", (2, 0), (2, -1)),  # 10 Ben: (2,0) touches the 2 at (2,1): 1 -> 0
]
# 11 Cy: 3-2 on (0,0)(1,0): 3 touches (-1,0)=3 and (0,1)=3, 2 touches (2,0)=2 and (1,1)=2 -> 4 matched
FOUR = P("3-2", (0, 0), (1, 0))
# or first 11 Cy: 3-0 on (0,-1)(1,-1): the 0 touches (2,-1)=0 -> 1 matched; 12 Di passes; then 13 Ann:
WITH_30 = BASE + [P("3-0", (0, -1), (1, -1)), PASS]
# (0,0) now also has a 3 below it at (0,-1); (1,0) a 0 below it at (1,-1).


# ======================================================= 1. scoring a placement
@pytest.mark.parametrize("orientation", ["seat", "free"])
def test_four_matched_sections_score_ten(orientation):
    out = score_record(rec([H("Ann", BASE + [FOUR])], orientation=orientation))
    ts = turns_out(out)
    assert [t["matched"] for t in ts] == [0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 4]
    assert [t["points"] for t in ts] == [0] * 10 + [10]
    assert ts[-1]["player"] == "Cy" and out["scores"] == {NS: 10, EW: 0}
    assert sorted(map(tuple, ts[-1]["sections"])) == [(-1, 0), (0, 1), (1, 1), (2, 0)]


@pytest.mark.parametrize(
    "tile, a, b, matched, points",
    [
        # 3 on (0,0): (-1,0)=3, (0,1)=3, (0,-1)=3; 2 on (1,0): (2,0)=2, (1,1)=2, (1,-1)=0 -> 5 -> 10
        ("3-2", (0, 0), (1, 0), 5, 10),
        # 3 on (0,0): three 3s; 4 on (1,0): 2, 2, 0 -> no -> 3 -> 5
        ("3-4", (0, 0), (1, 0), 3, 5),
        # 1 on (0,0): 3, 3, 3 -> no; 2 on (1,0): (2,0)=2, (1,1)=2 -> 2 -> 1
        ("1-2", (0, 0), (1, 0), 2, 1),
        # written the other way round: "2-1" with the 2 on (1,0) is the same placement
        ("2-1", (1, 0), (0, 0), 2, 1),
        # 3 on (0,0) as before (3 matched), 5 on (1,0): none -> 3 -> 5
        ("5-3", (1, 0), (0, 0), 3, 5),
    ],
)
def test_points_by_matched_sections(tile, a, b, matched, points):
    out = score_record(rec([H("Ann", WITH_30 + [P(tile, a, b)])]))
    t = turns_out(out)[-1]
    assert (t["player"], t["matched"], t["points"]) == ("Ann", matched, points)
    assert turns_out(out)[10]["matched"] == 1  # the 3-0
    assert out["scores"] == {NS: points, EW: 0}


def test_the_points_table():
    from scorekeeper.broadway import points_for

    # 1 -> 0, 2 -> 1, 3 -> 5, 4 or more -> 10 (a tile touches at most 6 halves)
    assert [points_for(n) for n in (1, 2, 3, 4, 5, 6)] == [0, 1, 5, 10, 10, 10]


def test_points_go_to_the_placers_side():
    # Cy passes at turn 11 and Di (West) sets the four-matched 3-2 at turn 12; West sets
    # tiles North-South, so this needs orientation "free": East-West scores the 10
    out = score_record(rec([H("Ann", BASE + [PASS, FOUR])], orientation="free"))
    assert turns_out(out)[-1]["player"] == "Di"
    assert out["scores"] == {NS: 0, EW: 10}


def test_halves_that_touch_need_not_all_match():
    # turn 7: the 2 at (1,1) touches the 3 at (0,1); the 2 at (2,1) matches: legal, 1 matched
    out = score_record(rec([H("Ann", BASE[:7])]))
    assert turns_out(out)[6]["matched"] == 1


def test_odd_shapes_and_holes_are_fine():
    # after turn 7 the cells (0,2)(1,2) under the double are an enclosed hole; Cy (South,
    # East-West) fills it at turn 11 with 6-5: the 6 on (0,2) touches (0,3)=6 (match),
    # (-1,2)=3, (0,1)=3; the 5 on (1,2) touches (1,3)=6, (2,2)=2, (1,1)=2 -> 1 matched
    hole = BASE + [P("6-5", (0, 2), (1, 2))]
    out = score_record(rec([H("Ann", hole)]))
    assert turns_out(out)[-1]["matched"] == 1


def test_the_first_double_needs_no_match_and_scores_nothing():
    out = score_record(rec([H("Ann", [P("6-6", (10, -4), (11, -4))])]))
    t = turns_out(out)[0]
    assert (t["tile"], t["matched"], t["points"]) == ("6-6", 0, 0)


# ============================================================ 2. orientation
def test_north_and_south_set_east_west_east_and_west_north_south():
    # Ben (East) sets 6-3 East-West (same y) at turn 2: refused
    e = refused(
        rec([H("Ann", [P("6-6", (0, 3), (1, 3)), P("6-3", (-2, 3), (-1, 3))])]),
        OrientationError,
        1,
        2,
        match="Ben.*North-South",
    )
    assert "same x" in str(e)
    # Ann (North) sets her double North-South: refused
    refused(rec([H("Ann", [P("6-6", (0, 0), (0, 1))])]), OrientationError, 1, 1, match="East-West")


def test_orientation_free_lifts_the_seat_rule():
    r = rec([H("Ann", [P("6-6", (0, 0), (0, 1)), P("6-3", (1, 0), (2, 0))])], orientation="free")
    assert [t["matched"] for t in turns_out(score_record(r))] == [0, 1]


def test_the_spec_example():
    # players named after their seats; East leads 6-6 North-South, South 6-3 East-West
    # (the 6 on (1,0) touches the 6 on (0,0): 1 matched -> 0), West passes, North exposes 5-2
    seats = ["North", "East", "South", "West"]
    hand = {
        "leader": "East",
        "turns": [
            {"play": "6-6", "at": [[0, 0], [0, 1]]},
            {"play": "6-3", "at": [[1, 0], [2, 0]]},
            {"pass": True},
            {"exposed": "5-2"},
        ],
    }
    out = score_record(rec([hand], players=seats))
    assert [(t["player"], t["matched"], t["points"]) for t in turns_out(out)] == [
        ("East", 0, 0),
        ("South", 1, 0),
        ("West", 0, 0),
        ("North", 0, 0),
    ]
    assert out["hands"][0]["end"] == "open"
    # its "unplayed" belongs to an ended hand: here the hand is still going
    refused(
        rec([dict(hand, unplayed={"North": 1, "West": 0})], players=seats),
        RemainingError,
        1,
        field="unplayed",
        match="not ended",
    )


# ============================================================== 3. turn order
def test_turns_go_clockwise_from_the_leader():
    out = score_record(rec([H("Cy", [P("6-6", (0, 0), (1, 0)), PASS, PASS, PASS, P("6-5", (2, 0), (3, 0))])]))
    assert [t["player"] for t in turns_out(out)] == ["Cy", "Di", "Ann", "Ben", "Cy"]


def test_a_turn_for_the_wrong_player_is_out_of_order():
    r = rec([H("Ann", [P("6-6", (0, 3), (1, 3)), dict(P("6-3", (-1, 3), (-1, 2)), player="Cy")])])
    e = refused(r, WrongPlayerError, 1, 2, match="out of order")
    assert "Ben" in str(e) and "Cy" in str(e)
    # naming the right player is fine
    ok = rec([H("Ann", [P("6-6", (0, 3), (1, 3), player="Ann"), P("6-3", (-1, 3), (-1, 2), player="East")])])
    assert score_record(ok)["hands"][0]["turns"][1]["player"] == "Ben"


def test_a_turn_after_the_hand_ended_is_out_of_order():
    r = rec([H("Ann", [P("6-6", (0, 0), (1, 0)), PASS, PASS, PASS, PASS, PASS])])
    refused(r, HandOverError, 1, 6, match="ended")


def test_a_hand_before_the_last_one_ended_is_out_of_order():
    r = rec([H("Ann", [P("6-6", (0, 0), (1, 0))]), H("Ben", [])])
    refused(r, HandOverError, 2, match="hand 1 has not ended")


# ====================================================== 4. the hand's double
@pytest.mark.parametrize(
    "number, double", [(1, "6-6"), (2, "5-5"), (3, "4-4"), (4, "3-3"), (5, "2-2"), (6, "1-1"), (7, "0-0")]
)
def test_the_doubles_of_the_seven_hands(number, double):
    out = score_record(rec(quick_hands(["Ann"] * number)))
    assert out["hands"][-1]["double"] == double
    assert out["hands"][-1]["turns"][0]["tile"] == double


def test_a_wrong_first_double():
    refused(rec([H("Ann", [P("5-5", (0, 0), (1, 0))])]), WrongDoubleError, 1, 1, match="6-6")
    refused(rec(quick_hands(["Ann"]) + [H("Ben", [P("6-6", (0, 0), (0, 1))])]), WrongDoubleError, 2, 1, match="5-5")
    refused(rec([H("Ann", [P("6-5", (0, 0), (1, 0))])]), WrongDoubleError, 1, 1)


def test_the_first_turn_cannot_pass_or_expose():
    refused(rec([H("Ann", [PASS])]), WrongDoubleError, 1, 1, match="6-6")
    refused(rec([H("Ann", [X("5-2")])]), WrongDoubleError, 1, 1, match="6-6")


@pytest.mark.parametrize(
    "hand, cls",
    [
        ({"turns": []}, LeaderError),
        ({"leader": None, "turns": []}, LeaderError),
        ({"leader": "Zed", "turns": []}, LeaderError),
        ({"leader": 3, "turns": []}, RecordFormatError),
    ],
)
def test_a_wrong_leader(hand, cls):
    refused(rec([hand]), cls, 1, field="leader")


def test_a_seat_name_may_name_the_leader():
    out = score_record(rec([H("West", [P("6-6", (0, 0), (0, 1))])]))
    assert out["hands"][0]["leader"] == "Di"


# ====================================================== 5. placement errors
def _after_double(*turns, **rules):
    return rec([H("Ann", [P("6-6", (0, 3), (1, 3)), *turns])], **rules)


def test_occupied_cell():
    e = refused(_after_double(P("6-3", (1, 3), (1, 2))), OccupiedCellError, 1, 2, match=r"\(1, 3\)")
    assert "6-6" in str(e)


@pytest.mark.parametrize("cells", [((-1, 3), (-1, 1)), ((-1, 3), (-2, 2)), ((-1, 3), (-1, 3))])
def test_cells_not_adjacent(cells):
    refused(_after_double(P("6-3", *cells), orientation="free"), NotAdjacentError, 1, 2, match="adjacent")


def test_no_matched_section():
    # the 5 on (-1,3) touches the 6 on (0,3): no match; the 4 on (-1,2) touches nothing
    refused(_after_double(P("5-4", (-1, 3), (-1, 2))), NoMatchError, 1, 2, match="matches no section")
    # a tile set away from the layout
    refused(_after_double(P("6-4", (5, 5), (5, 6))), NoMatchError, 1, 2)


def test_tile_already_down():
    # turn 5 (Ann) sets the 6-3 Ben set at turn 2 again, as 3-6 on fresh cells
    e = refused(
        rec([H("Ann", BASE[:4] + [P("3-6", (-2, 2), (-3, 2))])]), IllegalTileError, 1, 5, match="already on the table"
    )
    assert "Ben" in str(e) and "turn 2" in str(e)
    # the double again
    refused(_after_double(P("6-6", (-1, 3), (-1, 2))), IllegalTileError, 1, 2, match="already")


@pytest.mark.parametrize(
    "turn",
    [
        {"play": "6-3"},  # no cells
        {"play": "6-3", "at": [[-1, 3]]},  # one cell
        {"play": "6-3", "at": [[-1, 3], [-1, 2], [-1, 1]]},  # three cells
        {"play": "6-3", "at": [[-1, 3], [-1, "2"]]},  # not a number
        {"play": "6-3", "at": [[-1, 3], [-1, 2.0]]},  # not whole
        {"play": "6-3", "at": [[-1, 3], [-1, True]]},  # not a number
        {"play": "6-3", "at": "(-1,3),(-1,2)"},  # not a list
        {"play": "6-3", "at": [[-1, 3], None]},
        {"play": "6-3", "at": [[-1, 3], {"x": -1, "y": 2}]},
        {"pass": True, "at": [[0, 0], [0, 1]]},  # cells on a pass
        {"play": "6-3", "pass": True, "at": [[-1, 3], [-1, 2]]},
        {"pass": False},
        {"passed": True},  # unknown key
        {},
        "pass",
        {"play": "6-7", "at": [[-1, 3], [-1, 2]]},  # not a double-six tile
        {"play": 63, "at": [[-1, 3], [-1, 2]]},
        {"exposed": "9-9"},
        {"play": "6-3", "at": [[-1, 3], [-1, 2]], "player": 2},
    ],
)
def test_malformed_turns(turn):
    refused(_after_double(turn), ScorekeeperError, 1, 2)


# ============================================== 6. passes, blocks, exposed tiles
def test_four_passes_in_succession_block_the_hand():
    out = score_record(
        rec(
            [
                H(
                    "Ann",
                    [P("6-6", (0, 0), (1, 0)), PASS, PASS, PASS, PASS],
                    unplayed={"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7},
                )
            ]
        )
    )
    assert out["hands"][0]["end"] == "blocked"
    # three passes and a play do not
    out = score_record(
        rec([H("Ann", [P("6-6", (0, 0), (1, 0)), PASS, PASS, PASS, P("6-5", (2, 0), (3, 0)), PASS, PASS, PASS])])
    )
    assert out["hands"][0]["end"] == "open"


def test_an_exposed_tile_loses_the_turn_and_is_not_a_pass():
    # Di exposes 5-2 at turn 4: she loses the turn (0 points) and Ann is next; the exposure
    # breaks a succession of passes: pass, pass, exposed, pass, pass, pass is not blocked
    turns = [P("6-6", (0, 0), (1, 0)), PASS, PASS, X("5-2"), PASS, PASS, PASS]
    out = score_record(rec([H("Ann", turns)]))
    ts = turns_out(out)
    assert ts[3] == {"player": "Di", "exposed": "5-2", "matched": 0, "points": 0}
    assert [t["player"] for t in ts] == ["Ann", "Ben", "Cy", "Di", "Ann", "Ben", "Cy"]
    assert out["hands"][0]["end"] == "open"
    # a fourth pass in succession (Di) blocks it
    out = score_record(rec([H("Ann", turns + [PASS], unplayed={"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7})]))
    assert out["hands"][0]["end"] == "blocked"


def test_an_exposed_tile_stays_with_its_player():
    # Ben exposed 5-2 (turn 2): nobody else may set, expose or list it; he may set it later
    base = [P("6-6", (0, 3), (1, 3)), X("5-2"), PASS, PASS, PASS]
    refused(rec([H("Ann", base[:2] + [P("2-5", (2, 3), (3, 3))])]), IllegalTileError, 1, 3, match="Ben")
    refused(rec([H("Ann", base[:2] + [PASS, X("5-2")])]), IllegalTileError, 1, 4, match="Ben")
    # already down: cannot be exposed
    refused(rec([H("Ann", [P("6-6", (0, 3), (1, 3)), X("6-6")])]), IllegalTileError, 1, 2, match="already on the table")
    # Ben sets it himself later: legal (the 6-5 first, then 5-2 on the 5)
    ok = [P("6-6", (0, 3), (1, 3)), X("5-2"), PASS, PASS, P("6-5", (2, 3), (3, 3)), P("5-2", (3, 2), (3, 1))]
    out = score_record(rec([H("Ann", ok)]))
    assert turns_out(out)[-1]["player"] == "Ben" and turns_out(out)[-1]["matched"] == 1


# ============================================================== 7. seven tiles
def ann_chain(n):
    """Ann (North) sets a chain East-West while the three others pass: 6-6 on (0,0)(1,0),
    6-5 on (2,0)(3,0) (its 6 touches the 6 on (1,0)), 5-4, 4-3, 3-2, 2-1, 1-0, 0-0:
    each tile's first half touches the same number; Ann's k-th tile is turn 4k - 3."""
    chain = ["6-6", "6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0"][:n]
    turns = []
    for i, t in enumerate(chain):
        turns.append(P(t, (2 * i, 0), (2 * i + 1, 0)))
        turns += [PASS, PASS, PASS]
    return turns


def test_a_player_sets_at_most_seven_tiles():
    turns = ann_chain(8)
    # the 8th tile (0-0) is Ann's turn 29
    e = refused(rec([H("Ann", turns[:29])]), HandSizeError, 1, 29, match="all 7 tiles")
    assert "Ann" in str(e)
    # after her 7th tile Ann can only pass; a fourth pass then blocks the hand
    out = score_record(rec([H("Ann", turns[:28] + [PASS], unplayed={"Ann": 0, "Ben": 7, "Cy": 7, "Di": 7})]))
    assert out["hands"][0]["end"] == "blocked" and out["hands"][0]["unplayed"]["Ann"] == 0
    # she cannot expose a tile either
    refused(rec([H("Ann", turns[:28] + [X("5-5")])]), HandSizeError, 1, 29)


def test_exposed_tiles_count_among_the_seven():
    # Ann set 6 tiles and exposed 5-5 (still hers: her 7th); she cannot set another tile
    turns = ann_chain(6) + [X("5-5"), PASS, PASS, PASS]  # turns 25-28
    refused(rec([H("Ann", turns + [P("1-0", (12, 0), (13, 0))])]), HandSizeError, 1, 29, match="5-5")
    # but she may set the exposed tile (the 5-5 under the 5 of 6-5 at (3,0)? Ann sets East-West:
    # 5-5 on (3,-1)(4,-1): touches (3,0)=5 and (4,0)=5 -> 2 matched -> 1 point)
    out = score_record(rec([H("Ann", turns + [P("5-5", (3, -1), (4, -1))])]))
    assert (turns_out(out)[-1]["matched"], turns_out(out)[-1]["points"]) == (2, 1)


# ============================================================ 8. unplayed tiles
BLOCKED = [P("6-6", (0, 0), (1, 0)), PASS, PASS, PASS, PASS]  # Ann set 1, the others 0


@pytest.mark.parametrize(
    "penalty, settlement",
    [
        # Ann 6 + Cy 7 = 13 held by North-South, Ben 7 + Di 7 = 14 by East-West
        ("subtract", {NS: -13, EW: -14}),
        ("to-opponents", {NS: 14, EW: 13}),
        (None, {NS: -13, EW: -14}),  # subtract is the default
    ],
)
def test_unplayed_penalties(penalty, settlement):
    rules = {"unplayed_penalty": penalty} if penalty else {}
    out = score_record(rec([H("Ann", BLOCKED, unplayed={"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7})], **rules))
    h = out["hands"][0]
    assert h["settlement"] == settlement and h["scores"] == settlement == out["scores"]
    assert h["unplayed"] == {"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7}


def test_unplayed_tiles_as_lists_are_checked():
    ann = ["5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    ben = ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-4"]
    cy = ["5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1"]
    di = ["4-0", "3-2", "3-1", "3-0", "2-1", "2-0", "1-0"]
    out = score_record(rec([H("Ann", BLOCKED, unplayed={"Ann": ann, "Ben": ben, "Cy": cy, "Di": di})]))
    assert out["hands"][0]["unplayed"] == {"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7}
    # counts and lists mixed
    out = score_record(rec([H("Ann", BLOCKED, unplayed={"Ann": ann, "Ben": 7, "Cy": cy, "Di": 7})]))
    assert out["hands"][0]["settlement"] == {NS: -13, EW: -14}
    bad = [
        ({"Ann": ann[:5], "Ben": 7, "Cy": 7, "Di": 7}, "5 are listed"),  # wrong length
        ({"Ann": ann[:5] + ["6-6"], "Ben": 7, "Cy": 7, "Di": 7}, "set it at turn 1"),  # on the table
        ({"Ann": ann, "Ben": ben[:6] + ["5-5"], "Cy": 7, "Di": 7}, "for Ann and for Ben"),
        ({"Ann": ann[:5] + ["5-5"], "Ben": 7, "Cy": 7, "Di": 7}, "twice"),
        ({"Ann": ann[:5] + ["7-1"], "Ben": 7, "Cy": 7, "Di": 7}, "double-6"),
    ]
    for unplayed, why in bad:
        refused(rec([H("Ann", BLOCKED, unplayed=unplayed)]), ScorekeeperError, 1, field="unplayed", match=why)


@pytest.mark.parametrize(
    "unplayed, why",
    [
        ({"Ann": 7, "Ben": 7, "Cy": 7, "Di": 7}, "Ann set 1 tile, so holds 6, not 7"),
        ({"Ann": 6, "Ben": 7, "Cy": 7}, "Di set 0 tiles, so holds 7"),  # Di left out
        ({"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7, "Zed": 0}, "'Zed' is not a player"),
        ({"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7, "North": 6}, "listed twice"),  # Ann by her seat
        ({"Ann": 6, "Ben": 7, "Cy": 7, "Di": -7}, "not -7"),
        ({"Ann": 6, "Ben": 7, "Cy": 7, "Di": "7"}, "a count or a list"),
        ({"Ann": 6, "Ben": 7, "Cy": 7, "Di": True}, "a count or a list"),
        ([6, 7, 7, 7], "object"),
    ],
)
def test_wrong_unplayed_counts(unplayed, why):
    refused(rec([H("Ann", BLOCKED, unplayed=unplayed)]), ScorekeeperError, 1, field="unplayed", match=why)


def test_an_exposed_tile_never_set_is_among_its_players_unplayed():
    turns = [P("6-6", (0, 0), (1, 0)), X("5-2"), PASS, PASS, PASS, PASS]  # Ben exposed 5-2, then 4 passes
    ok = {"Ann": 6, "Ben": ["5-2", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"], "Cy": 7, "Di": 7}
    assert score_record(rec([H("Ann", turns, unplayed=ok)]))["hands"][0]["end"] == "blocked"
    missing = dict(ok, Ben=["5-5", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"])
    refused(
        rec([H("Ann", turns, unplayed=missing)]), RemainingError, 1, field="unplayed", match="exposed 5-2 at turn 2"
    )
    elsewhere = dict(ok, Ben=7, Cy=["5-2", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"])
    refused(rec([H("Ann", turns, unplayed=elsewhere)]), RemainingError, 1, field="unplayed", match="Ben exposed it")


def test_a_blocked_hand_needs_its_unplayed_tiles():
    # scored: the record may not stop there; the next hand may not start without them
    refused(rec([H("Ann", BLOCKED)]), RemainingError, 1, field="unplayed", match="missing")
    refused(rec([H("Ann", BLOCKED), H("Ben", [])]), RemainingError, 1, field="unplayed")
    # but the engine (and the store) keep such a match in progress
    m = load(rec([H("Ann", BLOCKED)]))
    assert m.phase == "unplayed" and m.hand.due == (6, 7, 7, 7)


def test_unplayed_given_too_early_or_twice():
    refused(
        rec([H("Ann", BLOCKED[:3], unplayed={"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7})]),
        RemainingError,
        1,
        field="unplayed",
        match="not ended",
    )
    m = load(rec([H("Ann", BLOCKED, unplayed={"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7})]))
    with pytest.raises(RemainingError, match="^hand 1, unplayed: .*already been given"):
        m.settle({"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7})


# ========================================================== 9. a complete hand
def _complete_hand_record():
    """A random legal first hand in which all 28 tiles went down (a hand that ends
    "complete"), and nothing after it."""
    for seed in range(200):
        r = random_record(seed, max_hands=1, pass_rate=0.0, expose_rate=0.0)
        out = score_record(r)
        if out["hands"][0]["end"] == "complete":
            return r
    raise AssertionError("no complete hand found")


def test_a_complete_hand_has_no_penalties():
    r = _complete_hand_record()
    out = score_record(r)
    h = out["hands"][0]
    assert sum(1 for t in h["turns"] if "tile" in t) == 28
    assert h["unplayed"] == {p: 0 for p in PLAYERS}
    assert h["settlement"] == {NS: 0, EW: 0}
    assert h["scores"] == h["points"]
    # every player set seven tiles
    assert {p: sum(1 for t in h["turns"] if "tile" in t and t["player"] == p) for p in PLAYERS} == {
        p: 7 for p in PLAYERS
    }
    # unplayed may be given (all nothing) but need not be; a next hand may start
    r2 = copy.deepcopy(r)
    r2["hands"][0]["unplayed"] = {"Ann": 0, "Ben": [], "Cy": 0, "Di": 0}
    assert score_record(r2)["scores"] == out["scores"]
    r2["hands"][0]["unplayed"] = {"Ann": 1, "Ben": 0, "Cy": 0, "Di": 0}
    refused(r2, RemainingError, 1, field="unplayed", match="holds 0, not 1")
    # no turn after it
    r3 = copy.deepcopy(r)
    r3["hands"][0]["turns"].append(PASS)
    refused(r3, HandOverError, 1, len(h["turns"]) + 1, match="28 tiles")


# ====================================================== 10. the seven-hand match
DOUBLES = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]


def quick_hands(leaders, first=1, penalties=True):
    """Hands in which the leader sets the double and the four others pass (blocked):
    the leader holds 6, the three others 7 each. Subtract: the leader's side -13, the
    other -14 (the leader's side gains 1 on the other)."""
    out = []
    for i, leader in enumerate(leaders):
        number = first + i
        d = DOUBLES[(number - 1) % 7]
        seat = PLAYERS.index(leader) if leader in PLAYERS else ["North", "East", "South", "West"].index(leader)
        second = (1, 0) if seat % 2 == 0 else (0, 1)
        unplayed = {p: 7 for p in PLAYERS}
        unplayed[PLAYERS[seat]] = 6
        out.append(H(leader, [P(d, (0, 0), second), PASS, PASS, PASS, PASS], unplayed if penalties else None))
    return out


# a hand 7 on 0-0 that leaves the sides level: Ann sets 0-0, Ben 0-5 North-South (the 0 on
# (0,1) touches the 0 on (0,0): 1 matched -> 0), then four passes; Ann and Ben hold 6,
# Cy and Di 7: both sides -13
LEVEL_7 = H(
    "Ann",
    [P("0-0", (0, 0), (1, 0)), P("0-5", (0, 1), (0, 2)), PASS, PASS, PASS, PASS],
    {"Ann": 6, "Ben": 6, "Cy": 7, "Di": 7},
)
ALTERNATE_6 = quick_hands(["Ann", "Ben"] * 3)  # after six hands: level (3 x +1, 3 x -1)


def test_after_seven_hands_the_side_with_more_points_wins():
    # leaders Ann, Ben, Ann, Ben, Ann, Ben, Ann: North-South 4 x -13 + 3 x -14 = -94,
    # East-West 4 x -14 + 3 x -13 = -95 -> North-South wins by one
    out = score_record(rec(quick_hands(["Ann", "Ben"] * 3 + ["Ann"])))
    assert [h["double"] for h in out["hands"]] == DOUBLES
    assert out["scores"] == {NS: -94, EW: -95}
    assert out["winner"] == NS and out["won_at"] == {"hand": 7, "turn": None}
    assert all(not h["sudden_death"] for h in out["hands"])


def test_a_big_lead_before_hand_seven_does_not_end_the_match():
    # hand 1: North-South +10 (the four-matched 3-2), then four passes: blocked
    # Ann set 6-6, 3-3 -> 5 left; Ben 6-3, 2-0 -> 5; Cy 2-2, 3-2 -> 5; Di 6-2, 3-1 -> 5
    h1 = H("Ann", BASE + [FOUR, PASS, PASS, PASS, PASS], {"Ann": 5, "Ben": 5, "Cy": 5, "Di": 5})
    out = score_record(rec([h1] + quick_hands(["Ben"], first=2)))
    assert out["hands"][0]["scores"] == {NS: 10 - 10, EW: -10}
    assert out["winner"] is None and len(out["hands"]) == 2


def test_a_tie_after_seven_hands_goes_to_sudden_death_from_six_six():
    out = score_record(rec(ALTERNATE_6 + [LEVEL_7]))
    assert out["scores"][NS] == out["scores"][EW] and out["winner"] is None
    # hand 8 on 6-6, leader Ben; he sets it, four passes: East-West gains 1 -> lead 1, no winner
    out = score_record(rec(ALTERNATE_6 + [LEVEL_7] + quick_hands(["Ben"], first=8)))
    h8 = out["hands"][7]
    assert (h8["double"], h8["sudden_death"]) == ("6-6", True)
    assert out["scores"][EW] - out["scores"][NS] == 1 and out["winner"] is None
    # hand 9 on 5-5; Di leads, East-West gains 1 more -> lead 2 at the end of hand 9: wins
    out = score_record(rec(ALTERNATE_6 + [LEVEL_7] + quick_hands(["Ben", "Di"], first=8)))
    assert out["hands"][8]["double"] == "5-5"
    assert out["winner"] == EW and out["won_at"] == {"hand": 9, "turn": None}


def test_sudden_death_is_won_at_once_mid_hand():
    # hand 8 on 6-6 is the scoring layout: at turn 13 Ann's 3-4 scores 5 (3 matched):
    # North-South leads by 5 at that moment and wins; nothing after it is accepted
    h8 = H("Ann", WITH_30 + [P("3-4", (0, 0), (1, 0))])
    r = rec(ALTERNATE_6 + [LEVEL_7, h8])
    out = score_record(r)
    assert out["winner"] == NS and out["won_at"] == {"hand": 8, "turn": 13}
    assert out["hands"][7]["end"] == "open"
    assert out["scores"][NS] - out["scores"][EW] == 5
    # entries after the win
    after_turn = copy.deepcopy(r)
    after_turn["hands"][7]["turns"].append(PASS)
    refused(after_turn, MatchOverError, 8, 14, match="match is over")
    after_unplayed = copy.deepcopy(r)
    after_unplayed["hands"][7]["unplayed"] = {"Ann": 4}
    refused(after_unplayed, MatchOverError, 8, field="unplayed", match="match is over")
    after_hand = copy.deepcopy(r)
    after_hand["hands"].append(H("Ben", []))
    refused(after_hand, MatchOverError, 9, match="match is over")


def test_a_lead_of_one_is_not_enough_and_penalties_count_at_once():
    # hand 8: Ann's 1-2 at turn 13 scores 1 (2 matched): lead 1, play goes on; then four
    # passes block it. Set: Ann 6-6, 3-3, 1-2 (3 -> holds 4), Ben 6-3, 2-0 (5), Cy 2-2,
    # 3-0 (5), Di 6-2, 3-1 (5). Subtract: North-South -9, East-West -10 -> lead 1 + 1 = 2:
    # North-South wins at the end of hand 8
    h8 = H("Ann", WITH_30 + [P("1-2", (0, 0), (1, 0)), PASS, PASS, PASS, PASS], {"Ann": 4, "Ben": 5, "Cy": 5, "Di": 5})
    out = score_record(rec(ALTERNATE_6 + [LEVEL_7, h8]))
    assert out["hands"][7]["settlement"] == {NS: -9, EW: -10}
    assert out["winner"] == NS and out["won_at"] == {"hand": 8, "turn": None}
    partial = copy.deepcopy(h8)
    del partial["unplayed"]
    partial["turns"] = partial["turns"][:13]
    out = score_record(rec(ALTERNATE_6 + [LEVEL_7, partial]))
    assert out["winner"] is None and out["scores"][NS] - out["scores"][EW] == 1


def test_after_the_match_is_won_no_hand_is_accepted():
    r = rec(quick_hands(["Ann", "Ben"] * 3 + ["Ann"]) + [H("Ben", [])])
    refused(r, MatchOverError, 8, match="North-South won -94 to -95")


# ============================================================== 11. envelope
def test_teams_default_names_and_seats():
    out = score_record(rec([]))
    assert out["sides"] == [NS, EW]
    assert out["teams"] == {NS: ["Ann", "Cy"], EW: ["Ben", "Di"]}
    assert out["seats"] == {"North": "Ann", "East": "Ben", "South": "Cy", "West": "Di"}
    assert out["rules"] == {"orientation": "seat", "unplayed_penalty": "subtract"}


def test_named_teams_must_pair_seats_one_three_and_two_four():
    out = score_record(rec(quick_hands(["Ann"]), teams={"Us": ["Cy", "Ann"], "Them": ["Ben", "Di"]}))
    assert out["sides"] == ["Us", "Them"] and out["scores"] == {"Us": -13, "Them": -14}
    e = refused(rec([], teams={"Us": ["Ann", "Ben"], "Them": ["Cy", "Di"]}), RecordFormatError)
    assert str(e).startswith("teams: ")
    e = refused(rec([], teams={"A": ["Ann"], "B": ["Cy"], "C": ["Ben", "Di"]}), RecordFormatError)
    assert str(e).startswith("teams: ")


@pytest.mark.parametrize("players", [["Ann", "Ben"], ["Ann", "Ben", "Cy"], ["A", "B", "C", "D", "E"]])
def test_four_players(players):
    e = refused(rec([], players=players), RecordFormatError)
    assert str(e).startswith("players: ")


@pytest.mark.parametrize(
    "rules, field",
    [
        ({"orientation": "diagonal"}, "rules.orientation"),
        ({"orientation": None}, "rules.orientation"),
        ({"unplayed_penalty": "double"}, "rules.unplayed_penalty"),
        ({"unplayed_penalty": 1}, "rules.unplayed_penalty"),
        ({"target": 100}, "rules"),
        ({"Orientation": "free"}, "rules"),
    ],
)
def test_unknown_rules(rules, field):
    r = rec([])
    r["rules"] = rules
    e = refused(r, RulesError)
    assert str(e).startswith(field + ": ")
    r["rules"] = "free"
    assert str(refused(r, RulesError)).startswith("rules: ")


@pytest.mark.parametrize(
    "change",
    [
        {"hands": {"leader": "Ann"}},
        {"hands": [["Ann"]]},
        {"hands": [{"leader": "Ann", "turns": {}}]},
        {"hands": [{"leader": "Ann", "remaining": {}}]},
        {"extra": 1},
    ],
)
def test_malformed_records(change):
    r = rec([])
    r.update(change)
    refused(r, RecordFormatError)


def test_output_shape():
    r = rec(
        [
            H("Ann", BASE + [FOUR, PASS, PASS, PASS, PASS], {"Ann": 5, "Ben": 5, "Cy": 5, "Di": 5}),
            H("Ben", [P("5-5", (0, 0), (0, 1))]),
        ]
    )
    out = score_record(r)
    assert set(out) >= {"game", "sides", "hands", "scores", "winner"} and out["game"] == "broadway"
    h1, h2 = out["hands"]
    for h in out["hands"]:
        assert set(h) >= {"number", "double", "leader", "turns", "end", "settlement", "scores"}
        assert all("matched" in t and "points" in t and "player" in t for t in h["turns"])
    assert (h1["end"], h2["end"]) == ("blocked", "open")
    # hand 1: +10 to North-South; penalties 10 and 10 -> 0 and -10
    assert h1["points"] == {NS: 10, EW: 0}
    assert h1["settlement"] == {NS: -10, EW: -10} and h1["scores"] == {NS: 0, EW: -10}
    assert h2["settlement"] == {NS: 0, EW: 0} and h2["scores"] == out["scores"] == {NS: 0, EW: -10}
    assert json.loads(json.dumps(out)) == out
    text = render(out)
    assert "Hand 1 on 6-6 (leader Ann)" in text and "Hand 2 on 5-5 (leader Ben)" in text


def test_tiles_are_written_back_higher_half_first():
    out = score_record(rec([H("Ann", [P("6-6", (0, 3), (1, 3)), P("3-6", (-1, 2), (-1, 3))])]))
    assert turns_out(out)[1]["tile"] == "6-3" and turns_out(out)[1]["at"] == [[-1, 3], [-1, 2]]
    assert score_record(rec([H("Ann", [P("[6|6]", (0, 3), (1, 3))])]))["hands"][0]["turns"][0]["tile"] == "6-6"


def test_the_record_is_not_changed():
    r = rec([H("Ann", BASE + [FOUR])])
    before = copy.deepcopy(r)
    score_record(r)
    assert r == before


# ============================================================ 12. command line
def run_score(path, *args):
    """`scorekeeper score PATH ARGS` (in this process); stdout and stderr as bytes."""
    return run_cli("score", path, *args, binary=True)


def test_cli_scores_a_broadway_record(tmp_path):
    record = rec(ALTERNATE_6 + [LEVEL_7, H("Ann", WITH_30 + [P("3-4", (0, 0), (1, 0))])])
    p = tmp_path / "r.json"
    p.write_text(json.dumps(record), encoding="utf-8")
    proc = run_score(p)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert json.loads(proc.stdout) == json.loads(json.dumps(score_record(record)))
    proc = run_score(p, "--text")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode()
    assert text == render(score_record(record))
    assert "Winner: North-South (at hand 8, turn 13)" in text


def _cli_cases():
    over = rec(ALTERNATE_6 + [LEVEL_7, H("Ann", WITH_30 + [P("3-4", (0, 0), (1, 0)), PASS])])
    return [
        ("occupied", _after_double(P("6-3", (1, 3), (1, 2))), 1, 2),
        ("not-adjacent", _after_double(P("6-3", (-1, 3), (-1, 1))), 1, 2),
        ("orientation", _after_double(P("6-3", (-2, 3), (-1, 3))), 1, 2),
        ("no-match", _after_double(P("5-4", (-1, 3), (-1, 2))), 1, 2),
        ("already-down", rec([H("Ann", BASE[:4] + [P("3-6", (-2, 2), (-3, 2))])]), 1, 5),
        ("first-double", rec(quick_hands(["Ann"]) + [H("Ben", [P("6-6", (0, 0), (0, 1))])]), 2, 1),
        ("leader", rec([H("Zed", [])]), 1, None),
        ("out-of-order", rec([H("Ann", [P("6-6", (0, 3), (1, 3)), dict(PASS, player="Cy")])]), 1, 2),
        ("unplayed", rec([H("Ann", BLOCKED, unplayed={"Ann": 7, "Ben": 7, "Cy": 7, "Di": 7})]), 1, None),
        ("after-win", over, 8, 14),
        ("seven-tiles", rec([H("Ann", ann_chain(8)[:29])]), 1, 29),
        ("malformed-cell", _after_double({"play": "6-3", "at": [[-1, 3], [-1, "x"]]}), 1, 2),
        ("rules", rec([], orientation="sideways"), None, None),
        ("players", rec([], players=["Ann", "Ben"]), None, None),
    ]


@pytest.mark.parametrize("name, record, hand, turn", _cli_cases(), ids=[c[0] for c in _cli_cases()])
def test_cli_errors(tmp_path, name, record, hand, turn):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(record), encoding="utf-8")
    proc = run_score(p)
    err = proc.stderr.decode("utf-8", errors="replace")
    assert proc.returncode == 2, (proc.returncode, err, proc.stdout)
    assert proc.stdout == b""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    if hand is not None:
        where = f"error: hand {hand}, turn {turn}: " if turn is not None else f"error: hand {hand}, "
        assert lines[0].startswith(where), err
