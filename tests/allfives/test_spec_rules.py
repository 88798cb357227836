"""Black-box specification tests: All Fives rules.

Every expected number here is derived by hand from docs/rules/all-fives.md,
docs/record-format.md and docs/rules-decisions.md; the arithmetic is
in the comments next to it.  The engine is only seen through
`score_record(record) -> dict` (the JSON object `scorekeeper score` prints).

The engine does not know what is in the players' hands, only how many tiles
each holds, so any legal sequence of plays onto open ends is a valid record.
"""

import copy

import pytest

from scorekeeper.allfives import score_record
from scorekeeper.errors import ScorekeeperError

from .builders import PASS, H, P, record


# --------------------------------------------------------------- helpers
def turns_of(out, hand=0):
    return out["hands"][hand]["turns"]


def points(out, hand=0):
    return [t["points"] for t in turns_of(out, hand)]


def counts(out, hand=0):
    return [t["count"] for t in turns_of(out, hand) if "tile" in t]


def expect_turn_error(rec, hand, turn):
    with pytest.raises(ScorekeeperError) as ei:
        score_record(rec)
    e = ei.value
    assert e.hand == hand and e.turn == turn, str(e)
    assert str(e).startswith(f"hand {hand}, turn {turn}: "), str(e)
    return e


# The spec's worked example (all-fives.md, "Worked example"), with `on`.
WORKED_TURNS = [
    P("3-2"),
    P("2-2", on="3-2"),
    P("2-4", on="2-2"),
    P("2-0", on="2-2"),
    P("3-6", on="3-2"),
    P("2-5", on="2-2"),
]


def worked_record():
    return record(hands=[H(copy.deepcopy(WORKED_TURNS), leader="Ann")])


# ------------------------------------------------------- worked example
def test_worked_example_points_and_counts():
    out = score_record(worked_record())
    assert out["game"] == "all-fives"
    assert out["sides"] == ["Ann", "Ben"]
    assert out["target"] == 250  # two players, default target
    # table of the spec: counts 5, 7, 7, 7, 10, 15; points 5, 0, 0, 0, 10, 15
    assert counts(out) == [5, 7, 7, 7, 10, 15]
    assert points(out) == [5, 0, 0, 0, 10, 15]
    assert [t["player"] for t in turns_of(out)] == ["Ann", "Ben"] * 3
    # Ann 5 + 10 = 15, Ben 15
    assert out["scores"] == {"Ann": 15, "Ben": 15}
    h = out["hands"][0]
    assert h["number"] == 1
    assert h["end"] == "open"
    assert h["scores"] == {"Ann": 15, "Ben": 15}
    assert h["settlement"] == {"Ann": 0, "Ben": 0}
    assert h["winner"] is None
    assert out["winner"] is None


def test_worked_example_output_tiles_canonical_and_on():
    out = score_record(worked_record())
    # rules-decisions: tiles written back higher pips first; lead has on null
    assert [t["tile"] for t in turns_of(out)] == ["3-2", "2-2", "4-2", "2-0", "6-3", "5-2"]
    assert [t["on"] for t in turns_of(out)] == [None, "3-2", "2-2", "2-2", "3-2", "2-2"]


def test_placement_without_on_unique_fit_is_filled_in():
    # Each tile of the worked example fits exactly one tile of the layout:
    # 2-2 only on 3-2; 2-4 and 2-0 and 2-5 only on 2-2 (3-2's open half is 3,
    # 2-4's open half 4, ...); 3-6 only on 3-2's open 3.
    turns = [{"play": t["play"]} for t in WORKED_TURNS]
    out = score_record(record(hands=[H(turns, leader="Ann")]))
    assert counts(out) == [5, 7, 7, 7, 10, 15]
    assert points(out) == [5, 0, 0, 0, 10, 15]
    assert [t["on"] for t in turns_of(out)] == [None, "3-2", "2-2", "2-2", "3-2", "2-2"]


# ------------------------------------------------------------ tiles
@pytest.mark.parametrize("spelling", ["5-3", "3-5", "5|3", "[5-3]", "5:3", "3|5", "[3-5]", "3:5", "[5 - 3]"])
def test_tile_spellings_are_the_same_tile(spelling):
    out = score_record(record(hands=[H([P(spelling)], leader="Ann")]))
    t = turns_of(out)[0]
    assert t["tile"] == "5-3"  # canonical, higher first
    assert t["count"] == 8  # lead non-double: both halves open, 5 + 3
    assert t["points"] == 0


@pytest.mark.parametrize("lead,on", [("3-2", "2:3"), ("[2-3]", "3|2"), ("2:3", "[3-2]")])
def test_on_accepts_every_spelling(lead, on):
    out = score_record(record(hands=[H([P(lead), P("5-2", on=on)], leader="Ann")]))
    # lead 3-2 count 5 (Ann 5); 5-2 on the 2 -> tips 3 + 5 = 8
    assert counts(out) == [5, 8]
    assert turns_of(out)[1]["on"] == "3-2"
    assert out["scores"] == {"Ann": 5, "Ben": 0}


def test_set_9_allows_nines():
    out = score_record(record(rules={"set": 9}, hands=[H([P("9-6"), P("9-9", on="9-6")], leader="Ann")]))
    # lead 9-6: 15 -> Ann 15; 9-9 on the 9 (first double, spinner, one side
    # open): 6 + 18 = 24 -> nothing
    assert counts(out) == [15, 24]
    assert points(out) == [15, 0]


@pytest.mark.parametrize("tile,count,pts", [("12-8", 20, 20), ("[12-3]", 15, 15), ("12|12", 24, 0), ("11:10", 21, 0)])
def test_set_12_allows_twelves(tile, count, pts):
    out = score_record(record(rules={"set": 12}, hands=[H([P(tile)], leader="Ann")]))
    t = turns_of(out)[0]
    assert t["count"] == count and t["points"] == pts


@pytest.mark.parametrize("set_,tiles", [(6, 28), (9, 55), (12, 91)])
def test_set_size_determines_boneyard(set_, tiles):
    # two players, default hand 9: boneyard = tiles - 18; all of it can be
    # drawn, then a pass is allowed.
    bone = tiles - 18
    rec = record(rules={"set": set_}, hands=[H([P("1-2"), PASS(draw=bone)], leader="Ann")])
    out = score_record(rec)
    assert turns_of(out)[1]["drew"] == bone
    assert turns_of(out)[1]["pass"] is True
    assert turns_of(out)[1]["points"] == 0
    # one more tile is too many
    rec = record(rules={"set": set_}, hands=[H([P("1-2"), PASS(draw=bone + 1)], leader="Ann")])
    expect_turn_error(rec, 1, 2)


