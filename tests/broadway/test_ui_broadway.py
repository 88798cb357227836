"""The Broadway view-models (``scorekeeper.ui.broadway.form`` and
``scorekeeper.ui.broadway.table``), without any Flet: the new-match form (seats,
rules, the leader of hand 1), the table (three taps to set a tile, the preview
and its errors, the grid, passes and exposed tiles, a blocked hand and its
unplayed tiles, undo / redo) and a property that plays random legal matches
through the view-model only.  ``shared`` is the root ``tests/conftest.py``'s."""

from __future__ import annotations

import random
import shutil
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.broadway.grid import Placement, adjacent
from scorekeeper.broadway.record import load, result, score_record
from scorekeeper.errors import RemainingError
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.broadway.table import ALL_TILES, BroadwayTableModel
from scorekeeper.ui.server.shared import open_shared

#: Seat order North, East, South, West: North-South = Ann & Cy, East-West = Ben & Di.
NAMES = ["Ann", "Ben", "Cy", "Di"]
SIDES = ("North-South", "East-West")
SIDE_OF = {"Ann": "North-South", "Ben": "East-West", "Cy": "North-South", "Di": "East-West"}
ZERO = {"North-South": 0, "East-West": 0}

#: A layout built with ``orientation: "free"`` (Ann leads: Ann, Ben, Cy, Di, Ann set
#: these) around the hole (1, 1)-(2, 1).  6-1 with its 6 on (1, 1) and its 1 on
#: (2, 1) then matches (1, 0) [the double], (0, 1) [6-4], (1, 2) [6-2, which needs
#: 6-3 first] and (2, 2) [2-1]:
#:
#:        3 2-2        y = 3
#:        | | |
#:      4-6 6 1        y = 1..2  (hole at (1, 1), (2, 1))
#:        6-6          y = 0
FREE_LAYOUT = [
    ("6-6", (0, 0), (1, 0)),
    ("6-4", (0, 1), (-1, 1)),
    ("6-3", (0, 2), (0, 3)),
    ("6-2", (1, 2), (1, 3)),
    ("2-1", (2, 3), (2, 2)),
]
#: matched sections -> (tiles of FREE_LAYOUT to set first, the cells 6-1 then matches)
SECTIONS = {
    1: (1, {(1, 0)}),
    2: (2, {(1, 0), (0, 1)}),
    3: (4, {(1, 0), (0, 1), (1, 2)}),
    4: (5, {(1, 0), (0, 1), (1, 2), (2, 2)}),
}
POINTS = {1: 0, 2: 1, 3: 5, 4: 10}


def new_table(shared, leader="Ann", orientation="seat", penalty="subtract") -> BroadwayTableModel:
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_orientation(orientation)
    form.set_penalty(penalty)
    form.set_leader(leader)
    mid = form.start()
    assert mid, form.error
    return BroadwayTableModel(shared, mid)


def propose(t: BroadwayTableModel, tile: str, a, b) -> None:
    if t.tile != tile:  # picking the picked tile again would put it back
        t.pick(tile)
    t.tap_cell(a)
    t.tap_cell(b)


def set_tile(t: BroadwayTableModel, tile: str, a, b) -> None:
    propose(t, tile, a, b)
    assert t.error is None and t.preview is not None, t.error
    t.confirm()
    assert t.error is None, t.error


def turns(shared, t) -> list[dict]:
    return shared.store.record(t.mid)["hands"][-1]["turns"]


def entries(shared, t) -> int:
    rec = shared.store.record(t.mid)
    return sum(1 + len(h["turns"]) + ("unplayed" in h) for h in rec["hands"])


def stored_scores(shared, t) -> dict:
    return score_record(shared.store.record(t.mid))["scores"]


def cells_of(t: BroadwayTableModel) -> dict:
    """The grid's cells by position (and no position twice)."""
    _, cells = t.grid()
    out = {(c.x, c.y): c for c in cells}
    assert len(out) == len(cells), "a cell is drawn twice"
    return out


def double_down(t: BroadwayTableModel) -> None:
    """Ann (North, leader) sets 6-6 East-West on (0, 0)-(1, 0); Ben (East) is next."""
    set_tile(t, "6-6", (0, 0), (1, 0))


# ------------------------------------------------------------------ new match
def test_form_record_seats_and_leader(shared):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    assert form.orientation == "seat" and form.penalty == "subtract" and form.leader is None
    form.set_leader("Ben")
    mid = form.start()
    assert mid and form.error is None
    rec = shared.store.record(mid)
    assert rec["game"] == "broadway"
    assert rec["players"] == NAMES  # North, East, South, West
    assert "rules" not in rec and "teams" not in rec  # defaults are not written
    assert rec["hands"] == [{"leader": "Ben", "turns": []}]
    t = BroadwayTableModel(shared, mid)
    assert [t.seat_name(p) for p in NAMES] == ["North", "East", "South", "West"]
    assert list(t.setup.sides) == list(SIDES)
    assert t.setup.side_of == (0, 1, 0, 1)
    assert t.phase == "play" and t.to_move == "Ben" and t.double == "6-6" and t.hand_number == 1
    assert t.scores == ZERO and t.winner is None and t.winner_line() is None
    assert t.held() == [(p, 7) for p in NAMES]
    assert stored_scores(shared, t) == ZERO


@pytest.mark.parametrize(
    "orientation, penalty, rules",
    [
        ("seat", "subtract", None),
        ("free", "subtract", {"orientation": "free"}),
        ("seat", "to-opponents", {"unplayed_penalty": "to-opponents"}),
        ("free", "to-opponents", {"orientation": "free", "unplayed_penalty": "to-opponents"}),
    ],
)
def test_form_rules_only_when_not_default(shared, orientation, penalty, rules):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_orientation(orientation)
    form.set_penalty(penalty)
    form.set_leader("Cy")
    assert form.record().get("rules") == rules
    mid = form.start()
    assert mid, form.error
    rec = shared.store.record(mid)
    assert rec.get("rules") == rules
    t = BroadwayTableModel(shared, mid)
    assert t.setup.rules.orientation == orientation
    assert t.setup.rules.unplayed_penalty == penalty
    assert t.phase == "play" and t.to_move == "Cy"


