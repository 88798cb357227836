"""The phone's site calls the clubs' API across origins (issue 50, the phone alone): the
service answers the browsers of the origins given (``--site-origin``) and their preflight
for the ``Authorization`` header, and no other origin, nor on any page but ``/api``."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # Starlette's own client (httpx under it) is all this needs
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from scorekeeper.errors import ScorekeeperError
from scorekeeper.league.app import make_app, site_origin
from scorekeeper.league.book import League
from scorekeeper.league.db import Database
from scorekeeper.league.sheets import digest

from .helpers import plan, sheet

SITE = "https://scores.example.org"
PREFLIGHT = {"Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "authorization,content-type"}


@pytest.fixture
def league(db: Database) -> League:
    lg = League(db)
    lg.add_season(plan(), "the secretary")
    return lg


@pytest.fixture
def client(db: Database, league: League) -> Iterator[TestClient]:
    app = make_app(db, site_origins=[SITE + "/", "http://127.0.0.1:8123"])
    with TestClient(app, base_url="https://league.test") as c:
        yield c


def test_the_sites_browser_is_answered_across_origins_and_its_sheet_taken(client: TestClient, league: League):
    f = league.fixtures()[0]
    code = league.new_code(f.home.club_id, "Sue")
    doc = sheet(f, [0, 1])
    where = f"/api/fixtures/{f.id}/sheets/{digest(doc)}"
    pre = client.options(where, headers={"Origin": SITE, **PREFLIGHT})
    assert pre.status_code == 204
    assert pre.headers["access-control-allow-origin"] == SITE
    assert "authorization" in pre.headers["access-control-allow-headers"].lower()
    assert "PUT" in pre.headers["access-control-allow-methods"]
    auth = {"Authorization": f"Bearer {code}", "Origin": SITE}
    club = client.get("/api/club", headers=auth)
    assert club.status_code == 200 and club.headers["access-control-allow-origin"] == SITE
    assert f.id in [x["id"] for x in club.json()["fixtures"]]
    put = client.put(where, content=json.dumps(doc).encode(), headers=auth)
    assert put.status_code == 201 and put.headers["access-control-allow-origin"] == SITE
    assert put.headers["vary"] == "Origin"
    # a refusal reaches the site's page too (its one line is read there)
    wrong = client.get("/api/club", headers={"Authorization": "Bearer not-a-code", "Origin": SITE})
    assert wrong.status_code == 401 and wrong.headers["access-control-allow-origin"] == SITE
    assert league.fixture(f.id).approved is not None


def test_another_origin_and_the_other_pages_get_no_cors(client: TestClient, league: League):
    f = league.fixtures()[0]
    code = league.new_code(f.home.club_id, "Sue")
    evil = "https://elsewhere.example"
    pre = client.options("/api/club", headers={"Origin": evil, **PREFLIGHT})
    assert pre.status_code == 403 and "access-control-allow-origin" not in pre.headers
    assert "phone's site only" in pre.json()["error"]
    got = client.get("/api/club", headers={"Authorization": f"Bearer {code}", "Origin": evil})
    assert "access-control-allow-origin" not in got.headers
    # a port is part of the origin
    assert "access-control-allow-origin" not in client.get("/api/club", headers={"Origin": SITE + ":8443"}).headers
    for page in ("/", f"/divisions/{f.division_id}", f"/divisions/{f.division_id}.json", "/admin"):
        answer = client.get(page, headers={"Origin": SITE})
        assert answer.status_code in (200, 303) and "access-control-allow-origin" not in answer.headers, page
        assert client.options(page, headers={"Origin": SITE, **PREFLIGHT}).status_code == 405, page


def test_without_a_site_origin_the_api_answers_no_preflight(db: Database, league: League):
    with TestClient(make_app(db), base_url="https://league.test") as c:
        assert c.options("/api/club", headers={"Origin": SITE, **PREFLIGHT}).status_code == 405
        assert "access-control-allow-origin" not in c.get("/api/club", headers={"Origin": SITE}).headers


@pytest.mark.parametrize("bad", ["scores.example.org", "https://scores.example.org/app", "ftp://x.example", "*"])
def test_a_site_origin_that_is_no_origin_is_refused_in_one_line(bad: str):
    with pytest.raises(ScorekeeperError, match=r"^--site-origin is the address the site is served from"):
        site_origin(bad)


def test_serve_says_a_bad_site_origin_in_one_line(tmp_path: Path):
    ran = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "league", "serve", "--database", f"sqlite:///{tmp_path / 'l.db'}",
         "--site-origin", "https://x.example/app"],
        capture_output=True, text=True, encoding="utf-8", timeout=60, cwd=str(Path(__file__).resolve().parents[2]),
    )  # fmt: skip
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.strip().count("\n") == 0 and "--site-origin" in ran.stderr
    assert not (tmp_path / "l.db").exists()  # refused before the database was opened
