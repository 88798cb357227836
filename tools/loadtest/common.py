"""What the load harnesses share: the app's server, the taps of a 2-player match, timing a
tap in the page, the figures, Flet's insides for the sessions that have no browser, and a
table of phones (drawn in Chromium, or :class:`Listener` sessions drawn elsewhere) with the
server's CPU and memory (``table_load`` and ``capacity``).

Every harness imports what it shares from here and from nowhere else of the project's
tools: no harness imports another. The browser itself is driven through the browser
tests' own helpers (``tests/e2e``: :data:`harness`, :data:`app_driver`, :data:`netns`,
:data:`stranger`), imported here only, as the package ``tests.e2e`` (the harnesses run as
``python -m tools.loadtest.NAME`` from the repository's root, which is what makes
``tests`` and ``tools`` importable: nothing edits ``sys.path``).

Nothing of the app (``scorekeeper``) is imported when this module is: it is imported where
it is used, so that ``broadcast`` can first choose the checkout it comes from
(:func:`use_app_of`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.machinery
import importlib.util
import os
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

# Flet's insides, for sessions that have no browser (``broadcast``): Flet has no public API
# for a session without a browser, or for timing the parts of a redraw, so the few
# internals used are here, each said why, and nowhere else in the harnesses.
from flet.components.component import Renderer
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page  # the page of "now": ft.context.page, which cannot be set
from flet.controls.object_patch import ObjectPatch
from flet.messaging import protocol
from flet.messaging.connection import Connection
from flet.messaging.protocol import Message, MessageAction, RegisterClientResponseBody
from flet.messaging.session import Session

from tests.e2e import app_driver, harness, netns, stranger

if TYPE_CHECKING:
    from scorekeeper.allfives.engine import Match

#: the browser tests' helpers, and what this module makes
__all__ = [
    "app_driver",
    "app_root",
    "BrowserlessPhone",
    "BY",
    "CpuMeter",
    "cpu_line",
    "descendants",
    "Listener",
    "PHONE_PAGE",
    "PHONES",
    "pin",
    "rss_kb",
    "SEEN_JS",
    "status_re",
    "Table",
    "TABLE_JS",
    "Tap",
    "TARGET",
    "together",
    "Worker",
    "check_imported",
    "check_scores",
    "chromium_missing",
    "fresh_match",
    "harness",
    "idle",
    "INIT_JS",
    "load_average",
    "make_current",
    "netns",
    "new_match",
    "next_play",
    "open_session",
    "parse_args",
    "pct",
    "PLAYERS",
    "redraw_parts",
    "REPO",
    "revision",
    "Sample",
    "serve_command",
    "settle_hand",
    "start_app",
    "stranger",
    "summary",
    "timed_tap",
    "two_tap_play",
    "use_app_of",
]

#: The repository's root: this checkout, whose app the harnesses run unless told another.
REPO = Path(__file__).resolve().parents[2]

#: The players of the harnesses' 2-player matches.
PLAYERS = ("Ann", "Ben")


# ====================================================================== the command line
def chromium_missing() -> str | None:
    """Why the browser harnesses cannot run here (Debian's Chromium is missing), or None."""
    if os.path.exists(harness.CHROMIUM):
        return None
    return f"error: {harness.CHROMIUM} is missing (apt-get install -y chromium)"


def parse_args(ap: argparse.ArgumentParser, argv: list[str] | None, smoke: dict[str, Any]) -> argparse.Namespace:
    """``ap``'s arguments, with ``--smoke``: ``smoke``'s values become the defaults (options
    given still win). A harness's smoke run is the smallest that goes through every part of
    it, end to end; tests/test_loadtest_smoke.py runs each so that none rots unseen."""
    shown = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in smoke.items())
    ap.add_argument("--smoke", action="store_true", help=f"the smallest run through every part ({shown})")
    args = ap.parse_args(argv)
    if args.smoke:
        ap.set_defaults(**smoke)
        args = ap.parse_args(argv)
    return args


def app_root(path: Path) -> Path:
    """``--app-root DIR``, resolved; ValueError when DIR holds no ``scorekeeper`` package."""
    root = path.resolve()
    if not (root / "scorekeeper" / "__init__.py").is_file():
        raise ValueError(f"{root} holds no scorekeeper package")
    return root


