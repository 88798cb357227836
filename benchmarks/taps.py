"""Taps to enter a recorded All Fives hand through the real app, per turn.

    python benchmarks/taps.py [--seed2 N] [--seed4 N] [--app-root DIR]

What it measures: how many taps a player spends at the table to enter one
recorded hand, turn by turn, on the app's own screens.  Two hands come from
the engine's seeded simulator (``scorekeeper.allfives.simulate.random_record``,
``max_hands=1``, default rules, no claims): a 2-player hand and a 4-player
hand in partnerships, with draws and passes as the simulator makes them.  The
default seeds (4 and 4) were picked because those hands hold every kind of
entry: single draws, draws of 3 and more, passes, tiles that fit two ends, and
a blocked end (more to enter than after a domino); pass others to measure
other hands.

How: ``scorekeeper web`` is started on a free loopback port with a fresh
temporary database for each hand (so no earlier names are offered), Debian's
Chromium (headless, phone viewport 412x915, ``tests/e2e/harness.py``) opens it,
the match is created on New match and every turn of the hand is entered by
tapping the controls a player would, found by their labels; the cheapest way
the screen offers is taken (``+3`` for three draws, the pips typed rather than
the tiles picked at the hand end).  Every tap and every text entry goes
through one counter (``Taps``).  After each turn the screen is checked against
the engine (the note, the scores, the tiles each player holds, the boneyard),
so a miscount cannot pass silently.  With ``--app-root DIR`` the server runs
the app of another checkout (``cwd=DIR``, ``PYTHONPATH=DIR``; the server
prints which ``scorekeeper`` it imported and the script refuses to go on if it
is not DIR's).  The simulator and the expected screens always come from this
script's own checkout, so before/after runs enter the same hands.

What the figures mean:

* a *tap* is one tap on a control; an *entry* is typing into a text field
  (tapping the field, typing the number, leaving it: one entry).  "Taps" in
  the totals are taps + entries; scrolling is not counted, but the number of
  controls that were off the phone's screen when needed is shown;
* per turn: the taps of one turn of the record (its draws, then its tile and,
  if the tile fits several ends, the end; or its pass): min / median / mean /
  max and how many turns took 1, 2, 3... taps;
* hand end: the pips of every player still holding tiles, "Settle hand" and,
  after a block, the next leader (after a domino the app starts the next hand
  by itself);
* set-up: from Home to the table (New match, the player count, the names
  typed, partnerships, the first leader, Start match);
* the last line of each hand is meant for quoting, e.g.
  ``taps per turn (2 players, seed 4): mean 1.43, median 1, max 4; hand end 4; set-up 5``.

Everything that knows the app's labels and texts is in one marked section
(``Screen``): adapt it there when the screens change.  Nothing leaves the
machine (the browser resolves only localhost).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from e2e import harness  # noqa: E402

from scorekeeper.allfives.engine import Match, Setup, Turn  # noqa: E402
from scorekeeper.allfives.events import Pass, Play, Settle, StartHand  # noqa: E402
from scorekeeper.allfives.record import parse_turn  # noqa: E402
from scorekeeper.allfives.simulate import random_record  # noqa: E402
from scorekeeper.dominoes import Tile  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

DEFAULT_SEED2 = 4
DEFAULT_SEED4 = 4


# ====================================================================== counting
@dataclass(frozen=True)
class Action:
    """One thing the player did: a ``tap`` or an ``entry`` (typing into a field)."""

    kind: str
    label: str
    offscreen: bool  # the control was not on the phone's screen: a scroll first


class Taps:
    """The one counting wrapper: every tap and every entry on the page goes through here."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.log: list[Action] = []

    def mark(self) -> int:
        return len(self.log)

    def since(self, mark: int) -> list[Action]:
        return self.log[mark:]

    def _offscreen(self, loc: Locator, name: str) -> bool:
        """Wait for the control; whether it is off the phone's screen (the player scrolls first)."""
        harness.wait_idle(self.page, quiet=0.15)
        try:
            loc.wait_for(state="attached", timeout=harness.ACTION_TIMEOUT * 1000)
        except Exception as e:
            if "Timeout" not in str(e):
                raise
            raise RuntimeError(
                f"no control {name!r} on the screen (adapt the Screen section?); texts: {harness.read_texts(self.page)!r}"
            ) from None
        box = loc.bounding_box()
        view = self.page.viewport_size or harness.PHONE_VIEWPORT
        return box is None or box["y"] < 0 or box["y"] + box["height"] > view["height"]

    def tap(self, name: str) -> None:
        """Tap the control labelled ``name`` (``harness.tap``)."""
        self.log.append(Action("tap", name, self._offscreen(harness.button(self.page, name), name)))
        harness.tap(self.page, name)

    def tap_control(self, loc: Locator, name: str) -> None:
        """Tap a control that ``harness.button`` does not find (a switch)."""
        self.log.append(Action("tap", name, self._offscreen(loc, name)))
        harness.settle(self.page, loc)
        loc.click()
        harness.wait_idle(self.page, quiet=0.15)

    def enter(self, label: str, value: str) -> None:
        """Type ``value`` into the text field ``label`` (``harness.enter``): one entry."""
        loc = self.page.get_by_role("textbox", name=label, exact=True)
        self.log.append(Action("entry", f"{label} = {value}", self._offscreen(loc, label)))
        harness.enter(self.page, label, value)


