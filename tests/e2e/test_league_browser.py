"""The league server in Chromium (issue 50): a real ``scorekeeper league serve`` on each
backend (SQLite, and the tests' throwaway PostgreSQL: tests/league/conftest.py), the
secretary's pages and a public table at a phone's size.

Before the service starts, a season is made and a fixture's two clubs send sheets that
differ (the home club's says the home team won both games and only its captain confirmed
it; the away club's says one game each, confirmed by the away captain) and the away club
disputes the home sheet. In the browser the secretary signs in (a wrong password first:
refused in one line), finds the disputed fixture on the secretary's page, approves the
away club's sheet with a reason, and the public table, at 412x915 with no horizontal
scroll and under 50 KB, shows the draw.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from league.conftest import pg_schema, pg_url, with_schema  # noqa: F401  (the PostgreSQL fixtures)
from league.helpers import plan, sheet

from e2e import harness
from scorekeeper.league import access
from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
ROOT = str(Path(__file__).resolve().parents[2])


def _season(url: str) -> tuple[int, int, str, str]:
    """A season, the secretary Sue, and one fixture's differing, disputed sheets: the
    fixture's id, its division's id, its home and away teams' names."""
    db = connect(url, pool=2)
    try:
        migrate(db)
        lg = League(db)
        lg.add_season(plan(), "the secretary")
        access.set_secretary(db, "Sue", PASSWORD)
        f = lg.fixtures()[0]
        home = lg.club(f.home.club_id)
        away = lg.club(f.away.club_id)
        assert lg.receive(f.id, home, sheet(f, [0, 0], away=False)).state == "waiting"
        assert lg.receive(f.id, away, sheet(f, [0, 1], home=False)).state == "different"
        assert lg.dispute(f.id, away, "the second game was ours") == "disputed"
        return f.id, f.division_id, f.home.name, f.away.name
    finally:
        db.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def league_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_schema"))
    return f"sqlite:///{tmp_path / 'league.db'}"


@pytest.fixture
def served(league_url: str) -> Iterator[tuple[str, tuple[int, int, str, str]]]:
    made = _season(league_url)
    port = harness.free_port()
    cmd = [sys.executable, "-m", "scorekeeper", "league", "serve", "--database", league_url, "--port", str(port)]
    proc = harness.start_server(cmd, port, cwd=ROOT)
    try:
        yield f"http://127.0.0.1:{port}", made
    finally:
        harness.stop_server(proc)


def test_the_secretary_decides_a_disputed_sheet_and_the_phone_sees_the_table(browser, served):
    base, (fid, division, home, away) = served
    phone = harness.new_context(browser)  # a phone: no session, 412x915
    table_page = phone.new_page()
    table_page.goto(f"{base}/divisions/{division}")
    before = table_page.get_by_role("row").filter(has=table_page.get_by_role("link", name=home, exact=True))
    assert before.get_by_role("cell").nth(2).inner_text() == "0"  # a disputed result is in no table

    ctx = harness.new_context(browser)
    page = ctx.new_page()

    page.goto(f"{base}/admin")
    assert page.url.endswith("/admin/sign-in")  # not signed in: sent to sign in
    page.get_by_label("Name").fill("Sue")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    refused = page.locator("p.warn")
    assert refused.inner_text() == "that name and password are not the secretary's"
    assert page.get_by_role("heading", name="The secretary signs in").is_visible()

    page.get_by_label("Name").fill("Sue")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/admin")
    assert page.get_by_text("Signed in as Sue.").is_visible()
    todo = page.locator("h2:has-text('For you to decide') + ul")
    assert "disputed" in todo.inner_text() and "the second game was ours" in todo.inner_text()

    todo.get_by_role("link", name=f"{home} v {away}").click()
    page.wait_for_url(f"{base}/admin/fixtures/{fid}")
    assert page.get_by_text("disputed: 1-1 (disputed: the second game was ours)").is_visible()
    rows = page.locator("table tr").filter(has=page.get_by_role("button", name="Approve this sheet"))
    assert rows.count() == 2
    theirs = rows.filter(has_text="1-1")
    theirs.get_by_label("Why").fill("the away captain's sheet matches the paper one")
    theirs.get_by_role("button", name="Approve this sheet").click()
    page.wait_for_url(f"{base}/admin/fixtures/{fid}")
    assert page.get_by_text("approved: 1-1 (the away captain's sheet matches the paper one)").is_visible()
    done = page.locator("h2:has-text('What was done') + ul").inner_text()
    assert "Sue (secretary): approved club:" in done and "the away captain's sheet matches the paper one" in done

    answer = table_page.goto(f"{base}/divisions/{division}")
    assert answer is not None and answer.status == 200
    assert len(answer.body()) < 50_000
    assert table_page.viewport_size == harness.PHONE_VIEWPORT
    assert table_page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    table = table_page.get_by_role("table")
    assert table.is_visible() and table.bounding_box()["width"] <= 412
    for team in (home, away):
        row = table.get_by_role("row").filter(has=table_page.get_by_role("link", name=team, exact=True))
        cells = row.get_by_role("cell").all_inner_texts()
        assert cells[1:] == [team, "1", "0", "1", "0", "1-1", "2"], cells  # played 1, drawn 1, games 1-1, 2 points
    assert table_page.get_by_text("Ranked by score").is_visible()
    table_page.get_by_role("link", name="Fixtures and results").click()
    line = table_page.get_by_role("listitem").filter(has_text=f"{home} 1-1 {away}")
    assert line.count() == 1 and line.is_visible()
