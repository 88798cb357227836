"""Durable append latency: our match store vs naive TinyDB vs SQLite (WAL).

    python -m benchmarks.store [--sizes 10,1000,10000] [--k K]
                 [--k-tinydb-10k 20] [--rounds 3] [--distinct 200] [--seed S]
                 [--backends ours,tinydb-naive,sqlite,tinydb-atomic] [--tmp DIR]

What one *append* costs -- one entry of a match that people are playing,
durable when the call returns -- while the store already holds a history of N
matches, for N in ``--sizes``.  Backends:

* ``ours``: ``scorekeeper.store.Store``; seeded with ``bulk_import``; the
  fresh match made with ``create``; timed: ``store.append(mid, entry)``.
* ``tinydb-naive``: plain ``TinyDB(path)`` with its default ``JSONStorage``,
  all matches as documents ``{"record": record}`` of one table in one JSON
  file (seeded with one ``insert_multiple``, i.e. one write); timed: the
  naive app's append -- the entry is appended to the match's record in
  memory and ``table.update({"record": rec}, doc_ids=[id])`` is called,
  which re-reads and re-writes the whole file.  Whether JSONStorage fsyncs
  is checked at run time and printed (TinyDB 4.x does ``flush`` +
  ``os.fsync`` of the file, but writes in place: no temp file, no rename, no
  directory fsync, so a crash mid-write can lose the whole file).
* ``tinydb-atomic`` (extra, not in the last line): the same naive TinyDB use,
  with a storage that writes like ours (temp file + fsync + ``os.replace``
  + directory fsync): the like-for-like durability of the naive design.
* ``sqlite``: ``sqlite3`` with ``journal_mode=WAL`` and ``synchronous=FULL``,
  tables ``matches(id, record TEXT)`` (N rows: each seeded record) and
  ``entries(match_id TEXT, seq INTEGER, entry TEXT, PRIMARY KEY(match_id,
  seq))`` (also seeded with every seeded match's entries, so the index an
  append goes into is as big as a real app's); checkpointed after seeding;
  timed: one ``INSERT`` of the entry's JSON + ``commit`` -- what one durable
  commit costs on this machine.

Games: ``random_record(seed, players=2|4, teams=players==4, max_hands=3)``;
``--distinct`` different records (200 by default, alternating 2 and 4
players) are reused cyclically to seed N matches.  The appended games are
4-player records with 60..100 entries, split by
``scorekeeper.store.entries_of``; every backend appends the same entries
(TinyDB grows the record itself, hand by hand, turn by turn).

Timing: per N, the backends are seeded (untimed: the wall time is printed,
and so is that of ``create``; neither is in the append figures), then
``os.sync()``, so that no writeback of the seed competes with the timed
appends.  Each append is timed alone with ``time.perf_counter``.  ours and
sqlite are timed together, taking turns append by append (alternating which
goes first), so both see the same background load -- the machine may be
shared, and fsync latency moves with it; they append ``--rounds`` fresh
games each (3: about 200 appends).  The TinyDB backends are timed apart,
afterwards, on the first game only; at N >= 10,000 each of their appends
rewrites a file of ~20 MB, so their K there is capped (``--k-tinydb-10k``).
Reported per backend and N: median, p95 (nearest rank) and max in ms.
Scratch directories live under ``--tmp`` (default: the system temp dir) and
are removed afterwards.

The last line is exactly
``append p95 ms @10k: ours X, tinydb-naive Y, sqlite Z`` (``n/a`` where a
backend could not be measured).  The goal: ours at 10k within 2x of ours at
10 (flat), and within 3x of sqlite at 10k.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import json
import math
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from scorekeeper.allfives import random_record

MAIN_BACKENDS = ("ours", "tinydb-naive", "sqlite")


# ---------------------------------------------------------------- the games


def game(seed: int, players: int) -> dict:
    return random_record(seed, players=players, teams=players == 4, max_hands=3)


def make_pool(distinct: int, seed: int) -> list[dict]:
    return [game(seed * 1_000_003 + i, 2 if i % 2 == 0 else 4) for i in range(distinct)]


def header_of(record: dict) -> dict:
    """The record as created: its envelope, no hands yet."""
    h = {k: copy.deepcopy(v) for k, v in record.items() if k != "hands"}
    h["hands"] = []
    return h


def growth_steps(record: dict) -> list[Callable[[dict], None]]:
    """What a naive app does to its in-memory record per entry, in order:
    start a hand, append a turn, write the hand's remaining tiles."""
    steps: list[Callable[[dict], None]] = []
    for hand in record["hands"]:
        start = {k: v for k, v in hand.items() if k not in ("turns", "remaining")}
        steps.append(lambda rec, s=start: rec["hands"].append({**copy.deepcopy(s), "turns": []}))
        for turn in hand["turns"]:
            steps.append(lambda rec, t=turn: rec["hands"][-1]["turns"].append(dict(t)))
        if "remaining" in hand:
            steps.append(lambda rec, r=hand["remaining"]: rec["hands"][-1].__setitem__("remaining", copy.deepcopy(r)))
    return steps


