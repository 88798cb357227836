"""How many tables one laptop holds at a club's pace (issue 49).

    python -m tools.loadtest.capacity [--tables 1,4,8,16,24,32] [--seconds S] [--pace P]
                                      [--goal MS] [--drawn K] [--app-root DIR] [--json FILE] [--smoke]

One ``scorekeeper web`` (on 0.0.0.0, a temporary database) holds a club night: an event (a
Swiss of two players a table, target 9999 so that no match ends during the run) whose first
round's matches are the tables, each started (its first leader set in the store before the
server opens it). Then T tables of four phones and one wall are opened, and every table enters
at a club's pace: one entry every ``--pace`` seconds (3), the tables staggered evenly over
those seconds, for ``--seconds`` (each step). The entries are ``table_load``'s: the lowest
tile that fits one place, a two-tap play when none does (untimed), and at each hand end
(about every 15 entries, when a player is out or the hand is blocked) the pips typed and
"Settle hand" tapped (untimed).

* The first table's four phones are drawn in Chromium on this machine (``common.Table``:
  the tap made with the mouse, each phone's screen watched) and reported apart: the check
  that what the phones drawn elsewhere receive is what a browser shows. ``--drawn K``: K of
  them (the tapping phone and K - 1 others), the rest :class:`common.Listener` sessions
  (``--smoke``: two, one page load for each phone drawn, a few CPU-seconds each).
* Every other phone is a :class:`common.Listener`: a Flet session over the same WebSocket
  as a browser's, every message received and the app's calls answered, nothing drawn (as a
  phone that draws on its own processor). One of each table taps: it sends the tap event a
  browser sends (the control's id from what the server sent it). A tap is timed from the
  moment its event is sent to the moment each other phone of the table has the message
  that holds the entry's note (``Note: P01 set 3-2: count 5, ... (on the host)``).
* The wall: a Listener from this machine's other address (not loopback: not the host),
  joined by the watch link the server prints, on the event's standings (a watcher's wall).
  Tap -> wall: after a scoring entry, until the wall has the message with the table's new
  score ("Table 3: P05 v P06, in play 10-0"); only when the wall's page shows the round's
  tables at that moment (it takes turns with the standings), so fewer samples.

T rises through ``--tables`` (default 1, 4, 8, 16, 24, 32; the tables of a step stay open
for the next) until the p95 of tap -> the last other phone passes ``--goal`` (250 ms). For each
T: p95 and max of tap -> the last other phone of the table has the entry's message (every
table: the Listeners' arrival, and the drawn table's pages' WebSocket and its phones drawn
elsewhere, its page's clock set against Python's by a round trip; the drawn table's screens
apart, its Chromium at ``--nice-browsers`` 10 so that the server gets the CPU first), tap ->
the wall, the server's CPU (% of all CPUs) and memory (VmRSS), and
its CPU per phone per entry (the server's CPU seconds over the step / the entries made / the
four phones of a table: the wall and the idle sessions are in it). Timing is never
asserted. Its last line:

    capacity: N tables (P phones) at one entry per table every 3 s: p95 X ms to the other phones, server CPU Y %, Z ms CPU per phone per entry

N is the most tables whose p95 was under the goal. Linux only (the server's CPU and memory
are read from /proc); the machine is shared with the browsers of the drawn table and the
Listeners, whose CPU is printed beside the server's.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.loadtest.common import (
    BY,
    PHONES,
    TARGET,
    CpuMeter,
    Listener,
    Table,
    Worker,
    app_driver,
    app_root,
    check_imported,
    chromium_missing,
    gc_pauses,
    harness,
    load_average,
    next_play,
    parse_args,
    pct,
    revision,
    rss_kb,
    serve_command,
)

GOAL_MS = 250.0
STEPS = (1, 4, 8, 16, 24, 32)
WAIT = 10.0  # seconds an other phone may take to show an entry before it counts as missed
WALL_SIZE = (1280.0, 720.0)  # the wall: a television's page
EVENT = "club"
EVENT_NAME = "Club night"
SMOKE = {"tables": "1,2", "seconds": 7.0, "keep_going": True, "drawn": 2}


# ------------------------------------------------------------------ the club night, stored
def rounds_for(tables: int) -> int:
    """The rounds of the club night of ``tables`` tables (two players each): 3, or as many as its
    players allow (one round for one table).

    >>> rounds_for(1), rounds_for(2), rounds_for(32)
    (1, 3, 3)
    """
    return min(3, 2 * tables - 1)


def club_night(db: str, tables: int) -> list[tuple[str, Any]]:
    """An event of ``2 * tables`` players, its first round open, each match started; each
    table's match id and the engine's copy of it."""
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events import new_event
    from scorekeeper.store import Store

    names = [f"P{i:02d}" for i in range(1, 2 * tables + 1)]
    with Store(db) as store:
        book = EventBook(store)
        book.add(
            new_event(EVENT, EVENT_NAME, "swiss", "all-fives", players=names, rounds=rounds_for(tables), target=TARGET)
        )
        out = []
        for _, mid in sorted(book.open_round(EVENT, 1).items()):
            first = store.match(mid).setup.players[0]
            store.append(mid, {"hand": {"leader": first}})
            out.append((mid, copy.deepcopy(store.match(mid))))
    return out


def status(m: Any) -> str:
    return f"Hand {m.hand.number}, {m.to_move} to play"


def wall_line(k: int, m: Any) -> str:
    """The wall's line of table ``k`` (1-based) in play."""
    a, b = m.setup.sides
    return f"Table {k}: {a} v {b}, in play {m.scores[0]}-{m.scores[1]}"


