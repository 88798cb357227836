"""The phone alone, back at the table (issue 29): its finished matches sent to the table's laptop.

The laptop's side is the ASGI app at ``/matches`` (:mod:`scorekeeper.ui.server.inbox`), called
here as the web server calls it; the phone's side is History's :class:`SendModel`, whose
``post`` here calls that same app in process (the browser's fetch in the real site)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aio import run

from scorekeeper.ui.history.send import SendModel
from scorekeeper.ui.server.access import Codes, Gate, Role
from scorekeeper.ui.server.inbox import Inbox
from scorekeeper.ui.server.shared import open_shared

PHONE = "192.168.1.31"
TABLE, WATCH = "482913", "771204"


def won(first: str = "Ann", second: str = "Ben") -> dict[str, Any]:
    """A match to 5 that the leader's 5-0 wins at once."""
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [first, second],
        "rules": {"target": 5},
        "hands": [{"leader": first, "turns": [{"play": "5-0"}]}],
    }


def call(
    inbox: Inbox,
    body: bytes,
    *,
    address: str = PHONE,
    headers: dict[str, str] | None = None,
    method: str = "POST",
    chunk: int = 65_536,
) -> tuple[int, Any]:
    """One request to ``inbox`` as the web server makes it: (status, the JSON answer)."""
    hs = {"host": "192.168.1.20:8550", "content-type": "application/json", **(headers or {})}
    scope = {
        "type": "http",
        "method": method,
        "path": "/",
        "headers": [(k.encode(), v.encode()) for k, v in hs.items()],
        "client": (address, 50_000),
    }
    parts = [body[i : i + chunk] for i in range(0, len(body), chunk)] or [b""]
    read = {"n": 0}

    async def receive() -> dict[str, Any]:
        i = read["n"]
        read["n"] += 1
        return {"type": "http.request", "body": parts[i], "more_body": i + 1 < len(parts)}

    out: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        out.append(message)

    run(inbox(scope, receive, send))
    return out[0]["status"], json.loads(out[1]["body"])


def sent(inbox: Inbox, record: Any, **credential: str) -> tuple[int, Any]:
    return call(inbox, json.dumps({**credential, "record": record}).encode())


@pytest.fixture
def laptop(tmp_path):
    shared = open_shared(str(tmp_path / "laptop"), gate=Gate(Codes(TABLE, WATCH)))
    yield shared
    shared.close()


def test_a_match_is_stored_once_and_again_is_already_there(laptop):
    inbox = Inbox(laptop)
    status, answer = sent(inbox, won(), code=TABLE)
    assert status == 200 and answer["result"] == "stored"
    assert laptop.store.record(answer["id"])["hands"] == won()["hands"]
    again = sent(inbox, won(), code=TABLE)
    assert again == (200, {"result": "already", "id": answer["id"]})
    assert laptop.store.count() == 1


def test_who_may_send(laptop):
    inbox = Inbox(laptop)
    assert sent(inbox, won())[0] == 403  # no code, no pass: a stranger on the Wi-Fi
    status, answer = sent(inbox, won(), code=WATCH)
    assert status == 403 and answer["error"].startswith("the watch code sees the table; it sends no match")
    token = laptop.gate.passes.issue(Role.SCORER)  # a phone that joined with the table code
    assert sent(inbox, won("Cy", "Di"), **{"pass": token})[1]["result"] == "stored"
    watching = laptop.gate.passes.issue(Role.WATCHER)
    assert sent(inbox, won("Ed", "Flo"), **{"pass": watching})[0] == 403
    assert sent(inbox, won("Gus", "Hal"), **{"pass": "forged"})[0] == 403  # an unknown pass: as no code
    host = call(inbox, json.dumps({"record": won("Ivy", "Jo")}).encode(), address="127.0.0.1")
    assert host[1]["result"] == "stored"  # the laptop itself needs no code
    assert laptop.store.count() == 2


def test_wrong_codes_are_slowed_down_as_at_the_join_screen(laptop):
    inbox = Inbox(laptop)
    for _ in range(3):  # the free tries
        status, answer = sent(inbox, won(), code="000000")
        assert (status, answer["error"]) == (403, "that is not this table's code: check it on the host's screen")
    status, answer = sent(inbox, won(), code=TABLE)  # even the right code waits now
    assert status == 403 and answer["error"].startswith("too many wrong codes from this phone: wait")
    assert laptop.gate.wait(PHONE) > 0 and laptop.store.count() == 0


