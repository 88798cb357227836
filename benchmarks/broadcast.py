"""Where the server's time goes when one phone's entry reaches the other phones of its table.

    python benchmarks/broadcast.py [--sessions N] [--entries K] [--warmup W] [--tables T]
                                   [--profile] [--top N] [--app-root DIR]

No browser: ``T`` matches (default 1), each shown by ``N`` Flet sessions (default 4)
made in this process, with the app's own ``make_main`` (every session the host, as
``benchmarks/table_load.py``'s loopback phones are) on a connection that answers
at once: it encodes every message as Flet's web server does (msgpack) and drops it,
and answers the app's round trip (``page.get_device_info()``) with nothing, the next
moment.  So what is measured is the server's own work, with nothing else on the CPU:
what ``table_load.py``'s server does per entry, without the browsers taking the CPU
from it.

The entries are ``table_load.py``'s: on the first session of each table, the lowest
tile that fits exactly one place (as ``ui_latency._next_play``; a match that needs a
two-tap play takes it, untimed), the hand end settled by typing the pips and "Settle
hand".  Each entry is made as Flet makes an event: in a task of the tapping session,
the view-model's handler, then ``after_event``; then the loop runs until every
session has redrawn and answered.  With ``T`` tables, the entries of the tables are
made in the same moment (one each, as three tables tapping at once), as in
``table_load.py``'s phase B.

Figures, per timed entry (milliseconds, on the loop's thread -- Flet runs every
session's handlers and redraws on that one thread):

* *CPU per entry*: ``time.thread_time()`` from the tap until the loop is idle again
  (the handler, the store, every session's redraw, diff and encoding, the round
  trips), and per session redrawn;
* *tap -> last other session's patch*: wall time until the last other session of
  the table has sent its redraw (the figure the phones wait for, less the network and
  the browser), also its median over the other sessions;
* the split of a session's redraw: render (the component functions), diff
  (``ObjectPatch.from_diff``), encoding (msgpack), the rest (mounting, effects).

``--profile``: cProfile of the timed entries, the top functions by cumulative and by
own time (cProfile slows this code several times over: read its shares, not its
times).  ``--app-root DIR`` imports the app of another checkout (e.g. the old code,
as a baseline: run both in the same conditions); the table says which it imported.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _import_root(argv: list[str]) -> Path:
    """The checkout whose app is imported (``--app-root``), put first on ``sys.path``
    before anything of it is imported."""
    root = REPO
    for i, a in enumerate(argv):
        if a == "--app-root" and i + 1 < len(argv):
            root = Path(argv[i + 1])
        elif a.startswith("--app-root="):
            root = Path(a.split("=", 1)[1])
    root = root.resolve()
    sys.path.insert(0, str(root))
    return root


ROOT = _import_root(sys.argv[1:])

import flet as ft  # noqa: E402
import msgpack  # noqa: E402
from flet.controls.base_control import BaseControl  # noqa: E402
from flet.controls.context import _context_page  # noqa: E402
from flet.controls.object_patch import ObjectPatch  # noqa: E402
from flet.messaging.connection import Connection  # noqa: E402
from flet.messaging.protocol import (  # noqa: E402
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session  # noqa: E402
from flet.pubsub.pubsub_hub import PubSubHub  # noqa: E402

import scorekeeper  # noqa: E402
from scorekeeper.ui.allfives.form import NewMatchForm  # noqa: E402
from scorekeeper.ui.app.main import make_main  # noqa: E402
from scorekeeper.ui.server import serve  # noqa: E402
from scorekeeper.ui.server.shared import open_shared  # noqa: E402
from scorekeeper.ui.shell.base import Shared  # noqa: E402

TARGET = 9999  # a match that does not end during the run
PLAYERS = ("Ann", "Ben")


# ------------------------------------------------------------------ timers
class Split:
    """Time spent in the wrapped functions, on this thread (ms), while ``on``: each one's
    own time, less the wrapped functions it called (a render inside a diff is render)."""

    def __init__(self) -> None:
        self.on = False
        self.ms: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[list[float]] = []  # [start, time of wrapped callees]

    def wrap(self, owner: Any, name: str, what: str) -> None:
        fn = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on:
                return fn(*args, **kwargs)
            frame = [time.thread_time(), 0.0]
            self._stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                self._stack.pop()
                spent = time.thread_time() - frame[0]
                if self._stack:
                    self._stack[-1][1] += spent
                self.ms[what] = self.ms.get(what, 0.0) + (spent - frame[1]) * 1000
                self.calls[what] = self.calls.get(what, 0) + 1

        setattr(owner, name, timed)


SPLIT = Split()
_encode = configure_encode_object_for_msgpack(BaseControl)


# ------------------------------------------------------------------ a session without a browser
class Phone(Connection):
    """A Flet connection with no browser behind it: every message is encoded as the web
    server encodes it and dropped; a method call (the app's round trip) is answered with
    nothing at the next turn of the loop.  ``patches``: when each patch left (perf_counter)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, hub: PubSubHub) -> None:
        super().__init__()
        self.loop = loop
        self.pubsubhub = hub
        self.session: Session | None = None
        self.patches: list[float] = []
        self.bytes = 0

    def encode(self, message: Any) -> bytes:
        return msgpack.packb([message.action, message.body], default=_encode)

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


