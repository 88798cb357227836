"""Regenerate the screenshots of the README and docs/ from the real app, by clicks alone.

    .venv/bin/python -m tools.screenshots [--out screenshots] [--scale 2]    # make screenshots

Starts ``scorekeeper web`` on a free port with a throw-away database, drives
it in Debian's Chromium (Playwright) at phone size (412x915 CSS px) and
writes:

* ``new-match.png``     the new-match form: Ann, Ben, Cy, Di, partnerships on
                        ("All rule options" left closed: opened, it does
                        not fit on one screen)
* ``table-spinner.png`` mid-hand, a spinner with four arms, "15!" just scored
* ``hand-end.png``      the hand-end panel with Ben's tile picked and the
                        settlement preview ("... hold 8 -> 10.")
* ``score.png``         the Score screen after a settled hand
* ``history.png``       History with four matches (one of them won)
* ``table-dark.png``    the spinner table again, browser in dark mode
* ``tally.png``         the Score screen of a match in its fifth hand: each
                        side's Holsey-Tidwell X tally (the latest score in red)
* ``pegboard.png``      a three-player Cribbage 61 match: the pegboard and
                        the score chart

* ``fours-new-match.png`` a new All Fours match: Trinidad, four players in
                        partnerships
* ``fours-hand.png``    the All Fours hand screen: the turn-up J credited to
                        the dealer's side, High and Low in, the short pegboard
* ``fours-count.png``   the Game-point helper: counting cards tapped per side
* ``fours-seven-up.png`` Seven Up won: the chips paid into the pool and the
                        winner named at the item that took the side to 7

* ``invite.png``        the host's "Phones at this table": the two QR codes
* ``join.png``          a phone without the code: the join screen, a wrong code
* ``phone-turn.png``    Ben's phone, joined by the code, lit up on his turn
  after the host entered Ann's 5-5
* ``watcher.png``       a watcher's phone on the same table
* ``broadway.png``      a Broadway hand: a tile about to be set, its matched
                        sections highlighted and the points previewed

* ``fives-threes-new.png``  New match with the Fives and Threes (pub) preset and
                        its rules in a line, four players in partnerships
* ``fives-threes.png``  a pub match at 58-50 in its fourth hand: Ann's 6-2 just
                        went bust ("Bust!": 6 would pass 61), the pegboard on top
* ``fives-threes-partners.png`` a partnership hand: Ann is out, her partner
                        plays on; Ben to play
* ``sniff.png``         Sniff: 4-4 set on 4-1 is the sniff; across or in line?
* ``sniff-inline.png``  the same sniff set in line, then 5-4 on its end and 4-0
                        on a flank

* ``players.png``       Players: the All Fives standings of a season of club nights
                        (``tests/season.py``), most wins first, partnerships apart
* ``player.png``        Ann's figures (every number that counts matches opens them)
* ``player-months.png`` her partners, opponents (by how much) and the month-by-month chart
* ``head-to-head.png``  Ann against Ben, per game
* ``event.png``         a club night of sixteen players: two teams of eight, four
                        doubles tables; Ann's phone shows her own table first
* ``event-wall.png``    the wall (a watcher's standings, 1280x720): the standings and the
                        round's tables with their states, the QR code for a late phone
* ``event-wall-1080.png`` the wall of a Swiss of 32 players at 1920x1080: two columns
* ``event-wall-tables.png`` its round's sixteen tables, on their turn
* ``event-sheet.png``   the fixture's result sheet, confirmed by the away captain on his phone
* ``night-sheet.png``   a Swiss club night's sheet: the final standings (a place decided by
                        head to head), the rounds' tables and byes

The tally and pegboard shots are matches of the engine's random legal games (the first seed
that fits), imported into a fresh database before the server starts, then
opened by clicks (Resume match, Score).

Every step waits for the text the app should show next, so a change in the
app that breaks the walk-through fails loudly (exit status 1) instead of
producing wrong pictures.  The server is always stopped.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from tests.e2e import harness
from tests.e2e.app_driver import new_match, web_command
from tests.e2e.harness import wait_text

ROOT = Path(__file__).resolve().parents[1]

MIN_PNG_BYTES = 12_000  # a blank page or Flet's "Working..." screen is smaller
MAX_PNG_BYTES = 400_000

# The worked example (All Fives, Ann and Ben, Ann leads) plus two more tiles
# so the arms are longer; the last play makes count 15 with four arms out of
# the spinner 2-2.  (tile, the end it goes on when it fits several ends)
SPINNER_PLAYS = [
    ("3-2", None),
    ("2-2", None),  # the spinner
    ("4-2", None),  # on 2-2
    ("2-0", None),  # on 2-2: the third arm
    ("6-3", None),  # on 3-2
    ("6-2", "6-3"),  # fits 6-3 and 2-2: its cell is split, one target each
    ("4-4", None),  # on 4-2
    ("5-2", "2-2"),  # fits 6-2 and 2-2: the fourth arm, count 15
]

# Hand size 3, Ann leads and dominoes; Ben keeps 4-4 (8 pips -> 10).
HAND_END_PLAYS = ["5-5", "5-0", "5-3", "2-0", "3-1"]


class ShotError(RuntimeError):
    pass


# ------------------------------------------------------------------ driving
# the shared way to click and type (see tests/e2e/harness.py)
_settle = harness.settle
click = harness.tap
fill = harness.enter


def scroll_top(page, first: str) -> None:
    """Scroll the page's column back to its top by bringing its first control
    (``first``, e.g. the "Home" icon button) into view.  Not the mouse wheel:
    over the layout drawing (an InteractiveViewer) the wheel zooms the drawing
    instead of scrolling the page."""
    _settle(page, harness.button(page, first))


def park_mouse(page) -> None:
    """Move the pointer off every control and drop the keyboard focus (the Tab
    pressed after filling a field leaves a focus halo on the next control,
    e.g. the partnership switch): no hover tint, tooltip or halo in the shot."""
    page.mouse.move(1, 1)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    harness.wait_idle(page, quiet=0.2)


def play(page, tile: str, on: str | None) -> None:
    """Set ``tile`` (on ``on``, where it fits several places): one tap on its cell, or on the
    target of its place in its split cell (issue 48)."""
    if on is not None:
        target = harness.button_starting(page, f"set {tile} on {on}: ")
        harness.settle(page, target)
        target.click()
    else:
        click(page, f"tile {tile}")
    wait_text(page, re.compile(f"^Note: .* set {re.escape(tile)}: "))


def go_home(page) -> None:
    click(page, "Home")
    wait_text(page, "History")


# -------------------------------------------------------------- screenshots
def shot(page, path: Path, *, top: str | None = None, tries: int = 3) -> None:
    """Screenshot the viewport (scrolled up to the control ``top`` if given);
    retake if it looks blank, fail if it is too big."""
    for attempt in range(1, tries + 1):
        if top:
            scroll_top(page, top)
        park_mouse(page)
        harness.wait_idle(page, quiet=0.5)
        texts = harness.read_texts(page)
        page.screenshot(path=str(path))
        size = path.stat().st_size
        working = any(t.startswith("Working") for t in texts)
        if size >= MIN_PNG_BYTES and texts and not working:
            if size > MAX_PNG_BYTES:
                raise ShotError(f"{path.name} is {size} bytes (> {MAX_PNG_BYTES}): use a smaller --scale")
            print(f"wrote {path} ({size // 1024} KB)")
            return
        time.sleep(1.0 * attempt)
    raise ShotError(f"{path.name}: the page looks blank ({size} bytes, texts {texts[:5]!r})")


def spinner_table(page) -> None:
    """From Home: the spinner match up to the count-15 play."""
    new_match(page, ["Ann", "Ben"], leader="Ann")
    for tile, on in SPINNER_PLAYS:
        play(page, tile, on)
    wait_text(page, "Count 15")
    wait_text(page, "Scored 15!")


NAMES = ["Ann", "Ben", "Cy"]


def pick_record(players: int, low: int, high: int, **rules) -> dict:
    """The first random legal match (by seed, a few hands long) that nobody has
    won yet and whose scores all lie in ``low..high``; players renamed Ann, Ben, Cy."""
    import json

    from scorekeeper.allfives.record import load
    from scorekeeper.allfives.simulate import random_record

    for seed in range(500):
        for hands in range(2, 7):
            record = random_record(seed, players, max_hands=hands, **rules)
            m = load(record)
            if m.winner is None and low <= min(m.scores) and max(m.scores) <= high:
                text = json.dumps(record)
                for i in range(players):
                    text = text.replace(f'"P{i + 1}"', json.dumps(NAMES[i]))
                return json.loads(text)
    raise ShotError(f"no random match with scores in {low}..{high}")


def scroll_heading_to_top(page, text: str) -> None:
    """Wheel the page until the heading ``text`` is near the top of the screen
    (or the page can scroll no further), then let the scrollbar fade."""
    loc = page.locator("flt-semantics-host span").filter(has_text=re.compile("^" + re.escape(text) + "$"))
    harness.settle(page, loc)
    for _ in range(6):
        y = loc.bounding_box()["y"]
        if abs(y - 8) < 16:
            break
        page.mouse.move(200, 450)
        page.mouse.wheel(0, y - 8)
        harness.wait_idle(page, quiet=0.3)
        if loc.bounding_box()["y"] == y:
            break
    time.sleep(2)  # Flutter's scrollbar fades out


def score_shots(browser, out: Path, scale: float) -> list[Path]:
    """tally.png and pegboard.png, each from its own database and server."""
    from scorekeeper.store import Store

    written = []
    cases = [
        ("tally.png", pick_record(2, 100, 200), "X tally"),
        ("pegboard.png", pick_record(3, 15, 58, scale=5), "Pegboard to 61"),
    ]
    for name, record, heading in cases:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
            db = str(Path(tmp) / "db")
            with Store(db) as st:
                st.import_record(record)
            port = harness.free_port()
            server = harness.start_server(web_command(db, port), port, cwd=str(ROOT))
            ctx = harness.new_context(browser, device_scale_factor=scale)
            try:
                page = harness.open_app(ctx, server.url)
                click(page, "Resume match")
                wait_text(page, re.compile(r"^Hand \d+, "))
                click(page, "Score")
                wait_text(page, heading)
                if heading != "X tally":
                    scroll_heading_to_top(page, heading)
                shot(page, out / name, top="Back to the table" if heading == "X tally" else None)
                written.append(out / name)
            finally:
                ctx.close()
                harness.stop_server(server)
    return written


def fours_shots(browser, out: Path, scale: float) -> list[Path]:
    """The All Fours screens, from their own database and server."""
    written = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        port = harness.free_port()
        server = harness.start_server(web_command(str(Path(tmp) / "db"), port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url)
            click(page, "New match")
            click(page, "Game: All Fours")
            wait_text(page, "Variant")
            click(page, "Players: 4")
            for i, name in enumerate(["Ann", "Ben", "Cy", "Di"], 1):
                harness.enter(page, f"Player {i}", name)
            click(page, "First dealer: Ann")
            wait_text(page, "Sides: Ann & Cy against Ben & Di  (partners sit opposite)")
            shot(page, out / "fours-new-match.png", top="Back")
            written.append(out / "fours-new-match.png")
            click(page, "Start match")
            wait_text(page, "Hand 1, Ann deals")
            for b in ("turn up J", "Di begs?: stands", "High: Ben", "Low: Cy"):
                click(page, b)
                harness.wait_idle(page, quiet=0.2)
            wait_text(page, "Score Ben & Di 1")
            shot(page, out / "fours-hand.png", top="Home")
            written.append(out / "fours-hand.png")
            click(page, "Count the cards for Game")
            for side, ranks in (("Ann & Cy", ["A", "10", "K"]), ("Ben & Di", ["10", "Q", "J"])):
                for r in ranks:
                    click(page, f"{side} took {r}")
            wait_text(page, "Counted Ben & Di: 13")
            scroll_heading_to_top(page, "End of hand")
            shot(page, out / "fours-count.png")
            written.append(out / "fours-count.png")
            go_home(page)
            # Seven Up, two players, to 7
            click(page, "New match")
            click(page, "Game: All Fours")
            click(page, "Variant: Seven Up")
            click(page, "Players: 2")
            for i, name in enumerate(["Ann", "Ben"], 1):
                harness.enter(page, f"Player {i}", name)
            click(page, "First dealer: Ann")
            click(page, "Start match")
            wait_text(page, "Hand 1, Ann deals")
            hands = [
                (
                    "Ann",
                    [
                        "turn up J",
                        "Ben begs?: stands",
                        "High: Ann",
                        "Low: Ben",
                        "Jack held by: not in play",
                        "Game: Ann",
                    ],
                ),
                (
                    "Ben",
                    [
                        "turn up 4",
                        "Ann begs?: dealer gives 1",
                        "High: Ben",
                        "Low: Ann",
                        "Jack held by: not in play",
                        "Game: tie",
                    ],
                ),
                ("Ann", ["turn up 9", "Ben begs?: stands", "High: Ann"]),  # 6 + High: Ann has 7
            ]
            for n, (dealer, taps) in enumerate(hands, 1):
                if n > 1:
                    click(page, f"{dealer} deals")
                    wait_text(page, f"Hand {n}, {dealer} deals")
                for b in taps:
                    click(page, b)
                    harness.wait_idle(page, quiet=0.2)
            wait_text(page, re.compile("^Winner Ann wins the match at High"))
            shot(page, out / "fours-seven-up.png", top="Home")
            written.append(out / "fours-seven-up.png")
        finally:
            ctx.close()
            harness.stop_server(server)
    return written


def broadway_shots(browser, out: Path, scale: float) -> list[Path]:
    """broadway.png, from its own database and server."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        port = harness.free_port()
        server = harness.start_server(web_command(str(Path(tmp) / "db"), port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url)
            click(page, "New match")
            click(page, "Game: Broadway")
            for seat, name in zip(["North", "East", "South", "West"], ["Ann", "Ben", "Cy", "Di"], strict=True):
                harness.enter(page, seat, name)
            click(page, "Who holds 6-6?: Ben")
            click(page, "Start match")
            wait_text(page, "Hand 1 on 6-6, Ben to play")
            for tile, a, b in (("6-6", "0,0", "0,1"), ("6-3", "1,0", "2,0"), ("6-1", "1,1", "1,2")):
                click(page, f"tile {tile}")
                click(page, f"cell {a}")
                click(page, f"cell {b}")
                wait_text(page, re.compile(f"^Preview {tile}: "))
                if tile != "6-1":
                    click(page, "Set it")
                    wait_text(page, re.compile(f"^Note: .* set {tile}"))
            wait_text(page, "Preview 6-1: 2 matched sections -> East-West +1")
            shot(page, out / "broadway.png", top="Home")
            return [out / "broadway.png"]
        finally:
            ctx.close()
            harness.stop_server(server)


def points_shots(browser, out: Path, scale: float) -> list[Path]:
    """points-new.png (Scores so far), points-hand.png (a hand entered as points) and
    points-score.png (Score with the hand and an adjustment in their place), issue 47."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        port = harness.free_port()
        server = harness.start_server(web_command(str(Path(tmp) / "db"), port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url)
            new_match(page, ["Ann", "Ben", "Cy", "Di"], leader="Ann", partners=True, start=False)
            switch = page.get_by_role("switch", name="Scores so far (a match carried on from paper)")
            harness.settle(page, switch)
            switch.click()
            harness.enter(page, "Ann & Cy so far", "145")
            harness.enter(page, "Ben & Di so far", "120")
            scroll_heading_to_top(page, "Hand sizes")
            shot(page, out / "points-new.png")
            click(page, "Start match")
            wait_text(page, "Hand 1, Ann to play")
            click(page, "Enter this hand as points")
            wait_text(page, "Hand 1 as points")
            click(page, "Ann & Cy +20")
            click(page, "Ann & Cy +10")
            harness.enter(page, "Ben & Di", "15")
            shot(page, out / "points-hand.png", top="Home")
            click(page, "Save")
            wait_text(page, "Score Ann & Cy 175")
            click(page, "Score")
            click(page, "Adjust score")
            harness.enter(page, "Ben & Di", "-10")
            harness.enter(page, "Why (a misdeal, a penalty agreed ...)", "misdeal")
            click(page, "Save")
            wait_text(page, "Adjustment: Ben & Di -10 (misdeal)")
            scroll_heading_to_top(page, "Hand by hand")
            shot(page, out / "points-score.png")
            return [out / "points-new.png", out / "points-hand.png", out / "points-score.png"]
        finally:
            ctx.close()
            harness.stop_server(server)


def served_code(server, kind: str) -> str:
    """The code a ``scorekeeper web`` printed: ``table`` or ``watch``."""
    found = re.search(rf"\({kind} code (\d{{3}}) (\d{{3}})", harness.server_log(server))
    if not found:
        raise ShotError(f"the server printed no {kind} code")
    return found.group(1) + found.group(2)


def table_shots(browser, out: Path, scale: float) -> list[Path]:
    """The shared table: join.png (a phone without the code), invite.png (the host's
    "Phones at this table"), phone-turn.png (Ben's phone lit on his turn, after the
    host's entry) and watcher.png (a watcher's table). The phones are browsers in a
    network namespace of their own (``tests/e2e/netns.py``: needs root), so they are
    not the host."""
    from tests.e2e import netns

    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        port = harness.free_port()
        cmd = [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "--db",
            str(Path(tmp) / "db"),
            "web",
            "--no-browser",
            "--host",
            "0.0.0.0",
        ]
        server = harness.start_server([*cmd, "--port", str(port)], port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            host = harness.open_app(ctx, server.url)
            click(host, "Phones at this table")
            wait_text(host, f"Players code {served_code(server, 'table')}")
            shot(host, out / "invite.png", top="Back")
            written.append(out / "invite.png")
            click(host, "Back")
            wait_text(host, "History")
            new_match(host, ["Ann", "Ben"], leader="Ann")
            with netns.remote_browser(browser.playwright) as (ns, phones):
                stranger = harness.open_app(harness.new_context(phones, device_scale_factor=scale), ns.url(port, "/"))
                wait_text(stranger, "Join the table")
                harness.enter(stranger, "Table code", "123")
                click(stranger, "Join")
                wait_text(stranger, "that is not this table's code: check it on the host's screen")
                shot(stranger, out / "join.png")
                written.append(out / "join.png")

                ben = harness.open_app(
                    harness.new_context(phones, device_scale_factor=scale),
                    ns.url(port, f"/join/{served_code(server, 'table')}"),
                )
                click(ben, "Resume match")
                click(ben, "I'm Ben")
                play(host, "5-5", None)
                wait_text(ben, re.compile(r"^Your turn, Ben\. Ann set 5-5"))
                shot(ben, out / "phone-turn.png", top="Home")
                written.append(out / "phone-turn.png")

                watcher = harness.open_app(
                    harness.new_context(phones, device_scale_factor=scale),
                    ns.url(port, f"/join/{served_code(server, 'watch')}"),
                )
                harness.button_starting(watcher, "Watch Ann · Ben").click()
                play(ben, "5-0", None)
                wait_text(watcher, "Score Ben 10")
                shot(watcher, out / "watcher.png", top="Home")
                written.append(out / "watcher.png")
        finally:
            ctx.close()
            harness.stop_server(server)
    return written


def run(out: Path, scale: float) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        port = harness.free_port()
        cmd = web_command(str(Path(tmp) / "db"), port)
        server = harness.start_server(cmd, port, cwd=str(ROOT))
        try:
            with sync_playwright() as p:
                browser, ctx = harness.launch_browser(p, device_scale_factor=scale)
                try:
                    page = harness.open_app(ctx, server.url)

                    # 1. new match: 4 players, partnerships.  "All rule options"
                    # stays closed: opened, its options run far past one screen.
                    new_match(page, ["Ann", "Ben", "Cy", "Di"], leader="Ann", partners=True, start=False)
                    shot(page, out / "new-match.png", top="Back")
                    written.append(out / "new-match.png")
                    click(page, "Start match")
                    wait_text(page, "Hand 1, Ann to play")
                    play(page, "6-4", None)  # a turn, so History shows a score
                    go_home(page)

                    # 2. the table with a four-armed spinner, "15!"
                    spinner_table(page)
                    shot(page, out / "table-spinner.png", top="Home")
                    written.append(out / "table-spinner.png")
                    go_home(page)

                    # 3. hand end: hand size 3, Ann dominoes, Ben's 4-4 picked
                    new_match(page, ["Ann", "Ben"], leader="Ann", rules={"hand_size": 3})
                    for tile in HAND_END_PLAYS:
                        play(page, tile, None)
                    wait_text(page, "Hand 1, hand over")
                    wait_text(page, "Tap Ben's tiles:")  # ready: his one tile is one tap
                    click(page, "remaining tile 4-4")
                    wait_text(page, "Ann dominoed: the others hold 8 -> 10.")
                    shot(page, out / "hand-end.png", top="Home")
                    written.append(out / "hand-end.png")

                    # 4. score screen after the settled hand
                    click(page, "Settle hand")
                    wait_text(page, re.compile(r"^Hand 2, Ann to play"))
                    click(page, "Score")
                    wait_text(page, re.compile(r"^Total Ann \d+$"))
                    shot(page, out / "score.png", top="Back to the table")
                    written.append(out / "score.png")

                    # 5. history
                    click(page, "Back to the table")
                    wait_text(page, re.compile(r"^Hand 2, Ann to play"))
                    go_home(page)
                    # a short match that is won (target 10: Cy's 5-5 wins it)
                    new_match(page, ["Cy", "Di"], leader="Cy", rules={"target": 10})
                    play(page, "5-5", None)
                    wait_text(page, "Winner Cy")
                    go_home(page)
                    click(page, "History")
                    wait_text(page, re.compile(r"^\d+ matches$"))
                    shot(page, out / "history.png", top="Back")
                    written.append(out / "history.png")
                    page.close()
                finally:
                    ctx.close()

                # 6. the spinner table in dark mode (a fresh context)
                ctx = harness.new_context(browser, color_scheme="dark", device_scale_factor=scale)
                try:
                    page = harness.open_app(ctx, server.url)
                    spinner_table(page)
                    shot(page, out / "table-dark.png", top="Home")
                    written.append(out / "table-dark.png")
                finally:
                    ctx.close()
                try:
                    written += score_shots(browser, out, scale)
                    written += fours_shots(browser, out, scale)
                    written += broadway_shots(browser, out, scale)
                    written += points_shots(browser, out, scale)
                    written += table_shots(browser, out, scale)
                    written += fives_threes_shots(browser, out, scale)
                    written += players_shots(browser, out, scale)
                    written += all_event_shots(browser, out, scale)
                finally:
                    browser.close()
        except BaseException:
            log = harness.server_log(server)
            if log.strip():
                print("--- server output (tail) ---\n" + log[-3000:], file=sys.stderr)
            raise
        finally:
            harness.stop_server(server)
    return written


def fives_threes_shots(browser, out: Path, scale: float) -> list[Path]:
    """The Fives and Threes screens, from their own database and server."""
    from scorekeeper.allfives.engine import Match, Setup
    from scorekeeper.allfives.events import StartHand
    from scorekeeper.allfives.record import load
    from scorekeeper.store import Store
    from tests.e2e.fives_threes import LAST_HAND, PUB, pub_record, set_tile

    written = []
    record = pub_record()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        db = str(Path(tmp) / "db")
        with Store(db) as st:
            st.import_record(record)
        port = harness.free_port()
        server = harness.start_server(web_command(db, port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url)
            # 1. the pub match: hand 4 up to Ann's bust
            click(page, "Resume match")
            click(page, "Ben leads hand 4")
            m = load(record)
            m.push(StartHand(None))
            for tile, on in LAST_HAND[:4]:
                set_tile(page, m, tile, on)
            wait_text(page, "Scored Bust!")
            shot(page, out / "fives-threes.png", top="Home")
            written.append(out / "fives-threes.png")
            go_home(page)
            # 2. New match with the pub preset, four players in partnerships
            names = ["Ann", "Ben", "Cy", "Di"]
            new_match(page, names, leader="Ann", partners=True, preset="Fives and Threes (pub)", start=False)
            wait_text(page, re.compile(r"^Count: fives and threes"))
            shot(page, out / "fives-threes-new.png", top="Back")
            written.append(out / "fives-threes-new.png")
            # 3. a partnership hand: Ann goes out first
            click(page, "Start match")
            wait_text(page, "Hand 1, Ann to play")
            teams = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
            m = Match(Setup.new(names, teams=teams, rules=PUB | {"hand_size": 5}))
            m.push(StartHand("Ann"))
            plays = [("6-6", None), ("6-5", "6-6"), ("6-4", "6-6"), ("5-5", "6-5"), ("4-4", "6-4")]
            plays += [("5-3", "5-5"), ("4-1", "4-4"), ("3-3", "5-3"), ("1-1", "4-1"), ("3-2", "3-3")]
            plays += [("1-0", "1-1"), ("2-2", "3-2"), ("0-0", "1-0"), ("2-4", "2-2")]
            plays += [("0-4", "0-0"), ("5-4", "4-2"), ("4-3", "4-0")]  # Ann's fifth tile: she is out
            for tile, on in plays:
                set_tile(page, m, tile, on)
            assert m.hand.held[0] == 0 and m.hand.end is None, m.hand.held
            wait_text(page, "Ann is out")
            shot(page, out / "fives-threes-partners.png", top="Home")
            written.append(out / "fives-threes-partners.png")
            # 3b. the same table on the host's laptop (1280x800): the table's display
            laptop = harness.new_context(browser, viewport={"width": 1280, "height": 800}, device_scale_factor=1)
            try:
                wide = harness.open_app(laptop, page.url)
                wait_text(wide, re.compile(r"^Pegboard to 61"))
                shot(wide, out / "table-laptop.png")
                written.append(out / "table-laptop.png")
            finally:
                laptop.close()
            # 4. Sniff: the choice, then the sniff in line
            go_home(page)
            new_match(page, ["Ann", "Ben"], leader="Ann", preset="Sniff")
            play(page, "4-1", None)
            click(page, "tile 4-4")
            wait_text(page, "4-4 on 4-1 is the sniff: set it across or in line?")
            shot(page, out / "sniff.png", top="Home")
            written.append(out / "sniff.png")
            click(page, "In line: count 5, +5")
            wait_text(page, "Count 5")
            play(page, "5-4", None)
            play(page, "4-0", None)
            shot(page, out / "sniff-inline.png", top="Home")
            written.append(out / "sniff-inline.png")
        finally:
            ctx.close()
            harness.stop_server(server)
    return written


def players_shots(browser, out: Path, scale: float) -> list[Path]:
    """The Players screens on a season of club nights (``tests/season.py``), from their own
    database and server: players.png (the standings), player.png (Ann's figures),
    player-months.png (her opponents and the month-by-month chart), head-to-head.png
    (Ann against Ben)."""
    from scorekeeper.store import Store
    from tests.season import season

    written = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        db = str(Path(tmp) / "db")
        with Store(db) as st:
            st.bulk_import(season())
        port = harness.free_port()
        server = harness.start_server(web_command(db, port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url)
            click(page, "Players")
            wait_text(page, "Partnerships")
            shot(page, out / "players.png", top="Back")
            click(page, "Open Ann")
            wait_text(page, "Month by month")
            shot(page, out / "player.png", top="Back")
            scroll_heading_to_top(page, "Opponents")
            shot(page, out / "player-months.png")
            click(page, "Head to head")
            click(page, "Second side: Ben")
            wait_text(page, "Ann against Ben")
            shot(page, out / "head-to-head.png", top="Back")
            written += [out / n for n in ("players.png", "player.png", "player-months.png", "head-to-head.png")]
        finally:
            ctx.close()
            harness.stop_server(server)
    return written


CLUB = {
    "Reds": ["Ann", "Cy", "Ed", "Gus", "Ivy", "Kit", "Mo", "Ola"],
    "Blues": ["Ben", "Di", "Flo", "Hal", "Jo", "Lou", "Ned", "Pip"],
}


def _win(store, event, mid: str, table: int) -> None:
    """Table ``table``'s match won by its home side: the leader's 5-0 reaches the target of 5."""
    leader = event.table(1, table).sides[0][0]
    store.append(mid, {"hand": {"leader": leader}})
    store.append(mid, {"turn": {"play": "5-0"}})


OPEN = (
    "Ann Ben Cy Di Ed Flo Gus Hal Ivy Jo Kit Lou Mo Ned Ola Pip Quinn Rosa Sam Tess Uma Vic Wyn Xena "
    "Yves Zoe Abigail Bartholomew Cecilia Dominic Evangeline Florence"
).split()


def _played(store, event, round_number: int, table: int, seed: int, finished: bool) -> None:
    """A random legal match of All Fives (to 61) for the table, finished or a few hands in,
    stored as the table's match."""
    import json

    from scorekeeper.allfives.record import load
    from scorekeeper.allfives.simulate import random_record

    base = event.record_for(round_number, table)
    for s in range(seed, seed + 500):
        record = random_record(s, 2, max_hands=40 if finished else 3, target=61)
        if (load(record).winner is not None) == finished and (finished or min(load(record).scores) > 0):
            break
    text = json.dumps(record)
    for i, name in enumerate(base["players"]):
        text = text.replace(f'"P{i + 1}"', json.dumps(name))
    record = {**json.loads(text), "title": base["title"], "event": base["event"]}
    store.import_record(record)


def _open_night(store, book):
    """A Swiss of 32 players in its second round: round 1 played, ten tables of round 2 won
    and six in play."""
    from scorekeeper.events import new_event

    event = book.add(new_event("open", "Spring open", "swiss", "all-fives", players=OPEN, rounds=5))
    for t in event.rounds[0].tables:
        _played(store, event, 1, t.number, 100 * t.number, True)
    event = book.next_round("open")
    for t in event.rounds[1].tables:
        _played(store, event, 2, t.number, 7000 + 100 * t.number, t.number <= 10)
    return event


def wall_shots(browser, ns, port: int, code: str, out: Path) -> list[Path]:
    """The wall of the Swiss of 32 at 1920x1080: its standings, then its tables on their turn."""
    wall = harness.open_app(
        harness.new_context(browser, viewport={"width": 1920, "height": 1080}), ns.url(port, f"/join/{code}")
    )
    harness.go_to(wall, "/event/open/standings", expect=re.compile(r"^Standing 1\. "))
    wait_text(wall, "Round 2 of 5")
    shot(wall, out / "event-wall-1080.png", top="Home")
    wait_text(wall, re.compile(r"^Table 1: "), timeout=30)
    shot(wall, out / "event-wall-tables.png", top="Home")
    return [out / "event-wall-1080.png", out / "event-wall-tables.png"]


def event_shots(browser, out: Path, scale: float) -> list[Path]:
    """A club night of sixteen players on four tables (two teams of eight, four doubles),
    from its own database and server: event.png (Ann's phone: her table first, three
    tables won, one in play), event-wall.png (the wall, a watcher's standings at 1280x720,
    while the last table is in play; then event-wall-1080.png and event-wall-tables.png, a
    Swiss of 32 at 1920x1080) and event-sheet.png (the result sheet, the away captain's
    confirmation in, made on his own phone; the host may confirm for the home team). The watcher is a browser in a network namespace of its own."""
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events import new_event
    from scorekeeper.store import Store
    from tests.e2e import netns

    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        db = str(Path(tmp) / "db")
        with Store(db) as st:
            book = EventBook(st)
            _open_night(st, book)  # (made first: Home offers the event made last, the club night)
            event = book.add(
                new_event(
                    "club",
                    "Friday club night",
                    "league",
                    "all-fives",
                    teams=CLUB,
                    singles=0,
                    doubles=4,
                    legs=1,
                    target=5,
                )
            )
            tables = book.open_round("club", 1)
            for n in (1, 2, 3):
                _win(st, event, tables[n], n)
        last = event.table(1, 4)
        port = harness.free_port()
        cmd = [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "--db",
            db,
            "web",
            "--no-browser",
            "--host",
            "0.0.0.0",
            "--port",
            str(port),
        ]
        server = harness.start_server(cmd, port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            host = harness.open_app(ctx, server.url + "event/club")
            click(host, "I'm Ann")
            wait_text(host, re.compile(r"^Your table: Round 1, table \d: "))
            shot(host, out / "event.png", top="Home")
            written.append(out / "event.png")
            with netns.remote_browser(browser.playwright) as (ns, phones):
                wall = harness.open_app(
                    harness.new_context(phones, device_scale_factor=1.5, viewport={"width": 1280, "height": 720}),
                    ns.url(port, f"/join/{served_code(server, 'watch')}"),
                )
                click(wall, "Events: standings")
                click(wall, "Open Friday club night")
                click(wall, "Standings")
                wait_text(wall, re.compile(r"^Standing 1\. Reds: "))
                wait_text(wall, f"Table 4: {last.title}, in play 0-0")
                shot(wall, out / "event-wall.png", top="Home")
                written.append(out / "event-wall.png")
                click(host, f"Round 1, table 4: {last.title} (in play · 0 - 0)")
                click(host, f"{last.sides[0][0]} leads")
                play(host, "5-0", None)
                wait_text(wall, "Standing 1. Reds: score 6, won 1, played 1")
                wait_text(wall, "Standing 2. Blues: score 0, won 0, played 1")
                wait_text(wall, "Final standings")
                written += wall_shots(phones, ns, port, served_code(server, "watch"), out)
                # the away captain confirms on his own phone (the seat he holds at the event)
                ben = harness.open_app(
                    harness.new_context(phones, device_scale_factor=scale),
                    ns.url(port, f"/join/{served_code(server, 'table')}"),
                )
                harness.go_to(ben, "/event/club", "I'm Ben")  # (Home leads with the Spring open, still played)
                click(ben, "I'm Ben")
                click(ben, "Fixture 1: Reds v Blues · result sheet")
                click(ben, "Confirm for Blues as Ben")
                wait_text(ben, re.compile(r"^Confirmed for Blues by Ben \(captain\) at "))
            host.goto(server.url + "event/club/sheet/1/1")
            harness.enable_semantics(host)
            wait_text(host, re.compile(r"^Confirmed for Blues by Ben \(captain\) at "))
            wait_text(host, "Confirm for Reds as the host")
            shot(host, out / "event-sheet.png", top="Home")
            written.append(out / "event-sheet.png")
        finally:
            ctx.close()
            harness.stop_server(server)
    return written


NIGHT = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus"]


def _night_game(seed: int, sides) -> dict:
    """A random legal All Fives match to 121 that was won (the first from ``seed`` on), its
    players renamed the table's."""
    import json

    from scorekeeper.allfives.record import load
    from scorekeeper.allfives.simulate import random_record

    for s in range(seed, seed + 50 * 100_000, 100_000):
        record = random_record(s, 2, target=121)
        if load(record).winner is not None:
            text = json.dumps(record).replace('"P1"', json.dumps(sides[0][0])).replace('"P2"', json.dumps(sides[1][0]))
            return json.loads(text)
    raise ShotError(f"no random match from seed {seed} is won")


def _night_records(base: int):
    """A Swiss club night of seven players over three rounds, every match a random legal
    game from seed ``base`` on: the event and its matches' records, round by round."""
    from scorekeeper.allfives.record import load
    from scorekeeper.events import new_event, next_round, result_for

    event = new_event("friday", "Friday club night", "swiss", "all-fives", players=NIGHT, rounds=3, target=121)
    records, results = [], []
    for _ in range(3):
        if results:
            event = next_round(event, results)
        rnd = event.rounds[-1]
        for t in rnd.tables:
            record = _night_game(base * 10 + len(records), t.sides)
            ref = event.record_for(rnd.number, t.number)
            record["event"], record["title"] = ref["event"], ref["title"]
            m = load(record)
            records.append(record)
            results.append(result_for(event, rnd.number, t.number, t.sides, m.scores, m.winner))
    return event, records, results


def night_shots(browser, out: Path, scale: float) -> list[Path]:
    """night-sheet.png: a Swiss club night of seven players over three rounds (byes), every
    match a random legal game to 121, the first night whose standings have a place decided
    by head to head; the host's phone on its night sheet."""
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events.night import night_of
    from scorekeeper.store import Store

    for base in range(500):
        event, records, results = _night_records(base)
        if any(s.decided_by == "head to head" for s in night_of(event, results).standings):
            break
    else:
        raise ShotError("no night of the first 500 has a place decided by head to head")
    with tempfile.TemporaryDirectory(prefix="scorekeeper-shots-") as tmp:
        db = str(Path(tmp) / "db")
        with Store(db) as st:
            book = EventBook(st)
            book.add(event)  # every round drawn already, as the night's host drew them
            for record in records:
                st.import_record(record)
        port = harness.free_port()
        server = harness.start_server(web_command(db, port), port, cwd=str(ROOT))
        ctx = harness.new_context(browser, device_scale_factor=scale)
        try:
            page = harness.open_app(ctx, server.url + "event/friday")
            click(page, "Night sheet")
            wait_text(page, "Final standings")
            wait_text(page, re.compile(r"^\d\. \w+: played .* \(head to head\)$"))
            shot(page, out / "night-sheet.png", top="Home")
        finally:
            ctx.close()
            harness.stop_server(server)
    return [out / "night-sheet.png"]


def all_event_shots(browser, out: Path, scale: float) -> list[Path]:
    """The events' screenshots: a league night's, then a Swiss night's sheet."""
    return event_shots(browser, out, scale) + night_shots(browser, out, scale)


def run_only(out: Path, scale: float, which) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser, ctx = harness.launch_browser(p, device_scale_factor=scale)
        ctx.close()
        try:
            return which(browser, out, scale)
        finally:
            browser.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "screenshots"), help="output directory (default: screenshots/)")
    ap.add_argument("--scale", type=float, default=2, help="device scale factor (default 2)")
    ap.add_argument("--only-score", action="store_true", help="only tally.png and pegboard.png (quicker)")
    ap.add_argument("--only-fours", action="store_true", help="only the All Fours screenshots (quicker)")
    ap.add_argument("--only-broadway", action="store_true", help="only broadway.png (quicker)")
    ap.add_argument("--only-table", action="store_true", help="only the shared table's screenshots (quicker)")
    ap.add_argument("--only-fives", action="store_true", help="only the Fives and Threes screenshots (quicker)")
    ap.add_argument("--only-players", action="store_true", help="only the Players screenshots (quicker)")
    ap.add_argument("--only-events", action="store_true", help="only the events' screenshots (quicker)")
    ap.add_argument("--only-points", action="store_true", help="only the points-only screenshots (quicker)")
    args = ap.parse_args(argv)
    if not Path(harness.CHROMIUM).exists():
        print(f"error: {harness.CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    try:
        only = {
            "only_score": score_shots,
            "only_fours": fours_shots,
            "only_broadway": broadway_shots,
            "only_table": table_shots,
            "only_fives": fives_threes_shots,
            "only_players": players_shots,
            "only_events": all_event_shots,
            "only_points": points_shots,
        }
        chosen = [which for flag, which in only.items() if getattr(args, flag)]
        if chosen:
            which = chosen[0]
            written = run_only(Path(args.out), args.scale, which)
        else:
            written = run(Path(args.out), args.scale)
    except Exception as e:  # noqa: BLE001 - one clear line, then the status
        print(f"error: screenshots failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    gitkeep = Path(args.out) / ".gitkeep"
    if written and gitkeep.exists():
        gitkeep.unlink()
    print("\n".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
