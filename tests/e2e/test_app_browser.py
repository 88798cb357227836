"""The app in a real browser: ``scorekeeper web`` driven in Chromium by clicks alone.

Every expected score comes from the engine: the test replays the same
entries through :func:`scorekeeper.allfives.record.score_record` and
compares with what the screen shows, then with the record the server stored.
"""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import new_match, play_note, read_record, ready_matches
from e2e.conftest import Server
from e2e.harness import go_to, read_texts, wait_text
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import StartHand
from scorekeeper.allfives.record import score_record

pytestmark = pytest.mark.browser

#: The matches the tests play, made before the module's server starts (see conftest's
#: ``module_server``); the New match form itself is driven by the first two tests.
TWO = {"names": ["Ann", "Ben"], "leader": "Ann"}
MATCHES = {
    "illegal": TWO,
    "older": TWO,
    "still": TWO,
    "earlier": {**TWO, "rules": {"hand_size": 2}},
    "phone drawing": TWO,
    "laptop drawing": TWO,
    "side": TWO,
    "picker": {**TWO, "rules": {"hand_size": 2}},
}


def _domino_at_its_end() -> dict:
    """A seeded four-player hand in partnerships that P4 dominoes while P2, P4's partner, still
    holds two tiles: stored at its end, nothing entered of what is left in hands."""
    from scorekeeper.allfives.simulate import random_record

    record = random_record(1, players=4, teams=True, max_hands=1)
    record["hands"][0].pop("remaining")
    return record


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """The module's server: ``MATCHES`` made by the New match form, and the stored hand of
    :func:`_domino_at_its_end` (``mids["domino"]``)."""
    from e2e.conftest import serving
    from scorekeeper.store import Store

    def make(db: str) -> dict[str, str]:
        mids = ready_matches(db, MATCHES)
        with Store(db) as st:
            mids["domino"] = st.import_record(_domino_at_its_end())
        return mids

    yield from serving(tmp_path_factory, make)


# the shared way to click and type (see tests/e2e/harness.py)
click = harness.tap
fill = harness.enter


def engine_for(names, teams=None, rules=None):
    return Match(Setup.new(names, teams=teams, rules=rules))


def single_place_play(m: Match) -> tuple[str, str | None]:
    """A legal play that fits exactly one place (played with one tap), the lowest tile first."""
    for t in m.tiles:
        places = m.placements(t)
        if len(places) == 1:
            return str(t), None if places[0] is None else str(places[0])
    raise AssertionError("no single-place play")


def screen_scores(page, sides):
    texts = read_texts(page)
    out = {}
    for side in sides:
        found = [t for t in texts if t.startswith(f"Score {side} ")]
        assert found, f"no score shown for {side}: {texts}"
        out[side] = int(found[0].rsplit(" ", 1)[1])
    return out


def open_table(page, server, name: str, to_play: str = "Ann") -> str:
    """Go to the table of the module's match ``name``; its id."""
    mid = server.mids[name]
    go_to(page, f"/table/{mid}", re.compile(rf"^Hand 1, {to_play} to play"))
    return mid


def shown_match(page) -> str:
    """The id of the match whose table the page shows."""
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def test_two_player_hand_to_a_domino(module_server, host):
    page = host
    go_to(page, "/", "New match")
    new_match(page, ["Ann", "Ben"], leader="Ann", rules={"hand_size": 3})
    mid = shown_match(page)
    m = engine_for(["Ann", "Ben"], rules={"hand_size": 3})
    m.push(StartHand("Ann"))
    entries = []
    while m.hand.end is None:
        tile, on = single_place_play(m)
        turn = m.play(tile, on)
        entries.append({"play": tile, **({"on": on} if on and len(m.hand.turns) > 1 else {})})
        click(page, f"tile {tile}")
        wait_text(page, play_note(m, turn))
    assert m.hand.end == "domino" and m.setup.players[m.hand.domino_player] == "Ann"
    wait_text(page, "Hand 1, hand over")
    # Ben still holds his 3rd tile: type its pips
    fill(page, "Ben pips", "8")
    wait_text(page, "Ann dominoed: the others hold 8 -> 10.")
    click(page, "Settle hand")
    wait_text(page, re.compile(r"^Hand 2, Ann to play"))
    record = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": {"hand_size": 3},
        "hands": [{"leader": "Ann", "turns": entries, "remaining": {"Ben": 8}}, {"leader": "Ann", "turns": []}],
    }
    expected = score_record(record)["scores"]
    assert screen_scores(page, ["Ann", "Ben"]) == expected
    assert expected["Ann"] >= 10
    stored = read_record(module_server.db, mid)
    assert score_record(stored)["scores"] == expected
    assert [t for t in stored["hands"][0]["turns"]] == entries


