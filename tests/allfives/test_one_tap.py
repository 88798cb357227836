"""A turn in one tap and a hand end that asks only for the tiles that score (issue 48):
the engine's counted holders, the picker's split cells, the draws' counts, the hand-end
form of a domino in partnerships."""

from __future__ import annotations

from allfives.test_ui_model import new_table
from scorekeeper.allfives.engine import Match
from scorekeeper.allfives.events import Settle
from scorekeeper.allfives.record import parse_record
from scorekeeper.allfives.simulate import random_record
from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.table import TableModel

#: A seeded four-player hand in partnerships that P4 dominoes while P2, P4's partner, still
#: holds two tiles (2-2 5-5): P1 holds 6-5, P3 four tiles, and two tiles stay in the boneyard.
DOMINO_SEED = 1


def domino_record() -> dict:
    return random_record(DOMINO_SEED, players=4, teams=True, max_hands=1)


def domino_match() -> Match:
    setup, events = parse_record(domino_record())
    m = Match(setup)
    for ev in events:
        if isinstance(ev, Settle):
            break
        m.push(ev)
    return m


def test_the_engine_names_the_holders_whose_tiles_count_after_a_domino():
    m = domino_match()
    h = m.hand
    assert h is not None and h.end == "domino" and m.setup.players[h.domino_player] == "P4"
    assert h.held == [1, 2, 4, 0]
    assert m.counted_holders() == ["P1", "P3"]  # P2, P4's partner, holds tiles that change nothing
    settled = m.push(Settle((("P1", 11), ("P3", 27))))  # P2 left out: accepted
    assert settled.pips == [11, 0, 27, 0] and settled.settlement == [0, 40]  # 38 -> 40 to P2 & P4
    assert m.counted_holders() == []  # settled: nothing more to ask


def test_a_counted_holder_left_out_is_still_refused():
    m = domino_match()
    try:
        m.push(Settle((("P1", 11),)))
    except Exception as e:
        assert "P3 still holds 4 tiles" in str(e)
    else:
        raise AssertionError("P3 left out was accepted")


def test_after_a_block_every_holder_counts():
    setup, events = parse_record(random_record(4, players=4, teams=True, max_hands=1))  # a blocked hand
    m = Match(setup)
    for ev in events:
        if isinstance(ev, Settle):
            break
        m.push(ev)
    h = m.hand
    assert h is not None and h.end == "blocked"
    assert m.counted_holders() == [n for n, held in zip(setup.players, h.held, strict=True) if held]


def domino_table(shared) -> TableModel:
    rec = domino_record()
    t = new_table(shared, names=rec["players"], leader=rec["hands"][0]["leader"], partners=True)
    for entry in rec["hands"][0]["turns"]:
        assert t.submit_turn(entry), t.error
    assert t.phase == "hand-end"
    return t


def test_the_hand_end_asks_only_for_the_other_side_and_settle_is_on_once_they_are_in(shared):
    t = domino_table(shared)
    end = t.hand_end
    assert [n for n, _ in end.asked()] == ["P1", "P3"] and end.not_asked() == ["P2"]
    assert end.waiting() == ["P1", "P3"]
    assert end.picking_for == "P1"  # the picker is ready: P1's one tile is one tap
    end.pick_remaining("6-5")
    assert end.waiting() == ["P3"] and end.picking_for == "P3"
    end.set_pips("P3", "27")  # four tiles: their pips in one field
    lines, problem = end.settlement_preview()
    assert problem is None and lines == ["P4 dominoed (P2 & P4): the others hold 38 -> 40."]
    before = t.scores
    end.settle()
    assert t.error is None and t.scores == {**before, "P2 & P4": before["P2 & P4"] + 40}
    assert shared.store.record(t.mid)["hands"][0]["remaining"] == {"P1": ["6-5"], "P3": 27}


def test_no_flash_stays_up_into_the_hand_end(shared):
    t = domino_table(shared)
    assert t.note is not None and "P4 dominoed" in t.note
    assert t.flash is None


# ------------------------------------------------------------------ a turn in one tap
def two_place_table(shared) -> TableModel:
    """Ann leads 5-5 (the spinner), Ben 5-3, Ann 5-1: 3-1 fits both 5-3 and 5-1."""
    t = new_table(shared)
    t.play.tap("5-5")
    t.play.tap("5-3")
    t.play.tap("5-1")
    assert t.error is None
    return t


def test_a_tile_that_fits_two_places_shows_one_target_a_place_its_higher_half_first(shared):
    t = two_place_table(shared)
    split = {str(c.tile): c.places for c in t.play.picker() if c.places}
    assert list(split) == ["3-1"]
    assert [(str(c.on), c.points) for c in split["3-1"]] == [("5-3", 0), ("5-1", 0)]
    t.play.place("3-1", "5-1")  # one tap: the target of the place
    assert t.error is None and t.note == "Ben set 3-1: count 6"
    assert t.play.choosing is None


def test_a_place_tapped_for_another_players_turn_asks_once_and_keeps_the_place(shared):
    t = two_place_table(shared)
    t.take_seat("Ann")  # this phone is Ann's; Ben is to play
    assert t.seat == "Ann"
    t.play.place("3-1", "5-3")
    assert t.play.asking is not None and t.play.asking.on == Tile(5, 3)
    t.play.confirm_other()
    assert t.error is None and t.note == "Ben set 3-1: count 2"


def test_draws_are_one_tap_for_any_count_and_the_same_count_again_puts_them_back(shared):
    t = new_table(shared)
    t.play.tap("5-5")
    most = t.play.draw_counts
    assert most == t.boneyard > 3
    t.play.drew(5)
    assert t.play.draws == 5 and t.boneyard == most - 5
    t.play.drew(2)  # the count corrected: 2 in all, not 7
    assert t.play.draws == 2 and t.play.draw_counts == most
    t.play.drew(2)  # the same count again: put back
    assert t.play.draws == 0
    t.play.drew(most + 1)
    assert t.error is not None and "cannot draw" in t.error and t.play.draws == 0