def revision(root: Path) -> str:
    """The checkout's commit (read only; uncommitted changes are not shown)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return done.stdout.strip() or "?"


def load_average() -> str:
    """The machine's load average, for the figures' context ("n/a" where there is none)."""
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg()) + " (1/5/15 min)"
    except (OSError, AttributeError):  # (Windows has no load average)
        return "n/a"


# ====================================================================== the app's server
_SERVE = (
    "import sys\n"
    "import scorekeeper\n"
    "print('loadtest: scorekeeper imported from ' + scorekeeper.__file__, file=sys.stderr, flush=True)\n"
    "from scorekeeper.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
_IMPORTED = re.compile(r"^loadtest: scorekeeper imported from (.+)$", re.M)


#: With ``profile``: SIGUSR1 starts cProfile on the server's main thread (where Flet's loop
#: runs every session's handlers and redraws), SIGUSR2 stops it and writes its figures to
#: the file named by ``LOADTEST_PROFILE`` (POSIX signals: the harnesses that ask run on Linux).
_PROFILED = (
    "import cProfile, os, signal\n"
    "_prof = cProfile.Profile()\n"
    "signal.signal(signal.SIGUSR1, lambda *a: _prof.enable())\n"
    "def _dump(*a):\n"
    "    _prof.disable()\n"
    "    _prof.dump_stats(os.environ['LOADTEST_PROFILE'])\n"
    "signal.signal(signal.SIGUSR2, _dump)\n"
)


#: With ``gc_log``: every collection of the server's cyclic garbage collector is written to
#: the file named by ``LOADTEST_GC``, a line each: when it ended (``time.time()``), its
#: generation, how long it took (ms) and the CPU it took (ms, of the thread); kept in memory and written at every full collection
#: and every 50 lines, so that a step's are in the file soon after it ends (:func:`gc_pauses`).
_GCWATCH = (
    "import gc as _gc, os as _os, time as _time\n"
    "_gc_t, _gc_lines = [0.0, 0.0], []\n"
    "def _gc_watch(phase, info):\n"
    "    if phase == 'start':\n"
    "        _gc_t[:] = [_time.perf_counter(), _time.thread_time()]\n"
    "        return\n"
    "    ms, cpu = (_time.perf_counter() - _gc_t[0]) * 1000, (_time.thread_time() - _gc_t[1]) * 1000\n"
    "    _gc_lines.append(f\"{_time.time():.3f} {info['generation']} {ms:.3f} {cpu:.3f}\\n\")\n"
    "    if info['generation'] == 2 or len(_gc_lines) >= 50:\n"
    "        with open(_os.environ['LOADTEST_GC'], 'a', encoding='utf-8') as f:\n"
    "            f.writelines(_gc_lines)\n"
    "        _gc_lines.clear()\n"
    "_gc.callbacks.append(_gc_watch)\n"
)


def gc_pauses(path: str, since: float, until: float) -> dict[str, Any]:
    """The server's garbage collections written by :data:`_GCWATCH` that ended between
    ``since`` and ``until`` (``time.time()``): how many of each generation, the time they
    took (ms), the CPU they took (ms) and the longest of each (the last up to 49 young ones
    may not be written yet)."""
    out: dict[str, Any] = {"n": [0, 0, 0], "ms": [0.0, 0.0, 0.0], "cpu": [0.0, 0.0, 0.0], "longest": [0.0, 0.0, 0.0]}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            fields = line.split()
            at, gen, ms, cpu = float(fields[0]), int(fields[1]), float(fields[2]), float(fields[3])
        except (ValueError, IndexError):
            continue  # a line half written
        if since <= at <= until and 0 <= gen <= 2:
            out["n"][gen] += 1
            out["ms"][gen] += ms
            out["cpu"][gen] += cpu
            out["longest"][gen] = max(out["longest"][gen], ms)
    return out


def serve_command(
    root: Path,
    db: str,
    port: int,
    host: str = "127.0.0.1",
    profile: bool = False,
    gc_log: str | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The command and environment of ``scorekeeper web`` of the checkout ``root`` (as
    ``app_driver.web_command``, through a wrapper that says which package it imported);
    run it with ``cwd=root`` and check it with :func:`check_imported`. ``profile``: the
    server can be profiled (:data:`_PROFILED`; POSIX only); ``gc_log``: its garbage
    collections are written to this file (:data:`_GCWATCH`, :func:`gc_pauses`)."""
    code = (_PROFILED if profile else "") + (_GCWATCH if gc_log else "") + _SERVE
    cmd = [sys.executable, "-c", code, "--db", db, "web", "--no-browser", "--host", host, "--port", str(port)]
    pythonpath = os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
    env = {"PYTHONPATH": pythonpath}
    if gc_log:
        env["LOADTEST_GC"] = gc_log
    return cmd, env


def check_imported(proc: subprocess.Popen[bytes], root: Path) -> str:
    """The ``scorekeeper`` the server started by :func:`serve_command` imported; stops it and
    raises when it is not ``root``'s."""
    found = _IMPORTED.search(harness.server_log(proc))
    imported = found.group(1).strip() if found else "?"
    want = root / "scorekeeper" / "__init__.py"
    if not found or Path(imported).resolve() != want.resolve():
        harness.stop_server(proc)
        raise RuntimeError(f"the server imported scorekeeper from {imported}, not from {want}")
    return imported


def start_app(root: Path, db: str) -> tuple[subprocess.Popen[bytes], str]:
    """``scorekeeper web`` of ``root`` on a free loopback port; returns it and the path of the
    ``scorekeeper`` it imported."""
    port = harness.free_port()
    cmd, env = serve_command(root, db, port)
    proc = harness.start_server(cmd, port, env=env, cwd=str(root))
    return proc, check_imported(proc, root)


def use_app_of(root: Path) -> Path:
    """Make ``import scorekeeper`` in this process take the app of the checkout ``root``
    (``--app-root``), before anything imports it: the package is loaded from ``root`` and
    its modules then come from there, through its ``__path__``; ``sys.path`` is left as it is.
    Returns the ``__init__.py`` imported."""
    loaded = sys.modules.get("scorekeeper")
    if loaded is None and root != REPO:
        spec = importlib.machinery.PathFinder.find_spec("scorekeeper", [str(root)])
        if spec is None or spec.loader is None:
            raise RuntimeError(f"no scorekeeper package in {root}")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules["scorekeeper"] = loaded
        spec.loader.exec_module(loaded)
    elif loaded is None:
        import scorekeeper as loaded
    imported = Path(loaded.__file__ or "?").resolve()
    if imported.parent.parent != root:
        raise RuntimeError(f"scorekeeper is imported from {imported}, not from {root}")
    return imported


# ====================================================================== a 2-player match, tapped
def next_play(m: Match) -> tuple[Any, Any] | None:
    """The lowest tile not down that fits exactly one place (one tap) and does not win the
    match (a won match takes no more tiles): the tile and its place, or None."""
    h = m.hand
    side = m.setup.side_of[h.next_player]
    for t in m.tiles:
        places = m.placements(t)
        if len(places) != 1:
            continue
        _, points = m.preview(t, places[0])
        if m.scores[side] + points >= m.rules.target:
            continue
        return t, places[0]
    return None


