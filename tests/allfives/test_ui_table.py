"""The All Fives table's view-models (issue 15: a table screen that beats paper):
draws shown at once, the banner gone once the next player acts, a picker whose
tiles keep their places, the places a tile may go with what each scores, the hand
end without an error before anything is entered, the wording, and corrections of
any entry by picking it and entering it again."""

from __future__ import annotations

import random
import sys

import pytest

from scorekeeper.allfives.record import load
from scorekeeper.allfives.simulate import random_record
from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.hand_end import settlement_lines
from scorekeeper.ui.allfives.table import PlayerRow, TableModel

WORKED = [("3-2", None), ("2-2", None), ("4-2", "2-2"), ("2-0", "2-2"), ("6-3", None), ("5-2", None)]


def table(shared, names=("Ann", "Ben"), leader="Ann", rules=None, partners=False) -> TableModel:
    form = NewMatchForm(shared, names=list(names))
    for k, v in (rules or {}).items():
        form.set_rule(k, v)
    form.set_partners(partners)
    form.set_leader(leader)
    mid = form.start()
    assert mid, form.error
    return TableModel(shared, mid)


def play(t: TableModel, tile: str, on: str | None = None) -> None:
    t.play.tap(tile)
    if t.play.choosing:
        assert on is not None
        t.play.choose(on)
    assert t.error is None, t.error


# ------------------------------------------------------------ draws, banner
def test_draws_show_at_once_in_the_boneyard_and_the_players_tiles(shared):
    t = table(shared)
    play(t, "3-2")
    assert t.boneyard == 10 and t.player_rows[1].held == 9
    t.play.draw(3)
    assert t.boneyard == 7 and t.player_rows[1].held == 12  # before the tile is entered
    t.undo()  # takes back the draws not yet entered, and only them
    assert t.boneyard == 10 and t.player_rows[1].held == 9 and t.play.draws == 0
    assert len(t.match.hand.turns) == 1


def test_the_last_plays_banner_goes_once_the_next_player_acts(shared):
    t = table(shared)
    play(t, "5-5")
    assert t.flash == "10!"
    t.play.draw(1)  # Ben acts
    assert t.flash is None and t.note == "Ann set 5-5: count 10, Ann +10"
    play(t, "5-0")
    assert t.flash == "10!"
    t.play.tap("6-6")  # Ann taps a tile that does not fit: still her action
    assert t.flash is None and t.error is not None


# ------------------------------------------------------------ the picker
def test_the_picker_keeps_every_tile_in_its_place_over_a_whole_hand(shared):
    rec = random_record(4, 2, max_hands=1)
    t = table(shared, leader=rec["hands"][0]["leader"])
    order = [c.tile for c in t.play.picker()]
    assert len(order) == 28 and len(set(order)) == 28
    for turn in rec["hands"][0]["turns"]:
        if turn.get("draw"):
            t.play.draw(turn["draw"])
        if turn.get("pass"):
            t.play.pass_()
        else:
            play(t, turn["play"], turn.get("on"))
        cells = t.play.picker()
        assert [c.tile for c in cells] == order
        down = set(t.match.hand.layout.nodes)
        assert {c.tile for c in cells if c.state == "down"} == down
        if t.phase == "play":
            fits = {c.tile for c in cells if c.state == "fits"}
            assert fits == {x for x in t.match.tiles if t.match.placements(x) and x not in down}


def test_a_tile_that_fits_several_places_shows_what_each_scores(shared):
    t = table(shared)
    for tile in ["3-2", "2-2", "6-3"]:
        play(t, tile)
    t.play.tap("6-2")
    assert t.play.choosing == (Tile(6, 2), [Tile(2, 2), Tile(6, 3)])  # Tiles, from the tap to the entry
    choices = {str(c.on): (c.count, c.points, c.label) for c in t.play.end_choices()}
    # on the 6 of 6-3: 2 + 2-2 (4) = 6; on the spinner 2-2: 6 + 6 (the other side still open) = 12
    assert choices == {"6-3": (6, 0, "on 6-3"), "2-2": (12, 0, "on 2-2")}
    t.play.tap("6-2")  # the same tile again: put back
    assert t.play.choosing is None and t.error is None
    t.play.tap("6-2")
    t.play.choose("2-2")
    assert t.last_turn().count == 12