async def idle(sessions: list[Session], spins: int = 3) -> None:
    """Run the loop until nothing is left to do: no session has pending updates or
    effects, and no other task is ready, for ``spins`` turns in a row."""
    quiet = 0
    me = asyncio.current_task()
    while quiet < spins:
        await asyncio.sleep(0)
        busy = any(
            s._Session__pending_updates or s._Session__pending_effects or s._Session__updates_ready.is_set()  # type: ignore[attr-defined]
            for s in sessions
        )
        others = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        ready = any(_ready(t) for t in others)
        quiet = 0 if busy or ready else quiet + 1


def _ready(task: asyncio.Task[Any]) -> bool:
    """A task that is scheduled to run (not waiting on a future)."""
    waiter = getattr(task, "_fut_waiter", None)
    return waiter is None or waiter.done()


class Table:
    """One match and its sessions; the first session makes the entries."""

    def __init__(self, shared: Shared, main: Callable[[ft.Page], Any], loop: Any, hub: PubSubHub) -> None:
        self.shared = shared
        self.main = main
        self.loop = loop
        self.hub = hub
        form = NewMatchForm(shared, names=list(PLAYERS))
        form.set_rule("target", TARGET)
        form.set_leader(PLAYERS[0])
        mid = form.start()
        assert mid, form.error
        self.mid = mid
        self.phones: list[Phone] = []
        self.sessions: list[Session] = []
        self.models: list[Any] = []  # the table view-model of each session
        self.untimed = 0
        self.hands = 0

    async def open(self, n: int) -> None:
        for _ in range(n):
            phone = Phone(self.loop, self.hub)
            session = Session(phone)
            phone.session = session
            # what Flet's web server does when a browser registers: the page's size and route
            # from the browser, the whole page sent back, then the app's main (not "web": the
            # round trip's answer, nothing, then needs no browser's details)
            session.apply_page_patch({"route": f"/table/{self.mid}", "width": 412, "height": 915})
            page = session.page
            body = RegisterClientResponseBody(session_id=session.id, page_patch=session.get_page_patch(), error="")
            phone.send_message(Message(MessageAction.REGISTER_CLIENT, body))
            _context_page.set(page)
            before = set(self._screens())
            started = self.main(page)
            if asyncio.iscoroutine(started):  # the app's main is async (it asks the browser for a kept pass)
                await started
            await session.after_event(page)
            await idle([session])
            new = [s for s in self._screens() if s not in before]
            assert len(new) == 1, f"session {len(self.sessions) + 1}: {len(new)} table screens subscribed"
            self.phones.append(phone)
            self.sessions.append(session)
            self.models.append(new[0])

    def _screens(self) -> list[Any]:
        # the hub's subscriptions of this match (the benchmark looks inside: the app has
        # no need to list them)
        subs = self.shared.hub._subs.get(self.mid, {})  # type: ignore[attr-defined]
        return [s for (s, _, _) in subs.values()]

    @property
    def tapper(self) -> Any:
        return self.models[0]

    async def event(self, fn: Callable[..., Any], *args: Any) -> None:
        """``fn(*args)`` as Flet runs a click handler of the tapping session."""
        page = self.sessions[0].page
        _context_page.set(page)
        fn(*args)
        await self.sessions[0].after_event(None)

    async def entry(self) -> tuple[str, float] | None:
        """One entry on the tapping session: ("tile", its perf_counter start) for a timed tap,
        else None (a hand settled, a two-tap play)."""
        t = self.tapper
        m = t.match
        if t.error:
            raise RuntimeError(f"the tapping session says: {t.error}")
        h = m.hand
        if h.end is not None:
            for i, name in enumerate(m.setup.players):
                if h.held[i]:
                    free = [x for x in m.tiles if x not in h.layout.nodes]
                    await self.event(t.hand_end.set_pips, name, str(sum(x.pips for x in free[: h.held[i]])))
                    await idle(self.sessions)  # the phone shows the settlement before Settle is tapped
            await self.event(t.hand_end.settle)
            self.hands += 1
            return None
        choice = next_play(m)
        if choice is None:
            tile = next(x for x in m.tiles if m.placements(x))
            await self.event(t.play.tap, str(tile))
            await idle(self.sessions)
            await self.event(t.play.choose, str(m.placements(tile)[0]))
            self.untimed += 1
            return None
        tile, _ = choice
        start = time.perf_counter()
        await self.event(t.play.tap, str(tile))
        return "tile", start

    def check(self) -> None:
        """Every session shows the match as the store holds it."""
        want = self.shared.store.match(self.mid).to_record()
        for i, model in enumerate(self.models, 1):
            if model.match.to_record() != want:
                raise RuntimeError(f"session {i} does not show the stored match")
            if model.error:
                raise RuntimeError(f"session {i} says: {model.error}")


