"""A club night in real browsers (issue 30): two tables of phones play round 1 of a round
robin, and the wall -- a watcher's screen, joined by the watch code from another address --
shows the standings change the moment each match is won; then a league fixture's result
sheet is confirmed by a captain on his own phone (whose seat no other phone can take) and by
the host, marked as the host's, and re-opened by the host: the captain's phone shows it; last,
the host makes a partners league in the app's New event (issue 44).

The host's browser (loopback) opens the round; each table's phone says who it is and finds
its own table first; the phone of the second table is a scorer that joined by the table
code. The matches are tiny (a target of 5: the leader's 5-0 wins), so the test is about the
event, not the game.
"""

from __future__ import annotations

import re

import pytest
from events.helpers import won_record

from e2e import harness, netns
from e2e.conftest import LanServer
from scorekeeper.eventbook import EventBook
from scorekeeper.events import new_event
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

tap, wait_text, enter = harness.tap, harness.wait_text, harness.enter


def play_own_table(page, me: str, table: str, home: bool = False) -> None:
    """On the event's page: say who this phone is, open its own table (``home``: from Home,
    which leads with it), lead 5-0 and win."""
    tap(page, f"I'm {me}")
    mine = f"Your table: Round 1, {table} (in play · 0 - 0)"
    wait_text(page, mine)
    if home:  # Home leads with the phone's own table now
        harness.go_to(page, "/", "Your table at Friday club night")
        assert "Resume match" not in harness.read_texts(page), "never another table's match"
        mine = f"Round 1, {table} (in play · 0 - 0)"
    tap(page, mine)
    wait_text(page, "Hand 1: who leads?")
    wait_text(page, re.compile(rf"^{me} holds \d+ tiles, this phone$"))  # the phone is its player's at the table
    tap(page, f"{me} leads")
    tap(page, "tile 5-0")
    wait_text(page, f"Winner {me}")
    tap(page, "Back to the event")  # the won match leads back to the event's page
    wait_text(page, re.compile(rf"^Round 1, {table} \(won · "))