def test_four_player_partnership_hand_to_a_block(module_server, host):
    page = host
    names = ["Ann", "Ben", "Cy", "Di"]
    teams = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    go_to(page, "/", "New match")
    new_match(page, names, leader="Ben", partners=True, hand_sizes="Newsom & Bourne")
    mid = shown_match(page)
    m = engine_for(names, teams=teams, rules={"hand_size": 7})
    m.push(StartHand("Ben"))
    entries = []
    for _ in range(5):
        tile, on = single_place_play(m)
        m.play(tile, on)
        entries.append({"play": tile, **({"on": on} if on and len(m.hand.turns) > 1 else {})})
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    # the boneyard is empty (4 x 7 = 28): everyone passes in turn -> blocked
    for _ in range(4):
        who = m.to_move
        m.pass_()
        entries.append({"pass": True})
        click(page, "Pass")
        blocked = ": the hand is blocked" if m.hand.end == "blocked" else ""  # the last pass says so
        wait_text(page, f"Note: {who} passed{blocked}")
    assert m.hand.end == "blocked"
    wait_text(page, "Hand 1, hand over")
    # Ben's tiles are picked from the tiles not down; the others' pips typed
    down = {str(n.tile) for n in m.hand.layout}
    ben_tiles = [str(t) for t in m.tiles if str(t) not in down][: m.hand.held[1]]
    click(page, "Pick Ben's tiles")
    for t in ben_tiles:
        click(page, f"remaining tile {t}")
    remaining = {"Ben": ben_tiles}
    for name, pips in [("Ann", 20), ("Cy", 3), ("Di", 30)]:
        fill(page, f"{name} pips", str(pips))
        remaining[name] = pips
    record = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": names,
        "teams": teams,
        "rules": {"hand_size": 7},
        "hands": [{"leader": "Ben", "turns": entries, "remaining": remaining}],
    }
    expected = score_record(record)
    h1 = expected["hands"][0]
    assert h1["end"] == "blocked" and h1["winner"] == "Ann & Cy"  # Cy holds the fewest pips
    wait_text(page, re.compile(r"^Ann & Cy won the block: the others hold \d+ -> \d+\.$"))
    click(page, "Settle hand")
    wait_text(page, "Hand 2: who leads?")
    assert screen_scores(page, list(teams)) == expected["scores"]
    click(page, "Cy leads")
    wait_text(page, re.compile(r"^Hand 2, Cy to play"))
    # the score screen shows the same totals and the hand's breakdown
    click(page, "Score")
    for side, score in expected["scores"].items():
        wait_text(page, f"Total {side} {score}")
    stored = read_record(module_server.db, mid)
    assert score_record({**stored, "hands": stored["hands"][:1]})["scores"] == expected["scores"]


def test_illegal_tile_shows_its_error_and_undo(module_server, host):
    page = host
    mid = open_table(page, module_server, "illegal")
    click(page, "tile 3-2")
    wait_text(page, "Score Ann 5")
    click(page, "tile 6-6")  # in "other tiles": matches no open end
    wait_text(page, "hand 1, turn 2: 6-6 matches no open end (open ends: 3, 2)")
    wait_text(page, re.compile(r"^Hand 1, Ben to play"))
    click(page, "tile 2-2")
    wait_text(page, "Count 7")
    click(page, "Undo")
    wait_text(page, "Count 5")
    wait_text(page, re.compile(r"^Hand 1, Ben to play"))
    click(page, "Undo")
    wait_text(page, "Score Ann 0")
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))
    click(page, "Redo")
    wait_text(page, "Score Ann 5")
    assert read_record(module_server.db, mid)["hands"][0]["turns"] == [{"play": "3-2"}]


def test_reload_and_restart_resume_mid_hand(browser, context, tmp_path):
    db = str(tmp_path / "db")
    mid = ready_matches(db, {"mid-hand": TWO})["mid-hand"]
    server = Server(db).start()  # its own: it is killed and started again
    try:
        _reload_and_restart(server, context, harness.open_app(context, f"{server.url}table/{mid}"))
    finally:
        server.stop()


