"""Broadway in a real browser.

* A short hand: tiles set by tapping a tile and two cells, the matched
  sections and points previewed before "Set it" (checked against the engine's
  own preview of the same placement), a refused placement explained, four
  passes blocking the hand, the penalties for the tiles left, and the next
  hand on 5-5.
* A whole match: seven (short, blocked) hands on 6-6 down to 0-0 -- the first
  five stored before the server starts (the same entries, folded by the engine),
  the last two tapped in: tiles set by a cell and a direction, an exposed tile,
  undo/redo, Home's "Resume match" in the middle --, the tie after hand 7, the
  sudden-death hand on 6-6 won at the placement that gives a lead of two, and
  the match in History, all eight hands of it. A match started with nobody
  named for 6-6 has its table ask.
* The grid centred in its box, and panning sideways once zoomed wider than it.

The tests share one server (its matches made before it starts, by Broadway's New
match form's own view-model; the form itself is driven by taps in the first test)
and one host page (see conftest's ``module_server`` and ``host``)."""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import open_in_history, ready_broadway, ready_records
from e2e.conftest import serving
from e2e.harness import go_to, read_texts, wait_text
from scorekeeper.broadway.engine import SEATS, Match, Setup
from scorekeeper.broadway.record import load, to_record

pytestmark = pytest.mark.browser

tap = harness.tap
NAMES = ["Ann", "Ben", "Cy", "Di"]  # North, East, South, West
AXIS = {"North": "x", "South": "x", "East": "y", "West": "y"}  # the way a seat sets its tiles
#: The matches made before the module's server starts, by the New match form's view-model.
MATCHES = {
    "asks": {"names": NAMES, "leader": None},  # nobody named for 6-6
    "grid phone": {"names": NAMES, "leader": "Ann"},
    "grid desktop": {"names": NAMES, "leader": "Ann"},
}


def short_entries(m: Match, leader: str, exposed: str | None = None) -> None:
    """The entries of one short hand (as :func:`short_hand` taps them), into the engine alone."""
    d = int(str(m.next_double).split("-")[0])
    m.start(leader)
    double, nxt, _way = hand_cells(leader)
    m.play(f"{d}-{d}", [list(c) for c in double])
    m.play(f"{d}-{(d + 1) % 7}", [list(c) for c in nxt])
    if exposed:
        m.expose(exposed)
    for _ in range(4):
        m.pass_()
    m.settle(dict(zip(NAMES, m.hand.due, strict=True)))


def five_hands() -> dict:
    """The whole match's first five short hands (6-6 down to 2-2, Ann, Ben, Cy, Di, Ann
    leading), as a record: the table then asks who holds 1-1."""
    m = Match(Setup.new(NAMES))
    for leader in ["Ann", "Ben", "Cy", "Di", "Ann"]:
        short_entries(m, leader)
    assert m.totals == {"North-South": -65, "East-West": -65}
    return to_record(m)


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    yield from serving(
        tmp_path_factory, lambda db: {**ready_broadway(db, MATCHES), **ready_records(db, {"five": five_hands()})}
    )


def place(page, m: Match, tile: str, a, b, direction: str | None = None):
    """Tap the tile and the two cells (or the first cell and ``direction``); the
    preview must say what the engine says; set it.  ``tile``'s first number goes on ``a``."""
    hi, lo = sorted((int(n) for n in tile.split("-")), reverse=True)
    tap(page, f"tile {hi}-{lo}")  # the picker shows the higher half first
    # each tap waits for the screen to answer the one before (a tap on a cell the grid is
    # drawing again was seen lost on a loaded machine; no thumb is that fast)
    wait_text(page, re.compile(rf"^{hi}-{lo}: tap the cell for its first half"))
    tap(page, f"cell {a[0]},{a[1]}")
    wait_text(page, re.compile(rf"^{hi}-{lo}: now the cell next to it for the other half"))
    tap(page, f"Other half {direction}" if direction else f"cell {b[0]},{b[1]}")
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
    # the screen's answer to the set before the next tap: the scores alone may not change (a
    # play that scores nothing), and a tap on a tile the picker was drawing again was lost
    # in a fresh-clone run
    wait_text(page, re.compile(rf"^(Note: |Your turn, \w+\. )\w+ set {pv.placement.tile}(: \+\d+)?$"))
    wait_scores(page, m)