# ------------------------------------------------------------------ a table of Listeners
class PhoneTable(threading.Thread):
    """One table whose four phones are :class:`Listener` sessions; the first taps. Runs the
    entries of a step at the pace, in its own thread."""

    def __init__(self, k: int, port: int, mid: str, m: Any, wall: Listener | None) -> None:
        super().__init__(name=f"table {k + 1}", daemon=True)
        self.k, self.mid, self.m, self.wall = k, mid, m, wall
        route = f"/table/{mid}"
        self.tapper = Listener(port, route, index=True)
        self.others = [Listener(port, route) for _ in range(PHONES - 1)]
        self.samples: list[float] = []  # tap -> the last other phone (ms)
        self.each: list[float] = []  # tap -> each other phone (ms)
        self.wall_ms: list[float] = []
        self.entries = 0
        self.hands = 0
        self.untimed = 0
        self.missed = 0
        self.problems: list[str] = []
        self.job: tuple[float, float, float] | None = None  # (start, end, pace) of the step

    @property
    def phones(self) -> list[Listener]:
        return [self.tapper, *self.others]

    def open(self) -> None:
        for p in self.phones:
            p.expect(status(self.m))
            p.start()
        for p in self.phones:
            if not p.registered.wait(30) or p.error:
                raise RuntimeError(f"table {self.k + 1}: a phone did not register: {p.error}")
            if p.wait_for(status(self.m), 30) is None:
                raise RuntimeError(f"table {self.k + 1}: {status(self.m)!r} not shown")

    def close(self) -> None:
        for p in self.phones:
            p.stop.set()

    # -------------------------------------------------------------- entries
    def _arm(self, text: str) -> None:
        for p in self.others:
            p.expect(text)

    def _wait_others(self, text: str, t0: float) -> list[float] | None:
        got = [p.wait_for(text, WAIT) for p in self.others]
        if None in got:
            self.missed += sum(x is None for x in got)
            self.problems.append(f"table {self.k + 1}: {text!r} not shown on {got.count(None)} phone(s)")
            return None
        return [(x - t0) * 1000 for x in got if x is not None]

    def _settle(self) -> None:
        from scorekeeper.allfives.events import Settle, StartHand

        m = self.m
        down = m.hand.layout.nodes
        free = [t for t in m.tiles if t not in down]
        remaining = []
        for i, name in enumerate(m.setup.players):
            if m.hand.held[i]:
                tiles, free = free[: m.hand.held[i]], free[m.hand.held[i] :]
                pips = sum(t.hi + t.lo for t in tiles)
                self.tapper.type_text(f"{name} pips", str(pips))
                remaining.append((name, pips))
        m.push(Settle(tuple(remaining)))
        if m.winner is None:
            m.push(StartHand(None))
        self._arm(status(m))
        self.tapper.expect(status(m))
        time.sleep(0.3)  # the typing reaches the app before the tap, as a thumb's would
        self.tapper.tap("Settle hand")
        self._wait_others(status(m), time.perf_counter())
        if self.tapper.wait_for(status(m), WAIT) is None:  # its next tap would be on the old screen
            raise RuntimeError(f"the tapping phone did not show {status(m)!r} after Settle hand")
        self.hands += 1

    def _two_taps(self) -> None:
        from tools.loadtest.common import app_driver as driver

        m = self.m
        tile = next(t for t in m.tiles if m.placements(t))
        on = m.placements(tile)[0]
        self.tapper.expect(f"set {tile} on {on}")
        self.tapper.tap(f"tile {tile}")
        if self.tapper.wait_for(f"set {tile} on {on}", WAIT) is None:
            raise RuntimeError(f"table {self.k + 1}: the places of {tile} not shown")
        turn = m.play(tile, on)
        note = driver.play_note(m, turn)
        self._arm(f"{note} (on {BY})")
        self.tapper.tap(f"set {tile} on {on}", prefix=True)
        self._wait_others(f"{note} (on {BY})", time.perf_counter())
        self.untimed += 1

    def step(self) -> None:
        m = self.m
        self.entries += 1
        if m.hand.end is not None:
            self._settle()
            return
        choice = next_play(m)
        if choice is None:
            self._two_taps()
            return
        tile, on = choice
        before = tuple(m.scores)
        turn = m.play(tile, on)
        note = app_driver.play_note(m, turn)
        self.tapper.expect(note)
        self._arm(f"{note} (on {BY})")
        line = wall_line(self.k + 1, m) if self.wall is not None and tuple(m.scores) != before else None
        if line is not None and self.wall is not None:
            self.wall.expect(line)
        t0 = time.perf_counter()
        self.tapper.tap(f"tile {tile}")
        got = self._wait_others(f"{note} (on {BY})", t0)
        if self.tapper.wait_for(note, WAIT) is None:  # the app and the engine's copy part: stop
            raise RuntimeError(f"the tapping phone did not show {note!r}")
        if got is not None:
            self.samples.append(max(got))
            self.each += got
        if line is not None and self.wall is not None:
            at = self.wall.wait_for(line, 0.5)  # shown only while the wall's page has the tables
            if at is not None:
                self.wall_ms.append((at - t0) * 1000)

    def run(self) -> None:
        while True:
            job = self.job
            if job is None:
                time.sleep(0.05)
                continue
            start, end, pace = job
            due = start
            while due < end:
                time.sleep(max(0.0, due - time.monotonic()))
                try:
                    self.step()
                except Exception as e:  # the run reports it; this table stops entering
                    self.problems.append(f"table {self.k + 1}: {type(e).__name__}: {e}")
                    self.job = None
                    break
                due += pace
            else:
                self.job = None

    def take(self) -> dict[str, Any]:
        """What the step measured, and clear it for the next."""
        out = {
            "samples": self.samples,
            "each": self.each,
            "wall": self.wall_ms,
            "entries": self.entries,
            "hands": self.hands,
            "untimed": self.untimed,
            "missed": self.missed,
        }
        self.samples, self.each, self.wall_ms = [], [], []
        self.entries = self.hands = self.untimed = self.missed = 0
        return out


