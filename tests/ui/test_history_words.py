"""History and the Score screen in the players' words (issue 27): the last hand of a won
match says who won it, not "playing ... so far" or "(open)"; a knock is a knock, a bust a
bust and the down that may not win says so, in the words the table used. View-models only."""

from __future__ import annotations

import copy
import json

import pytest
from allfives.test_ui_model import new_table, play

from scorekeeper import registry
from scorekeeper.allfives import random_record as fives_record
from scorekeeper.allfives.record import load
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.ui.history.model import HistoryModel
from scorekeeper.ui.score.model import hand_rows
from scorekeeper.ui.shell.screens import history_blocks

PARTNERS = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}


def scored(record: dict) -> dict:
    game = registry.game_of(record)
    return game.result(game.load(record))


# ------------------------------------------------------------------ the last hand of a won match
def won_mid_hand() -> dict:
    """Partners to 20: Cy's 4-4 makes Ann & Cy 25 in hand 1, which is never played out."""
    turns = [
        {"play": "5-5"},
        {"play": "5-0", "on": "5-5"},
        {"play": "5-4", "on": "5-5"},
        {"play": "0-4", "on": "5-0"},
        {"play": "4-1", "on": "5-4"},
        {"play": "1-1", "on": "4-1"},
        {"play": "4-4", "on": "4-0"},
    ]
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben", "Cy", "Di"],
        "teams": PARTNERS,
        "rules": {"hand_size": 5, "target": 20},
        "hands": [{"leader": "Ann", "turns": turns}],
    }


def test_all_fives_the_hand_a_match_was_won_in_says_who_won_on_the_score_screen_and_in_history():
    out = scored(won_mid_hand())
    assert out["winner"] == "Ann & Cy" and out["hands"][-1]["end"] == "open"  # cut short by the win
    (row,) = hand_rows(out)
    assert row.title == "Hand 1 · Ann & Cy won the match"
    assert [c.label for c in row.cells] == [
        "Ann & Cy at the end of the match (hand 1): 25 (+25 in play)",
        "Ben & Di at the end of the match (hand 1): 10 (+10 in play)",
    ]
    (block,) = history_blocks(out)
    assert block.splitlines()[0] == "Hand 1 (Ann & Cy won the match), Ann led"
    text = registry.get("all-fives").render(out)  # scorekeeper score --text
    assert "  Ann & Cy won the match during this hand" in text.splitlines() and "hand open" not in text


def test_broadway_the_hand_a_match_was_won_in_says_who_won_on_the_score_screen_and_in_history():
    out = scored(broadway_record(8))
    assert out["winner"] == "East-West" and out["won_at"] == {"hand": 10, "turn": 14}
    assert out["hands"][-1]["end"] == "open"  # sudden death: won at a turn, the hand not played out
    last = hand_rows(out)[-1]
    assert last.title == "Hand 10 · East-West won the match"
    assert last.cells[1].label == "East-West at the end of the match (hand 10): 11 (+1 in play)"
    assert not any("so far" in c.label for c in last.cells)
    (*_, block) = history_blocks(out)  # History shows Broadway's --text table
    assert "  East-West won the match during this hand" in block.splitlines() and "hand open" not in block


