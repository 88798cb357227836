"""A club's laptop linked to a league served over HTTP (both backends): the outbox, the pushes."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from events.helpers import won_record

from scorekeeper.eventbook import EventBook
from scorekeeper.league import club
from scorekeeper.league.app import make_app
from scorekeeper.league.book import League
from scorekeeper.league.db import Database
from scorekeeper.store import Store

from .helpers import plan


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(db: Database) -> Iterator[tuple[str, League]]:
    """The service on a free port of this machine (a thread of this process)."""
    lg = League(db)
    lg.add_season(plan(), "Sue")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(db), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}", lg
    server.should_exit = True
    thread.join(timeout=10)


def test_a_confirmed_sheet_goes_through_the_outbox_and_survives_a_league_out_of_reach(served, tmp_path: Path):
    url, lg = served
    f = lg.fixtures()[0]
    code = lg.new_code(f.home.club_id, "Sue")
    folder = tmp_path / "laptop"
    with Store(folder) as store:
        linked = club.link(folder, url, code)
        assert linked.club == lg.club(f.home.club_id).name
        book = EventBook(store)
        event = club.take(book, f.id)
        assert (event.rounds[0].fixtures[0].home, event.rounds[0].fixtures[0].away) == (f.home.name, f.away.name)
        for table in (1, 2):
            store.import_record(won_record(event, 1, table, 0))
        book.confirm(event.id, 1, 1, f.home.name, f.home.captain)
        assert len(club.outbox(folder)) == 1
    # the league out of reach (a Wi-Fi down): the sheet waits on the disk
    doc = club.link_of(folder)
    club.save_link(folder, club.Link("http://127.0.0.1:9", doc.code, doc.club, doc.fixtures))
    away = club.push(folder)
    assert (away.sent, away.left) == (0, 1) and "cannot be reached" in away.problem
    club.save_link(folder, doc)
    back = club.push(folder)
    assert (back.sent, back.left, club.outbox(folder)) == (1, 0, [])
    assert lg.fixture(f.id).result.state == "waiting"
    with Store(folder) as store:
        EventBook(store).confirm(event.id, 1, 1, f.away.name, f.away.captain)
    assert club.push(folder).sent == 1
    result = lg.fixture(f.id).approved
    assert result is not None and result.games_won == (2, 0)
    assert [s["version"] for s in lg.sheets(f.id)] == [1, 2]


def test_a_code_that_is_not_the_leagues_is_refused_when_linking(served, tmp_path: Path):
    url, _ = served
    with pytest.raises(club.LinkError, match="the league refused the code"):
        club.link(tmp_path, url, "not-a-real-code")
    assert club.link_of(tmp_path) is None


def test_the_pusher_of_the_web_app_sends_a_new_sheet_at_once(served, tmp_path: Path):
    url, lg = served
    f = lg.fixtures()[0]
    folder = tmp_path / "laptop"
    with Store(folder) as store:
        club.link(folder, url, lg.new_code(f.home.club_id, "Sue"))
        book = EventBook(store)
        event = club.take(book, f.id)
        for table in (1, 2):
            store.import_record(won_record(event, 1, table, 1))
        pusher = club.start_pusher(folder)
        try:
            book.confirm(event.id, 1, 1, f.home.name, f.home.captain)
            book.confirm(event.id, 1, 1, f.away.name, f.away.captain)
            for _ in range(500):
                if lg.fixture(f.id).approved is not None:
                    break
                time.sleep(0.02)
        finally:
            pusher.stop()
    assert lg.fixture(f.id).approved.games_won == (0, 2)


def test_a_sheet_sent_while_the_outbox_is_listed_is_left_out_not_an_error(tmp_path: Path):
    """The pusher removes a sheet it sent while another thread lists the outbox: the sheet
    gone between the folder's listing and its file's date is simply not waiting any more."""
    kept = club.enqueue(tmp_path, 7, {"fixture": 7})
    gone = tmp_path / "league-out-8-0123456789abcdef.json"

    class Racing(type(tmp_path)):  # type: ignore[misc]
        def iterdir(self) -> Iterator[Path]:
            yield from super().iterdir()
            yield gone  # listed, then removed before its date was read

    assert club.outbox(Racing(tmp_path)) == [kept]


class Stub(http.server.BaseHTTPRequestHandler):
    """A league that takes every sheet (HTTP/1.1, kept connections), noting each request's
    client port; ``drop``: after each answer it closes the connection without saying so
    (as a server whose keep-alive ran out)."""

    protocol_version = "HTTP/1.1"
    seen: list[tuple[str, int]] = []
    drop = False

    def do_PUT(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        Stub.seen.append((self.path, self.client_address[1]))
        body = json.dumps({"version": 1, "new": True, "state": "waiting"}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Server-Timing", "app;dur=1.5")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = Stub.drop

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def stub() -> Iterator[str]:
    Stub.seen, Stub.drop = [], False
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_outbox_is_pushed_over_one_kept_connection(stub: str, tmp_path: Path):
    club.save_link(tmp_path, club.Link(stub, "abcdefgh12", "Club", {}))
    for fixture in (1, 2, 3):
        club.enqueue(tmp_path, fixture, {"fixture": fixture})
    told: list[tuple[float, dict[str, str]]] = []
    done = club.push(tmp_path, lambda started, seconds, headers: told.append((seconds, headers)))
    assert (done.sent, done.left, club.outbox(tmp_path)) == (3, 0, [])
    assert len({port for _, port in Stub.seen}) == 1 and len(Stub.seen) == 3
    assert [h["server-timing"] for _, h in told] == ["app;dur=1.5"] * 3 and all(s > 0 for s, _ in told)


def test_a_kept_connection_the_league_closed_is_made_again(stub: str, tmp_path: Path):
    Stub.drop = True
    session = club.Session(club.Link(stub, "abcdefgh12", "Club", {}))
    try:
        for n in range(3):
            assert session.request("PUT", f"/api/fixtures/{n}/sheets/x", b"{}")[0] == 201
    finally:
        session.close()
    assert [p for p, _ in Stub.seen] == [f"/api/fixtures/{n}/sheets/x" for n in range(3)]  # each sent once
    assert len({port for _, port in Stub.seen}) == 3


def test_a_league_out_of_reach_is_one_line_over_a_session(tmp_path: Path):
    session = club.Session(club.Link(f"http://127.0.0.1:{free_port()}/league", "abcdefgh12", "Club", {}))
    with pytest.raises(club.LinkError, match="cannot be reached"):
        session.request("PUT", "/api/fixtures/1/sheets/x", b"{}")


class Raw:
    """A league of raw answers on a socket: each request read whole (its head and its
    Content-Length body), the bytes of each ``recv`` noted, and the next of ``answers`` sent."""

    def __init__(self, answers: list[bytes]) -> None:
        self.answers = list(answers)
        self.reads: list[list[bytes]] = []  # each request's recv()s
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.answers:
            conn, _ = self.listener.accept()
            with conn:
                while self.answers:
                    got, data = [], b""
                    while b"\r\n\r\n" not in data:
                        part = conn.recv(65536)
                        if not part:
                            break
                        got.append(part)
                        data += part
                    if not data:
                        break
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = next(
                        (
                            int(h.split(b":")[1])
                            for h in head.split(b"\r\n")
                            if h.lower().startswith(b"content-length:")
                        ),
                        0,
                    )
                    while len(body) < length:
                        part = conn.recv(65536)
                        got.append(part)
                        body += part
                    self.reads.append(got)
                    answer = self.answers.pop(0)
                    conn.sendall(answer)
                    if b"Connection: close" in answer:
                        break

    def close(self) -> None:
        self.listener.close()
        self.thread.join(timeout=5)


def test_a_push_is_sent_in_one_piece_and_every_form_of_answer_is_read():
    """The request's line, headers and body go in one send (the league reads them in one
    recv); an answer with a Content-Length, one in chunks (with a trailer), one after a
    ``100 Continue``, one whose headers repeat, and one that closes the connection, all read."""
    answers = [
        b'HTTP/1.1 201 Created\r\nContent-Length: 13\r\nServer-Timing: app;dur=1\r\n\r\n{"version":1}',
        b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ver\r\n8;x=y\r\nsion":2}\r\n0\r\nT: 1\r\n\r\n',
        b'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 13\r\n\r\n{"version":3}',
        b'HTTP/1.1 422 Unprocessable\r\nVary: a\r\nVary: b\r\nContent-Length: 14\r\n\r\n{"error":"no"}',
        b'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 13\r\n\r\n{"version":5}',
        b'HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{"version":6}',
    ]
    league = Raw(answers)
    session = club.Session(club.Link(league.url + "/x", "abcdefgh12", "Club", {}))
    try:
        body = json.dumps({"fixture": 1, "games": ["a" * 3000]}).encode()
        got, said = [], []
        for n in range(6):
            got.append(session.request("PUT", f"/api/fixtures/{n}/sheets/d", body))
            said.append(session.headers)
    finally:
        session.close()
        league.close()
    assert got == [(201, {"version": 1}), (200, {"version": 2}), (201, {"version": 3}), (422, {"error": "no"}),
                   (200, {"version": 5}), (200, {"version": 6})]  # fmt: skip
    assert said[0] == {"content-length": "13", "server-timing": "app;dur=1"}
    assert said[3] == {"vary": "a, b", "content-length": "14"}
    first = b"".join(league.reads[0])
    assert len(league.reads[0]) == 1 and first.startswith(b"PUT /x/api/fixtures/0/sheets/d HTTP/1.1\r\n")
    assert b"\r\nAuthorization: Bearer abcdefgh12\r\n" in first and first.endswith(body)
    assert all(len(r) == 1 for r in league.reads)  # each request one piece (a local socket delivers it whole)


def test_an_answer_that_is_not_http_or_cut_short_is_one_line():
    for answer in (b"SSH-2.0-OpenSSH\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\nConnection: close\r\n\r\n{}"):
        league = Raw([answer])
        session = club.Session(club.Link(league.url, "abcdefgh12", "Club", {}))
        try:
            with pytest.raises(club.LinkError, match="cannot be reached"):
                session.request("PUT", "/api/fixtures/1/sheets/x", b"{}")
        finally:
            session.close()
            league.close()


def test_a_code_with_a_line_break_is_never_sent():
    session = club.Session(club.Link("http://127.0.0.1:9", "abc\r\nX-Evil: 1", "Club", {}))
    with pytest.raises(club.LinkError, match="link the laptop again"):
        session.request("PUT", "/api/fixtures/1/sheets/x", b"{}")