def _entries_fallback(record: dict) -> list[dict]:
    """Stand-in for ``scorekeeper.store.entries_of`` while the store is missing."""
    out: list[dict] = []
    for hand in record["hands"]:
        out.append({"hand": {k: v for k, v in hand.items() if k not in ("turns", "remaining")}})
        out.extend({"turn": t} for t in hand["turns"])
        if "remaining" in hand:
            out.append({"remaining": hand["remaining"]})
    return out


def entries_of_store(record: dict) -> list[dict]:
    from scorekeeper.store import entries_of

    return entries_of(record)


def load_store():
    """(Store, entries_of, None) or (None, fallback entries_of, why)."""
    try:
        from scorekeeper.store import Store, entries_of
    except Exception as e:  # the store may not exist yet: baselines still run
        return None, _entries_fallback, f"{type(e).__name__}: {e}"
    return Store, entries_of, None


def fresh_games(seed: int, count: int, entries_of) -> list[dict]:
    """The appended games: 4-player records with 60..100 entries each."""
    out = []
    for i in range(100_000):
        rec = game(seed * 7_919 + 500_000 + i, 4)
        if 60 <= len(entries_of(rec)) <= 100:
            out.append(rec)
            if len(out) == count:
                return out
    raise RuntimeError("not enough records with 60..100 entries")


# ---------------------------------------------------------------- backends


class Ours:
    name = "ours"

    def __init__(self, root: str, Store) -> None:
        self.store = Store(os.path.join(root, "store"))
        if getattr(self.store, "problems", None):
            raise RuntimeError(f"a fresh store reports problems: {self.store.problems}")

    def seed(self, records: list[dict], entries_of) -> None:
        self.store.bulk_import(records)

    def create(self, header: dict, record: dict, entries_of):
        return self.store.create(header), entries_of(record)

    def append(self, mid, item) -> None:
        self.store.append(mid, item)

    def check(self, mid, record: dict, items: list, k: int) -> str | None:
        if hasattr(self.store, "record") and entries_of_store(self.store.record(mid)) != items[:k]:
            return "stored record differs from the appended entries"
        return None

    def count(self) -> int | None:
        return self.store.count() if hasattr(self.store, "count") else None

    def close(self) -> None:
        self.store.close()


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_storage_class():
    from tinydb.storages import Storage

    class AtomicJSONStorage(Storage):
        """JSON in one file, rewritten like ours: temp + fsync + replace + dir fsync."""

        def __init__(self, path: str, **_: Any) -> None:
            self.path = path
            self.dir = os.path.dirname(os.path.abspath(path))

        def read(self):
            try:
                with open(self.path, encoding="utf-8") as f:
                    return json.load(f)
            except FileNotFoundError:
                return None

        def write(self, data) -> None:
            tmp = self.path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(data))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            _fsync_dir(self.dir)

        def close(self) -> None:
            pass

    return AtomicJSONStorage


class TinyNaive:
    name = "tinydb-naive"

    def __init__(self, root: str, storage=None) -> None:
        from tinydb import TinyDB

        path = os.path.join(root, "matches.json")
        self.db = TinyDB(path) if storage is None else TinyDB(path, storage=storage)
        self.table = self.db.table("matches")
        self.recs: dict[int, dict] = {}  # the app's in-memory record of each open match

    def seed(self, records: list[dict], entries_of) -> None:
        self.table.insert_multiple({"record": r} for r in records)

    def create(self, header: dict, record: dict, entries_of):
        rec = copy.deepcopy(header)
        doc_id = self.table.insert({"record": rec})
        self.recs[doc_id] = rec
        return doc_id, growth_steps(record)

    def append(self, doc_id, step) -> None:
        rec = self.recs[doc_id]
        step(rec)
        self.table.update({"record": rec}, doc_ids=[doc_id])

    def check(self, doc_id, record: dict, items: list, k: int) -> str | None:
        want = header_of(record)
        for step in growth_steps(record)[:k]:
            step(want)
        if self.table.get(doc_id=doc_id)["record"] != want:
            return "stored record differs from the expected prefix"
        return None

    def count(self) -> int | None:
        return len(self.table)

    def close(self) -> None:
        self.db.close()


