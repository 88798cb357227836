"""The shared table (issue 16), in real browsers: phones that join by the table code see
each other's entries at once; a tap made on a screen that does not show the last change
yet is refused and changes nothing; a browser without the code reaches no match by any
route; a watcher changes nothing.

A phone that is not the host is a Chromium in a network namespace of the module's own
(``e2e.netns``): its connections come from an address that is not loopback. The server
listens on every interface (``--host 0.0.0.0``) so that the host's browser (loopback)
and the namespace's both reach it; a stranger still needs the code.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
import signal
import time

import pytest

from e2e import harness, netns
from e2e.app_driver import play_note, read_record, ready_matches
from e2e.conftest import LanServer
from e2e.harness import go_to
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import Settle, StartHand
from scorekeeper.allfives.record import load
from scorekeeper.dominoes import Tile

pytestmark = pytest.mark.browser

click, tap, wait_text, read_texts = harness.click, harness.tap, harness.wait_text, harness.read_texts
STALE = "Ann's 6-6 came first: check and tap again"  # the entry that won, named
NAMES = ("Ann", "Ben")


@pytest.fixture
def remote(browser):
    """A browser in a network namespace of its own: a phone that is not the host."""
    with netns.remote_browser(browser.playwright) as (ns, remote_browser):
        yield ns, remote_browser


def remote_page(remote, server, path="/", **context_kwargs):
    ns, b = remote
    ctx = harness.new_context(b, **context_kwargs)
    return harness.open_app(ctx, ns.url(server.port, path))


def stored(server, mid):
    """The record as the running server stored it (read beside it, as ``scorekeeper export`` does)."""
    return read_record(server.db, mid)


# ------------------------------------------------------- the module's table
# One server for the module (--host 0.0.0.0, every proxy trusted), its matches made before it
# starts by the New match form's own view-model (the form itself is driven by taps in
# test_app_browser.py); one host page and one phone in a network
# namespace that joins by the table code once; each test goes to its own match in them.
FOUR = ("Ann", "Ben", "Cy", "Di")
WATCHED = ("Vic", "Wyn")  # the watcher's list names its match alone
MATCHES = {
    "live": {"names": NAMES, "leader": "Ann"},
    "behind": {"names": NAMES, "leader": "Ann"},
    "access": {"names": NAMES, "leader": "Ann"},
    "watched": {"names": WATCHED, "leader": "Vic"},
    "four": {"names": FOUR, "leader": "Ann", "rules": {"target": 100, "hand_size": 4}},
    "asks": {"names": NAMES, "leader": "Ann", "rules": {"hand_size": 2}},
    "race": {"names": NAMES, "leader": "Ann"},
    "paper": {"names": NAMES, "leader": "Ann", "rules": {"hand_size": 2}, "start": {"Ann": 100, "Ben": 50}},
}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The module's server, ``.mids[name]`` for each of ``MATCHES``."""
    s = LanServer(str(tmp_path_factory.mktemp("table") / "db"))
    s.env = {"FORWARDED_ALLOW_IPS": "*"}  # an environment that trusts every proxy's X-Forwarded-For: the app must not
    s.mids = ready_matches(s.db, MATCHES)  # type: ignore[attr-defined]
    s.four = _four_phones_stored(s.db, s.mids["four"])  # type: ignore[attr-defined]
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def far(browser):
    """The module's browser in a network namespace of its own (phones that are not the host)."""
    with netns.remote_browser(browser.playwright) as (ns, remote_browser):
        yield ns, remote_browser


@pytest.fixture(scope="module")
def host(browser, table):
    """The host's page (loopback), counting the websocket frames it sends (``frames_sent``)."""
    ctx = harness.new_context(browser)
    page = harness.open_app(ctx, table.url, on_page=_count_frames)
    yield page
    ctx.close()


@pytest.fixture(scope="module")
def phone(far, table):
    """A phone that joined by the table code (once, for the module), counting its frames."""
    ns, remote_browser = far
    ctx = harness.new_context(remote_browser)
    page = harness.open_app(ctx, ns.url(table.port, f"/join/{table.code('table')}"), on_page=_count_frames)
    wait_text(page, "Resume match")  # in: its Home
    yield page
    ctx.close()