def test_a_club_night_round_the_wall_follows_each_match(browser, tmp_path):
    db = str(tmp_path / "db")
    with Store(db) as store:
        book = EventBook(store)
        four = ["Ann", "Ben", "Cy", "Di"]
        book.add(new_event("club", "Friday club night", "round-robin", "all-fives", players=four, target=5))
        teams = {"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}
        league = book.add(new_event("league", "League night", "league", "all-fives", teams=teams, singles=2, legs=1))
        store.import_record(won_record(league, 1, 1, winner=0))
        store.import_record(won_record(league, 1, 2, winner=0))
    server = LanServer(db).start()
    try:
        with netns.remote_browser(browser.playwright) as (ns, remote):
            # the wall: a watcher (another address, the watch code), on the standings
            wall = harness.open_app(harness.new_context(remote), ns.url(server.port, f"/join/{server.code('watch')}"))
            tap(wall, "Events: standings")
            tap(wall, "Open Friday club night")
            wait_text(wall, "Round 1 (now)")
            assert "Open round 1" not in harness.read_texts(wall), "a watcher opens nothing"
            tap(wall, "Standings")
            for name in ("Ann", "Ben", "Cy", "Di"):
                wait_text(wall, f"Standing 1. {name}: score 0, won 0, played 0")

            # the host opens round 1: every table's match is made ready
            host = harness.open_app(harness.new_context(browser), server.url + "event/club")
            wait_text(host, "Round 1 (now)")
            wait_text(host, "Round robin · All Fives · to 5 · 3 rounds · a point a match won")  # what it plays
            # the page's first screens settled: once, in a fresh-clone run, this tap showed no
            # effect in 10 s (no note, the round still "not opened", nothing in the server's
            # log); most likely the button was drawn again under the tap (not reproduced in 3
            # runs side by side)
            harness.wait_idle(host, quiet=0.5)
            tap(host, "Open round 1")
            wait_text(host, "round 1 is open: 2 tables ready")

            # table 1: the host's phone is Ann's
            play_own_table(host, "Ann", "table 1: Ann v Di")
            wait_text(wall, "Standing 1. Ann: score 1, won 1, played 1")
            wait_text(wall, "Standing 4. Di: score 0, won 0, played 1")

            # table 2: a phone that joined by the table code is Cy's
            # (its Home leads with tonight's event, never the host's match or another table's)
            # it comes as the wall's QR code sends a late phone: to the event's address, with no
            # code; it types the table code and is taken on to the event
            phone = harness.open_app(harness.new_context(remote), ns.url(server.port, "/event/club"))
            wait_text(phone, "Join the table")
            harness.fill(phone, "Table code", server.code("table"))
            tap(phone, "Join")
            wait_text(phone, "Round 1 (now)")
            play_own_table(phone, "Cy", "table 2: Ben v Cy", home=True)
            wait_text(wall, "Standing 1. Cy: score 1, won 1, played 1")
            wait_text(wall, "Standing 1. Ann: score 1, won 1, played 1")
            wait_text(wall, "Standing 3. Ben: score 0, won 0, played 1")

            # the night sheet of round 1: each table's result, the standings with what placed
            # each line (Ann and Cy level after every tie-break), and its print view
            tap(host, "Night sheet")
            wait_text(host, "Standings after round 1 of 3")
            wait_text(host, "Table 2: Ben v Cy: 0-5, Cy")
            wait_text(host, "Table 2: Ann v Ben: not played")  # round 2's
            wait_text(host, "= Cy: played 1, won 1, lost 0, points 5-0 (+5), score 1 (level)")
            tap(host, "Print view")
            wait_text(host, re.compile(r"^=\s+Cy\s+1\s+1\s+0\s+5-0\s+\+5\s+1\s+\(level\)$"))
            wait_text(host, re.compile(r"^\s*Table 1: Ann v Di: 5-0, Ann$"))
            tap(host, "Back")
            wait_text(host, "Print view")

            # the league night's sheet: Blues' captain confirms on his own phone (Cy's phone at
            # the club night is Ben's at the league); the host cannot be Ben while that phone
            # holds his seat, confirms for the Reds as the host, and re-opens the sheet: the
            # captain's phone shows it was
            harness.go_to(phone, "/events", "Open League night")
            tap(phone, "Open League night")
            tap(phone, "I'm Ben")
            tap(phone, "Fixture 1: Reds v Blues · result sheet")
            wait_text(phone, "Games: Reds 2, Blues 0")
            tap(phone, "Confirm for Blues as Ben")
            wait_text(phone, re.compile(r"^Confirmed for Blues by Ben \(captain\) at "))
            harness.go_to(host, "/events", "Open League night")
            tap(host, "Open League night")
            tap(host, "I'm Ben")
            wait_text(host, re.compile(r"^Ben's seat is held by another phone \(Chrome on Linux, joined \d\d:\d\d\)"))
            tap(host, "Fixture 1: Reds v Blues · result sheet")
            wait_text(host, re.compile(r"^Confirmed for Blues by Ben \(captain\) at "))  # the phone's, shown here too
            tap(host, "Confirm for Reds as the host")
            wait_text(host, re.compile(r"^Confirmed for Reds by the host at "))
            tap(host, "Re-open the sheet")
            wait_text(
                phone, re.compile(r"^Re-opened by the host at .*: it was confirmed 2-0 for Blues by Ben \(captain\); ")
            )
            wait_text(phone, "Confirm for Blues as Ben")  # its captain confirms it again

            # the host makes a partners league in the app, with the options the command line has
            harness.go_to(host, "/events/new", expect="New event")
            tap(host, "Format: League (teams)")
            wait_text(host, re.compile(r"^Ranked by score, then games difference, "))  # the tie-breaks, in words
            # (a field's name takes its hint once focused: "Name of the event\nFriday club night")
            enter(host, re.compile(r"^Name of the event"), "Pairs night")
            enter(host, re.compile(r"^Teams: one a line"), "Reds: Ann, Cy\nBlues: Ben, Di")
            enter(host, re.compile(r"^Doubles games a fixture"), "1")
            tap(host, "The teams meet: Once")
            tap(host, "Make the event")
            wait_text(host, "League · All Fives · to 200 · 1 round · 2 a match won + 1 a game won")
    finally:
        server.stop()
    with Store(db, read_only=True) as store:
        rows = {r.name: r for r in EventBook(store).standings("club")}
        league = EventBook(store).get("league")
        pairs = next(e for e in EventBook(store).events() if e.name == "Pairs night")
    assert (pairs.sheet.singles, pairs.sheet.doubles, pairs.legs, pairs.teams[1].players) == (0, 1, 1, ("Ben", "Di"))
    assert league.confirmations == ()
    assert {(c.team, c.by, c.role, len(c.phone or "")) for r in league.reopened for c in r.was} == {
        ("Blues", "Ben", "captain", 16),
        ("Reds", "the host", "host", 4),
    }
    assert {n: (r.rank, r.won, r.points_for) for n, r in rows.items()} == {
        "Ann": (1, 1, 5),
        "Cy": (1, 1, 5),
        "Ben": (3, 0, 0),
        "Di": (3, 0, 0),
    }
