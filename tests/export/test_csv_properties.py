"""Properties of ``export --csv`` over random legal matches of every game, finished or not:
the points of a side's rows add up to its score, the running scores agree with the
scored output after every hand, every turn or item has its row, and the CSV reads back."""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import registry
from scorekeeper.allfives.simulate import random_record as fives_record
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.stats.csv_rows import COLUMNS, match_table, safe, to_csv

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
COL = {name: i for i, name in enumerate(COLUMNS)}


def check(record):
    """Every property, for one record."""
    game = registry.game_of(record)
    match = game.load(record)
    scored = game.result(match)
    lines = match_table("m", "2024-01-01", record, match)
    sides = scored["sides"]
    total = dict.fromkeys(sides, 0)
    last_of_hand = {}
    for line in lines:
        side, points = line[COL["side"]], line[COL["points"]]
        assert isinstance(points, int)
        if side == "":
            assert points == 0 and line[COL["side_score"]] == ""
        else:
            total[side] += points
            assert line[COL["side_score"]] == total[side]
        assert line[COL["scores"]] == "; ".join(f"{s} {total[s]}" for s in sides)
        last_of_hand[line[COL["hand"]]] = dict(total)
    assert total == scored["scores"]  # the points add up to each side's score
    for h in scored["hands"]:  # the running scores agree after every hand
        assert last_of_hand[h["number"]] == h["scores"]
    assert [line[COL["hand"]] for line in lines] == sorted(line[COL["hand"]] for line in lines)
    back = list(csv.reader(io.StringIO(to_csv([COLUMNS, *lines]), newline="")))
    assert back == [list(COLUMNS), *[[str(safe(c)) for c in line] for line in lines]]
    return scored, lines


def turn_rows(lines, hand):
    return [line for line in lines if line[COL["hand"]] == hand and line[COL["turn"]] != ""]


def cut(record, data, turns_key):
    """``record`` stopped at a random entry (a match in progress), or whole."""
    hands = record["hands"]
    if not hands or data.draw(st.booleans()):
        return record
    k = data.draw(st.integers(1, len(hands)))
    last = dict(hands[k - 1])
    if turns_key in last:
        last[turns_key] = last[turns_key][: data.draw(st.integers(0, len(last[turns_key])))]
    last.pop("remaining", None)
    last.pop("unplayed", None)
    return dict(record, hands=[*hands[: k - 1], last])


# ------------------------------------------------------------------ All Fives
@st.composite
def fives_configs(draw):
    players = draw(st.integers(2, 5))
    rules = {
        "spinner": draw(st.sampled_from(["first-double", "none", "all-doubles", "sniff"])),
        "hand_end": draw(st.sampled_from(["winner-takes", "each-subtracts", "go", "none"])),
        "block_winner": draw(st.sampled_from(["player", "side"])),
        "claims": draw(st.sampled_from(["check", "muggins"])),
    }
    if draw(st.booleans()):
        rules["exact_target"] = True
    if draw(st.integers(0, 2)) == 0:
        rules["count"] = "fives-and-threes"
    elif draw(st.booleans()):
        rules["scale"] = 5
    if draw(st.integers(0, 2)) == 0:
        rules["draw"] = False
    if draw(st.booleans()):
        rules["domino"] = "side"
    if draw(st.integers(0, 2)) == 0:
        rules["win_on_lead"] = False
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(3, 20)) if rules.get("scale") == 5 else draw(st.integers(5, 80))
    return dict(
        seed=draw(st.integers(0, 2**32 - 1)),
        players=players,
        teams=players == 4 and draw(st.booleans()),
        claim_rate=draw(st.sampled_from([0.0, 0.5])),
        max_hands=draw(st.integers(1, 8)),
        **rules,
    )


