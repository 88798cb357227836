"""The table fits the screens it is played on (issue 27): two phones (360x800, 412x915)
and two laptops (1280x800, 1366x768). On each, a four-player Fives and Threes match (the
pegboard, the tallest scores) in play and at its hand end, and one of four players each on
their own (a board of four tracks) in play: every control of the table
and of the hand end is on the screen without scrolling, nothing is cut at the right edge,
the players' row names every player and the boneyard; on a laptop the pegboard's labels
are at least 14 px (the board drawn at twice its size or more).

One server and one page for the whole file (each page load costs ~5 CPU-seconds): each size
resizes that page, waits until the page has told the server its new size (the resize event
on its websocket), and then opens each table anew (``harness.go_to``), laid out for that size.
"""

from __future__ import annotations

import os
import re

import pytest

from e2e import harness
from e2e.fives_threes import PUB

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cy", "Di"]
SIZES = [(360, 800), (412, 915), (1280, 800), (1366, 768)]
BOARD_W = 390  # the pegboard SVG's own width: its numerals are 7 px there

# every labelled semantics node with its box (x, y, w, h) in CSS px
_BOXES_JS = """() => Array.from(document.querySelectorAll('flt-semantics, input, textarea')).map(e => {
  const r = e.getBoundingClientRect();
  const label = (e.getAttribute('aria-label') || e.innerText || '').trim();
  return {label, role: e.getAttribute('role') || '', x: r.x, y: r.y, w: r.width, h: r.height};
}).filter(b => b.label && b.w > 0 && b.h > 0)"""


def _record(with_remaining: bool, turns: int | None, teams: bool = True) -> dict:
    from scorekeeper.allfives.simulate import random_record

    rules = {k: v for k, v in PUB.items() if k != "hand_end"}  # the hand end counted: its form
    for seed in range(1, 200):
        r = random_record(seed, 4, teams=teams, max_hands=1, **rules)
        hand = r["hands"][0]
        if len(hand["turns"]) >= 12:
            break
    names = dict(zip(r["players"], NAMES, strict=True))
    hand["leader"] = names.get(hand.get("leader"), hand.get("leader"))
    hand.pop("remaining", None) if not with_remaining else None
    if turns is not None:
        hand["turns"] = hand["turns"][:turns]
    r["players"] = NAMES
    if teams:
        r["teams"] = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    r["hands"] = [hand]
    return r


@pytest.fixture(scope="module")
def two_tables(tmp_path_factory):
    """A server with three stored matches: one in play (10 tiles down), one at its hand end,
    and one of four players each on their own (a pegboard of four tracks, the tallest) in play."""
    from e2e.conftest import Server
    from scorekeeper.store import Store

    db = str(tmp_path_factory.mktemp("sizes") / "db")
    with Store(db) as st:
        playing = st.import_record(_record(False, 10))
        ended = st.import_record(_record(False, None))
        alone = st.import_record(_record(False, 10, teams=False))
    server = Server(db).start()
    yield server, playing, ended, alone
    server.stop()


#: The size the file's page is loaded at: none of ``SIZES``, so that every size is a resize.
FIRST = {"width": 1000, "height": 700}


@pytest.fixture(scope="module")
def sized_page(browser, two_tables):
    """The file's one page, recording the websocket frames it sends (``page.sent``)."""
    server = two_tables[0]
    ctx = harness.new_context(browser, viewport=dict(FIRST))

    page = harness.open_app(ctx, server.url, on_page=harness.record_sent)
    yield page
    ctx.close()


def _boxes(page) -> list[dict]:
    return page.evaluate(_BOXES_JS)


def _on_screen(page, width: int, height: int, wanted) -> list[dict]:
    """The boxes whose label matches ``wanted``; fails if any is off the screen."""
    found = [b for b in _boxes(page) if wanted(b["label"])]
    off = [
        b for b in found if b["x"] < -1 or b["y"] < -1 or b["x"] + b["w"] > width + 1 or b["y"] + b["h"] > height + 1
    ]
    assert not off, f"{width}x{height}: off the screen: {off}"
    return found


