"""The table's words (issue 27): a watcher is not told to tap; Undo says which entry it took
back; every phone that opens a new match says who won the lots."""

from __future__ import annotations

from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.layout_view import layout_view
from ui.test_live import Phone, served
from ui.test_turns import PLAYERS


def test_a_watcher_is_not_told_to_tap(tmp_path):
    shared = served(tmp_path)
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_leader("Ann")
    mid = form.start()
    host, watcher = Phone(shared, mid, "127.0.0.1"), Phone(shared, mid, "192.168.1.30", "771204")
    said = {
        who: layout_view(p.table, p.table.drawing(), 400, 300).content.value
        for who, p in {"host": host, "watcher": watcher}.items()
    }
    assert said == {"host": "No tile down yet: tap the lead tile below.", "watcher": "No tile down yet."}
    shared.close()


def test_undo_says_which_entry_it_took_back(tmp_path):
    shared = served(tmp_path)
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_rule("hand_size", 2)
    form.set_leader("Ann")
    t = Phone(shared, form.start(), "127.0.0.1").table
    t.play.tap("3-2")
    t.play.draw(1)
    t.undo()
    assert t.note == "Ben's draws put back" and t.play.draws == 0
    t.undo()
    assert t.note == "Undo: Ann's 3-2 taken back"
    t.redo()
    t.play.tap("2-2")
    t.play.tap("4-2")  # Ann's last tile: the hand is over
    t.hand_end.set_pips("Ben", "6")
    t.hand_end.settle()  # and hand 2 starts by itself, Ann to lead
    assert t.hand_number == 2
    t.undo()  # one Undo: back to the hand end, both named
    assert t.note == "Undo: the settlement of hand 1 and the start of hand 2 taken back"
    assert t.phase == "hand-end"
    shared.close()


def test_every_phone_that_opens_a_new_match_says_who_won_the_lots(tmp_path):
    import random

    shared = served(tmp_path)
    form = NewMatchForm(shared, names=list(PLAYERS))
    mid = form.start(random.Random(5))
    leader = shared.store.record(mid)["hands"][0]["leader"]
    phones = [Phone(shared, mid, "127.0.0.1"), Phone(shared, mid, "192.168.1.12", "482913")]
    phones.append(Phone(shared, mid, "192.168.1.30", "771204"))
    assert [p.table.note for p in phones] == [f"lots drawn: {leader} leads"] * 3
    shared.close()