def cost(actions: list[Action]) -> int:
    """Taps + entries."""
    return len(actions)


def split(actions: list[Action]) -> str:
    taps = sum(a.kind == "tap" for a in actions)
    entries = len(actions) - taps
    return f"{taps} tap{'s' if taps != 1 else ''} + {entries} entr{'ies' if entries != 1 else 'y'}"


# ====================================================================== the screens
# EVERYTHING THAT KNOWS THE APP'S LABELS AND TEXTS IS IN THIS SECTION (down to
# "end of the screens"): one function per thing a player does, each tapping
# only through ``Taps``, and the checks that read the screen.  Adapt it here
# when the screens change.
class Screen:
    # -- labels of the controls tapped
    NEW_MATCH = "New match"  # Home
    PLAYERS = "Players: {n}"  # New match: the player count (2 is preset)
    PLAYER_NAME = "Player {i}"  # New match: the name fields
    DEFAULT_PLAYERS = 2
    LEADER = "First leader: {name}"
    START = "Start match"
    TILE = "tile {tile}"  # the picker
    END = "set {tile} on {on}: "  # a tile that fits several ends: the drawing's buttons, "...: count 12, scores 0"
    PARTNERS_DEFAULT = 4  # with four players partnerships are on unless switched off
    DRAW1 = "Draw +1"
    DRAW2 = "+2"
    DRAW3 = "+3"
    DRAW3_SIZE = 3
    DRAWN = r"^(Drew {n} \(clear\)|\S.* drew {n}\. )"  # shown once draws are counted (before / after issue 15)
    PASS = "Pass"
    PIPS = "{name} pips"  # the hand end's fields
    IMPLIES_LAST = True  # with the boneyard empty the app works out the last holder's pips
    SETTLE = "Settle hand"
    NEXT_LEADER = "{name} leads"  # after a block
    # -- texts read back
    STATUS_PLAY = "Hand {hand}, {name} to play"
    STATUS_OVER = "Hand {hand}, hand over"
    STATUS_LEADER = "Hand {hand}: who leads?"
    STATUS_WON = "Hand {hand}, {side} won"
    SCORE = "Score {side} {score}"
    HOLDS = "{name} holds {held} {tiles}"  # + ", to play" for the player to move
    TO_PLAY = ", to play"
    BONEYARD = "Boneyard {n}"

    # -- set-up
    @classmethod
    def new_match(cls, ui: Taps, names: list[str], partners: bool, leader: str) -> None:
        """Home -> New match -> the table, with ``leader`` to play."""
        page = ui.page
        ui.tap(cls.NEW_MATCH)
        harness.wait_text(page, cls.START)
        if len(names) != cls.DEFAULT_PLAYERS:
            ui.tap(cls.PLAYERS.format(n=len(names)))
        for i, name in enumerate(names, 1):
            ui.enter(cls.PLAYER_NAME.format(i=i), name)
        if partners != (len(names) == cls.PARTNERS_DEFAULT):
            ui.tap_control(page.get_by_role("switch"), "Partnerships")
        ui.tap(cls.LEADER.format(name=leader))
        ui.tap(cls.START)
        harness.wait_text(page, re.compile("^" + re.escape(cls.STATUS_PLAY.format(hand=1, name=leader))))

    @staticmethod
    def app_teams(names: list[str]) -> dict[str, list[str]]:
        """The sides the Partnerships switch makes (1 & 3 against 2 & 4)."""
        return {f"{names[0]} & {names[2]}": [names[0], names[2]], f"{names[1]} & {names[3]}": [names[1], names[3]]}

    # -- a turn
    @classmethod
    def draw(cls, ui: Taps, n: int) -> None:
        """Count ``n`` draws the cheapest way: ``+3`` as often as it goes, then ``+2`` or ``Draw +1``."""
        steps = [(cls.DRAW3_SIZE, cls.DRAW3)] * (n // cls.DRAW3_SIZE)
        steps += {0: [], 1: [(1, cls.DRAW1)], 2: [(2, cls.DRAW2)]}[n % cls.DRAW3_SIZE]
        done = 0
        for step, label in steps:
            ui.tap(label)
            done += step
            harness.wait_text(ui.page, re.compile(cls.DRAWN.format(n=done)))

    @classmethod
    def play(cls, ui: Taps, tile: Tile, on: Tile | None) -> None:
        """Tap the tile; ``on``: the end, when the tile fits several."""
        ui.tap(cls.TILE.format(tile=tile))
        if on is not None:
            name = cls.END.format(tile=tile, on=on)
            ui.tap_control(harness.button_starting(ui.page, name), name)

    @classmethod
    def pass_(cls, ui: Taps) -> None:
        ui.tap(cls.PASS)

    # -- the hand end
    @classmethod
    def settle(cls, ui: Taps, pips: dict[str, int]) -> None:
        """Type the pips of each player still holding tiles, then settle."""
        for name, p in pips.items():
            ui.enter(cls.PIPS.format(name=name), str(p))
        ui.tap(cls.SETTLE)

    @classmethod
    def next_leader(cls, ui: Taps, name: str) -> None:
        ui.tap(cls.NEXT_LEADER.format(name=name))

    # -- reading the screen back
    @staticmethod
    def note(m: Match, turn: Turn) -> str:
        """What the table says after ``turn`` (just pushed to ``m``)."""
        s = m.setup
        who = s.players[turn.player]
        if turn.tile is None:
            blocked = ": the hand is blocked" if m.hand is not None and m.hand.end == "blocked" else ""
            return f"Note: {who} passed" + (f" after drawing {turn.drew}" if turn.drew else "") + blocked
        bits = [f"count {turn.count}"]
        if turn.points:
            bits.append(f"{s.sides[s.side_of[turn.player]]} +{turn.points}")
        if m.hand is not None and m.hand.end == "domino":
            bits.append(f"{who} dominoed")
        return f"Note: {who} set {turn.tile}: " + ", ".join(bits)

    @classmethod
    def status(cls, m: Match) -> str:
        h = m.hand
        assert h is not None
        if m.winner is not None:
            return cls.STATUS_WON.format(hand=h.number, side=m.setup.sides[m.winner])
        if h.settlement is not None:
            return cls.STATUS_LEADER.format(hand=h.number + 1)
        if h.end is not None:
            return cls.STATUS_OVER.format(hand=h.number)
        return cls.STATUS_PLAY.format(hand=h.number, name=m.to_move)

    @classmethod
    def check(cls, page: Page, m: Match, note: str | None = None) -> None:
        """The screen agrees with the engine: the note (if given), whose turn, the scores,
        the tiles each player holds and the boneyard.  Raises with what is on screen."""
        if note is not None:
            harness.wait_text(page, note)
        harness.wait_text(page, re.compile("^" + re.escape(cls.status(m))))
        h = m.hand
        assert h is not None
        s = m.setup
        want = [cls.SCORE.format(side=side, score=score) for side, score in zip(s.sides, m.scores, strict=True)]
        want += [
            cls.HOLDS.format(name=n, held=h.held[i], tiles="tile" if h.held[i] == 1 else "tiles")
            + (cls.TO_PLAY if m.to_move == n else "")
            for i, n in enumerate(s.players)
        ]
        want.append(cls.BONEYARD.format(n=h.boneyard))
        deadline = time.monotonic() + harness.ACTION_TIMEOUT
        while True:
            texts = harness.read_texts(page)
            missing = [w for w in want if w not in texts]
            if not missing:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the screen and the engine disagree: {missing!r} not shown; texts: {texts!r}")
            time.sleep(0.05)


# ---------------------------------------------------------------------- end of the screens


# ====================================================================== one hand
@dataclass
class TurnTaps:
    who: str
    entry: dict[str, Any]
    actions: list[Action]
    ends: int  # places the tile fitted (0 for a pass)
    ends_alike: bool = False  # every end offered gave the same count and open ends


@dataclass
class HandTaps:
    players: int
    seed: int
    end: str
    turns: list[TurnTaps] = field(default_factory=list)
    setup: list[Action] = field(default_factory=list)
    hand_end: list[Action] = field(default_factory=list)
    inferable: int = 0  # hand-end entries the app could fill in itself (the boneyard was empty)
    leader_tapped: bool = False  # the next hand's leader was tapped (after a block)
    seconds: float = 0.0


def simulated(seed: int, players: int) -> dict[str, Any]:
    return random_record(seed, players=players, teams=players == 4, max_hands=1)


def _ends_alike(m: Match, ev: Play, places: list[Tile]) -> bool:
    """Whether the ends the tile fits are interchangeable for the rules: none is a double
    (a double or a spinner grows differently) and every one gives the same count and the
    same open ends; only the drawing and the record's ``on`` differ."""
    if any(p.is_double for p in places):
        return False
    outcomes = set()
    for p in places:
        trial = Match.replay(m.setup, [*m.events, Play(ev.tile, p, ev.draw)])
        h = trial.hand
        assert h is not None
        outcomes.add((h.count, tuple(sorted(h.layout.open_ends()))))
    return len(outcomes) == 1


def enter_hand(browser: Browser, url: str, record: dict[str, Any], seed: int) -> HandTaps:
    began = time.perf_counter()
    names = list(record["players"])
    partners = "teams" in record
    m = Match(Setup.new(names, teams=Screen.app_teams(names) if partners else None, rules=record.get("rules")))
    hand = record["hands"][0]
    leader = hand["leader"]
    rules = m.rules
    out = HandTaps(len(names), seed, "")
    ctx = harness.new_context(browser)
    try:
        page = harness.open_app(ctx, url)
        ui = Taps(page)
        # -- set-up
        mark = ui.mark()
        Screen.new_match(ui, names, partners, leader)
        out.setup = ui.since(mark)
        m.push(StartHand(leader))
        Screen.check(page, m)
        # -- the turns
        for i, entry in enumerate(hand["turns"], 1):
            ev = parse_turn(entry, rules.set, 1, i)
            who = m.to_move or "?"
            mark = ui.mark()
            if ev.draw:
                Screen.draw(ui, ev.draw)
            ends, alike = 0, False
            if isinstance(ev, Pass):
                Screen.pass_(ui)
            else:
                places = list(m.placements(ev.tile))
                ends = len(places)
                on = None
                if ends > 1:
                    if ev.on is None:
                        raise RuntimeError(f"turn {i}: {ev.tile} fits {ends} ends and the record names none")
                    on = ev.on
                    alike = _ends_alike(m, ev, [p for p in places if p is not None])
                Screen.play(ui, ev.tile, on)
            turn = m.push(ev)
            Screen.check(page, m, Screen.note(m, turn))
            out.turns.append(TurnTaps(who, entry, ui.since(mark), ends, alike))
        h = m.hand
        assert h is not None and h.end is not None
        out.end = h.end
        # -- the hand end: the pips of everyone still holding tiles (typing beats picking)
        pips: dict[str, int] = {}
        for name, left in hand["remaining"].items():
            pips[name] = left if isinstance(left, int) else sum(Tile.parse(t).pips for t in left)
        holders = [n for i, n in enumerate(names) if h.held[i]]
        if sorted(pips) != sorted(holders):
            raise RuntimeError(f"the record's remaining {sorted(pips)} are not the holders {holders}")
        typed = holders
        if h.boneyard == 0 and Screen.IMPLIES_LAST:  # every tile not down is in a hand: the app fills the last
            typed = holders[:-1]
        elif h.boneyard == 0:
            out.inferable = 1
        mark = ui.mark()
        Screen.settle(ui, {n: pips[n] for n in typed})
        m.push(Settle(tuple((n, pips[n]) for n in holders)))
        if h.end == "domino" and m.winner is None:
            assert h.domino_player is not None
            m.push(StartHand(names[h.domino_player]))  # the app starts the next hand by itself
        elif m.winner is None:
            Screen.check(page, m)  # who leads?
            left = h.pips
            assert left is not None
            nxt = names[min(range(len(names)), key=left.__getitem__)]  # the fewest pips: the one offered first
            Screen.next_leader(ui, nxt)
            out.leader_tapped = True
            m.push(StartHand(nxt))
        Screen.check(page, m)
        out.hand_end = ui.since(mark)
        if external := [u for u in harness.external_requests(ctx) if "rive" not in u]:
            raise RuntimeError(f"the page tried to leave the machine: {external}")
    finally:
        ctx.close()
    out.seconds = time.perf_counter() - began
    return out


# ====================================================================== the server
_SERVE = (
    "import sys\n"
    "import scorekeeper\n"
    "print('taps.py: scorekeeper imported from ' + scorekeeper.__file__, file=sys.stderr, flush=True)\n"
    "from scorekeeper.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
_IMPORTED = re.compile(r"^taps\.py: scorekeeper imported from (.+)$", re.M)


def start_app(app_root: Path, db: str) -> tuple[subprocess.Popen[bytes], str]:
    """``scorekeeper web`` of ``app_root`` on a free loopback port (as ``app_driver.web_command``,
    through a wrapper that says which package it imported); returns it and that path."""
    port = harness.free_port()
    cmd = [sys.executable, "-c", _SERVE, "--db", db, "web", "--host", "127.0.0.1", "--port", str(port)]
    pythonpath = os.pathsep.join([str(app_root), *filter(None, [os.environ.get("PYTHONPATH")])])
    proc = harness.start_server(cmd, port, env={"PYTHONPATH": pythonpath}, cwd=str(app_root))
    found = _IMPORTED.search(harness.server_log(proc))
    imported = found.group(1).strip() if found else "?"
    want = app_root / "scorekeeper" / "__init__.py"
    if not found or Path(imported).resolve() != want.resolve():
        harness.stop_server(proc)
        raise RuntimeError(f"the server imported scorekeeper from {imported}, not from {want}")
    return proc, imported


def _revision(root: Path) -> str:
    """The checkout's commit (read only; uncommitted changes are not shown)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return done.stdout.strip() or "?"


# ====================================================================== figures
def _median(xs: list[int]) -> str:
    return f"{statistics.median(xs):g}"


def _labels(actions: list[Action]) -> str:
    return ", ".join(a.label for a in actions)


def describe(r: HandTaps) -> list[str]:
    per = [cost(t.actions) for t in r.turns]
    hist = Counter(per)
    plays = [t for t in r.turns if "play" in t.entry]
    passes = len(r.turns) - len(plays)
    drawn = [t.entry.get("draw", 0) for t in r.turns]
    kinds = Counter(
        "tile"
        if a.label.startswith(Screen.TILE.split("{")[0])
        else "end"
        if a.label.startswith(Screen.END.split("{")[0])
        else "pass"
        if a.label == Screen.PASS
        else "draw"
        for t in r.turns
        for a in t.actions
    )
    two_ends = [t for t in r.turns if t.ends > 1]
    all_actions = r.setup + [a for t in r.turns for a in t.actions] + r.hand_end
    off = [a for a in all_actions if a.offscreen]
    total = cost(all_actions)
    who = f"{r.players} players" + (", partnerships" if r.players == 4 else "")
    lines = [
        f"{who}, seed {r.seed}: {len(r.turns)} turns ({len(plays)} tiles, {passes} passes, "
        f"{sum(drawn)} draws in {sum(1 for d in drawn if d)} turns), hand {r.end}; entered in {r.seconds:.0f} s",
        f"  taps per turn: min {min(per)}, median {_median(per)}, mean {statistics.mean(per):.2f}, max {max(per)}"
        f" ({sum(per)} taps for {len(per)} turns)",
        "  histogram: " + ", ".join(f"{k} tap{'s' if k != 1 else ''}: {hist[k]} turns" for k in sorted(hist)),
        "  by turn: " + " ".join(str(c) for c in per),
        "  what the turn taps were: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())),
        f"  tiles that fitted two ends or more (a second tap): {len(two_ends)}"
        + (
            f", of which {sum(t.ends_alike for t in two_ends)} had interchangeable ends (plain ends, same count and open ends)"
            if two_ends
            else ""
        ),
        f"  hand end: {cost(r.hand_end)} ({split(r.hand_end)}: {_labels(r.hand_end)})",
        f"  set-up: {cost(r.setup)} ({split(r.setup)}: {_labels(r.setup)})",
        f"  total: {total} ({split(all_actions)}); controls off the phone's screen when needed (a scroll first): "
        f"{len(off)} of {len(all_actions)}"
        + (f" ({_labels(off[:6])}{', ...' if len(off) > 6 else ''})" if off else ""),
        f"taps per turn ({r.players} players, seed {r.seed}): mean {statistics.mean(per):.2f}, "
        f"median {_median(per)}, max {max(per)}; hand end {cost(r.hand_end)}; set-up {cost(r.setup)}",
    ]
    return lines


def savings(r: HandTaps) -> list[str]:
    """Where the recorded hand's taps could be saved (counted from the hand, not measured)."""
    out = []
    drawing = [t for t in r.turns if t.entry.get("draw")]
    draw_taps = sum(1 for t in drawing for a in t.actions if a.label in (Screen.DRAW1, Screen.DRAW3))
    if draw_taps > len(drawing):
        sizes = ", ".join(str(t.entry["draw"]) for t in drawing)
        out.append(
            f"draws of {sizes} took {draw_taps} taps; one tap per count (e.g. a +2 beside +1 and +3, "
            f"or the count as one choice) would take {len(drawing)}"
        )
    pass_draws = [t for t in r.turns if t.entry.get("pass") and t.entry.get("draw")]
    if pass_draws:
        spent = sum(cost(t.actions) for t in pass_draws)
        out.append(
            f"{len(pass_draws)} passes after drawing the rest took {spent} taps; one 'draw the rest and pass' "
            f"would take {len(pass_draws)}"
        )
    alike = sum(t.ends_alike for t in r.turns)
    if alike:
        out.append(
            f"{alike} of the end questions offered interchangeable ends (no double, the same count and open ends "
            "either way; only the drawing and the record's 'on' differ): a default end would save the tap"
        )
    if r.inferable:
        out.append("the boneyard was empty at the end: the last holder's pips follow from the others' (1 entry)")
    if r.leader_tapped:
        out.append("after the block the next leader took a tap (after a domino the app starts the hand itself)")
    names = sum(1 for a in r.setup if a.kind == "entry")
    if names:
        out.append(f"{names} of the {cost(r.setup)} set-up taps are the names typed (a fresh database offers none)")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--seed2", type=int, default=DEFAULT_SEED2, help=f"seed of the 2-player hand ({DEFAULT_SEED2})")
    ap.add_argument("--seed4", type=int, default=DEFAULT_SEED4, help=f"seed of the 4-player hand ({DEFAULT_SEED4})")
    ap.add_argument(
        "--app-root",
        type=Path,
        default=REPO,
        metavar="DIR",
        help="run the app of this checkout (default: the one this script is in)",
    )
    args = ap.parse_args(argv)
    app_root: Path = args.app_root.resolve()
    if not (app_root / "scorekeeper" / "__init__.py").is_file():
        ap.error(f"{app_root} holds no scorekeeper package")
    if not os.path.exists(harness.CHROMIUM):
        print(f"error: {harness.CHROMIUM} is missing (apt-get install -y chromium)", file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    began = time.perf_counter()
    hands = [(2, args.seed2), (4, args.seed4)]
    print(f"app: {app_root} (commit {_revision(app_root)}); hands simulated and checked by {REPO / 'scorekeeper'}")
    for players, seed in hands:
        print(
            f"hand: random_record({seed}, players={players}, teams={players == 4}, max_hands=1), "
            f"rules {Setup.of(simulated(seed, players)).rules}"
        )
    results: list[HandTaps] = []
    with sync_playwright() as pw:
        browser, ctx = harness.launch_browser(pw)
        ctx.close()
        try:
            for players, seed in hands:
                with tempfile.TemporaryDirectory(prefix="scorekeeper-taps-") as tmp:
                    proc, imported = start_app(app_root, os.path.join(tmp, "db"))
                    try:
                        print(f"server {proc.url} imported {imported}", flush=True)  # type: ignore[attr-defined]
                        results.append(enter_hand(browser, proc.url, simulated(seed, players), seed))  # type: ignore[attr-defined]
                    except Exception:
                        print("--- server output ---\n" + harness.server_log(proc), file=sys.stderr)
                        raise
                    finally:
                        harness.stop_server(proc)
                print("\n".join(describe(results[-1])), flush=True)
        finally:
            browser.close()
    print("where taps could be saved (from the hands above):")
    for r in results:
        for line in savings(r):
            print(f"  {r.players} players: {line}")
    print(f"total time {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