def _reload_and_restart(server, context, page):
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))
    for tile in ["3-2", "2-2", "6-3"]:
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    # a tile that fits two ends: its cell is split, one tap on the place it goes
    click(page, "set 6-2 on 2-2: scores 0")
    wait_text(page, "Note: Ben set 6-2: count 12")
    url = page.url
    assert "/table/" in url
    harness.reload(page)  # the same browser session
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))
    harness.reload(page, new_session=True)  # a fresh session: the state comes from the store
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))
    wait_text(page, "Score Ann 15")
    wait_text(page, "Count 12")
    # kill the server mid-hand, start it again: the home screen resumes the match in one tap
    server.kill()
    server.start()
    page2 = harness.open_app(context, server.url)
    click(page2, "Resume match")
    wait_text(page2, re.compile(r"^Hand 1, Ann to play"))
    wait_text(page2, "Ben holds 7 tiles")
    assert "6-2 on the table" in read_texts(page2)
    assert [u for u in harness.external_requests(context) if "rive" not in u] == []


def test_correcting_an_older_turn_edits_that_turn(module_server, host):
    """The corrections panel edits the turn picked, not the latest one (each field is bound
    to its own hand and turn)."""
    page = host
    mid = open_table(page, module_server, "older")
    for tile in ["3-2", "2-2", "6-3"]:
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    wait_text(page, "Score Ann 15")
    click(page, "Correct an entry")
    click(page, "Correct hand 1 turn 2")
    wait_text(page, "Now: Ben: 2-2 on 3-2")
    click(page, "tile 2-0")  # on the 2 of 3-2, the only place it fits before turn 2
    wait_text(page, re.compile(r"^Change: hand 1, turn 2: Ben 2-0 on 3-2, count 3 \(was 7\)"))
    click(page, "Save correction")
    wait_text(page, re.compile(r"^Note: corrected: hand 1, turn 2: "))
    wait_text(page, "Score Ann 5")  # 3-2 (5), 2-0 (3), 6-3 (6)
    stored = read_record(module_server.db, mid)
    assert stored["hands"][0]["turns"] == [{"play": "3-2"}, {"play": "2-0", "on": "3-2"}, {"play": "6-3", "on": "3-2"}]


#: Where each named control stands: one look at the page for all of them (28 locators a turn
#: cost more CPU than the turn itself). A control's name is its aria-label or its text's
#: first line, as ``harness.button`` finds it.
_BOXES_JS = """(names) => {
  const want = new Set(names), out = {};
  const host = document.querySelector('flt-semantics-host');
  for (const el of host ? host.querySelectorAll('flt-semantics') : []) {
    let name = el.getAttribute('aria-label');
    if (!name) for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE && n.textContent.trim()) { name = n.textContent.split('\\n')[0].trim(); break; }
    if (name && want.has(name) && !(name in out)) { const r = el.getBoundingClientRect(); out[name] = [r.x, r.y]; }
  }
  return out;
}"""


def _positions(page, names):
    """Where each control stands, relative to the top bar's Home button (so that scrolling
    the page does not count as moving)."""
    boxes = page.evaluate(_BOXES_JS, ["Home", *names])
    hx, hy = boxes["Home"]
    return {n: (round(x - hx), round(y - hy)) for n, (x, y) in boxes.items() if n != "Home"}