def test_form_without_leader_starts_in_phase_start(shared):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    mid = form.start()
    assert mid and form.error is None
    assert shared.store.record(mid)["hands"] == []
    t = BroadwayTableModel(shared, mid)
    assert t.phase == "start" and t.to_move is None and t.hand_number == 0
    assert t.double == "6-6"  # the next hand's double
    assert t.picker() == ([], []) and t.turn_lines() == []
    t.start_hand("Di")
    assert t.error is None and t.phase == "play" and t.to_move == "Di" and t.double == "6-6"
    assert t.note == "hand 1: Di sets 6-6"
    assert shared.store.record(mid)["hands"] == [{"leader": "Di", "turns": []}]


def test_the_top_bar_of_a_new_match_asks_who_holds_the_double(shared):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    t = BroadwayTableModel(shared, form.start())
    assert t.status() == "New match · who holds 6-6?"  # not "Hand 0 · next hand"
    t.start_hand("Di")
    assert t.status() == "Hand 1 on 6-6 · Di to play"
    t.undo()  # the hand's start taken back: a new match again
    assert t.phase == "start" and t.status() == "New match · who holds 6-6?"


def test_the_top_bar_between_hands_and_at_the_end(shared):
    t = new_table(shared, leader="Ann")
    assert t.status() == "Hand 1 on 6-6 · Ann to play"
    double_down(t)
    for _ in range(4):
        t.pass_()
    assert t.status() == "Hand 1 on 6-6 · tiles left"
    t.settle()
    assert t.error is None and t.status() == "Hand 1 · next hand"


@pytest.mark.parametrize(
    "names, message",
    [
        (["Ann", "", "Cy", "East"], "two players have the same name"),  # the empty seat is East
        (["Ann", "Ben", "Ann", "Di"], "two players have the same name"),
        (["Ann", "Ben", "Cy", " Ben "], "two players have the same name"),  # the same once trimmed
    ],
)
def test_form_refuses_empty_and_duplicate_names(shared, names, message):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_leader("Ann")
    for seat, name in enumerate(names):
        form.set_name(seat, name)
    before = form.revision
    assert form.start() is None
    assert form.error == message and form.revision > before
    assert shared.store.list(0, None) == []  # nothing stored