class TinyAtomic(TinyNaive):
    name = "tinydb-atomic"

    def __init__(self, root: str) -> None:
        super().__init__(root, storage=_atomic_storage_class())


class SQLite:
    name = "sqlite"

    def __init__(self, root: str) -> None:
        self.conn = sqlite3.connect(os.path.join(root, "matches.sqlite3"))
        mode = self.conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise RuntimeError(f"journal_mode is {mode}, not wal")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("CREATE TABLE matches(id TEXT PRIMARY KEY, record TEXT)")
        self.conn.execute("CREATE TABLE entries(match_id TEXT, seq INTEGER, entry TEXT, PRIMARY KEY(match_id, seq))")
        self.conn.commit()
        self.seq: dict[str, int] = {}

    def seed(self, records: list[dict], entries_of) -> None:
        cache: dict[int, tuple[str, list[str]]] = {}
        for r in records:
            if id(r) not in cache:
                cache[id(r)] = (json.dumps(r), [json.dumps(e) for e in entries_of(r)])
        self.conn.executemany(
            "INSERT INTO matches VALUES (?, ?)", ((f"m{i:06d}", cache[id(r)][0]) for i, r in enumerate(records))
        )
        self.conn.executemany(
            "INSERT INTO entries VALUES (?, ?, ?)",
            ((f"m{i:06d}", seq, e) for i, r in enumerate(records) for seq, e in enumerate(cache[id(r)][1])),
        )
        self.conn.commit()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def create(self, header: dict, record: dict, entries_of):
        mid = f"fresh{len(self.seq)}"
        self.seq[mid] = 0
        self.conn.execute("INSERT INTO matches VALUES (?, ?)", (mid, json.dumps(header)))
        self.conn.commit()
        return mid, entries_of(record)

    def append(self, mid, entry) -> None:
        self.conn.execute("INSERT INTO entries VALUES (?, ?, ?)", (mid, self.seq[mid], json.dumps(entry)))
        self.conn.commit()
        self.seq[mid] += 1

    def check(self, mid, record: dict, items: list, k: int) -> str | None:
        rows = self.conn.execute("SELECT entry FROM entries WHERE match_id = ? ORDER BY seq", (mid,)).fetchall()
        if [json.loads(e) for (e,) in rows] != items[:k]:
            return "stored entries differ from the appended ones"
        return None

    def count(self) -> int | None:
        return self.conn.execute("SELECT count(*) FROM matches").fetchone()[0]

    def close(self) -> None:
        self.conn.close()


# ---------------------------------------------------------------- measuring


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[max(0, math.ceil(0.95 * len(s)) - 1)]


def du(path: str) -> int:
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(d, f)).st_size
            except OSError:
                pass
    return total


def make_backend(name: str, root: str, Store):
    return {
        "ours": lambda: Ours(root, Store),
        "tinydb-naive": lambda: TinyNaive(root),
        "tinydb-atomic": lambda: TinyAtomic(root),
        "sqlite": lambda: SQLite(root),
    }[name]()


