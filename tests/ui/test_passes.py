"""Phones rejoin (issue 27): a pass per joined browser, kept with the codes in the table
file across a restart the same evening; new codes or "forget all phones" end them."""

from __future__ import annotations

import json
import os
import stat

import pytest
from support import make_fifo

from scorekeeper.store import Store
from scorekeeper.ui.access.gate import Codes, Gate, Role
from scorekeeper.ui.access.passes import KEEP_FOR, TableFile
from scorekeeper.ui.access.visitor import Visitor

PHONE = "192.168.1.7"


@pytest.fixture
def store(tmp_path):
    """The database in ``tmp_path``: the table file is one of its side files."""
    with Store(tmp_path) as st:
        yield st


def joined(gate: Gate, code: str = "123456") -> Visitor:
    v = Visitor(gate, PHONE)
    assert v.join(code) and v.token
    return v


def test_a_pass_gives_back_the_role_and_the_seats_without_a_code(store):
    gate = Gate.kept(store)
    phone = joined(gate, gate.codes.scorer)
    phone.take_seat("m1", "Cy")
    phone.take_seat("m2", None)
    again = Visitor(gate, "192.168.1.99")  # a new tab (another address, as after a new lease)
    assert again.role is None
    assert again.rejoin(phone.token)
    assert again.role is Role.SCORER and again.seat("m1") == "Cy" and again.asked("m2") and again.seat("m2") is None
    watcher = joined(gate, gate.codes.watcher)
    later = Visitor(gate, PHONE)
    assert later.rejoin(watcher.token) and later.role is Role.WATCHER


@pytest.mark.parametrize("token", ["", "x" * 43, "x" * 5000, None, 12, ["a"]])
def test_anything_but_a_pass_of_this_table_lets_nobody_in(store, token):
    gate = Gate.kept(store)
    joined(gate, gate.codes.scorer)
    v = Visitor(gate, PHONE)
    assert not v.rejoin(token) and v.role is None


def test_the_host_and_an_open_table_get_no_pass(store):
    gate = Gate.kept(store)
    host = Visitor(gate, "127.0.0.1")
    assert host.role is Role.HOST and host.join(gate.codes.scorer) and host.token is None
    open_gate = Gate(None)
    v = Visitor(open_gate, PHONE)
    assert v.role is Role.SCORER and v.token is None and not v.rejoin("anything")
    assert len(gate.passes) == 0


def test_the_same_codes_and_passes_after_a_restart_the_same_evening_new_ones_later(store):
    gate = Gate.kept(store)
    phone = joined(gate, gate.codes.scorer)
    phone.take_seat("m1", "Ben")
    again = Gate.kept(store)  # the server started again
    assert (again.codes.scorer, again.codes.watcher) == (gate.codes.scorer, gate.codes.watcher)
    v = Visitor(again, PHONE)
    assert v.rejoin(phone.token) and v.seat("m1") == "Ben"
    fresh = Gate.kept(store, new=True)
    assert not Visitor(fresh, PHONE).rejoin(phone.token)  # --new-codes ends the passes


def test_the_join_links_secrets_are_kept_across_a_restart_and_renewed_with_the_codes(store, tmp_path):
    """Issue 43: the QR codes printed and shown stay good after a restart the same evening;
    new codes make new secrets; a table file written before the secrets keeps its codes."""
    gate = Gate.kept(store)
    c = gate.codes
    assert len(c.scorer_secret) >= 22 and len({c.scorer_secret, c.watcher_secret, c.scorer, c.watcher}) == 4
    again = Gate.kept(store)  # the server started again
    assert (again.codes.scorer_secret, again.codes.watcher_secret) == (c.scorer_secret, c.watcher_secret)
    assert Visitor(again, PHONE).join(c.scorer_secret)
    assert stat.S_IMODE(os.stat(tmp_path / TableFile.NAME).st_mode) & 0o077 == 0  # the owner's only
    again.renew()
    assert again.codes.scorer_secret != c.scorer_secret
    assert Gate.kept(store).codes.scorer_secret == again.codes.scorer_secret
    data = json.loads((tmp_path / TableFile.NAME).read_text(encoding="utf-8"))
    del data["links"]  # as an earlier Scorekeeper wrote it
    (tmp_path / TableFile.NAME).write_text(json.dumps(data), encoding="utf-8")
    older = Gate.kept(store)
    assert older.codes.scorer == again.codes.scorer and older.problem is None
    assert Gate.kept(store).codes.scorer_secret == older.codes.scorer_secret  # made once, then kept


def test_codes_older_than_an_evening_are_not_kept(store):
    keep = TableFile.of(store)
    gate = Gate.kept(store)
    keep.save(gate.codes.scorer, gate.codes.watcher, 1000.0, gate.passes)
    assert TableFile.of(store, clock=lambda: 1000.0 + KEEP_FOR - 1).load() is not None
    assert TableFile.of(store, clock=lambda: 1000.0 + KEEP_FOR + 1).load() is None
    assert TableFile.of(store, clock=lambda: 900.0).load() is None  # made "in the future": the clock moved


