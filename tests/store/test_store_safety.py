"""Safety tests of the match store: crash safety, power cuts, corruption, schema, lock.

The issue: "Durable append: once appending an entry returns, neither a kill -9
nor a power cut loses it or leaves a file that cannot be opened ... a schema
version; an unknown newer version is refused clearly; a corrupt file is moved
aside (`<name>.corrupt-<timestamp>`), reported, and every other match stays
available; two app instances on one database cannot corrupt it (a file lock;
the second gets a clear message)."

Crash tests run ``tests/store/store_child.py`` (see its docstring), a real process
that appends entries and prints ``ack <n>`` after each append returns, and
SIGKILL it: after random delays, after very short delays right inside the
append loop, and (with strace) exactly at the entry of its N-th
write/fsync/rename syscall. After every kill the parent opens the database
and checks that it opens cleanly and holds every acknowledged entry, and at
most one more. A power cut is checked by auditing the child's syscalls
(strace): before any ``created``/``ack`` line is written, the match file's
data must have been fsynced and its directory entry (a rename, a new file)
fsynced in its directory.
"""

from __future__ import annotations

import codecs
import importlib.util
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import lock_descriptor
from support import build_db, full_record, rebuild

from scorekeeper.allfives import random_record
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store, StoreError, StoreLockedError, entries_of

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().with_name("store_child.py")

_spec = importlib.util.spec_from_file_location("store_child", CHILD)
store_child = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(store_child)
record_for = store_child.record_for  # the child's records, seed for seed

STRACE = shutil.which("strace")

#: the exit status of a child ended by ``Popen.kill()``: SIGKILL (9) on Linux and macOS,
#: TerminateProcess's 1 on Windows
KILLED = -9 if os.name == "posix" else 1


def _strace_usable() -> bool:
    if STRACE is None:
        return False
    r = subprocess.run([STRACE, "-qq", "-o", os.devnull, "true"], capture_output=True, timeout=30)
    return r.returncode == 0


needs_strace = pytest.mark.skipif(not _strace_usable(), reason="needs a working strace (apt-get install strace)")


# ---------------------------------------------------------------- helpers
def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no .pyc writes: the child's only file writes are the store's
    env["STORE_CHILD_PARENT"] = str(os.getpid())  # a child whose test run is gone stops (store_child.orphaned)
    return env


def expected_entries(rec: dict) -> list[dict]:
    """The entry forms of the API, written out independently of entries_of."""
    out = []
    for hand in rec["hands"]:
        out.append({"hand": {"leader": hand["leader"]} if "leader" in hand else {}})
        out.extend({"turn": t} for t in hand["turns"])
        if "remaining" in hand:
            out.append({"remaining": hand["remaining"]})
    return out


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file's bytes under a database directory (the lock file aside)."""
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file() and p.name != "lock"
    }


def files_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())


def is_regular_name(rel: str) -> bool:
    """lock, index.json or matches/<id>.json: anything else is a leftover or a moved-aside file."""
    return rel in ("lock", "index.json") or bool(re.fullmatch(r"matches/[A-Za-z0-9][^/]*\.json", rel))


def assert_all_readable(store: Store, recs: dict[str, dict]) -> None:
    assert sorted(store.ids()) == sorted(recs)
    for mid, rec in recs.items():
        assert store.record(mid) == rec, mid


def walk_dicts(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk_dicts(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_dicts(v)


def with_schema(data: bytes, schema) -> bytes:
    """The JSON file with every ``"schema": 1`` set to ``schema`` (at least one must be there)."""
    doc = json.loads(data)
    hits = [d for d in walk_dicts(doc) if d.get("schema") == 1]
    assert hits, f'no "schema": 1 in {data[:300]!r}'
    for d in hits:
        d["schema"] = schema
    return json.dumps(doc).encode()


def wait_for_line(path: Path, prefix: bytes, proc: subprocess.Popen, timeout: float = 30.0) -> bytes:
    """Poll the child's output file until a complete line starts with ``prefix``."""
    deadline = time.monotonic() + timeout
    while True:
        data = path.read_bytes()
        for line in data.split(b"\n")[:-1]:
            if line.startswith(prefix):
                return line
        if proc.poll() is not None:
            data = path.read_bytes()
            for line in data.split(b"\n")[:-1]:
                if line.startswith(prefix):
                    return line
            raise AssertionError(f"child exited ({proc.returncode}) before printing {prefix!r}; output {data[-500:]!r}")
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            raise AssertionError(f"no {prefix!r} line after {timeout}s; output {data[-500:]!r}")
        time.sleep(0.001)


def run_child(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHILD), *args], capture_output=True, cwd=ROOT, env=child_env(), timeout=timeout
    )


# ---------------------------------------------------------------- the crash harness
@dataclass
class Tracked:
    """A match the child created, as the parent knows it."""

    rec: dict  # the full record the child plays into it
    sent: list[dict]  # entries_of(rec): what the child appends, in order
    low: int  # the stored entries must be at least this many (acknowledged) ...
    high: int  # ... and at most this many (one may be written before its ack)


