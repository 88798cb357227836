"""Issue 47, part 2: the store appends, undoes and corrects a hand entered as points and an
adjustment as it does any entry -- each is the record's item, checked through the engine
first (a refused one changes nothing) -- and numbers hands without the adjustments."""

from __future__ import annotations

import pytest

from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store, StoreError

from .build import EW, NS, adjust, open_hand, points, record


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "db") as st:
        yield st


def test_each_is_one_entry_appended_undone_and_redone(store):
    mid = store.create(record("all-fives", start={NS: 85, EW: 70}))
    store.append(mid, points(35, 10))
    store.append(mid, adjust(ew=-10))
    store.append(mid, {"hand": {"leader": "Ann"}})
    assert store.record(mid)["hands"] == [points(35, 10), adjust(ew=-10), {"leader": "Ann", "turns": []}]
    assert store.list()[0]["scores"] == {NS: 120, EW: 70}
    assert store.undo(mid) == {"hand": {"leader": "Ann"}}
    assert store.undo(mid) == adjust(ew=-10)
    assert store.match(mid).scores == [120, 80]
    assert store.redo(mid) == adjust(ew=-10)
    assert store.record(mid)["hands"] == [points(35, 10), adjust(ew=-10)]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (points(33, 10), "hand 2, points: North-South cannot score 33"),
        ({"adjust": {EW: -10}}, "adjustment after hand 1: an adjustment says why"),
        ({"points": {NS: 5, EW: 5}, "why": "late"}, "unknown key 'why' in a hand entered as points"),
    ],
)
def test_a_refused_entry_changes_nothing(store, entry, words):
    mid = store.create(record("all-fives", points(35, 10)))
    with pytest.raises(ScorekeeperError, match=words):
        store.append(mid, entry)
    assert store.record(mid)["hands"] == [points(35, 10)]


def test_corrections_find_hands_by_their_number_and_adjustments_by_their_place(store):
    mid = store.create(
        record("all-fives", adjust(ew=5, why="late"), points(35, 10), adjust(ew=-10), open_hand("all-fives"))
    )
    store.edit(mid, 1, "points", {NS: 40, EW: 10})
    store.edit(mid, 2, 1, {"play": "5-0"})  # hand 2 is the record's fourth item
    store.edit(mid, 2, "why", "a misdeal")
    store.edit(mid, 1, "adjust", {EW: 10})
    assert store.record(mid)["hands"] == [
        adjust(ew=10, why="late"),
        points(40, 10),
        adjust(ew=-10, why="a misdeal"),
        {"leader": "Ann", "turns": [{"play": "5-0"}]},
    ]
    assert store.match(mid).scores == [45, 10]
    for hand, where, value, words in [
        (2, "points", {NS: 5, EW: 5}, "hand 2 was not entered as points"),
        (1, "leader", "Ann", "hand 1 was entered as points: correct its points or first"),
        (3, "why", "x", "the match has no adjustment 3"),
        (1, "first", NS, "no side reaches 200"),
    ]:
        with pytest.raises((StoreError, ScorekeeperError), match=words):
            store.edit(mid, hand, where, value)
    assert store.match(mid).scores == [45, 10], "a refused correction changes nothing"
