"""Where the server's time goes when one phone's entry reaches the other phones of its table.

    python -m tools.loadtest.broadcast [--sessions N] [--entries K] [--warmup W] [--tables T]
                                       [--profile] [--top N] [--app-root DIR] [--smoke]

No browser: ``T`` matches (default 1), each shown by ``N`` Flet sessions (default 4)
made in this process, with the app's own ``make_main`` (every session the host, as
``table_load``'s loopback phones are) on a connection that answers
at once: it encodes every message as Flet's web server does (msgpack) and drops it,
and answers the app's round trip (``page.get_device_info()``) with nothing, the next
moment.  So what is measured is the server's own work, with nothing else on the CPU:
what ``table_load.py``'s server does per entry, without the browsers taking the CPU
from it.

The entries are ``table_load.py``'s: on the first session of each table, the lowest
tile that fits exactly one place (``common.next_play``; a match that needs a
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
as a baseline: run both in the same conditions; ``common.use_app_of``); the first line
says which it imported.

Flet has no public API for a session without a browser: what this needs of Flet's
insides is in ``common`` (its last section), said why there.
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
from typing import TYPE_CHECKING, Any

import flet as ft

from tools.loadtest.common import (
    PLAYERS,
    REPO,
    BrowserlessPhone,
    app_root,
    idle,
    load_average,
    make_current,
    next_play,
    open_session,
    parse_args,
    pct,
    redraw_parts,
    summary,
    use_app_of,
)

if TYPE_CHECKING:
    from scorekeeper.ui.shell.base import Shared

TARGET = 9999  # a match that does not end during the run
#: ``--smoke``: one table of two sessions, three entries, one redraw with nothing changed.
SMOKE = {"tables": 1, "sessions": 2, "entries": 3, "warmup": 0, "floor": 1}


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


class Table:
    """One match and its sessions; the first session makes the entries."""

    def __init__(self, shared: Shared, main: Callable[[ft.Page], Any], loop: Any, hub: ft.PubSubHub) -> None:
        from scorekeeper.ui.allfives.form import NewMatchForm

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
        self.phones: list[BrowserlessPhone] = []
        self.sessions: list[Any] = []  # their Flet sessions
        self.models: list[Any] = []  # the table view-model of each session
        self.untimed = 0
        self.hands = 0

    async def open(self, n: int) -> None:
        for _ in range(n):
            phone = BrowserlessPhone(self.loop, self.hub)
            # as Flet's web server opens a browser's session, then the app's main (not "web":
            # the round trip's answer, nothing, then needs no browser's details)
            session = open_session(phone, f"/table/{self.mid}")
            page = session.page
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
        """The screens subscribed to this match so far (see :func:`record_subscriptions`)."""
        return [screen for mid, screen in self.shared.hub.subscribed if mid == self.mid]  # type: ignore[attr-defined]

    @property
    def tapper(self) -> Any:
        return self.models[0]

    async def event(self, fn: Callable[..., Any], *args: Any) -> None:
        """``fn(*args)`` as Flet runs a click handler of the tapping session."""
        make_current(self.sessions[0].page)
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
def record_subscriptions(hub: Any) -> None:
    """Keep in ``hub.subscribed`` every (match, screen) subscribed from now on: the table
    view-model of each session (the app has no need to list them; the benchmark wraps the
    hub's public ``subscribe`` to know them)."""
    subscribe = hub.subscribe
    hub.subscribed = []

    def recording(mid: str, screen: object, *args: Any, **kwargs: Any) -> Any:
        hub.subscribed.append((mid, screen))
        return subscribe(mid, screen, *args, **kwargs)

    hub.subscribe = recording


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from scorekeeper.ui.app.main import make_main
    from scorekeeper.ui.server import serve
    from scorekeeper.ui.server.shared import open_shared

    loop = asyncio.get_running_loop()
    hub = ft.PubSubHub(loop=loop)
    out: dict[str, Any] = {"cpu": [], "last": [], "others": [], "per_session": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="scorekeeper-broadcast-") as tmp:
        shared = open_shared(os.path.join(tmp, "db"))
        record_subscriptions(shared.hub)
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
                    make_current(session.page)
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
    args = parse_args(ap, argv, SMOKE)
    try:
        root = app_root(args.app_root)
        imported = use_app_of(root)  # before anything of the app is imported
    except (ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for owner, name, what in redraw_parts():
        SPLIT.wrap(owner, name, what)
    began = time.perf_counter()
    out = asyncio.run(run(args))
    n = len(out["cpu"])
    sessions = args.sessions * args.tables
    print(
        f"app: {root} (scorekeeper imported from {imported}); flet {ft.__version__}; {os.cpu_count()} CPUs, "
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