# ------------------------------------------------------------------ the run
def next_play(m: Any) -> tuple[Any, Any] | None:
    """The lowest tile not down that fits exactly one place and does not win the match
    (``benchmarks/ui_latency.py``'s choice; not imported from there: it imports the app of
    this checkout, not ``--app-root``'s)."""
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


def pct(xs: list[float], p: float) -> float:
    """Percentile with linear interpolation (numpy's default)."""
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def load_average() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg()) + " (1/5/15 min)"
    except OSError:
        return "n/a"


def summary(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    return f"median {statistics.median(xs):6.1f}  p95 {pct(xs, 95):6.1f}  max {max(xs):6.1f}"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    hub = PubSubHub(loop=loop)
    out: dict[str, Any] = {"cpu": [], "last": [], "others": [], "per_session": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="scorekeeper-broadcast-") as tmp:
        shared = open_shared(os.path.join(tmp, "db"))
        main = make_main(shared)
        tables = [Table(shared, main, loop, hub) for _ in range(args.tables)]
        # what ``scorekeeper web`` does before it serves, where the app does it
        freeze = getattr(serve, "freeze_startup_heap", None)
        out["frozen"] = freeze is not None
        if freeze is not None:
            freeze()
        for tb in tables:
            await tb.open(args.sessions)
        all_sessions = [s for tb in tables for s in tb.sessions]
        prof = cProfile.Profile(time.thread_time) if args.profile else None
        timed = 0
        made = 0
        while timed < args.entries:
            for tb in tables:
                for p in tb.phones:
                    p.patches.clear()
            counting = made >= args.warmup
            kept = (dict(SPLIT.ms), dict(SPLIT.calls))
            SPLIT.on = counting
            if prof is not None and counting:
                prof.enable()
            t0 = time.thread_time()
            starts = [await tb.entry() for tb in tables]
            await idle(all_sessions)
            cpu = (time.thread_time() - t0) * 1000
            if prof is not None:
                prof.disable()
            SPLIT.on = False
            for tb in tables:
                tb.check()
            if any(s is None for s in starts):  # a hand settled or a two-tap play on some table: not timed
                SPLIT.ms, SPLIT.calls = kept
                if counting:
                    out["other"].append(cpu / len(all_sessions))
                continue
            made += 1
            if not counting:
                continue
            timed += 1
            out["cpu"].append(cpu)
            out["per_session"].append(cpu / len(all_sessions))
            for tb, (_, start) in zip(tables, starts, strict=True):
                firsts = [p.patches[0] - start for p in tb.phones[1:] if p.patches]
                if len(firsts) != len(tb.phones) - 1:
                    raise RuntimeError("a session did not redraw after an entry")
                out["others"] += [x * 1000 for x in firsts]
                out["last"].append(max(firsts) * 1000)
        # the floor: every session redrawn with nothing changed (what a redraw costs for the
        # parts a change leaves as they were, e.g. the drawing and the picker when a draw is counted)
        out["floor"] = []
        for _ in range(args.floor):
            t0 = time.thread_time()
            for tb in tables:
                for model, session in zip(tb.models, tb.sessions, strict=True):
                    _context_page.set(session.page)
                    model._changed()
            await idle(all_sessions)
            out["floor"].append((time.thread_time() - t0) * 1000 / len(all_sessions))
        out["untimed"] = sum(tb.untimed for tb in tables)
        out["hands"] = sum(tb.hands for tb in tables)
        out["bytes"] = sum(p.bytes for tb in tables for p in tb.phones)
        out["split"] = dict(SPLIT.ms)
        out["calls"] = dict(SPLIT.calls)
        if prof is not None:
            s = io.StringIO()
            st = pstats.Stats(prof, stream=s)
            st.sort_stats("cumulative").print_stats(args.top)
            st.sort_stats("tottime").print_stats(args.top)
            out["profile"] = s.getvalue()
        shared.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=4, help="sessions per table (default 4)")
    ap.add_argument("--tables", type=int, default=1, help="tables entering at the same moment (default 1)")
    ap.add_argument("--entries", type=int, default=60, help="timed entries per table (default 60)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed entries first (default 5)")
    ap.add_argument("--floor", type=int, default=20, help="redraws with nothing changed, at the end (default 20)")
    ap.add_argument("--profile", action="store_true", help="cProfile the timed entries")
    ap.add_argument("--top", type=int, default=30, help="functions shown by --profile (default 30)")
    ap.add_argument("--app-root", type=Path, default=REPO, metavar="DIR", help="import the app of this checkout")
    args = ap.parse_args(argv)
    imported = Path(scorekeeper.__file__).resolve()
    if imported.parent.parent != ROOT:
        print(f"error: scorekeeper imported from {imported}, not from {ROOT}", file=sys.stderr)
        return 2
    for cls, name, what in [
        (Session, "patch_control", "patch"),
        (ObjectPatch, "from_diff", "diff"),
        (Phone, "encode", "encode"),
    ]:
        SPLIT.wrap(cls, name, what)
    from flet.components.component import Renderer

    SPLIT.wrap(Renderer, "render", "render")
    SPLIT.wrap(BaseControl, "_before_update_safe", "controls")  # once for every control made or diffed
    began = time.perf_counter()
    out = asyncio.run(run(args))
    n = len(out["cpu"])
    sessions = args.sessions * args.tables
    print(
        f"app: {ROOT} (scorekeeper imported from {imported}); flet {ft.__version__}; {os.cpu_count()} CPUs, "
        f"load average {load_average()}"
    )
    print(
        f"{args.tables} table(s) x {args.sessions} sessions, {n} timed entries per table ({args.warmup} warm-up; "
        f"{out['untimed']} two-tap plays and {out['hands']} hands settled, untimed) in {time.perf_counter() - began:.0f} s"
        + ("; the heap made at startup frozen first, as the app's server does" if out["frozen"] else "")
    )
    print(f"  CPU per entry moment (all tables)   {summary(out['cpu'])}  ms")
    print(f"  CPU per session redrawn             {summary(out['per_session'])}  ms")
    print(f"  tap -> each other session's patch   {summary(out['others'])}  ms")
    if out["floor"]:
        print(f"  a redraw with nothing changed       {summary(out['floor'])}  ms a session (the floor)")
    if out["other"]:
        print(
            f"  moments with a hand settled (every phone draws the next hand) or a two-tap play, not in the "
            f"figures above: {len(out['other'])}, CPU per session {summary(out['other'])}  ms"
        )
    print(f"  tap -> the last other session's     {summary(out['last'])}  ms")
    split, calls = out["split"], out["calls"]
    if n:
        redraws = n * sessions
        patch = split.get("patch", 0.0)
        diff = split.get("diff", 0.0)
        enc = split.get("encode", 0.0)
        render = split.get("render", 0.0)
        total = sum(out["cpu"])
        render += split.get("controls", 0.0)  # (their own checks, done as they are made)
        print(
            f"  split per session redrawn (ms): render {render / redraws:.2f}, diff {diff / redraws:.2f}, "
            f"encode {enc / redraws:.2f}, mount and the rest of the patch {patch / redraws:.2f}; "
            f"everything else (handler, store, hub, effects, loop) {(total - render - patch - diff - enc) / redraws:.2f}"
            f"  [patches {calls.get('patch', 0) / n:.1f} a moment, renders {calls.get('render', 0) / n:.1f}]"
        )
        print(
            f"  controls made or diffed per session redrawn: {calls.get('controls', 0) / redraws:.0f} (Flet's "
            "_before_update_safe, once per control; a steadier figure than the CPU times on a busy machine)"
        )
        print(f"  sent: {out['bytes'] / 1024:.0f} kB over the run")
    print(
        f"broadcast, {sessions} sessions: CPU per entry median {statistics.median(out['cpu']):.1f} ms, "
        f"per session {statistics.median(out['per_session']):.2f} ms; tap -> last other session p95 "
        f"{pct(out['last'], 95):.1f} ms"
    )
    if "profile" in out:
        print(out["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
