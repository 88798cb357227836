"""The wall for a room (issue 44) in a real browser: a Swiss of 32 players in its first
round (ten tables won, six in play), made straight in the store, on a watcher's screen of
1280x720 joined by the watch code from another address. Every standing line is on the
screen, none cut off, with nothing to scroll; the round's tables take their turn with the
standings, each with its state; and while nothing changes the wall sends its browser
nothing but its page turns (no redraw storm).
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

NAMES = (
    "Ann Ben Cy Di Ed Flo Gus Hal Ivy Jo Kit Lou Mo Ned Ola Pip Quentin Rosa Sam Tess Uma Vic Wyn Xavier "
    "Yves Zoe Abigail Bartholomew Cecilia Dominic Evangeline Florence"
).split()
WIDTH, HEIGHT = 1280, 720
TURN = 6  # seconds a page of the wall is shown here (SCOREKEEPER_WALL_SECONDS; 12 unless told)

# every labelled semantics node with its box (x, y, w, h) in CSS px
_BOXES_JS = """() => Array.from(document.querySelectorAll('flt-semantics')).map(e => {
  const r = e.getBoundingClientRect();
  return {label: (e.getAttribute('aria-label') || e.innerText || '').trim(), x: r.x, y: r.y, w: r.width, h: r.height};
}).filter(b => b.label)"""


def boxes(page, prefix: str) -> dict[str, dict]:
    """The labelled nodes whose label starts with ``prefix``, by label."""
    return {b["label"]: b for b in page.evaluate(_BOXES_JS) if b["label"].startswith(prefix)}


def on_screen(box: dict) -> bool:
    return box["y"] >= 0 and box["y"] + box["h"] <= HEIGHT and box["x"] >= 0 and box["x"] + box["w"] <= WIDTH


def record_received(page) -> None:
    """Keep every websocket frame the page receives (the server's patches) in ``page.received``."""
    page.received = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: page.received.append(frame)))


def test_the_wall_at_1280x720_shows_32_players_and_takes_turns_with_the_draw(browser, tmp_path):
    db = str(tmp_path / "db")
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(
            new_event("club", "Friday club night", "swiss", "all-fives", players=NAMES, rounds=3, target=5)
        )
        for table in range(1, 11):
            store.import_record(won_record(event, 1, table, winner=(table + 1) % 2))  # odd tables: the first named wins
        book.open_round("club", 1)  # the other six: in play, 0-0
    server = LanServer(db)
    server.env = {"SCOREKEEPER_WALL_SECONDS": str(TURN)}
    server.start()
    try:
        with netns.remote_browser(browser.playwright) as (ns, remote):
            context = harness.new_context(remote, viewport={"width": WIDTH, "height": HEIGHT})
            url = ns.url(server.port, f"/join/{server.code('watch')}")  # the six digits still join
            wall = harness.open_app(context, url, on_page=record_received)
            harness.tap(wall, "Events: standings")
            harness.tap(wall, "Open Friday club night")
            harness.tap(wall, "Standings")
            harness.wait_text(wall, "Round 1 of 3")
            harness.wait_text(wall, re.compile(r"^Standing \d+\. Florence: "))
            harness.wait_idle(wall)
            quiet_from = len(wall.received)

            standing = boxes(wall, "Standing ")
            assert sorted(re.match(r"Standing \d+\. (\w+):", k).group(1) for k in standing) == sorted(NAMES)
            assert [k for k, b in standing.items() if not on_screen(b)] == []
            assert len({round(b["x"]) for b in standing.values()}) == 2  # two columns of sixteen
            assert "Standing 1. Ann: score 1, won 1, played 1" in standing  # table 1: Ann beat Ben

            # the round's tables take their turn
            harness.wait_text(wall, re.compile(r"^Table 1: "), timeout=TURN + 10)
            harness.wait_idle(wall)
            turned = len(wall.received) - quiet_from
            tables = boxes(wall, "Table ")
            assert len(tables) == 16 and [k for k, b in tables.items() if not on_screen(b)] == []
            assert "Table 1: Ann v Ben, Ann won 5-0" in tables
            assert "Table 11: Uma v Vic, in play 0-0" in tables
            assert boxes(wall, "Standing ") == {}, "the draw has the screen to itself at this size"
            # nothing changed: the page turn is all the wall sent (one patch; two frames at most)
            assert turned <= 2, [bytes(f)[:80] for f in wall.received[quiet_from:]]
    finally:
        server.stop()