def at_table(page, server, name, seat=None):
    """``page`` goes to the match ``name`` of the module (no page load); ``seat``: it takes
    that player's seat there. Returns the match id."""
    mid = server.mids[name]
    # Home first: the previous test's table shows a header of the same form, so the one awaited
    # below is this match's only when the page comes from a screen with none
    go_to(page, "/", "New match")
    go_to(page, f"/table/{mid}", re.compile(r"^Hand \d+, \w+ to play"))
    if seat is not None:
        tap(page, f"I'm {seat}")
        wait_text(page, re.compile(rf"^{seat} holds \d+ tiles?, (to play, )?this phone$"))
    return mid


def take_seat(page, name):
    """The host takes ``name``'s seat (its button in the players' row)."""
    seat = harness.button_starting(page, f"{name} holds")
    harness.settle(page, seat)  # in view and still (a click on a screen still settling can land beside it)
    seat.click()
    wait_text(page, re.compile(rf"^{name} holds \d+ tiles?, (to play, )?this phone$"))


# --------------------------------------------------------------------- live
def test_two_joined_phones_see_each_others_entries_at_once(table, host, phone):
    mid = at_table(host, table, "live")
    at_table(phone, table, "live", seat="Ben")  # this phone (it joined by the code) is Ben's
    wait_text(phone, re.compile(r"^Ben holds \d+ tiles, this phone$"))

    tile = harness.button(host, "tile 5-5")
    harness.settle(host, tile)  # (as tap does: in view and still) before the clock starts, at the tap
    t0 = time.monotonic()
    tile.click()
    wait_text(phone, re.compile(r"^Hand 1, Ben to play"))
    seen_after = time.monotonic() - t0
    wait_text(phone, "Your turn, Ben. Ann set 5-5: count 10, Ann +10 (on the host)")
    wait_text(phone, "Score Ann 10")

    tap(phone, "tile 5-0")
    wait_text(host, re.compile(r"^Hand 1, Ann to play"))
    wait_text(host, "Note: Ben set 5-0: count 10, Ben +10 (on Ben's phone)")
    wait_text(host, "Score Ben 10")
    tap(host, "Undo")
    wait_text(phone, re.compile(r"^Hand 1, Ben to play"))
    wait_text(phone, "Your turn, Ben. Undo: Ben's 5-0 taken back (on the host)")
    assert [t.get("play") for t in stored(table, mid)["hands"][0]["turns"]] == ["5-5"]
    assert seen_after < 5.0  # (not a timing claim: tools/loadtest/table_load.py measures it)

    # a seat is one phone's (issue 43): the host cannot be Ben while Ben's phone is; its list of
    # the seats names that phone, and its Free gives the seat back (the phone is asked again)
    chip = harness.button_starting(host, "Ben holds")
    harness.settle(host, chip)
    chip.click()
    wait_text(host, re.compile(r"^Ben's seat is held by another phone \(Chrome on Linux, joined \d\d:\d\d\)"))
    go_to(host, "/invite", "Seats")
    wait_text(host, re.compile(r"^Ben: Chrome on Linux, joined \d\d:\d\d$"))
    tap(host, "Free")
    wait_text(host, "No phone holds a seat yet: a phone says who it is at its table (I'm Ann).")
    wait_text(phone, "This phone is:")  # asked again
    go_to(host, f"/table/{mid}", re.compile(r"^Hand 1, Ben to play"))
    take_seat(host, "Ben")


