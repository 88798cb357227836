"""Taps to enter a recorded All Fives hand through the real app, per turn.

    python -m tools.loadtest.taps [--seed2 N] [--seed4 N] [--phones one|four|both] [--players 2|4|both]
                                  [--turns N] [--app-root DIR] [--smoke]

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
so a miscount cannot pass silently.

Then (``--phones both``, the default; ``four`` for it alone, ``one`` for the
one-phone hands alone) the 4-player hand again, as a table enters it: four
phones (four browser contexts on one server), each a player's.  The first
phone starts the match and takes its player's seat; the other three open
the app, tap "Resume match" and take their seats (on loopback every phone is
the host, which takes a seat by a tap on the player's name in the players'
row).  Each turn is tapped on the phone of the player to move, so no phone
is ever asked "It is Ann's turn. Enter 6-5 for Ann?" (a tap that asked would
fail the checks).  At the hand end each player still holding tiles enters
their own on their own phone: one tile is tapped in the picker the app has
ready for that phone's player; more than one, the pips are typed (one
entry); the last holder is left out when the app works their pips out (the
boneyard empty).  Settle is tapped on the phone that entered last, and after
a block the next leader on that leader's own phone.  After every entry all
four phones are checked against the engine as above, each with its own
words: "(on Ann's phone)" after the entry on the other three, "Your turn,
Ben." on the phone whose turn it is, ", this phone" after its own player.

With ``--app-root DIR`` the server runs
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

Four phones (the last block):

* taps per turn: as above, each counted on the phone of the player to move
  (the same turns as the one-phone 4-player hand: the line "against one phone"
  says whether any turn took a different number of taps), with the turns and
  taps of each phone;
* hand end, per player: what each player spent on their own phone to enter
  their tiles left (0 for a player who holds nothing or whose pips the app
  works out), then Settle (one tap on one phone, for the table; a tap the app
  refuses because that screen did not show every entry yet is counted, and
  Settle tapped again) and, after a block, the next leader; "in all": the sum,
  against the one phone's hand end;
* set-up per phone: the phone that starts the match (as above, and its seat),
  each other phone "Resume match" and its seat;
* the last line, for quoting: ``taps per turn (4 phones, seed 4): mean M,
  median M, max M; hand end per player: P1 1, P2 1, P3 1, P4 0, Settle 1,
  next leader 1; set-up 9 + 2 + 2 + 2``.

Everything that knows the app's labels and texts is in one marked section
(``Screen``): adapt it there when the screens change.  Nothing leaves the
machine (the browser resolves only localhost).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from scorekeeper.allfives.engine import Match, Setup, Turn
from scorekeeper.allfives.events import Pass, Play, Settle, StartHand
from scorekeeper.allfives.record import parse_turn
from scorekeeper.allfives.simulate import random_record
from scorekeeper.dominoes import Tile
from tools.loadtest.common import REPO, app_root, chromium_missing, harness, parse_args, revision, start_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

DEFAULT_SEED2 = 4
DEFAULT_SEED4 = 4
#: ``--smoke``: the first three turns of the 2-player hand on one phone (the set-up, taps of
#: a turn and the checks of the screen; not the hand end, which takes the whole hand).
SMOKE = {"phones": "one", "players": "2", "turns": 3, "motion": "reduced"}
T = TypeVar("T")


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
        """Tap a control that ``harness.button`` does not find (a switch). Where another control
        lies over it (the drawing's end buttons could overlap before issue 48), the tap goes
        to the control itself, as a thumb on its visible part would."""
        self.log.append(Action("tap", name, self._offscreen(loc, name)))
        harness.settle(self.page, loc)
        try:
            loc.click(timeout=3000)
        except Exception as e:
            if "intercepts pointer events" not in str(e) and "Timeout" not in str(e):
                raise
            self._click_uncovered(loc)
        harness.wait_idle(self.page, quiet=0.15)

    def _click_uncovered(self, loc: Locator) -> None:
        """Click the part of ``loc`` no other button covers (a thumb on what it sees of it)."""
        box = loc.bounding_box()
        assert box is not None
        others = [
            b
            for b in self.page.evaluate(
                "() => Array.from(document.querySelectorAll('flt-semantics[role=button]')).map(e => {"
                "const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })"
            )
            if (b["x"], b["y"], b["w"], b["h"]) != (box["x"], box["y"], box["width"], box["height"])
        ]
        for fy in (0.5, 0.2, 0.8, 0.05, 0.95):
            for fx in (0.5, 0.2, 0.8, 0.05, 0.95):
                x, y = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
                if not any(o["x"] <= x <= o["x"] + o["w"] and o["y"] <= y <= o["y"] + o["h"] for o in others):
                    self.page.mouse.click(x, y)
                    return
        raise RuntimeError("the control is covered everywhere by other buttons")

    def has(self, name: str) -> bool:
        """Whether a control labelled ``name`` (or starting so, with ``starting``) is on the page now."""
        harness.wait_idle(self.page, quiet=0.15)
        return harness.button_starting(self.page, name).count() > 0

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
    DREW = "Drew {n}"  # one tap for any count (issue 48)
    SPLIT = True  # a tile that fits two or three places: its cell's targets are the END labels
    KNOCK = "Knock"  # the pass where there is no drawing
    RULES = "Rules: {title}"  # New match: the preset
    SNIFF = {"across": "Across", "inline": "In line"}  # the sniff's question
    STILL = "Still to enter: "  # the hand end: who the app waits for
    LEADS_HAND = "{name} leads hand {n}"  # the rules name the next leader
    PEGBOARD = "{side} {score} (back peg"  # Fives and Threes: the scores on the pegboard's label
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
    # -- four phones, each a player's
    RESUME = "Resume match"  # Home, on the phones that did not start the match
    SEAT = "{name} holds"  # a tap on a player in the players' row takes the seat (the host's phones)
    THIS_PHONE = ", this phone"  # after the player this phone is
    OUT = "{name} is out"  # a partner out while the others play on
    YOUR_TURN = "Your turn, {name}. {note}"  # the strip of the phone whose turn it is
    ON_PHONE = "{note} (on {name}'s phone)"  # an entry as the other phones say it
    ASKED = "It is {name}'s turn."  # a tap for another player than this phone's: never wanted here
    PICKER_READY = "Tap {name}'s tiles:"  # the hand end: this phone's own picker, ready
    REMAINING_TILE = "remaining tile {tile}"
    SETTLED_LINE = r"^(\S.* dominoed|\S.* won the block|Tie between|Blocked and tied|\S.* holds \d+ -> -)"
    STALE = "came first: check and tap again"

    # -- set-up
    @classmethod
    def new_match(cls, ui: Taps, names: list[str], partners: bool, leader: str, preset: str | None = None) -> None:
        """Home -> New match -> the table, with ``leader`` to play (``preset``: its title)."""
        page = ui.page
        ui.tap(cls.NEW_MATCH)
        harness.wait_text(page, cls.START)
        if len(names) != cls.DEFAULT_PLAYERS:
            ui.tap(cls.PLAYERS.format(n=len(names)))
        if preset is not None:
            ui.tap(cls.RULES.format(title=preset))
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
        """Count ``n`` draws the cheapest way: their count in one tap (issue 48), else (the app
        before it) ``+3`` as often as it goes, then ``+2`` or ``Draw +1``."""
        if ui.has(cls.DREW.format(n=1)):
            ui.tap(cls.DREW.format(n=n))
            harness.wait_text(ui.page, re.compile(cls.DRAWN.format(n=n)))
            return
        steps = [(cls.DRAW3_SIZE, cls.DRAW3)] * (n // cls.DRAW3_SIZE)
        steps += {0: [], 1: [(1, cls.DRAW1)], 2: [(2, cls.DRAW2)]}[n % cls.DRAW3_SIZE]
        done = 0
        for step, label in steps:
            ui.tap(label)
            done += step
            harness.wait_text(ui.page, re.compile(cls.DRAWN.format(n=done)))

    @classmethod
    def play(cls, ui: Taps, tile: Tile, on: Tile | None, sniff: str | None = None) -> None:
        """Tap the tile; ``on``: the end, when the tile fits several (its target in the
        picker's split cell where there is one, else the tile, then the drawing's button);
        ``sniff``: how the sniff is set, when the app asks."""
        name = cls.END.format(tile=tile, on=on)
        if on is not None and cls.SPLIT and ui.has(name):
            ui.tap_control(harness.button_starting(ui.page, name), name)
        else:
            ui.tap(cls.TILE.format(tile=tile))
            if on is not None:
                ui.tap_control(harness.button_starting(ui.page, name), name)
        if sniff is not None:
            way = cls.SNIFF[sniff]
            ui.tap_control(harness.button_starting(ui.page, way + ":"), way)

    @classmethod
    def pass_(cls, ui: Taps, knock: bool = False) -> None:
        ui.tap(cls.KNOCK if knock else cls.PASS)

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

    # -- four phones
    @classmethod
    def join(cls, ui: Taps, name: str, status: str) -> None:
        """A phone that did not start the match: Home -> the table (Resume), then ``name``'s
        seat (a tap on the name in the players' row)."""
        page = ui.page
        if status not in harness.read_texts(page):
            ui.tap(cls.RESUME)
            harness.wait_text(page, re.compile("^" + re.escape(status)))
        cls.take_seat(ui, name)

    @classmethod
    def take_seat(cls, ui: Taps, name: str) -> None:
        label = cls.SEAT.format(name=name)
        ui.tap_control(harness.button_starting(ui.page, label), label)
        harness.wait_text(ui.page, re.compile("^" + re.escape(label) + r" .*" + re.escape(cls.THIS_PHONE) + "$"))

    @classmethod
    def pick_own(cls, ui: Taps, name: str, tiles: list[str]) -> None:
        """The hand end on ``name``'s own phone: their tiles tapped in the picker that is ready."""
        harness.wait_text(ui.page, cls.PICKER_READY.format(name=name))
        for t in tiles:
            ui.tap(cls.REMAINING_TILE.format(tile=t))

    @classmethod
    def type_own(cls, ui: Taps, name: str, pips: int) -> None:
        ui.enter(cls.PIPS.format(name=name), str(pips))

    @classmethod
    def settle_shown(cls, ui: Taps) -> None:
        """Settle once this phone shows the settlement (every entry in); a refusal (this screen
        did not show the last entry yet) is counted, and Settle tapped again."""
        page = ui.page
        harness.wait_text(page, re.compile(cls.SETTLED_LINE))
        for _ in range(3):
            ui.tap(cls.SETTLE)
            harness.wait_idle(page, quiet=0.3)
            if not [t for t in harness.read_texts(page) if cls.STALE in t]:
                return
        raise RuntimeError(f"Settle refused three times: {harness.read_texts(page)!r}")

    # -- reading the screen back
    @staticmethod
    def note(m: Match, turn: Turn) -> str:
        """What the table says after ``turn`` (just pushed to ``m``)."""
        s = m.setup
        r = m.rules
        who = s.players[turn.player]
        if turn.tile is None:
            blocked = ": the hand is blocked" if m.hand is not None and m.hand.end == "blocked" else ""
            blocked += ", nothing scored" if blocked and not r.settles_pips else ""
            did = "passed" if r.draw else "knocked"
            return f"Note: {who} {did}" + (f" after drawing {turn.drew}" if turn.drew else "") + blocked
        worth = r.worth(turn.count)
        bits = [f"{turn.count} = {worth}" if r.count != "fives" and worth else f"count {turn.count}"]
        if turn.go:
            bits.append(f"go {turn.go}")
        if turn.points:
            bits.append(f"{s.sides[s.side_of[turn.player]]} +{turn.points}")
        h = m.hand
        if h is not None and h.end == "domino":
            bits.append(f"{who} dominoed" if r.settles_pips else f"{who} went out: the hand is over")
        elif h is not None and h.end is None and not h.held[turn.player]:
            bits.append(f"{who} is out; partners play on")
        return f"Note: {who} set {turn.tile}: " + ", ".join(bits)

    @classmethod
    def status(cls, m: Match) -> str:
        h = m.hand
        assert h is not None
        if m.winner is not None:
            return cls.STATUS_WON.format(hand=h.number, side=m.setup.sides[m.winner])
        if h.settlement is not None:
            named = m.rules.next_leader == "left" or h.domino_player is not None
            return f"Hand {h.number} is over" if named else cls.STATUS_LEADER.format(hand=h.number + 1)
        if h.end is not None:
            return cls.STATUS_OVER.format(hand=h.number)
        return cls.STATUS_PLAY.format(hand=h.number, name=m.to_move)

    @classmethod
    def phone_note(cls, m: Match, note: str, seat: str, by: str) -> str:
        """``note`` (``Screen.note``) as the phone of ``seat`` shows it, the entry made on
        ``by``'s phone: "(on Ann's phone)" after it on the other phones, "Your turn, Ben."
        before it on the phone whose turn it is now."""
        text = note.removeprefix("Note: ")
        if seat != by:
            text = cls.ON_PHONE.format(note=text, name=by)
        h = m.hand
        if h is not None and h.end is None and m.to_move == seat:
            return cls.YOUR_TURN.format(name=seat, note=text)
        return f"Note: {text}"

    @classmethod
    def check(cls, page: Page, m: Match, note: str | None = None, seat: str | None = None) -> None:
        """The screen agrees with the engine: the note (if given), whose turn, the scores,
        the tiles each player holds (``seat``: the player this phone is) and the boneyard.
        Raises with what is on screen."""
        if note is not None:
            try:
                harness.wait_text(page, note)
            except TimeoutError as e:
                asked = [t for t in harness.read_texts(page) if t.startswith(cls.ASKED.split("{")[0])]
                raise RuntimeError(f"{note!r} not shown" + (f" (the phone asked {asked!r})" if asked else "")) from e
        harness.wait_text(page, re.compile("^" + re.escape(cls.status(m))))
        h = m.hand
        assert h is not None
        s = m.setup
        pegboard = m.rules.count == "fives-and-threes"
        want = (
            []
            if pegboard
            else [cls.SCORE.format(side=side, score=score) for side, score in zip(s.sides, m.scores, strict=True)]
        )
        pegs = [cls.PEGBOARD.format(side=side, score=score) for side, score in zip(s.sides, m.scores, strict=True)]
        playing = h.end is None and bool(h.turns)
        want += [
            (
                cls.OUT.format(name=n)
                if playing and not h.held[i]
                else cls.HOLDS.format(name=n, held=h.held[i], tiles="tile" if h.held[i] == 1 else "tiles")
                + (cls.TO_PLAY if m.to_move == n else "")
            )
            + (cls.THIS_PHONE if n == seat else "")
            for i, n in enumerate(s.players)
        ]
        if m.rules.draw:  # without drawing there is no boneyard to show
            want.append(cls.BONEYARD.format(n=h.boneyard))
        deadline = time.monotonic() + harness.ACTION_TIMEOUT
        while True:
            texts = harness.read_texts(page)
            missing = [w for w in want if w not in texts]
            if pegboard:  # the pegboard's one label holds every side's score (or the chips, on a short screen)
                board = " ".join(t for t in texts if t.startswith(("Pegboard to", "Score ")))
                missing += [p for p in pegs if p not in board and p.replace(" (back peg", "") not in board]
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


def enter_turn(ui: Taps, m: Match, ev: Play | Pass, i: int) -> tuple[int, bool]:
    """Tap turn ``i`` (``ev``, not yet pushed to ``m``): its draws, then its tile (and end)
    or its pass; the places the tile fitted, and whether they were interchangeable."""
    if ev.draw:
        Screen.draw(ui, ev.draw)
    if isinstance(ev, Pass):
        Screen.pass_(ui, knock=not m.rules.draw)
        return 0, False
    places = list(m.placements(ev.tile))
    on = None
    alike = False
    if len(places) > 1:
        if ev.on is None:
            raise RuntimeError(f"turn {i}: {ev.tile} fits {len(places)} ends and the record names none")
        on = ev.on
        alike = _ends_alike(m, ev, [p for p in places if p is not None])
    h = m.hand
    sniff = (ev.sniff or "across") if h is not None and h.layout.sets_sniff(ev.tile) else None
    Screen.play(ui, ev.tile, on, sniff)
    return len(places), alike


def remaining_pips(hand: dict[str, Any]) -> dict[str, int]:
    """The record's tiles or pips left in each hand, as pips."""
    return {
        name: left if isinstance(left, int) else sum(Tile.parse(t).pips for t in left)
        for name, left in hand["remaining"].items()
    }


def enter_hand(browser: Browser, url: str, record: dict[str, Any], seed: int, turns: int | None = None) -> HandTaps:
    """The recorded hand entered on one phone, turn by turn, then its hand end; with
    ``turns``, only its first ``turns`` turns (no hand end)."""
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
        for i, entry in enumerate(hand["turns"][:turns], 1):
            ev = parse_turn(entry, rules.set, 1, i)
            who = m.to_move or "?"
            mark = ui.mark()
            ends, alike = enter_turn(ui, m, ev, i)
            turn = m.push(ev)
            Screen.check(page, m, Screen.note(m, turn))
            out.turns.append(TurnTaps(who, entry, ui.since(mark), ends, alike))
        h = m.hand
        assert h is not None
        if h.end is None:  # stopped after ``turns`` turns
            out.end = f"not entered past turn {len(out.turns)}"
        else:
            out.end = h.end
            enter_hand_end(ui, m, hand, out)
        if external := [u for u in harness.external_requests(ctx) if "rive" not in u]:
            raise RuntimeError(f"the page tried to leave the machine: {external}")
    finally:
        ctx.close()
    out.seconds = time.perf_counter() - began
    return out


def enter_hand_end(ui: Taps, m: Match, hand: dict[str, Any], out: HandTaps) -> None:
    """The hand end on one phone: the pips of everyone still holding tiles (typing beats
    picking), Settle, and after a block the next leader; the screen checked after each."""
    h = m.hand
    assert h is not None
    names = list(m.setup.players)
    pips = remaining_pips(hand)
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
    nxt = next_leader(m)
    if nxt is not None:
        Screen.check(ui.page, m)  # who leads?
        Screen.next_leader(ui, nxt)
        out.leader_tapped = True
        m.push(StartHand(nxt))
    Screen.check(ui.page, m)
    out.hand_end = ui.since(mark)


def next_leader(m: Match) -> str | None:
    """After the settlement (pushed to ``m``): the next hand's leader to tap (after a block:
    the fewest pips, the one the app offers first), or None (after a domino the app starts
    the hand by itself: pushed to ``m`` here; or the match is won)."""
    h = m.hand
    assert h is not None
    names = list(m.setup.players)
    if m.winner is not None:
        return None
    if h.end == "domino":
        assert h.domino_player is not None
        m.push(StartHand(names[h.domino_player]))
        return None
    left = h.pips
    assert left is not None
    return names[min(range(len(names)), key=left.__getitem__)]


# ====================================================================== every preset
@dataclass
class PresetTaps:
    """The first hands of a seeded match of one preset, entered on one phone."""

    preset: str
    players: int
    seed: int
    turns: list[TurnTaps] = field(default_factory=list)
    ends: list[str] = field(default_factory=list)  # how each hand ended
    entries: int = 0  # hand ends: the entries of the tiles left (typed or tapped)
    counted: int = 0  # hand ends: the players whose tiles changed the settlement
    settle: int = 0  # hand ends: Settle taps
    leader: int = 0  # hand ends: taps to start the next hand
    seconds: float = 0.0


def preset_record(preset: str, players: int, seed: int, hands: int) -> dict[str, Any]:
    """A seeded match of ``preset`` (its rules for this many players, as New match makes them)
    of at most ``hands`` hands, partnerships with four players."""
    from scorekeeper.registry import rules_for

    rules = rules_for("all-fives", preset, players)
    return random_record(seed, players=players, teams=players == 4, max_hands=hands, **rules)


def still_to_enter(page: Page) -> list[str]:
    """The players the hand-end form waits for, as it says ("Still to enter: Ann, Ben.")."""
    for t in harness.read_texts(page):
        if t.startswith(Screen.STILL):
            return [n.strip() for n in t.removeprefix(Screen.STILL).rstrip(".").split(",")]
    return []


def enter_preset_hand_end(ui: Taps, m: Match, record: dict[str, Any], i: int, out: PresetTaps) -> None:
    """Hand ``i``'s end as the app asks for it: the pips of each player it waits for, one entry
    each, Settle, and the next leader where the table names one; the screen checked after."""
    hand = record["hands"][i]
    h = m.hand
    assert h is not None and h.end is not None
    out.counted += len(m.counted_holders())
    pips = remaining_pips(hand) if "remaining" in hand else {}
    if m.rules.settles_pips:
        mark = ui.mark()
        for _ in range(len(m.setup.players) + 1):
            harness.wait_idle(ui.page, quiet=0.2)
            waiting = still_to_enter(ui.page)
            if not waiting:
                break
            ui.enter(Screen.PIPS.format(name=waiting[0]), str(pips[waiting[0]]))
        out.entries += len(ui.since(mark))
        mark = ui.mark()
        ui.tap(Screen.SETTLE)
        out.settle += len(ui.since(mark))
        m.push(Settle(tuple((n, pips[n]) for n in pips)))
    if m.winner is not None:
        return
    players = m.setup.players
    named = (  # the leader the rules name: the app offers that one alone
        players[(h.leader + 1) % len(players)]
        if m.rules.next_leader == "left"
        else players[h.domino_player]
        if h.domino_player is not None
        else None
    )
    if m.rules.settles_pips and named is not None:  # the app starts the next hand by itself
        m.push(StartHand(named))
        return
    if i + 1 >= len(record["hands"]):
        return
    nxt = record["hands"][i + 1].get("leader") or named
    assert nxt is not None
    mark = ui.mark()
    if named is not None:
        ui.tap(Screen.LEADS_HAND.format(name=nxt, n=h.number + 1))
    else:
        ui.tap(Screen.NEXT_LEADER.format(name=nxt))
    out.leader += len(ui.since(mark))
    m.push(StartHand(nxt))


def enter_preset_match(
    browser: Browser, url: str, preset: str, title: str, players: int, seed: int, hands: int
) -> PresetTaps:
    """The first ``hands`` hands of a seeded match of ``preset`` on one phone, every turn checked."""
    began = time.perf_counter()
    record = preset_record(preset, players, seed, hands)
    names = list(record["players"])
    partners = "teams" in record
    m = Match(Setup.new(names, teams=Screen.app_teams(names) if partners else None, rules=record.get("rules")))
    out = PresetTaps(preset, players, seed)
    ctx = harness.new_context(browser)
    try:
        page = harness.open_app(ctx, url)
        ui = Taps(page)
        leader = record["hands"][0]["leader"]
        Screen.new_match(ui, names, partners, leader, title)
        m.push(StartHand(leader))
        Screen.check(page, m)
        for i, hand in enumerate(record["hands"]):
            for j, entry in enumerate(hand["turns"], 1):
                ev = parse_turn(entry, m.rules.set, i + 1, j)
                who = m.to_move or "?"
                mark = ui.mark()
                ends, alike = enter_turn(ui, m, ev, j)
                turn = m.push(ev)
                Screen.check(page, m, Screen.note(m, turn))
                out.turns.append(TurnTaps(who, entry, ui.since(mark), ends, alike))
            h = m.hand
            assert h is not None
            if h.end is None:
                break
            out.ends.append(h.end)
            enter_preset_hand_end(ui, m, record, i, out)
            Screen.check(page, m)
    finally:
        ctx.close()
    out.seconds = time.perf_counter() - began
    return out


def describe_presets(results: list[PresetTaps]) -> list[str]:
    """Per preset and in all; the last line for quoting."""
    lines = []
    for r in results:
        per = [cost(t.actions) for t in r.turns]
        lines.append(
            f"  {r.preset} ({r.players} players, seed {r.seed}): {len(per)} turns, {len(r.ends)} hands "
            f"({', '.join(r.ends)}): {sum(per)} taps, {statistics.mean(per):.2f} a turn (max {max(per)}); "
            f"hand ends: {r.entries} entries for {r.counted} players whose tiles score, "
            f"Settle {r.settle}, next leader {r.leader}; {r.seconds:.0f} s"
        )
    per = [cost(t.actions) for r in results for t in r.turns]
    hist = Counter(per)
    entries, counted = sum(r.entries for r in results), sum(r.counted for r in results)
    lines.append("  histogram: " + ", ".join(f"{k} tap{'s' if k != 1 else ''}: {hist[k]} turns" for k in sorted(hist)))
    lines.append(
        f"taps: one phone {statistics.mean(per):.2f} taps a turn over {len(per)} turns; "
        f"hand end {entries / max(1, counted):.2f} entries per player whose tiles score"
    )
    return lines


# ====================================================================== four phones
@dataclass
class TableTaps:
    """A hand entered on four phones, each a player's."""

    seed: int
    players: list[str]
    end: str = ""
    turns: list[TurnTaps] = field(default_factory=list)  # ``who``: the phone it was tapped on
    setup: dict[str, list[Action]] = field(default_factory=dict)  # per phone
    hand_end: dict[str, list[Action]] = field(default_factory=dict)  # per phone: its own entry
    how: dict[str, str] = field(default_factory=dict)  # per player: how their hand end was entered
    settle: list[Action] = field(default_factory=list)
    settle_on: str = ""
    leader: list[Action] = field(default_factory=list)
    leader_on: str | None = None
    seconds: float = 0.0


def enter_on_four_phones(browser: Browser, url: str, record: dict[str, Any], seed: int) -> TableTaps:
    """The 4-player hand on four phones (four browser contexts), each seated as its player:
    the first starts the match; each turn is tapped on the phone of the player to move (never
    asked "For Ann?"); at the hand end each holder enters their own on their own phone (one
    tile: tapped in the picker ready for it; more: the pips typed), the last holder left out
    when the app works it out, then Settle on the phone that entered last, and after a block
    the next leader on that leader's phone.  After every entry all four phones are checked."""
    began = time.perf_counter()
    names = list(record["players"])
    if len(names) != 4 or "teams" not in record:
        raise RuntimeError("the four-phone hand needs a 4-player partnership record")
    m = Match(Setup.new(names, teams=Screen.app_teams(names), rules=record.get("rules")))
    hand = record["hands"][0]
    out = TableTaps(seed, names)
    contexts = [harness.new_context(browser) for _ in names]
    pages: dict[str, Page] = {}
    uis: dict[str, Taps] = {}

    def check_all(note: str | None = None, by: str | None = None) -> None:
        for n in names:
            shown = None if note is None or by is None else Screen.phone_note(m, note, n, by)
            try:
                Screen.check(pages[n], m, shown, seat=n)
            except (RuntimeError, TimeoutError) as e:
                raise RuntimeError(f"{n}'s phone: {e}") from None

    try:
        # -- set-up: the first phone starts the match, every phone takes its player's seat
        first = names[0]
        pages[first] = harness.open_app(contexts[0], url)
        uis[first] = Taps(pages[first])
        Screen.new_match(uis[first], names, True, hand["leader"])
        m.push(StartHand(hand["leader"]))
        Screen.take_seat(uis[first], first)
        out.setup[first] = uis[first].since(0)
        for ctx, n in zip(contexts[1:], names[1:], strict=True):
            pages[n] = harness.open_app(ctx, url)
            uis[n] = Taps(pages[n])
            Screen.join(uis[n], n, Screen.status(m))
            out.setup[n] = uis[n].since(0)
        check_all()
        # -- the turns, each on the phone of the player to move
        for i, entry in enumerate(hand["turns"], 1):
            ev = parse_turn(entry, m.rules.set, 1, i)
            who = m.to_move
            assert who is not None
            ui = uis[who]
            mark = ui.mark()
            ends, alike = enter_turn(ui, m, ev, i)
            turn = m.push(ev)
            check_all(Screen.note(m, turn), who)
            out.turns.append(TurnTaps(who, entry, ui.since(mark), ends, alike))
        h = m.hand
        assert h is not None and h.end is not None
        out.end = h.end
        # -- the hand end, each holder on their own phone
        pips = remaining_pips(hand)
        holders = [n for i, n in enumerate(names) if h.held[i]]
        if sorted(pips) != sorted(holders):
            raise RuntimeError(f"the record's remaining {sorted(pips)} are not the holders {holders}")
        entering = holders
        if h.boneyard == 0 and Screen.IMPLIES_LAST:  # the app works the last one out
            entering = holders[:-1]
            out.how[holders[-1]] = "worked out by the app"
        for n in names:
            out.hand_end[n] = []
            if n not in holders:
                out.how[n] = "holds nothing"
        for n in entering:
            ui = uis[n]
            mark = ui.mark()
            left = hand["remaining"][n]
            if isinstance(left, list) and len(left) == 1:
                Screen.pick_own(ui, n, left)
                out.how[n] = f"its tile tapped ({left[0]})"
            else:
                Screen.type_own(ui, n, pips[n])
                out.how[n] = f"{pips[n]} pips typed"
            out.hand_end[n] = ui.since(mark)
        out.settle_on = entering[-1] if entering else holders[-1]
        ui = uis[out.settle_on]
        mark = ui.mark()
        Screen.settle_shown(ui)
        out.settle = ui.since(mark)
        m.push(Settle(tuple((n, pips[n]) for n in holders)))
        nxt = next_leader(m)
        if nxt is not None:
            check_all()  # who leads? on every phone
            mark = uis[nxt].mark()
            Screen.next_leader(uis[nxt], nxt)
            out.leader, out.leader_on = uis[nxt].since(mark), nxt
            m.push(StartHand(nxt))
        check_all()
        if external := [u for c in contexts for u in harness.external_requests(c) if "rive" not in u]:
            raise RuntimeError(f"a page tried to leave the machine: {external}")
    finally:
        for c in contexts:
            c.close()
    out.seconds = time.perf_counter() - began
    return out


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


def describe_four(r: TableTaps, one: HandTaps | None) -> list[str]:
    """The four-phone hand in words (``one``: the same hand entered on one phone, if it was)."""
    per = [cost(t.actions) for t in r.turns]
    hist = Counter(per)
    by_phone = {n: [cost(t.actions) for t in r.turns if t.who == n] for n in r.players}
    ends = [cost(a) for a in r.hand_end.values()]
    shared = cost(r.settle) + cost(r.leader)
    lines = [
        f"4 phones, each a player's (partnerships), seed {r.seed}: {len(r.turns)} turns, hand {r.end}; "
        f"entered in {r.seconds:.0f} s, every phone checked after every entry",
        f"  taps per turn, on the phone of the player to move: min {min(per)}, median {_median(per)}, "
        f"mean {statistics.mean(per):.2f}, max {max(per)} ({sum(per)} taps for {len(per)} turns); "
        "never asked 'It is ...'s turn'",
        "  histogram: " + ", ".join(f"{k} tap{'s' if k != 1 else ''}: {hist[k]} turns" for k in sorted(hist)),
        "  by phone: "
        + "; ".join(
            f"{n} {len(xs)} turns, {sum(xs)} taps" + (f" (mean {statistics.mean(xs):.2f})" if xs else "")
            for n, xs in by_phone.items()
        ),
    ]
    if one is not None and one.seed == r.seed and one.players == 4:
        single = [cost(t.actions) for t in one.turns]
        diff = [i for i, (a, b) in enumerate(zip(per, single, strict=True), 1) if a != b]
        lines.append(
            "  against one phone entering the same hand: "
            + ("the same taps on every turn" if not diff else f"different on turns {diff}")
            + f" ({sum(single)} taps there)"
        )
    lines += [
        "  hand end, per player on their own phone: "
        + "; ".join(
            f"{n} {cost(r.hand_end[n])}"
            + (f" ({split(r.hand_end[n])}: {r.how[n]})" if r.hand_end[n] else f" ({r.how.get(n, '')})")
            for n in r.players
        ),
        f"  Settle: {cost(r.settle)} on {r.settle_on}'s phone"
        + (f" ({_labels(r.settle)})" if cost(r.settle) > 1 else "")
        + (f"; the next leader: {cost(r.leader)} on {r.leader_on}'s phone" if r.leader_on else "")
        + f"; the hand end in all: {sum(ends) + shared}"
        + (f" (on one phone: {cost(one.hand_end)})" if one is not None and one.seed == r.seed else ""),
        "  set-up per phone: " + "; ".join(f"{n} {cost(a)} ({_labels(a)})" for n, a in r.setup.items()),
        f"taps per turn (4 phones, seed {r.seed}): mean {statistics.mean(per):.2f}, median {_median(per)}, "
        f"max {max(per)}; hand end per player: "
        + ", ".join(f"{n} {cost(r.hand_end[n])}" for n in r.players)
        + f", Settle {cost(r.settle)}"
        + (f", next leader {cost(r.leader)}" if r.leader_on else "")
        + "; set-up "
        + " + ".join(str(cost(a)) for a in r.setup.values()),
    ]
    return lines


def on_a_fresh_server(root: Path, what: str, enter: Callable[[str], T]) -> T:
    """``enter(url)`` on ``scorekeeper web`` of ``root`` with a fresh database (no names
    offered from earlier matches); the server's output shown when it fails."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-taps-") as tmp:
        proc, imported = start_app(root, os.path.join(tmp, "db"))
        url: str = proc.url  # type: ignore[attr-defined]
        try:
            print(f"server {url} imported {imported}{what}", flush=True)
            return enter(url)
        except Exception:
            print("--- server output ---\n" + harness.server_log(proc), file=sys.stderr)
            raise
        finally:
            harness.stop_server(proc)


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
    ap.add_argument(
        "--phones",
        choices=["one", "four", "both"],
        default="both",
        help="one: each hand on one phone; four: the 4-player hand on four phones, each a player's; "
        "both (default): the one-phone hands, then the four-phone hand",
    )
    ap.add_argument(
        "--players",
        choices=["2", "4", "both"],
        default="both",
        help="the one-phone hands: the 2-player hand, the 4-player one, or both (default)",
    )
    ap.add_argument(
        "--turns", type=int, metavar="N", help="enter only the first N turns of each one-phone hand (no hand end)"
    )
    ap.add_argument(
        "--motion",
        choices=("full", "reduced"),
        default="full",
        help="the pages' animations: full (default, as the figures in docs/benchmarks.md were taken) or reduced",
    )
    ap.add_argument(
        "--presets",
        metavar="IDS",
        help="instead of the hands above: a seeded match of each preset (comma-separated ids, or 'all'), "
        "its first --hands hands on one phone, 4 players in partnerships (and 2 with --players 2 or both)",
    )
    ap.add_argument("--hands", type=int, default=2, metavar="N", help="--presets: hands of each match (2)")
    ap.add_argument("--seed", type=int, default=1, help="--presets: the seed of every match (1)")
    args = parse_args(ap, argv, SMOKE)
    harness.MOTION = "reduce" if args.motion == "reduced" else "no-preference"
    try:
        root = app_root(args.app_root)
    except ValueError as e:
        ap.error(str(e))
    if missing := chromium_missing():
        print(missing, file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    began = time.perf_counter()
    if args.presets:
        return run_presets(root, args, began)
    one = [] if args.phones == "four" else [(2, args.seed2), (4, args.seed4)]
    hands = [(p, seed) for p, seed in one if args.players in (str(p), "both")]
    four = args.phones != "one"
    print(f"app: {root} (commit {revision(root)}); hands simulated and checked by {REPO / 'scorekeeper'}")
    for players, seed in hands + ([(4, args.seed4)] if four and not hands else []):
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
                record = simulated(seed, players)
                results.append(
                    on_a_fresh_server(
                        root, "", lambda url, r=record, seed=seed: enter_hand(browser, url, r, seed, args.turns)
                    )
                )
                print("\n".join(describe(results[-1])), flush=True)
            if four:
                record = simulated(args.seed4, 4)
                table = on_a_fresh_server(
                    root, "; four phones", lambda url: enter_on_four_phones(browser, url, record, args.seed4)
                )
                same = next((r for r in results if r.players == 4), None)
                print("\n".join(describe_four(table, same)), flush=True)
        finally:
            browser.close()
    if results:
        print("where taps could be saved (from the hands above):")
    for r in results:
        for line in savings(r):
            print(f"  {r.players} players: {line}")
    print(f"total time {time.perf_counter() - began:.0f} s")
    return 0


def run_presets(root: Path, args: argparse.Namespace, began: float) -> int:
    """``--presets``: a seeded match of each preset on one phone, on a fresh server each."""
    from playwright.sync_api import sync_playwright

    from scorekeeper.allfives.presets import PRESETS

    titles = {p.id: p.title for p in PRESETS}
    ids = list(titles) if args.presets == "all" else args.presets.split(",")
    counts = {"2": [2], "4": [4], "both": [4, 2]}[args.players] if args.players != "both" else [4]
    print(f"app: {root} (commit {revision(root)}); matches simulated and checked by {REPO / 'scorekeeper'}")
    results: list[PresetTaps] = []
    failed: list[str] = []
    with sync_playwright() as pw:
        browser, ctx = harness.launch_browser(pw)
        ctx.close()
        try:
            for pid in ids:
                for n in counts:
                    try:
                        r = on_a_fresh_server(
                            root,
                            f"; {pid}",
                            lambda url, pid=pid, n=n: enter_preset_match(
                                browser, url, pid, titles[pid], n, args.seed, args.hands
                            ),
                        )
                    except (RuntimeError, TimeoutError) as e:  # said, and the next preset goes on
                        print(f"  {pid} ({n} players): FAILED: {str(e)[:300]}", flush=True)
                        failed.append(pid)
                        continue
                    results.append(r)
                    print("\n".join(describe_presets([r])[:1]), flush=True)
        finally:
            browser.close()
    print("every preset, one phone" + (f" (failed: {', '.join(failed)})" if failed else "") + ":")
    print("\n".join(describe_presets(results)))
    print(f"total time {time.perf_counter() - began:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