# ------------------------------------------------------------------ the run
def other_address() -> str | None:
    """An address of this machine that is not loopback (the wall joins from it), or None."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: only the route is looked up
            ip = s.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("127.") else ip


def open_wall(port: int, log: str, host: str, rounds: int) -> Listener:
    """The wall: a watcher joined by the watch link, on the standings of the event (of
    ``rounds`` rounds)."""
    found = re.search(r"Watchers join at http://\S+/join/([A-Za-z0-9_-]+)\s", log)
    if not found:
        raise RuntimeError("the server printed no watch link")
    wall = Listener(port, f"/join/{found.group(1)}", index=True, host=host, size=WALL_SIZE)
    wall.start()
    if not wall.registered.wait(30) or wall.error:
        raise RuntimeError(f"the wall did not register: {wall.error}")
    for label in ("Events: standings", f"Open {EVENT_NAME}", "Standings"):
        deadline = time.monotonic() + 30
        while wall.find(label) is None and time.monotonic() < deadline:
            time.sleep(0.1)
        if label == "Standings":
            wall.expect(f"Round 1 of {rounds}")
        wall.tap(label)
    if wall.wait_for(f"Round 1 of {rounds}", 30) is None:
        raise RuntimeError("the wall did not show the standings")
    return wall


def figures(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    return f"median {pct(xs, 50):6.1f}  p95 {pct(xs, 95):6.1f}  max {max(xs):6.1f}  (n={len(xs)})"


class Capacity:
    """The server, the tables opened so far, the steps and what they measured."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.server: Any = None
        self.tables: list[PhoneTable] = []
        self.drawn: Table | None = None
        self.worker: Worker | None = None
        self.wall: Listener | None = None
        self.steps: list[dict[str, Any]] = []
        self.problems: list[str] = []

    def start(self, tmp: str) -> None:
        args = self.args
        db = os.path.join(tmp, "db")
        self.matches = club_night(db, max(args.steps))
        port = harness.free_port()
        self.gc_log = os.path.join(tmp, "gc.log")
        cmd, env = serve_command(args.app_root, db, port, "0.0.0.0", profile=bool(args.profile), gc_log=self.gc_log)
        if args.profile:
            env["LOADTEST_PROFILE"] = os.path.join(tmp, "server.prof")
            self.profile_file = env["LOADTEST_PROFILE"]
        self.server = harness.start_server(cmd, port, env=env, cwd=str(args.app_root))
        self.imported = check_imported(self.server, args.app_root)
        self.port = port
        self.meter = CpuMeter(self.server.pid)
        self.worker = Worker("drawn table", args.nice_browsers)
        self.worker.start()
        self.worker.ready.result(timeout=120)
        host = other_address()
        if host is None:
            print("the wall: not opened (this machine has no address but loopback)", flush=True)
        else:
            self.wall = open_wall(port, harness.server_log(self.server), host, rounds_for(max(self.args.steps)))
        print(
            f"app: {args.app_root} (commit {revision(args.app_root)}); the server imported {self.imported}; "
            f"pid {self.server.pid}; {os.cpu_count()} CPUs, load average {load_average()}",
            flush=True,
        )

    def open_tables(self, n: int) -> None:
        """Open tables until there are ``n`` (the first drawn in Chromium)."""
        assert self.worker is not None
        if self.drawn is None:
            mid, m = self.matches[0]
            self.drawn = Table(0, self.server.url, mid, PHONES, self.args.drawn, m=m)
            self.worker.call(self.drawn.open, self.worker.browser).result()
        while 1 + len(self.tables) < n:
            k = 1 + len(self.tables)
            mid, m = self.matches[k]
            t = PhoneTable(k, self.port, mid, m, self.wall)
            t.open()
            t.start()
            self.tables.append(t)

    def step(self, n: int) -> dict[str, Any]:
        args = self.args
        self.open_tables(n)
        assert self.worker is not None and self.drawn is not None
        time.sleep(1.0)
        pace, seconds = args.pace, args.seconds
        rss_before = rss_kb(self.server.pid)
        profiled = self.args.profile == n
        if profiled:
            os.kill(self.server.pid, signal.SIGUSR1)
        self.meter.start()
        wall_from = time.time()
        t0 = time.monotonic() + 0.5
        for t in self.tables:
            t.job = (t0 + pace * t.k / n, t0 + seconds, pace)
        taps = max(1, int(seconds / pace))
        drawn = self.worker.call(self.drawn.run, taps, 0, None, pace, 0.5)
        drawn_taps = drawn.result(timeout=seconds + 120)
        while any(t.job is not None for t in self.tables):
            time.sleep(0.1)
        cpu = self.meter.stop()
        wall_to = time.time()
        elapsed = time.monotonic() - t0
        if profiled:
            os.kill(self.server.pid, signal.SIGUSR2)
        got = [t.take() for t in self.tables]
        problems = [p for t in self.tables for p in t.problems] + self.drawn.problems
        for t in self.tables:
            t.problems = []
        self.drawn.problems = []
        entries = sum(g["entries"] for g in got) + self.drawn.entries
        self.drawn.entries = 0
        server_s = cpu["server_pct"] * elapsed * (os.cpu_count() or 1) / 100
        return {
            "tables": n,
            "phones": n * PHONES,
            "seconds": elapsed,
            "entries": entries,
            "listeners": [x for g in got for x in g["samples"]],
            "listeners_each": [x for g in got for x in g["each"]],
            "wall": [x for g in got for x in g["wall"]],
            "drawn": [t.all_others for t in drawn_taps if t.all_others is not None],
            "drawn_msg": [
                max(x for x in t.others_msg + t.listeners_msg if x is not None)
                for t in drawn_taps
                if t.others_msg + t.listeners_msg and None not in t.others_msg + t.listeners_msg
            ],
            "missed": sum(g["missed"] for g in got),
            "hands": sum(g["hands"] for g in got),
            "untimed": sum(g["untimed"] for g in got),
            "cpu": cpu,
            "rss_kb": max(rss_before, rss_kb(self.server.pid)),
            "ms_per_phone": server_s * 1000 / max(1, entries) / PHONES,
            "gc": gc_pauses(self.gc_log, wall_from, wall_to),
            "server_s": server_s,
            "problems": problems,
        }

    def stop(self) -> None:
        for t in self.tables:
            t.close()
        if self.wall is not None:
            self.wall.stop.set()
        if self.drawn is not None and self.worker is not None:
            try:
                self.worker.call(self.drawn.close).result(timeout=60)
            except Exception as e:  # reported, the run ends anyway
                self.problems.append(f"closing the drawn table: {e}")
        if self.worker is not None:
            self.worker.stop()
        if self.server is not None:
            harness.stop_server(self.server)


