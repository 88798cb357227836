"""What the load harnesses share: the app's server, the taps of a 2-player match, timing a
tap in the page, the figures, and Flet's insides for the sessions that have no browser.

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
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
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
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session

from tests.e2e import app_driver, harness, netns, stranger

if TYPE_CHECKING:
    from scorekeeper.allfives.engine import Match

#: the browser tests' helpers, and what this module makes
__all__ = [
    "app_driver",
    "app_root",
    "BrowserlessPhone",
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


def serve_command(root: Path, db: str, port: int, host: str = "127.0.0.1") -> tuple[list[str], dict[str, str]]:
    """The command and environment of ``scorekeeper web`` of the checkout ``root`` (as
    ``app_driver.web_command``, through a wrapper that says which package it imported);
    run it with ``cwd=root`` and check it with :func:`check_imported`."""
    cmd = [sys.executable, "-c", _SERVE, "--db", db, "web", "--no-browser", "--host", host, "--port", str(port)]
    pythonpath = os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
    return cmd, {"PYTHONPATH": pythonpath}


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
_encode = configure_encode_object_for_msgpack(BaseControl)


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
        return bytes(msgpack.packb([message.action, message.body], default=_encode))

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