def fresh_match(rules: dict[str, Any] | None = None) -> Match:
    """The engine's copy of a new 2-player match (:data:`PLAYERS`, Ann leads), which says
    what each tap shows."""
    from scorekeeper.allfives.engine import Match, Setup
    from scorekeeper.allfives.events import StartHand

    m = Match(Setup.new(PLAYERS, rules=rules))
    m.push(StartHand(PLAYERS[0]))
    return m


def new_match(page: Any, rules: dict[str, Any] | None = None) -> Match:
    """A new 2-player match made by taps on ``page``, and :func:`fresh_match`."""
    app_driver.new_match(page, list(PLAYERS), leader=PLAYERS[0], rules=rules)
    return fresh_match(rules)


def two_tap_play(page: Any, m: Match) -> str:
    """When every fitting tile fits two places: the first tile and its first place, in two
    taps (not timed); the note it shows."""
    tile = next(t for t in m.tiles if m.placements(t))
    on = m.placements(tile)[0]
    turn = m.play(tile, on)
    harness.tap(page, f"tile {tile}")
    harness.tap(page, f"set {tile} on {on}")
    note = app_driver.play_note(m, turn)
    harness.wait_text(page, note)
    return note


def settle_hand(page: Any, m: Match) -> None:
    """After a domino: type the pips of whoever still holds tiles, settle; the next hand
    starts by itself (the domino player leads)."""
    from scorekeeper.allfives.events import Settle, StartHand

    h = m.hand
    harness.wait_text(page, "Settle hand")  # the hand-end form is up
    down = h.layout.nodes
    free = [t for t in m.tiles if t not in down]
    remaining = []
    for i, name in enumerate(m.setup.players):
        if h.held[i]:
            tiles, free = free[: h.held[i]], free[h.held[i] :]
            pips = sum(t.hi + t.lo for t in tiles)
            harness.enter(page, f"{name} pips", str(pips))
            remaining.append((name, pips))
    m.push(Settle(tuple(remaining)))
    harness.tap(page, "Settle hand")
    if m.winner is None:
        m.push(StartHand(None))
        harness.wait_text(page, f"Hand {m.hand.number}, {m.to_move} to play")


def check_scores(page: Any, m: Match) -> None:
    """The page shows the engine's scores; RuntimeError with what it shows instead."""
    texts = harness.read_texts(page)
    for side, score in zip(m.setup.sides, m.scores, strict=True):
        if f"Score {side} {score}" not in texts:
            raise RuntimeError(f"the screen and the engine disagree: expected 'Score {side} {score}' in {texts!r}")


# ====================================================================== a tap timed in the page
#: Installed in a page before Flet's scripts run. ``__latArm(want)`` starts one measurement;
#: the listeners fill ``__lat`` until ``want`` is on screen; ``__latDisarm()`` ends it.
INIT_JS = r"""
(() => {
  const L = window.__lat = {};
  const now = () => performance.now();
  const reset = (want) => Object.assign(L, {want: want, down: null, up: null, send: null,
                                            msg1: null, msgN: null, nmsg: 0, seen: null});
  reset(null);
  const armed = () => L.want !== null && L.seen === null;
  document.addEventListener('pointerdown', () => { if (armed() && L.down === null) L.down = now(); }, true);
  document.addEventListener('pointerup', () => { if (armed() && L.up === null) L.up = now(); }, true);
  // Flet's client talks to the server over one WebSocket: note when the tap's
  // event leaves and when the replies come in.
  const Base = window.WebSocket;
  class TimedWebSocket extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        if (armed() && L.down !== null) {
          const t = now();
          if (L.msg1 === null) L.msg1 = t;
          L.msgN = t; L.nmsg++;
        }
      });
    }
    send(data) {
      if (armed() && L.down !== null && L.send === null) L.send = now();
      return super.send(data);
    }
  }
  window.WebSocket = TimedWebSocket;
  const shows = (root, want) => {
    for (const s of root.querySelectorAll('span')) if (s.textContent.trim() === want) return true;
    for (const e of root.querySelectorAll('[aria-label]')) if (e.getAttribute('aria-label') === want) return true;
    return false;
  };
  let host = null;
  const obs = new MutationObserver(() => {
    if (armed() && L.down !== null && shows(host, L.want)) L.seen = now();
  });
  window.__latArm = (want) => {
    const h = document.querySelector('flt-semantics-host');
    if (!h) return 'no flt-semantics-host';
    if (h !== host) {
      obs.disconnect();
      obs.observe(h, {subtree: true, childList: true, characterData: true});
      host = h;
    }
    if (shows(h, want)) return 'already on screen before the tap';
    reset(want);
    return '';
  };
  window.__latDisarm = () => { const r = Object.assign({}, L); reset(null); return r; };
})();
"""


@dataclass
class Sample:
    """One tap timed in the page (:data:`INIT_JS`), in ms."""

    inpage: float  # pointerdown -> text
    from_up: float  # pointerup -> text
    python: float  # click() + wait, Python wall
    down_send: float | None  # pointerdown -> event sent on the WebSocket
    send_msg: float | None  # sent -> first message back
    msg_text: float | None  # first message back -> text
    nmsg: int  # messages received between the tap and the text
    tag: str = ""  # ours: "scoring" (the play scored: the "15!" flash shows) or "plain"
    place: str = ""  # ours: "first" (the hand's first play), "last" (it ends the hand) or "other"


