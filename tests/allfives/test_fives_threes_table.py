"""Fives and Threes at the table (issue 18, the app): the presets, the go on the last play
("9 = 3, go 1"), a bust, players who are out, the leader the rules name, and the cribbage
board as the score display. View-models only; the browser test plays the same in Chromium.
"""

from __future__ import annotations

import pytest

from scorekeeper.allfives.record import load
from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.form import PRESETS, NewMatchForm

from .test_fives_and_threes import WORKED
from .test_ui_model import new_table, play

FOUR = ("Ann", "Ben", "Cy", "Di")


@pytest.mark.parametrize(
    ("preset", "players", "size"),
    [
        ("fives-threes", 2, 7),
        ("fives-threes", 3, 5),
        ("fives-threes", 4, 5),
        ("teesdale", 2, 9),
        ("teesdale", 4, 6),
        ("sniff", 2, 7),
        ("sniff", 3, 6),
        ("sniff", 4, 5),
    ],
)
def test_the_presets_deal_their_own_hands(shared, preset, players, size):
    form = NewMatchForm(shared, names=list(FOUR[:players]))
    form.set_preset(preset)
    assert form.rules().hand_size == size == PRESETS[preset].hand_sizes[players]
    form.set_count(2)  # the preset's hands follow the number of players
    assert form.rules().hand_size == PRESETS[preset].hand_sizes[2]


