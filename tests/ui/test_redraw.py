"""What every phone of a table redraws after an entry (issue 27, benchmarks): the phone that
made a draw or a hand-end entry is not told of it as if another phone had (so its own next
tap, Settle, is not refused until its browser answers), and the drawing of a layout is made
once for all the phones that show it -- the same as drawing it on each."""

from __future__ import annotations

from scorekeeper.ui.allfives.drawing import draw_layout
from ui.test_hand_end_shared import hand_over, settle_all
from ui.test_live import Phone, new_match, served


def test_a_phone_is_not_told_of_its_own_draws_and_hand_end_entries(tmp_path):
    shared, mid, phones = hand_over(tmp_path)
    host = phones["host"]
    name = host.table.hand_end.holding()[0][0]
    own = phones[name]
    own.table.hand_end.set_pips(name, "7")
    assert own.inbox == [] and len(host.inbox) == 1  # the others are told, not the phone that typed it
    assert own.table.note == f"{name}: 7 pips" and not own.table.unseen
    for other, held in own.table.hand_end.holding():
        if other != name:
            own.table.hand_end.set_pips(other, str(held))
    own.table.hand_end.settle()  # at once: its screen shows every entry, its own included
    assert own.table.error is None and shared.store.match(mid).hand.number == 2
    settle_all(phones)
    shared.close()


def test_a_draw_reaches_the_other_phones_only(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    a.table.play.tap("3-2")
    b.receive()
    b.ack()
    b.table.play.draw(1)
    assert b.inbox == [] and len(a.inbox) == 1 and not b.table.unseen
    b.table.play.tap("2-2")  # the tile after its own draw goes in with it, without waiting
    assert b.table.error is None
    assert shared.store.record(mid)["hands"][0]["turns"][-1] == {"draw": 1, "play": "2-2", "on": "3-2"}
    shared.close()


def test_every_phone_shares_one_drawing_and_it_is_the_layouts(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    for tile in ("3-2", "2-2", "6-3"):
        a.table.play.tap(tile)
    b.receive()
    layout = shared.store.match(mid).hand.layout
    assert a.table.drawing() is b.table.drawing()
    assert a.table.drawing() == draw_layout(layout)
    before = a.table.drawing()
    a.table.undo()
    b.receive()
    layout = shared.store.match(mid).hand.layout
    assert b.table.drawing() == draw_layout(layout) != before  # the layout changed: drawn again
    a.table.redo()
    assert a.table.drawing() is before  # the same layout as before: the drawing made then
    shared.close()