def timed_tap(page: Any, loc: Any, want: str, timeout: float = harness.ACTION_TIMEOUT) -> Sample:
    """Tap ``loc`` with the mouse (in a page with :data:`INIT_JS`) and time it until ``want``
    shows. The scroll and Flutter coming to rest before it are not timed."""
    harness.settle(page, loc)
    problem = page.evaluate("(w) => window.__latArm(w)", want)
    if problem:
        raise RuntimeError(f"cannot time the tap for {want!r}: {problem}")
    t0 = time.perf_counter()
    loc.click()
    try:
        page.wait_for_function("() => window.__lat.seen !== null", polling="raf", timeout=timeout * 1000)
    except Exception as e:
        if "Timeout" not in str(e):
            raise
        raise TimeoutError(
            f"{want!r} not shown within {timeout}s after the tap; texts now: {harness.read_texts(page)!r}"
        ) from None
    wall = (time.perf_counter() - t0) * 1000
    d = page.evaluate("() => window.__latDisarm()")
    if d["down"] is None:
        raise RuntimeError(f"no pointerdown seen for the tap that showed {want!r}")

    def span(a: str, b: str) -> float | None:
        return None if d[a] is None or d[b] is None else d[b] - d[a]

    return Sample(
        inpage=d["seen"] - d["down"],
        from_up=d["seen"] - (d["up"] if d["up"] is not None else d["down"]),
        python=wall,
        down_send=span("down", "send"),
        send_msg=span("send", "msg1"),
        msg_text=span("msg1", "seen"),
        nmsg=d["nmsg"],
    )


# ====================================================================== figures
def pct(xs: Iterable[float], p: float) -> float:
    """Percentile with linear interpolation (numpy's default)."""
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def summary(xs: list[float]) -> str:
    """Median, p95 and max of ``xs``, in a fixed width."""
    if not xs:
        return "n/a"
    return f"median {statistics.median(xs):6.1f}  p95 {pct(xs, 95):6.1f}  max {max(xs):6.1f}"


