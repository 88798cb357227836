"""The hand end is the table's (issue 27): each phone enters its own player's tiles left
(its row first, its picker ready), anyone may enter for anyone, every entry shows on every
phone, "still to enter" is the same everywhere, Settle is one action, and the next hand's
form is empty. An entry for a player whose last entry this screen does not show yet is
refused, as a stale tap is; entries for different players never get in each other's way."""

from __future__ import annotations

import random

from allfives.test_ui_model import _play_out

from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.shell.base import Shared
from ui.test_live import Phone, served
from ui.test_turns import PLAYERS, seated


def short_hands_match(shared: Shared) -> str:
    form = NewMatchForm(shared, names=list(PLAYERS))
    form.set_rule("hand_size", 2)
    form.set_leader("Ann")
    mid = form.start()
    assert mid, form.error
    return mid


def play_out(t: TableModel, seed: int) -> None:
    """Random legal entries on ``t`` (a phone that is nobody's) until the hand is over."""
    _play_out(t, random.Random(seed))


def settle_all(phones: dict[str, Phone]) -> None:
    for phone in phones.values():
        phone.receive()
        phone.ack()


def hand_over(tmp_path) -> tuple[Shared, str, dict[str, Phone]]:
    """A four-player match of two-tile hands, its first hand played out on the host and
    every phone showing its end."""
    shared = served(tmp_path)
    mid = short_hands_match(shared)
    phones = seated(shared, mid)
    play_out(phones["host"].table, seed=3)
    settle_all(phones)
    return shared, mid, phones


def free_tiles(t: TableModel) -> list[str]:
    return [c.tile for c in t.play.picker() if c.state != "down"]


def test_each_phone_enters_its_own_tiles_and_every_phone_sees_every_entry(tmp_path):
    shared, mid, phones = hand_over(tmp_path)
    host = phones["host"].table
    holding = dict(host.hand_end.asked())  # the holders whose tiles count
    assert host.phase == "hand-end" and len(holding) >= 2
    pool = free_tiles(host)
    for name in holding:  # each phone: its own row first, its picker on its own player
        end = phones[name].table.hand_end
        assert end.asked()[0][0] == name and end.picking_for == name
    # the laptop is nobody's: its picker is ready for the first still to enter
    assert host.hand_end.picking_for == host.hand_end.waiting()[0]
    # each player enters their own, on their own phone, all at once (nobody has seen the others' yet)
    for name, held in holding.items():
        end = phones[name].table.hand_end
        for _ in range(held):
            end.pick_remaining(pool.pop())
        assert phones[name].table.error is None
    settle_all(phones)
    waiting = {who: p.table.hand_end.waiting() for who, p in phones.items()}
    assert all(w == [] for w in waiting.values()), waiting
    entered = host.hand_end.remaining
    assert all(p.table.hand_end.remaining == entered for p in phones.values())
    assert sorted(entered) == sorted(holding)
    lines = {who: p.table.hand_end.settlement_preview() for who, p in phones.items()}
    assert len({repr(v) for v in lines.values()}) == 1 and lines["host"][0]  # the same settlement everywhere
    phones["Cy"].table.hand_end.settle()  # one action for the table
    assert phones["Cy"].table.error is None
    settle_all(phones)
    for p in phones.values():
        assert p.table.phase in ("play", "leader") and p.table.hand_end.remaining == {}
    if host.phase == "leader":
        host.hand_end.start_hand("Ann")
        settle_all(phones)
    play_out(host, seed=4)
    settle_all(phones)
    if host.phase == "hand-end":  # the next hand's form is empty on every phone
        for p in phones.values():
            assert p.table.hand_end.remaining == {}
            assert p.table.hand_end.waiting() == [n for n, _ in p.table.hand_end.asked()]
    shared.close()


def test_an_entry_for_a_player_changed_on_another_phone_meanwhile_is_refused(tmp_path):
    shared, mid, phones = hand_over(tmp_path)
    host = phones["host"].table
    holding = dict(host.hand_end.holding())
    a, b = list(holding)[:2]
    phones[a].table.hand_end.set_pips(a, "7")
    # the host has not been told yet: its entry for the same player is refused, naming the other
    host.hand_end.set_pips(a, "9")
    assert host.error == f"{a}'s tiles left, as entered on {a}'s phone, came first: check and tap again"
    assert host.hand_end.remaining[a] == "7"
    # ...while an entry for another player goes in at once
    phones[b].table.hand_end.set_pips(b, "4")
    assert phones[b].table.error is None and host.hand_end.remaining == {a: "7", b: "4"}
    # told and shown: the host may change it now
    phones["host"].receive()
    phones["host"].ack()
    host.hand_end.set_pips(a, "9")
    assert host.error is None and host.hand_end.remaining[a] == "9"
    shared.close()


def test_settle_from_a_screen_that_does_not_show_every_entry_is_refused(tmp_path):
    shared, mid, phones = hand_over(tmp_path)
    holding = dict(phones["host"].table.hand_end.holding())
    for name in holding:
        phones["host"].table.hand_end.set_pips(name, "1")
    settle_all(phones)
    first = next(iter(holding))
    phones[first].table.hand_end.set_pips(first, "2")  # changed: the host's screen still says 1
    before = shared.store.record(mid)
    phones["host"].table.hand_end.settle()
    assert phones["host"].table.error.endswith("came first: check and tap again")
    assert shared.store.record(mid) == before
    settle_all(phones)
    phones["host"].table.hand_end.settle()
    assert phones["host"].table.error is None and shared.store.record(mid) != before
    shared.close()


def test_a_watcher_cannot_enter_tiles_left(tmp_path):
    shared, mid, phones = hand_over(tmp_path)
    watcher = Phone(shared, mid, "192.168.1.30", "771204")
    name = phones["host"].table.hand_end.holding()[0][0]
    watcher.table.hand_end.set_pips(name, "5")
    assert watcher.table.error and phones["host"].table.hand_end.remaining == {}
    shared.close()