#: The grid's free cells ("cell x,y") and the scrolling box they are drawn in (their
#: semantics parent): the left and right edges of each, in CSS pixels.
_GRID_JS = r"""
() => {
  const own = el => [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
    .map(n => n.textContent).join('').trim();
  const cells = [...document.querySelectorAll('flt-semantics')]
    .filter(el => /^cell -?\d+,-?\d+(\n|$)/.test(own(el)));
  if (!cells.length) return null;
  const box = cells[0].parentElement.closest('flt-semantics');
  const rects = cells.map(el => el.getBoundingClientRect());
  const r = box.getBoundingClientRect();
  return {
    box: [r.left, r.right],
    cells: [Math.min(...rects.map(c => c.left)), Math.max(...rects.map(c => c.right))],
    rows: [Math.min(...rects.map(c => c.top)), Math.max(...rects.map(c => c.bottom))],
    one_box: cells.every(el => el.parentElement.closest('flt-semantics') === box),
  };
}
"""


def grid_edges(page) -> dict:
    harness.wait_idle(page, quiet=0.2)
    g = page.evaluate(_GRID_JS)
    assert g is not None and g["one_box"], g
    return g


def assert_grid_centred(page) -> None:
    """The grid's cells sit in the middle of their box, as much room left as right.
    (The drawn cells are the free ones around the layout, one column on each side
    of it, so their extent is the grid's.)"""
    g = grid_edges(page)
    (box_l, box_r), (cells_l, cells_r) = g["box"], g["cells"]
    assert cells_r - cells_l < box_r - box_l, g
    left, right = cells_l - box_l, box_r - cells_r
    assert abs(left - right) <= 2, f"grid not centred in its box: {left:.0f} px left, {right:.0f} px right ({g})"


def wait_scores(page, m: Match) -> None:
    for s, v in m.totals.items():
        wait_text(page, f"Score {s} {v}")


def new_match(page, leader: str | None) -> None:
    """New match -> Broadway, the four names by seat, who holds 6-6 (if known), Start."""
    go_to(page, "/", "New match")
    tap(page, "New match")
    tap(page, "Game: Broadway")
    wait_text(page, "Who holds 6-6?")
    for seat, name in zip(SEATS, NAMES, strict=True):
        harness.enter(page, seat, name)
    if leader:
        tap(page, f"Who holds 6-6?: {leader}")
    tap(page, "Start match")


def test_a_short_broadway_hand(host):
    page = host
    new_match(page, "Ben")  # the form, by taps
    wait_text(page, "Hand 1 on 6-6, Ben to play")

    m = Match(Setup.new(NAMES))
    m.start("Ben")
    texts = read_texts(page)
    assert "tile 6-6" in texts and "tile 6-3" not in texts, "the first turn sets the hand's double"
    assert "Pass" not in texts and "Exposed" not in texts, "the first turn can only set the double"
    assert_grid_centred(page)  # the empty table's 5 x 5 cells
    place(page, m, "6-6", (0, 0), (0, 1))  # Ben sits East: his tiles run North-South
    wait_text(page, "Hand 1 on 6-6, Cy to play")
    texts = read_texts(page)
    assert "Pass" in texts and "Exposed" in texts

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
    assert_grid_centred(page)

    for who in ["Ann", "Ben", "Cy", "Di"]:  # four passes in succession block the hand
        wait_text(page, re.compile(rf"^Hand 1 on 6-6, {who} to play"))
        tap(page, "Pass")
        m.pass_()
    wait_text(page, "Hand 1 on 6-6, tiles left")
    due = dict(zip(NAMES, m.hand.due, strict=True))
    for name, n in due.items():
        wait_text(page, f"{name} left {n}")  # prefilled: 7 - tiles set
    pens = m.penalties_preview(due)
    wait_text(page, "Penalties: " + ", ".join(f"{s} {v:+d}" for s, v in pens.items()))
    tap(page, "Settle hand")
    m.settle(due)
    wait_scores(page, m)
    wait_text(page, "Hand 2 on 5-5: who holds it?")
    tap(page, "Cy holds 5-5")
    wait_text(page, "Hand 2 on 5-5, Cy to play")