def _picker(page, width: int, height: int) -> set[str]:
    """The tiles of the picker, every one on the screen: a tile's cell, or the targets of a
    tile's split cell (``set 5-3 on 5-5: ...``, issue 48)."""
    cells = _on_screen(page, width, height, lambda s: re.match(r"^(tile \d-\d|set \d-\d on )", s) is not None)
    return {b["label"].split()[1] for b in cells}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_table_and_its_hand_end_fit_the_screen_without_scrolling(sized_page, two_tables, size):
    server, playing, ended, alone = two_tables
    width, height = size
    page = sized_page
    shots = os.environ.get("SIZES_SHOTS")  # a folder: a screenshot of each screen, to look at
    harness.resize(page, width, height)

    harness.go_to(page, f"/table/{playing}", re.compile(r"^Pegboard to 61 exactly: Ann & Cy "))
    harness.wait_text(page, re.compile(r"^Hand 1, \w+ to play"))  # (the match at its hand end has teams too)
    harness.wait_idle(page, quiet=0.3)
    if shots:
        harness.wait_idle(page, quiet=0.5)
        page.screenshot(path=f"{shots}/play-{width}x{height}.png")
    tiles = _picker(page, width, height)
    assert len(tiles) == 28 - 10  # 10 down (a tile that fits two or three places: its split cell)
    for name in ("Undo", "Redo", "Correct an entry", "Score", "Home"):
        assert _on_screen(page, width, height, lambda s, n=name: s == n), name
    players = _on_screen(page, width, height, lambda s: re.match(r"^(Ann|Ben|Cy|Di) holds \d+ tiles?", s))
    assert sorted({b["label"].split()[0] for b in players}) == NAMES
    assert _on_screen(page, width, height, lambda s: s.startswith("Count "))
    board = _on_screen(page, width, height, lambda s: s.startswith("Pegboard to 61"))
    assert len(board) == 1
    if width > height:  # the laptop: the board for the whole table, numerals >= 14 px
        assert board[0]["w"] * 7 / BOARD_W >= 14 - 0.1, board

    harness.go_to(
        page, f"/table/{alone}", re.compile(r"^(Pegboard to 61 exactly: .*, |Score )Di \d")
    )  # a side of its own
    harness.wait_text(page, re.compile(r"^Hand 1, \w+ to play"))
    harness.wait_idle(page, quiet=0.3)
    if shots:
        harness.wait_idle(page, quiet=0.5)
        page.screenshot(path=f"{shots}/play-alone-{width}x{height}.png")
    tiles = _picker(page, width, height)
    assert len(tiles) == 28 - 10
    players = _on_screen(page, width, height, lambda s: re.match(r"^(Ann|Ben|Cy|Di) holds \d+ tiles?", s))
    assert sorted({b["label"].split()[0] for b in players}) == NAMES
    assert _on_screen(page, width, height, lambda s: s.startswith("Count "))

    harness.go_to(page, f"/table/{ended}", "Settle hand")
    harness.wait_idle(page, quiet=0.3)
    wanted = ("Settle hand", *(f"Pick {n}'s tiles" for n in NAMES))
    for name in wanted:
        assert _on_screen(page, width, height, lambda s, n=name: s == n), name
    pips = _on_screen(page, width, height, lambda s: re.match(r"^(Ann|Ben|Cy|Di) pips", s))
    assert len(pips) == 4
    harness.tap(page, "Pick Ben's tiles")
    harness.wait_text(page, "Tap Ben's tiles:")
    if shots:
        harness.wait_idle(page, quiet=0.5)
        page.screenshot(path=f"{shots}/hand-end-{width}x{height}.png")
    remaining = _on_screen(page, width, height, lambda s: s.startswith("remaining tile "))
    held = {m.group(0) for b in _boxes(page) if (m := re.match(r"^(Ann|Ben|Cy|Di) holds (\d+) tiles?$", b["label"]))}
    assert len(held) == 4
    assert len(remaining) == sum(int(h.split()[2]) for h in held)  # the tiles not on the table
    assert _on_screen(page, width, height, lambda s: s == "Settle hand")