def test_a_tapped_tile_stays_a_tile_from_the_picker_to_the_store(shared, monkeypatch):
    """The picker's cell, the tap, the places and the end chosen hold the Tile itself: the
    turn's entry is written once, and only the store reads its text back into tiles."""
    t = table(shared)
    for tile in ["3-2", "2-2", "6-3"]:
        play(t, tile)
    read_by: list[str] = []
    parse = Tile.parse.__func__

    def spy(cls, text, highest=12):
        read_by.append(sys._getframe(1).f_globals["__name__"])
        return parse(cls, text, highest)

    monkeypatch.setattr(Tile, "parse", classmethod(spy))
    cell = next(c for c in t.play.picker() if c.tile == Tile(6, 2))
    assert cell.state == "fits" and isinstance(cell.tile, Tile)
    t.play.tap(cell.tile)  # fits two places: the drawing asks where
    choice = next(c for c in t.play.end_choices() if c.on == Tile(2, 2))
    t.play.choose(choice.on)
    assert t.error is None and t.last_turn().tile is Tile(6, 2) and t.last_turn().on is Tile(2, 2)
    assert shared.store.record(t.mid)["hands"][0]["turns"][-1] == {"play": "6-2", "on": "2-2"}
    assert read_by and [m for m in read_by if m.startswith("scorekeeper.ui")] == []


# ------------------------------------------------------------ the hand end
def test_domino_by_a_partner_is_named_by_the_player_who_did_it(shared):
    t = table(shared, names=("Ann", "Ben", "Cy", "Di"), partners=True, rules={"hand_size": "1"})
    play(t, "3-2")  # Ann leads her only tile: domino
    assert t.phase == "hand-end"
    t.hand_end.set_pips("Ben", "4")
    t.hand_end.set_pips("Cy", "0")
    t.hand_end.set_pips("Di", "3")
    lines, problem = t.hand_end.settlement_preview()
    assert problem is None and lines == ["Ann dominoed (Ann & Cy): the others hold 7 -> 5."]


def test_rounding_at_scale_5_shows_the_multiple_of_five():
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": {"scale": 5, "hand_size": 2},
        "hands": [
            {"leader": "Ann", "turns": [{"play": "6-6"}, {"play": "6-1"}, {"play": "6-5"}], "remaining": {"Ben": 8}}
        ],
    }
    m = load(rec)
    assert settlement_lines(m, m.hand) == ["Ann dominoed: the others hold 8 -> 10 -> 2 (scale 5: divided by 5)."]


def test_one_tile_is_one_tile_and_partners_win_in_the_plural(shared):
    assert PlayerRow("Ben", "Ben", 1, True).label == "Ben holds 1 tile, to play"
    assert PlayerRow("Ben", "Ben", 1, True).text == "Ben · 1 tile · to play"
    assert PlayerRow("Ann", "Ann", 2, False).label == "Ann holds 2 tiles"
    t = table(shared, names=("Ann", "Ben", "Cy", "Di"), partners=True, rules={"target": "5"})
    play(t, "5-0")
    assert t.winner_line() == "Ann & Cy win the match!"
    t2 = table(shared, rules={"target": "5"})
    play(t2, "5-0")
    assert t2.winner_line() == "Ann wins the match!"


def test_settling_after_a_domino_shows_the_settlement_and_who_leads_next(shared):
    t = table(shared, rules={"hand_size": "1"})
    play(t, "6-6")  # Ann sets her only tile: domino
    t.hand_end.set_pips("Ben", "3")
    t.hand_end.settle()
    assert t.phase == "play" and t.hand_number == 2 and t.to_move == "Ann"
    assert t.note == "Hand 1: Ann dominoed: the others hold 3 -> 5. Ann leads hand 2."
    t.undo()  # the settlement and the hand the app started go together
    assert t.phase == "hand-end" and t.hand_number == 1


def _blocked_first_hand() -> dict:
    """A seeded record whose first hand ended blocked, cut after that hand's settlement."""
    for seed in range(200):
        rec = random_record(seed, 2, max_hands=2, hand_size=5, boneyard_reserve=2)
        if "remaining" in rec["hands"][0] and load({**rec, "hands": rec["hands"][:1]}).hand.end == "blocked":
            return {**rec, "hands": rec["hands"][:1]}
    raise AssertionError("no blocked hand in 200 seeds")


def test_lots_drawn_for_the_next_leader_say_who_won_them(shared):
    rec = _blocked_first_hand()
    t = TableModel(shared, shared.store.import_record(rec))
    assert t.phase == "leader"
    t.hand_end.start_hand(None, random.Random(3))
    leader = shared.store.record(t.mid)["hands"][1]["leader"]
    assert t.note == f"hand 2: lots drawn: {leader} leads" and t.to_move == leader