@SETTINGS
@given(fives_configs(), st.data())
def test_all_fives(cfg, data):
    cfg = dict(cfg)
    record = cut(fives_record(cfg.pop("seed"), cfg.pop("players"), **cfg), data, "turns")
    scored, lines = check(record)
    for h in scored["hands"]:
        calls = sum(1 for t in h["turns"] if "muggins" in t)
        assert len(turn_rows(lines, h["number"])) == len(h["turns"]) + calls


# ------------------------------------------------------------------ Broadway
@SETTINGS
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([{}, {"unplayed_penalty": "to-opponents"}, {"orientation": "free"}]),
    st.sampled_from([None, 1, 3]),
    st.sampled_from([0.0, 0.02]),
)
def test_broadway(seed, rules, max_hands, stop_rate):
    record = broadway_record(seed, rules=rules, max_hands=max_hands, stop_rate=stop_rate)
    scored, lines = check(record)
    for h in scored["hands"]:
        assert len(turn_rows(lines, h["number"])) == len(h["turns"])


# ------------------------------------------------------------------ All Fours
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
VARIANTS = [
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
SHAPES = [
    (["Ann", "Ben"], None),
    (["Ann", "Ben", "Cy"], None),
    (["Ann", "Ben", "Cy", "Di"], {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}),
    (["Ann", "Ben", "Cy", "Di", "Ed", "Flo"], {"N": ["Ann", "Di"], "E": ["Ben", "Ed"], "W": ["Cy", "Flo"]}),
]


@st.composite
def fours_hand(draw, variant, players, sides):
    h = {"dealer": draw(st.sampled_from(players))}
    penalty = st.one_of(
        st.builds(lambda t, by: {"type": t, "by": by}, st.sampled_from(["revoke", "peek"]), st.sampled_from(players)),
        st.builds(lambda s, p: {"type": "award", "side": s, "points": p}, st.sampled_from(sides), st.integers(0, 3)),
    )
    if draw(st.integers(0, 9)) == 0:
        return {**h, "penalties": [{"type": "misdeal"}]}
    if variant not in ("west-yorkshire", "lancashire", "pitch"):  # a card is turned up
        h["beg"] = draw(st.sampled_from([None, "stand", "run"]))
        n = draw(st.integers(2, 4)) if h["beg"] == "run" else 1
        h["turn_up"] = draw(st.lists(st.sampled_from(RANKS), min_size=n, max_size=n))
    pens = draw(st.lists(penalty, max_size=2))
    if draw(st.integers(0, 19)) == 0:  # Trinidad's honour revoke: the revoker's side loses the match
        pens.append({"type": "revoke", "by": draw(st.sampled_from(players)), "honour": True})
    if pens:
        h["penalties"] = pens
    for key in ("high", "low"):
        if draw(st.booleans()):
            h[key] = draw(st.none() | st.sampled_from(players))
    if draw(st.booleans()):
        h["jack"] = {"held": draw(st.sampled_from(players)), "won": draw(st.sampled_from(players))}
    if draw(st.booleans()):
        points = draw(st.lists(st.integers(0, 80 // len(sides)), min_size=len(sides), max_size=len(sides)))
        h["game"] = dict(zip(sides, points, strict=True))
    return h


@st.composite
def fours_record(draw):
    variant = draw(st.sampled_from(VARIANTS))
    players, teams = draw(st.sampled_from(SHAPES))
    sides = list(teams) if teams else players
    rules = {"variant": variant}
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(7, 15))
    hands = draw(st.lists(fours_hand(variant, players, sides), min_size=1, max_size=8))
    record = {"format": "scorekeeper/1", "game": "all-fours", "players": players, "rules": rules, "hands": []}
    if teams:
        record["teams"] = teams
    for hand in hands:  # the hands up to the one that decides the match (later ones are refused)
        record["hands"].append(hand)
        if registry.game_of(record).load(record).winner is not None:
            break
    return record


@SETTINGS
@given(fours_record())
def test_all_fours(record):
    scored, lines = check(record)
    for h in scored["hands"]:
        extra = 1 if h.get("honour_revoke") else 0
        assert len(turn_rows(lines, h["number"])) == len(h["points"]) + extra