def measure(
    names: list[str], n: int, records: list[dict], games: list[dict], k: int | None, tmp: str | None, Store, entries_of
) -> dict[str, dict]:
    """Seed each backend in ``names`` with ``records`` (untimed), then per game in
    ``games`` create a match in each and time its appends, the backends taking
    turns append by append (alternating who goes first), so that they all see
    the same background load."""
    roots = {nm: tempfile.mkdtemp(prefix=f"skbench-{nm}-{n}-", dir=tmp) for nm in names}
    out: dict[str, dict] = {}
    try:
        bs, seed_s = {}, {}
        for nm in names:
            bs[nm] = make_backend(nm, roots[nm], Store)
            t0 = time.perf_counter()
            bs[nm].seed(records, entries_of)
            seed_s[nm] = time.perf_counter() - t0
        times: dict[str, list[float]] = {nm: [] for nm in names}
        create_ms: dict[str, list[float]] = {nm: [] for nm in names}
        problems: dict[str, list[str]] = {nm: [] for nm in names}
        for game_rec in games:
            opened = {}
            for nm in names:
                t0 = time.perf_counter()
                mid, items = bs[nm].create(header_of(game_rec), game_rec, entries_of)
                create_ms[nm].append((time.perf_counter() - t0) * 1000)
                opened[nm] = (mid, items if k is None else items[:k])
            os.sync()
            steps = max(len(opened[nm][1]) for nm in names)
            for i in range(steps):
                order = names if i % 2 == 0 else names[::-1]
                for nm in order:
                    mid, items = opened[nm]
                    if i < len(items):
                        t = time.perf_counter()
                        bs[nm].append(mid, items[i])  # timed
                        times[nm].append(time.perf_counter() - t)
            for nm in names:
                mid, items = opened[nm]
                why = bs[nm].check(mid, game_rec, items, len(items))
                if why:
                    problems[nm].append(why)
        for nm in names:
            c = bs[nm].count()
            if c is not None and c != n + len(games):
                problems[nm].append(f"{c} matches stored, expected {n + len(games)}")
            bs[nm].close()
            if nm == "ours":
                listing_line(n, os.path.join(roots[nm], "store"), Store)
            ms = [t * 1000 for t in times[nm]]
            out[nm] = {
                "k": len(ms),
                "median": statistics.median(ms),
                "p95": p95(ms),
                "max": max(ms),
                "seed_s": seed_s[nm],
                "create_ms": statistics.median(create_ms[nm]),
                "mb": du(roots[nm]) / 1e6,
                "problem": "; ".join(problems[nm]),
            }
    finally:
        for r in roots.values():
            shutil.rmtree(r, ignore_errors=True)
    return out


def listing_line(n: int, path: str, Store) -> None:
    """Open the seeded store again and time listing pages of 20, newest first."""
    t0 = time.perf_counter()
    store = Store(path)
    t1 = time.perf_counter()
    first = store.list(0, 20)
    t2 = time.perf_counter()
    last = store.list(max(store.count() - 20, 0), 20)
    t3 = time.perf_counter()
    count = store.count()
    store.close()
    assert first and last
    print(
        f"ours N={n}: open {1000 * (t1 - t0):.1f} ms; list newest 20 {1000 * (t2 - t1):.1f} ms; "
        f"list oldest 20 {1000 * (t3 - t2):.1f} ms ({count} matches)"
    )