def test_the_picker_holds_still_over_a_whole_hand(module_server, browser):
    """Every tile of the picker stays in its place, turn after turn, through draws, "15!",
    the choice of an end and passes, until it is set (issue 15: a screen that holds still).
    With the full motion (ripples, transitions), as most phones have it."""
    ctx = harness.new_context(browser, reduced_motion="no-preference")
    page = harness.open_app(ctx, f"{module_server.url}table/{module_server.mids['still']}")
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))
    m = engine_for(["Ann", "Ben"])
    m.push(StartHand("Ann"))
    names = [f"tile {t}" for t in m.tiles]
    first = _positions(page, names)
    assert len(first) == 28
    rng = __import__("random").Random(8)
    moved = []
    while m.hand.end is None and m.winner is None and len(m.hand.turns) < 24:
        fits = [t for t in m.tiles if m.placements(t)]
        if not fits or (rng.random() < 0.2 and m.hand.boneyard > 0 and m.hand.turns):
            if m.hand.boneyard > 0:
                click(page, "Drew 1")
                wait_text(page, re.compile(r"^Ann drew 1\. |^Ben drew 1\. "))
                now = _positions(page, [n for n in names if n in first])
                moved += [(n, first[n], now[n]) for n in now if now[n] != first[n]]
                click(page, "Undo")  # takes back the draws not yet entered
                wait_text(page, re.compile(r"^Note: "))
            if not fits:
                m.pass_()
                click(page, "Pass")
                wait_text(page, re.compile(r"^Note: .* passed"))
                continue
        tile = rng.choice(fits)
        places = m.placements(tile)
        on = rng.choice(places)
        turn = m.play(tile, on)
        if 1 < len(places) <= 3:  # one tap: the place's target in the tile's split cell
            click(page, f"set {tile} on {on}: scores {turn.points}")
        else:
            click(page, f"tile {tile}")
        if len(places) > 3:
            wait_text(page, re.compile(f"^{tile} fits {len(places)} ends"))
            now = _positions(page, [n for n in names if n in first and n != f"tile {tile}"])
            moved += [(n, first[n], now[n]) for n in now if now[n] != first[n]]
            click(page, f"set {tile} on {on}: count {turn.count}, scores {turn.points}")
        wait_text(page, play_note(m, turn))
        now = _positions(page, names)
        assert f"tile {tile}" not in now  # set: its cell is empty
        moved += [(n, first[n], now[n]) for n in now if now[n] != first[n]]
    assert len(m.hand.turns) >= 8
    assert moved == []


def test_correcting_a_turn_of_an_earlier_hand_by_taps(module_server, host):
    page = host
    mid = open_table(page, module_server, "earlier")
    for tile in ["3-2", "2-2", "4-2"]:  # Ann dominoes on her second tile
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    fill(page, "Ben pips", "7")
    click(page, "Settle hand")
    wait_text(page, re.compile(r"^Hand 2, Ann to play"))
    click(page, "tile 5-5")
    wait_text(page, "Score Ann 20")  # 5 + settlement 5 + 10
    click(page, "Correct an entry")
    click(page, "Correct hand 1 turn 3")
    wait_text(page, "Now: Ann: 4-2 on 2-2")
    wait_text(page, "The table as it stood before hand 1, turn 3.")  # not the last entry's note
    wait_text(page, re.compile(r"^Correcting$"))  # the top bar, on one line
    click(page, "tile 3-3")  # on the 3 of 3-2: 3-3 (6) + the spinner 2-2 (4) = 10, still her last tile
    wait_text(
        page,
        "Change: hand 1, turn 3: Ann 3-3 on 3-2, count 10 (was 7); Ann +10 (was +0); "
        "scores now Ann 30, Ben 0 (were 20, 0)",
    )
    click(page, "Save correction")
    wait_text(page, re.compile(r"^Note: corrected: hand 1, turn 3"))
    wait_text(page, "Score Ann 30")
    wait_text(page, re.compile(r"^Hand 2, Ben to play"))
    stored = read_record(module_server.db, mid)
    assert stored["hands"][0]["turns"][2] == {"play": "3-3", "on": "3-2"}
    assert score_record(stored)["hands"][1]["turns"][0]["tile"] == "5-5"


def _box(page, name):
    return harness.button(page, name).bounding_box()


def _laid(page, tile):
    return page.get_by_text(f"{tile} on the table", exact=True).bounding_box()


def _drawing_at(page, server, name, width, height):
    """The drawing of the module's match ``name`` on the page made ``width`` x ``height``, and
    the two targets of 6-2's split cell in the picker."""
    harness.resize(page, width, height)  # the server told: the table is laid out for this size
    open_table(page, server, name)
    for tile in ["3-2", "2-2", "6-3"]:
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    # 6-2 fits the 6 of 6-3 and the spinner 2-2: its cell is split, one target a place (issue 48)
    targets = [harness.button_starting(page, f"set 6-2 on {on}: ").bounding_box() for on in ("6-3", "2-2")]
    laid = [_laid(page, t) for t in ("3-2", "2-2 spinner", "6-3")]
    return laid[0], targets, laid


def _overlap(a, b) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and (a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
    )