# ------------------------------------------------------------ the count
@pytest.mark.parametrize("spinner", ["first-double", "none", "all-doubles"])
def test_lead_double_alone_counts_both_halves_once(spinner):
    out = score_record(record(rules={"spinner": spinner}, hands=[H([P("5-5")], leader="Ann")]))
    # lead [5-5] alone counts 10 (not 20), a multiple of five
    assert counts(out) == [10]
    assert points(out) == [10]
    assert out["scores"] == {"Ann": 10, "Ben": 0}


def test_count_zero_and_non_multiples_score_nothing():
    # lead 0-0: count 0 is not a positive multiple of five; then 0-6 on 0-0:
    # 0-0 (spinner) still has one side open -> 0 + 6 = 6; 0-4 on 0-0 (second
    # side): 6 + 4 = 10 -> Ann 10
    out = score_record(record(hands=[H([P("0-0"), P("0-6", on="0-0"), P("0-4", on="0-0")], leader="Ann")]))
    assert counts(out) == [0, 6, 10]
    assert points(out) == [0, 0, 10]


def test_non_double_covered_half_does_not_count():
    # 1 Ann 6-4          : both halves open, 6 + 4 = 10  -> Ann 10
    # 2 Ben 4-1 on 6-4   : the 4 is covered: 6 + 1 = 7
    # 3 Ann 6-3 on 6-4   : the 6 is covered: 3 + 1 = 4
    # 4 Ben 1-1 on 4-1   : first double (spinner), one side open: 3 + 2 = 5 -> Ben 5
    out = score_record(
        record(hands=[H([P("6-4"), P("4-1", on="6-4"), P("6-3", on="6-4"), P("1-1", on="4-1")], leader="Ann")])
    )
    assert counts(out) == [10, 7, 4, 5]
    assert points(out) == [10, 0, 0, 5]
    assert out["scores"] == {"Ann": 10, "Ben": 5}


@pytest.mark.parametrize("spinner", ["first-double", "all-doubles"])
def test_spinner_sides_before_ends_and_covered_double_counts_zero(spinner):
    # Lead 2-2 is a spinner (first double / every double).
    # 1 Ann 2-2        : both sides open, counted once       -> 4
    # 2 Ben 2-4 on 2-2 : goes on a side; other side still open -> 4 + 4 = 8
    # 3 Ann 2-0 on 2-2 : goes on the second side (not an end), so the double
    #                    is now covered and counts 0        -> 4 + 0 = 4
    #                    (had it gone on an end: 4 + 4 + 0 = 8)
    # 4 Ben 2-5 on 2-2 : sides covered, now an end          -> 4 + 0 + 5 = 9
    # 5 Ann 2-1 on 2-2 : the other end                      -> 4+0+5+1 = 10
    turns = [P("2-2"), P("2-4", on="2-2"), P("2-0", on="2-2"), P("2-5", on="2-2"), P("2-1", on="2-2")]
    out = score_record(record(rules={"spinner": spinner}, hands=[H(turns, leader="Ann")]))
    assert counts(out) == [4, 8, 4, 9, 10]
    assert points(out) == [0, 0, 0, 0, 10]
    assert out["scores"] == {"Ann": 10, "Ben": 0}


def test_no_spinner_double_takes_only_its_two_sides():
    # spinner none: 2-2 takes 2-4 and 2-0 on its two sides, counts 4, 8, 4
    # (same as above), but has no ends: 2-5 on 2-2 is refused at turn 4.
    turns = [P("2-2"), P("2-4", on="2-2"), P("2-0", on="2-2")]
    out = score_record(record(rules={"spinner": "none"}, hands=[H(turns, leader="Ann")]))
    assert counts(out) == [4, 8, 4]
    turns.append(P("2-5", on="2-2"))
    expect_turn_error(record(rules={"spinner": "none"}, hands=[H(turns, leader="Ann")]), 1, 4)


def test_no_spinner_line_layout_later_double():
    # spinner none, worked example opening: 3-2 (5), 2-2 on 3-2: a plain
    # double with one open side -> 3 + 4 = 7; 2-4 on 2-2 covers its last side
    # -> 3 + 4 = 7; 2-0 on 2-2 has nowhere to go -> error at turn 4.
    turns = [P("3-2"), P("2-2", on="3-2"), P("2-4", on="2-2")]
    out = score_record(record(rules={"spinner": "none"}, hands=[H(turns, leader="Ann")]))
    assert counts(out) == [5, 7, 7]
    turns.append(P("2-0", on="2-2"))
    expect_turn_error(record(rules={"spinner": "none"}, hands=[H(turns, leader="Ann")]), 1, 4)


def _second_double_turns():
    # 1 Ann 3-2          : 5            -> Ann 5
    # 2 Ben 2-2 on 3-2   : 3 + 4 = 7    (first double: the spinner, one side open)
    # 3 Ann 2-4 on 2-2   : 3 + 4 = 7    (spinner's second side; now counts 0)
    # 4 Ben 4-4 on 2-4   : 3 + 8 = 11   (second double, one side open)
    # 5 Ann 4-1 on 4-4   : 3 + 1 = 4    (4-4's other side; 4-4 counts 0)
    return [P("3-2"), P("2-2", on="3-2"), P("2-4", on="2-2"), P("4-4", on="2-4"), P("4-1", on="4-4")]


def test_all_doubles_every_double_spins():
    turns = _second_double_turns() + [P("4-6", on="4-4")]
    # 6 Ben 4-6 on 4-4: 4-4 is a spinner with both sides covered, so an end
    #   takes it: 3 + 1 + 6 = 10 -> Ben 10
    out = score_record(record(rules={"spinner": "all-doubles"}, hands=[H(turns, leader="Ann")]))
    assert counts(out) == [5, 7, 7, 11, 4, 10]
    assert points(out) == [5, 0, 0, 0, 0, 10]
    assert out["scores"] == {"Ann": 5, "Ben": 10}


def test_first_double_later_double_is_not_a_spinner():
    turns = _second_double_turns()
    out = score_record(record(hands=[H(turns, leader="Ann")]))
    assert counts(out) == [5, 7, 7, 11, 4]
    # 4-4 is the second double: no ends, so 4-6 on 4-4 is refused (turn 6)
    turns = turns + [P("4-6", on="4-4")]
    expect_turn_error(record(hands=[H(turns, leader="Ann")]), 1, 6)


def test_first_double_spinner_set_later_has_one_side_covered():
    # worked example: 2-2 set on 3-2 is the spinner; 3-2 covers one side, so
    # the next tile (2-4) covers the other and the following two go on ends;
    # after all four attachment points are taken, a fifth tile cannot go on.
    turns = copy.deepcopy(WORKED_TURNS) + [P("1-2", on="2-2")]
    expect_turn_error(record(hands=[H(turns, leader="Ann")]), 1, 7)


