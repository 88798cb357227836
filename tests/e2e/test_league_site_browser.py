"""The phone alone sends a finished league fixture to the league (issue 50, part 3), in
Chromium: a real ``scorekeeper league serve`` on loopback (SQLite) with a season, told the
site's origin (``--site-origin``); the phone's site, built by the project's own offline build
(``built_site``), served from another port (another origin) by a plain static server.

On the phone: Events -> League, the secretary's QR link pasted (the code checked by the
league, across origins), this club's fixtures listed, one taken (an event here); round 1
opened, its one game entered as a hand of points; the home captain confirms the sheet: it
goes to the league at once (the result awaits the other side). The league is stopped; the
away captain confirms: the sheet stays in the outbox (the League screen says so, and why),
the page is reloaded (a phone's restart: the outbox is in IndexedDB) and still has it; the
league is started again, on the same address: the site's pushes, on their backoff, send it
with no tap, the League screen says nothing waits, and the league's public table, at a
phone's size, shows the result. The League screen fits a 360x800 phone; a bad link and a
league that does not answer the site's origin are each said in one line.

The same screens in the laptop's app (``scorekeeper web``): linked while it runs, its pusher
thread sends both captains' sheets.

A Pyodide start costs seconds on this 2-core machine (see test_site_browser.py): the page
is loaded twice, and every wait for it is long.
"""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from league.helpers import plan

from e2e import harness
from e2e.harness import read_texts, tap, tap_starting, wait_text
from e2e.test_site_browser import StaticServer, open_site
from scorekeeper.allfives.engine import Setup
from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate

pytestmark = pytest.mark.browser

ROOT = str(Path(__file__).resolve().parents[2])
#: The backoff's pauses while the league was away (2, 4, 8 ... s, with a random part), and a
#: Pyodide start: the sheet arrives well within this once the league is back.
ARRIVES = 240.0


class LeagueService:
    """``scorekeeper league serve`` on a fixed port of loopback, stopped and started again."""

    def __init__(self, url: str, origin: str) -> None:
        self.port = harness.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.cmd = [sys.executable, "-m", "scorekeeper", "league", "serve", "--database", url,
                    "--port", str(self.port), "--site-origin", origin]  # fmt: skip
        self.proc = None

    def start(self) -> LeagueService:
        self.proc = harness.start_server(self.cmd, self.port, cwd=ROOT)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            harness.stop_server(self.proc)
            self.proc = None

    def json(self, path: str) -> object:
        with urllib.request.urlopen(f"{self.base}{path}", timeout=10) as r:
            return json.loads(r.read())


def _season(url: str) -> tuple[int, int, str, str, str, str, str, str]:
    """A season of one singles game a fixture; its first fixture, its division, its teams,
    their captains, the home club's name and code."""
    db = connect(url, pool=2)
    try:
        migrate(db)
        lg = League(db)
        lg.add_season(plan(singles=1), "Sue")
        f = lg.fixtures()[0]
        code = lg.new_code(f.home.club_id, "Sue")
        club = lg.club(f.home.club_id).name
        return f.id, f.division_id, f.home.name, f.away.name, f.home.captain, f.away.captain, club, code
    finally:
        db.close()


#: The screen's labelled nodes: how many, and those that reach past its edges (label, left, width).
_PAST_THE_EDGE = """(width) => {
  const all = Array.from(document.querySelectorAll('flt-semantics')).map((e) => {
    const r = e.getBoundingClientRect();
    return [(e.getAttribute('aria-label') || e.innerText || '').trim(), r.x, r.width];
  }).filter(([label, x, w]) => label && w > 0);
  return [all.length, all.filter(([label, x, w]) => x < -0.5 || x + w > width + 0.5)];
}"""


def _row(league: LeagueService, division: int, team: str) -> dict:
    return next(r for r in league.json(f"/divisions/{division}.json")["table"] if r["team"] == team)


def _league_screen(page) -> None:
    tap(page, "Home")
    tap(page, "Events: club nights, leagues")
    tap(page, "League: link, fixtures, results")
    wait_text(page, re.compile(r"^Linked to "))


