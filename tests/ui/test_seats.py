"""A seat is held by one phone (issue 43), on the view-models: "I'm Ann" takes Ann's seat for
the phone's pass, a second phone is refused with the holder named, the holder's Change or the
host's Free lets another take it, and the seats outlive a restart of the evening; a finished
match changes only with the other side's agreement (or the host's), and a confirmed result
sheet not at all until the host re-opens it."""

from __future__ import annotations

import pytest
from events.helpers import won_record

from scorekeeper.events import new_event
from scorekeeper.store import Store
from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.access.passes import HOST
from scorekeeper.ui.access.visitor import Visitor, browser_words
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.events.model import EventModel
from scorekeeper.ui.events.sheet_model import SheetModel
from scorekeeper.ui.join.seats_view import place_titles
from scorekeeper.ui.server.shared import open_shared

CODES = Codes("482913", "771204")
PIXEL = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari"


def record(players, teams=None, target=5):
    """A finished All Fives match: the first player's lead 5-0 reaches the target of 5."""
    r = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": players,
        "rules": {"target": target},
        "hands": [{"leader": players[0], "turns": [{"play": "5-0"}]}],
    }
    if teams:
        r["teams"] = teams
    return r


@pytest.fixture
def served(tmp_path):
    shared = open_shared(str(tmp_path / "db"), gate=Gate(CODES))
    yield shared
    shared.close()


def phone(shared, n, agent=""):
    view = shared.visit(f"192.168.1.{n}", None, agent)
    assert view.visitor.join(CODES.scorer)
    return view


def turns(shared, mid):
    with shared.lock:
        return sum(len(h.get("turns") or []) for h in shared.store.record(mid)["hands"])


def test_a_seat_is_one_phones_until_it_lets_go_or_the_host_frees_it(served):
    with served.lock:
        mid = served.store.import_record(record(["Ann", "Ben"], target=61))
    ann, other = phone(served, 7, PIXEL), phone(served, 8)
    told = []
    served.gate.watch(ann.visitor, lambda: told.append("ann"))
    TableModel(ann, mid).take_seat("Ann")
    grab = TableModel(other, mid)
    grab.take_seat("ann")  # another spelling of the same seat
    assert grab.error.startswith("Ann's seat is held by another phone (Chrome on Android, joined ")
    assert grab.error.endswith(
        "that phone can tap Change to give it up, or the host can free it (Phones at this table)"
    )
    assert other.visitor.seat(mid) is None and ann.visitor.seat(mid) == "Ann"
    # the holder lets go ("Change": a tap on its own seat), and the other phone takes it
    TableModel(ann, mid).take_seat("Ann")
    assert ann.visitor.seat(mid) is None
    grab.take_seat("Ann")
    assert grab.error is None and other.visitor.seat(mid) == "Ann"
    # the host sees who holds it, and frees it; the phone that held it is told
    host = served.visit("127.0.0.1")
    TableModel(ann, mid).take_seat("Ben")
    assert [(p, name, h.label) for p, name, h in served.gate.passes.seating()] == [
        (mid, "Ben", "Chrome on Android"),
        (mid, "Ann", "a browser"),
    ]
    assert place_titles(host, [mid, "gone"]) == {mid: "Ann · Ben"}
    assert phone(served, 9).free_seat(mid, "Ben") == "only the host sees who holds the seats and frees one"
    assert host.free_seat(mid, "Ben") is None and ann.visitor.seat(mid) is None and told == ["ann"]
    # the host's own screen holds a seat too, without a pass
    TableModel(host, mid).take_seat("Ben")
    assert served.gate.passes.holder(mid, "Ben").key == HOST
    TableModel(ann, mid).take_seat("Ben")
    assert ann.visitor.seat(mid) is None


