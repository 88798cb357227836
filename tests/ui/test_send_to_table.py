"""The phone alone, back at the table (issue 29): its finished matches sent to the table's laptop.

The laptop's side is the ASGI app at ``/matches`` (:mod:`scorekeeper.ui.server.inbox`), called
here as the web server calls it; the phone's side is History's :class:`SendModel`, whose
``post`` here calls that same app in process (the browser's fetch in the real site)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from aio import run

from scorekeeper.ui.access.gate import Codes, Gate, Role
from scorekeeper.ui.history.send import SendModel
from scorekeeper.ui.server.door import Slots
from scorekeeper.ui.server.guard import Guard
from scorekeeper.ui.server.inbox import LIMIT, PATH, TOO_LARGE, Inbox
from scorekeeper.ui.server.shared import open_shared

PHONE = "192.168.1.31"
TABLE, WATCH = "482913", "771204"
NAMES = {"10.0.0.1": ("Ann", "Ben"), "10.0.0.2": ("Cy", "Di")}


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
    inbox: Any,
    body: bytes,
    *,
    address: str = PHONE,
    headers: dict[str, str] | None = None,
    method: str = "POST",
    path: str = "/matches",
    chunk: int = 65_536,
) -> tuple[int, Any]:
    """One request to ``inbox`` (the inbox, or the guard in front of it) as the web server
    makes it: (status, the JSON answer)."""
    status, answer, _ = exchange(inbox, body, address=address, headers=headers, method=method, path=path, chunk=chunk)
    return status, answer


def exchange(
    app: Any,
    body: bytes,
    *,
    address: str = PHONE,
    headers: dict[str, str] | None = None,
    method: str = "POST",
    path: str = "/matches",
    chunk: int = 65_536,
    stall: bool = False,
) -> tuple[int, Any, dict[str, Any]]:
    """:func:`call`, with what else the client saw: ``read`` (the pieces of the body the app
    asked for), ``headers`` of the answer. ``stall``: the body stops after its first piece."""
    hs = {"host": "192.168.1.20:8550", "content-type": "application/json", **(headers or {})}
    if body:
        hs.setdefault("content-length", str(len(body)))
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(k.encode(), v.encode()) for k, v in hs.items()],
        "client": (address, 50_000),
    }
    parts = [body[i : i + chunk] for i in range(0, len(body), chunk)] or [b""]
    read = {"n": 0}

    async def receive() -> dict[str, Any]:
        i = read["n"]
        read["n"] += 1
        if stall and i >= 1:
            await asyncio.Event().wait()  # the rest never comes
        return {"type": "http.request", "body": parts[i], "more_body": i + 1 < len(parts)}

    out: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        out.append(message)

    run(app(scope, receive, send))
    seen = {"read": read["n"], "headers": {k.decode(): v.decode() for k, v in out[0].get("headers", [])}}
    return out[0]["status"], json.loads(out[1]["body"]), seen


def sent(inbox: Any, record: Any, **credential: str) -> tuple[int, Any]:
    """``record`` sent with a pass (``pass_``) or a code (``code``) in their headers."""
    headers = {}
    if "pass_" in credential:
        headers["x-scorekeeper-pass"] = credential["pass_"]
    if "code" in credential:
        headers["x-scorekeeper-code"] = credential["code"]
    return call(inbox, json.dumps(record).encode(), headers=headers)


@pytest.fixture
def laptop(tmp_path):
    shared = open_shared(str(tmp_path / "laptop"), gate=Gate(Codes(TABLE, WATCH)))
    yield shared
    shared.close()


def guarded(shared, **door: Any) -> Guard:
    """The inbox behind the guard, as ``scorekeeper web`` serves it (``door``: the guard's
    ``slots`` and ``deadline``)."""
    return Guard(
        Inbox(shared), hosts=["192.168.1.20"], port=8550, gate=shared.gate, bodies={PATH: (LIMIT, TOO_LARGE)}, **door
    )


def test_a_match_is_stored_once_and_again_is_already_there(laptop):
    inbox = Inbox(laptop)
    status, answer = sent(inbox, won(), code=TABLE)
    assert status == 200 and answer["result"] == "stored"
    assert laptop.store.record(answer["id"])["hands"] == won()["hands"]
    again = sent(inbox, won(), code=TABLE)
    assert again == (200, {"result": "already", "id": answer["id"]})
    assert laptop.store.count() == 1


@pytest.mark.parametrize("door", ["inbox", "guard"])
def test_who_may_send(laptop, door):
    inbox = Inbox(laptop) if door == "inbox" else guarded(laptop)
    assert sent(inbox, won())[0] == 403  # no code, no pass: a stranger on the Wi-Fi
    status, answer = sent(inbox, won(), code=WATCH)
    assert status == 403 and answer["error"].startswith("the watch code sees the table; it sends no match")
    token = laptop.gate.passes.issue(Role.SCORER)  # a phone that joined with the table code
    assert sent(inbox, won("Cy", "Di"), pass_=token)[1]["result"] == "stored"
    watching = laptop.gate.passes.issue(Role.WATCHER)
    assert sent(inbox, won("Ed", "Flo"), pass_=watching)[0] == 403
    # issue 43: a browser that joined as a watcher and now gives the table code sends (the code decides)
    assert sent(inbox, won("Ed", "Flo"), pass_=watching, code=TABLE)[1]["result"] == "stored"
    assert sent(inbox, won("Gus", "Hal"), pass_="forged")[0] == 403  # an unknown pass: as no code
    host = call(inbox, json.dumps(won("Ivy", "Jo")).encode(), address="127.0.0.1")
    assert host[1]["result"] == "stored"  # the laptop itself needs no code
    assert laptop.store.count() == 3


def test_wrong_codes_are_slowed_down_as_at_the_join_screen(laptop):
    inbox = guarded(laptop)
    for _ in range(3):  # the free tries
        status, answer = sent(inbox, won(), code="000000")
        assert (status, answer["error"]) == (403, "that is not this table's code: check it on the host's screen")
    status, answer = sent(inbox, won(), code=TABLE)  # even the right code waits now
    assert status == 403 and answer["error"].startswith("too many wrong codes from this phone: wait")
    assert laptop.gate.wait(PHONE) > 0 and laptop.store.count() == 0 and laptop.gate.wrong == 3


@pytest.mark.parametrize(
    ("body", "headers", "method", "status", "words"),
    [
        (b"{}", {}, "GET", 405, "send a match with POST"),
        (b"{}", {"content-type": "text/plain"}, "POST", 415, "send the match as JSON"),
        (b"{}", {"origin": "http://evil.example"}, "POST", 403, "a match is sent from this server's own pages only"),
        (b"not json", {}, "POST", 400, "not a match record (JSON): expecting a value at line 1, column 1"),
        (b"[1, 2]", {}, "POST", 400, "not stored: a record must be a JSON object, not a list"),
        (b"{}", {}, "POST", 400, "not stored: format: format must be 'scorekeeper/1', not None"),
    ],
)
def test_what_is_not_a_sent_match_is_refused_in_words(laptop, body, headers, method, status, words):
    got = call(Inbox(laptop), body, headers={"x-scorekeeper-code": TABLE, **headers}, method=method)
    assert got[0] == status and got[1]["error"].startswith(words), got
    assert laptop.store.count() == 0


def test_the_own_origin_is_welcome(laptop):
    body = json.dumps(won()).encode()
    headers = {"origin": "http://192.168.1.20:8550", "x-scorekeeper-code": TABLE}
    assert call(Inbox(laptop), body, headers=headers)[0] == 200


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


def test_the_records_door_is_the_imports_duplicate_keys_and_all(laptop):
    """Issue 43: POST /matches reads the record through the one door (``boundary``): a key
    given twice is refused in the very words History -> Import uses."""
    from scorekeeper.ui.history.model import HistoryModel

    text = json.dumps(won())[:-1] + ', "game": "broadway"}'  # "game" twice: JSON keeps the last
    status, answer = call(Inbox(laptop), text.encode(), headers={"x-scorekeeper-code": TABLE})
    history = HistoryModel(laptop)
    assert history.import_text(text) is None
    assert (status, answer["error"]) == (400, history.error)
    assert answer["error"] == "not a match record: the key 'game' appears twice in one object"
    big = json.dumps(won())[:-1] + ', "rules": {"target": 1e999}}'
    assert call(Inbox(laptop), big.encode(), headers={"x-scorekeeper-code": TABLE})[1]["error"].startswith(
        "not a match record"
    )
    assert laptop.store.count() == 0


def test_a_match_with_no_winner_is_not_taken(laptop):
    """Issue 43: only finished matches are sent; a record with no winner yet is refused."""
    playing = {**won(), "rules": {"target": 61}}
    status, answer = sent(Inbox(laptop), playing, code=TABLE)
    assert (status, answer["error"]) == (
        400,
        "not stored: the match has no winner yet (only finished matches are sent)",
    )
    assert sent(Inbox(laptop), {**won(), "hands": []}, code=TABLE)[0] == 400
    assert laptop.store.count() == 0


def test_the_record_is_read_and_stored_off_the_event_loop(laptop, monkeypatch):
    """A large record's parsing and storing run in a worker thread, not on the thread of the
    server's event loop (every phone's taps wait on that one)."""
    from scorekeeper import boundary

    threads: list[int] = []
    real = boundary.decode

    def decode(data: bytes) -> Any:
        threads.append(threading.get_ident())
        return real(data)

    monkeypatch.setattr(boundary, "decode", decode)
    loop_thread: list[int] = []

    async def app(scope, receive, send):
        loop_thread.append(threading.get_ident())
        await Inbox(laptop)(scope, receive, send)

    assert call(app, json.dumps(won()).encode(), headers={"x-scorekeeper-code": TABLE})[0] == 200
    assert threads and loop_thread and threads[0] != loop_thread[0]


def test_a_body_past_the_records_limit_is_refused_unread(laptop):
    huge = b'"' + b"x" * 2_100_000 + b'"'
    status, answer, seen = exchange(guarded(laptop), huge, headers={"x-scorekeeper-code": TABLE})
    assert status == 413 and "larger than 2 MB" in answer["error"]
    assert seen["read"] * 65_536 < len(huge) and seen["headers"]["connection"] == "close"
    assert call(Inbox(laptop), huge, headers={"x-scorekeeper-code": TABLE})[0] == 413  # the inbox alone too


# ------------------------------------------------------------------ the door (issue 43)
def test_a_body_without_a_code_or_with_a_wrong_one_is_refused_before_it_is_read(laptop):
    body = json.dumps(won()).encode() * 20
    for headers in ({}, {"x-scorekeeper-pass": "forged"}, {"x-scorekeeper-code": "000000"}):
        status, answer, seen = exchange(guarded(laptop), body, headers=headers, chunk=1000)
        assert status == 403 and seen["read"] == 0, (headers, answer)  # not a byte of it asked for
        assert seen["headers"]["connection"] == "close"  # the rest of it is not read on this connection
    watching = laptop.gate.passes.issue(Role.WATCHER)
    for headers in ({"x-scorekeeper-code": WATCH}, {"x-scorekeeper-pass": watching}):  # no body is a watcher's
        status, answer, seen = exchange(guarded(laptop), body, headers=headers, chunk=1000)
        assert (status, seen["read"]) == (403, 0) and answer["error"].startswith("the watch code sees the table")
    assert laptop.gate.wrong == 1  # the wrong code counted, as at the join screen
    # any path: Flet's app takes no body; the check comes first (a wrong code counts there too)
    for path in ("/", "/ws", "/app/index.html", "/upload"):
        status, answer, seen = exchange(guarded(laptop), body, path=path, headers={"x-scorekeeper-code": "000001"})
        assert (status, seen["read"]) == (403, 0)
        status, answer, seen = exchange(guarded(laptop), body, path=path, headers={"x-scorekeeper-code": TABLE})
        assert (status, answer, seen["read"]) == (413, {"error": "this address takes no request body"}, 0)
    assert laptop.gate.wrong == 5


def test_a_body_that_stalls_gets_408_and_waits_for_a_slot_get_503(laptop):
    """A phone's body must be in within the deadline (408); one address has one body read at a
    time (the next waits its turn), other addresses are not held up; a body that finds no slot
    free within its deadline gets 503."""

    def request(address: str, stall: bool) -> tuple[dict[str, Any], Any]:
        body = json.dumps(won(*NAMES[address])).encode()
        headers = {"content-type": "application/json", "content-length": str(len(body)), "x-scorekeeper-code": TABLE}
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/matches",
            "headers": [(b"host", b"192.168.1.20:8550"), *((k.encode(), v.encode()) for k, v in headers.items())],
            "client": (address, 50_000),
        }
        given = [0]

        async def receive() -> dict[str, Any]:
            given[0] += 1
            if stall and given[0] > 1:
                await asyncio.Event().wait()  # half a body, then nothing
            half = len(body) // 2
            return {
                "type": "http.request",
                "body": body[:half] if given[0] == 1 else body[half:],
                "more_body": given[0] == 1,
            }

        return scope, receive

    async def scenario(guard: Guard, plan: list[tuple[str, bool, float]]) -> list[tuple[str, int, Any]]:
        results: list[tuple[str, int, Any]] = []

        async def one(address: str, stall: bool, delay: float) -> None:
            await asyncio.sleep(delay)
            scope, receive = request(address, stall)
            out: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                out.append(message)

            await guard(scope, receive, send)
            results.append((address, out[0]["status"], json.loads(out[1]["body"])))

        await asyncio.gather(*(one(*p) for p in plan))
        return results

    guard = guarded(laptop, slots=Slots(total=2), deadline=0.3)
    plan = [("10.0.0.1", True, 0.0), ("10.0.0.1", False, 0.05), ("10.0.0.2", False, 0.05)]
    first, stalled, waited = run(scenario(guard, plan))  # in the order they were answered
    assert first[:2] == ("10.0.0.2", 200)  # another phone: at once
    assert stalled == ("10.0.0.1", 408, {"error": "the match took too long to arrive: not stored, send it again"})
    assert waited[:2] == ("10.0.0.1", 200) and waited[2]["result"] == "stored"  # its turn came in time
    busy = Slots(total=1)
    assert run(busy.take("10.0.0.9", 0))  # a slot held (a large record being stored)
    ((_, status, answer),) = run(scenario(guarded(laptop, slots=busy, deadline=0.2), [("10.0.0.2", False, 0.0)]))
    assert (status, answer) == (503, {"error": "the table is busy taking other matches: send again in a moment"})
    assert laptop.store.count() == 2


def test_uvicorn_closes_a_refused_connection_with_its_body_unread(laptop):
    """The real HTTP protocol (Uvicorn's, with the server's bounds) on a connection from a
    phone's address: a 2 MB body with no code is answered 403 after its first packets and the
    connection is closed; the rest of the body is never read on it."""
    import uvicorn
    from uvicorn.server import ServerState

    from scorekeeper.ui.server.bounds import ConnectionBook, Limits, http_protocol

    class Transport:
        def __init__(self) -> None:
            self.closed, self.written, self.paused = False, b"", False

        def get_extra_info(self, name, default=None):
            return (PHONE, 50_000) if name == "peername" else ("192.168.1.20", 8550) if name == "sockname" else default

        def is_closing(self):
            return self.closed

        def close(self):
            self.closed = True

        def write(self, data):
            self.written += data

        def set_protocol(self, p):
            pass

        def pause_reading(self):
            self.paused = True

        def resume_reading(self):
            self.paused = False

    async def scenario() -> tuple[bool, bytes, int]:
        loop = asyncio.get_running_loop()
        config = uvicorn.Config(guarded(laptop), ws="websockets-sansio", log_level="warning")
        config.load()
        cls = http_protocol(ConnectionBook(Limits()))
        proto = cls(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        t = Transport()
        proto.connection_made(t)
        size = 2_000_000
        proto.data_received(
            b"POST /matches HTTP/1.1\r\nHost: 192.168.1.20:8550\r\ncontent-type: application/json\r\n"
            + f"content-length: {size}\r\n\r\n".encode()
            + b"[" * 1000
        )
        fed = 1000
        for _ in range(50):  # the client keeps sending while the server answers
            await asyncio.sleep(0.01)
            if t.closed:
                break
            proto.data_received(b"[" * 65_536)
            fed += 65_536
        return t.closed, t.written, fed

    closed, written, fed = run(scenario())
    assert closed and fed < 2_000_000
    assert written.startswith(b"HTTP/1.1 403") and b"connection: close" in written.lower()
    assert b"give the table code" in written


# ------------------------------------------------------------------ the phone's side
@pytest.fixture
def phone(tmp_path):
    shared = open_shared(str(tmp_path / "phone"))
    yield shared
    shared.close()


def through(app: Any, address: str = PHONE):
    """The phone's post, reaching the laptop's guard and inbox in process."""

    async def post(path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        assert path == "/matches"
        return await asyncio.to_thread(call, app, json.dumps(body).encode(), address=address, headers=headers)

    return post


def test_one_tap_sends_the_finished_matches_and_only_once(phone, laptop):
    for pair in (("Ann", "Ben"), ("Cy", "Di")):
        phone.store.create(won(*pair))
    phone.store.create({**won("Ed", "Flo"), "hands": [{"leader": "Ed", "turns": []}]})  # not finished
    vm = SendModel(phone, through(guarded(laptop)))
    assert len(vm.finished()) == 2
    run(vm.send(TABLE))
    assert (vm.line, vm.error) == ("2 sent to the table", None)
    assert laptop.store.count() == 2
    run(vm.send(TABLE))
    assert (vm.line, vm.error) == ("0 sent to the table, 2 there already", None)
    assert laptop.store.count() == 2 and phone.store.count() == 3  # the phone keeps its matches


def test_the_kept_pass_needs_no_code_and_a_wrong_code_stops_the_sending(phone, laptop):
    phone.store.create(won())
    vm = SendModel(phone, through(guarded(laptop)))
    run(vm.send("123456"))
    assert vm.error == "that is not this table's code: check it on the host's screen" and laptop.store.count() == 0
    run(vm.send("", kept_pass=laptop.gate.passes.issue(Role.SCORER)))
    assert (vm.line, vm.error) == ("1 sent to the table", None) and not vm.ask_code


def test_a_phone_that_joined_as_a_watcher_is_asked_for_the_table_code_and_then_sends(phone, laptop):
    """Issue 43: its kept pass is a watcher's; the table says so, the phone asks for the code,
    and the pass with the table code sends."""
    phone.store.create(won())
    watching = laptop.gate.passes.issue(Role.WATCHER)
    vm = SendModel(phone, through(guarded(laptop)))
    run(vm.send("", kept_pass=watching))
    assert vm.error.startswith("the watch code sees the table; it sends no match: give the table code")
    assert vm.ask_code and laptop.store.count() == 0
    run(vm.send(TABLE, kept_pass=watching))
    assert (vm.line, vm.error) == ("1 sent to the table", None) and laptop.store.count() == 1


def test_what_the_phone_says_when_it_cannot_send(phone, laptop):
    vm = SendModel(phone, through(guarded(laptop)))
    run(vm.send(TABLE))
    assert vm.error == "no finished match on this phone yet: a match is sent once it is won"
    phone.store.create(won())
    run(vm.send(""))
    assert vm.error == "type the table code first: six digits, on the table laptop's screen"

    async def away(path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        raise OSError("Failed to fetch")

    vm = SendModel(phone, away)
    run(vm.send(TABLE))
    assert vm.error.startswith("the table's laptop does not answer (Failed to fetch): send them when this phone")

    async def static_host(path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        return 405, None  # the site copied to a plain web host: no table there

    vm = SendModel(phone, static_host)
    run(vm.send(TABLE))
    assert vm.error == "the server at this address is not a table's laptop (it answered 405)"