def hand_cells(leader: str):
    """Where a short hand's double and next tile go, and the next tile's direction."""
    if AXIS[SEATS[NAMES.index(leader)]] == "x":  # the double East-West, the next tile North-South on its first half
        return [(0, 0), (1, 0)], [(0, 1), (0, 2)], "North"
    return [(0, 0), (0, 1)], [(1, 0), (2, 0)], "East"


def short_hand(
    page, m: Match, leader: str, direction: bool = False, exposed: str | None = None, undo: bool = False
) -> None:
    """One hand kept short: ``leader`` sets the double, the next player a tile on it (0 points),
    then (after ``exposed``, shown by the player after that) four passes block the hand and the
    prefilled tiles left are settled."""
    d = int(str(m.next_double).split("-")[0])
    tap(page, f"{leader} holds {d}-{d}")
    m.start(leader)
    wait_text(page, f"Hand {m.hand.number} on {d}-{d}, {leader} to play")
    assert "Pass" not in read_texts(page), "the first turn can only set the double"
    double, nxt, way = hand_cells(leader)
    place(page, m, f"{d}-{d}", *double)
    place(page, m, f"{d}-{(d + 1) % 7}", *nxt, direction=way if direction else None)
    if exposed:
        who = m.to_move
        tap(page, f"tile {exposed}")
        tap(page, "Exposed")
        m.expose(exposed)
        wait_text(page, f"Note: {who} exposed {exposed}: turn lost")
    for i in range(4):
        who = m.to_move
        wait_text(page, re.compile(rf"^Hand {m.hand.number} on {d}-{d}, {who} to play"))
        tap(page, "Pass")
        m.pass_()
        if undo and i == 1:  # take the pass back, then put it back
            wait_text(page, re.compile(rf"^Hand {m.hand.number} on {d}-{d}, {m.to_move} to play"))
            tap(page, "Undo")
            wait_text(page, re.compile(rf"^Hand {m.hand.number} on {d}-{d}, {who} to play"))
            tap(page, "Redo")
    wait_text(page, f"Hand {m.hand.number} on {d}-{d}, tiles left")
    due = dict(zip(NAMES, m.hand.due, strict=True))
    for name, n in due.items():
        wait_text(page, f"{name} left {n}")
    tap(page, "Settle hand")
    m.settle(due)
    wait_scores(page, m)