# ====================================================================== Flet without a browser
class BrowserlessPhone(Connection):
    """A Flet connection with no browser behind it: every message is encoded as the web
    server encodes it (msgpack) and dropped; a method call (the app's round trip) is answered
    with nothing at the next turn of the loop. ``patches``: when each patch left
    (perf_counter)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, hub: Any) -> None:
        super().__init__()
        self.loop = loop
        self.pubsubhub = hub
        self.session: Session | None = None
        self.patches: list[float] = []
        self.bytes = 0

    def encode(self, message: Any) -> bytes:
        # the encoder asked of Flet's module for each message, as Flet's web server asks it:
        # the app's own where the app put one there (``fletencode``, as its server packs)
        encode = protocol.configure_encode_object_for_msgpack(BaseControl)
        return bytes(msgpack.packb([message.action, message.body], default=encode))

    def send_message(self, message: Any) -> None:
        body = self.encode(message)
        self.bytes += len(body)
        if message.action == MessageAction.PATCH_CONTROL:
            self.patches.append(time.perf_counter())
        elif message.action == MessageAction.INVOKE_METHOD:
            b = message.body
            assert self.session is not None
            self.loop.call_soon(self.session.handle_invoke_method_results, b.control_id, b.call_id, None, None)

    def dispose(self) -> None:
        pass


def open_session(phone: BrowserlessPhone, route: str, width: float = 412, height: float = 915) -> Any:
    """What Flet's web server does when a browser registers, for ``phone``: a session, the
    page's size and route from the browser, the whole page sent back. Returns the session,
    its page made the current one (the app's main is then run on it)."""
    session = Session(phone)
    phone.session = session
    session.apply_page_patch({"route": route, "width": width, "height": height})
    body = RegisterClientResponseBody(session_id=session.id, page_patch=session.get_page_patch(), error="")
    phone.send_message(Message(MessageAction.REGISTER_CLIENT, body))
    make_current(session.page)
    return session


def make_current(page: Any) -> None:
    """Make ``page`` the page of ``ft.context``, as Flet does before it runs a session's
    handler (the app reads ``ft.context.page``, which has no setter)."""
    _context_page.set(page)


async def idle(sessions: list[Any], spins: int = 3) -> None:
    """Run the loop until nothing is left to do: no session has pending updates or effects
    (Flet keeps them in private attributes: no public API says a session is done), and no
    other task is ready, for ``spins`` turns in a row."""
    quiet = 0
    me = asyncio.current_task()
    while quiet < spins:
        await asyncio.sleep(0)
        busy = any(
            s._Session__pending_updates or s._Session__pending_effects or s._Session__updates_ready.is_set()
            for s in sessions
        )
        others = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        ready = any(_ready(t) for t in others)
        quiet = 0 if busy or ready else quiet + 1


def _ready(task: asyncio.Task[Any]) -> bool:
    """A task that is scheduled to run (not waiting on a future)."""
    waiter = getattr(task, "_fut_waiter", None)
    return waiter is None or waiter.done()


def redraw_parts() -> list[tuple[Any, str, str]]:
    """Where a session's redraw spends its time, as (owner, method, part) to time: the
    patch sent, the diff, the encoding, the component functions rendered, and every control
    made or diffed (Flet's own names for them; no public API times a redraw's parts)."""
    return [
        (Session, "patch_control", "patch"),
        (ObjectPatch, "from_diff", "diff"),
        (BrowserlessPhone, "encode", "encode"),
        (Renderer, "render", "render"),
        (BaseControl, "_before_update_safe", "controls"),  # once for every control made or diffed
    ]


# ====================================================================== a table of phones
# What ``table_load`` and ``capacity`` share: a table of phones drawn in Chromium (one
# Playwright and Chromium per worker thread), the phones drawn elsewhere (:class:`Listener`),
# the server's CPU and memory read from /proc (Linux: the harnesses that read it run there).
PHONES = 4  # phones (sessions) per table, unless told otherwise
TARGET = 9999  # the largest the engine takes: a match that does not end during the run
BY = "the host"  # how the other phones name the tapping one (a loopback page, no seat)

# ``table_load``'s and ``capacity``'s phones drawn here: installed in every page before Flet's scripts run.  ``__tlArm(want)`` starts one
# measurement; ``__tlTake()`` ends it.  Times are on the page's wall clock
# (timeOrigin + now), comparable between the pages of one browser.
TABLE_JS = r"""
(() => {
  const clock = () => performance.timeOrigin + performance.now();
  const S = window.__tl = {want: null, down: null, send: null, msgs: [], seen: null};
  const armed = () => S.want !== null && S.seen === null;
  document.addEventListener('pointerdown', () => {
    if (armed() && S.down === null) S.down = clock();
  }, true);
  // Flet's client talks to the server over one WebSocket: note when the tap's event
  // leaves (the tapping page) and when messages come in (every page).
  const Base = window.WebSocket;
  class TimedWebSocket extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => { if (armed() && S.msgs.length < 64) S.msgs.push(clock()); });
    }
    send(data) {
      if (armed() && S.down !== null && S.send === null) S.send = clock();
      return super.send(data);
    }
  }
  window.WebSocket = TimedWebSocket;
  const shows = (root, want) => {
    for (const s of root.querySelectorAll('span')) if (s.textContent.trim() === want) return true;
    for (const e of root.querySelectorAll('[aria-label]')) if (e.getAttribute('aria-label') === want) return true;
    return false;
  };
  let host = null;
  const obs = new MutationObserver(() => {
    if (armed() && shows(host, S.want)) S.seen = clock();
  });
  window.__tlClock = clock;
  window.__tlArm = (want) => {
    const h = document.querySelector('flt-semantics-host');
    if (!h) return 'no flt-semantics-host';
    if (h !== host) {
      obs.disconnect();
      obs.observe(h, {subtree: true, childList: true, characterData: true});
      host = h;
    }
    if (shows(h, want)) return 'already on screen before the tap';
    Object.assign(S, {want: want, down: null, send: null, msgs: [], seen: null});
    return '';
  };
  window.__tlTake = () => { const r = Object.assign({}, S); S.want = null; return r; };
})();
"""

SEEN_JS = "() => window.__tl.seen !== null"


# ------------------------------------------------------------------ one tap
@dataclass
class Tap:
    table: int
    own: float  # pointerdown -> the tapping phone's own screen (ms)
    others: list[float | None]  # pointerdown -> each other phone (None: not shown in time)
    tag: str  # "scoring" or "plain"
    send: float | None = None  # pointerdown -> the tap's event leaves the tapping page
    own_msg: float | None = None  # pointerdown -> the first message back on the tapping page
    others_msg: list[float | None] = field(default_factory=list)  # pointerdown -> first message on each other phone
    #: pointerdown -> the entry's message at each of the table's phones drawn elsewhere
    #: (Listeners, timed in Python: the page's clock set against Python's by one round trip,
    #: within its half, a few ms) (None: not in time)
    listeners_msg: list[float | None] = field(default_factory=list)

    @property
    def all_others(self) -> float | None:
        """Until the last of the other phones shows it."""
        if not self.others or None in self.others:  # (a table whose other phones are drawn elsewhere: none here)
            return None
        return max(x for x in self.others if x is not None)


def status_re(m: Match) -> re.Pattern[str]:
    return re.compile(rf"^Hand {m.hand.number}, {re.escape(str(m.to_move))} to play")


# ------------------------------------------------------------------ a phone drawn elsewhere
#: What a phone's page tells the server when it registers (Flet 1.0.5's web client, a
#: 412x915 phone in Chromium: taken from a real page's first WebSocket message).
PHONE_PAGE = {
    "pwa": False, "web": True, "debug": False, "wasm": True, "test": False, "multi_view": False,
    "pyodide": False, "platform_brightness": "light", "width": 412.0, "height": 915.0, "platform": "linux",
    "window": {},
    "media": {
        "padding": {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0},
        "view_padding": {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0},
        "view_insets": {"top": 0.0, "right": 0.0, "bottom": 0.0, "left": 0.0},
        "device_pixel_ratio": 1.0, "orientation": "portrait", "always_use_24_hour_format": False,
    },
}  # fmt: skip


class Listener(threading.Thread):
    """A phone of the table whose drawing happens on its own processor, not here: a Flet
    session on the match's table exactly as a browser opens it (the same registration, the
    same WebSocket through the server's guard), which reads every message the server sends it
    and answers the app's method calls, but draws nothing. The server does all its work for
    it (the redraw, the diff, the encoding, the sending); this machine's CPU goes to the server
    and the phones that are drawn here.

    It can also tap (``capacity``'s phones): with ``index`` it keeps, from every control the
    server sends it, each labelled control's id and the event it answers (``tile 3-2`` ->
    its ``tap``), and :meth:`tap` / :meth:`type_text` send the events a browser sends.
    :meth:`expect` arms a wait for a text, :meth:`wait_for` the moment (``perf_counter``) the
    first message holding it arrived. ``host``: the address it connects to (another of this machine's than
    loopback makes it a phone that is not the host)."""

    def __init__(
        self,
        port: int,
        route: str,
        index: bool = False,
        host: str = "127.0.0.1",
        size: tuple[float, float] | None = None,
    ) -> None:
        super().__init__(name=f"listener {route}", daemon=True)
        self.port, self.route, self.host = port, route, host
        self.size = size  # the page's width and height, if not a phone's
        self.stop = threading.Event()
        self.registered = threading.Event()
        self.messages = 0
        self.bytes = 0
        self.error: str | None = None
        self.index = index
        self.ids: dict[str, tuple[int, str]] = {}  # label -> (control id, event name)
        self._ws: Any = None
        self._lock = threading.Lock()
        self._cond = threading.Condition()
        self._wants: dict[bytes, float | None] = {}  # armed texts -> when they came
        self.last_message = 0.0  # perf_counter of the last message

    # -------------------------------------------------------------- what it sees
    def expect(self, text: str) -> None:
        """Arm a wait for ``text`` in a message from now on (:meth:`wait_for`)."""
        with self._cond:
            self._wants[text.encode("utf-8")] = None

    def wait_for(self, text: str, timeout: float) -> float | None:
        """When (``perf_counter``) the first message holding ``text`` came after
        :meth:`expect`, waiting up to ``timeout`` s; None if none came. The wait is disarmed."""
        key = text.encode("utf-8")
        with self._cond:
            self._cond.wait_for(lambda: self._wants.get(key) is not None, timeout)
            return self._wants.pop(key, None)

    def _saw(self, data: bytes, now: float) -> None:
        with self._cond:
            hit = False
            for key, at in self._wants.items():
                if at is None and key in data:
                    self._wants[key] = now
                    hit = True
            if hit:
                self._cond.notify_all()

    def _learn(self, x: Any) -> None:
        """Every labelled control in ``x`` (a message's body): its id and the event it answers."""
        if isinstance(x, dict):
            if "_i" in x:
                events = [k[3:] for k in ("on_tap", "on_click", "on_change") if x.get(k)]
                for key in ("label", "tooltip", "content", "semantics_label"):
                    v = x.get(key)
                    if isinstance(v, str) and events:
                        self.ids[v] = (x["_i"], events[0])
            for v in x.values():
                if isinstance(v, (dict, list)):
                    self._learn(v)
        elif isinstance(x, list):
            for v in x:
                if isinstance(v, (dict, list)):
                    self._learn(v)

    def find(self, label: str, prefix: bool = False) -> tuple[int, str] | None:
        """The control called ``label`` (or the last one whose label starts with it)."""
        if not prefix:
            return self.ids.get(label)
        found = [v for k, v in self.ids.items() if k.startswith(label)]
        return found[-1] if found else None

    # -------------------------------------------------------------- what it sends
    def send(self, action: int, body: dict) -> None:
        import msgpack

        with self._lock:
            if self._ws is None:
                raise RuntimeError(f"{self.name}: not connected")
            self._ws.send(b"\x00" + msgpack.packb([action, body]))

    def tap(self, label: str, prefix: bool = False) -> None:
        """A tap on the control called ``label``, as the browser sends it."""
        found = self.find(label, prefix)
        if found is None:
            raise RuntimeError(f"{self.name}: no control called {label!r} seen")
        cid, event = found
        self.send(3, {"target": cid, "name": event, "data": None})  # CONTROL_EVENT

    def type_text(self, label: str, text: str) -> None:
        """Type ``text`` into the field called ``label``: its value, then its change event."""
        found = self.find(label)
        if found is None:
            raise RuntimeError(f"{self.name}: no field called {label!r} seen")
        cid, event = found
        self.send(4, {"id": cid, "props": {"value": text}})  # UPDATE_CONTROL_PROPS
        self.send(3, {"target": cid, "name": event, "data": text})

    def run(self) -> None:
        import msgpack
        from websockets.sync.client import connect

        try:
            where = f"{self.host}:{self.port}"
            with connect(f"ws://{where}/ws", origin=f"http://{where}", max_size=None) as ws:
                self._ws = ws
                page = {**PHONE_PAGE, "route": self.route}
                if self.size is not None:
                    page["width"], page["height"] = self.size
                hello = [1, {"session_id": None, "page_name": "", "page": page}]
                ws.send(b"\x00" + msgpack.packb(hello))
                while not self.stop.is_set():
                    try:
                        data = ws.recv(timeout=0.5)
                    except TimeoutError:
                        continue
                    now = time.perf_counter()
                    if not isinstance(data, bytes) or not data or data[0] != 0:
                        continue
                    self.messages += 1
                    self.bytes += len(data)
                    self.last_message = now
                    self._saw(data, now)
                    # [action, body]: a fixarray of two, then the action as a positive fixint
                    action = data[2] if len(data) > 2 and data[1] == 0x92 else None
                    if not (self.index or action in (1, 5)):
                        continue
                    action, body = msgpack.unpackb(data[1:], strict_map_key=False)
                    if self.index:
                        self._learn(body)
                    if action == 1:
                        self.registered.set()
                    elif action == 5:  # the app asks the page something: no answer to give, at once
                        reply = {
                            "control_id": body["control_id"],
                            "call_id": body["call_id"],
                            "result": None,
                            "error": None,
                        }
                        self.send(5, reply)
                        args = body.get("args") or body.get("arguments") or {}
                        if body.get("name") == "push_route" and isinstance(args, dict) and "route" in args:
                            # the browser goes there and says so, as Flet's client does
                            route = args["route"]
                            self.send(4, {"id": body["control_id"], "props": {"route": route}})
                            self.send(
                                3, {"target": body["control_id"], "name": "route_change", "data": {"route": route}}
                            )
        except Exception as e:  # the run reports it
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self._ws = None
            self.registered.set()


# ------------------------------------------------------------------ a table
class Table:
    """One match and its phones; every method runs in its worker's thread."""

    def __init__(
        self, index: int, url: str, mid: str, phones: int = PHONES, drawn: int = PHONES, m: Match | None = None
    ) -> None:
        self.index = index
        self.url = url
        self.phones = phones
        #: phones of this table drawn by a browser here (the others: :class:`Listener`)
        self.drawn = drawn
        self.listeners: list[Listener] = []
        self.mid = mid
        #: the engine's copy of the match, which says what each tap shows
        self.m: Match = m if m is not None else fresh_match({"target": TARGET})
        self.contexts: list = []
        self.tapper = None
        self.observers: list = []
        self.untimed = 0  # two-tap plays made, not timed
        self.hands = 0  # hands settled
        self.entries = 0  # taps that changed the match (timed or not, settling a hand included)
        self.problems: list[str] = []
        self.failed: list[str] = []  # requests that failed or got an error status
        self.clock_spread = 0.0  # ms: the pages' clocks against each other

    # -------------------------------------------------------------- pages
    def _context(self, browser):
        ctx = harness.new_context(browser)
        ctx.add_init_script(TABLE_JS)
        ctx.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        ctx.on("requestfailed", lambda r: self.failed.append(f"{r.failure} {r.url}"))
        self.contexts.append(ctx)
        return ctx

    def open(self, browser) -> None:
        """Fresh sessions on the match: the tapping phone, the other phones drawn here and
        those drawn elsewhere."""
        self.contexts = []
        self.tapper = harness.open_app(self._context(browser), f"{self.url}table/{self.mid}")
        self.observers = [
            harness.open_app(self._context(browser), f"{self.url}table/{self.mid}") for _ in range(self.drawn - 1)
        ]
        port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.listeners = [Listener(port, f"/table/{self.mid}") for _ in range(self.phones - self.drawn)]
        for listener in self.listeners:
            listener.start()
        for listener in self.listeners:
            if not listener.registered.wait(30) or listener.error:
                raise RuntimeError(
                    f"table {self.index + 1}: a phone drawn elsewhere did not register: {listener.error}"
                )
        for page in self.pages:
            harness.wait_text(page, status_re(self.m))
        offsets = [_clock_offset(p) for p in self.pages]
        self.clock_spread = max(offsets) - min(offsets)

    @property
    def pages(self) -> list:
        return [self.tapper, *self.observers]

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        for listener in self.listeners:
            listener.stop.set()
        for listener in self.listeners:
            listener.join(10)
            if listener.error:
                self.problems.append(f"table {self.index + 1}: a phone drawn elsewhere: {listener.error}")
        self.contexts, self.tapper, self.observers, self.listeners = [], None, [], []

    def console_errors(self) -> tuple[list[str], list[str]]:
        """The pages' console errors, and the requests that tried to leave localhost."""
        errors = [e for p in self.pages for e in getattr(p, "console_errors", [])]
        return errors, [u for c in self.contexts for u in harness.external_requests(c)]

    # -------------------------------------------------------------- taps
    def _wait_others(self, note: str, what: str) -> None:
        for i, page in enumerate(self.observers, 2):
            try:
                harness.wait_text(page, f"{note} (on {BY})")
            except TimeoutError as e:
                self.problems.append(f"table {self.index + 1} phone {i}: {what} not shown: {e}")

    def _settle_hand(self) -> None:
        settle_hand(self.tapper, self.m)
        self.hands += 1
        for i, page in enumerate(self.observers, 2):
            try:
                harness.wait_text(page, status_re(self.m))
            except TimeoutError as e:
                self.problems.append(f"table {self.index + 1} phone {i}: the next hand not shown: {e}")

    def step(self) -> Tap | None:
        """One entry on the tapping phone: a timed tap, or None (a settled hand, a two-tap play)."""
        m = self.m
        assert m is not None
        if m.over:
            raise RuntimeError(f"table {self.index + 1}: the match is over (target {TARGET} reached?)")
        self.entries += 1
        if m.hand.end is not None:
            self._settle_hand()
            return None
        choice = next_play(m)
        if choice is None:  # every fitting tile fits two ends: two taps, not timed
            note = two_tap_play(self.tapper, m)
            self._wait_others(note, "a two-tap play")
            self.untimed += 1
            return None
        tile, on = choice
        turn = m.play(tile, on)
        note = app_driver.play_note(m, turn)
        loc = harness.button(self.tapper, f"tile {tile}")
        harness.settle(self.tapper, loc)
        for page, want in [(self.tapper, note)] + [(p, f"{note} (on {BY})") for p in self.observers]:
            problem = page.evaluate("(w) => window.__tlArm(w)", want)
            if problem:
                raise RuntimeError(f"table {self.index + 1}: cannot time the tap for {want!r}: {problem}")
        for listener in self.listeners:
            listener.expect(f"{note} (on {BY})")
        loc.click()
        timeout = harness.ACTION_TIMEOUT * 1000
        try:
            self.tapper.wait_for_function(SEEN_JS, polling=10, timeout=timeout)
        except Exception as e:
            if "Timeout" not in str(e):
                raise
            raise RuntimeError(
                f"table {self.index + 1}: the tapping phone did not show {note!r} within "
                f"{harness.ACTION_TIMEOUT:.0f} s; texts: {harness.read_texts(self.tapper)!r}"
            ) from None
        mine = self.tapper.evaluate("() => window.__tlTake()")
        if mine["down"] is None:
            raise RuntimeError(f"table {self.index + 1}: no pointerdown seen for the tap of {tile}")
        down = mine["down"]
        others: list[float | None] = []
        others_msg: list[float | None] = []
        for i, page in enumerate(self.observers, 2):
            try:
                page.wait_for_function(SEEN_JS, polling=10, timeout=timeout)
            except Exception as e:
                if "Timeout" not in str(e):
                    raise
                self.problems.append(
                    f"table {self.index + 1} phone {i}: {note!r} not shown within {harness.ACTION_TIMEOUT:.0f} s; "
                    f"texts: {harness.read_texts(page)!r}"
                )
            got = page.evaluate("() => window.__tlTake()")
            others.append(None if got["seen"] is None else got["seen"] - down)
            others_msg.append(_first_after(got["msgs"], down))
        listeners_msg: list[float | None] = []
        if self.listeners:  # the tap's pointerdown on the Listeners' clock (perf_counter, ms)
            down_py = down - _clock_offset(self.tapper, 3, time.perf_counter_ns)
        for i, listener in enumerate(self.listeners, len(self.observers) + 2):
            at = listener.wait_for(f"{note} (on {BY})", harness.ACTION_TIMEOUT)
            if at is None:
                self.problems.append(f"table {self.index + 1} phone {i} (drawn elsewhere): {note!r} not received")
            listeners_msg.append(None if at is None else at * 1000 - down_py)
        return Tap(
            self.index,
            mine["seen"] - down,
            others,
            "scoring" if turn.points else "plain",
            send=None if mine["send"] is None else mine["send"] - down,
            own_msg=_first_after(mine["msgs"], down),
            others_msg=others_msg,
            listeners_msg=listeners_msg,
        )

    def run(
        self, taps: int, warmup: int, start: threading.Barrier | None = None, pace: float = 0.0, offset: float = 0.0
    ) -> list[Tap]:
        """``warmup`` untimed taps, then ``taps`` timed ones, an entry at most every ``pace``
        seconds (the first ``offset`` seconds after ``start``); the hand is settled if it
        ended on the last; then every page must show the engine's scores."""
        if start is not None:
            start.wait()
        out: list[Tap] = []
        made = 0
        due = time.monotonic() + offset
        while len(out) < taps:
            if pace:
                time.sleep(max(0.0, due - time.monotonic()))
                due = time.monotonic() + pace
            tap = self.step()
            if tap is None:
                continue
            made += 1
            if made > warmup:
                out.append(tap)
        assert self.m is not None
        if self.m.hand.end is not None:
            self._settle_hand()
        for i, page in enumerate(self.pages, 1):
            harness.wait_idle(page, quiet=0.15)
            try:
                check_scores(page, self.m)
            except RuntimeError as e:
                self.problems.append(f"table {self.index + 1} phone {i}: {e}")
        return out


def _first_after(times: list[float], t: float) -> float | None:
    """The first of ``times`` at or after ``t``, as ms after ``t``."""
    later = [x for x in times if x >= t]
    return min(later) - t if later else None


def _clock_offset(page, tries: int = 15, clock: Any = time.time_ns) -> float:
    """The page's clock minus Python's ``clock`` (ns; ms returned), read with the smallest
    round trip of ``tries``."""
    best = None
    for _ in range(tries):
        t0 = clock()
        v = page.evaluate("() => window.__tlClock()")
        t1 = clock()
        rtt = (t1 - t0) / 1e6
        if best is None or rtt < best[0]:
            best = (rtt, v - (t0 + t1) / 2e6)
    assert best is not None
    return best[1]


# ------------------------------------------------------------------ threads
class Worker(threading.Thread):
    """A thread with its own Playwright and Chromium, running the jobs given to it; ``nice``:
    the niceness this thread, and so the Playwright driver and the Chromium it starts, runs
    at (Linux sets it per thread; elsewhere it is left as it is)."""

    def __init__(self, name: str, nice: int = 0) -> None:
        super().__init__(name=name, daemon=True)
        self._jobs: queue.Queue = queue.Queue()
        self.ready: Future = Future()
        self.browser = None
        self.nice = nice

    def run(self) -> None:
        from playwright.sync_api import sync_playwright

        if self.nice and sys.platform.startswith("linux"):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        try:
            with sync_playwright() as pw:
                browser, ctx = harness.launch_browser(pw)
                ctx.close()
                self.browser = browser
                self.ready.set_result(None)
                try:
                    while (job := self._jobs.get()) is not None:
                        fn, args, fut = job
                        try:
                            fut.set_result(fn(*args))
                        except BaseException as e:  # handed to the caller
                            fut.set_exception(e)
                finally:
                    browser.close()
        except BaseException as e:
            if not self.ready.done():
                self.ready.set_exception(e)
            else:
                print(f"{self.name}: {e!r}", file=sys.stderr)

    def call(self, fn, *args) -> Future:
        fut: Future = Future()
        self._jobs.put((fn, args, fut))
        return fut

    def stop(self, timeout: float = 60.0) -> None:
        self._jobs.put(None)
        self.join(timeout)


def together(calls) -> list:
    """Start every (worker, fn, args...) at once; their results in order (the first error raised)."""
    futs = [w.call(fn, *args) for w, fn, *args in calls]
    return [f.result() for f in futs]


# ------------------------------------------------------------------ the server
def rss_kb(pid: int) -> int:
    """VmRSS of ``pid`` and its descendants (kB)."""
    total = 0
    for p in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{p}/status", encoding="utf-8") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", encoding="utf-8") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def pin(pid: int, cpus: set[int]) -> None:
    """Run every thread of ``pid`` on ``cpus`` only (threads and children started later inherit it)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(tid), cpus)


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds used by ``pids`` (and their reaped children)."""
    ticks = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _cpu_busy() -> float:
    """CPU seconds the whole machine has been busy (all CPUs, since boot)."""
    with open("/proc/stat", encoding="utf-8") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")  # less idle and iowait