def test_highest_count_35_with_one_spinner():
    # 1 Ann 0-0 (spinner)       : 0                   -> 0 (not positive)
    # 2 Ben 6-0 on 0-0 (side)   : 0 (0-0 open side) + 6 = 6
    # 3 Ann 5-0 on 0-0 (side)   : 0-0 covered: 6 + 5 = 11
    # 4 Ben 4-0 on 0-0 (end)    : 6 + 5 + 4 = 15      -> Ben 15
    # 5 Ann 1-0 on 0-0 (end)    : 6 + 5 + 4 + 1 = 16
    # 6 Ben 6-6 on 6-0          : 12 + 5 + 4 + 1 = 22
    # 7 Ann 5-5 on 5-0          : 12 + 10 + 4 + 1 = 27
    # 8 Ben 4-4 on 4-0          : 12 + 10 + 8 + 1 = 31
    # 9 Ann 5-1 on 1-0          : 12 + 10 + 8 + 5 = 35 -> Ann 35
    turns = [
        P("0-0"),
        P("6-0", on="0-0"),
        P("5-0", on="0-0"),
        P("4-0", on="0-0"),
        P("1-0", on="0-0"),
        P("6-6", on="6-0"),
        P("5-5", on="5-0"),
        P("4-4", on="4-0"),
        P("5-1", on="1-0"),
    ]
    out = score_record(record(hands=[H(turns, leader="Ann")]))
    assert counts(out) == [0, 6, 11, 15, 16, 22, 27, 31, 35]
    assert points(out) == [0, 0, 0, 15, 0, 0, 0, 0, 35]
    assert out["scores"] == {"Ann": 35, "Ben": 15}
    assert out["hands"][0]["end"] == "open"  # Ann played 5 of 9 tiles


# ------------------------------------------------------------ scale and target
def test_scale_5_divides_points():
    # lead 5-5 counts 10 -> 10 / 5 = 2
    out = score_record(record(rules={"scale": 5}, hands=[H([P("5-5")], leader="Ann")]))
    assert turns_of(out)[0]["count"] == 10
    assert points(out) == [2]
    assert out["scores"] == {"Ann": 2, "Ben": 0}
    assert out["target"] == 61