def test_the_drawing_fills_the_width_and_a_two_place_tile_is_one_tap(module_server, browser):
    """The drawing grows with the room it has; a tile that fits two places is entered with one
    tap, on its place's target in its split cell (its higher half's place on top), and a phone
    on its side shows the whole picker beside the draw counts (issue 48)."""
    # loaded at neither size, so that each is a resize the server is told of before the taps (a
    # tap once went to a tile picker drawn again for the laptop's size under it)
    ctx = harness.new_context(browser, viewport={"width": 1000, "height": 700})
    page = harness.open_app(ctx, module_server.url, on_page=harness.record_sent)
    phone_tile, phone_targets, phone_laid = _drawing_at(page, module_server, "phone drawing", 412, 915)
    top, bottom = phone_targets
    assert top["y"] + top["height"] <= bottom["y"] + 1 and abs(top["x"] - bottom["x"]) < 1  # one cell, halves
    for box in phone_targets:
        assert box["width"] >= 34 and box["height"] >= 34  # a tile's half: a thumb's
        assert not any(_overlap(box, tile) for tile in phone_laid)  # in the picker, not on the drawing
    harness.tap_starting(page, "set 6-2 on 6-3: ")  # one tap: set
    wait_text(page, re.compile(r"^Note: Ben set 6-2: count "))
    desk_tile, _, _ = _drawing_at(page, module_server, "laptop drawing", 1280, 800)
    assert phone_tile["width"] >= 56  # a tile of 4 units at 14 px and more: digits a player reads
    assert desk_tile["width"] > phone_tile["width"]  # the drawing grows with the room it has
    # a phone on its side: two columns, every tile of the picker and the counts in view together
    harness.resize(page, 800, 360)
    open_table(page, module_server, "side")
    harness.wait_idle(page, quiet=0.3)
    wanted = [f"tile {t}" for t in engine_for(["Ann", "Ben"]).tiles] + ["Drew 1", "Drew 2"]
    boxes = {b["label"]: b for b in page.evaluate(_LABELLED_BOXES_JS) if b["label"] in wanted}
    assert sorted(boxes) == sorted(wanted)
    off = [label for label, b in boxes.items() if b["y"] < 0 or b["y"] + b["h"] > 360 or b["x"] + b["w"] > 800]
    assert off == []


_LABELLED_BOXES_JS = """() => Array.from(document.querySelectorAll('flt-semantics')).map(e => {
  const r = e.getBoundingClientRect();
  return {label: (e.getAttribute('aria-label') || e.innerText || '').trim(), x: r.x, y: r.y, w: r.width, h: r.height};
}).filter(b => b.label && b.w > 0)"""


def test_the_hand_end_picker_opens_above_the_settle_button(module_server, host):
    page = host
    open_table(page, module_server, "picker")
    for tile in ["3-2", "2-2", "4-2"]:  # Ann dominoes; Ben still holds one tile
        click(page, f"tile {tile}")
        wait_text(page, re.compile(f"^Note: .* set {tile}: "))
    wait_text(page, "Hand 1, hand over")
    assert "Settle hand" in read_texts(page)
    click(page, "Pick Ben's tiles")
    wait_text(page, "Tap Ben's tiles:")
    assert _box(page, "remaining tile 6-6")["y"] < _box(page, "Settle hand")["y"]
    click(page, "remaining tile 6-6")
    wait_text(page, "Ann dominoed: the others hold 12 -> 10.")
    click(page, "Settle hand")
    wait_text(page, "Note: Hand 1: Ann dominoed: the others hold 12 -> 10. Ann leads hand 2.")


def test_a_domino_in_partnerships_asks_only_for_the_other_sides_tiles(module_server, host):
    """Issue 48: P4 dominoes; P2, P4's partner, still holds tiles that change nothing: the hand
    end asks for P1 and P3 alone, P1's one tile is one tap in the picker that is ready, P3's
    pips one entry, and Settle goes on at once; no "15!" of the last play stays up."""
    page = host
    mid = module_server.mids["domino"]
    go_to(page, f"/table/{mid}", "Settle hand")
    wait_text(page, "Still to enter: P1, P3.")
    texts = read_texts(page)
    assert "P2's tiles do not count: not asked." in texts
    assert "Pick P1's tiles" in texts and "Pick P3's tiles" in texts and "Pick P2's tiles" not in texts
    assert not [t for t in texts if t.startswith("Scored ")]  # the last play's flash is not up
    wait_text(page, "Tap P1's tiles:")  # ready: no Pick tap first
    click(page, "remaining tile 6-5")
    wait_text(page, "Still to enter: P3.")
    fill(page, "P3 pips", "27")
    wait_text(page, "P4 dominoed (S2): the others hold 38 -> 40.")
    click(page, "Settle hand")
    wait_text(page, re.compile(r"^Hand 2, P4 to play"))
    assert read_record(module_server.db, mid)["hands"][0]["remaining"] == {"P1": ["6-5"], "P3": 27}