def tinydb_fsync_note() -> str:
    import tinydb
    from tinydb.storages import JSONStorage

    try:
        src = inspect.getsource(JSONStorage.write)
    except (OSError, TypeError):
        src = ""
    if "fsync" in src:
        return (
            f"TinyDB {tinydb.__version__}: JSONStorage.write does flush + os.fsync of the file, but "
            "rewrites it in place (no temp file/rename, no directory fsync): durable once it "
            "returns, not crash-atomic"
        )
    return (
        f"TinyDB {tinydb.__version__}: JSONStorage.write does NOT fsync (flush only): "
        "tinydb-naive appends are not durable when they return"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,1000,10000", help="history sizes N (comma-separated)")
    ap.add_argument(
        "--k", type=int, default=None, help="appends timed per backend and N (default: all entries of the game)"
    )
    ap.add_argument(
        "--k-tinydb-10k", type=int, default=20, help="cap on K for the TinyDB backends at N >= 10,000 (default 20)"
    )
    ap.add_argument("--distinct", type=int, default=200, help="distinct seed records, reused cyclically (default 200)")
    ap.add_argument(
        "--rounds", type=int, default=3, help="appended games per N for ours and sqlite (default 3); TinyDB: 1"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", default="ours,tinydb-naive,sqlite,tinydb-atomic")
    ap.add_argument("--tmp", default=None, help="scratch root (default: system temp dir)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    backends = [b for b in args.backends.split(",") if b]
    for b in backends:
        if b not in MAIN_BACKENDS + ("tinydb-atomic",):
            ap.error(f"unknown backend {b!r}")

    Store, entries_of, why = load_store()
    if Store is None and "ours" in backends:
        print(f"ours: not available ({why}); its column is n/a")
        backends.remove("ours")

    t_start = time.perf_counter()
    t0 = time.perf_counter()
    pool = make_pool(args.distinct, args.seed)
    games = fresh_games(args.seed, max(1, args.rounds), entries_of)
    n_entries = [len(entries_of(r)) for r in pool]
    print(
        f"machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores; "
        f"Python {platform.python_version()}; SQLite {sqlite3.sqlite_version}"
    )
    print(
        f"history: {args.distinct} distinct random_record games (max_hands=3, 2p/4p alternating; "
        f"{statistics.mean(len(json.dumps(r)) for r in pool) / 1000:.1f} KB, "
        f"{statistics.mean(n_entries):.0f} entries on average), reused cyclically up to N; "
        f"generated in {time.perf_counter() - t0:.1f} s"
    )
    print(
        f"appended games: {len(games)} fresh 4-player matches per N for ours and sqlite, the first "
        f"only for TinyDB; entries {', '.join(str(len(entries_of(g))) for g in games)}; "
        f"{statistics.mean(len(json.dumps(g)) for g in games) / 1000:.1f} KB when complete"
        + ("" if Store else "; entries from a stand-in entries_of")
    )
    print(
        f"scratch: {args.tmp or tempfile.gettempdir()}; seeding untimed, then os.sync(); "
        f"each append timed alone (perf_counter), ours and sqlite taking turns append by append; "
        f"p95 = nearest rank"
    )
    if any(b.startswith("tinydb") for b in backends):
        print(tinydb_fsync_note())
        print(f"tinydb: K capped at {args.k_tinydb_10k} for N >= 10,000 (each append rewrites the whole file)")
    print()
    print(
        f"{'backend':<14} {'N':>6} {'K':>4} {'median ms':>10} {'p95 ms':>9} {'max ms':>9} "
        f"{'seed s':>7} {'create ms':>10} {'disk MB':>8}"
    )

    res: dict[tuple[str, int], dict] = {}
    fast = [b for b in backends if not b.startswith("tinydb")]
    slow = [b for b in backends if b.startswith("tinydb")]
    for n in sizes:
        records = [pool[i % len(pool)] for i in range(n)]
        groups = [(fast, games, args.k)]
        k_slow = args.k
        if n >= 10_000:
            k_slow = min(k_slow, args.k_tinydb_10k) if k_slow else args.k_tinydb_10k
        groups.append((slow, games[:1], k_slow))
        for names, gs, k in groups:
            if not names:
                continue
            try:
                got = measure(names, n, records, gs, k, args.tmp, Store, entries_of)
            except Exception as e:
                print(f"{'+'.join(names):<14} {n:>6} FAILED: {type(e).__name__}: {e}")
                continue
            for name in names:
                r = res[(name, n)] = got[name]
                print(
                    f"{name:<14} {n:>6} {r['k']:>4} {r['median']:>10.2f} {r['p95']:>9.2f} "
                    f"{r['max']:>9.2f} {r['seed_s']:>7.1f} {r['create_ms']:>10.2f} {r['mb']:>8.1f}"
                    + (f"  CHECK FAILED: {r['problem']}" if r["problem"] else ""),
                    flush=True,
                )
    print()

    def ratio(a, b, stat):
        if a in res and b in res:
            return res[a][stat] / res[b][stat]
        return None

    big, small = max(sizes), min(sizes)
    for stat in ("median", "p95"):
        flat = ratio(("ours", big), ("ours", small), stat)
        vs = ratio(("ours", big), ("sqlite", big), stat)
        naive = ratio(("tinydb-naive", big), ("ours", big), stat)
        fmt = lambda x: "n/a" if x is None else f"{x:.2f}x"  # noqa: E731
        print(
            f"{stat:>6}: ours@{big} / ours@{small} = {fmt(flat)} (goal <= 2x); "
            f"ours@{big} / sqlite@{big} = {fmt(vs)} (goal <= 3x); "
            f"tinydb-naive@{big} / ours@{big} = {fmt(naive)}"
        )
    if ("ours", big) in res and ("sqlite", big) in res and ("ours", small) in res:
        ok = all(
            ratio(("ours", big), ("ours", small), s) <= 2 and ratio(("ours", big), ("sqlite", big), s) <= 3
            for s in ("median", "p95")
        )
        print(f"goal (flat within 2x, within 3x of sqlite; median and p95): {'met' if ok else 'NOT met'}")
    print(f"total time: {time.perf_counter() - t_start:.0f} s")

    def p(name):
        r = res.get((name, 10_000))
        return "n/a" if r is None else f"{r['p95']:.2f}"

    print(f"append p95 ms @10k: ours {p('ours')}, tinydb-naive {p('tinydb-naive')}, sqlite {p('sqlite')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