def show_profile(run: Capacity, top: int) -> None:
    """The server's profile over the step asked for, its top functions by cumulative and by
    own time, printed."""
    import io
    import pstats

    path = getattr(run, "profile_file", "")
    deadline = time.monotonic() + 30
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not os.path.exists(path):
        print("profile: the server wrote none (was the step of --profile T run?)")
        return
    time.sleep(1.0)  # written whole
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(path, stream=out).sort_stats(order).print_stats(top)
        text = out.getvalue()
        print(f"profile of the server over the step of {run.args.profile} tables, by {order}:")
        print(text[text.find("   ncalls") :].rstrip())


def headline(s: dict[str, Any]) -> list[float]:
    """The samples the capacity is judged on: tap -> the last other phone of the table has the
    entry's message, on every table. The drawn table's are read by its pages' WebSocket and,
    with ``--drawn`` under 4, at its phones drawn elsewhere (``--tables 1 --drawn 1``: one
    table's server part with one browser on this machine, not four). Its screens, drawn on
    this machine's shared CPU, are reported apart."""
    return s["listeners"] + s["drawn_msg"]


def describe(s: dict[str, Any]) -> str:
    c = s["cpu"]
    return "\n".join(
        [
            f"T={s['tables']} tables ({s['phones']} phones and a wall), {s['entries']} entries in {s['seconds']:.0f} s "
            f"({s['hands']} hands settled, {s['untimed']} two-tap plays untimed):",
            f"    tap -> last other phone has the message  {figures(headline(s))}  (every table: the capacity's figure)",
            f"    tap -> last other phone (Listeners)      {figures(s['listeners'])}",
            f"    tap -> each other phone (Listeners)      {figures(s['listeners_each'])}",
            f"    drawn table, tap -> last other shown     {figures(s['drawn'])}",
            f"    drawn table, tap -> last other's message {figures(s['drawn_msg'])}",
            f"    tap -> the wall (scoring entries shown)  {figures(s['wall'])}",
            f"    server CPU {c['server_pct']:.1f} % of {os.cpu_count()} CPUs (this benchmark with its browsers "
            f"{c['benchmark_pct']:.0f} %, other processes {c['others_pct']:.0f} %), RSS {s['rss_kb'] / 1024:.0f} MB, "
            f"{s['ms_per_phone']:.2f} ms CPU per phone per entry" + (f"; MISSED {s['missed']}" if s["missed"] else ""),
            f"    {describe_gc(s)}",
        ]
    )