def test_form_names_are_trimmed_and_the_leader_follows_a_renamed_seat(shared):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_leader("Ben")
    form.set_name(1, " Bob ")
    assert form.leader == "Bob"
    form.set_name(3, "Dee")  # not the leader's seat: the leader stays
    assert form.leader == "Bob"
    mid = form.start()
    assert mid, form.error
    rec = shared.store.record(mid)
    assert rec["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert rec["hands"] == [{"leader": "Bob", "turns": []}]
    assert BroadwayTableModel(shared, mid).to_move == "Bob"


def test_form_default_names(shared):
    form = BroadwayNewMatchForm(shared)
    assert form.typed == ["", "", "", ""]  # empty fields: no "Player 1" to type over
    assert form.names == ["North", "East", "South", "West"]  # a seat left empty is called by its name
    mid = form.start()
    assert mid and shared.store.record(mid)["players"] == ["North", "East", "South", "West"]
    new_table(shared)
    assert sorted(BroadwayNewMatchForm(shared).names) == sorted(NAMES)  # from the earlier match


# ---------------------------------------------------------------- the first turn
def test_table_opens_on_the_double(shared):
    t = new_table(shared, leader="Ann")
    assert t.phase == "play" and t.to_move == "Ann" and t.double == "6-6"
    assert t.picker() == (["6-6"], [])
    t.pick("6-5")  # not the hand's double: it fits nowhere yet
    assert t.error == "6-5 matches nowhere for Ann now"
    t.pick("6-6")
    assert t.tile == "6-6" and t.error is None
    t.tap_cell((0, 0))
    assert t.first == (0, 0) and t.preview is None
    t.tap_cell((1, 0))
    assert t.error is None
    assert t.preview.placement == Placement(6, 6, ((0, 0), (1, 0)))
    assert t.preview.matched == () and t.preview.points == 0
    assert shared.store.record(t.mid)["hands"][0]["turns"] == []  # nothing entered yet
    t.confirm()
    assert t.error is None and t.note == "Ann set 6-6"
    assert t.tile is None and t.first is None and t.preview is None
    assert turns(shared, t) == [{"play": "6-6", "at": [[0, 0], [1, 0]]}]
    assert t.to_move == "Ben"  # clockwise: North -> East
    assert t.held() == [("Ann", 6), ("Ben", 7), ("Cy", 7), ("Di", 7)]
    assert t.turn_lines() == ["1. Ann: 6-6, 0 matched"]


def test_the_double_obeys_the_seat_orientation(shared):
    t = new_table(shared, leader="Ann")  # North sets tiles East-West
    propose(t, "6-6", (0, 0), (0, 1))
    assert t.preview is None
    assert t.error.startswith("hand 1, turn 1: ")
    assert "Ann (North) sets tiles East-West" in t.error
    assert turns(shared, t) == []


def test_pass_and_exposed_are_open_only_after_the_double(shared):
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    t = BroadwayTableModel(shared, form.start())
    assert t.phase == "start" and not t.pass_open  # no hand yet
    t.start_hand("Ann")
    assert t.phase == "play" and not t.pass_open  # the first turn sets the double
    t.pick("6-6")
    assert not t.pass_open
    t.cancel()
    double_down(t)
    assert t.pass_open
    t.pass_()
    assert t.pass_open
    for _ in range(3):
        t.pass_()
    assert t.phase == "unplayed" and not t.pass_open
    t.undo()  # the fourth pass taken back: the hand is open again
    assert t.phase == "play" and t.pass_open


def test_the_first_turn_is_not_a_pass_nor_an_exposed_tile(shared):
    t = new_table(shared, leader="Ann")
    t.pass_()
    assert t.error and t.error.startswith("hand 1, turn 1: ") and "6-6" in t.error
    t.pick("6-5")
    t.expose()
    assert t.error and t.error.startswith("hand 1, turn 1: ")
    assert turns(shared, t) == [] and t.to_move == "Ann"


# ------------------------------------------------------------ setting a tile
def test_after_the_double_the_picker_offers_the_tiles_that_fit(shared):
    t = new_table(shared)
    double_down(t)
    fits, others = t.picker()
    assert fits == ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
    assert "6-6" not in fits + others
    assert sorted(fits + others) == sorted(x for x in ALL_TILES if x != "6-6")
    assert len(t.tiles_left()) == 27 and set(t.tiles_left()) == set(fits + others)


def test_pick_a_tile_that_fits_nowhere(shared):
    t = new_table(shared)
    double_down(t)
    t.pick("5-1")
    assert t.tile == "5-1"
    assert t.error == "5-1 matches nowhere for Ben now"
    assert t.spots() == set()
    t.pick("5-1")  # again: put back
    assert t.tile is None and t.error is None


def test_wrong_orientation_for_the_seat(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (2, 0), (3, 0))  # Ben (East) sets tiles North-South
    assert t.preview is None
    assert t.error == "hand 1, turn 2: Ben (East) sets tiles North-South (same x), not East-West"
    assert len(turns(shared, t)) == 1 and t.to_move == "Ben"
    t.confirm()  # nothing to confirm
    assert len(turns(shared, t)) == 1


def test_occupied_cell(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (1, 0), (1, 1))
    assert t.preview is None
    assert t.error.startswith("hand 1, turn 2: ")
    assert "cell (1, 0) is already covered by 6-6 (turn 1)" in t.error
    assert len(turns(shared, t)) == 1


def test_no_matched_section(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (5, 5), (5, 6))
    assert t.preview is None
    assert t.error.startswith("hand 1, turn 2: ") and "matches no section" in t.error
    assert len(turns(shared, t)) == 1


def test_tap_cell_needs_a_tile_and_restarts_on_a_cell_not_adjacent(shared):
    t = new_table(shared)
    double_down(t)
    t.tap_cell((2, 0))
    assert t.error == "pick a tile first" and t.first is None
    t.pick("6-1")
    t.tap_cell((2, 0))
    assert t.first == (2, 0) and t.error is None
    t.tap_cell((5, 5))  # not next to (2, 0): starts again from there
    assert t.first == (5, 5) and t.preview is None and t.error is None
    t.tap_cell((2, 0))
    assert t.first == (2, 0) and t.preview is None
    t.tap_cell((2, -1))
    assert t.error is None
    assert t.preview.placement == Placement(6, 1, ((2, 0), (2, -1)))
    assert t.preview.matched == ((1, 0),) and t.preview.sections == 1 and t.preview.points == 0
    assert t.preview_line() == "6-1: 1 matched section -> East-West +0"
    t.tap_cell((4, 4))  # a tap after the preview: starts again
    assert t.preview is None and t.first == (4, 4) and t.tile == "6-1"


def test_the_legal_way_round_is_chosen(shared):
    t = new_table(shared)
    double_down(t)
    # the 1 on (2, 0) and the 6 on (2, 1) matches nothing: the view-model puts the 6 on (2, 0)
    propose(t, "6-1", (2, 1), (2, 0))
    assert t.error is None
    assert t.preview.placement == Placement(6, 1, ((2, 0), (2, 1)))


def test_swap_turns_the_tile_round_when_legal(shared):
    t = new_table(shared)
    double_down(t)
    t.pass_()  # Ben
    propose(t, "6-1", (0, 1), (1, 1))  # Cy (South) sets East-West above the double
    assert t.preview.placement == Placement(6, 1, ((0, 1), (1, 1)))
    assert t.preview.matched == ((0, 0),)
    t.swap()
    assert t.error is None
    assert t.preview.placement == Placement(1, 6, ((0, 1), (1, 1)))
    assert t.preview.matched == ((1, 0),)
    t.confirm()
    assert t.error is None
    assert turns(shared, t)[-1] == {"play": "6-1", "at": [[1, 1], [0, 1]]}


def test_swap_refused_when_illegal(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (2, 0), (2, 1))
    before = t.preview
    t.swap()  # the 6 on (2, 1) matches nothing
    assert t.preview == before
    assert t.error.startswith("hand 1, turn 2: ") and "matches no section" in t.error
    t.swap()
    assert t.preview == before


def test_cancel_clears(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (2, 0), (2, 1))
    assert t.preview is not None
    t.cancel()
    assert t.tile is None and t.first is None and t.preview is None and t.error is None
    assert t.spots() == set()
    assert len(turns(shared, t)) == 1
    t.pick("5-1")
    t.cancel()
    assert t.tile is None and t.error is None


def test_confirm_enters_the_turn_and_moves_clockwise(shared):
    t = new_table(shared, leader="Di")
    order = []
    set_tile(t, "6-6", (0, 0), (0, 1))  # Di (West) sets North-South
    order.append(t.to_move)
    set_tile(t, "6-5", (1, 0), (2, 0))  # Ann (North): East-West, the 6 next to (0, 0)
    order.append(t.to_move)
    set_tile(t, "6-4", (-1, 1), (-1, 2))  # Ben (East): North-South, the 6 next to (0, 1)
    order.append(t.to_move)
    t.pass_()  # Cy
    order.append(t.to_move)
    assert order == ["Ann", "Ben", "Cy", "Di"]
    assert turns(shared, t) == [
        {"play": "6-6", "at": [[0, 0], [0, 1]]},
        {"play": "6-5", "at": [[1, 0], [2, 0]]},
        {"play": "6-4", "at": [[-1, 1], [-1, 2]]},
        {"pass": True},
    ]
    assert t.held() == [("Ann", 6), ("Ben", 6), ("Cy", 7), ("Di", 6)]


# --------------------------------------------------------- matched sections
@pytest.mark.parametrize("sections", [1, 2, 3, 4])
def test_points_by_matched_sections(shared, sections):
    t = new_table(shared, orientation="free")
    first, matched = SECTIONS[sections]
    for tile, a, b in FREE_LAYOUT[:first]:
        set_tile(t, tile, a, b)
    placer = t.to_move
    propose(t, "6-1", (1, 1), (2, 1))
    assert t.error is None
    assert t.preview.placement == Placement(6, 1, ((1, 1), (2, 1)))
    assert set(t.preview.matched) == matched
    assert t.preview.sections == sections and t.preview.points == POINTS[sections]
    t.confirm()
    assert t.error is None
    want = dict(ZERO)
    want[SIDE_OF[placer]] = POINTS[sections]
    assert t.scores == want == stored_scores(shared, t)
    assert t.note == f"{placer} set 6-1" + (f": +{POINTS[sections]}" if POINTS[sections] else "")
    out = score_record(shared.store.record(t.mid))
    last = out["hands"][0]["turns"][-1]
    assert last["matched"] == sections and last["points"] == POINTS[sections]


def test_two_sections_with_seat_orientation(shared):
    t = new_table(shared)  # Ann leads; by seat
    double_down(t)  # Ann: East-West on (0, 0)-(1, 0)
    set_tile(t, "6-5", (0, 1), (0, 2))  # Ben (East): North-South, 6 above (0, 0)
    propose(t, "6-4", (1, 1), (1, 2))  # Cy (South) may not set North-South
    assert t.preview is None and t.error.startswith("hand 1, turn 3: Cy (South) sets tiles East-West")
    propose(t, "6-4", (1, 1), (2, 1))  # East-West: the 6 touches (1, 0) and (0, 1)
    assert t.error is None
    assert t.preview.matched == ((0, 1), (1, 0)) and t.preview.points == 1
    assert t.preview_line() == "6-4: 2 matched sections -> North-South +1"
    t.confirm()
    assert t.scores == {"North-South": 1, "East-West": 0} == stored_scores(shared, t)
    assert t.turn_lines()[0] == "3. Cy: 6-4, 2 matched -> North-South +1"


# ---------------------------------------------------------------- the grid
def test_grid_before_the_first_tile(shared):
    t = new_table(shared)
    window, cells = t.grid()
    assert window == (-2, -2, 2, 2)  # room for the double and two cells around it
    assert len(cells) == 25 and all(c.state == "free" and c.pips is None for c in cells)


def test_grid_marks_matched_new_tiles_and_free_cells(shared):
    t = new_table(shared, orientation="free")
    for tile, a, b in FREE_LAYOUT:
        set_tile(t, tile, a, b)
    layout = t.match.hand.layout
    window, _ = t.grid()
    assert window == (-3, -2, 4, 5)  # the layout's bounds (-1, 0, 2, 3) and two cells around
    t.pick("6-1")
    t.tap_cell((1, 1))
    g = cells_of(t)
    assert g[(1, 1)].state == "first" and g[(1, 1)].pips is None
    t.tap_cell((2, 1))
    g = cells_of(t)
    matched = SECTIONS[4][1]
    assert {c for c, v in g.items() if v.state == "matched"} == matched
    assert g[(1, 1)].state == "new" and g[(1, 1)].pips == 6
    assert g[(2, 1)].state == "new" and g[(2, 1)].pips == 1
    # every covered cell with its pips, its tile and the other cell of that tile
    for p in layout:
        for cell, pips in p.halves():
            other = p.cells[1] if cell == p.cells[0] else p.cells[0]
            gc = g[cell]
            assert gc.pips == pips and gc.tile == str(p.tile) and gc.partner == other
            assert gc.state == ("matched" if cell in matched else "tile")
    assert g[(0, 2)].tile == "6-3" and g[(0, 2)].partner == (0, 3) and g[(0, 2)].pips == 6
    # the free cells drawn are those next to the layout, or where the picked tile could go
    frontier = layout.frontier()
    spots = t.spots()
    for c, v in g.items():
        if v.pips is None and v.state in ("free", "spot"):
            assert c in frontier or c in spots
            assert v.state == ("spot" if c in spots else "free")
    assert frontier - {(1, 1), (2, 1)} <= set(g)
    t.cancel()
    g = cells_of(t)
    assert not any(v.state in ("new", "matched", "first", "spot") for v in g.values())
    assert {c for c, v in g.items() if v.state == "free"} == frontier
    assert {c for c, v in g.items() if v.state == "tile"} == set(layout.cells)


def test_spots_are_the_cells_of_every_legal_placement(shared):
    t = new_table(shared)
    double_down(t)
    assert t.spots() == set()  # nothing picked
    t.pick("6-1")  # Ben (East) sets North-South: the 6 next to (0, 0) or (1, 0)
    want = {
        (-1, 0),
        (-1, 1),
        (-1, -1),
        (2, 0),
        (2, 1),
        (2, -1),
        (0, 1),
        (0, 2),
        (1, 1),
        (1, 2),
        (0, -1),
        (0, -2),
        (1, -1),
        (1, -2),
    }
    assert t.spots() == want
    assert t.spots() == {c for pv in t.match.legal_placements("6-1") for c in pv.placement.cells}
    assert len(t.match.legal_placements("6-1")) == 8
    g = cells_of(t)
    assert {c for c, v in g.items() if v.state == "spot"} == want


# ---------------------------------------------------------- pass and expose
def test_pass_moves_on(shared):
    t = new_table(shared)
    double_down(t)
    t.pass_()
    assert t.error is None and t.note == "Ben passed" and t.to_move == "Cy"
    assert turns(shared, t)[-1] == {"pass": True}
    assert t.turn_lines()[0] == "2. Ben: pass"
    assert t.scores == ZERO


def test_expose_loses_the_turn(shared):
    t = new_table(shared)
    double_down(t)
    t.expose()
    assert t.error == "pick the tile that was shown" and len(turns(shared, t)) == 1
    t.pick("6-2")
    t.expose()  # Ben showed 6-2: his turn is lost
    assert t.error is None and t.note == "Ben exposed 6-2: turn lost"
    assert t.tile is None and t.preview is None
    assert turns(shared, t)[-1] == {"exposed": "6-2"}
    assert t.to_move == "Cy" and t.scores == ZERO
    assert t.held() == [("Ann", 6), ("Ben", 7), ("Cy", 7), ("Di", 7)]  # the tile stays in Ben's hand
    assert t.turn_lines()[0] == "2. Ben: exposed 6-2 (turn lost)"
    # 6-2 is Ben's now: Cy cannot set it
    fits, others = t.picker()
    assert "6-2" not in fits and "6-2" in others
    assert not t.fits("6-2")


def test_expose_refused_for_a_tile_down_or_shown_by_another(shared):
    t = new_table(shared)
    double_down(t)
    t.pick("6-2")
    t.expose()  # Ben
    n = entries(shared, t)
    t.pick("6-6")  # Cy: the double is on the table
    assert t.error == "6-6 matches nowhere for Cy now"
    t.expose()
    assert t.error.startswith("hand 1, turn 3: ") and "6-6 is already on the table" in t.error
    t.pick("6-2")  # Ben's, shown at turn 2
    t.expose()
    assert t.error.startswith("hand 1, turn 3: ") and "Ben" in t.error
    assert entries(shared, t) == n and t.to_move == "Cy"
    for _ in range(3):
        t.pass_()
    assert t.to_move == "Ben" and t.fits("6-2")  # Ben may set the tile he showed
    set_tile(t, "6-2", (2, 0), (2, 1))
    assert turns(shared, t)[-1] == {"play": "6-2", "at": [[2, 0], [2, 1]]}


def test_an_exposed_tile_breaks_a_succession_of_passes(shared):
    t = new_table(shared)
    double_down(t)
    for _ in range(3):
        t.pass_()
    t.pick("5-2")
    t.expose()
    for _ in range(3):
        t.pass_()
    assert t.phase == "play" and t.error is None
    t.pass_()
    assert t.phase == "unplayed"


# ----------------------------------------------------- blocked hand, settling
def block(t: BroadwayTableModel) -> None:
    """Ann sets the double, Ben sets 6-1; four passes block the hand."""
    double_down(t)
    set_tile(t, "6-1", (2, 0), (2, 1))
    for _ in range(4):
        assert t.phase == "play"
        t.pass_()
        assert t.error is None


def test_a_blocked_hand_asks_for_the_unplayed_tiles(shared):
    t = new_table(shared)
    block(t)
    assert t.phase == "unplayed" and t.to_move is None
    assert t.unplayed == {"Ann": 6, "Ben": 6, "Cy": 7, "Di": 7}  # 7 - tiles set
    assert t.picker() == ([], [])
    assert t.penalty_preview() == ({"North-South": -13, "East-West": -13}, None)
    # a blocked hand without its unplayed tiles is not a complete record
    with pytest.raises(RemainingError):
        score_record(shared.store.record(t.mid))
    t.settle()
    assert t.error is None and t.note == "hand settled"
    assert t.phase == "start" and t.double == "5-5"
    assert shared.store.record(t.mid)["hands"][0]["unplayed"] == {"Ann": 6, "Ben": 6, "Cy": 7, "Di": 7}
    assert t.scores == {"North-South": -13, "East-West": -13} == stored_scores(shared, t)
    t.start_hand("Cy")
    assert t.error is None and t.phase == "play" and t.hand_number == 2
    assert t.double == "5-5" and t.to_move == "Cy" and t.note == "hand 2: Cy sets 5-5"
    assert t.picker() == (["5-5"], [])
    assert t.held() == [(p, 7) for p in NAMES]
    assert cells_of(t) and t.grid()[0] == (-2, -2, 2, 2)  # a new, empty table
    set_tile(t, "5-5", (0, 0), (1, 0))  # Cy (South): East-West
    assert t.to_move == "Di"
    assert t.scores == stored_scores(shared, t)


def test_penalty_preview_to_opponents(shared):
    t = new_table(shared, penalty="to-opponents")
    block(t)  # North-South holds 6 + 7 tiles, East-West 6 + 7
    assert t.penalty_preview() == ({"North-South": 13, "East-West": 13}, None)
    t2 = new_table(shared, penalty="to-opponents")
    double_down(t2)
    for _ in range(4):
        t2.pass_()
    assert t2.unplayed == {"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7}
    # each side gets the tiles the other side holds
    assert t2.penalty_preview() == ({"North-South": 14, "East-West": 13}, None)
    t2.settle()
    assert t2.scores == {"North-South": 14, "East-West": 13} == stored_scores(shared, t2)


def test_penalty_preview_subtract_uneven(shared):
    t = new_table(shared)
    double_down(t)
    for _ in range(4):
        t.pass_()
    assert t.penalty_preview() == ({"North-South": -13, "East-West": -14}, None)


def test_wrong_unplayed_counts_are_refused(shared):
    t = new_table(shared)
    block(t)
    t.set_unplayed("Ann", 3)
    assert t.unplayed["Ann"] == 3
    pv, err = t.penalty_preview()
    assert pv is None and err.startswith("hand 1, unplayed: ") and "Ann" in err
    n = entries(shared, t)
    t.settle()
    assert t.error.startswith("hand 1, unplayed: ")
    assert t.phase == "unplayed" and entries(shared, t) == n
    t.set_unplayed("Ann", -2)  # never below zero
    assert t.unplayed["Ann"] == 0
    t.set_unplayed("Ann", 6)
    assert t.penalty_preview()[1] is None
    t.settle()
    assert t.error is None and t.phase == "start"


def test_start_hand_refuses_a_stranger(shared):
    t = new_table(shared)
    block(t)
    t.settle()
    t.start_hand("Zed")
    assert t.error and t.error.startswith("hand 2, leader: ")
    assert t.phase == "start" and len(shared.store.record(t.mid)["hands"]) == 1


# ---------------------------------------------------------------- undo / redo
def test_undo_with_a_tile_picked_only_clears_the_pick(shared):
    t = new_table(shared)
    double_down(t)
    propose(t, "6-1", (2, 0), (2, 1))
    before = shared.store.record(t.mid)
    t.undo()
    assert t.tile is None and t.first is None and t.preview is None and t.error is None
    assert shared.store.record(t.mid) == before and t.to_move == "Ben"


def test_undo_takes_back_the_last_entry_and_redo_puts_it_back(shared):
    t = new_table(shared, orientation="free")
    for tile, a, b in FREE_LAYOUT:
        set_tile(t, tile, a, b)
    set_tile(t, "6-1", (1, 1), (2, 1))  # Ben: 10 points
    after = shared.store.record(t.mid)
    assert t.scores == {"North-South": 0, "East-West": 10}
    t.undo()
    assert t.error is None and t.note == "last entry taken back"
    assert t.to_move == "Ben" and t.scores == ZERO == stored_scores(shared, t)
    assert len(turns(shared, t)) == 5
    assert (1, 1) not in t.match.hand.layout.cells
    t.redo()
    assert t.error is None and t.note == "entry put back"
    assert shared.store.record(t.mid) == after
    assert t.to_move == "Cy" and t.scores == {"North-South": 0, "East-West": 10} == stored_scores(shared, t)
    t.redo()  # nothing more to redo
    assert t.error and shared.store.record(t.mid) == after


def test_undo_of_a_settlement_and_of_a_hand_start(shared):
    t = new_table(shared)
    block(t)
    t.settle()
    t.start_hand("Ben")
    assert t.phase == "play" and t.hand_number == 2
    t.undo()  # the start of hand 2
    assert t.error is None and t.phase == "start" and t.hand_number == 1 and t.double == "5-5"
    t.undo()  # the settlement
    assert t.error is None and t.phase == "unplayed"
    assert t.unplayed == {"Ann": 6, "Ben": 6, "Cy": 7, "Di": 7}
    assert t.scores == ZERO
    t.undo()  # the fourth pass
    assert t.phase == "play" and t.to_move == "Ben"
    t.redo()
    t.redo()
    assert t.phase == "start" and t.scores == {"North-South": -13, "East-West": -13} == stored_scores(shared, t)


def test_undo_down_to_nothing(shared):
    t = new_table(shared)
    double_down(t)
    t.undo()
    assert t.phase == "play" and t.to_move == "Ann" and turns(shared, t) == []
    t.undo()  # the start of hand 1
    assert t.error is None and t.phase == "start" and shared.store.record(t.mid)["hands"] == []
    t.undo()
    assert t.error and "nothing to undo" in t.error
    t.redo()
    assert t.phase == "play" and t.to_move == "Ann"


def test_a_new_entry_clears_redo(shared):
    t = new_table(shared)
    double_down(t)
    t.pass_()
    t.undo()
    assert t.to_move == "Ben"
    t.pick("6-1")
    t.tap_cell((2, 0))
    t.tap_cell((2, 1))
    t.confirm()
    assert t.error is None
    after = shared.store.record(t.mid)
    t.redo()
    assert t.error and "nothing to redo" in t.error
    assert shared.store.record(t.mid) == after


def test_two_tables_of_one_match_see_each_other(shared):
    """Two sessions (browser tabs) on the same match (issue 16): a tap on a screen that
    does not show the other one's change yet is refused and changes nothing; so is a
    placement prepared before the other one's change, when it is confirmed."""
    a = new_table(shared)
    b = BroadwayTableModel(shared, a.mid)
    double_down(a)
    propose(b, "6-1", (2, 0), (2, 1))  # b's screen still shows Ann to set the double
    assert b.error == "Ann's 6-6 came first: check and tap again" and b.preview is None
    assert b.to_move == "Ben" and len(b.match.hand.turns) == 1  # caught up at once
    b.seen()  # its browser shows it
    propose(b, "6-1", (2, 0), (2, 1))  # Ben's placement, prepared in b
    assert b.error is None and b.preview is not None
    a.pass_()  # meanwhile Ben passed in a
    b.confirm()
    assert b.error == "Ben's pass came first: check and tap again"
    assert turns(shared, a) == [{"play": "6-6", "at": [[0, 0], [1, 0]]}, {"pass": True}]
    assert b.preview is None and b.to_move == "Cy"


# ---------------------------------------------------------- the end of a match
def blocked_hand(t: BroadwayTableModel, leader: str, second: bool = False) -> None:
    """A hand of a match with ``orientation: "free"``: the leader sets the double on
    (0, 0)-(1, 0); with ``second`` the next player sets a tile next to it; then four
    passes block the hand and it is settled with the prefilled counts."""
    t.start_hand(leader)
    assert t.error is None
    d = t.double
    set_tile(t, d, (0, 0), (1, 0))
    if second:
        other = f"{d[0]}-0" if d[0] != "0" else "1-0"
        set_tile(t, other, (2, 0), (2, 1))
    for _ in range(4):
        t.pass_()
    assert t.phase == "unplayed"
    t.settle()
    assert t.error is None and t.phase in ("start", "over")


def free_match_without_hands(shared) -> BroadwayTableModel:
    form = BroadwayNewMatchForm(shared, names=list(NAMES))
    form.set_orientation("free")
    mid = form.start()
    assert mid, form.error
    return BroadwayTableModel(shared, mid)


def test_the_side_ahead_after_seven_hands_wins(shared):
    t = free_match_without_hands(shared)
    for n in range(6):  # the leader's side holds 13 tiles, the other side 14
        blocked_hand(t, "Ann" if n % 2 == 0 else "Ben")
    assert t.scores == {"North-South": -81, "East-West": -81} and t.winner is None
    assert t.phase == "start" and not t.sudden_death()  # hand 7 is a regular hand, tie or not
    blocked_hand(t, "Cy")  # hand 7 on 0-0
    assert t.phase == "over" and t.winner == "North-South"
    assert t.scores == {"North-South": -94, "East-West": -95} == stored_scores(shared, t)
    assert t.winner_line() == "North-South win -94 to -95 at the end of hand 7"
    assert t.double is None and t.to_move is None and t.picker() == ([], [])
    t.start_hand("Ann")
    assert t.error and "the match is over" in t.error
    assert len(shared.store.record(t.mid)["hands"]) == 7


def test_sudden_death_is_won_at_once_by_a_lead_of_two(shared):
    t = free_match_without_hands(shared)
    for n in range(6):
        blocked_hand(t, "Ann" if n % 2 == 0 else "Ben")
    blocked_hand(t, "Ann", second=True)  # hand 7: both sides hold 13 tiles
    assert t.scores == {"North-South": -94, "East-West": -94} and t.winner is None
    assert t.phase == "start" and t.double == "6-6"
    assert t.sudden_death()  # between hands: the next one is sudden death
    assert t.held() == [(n, 7) for n in NAMES]  # a new hand is drawn: not hand 7's tiles left
    t.start_hand("Ann")
    assert t.sudden_death() and t.hand_number == 8 and t.double == "6-6"
    for tile, a, b in FREE_LAYOUT:
        set_tile(t, tile, a, b)
    assert t.winner is None
    set_tile(t, "6-1", (1, 1), (2, 1))  # Ben: 4 sections, +10
    assert t.phase == "over" and t.winner == "East-West"
    assert t.scores == {"North-South": -94, "East-West": -84} == stored_scores(shared, t)
    assert t.winner_line() == "East-West win -84 to -94 at hand 8, turn 6"
    assert t.double is None and t.to_move is None  # no hand to build once won
    out = score_record(shared.store.record(t.mid))
    assert out["winner"] == "East-West" and out["won_at"] == {"hand": 8, "turn": 6}
    n = entries(shared, t)
    t.pass_()
    assert t.error and "the match is over" in t.error and entries(shared, t) == n


# ---------------------------------------------------------------- property
def check_state(shared, t: BroadwayTableModel) -> None:
    """The view-model agrees with the stored record scored from scratch; the grid is sound."""
    rec = shared.store.record(t.mid)
    if t.phase == "unplayed":  # a blocked hand waiting for its unplayed tiles
        with pytest.raises(RemainingError):
            score_record(rec)
        assert t.scores == result(load(rec))["scores"]
    else:
        assert t.scores == score_record(rec)["scores"]
    h = t.match.hand
    g = cells_of(t)  # no cell twice
    if h is None or h.settled:
        return
    covered = {c: v for c, v in g.items() if v.pips is not None and v.state in ("tile", "matched")}
    assert len(covered) == 2 * len(h.layout)  # no two tiles overlap
    for c, v in covered.items():
        other = covered[v.partner]
        assert adjacent(c, v.partner) and other.partner == c and other.tile == v.tile
    tiles = [v.tile for v in covered.values()]
    assert all(tiles.count(x) == 2 for x in tiles)


def set_random(t: BroadwayTableModel, rng: random.Random, tile: str, chosen: Placement) -> None:
    """Set ``tile`` as ``chosen`` in three taps (turning it round if the preview chose the
    other way), checking the preview, the grid and the entry."""
    h = t.match.hand
    seat, n = t.match.seat_to_move, len(h.turns)
    t.pick(tile)
    assert t.error is None
    assert t.spots() == ({c for pv in t.match.legal_placements(tile) for c in pv.placement.cells} if h.turns else set())
    t.tap_cell(chosen.cells[0])
    t.tap_cell(chosen.cells[1])
    assert t.error is None and t.preview is not None
    if t.preview.placement != chosen:
        t.swap()
        assert t.error is None
    assert t.preview.placement == chosen
    points = t.preview.points
    before = dict(t.scores)
    g = cells_of(t)
    assert {c for c, v in g.items() if v.state == "new"} == set(chosen.cells)
    assert {c for c, v in g.items() if v.state == "matched"} == set(t.preview.matched)
    t.confirm()
    assert t.error is None
    new = t.match.hands[-1]
    assert new.turns[n].placement == chosen and new.turns[n].points == points
    side = t.setup.sides[t.setup.side_of[seat]]
    assert t.scores[side] == before[side] + points
    if new.end is None:
        assert t.match.seat_to_move == (seat + 1) % 4


def random_step(t: BroadwayTableModel, rng: random.Random, pass_rate: float, expose_rate: float) -> None:
    """One legal action, as the table would enter it."""
    phase = t.phase
    if phase == "start":
        t.start_hand(rng.choice(NAMES))
        return
    if phase == "unplayed":
        assert t.unplayed == {p: n for p, n in t.held()}
        t.settle()
        return
    h = t.match.hand
    fits, _ = t.picker()
    r = rng.random()
    if not h.turns:
        tile = fits[0]
        assert fits == [t.double]
        axis = t.setup.axis(t.match.seat_to_move) or rng.choice(["east-west", "north-south"])
        x, y = rng.randint(-1, 0), rng.randint(-1, 0)  # on the cells drawn before the first tile
        cells = ((x, y), (x + 1, y) if axis == "east-west" else (x, y + 1))
        set_random(t, rng, tile, Placement(*(int(v) for v in tile.split("-")), cells))
    elif fits and r < expose_rate:
        t.pick(rng.choice(fits))
        assert t.error is None
        t.expose()
        assert t.match.hand.turns[-1].kind == "exposed"
    elif not fits or r < expose_rate + pass_rate:
        n = len(h.turns)
        t.pass_()
        assert t.error is None and len(t.match.hands[-1].turns) == n + 1
    else:
        tile = rng.choice(fits)
        options = t.match.legal_placements(tile)
        assert options
        set_random(t, rng, tile, rng.choice(options).placement)


def play_random(
    t: BroadwayTableModel,
    shared,
    rng: random.Random,
    steps: int,
    pass_rate: float,
    expose_rate: float,
    undo_rate: float = 0.1,
) -> None:
    for _ in range(steps):
        if t.phase == "over":
            break
        random_step(t, rng, pass_rate, expose_rate)
        assert t.error is None
        check_state(shared, t)
        if rng.random() < undo_rate:  # take the step back and put it back: the same match
            rec, totals = shared.store.record(t.mid), dict(t.scores)
            t.undo()
            assert t.error is None and shared.store.record(t.mid) != rec
            check_state(shared, t)
            t.redo()
            assert t.error is None and shared.store.record(t.mid) == rec and t.scores == totals
            check_state(shared, t)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    orientation=st.sampled_from(["seat", "free"]),
    penalty=st.sampled_from(["subtract", "to-opponents"]),
    leader=st.sampled_from([None] + NAMES),
    pass_rate=st.sampled_from([0.0, 0.05, 0.3]),
    expose_rate=st.sampled_from([0.0, 0.05]),
    steps=st.integers(10, 90),
)
def test_random_matches_through_the_view_model(seed, orientation, penalty, leader, pass_rate, expose_rate, steps):
    path = tempfile.mkdtemp()
    shared = open_shared(path)
    try:
        form = BroadwayNewMatchForm(shared, names=list(NAMES))
        form.set_orientation(orientation)
        form.set_penalty(penalty)
        form.set_leader(leader)
        mid = form.start()
        assert mid, form.error
        t = BroadwayTableModel(shared, mid)
        assert t.phase == ("start" if leader is None else "play")
        check_state(shared, t)
        play_random(t, shared, random.Random(seed), steps, pass_rate, expose_rate)
    finally:
        shared.close()
        shutil.rmtree(path, ignore_errors=True)


# ------------------------------------------------------- a cell and a direction
def test_a_cell_and_a_direction_places_like_two_cells(shared):
    t = new_table(shared)  # Ann (North) leads: her tiles run East-West
    t.pick("6-6")
    t.tap_cell((0, 0))
    assert t.directions() == ["East", "West"]  # the seat's orientation, both cells free
    t.toward("East")
    assert t.error is None and t.preview.placement == Placement(6, 6, ((0, 0), (1, 0)))
    t.confirm()
    assert t.error is None and t.to_move == "Ben"
    t.pick("6-1")  # Ben sits East: North-South only
    assert t.directions() == []  # no cell tapped yet
    t.tap_cell((2, 0))
    assert t.directions() == ["North", "South"]  # West is the double, East the wrong way
    t.toward("South")
    assert t.error is None and t.preview.placement == Placement(6, 1, ((2, 0), (2, -1)))
    assert t.preview_line() == "6-1: 1 matched section -> East-West +0"
    assert t.directions() == []  # a preview waits: no more directions
    t.tap_cell((0, 1))  # starts again from (0, 1), above the double's 6
    assert t.directions() == ["North"]  # South is the double; East and West the wrong way


def test_a_direction_that_fits_nowhere_is_not_offered_and_is_refused(shared):
    t = new_table(shared)
    double_down(t)
    t.pick("6-1")
    t.tap_cell((5, 5))  # far from the layout
    assert t.directions() == []
    t.tap_cell((5, 5))
    t.toward("North")  # the engine's reason, naming hand and turn
    assert t.preview is None and t.error.startswith("hand 1, turn 2: ") and "matches no section" in t.error
    assert len(turns(shared, t)) == 1


def test_a_direction_needs_a_first_cell(shared):
    t = new_table(shared)
    double_down(t)
    t.pick("6-1")
    t.toward("North")
    assert t.error == "tap the cell for the first half first" and t.preview is None


def test_a_blocked_hand_opened_again_is_ready_to_settle(shared):
    """A reload or a resume after a block: the tiles left are prefilled, as right after the block."""
    record = {
        "format": "scorekeeper/1",
        "game": "broadway",
        "players": ["Ann", "Ben", "Cy", "Di"],
        "hands": [{"leader": "Ann", "turns": [{"play": "6-6", "at": [[0, 0], [1, 0]]}] + [{"pass": True}] * 4}],
    }
    mid = shared.store.import_record(record)
    t = BroadwayTableModel(shared, mid)
    assert t.phase == "unplayed" and t.unplayed == {"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7}
    penalties, problem = t.penalty_preview()
    assert problem is None and penalties == {"North-South": -13, "East-West": -14}
    t.settle()
    assert t.error is None and t.phase == "start" and t.scores == {"North-South": -13, "East-West": -14}
