"""A short Broadway hand in a real browser: tiles set by tapping a tile and two
cells, the matched sections and points previewed before "Set it" (checked
against the engine's own preview of the same placement), a refused placement
explained, four passes blocking the hand, the penalties for the tiles left,
and the next hand on 5-5."""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.harness import read_texts, wait_text
from scorekeeper.broadway.engine import Match, Setup

pytestmark = pytest.mark.browser

tap = harness.tap
NAMES = ["Ann", "Ben", "Cy", "Di"]  # North, East, South, West


def place(page, m: Match, tile: str, a, b):
    """Tap the tile and the two cells; the preview must say what the engine says; set it."""
    tap(page, f"tile {tile}")
    tap(page, f"cell {a[0]},{a[1]}")
    tap(page, f"cell {b[0]},{b[1]}")
    pv = m.preview(tile, [list(a), list(b)])
    assert pv.ok, pv.error
    side = m.setup.sides[m.setup.side_of[m.seat_to_move]]
    n = pv.sections
    wait_text(page, f"Preview {pv.placement.tile}: {n} matched section{'s' if n != 1 else ''} -> {side} +{pv.points}")
    texts = read_texts(page)
    for cell in pv.matched:  # the matched halves are highlighted on the grid
        assert any(x.startswith(f"matched {cell[0]},{cell[1]}:") for x in texts), texts
    tap(page, "Set it")
    m.play(tile, [list(a), list(b)])
    for s, v in m.totals.items():
        wait_text(page, f"Score {s} {v}")


def test_a_short_broadway_hand(server, app):
    page = app
    tap(page, "New match")
    tap(page, "Game: Broadway")
    wait_text(page, "Who holds 6-6?")
    for seat, name in zip(["North", "East", "South", "West"], NAMES):
        harness.enter(page, seat, name)
    tap(page, "Who holds 6-6?: Ben")
    tap(page, "Start match")
    wait_text(page, "Hand 1 on 6-6, Ben to play")

    m = Match(Setup.new(NAMES))
    m.start("Ben")
    texts = read_texts(page)
    assert "tile 6-6" in texts and "tile 6-3" not in texts, "the first turn sets the hand's double"
    place(page, m, "6-6", (0, 0), (0, 1))  # Ben sits East: his tiles run North-South
    wait_text(page, "Hand 1 on 6-6, Cy to play")

    # Cy sits South: a North-South tile is refused, with the hand and turn named
    tap(page, "tile 6-3")
    tap(page, "cell 1,0")
    tap(page, "cell 1,-1")
    wait_text(page, re.compile(r"^hand 1, turn 2: .*"))
    assert m.preview("6-3", [[1, 0], [1, -1]]).error is not None
    tap(page, "tile 6-3")  # put it back
    harness.wait_idle(page, quiet=0.2)

    place(page, m, "6-3", (1, 0), (2, 0))  # one matched section: 0 points
    place(page, m, "6-1", (1, 1), (1, 2))  # Di: the 6 touches two 6s: 1 point to East-West
    assert m.totals == {"North-South": 0, "East-West": 1}

    for who in ["Ann", "Ben", "Cy", "Di"]:  # four passes in succession block the hand
        wait_text(page, re.compile(rf"^Hand 1 on 6-6, {who} to play"))
        tap(page, "Pass")
        m.pass_()
    wait_text(page, "Hand 1 on 6-6, tiles left")
    due = dict(zip(NAMES, m.hand.due))
    for name, n in due.items():
        wait_text(page, f"{name} left {n}")  # prefilled: 7 - tiles set
    pens = m.penalties_preview(due)
    wait_text(page, "Penalties: " + ", ".join(f"{s} {v:+d}" for s, v in pens.items()))
    tap(page, "Settle hand")
    m.settle(due)
    for s, v in m.totals.items():
        wait_text(page, f"Score {s} {v}")
    wait_text(page, "Hand 2 on 5-5: who holds it?")
    tap(page, "Cy holds 5-5")
    wait_text(page, "Hand 2 on 5-5, Cy to play")