def test_a_seven_hand_match_and_its_sudden_death(module_server, host):
    page = host
    # a match started with nobody named for 6-6: its table asks
    go_to(page, f"/table/{module_server.mids['asks']}", "New match, who holds 6-6?")  # the top bar
    wait_text(page, "Hand 1 on 6-6: who holds it?")  # (not "Hand 0, next hand")

    # the whole match: hands 1-5 stored (the same short hands), the table asks for hand 6
    mid = module_server.mids["five"]
    go_to(page, f"/table/{mid}", "Hand 6 on 1-1: who holds it?")
    m = load(five_hands())
    wait_scores(page, m)
    short_hand(page, m, "Ben", direction=True, exposed="0-0", undo=True)
    # Home in the middle of the match: "Resume match" comes back to the next hand
    tap(page, "Home")
    wait_text(page, re.compile(r"Broadway: Ann . Ben . Cy . Di\nHand 6: North-South -78, East-West -78"))
    tap(page, "Resume match")
    wait_text(page, "Hand 7 on 0-0: who holds it?")
    short_hand(page, m, "Cy")
    assert m.hand.number == 7 and str(m.hand.double) == "0-0"
    assert m.totals == {"North-South": -91, "East-West": -91} and m.winner is None

    # the tie after seven hands: sudden death, starting again on 6-6
    wait_text(page, "Hand 8 (sudden death) on 6-6: who holds it?")
    wait_text(page, "sudden death: first to lead by 2")
    tap(page, "Ann holds 6-6")
    m.start("Ann")
    # the screen's answer first, as in short_hand (a tile tap while the table was drawn for
    # the new hand was lost once in a fresh-clone run)
    wait_text(page, "Hand 8 on 6-6, Ann to play")
    place(page, m, "6-6", (0, 0), (1, 0))  # Ann (North): East-West
    place(page, m, "6-5", (0, 1), (0, 2))  # Ben: 1 matched section, 0
    place(page, m, "6-4", (1, 1), (2, 1))  # Cy: the 6 touches two 6s: North-South +1
    assert m.winner is None  # a lead of one is not enough
    tap(page, "Pass")  # Di
    m.pass_()
    place(page, m, "5-4", (1, 2), (2, 2))  # Ann: the 5 on Ben's 5, the 4 on Cy's 4: +1, a lead of two
    assert m.setup.sides[m.winner] == "North-South" and m.won_at == (8, 5)
    ns, ew = m.scores
    line = f"North-South win {ns} to {ew} at hand 8, turn 5"
    wait_text(page, f"Winner {line}")
    wait_text(page, "Hand 8, North-South won")
    assert "Pass" not in read_texts(page)  # nothing more to enter

    # History keeps it: the whole match, hand by hand, with its layouts
    tap(page, "History")
    wait_text(page, re.compile(r"Ann . Ben . Cy . Di: North-South -89, East-West -91 \(won by North-South\)"))
    open_in_history(page, mid)
    wait_text(page, "North-South -89, East-West -91 - North-South won")
    texts = read_texts(page)
    text = next(x for x in texts if x.startswith("Broadway: North-South (Ann, Cy) vs East-West (Ben, Di)"))
    for n in range(1, 9):
        assert f"Hand {n} on " in text
    assert "Hand 8 on 6-6 (sudden death; leader Ann)" in text
    assert "exposed 0-0 (turn lost)" in text
    assert "Winner: North-South (at hand 8, turn 5)" in text


@pytest.mark.parametrize("viewport", [harness.PHONE_VIEWPORT, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_the_grid_is_centred_in_its_box_and_pans_when_wider(module_server, host, viewport):
    """On the host's page: the phone's size, then a desktop window's (the page resized, as a
    window is, instead of a second page loaded), each at a table of its own."""
    page = host
    if viewport != harness.PHONE_VIEWPORT:
        page.set_viewport_size(dict(viewport))
    name = "grid phone" if viewport == harness.PHONE_VIEWPORT else "grid desktop"
    go_to(page, f"/table/{module_server.mids[name]}", "Hand 1 on 6-6, Ann to play")
    try:
        assert_grid_centred(page)  # the empty table's 5 x 5 cells
        m = Match(Setup.new(NAMES))
        m.start("Ann")
        place(page, m, "6-6", (0, 0), (1, 0))  # Ann (North): East-West
        assert_grid_centred(page)  # the window: columns -2..3, free cells drawn on -1..2
        for _ in range(4):  # zoom 2: cells of 68 px, the window 6 x 68 = 408 px wide
            tap(page, "Zoom in")
        g = grid_edges(page)
        (box_l, box_r), (cells_l, cells_r) = g["box"], g["cells"]
        cell = (cells_r - cells_l) / 4
        assert cell == pytest.approx(68, abs=1), g
        room = 6 * cell <= box_r - box_l
        assert room == (viewport != harness.PHONE_VIEWPORT), g  # a desktop window has the room, a phone not
        if room:  # (the desktop) still room: still centred
            assert_grid_centred(page)
            return
        # (the phone) wider than its box: it starts at the box's left edge (column -2
        # is empty, the cells start at -1) and pans sideways to its right edge
        assert cells_l - box_l == pytest.approx(cell, abs=2), g
        page.mouse.move((box_l + box_r) / 2, (g["rows"][0] + g["rows"][1]) / 2)
        page.mouse.wheel(6 * cell, 0)
        g = grid_edges(page)
        (box_l, box_r), (cells_l, cells_r) = g["box"], g["cells"]
        assert box_r - cells_r == pytest.approx(cell, abs=2), g  # column 3 is empty
    finally:
        page.set_viewport_size(dict(harness.PHONE_VIEWPORT))
