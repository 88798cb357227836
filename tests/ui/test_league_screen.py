"""The League screen's view-model (issue 50, the phone alone): the app linked to a real league
service (SQLite, a thread of this process) by the secretary's QR link, this club's fixtures,
one taken as an event, its confirmed sheet through the outbox; the async pushes (the site's
loop) with the laptop's backoff while the league is down, and its refusals in one line."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aio import run
from events.helpers import won_record
from league.helpers import Served, plan

from scorekeeper.league import club
from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate
from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.events.league_model import LeagueModel
from scorekeeper.ui.server.shared import open_shared

CODES = Codes("482913", "771204")


@pytest.fixture
def league(tmp_path: Path) -> Iterator[tuple[Served, League]]:
    db = connect(f"sqlite:///{tmp_path / 'league.db'}", pool=2)
    migrate(db)
    lg = League(db)
    lg.add_season(plan(), "Sue")
    served = Served(db)
    yield served, lg
    served.stop()
    db.close()


def test_the_host_links_by_the_qr_link_lists_the_fixtures_and_takes_one(league, tmp_path: Path):
    served, lg = league
    f = lg.fixtures()[0]
    code = lg.new_code(f.home.club_id, "Sue")
    shared = open_shared(str(tmp_path / "db"))
    try:
        vm = LeagueModel(shared)
        assert vm.allowed and vm.link() is None
        vm.set("typed", f"{served.url}/link#{code}")
        assert run(vm.connect()) and vm.error is None
        assert vm.link() is not None and vm.link().club == lg.club(f.home.club_id).name
        assert vm.fixtures is not None and f.id in [x.id for x in vm.fixtures]
        line = next(x for x in vm.fixtures if x.id == f.id)
        assert line.title == f"{f.home.name} v {f.away.name}" and line.event is None
        eid = run(vm.take(f.id))
        assert eid == f"league-{f.id}" and vm.error is None
        assert next(x for x in vm.fixtures if x.id == f.id).event == eid
        event = shared.events.get(eid)
        assert [t.name for t in event.teams] == [f.home.name, f.away.name]
        # taken again: the league's event is there already, said in one line
        assert run(vm.take(f.id)) is None and vm.error and "\n" not in vm.error
        # asked again, the taken fixture is offered to open, not to take
        assert run(vm.refresh()) and next(x for x in vm.fixtures if x.id == f.id).event == eid
        # linked while the app runs: the laptop's pusher was started, and sends the confirmed sheet
        pusher = club.pusher_of(vm.folder)
        assert pusher is not None
        try:
            for table in (1, 2):
                shared.store.import_record(won_record(event, 1, table, 0))
            shared.events.confirm(eid, 1, 1, f.home.name, f.home.captain)
            end = time.monotonic() + 20
            # the league has it, and then the pusher takes it out of the outbox (after the answer)
            while (lg.fixture(f.id).result is None or vm.waiting()) and time.monotonic() < end:
                time.sleep(0.02)
            assert lg.fixture(f.id).result.state == "waiting" and vm.waiting() == 0
            assert vm.problem() is None
        finally:
            pusher.stop()
    finally:
        shared.close()


@pytest.mark.parametrize(
    ("typed", "code", "said"),
    [
        ("league.example.org", "", "the league's address must be http(s)://..., not 'league.example.org'"),
        ("https://league.example.org/link", "", "give the club's code the secretary made"),
        ("http://127.0.0.1:9/link#abcdefgh12", "", "the league at http://127.0.0.1:9 cannot be reached"),
    ],
)
def test_a_bad_link_or_a_league_out_of_reach_is_one_line(tmp_path: Path, typed: str, code: str, said: str):
    shared = open_shared(str(tmp_path / "db"))
    try:
        vm = LeagueModel(shared)
        vm.set("typed", typed)
        vm.set("code", code)
        assert not run(vm.connect())
        assert vm.error is not None and vm.error.startswith(said) and "\n" not in vm.error
        assert "Traceback" not in vm.error and vm.link() is None and not vm.busy
    finally:
        shared.close()


def test_a_code_the_league_does_not_know_is_refused(league, tmp_path: Path):
    served, _ = league
    shared = open_shared(str(tmp_path / "db"))
    try:
        vm = LeagueModel(shared)
        vm.set("typed", served.url)
        vm.set("code", "not-a-real-code")
        assert not run(vm.connect())
        assert vm.error.startswith("the league refused the code: a club's code is needed") and vm.link() is None
    finally:
        shared.close()


def test_a_phone_that_joined_the_table_may_not_link_nor_take(league, tmp_path: Path):
    served, lg = league
    f = lg.fixtures()[0]
    shared = open_shared(str(tmp_path / "db"), gate=Gate(CODES))
    try:
        phone = shared.visit("192.168.1.50")
        assert phone.visitor.join(CODES.scorer)
        vm = LeagueModel(phone)
        assert not vm.allowed
        vm.set("typed", f"{served.url}/link#{lg.new_code(f.home.club_id, 'Sue')}")
        assert not run(vm.connect())
        assert vm.error == "only the host links a league and takes its fixtures: on the laptop that runs Scorekeeper"
        assert club.link_of(vm.folder) is None
        assert run(vm.take(f.id)) is None and shared.events.events() == []
    finally:
        shared.close()


def test_the_sites_pushes_wait_with_the_backoff_while_the_league_is_down(league, tmp_path: Path, monkeypatch):
    """keep_pushing, the site's loop (here with the laptop's request as its Send): a sheet
    put in the outbox while the league is away is tried with a growing pause, then sent as
    soon as the league is back; a sheet the league refuses is set aside with its line."""
    served, lg = league
    f = lg.fixtures()[0]
    code = lg.new_code(f.home.club_id, "Sue")
    folder = tmp_path / "phone"
    folder.mkdir()
    monkeypatch.setattr(club, "BACKOFF_FIRST", 0.05)
    tries: list[tuple[float, str]] = []
    down = {"now": True}

    async def send(lk: club.Link, method: str, path: str, body: bytes | None) -> tuple[int, Any]:
        tries.append((asyncio.get_running_loop().time(), path))
        if down["now"]:  # the phone off the network: what the browser's fetch raises, said
            raise club.LinkError(f"the league at {lk.url} cannot be reached from this phone (Failed to fetch)")
        return await club.request_async(lk, method, path, body)

    from league.helpers import sheet

    async def scenario() -> list[club.Pushed]:
        rounds: list[club.Pushed] = []
        club.save_link(folder, club.Link(served.url, code, "", {}))
        club.enqueue(folder, f.id, sheet(f, [0, 1], away=False))
        task = asyncio.ensure_future(club.keep_pushing(folder, send, rounds.append))
        try:
            while len(rounds) < 4:
                await asyncio.sleep(0.01)
            assert all(r.left == 1 and "cannot be reached" in r.problem for r in rounds)
            assert club.last_round(folder) is rounds[-1]
            down["now"] = False
            while club.outbox(folder):
                await asyncio.sleep(0.01)
            # a sheet whose totals do not follow from its records: refused, set aside with its line
            club.enqueue(folder, f.id, sheet(f, [0, 0], lie=True, away=False))
            while club.outbox(folder):
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)
        finally:
            task.cancel()
        return rounds

    rounds = run(scenario())
    gaps = [b[0] - a[0] for a, b in zip(tries, tries[1:4], strict=False)]
    assert gaps[1] > gaps[0] * 1.0 or gaps[2] > gaps[0], gaps  # the pause grows (with its random part)
    assert any(r.sent == 1 for r in rounds)
    assert lg.fixture(f.id).result.state == "waiting"
    assert [s["version"] for s in lg.sheets(f.id)] == [1]
    refused = club.refused(folder)
    assert len(refused) == 1 and refused[0][0] == f.id and "\n" not in refused[0][1]
    assert any(
        r.refused == 1 and r.problem.startswith(f"the league refused the sheet of fixture {f.id}") for r in rounds
    )
    kept = json.loads(next(folder.glob("league-refused-*.json")).read_text(encoding="utf-8"))
    assert kept["refused"] == refused[0][1]


def test_a_fixture_line_says_its_result_and_takes_an_odd_one_without_error():
    from scorekeeper.ui.events.league_model import FixtureLine

    doc = {"id": 4, "week": 2, "day": "2026-09-14", "home": "Reds", "away": "Blues", "venue": "The Plough"}
    line = FixtureLine({**doc, "result": {"games": [5, 4], "points": [900, 800]}}, "league-4")
    assert (line.title, line.when, line.event) == ("Reds v Blues", "week 2, 2026-09-14, at The Plough, 5-4", "league-4")
    odd = FixtureLine({"id": 5, "result": {"games": "?"}}, None)
    assert (odd.title, odd.when) == ("? v ?", "week ?, ?, at ?")
