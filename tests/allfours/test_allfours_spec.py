"""Black-box specification tests: All Fours.

Every expected number here is derived by hand from docs/rules/all-fours.md,
docs/record-format.md (the envelope) and docs/all-fours-engine.md (the
engine's contract, which fixes what the spec leaves open); the arithmetic is
in the comments.  The engine is seen only through ``score_record(record)``
(the object ``scorekeeper score`` prints), ``load(record)`` and the command
line.  Nothing here is derived from the implementation.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli

from scorekeeper.allfours import VARIANTS, load, score_record
from scorekeeper.errors import ScorekeeperError

# ------------------------------------------------------------ the spec's table
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}

# turn-up values (to the dealer's side); pitched variants have none
TURN_UP = {
    "trinidad": {"A": 1, "6": 2, "J": 3},
    "tobago": {"A": 1, "2": 2, "J": 3},
    "english-1674": {"J": 1},
    "running": {"A": 4, "K": 3, "Q": 2, "J": 1},
    "north-american": {"J": 1},
    "seven-up": {"J": 1},
}
PITCHED = ["west-yorkshire", "lancashire", "pitch"]
ALL_VARIANTS = [
    "trinidad",
    "tobago",
    "west-yorkshire",
    "lancashire",
    "english-1674",
    "running",
    "north-american",
    "seven-up",
    "pitch",
]
ALL_TURNED_COUNT = {"trinidad", "tobago"}  # the others with a turn-up: final only
HANG_JACK_3 = {"trinidad", "tobago"}
TARGET_TWO_PLAYERS = {
    "trinidad": 14,
    "tobago": 14,
    "west-yorkshire": 9,
    "lancashire": 11,
    "english-1674": 11,
    "running": 31,
    "north-american": 10,
    "seven-up": 7,
    "pitch": 7,
}

TWO = ("Ann", "Ben")
THREE = ("Ann", "Ben", "Cy")
FOUR = ("Ann", "Ben", "Cy", "Di")
TEAMS2 = {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}
SIX = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo")
TEAMS3 = {"North": ["Ann", "Di"], "East": ["Ben", "Ed"], "West": ["Cy", "Flo"]}


# ------------------------------------------------------------------ helpers
def rec(hands, players=TWO, teams=None, **rules):
    r = {"format": "scorekeeper/1", "game": "all-fours", "players": list(players), "hands": hands}
    if teams:
        r["teams"] = teams
    if rules:
        r["rules"] = rules
    return r


def items(out, hand=0):
    """(side, points, for) of a hand's credited items, in order."""
    return [(i["side"], i["points"], i["for"]) for i in out["hands"][hand]["points"]]


def award(side, points, reason="house"):
    return {"type": "award", "side": side, "points": points, "reason": reason}


def neutral(dealer, variant="trinidad", sides=TWO, awards=()):
    """A complete hand that credits nothing but the given awards.

    No high, low or jack in play; Game is tied so nobody scores it (in
    seven-up with three sides: the dealer's side 0, the two non-dealers tie ->
    nobody).  The turned card, a 5, counts in no variant.
    """
    h = {"dealer": dealer}
    if variant in TURN_UP:
        h["turn_up"] = ["5"]
        h["beg"] = "stand"
    h["penalties"] = [award(s, p, "setup") for s, p in awards]
    h.update(high=None, low=None, jack=None)
    if variant == "seven-up":
        assert len(sides) == 3 and dealer in sides
        h["game"] = {s: (0 if s == dealer else 30) for s in sides}
    else:
        h["game"] = {s: 20 for s in sides}
    return h


def raises(record, hand=None):
    """The record is refused with a ScorekeeperError naming ``hand N``."""
    with pytest.raises(ScorekeeperError) as ei:
        score_record(record)
    e = ei.value
    assert isinstance(e, ValueError)
    msg = str(e)
    assert "\n" not in msg and len(msg) > 5, msg
    if hand is not None:
        assert re.search(rf"\bhand {hand}\b", msg), msg
    return e


# =============================================================== 1. variants
def test_variants_are_the_spec_table():
    assert set(VARIANTS) == set(ALL_VARIANTS)


def test_default_variant_is_trinidad():
    out = score_record(rec([{"dealer": "Ann", "turn_up": ["6"]}]))
    assert out["game"] == "all-fours"
    assert out["target"] == 14
    assert out["rules"]["variant"] == "trinidad"
    assert items(out) == [("Ann", 2, "turn-up")]


@pytest.mark.parametrize("variant", sorted(TURN_UP))
def test_turn_up_values(variant):
    # each rank turned alone, dealer Ben: only counting ranks give an item,
    # worth the table's value, to the dealer's side
    got, scores = {}, {}
    for rank in RANKS:
        out = score_record(rec([{"dealer": "Ben", "turn_up": [rank]}], variant=variant))
        pts = out["hands"][0]["points"]
        got[rank] = [(i["side"], i["points"], i["for"], i.get("card")) for i in pts]
        scores[rank] = out["scores"]
    want = {r: ([("Ben", TURN_UP[variant][r], "turn-up", r)] if r in TURN_UP[variant] else []) for r in RANKS}
    assert got == want
    assert scores == {r: {"Ann": 0, "Ben": TURN_UP[variant].get(r, 0)} for r in RANKS}


def test_turned_five_in_trinidad_gives_nothing():
    out = score_record(rec([{"dealer": "Ann", "turn_up": ["5"], "beg": "stand"}]))
    assert out["hands"][0]["points"] == []
    assert out["scores"] == {"Ann": 0, "Ben": 0}