def describe_gc(s: dict[str, Any]) -> str:
    """The server's garbage collector over the step: its young and middle collections, its
    full ones (how long they took, and the longest: no phone is answered while one runs)
    and the share of the server's CPU they took."""
    g = s["gc"]
    share = 100 * sum(g["cpu"]) / (s["server_s"] * 1000) if s["server_s"] > 0 else 0.0
    return (
        f"server's garbage collector: {g['n'][0] + g['n'][1]} young and middle collections "
        f"({g['ms'][0] + g['ms'][1]:.0f} ms, longest {max(g['longest'][:2]):.0f} ms), {g['n'][2]} full "
        f"({g['ms'][2]:.0f} ms, longest {g['longest'][2]:.0f} ms): {share:.0f} % of the server's CPU"
    )


def options(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--tables", default=",".join(map(str, STEPS)), help="the steps of T (default 1,4,8,16,24,32)")
    ap.add_argument("--seconds", type=float, default=45.0, help="seconds of entries per step (default 45)")
    ap.add_argument("--pace", type=float, default=3.0, help="seconds between a table's entries (default 3)")
    ap.add_argument("--goal", type=float, default=GOAL_MS, help="p95 to stay under, ms (default 250)")
    ap.add_argument(
        "--drawn",
        type=int,
        default=PHONES,
        metavar="K",
        help=f"phones of the first table drawn in Chromium here (1 to {PHONES}, default {PHONES}); "
        "the others are sessions that draw nothing, as the other tables' phones",
    )
    ap.add_argument(
        "--nice-browsers",
        type=int,
        default=10,
        metavar="N",
        help="the drawn table's Chromium at niceness N (default 10): the server and the phones drawn elsewhere "
        "get the CPU first, as if those four phones drew on their own processors",
    )
    ap.add_argument(
        "--profile",
        type=int,
        metavar="T",
        help="cProfile the server's loop over the step of T tables (Linux: signals) and print where its time went "
        "(cProfile slows the server several times over: read its shares, not its times)",
    )
    ap.add_argument(
        "--keep-going",
        action="store_true",
        help="run every step even after one passed the goal (N is still the most tables under it)",
    )
    ap.add_argument("--top", type=int, default=25, help="functions shown by --profile (default 25)")
    ap.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    ap.add_argument("--app-root", type=Path, default=Path(__file__).resolve().parents[2], metavar="DIR")
    args = parse_args(ap, argv, SMOKE)
    try:
        args.app_root = app_root(args.app_root)
        args.steps = sorted({int(x) for x in str(args.tables).split(",") if x.strip()})
    except ValueError as e:
        ap.error(str(e))
    if not args.steps or args.steps[0] < 1:
        ap.error("--tables: whole numbers from 1")
    if not 1 <= args.drawn <= PHONES:
        ap.error(f"--drawn must be 1 to {PHONES}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    if missing := chromium_missing():
        print(missing, file=sys.stderr)
        return 2
    run = Capacity(args)
    best: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory(prefix="scorekeeper-capacity-") as tmp:
        try:
            run.start(tmp)
            for n in args.steps:
                s = run.step(n)
                run.steps.append(s)
                print(describe(s), flush=True)
                for p in s["problems"][:10]:
                    print(f"    problem: {p}", flush=True)
                xs = headline(s)
                if xs and pct(xs, 95) < args.goal and not s["missed"]:
                    best = s if best is None or s["tables"] > best["tables"] else best
                elif args.keep_going:
                    print(f"    p95 passed {args.goal:.0f} ms (or phones missed entries): --keep-going goes on")
                else:
                    print(f"    p95 passed {args.goal:.0f} ms (or phones missed entries): the steps stop here")
                    break
            if args.profile:
                show_profile(run, args.top)
        finally:
            run.stop()
    print(f"load average now {load_average()}")
    if args.json:
        Path(args.json).write_text(json.dumps(run.steps, indent=1, default=str), encoding="utf-8")
    if best is None:
        print(f"capacity: 0 tables (0 phones) at one entry per table every {args.pace:g} s: no step under the goal")
        return 0
    print(
        f"capacity: {best['tables']} tables ({best['phones']} phones) at one entry per table every {args.pace:g} s: "
        f"p95 {pct(headline(best), 95):.0f} ms to the other phones, server CPU {best['cpu']['server_pct']:.0f} %, "
        f"{best['ms_per_phone']:.1f} ms CPU per phone per entry"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