def test_all_fours_the_hand_a_match_was_won_in_is_scored_not_playing():
    """All Fours ends the hand where the match is won (its counting stops there): it already said so."""
    hands = [
        {"dealer": d, "turn_up": ["J"], "high": "Ann", "low": "Ann", "game": {"Ann": 30, "Ben": 10}}
        for d in ("Ann", "Ben", "Ann")
    ]
    out = scored({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"], "hands": hands})
    assert out["winner"] == "Ann" and out["scores"] == {"Ann": 14, "Ben": 3}
    last = hand_rows(out)[-1]
    assert last.title == "Hand 3 · scored" and not any("so far" in c.label for c in last.cells)
    (block,) = history_blocks(out)
    assert "hand open" not in block and block.rstrip().endswith("Winner: Ann")


def test_an_open_hand_of_a_match_not_won_is_still_playing():
    out = scored(dict(won_mid_hand(), rules={"hand_size": 5, "target": 100}))
    assert out["winner"] is None
    (row,) = hand_rows(out)
    assert row.title == "Hand 1 · playing" and row.cells[0].label.startswith("Ann & Cy after hand 1 so far: ")
    assert history_blocks(out)[0].startswith("Hand 1 (open), Ann led")
    assert "\n  hand open\n" in registry.get("all-fives").render(out)


# ------------------------------------------------------------------ knocks, passes, busts
def test_a_knock_and_a_bust_read_in_history_as_the_table_said_them(shared):
    table = new_table(shared, preset="fives-threes", rules={"hand_size": "2", "target": "4"})
    play(table, "3-3")  # 6: 2
    table.play.pass_()
    assert table.note == "Ben knocked"
    play(table, "3-0", "3-3")  # 6: 2 + go 1 = 3 would make 5
    bust = "bust: 3 would pass 4, nothing scored"
    assert bust in table.note and table.flash is None  # the hand is over: no banner
    block = history_blocks(HistoryModel(shared).summary(table.mid))[0]
    assert block.splitlines() == [
        "Hand 1 (domino), Ann led",
        "  Ann: 3-3 (count 6) -> 2",
        "  Ben knocks",
        f"  Ann: 3-0 on 3-3 (count 6), {bust}",
    ]


def test_the_down_that_may_not_win_reads_in_history_as_the_table_said_it(shared):
    table = new_table(shared, preset="teesdale", rules={"target": "4"})
    play(table, "6-6")
    assert table.note == "Ann set 6-6: 12 = 4, the down may not win: 4 not scored"
    block = history_blocks(HistoryModel(shared).summary(table.mid))[0]
    assert block.splitlines()[1] == "  Ann: 6-6 (count 12), the down may not win: 4 not scored"


def test_a_pass_where_there_is_drawing_is_a_pass_with_its_draws():
    turns = [{"play": "6-6"}, {"draw": 2, "pass": True}, {"play": "6-5"}, {"pass": True}]
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": {"hand_size": 13},  # 2 tiles to draw
        "hands": [{"leader": "Ann", "turns": turns}],
    }
    assert history_blocks(scored(rec))[0].splitlines()[1:] == [
        "  Ann: 6-6 (count 12)",
        "  Ben: +2, passes",
        "  Ann: 6-5 on 6-6 (count 17)",
        "  Ben passes",
    ]


PUB = {
    "count": "fives-and-threes",
    "spinner": "none",
    "draw": False,
    "hand_end": "go",
    "domino": "side",
    "next_leader": "left",
    "exact_target": True,
}


@pytest.mark.parametrize("win_on_lead", [True, False], ids=["pub", "no-win-on-the-down"])
@pytest.mark.parametrize("claims", ["check", "muggins"])
def test_every_voided_play_says_bust_exactly_when_it_would_pass_the_target(win_on_lead, claims):
    """Partners, so a player's side is not their name; the engine's scores before the play decide."""
    seen = set()
    for seed in range(12):
        rec = fives_record(
            seed, 4, teams=True, target=25, win_on_lead=win_on_lead, claims=claims, claim_rate=0.5, **PUB
        )
        out = scored(rec)
        for hi, (h, block) in enumerate(zip(out["hands"], history_blocks(out), strict=True)):
            lines = block.splitlines()[1:]
            for ti, t in enumerate(h["turns"]):
                if not t.get("voided"):
                    continue
                before = copy.deepcopy(rec)
                before["hands"] = before["hands"][: hi + 1]
                before["hands"][hi]["turns"] = before["hands"][hi]["turns"][:ti]
                before["hands"][hi].pop("remaining", None)
                m = load(before)
                side = m.setup.side_of[m.setup.players.index(t["player"])]
                value = m.rules.worth(t["count"])
                if claims == "muggins":  # only what was claimed scores
                    claim = t.get("claim") or 0
                    value = claim if claim <= value else 0
                would = value + t.get("go", 0)
                bust = m.scores[side] + would > m.rules.target
                expected = (
                    f"bust: {would} would pass {m.rules.target}, nothing scored"
                    if bust
                    else f"the down may not win: {would} not scored"
                )
                assert lines[ti].endswith(f"(count {t['count']}), {expected}"), (seed, lines[ti])
                seen.add("bust" if bust else "down")
    assert seen == ({"bust", "down"} if not win_on_lead else {"bust"})


def test_history_names_a_fives_and_threes_match_fives_and_threes(shared):
    """History's list (and its "already stored" question) call an untitled match what the
    table called it, as ``list`` and the CSV do (a match made in the app has its preset's
    title already)."""
    made = new_table(shared, preset="fives-threes")
    record = shared.store.record(made.mid)
    assert record["title"] == "Fives and Threes (pub)"
    del record["title"]
    record["players"] = ["Cy", "Di"]
    record["hands"] = []
    history = HistoryModel(shared)
    untitled = history.import_file("untitled.json", json.dumps(record).encode())
    assert untitled, history.error
    history.load()
    titles = {m["id"]: m["title"] for m in history.items}
    assert titles == {made.mid: "Fives and Threes (pub)", untitled: "Fives and Threes"}
    history.import_file("again.json", json.dumps(record).encode())
    assert history.question is not None and "(Fives and Threes: Cy · Di," in history.question