def test_seats_outlive_a_restart_and_end_with_the_passes(tmp_path):
    with Store(tmp_path) as store:
        gate = Gate.kept(store)
        ann = Visitor(gate, "192.168.1.7", PIXEL)
        assert ann.join(gate.codes.scorer)
        ann.take_seat("m1", "Ann")
        again = Gate.kept(store)  # the server started again, the same evening
        back = Visitor(again, "192.168.1.70")
        assert back.rejoin(ann.token) and back.seat("m1") == "Ann"
        thief = Visitor(again, "192.168.1.9")
        assert thief.join(again.codes.scorer)
        with pytest.raises(ValueError, match="Ann's seat is held by another phone"):
            thief.take_seat("m1", "Ann")
        again.forget_phones()  # every pass ends: its seats with it
        assert again.passes.holder("m1", "Ann") is None


def test_browsers_are_named_in_a_few_words():
    assert browser_words(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131 Safari/537.36 Edg/131"
    ) == ("Edge on Windows")
    headless = (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0 Safari/537.36"
    )
    assert browser_words(headless) == "Chrome on Linux"
    assert browser_words("curl/8.0") == "a browser"


def test_a_finished_match_changes_when_the_other_side_agrees_and_not_before(served):
    with served.lock:
        mid = served.store.import_record(record(["Ann", "Ben"]))
    ann, ben, cy = phone(served, 7), phone(served, 8), phone(served, 9)
    asker = TableModel(ann, mid)
    asker.take_seat("Ann")
    asker.undo()
    assert asker.error == "the match is over: a change needs the host, or a phone holding a seat of Ben"
    TableModel(ben, mid).take_seat("Ben")
    asker.undo()
    assert turns(served, mid) == 1 and asker.error is None
    assert asker.note == "the match is over: asked Ben to agree to undo the last entry"
    assert asker.asks.question() == "Waiting for Ben to agree to undo the last entry (the match is over)."
    other = TableModel(ben, mid)
    assert other.asks.can_answer and not asker.asks.can_answer and not TableModel(cy, mid).asks.can_answer
    assert other.asks.question() == "Ann's phone asks to undo the last entry of this finished match: Ben to agree."
    TableModel(cy, mid).asks.agree()  # a phone without a seat
    assert turns(served, mid) == 1
    other.asks.decline()
    assert other.note == "refused on Ben's phone: undo the last entry" and asker.asks.open is None
    asker.undo()
    asker.asks.decline()  # taken back by the phone that asked
    assert asker.note == "taken back" and asker.asks.open is None
    asker.undo()
    agreeing = TableModel(ben, mid)
    assert agreeing.asks.agree() and turns(served, mid) == 0
    assert agreeing.note == "agreed: undo the last entry, as Ann's phone asked"
    assert served.hub.last(mid) == "the agreed change (undo the last entry)"


def test_partners_need_each_other_side_and_a_change_meanwhile_drops_the_question(served):
    teams = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    with served.lock:
        mid = served.store.import_record(record(["Ann", "Ben", "Cy", "Di"], teams))
    ann, di = phone(served, 7), phone(served, 8)
    TableModel(ann, mid).take_seat("Ann")
    TableModel(di, mid).take_seat("Di")  # one seat of the other side is enough to agree for it
    asker = TableModel(ann, mid)
    asker.undo()
    assert asker.asks.open is not None and TableModel(di, mid).asks.can_answer
    TableModel(served, mid).undo()  # the host changes the match meanwhile: the question goes
    assert turns(served, mid) == 0 and TableModel(di, mid).asks.open is None


def test_a_confirmed_sheet_stops_every_change_until_the_host_reopens_it(served):
    with served.lock:
        event = served.events.add(
            new_event("lg", "L", "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]}, singles=1, legs=1)
        )
        mid = served.store.import_record(won_record(event, 1, 1, winner=0))
    ann = phone(served, 7)
    EventModel(ann, "lg").iam("Ann")
    SheetModel(ann, "lg", 1, 1).confirm("Reds")
    host = TableModel(served, mid)
    host.undo()
    assert turns(served, mid) == 1 and host.error.startswith("the result sheet of Reds v Blues (round 1) is confirmed")
    SheetModel(served, "lg", 1, 1).reopen()
    TableModel(served, mid).undo()
    assert turns(served, mid) == 0
    sheet = SheetModel(ann, "lg", 1, 1).sheet()
    assert sheet.confirmations == () and sheet.reopenings[0].words().endswith("1-0 for Reds by Ann (captain)")
