"""The league server under the last night of a season: every club pushes at once.

    python -m benchmarks.league [--clubs 60] [--divisions 4] [--games 9] [--rate 200] [--seconds 10]
                                [--baseline REV] [--rounds N] [--club-processes N]

A season of ``--clubs`` teams (one a club, each at its own pub) in ``--divisions``
divisions, home and away, fixtures of ``--games`` singles, is made in a PostgreSQL
(``$DATABASE_URL``, else a throwaway cluster of Debian's ``postgresql``). Two processes of
``scorekeeper league serve`` run over it. Every club's outbox (the laptop's own files,
:mod:`scorekeeper.league.club`) is filled with the sheets of its home fixtures, each
confirmed by both captains, every game a real match record; then all the clubs push at
once (the last night of the season, all at 22:30), each through its own outbox with
:func:`scorekeeper.league.club.push`, half of them at each service process (club by club in turn, as a proxy would deal them:
:func:`service_of`):

- the network of a sixth of the clubs is cut for the first 3 seconds (their league's
  address leads nowhere), then restored (those clubs spread over the clubs' processes
  and the two services: :func:`cut_clubs`);
- when 40 % of the sheets are in, one service process is killed (SIGKILL): its clubs go
  to the other (as a proxy in front of several would send them), retrying with a backoff.

The clubs are ``--club-processes N`` processes (6 unless told; the clubs dealt two by
two, so that each process has clubs of both services: :func:`process_of`; each club a
thread), all let go at the same moment: sixty clubs are sixty
laptops, and sixty threads of one Python process wait on each other (the GIL, the
process's CPU), partly inside a push's time and partly between pushes, which thins the
load the services see. Each process sends every push's timing back to this one.
``--club-processes 1``: the clubs are threads of this process, as the benchmark
measured them before.

Then the table pages are asked for at ``--rate`` requests a second for ``--seconds``
seconds (open loop: each request sent at its time, whatever the others do).

It checks that nothing is lost or doubled (every fixture has one sheet and its result
approved; nothing left in an outbox) and that every division's table (the service's
JSON) equals a recount from the sheets' records, scored again here with the engine. Its
last line: ``league: S sheets from C clubs, lost 0, doubled 0, push p95 X ms, table page
p95 Y ms at R requests/s``. Goals: nothing lost or doubled, push p95 < 200 ms, table
page p95 < 50 ms at 200 requests/s.

A push's time is its club's: from the request sent to the answer read, for each push
that was answered. The backoff before a try again is not in it, and a request that got
no answer (the cut, the kill) is not timed: it is counted apart. Above each night's line
its breakdown: the push percentiles before and after the kill and of the clubs that had
met a failure; the service's own time as it says in ``Server-Timing`` (its queue for a
turn, the read, the check, the write, the thread's CPU, the whole) and what is outside
it (HTTP, the clubs' side); the CPU a push of the clubs (their processes and this one), the two services
and PostgreSQL (the throwaway cluster's processes), over the night.

``--baseline REV`` measures the services of git revision ``REV`` in the same run (its
files taken with ``git archive``; the clubs, the load and the database are this
checkout's): first what one push and one table page cost a service one request at a
time (median wall time, and the service's CPU time a request where Linux's ``/proc``
says it), for ``REV`` and for this checkout; then the night, ``--rounds`` times, the two
in turn (the baseline first, then this checkout first ...), each in a PostgreSQL schema
of its own. Every line is printed again at the end, the baseline's first: the last line
is this checkout's last night.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import io
import json
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper import registry
from scorekeeper.league import club
from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate
from scorekeeper.league.sheets import FORMAT, digest

#: This checkout (its services are run from it, and its clubs' code is its own: see :func:`main`).
ROOT = Path(__file__).resolve().parents[1]

CUT_SECONDS = 3.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def service_of(i: int) -> int:
    """Club ``i``'s service (0 or 1): dealt club by club in turn, as a proxy in front of the
    two would deal them; each club chooses alone, whatever process it runs in."""
    return i % 2


def process_of(i: int, n: int) -> int:
    """Club ``i``'s process of ``n``: the clubs dealt two by two (0 and 1 to the first, 2
    and 3 to the next ...), so that each process has clubs of both services."""
    return (i // 2) % n


def cut_clubs(clubs: int, n: int) -> set[int]:
    """The clubs whose network is cut (a sixth of them): dealt over the ``n`` processes in
    turn and over the two services in turn, spread over the league (the ``j``-th is the first
    club from club ``6j`` on that is in process ``j mod n`` and at service ``j mod 2``)."""
    cut: set[int] = set()
    for j in range(clubs // 6):
        order = [(6 * j + d) % clubs for d in range(clubs)]
        free = [i for i in order if i not in cut]
        best = [i for i in free if process_of(i, n) == j % n and service_of(i) == j % 2]
        near = [i for i in free if process_of(i, n) == j % n]
        cut.add((best or near or free)[0])
    return cut


def plan(clubs: int, divisions: int, games: int) -> dict[str, Any]:
    per = clubs // divisions
    divs = [
        {
            "name": f"Division {d + 1}",
            "teams": [
                {
                    "name": f"Team {n}",
                    "club": f"Club {n}",
                    "venue": f"Pub {n}",
                    "players": [f"P{n}a", f"P{n}b", f"P{n}c"],
                }
                for n in range(d * per, (d + 1) * per)
            ],
        }
        for d in range(divisions)
    ]
    return {
        "name": "Benchmark season",
        "game": "all-fives",
        "singles": games,
        "starts": "2026-09-07",
        "divisions": divs,
    }


def record(home: str, away: str, winner: int) -> dict[str, Any]:
    leader = (home, away)[winner]
    return {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": [home, away],
        "rules": {"target": 5},
        "hands": [{"leader": leader, "turns": [{"play": "5-0"}]}],
    }


def sheet_of(f: Any, games: int, seed: int) -> dict[str, Any]:
    rows = []
    winners = [(seed * 7 + i * 3 + f.id) % 2 for i in range(games)]
    for i, w in enumerate(winners):
        h, a = f.home.players[i % 3], f.away.players[(i + i // 3) % 3]
        rows.append({"home": [h], "away": [a], "scores": [5, 0] if w == 0 else [0, 5], "record": record(h, a, w)})
    return {
        "format": FORMAT,
        "fixture": f.id,
        "home": f.home.name,
        "away": f.away.name,
        "games": rows,
        "totals": {
            "games": [winners.count(0), winners.count(1)],
            "points": [5 * winners.count(0), 5 * winners.count(1)],
        },
        "confirmed": {
            "home": {"by": f.home.captain, "at": "2026-11-29T22:30:00Z"},
            "away": {"by": f.away.captain, "at": "2026-11-29T22:30:00Z"},
        },
    }


def serve(url: str, port: int, code: Path | None = None) -> subprocess.Popen[bytes]:
    """``scorekeeper league serve`` on ``port``: this checkout's, or the one in ``code``."""
    cmd = [sys.executable, "-m", "scorekeeper", "league", "serve", "--database", url, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": str(code or ROOT)}
    cwd = str(code or ROOT)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the service on port {port} did not start: {proc.stderr.read().decode() if proc.stderr else ''}")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))] * 1000 if ordered else 0.0


class Night:
    """The clubs' pushes (see the module): each answered push's time, as its club saw it
    (from the request sent to the answer read: not the backoff before a try again, and a
    request that got no answer is not timed), with what the service said it spent
    (``Server-Timing``, where it says)."""

    def __init__(
        self, folders: list[Path], urls: list[str], cut: set[int], answered: Any = None, killed: Any = None
    ) -> None:
        self.folders, self.urls, self.cut = folders, urls, cut
        self.timings: list[float] = []
        self.pushes: list[Push] = []
        self.failed: list[float] = []
        self.lock = threading.Lock()
        self.started = time.monotonic()
        # The answers counted, and the kill's time.perf_counter() (CLOCK_MONOTONIC: the same in
        # every process): this process's own, or shared with the other clubs' processes.
        self.answered = Cell(0) if answered is None else answered
        self.killed = Cell(float("inf")) if killed is None else killed

    def club(self, i: int) -> None:
        folder = self.folders[i]
        lk = club.link_of(folder)
        assert lk is not None
        mine = self.urls[service_of(i)]
        pause = 0.05
        tried = [False]

        def observe(started: float, seconds: float, headers: dict[str, str]) -> None:
            service = server_timing(headers.get("server-timing", ""))
            after_kill = started >= self.killed.value
            with self.lock:
                self.timings.append(seconds)
                self.pushes.append(Push(started, seconds, after_kill, tried[0], service))
            with self.answered.get_lock():
                self.answered.value += 1

        saved = lk.url
        while club.outbox(folder) and time.monotonic() - self.started < 300:
            cut = i in self.cut and time.monotonic() - self.started < CUT_SECONDS
            url = "http://127.0.0.1:9" if cut else mine
            if url != saved:  # the link written when its address changes (the cut, the proxy's switch) alone
                club.save_link(folder, club.Link(url, lk.code, lk.club, lk.fixtures))
                saved = url
            t = time.perf_counter()
            done = club.push(folder, observe)
            if done.left:
                tried[0] = True
                with self.lock:
                    self.failed.append(time.perf_counter() - t)
                if not cut and "cannot be reached" in done.problem:
                    mine = next(u for u in self.urls if u != mine)  # the proxy sends it to the other process
                time.sleep(pause)
                pause = min(1.0, pause * 2)


class Cell:
    """A value shared by this process's threads, with the face of a ``multiprocessing.Value``."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self._lock = threading.Lock()

    def get_lock(self) -> threading.Lock:
        return self._lock


def clubs_process(k: int, n: int, clubs: tuple[list[Path], list[str], set[int]], shared: tuple[Any, ...]) -> None:
    """The ``k``-th of ``n`` clubs' processes: the night's clubs that are its own
    (:func:`process_of`) as threads, all let go at once; its pushes, failures and CPU sent
    back."""
    answered, killed, start, go, ready, out = shared
    night = Night(*clubs, answered, killed)

    def run(i: int) -> None:
        go.wait()
        night.started = start.value
        night.club(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(night.folders)) if process_of(i, n) == k]
    for th in threads:
        th.start()
    ready.put(k)
    go.wait()
    cpu = Cpu.own()
    for th in threads:
        th.join()
    out.put((k, [dataclasses.astuple(p) for p in night.pushes], night.failed, Cpu.own() - cpu))


class Crowd:
    """The clubs of ``night`` in ``n`` processes (:func:`clubs_process`), started and ready,
    waiting for :meth:`go`."""

    def __init__(self, night: Night, n: int) -> None:
        ctx = multiprocessing.get_context("spawn")  # not fork: this process holds connections
        self.night, self.n = night, n
        night.answered, night.killed = ctx.Value("i", 0), ctx.Value("d", float("inf"))
        self.start, self.go_, self.ready, self.out = ctx.Value("d", 0.0), ctx.Event(), ctx.Queue(), ctx.Queue()
        shared = (night.answered, night.killed, self.start, self.go_, self.ready, self.out)
        self.procs = [
            ctx.Process(target=clubs_process, args=(k, n, (night.folders, night.urls, night.cut), shared), daemon=True)
            for k in range(n)
        ]
        for p in self.procs:
            p.start()
        for _ in self.procs:
            self.ready.get(timeout=120)
        self.cpu = 0.0

    def go(self) -> None:
        self.start.value = self.night.started = time.monotonic()
        self.go_.set()

    def alive(self) -> bool:
        return any(p.is_alive() for p in self.procs)

    def join(self) -> None:
        """Every process's pushes into ``night``, their CPU into ``cpu``."""
        for _ in self.procs:
            _, pushes, failed, cpu = self.out.get(timeout=600)
            self.night.pushes += [Push(*p) for p in pushes]
            self.night.failed += failed
            self.cpu += cpu
        self.night.timings = [p.seconds for p in self.night.pushes]
        for p in self.procs:
            p.join(timeout=30)


@dataclass(frozen=True)
class Push:
    """One answered push: sent at ``started`` (``time.perf_counter``), its seconds as the club
    saw them, whether it was sent after the kill, whether its club had met a failure before
    (the cut, or the kill), and the service's ``Server-Timing`` (seconds by name)."""

    started: float
    seconds: float
    after_kill: bool
    after_failure: bool
    service: dict[str, float]


def server_timing(header: str) -> dict[str, float]:
    """``Server-Timing: app;dur=3.1, write;dur=1.2`` as seconds by name."""
    out = {}
    for part in header.split(","):
        name, _, rest = part.strip().partition(";")
        if rest.startswith("dur="):
            try:
                out[name] = float(rest[4:]) / 1000
            except ValueError:
                continue
    return out


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in ms (the same rank as :func:`p95`)."""
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] * 1000 if ordered else 0.0


def breakdown(n: Night, cpu: dict[str, float], sheets: int) -> list[str]:
    """Where a push's time went in the night: lines to print."""

    def spread(values: list[float]) -> str:
        return f"p50 {pct(values, 0.5):.0f} p95 {pct(values, 0.95):.0f} ms" if values else "-"

    before = [p.seconds for p in n.pushes if not p.after_kill]
    after = [p.seconds for p in n.pushes if p.after_kill]
    again = [p.seconds for p in n.pushes if p.after_failure]
    first = [p.seconds for p in n.pushes if p.started - n.started < 1.0]
    lines = [
        f"  push: before the kill {spread(before)} ({len(before)}), after it {spread(after)} ({len(after)}), "
        f"of clubs that had met a failure {spread(again)} ({len(again)}), sent in the night's first second "
        f"{spread(first)} ({len(first)}); {len(n.failed)} rounds ended by a failure (the cut, the kill), not timed"
    ]
    told = [p for p in n.pushes if "app" in p.service]
    if told:
        parts = ["app", "queue", "read", "check", "write", "cpu"]
        said = ", ".join(
            f"{k} {spread([p.service[k] for p in told if k in p.service]).replace(' ms', '')}"
            for k in parts
            if any(k in p.service for p in told)
        )
        outside = [p.seconds - p.service["app"] for p in told]
        lines.append(
            f"  the service's own time (Server-Timing, ms): {said}; outside it (HTTP, the clubs): {spread(outside)}"
        )
    else:
        lines.append("  the service's own time: not told (no Server-Timing)")
    if cpu:
        each = ", ".join(f"{k} {v / sheets * 1000:.2f}" for k, v in cpu.items())
        lines.append(f"  CPU a push (ms, the night's CPU over its {sheets} sheets): {each}")
    return lines


class Start:
    """The cores each part of the night used in its first :data:`START_SECONDS` (the
    clubs' processes, the services, PostgreSQL, and what else the machine ran: its busy
    time in ``/proc/stat`` less theirs), sampled by a thread of its own: one line."""

    def __init__(self, parts: dict[str, Any]) -> None:
        self.parts = parts  # name: a function answering CPU seconds so far (None: not known)
        self.line = ""
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _sample(self) -> None:
        t, before = time.monotonic(), {k: f() for k, f in self.parts.items()}
        busy = machine_busy()
        time.sleep(START_SECONDS)
        after = {k: f() for k, f in self.parts.items()}
        seconds, busy_after = time.monotonic() - t, machine_busy()
        used = {k: after[k] - v for k, v in before.items() if v is not None and after[k] is not None}
        words = [f"{k} {v / seconds:.2f}" for k, v in used.items()]
        if busy is not None and busy_after is not None:
            words.append(f"the machine's other work {max(0.0, busy_after - busy - sum(used.values())) / seconds:.2f}")
        self.line = f"  the night's first {START_SECONDS} s, CPU in cores: {', '.join(words)}"

    def join(self) -> str:
        self.thread.join(timeout=START_SECONDS + 5)
        return self.line


def total(values: list[float | None]) -> float | None:
    """The sum, or None when one is not known (a process gone: the killed service)."""
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


#: The start of the night whose CPU :class:`Start` tells.
START_SECONDS = 0.5


def machine_busy() -> float | None:
    """The machine's busy CPU seconds so far, all cores (Linux's /proc/stat)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait
    except (OSError, ValueError, IndexError):
        return None


def postgres_cpu(data: Path | None) -> float | None:
    """The CPU seconds so far of the PostgreSQL cluster whose data folder is ``data``: its
    postmaster, the children it has reaped, and those still running (Linux's /proc)."""
    if data is None:
        return None
    try:
        pm = int((data / "postmaster.pid").read_text().split()[0])
        tck = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", encoding="ascii") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(entry.name) == pm:
                total += sum(int(x) for x in fields[11:15]) / tck
            elif int(fields[1]) == pm:
                total += (int(fields[11]) + int(fields[12])) / tck
        return total
    except (OSError, ValueError, IndexError):
        return None


def load(urls: list[str], paths: list[str], rate: int, seconds: float) -> tuple[list[float], int]:
    """Open-loop GETs of ``paths`` at ``rate`` a second: each request's seconds, and the errors."""
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    total = int(rate * seconds)
    start = time.monotonic() + 0.2
    workers = 24

    def worker(k: int) -> None:
        conns: dict[str, http.client.HTTPConnection] = {}
        for n in range(k, total, workers):
            at = start + n / rate
            wait = at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            url = urls[n % len(urls)]
            host, port = url.removeprefix("http://").split(":")
            conn = conns.get(url) or http.client.HTTPConnection(host, int(port), timeout=10)
            conns[url] = conn
            t = time.perf_counter()
            try:
                conn.request("GET", paths[n % len(paths)])
                r = conn.getresponse()
                r.read()
                ok = r.status == 200
            except OSError:
                ok = False
                conns.pop(url, None)
            with lock:
                if ok:
                    times.append(time.perf_counter() - t)
                else:
                    errors[0] += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, errors[0]


def recount(lg: League, division: int) -> dict[str, tuple[int, int]]:
    """Each team's score and games won, from the sheets' records scored again here (2 a match
    won, 1 a draw, 1 a game won: the season's scoring)."""
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for f in lg.fixtures(division=division):
        body = lg.db.read(lambda tx, f=f: tx.value("SELECT body FROM sheet WHERE fixture_id = ?", (f.id,)))
        if body is None:
            continue
        won = [0, 0]
        for g in json.loads(body)["games"]:
            scored = registry.game_of(g["record"]).score(g["record"])
            won[0 if scored["winner"] == g["home"][0] else 1] += 1
        for i, team in enumerate((f.home.name, f.away.name)):
            rows[team][0] += won[i] + (2 if won[i] > won[1 - i] else 1 if won[i] == won[1 - i] else 0)
            rows[team][1] += won[i]
    return {k: (v[0], v[1]) for k, v in rows.items()}


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections work in ``schema`` (made here when it is not there)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


def code_of(rev: str, into: Path) -> Path:
    """The project's files at git revision ``rev``, in a new folder of ``into``."""
    folder = into / f"code-{rev}"
    folder.mkdir()
    tar = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True, check=False)
    if tar.returncode != 0:
        raise SystemExit(f"--baseline {rev}: git archive failed: {tar.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
        t.extractall(folder, filter="data")
    return folder


def night(url: str, args: argparse.Namespace, base: Path, code: Path | None) -> tuple[str, list[str]]:
    """One night of the season (see the module) over the database at ``url``, its two
    services run from ``code`` (None: this checkout): the figures' line, and the lines of
    its breakdown (:func:`breakdown`)."""
    procs: list[subprocess.Popen[bytes]] = []
    db = connect(url)
    try:
        migrate(db)
        lg = League(db)
        t = time.perf_counter()
        sid = lg.add_season(plan(args.clubs, args.divisions, args.games), "the benchmark")
        print(f"season made: {len(lg.fixtures())} fixtures in {time.perf_counter() - t:.1f} s")
        ports = [free_port(), free_port()]
        procs = [serve(url, p, code) for p in ports]
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        teams = {t.club_id: t for t in lg.teams()}
        folders = []
        sheets = 0
        fixtures = lg.fixtures()
        for i, c in enumerate(lg.clubs()):
            folder = base / f"club-{i}"
            folder.mkdir()
            club.save_link(folder, club.Link(urls[service_of(i)], lg.new_code(c.id, "the benchmark"), c.name, {}))
            for f in fixtures:
                if f.home.id == teams[c.id].id:
                    club.enqueue(folder, f.id, sheet_of(f, args.games, f.week))
                    sheets += 1
            folders.append(folder)
        n = max(1, min(args.club_processes, len(folders)))
        pushes = Night(folders, urls, cut_clubs(len(folders), n))
        crowd = Crowd(pushes, n) if n > 1 else None
        threads = [] if crowd else [threading.Thread(target=pushes.club, args=(i,)) for i in range(len(folders))]
        cpu = Cpu(procs, args.pg_data)
        clubs_cpu = (lambda: total([cpu_seconds(p.pid) for p in crowd.procs])) if crowd else Cpu.own
        start = Start(
            {
                "the clubs": clubs_cpu,
                "the services": lambda: total([cpu_seconds(p.pid) for p in procs]),
                "PostgreSQL": lambda: postgres_cpu(args.pg_data),
                **({"the benchmark": Cpu.own} if crowd else {}),
            }
        )
        t = time.perf_counter()
        if crowd:
            crowd.go()
        start.start()
        for th in threads:
            th.start()
        deadline = time.monotonic() + 300
        while pushes.answered.value < sheets * 0.4:  # 40 % in (counted, not the outboxes listed: the clubs' CPU)
            if time.monotonic() > deadline or (crowd and not crowd.alive()):
                raise SystemExit("the clubs stopped before 40 % of the sheets were in")
            time.sleep(0.01)
        cpu.before_kill(procs[0])
        pushes.killed.value = time.perf_counter()
        procs[0].send_signal(signal.SIGKILL)
        print(f"killed the service on port {ports[0]} at {time.perf_counter() - t:.1f} s")
        for th in threads:
            th.join()
        if crowd:
            crowd.join()
        pushed = time.perf_counter() - t
        spent = cpu.spent(crowd.cpu if crowd else 0.0)
        print(f"pushed {sheets} sheets in {pushed:.1f} s ({len(pushes.timings)} requests)")
        each = sorted({sum(process_of(i, n) == k for i in range(len(folders))) for k in range(n)})
        where = f"{n} processes of {'-'.join(map(str, each))} threads" if n > 1 else "threads of one process"
        lines = [f"  the clubs: {len(folders)} in {where}", *breakdown(pushes, spent, sheets), start.join()]
        print("\n".join(lines))
        lost, doubled = accounted(lg, sid, folders, sheets, urls[1])
        paths = [f"/divisions/{d.id}" for d in lg.divisions(sid)]
        times, errors = load([urls[1]], paths, args.rate, args.seconds)
        print(f"table pages: {len(times)} answered, {errors} failed")
        return (
            f"league: {sheets} sheets from {len(folders)} clubs, lost {lost}, doubled {doubled}, "
            f"push p95 {p95(pushes.timings):.0f} ms, table page p95 {p95(times):.0f} ms at {args.rate} requests/s"
        ), lines
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=10)
        db.close()


class Cpu:
    """The CPU seconds the night's pushes took: the clubs (this process: their threads, or
    their processes', and the kill's watch), each service process (the killed one until its
    kill) and PostgreSQL."""

    def __init__(self, procs: list[subprocess.Popen[bytes]], pg_data: Path | None) -> None:
        self.procs, self.pg_data = procs, pg_data
        self.clubs = self.own()
        self.services = {p.pid: cpu_seconds(p.pid) for p in procs}
        self.pg = postgres_cpu(pg_data)
        self.killed: dict[int, float | None] = {}

    @staticmethod
    def own() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    def before_kill(self, proc: subprocess.Popen[bytes]) -> None:
        self.killed[proc.pid] = cpu_seconds(proc.pid)

    def spent(self, clubs: float = 0.0) -> dict[str, float]:
        """``clubs``: the CPU seconds of the clubs' own processes, told by them."""
        out = {"clubs": self.own() - self.clubs + clubs}
        services = 0.0
        for p in self.procs:
            start, end = self.services[p.pid], self.killed.get(p.pid) or cpu_seconds(p.pid)
            if start is None or end is None:
                return out
            services += end - start
        out["services"] = services
        pg = postgres_cpu(self.pg_data)
        if pg is not None and self.pg is not None:
            out["PostgreSQL"] = pg - self.pg
        return out


def cpu_seconds(pid: int) -> float | None:
    """A process's CPU seconds so far (Linux's /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None


def alone(url: str, args: argparse.Namespace, code: Path | None, n: int = 300) -> str:
    """What one push and one table page cost the service, one request at a time (no other
    club, one service process, one kept connection): the median wall time of each and
    the service's CPU time a request."""
    db = connect(url)
    proc = None
    try:
        migrate(db)
        lg = League(db)
        lg.add_season(plan(args.clubs, args.divisions, args.games), "the benchmark")
        codes = {c.id: lg.new_code(c.id, "the benchmark") for c in lg.clubs()}
        port = free_port()
        proc = serve(url, port, code)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def ask(method: str, path: str, body: bytes | None = None, code: str = "") -> float:
            t = time.perf_counter()
            conn.request(method, path, body=body, headers={"Authorization": f"Bearer {code}"} if code else {})
            r = conn.getresponse()
            r.read()
            if r.status not in (200, 201):
                raise SystemExit(f"{method} {path}: {r.status}")
            return time.perf_counter() - t

        fixtures = lg.fixtures()[: n + 20]
        puts = []
        for f in fixtures:
            doc = sheet_of(f, args.games, f.week)
            path = f"/api/fixtures/{f.id}/sheets/{digest(doc)}"
            puts.append((path, json.dumps(doc).encode("utf-8"), codes[f.home.club_id]))
        for path, body, key in puts[:20]:  # warm: the engines loaded, the statements prepared
            ask("PUT", path, body, key)
        before = cpu_seconds(proc.pid)
        push = [ask("PUT", path, body, key) for path, body, key in puts[20:]]
        middle = cpu_seconds(proc.pid)
        page = f"/divisions/{lg.divisions()[0].id}"
        ask("GET", page)
        middle2 = cpu_seconds(proc.pid)
        pages = [ask("GET", page) for _ in range(n * 3)]
        after = cpu_seconds(proc.pid)
        cpu = ""
        if before is not None and middle is not None and middle2 is not None and after is not None:
            cpu = f" (service CPU {(middle - before) / len(push) * 1000:.2f} ms)"
            page_cpu = f" (service CPU {(after - middle2) / len(pages) * 1000:.2f} ms)"
        else:
            page_cpu = ""
        return (
            f"one at a time: a push {statistics.median(push) * 1000:.2f} ms{cpu}, "
            f"a table page {statistics.median(pages) * 1000:.2f} ms{page_cpu}"
        )
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        db.close()


def accounted(lg: League, sid: int, folders: list[Path], sheets: int, url: str) -> tuple[int, int]:
    """The sheets lost and doubled: left in an outbox, stored twice, not approved, or a
    division's table (the service's JSON) that is not the recount from the records."""
    left = sum(len(club.outbox(f)) for f in folders)
    stored = lg.db.read(lambda tx: tx.value("SELECT COUNT(*) FROM sheet"))
    fixtures_in = lg.db.read(lambda tx: tx.value("SELECT COUNT(DISTINCT fixture_id) FROM sheet"))
    approved = lg.db.read(lambda tx: tx.value("SELECT COUNT(*) FROM result WHERE state = 'approved'"))
    doubled = int(stored) - int(fixtures_in)
    lost = left + (sheets - int(approved))
    for d in lg.divisions(sid):
        host, port = url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        conn.request("GET", f"/divisions/{d.id}.json")
        table = json.loads(conn.getresponse().read())["table"]
        served = {r["team"]: (r["score"], r["games_for"]) for r in table}
        if served != recount(lg, d.id):
            print(f"the table of {d.name} is not the recount")
            lost += 1
    return lost, doubled


def main() -> None:
    if Path(registry.__file__).resolve().parents[1] != ROOT:
        # run as ``python benchmarks/league.py``: the scorekeeper imported is an installed copy
        # (an editable install may be another checkout's), so the clubs' code would not be this
        # checkout's; run again as a module from this checkout's root
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "benchmarks.league", *sys.argv[1:]])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clubs", type=int, default=60)
    ap.add_argument("--divisions", type=int, default=4)
    ap.add_argument("--games", type=int, default=9)
    ap.add_argument("--rate", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument(
        "--baseline",
        metavar="REV",
        help="first the same night with the services of git revision REV (the clubs and the load are this "
        "checkout's), then with this checkout's: both lines printed, this checkout's last",
    )
    ap.add_argument("--rounds", type=int, default=1, help="nights run (with --baseline, the two in turn)")
    ap.add_argument(
        "--club-processes",
        type=int,
        default=6,
        metavar="N",
        help="the clubs run in N processes, each its share as threads (1: all as threads of this process)",
    )
    args = ap.parse_args()
    cluster = None
    url = os.environ.get("DATABASE_URL")
    if not url:
        from scorekeeper.league.throwaway import Cluster

        cluster = Cluster().start()
        url = cluster.url
    args.pg_data = cluster.data if cluster is not None else None
    base = Path(tempfile.mkdtemp(prefix="league-bench-"))
    try:
        code = code_of(args.baseline, base) if args.baseline else None
        lines = []
        if code is not None:
            lines.append(
                ("baseline", f"baseline {args.baseline}: {alone(with_schema(url, 'alone_baseline'), args, code)}")
            )
            lines.append(("now", alone(with_schema(url, "alone_now"), args, None)))
            print("\n".join(line for _, line in lines))
        for n in range(args.rounds):
            kinds = [("baseline", code), ("now", None)] if code is not None else [("now", None)]
            for kind, where in kinds if n % 2 == 0 else kinds[::-1]:
                print(f"round {n + 1}: the services of {args.baseline if where else 'this checkout'}")
                folder = base / f"{kind}-{n}"
                folder.mkdir()
                url_n = with_schema(url, f"bench_{kind}_{n}") if code is not None or args.rounds > 1 else url
                said, told = night(url_n, args, folder, where)
                lines += [(kind, line) for line in told]
                lines.append((kind, f"baseline {args.baseline}: {said}" if where else said))
        for _, line in sorted(lines, key=lambda kl: kl[0] == "now"):  # this checkout's last
            print(line)
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
