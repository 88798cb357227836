"""The Score screen's per-hand table as text (no Flet): the running total on its own,
and under it what the hand added, so that no cell reads as a sum."""

from __future__ import annotations

import re

import pytest

from scorekeeper import registry
from scorekeeper.allfives import random_record as fives_record
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.ui.score.model import hand_rows


def cells(row):
    return [(c.side, c.total, c.lines) for c in row.cells]


def test_a_hand_with_plays_and_a_settlement() -> None:
    summary = {
        "sides": ["Ann", "Ben"],
        "hands": [
            {"number": 1, "end": "blocked", "settlement": {"Ann": 0, "Ben": 0}, "scores": {"Ann": 35, "Ben": 0}},
            {"number": 2, "end": "domino", "settlement": {"Ann": 30, "Ben": 0}, "scores": {"Ann": 105, "Ben": 15}},
        ],
    }
    first, second = hand_rows(summary)
    assert first.title == "Hand 1 · blocked"
    assert cells(first) == [("Ann", "35", ("+35 in play",)), ("Ben", "0", ("no points",))]
    assert second.title == "Hand 2 · domino"
    assert cells(second) == [("Ann", "105", ("+40 in play", "+30 at the end")), ("Ben", "15", ("+15 in play",))]
    ann = second.cells[0]
    assert ann.detail == "+40 in play, +30 at the end"
    assert ann.label == "Ann after hand 2: 105 (+40 in play, +30 at the end)"
    # no cell text reads as a sum: no "=", and the total stands alone
    for row in (first, second):
        for c in row.cells:
            assert "=" not in c.total + c.detail and re.fullmatch(r"-?\d+", c.total)


def test_a_negative_settlement_each_subtracts() -> None:
    summary = {
        "sides": ["Ann", "Ben"],
        "hands": [
            {"number": 1, "end": "blocked", "settlement": {"Ann": -12, "Ben": -5}, "scores": {"Ann": 3, "Ben": -5}},
        ],
    }
    (row,) = hand_rows(summary)
    assert row.title == "Hand 1 · blocked"
    assert cells(row) == [("Ann", "3", ("+15 in play", "-12 at the end")), ("Ben", "-5", ("-5 at the end",))]
    assert row.cells[1].label == "Ben after hand 1: -5 (-5 at the end)"


def test_an_open_hand() -> None:
    summary = {
        "sides": ["Ann", "Ben", "Cy"],
        "hands": [
            {
                "number": 1,
                "end": "domino",
                "settlement": {"Ann": 10, "Ben": 0, "Cy": 0},
                "scores": {"Ann": 10, "Ben": 0, "Cy": 5},
            },
            {
                "number": 2,
                "end": "open",
                "settlement": {"Ann": 0, "Ben": 0, "Cy": 0},
                "scores": {"Ann": 20, "Ben": 0, "Cy": 5},
            },
        ],
    }
    row = hand_rows(summary)[1]
    assert row.title == "Hand 2 · playing"
    assert cells(row) == [("Ann", "20", ("+10 in play",)), ("Ben", "0", ("no points",)), ("Cy", "5", ("no points",))]
    assert row.cells[0].label == "Ann after hand 2 so far: 20 (+10 in play)"


def test_a_game_without_a_settlement_says_what_the_hand_added() -> None:
    summary = {
        "sides": ["Ann", "Ben"],
        "hands": [
            {"number": 1, "end": "scored", "points": [], "scores": {"Ann": 5, "Ben": 1}},
            {"number": 2, "end": "open", "points": [], "scores": {"Ann": 5, "Ben": 1}},
        ],
    }
    first, second = hand_rows(summary)
    assert cells(first) == [("Ann", "5", ("+5 this hand",)), ("Ben", "1", ("+1 this hand",))]
    assert cells(second) == [("Ann", "5", ("no points",)), ("Ben", "1", ("no points",))]


def added(lines: tuple[str, ...]) -> int:
    return sum(int(m) for line in lines for m in re.findall(r"^[+-]\d+", line))


@pytest.mark.parametrize(
    "record",
    [
        fives_record(3, 3, max_hands=4, hand_end="each-subtracts"),
        fives_record(8, 4, max_hands=4, teams=True),
        broadway_record(3),
    ],
    ids=["all-fives-each-subtracts", "all-fives-partners", "broadway"],
)
def test_each_cell_is_the_total_and_what_the_hand_added(record) -> None:
    game = registry.game_of(record)
    summary = game.result(game.load(record))
    rows = hand_rows(summary)
    assert len(rows) == len(summary["hands"])
    before = dict.fromkeys(summary["sides"], 0)
    for row, h in zip(rows, summary["hands"], strict=True):
        assert [c.side for c in row.cells] == summary["sides"]  # two columns for two partnerships
        for c in row.cells:
            assert int(c.total) == h["scores"][c.side]
            assert before[c.side] + added(c.lines) == h["scores"][c.side], (row.title, c)
        before = h["scores"]


def test_a_partnership_wins_in_the_plural():
    from scorekeeper import registry
    from scorekeeper.ui.score.model import score_displays

    game = registry.get("all-fives")
    record = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben", "Cy", "Dee"],
        "teams": {"Ann & Cy": ["Ann", "Cy"], "Ben & Dee": ["Ben", "Dee"]},
        "rules": {"target": 5},
        "hands": [{"leader": "Ben", "turns": [{"play": "5-0"}]}],
    }
    assert score_displays(game, game.load(record)).winner_line == "Ben & Dee win the match!"
    alone = {
        **record,
        "players": ["Ann", "Ben"],
        "teams": None,
        "hands": [{"leader": "Ben", "turns": [{"play": "5-0"}]}],
    }
    del alone["teams"]
    assert score_displays(game, game.load(alone)).winner_line == "Ben wins the match!"


def test_a_match_kept_on_the_pegboard_names_its_kind_of_game():
    """Fives and Threes is pegged, not tallied: each side says so, in the registry's name of it."""
    from scorekeeper.ui.score.model import score_displays

    game = registry.get("all-fives")
    record = fives_record(6, 2, max_hands=2, count="fives-and-threes", spinner="none", target=61)
    shown = score_displays(game, game.load(record))
    assert shown.pegboard is not None and shown.timeline.pegs
    note = "Kept on the pegboard: Fives and Threes points are pegs, not the fives an X tally counts."
    assert [(s.tally, s.note) for s in shown.sides] == [(None, note), (None, note)]
    plain = score_displays(game, game.load(fives_record(6, 2, max_hands=2)))
    assert [s.note for s in plain.sides] == [None, None]
