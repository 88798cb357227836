"""The service over both backends: the clubs' API, the public pages, the secretary's pages."""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():  # Starlette's own client (httpx under it) is all this needs
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from scorekeeper import registry
from scorekeeper.league import access
from scorekeeper.league.app import PUSHES, make_app
from scorekeeper.league.book import League
from scorekeeper.league.db import Database
from scorekeeper.league.sheets import digest

from .helpers import plan, sheet

PASSWORD = "correct horse battery"


@pytest.fixture
def league(db: Database) -> League:
    lg = League(db)
    lg.add_season(plan(), "the secretary")
    access.set_secretary(db, "Sue", PASSWORD)
    return lg


@pytest.fixture
def client(db: Database, league: League) -> Iterator[TestClient]:
    with TestClient(make_app(db), base_url="https://league.test") as c:
        yield c


def push(client: TestClient, code: str, fid: int, doc: dict) -> object:
    body = json.dumps(doc).encode()
    return client.put(
        f"/api/fixtures/{fid}/sheets/{digest(doc)}", content=body, headers={"Authorization": f"Bearer {code}"}
    )


def test_a_club_pushes_a_sheet_once_and_the_table_shows_it_at_once(client: TestClient, league: League):
    f = league.fixtures()[0]
    code = league.new_code(f.home.club_id, "Sue")
    division = f"/divisions/{f.division_id}"
    before = client.get(division)
    assert before.status_code == 200 and before.headers["cache-control"] == "public, no-cache"
    assert client.get(division, headers={"If-None-Match": before.headers["etag"]}).status_code == 304
    doc = sheet(f, [0, 0])
    first, again = push(client, code, f.id, doc), push(client, code, f.id, doc)
    assert (first.status_code, first.json()) == (201, {"version": 1, "new": True, "state": "approved"})
    assert (again.status_code, again.json()["version"]) == (200, 1)
    after = client.get(division)
    assert after.headers["etag"] != before.headers["etag"]
    data = client.get(division + ".json").json()
    assert data["table"][0]["team"] == f.home.name and data["table"][0]["score"] == 4
    assert "Ranked by score, then games difference" in after.text


