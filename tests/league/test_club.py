"""A club's laptop linked to a league served over HTTP (both backends): the outbox, the pushes."""

from __future__ import annotations

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