# ------------------------------------------------------------ corrections
def test_correcting_a_turn_in_the_middle_of_the_hand_by_taps(shared):
    t = table(shared)
    for tile, on in WORKED:
        play(t, tile, on)
    assert t.scores == {"Ann": 15, "Ben": 15}
    t.fixes.open()
    assert t.fixes.listing and [r.label for r in t.fixes.entries()][:3] == [
        "Correct hand 1 leader",
        "Correct hand 1 turn 1",
        "Correct hand 1 turn 2",
    ]
    t.fixes.pick(1, 3)  # Ann's 4-2 on 2-2
    assert t.fixes.active and t.to_move == "Ann" and t.fixes.was() == "Ann: 4-2 on 2-2"
    assert {str(n) for n in t.entry_match.hand.layout.nodes} == {"3-2", "2-2"}  # the table before turn 3
    assert t.scores == {"Ann": 15, "Ben": 15}  # the live scores meanwhile
    t.play.tap("4-2")  # fits the spinner 2-2 only
    assert t.fixes.draft == {"play": "4-2", "on": "2-2"} and t.fixes.preview.startswith("hand 1, turn 3")
    t.fixes.again()
    t.play.draw(2)
    assert t.boneyard == 8
    t.play.tap("4-1")  # fits nothing: the engine says so, in place
    assert t.error.startswith("hand 1, turn 3: 4-1 matches no open end") and t.fixes.draft is None
    t.play.tap("2-1")  # on the spinner's open side: both its sides covered, 3 + 1 = 4
    assert t.fixes.draft == {"draw": 2, "play": "2-1", "on": "2-2"}
    # then 2-0, 6-3 and 5-2 still fit and Ben's 15 goes: 3 + 1 + ... recounted from the record
    assert t.fixes.preview.startswith("hand 1, turn 3: Ann +2 2-1 on 2-2, count 4 (was 7); Ann +0; scores now ")
    t.fixes.save()
    assert t.error is None and not t.fixes.listing and not t.fixes.active
    assert shared.store.record(t.mid)["hands"][0]["turns"][2] == {"draw": 2, "play": "2-1", "on": "2-2"}
    assert t.note.startswith("corrected: hand 1, turn 3")


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_it(shared):
    t = table(shared)
    for tile, on in WORKED:
        play(t, tile, on)
    t.fixes.open()
    t.fixes.pick(1, 2)  # Ben's 2-2: without it, Ann's 4-2 on 2-2 cannot be played
    t.play.tap("2-1")
    assert t.fixes.draft is None and t.error.startswith("hand 1, turn 3: ")
    before = shared.store.record(t.mid)
    t.fixes.close()
    assert shared.store.record(t.mid) == before and t.error is None


def test_correcting_an_earlier_hand_a_leader_and_a_hand_end(shared):
    t = table(shared, rules={"hand_size": "2"})
    play(t, "3-2")
    play(t, "2-2")
    play(t, "2-4", "2-2")  # Ann dominoes
    t.hand_end.set_pips("Ben", "7")
    t.hand_end.settle()
    assert t.hand_number == 2 and t.scores == {"Ann": 10, "Ben": 0}  # 5 + settlement 7 -> 5
    play(t, "5-5")
    t.fixes.open()
    t.fixes.pick(1, "remaining")
    assert t.fixes.holders() == [("Ben", 1)] and t.fixes.pips == {"Ben": "7"}
    t.fixes.set_pips("Ben", "12")
    t.fixes.propose_remaining()
    assert t.fixes.preview.endswith("scores now Ann 25, Ben 0 (were 20, 0)")
    t.fixes.save()
    assert t.scores == {"Ann": 25, "Ben": 0}
    t.fixes.open()
    t.fixes.pick(1, 1)  # the lead of hand 1
    t.play.tap("5-0")
    assert t.fixes.draft is None and t.error.startswith("hand 1, turn 2:")  # 2-2 no longer fits
    t.fixes.pick(2, "leader")
    t.fixes.set_leader("Ben")
    assert t.error.startswith("hand 2, leader: Ann dominoed hand 1 and leads, not Ben")
    t.fixes.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_correcting_a_turn_to_what_it_was_changes_nothing(shared, seed):
    rec = random_record(seed, 2, max_hands=2)
    mid = shared.store.import_record(rec)
    t = TableModel(shared, mid)
    m = t.match
    h = m.hands[0]
    for n, turn in enumerate(rec["hands"][0]["turns"], 1):
        if turn.get("pass"):
            continue
        t.fixes.open()
        t.fixes.pick(1, n)
        if turn.get("draw"):
            t.play.draw(turn["draw"])
        places = t.entry_match.placements(
            __import__("scorekeeper.dominoes", fromlist=["Tile"]).Tile.parse(turn["play"])
        )
        t.play.tap(turn["play"])
        if len(places) > 1:
            t.play.choose(turn["on"])
        assert t.fixes.preview is not None and t.fixes.preview.endswith("scores unchanged"), (n, t.error)
        t.fixes.close()
    assert h.turns == t.match.hands[0].turns