def test_a_service_is_warm_before_it_takes_a_request(db: Database, league: League, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(registry, "_loaded", {})
    with TestClient(make_app(db), base_url="https://league.test"):
        assert league.season(league.seasons()[0].id).game in registry._loaded  # imported at the start
        if db.backend == "postgresql":
            assert db.pool.min_size == PUSHES + 1  # type: ignore[attr-defined]
            with db.pool.connection() as conn:  # type: ignore[attr-defined]
                prepared = conn.execute("SELECT statement FROM pg_prepared_statements").fetchall()
            assert any("club_code" in r[0] for r in prepared)  # a push's read: planned already


def test_a_push_tells_what_the_service_spent_on_it(client: TestClient, league: League):
    f = league.fixtures()[0]
    code = league.new_code(f.home.club_id, "Sue")
    answer = push(client, code, f.id, sheet(f, [0, 0]))
    spent = dict(part.strip().split(";dur=") for part in answer.headers["server-timing"].split(","))
    assert answer.status_code == 201 and set(spent) == {"queue", "read", "check", "write", "cpu", "app"}
    assert all(float(v) >= 0 for v in spent.values()) and float(spent["app"]) >= float(spent["write"])


def test_a_push_to_no_fixture_or_without_a_code_is_refused_before_its_sheet_is_read(client: TestClient, league: League):
    f = league.fixtures()[0]
    code = league.new_code(f.home.club_id, "Sue")
    missing = client.put(
        f"/api/fixtures/999999/sheets/{'0' * 64}", content=b"{}", headers={"Authorization": f"Bearer {code}"}
    )
    assert missing.status_code == 404 and "no fixture 999999" in missing.json()["error"]
    bare = client.put(f"/api/fixtures/{f.id}/sheets/{'0' * 64}", content=b"not json")
    assert bare.status_code == 401 and "code" in bare.json()["error"]
    unknown = client.put(
        f"/api/fixtures/999999/sheets/{'0' * 64}", content=b"{}", headers={"Authorization": "Bearer not-a-code"}
    )
    assert unknown.status_code == 401  # an unknown code learns nothing of the fixtures
    other = next(t for t in league.teams() if t.club_id not in (f.home.club_id, f.away.club_id))
    stranger = push(client, league.new_code(other.club_id, "Sue"), f.id, sheet(f, [0, 0]))
    assert stranger.status_code == 422 and "plays no part" in stranger.json()["error"]


def test_no_write_without_a_known_code_and_a_sheet_that_does_not_follow_is_refused(client: TestClient, league: League):
    f = league.fixtures()[0]
    doc = sheet(f, [0, 1], lie=True)
    assert push(client, "not-a-code", f.id, doc).status_code == 401
    code = league.new_code(f.home.club_id, "Sue")
    refused = push(client, code, f.id, doc)
    assert refused.status_code == 422 and "its records give 1-1" in refused.json()["error"]
    wrong = client.put(
        f"/api/fixtures/{f.id}/sheets/{'0' * 64}",
        content=json.dumps(sheet(f, [0, 1])),
        headers={"Authorization": f"Bearer {code}"},
    )
    assert wrong.status_code == 422 and "digest" in wrong.json()["error"]
    league.revoke(f.home.club_id, "Sue", "stolen")
    assert push(client, code, f.id, sheet(f, [0, 1])).status_code == 401


def test_every_public_page_is_small_plain_html_with_a_json_twin_and_a_calendar(client: TestClient, league: League):
    f = league.fixtures()[0]
    league.receive(f.id, league.club(f.home.club_id), sheet(f, [0, 1]))
    for path in ("/", f"/divisions/{f.division_id}", f"/divisions/{f.division_id}/fixtures", f"/teams/{f.home.id}",
                 f"/teams/{f.home.id}/players/0"):  # fmt: skip
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert len(page.content) < 50_000 and "<script" not in page.text and 'name="viewport"' in page.text
        if path != "/":
            assert client.get(path + ".json").headers["content-type"] == "application/json"
    player = client.get(f"/teams/{f.home.id}/players/0.json").json()
    assert (player["played"], player["won"]) == (1, 1)
    ics = client.get(f"/teams/{f.home.id}/fixtures.ics")
    assert ics.headers["content-type"].startswith("text/calendar") and ics.text.count("BEGIN:VEVENT") == 6
    assert client.get("/teams/999").status_code == 404


def test_a_team_name_is_shown_through_the_one_rule(db: Database):
    lg = League(db)
    doc = plan()
    doc["divisions"][0]["teams"][0]["name"] = "<b>Reds</b>"
    lg.add_season(doc, "Sue")
    with TestClient(make_app(db), base_url="https://league.test") as c:
        text = c.get(f"/divisions/{lg.divisions()[0].id}").text
    assert "&lt;b&gt;Reds&lt;/b&gt;" in text and "<b>Reds</b>" not in text


def sign_in(client: TestClient, password: str = PASSWORD) -> object:
    return client.post("/admin/sign-in", data={"name": "Sue", "password": password}, follow_redirects=False)


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_the_secretary_signs_in_and_decides_a_disputed_sheet_with_csrf(client: TestClient, league: League):
    f = league.fixtures()[0]
    league.receive(f.id, league.club(f.home.club_id), sheet(f, [0, 1], away=False))
    league.dispute(f.id, league.club(f.away.club_id), "game 1 was 5-0 to us")
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/admin/sign-in"
    signed = sign_in(client)
    cookie = signed.headers["set-cookie"]
    assert all(w in cookie for w in ("HttpOnly", "Secure", "SameSite=strict"))
    home = client.get("/admin")
    assert f"{f.home.name} v {f.away.name}" in home.text and "disputed" in home.text
    page = client.get(f"/admin/fixtures/{f.id}")
    sheet_id = league.sheets(f.id)[0]["id"]
    forged = client.post(f"/admin/fixtures/{f.id}/decide", data={"sheet": sheet_id, "why": "x"}, follow_redirects=False)
    assert forged.status_code == 403
    done = client.post(
        f"/admin/fixtures/{f.id}/decide",
        data={"csrf": csrf_of(page.text), "sheet": sheet_id, "why": "the paper sheet agrees"},
        follow_redirects=False,
    )
    assert done.status_code == 303
    assert league.fixture(f.id).result.state == "approved"
    assert league.audit(f.id)[0].who == "Sue (secretary)" and league.audit(f.id)[0].why == "the paper sheet agrees"


def test_wrong_passwords_are_limited(client: TestClient):
    for _ in range(access.FREE_TRIES):
        assert sign_in(client, "wrong password").status_code == 401
    slowed = sign_in(client, PASSWORD)
    assert slowed.status_code == 401 and "too many wrong passwords: wait" in slowed.text


class _Counted:
    """How many transactions a database begins (wrapping its one seam)."""

    def __init__(self, db: Database) -> None:
        self.n = 0
        inner = db._transaction

        def counted(*, write: bool) -> object:
            self.n += 1
            return inner(write=write)

        db._transaction = counted  # type: ignore[method-assign]


def test_two_processes_over_one_database_serve_one_league_and_a_known_page_asks_nothing(db_url: str, db: Database):
    """Two services, each with its own connections (two processes, as behind the proxy):
    a sheet taken by one shows in the other's table; over PostgreSQL a page made already
    for the league's revision is sent with no query at all (each process is told every new
    revision), over SQLite each request asks for the revision (one small query)."""
    from scorekeeper.league.db import connect

    lg = League(db)
    lg.add_season(plan(), "Sue")
    f = lg.fixtures()[0]
    code = lg.new_code(f.home.club_id, "Sue")
    other = connect(db_url, pool=2)
    counted = _Counted(other)
    path = f"/divisions/{f.division_id}.json"
    try:
        with TestClient(make_app(db), base_url="https://a.test") as a, TestClient(make_app(other)) as b:
            revisions = b.app.state.service.revisions
            if db.backend == "postgresql":  # its listening connection made (a thread of its own)
                for _ in range(200):
                    if revisions.live:
                        break
                    time.sleep(0.05)
                assert revisions.live
            assert b.get(path).json()["table"][0]["played"] == 0
            before = counted.n
            assert b.get(path).json()["table"][0]["played"] == 0
            asked = counted.n - before
            assert asked == (0 if db.backend == "postgresql" else 1)
            assert push(a, code, f.id, sheet(f, [0, 0])).status_code == 201
            for _ in range(200):  # told within the moment PostgreSQL takes to pass it on
                played = max(r["played"] for r in b.get(path).json()["table"])
                if played == 1:
                    break
                time.sleep(0.05)
            assert played == 1
    finally:
        other.close()


def test_a_fixture_moved_is_on_its_pages_at_once(client: TestClient, league: League):
    f = league.fixtures()[0]
    page = f"/divisions/{f.division_id}/fixtures.json"
    before = client.get(page)
    league.move(f.id, "2026-12-01", "Sue", "the pub is shut")
    after = client.get(page)
    assert after.headers["etag"] != before.headers["etag"]
    assert next(x for x in after.json()["fixtures"] if x["id"] == f.id)["day"] == "2026-12-01"


def test_the_service_stops_after_a_sweep_under_way_ends(db: Database, league: League, monkeypatch: pytest.MonkeyPatch):
    """The sweep that approves results not disputed in time runs in a thread: the service,
    told to stop while one runs, stops only once it has ended, so that the database closed
    next is not closed under it (over SQLite that crashed the process)."""
    import threading

    inside, go = threading.Event(), threading.Event()
    said: list[str] = []
    settle = League.settle

    def slow_settle(self: League, now: str | None = None) -> int:
        inside.set()
        go.wait(10)
        n = settle(self, now)
        said.append("settled")
        return n

    monkeypatch.setattr(League, "settle", slow_settle)
    client = TestClient(make_app(db, settle_every=0.01), base_url="https://league.test")
    client.__enter__()
    assert inside.wait(10)

    def stop() -> None:
        client.__exit__(None, None, None)
        said.append("stopped")

    stopper = threading.Thread(target=stop)
    stopper.start()
    stopper.join(0.3)
    assert stopper.is_alive()  # waiting for the sweep
    go.set()
    stopper.join(10)
    assert said == ["settled", "stopped"]