class CpuMeter:
    """Where the machine's CPU went between :meth:`start` and :meth:`stop`: the server,
    this benchmark (itself, Playwright's drivers, the Chromiums, the server) and the rest
    (other processes: anything else on the machine makes the figures worse)."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self._at: tuple[float, float, float, float] | None = None

    def _read(self) -> tuple[float, float, float, float]:
        me = os.getpid()
        return (
            time.monotonic(),
            _cpu_busy(),
            _cpu_of([me, *descendants(me)]),
            _cpu_of([self.server_pid, *descendants(self.server_pid)]),
        )

    def start(self) -> None:
        self._at = self._read()

    def stop(self) -> dict:
        assert self._at is not None
        t1, busy1, mine1, server1 = self._read()
        t0, busy0, mine0, server0 = self._at
        cap = (t1 - t0) * (os.cpu_count() or 1) / 100  # CPU seconds in 1 % of the machine
        return {
            "server_pct": (server1 - server0) / cap,
            "benchmark_pct": (mine1 - mine0) / cap,
            "others_pct": max(0.0, (busy1 - busy0) - (mine1 - mine0)) / cap,
        }


def cpu_line(c: dict) -> str:
    return (
        f"    CPU (% of all {os.cpu_count()} CPUs): server {c['server_pct']:.0f}, this benchmark with its browsers "
        f"{c['benchmark_pct']:.0f} (server included), other processes {c['others_pct']:.0f}"
    )