@pytest.mark.parametrize(
    "players,rules,teams,target",
    [
        (["Ann", "Ben"], None, None, 250),
        (["Ann", "Ben", "Cy"], None, None, 200),
        (["Ann", "Ben", "Cy", "Di"], None, None, 200),
        (["Ann", "Ben", "Cy", "Di"], None, {"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]}, 200),
        (["Ann", "Ben", "Cy", "Di", "Ed"], None, None, 200),
        (["Ann", "Ben"], {"scale": 5}, None, 61),
        (["Ann", "Ben", "Cy", "Di"], {"scale": 5}, {"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]}, 61),
        (["Ann", "Ben"], {"scale": 1}, None, 250),
        (["Ann", "Ben"], {"target": 100}, None, 100),
        (["Ann", "Ben", "Cy"], {"target": 150, "scale": 1}, None, 150),
        (["Ann", "Ben", "Cy", "Di", "Ed", "Flo"], {"hand_size": 4}, None, 200),  # 6 x 4 = 24 <= 28
    ],
)
def test_default_and_explicit_targets(players, rules, teams, target):
    out = score_record(record(players=players, rules=rules, teams=teams))
    assert out["target"] == target
    assert out["hands"] == []
    assert out["winner"] is None
    sides = list(teams) if teams else players
    assert out["sides"] == sides
    assert out["scores"] == {s: 0 for s in sides}


# ------------------------------------------------------------ hand sizes / boneyard
PLAYERS = ["Ann", "Ben", "Cy", "Di", "Ed"]
# default hand sizes 2->9, 3->7, 4->5, 5->5; boneyard = 28 - n * size
DEFAULTS = [(2, 9, 10), (3, 7, 7), (4, 5, 8), (5, 5, 3)]


@pytest.mark.parametrize("n,size,bone", DEFAULTS)
def test_default_boneyard_can_be_drawn_exactly(n, size, bone):
    ok = record(players=PLAYERS[:n], hands=[H([P("1-2"), PASS(draw=bone)], leader="Ann")])
    out = score_record(ok)
    t = turns_of(out)[1]
    assert (t["player"], t["drew"], t["pass"], t["points"]) == ("Ben", bone, True, 0)
    assert out["hands"][0]["end"] == "open"


@pytest.mark.parametrize("n,size,bone", DEFAULTS)
def test_default_boneyard_one_more_is_refused(n, size, bone):
    bad = record(players=PLAYERS[:n], hands=[H([P("1-2"), PASS(draw=bone + 1)], leader="Ann")])
    expect_turn_error(bad, 1, 2)


@pytest.mark.parametrize("n,size,bone", DEFAULTS)
def test_default_pass_refused_while_one_tile_left(n, size, bone):
    turns = [P("1-2"), PASS(draw=bone - 1)]  # every default boneyard holds >= 3
    expect_turn_error(record(players=PLAYERS[:n], hands=[H(turns, leader="Ann")]), 1, 2)


# Ann's chain of up to 9 tiles (each placed with `on`):
#   0-1 (1), 1-2 on 0-1 (0+2=2), 2-3 on 1-2 (3), 3-4 on 2-3 (4),
#   4-5 on 3-4 (0+5=5 -> Ann 5), 5-6 on 4-5 (6), 6-0 on 5-6 (0+0=0),
#   0-2 on 6-0 (0+2=2), 2-4 on 0-2 (0+4=4)
CHAIN = [
    ("0-1", None),
    ("1-2", "0-1"),
    ("2-3", "1-2"),
    ("3-4", "2-3"),
    ("4-5", "3-4"),
    ("5-6", "4-5"),
    ("6-0", "5-6"),
    ("0-2", "6-0"),
    ("2-4", "0-2"),
]


def chain_turns(n, bone, plays):
    """Ann plays `plays` chain tiles; Ben draws the whole boneyard and passes
    on his first turn; everyone else passes (never n passes in a row)."""
    turns = []
    for k in range(plays):
        tile, on = CHAIN[k]
        turns.append(P(tile, on=on))
        if k == plays - 1:
            break
        for j in range(1, n):
            turns.append(PASS(draw=bone) if (k == 0 and j == 1 and bone) else PASS())
    return turns


@pytest.mark.parametrize("n,size,bone", DEFAULTS)
def test_domino_after_exactly_hand_size_plays(n, size, bone):
    players = PLAYERS[:n]
    # one play short: the hand is still open
    short = record(players=players, hands=[H(chain_turns(n, bone, size - 1), leader="Ann")])
    out = score_record(short)
    assert out["hands"][0]["end"] == "open"
    # hand_size plays: domino; every other player holds tiles, say 10 pips each
    rem = {p: 10 for p in players[1:]}
    turns = chain_turns(n, bone, size)
    assert len(turns) == (size - 1) * n + 1
    out = score_record(record(players=players, hands=[H(turns, leader="Ann", remaining=rem)]))
    h = out["hands"][0]
    assert h["end"] == "domino"
    assert h["winner"] == "Ann"
    # Ann takes round5(10 * (n - 1)) = 10 * (n - 1); plus 5 from the 5th chain tile
    assert h["settlement"] == {"Ann": 10 * (n - 1), **{p: 0 for p in players[1:]}}
    assert out["scores"]["Ann"] == 5 + 10 * (n - 1)
    # and the hand is over: one more turn is refused
    extra = turns + [PASS()]
    expect_turn_error(record(players=players, hands=[H(extra, leader="Ann", remaining=rem)]), 1, len(turns) + 1)


def test_explicit_hand_size_overrides_default():
    # hand_size 3, two players: boneyard 28 - 6 = 22
    ok = record(rules={"hand_size": 3}, hands=[H([P("1-2"), PASS(draw=22)], leader="Ann")])
    assert turns_of(score_record(ok))[1]["drew"] == 22
    bad = record(rules={"hand_size": 3}, hands=[H([P("1-2"), PASS(draw=23)], leader="Ann")])
    expect_turn_error(bad, 1, 2)


@pytest.mark.parametrize("reserve", [0, 1, 2])
def test_boneyard_reserve(reserve):
    # two players, defaults: boneyard 10, of which 10 - reserve can be drawn
    can = 10 - reserve
    out = score_record(record(rules={"boneyard_reserve": reserve}, hands=[H([P("1-2"), PASS(draw=can)], leader="Ann")]))
    assert turns_of(out)[1]["pass"] is True
    expect_turn_error(
        record(rules={"boneyard_reserve": reserve}, hands=[H([P("1-2"), PASS(draw=can + 1)], leader="Ann")]), 1, 2
    )
    if can > 1:
        expect_turn_error(
            record(rules={"boneyard_reserve": reserve}, hands=[H([P("1-2"), PASS(draw=can - 1)], leader="Ann")]),
            1,
            2,
        )


def test_draws_share_one_boneyard():
    # boneyard 10: Ben draws 6 (2-3 on 1-2), Ann draws 4 (1-4 on 1-2); now it is
    # empty, so Ben may pass without drawing, and a draw of 1 is refused.
    base = [P("1-2"), P("2-3", on="1-2", draw=6), P("1-4", on="1-2", draw=4)]
    out = score_record(record(hands=[H(base + [PASS()], leader="Ann")]))
    assert [t.get("drew") for t in turns_of(out)] == [None, 6, 4, None]
    assert turns_of(out)[3]["pass"] is True
    expect_turn_error(record(hands=[H(base + [PASS(draw=1)], leader="Ann")]), 1, 4)


def test_tile_count_includes_draws():
    # hand_size 2. Ann: 2 - 2 plays + 1 draw = 1 tile left after turn 3, so no
    # domino there; Ben: 2 - 2 plays = 0 after turn 4 -> Ben dominoes.
    # counts: 1-2 (3); 2-3 on 1-2 (1+3=4); 1-4 on 1-2 (4+3=7); 3-0 on 2-3 (4+0=4)
    turns = [P("1-2"), P("2-3", on="1-2"), P("1-4", on="1-2", draw=1), P("3-0", on="2-3")]
    out = score_record(record(rules={"hand_size": 2}, hands=[H(turns, leader="Ann", remaining={"Ann": ["6-6"]})]))
    h = out["hands"][0]
    assert counts(out) == [3, 4, 7, 4]
    assert h["end"] == "domino" and h["winner"] == "Ben"
    # Ann holds 6-6 = 12 pips -> round5(12) = 10
    assert h["settlement"] == {"Ann": 0, "Ben": 10}
    assert turns_of(out)[2]["drew"] == 1


# ------------------------------------------------------------ blocked hands
def test_blocked_after_every_player_passes():
    # defaults: Ann leads 6-3 (9); Ben draws the 10-tile boneyard and passes;
    # Ann passes -> two passes in a row with two players: blocked.
    # Ann holds 8 tiles (20 pips), Ben 19 tiles (30 pips).
    turns = [P("6-3"), PASS(draw=10), PASS()]
    out = score_record(record(hands=[H(turns, leader="Ann", remaining={"Ann": 20, "Ben": 30})]))
    h = out["hands"][0]
    assert h["end"] == "blocked"
    # block_winner player: Ann has fewest pips; she takes round5(30) = 30
    assert h["winner"] == "Ann"
    assert h["settlement"] == {"Ann": 30, "Ben": 0}
    assert h["scores"] == {"Ann": 30, "Ben": 0}
    assert out["scores"] == {"Ann": 30, "Ben": 0}


def test_fewer_passes_than_players_do_not_block():
    # three players, hand_size 9 -> 27 dealt, boneyard 1, reserve 1: passing
    # is allowed at once. Ben and Cy pass, Ann plays again: still open.
    rules = {"hand_size": 9, "boneyard_reserve": 1}
    turns = [P("6-3"), PASS(), PASS(), P("3-1", on="6-3"), PASS(), PASS()]
    out = score_record(record(players=["Ann", "Ben", "Cy"], rules=rules, hands=[H(turns, leader="Ann")]))
    assert out["hands"][0]["end"] == "open"
    # lead 6-3 (9); 3-1 on the 3: 6 + 1 = 7
    assert counts(out) == [9, 7]


THREE_BLOCK_RULES = {"hand_size": 9, "boneyard_reserve": 1}


def three_block(rem, rules=None):
    # three players, nothing drawable; Ann leads 6-3 (count 9, no points),
    # then Ben, Cy, Ann pass -> blocked at turn 4. Ann holds 8, others 9.
    r = dict(THREE_BLOCK_RULES)
    r.update(rules or {})
    turns = [P("6-3"), PASS(), PASS(), PASS()]
    return record(players=["Ann", "Ben", "Cy"], rules=r, hands=[H(turns, leader="Ann", remaining=rem)])


def test_three_sides_clear_winner_takes_both_others():
    out = score_record(three_block({"Ann": 4, "Ben": 11, "Cy": 13}))
    h = out["hands"][0]
    assert h["end"] == "blocked" and h["winner"] == "Ann"
    # round5(11 + 13) = round5(24) = 25
    assert h["settlement"] == {"Ann": 25, "Ben": 0, "Cy": 0}


@pytest.mark.parametrize(
    "cy,share",
    [
        (17, 10),  # 17 / 2 = 8.5 -> 10
        (25, 15),  # 12.5 -> 15 (halves up, the spec's example)
        (15, 10),  # 7.5 -> 10 (halves up)
        (14, 5),  # 7 -> 5 (the spec's example)
        (16, 10),  # 8 -> 10 (the spec's example)
    ],
)
def test_three_sides_two_tied_split(cy, share):
    out = score_record(three_block({"Ann": 10, "Ben": 10, "Cy": cy}))
    h = out["hands"][0]
    assert h["end"] == "blocked"
    assert h["settlement"] == {"Ann": share, "Ben": share, "Cy": 0}
    assert out["scores"] == {"Ann": share, "Ben": share, "Cy": 0}


def test_three_sides_all_tied_nobody_scores():
    out = score_record(three_block({"Ann": 10, "Ben": 10, "Cy": 10}))
    h = out["hands"][0]
    assert h["settlement"] == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert h["winner"] is None
    assert out["scores"] == {"Ann": 0, "Ben": 0, "Cy": 0}


def test_two_sides_tie_nobody_scores():
    turns = [P("6-3"), PASS(draw=10), PASS()]
    out = score_record(record(hands=[H(turns, leader="Ann", remaining={"Ann": 20, "Ben": 20})]))
    h = out["hands"][0]
    assert h["end"] == "blocked"
    assert h["winner"] is None
    assert h["settlement"] == {"Ann": 0, "Ben": 0}


def test_four_sides_two_tied_split_the_others():
    # four players, hand_size 7: 28 dealt, no boneyard; Ann leads 6-3 (9),
    # four passes -> blocked at turn 5. Ann 6 tiles, the others 7.
    # Ann 5, Ben 5 tie; they split Cy + Di = 20 + 9 = 29: 14.5 -> 15 each.
    turns = [P("6-3")] + [PASS()] * 4
    out = score_record(
        record(
            players=PLAYERS[:4],
            rules={"hand_size": 7},
            hands=[H(turns, leader="Ann", remaining={"Ann": 5, "Ben": 5, "Cy": 20, "Di": 9})],
        )
    )
    h = out["hands"][0]
    assert h["end"] == "blocked"
    assert h["settlement"] == {"Ann": 15, "Ben": 15, "Cy": 0, "Di": 0}


TEAMS = {"North-South": ["Ann", "Cy"], "East-West": ["Ben", "Di"]}


def team_block(rem, rules):
    r = {"hand_size": 7}
    r.update(rules)
    turns = [P("6-3")] + [PASS()] * 4
    return record(players=PLAYERS[:4], teams=TEAMS, rules=r, hands=[H(turns, leader="Ann", remaining=rem)])


def test_block_winner_player_vs_side():
    rem = {"Ann": 2, "Cy": 40, "Ben": 10, "Di": 10}
    # player: Ann (2) has the fewest pips -> North-South takes round5(10 + 10) = 20
    out = score_record(team_block(rem, {"block_winner": "player"}))
    h = out["hands"][0]
    assert h["winner"] == "North-South"
    assert h["settlement"] == {"North-South": 20, "East-West": 0}
    # default is "player"
    assert score_record(team_block(rem, {}))["hands"][0]["settlement"] == {"North-South": 20, "East-West": 0}
    # side: NS 42, EW 20 -> East-West takes round5(42) = 40
    out = score_record(team_block(rem, {"block_winner": "side"}))
    h = out["hands"][0]
    assert h["winner"] == "East-West"
    assert h["settlement"] == {"North-South": 0, "East-West": 40}


def test_block_winner_side_tie_nobody_scores():
    # NS 10 + 10 = 20, EW 5 + 15 = 20: two sides tie -> nobody
    out = score_record(team_block({"Ann": 10, "Cy": 10, "Ben": 5, "Di": 15}, {"block_winner": "side"}))
    h = out["hands"][0]
    assert h["winner"] is None
    assert h["settlement"] == {"North-South": 0, "East-West": 0}


# ------------------------------------------------------------ domino settlement
def domino2(remaining, rules=None):
    """Two players, hand_size 2. Ann 1-2 (3); Ben draws 1 and plays 2-3 on
    1-2 (1+3=4); Ann 1-0 on 1-2 (0+3=3) -> Ann dominoes. Ben holds
    2 - 1 + 1 = 2 tiles (max 24 pips)."""
    r = {"hand_size": 2}
    r.update(rules or {})
    turns = [P("1-2"), P("2-3", on="1-2", draw=1), P("1-0", on="1-2")]
    return record(rules=r, hands=[H(turns, leader="Ann", remaining=remaining)])


@pytest.mark.parametrize("pips,won", [(0, 0), (2, 0), (3, 5), (7, 5), (8, 10), (12, 10), (13, 15), (24, 25)])
def test_domino_winner_takes_round5(pips, won):
    out = score_record(domino2({"Ben": pips}))
    h = out["hands"][0]
    assert counts(out) == [3, 4, 3]
    assert h["end"] == "domino"
    assert h["winner"] == "Ann"
    assert h["settlement"] == {"Ann": won, "Ben": 0}
    assert h["scores"] == {"Ann": won, "Ben": 0}


def test_remaining_as_tile_list_equals_pip_total():
    # 6-6 + 5-5 = 22 pips -> round5(22) = 20; spellings accepted in lists too
    for tiles in (["6-6", "5-5"], ["[6-6]", "5|5"]):
        out = score_record(domino2({"Ben": tiles}))
        assert out["hands"][0]["settlement"] == {"Ann": 20, "Ben": 0}
    assert score_record(domino2({"Ben": 22}))["hands"][0]["settlement"] == {"Ann": 20, "Ben": 0}


def test_remaining_lists_account_for_every_tile():
    # defaults, blocked: 6-3 on the table, Ann holds 8 tiles, Ben 9 + 10 drawn
    # = 19: together exactly the other 27 tiles of the set.
    # The whole set holds 8 x (0+1+...+6) = 168 pips; minus 6-3: 159.
    ann = ["0-0", "0-1", "0-2", "0-3", "0-4", "1-1", "1-2", "0-5"]  # 0+1+2+3+4+2+3+5 = 20
    ben = [f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in ann and (a, b) != (3, 6)]
    assert len(ben) == 19
    turns = [P("6-3"), PASS(draw=10), PASS()]
    out = score_record(record(hands=[H(turns, leader="Ann", remaining={"Ann": ann, "Ben": ben})]))
    h = out["hands"][0]
    # Ben holds 159 - 20 = 139; Ann (fewest) takes round5(139) = 140
    assert h["end"] == "blocked" and h["winner"] == "Ann"
    assert h["settlement"] == {"Ann": 140, "Ben": 0}
    # one tile fewer for Ben is the wrong count
    with pytest.raises(ScorekeeperError) as ei:
        score_record(record(hands=[H(turns, leader="Ann", remaining={"Ann": ann, "Ben": ben[:-1]})]))
    assert str(ei.value).startswith("hand 1, remaining: ")


@pytest.mark.parametrize("dominoer_entry", [[], 0])
def test_dominoing_player_may_be_listed_empty(dominoer_entry):
    out = score_record(domino2({"Ann": dominoer_entry, "Ben": 13}))
    assert out["hands"][0]["settlement"] == {"Ann": 15, "Ben": 0}


def team_domino(remaining, rules=None):
    """Four players in two partnerships, hand_size 2.
    Ann 1-2 (3); Ben 2-3 on 1-2 (1+3=4); Cy 1-4 on 1-2 (4+3=7);
    Di 3-0 on 2-3 (4+0=4); Ann 4-6 on 1-4 (6+0=6) -> Ann dominoes.
    Ben, Cy, Di hold one tile each."""
    r = {"hand_size": 2}
    r.update(rules or {})
    turns = [P("1-2"), P("2-3", on="1-2"), P("1-4", on="1-2"), P("3-0", on="2-3"), P("4-6", on="1-4")]
    return record(players=PLAYERS[:4], teams=TEAMS, rules=r, hands=[H(turns, leader="Ann", remaining=remaining)])


def test_domino_partner_pips_not_counted():
    # Ben 4-3 (7), Di 6-1 (7), Cy 6-6 (12). NS takes round5(7 + 7) = 15:
    # not round5(7) + round5(7) = 10 and not counting partner Cy's 12.
    out = score_record(team_domino({"Ben": ["4-3"], "Cy": ["6-6"], "Di": ["6-1"]}))
    h = out["hands"][0]
    assert counts(out) == [3, 4, 7, 4, 6]
    assert h["end"] == "domino"
    assert h["winner"] == "North-South"
    assert h["settlement"] == {"North-South": 15, "East-West": 0}
    assert out["scores"] == {"North-South": 15, "East-West": 0}


def test_each_subtracts_domino_two_players():
    # Ben holds 13 pips: round5(13) = 15 off Ben's side; scores go negative
    out = score_record(domino2({"Ben": 13}, {"hand_end": "each-subtracts"}))
    h = out["hands"][0]
    assert h["winner"] == "Ann"
    assert h["settlement"] == {"Ann": 0, "Ben": -15}
    assert h["scores"] == {"Ann": 0, "Ben": -15}
    assert out["scores"] == {"Ann": 0, "Ben": -15}


def test_each_subtracts_rounds_each_player():
    # NS: Ann 0, Cy round5(12) = 10 -> -10; EW: round5(7) + round5(7) = 10 -> -10
    # (round5 of the side total 14 would give 15: not what the spec says)
    out = score_record(team_domino({"Ben": ["4-3"], "Cy": ["6-6"], "Di": ["6-1"]}, {"hand_end": "each-subtracts"}))
    h = out["hands"][0]
    assert h["winner"] == "North-South"
    assert h["settlement"] == {"North-South": -10, "East-West": -10}


def test_each_subtracts_blocked():
    # Ann 13 -> 15, Ben 22 -> 20; both lose; Ann has fewer pips (reported winner)
    turns = [P("6-3"), PASS(draw=10), PASS()]
    out = score_record(
        record(rules={"hand_end": "each-subtracts"}, hands=[H(turns, leader="Ann", remaining={"Ann": 13, "Ben": 22})])
    )
    h = out["hands"][0]
    assert h["end"] == "blocked"
    assert h["winner"] == "Ann"
    assert h["settlement"] == {"Ann": -15, "Ben": -20}
    assert out["scores"] == {"Ann": -15, "Ben": -20}


def test_scale_5_settlement():
    # round5(13) = 15, / 5 = 3
    out = score_record(domino2({"Ben": 13}, {"scale": 5}))
    assert out["hands"][0]["settlement"] == {"Ann": 3, "Ben": 0}
    # each-subtracts: round5(7) = 5, / 5 = 1
    out = score_record(domino2({"Ben": 7}, {"scale": 5, "hand_end": "each-subtracts"}))
    assert out["hands"][0]["settlement"] == {"Ann": 0, "Ben": -1}


# ------------------------------------------------------------ several hands
def two_hands(hand2_leader=None):
    """Hand 1 (hand_size 2): Ben dominoes (see test_tile_count_includes_draws),
    Ann holds 6-6 -> Ben +10. Hand 2: Ben leads 3-2 (count 5 -> Ben 5); the
    same tiles as hand 1 are fine in a new hand."""
    h1 = H(
        [P("1-2"), P("2-3", on="1-2"), P("1-4", on="1-2", draw=1), P("3-0", on="2-3")],
        leader="Ann",
        remaining={"Ann": ["6-6"], "Ben": []},
    )
    h2 = H([P("3-2"), P("2-1", on="3-2")], leader=hand2_leader)
    # hand 2: 3-2 (5 -> Ben 5); Ann 2-1 on the 2: 3 + 1 = 4
    return record(rules={"hand_size": 2}, hands=[h1, h2])


@pytest.mark.parametrize("leader", [None, "Ben"])
def test_leader_defaults_to_dominoing_player(leader):
    out = score_record(two_hands(leader))
    h1, h2 = out["hands"]
    assert h1["number"] == 1 and h2["number"] == 2
    assert [t["player"] for t in h2["turns"]] == ["Ben", "Ann"]
    assert h1["scores"] == {"Ann": 0, "Ben": 10}
    assert h2["scores"] == {"Ann": 0, "Ben": 15}
    assert h2["end"] == "open"
    assert out["scores"] == {"Ann": 0, "Ben": 15}
    assert out["winner"] is None


def test_leader_after_block_is_given():
    turns = [P("6-3"), PASS(draw=10), PASS()]
    h1 = H(turns, leader="Ann", remaining={"Ann": 20, "Ben": 30})
    h2 = H([P("5-5")], leader="Ben")
    out = score_record(record(hands=[h1, h2]))
    # hand 1: Ann +30; hand 2: Ben leads 5-5 -> 10
    assert out["hands"][1]["turns"][0]["player"] == "Ben"
    assert out["hands"][0]["scores"] == {"Ann": 30, "Ben": 0}
    assert out["hands"][1]["scores"] == {"Ann": 30, "Ben": 10}
    assert out["scores"] == {"Ann": 30, "Ben": 10}


def test_turn_order_follows_seating_from_leader():
    # five players, leader Cy: Cy, Di, Ed, Ann, Ben, Cy
    players = PLAYERS
    # default hand 5, boneyard 3: Di draws all 3 and passes, others pass
    turns = [P("6-3"), PASS(draw=3), PASS(), PASS(), PASS(), P("3-1", on="6-3")]
    out = score_record(record(players=players, hands=[H(turns, leader="Cy")]))
    assert [t["player"] for t in turns_of(out)] == ["Cy", "Di", "Ed", "Ann", "Ben", "Cy"]
    assert out["hands"][0]["end"] == "open"  # 4 passes in a row < 5 players


def test_player_key_naming_the_right_player_is_accepted():
    turns = [P("3-2", player="Ann"), P("2-2", on="3-2", player="Ben"), PASS(player="Ann", draw=10)]
    out = score_record(record(hands=[H(turns, leader="Ann")]))
    assert [t["player"] for t in turns_of(out)] == ["Ann", "Ben", "Ann"]
    assert points(out) == [5, 0, 0]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_two_to_five_players(n):
    players = PLAYERS[:n]
    out = score_record(record(players=players, hands=[H([P("5-0")], leader=players[-1])]))
    # lead 5-0 counts 5 -> the leader's side scores 5
    assert out["sides"] == players
    assert out["scores"] == {p: (5 if p == players[-1] else 0) for p in players}


# ------------------------------------------------------------ partnerships
def test_partnership_points_go_to_the_team():
    # worked example for four players (NS: Ann, Cy; EW: Ben, Di), plus Cy:
    # 1 Ann 3-2 (5) NS+5; 2 Ben 2-2 (7); 3 Cy 2-4 (7); 4 Di 2-0 (7);
    # 5 Ann 3-6 (10) NS+10; 6 Ben 2-5 (15) EW+15;
    # 7 Cy 0-5 on 2-0: tips 6, 4, 5, 5 = 20 -> NS+20
    turns = copy.deepcopy(WORKED_TURNS) + [P("0-5", on="2-0")]
    out = score_record(record(players=PLAYERS[:4], teams=TEAMS, hands=[H(turns, leader="Ann")]))
    assert out["sides"] == ["North-South", "East-West"]
    assert out["target"] == 200
    assert counts(out) == [5, 7, 7, 7, 10, 15, 20]
    assert points(out) == [5, 0, 0, 0, 10, 15, 20]
    assert [t["player"] for t in turns_of(out)] == ["Ann", "Ben", "Cy", "Di", "Ann", "Ben", "Cy"]
    assert out["scores"] == {"North-South": 35, "East-West": 15}


# ------------------------------------------------------------ winning the match
def test_target_reached_mid_hand_wins_at_once():
    # target 10: lead 5-5 counts 10 -> Ann reaches it on turn 1
    out = score_record(record(rules={"target": 10}, hands=[H([P("5-5")], leader="Ann")]))
    assert out["winner"] == "Ann"
    assert out["scores"] == {"Ann": 10, "Ben": 0}
    assert out["hands"][0]["end"] == "open"
    assert out["hands"][0]["winner"] is None


def test_winning_play_that_is_also_the_last_tile():
    # hand_size 1: Ann's lead 5-5 is her last tile and reaches target 10.
    # rules-decisions: end "domino", and no `remaining` is accepted/needed.
    out = score_record(record(rules={"target": 10, "hand_size": 1}, hands=[H([P("5-5")], leader="Ann")]))
    assert out["winner"] == "Ann"
    assert out["hands"][0]["end"] == "domino"
    assert out["scores"]["Ann"] == 10


def test_target_reached_at_settlement():
    # target 10: Ben holds 12 -> round5(12) = 10 -> Ann wins at the settlement
    out = score_record(domino2({"Ben": 12}, {"target": 10}))
    assert out["hands"][0]["settlement"] == {"Ann": 10, "Ben": 0}
    assert out["winner"] == "Ann"


def exact_turns():
    # 1 Ann 5-5 (spinner)       : 10                     -> Ann 10
    # 2 Ben 5-0 on 5-5 (side)   : 10 (5-5 one side open) + 0 = 10 -> Ben 10
    # 3 Ann 0-0 on 5-0          : 10 + 0 (0-0 open side) = 10 -> Ann 20 > 15
    # 4 Ben 0-1 on 0-0          : 10 + 1 = 11            -> 0
    # 5 Ann 5-4 on 5-5 (side)   : 5-5 covered: 1 + 4 = 5 -> Ann 15
    return [P("5-5"), P("5-0", on="5-5"), P("0-0", on="5-0", claim=10), P("0-1", on="0-0"), P("5-4", on="5-5")]


def test_exact_target_voids_overshoot_and_play_goes_on():
    out = score_record(record(rules={"target": 15, "exact_target": True}, hands=[H(exact_turns(), leader="Ann")]))
    ts = turns_of(out)
    assert counts(out) == [10, 10, 10, 11, 5]
    assert points(out) == [10, 10, 0, 0, 5]
    assert ts[2]["voided"] is True
    assert not ts[0].get("voided", False) and not ts[4].get("voided", False)
    # claim_ok is judged before the void: the count was worth 10
    assert ts[2]["claim_ok"] is True
    assert out["scores"] == {"Ann": 15, "Ben": 10}
    assert out["winner"] == "Ann"


def test_without_exact_target_overshoot_wins_and_later_turns_are_refused():
    # same record: Ann reaches 20 >= 15 on turn 3, so turn 4 is refused
    expect_turn_error(record(rules={"target": 15}, hands=[H(exact_turns(), leader="Ann")]), 1, 4)
    out = score_record(record(rules={"target": 15}, hands=[H(exact_turns()[:3], leader="Ann")]))
    assert out["winner"] == "Ann"
    assert out["scores"] == {"Ann": 20, "Ben": 10}


def test_exact_target_settlement_overshoot_is_voided():
    # target 10; Ben holds 14 -> round5(14) = 15 would take Ann past 10
    out = score_record(domino2({"Ben": 14}, {"target": 10, "exact_target": True}))
    h = out["hands"][0]
    assert h["settlement"] == {"Ann": 0, "Ben": 0}
    assert h["voided"] == ["Ann"]
    assert out["scores"] == {"Ann": 0, "Ben": 0}
    assert out["winner"] is None
    # Ben holds 8 -> round5(8) = 10 hits the target exactly
    out = score_record(domino2({"Ben": 8}, {"target": 10, "exact_target": True}))
    assert out["hands"][0]["settlement"] == {"Ann": 10, "Ben": 0}
    assert out["winner"] == "Ann"


# ------------------------------------------------------------ claims
def claims_record(mode, turns, rules=None, players=("Ann", "Ben"), teams=None):
    r = {"claims": mode}
    r.update(rules or {})
    return record(players=players, teams=teams, rules=r, hands=[H(turns, leader="Ann")])


def test_claims_check_mode():
    # lead 5-5 = 10; 5-1 on 5-5: 10 + 1 = 11 (0 points); 5-0 on 5-5 (second
    # side): 1 + 0 = 1 (0 points)
    turns = [P("5-5", claim=10), P("5-1", on="5-5", claim=0), P("5-0", on="5-5", claim=5)]
    out = score_record(claims_record("check", turns))
    ts = turns_of(out)
    assert [t["claim_ok"] for t in ts] == [True, True, False]
    assert points(out) == [10, 0, 0]  # actual points are scored
    assert out["scores"] == {"Ann": 10, "Ben": 0}


def test_claims_check_wrong_claim_still_scores_actual():
    out = score_record(claims_record("check", [P("5-5", claim=5)]))
    t = turns_of(out)[0]
    assert t["claim_ok"] is False and t["points"] == 10
    out = score_record(claims_record("check", [P("5-5")]))
    assert "claim_ok" not in turns_of(out)[0]
    assert points(out) == [10]


def test_claims_are_in_the_match_scale():
    # scale 5: lead 5-5 is worth 10 / 5 = 2
    out = score_record(claims_record("check", [P("5-5", claim=2)], rules={"scale": 5}))
    assert turns_of(out)[0]["claim_ok"] is True and points(out) == [2]
    out = score_record(claims_record("check", [P("5-5", claim=10)], rules={"scale": 5}))
    assert turns_of(out)[0]["claim_ok"] is False and points(out) == [2]


@pytest.mark.parametrize(
    "extra,ann,ben",
    [
        ({"claim": 10}, 10, 0),  # exact claim
        ({"claim": 5}, 5, 0),  # under-claim, nobody called: lost
        ({"claim": 5, "muggins": "Ben"}, 5, 5),  # Ben takes the missed 10 - 5
        ({"claim": 15}, 0, 0),  # over-claim scores nothing
        ({}, 0, 0),  # no claim = claim 0
        ({"muggins": "Ben"}, 0, 10),  # no claim, Ben calls: 10 missed
        ({"claim": 10, "muggins": "Ben"}, 10, 0),  # call when nothing missed
    ],
)
def test_muggins_mode(extra, ann, ben):
    out = score_record(claims_record("muggins", [P("5-5", **extra)]))
    assert out["scores"] == {"Ann": ann, "Ben": ben}
    t = turns_of(out)[0]
    assert t["points"] == ann
    if ben:
        assert t["muggins"] == {"player": "Ben", "side": "Ben", "points": ben}


def test_muggins_caller_side_in_partnership():
    # Ann leads 5-5 (10) and claims 5; Di (East-West) calls muggins -> EW 5
    out = score_record(claims_record("muggins", [P("5-5", claim=5, muggins="Di")], players=PLAYERS[:4], teams=TEAMS))
    assert out["scores"] == {"North-South": 5, "East-West": 5}
    assert turns_of(out)[0]["muggins"] == {"player": "Di", "side": "East-West", "points": 5}


def test_muggins_points_not_scored_when_player_wins():
    # target 5: Ann's claim 5 wins first; Ben's muggins points are not scored
    out = score_record(claims_record("muggins", [P("5-5", claim=5, muggins="Ben")], rules={"target": 5}))
    assert out["winner"] == "Ann"
    assert out["scores"] == {"Ann": 5, "Ben": 0}


# ------------------------------------------------------------ envelope
def test_metadata_is_accepted():
    rec = worked_record()
    rec.update({"id": "m-1", "title": "Friday", "started": "2024-05-01T19:00:00", "notes": "kitchen table"})
    out = score_record(rec)
    assert points(out) == [5, 0, 0, 0, 10, 15]


def test_empty_rules_object_means_defaults():
    rec = worked_record()
    rec["rules"] = {}
    out = score_record(rec)
    assert out["target"] == 250
    assert points(out) == [5, 0, 0, 0, 10, 15]


def test_explicit_default_rules_give_the_same_result():
    rec = worked_record()
    rec["rules"] = {
        "set": 6,
        "spinner": "first-double",
        "hand_size": 9,
        "hand_end": "winner-takes",
        "block_winner": "player",
        "scale": 1,
        "target": 250,
        "exact_target": False,
        "boneyard_reserve": 0,
        "claims": "check",
    }
    assert score_record(rec) == score_record(worked_record())


def test_record_is_not_modified():
    rec = worked_record()
    before = copy.deepcopy(rec)
    score_record(rec)
    assert rec == before


def test_muggins_points_over_an_exact_target_are_voided_and_marked():
    # target 5, exact: Ann leads 5-5 (count 10) claiming 0; Ben calls muggins for
    # the 10 missed points, but 0 + 10 would pass 5: voided, and the turn says so.
    rec = record(
        rules={"claims": "muggins", "target": 5, "exact_target": True},
        hands=[H([P("5-5", claim=0, muggins="Ben")], leader="Ann")],
    )
    t = score_record(rec)["hands"][0]["turns"][0]
    assert t["points"] == 0
    assert t["muggins"] == {"player": "Ben", "side": "Ben", "points": 0, "voided": True}


@pytest.mark.parametrize(
    "block_winner, pips, winner, settlement",
    [
        # Ann (NS) and Ben (EW) tie for the fewest pips: a tie of the two sides, nobody scores
        ("player", {"Ann": 10, "Ben": 10, "Cy": 30, "Di": 40}, None, {"NS": 0, "EW": 0}),
        # partners Ann and Cy tie for the fewest: NS wins round5(20 + 30) = 50
        ("player", {"Ann": 10, "Ben": 20, "Cy": 10, "Di": 30}, "NS", {"NS": 50, "EW": 0}),
        # by side totals: NS 10+30 = 40 < EW 10+40 = 50: NS scores round5(50) = 50
        ("side", {"Ann": 10, "Ben": 10, "Cy": 30, "Di": 40}, "NS", {"NS": 50, "EW": 0}),
    ],
)
def test_blocked_ties_between_players_of_sides(block_winner, pips, winner, settlement):
    # 4 x 7 tiles: no boneyard, so passes are legal at once; lead + 4 passes blocks
    rec = record(
        players=("Ann", "Ben", "Cy", "Di"),
        teams={"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]},
        rules={"hand_size": 7, "block_winner": block_winner},
        hands=[H([P("6-6"), PASS(), PASS(), PASS(), PASS()], leader="Ann", remaining=pips)],
    )
    hand = score_record(rec)["hands"][0]
    assert hand["end"] == "blocked"
    assert hand["winner"] == winner
    assert hand["settlement"] == settlement