@pytest.mark.parametrize(
    ("body", "headers", "method", "status", "words"),
    [
        (b"{}", {}, "GET", 405, "send a match with POST"),
        (b"{}", {"content-type": "text/plain"}, "POST", 415, "send the match as JSON"),
        (b"{}", {"origin": "http://evil.example"}, "POST", 403, "a match is sent from this server's own pages only"),
        (b"not json", {}, "POST", 400, "not a match sent by a phone: the request is not JSON"),
        (b"[1, 2]", {}, "POST", 400, "not a match sent by a phone: no record in it"),
        (b"{}", {}, "POST", 400, "not a match sent by a phone: no record in it"),
    ],
)
def test_what_is_not_a_sent_match_is_refused_in_words(laptop, body, headers, method, status, words):
    got = call(Inbox(laptop), body, headers=headers, method=method)
    assert got[0] == status and got[1]["error"].startswith(words)
    assert laptop.store.count() == 0


def test_the_own_origin_is_welcome(laptop):
    body = json.dumps({"code": TABLE, "record": won()}).encode()
    assert call(Inbox(laptop), body, headers={"origin": "http://192.168.1.20:8550"})[0] == 200


def test_a_record_the_engine_refuses_is_said_and_not_stored(laptop):
    bad = won()
    bad["hands"][0]["turns"] = [{"play": "5-0"}, {"play": "6-6"}]
    status, answer = sent(Inbox(laptop), bad, code=TABLE)
    assert status == 400 and answer["error"].startswith("not stored: hand 1, turn 2: ")
    players = won()
    players["players"] = ["Ann", "ann"]
    status, answer = sent(Inbox(laptop), players, code=TABLE)
    assert status == 400 and "same name" in answer["error"]
    assert laptop.store.count() == 0


def test_a_body_past_the_records_limit_is_refused_unread(laptop):
    huge = b'{"code": "482913", "record": "' + b"x" * 2_100_000 + b'"}'
    status, answer = call(Inbox(laptop), huge)
    assert status == 413 and "larger than 2 MB" in answer["error"]


# ------------------------------------------------------------------ the phone's side
@pytest.fixture
def phone(tmp_path):
    shared = open_shared(str(tmp_path / "phone"))
    yield shared
    shared.close()


def through(inbox: Inbox, address: str = PHONE):
    """The phone's post, reaching the laptop's inbox in process."""

    async def post(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        assert path == "/matches"
        return await asyncio.to_thread(call, inbox, json.dumps(body).encode(), address=address)

    return post


def test_one_tap_sends_the_finished_matches_and_only_once(phone, laptop):
    for pair in (("Ann", "Ben"), ("Cy", "Di")):
        phone.store.create(won(*pair))
    phone.store.create({**won("Ed", "Flo"), "hands": [{"leader": "Ed", "turns": []}]})  # not finished
    vm = SendModel(phone, through(Inbox(laptop)))
    assert len(vm.finished()) == 2
    run(vm.send(TABLE))
    assert (vm.line, vm.error) == ("2 sent to the table", None)
    assert laptop.store.count() == 2
    run(vm.send(TABLE))
    assert (vm.line, vm.error) == ("0 sent to the table, 2 there already", None)
    assert laptop.store.count() == 2 and phone.store.count() == 3  # the phone keeps its matches


def test_the_kept_pass_needs_no_code_and_a_wrong_code_stops_the_sending(phone, laptop):
    phone.store.create(won())
    vm = SendModel(phone, through(Inbox(laptop)))
    run(vm.send("123456"))
    assert vm.error == "that is not this table's code: check it on the host's screen" and laptop.store.count() == 0
    run(vm.send("", kept_pass=laptop.gate.passes.issue(Role.SCORER)))
    assert (vm.line, vm.error) == ("1 sent to the table", None)


def test_what_the_phone_says_when_it_cannot_send(phone, laptop):
    vm = SendModel(phone, through(Inbox(laptop)))
    run(vm.send(TABLE))
    assert vm.error == "no finished match on this phone yet: a match is sent once it is won"
    phone.store.create(won())
    run(vm.send(""))
    assert vm.error == "type the table code first: six digits, on the table laptop's screen"

    async def away(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        raise OSError("Failed to fetch")

    vm = SendModel(phone, away)
    run(vm.send(TABLE))
    assert vm.error.startswith("the table's laptop does not answer (Failed to fetch): send them when this phone")

    async def static_host(path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return 405, None  # the site copied to a plain web host: no table there

    vm = SendModel(phone, static_host)
    run(vm.send(TABLE))
    assert vm.error == "the server at this address is not a table's laptop (it answered 405)"