def test_the_table_file_is_the_owners_and_holds_no_pass_in_clear(store, tmp_path):
    gate = Gate.kept(store)
    phone = joined(gate, gate.codes.scorer)
    path = tmp_path / TableFile.NAME
    assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0
    text = path.read_text(encoding="utf-8")
    assert phone.token not in text and gate.codes.scorer in text


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'{"codes": {"scorer": "1", "watcher": "2"}, "made": 0}', b"\xff\xfe", b'{"made": "x"}'],
)
def test_a_table_file_that_cannot_be_read_is_set_aside_and_new_codes_made(store, tmp_path, content):
    (tmp_path / TableFile.NAME).write_bytes(content)
    gate = Gate.kept(store)
    assert gate.codes is not None and len(gate.codes.scorer) == 6
    assert (tmp_path / f"{TableFile.NAME}.unreadable").read_bytes() == content
    assert gate.problem and "set aside" in gate.problem


def test_a_pass_for_the_host_role_in_the_file_is_ignored(store, tmp_path):
    Gate.kept(store)
    data = json.loads((tmp_path / TableFile.NAME).read_text(encoding="utf-8"))
    data["passes"] = {
        "a" * 64: {"role": "host", "seats": {}},
        "b" * 64: {"role": "owner"},
        "c": {"role": "scorer"},
        "d" * 64: {"role": "scorer", "seats": {"m1": "Ann", "m2": 7}, "label": "Chrome on Android", "since": 5},
        "host": {"role": "scorer", "seats": {"m3": "Ben"}},  # the host's key is the host's, never a phone's
    }
    (tmp_path / TableFile.NAME).write_text(json.dumps(data), encoding="utf-8")
    assert Gate.kept(store).passes.to_json() == {
        "d" * 64: {"role": "scorer", "seats": {"m1": "Ann"}, "label": "Chrome on Android", "since": 5.0}
    }


def test_a_table_file_that_cannot_be_written_says_so_and_the_table_goes_on(store, tmp_path):
    (tmp_path / TableFile.NAME).mkdir()  # where the file should be: a directory (os.replace fails)
    gate = Gate.kept(store)
    assert gate.problem and "phones must join again after a restart" in gate.problem
    phone = joined(gate, gate.codes.scorer)
    assert Visitor(gate, PHONE).rejoin(phone.token)  # in memory all evening


def test_new_codes_shut_out_every_joined_phone_at_once_and_tell_its_screen(store, monkeypatch):
    gate = Gate.kept(store)
    monkeypatch.setattr(Codes, "new", classmethod(lambda cls: cls("111111", "222222")))
    old = gate.codes.scorer
    phone = joined(gate, old)
    phone.take_seat("m1", "Ann")
    told: list[str] = []
    gate.watch(phone, lambda: told.append("redraw"))
    host = Visitor(gate, "127.0.0.1")
    gate.renew()
    assert phone.role is None and host.role is Role.HOST and told == ["redraw"]
    assert not Visitor(gate, PHONE).rejoin(phone.token)
    assert (gate.codes.scorer, gate.codes.watcher) == ("111111", "222222")
    assert Gate.kept(store).codes.scorer == "111111"  # kept for a restart
    if old != "111111":
        assert not Visitor(gate, "10.0.0.2").join(old)
    back = Visitor(gate, PHONE)
    assert back.join(gate.codes.scorer) and back.seat("m1") is None  # joins again, asked its seat again


def test_forget_all_phones_keeps_the_codes(store):
    gate = Gate.kept(store)
    code = gate.codes.scorer
    phone = joined(gate, code)
    gate.forget_phones()
    assert phone.role is None and gate.codes.scorer == code
    assert not Visitor(gate, PHONE).rejoin(phone.token)
    assert Gate.kept(store).codes.scorer == code and len(Gate.kept(store).passes) == 0


def test_a_fifo_or_a_directory_where_the_table_file_should_be_is_not_waited_on(store, tmp_path):
    make_fifo(tmp_path / TableFile.NAME)
    gate = Gate.kept(store)  # would hang reading a FIFO
    assert gate.problem and "cannot" in gate.problem


def test_the_table_file_is_written_through_the_store_and_a_read_only_one_writes_none(store, tmp_path, monkeypatch):
    from scorekeeper.store import SideFile

    saved: list[str] = []
    real = SideFile.save

    def spy(self: SideFile, data: bytes) -> None:
        saved.append(self.path.name)
        real(self, data)

    monkeypatch.setattr(SideFile, "save", spy)
    gate = Gate.kept(store)
    joined(gate, gate.codes.scorer)
    assert saved == ["table.json", "table.json"] and gate.problem is None
    store.close()
    (tmp_path / TableFile.NAME).unlink()
    with Store(tmp_path, read_only=True) as ro:
        gate = Gate.kept(ro)
    assert gate.problem and "phones must join again after a restart" in gate.problem
    assert not (tmp_path / TableFile.NAME).exists()