def test_a_match_from_paper_as_points_tiles_and_an_adjustment_on_two_phones(table, host, phone):
    """Issue 47: a match carried on from paper (Ann 100, Ben 50); hand 1 entered as points on
    Ben's phone; hand 2 tile by tile on both; hand 3 begun, then entered as points after the
    question; an adjustment from the Score screen on the host. Each shows on the other phone at
    once, and the totals on both are the hand-worked ones and the stored record's."""
    mid = at_table(host, table, "paper")
    at_table(phone, table, "paper", seat="Ben")
    wait_text(phone, "Score Ann 100")
    wait_text(phone, "Score Ben 50")
    ann, ben = 100, 50

    # hand 1 as points, on Ben's phone: the host sees it at once
    tap(phone, "Enter this hand as points")
    wait_text(phone, "Hand 1 as points")
    tap(phone, "Ann +10")
    tap(phone, "Ann +5")
    harness.enter(phone, "Ben", "5")
    tap(phone, "Save")
    ann, ben = ann + 15, ben + 5
    for page in (host, phone):
        wait_text(page, f"Score Ann {ann}")
        wait_text(page, f"Score Ben {ben}")
    wait_text(host, "Hand 2: who leads?")

    # hand 2 tile by tile: Ann's tiles on the host, Ben's on his phone, checked by the engine
    tap(host, "Ann leads")
    m = Match(Setup.new(list(NAMES), rules={"hand_size": 2}))
    m.push(StartHand("Ann"))
    for tile in ("5-5", "5-0", "0-0"):  # each fits one place: one tap
        page = host if m.to_move == "Ann" else phone
        (on,) = m.placements(Tile.parse(tile))
        turn = m.play(tile, None if on is None else str(on))
        tap(page, f"tile {tile}")
        wait_text(page, re.compile(re.escape(play_note(m, turn).removeprefix("Note: "))))
    assert m.hand is not None and m.hand.end == "domino" and m.to_move is None
    wait_text(phone, "Hand 2, hand over")
    harness.enter(phone, "Ben pips", "8")  # Ben's one tile, on his own phone
    hand = m.push(Settle((("Ben", 8),)))
    tap(phone, "Settle hand")
    ann, ben = ann + m.scores[0], ben + m.scores[1]
    assert hand.end == "domino" and m.scores[0] > 0
    for page in (host, phone):
        wait_text(page, re.compile(r"^Hand 3, Ann to play"))
        wait_text(page, f"Score Ann {ann}")

    # hand 3 begun (one tile), then entered as points on Ben's phone after the question
    tap(host, "tile 6-6")
    wait_text(phone, re.compile(r"Ann set 6-6: count 12"))
    tap(phone, "Enter this hand as points")
    wait_text(phone, re.compile(r"^Enter hand 3 as points instead\? .*1 turn.* is dropped"))
    tap(phone, "Drop it, enter as points")
    harness.enter(phone, "Ann", "10")
    harness.enter(phone, "Ben", "20")
    tap(phone, "Save")
    ann, ben = ann + 10, ben + 20
    for page in (host, phone):
        wait_text(page, f"Score Ann {ann}")
        wait_text(page, f"Score Ben {ben}")

    # an adjustment with its reason, from the Score screen on the host
    go_to(host, f"/score/{mid}", "Adjust score")
    tap(host, "Adjust score")
    harness.enter(host, "Ben", "-10")
    harness.enter(host, "Why (a misdeal, a penalty agreed ...)", "misdeal")
    tap(host, "Save")
    ben -= 10
    wait_text(host, "Adjustment: Ben -10 (misdeal)")
    wait_text(host, f"Total Ben {ben}")
    wait_text(phone, f"Score Ben {ben}")
    wait_text(phone, f"Score Ann {ann}")

    record = stored(table, mid)
    assert record["start"] == {"Ann": 100, "Ben": 50}
    kinds = ["points" if "points" in h else "adjust" if "adjust" in h else "tiles" for h in record["hands"]]
    assert kinds == ["points", "tiles", "points", "adjust"]
    assert list(load(record).scores) == [ann, ben]