def _link(page, league: LeagueService, code: str, club: str) -> None:
    """From Home: Events -> League, the secretary's QR link pasted, Link."""
    tap(page, "Events: club nights, leagues")
    tap(page, "League: link, fixtures, results")
    wait_text(page, "Link to the league")
    harness.enter(page, re.compile(r"^League link or address"), f"{league.base}/link#{code}")
    tap(page, "Link")
    wait_text(page, f"Linked to {league.base} as {club}")
    wait_text(page, "No sheet waiting to be sent")


def _take_and_play(page, fid: int, home: str, away: str, home_captain: str, target: int) -> str:
    """Take the fixture, open its round, win its one game as a hand of points (the home
    captain reaches the target), and open its result sheet; the sheet's line on the event."""
    tap(page, f"Take fixture {fid}: {home} v {away}")
    wait_text(page, f"{home} v {away}")
    tap(page, "Open round 1")
    wait_text(page, "round 1 is open: 1 table ready")
    tap(page, f"I'm {home_captain}")
    tap_starting(page, "Your table: Round 1, table 1")
    tap(page, "Hand 1 as points")
    harness.enter(page, home_captain, str(target))
    tap(page, "Save")
    wait_text(page, f"Winner {home_captain}")
    tap(page, "Back to the event")
    fixture_line = f"Fixture 1: {home} v {away} · result sheet"
    tap(page, fixture_line)
    wait_text(page, f"Games: {home} 1, {away} 0")
    return fixture_line


def _confirm_as(page, captain: str, team: str, fixture_line: str) -> None:
    """On the event's page: this phone is ``captain``, who confirms ``team``'s sheet."""
    tap(page, f"I'm {captain}")
    wait_text(page, f"This phone is {captain}'s.")
    tap(page, fixture_line)
    tap(page, f"Confirm for {team} as the host")  # the phone is its own host, and holds the captain's seat
    wait_text(page, re.compile(rf"^Confirmed for {re.escape(team)} by the host, for {captain} at "))