def test_with_the_boneyard_empty_the_last_players_pips_follow_from_the_others(shared):
    """Every tile not down is in someone's hand: the last player's pips need no entry."""
    t = table(shared, names=("Ann", "Ben", "Cy", "Di"), leader="Ann", rules={"hand_size": "7"})
    for tile in ["6-6", "6-5", "5-5", "5-4"]:  # then all four pass: blocked (4 x 7 = 28, no boneyard)
        play(t, tile)
    for _ in range(4):
        t.play.pass_()
    assert t.phase == "hand-end" and t.boneyard == 0
    left = sum(x.pips for x in t.match.tiles if x not in t.match.hand.layout.nodes)  # 168 - 42
    assert left == 126
    t.hand_end.set_pips("Ann", "30")
    t.hand_end.set_pips("Ben", "40")
    assert t.hand_end.implied() is None and t.hand_end.waiting() == ["Cy", "Di"]
    t.hand_end.set_pips("Cy", "20")
    assert t.hand_end.implied() == ("Di", 36) and t.hand_end.waiting() == []
    lines, problem = t.hand_end.settlement_preview()
    assert problem is None and lines == ["Cy won the block: the others hold 106 -> 105."]  # Cy holds fewest
    t.hand_end.settle()
    assert shared.store.record(t.mid)["hands"][0]["remaining"] == {"Ann": 30, "Ben": 40, "Cy": 20, "Di": 36}


# ------------------------------------------------------------ new match
def test_every_rule_option_and_value_has_plain_words(shared):
    from scorekeeper.allfives.rules import RULE_KEYS
    from scorekeeper.ui.allfives.form import RULE_CHOICES, RULE_WORDS

    assert set(RULE_WORDS) == set(RULE_KEYS)
    for key, choices in RULE_CHOICES.items():
        words = RULE_WORDS[key]
        assert words.line and set(words.values) == set(choices), key
        for value in choices:  # no engine key shown as it is ("first-double", "winner-takes", false)
            assert words.values[value] not in (str(value), str(value).lower()), (key, value)


def test_four_players_play_in_partnerships_unless_switched_off(shared):
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    assert not form.partners
    form.set_count(4)
    assert form.partners and form.teams() == {
        "Ann & Player 3": ["Ann", "Player 3"],
        "Ben & Player 4": ["Ben", "Player 4"],
    }
    form.set_partners(False)
    assert form.teams() is None
    form.set_count(3)
    form.set_count(4)
    assert form.partners


def test_lots_drawn_for_the_first_leader_are_announced_on_the_table(shared):
    form = NewMatchForm(shared, names=["Ann", "Ben", "Cy"])
    assert form.leader is None  # "Draw lots"
    mid = form.start(random.Random(2))
    leader = shared.store.record(mid)["hands"][0]["leader"]
    t = TableModel(shared, mid)
    assert t.note == f"lots drawn: {leader} leads" and t.to_move == leader
    other = TableModel(shared, mid)  # another phone opening it: told too (issue 27)
    assert other.note == f"lots drawn: {leader} leads"
    t.play.tap(next(c.tile for c in t.play.picker() if c.state == "fits"))
    assert TableModel(shared, mid).note is None  # until the first entry


def test_the_corrections_list_offers_every_entry_of_the_match(shared):
    rec = random_record(3, 2, max_hands=3)
    t = TableModel(shared, shared.store.import_record(rec))
    rows = t.fixes.entries()
    turns = sum(len(h["turns"]) for h in rec["hands"])
    ends = sum(1 for h in rec["hands"] if "remaining" in h)
    assert turns > 12 and len(rows) == len(rec["hands"]) + turns + ends
