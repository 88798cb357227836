"""Every phone on a match shows the same truth (issue 16), on the view-models: a change
made on one screen reaches the others of its match; an entry made on a screen that does
not show the last change yet is refused and nothing is applied."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.access.roles import stale
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.live.hub import Hub
from scorekeeper.ui.server.shared import open_shared
from scorekeeper.ui.shell.base import Shared


class Phone:
    """A table screen with the delivery the Flet layer makes: it waits, as a task of the
    phone's own session does, until :meth:`receive`; :meth:`ack` is its browser's answer."""

    def __init__(self, shared: Shared, mid: str, address: str, code: str | None = None) -> None:
        view = shared.visit(address)
        if code:
            assert view.visitor.join(code)
        self.table = TableModel(view, mid)
        self.inbox: list[TableModel] = []
        self.stop = shared.hub.subscribe(mid, self.table, self.inbox.append, owner=view.visitor)

    def receive(self) -> None:
        while self.inbox:
            self.table.remote(self.inbox.pop(0))

    def ack(self) -> None:
        self.table.seen()


def served(tmp_path) -> Shared:
    return open_shared(str(tmp_path / "db"), gate=Gate(Codes("482913", "771204")))


def new_match(shared: Shared) -> str:
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_leader("Ann")
    mid = form.start()
    assert mid
    return mid


def test_an_entry_reaches_the_other_phones_with_what_it_did(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    w = Phone(shared, mid, "192.168.1.8", "771204")
    b.table.take_seat("Ben")
    a.table.play.tap("5-5")
    assert a.inbox == [] and len(b.inbox) == len(w.inbox) == 1  # not back to the phone that entered it
    b.receive()
    w.receive()
    for t in (b.table, w.table):
        assert t.match.to_record() == a.table.match.to_record()
        assert t.note == "Ann set 5-5: count 10, Ann +10 (on the host)" and t.flash == "10!"
    assert b.table.my_turn  # Ben's phone lights up
    b.ack()
    b.table.play.tap("5-0")
    a.receive()
    assert a.table.note == "Ben set 5-0: count 10, Ben +10 (on Ben's phone)"
    a.ack()
    a.table.undo()
    b.receive()
    assert b.table.note == "Undo: Ben's 5-0 taken back (on the host)"  # which entry
    assert len(b.table.match.hand.turns) == 1
    shared.close()


def test_a_tap_on_a_screen_that_does_not_show_the_change_yet_is_refused(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    a.table.play.tap("6-6")
    before = shared.store.export(mid)
    # 1. the change has not even reached b's session: its screen still says Ann to play
    assert b.table.behind
    b.table.play.tap("5-5")
    assert b.table.error == "Ann's 6-6 came first: check and tap again"  # which entry won
    assert shared.store.export(mid) == before
    assert not b.table.behind and b.table.unseen  # caught up at once; its browser is told
    # 2. delivered, but its browser has not answered yet
    b.receive()
    b.table.play.tap("6-5")
    assert b.table.error == stale("Ann's 6-6") and shared.store.export(mid) == before
    b.table.play.draw(1)
    assert b.table.play.draws == 0
    # 3. its browser shows it: taps are taken again
    b.ack()
    b.table.play.tap("6-5")
    assert b.table.error is None and len(shared.store.match(mid).hand.turns) == 2
    shared.close()


def test_what_a_phone_was_entering_is_dropped_when_the_match_changes(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    for tile in ("3-2", "2-2", "4-2"):
        a.table.play.tap(tile)
    b.receive()
    b.ack()
    b.table.play.draw(2)
    b.table.fixes.open()
    b.table.fixes.pick(1, 2)
    assert b.table.fixes.picked is not None
    a.table.play.tap("2-0")  # a does not show b's draws yet: refused, naming them
    assert a.table.error == "the draw entered on another phone came first: check and tap again"  # b: nobody's
    a.receive()
    a.ack()
    assert a.table.play.draws == 2 and a.table.note == "Ben drew 2 (on another phone)"
    a.table.play.tap("2-0")  # on the spinner: several places, a waits for the choice
    a.table.play.choose("2-2")
    assert shared.store.record(mid)["hands"][0]["turns"][-1] == {"draw": 2, "play": "2-0", "on": "2-2"}
    b.receive()
    assert b.table.play.draws == 0 and b.table.fixes.picked is None and b.table.play.choosing is None
    shared.close()


def test_a_phone_back_from_sleep_catches_up(tmp_path):
    shared = served(tmp_path)
    mid = new_match(shared)
    a = Phone(shared, mid, "127.0.0.1")
    b = Phone(shared, mid, "192.168.1.7", "482913")
    a.table.play.tap("5-5")
    b.inbox.clear()  # its session was asleep: the delivery was dropped
    b.table.catch_up()
    assert b.table.to_move == "Ben" and b.table.note == "changed on another phone meanwhile"
    assert b.table.unseen
    shared.close()


def test_a_closed_session_is_forgotten():
    hub = Hub()
    owner = object()
    hub.subscribe("m", ["a"], lambda o: None, owner=owner)
    hub.subscribe("m", ["b"], lambda o: None, owner=object())
    hub.drop(owner)
    assert hub.count("m") == 1

    def broken(origin: object) -> None:
        raise RuntimeError("session gone")

    hub.subscribe("m", ["c"], broken)
    hub.publish("m", None)
    assert hub.count() == 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(["tap", "receive", "ack", "undo"])), max_size=40))
def test_no_entry_is_ever_made_on_a_stale_screen(tmp_path_factory, steps):
    """Whatever order taps, deliveries and answers come in, an entry is taken only from a
    screen that showed the match as stored (else it is refused, naming the entry that came first, and nothing
    changes), and every phone ends showing the stored match."""
    shared = served(tmp_path_factory.mktemp("live"))
    mid = new_match(shared)
    phones = {"a": Phone(shared, mid, "127.0.0.1"), "b": Phone(shared, mid, "192.168.1.7", "482913")}
    for who, what in steps:
        phone = phones[who]
        t = phone.table
        if what == "receive":
            phone.receive()
            continue
        if what == "ack":
            phone.ack()
            continue
        was_stale = t.unseen or t.behind
        stored_before = shared.store.record(mid)
        if what == "tap":
            m = t.match
            fits = [x for x in m.tiles if m.placements(x)] if m.hand and m.hand.end is None else []
            if not fits:
                continue
            t.play.tap(str(fits[0]))
            if t.play.choosing:
                t.play.choose(t.play.choosing[1][0])
        else:
            t.undo()
        changed = shared.store.record(mid) != stored_before
        if was_stale:
            assert not changed and t.error == stale(shared.hub.last(mid))
    for phone in phones.values():
        phone.receive()
        phone.table.catch_up()
        assert phone.table.match.to_record() == shared.store.match(mid).to_record()
    shared.close()