def test_the_phone_alone_takes_a_fixture_and_its_sheet_reaches_the_league_after_an_outage(
    browser, built_site, tmp_path
):
    url = f"sqlite:///{tmp_path / 'league.db'}"
    fid, division, home, away, home_captain, away_captain, club, code = _season(url)
    target = Setup.new([home_captain, away_captain]).rules.target  # the league's game, with no preset
    site = StaticServer(built_site)
    league = LeagueService(url, site.url.rstrip("/")).start()
    try:
        context = harness.new_context(browser)
        page = open_site(context, site.url)

        # a link that is none, and a league that does not answer this site (no --site-origin for
        # it: the browser keeps its answer from the page): each said in one line, nothing linked
        tap(page, "Events: club nights, leagues")
        tap(page, "League: link, fixtures, results")
        harness.enter(page, re.compile(r"^League link or address"), "league.example.org")
        tap(page, "Link")
        wait_text(page, "the league's address must be http(s)://..., not 'league.example.org'")
        other = LeagueService(url, "https://scores.example.org").start()
        try:
            harness.enter(page, re.compile(r"^League link or address"), f"{other.base}/link#{code}")
            tap(page, "Link")
            wait_text(page, re.compile(rf"^the league at {re.escape(other.base)} cannot be reached from this phone \("))
            assert any("--site-origin" in t for t in read_texts(page))
        finally:
            other.stop()
        tap(page, "Home")

        # linked by the secretary's QR link: the code is checked by the league (across origins)
        _link(page, league, code, club)

        # at a narrow phone's size the screen is whole: nothing past its right edge
        for width, height in ((360, 800), (412, 915)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"() => window.innerWidth === {width}")
            harness.wait_idle(page, quiet=0.5)
            wait_text(page, f"Take fixture {fid}: {home} v {away}")
            shown, out = page.evaluate(_PAST_THE_EDGE, width)
            assert shown >= 8 and out == [], (width, shown, out)
            box = harness.button(page, "This club's fixtures").bounding_box()
            assert box is not None and box["height"] >= 40, box  # a finger's size

        # the fixture taken: an event here, as `scorekeeper league take` makes it; its one game
        # entered as a hand of points; the home captain confirms
        fixture_line = _take_and_play(page, fid, home, away, home_captain, target)
        tap(page, f"Confirm for {home} as the host")
        wait_text(page, re.compile(rf"^Confirmed for {re.escape(home)} by the host, for {home_captain} at "))

        # sent at once: the league has the result, awaiting the other side (no table yet)
        assert _wait_for(lambda: _fixture(league, division, fid)["result"] is None and _sheets(url, fid) == 1, 60)
        assert _row(league, division, home)["played"] == 0

        # the league away: the away captain's confirmation waits in the outbox
        league.stop()
        tap(page, "The event")
        tap(page, "Change")
        _confirm_as(page, away_captain, away, fixture_line)
        _league_screen(page)
        waiting = re.compile(rf"^1 sheet waiting to be sent: the league at {re.escape(league.base)} cannot be reached")
        wait_text(page, waiting)

        # the phone restarted (the page reloaded, on the League screen): the sheet is still in
        # its outbox (IndexedDB), and the new page's pushes find the league still away
        page.evaluate("() => { window.__before = true; }")
        page = open_site(page, site.url, expect=waiting)
        assert page.evaluate("() => window.__before === undefined")  # a new page, a new Python

        # the league back: the pushes' backoff sends it, no tap needed
        league.start()
        wait_text(page, "No sheet waiting to be sent", timeout=ARRIVES)
        assert _sheets(url, fid) == 2
        assert _fixture(league, division, fid)["result"] == {"games": [1, 0], "points": [target, 0]}

        # the league's public table, on a phone, shows the result
        table_page = harness.new_context(browser).new_page()
        answer = table_page.goto(f"{league.base}/divisions/{division}")
        assert answer is not None and answer.status == 200
        table = table_page.get_by_role("table")
        for team, cells in ((home, ["1", "1", "0", "0", "1-0"]), (away, ["1", "0", "0", "1", "0-1"])):
            row = table.get_by_role("row").filter(has=table_page.get_by_role("link", name=team, exact=True))
            shown = row.get_by_role("cell").all_inner_texts()
            assert shown[1:7] == [team, *cells], shown
        assert _row(league, division, home)["score"] == 3  # 2 for the match, 1 for the game
        assert "Traceback" not in " ".join(read_texts(page))
    finally:
        league.stop()
        site.stop()


def _fixture(league: LeagueService, division: int, fid: int) -> dict:
    return next(f for f in league.json(f"/divisions/{division}/fixtures.json")["fixtures"] if f["id"] == fid)


def _sheets(url: str, fid: int) -> int:
    """The versions of the fixture's sheet the league keeps."""
    db = connect(url, pool=1)
    try:
        return len(League(db).sheets(fid))
    finally:
        db.close()


def _wait_for(check, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.25)
    return True


def test_the_laptop_links_and_takes_a_fixture_in_its_app_and_sends_the_sheet(browser, app, tmp_path):
    """The same screens in the laptop's app (``scorekeeper web``, the host's browser): linked
    while it runs, its pusher (a thread of the server) sends the confirmed sheets."""
    url = f"sqlite:///{tmp_path / 'league.db'}"
    fid, division, home, away, home_captain, away_captain, club, code = _season(url)
    target = Setup.new([home_captain, away_captain]).rules.target
    league = LeagueService(url, "https://scores.example.org").start()
    try:
        page = app
        _link(page, league, code, club)
        fixture_line = _take_and_play(page, fid, home, away, home_captain, target)
        tap(page, f"Confirm for {home} as the host")
        tap(page, "The event")
        tap(page, "Change")
        _confirm_as(page, away_captain, away, fixture_line)
        assert _wait_for(lambda: _fixture(league, division, fid)["result"] is not None, 60)
        assert _fixture(league, division, fid)["result"] == {"games": [1, 0], "points": [target, 0]}
        assert _sheets(url, fid) == 2
        _league_screen(page)
        wait_text(page, "No sheet waiting to be sent")
        wait_text(page, f"Open fixture {fid}: {home} v {away}")  # taken: opened, not taken again
    finally:
        league.stop()