class CrashHarness:
    """Runs children on one database, kills them, and checks the database after every kill."""

    def __init__(self, db: Path, work: Path, first_seed: int, max_hands: int = 40) -> None:
        self.db = db
        self.work = work
        self.next_seed = first_seed
        self.max_hands = max_hands
        self.matches: dict[str, Tracked] = {}
        self.file_bytes: dict[str, bytes] = {}  # id -> bytes of its file when last checked
        self.records: dict[int, dict] = {}
        self.runs = 0
        self.runs_with_acks = 0
        self.acks = 0
        self.unacked_entry_found = 0  # the in-flight entry was on disk though not acknowledged
        self.unannounced = 0  # a match created whose `created` line was never printed
        self.leftovers: list[str] = []  # files other than lock/index/match files seen after a kill

    # ---- running children
    def spawn(self, prefix: list[str] = ()) -> tuple[subprocess.Popen, int, Path, Path]:
        seed = self.next_seed
        self.next_seed += 1
        self.runs += 1
        out = self.work / f"run{self.runs}.out"
        err = self.work / f"run{self.runs}.err"
        with open(out, "wb") as fo, open(err, "wb") as fe:
            proc = subprocess.Popen(
                [*prefix, sys.executable, str(CHILD), str(self.db), str(seed), "0", str(self.max_hands)],
                stdout=fo,
                stderr=fe,
                cwd=ROOT,
                env=child_env(),
            )
        return proc, seed, out, err

    def kill_after(self, delay: float, anchor: bytes | None = None) -> None:
        """Start a child, wait ``delay`` s (from the start, or from its first ``anchor`` line), SIGKILL it."""
        t0 = time.monotonic()
        proc, seed, out, err = self.spawn()
        if anchor is not None:
            wait_for_line(out, anchor, proc)
            t0 = time.monotonic()
        left = delay - (time.monotonic() - t0)
        if left > 0:
            time.sleep(left)
        alive = proc.poll() is None
        proc.kill()
        proc.wait(timeout=30)
        assert alive and proc.returncode == KILLED, (
            f"run {self.runs}: the child was not alive when killed (exit {proc.returncode}); "
            f"stderr: {err.read_text(errors='replace', encoding='utf-8')[-2000:]}"
        )
        self.check_after_kill(seed, out)

    def inject_kill(self, syscall: str, nth: int) -> None:
        """Run a child under strace, which SIGKILLs it on entering its nth ``syscall`` (before it runs)."""
        prefix = [
            STRACE,
            "-qq",
            "-o",
            os.devnull,
            "-e",
            f"trace={syscall}",
            "-e",
            f"inject={syscall}:signal=KILL:when={nth}",
        ]
        proc, seed, out, err = self.spawn(prefix)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            line = out.read_bytes().split(b"\n")[0]
            if line.startswith(b"open "):
                os.kill(int(line.split()[1]), signal.SIGKILL)
            proc.kill()
            proc.wait()
            raise AssertionError(f"{syscall} #{nth} was never reached") from None
        assert proc.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL), (
            f"{syscall} #{nth}: exit {proc.returncode}; stderr: {err.read_text(errors='replace', encoding='utf-8')[-2000:]}"
        )
        self.check_after_kill(seed, out)

    # ---- checking
    def record(self, seed: int) -> dict:
        if seed not in self.records:
            got_seed, rec = record_for(seed // 1000, seed % 1000, self.max_hands)
            assert got_seed == seed
            self.records[seed] = rec
        return self.records[seed]

    def parse(self, run_seed: int, out: Path) -> list[list]:
        """[[id, record seed, entries acknowledged], ...] in creation order."""
        created: list[list] = []
        for raw in out.read_bytes().split(b"\n")[:-1]:  # a torn last line acknowledges nothing
            line = raw.decode()
            if line.startswith("open "):
                assert not created
            elif line.startswith("created "):
                _, mid, seed = line.split(" ")
                assert int(seed) == run_seed * 1000 + len(created), line
                if created:  # the child moves on only when the whole record was acknowledged
                    prev = created[-1]
                    assert prev[2] == len(entries_of(self.record(prev[1]))), (prev, line)
                created.append([mid, int(seed), 0])
            elif line.startswith("ack "):
                assert created and int(line[4:]) == created[-1][2] + 1, line
                created[-1][2] += 1
            else:
                raise AssertionError(f"unexpected child output {line!r}")
        return created

    def check_after_kill(self, run_seed: int, out: Path, full: bool = False) -> None:
        created = self.parse(run_seed, out)
        if any(acked for _, _, acked in created):
            self.runs_with_acks += 1
        for i, (mid, seed, acked) in enumerate(created):
            assert mid not in self.matches, f"id {mid} reused"
            rec = self.record(seed)
            sent = entries_of(rec)
            last = i == len(created) - 1
            self.matches[mid] = Tracked(rec, sent, acked, min(acked + (1 if last else 0), len(sent)))
            self.acks += acked
        self.leftovers += [f for f in files_under(self.db) if not is_regular_name(f)]
        self.verify(run_seed, len(created), full or self.runs % 10 == 0)

    def verify(self, run_seed: int, n_created: int, full: bool) -> None:
        where = f"after run {self.runs} (child seed {run_seed})"
        with Store(self.db) as store:
            assert store.problems == [], where
            ids = store.ids()
            assert len(ids) == len(set(ids)), f"{where}: an id listed twice: {ids}"
            extra = set(ids) - set(self.matches)
            missing = set(self.matches) - set(ids)
            assert not missing, f"{where}: matches lost: {sorted(missing)}"
            assert len(extra) <= 1, f"{where}: more than one unannounced match: {sorted(extra)}"
            for mid in extra:  # created, then killed before `created` was printed: must be empty
                _, rec = record_for(run_seed, n_created, self.max_hands)
                assert store.record(mid) == dict(rec, hands=[]), f"{where}: unannounced match {mid}"
                self.matches[mid] = Tracked(rec, entries_of(rec), 0, 0)
                self.unannounced += 1
            for mid, t in self.matches.items():
                data = (self.db / "matches" / f"{mid}.json").read_bytes()
                if not full and self.file_bytes.get(mid) == data:
                    continue  # same bytes as when last checked: same record
                stored = store.record(mid)
                got = entries_of(stored)
                k = len(got)
                assert got == t.sent[:k], f"{where}: match {mid}: stored entries are not a prefix of those sent"
                assert t.low <= k <= t.high, f"{where}: match {mid} holds {k} entries; {t.low} were acknowledged" + (
                    " (a match from an earlier run changed)" if t.low == t.high else ""
                )
                assert stored == rebuild(t.rec, got), f"{where}: match {mid}"
                if k == t.low + 1:
                    self.unacked_entry_found += 1
                t.low = t.high = k  # seen after a reopen: it must stay exactly so
                self.file_bytes[mid] = data
        moved = [f for f in files_under(self.db) if ".corrupt-" in f]
        assert not moved, f"{where}: files moved aside: {moved}"

    def summary(self) -> str:
        return (
            f"{self.runs} kills, {self.runs_with_acks} with acks, {self.acks} entries acknowledged, "
            f"{len(self.matches)} matches, {self.unacked_entry_found} unacknowledged entries found stored, "
            f"{self.unannounced} unannounced creates, {len(self.leftovers)} leftover files seen"
        )


# ---------------------------------------------------------------- sanity of the tools the tests use
@pytest.mark.parametrize("seed", [1, 2, 3, 40])
def test_entries_of_gives_every_entry_in_order_and_rebuilds_the_record(seed):
    rec = random_record(seed, players=2 + seed % 3, max_hands=3)
    assert entries_of(rec) == expected_entries(rec)
    assert rebuild(rec, entries_of(rec)) == rec
    assert len(entries_of(rec)) > 10


def test_the_child_acknowledges_exactly_what_it_stored(tmp_path):
    db = tmp_path / "db"
    r = run_child(str(db), "7", "30", "1")
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    lines = r.stdout.decode().splitlines()
    assert lines[0].startswith("open ") and lines[-1] == "done"
    assert sum(line.startswith("ack ") for line in lines) == 30
    created = [line.split() for line in lines if line.startswith("created ")]
    assert len(created) >= 2  # one-hand records are shorter than 30 entries
    with Store(db) as store:
        assert store.problems == []
        assert sorted(store.ids()) == sorted(mid for _, mid, _ in created)
        total = 0
        for _, mid, seed in created:
            rec = record_for(int(seed) // 1000, int(seed) % 1000, 1)[1]
            got = entries_of(store.record(mid))
            assert got == entries_of(rec)[: len(got)]
            total += len(got)
        assert total == 30


# ---------------------------------------------------------------- 1. kill -9 at random moments
@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_entry(tmp_path):
    """12 children on one database, each SIGKILLed 0-0.95 s after it created its first match
    (timed from its first ``created`` line, not from its start or its ``open`` line: on a
    loaded machine the start-up and the first match alone can take a second, and the kills
    would then miss the appends; kills during the start-up and the first write are the
    next test's, each window of a write the strace test's). Each child costs a Python
    start-up and the store's import (~0.4 CPU-s): 12 kills at random moments of the append
    loop, each checked against everything the earlier ones left, are what this test adds to
    those two."""
    rng = random.Random(20240601)
    h = CrashHarness(tmp_path / "db", tmp_path, first_seed=1)
    started = time.monotonic()
    for _ in range(12):
        h.kill_after(rng.uniform(0.0, 0.95), anchor=b"created ")
    h.verify(0, 0, full=True)
    print(f"\nrandom kills: {h.summary()} in {time.monotonic() - started:.1f}s")
    # most kills land while appending, not during start-up (60% leaves room for a slow, loaded machine)
    assert h.runs_with_acks >= 7, h.summary()
    assert len(h.matches) >= 7, h.summary()


# ---------------------------------------------------------------- 2. kills inside a write
@pytest.mark.slow
def test_rapid_kills_inside_the_append_loop_lose_nothing(tmp_path):
    """Kills 0-10 ms after the child opened the store, 0-20 ms after it created its first
    match or acknowledged its first entry: inside writes (4 of each; the exact windows of a
    write are the strace test's). The kills timed from the first ``ack`` land in the append
    loop however loaded the machine is (timed from ``created`` alone, 20 kills once gave
    3 runs with acks on a loaded machine)."""
    rng = random.Random(99)
    h = CrashHarness(tmp_path / "db", tmp_path, first_seed=101)
    for i in range(12):
        anchor = (b"created ", b"open ", b"ack 1")[i % 3]  # the first line starting "ack 1" is ack 1
        h.kill_after(rng.uniform(0.0, 0.01 if anchor == b"open " else 0.02), anchor=anchor)
    h.verify(0, 0, full=True)
    print(f"\nrapid kills: {h.summary()}")
    assert h.runs_with_acks >= 4, h.summary()


@pytest.mark.slow
@needs_strace
def test_kill_exactly_at_each_write_fsync_and_rename_loses_nothing(tmp_path):
    """strace SIGKILLs the child on entering its N-th write/fsync/rename: every window of an atomic write.

    A kill at a ``rename`` leaves a complete, fsynced temporary file that was
    never renamed; at an ``fsync`` an unsynced one (or, for the directory
    fsync after the rename, a stored but unacknowledged entry); at a
    ``write`` an empty temporary file or an entry stored but not acknowledged.

    18 kills, 6 at each of the three calls, at the N-th call drawn from 1-40 (the child's
    calls are the same in every run: the kills land where they landed before): each window
    is hit and checked; the assertions below say so.
    """
    rng = random.Random(7)
    h = CrashHarness(tmp_path / "db", tmp_path, first_seed=201, max_hands=2)
    for i in range(18):
        syscall = ("write", "fsync", "rename")[i % 3]
        h.inject_kill(syscall, rng.randint(1, 40))
    h.verify(0, 0, full=True)
    print(f"\ninjected kills: {h.summary()}")
    assert h.leftovers, "no kill left a temporary file behind: the windows were not hit"
    assert h.unacked_entry_found >= 1, h.summary()
    assert h.runs_with_acks >= 10, h.summary()


# ---------------------------------------------------------------- 2b. a power cut: fsync before every ack
class SyscallModel:
    """What would survive a power cut, from the child's syscalls (strace -y).

    A file's data survives once fsynced after its last write; a directory
    entry (a new file, a rename, a mkdir, an unlink) once its directory was
    fsynced after the change.
    """

    LINE = re.compile(r"^(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?P<ret>-?\d+)(?:<(?P<retpath>[^>]*)>)?")

    def __init__(self, db: Path, cwd: Path) -> None:
        self.db = str(db)
        self.cwd = str(cwd)
        self.names: dict[str, dict] = {}  # path -> file object {"dirty": bool}
        self.fds: dict[int, tuple[str, object]] = {}  # fd -> ("file", obj) | ("dir", path)
        self.pending: set[str] = set()  # paths whose directory entry is not durable yet
        self.dirs: set[str] = set()
        for p in [db, *db.rglob("*")]:
            if p.is_dir():
                self.dirs.add(str(p))
            else:
                self.names[str(p)] = {"dirty": False}

    @staticmethod
    def split_args(args: str) -> list[str]:
        out, cur, depth, quoted, esc = [], "", 0, False, False
        for ch in args:
            if quoted:
                cur += ch
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    quoted = False
                continue
            if ch == '"':
                quoted = True
            elif ch in "<[{(":
                depth += 1
            elif ch in ">]})":
                depth -= 1
            elif ch == "," and depth == 0:
                out.append(cur.strip())
                cur = ""
                continue
            cur += ch
        out.append(cur.strip())
        return out

    @staticmethod
    def fd_of(arg: str) -> int | None:
        m = re.match(r"^(-?\d+)", arg)
        return int(m.group(1)) if m else None

    def path_of(self, dirfd_arg: str | None, path_arg: str) -> str:
        p = codecs.decode(path_arg.strip('"'), "unicode_escape")
        if os.path.isabs(p):
            return os.path.normpath(p)
        base = self.cwd
        if dirfd_arg is not None:
            m = re.search(r"<([^>]*)>", dirfd_arg)
            if m:
                base = m.group(1)
        return os.path.normpath(os.path.join(base, p))

    def mine(self, path: str) -> bool:
        return path == self.db or path.startswith(self.db + os.sep)

    def durable(self, path: str) -> list[str]:
        """Why ``path`` (a file under the database) would not survive a power cut now."""
        why = []
        obj = self.names.get(path)
        if obj is None:
            why.append("the file does not exist")
        elif obj["dirty"]:
            why.append("its data was not fsynced after the last write")
        p = path
        while self.mine(p):
            if p in self.pending:
                why.append(f"the directory entry of {os.path.relpath(p, os.path.dirname(self.db))} was not fsynced")
            p = os.path.dirname(p)
        return why

    def feed(self, line: str, on_stdout) -> None:
        m = self.LINE.match(line)
        if not m or int(m.group("ret")) < 0:
            return
        name, args, ret = m.group("name"), self.split_args(m.group("args")), int(m.group("ret"))
        if name in ("openat", "open", "creat"):
            path = os.path.normpath(
                m.group("retpath")
                or self.path_of(args[0] if name == "openat" else None, args[1 if name == "openat" else 0])
            )
            flags = args[2] if name == "openat" else (args[1] if name == "open" else "O_CREAT|O_TRUNC")
            if "O_DIRECTORY" in flags or path in self.dirs or os.path.isdir(path):
                self.fds[ret] = ("dir", path)
                return
            if not self.mine(path):
                self.fds.pop(ret, None)
                return
            if path not in self.names:
                self.names[path] = {"dirty": False}
                self.pending.add(path)
            obj = self.names[path]
            if "O_TRUNC" in flags:
                obj["dirty"] = True
            self.fds[ret] = ("file", obj)
        elif name in ("write", "pwrite64", "writev", "pwritev", "pwritev2", "ftruncate"):
            fd = self.fd_of(args[0])
            if fd == 1 and name == "write":
                on_stdout(codecs.decode(args[1].strip('"').encode("latin-1"), "unicode_escape"))
            kind = self.fds.get(fd)
            if kind and kind[0] == "file":
                kind[1]["dirty"] = True
        elif name in ("fsync", "fdatasync"):
            kind = self.fds.get(self.fd_of(args[0]))
            if kind and kind[0] == "file":
                kind[1]["dirty"] = False
            elif kind:
                self.pending = {p for p in self.pending if os.path.dirname(p) != kind[1]}
        elif name in ("sync", "syncfs"):
            for obj in self.names.values():
                obj["dirty"] = False
            self.pending.clear()
        elif name in ("rename", "renameat", "renameat2"):
            if name == "rename":
                src, dst = self.path_of(None, args[0]), self.path_of(None, args[1])
            else:
                src, dst = self.path_of(args[0], args[1]), self.path_of(args[2], args[3])
            obj = self.names.pop(src, None) or {"dirty": True}
            if self.mine(dst):
                self.names[dst] = obj
                self.pending |= {src, dst}
        elif name in ("unlink", "unlinkat"):
            path = self.path_of(args[0], args[1]) if name == "unlinkat" else self.path_of(None, args[0])
            if self.names.pop(path, None) is not None:
                self.pending.add(path)
        elif name in ("mkdir", "mkdirat"):
            path = self.path_of(args[0], args[1]) if name == "mkdirat" else self.path_of(None, args[0])
            self.dirs.add(path)
            self.pending.add(path)
        elif name == "close":
            self.fds.pop(self.fd_of(args[0]), None)


def audit_power_cut(tmp_path: Path, db: Path, limit: int) -> tuple[list[str], int, int]:
    """Run the child under strace; return (violations, acks checked, matches created)."""
    trace = tmp_path / "trace.txt"
    syscalls = (
        "openat,open,creat,close,write,pwrite64,writev,pwritev,pwritev2,ftruncate,fsync,fdatasync,sync,syncfs,"
        "rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat"
    )
    model = SyscallModel(db, ROOT)
    r = subprocess.run(
        [STRACE, "-qq", "-y", "-s", "512", "-o", str(trace), "-e", f"trace={syscalls}",
         sys.executable, str(CHILD), str(db), "31", str(limit), "1"],
        capture_output=True, cwd=ROOT, env=child_env(), timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-3000:]
    violations: list[str] = []
    state = {"mid": None, "acks": 0, "created": 0}

    def on_stdout(text: str) -> None:
        for line in text.splitlines():
            if line.startswith("created "):
                state["mid"] = line.split()[1]
                state["created"] += 1
            elif line.startswith("ack "):
                state["acks"] += 1
            else:
                continue
            why = model.durable(str(db / "matches" / f"{state['mid']}.json"))
            if why:
                violations.append(f"{line!r} printed while " + "; ".join(why))

    for line in trace.read_text(errors="replace", encoding="utf-8").splitlines():
        model.feed(line, on_stdout)
    return violations, state["acks"], state["created"]


@needs_strace
def test_power_cut_every_acknowledged_entry_was_fsynced_first(tmp_path):
    """Before any `created`/`ack` is printed, the match file's data and its rename are on the disk."""
    db = tmp_path / "db"
    Store(db).close()  # an existing database: the directories themselves are not under test here
    os.sync()
    violations, acks, created = audit_power_cut(tmp_path, db, limit=60)
    assert acks == 60 and created >= 3
    assert violations == [], f"{len(violations)} of {acks + created} acknowledgements not durable:\n" + "\n".join(
        violations[:10]
    )


@needs_strace
def test_power_cut_a_new_database_directory_is_durable_before_the_first_match_is_acknowledged(tmp_path):
    """Store(path) creates path/ and path/matches/: a power cut must not lose the directories themselves."""
    db = tmp_path / "db"
    violations, acks, created = audit_power_cut(tmp_path, db, limit=3)
    assert acks == 3 and created == 1
    assert violations == [], "\n".join(violations[:10])


# ---------------------------------------------------------------- 3. corruption
def garble(data: bytes) -> bytes:
    mid = len(data) // 2
    return data[:mid] + b"\x00\xff\xfe}}]]\x01garbage" + data[mid + 20 :]


def without_record(data: bytes) -> bytes:
    doc = json.loads(data)
    hits = [d for d in walk_dicts(doc) if "record" in d]
    assert hits
    for d in hits:
        del d["record"]
    return json.dumps(doc).encode()


def record_is_a_list(data: bytes) -> bytes:
    doc = json.loads(data)
    for d in walk_dicts(doc):
        if "record" in d:
            d["record"] = [1, 2, 3]
    return json.dumps(doc).encode()


CORRUPTIONS = {
    "truncated": lambda b: b[: len(b) // 2],
    "garbled": garble,
    "zero-byte": lambda b: b"",
    "whitespace only": lambda b: b"   \n",
    "not UTF-8": lambda b: b"\xff\xfe" + b[2:],
    "JSON list": lambda b: b"[1, 2, 3]",
    "JSON null": lambda b: b"null",
    "JSON string": lambda b: b'"a match"',
    "empty TinyDB": lambda b: b'{"_default": {}}',
    "TinyDB of another shape": lambda b: b'{"_default": {"1": {"hello": "world"}}}',
    "document without record": without_record,
    "record not an object": record_is_a_list,
}


def aside_files(directory: Path, name: str) -> list[Path]:
    return sorted(directory.glob(f"{name}.corrupt-*"))


def assert_moved_aside(directory: Path, name: str, bad: bytes, problems: list[str], rebuilt: bool = False) -> Path:
    """``name`` was moved aside to ``name.corrupt-<timestamp>`` and reported (and, for the index, rebuilt)."""
    if rebuilt:
        assert (directory / name).read_bytes() != bad, f"{name} was not rebuilt"
    else:
        assert not (directory / name).exists(), f"{name} was not moved aside"
    aside = aside_files(directory, name)
    assert len(aside) == 1, aside
    assert re.fullmatch(re.escape(name) + r"\.corrupt-\S*\d\S*", aside[0].name), aside[0].name
    assert aside[0].read_bytes() == bad, "the moved-aside file is not the corrupt file, byte for byte"
    reports = [p for p in problems if name in p]
    assert len(reports) == 1, problems
    assert aside[0].name in reports[0], f"the report does not say where the file went: {reports[0]!r}"
    return aside[0]


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_a_corrupt_match_file_is_moved_aside_and_every_other_match_stays_available(tmp_path, how):
    recs = build_db(tmp_path)
    victim = list(recs)[1]
    path = tmp_path / "matches" / f"{victim}.json"
    bad = CORRUPTIONS[how](path.read_bytes())
    path.write_bytes(bad)
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    with Store(tmp_path) as store:
        assert_moved_aside(tmp_path / "matches", path.name, bad, store.problems)
        assert len(store.problems) == 1, store.problems
        assert_all_readable(store, others)
        with pytest.raises(StoreError):
            store.record(victim)
        survivor = list(recs)[3]  # the half-entered match goes on
        done = entries_of(others[survivor])
        nxt = entries_of(full_record(3))[len(done)]
        store.append(survivor, nxt)
        others[survivor] = rebuild(full_record(3), done + [nxt])
    with Store(tmp_path) as store:  # nothing left to report; the corrupt file stays aside, untouched
        assert store.problems == []
        assert_all_readable(store, others)
    assert [p.read_bytes() for p in aside_files(tmp_path / "matches", path.name)] == [bad]


def corrupt_in_place_keeping_mtime(path: Path, bad: bytes) -> None:
    """Overwrite the file in place (same inode) and put its modification time back."""
    st = path.stat()
    with open(path, "r+b") as f:
        f.write(bad)
        f.truncate()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_corrupt_match_file_with_its_mtime_kept_but_a_new_size_is_found_at_open(tmp_path):
    recs = build_db(tmp_path)
    victim = list(recs)[0]
    path = tmp_path / "matches" / f"{victim}.json"
    bad = path.read_bytes()[:-7]
    corrupt_in_place_keeping_mtime(path, bad)
    with Store(tmp_path) as store:
        assert_moved_aside(tmp_path / "matches", path.name, bad, store.problems)
        assert_all_readable(store, {mid: rec for mid, rec in recs.items() if mid != victim})


@pytest.mark.parametrize("use", ["record", "append"])
def test_a_corrupt_match_file_the_open_did_not_read_is_moved_aside_when_it_is_read(tmp_path, use):
    """Bit rot: same inode, size and mtime. docs/store.md: at start-up only changed files are read;
    any other file is checked when it is opened -- then moved aside and reported like at start-up,
    and the match is no longer offered."""
    recs = build_db(tmp_path)
    victim = list(recs)[0]
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    path = tmp_path / "matches" / f"{victim}.json"
    data = path.read_bytes()
    half = len(data) // 2
    bad = data[:half] + b"\x00" * 8 + data[half + 8 :]
    corrupt_in_place_keeping_mtime(path, bad)
    # real bit rot changes no metadata; writing it from user space moves the
    # ctime, which the store's signature sees. Put the file's new signature in
    # the index, as if nothing about the file had changed.
    index_path = tmp_path / "index.json"
    index = json.loads(index_path.read_bytes())
    st = path.stat()
    for doc in index["matches"].values():
        if doc["id"] == victim:
            doc["sig"] = [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
    index_path.write_text(json.dumps(index), encoding="utf-8")
    with Store(tmp_path) as store:
        assert store.problems == []
        assert sorted(store.ids()) == sorted(recs)  # not read yet: still listed
        for mid, rec in others.items():
            assert store.record(mid) == rec
        with pytest.raises(StoreError) as e:
            store.record(victim) if use == "record" else store.append(victim, {"hand": {}})
        assert "moved aside" in str(e.value), str(e.value)
        assert_moved_aside(tmp_path / "matches", path.name, bad, store.problems)
        assert sorted(store.ids()) == sorted(others), "a match whose file was moved aside is still offered"
        for again in (lambda: store.record(victim), lambda: store.append(victim, {"hand": {}})):
            with pytest.raises(StoreError):  # not an OSError from moving aside a file already gone
                again()
        assert_all_readable(store, others)
    with Store(tmp_path) as store:
        assert store.problems == [], "the move was reported already"
        assert_all_readable(store, others)
    assert [p.read_bytes() for p in aside_files(tmp_path / "matches", path.name)] == [bad]


def test_two_corrupt_match_files_are_both_moved_aside(tmp_path):
    recs = build_db(tmp_path)
    a, b = list(recs)[0], list(recs)[2]
    bad = {}
    for mid, how in ((a, "truncated"), (b, "JSON list")):
        p = tmp_path / "matches" / f"{mid}.json"
        bad[mid] = CORRUPTIONS[how](p.read_bytes())
        p.write_bytes(bad[mid])
    with Store(tmp_path) as store:
        for mid in (a, b):
            assert_moved_aside(tmp_path / "matches", f"{mid}.json", bad[mid], store.problems)
        assert len(store.problems) == 2
        assert_all_readable(store, {mid: rec for mid, rec in recs.items() if mid not in (a, b)})


INDEX_CORRUPTIONS = {
    k: CORRUPTIONS[k]
    for k in (
        "truncated",
        "garbled",
        "zero-byte",
        "whitespace only",
        "not UTF-8",
        "JSON list",
        "JSON null",
        "JSON string",
    )
}
INDEX_CORRUPTIONS["tables not objects"] = lambda b: b'{"_default": [1, 2], "matches": 7}'


@pytest.mark.parametrize("how", list(INDEX_CORRUPTIONS))
def test_a_corrupt_index_is_moved_aside_and_rebuilt_from_the_match_files(tmp_path, how):
    recs = build_db(tmp_path)
    index = tmp_path / "index.json"
    matches_before = {k: v for k, v in snapshot(tmp_path).items() if k.startswith("matches/")}
    bad = INDEX_CORRUPTIONS[how](index.read_bytes())
    index.write_bytes(bad)
    with Store(tmp_path) as store:
        assert_moved_aside(tmp_path, "index.json", bad, store.problems, rebuilt=True)
        for p in store.problems:  # no match was harmed
            assert not any(mid in p for mid in recs), store.problems
        assert_all_readable(store, recs)
    assert isinstance(json.loads(index.read_bytes()), dict), "the rebuilt index is not written"
    assert {k: v for k, v in snapshot(tmp_path).items() if k.startswith("matches/")} == matches_before
    with Store(tmp_path) as store:
        assert store.problems == []
        assert_all_readable(store, recs)


def test_a_missing_index_is_rebuilt_from_the_match_files(tmp_path):
    recs = build_db(tmp_path)
    (tmp_path / "index.json").unlink()
    with Store(tmp_path) as store:
        assert_all_readable(store, recs)
    with Store(tmp_path) as store:
        assert store.problems == []
        assert_all_readable(store, recs)


def test_an_index_that_misses_a_match_still_lists_it(tmp_path):
    """A valid index that is behind (e.g. killed between writing a match file and the index)."""
    recs = build_db(tmp_path)
    victim = list(recs)[2]
    index = tmp_path / "index.json"
    doc = json.loads(index.read_bytes())
    removed = 0
    for table in doc.values():
        for key in [k for k, d in table.items() if isinstance(d, dict) and d.get("id") == victim]:
            del table[key]
            removed += 1
    assert removed == 1, "the index does not list the match by its id"
    index.write_text(json.dumps(doc), encoding="utf-8")
    with Store(tmp_path) as store:
        assert_all_readable(store, recs)


def test_a_corrupt_index_and_a_corrupt_match_file_at_once(tmp_path):
    recs = build_db(tmp_path)
    victim = list(recs)[3]
    mpath = tmp_path / "matches" / f"{victim}.json"
    mbad = garble(mpath.read_bytes())
    mpath.write_bytes(mbad)
    ibad = b"{not json"
    (tmp_path / "index.json").write_bytes(ibad)
    with Store(tmp_path) as store:
        assert_moved_aside(tmp_path, "index.json", ibad, store.problems, rebuilt=True)
        assert_moved_aside(tmp_path / "matches", mpath.name, mbad, store.problems)
        assert_all_readable(store, {mid: rec for mid, rec in recs.items() if mid != victim})
    with Store(tmp_path) as store:
        assert store.problems == []
        assert sorted(store.ids()) == sorted(mid for mid in recs if mid != victim)


def test_leftover_temporary_files_are_not_matches_and_do_not_break_opening(tmp_path):
    """A kill between writing a temporary file and renaming it leaves the file behind."""
    recs = build_db(tmp_path)
    a = list(recs)[0]
    a_bytes = (tmp_path / "matches" / f"{a}.json").read_bytes()
    r = run_child(str(tmp_path), "3", "5", "1")  # creates one match, appends 5 entries
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    mid = r.stdout.decode().split("created ")[1].split()[0]
    recs[mid] = rebuild(record_for(3, 0, 1)[1], entries_of(record_for(3, 0, 1)[1])[:5])
    # what an interrupted atomic write of the child (its pid is gone) may have left
    pid = int(r.stdout.decode().split()[1])
    (tmp_path / "matches" / f".{mid}.json.tmp-{pid}").write_bytes(a_bytes[: len(a_bytes) // 3])
    (tmp_path / f".index.json.tmp-{pid}").write_bytes(b"")
    with Store(tmp_path) as store:
        assert store.problems == []
        assert_all_readable(store, recs)
    assert not list(tmp_path.rglob("*.corrupt-*"))


def test_an_illegal_append_changes_no_byte(tmp_path):
    recs = build_db(tmp_path, n=2)
    mid = list(recs)[1]
    before = snapshot(tmp_path)
    with Store(tmp_path) as store:
        with pytest.raises(ScorekeeperError):
            store.append(mid, {"turn": {"play": "9-9"}})
        with pytest.raises(ScorekeeperError):
            store.append(mid, {"hand": {"leader": "Nobody"}, "turn": {}})
        assert store.record(mid) == recs[mid]
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- 4. schema
def assert_refused_as_newer(db: Path) -> str:
    with pytest.raises(StoreError) as e:
        Store(db)
    assert not isinstance(e.value, StoreLockedError), str(e.value)
    msg = str(e.value)
    assert "newer" in msg.lower(), msg
    assert str(db) in msg, msg
    return msg


@pytest.mark.parametrize("schema", [2, 999])
@pytest.mark.parametrize("where", ["match file", "index"])
def test_a_newer_schema_is_refused_and_nothing_is_touched(tmp_path, where, schema):
    recs = build_db(tmp_path)
    target = tmp_path / "index.json" if where == "index" else tmp_path / "matches" / f"{list(recs)[1]}.json"
    original = target.read_bytes()
    target.write_bytes(with_schema(original, schema))
    before = snapshot(tmp_path)
    assert_refused_as_newer(tmp_path)
    assert snapshot(tmp_path) == before, "a newer database was modified"
    assert_refused_as_newer(tmp_path)  # again: the refused open released its lock
    r = run_child("--try-open", str(tmp_path))
    out = r.stdout.decode()
    assert r.returncode == 4 and out.startswith("error StoreError: ") and "newer" in out.lower(), out
    assert snapshot(tmp_path) == before
    assert not list(tmp_path.rglob("*.corrupt-*"))
    target.write_bytes(original)  # this version's database again
    with Store(tmp_path) as store:
        assert store.problems == []
        assert_all_readable(store, recs)


# ---------------------------------------------------------------- 5. the lock
def assert_locked_message(msg: str, db: Path) -> None:
    assert str(db) in msg, f"the message does not name the database: {msg!r}"
    assert "in use" in msg.lower(), msg


def test_a_second_store_in_the_same_process_is_refused_and_the_first_keeps_its_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LOCK_WAIT", "0.2")  # the holder does not let go: no need to wait 5 s
    assert issubclass(StoreLockedError, StoreError) and issubclass(StoreError, ScorekeeperError)
    db = tmp_path / "db"
    first = Store(db)
    try:
        for spelling in (db, str(db), str(db) + "/", db / "matches" / ".."):
            with pytest.raises(StoreLockedError) as e:
                Store(spelling)
            assert_locked_message(str(e.value), db)
        # the refused opens did not release the first Store's lock (as closing an fcntl/lockf lock would)
        r = run_child("--try-open", str(db))
        assert r.returncode == 3, r.stdout + r.stderr
        assert_locked_message(r.stdout.decode(), db)
        rec = random_record(5, max_hands=1)
        mid = first.create(dict(rec, hands=[]))
        for e in entries_of(rec)[:4]:
            first.append(mid, e)
    finally:
        first.close()
    with Store(db) as again:
        assert again.problems == []
        assert entries_of(again.record(mid)) == entries_of(rec)[:4]
    r = run_child("--try-open", str(db))
    assert (r.returncode, r.stdout) == (0, b"opened\n"), r.stderr


def test_a_symlinked_path_to_an_open_database_is_refused(tmp_path):
    db = tmp_path / "db"
    link = tmp_path / "link"
    with Store(db):
        link.symlink_to(db)
        with pytest.raises(StoreLockedError):
            Store(link)


def test_the_context_manager_releases_the_lock(tmp_path):
    db = tmp_path / "db"
    with Store(db) as store:
        assert store.ids() == []
        fd = os.open(db / "lock", os.O_RDWR)  # a separate open file: its lock conflicts with the store's
        try:
            assert not lock_descriptor(fd, blocking=False)
        finally:
            os.close(fd)
    fd = os.open(db / "lock", os.O_RDWR)
    try:
        assert lock_descriptor(fd, blocking=False)  # free now
        with pytest.raises(StoreLockedError) as e:  # and Store honours a lock someone else holds on it
            Store(db, wait=0)
        assert_locked_message(str(e.value), db)
    finally:
        os.close(fd)
    with Store(db) as store:
        assert store.ids() == []


def test_a_second_app_instance_gets_a_clear_message_and_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LOCK_WAIT", "0.2")  # the holder does not let go: no need to wait 5 s
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    holder = subprocess.Popen(
        [sys.executable, str(CHILD), "--hold", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env=child_env(),
    )  # fmt: skip
    try:
        line = holder.stdout.readline().decode()
        assert line.startswith("holding "), line + holder.stderr.read().decode()
        before = snapshot(db)
        with pytest.raises(StoreLockedError) as e:
            Store(db)
        assert_locked_message(str(e.value), db)
        r = run_child("--try-open", str(db))
        assert r.returncode == 3, (r.stdout, r.stderr)
        msg = r.stdout.decode()
        assert msg.startswith("locked ") and msg.count("\n") == 1, msg
        assert_locked_message(msg, db)
        assert snapshot(db) == before
        assert holder.poll() is None
    finally:
        holder.kill()  # a lock held by a killed process is released
        holder.wait(timeout=30)
    with Store(db) as store:
        assert store.problems == []
        assert_all_readable(store, recs)


def test_only_one_of_several_instances_started_at_once_gets_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LOCK_WAIT", "0.2")  # the holder does not let go: no need to wait 5 s
    db = tmp_path / "db"
    procs = [
        subprocess.Popen(
            [sys.executable, str(CHILD), "--hold", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=child_env(),
        )  # fmt: skip
        for _ in range(4)
    ]
    try:
        lines = [p.stdout.readline().decode() for p in procs]
        holding = [line for line in lines if line.startswith("holding ")]
        assert len(holding) == 1, lines
        for p, line in zip(procs, lines, strict=True):
            if not line.startswith("holding "):
                assert p.wait(timeout=30) == 3 and line.startswith("locked "), (line, p.stderr.read())
                assert_locked_message(line, db)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=30)
    with Store(db) as store:
        assert store.problems == [] and store.ids() == []


def test_a_child_whose_test_run_is_gone_stops(tmp_path):
    """A test run killed mid-test leaves no child behind appending or holding the store: a
    child whose STORE_CHILD_PARENT is gone ends by itself."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    env = dict(child_env(), STORE_CHILD_PARENT=str(gone.pid))
    holder = subprocess.Popen(
        [sys.executable, str(CHILD), "--hold", str(tmp_path / "db")], stdout=subprocess.PIPE, cwd=ROOT, env=env
    )
    assert holder.stdout is not None and holder.stdout.readline().startswith(b"holding ")
    assert holder.wait(timeout=20) == 0