def test_turn_up_goes_to_the_dealers_team():
    # Di deals for Them; a turned jack in Trinidad: 3 to Them
    out = score_record(rec([{"dealer": "Di", "turn_up": ["J"]}], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Them", 3, "turn-up")]
    assert out["scores"] == {"Us": 0, "Them": 3}


@pytest.mark.parametrize("variant", PITCHED)
def test_pitched_variants_have_no_turn_up(variant):
    h = {"dealer": "Ann", "turn_up": [], "high": "Ben", "low": "Ann", "jack": None, "game": {"Ann": 40, "Ben": 40}}
    out = score_record(rec([h], variant=variant))
    assert items(out) == [("Ben", 1, "high"), ("Ann", 1, "low")]
    h2 = {k: v for k, v in h.items() if k != "turn_up"}
    assert items(score_record(rec([h2], variant=variant))) == items(out)


@pytest.mark.parametrize("variant", PITCHED)
def test_pitched_variants_refuse_turned_cards(variant):
    # contract: turn_up must be empty or absent in the pitched variants
    raises(rec([neutral("Ann", variant), {"dealer": "Ben", "turn_up": ["J"]}], variant=variant), hand=2)


@pytest.mark.parametrize(
    "variant, turned, want",
    [
        ("trinidad", ["6", "J"], [("6", 2), ("J", 3)]),  # all count
        ("trinidad", ["J", "5", "A"], [("J", 3), ("A", 1)]),
        ("tobago", ["2", "A", "J"], [("2", 2), ("A", 1), ("J", 3)]),
        ("english-1674", ["J", "5"], []),  # final only: the 5
        ("english-1674", ["5", "J"], [("J", 1)]),
        ("running", ["A", "K"], [("K", 3)]),
        ("north-american", ["A", "J"], [("J", 1)]),
        ("seven-up", ["J", "2"], []),
    ],
)
def test_running_the_pack_all_or_final_only(variant, turned, want):
    out = score_record(rec([{"dealer": "Ann", "turn_up": turned, "beg": "run"}], variant=variant))
    pts = out["hands"][0]["points"]
    assert [(i["side"], i["for"]) for i in pts] == [("Ann", "turn-up")] * len(want)
    assert [(i["card"], i["points"]) for i in pts] == want
    assert out["scores"] == {"Ann": sum(p for _, p in want), "Ben": 0}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_jack_won_by_opponents(variant):
    out = score_record(rec([{"dealer": "Ann", "jack": {"held": "Ann", "won": "Ben"}}], variant=variant))
    pts = out["hands"][0]["points"]
    assert len(pts) == 1
    if variant in HANG_JACK_3:
        assert items(out) == [("Ben", 3, "hang-jack")]
    else:
        assert (pts[0]["side"], pts[0]["points"]) == ("Ben", 1)
        assert pts[0]["for"] in ("jack", "hang-jack")
    assert out["scores"] == {"Ann": 0, "Ben": 3 if variant in HANG_JACK_3 else 1}


@pytest.mark.parametrize("variant", ["trinidad", "west-yorkshire"])
def test_jack_won_by_the_holders_side(variant):
    out = score_record(rec([{"dealer": "Ben", "jack": {"held": "Ann", "won": "Ann"}}], variant=variant))
    assert items(out) == [("Ann", 1, "jack")]


def test_jack_won_by_partner_or_opponent_in_teams():
    # Cy is Ann's partner: the holder's side keeps it, 1
    out = score_record(rec([{"dealer": "Ben", "jack": {"held": "Ann", "won": "Cy"}}], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Us", 1, "jack")]
    # Di (Them) wins Ann's jack: hang jack, 3 to Them
    out = score_record(rec([{"dealer": "Ben", "jack": {"held": "Ann", "won": "Di"}}], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Them", 3, "hang-jack")]


def test_hang_jack_three_sides():
    out = score_record(rec([{"dealer": "Ann", "jack": {"held": "Ben", "won": "Cy"}}], players=THREE))
    assert items(out) == [("Cy", 3, "hang-jack")]
    assert out["scores"] == {"Ann": 0, "Ben": 0, "Cy": 3}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_game_tie_rule(variant):
    out = score_record(rec([{"dealer": "Ann", "game": {"Ann": 40, "Ben": 40}}], variant=variant))
    assert out["hands"][0]["card_points"] == {"Ann": 40, "Ben": 40}
    # seven-up: the non-dealer's side; every other variant: nobody
    assert items(out) == ([("Ben", 1, "game")] if variant == "seven-up" else [])


def test_game_to_most_card_points():
    out = score_record(rec([{"dealer": "Ann", "game": {"Ann": 23, "Ben": 30}}], variant="seven-up"))
    assert items(out) == [("Ben", 1, "game")]
    assert out["hands"][0]["card_points"] == {"Ann": 23, "Ben": 30}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_default_target_two_players(variant):
    target = TARGET_TWO_PLAYERS[variant]
    # Ben deals; an award of target-1 to Ann does not win ...
    h = {"dealer": "Ben", "penalties": [award("Ann", target - 1)]}
    out = score_record(rec([h], variant=variant))
    assert out["target"] == target
    assert out["rules"] == {"variant": variant, "target": target}
    assert out["scores"] == {"Ann": target - 1, "Ben": 0}
    assert out["winner"] is None
    # ... High then reaches the target exactly: Ann wins
    out = score_record(rec([dict(h, high="Ann")], variant=variant))
    assert out["scores"] == {"Ann": target, "Ben": 0}
    assert out["winner"] == "Ann"


@pytest.mark.parametrize(
    "players, teams, target",
    [(TWO, None, 9), (THREE, None, 11), (FOUR, TEAMS2, 11), (SIX, TEAMS3, 11)],
)
def test_west_yorkshire_target_by_players(players, teams, target):
    out = score_record(rec([], players=players, teams=teams, variant="west-yorkshire"))
    assert out["target"] == target
    assert out["winner"] is None


@pytest.mark.parametrize(
    "variant, target",
    [("trinidad", 20), ("west-yorkshire", 15), ("seven-up", 5), ("english-1674", 7)],
)
def test_rules_target_overrides_the_variant(variant, target):
    h = {"dealer": "Ben", "penalties": [award("Ann", target - 1)]}
    out = score_record(rec([h], variant=variant, target=target))
    assert out["target"] == target
    assert out["rules"] == {"variant": variant, "target": target}
    assert out["winner"] is None
    out = score_record(rec([dict(h, high="Ann")], variant=variant, target=target))
    assert out["scores"]["Ann"] == target
    assert out["winner"] == "Ann"


# ========================================================= 2. counting order
def test_counting_order_of_points_items():
    h = {
        "dealer": "Ann",
        "turn_up": ["J"],
        "beg": "give",
        "high": "Ben",
        "low": "Ann",
        "jack": {"held": "Ann", "won": "Ben"},
        "game": {"Ann": 30, "Ben": 40},
        "penalties": [
            {"type": "revoke", "by": "Ann"},
            award("Ann", 2, "late"),
            {"type": "peek", "by": "Ben"},
        ],
    }
    out = score_record(rec([h]))
    # turn-up J 3 Ann; gift 1 Ben; revoke (by Ann) 1 Ben; award 2 Ann;
    # peek (by Ben) 4 Ann; high Ben; low Ann; hang jack 3 Ben; game Ben (40 > 30)
    assert items(out) == [
        ("Ann", 3, "turn-up"),
        ("Ben", 1, "gift"),
        ("Ben", 1, "revoke"),
        ("Ann", 2, "award"),
        ("Ann", 4, "peek"),
        ("Ben", 1, "high"),
        ("Ann", 1, "low"),
        ("Ben", 3, "hang-jack"),
        ("Ben", 1, "game"),
    ]
    pts = out["hands"][0]["points"]
    assert pts[0]["card"] == "J"
    assert pts[2]["by"] == "Ann"
    assert pts[3]["reason"] == "late"
    assert pts[4]["by"] == "Ben"
    # Ann 3 + 2 + 4 + 1 = 10; Ben 1 + 1 + 1 + 3 + 1 = 7
    assert out["hands"][0]["scores"] == {"Ann": 10, "Ben": 7}
    assert out["scores"] == {"Ann": 10, "Ben": 7}
    assert out["hands"][0]["number"] == 1
    assert out["hands"][0]["dealer"] == "Ann"
    assert out["winner"] is None
    assert "all_four" not in out["hands"][0]


def _at_13_13(hand2):
    # hand 1 (Ben deals): awards bring both to 13 (target 14); Game tied
    return rec([neutral("Ben", awards=[("Ann", 13), ("Ben", 13)]), hand2])


FULL = {
    "turn_up": ["5"],
    "beg": "stand",
    "high": "Ben",
    "low": "Ben",
    "jack": {"held": "Ben", "won": "Ben"},
    "game": {"Ann": 10, "Ben": 70},
}


@pytest.mark.parametrize(
    "facts, want, winner",
    [
        # the dealer's turned ace counts before Ben's High
        (dict(FULL, turn_up=["A"]), [("Ann", 1, "turn-up")], "Ann"),
        # the turn-up (J 3) counts before the gift to Ben
        (dict(FULL, turn_up=["J"], beg="give"), [("Ann", 3, "turn-up")], "Ann"),
        # the gift counts before a penalty and before Ann's High
        (dict(FULL, beg="give", penalties=[award("Ann", 1)], high="Ann"), [("Ben", 1, "gift")], "Ben"),
        # a penalty counts before High
        (dict(FULL, penalties=[{"type": "revoke", "by": "Ann"}], high="Ann", low="Ann"), [("Ben", 1, "revoke")], "Ben"),
        # penalties in their order
        (dict(FULL, penalties=[award("Ben", 1, "first"), award("Ann", 1, "second")]), [("Ben", 1, "award")], "Ben"),
        (dict(FULL, penalties=[award("Ann", 1, "first"), award("Ben", 1, "second")]), [("Ann", 1, "award")], "Ann"),
        # High before Low
        (dict(FULL, high="Ben", low="Ann"), [("Ben", 1, "high")], "Ben"),
        # Low before Jack
        (dict(FULL, high=None, low="Ann", jack={"held": "Ben", "won": "Ben"}), [("Ann", 1, "low")], "Ann"),
        # Jack (hanged: 3) before Game
        (
            dict(FULL, high=None, low=None, jack={"held": "Ann", "won": "Ben"}, game={"Ann": 60, "Ben": 20}),
            [("Ben", 3, "hang-jack")],
            "Ben",
        ),
        # Game last
        (dict(FULL, high=None, low=None, jack=None, game={"Ann": 50, "Ben": 30}), [("Ann", 1, "game")], "Ann"),
    ],
)
def test_13_13_finish_decided_by_counting_order(facts, want, winner):
    out = score_record(_at_13_13(dict(facts, dealer="Ann")))
    assert out["hands"][0]["scores"] == {"Ann": 13, "Ben": 13}
    assert items(out, 1) == want  # nothing after the winning item is listed
    loser = "Ben" if winner == "Ann" else "Ann"
    final = {winner: 13 + want[0][1], loser: 13}
    assert out["hands"][1]["scores"] == final
    assert out["scores"] == final
    assert out["winner"] == winner


def test_13_13_misdeal_wins_for_the_other_side():
    out = score_record(_at_13_13({"dealer": "Ann", "penalties": [{"type": "misdeal"}]}))
    assert items(out, 1) == [("Ben", 1, "misdeal")]
    assert out["winner"] == "Ben"
    assert out["scores"] == {"Ann": 13, "Ben": 14}


def test_13_13_reached_by_play_then_turn_up_wins():
    hands = [
        # 1: Ann deals J (3); Ann high, low, jack, game (50 > 30): 7, all four
        {
            "dealer": "Ann",
            "turn_up": ["J"],
            "beg": "stand",
            "high": "Ann",
            "low": "Ann",
            "jack": {"held": "Ann", "won": "Ann"},
            "game": {"Ann": 50, "Ben": 30},
        },
        # 2: the mirror for Ben: 7-7
        {
            "dealer": "Ben",
            "turn_up": ["J"],
            "beg": "stand",
            "high": "Ben",
            "low": "Ben",
            "jack": {"held": "Ben", "won": "Ben"},
            "game": {"Ann": 30, "Ben": 50},
        },
        # 3: Ann deals 6 (2), high Ann, low Ben, Ann hangs Ben's jack (3), Game tied:
        #    Ann 7 + 2 + 1 + 3 = 13, Ben 7 + 1 = 8
        {
            "dealer": "Ann",
            "turn_up": ["6"],
            "beg": "stand",
            "high": "Ann",
            "low": "Ben",
            "jack": {"held": "Ben", "won": "Ann"},
            "game": {"Ann": 40, "Ben": 40},
        },
        # 4: Ben deals 6 (2), high, low, game: Ben 8 + 2 + 1 + 1 + 1 = 13
        {
            "dealer": "Ben",
            "turn_up": ["6"],
            "beg": "stand",
            "high": "Ben",
            "low": "Ben",
            "jack": None,
            "game": {"Ann": 20, "Ben": 60},
        },
        # 5: Ann turns an ace: 14 before Ben's High
        {
            "dealer": "Ann",
            "turn_up": ["A"],
            "beg": "stand",
            "high": "Ben",
            "low": "Ben",
            "jack": {"held": "Ben", "won": "Ben"},
            "game": {"Ann": 0, "Ben": 80},
        },
    ]
    out = score_record(rec(hands))
    assert [h["scores"] for h in out["hands"]] == [
        {"Ann": 7, "Ben": 0},
        {"Ann": 7, "Ben": 7},
        {"Ann": 13, "Ben": 8},
        {"Ann": 13, "Ben": 13},
        {"Ann": 14, "Ben": 13},
    ]
    assert [h["number"] for h in out["hands"]] == [1, 2, 3, 4, 5]
    assert [h.get("all_four") for h in out["hands"]] == ["Ann", "Ben", None, None, None]
    assert items(out, 4) == [("Ann", 1, "turn-up")]
    assert out["winner"] == "Ann"


@pytest.mark.parametrize(
    "after",
    [neutral("Ben"), {"dealer": "Ben", "penalties": [{"type": "misdeal"}]}, {"dealer": "Ben"}],
    ids=["complete", "misdeal", "partial"],
)
def test_entries_after_the_match_is_won_are_refused(after):
    record = _at_13_13(dict(FULL, dealer="Ann", turn_up=["A"]))
    assert score_record(record)["winner"] == "Ann"
    record["hands"].append(after)
    raises(record, hand=3)


# ============================================================== 3. penalties
def test_misdeal_two_sides():
    hands = [
        {"dealer": "Ann", "penalties": [{"type": "misdeal"}]},
        {"dealer": "Ann", "turn_up": ["5"], "beg": "stand", "high": "Ann"},
    ]
    out = score_record(rec(hands))
    assert items(out, 0) == [("Ben", 1, "misdeal")]
    assert out["hands"][0]["void"] is True
    assert not out["hands"][1].get("void")
    assert items(out, 1) == [("Ann", 1, "high")]
    assert out["hands"][0]["scores"] == {"Ann": 0, "Ben": 1}
    assert out["scores"] == {"Ann": 1, "Ben": 1}


def test_misdeal_three_sides():
    out = score_record(rec([{"dealer": "Ben", "penalties": [{"type": "misdeal"}]}], players=THREE))
    assert sorted(items(out)) == [("Ann", 1, "misdeal"), ("Cy", 1, "misdeal")]
    assert out["scores"] == {"Ann": 1, "Ben": 0, "Cy": 1}
    assert out["hands"][0]["void"] is True


def test_misdeal_teams():
    out = score_record(rec([{"dealer": "Cy", "penalties": [{"type": "misdeal"}]}], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Them", 1, "misdeal")]


def test_misdeal_with_another_penalty():
    h = {"dealer": "Ann", "penalties": [{"type": "misdeal"}, award("Ann", 2)]}
    out = score_record(rec([h]))
    assert items(out) == [("Ben", 1, "misdeal"), ("Ann", 2, "award")]
    assert out["scores"] == {"Ann": 2, "Ben": 1}


@pytest.mark.parametrize(
    "fact",
    [
        {"high": "Ann"},
        {"jack": {"held": "Ann", "won": "Ann"}},
        {"game": {"Ann": 40, "Ben": 40}},
        {"turn_up": ["5"]},
    ],
    ids=["high", "jack", "game", "turn_up"],
)
def test_facts_on_a_misdeal_hand_are_refused(fact):
    bad = dict({"dealer": "Ben", "penalties": [{"type": "misdeal"}]}, **fact)
    raises(rec([neutral("Ann"), bad]), hand=2)


def test_revoke_two_sides_revoker_had_most():
    h = {"dealer": "Ann", "penalties": [{"type": "revoke", "by": "Ben"}], "high": "Ben", "game": {"Ann": 30, "Ben": 50}}
    out = score_record(rec([h]))
    # revoke: 1 to Ann; Ben still scores High; Ben had most card points but
    # cannot score Game, and nobody does
    assert items(out) == [("Ann", 1, "revoke"), ("Ben", 1, "high")]
    assert out["hands"][0]["points"][0]["by"] == "Ben"
    assert out["scores"] == {"Ann": 1, "Ben": 1}


def test_revoke_other_side_still_scores_game():
    h = {"dealer": "Ann", "penalties": [{"type": "revoke", "by": "Ben"}], "game": {"Ann": 50, "Ben": 30}}
    out = score_record(rec([h]))
    assert items(out) == [("Ann", 1, "revoke"), ("Ann", 1, "game")]


def test_revoke_three_sides_game_does_not_pass_on():
    h = {"dealer": "Ben", "penalties": [{"type": "revoke", "by": "Ann"}], "game": {"Ann": 40, "Ben": 30, "Cy": 10}}
    out = score_record(rec([h], players=THREE))
    pts = items(out)
    assert sorted(pts) == [("Ben", 1, "revoke"), ("Cy", 1, "revoke")]
    assert out["scores"] == {"Ann": 0, "Ben": 1, "Cy": 1}


def test_revoke_teams():
    h = {"dealer": "Ann", "penalties": [{"type": "revoke", "by": "Di"}], "game": {"Us": 20, "Them": 60}}
    out = score_record(rec([h], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Us", 1, "revoke")]
    assert out["scores"] == {"Us": 1, "Them": 0}


def test_honour_revoke_two_sides():
    hands = [
        neutral("Ben", awards=[("Ann", 10)]),  # Ann is well ahead: 10 - 0
        {
            "dealer": "Ann",
            "turn_up": ["A"],
            "beg": "stand",
            "penalties": [{"type": "revoke", "by": "Ann", "honour": True}],
            "high": "Ann",
            "low": "Ann",
            "jack": {"held": "Ann", "won": "Ann"},
            "game": {"Ann": 80, "Ben": 0},
        },
    ]
    out = score_record(rec(hands))
    h = out["hands"][1]
    assert h["honour_revoke"] == "Ann"
    assert out["winner"] == "Ben"
    assert items(out, 1)[0] == ("Ann", 1, "turn-up")  # counted before the penalty
    assert not {"high", "low", "jack", "hang-jack", "game"} & {f for _, _, f in items(out, 1)}
    assert "honour_revoke" not in out["hands"][0]
    hands.append(neutral("Ben"))
    raises(rec(hands), hand=3)


@pytest.mark.parametrize(
    "before, revoker, winner",
    [
        ([("Ann", 2), ("Ben", 5), ("Cy", 3)], "Ben", "Cy"),  # the higher of the others
        ([("Ann", 3), ("Ben", 1), ("Cy", 3)], "Ben", "Cy"),  # tie: first after Ben
        ([("Ann", 2), ("Ben", 2), ("Cy", 0)], "Cy", "Ann"),  # tie: first after Cy (round)
        ([("Ann", 0), ("Ben", 1), ("Cy", 1)], "Ann", "Ben"),  # tie: first after Ann
    ],
)
def test_honour_revoke_three_sides(before, revoker, winner):
    revoker_pen = {"type": "revoke", "by": revoker, "honour": True}
    h = {
        "dealer": "Ann",
        "turn_up": ["5"],
        "beg": "stand",
        "penalties": [award(s, p) for s, p in before] + [revoker_pen],
        "high": revoker,
        "low": revoker,
        "jack": None,
        "game": {"Ann": 20, "Ben": 20, "Cy": 20},
    }
    out = score_record(rec([h], players=THREE))
    assert out["hands"][0]["honour_revoke"] == revoker
    assert out["winner"] == winner
    assert not {"high", "low", "game"} & {f for _, _, f in items(out)}


def test_honour_revoke_teams():
    h = {"dealer": "Ann", "penalties": [{"type": "revoke", "by": "Cy", "honour": True}]}
    out = score_record(rec([h], players=FOUR, teams=TEAMS2))
    assert out["hands"][0]["honour_revoke"] == "Us"
    assert out["winner"] == "Them"


def test_peek_two_sides():
    h = {"dealer": "Ann", "penalties": [{"type": "peek", "by": "Ben"}]}
    out = score_record(rec([h], variant="west-yorkshire"))
    assert items(out) == [("Ann", 4, "peek")]
    assert out["hands"][0]["points"][0]["by"] == "Ben"
    assert out["scores"] == {"Ann": 4, "Ben": 0}


def test_peek_teams():
    h = {"dealer": "Ann", "penalties": [{"type": "peek", "by": "Cy"}]}
    out = score_record(rec([h], players=FOUR, teams=TEAMS2, variant="west-yorkshire"))
    assert items(out) == [("Them", 4, "peek")]


def test_peek_three_sides():
    h = {"dealer": "Ann", "penalties": [{"type": "peek", "by": "Ann"}]}
    out = score_record(rec([h], players=THREE, variant="west-yorkshire"))
    assert sorted(items(out)) == [("Ben", 4, "peek"), ("Cy", 4, "peek")]
    assert out["scores"] == {"Ann": 0, "Ben": 4, "Cy": 4}


def test_award():
    out = score_record(rec([{"dealer": "Ann", "penalties": [award("Ben", 5, "spilled drink")]}]))
    assert out["hands"][0]["points"] == [{"side": "Ben", "points": 5, "for": "award", "reason": "spilled drink"}]
    assert out["scores"] == {"Ann": 0, "Ben": 5}
    h = {"dealer": "Ann", "penalties": [award("Them", 2, "x")]}
    out = score_record(rec([h], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Them", 2, "award")]


@pytest.mark.parametrize("dealer, receiver", [("Ann", "Ben"), ("Ben", "Ann")])
def test_gift_two_sides(dealer, receiver):
    out = score_record(rec([{"dealer": dealer, "turn_up": ["5"], "beg": "give"}]))
    assert items(out) == [(receiver, 1, "gift")]


def test_gift_three_sides_and_teams():
    out = score_record(rec([{"dealer": "Ann", "turn_up": ["5"], "beg": "give"}], players=THREE))
    assert sorted(items(out)) == [("Ben", 1, "gift"), ("Cy", 1, "gift")]
    out = score_record(rec([{"dealer": "Di", "turn_up": ["5"], "beg": "give"}], players=FOUR, teams=TEAMS2))
    assert items(out) == [("Us", 1, "gift")]


def test_stand_gives_nothing():
    out = score_record(rec([{"dealer": "Ann", "turn_up": ["5"], "beg": "stand"}], players=THREE))
    assert items(out) == []


def test_three_player_gift_outside_seven_up_is_not_restricted():
    # the "needs only one point" refusal is a seven-up rule; in Trinidad Cy at
    # 13 simply gets the point (after Ben) and wins
    hands = [neutral("Ann", sides=THREE, awards=[("Cy", 13)]), {"dealer": "Ann", "turn_up": ["5"], "beg": "give"}]
    out = score_record(rec(hands, players=THREE))
    assert items(out, 1) == [("Ben", 1, "gift"), ("Cy", 1, "gift")]
    assert out["winner"] == "Cy"


# =============================================================== 4. seven-up
@pytest.mark.parametrize("dealer, non_dealer", [("Ann", "Ben"), ("Ben", "Ann")])
def test_seven_up_tie_goes_to_the_non_dealer(dealer, non_dealer):
    out = score_record(rec([{"dealer": dealer, "game": {"Ann": 33, "Ben": 33}}], variant="seven-up"))
    assert items(out) == [(non_dealer, 1, "game")]


def test_seven_up_tie_teams():
    out = score_record(
        rec([{"dealer": "Cy", "game": {"Us": 20, "Them": 20}}], players=FOUR, teams=TEAMS2, variant="seven-up")
    )
    assert items(out) == [("Them", 1, "game")]


@pytest.mark.parametrize(
    "dealer, game, want",
    [
        ("Ann", {"Ann": 10, "Ben": 35, "Cy": 35}, []),  # two non-dealers tie: nobody
        ("Ann", {"Ann": 35, "Ben": 35, "Cy": 10}, [("Ben", 1, "game")]),  # dealer ties Ben
        ("Ann", {"Ann": 35, "Ben": 10, "Cy": 35}, [("Cy", 1, "game")]),  # dealer ties Cy
        ("Ben", {"Ann": 35, "Ben": 35, "Cy": 10}, [("Ann", 1, "game")]),
        ("Ann", {"Ann": 40, "Ben": 20, "Cy": 20}, [("Ann", 1, "game")]),  # no tie for most
    ],
)
def test_seven_up_three_player_game_tie(dealer, game, want):
    out = score_record(rec([{"dealer": dealer, "game": game}], players=THREE, variant="seven-up"))
    assert items(out) == want


def _seven_up_3(scores, dealer, **rules):
    """Seven-up, three players: a setup hand (Ann deals) then a `give` by `dealer`."""
    setup = neutral("Ann", "seven-up", THREE, awards=[(s, p) for s, p in scores.items() if p])
    give = {"dealer": dealer, "turn_up": ["5"], "beg": "give"}
    return rec([setup, give], players=THREE, variant="seven-up", **rules)


@pytest.mark.parametrize(
    "scores, dealer",
    [
        ({"Ann": 0, "Ben": 0, "Cy": 6}, "Ann"),  # Ann deals, Ben begs, Cy needs 1
        ({"Ann": 6, "Ben": 2, "Cy": 0}, "Ben"),  # Ben deals, Cy begs, Ann needs 1
        ({"Ann": 0, "Ben": 6, "Cy": 0}, "Cy"),  # Cy deals, Ann begs, Ben needs 1
    ],
)
def test_seven_up_three_player_give_refused(scores, dealer):
    raises(_seven_up_3(scores, dealer), hand=2)


def test_seven_up_three_player_give_refused_with_target_override():
    raises(_seven_up_3({"Ann": 0, "Ben": 0, "Cy": 9}, "Ann", target=10), hand=2)
    out = score_record(_seven_up_3({"Ann": 0, "Ben": 0, "Cy": 8}, "Ann", target=10))
    assert items(out, 1) == [("Ben", 1, "gift"), ("Cy", 1, "gift")]


@pytest.mark.parametrize(
    "scores, dealer, want, winner",
    [
        ({"Ann": 0, "Ben": 3, "Cy": 4}, "Ann", [("Ben", 1, "gift"), ("Cy", 1, "gift")], None),
        # the beggar (Ben) needs one: allowed; Ben's point wins at once
        ({"Ann": 0, "Ben": 6, "Cy": 5}, "Ann", [("Ben", 1, "gift")], "Ben"),
        # the dealer needs one: allowed
        ({"Ann": 6, "Ben": 0, "Cy": 0}, "Ann", [("Ben", 1, "gift"), ("Cy", 1, "gift")], None),
        # Ben deals, Cy begs and needs one, Ann does not: allowed
        ({"Ann": 2, "Ben": 0, "Cy": 6}, "Ben", None, "Cy"),
    ],
)
def test_seven_up_three_player_give_accepted(scores, dealer, want, winner):
    out = score_record(_seven_up_3(scores, dealer))
    assert out["hands"][0]["scores"] == scores
    if want is not None:
        assert items(out, 1) == want
    else:
        assert ("Cy", 1, "gift") in items(out, 1)
    assert out["winner"] == winner
    if winner is None:
        assert out["scores"] == {s: p + (s != dealer) for s, p in scores.items()}


# ================================================================ 5. all four
def _all_four_hand(**kw):
    h = {
        "dealer": "Ben",
        "turn_up": ["5"],
        "beg": "stand",
        "high": "Ann",
        "low": "Ann",
        "jack": {"held": "Ann", "won": "Ann"},
        "game": {"Ann": 50, "Ben": 30},
    }
    h.update(kw)
    return h


@pytest.mark.parametrize(
    "variant, kw",
    [
        ("trinidad", {}),
        ("trinidad", {"jack": {"held": "Ben", "won": "Ann"}}),  # hang jack counts
        ("seven-up", {"jack": {"held": "Ben", "won": "Ann"}}),
        ("pitch", {"turn_up": [], "beg": None}),
    ],
)
def test_all_four_marked(variant, kw):
    h = _all_four_hand(**kw)
    if variant == "pitch":
        del h["turn_up"], h["beg"]
    out = score_record(rec([h], variant=variant))
    assert out["hands"][0]["all_four"] == "Ann"


@pytest.mark.parametrize(
    "kw",
    [
        {"game": {"Ann": 30, "Ben": 50}},
        {"low": "Ben"},
        {"jack": None},
        {"jack": {"held": "Ann", "won": "Ben"}},
    ],
    ids=["game-lost", "low-lost", "no-jack", "jack-hanged"],
)
def test_all_four_absent(kw):
    out = score_record(rec([_all_four_hand(**kw)]))
    assert "all_four" not in out["hands"][0]


def test_all_four_teams():
    h = {
        "dealer": "Ben",
        "turn_up": ["5"],
        "beg": "stand",
        "high": "Ann",
        "low": "Cy",
        "jack": {"held": "Cy", "won": "Ann"},
        "game": {"Us": 45, "Them": 35},
    }
    out = score_record(rec([h], players=FOUR, teams=TEAMS2))
    assert out["hands"][0]["all_four"] == "Us"
    assert out["scores"] == {"Us": 4, "Them": 0}


def test_all_four_marked_on_the_hand_that_wins_the_match(tmp_path):
    # hand 1 (Ben deals): an award takes Ann to 10 (target 14); Game tied.
    # hand 2: Ann high (11), low (12), jack (13), game (14): the match is won
    # on Game, the last item, so every item of all four was credited.
    record = rec([neutral("Ben", awards=[("Ann", 10)]), _all_four_hand(dealer="Ann")])
    out = score_record(record)
    assert items(out, 1) == [("Ann", 1, "high"), ("Ann", 1, "low"), ("Ann", 1, "jack"), ("Ann", 1, "game")]
    assert out["winner"] == "Ann"
    assert out["hands"][1]["all_four"] == "Ann"
    p = tmp_path / "r.json"
    p.write_text(json.dumps(record), encoding="utf-8")
    proc = run_cli("score", "--text", p)
    assert proc.returncode == 0, proc.stderr
    hand2 = proc.stdout.split("Hand 2 (dealer Ann)")[1]
    assert "  all four: Ann\n" in hand2


def test_all_four_not_marked_when_the_match_is_won_before_game():
    # Ann at 11: high (12), low (13), jack (14) wins; Game is not credited,
    # so the hand did not make all four.
    out = score_record(rec([neutral("Ben", awards=[("Ann", 11)]), _all_four_hand(dealer="Ann")]))
    assert items(out, 1) == [("Ann", 1, "high"), ("Ann", 1, "low"), ("Ann", 1, "jack")]
    assert out["winner"] == "Ann"
    assert "all_four" not in out["hands"][1]


# ========================================================== 6. game_cards
def _card_sum(ranks):
    return sum(CARD_POINTS.get(r, 0) for r in ranks)


@pytest.mark.parametrize(
    "players, cards",
    [
        (TWO, {"Ann": ["A", "K", "Q", "J", "10", "9"], "Ben": ["10", "10", "2", "3"]}),  # 20 - 20
        (TWO, {"Ann": ["A", "A", "A", "A"], "Ben": ["K", "K", "K", "K", "10"]}),  # 16 - 22
        (TWO, {"Ann": ["10"] * 4 + ["A"] * 4, "Ben": ["K"] * 4 + ["Q"] * 4 + ["J"] * 4}),  # 56 - 24
        (THREE, {"Ann": ["Q", "J"], "Ben": ["10", "9"], "Cy": ["K", "A", "2"]}),  # 3 - 10 - 7
    ],
)
def test_game_cards_count_like_game(players, cards):
    want = {s: _card_sum(r) for s, r in cards.items()}
    base = {"dealer": "Ann", "turn_up": ["5"], "beg": "stand", "high": None, "low": None, "jack": None}
    out_cards = score_record(rec([dict(base, game_cards=cards)], players=players))
    out_game = score_record(rec([dict(base, game=want)], players=players))
    assert out_cards["hands"][0]["card_points"] == want
    assert out_game["hands"][0]["card_points"] == want
    assert out_cards["hands"][0]["points"] == out_game["hands"][0]["points"]
    assert out_cards["scores"] == out_game["scores"]
    best = max(want.values())
    leaders = [s for s, v in want.items() if v == best]
    assert items(out_cards) == ([(leaders[0], 1, "game")] if len(leaders) == 1 else [])


def test_game_cards_at_most_four_of_a_rank():
    bad = {"dealer": "Ben", "game_cards": {"Ann": ["A", "A", "A"], "Ben": ["A", "A"]}}
    raises(rec([neutral("Ann"), bad]), hand=2)


# ==================================================================== 7. sides
@pytest.mark.parametrize(
    "players, teams, sides",
    [
        (TWO, None, ["Ann", "Ben"]),
        (THREE, None, ["Ann", "Ben", "Cy"]),
        (FOUR, TEAMS2, ["Us", "Them"]),
        (SIX, TEAMS3, ["North", "East", "West"]),
    ],
    ids=["2-players", "3-players", "4-in-2-teams", "6-in-3-teams"],
)
def test_sides_accepted(players, teams, sides):
    out = score_record(rec([{"dealer": players[-1], "high": players[0]}], players=players, teams=teams))
    assert out["sides"] == sides
    assert out["scores"] == {s: (1 if s == sides[0] else 0) for s in sides}


@pytest.mark.parametrize(
    "players, teams",
    [
        (FOUR, None),
        (("Ann", "Ben", "Cy", "Di", "Ed"), None),
        (SIX, {"A": ["Ann", "Cy", "Ed"], "B": ["Ben", "Di", "Flo"]}),
    ],
    ids=["4-without-teams", "5-players", "6-in-2-teams"],
)
def test_sides_refused(players, teams):
    raises(rec([], players=players, teams=teams))


# =================================================================== 8. errors
def test_unknown_variant():
    raises(rec([], variant="euchre"))
    raises(rec([neutral("Ann")], variant="seven up"))


def test_unknown_rule_key():
    raises(rec([], variant="trinidad", hang_jack=2))


@pytest.mark.parametrize("rank", ["1", "11", "X"])
def test_unknown_rank_in_turn_up(rank):
    raises(rec([neutral("Ann"), {"dealer": "Ben", "turn_up": [rank], "beg": "stand"}]), hand=2)


def test_rank_of_the_wrong_type_is_refused():
    # all-fours.md: ranks are the strings "2"..."10", "J", "Q", "K", "A";
    # record-format.md: "wrong types ... are all status 2"
    raises(rec([neutral("Ann"), {"dealer": "Ben", "turn_up": [6], "beg": "stand"}]), hand=2)


@pytest.mark.parametrize("rank", ["1", "B"])
def test_unknown_rank_in_game_cards(rank):
    bad = {"dealer": "Ben", "turn_up": ["5"], "beg": "stand", "game_cards": {"Ann": ["A", rank], "Ben": []}}
    raises(rec([neutral("Ann"), bad]), hand=2)


@pytest.mark.parametrize(
    "facts",
    [
        {"dealer": "Zed"},
        {"high": "Zed"},
        {"low": "Zed"},
        {"jack": {"held": "Zed", "won": "Ann"}},
        {"jack": {"held": "Ann", "won": "Zed"}},
        {"penalties": [{"type": "revoke", "by": "Zed"}]},
        {"penalties": [award("Zed", 1)]},
    ],
    ids=["dealer", "high", "low", "jack-held", "jack-won", "revoke-by", "award-side"],
)
def test_player_not_in_the_match(facts):
    bad = dict({"dealer": "Ben", "turn_up": ["5"], "beg": "stand"}, **facts)
    raises(rec([neutral("Ann"), bad]), hand=2)


@pytest.mark.parametrize(
    "players, game",
    [
        (TWO, {"Ann": -1, "Ben": 10}),
        (TWO, {"Ann": 50, "Ben": 31}),
        (TWO, {"Ann": 81, "Ben": 0}),
        (THREE, {"Ann": 30, "Ben": 30, "Cy": 21}),
    ],
)
def test_card_points_out_of_range(players, game):
    bad = {"dealer": "Ben", "turn_up": ["5"], "beg": "stand", "game": game}
    raises(rec([neutral("Ann", sides=players), bad], players=players), hand=2)


def test_card_points_80_in_total_accepted():
    game = {"Ann": 41, "Ben": 39}
    out = score_record(rec([neutral("Ann"), {"dealer": "Ben", "game": game}]))
    assert out["hands"][1]["card_points"] == game
    assert items(out, 1) == [("Ann", 1, "game")]


def test_load_raises_the_same_error():
    with pytest.raises(ScorekeeperError) as ei:
        load(rec([neutral("Ann"), {"dealer": "Zed"}]))
    assert re.search(r"\bhand 2\b", str(ei.value))


def test_load_api():
    out = score_record(_at_13_13(dict(FULL, dealer="Ann", turn_up=["A"])))
    m = load(_at_13_13(dict(FULL, dealer="Ann", turn_up=["A"])))
    assert list(m.setup.sides) == out["sides"] == ["Ann", "Ben"]
    assert tuple(m.scores) == (14, 13)
    assert m.winner == 0
    assert m.rules.variant == "trinidad" and m.rules.target == 14
    assert len(m.hands) == 2


# ---------------------------------------------------------- command line
def run_score(path):
    """`scorekeeper score PATH` (in this process); stdout and stderr as bytes."""
    return run_cli("score", path, binary=True)


def test_cli_scores_an_all_fours_record(tmp_path):
    record = _at_13_13(dict(FULL, dealer="Ann", turn_up=["A"]))
    p = tmp_path / "r.json"
    p.write_text(json.dumps(record), encoding="utf-8")
    proc = run_score(p)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert json.loads(proc.stdout) == json.loads(json.dumps(score_record(record)))


def _cli_won_then_more():
    r = _at_13_13(dict(FULL, dealer="Ann", turn_up=["A"]))
    r["hands"].append(neutral("Ben"))
    return r


@pytest.mark.parametrize(
    "record, hand",
    [
        (rec([neutral("Ann"), {"dealer": "Ben", "turn_up": ["11"]}]), 2),
        (rec([neutral("Ann"), {"dealer": "Ben", "high": "Zed"}]), 2),
        (rec([neutral("Ann"), {"dealer": "Ben", "game": {"Ann": 60, "Ben": 30}}]), 2),
        (rec([neutral("Ann"), {"dealer": "Ben", "penalties": [{"type": "misdeal"}], "high": "Ann"}]), 2),
        (_cli_won_then_more(), 3),
        (rec([], variant="euchre"), None),
    ],
    ids=["rank", "player", "card-points-90", "misdeal-facts", "after-win", "variant"],
)
def test_cli_errors(tmp_path, record, hand):
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
        assert re.search(rf"\bhand {hand}\b", lines[0]), err


# ============================================================= 9. properties
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHAPES = [(TWO, None), (THREE, None), (FOUR, TEAMS2), (SIX, TEAMS3)]


@st.composite
def penalty_st(draw, players, sides):
    kind = draw(st.sampled_from(["revoke", "peek", "award"]))
    if kind == "award":
        return award(draw(st.sampled_from(sides)), draw(st.integers(0, 3)), "house")
    return {"type": kind, "by": draw(st.sampled_from(players))}


@st.composite
def hand_st(draw, variant, players, sides):
    dealer = draw(st.sampled_from(players))
    if draw(st.integers(0, 9)) == 0:
        pens = [{"type": "misdeal"}] + draw(st.lists(penalty_st(players, sides), max_size=1))
        return {"dealer": dealer, "penalties": pens}
    h = {"dealer": dealer}
    if variant in TURN_UP:
        begs = [None, "stand", "give", "run"]
        if variant == "seven-up" and len(sides) == 3:
            begs.remove("give")  # may be refused (the three-player gift rule)
        beg = draw(st.sampled_from(begs))
        n = draw(st.integers(2, 4)) if beg == "run" else 1
        h["turn_up"] = draw(st.lists(st.sampled_from(RANKS), min_size=n, max_size=n))
        h["beg"] = beg
    pens = draw(st.lists(penalty_st(players, sides), max_size=2))
    if pens:
        h["penalties"] = pens
    h["high"] = draw(st.none() | st.sampled_from(players))
    h["low"] = draw(st.none() | st.sampled_from(players))
    if draw(st.booleans()):
        h["jack"] = {"held": draw(st.sampled_from(players)), "won": draw(st.sampled_from(players))}
    else:
        h["jack"] = None
    form = draw(st.sampled_from(["game", "game_cards", "absent"]))
    if form == "game":
        left, game = 80, {}
        for s in sides:
            v = draw(st.integers(0, left))
            game[s] = v
            left -= v
        h["game"] = game
    elif form == "game_cards":
        cards = {s: [] for s in sides}
        for r in RANKS:
            for i in draw(st.lists(st.sampled_from(range(len(sides))), max_size=4)):
                cards[sides[i]].append(r)
        h["game_cards"] = cards
    return h


@st.composite
def match_st(draw):
    variant = draw(st.sampled_from(ALL_VARIANTS))
    players, teams = draw(st.sampled_from(SHAPES))
    sides = list(teams) if teams else list(players)
    rules = {"variant": variant}
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(7, 15))
    hands = draw(st.lists(hand_st(variant, players, sides), min_size=1, max_size=8))
    return rec(hands, players=players, teams=teams, **rules)


def playable(record):
    """The record cut after the hand that wins the match (later hands are refused)."""
    for k in range(1, len(record["hands"]) + 1):
        part = dict(record, hands=record["hands"][:k])
        if score_record(part)["winner"] is not None:
            return part
    return record


@SETTINGS
@given(match_st())
def test_property_scores_are_the_sums_of_the_items(record):
    record = playable(record)
    out = score_record(record)
    sides = out["sides"]
    running = {s: 0 for s in sides}
    for n, h in enumerate(out["hands"], 1):
        assert h["number"] == n
        for it in h["points"]:
            assert it["side"] in sides
            assert isinstance(it["points"], int) and it["points"] >= 0
            running[it["side"]] += it["points"]
        assert h["scores"] == running
    assert out["scores"] == running
    m = load(record)
    assert tuple(m.scores) == tuple(running[s] for s in sides)


@SETTINGS
@given(match_st())
def test_property_target_bounds_and_non_negative(record):
    record = playable(record)
    out = score_record(record)
    target = out["target"]
    for h in out["hands"]:
        assert all(v >= 0 for v in h["scores"].values())
    winner = out["winner"]
    if winner is None:
        assert all(v < target for v in out["scores"].values())
    else:
        last = out["hands"][-1]["points"][-1]
        assert last["side"] == winner
        assert target <= out["scores"][winner] < target + last["points"]
        assert all(v < target for s, v in out["scores"].items() if s != winner)
        assert score_record(record)["winner"] == winner
        # every earlier hand ended below the target
        for h in out["hands"][:-1]:
            assert all(v < target for v in h["scores"].values())


@SETTINGS
@given(match_st())
def test_property_deterministic_and_json(record):
    record = playable(record)
    before = copy.deepcopy(record)
    out1 = score_record(record)
    assert record == before, "the record is not changed"
    out2 = score_record(copy.deepcopy(record))
    assert out1 == out2
    text = json.dumps(out1)
    assert json.loads(text) == out1
    assert json.dumps(out2) == text


@SETTINGS
@given(match_st())
def test_property_replaying_a_prefix(record):
    record = playable(record)
    out = score_record(record)
    for k in range(1, len(record["hands"]) + 1):
        part = score_record(dict(record, hands=record["hands"][:k]))
        assert part["scores"] == out["hands"][k - 1]["scores"]
        assert part["hands"] == out["hands"][:k]