class HeldSocket:
    """Holds what the server sends a page (its websocket) until released: a phone whose
    screen is behind."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list = []
        self.ws = None

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        self.ws = ws
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: self.held.append(m) if self.holding else ws.send(m))

    def release(self) -> None:
        self.holding = False
        for m in self.held:
            self.ws.send(m)
        self.held = []


def test_a_tap_on_a_screen_that_is_behind_is_refused_and_changes_nothing(browser, table, host):
    mid = at_table(host, table, "behind")
    ctx = harness.new_context(browser)
    behind = HeldSocket()
    ctx.route_web_socket(re.compile(".*"), behind.route)
    page = harness.open_app(ctx, f"{table.url}table/{mid}")
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))

    behind.holding = True
    tap(host, "tile 6-6")
    wait_text(host, re.compile(r"^Hand 1, Ben to play"))
    wait_text(page, re.compile(r"^Hand 1, Ann to play"))  # still: its screen is behind
    before = stored(table, mid)
    click(page, "tile 5-5")  # what Ann would have set, tapped on the old screen
    time.sleep(0.5)
    assert stored(table, mid) == before  # nothing applied
    behind.release()
    wait_text(page, re.compile(r"^Hand 1, Ben to play"))
    wait_text(page, STALE)
    assert stored(table, mid) == before
    tap(page, "tile 6-5")  # on the screen that shows the change: taken
    wait_text(host, re.compile(r"^Hand 1, Ann to play"))
    assert [t["play"] for t in stored(table, mid)["hands"][0]["turns"]] == ["6-6", "6-5"]


# --------------------------------------------------------------------- access
def fresh_tab(page, url: str) -> None:
    """``page`` opens ``url`` as a new tab of its browser would: its tab's storage (where Flet
    keeps the session's id) cleared, the app loaded anew, a new session on the server that runs
    the app from the start with ``url``'s route (the browser's own storage kept, as a new
    tab shares it). A new page would cost a renderer process more (about 2 CPU-seconds)."""
    page.evaluate("() => sessionStorage.clear()")
    page.goto(url, timeout=harness.APP_LOAD_TIMEOUT * 1000)
    harness.enable_semantics(page)


def test_a_browser_without_the_code_reaches_no_match_by_any_route(table, host, far):
    shared_server, remote = table, far
    mid = at_table(host, table, "access")
    tap(host, "tile 5-5")
    wait_text(host, "Score Ann 10")
    routes = ["/", f"/table/{mid}", f"/score/{mid}", "/history", f"/history/{mid}", "/new", "/new/broadway", "/invite"]
    # A phone that claims to be the host (a header only a proxy on the host may set) is not.
    forged = {"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1", "Forwarded": "for=127.0.0.1"}
    ns, remote_browser = remote
    stranger = harness.new_context(remote_browser, extra_http_headers=forged)  # one browser: it never joins
    names = {*NAMES, *FOUR, *WATCHED}  # of any match the server holds

    def nothing_shown(route: str) -> None:
        wait_text(page, "Join the table")
        texts = read_texts(page)
        assert not [t for t in texts if any(n in t for n in names) or mid in t or t.startswith("Score ")], (
            route,
            texts,
        )
        assert {"Table code", "Join"} <= set(texts), texts

    # every route followed inside the session, as the app's own links would move it ...
    page = harness.open_app(stranger, ns.url(shared_server.port, "/"))
    for route in routes:
        go_to(page, route)
        nothing_shown(route)
    # ... and the match's, the score's and the invite's as the first page of a new session (a
    # page load costs ~4 CPU-s: the rest of the routes take the same way through the gate)
    for route in (f"/table/{mid}", f"/score/{mid}", "/invite"):
        fresh_tab(page, ns.url(shared_server.port, route))
        nothing_shown(route)
    stranger.close()
    page = remote_page(remote, shared_server, "/join/000000")  # a wrong code in a link
    wait_text(page, "that is not this table's code: check it on the host's screen")
    # Past three wrong codes the phone must wait (1 s, then 2, 4 ...: the exact rule is
    # unit-tested with a clock of its own); quick wrong codes soon meet the wait.
    slowed = re.compile(r"^too many wrong codes from this phone: wait (\d+) s and try again$")
    for _ in range(8):
        harness.fill(page, "Table code", "111111")
        click(page, "Join")
        wait_text(page, re.compile(f"{slowed.pattern}|^that is not this table's code"))
        if [t for t in read_texts(page) if slowed.match(t)]:
            break
    # After the wait the right code lets it in (a wrong code still in flight may have made
    # the wait longer: wait as often as the screen says, a few times at most).
    # The old wait message stays on screen until the answer comes, so a Join is judged by
    # whether Home appears, not by the message (a stale message once sent a retry to a
    # phone that was already in: CI at f2ca043).
    for _ in range(4):
        # the answer to the last Join may still be on its way (the old message stays till then)
        with contextlib.suppress(TimeoutError):
            wait_text(page, slowed, timeout=5)
        shown = [m for m in map(slowed.match, read_texts(page)) if m]
        time.sleep((int(shown[0].group(1)) if shown else 0) + 0.2)
        harness.fill(page, "Table code", shared_server.code("table"))
        click(page, "Join")
        try:
            wait_text(page, "Resume match", timeout=5)
            break
        except TimeoutError:
            continue
    wait_text(page, "Resume match")  # in
    page.context.close()


def test_a_watcher_sees_the_match_live_and_cannot_change_anything(table, host, far):
    mid = at_table(host, table, "watched")
    ns, remote_browser = far
    page = harness.open_app(harness.new_context(remote_browser), ns.url(table.port, f"/join/{table.code('watch')}"))
    wait_text(page, "Watching: you see the table and the scores; you cannot change anything.")
    texts = read_texts(page)
    assert not {"New match", "History", "Phones at this table"} & set(texts), texts
    harness.button_starting(page, "Watch Vic · Wyn").click()
    wait_text(page, re.compile(r"^Hand 1, Vic to play"))
    wait_text(page, "Watching: this phone sees the table; it cannot change it.")
    texts = read_texts(page)
    assert not [t for t in texts if t.startswith("tile ") or t in ("Undo", "Redo", "Correct an entry", "Drew 1")]
    tap(host, "tile 5-5")
    wait_text(page, re.compile(r"^Hand 1, Wyn to play"))  # live
    wait_text(page, "Score Vic 10")
    tap(page, "Score")
    wait_text(page, "Total Vic 10")
    # the same tab (its session) opens them: the app's router moves there, as on a load of the
    # address in that tab (which reattaches the same session), without drawing the app anew
    for route in ("/history", "/new", f"/history/{mid}", "/invite"):
        go_to(page, f"/table/{mid}", re.compile(r"^Hand 1, Wyn to play"))  # from a screen that is not the answer
        go_to(page, route, "Watching: you see the table and the scores; you cannot change anything.")
        harness.wait_idle(page, quiet=0.3)
        assert route in page.url
        assert not {"Export", "Import", "Start match", "History"} & set(read_texts(page))
    assert [t["play"] for t in stored(table, mid)["hands"][0]["turns"]] == ["5-5"]
    page.context.close()


def test_the_host_shows_the_codes_as_qr_codes(table, host):
    go_to(host, "/", "Phones at this table")
    tap(host, "Phones at this table")
    code = table.code("table")
    wait_text(host, f"Players code {code}")
    wait_text(host, f"Watchers code {table.code('watch')}")
    qr = [t for t in read_texts(host) if t.startswith("QR code: http://")]
    assert len(qr) == 3 and qr[0].endswith(f"/join/{table.secret('table')}"), qr  # the link's secret (issue 43)
    assert qr[1].endswith(f"/join/{table.secret('watch')}"), qr
    assert qr[2].endswith("/app/"), qr  # Install on this phone: the phone's own app (issue 29)


# ------------------------------------------------------------- four phones


def _choose(m):
    """A tile for the player to move (the lowest that fits one place, else the lowest that
    fits) and where: the engine decides what is legal, the test only picks."""
    fitting = [(t, m.placements(t)) for t in m.tiles if m.placements(t)]
    one = [(t, places[0]) for t, places in fitting if len(places) == 1]
    return one[0] if one else (fitting[0][0], fitting[0][1][0]) if fitting else None


def _same_on_every_phone(phones, m, note_core):
    """Every phone shows the entry just made, the same header and the same scores."""
    for name, page in phones.items():
        wait_text(page, re.compile(re.escape(note_core)))
        header = f"Hand {m.hand.number}, {m.to_move} to play" if m.to_move else None
        if header:
            wait_text(page, re.compile("^" + re.escape(header)))
        texts = read_texts(page)
        for side, score in zip(m.setup.sides, m.scores, strict=True):
            assert f"Score {side} {score}" in texts, (name, side, score, texts)
        if m.to_move == name:  # the phone of the player to move is lit up, with the entry
            assert [t for t in texts if t.startswith(f"Your turn, {name}.")], (name, texts)
        else:
            assert not [t for t in texts if t.startswith("Your turn")], (name, texts)


def winner_of(m):
    return m.setup.sides[m.winner]


def _pips_left(m) -> dict[str, int]:
    """At a hand end: each player still holding tiles and their pips, the tiles not down handed
    out in seating order (what the four-phones test enters on each player's phone)."""
    down = m.hand.layout.nodes
    free = [t for t in m.tiles if t not in down]
    out = {}
    for i, name in enumerate(m.setup.players):
        if m.hand.held[i]:
            tiles, free = free[: m.hand.held[i]], free[m.hand.held[i] :]
            out[name] = sum(t.hi + t.lo for t in tiles)
    return out


#: How many plays before the end of its second-to-last settled hand the four phones take the match over.
FOUR_TAKE_OVER = 3


def _four_phones_whole(rec: dict, first) -> list[dict] | None:
    """The entries that play the match ``rec`` to its end as the four-phones test enters them
    (``_choose``, ``_pips_left``, the next hand started by the app where the rules name its
    leader), but its first hand by ``first`` (``m`` -> a tile and where); None if a hand is
    blocked (the test waits for the next hand to start by itself)."""
    from scorekeeper.allfives.record import load

    rec = copy.deepcopy(rec)
    entries: list[dict] = []
    while not (m := load(rec)).over:
        hand = rec["hands"][-1]
        if m.hand.end is not None:
            if m.rules.next_leader == "left":
                leader = m.setup.players[(m.hand.leader + 1) % len(m.setup.players)]
            elif m.hand.domino_player is not None:
                leader = m.setup.players[m.hand.domino_player]
            else:
                return None
            hand["remaining"] = _pips_left(m)
            entries.append({"remaining": hand["remaining"]})
            if not load(rec).over:
                rec["hands"].append({"leader": leader, "turns": []})
                entries.append({"hand": {"leader": leader}})
            continue
        tile, on = (first if m.hand.number == 1 else _choose)(m)
        turn = {"play": str(tile)} | ({} if on is None else {"on": str(on)})
        hand["turns"].append(turn)
        entries.append({"turn": turn})
    return entries


def _four_phones_stored(db: str, mid: str) -> dict[str, int]:
    """Store the four-phones match (``mid`` in ``db``, before the server starts) up to
    ``FOUR_TAKE_OVER`` plays before the end of its second-to-last settled hand, through the
    store's own ``append`` (as the app's taps are): the phones play the rest (the end of that
    hand, its settlement, a whole hand, the last settlement, the winner). The first hand is
    played by a seeded choice among the legal plays, the seed (of 40) that leaves the phones the
    fewest plays (16 of 39, a whole hand among them); the rest as the test plays it. Returns the
    plays and settled hands stored and the plays of the whole match."""
    import random

    from scorekeeper.store import Store

    with Store(db) as st:
        rec = st.record(mid)
    best = None
    for seed in range(40):
        pick = random.Random(seed)
        entries = _four_phones_whole(
            rec, lambda m, pick=pick: pick.choice([(t, p) for t in m.tiles for p in m.placements(t)])
        )
        ends = [i for i, e in enumerate(entries or []) if "remaining" in e]
        if (
            entries is None
            or len(ends) < 2
            or not all("turn" in e for e in entries[ends[-2] - FOUR_TAKE_OVER : ends[-2]])
        ):
            continue
        cut = ends[-2] - FOUR_TAKE_OVER
        left = sum("turn" in e for e in entries[cut:])
        if left > 10 and (best is None or left < best[0]):
            best = (left, cut, entries)
    assert best is not None, "no first hand leaves the phones two hand ends and more than 10 plays"
    _, cut, entries = best
    with Store(db) as st:
        for e in entries[:cut]:
            st.append(mid, e)
    return {
        "plays": sum("turn" in e for e in entries[:cut]),
        "settled": sum("remaining" in e for e in entries[:cut]),
        "whole": sum("turn" in e for e in entries),
    }


@pytest.mark.slow
def test_four_phones_keep_one_match_each_entering_its_own_tiles(table, host, phone, far):
    """A match of four players (hands of 4, to 100) to its end: the host is Ann's, three phones
    join by the code and take Ben's, Cy's and Di's seats; each player's tiles are tapped on their
    own phone; after every entry all four phones show the same state. At each hand end every
    player enters their own pips on their own phone (the field empty, the entry on every phone
    at once), and a different phone settles each time.

    The match is stored (before the server starts, see ``_four_phones_stored``) up to a few plays
    before the end of its second-to-last settled hand: the phones play its last plays, two hand
    ends (the second after one settled: its form empty again on every phone), a whole hand
    between them, and the winner (16 plays of 39)."""
    mid = at_table(host, table, "four")
    take_seat(host, "Ann")  # the host takes Ann's seat
    at_table(phone, table, "four", seat="Ben")  # the module's phone, joined by the code
    phones = {"Ann": host, "Ben": phone}
    ns, remote_browser = far
    for name in FOUR[2:]:
        page = harness.open_app(harness.new_context(remote_browser), ns.url(table.port, f"/join/{table.code('table')}"))
        wait_text(page, "Resume match")
        at_table(page, table, "four", seat=name)
        phones[name] = page
    wait_text(host, re.compile(r"^Hand \d+, \w+ to play"))
    try:
        _four_phones_play(mid, phones, table, table.four)
    finally:
        for name in FOUR[2:]:
            phones[name].context.close()


def _four_phones_play(mid, phones, shared_server, stored_before):
    from scorekeeper.allfives.record import load

    plays = hands = 0
    while True:
        m = load(stored(shared_server, mid))
        if m.over:
            break
        if m.hand.end is not None:  # each player enters what is left in hand on their own phone
            down = m.hand.layout.nodes
            free = [t for t in m.tiles if t not in down]
            for i, name in enumerate(FOUR):
                if m.hand.held[i]:
                    tiles, free = free[: m.hand.held[i]], free[m.hand.held[i] :]
                    field = phones[name].get_by_role("textbox", name=f"{name} pips", exact=True)
                    assert field.input_value() == "", (hands, name)  # the form is empty at every hand
                    pips = str(sum(t.hi + t.lo for t in tiles))
                    harness.fill(phones[name], f"{name} pips", pips)
                    for page in phones.values():  # on every phone at once
                        wait_text(page, re.compile(rf"^Note: {name}: {pips} pips"))
            for page in phones.values():  # the same "still to enter" (none) everywhere
                assert not [t for t in read_texts(page) if t.startswith("Still to enter")], read_texts(page)
            tap(phones[FOUR[(stored_before["settled"] + hands) % 4]], "Settle hand")  # one action, from any phone
            hands += 1
            for page in phones.values():
                wait_text(page, re.compile(rf"^(Hand {m.hand.number + 1}, \w+ to play|Winner )"))
            continue
        player = m.to_move
        tile, on = _choose(m)
        places = len(m.placements(tile))
        turn = m.play(tile, on)
        harness.set_tile(phones[player], tile, on, places)
        plays += 1
        _same_on_every_phone(phones, m, play_note(m, turn)[len("Note: ") :])

    final = stored(shared_server, mid)
    entered = [t["play"] for h in final["hands"] for t in h["turns"] if "play" in t]
    assert len(entered) == stored_before["plays"] + plays == stored_before["whole"] and plays > 10
    assert hands >= 2  # a hand end after one settled: its form was empty on every phone
    print(f"four phones: {plays} plays (of {len(entered)}) and {hands} hand ends, {winner_of(m)} won")
    winner = winner_of(m)
    for page in phones.values():
        wait_text(page, re.compile(rf"^Winner {winner}"))


def test_a_phone_asks_before_entering_for_another_player_and_shares_draws_and_the_hand_end(
    table, host, phone, tmp_path
):
    """Issue 27: Ben's phone tapping while Ann is to play is asked "Enter 3-2 for Ann?" and
    enters nothing until told; Ben's draw shows on the host before his tile; at the hand end
    Ben's phone has his row first with the picker ready, and what it enters is on the host."""
    shared_server = table
    mid = at_table(host, table, "asks")
    at_table(phone, table, "asks", seat="Ben")
    wait_text(phone, re.compile(r"^Hand 1, Ann to play"))

    tap(phone, "tile 3-2")  # Ann is to play: asked, nothing entered
    wait_text(phone, "It is Ann's turn. Enter 3-2 for Ann?")
    phone.screenshot(path=str(tmp_path / "asked.png"))
    assert stored(shared_server, mid)["hands"][0]["turns"] == []
    tap(phone, "For Ann")
    wait_text(host, re.compile(r"^Hand 1, Ben to play"))

    boneyard = int(re.search(r"Boneyard (\d+)", " ".join(read_texts(host))).group(1))
    tap(phone, "Drew 1")  # Ben's own turn: at once, and on the host before his tile
    wait_text(host, "Ben drew 1. Undo puts it back.")
    wait_text(host, f"Boneyard {boneyard - 1}")
    tap(phone, "tile 2-2")
    wait_text(host, re.compile(r"^Hand 1, Ann to play"))
    assert stored(shared_server, mid)["hands"][0]["turns"][1] == {"draw": 1, "play": "2-2", "on": "3-2"}

    tap(host, "tile 4-2")  # Ann's last tile: the hand is over
    wait_text(phone, "Tap Ben's tiles:")  # his own row, the picker ready
    phone.screenshot(path=str(tmp_path / "hand-end.png"))
    tap(phone, "remaining tile 6-6")
    tap(phone, "remaining tile 6-5")
    wait_text(host, "Note: Ben holds 6-6 6-5 (on Ben's phone)")
    wait_text(host, re.compile(r"^Ann dominoed: the others hold 23 -> 25"))
    tap(host, "Settle hand")
    wait_text(phone, re.compile(r"^Hand 2, Ann to play"))
    assert stored(shared_server, mid)["hands"][0]["remaining"] == {"Ben": ["6-6", "6-5"]}


def _race_tiles(rec):
    """Ann's tile and Ben's for a race: Ann's fits one place now, Ben's one place after it."""
    from scorekeeper.allfives.record import load

    m = load(rec)
    for x in m.tiles:
        if len(m.placements(x)) != 1:
            continue
        after = load(rec)
        after.play(x, m.placements(x)[0])
        for y in after.tiles:
            if y != x and len(after.placements(y)) == 1:
                return x, y
    return None


def _count_frames(page) -> list[int]:
    """A one-cell list counting the websocket frames ``page`` sends (set before it connects)."""
    sent = [0]

    def on_socket(ws):
        ws.on("framesent", lambda _frame: sent.__setitem__(0, sent[0] + 1))

    page.on("websocket", on_socket)
    page.frames_sent = sent
    return sent


@contextlib.contextmanager
def _server_paused(server):
    """The server stopped (SIGSTOP) for the block and continued after it: whatever the pages
    send meanwhile waits in its sockets and is read together, the closest two taps can come."""
    os.killpg(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.killpg(server.proc.pid, signal.SIGCONT)


def test_taps_within_20_ms_on_two_phones_never_land_under_the_wrong_name(table, host, phone):
    """Issue 27: Ann (the host, her seat) and Ben (a phone, his seat) tap a tile each while
    Ann is to play, at one moment, again and again.
    Ann's tile goes in under Ann every time; Ben's phone is asked ("Enter 4-1 for Ann?"),
    told Ann's tile came first, or (its screen already showing his turn) enters his tile
    under his name; never his tile under Ann's.

    "At one moment" is made exact rather than hoped for: two pages' timers cannot be held
    within 20 ms on a loaded machine (48-136 ms apart seen in CI), so the server is paused
    while both taps are sent and reads them together, closer than any 20 ms."""
    from scorekeeper.allfives.record import load

    shared_server = table
    mid = at_table(host, table, "race")
    take_seat(host, "Ann")
    at_table(phone, table, "race", seat="Ben")

    expected: list[tuple[str, str]] = []  # (who tapped, the tile), in the order entered
    outcomes: list[str] = []
    while len(outcomes) < 4:
        rec = stored(shared_server, mid)
        m = load(rec)
        assert m.to_move == "Ann" and m.hand.end is None
        tiles = _race_tiles(rec)
        assert tiles is not None, f"no tiles for race {len(outcomes) + 1}"
        x, y = tiles
        for page in (host, phone):
            wait_text(page, re.compile(r"^Hand 1, Ann to play"))
        taps = [(harness.button(page, f"tile {tile}"), page) for page, tile in ((host, x), (phone, y))]
        for loc, page in taps:
            harness.settle(page, loc)
        with _server_paused(shared_server):
            before = [page.frames_sent[0] for _, page in taps]
            for loc, _ in taps if len(outcomes) % 2 else taps[::-1]:  # either phone first
                loc.click()
            # both taps sent (the server reads them together when it goes on)
            deadline = time.monotonic() + harness.ACTION_TIMEOUT
            while any(page.frames_sent[0] == n for (_, page), n in zip(taps, before, strict=True)):
                assert time.monotonic() < deadline, "a tap was not sent"
                for _, page in taps:
                    page.wait_for_timeout(20)
        expected.append(("Ann", str(x)))
        asked, refused = f"It is Ann's turn. Enter {y} for Ann?", f"Ann's {x} came first: check and tap again"
        came = f"Your turn, Ben. Ann set {x}: "
        saw_asked = False
        deadline = time.monotonic() + harness.ACTION_TIMEOUT
        while True:  # until the phone shows how its tap ended
            texts = read_texts(phone)
            turns = stored(shared_server, mid)["hands"][0]["turns"]
            saw_asked |= asked in texts
            if refused in texts or len(turns) > len(expected) or came in " ".join(texts):
                break
            assert time.monotonic() < deadline, (outcomes, (str(x), str(y)), turns)
            time.sleep(0.05)
        harness.wait_idle(phone, quiet=0.3)
        texts = read_texts(phone)
        turns = stored(shared_server, mid)["hands"][0]["turns"]
        if refused in texts:  # Ann's tile was read first: his stale tap refused, and he is told so
            outcomes.append("told")
        elif len(turns) == len(expected) + 1:  # his screen had his turn already: his tile, his name
            outcomes.append("entered")
            expected.append(("Ben", str(y)))
        else:  # his tap was read first and asked; Ann's tile, arriving, answered the question
            assert came in " ".join(texts) and asked not in texts, texts
            outcomes.append("asked, then Ann's tile came" if saw_asked else "Ann's tile came")
        if len(expected) % 2:  # Ben enters his tile now that his screen says it is his turn
            wait_text(phone, re.compile(r"^Hand 1, Ben to play"))
            tap(phone, f"tile {y}")
            expected.append(("Ben", str(y)))
        wait_text(host, re.compile(r"^Hand 1, Ann to play"))
        m = load(stored(shared_server, mid))
        assert [(m.setup.players[t.player], str(t.tile)) for t in m.hand.turns] == expected
    print(f"\nraces: {outcomes}")