def test_the_pub_preset_is_the_pub_game_and_says_so(shared):
    form = NewMatchForm(shared, names=list(FOUR))
    form.set_preset("fives-threes")
    r = form.rules()
    assert (r.count, r.spinner, r.draw, r.hand_end, r.domino, r.next_leader) == (
        "fives-and-threes",
        "none",
        False,
        "go",
        "side",
        "left",
    )
    assert (r.target, r.exact_target, r.win_on_lead) == (61, True, True)
    assert form.partners and form.teams() == {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    line = form.preset_line()
    for words in (
        "fives and threes",
        "no spinner",
        "Drawing: none, knock instead",
        "1 for the go",
        "partners play on",
        "to the left",
    ):
        assert words in line, line
    assert line.endswith("5 tiles each · to 61 exactly")
    form.set_preset("teesdale")
    r = form.rules()
    assert (r.hand_end, r.win_on_lead, r.hand_size) == ("none", False, 6)
    assert "nothing at the end" in form.preset_line() and "Win on the down: no" in form.preset_line()


def pub_table(shared, names=("Ann", "Ben"), partners=False, **rules):
    return new_table(shared, names=names, preset="fives-threes", partners=partners, rules=rules)


def test_the_worked_example_at_the_table(shared):
    table = pub_table(shared)
    for tile, on, _, _ in WORKED[:-1]:
        play(table, tile, on)
    assert table.note == "Ben set 5-0: 6 = 2, Ben +2" and table.flash == "2!"
    play(table, "0-3", "5-0")
    assert table.note == "Ann set 3-0: 9 = 3, go 1, Ann +4, Ann went out: the hand is over"
    assert table.flash is None  # the hand is over: no banner (the note says the points)
    assert table.scores == {"Ann": 18, "Ben": 14}
    # nobody counts pips: the hand is over and the rules name the next leader
    assert table.phase == "leader" and table.hand_end.rule_leader() == "Ben"
    table.hand_end.start_hand("Ben")
    assert table.error is None and table.phase == "play" and table.to_move == "Ben"
    # undo takes back the start of the hand alone, not Ann's last tile
    table.undo()
    assert table.phase == "leader" and table.scores == {"Ann": 18, "Ben": 14}


def test_a_knock_and_a_blocked_hand_in_words(shared):
    table = pub_table(shared, hand_size="2")
    play(table, "6-6")
    table.play.pass_()
    assert table.note == "Ben knocked"
    table.play.pass_()
    assert table.note == "Ann knocked: the hand is blocked, nothing scored"
    assert table.phase == "leader" and table.hand_end.rule_leader() == "Ben"  # the lead passes left


def test_a_bust_says_so_and_scores_nothing(shared):
    table = pub_table(shared, hand_size="2", target="4")
    play(table, "3-3")  # 6: 2
    table.play.pass_()
    play(table, "3-0", "3-3")  # 6: 2 + go 1 = 3 would make 5
    assert table.flash is None  # the hand is over: the note says the bust
    assert (
        table.note == "Ann set 3-0: 6 = 2, go 1, bust: 3 would pass 4, nothing scored, Ann went out: the hand is over"
    )
    assert table.scores == {"Ann": 2, "Ben": 0}


def test_the_down_that_would_win_is_lost(shared):
    table = new_table(shared, preset="teesdale", rules={"target": "4"})
    play(table, "6-6")
    assert table.scores == {"Ann": 0, "Ben": 0} and table.flash is None
    assert table.note == "Ann set 6-6: 12 = 4, the down may not win: 4 not scored"


def test_a_partner_out_first_is_shown_out_and_skipped(shared):
    table = pub_table(shared, names=FOUR, partners=True, hand_size="2")
    for tile, on in (("6-6", None), ("6-5", "6-6"), ("6-4", "6-6"), ("5-5", "6-5"), ("4-4", "6-4")):
        play(table, tile, on)
    assert table.note == "Ann set 4-4: 18 = 6, Ann & Cy +6, Ann is out; partners play on"
    rows = {p.name: p for p in table.player_rows}
    assert rows["Ann"].out and rows["Ann"].text == "Ann · out" and rows["Ann"].label == "Ann is out"
    assert not rows["Cy"].out and rows["Ben"].to_move
    table.play.pass_()  # Ben
    table.play.pass_()  # Cy
    play(table, "5-3", "5-5")  # Di is out too; Ben still holds a tile
    assert table.to_move == "Ben"  # Ann is passed over
    play(table, "4-1", "4-4")
    assert table.note.endswith("go 1, Ben & Di +1, Ben went out: the hand is over")
    assert table.phase == "leader" and table.hand_end.rule_leader() == "Ben"  # left of Ann
    assert not any(p.out for p in table.player_rows)  # out is shown while the hand goes on


def test_the_board_is_the_score_display_with_front_and_back_pegs(shared):
    table = pub_table(shared)
    for tile, on, _, _ in WORKED:
        play(table, tile, on)
    board = table.board()
    assert board is not None and board.target == 61 and board.holes == 61
    (ann, ann_pegs), (ben, ben_pegs) = board.sides
    assert (ann, ben) == ("Ann  18", "Ben  14")
    assert (ann_pegs.front, ann_pegs.back) == (18, 14)  # the go came with the last play: one move
    assert (ben_pegs.front, ben_pegs.back) == (14, 12)
    assert new_table(shared).board() is None  # All Fives keeps its chips


def test_a_pub_match_is_stored_as_its_record(shared):
    table = pub_table(shared)
    for tile, on, _, _ in WORKED:
        play(table, tile, on)
    table.hand_end.start_hand("Ben")
    rec = shared.store.record(table.mid)
    assert rec["rules"]["hand_end"] == "go" and "remaining" not in rec["hands"][0]
    assert load(rec).scores == [18, 14]


# ------------------------------------------------------------------ the sniff
def test_the_sniff_asks_across_or_in_line_with_what_each_counts(shared):
    table = new_table(shared, preset="sniff")
    play(table, "1-4")
    table.play.tap("4-4")
    assert (
        table.play.sniffing == (Tile(4, 4), Tile(4, 1)) and table.match.hand.layout.sniff is None
    )  # nothing entered yet
    choices = table.play.sniff_choices()
    assert [(c.way, c.count, c.points, c.label) for c in choices] == [
        ("across", 9, 0, "Across: count 9"),
        ("inline", 5, 5, "In line: count 5, +5"),
    ]
    table.play.set_sniff("inline")
    assert table.error is None and table.play.sniffing is None
    assert table.match.hand.layout.sniff[1] == "inline" and table.scores == {"Ann": 5, "Ben": 5}
    assert shared.store.record(table.mid)["hands"][0]["turns"][1] == {"play": "4-4", "on": "4-1", "sniff": "inline"}
    play(table, "4-5", "4-4")  # on its open in-line end: 1 + 5
    assert table.match.hand.count == 6
    table.play.tap("5-5")  # a later double is ordinary: nothing to ask
    assert table.play.sniffing is None


def test_the_sniff_led_and_put_back(shared):
    table = new_table(shared, preset="sniff")
    table.play.tap("3-3")
    assert table.play.sniffing == (Tile(3, 3), None)
    assert [c.count for c in table.play.sniff_choices()] == [6, 6]
    table.play.tap("3-3")  # tapped again: put back
    assert table.play.sniffing is None and not table.match.hand.turns
    table.play.tap("3-3")
    table.play.set_sniff("across")
    assert table.match.hand.layout.sniff[1] == "across"
    assert table.match.hand.turns[0].sniff == "across"
