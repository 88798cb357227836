"""Hardening of the match store: one bad file, a full disk, odd ids and a busy lock.

The issue (store part): one bad match file or index must never take the whole
database down -- it is moved aside (a read-only store leaves it as it is) with a
one-line warning naming the file and what was done, and every other match still
lists and opens; an import either stores the match and says so, or says it
failed and stores nothing; every OSError reaches the caller as a StoreError with
one clear line; opening never needs to write; an id is matched whole (no
trailing newline); a command that writes waits a moment for another short writer
before it gives up with the "in use" message.

A full or failing disk is played by :class:`Disk`, which puts a stand-in for the
``os`` module into ``scorekeeper/store/storage.py`` and ``store.py`` whose
chosen calls fail (``OSError(ENOSPC)`` by default) for chosen paths.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support import (
    ROOT,
    HeldStore,
    build_db,
    full_record,
    list_row,
    make_fifo,
    process_env,
    rebuild,
    run_cli,
    run_cli_process,
)

import scorekeeper.store.errors as store_errors
import scorekeeper.store.storage as storage_module
import scorekeeper.store.store as store_module
from scorekeeper.allfives import random_record
from scorekeeper.errors import TextError
from scorekeeper.store import Store, StoreError, StoreLockedError, entries_of

TIMEOUT = 60  # a bound on what must not hang; never a speed requirement


# ---------------------------------------------------------------- helpers
def one_line(text: str) -> str:
    assert "\n" not in text.rstrip("\n") and "Traceback" not in text, text
    return text


def cli_lines(ran: Any) -> list[str]:
    """The lines a command wrote on standard error: each a warning or an error, no traceback."""
    assert "Traceback" not in ran.stderr, ran.stderr
    lines = ran.stderr.splitlines()
    for line in lines:
        assert line.startswith(("warning: ", "error: ")), ran.stderr
    return lines


def ok(ran: Any) -> str:
    assert ran.returncode == 0, (ran.returncode, ran.stderr)
    cli_lines(ran)
    return str(ran.stdout)


def listed_ids(db: Path, run: Callable[..., Any] = run_cli) -> list[str]:
    ran = run("--db", db, "list", "--json")
    return [row["id"] for row in json.loads(ok(ran))]


def assert_all_open(store: Store, recs: dict[str, dict]) -> None:
    """The store lists exactly these matches and opens each as it is."""
    assert sorted(store.ids()) == sorted(recs)
    rows = {r["id"]: r for r in store.list(limit=None)}
    assert sorted(rows) == sorted(recs)
    for mid, rec in recs.items():
        assert store.record(mid) == rec, mid
        assert {k: rows[mid][k] for k in list_row(rec)} == list_row(rec)


def assert_cli_lists_and_exports(
    db: Path, recs: dict[str, dict], run: Callable[..., Any] = run_cli, run_rest: Callable[..., Any] | None = None
) -> list[str]:
    """`list`, `list --json` and `export` of every match work (exit 0); returns the warnings of `list`.
    ``run_rest`` (default ``run``) runs the exports after the first: the first, run by ``run``,
    already shows that an export reads around whatever is in the folder."""
    assert sorted(listed_ids(db, run)) == sorted(recs)
    table = run("--db", db, "list")
    text = ok(table)
    for i, mid in enumerate(recs):
        assert mid in text
        export = run if i == 0 or run_rest is None else run_rest
        assert json.loads(ok(export("--db", db, "export", mid))) == recs[mid]
    return cli_lines(table)


def aside(directory: Path, name: str) -> list[Path]:
    return sorted(directory.glob(f"{name}.corrupt-*"))


def match_file(db: Path, mid: str) -> Path:
    return db / "matches" / f"{mid}.json"


def stored_files(db: Path) -> list[str]:
    return sorted(p.name for p in (db / "matches").iterdir())


class Disk:
    """Disk trouble for the store: ``disk.fail("write", "index.json")`` makes every
    ``os.write`` to a file whose path contains ``index.json`` (its temporary file included)
    fail with ENOSPC; ``after=n`` lets the first n such calls through. Calls: open (making
    a new file), write, pwrite, fsync (of a file or a directory), replace, unlink."""

    @dataclass
    class Rule:
        call: str
        where: str
        code: int
        after: int

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rules: list[Disk.Rule] = []
        self.fds: dict[int, str] = {}
        self.failed: list[str] = []
        real = os
        disk = self

        class FailingOs:
            def __getattr__(self, name: str) -> Any:
                return getattr(real, name)

            def open(self, path: Any, flags: int, mode: int = 0o777, **kw: Any) -> int:
                if flags & real.O_CREAT and not real.path.lexists(path):  # a new file needs room
                    disk.check("open", str(path), filename=True)
                fd = real.open(path, flags, mode, **kw)
                disk.fds[fd] = str(path)
                return fd

            def close(self, fd: int) -> None:
                disk.fds.pop(fd, None)
                real.close(fd)

            def write(self, fd: int, data: Any) -> int:
                disk.check("write", disk.fds.get(fd, ""))
                return real.write(fd, data)

            def pwrite(self, fd: int, data: Any, offset: int) -> int:
                disk.check("pwrite", disk.fds.get(fd, ""))
                return real.pwrite(fd, data, offset)

            def fsync(self, fd: int) -> None:
                disk.check("fsync", disk.fds.get(fd, ""))
                real.fsync(fd)

            def replace(self, src: Any, dst: Any) -> None:
                disk.check("replace", str(dst), filename=True)
                real.replace(src, dst)

            def unlink(self, path: Any) -> None:
                disk.check("unlink", str(path), filename=True)
                real.unlink(path)

        monkeypatch.setattr(storage_module, "os", FailingOs())
        monkeypatch.setattr(store_module, "os", FailingOs())

    def fail(self, call: str, where: str = "", code: int = errno.ENOSPC, after: int = 0) -> Disk:
        self.rules.append(Disk.Rule(call, where, code, after))
        return self

    def heal(self) -> None:
        self.rules.clear()

    def check(self, call: str, path: str, filename: bool = False) -> None:
        for rule in self.rules:
            if rule.call == call and rule.where in path:
                if rule.after > 0:
                    rule.after -= 1
                    continue
                self.failed.append(f"{call} {path}")
                raise OSError(rule.code, os.strerror(rule.code), *([path] if filename else []))


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    return Disk(monkeypatch)


# ================================================================ 1. one bad file
def with_game(data: bytes, game: Any) -> bytes:
    doc = json.loads(data)
    record = doc["match"]["1"]["record"]
    if game is KeyError:
        del record["game"]
    else:
        record["game"] = game
    return json.dumps(doc).encode()


BAD_GAMES = {
    "a list": ["all-fives"],
    "an object": {"id": "all-fives"},
    "a number": 5,
    "null": None,
    "missing": KeyError,
}


@pytest.mark.parametrize("how", list(BAD_GAMES))
def test_a_match_file_whose_game_is_not_a_string_is_moved_aside_and_the_rest_opens(tmp_path, how):
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[1]
    path = match_file(db, victim)
    bad = with_game(path.read_bytes(), BAD_GAMES[how])
    path.write_bytes(bad)
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    # read-only (the CLI's list and export): reported, left as it is, every other match listed
    warnings = assert_cli_lists_and_exports(db, others)
    assert len(warnings) == 1 and f"{victim}.json" in warnings[0] and "left as it is" in warnings[0], warnings
    assert "game" in warnings[0] and "not a string" in warnings[0], warnings
    ran = run_cli("--db", db, "export", victim)
    assert ran.returncode == 2 and len(cli_lines(ran)) == 1 and "left as it is" in ran.stderr
    assert path.read_bytes() == bad
    # a store that writes moves it aside and says where to
    with Store(db) as store:
        (moved,) = aside(db / "matches", path.name)
        assert moved.read_bytes() == bad and not path.exists()
        shown = how if how in ("a list", "an object", "a number") else "null"  # a missing game is null
        assert store.problems == [
            f"{victim}.json could not be read (its record's game is {shown}, not a string); "
            f"it was moved aside to {moved.name}"
        ]
        assert_all_open(store, others)
        with pytest.raises(StoreError, match="no match"):
            store.record(victim)
    with Store(db) as store:
        assert store.problems == []
    assert ok(run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(9)))).strip() in listed_ids(db)


def test_an_unknown_game_is_kept_reported_and_does_not_stop_the_rest(tmp_path):
    """A game that is a string but unknown (perhaps a newer Scorekeeper's) is kept where it is."""
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[0]
    path = match_file(db, victim)
    path.write_bytes(with_game(path.read_bytes(), "chess"))
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    warnings = assert_cli_lists_and_exports(db, others)
    assert len(warnings) == 1 and f"match {victim} holds an invalid record" in warnings[0], warnings
    assert "unknown game 'chess'" in warnings[0] and "kept" in warnings[0]
    with Store(db) as store:
        assert len(store.problems) == 1 and "unknown game 'chess'" in store.problems[0]
        assert path.exists() and not aside(db / "matches", path.name)
        assert sorted(store.ids()) == sorted(others)  # its cached fields no longer hold: not listed
        with pytest.raises(StoreError, match="no match"):
            store.record(victim)
        for mid, rec in others.items():
            assert store.record(mid) == rec
        reported = store.problems
    with Store(db) as store:  # still there: reported at every opening
        assert store.problems == reported
    ran = run_cli("--db", db, "export", victim)
    assert ran.returncode == 2 and cli_lines(ran) == [
        "error: game: unknown game 'chess' (known: all-fives, all-fours, broadway)"
    ]


@contextlib.contextmanager
def unblocking(fifo: Path, after: float = TIMEOUT) -> Iterator[threading.Event]:
    """If someone is still stuck opening or reading ``fifo`` after ``after`` seconds, let
    them go (open its writing end and close it) and set the event: the test then fails."""
    done = threading.Event()
    fired = threading.Event()

    def watch() -> None:
        if done.wait(after):
            return
        fired.set()
        while not done.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            time.sleep(0.05)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    try:
        yield fired
    finally:
        done.set()
        t.join(TIMEOUT)


def unstuck_cli(path: Path) -> Callable[..., Any]:
    """``run_cli`` in this process, failing (not hanging) if it waits on ``path``."""

    def run(*args: Any) -> Any:
        with unblocking(path) as stuck:
            ran = run_cli(*args)
        assert not stuck.is_set(), f"the command waited on {path.name}"
        return ran

    return run


def make_special(path: Path, kind: str) -> Any:
    """Put a FIFO, a directory or a socket where a file should be; returns what keeps it alive."""
    if kind == "FIFO":
        make_fifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "inside").write_text("x", encoding="utf-8")
    else:  # bound under a short name (a socket's path is short), then moved into place
        short = Path(tempfile.mkdtemp(dir=path.parent)) / "s"
        if len(os.fsencode(short)) >= 100:
            pytest.skip("the path is too long for a Unix socket")
        if not hasattr(socket, "AF_UNIX"):
            pytest.skip("no Unix sockets (AF_UNIX) here")
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(short))
        os.rename(short, path)
        short.parent.rmdir()
        return s
    return None


SPECIAL = {"FIFO": "a FIFO", "directory": "a directory", "socket": "a socket"}


@pytest.mark.parametrize("kind", list(SPECIAL))
def test_a_match_file_that_is_no_regular_file_is_moved_aside_and_nothing_hangs(tmp_path, kind):
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[2]
    path = match_file(db, victim)
    path.unlink()
    keep = make_special(path, kind)
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    try:
        # as processes (a hang would be a timeout): list and export read around it (the other
        # matches' exports in this process: the same reading, after the first export showed it ends)
        warnings = assert_cli_lists_and_exports(
            db, others, run=lambda *a: run_cli_process(*a, timeout=TIMEOUT), run_rest=unstuck_cli(path)
        )
        assert warnings == [
            f"warning: {victim}.json could not be read (it is {SPECIAL[kind]}, not a regular file); "
            "it was left as it is (the database was opened read-only)"
        ]
        assert stat.S_IFMT(path.lstat().st_mode) != stat.S_IFREG
        with unblocking(path) as stuck:
            with Store(db) as store:
                (moved,) = aside(db / "matches", path.name)
                assert store.problems == [
                    f"{victim}.json could not be read (it is {SPECIAL[kind]}, not a regular file); "
                    f"it was moved aside to {moved.name}"
                ]
                assert_all_open(store, others)
            assert not stuck.is_set(), "opening the store waited on the FIFO"
        assert not path.exists() and stat.S_IFMT(moved.lstat().st_mode) != stat.S_IFREG
        mid = ok(run_cli_process("--db", db, "import", "-", stdin=json.dumps(full_record(9)), timeout=TIMEOUT))
        assert mid.strip() in listed_ids(db)
    finally:
        if keep is not None:
            keep.close()


def test_a_fifo_index_is_moved_aside_and_rebuilt(tmp_path):
    db = tmp_path / "db"
    recs = build_db(db)
    index = db / "index.json"
    index.unlink()
    make_fifo(index)
    warnings = assert_cli_lists_and_exports(
        db, recs, run=lambda *a: run_cli_process(*a, timeout=TIMEOUT), run_rest=unstuck_cli(index)
    )
    assert len(warnings) == 1 and warnings[0].startswith("warning: index.json could not be read (it is a FIFO")
    with unblocking(index) as stuck:
        with Store(db) as store:
            assert_all_open(store, recs)
            (moved,) = aside(db, "index.json")
            assert f"moved aside to {moved.name}" in store.problems[0]
        assert not stuck.is_set()
    assert stat.S_ISREG(index.stat().st_mode) and stat.S_ISFIFO(moved.lstat().st_mode)


def unreadable(monkeypatch: pytest.MonkeyPatch, path: Path, code: int = errno.EACCES) -> None:
    """Reading ``path`` fails as the system says (the tests run as root: chmod would not stop them)."""
    real = store_module.read_tables

    def read_tables(p: Path) -> Any:
        if Path(p) == path:
            raise OSError(code, os.strerror(code), str(p))
        return real(p)

    monkeypatch.setattr(store_module, "read_tables", read_tables)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO])
def test_an_unreadable_match_file_is_left_where_it_is_still_listed_and_the_rest_opens(tmp_path, monkeypatch, code):
    """The disk's trouble is not the file's: its match stays listed with what the index knows
    of it (it is on the disk, perhaps whole), and opening it says why it cannot be read."""
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[0]
    path = match_file(db, victim)
    before = path.read_bytes()
    os.utime(path, ns=(1, 1))  # changed since the index saw it: read at opening
    unreadable(monkeypatch, path, code)
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    expected = (
        f"{victim}.json could not be read ({path}: {os.strerror(code)} ({errno.errorcode[code]})); it was left as it is"
    )
    assert sorted(listed_ids(db)) == sorted(recs)
    table = run_cli("--db", db, "list")
    assert victim in ok(table) and cli_lines(table) == [f"warning: {expected}"]
    ran = run_cli("--db", db, "export", victim)
    assert ran.returncode == 2 and len(cli_lines(ran)) == 1 and "could not be read" in ran.stderr
    for mid, rec in others.items():
        assert json.loads(ok(run_cli("--db", db, "export", mid))) == rec
    with Store(db) as store:
        assert store.problems == [expected]
        assert sorted(store.ids()) == sorted(recs)
        assert {r["id"]: {k: r[k] for k in list_row(recs[victim])} for r in store.list(limit=None)}[victim] == list_row(
            recs[victim]
        )
        with pytest.raises(StoreError, match="could not be read") as e:
            store.undo(victim)
        assert (
            e.value.plain
            == f"could not read the match: {store_errors.plain_words(OSError(code, ''))}; nothing was changed"
        )
        for mid, rec in others.items():
            assert store.record(mid) == rec
        # its id is not given to another match: the file is not overwritten
        mid = store.import_record(dict(next(iter(others.values())), id=victim))
        assert mid != victim
    assert path.read_bytes() == before and not aside(db / "matches", path.name)
    assert victim in json.loads((db / "index.json").read_bytes())["matches"]["1"]["id"]
    monkeypatch.undo()
    with Store(db) as store:  # readable again: it opens
        assert store.record(victim) == recs[victim]
        assert store.problems == []


def test_an_unreadable_match_file_the_index_does_not_know_is_listed_once_it_can_be_read(tmp_path, monkeypatch):
    """A match stored since the index was written, whose file cannot be read at opening
    (too many open files): reported, not listed (nothing is known of it), the index not
    written without it, and listed as soon as it can be read -- no restart needed."""
    db = tmp_path / "db"
    recs = build_db(db)
    index = (db / "index.json").read_bytes()
    with Store(db) as store:
        late = store.create(full_record(9))
    (db / "index.json").write_bytes(index)  # as if the app was killed before it wrote the index
    unreadable(monkeypatch, match_file(db, late), errno.EMFILE)
    with Store(db) as store:
        assert len(store.problems) == 1 and store.problems[0].startswith(f"{late}.json could not be read (")
        assert sorted(store.ids()) == sorted(recs)
        mid = store.create(full_record(8))
        assert (db / "index.json").read_bytes() == index  # not written without the match it cannot read
        monkeypatch.undo()
        assert sorted(r["id"] for r in store.list(limit=None)) == sorted([*recs, late, mid])
        assert store.record(late) == full_record(9)
    assert sorted(d["id"] for d in json.loads((db / "index.json").read_bytes())["matches"].values()) == sorted(
        [*recs, late, mid]
    )


def index_with(db: Path, change: Callable[[dict], None]) -> bytes:
    path = db / "index.json"
    index = json.loads(path.read_bytes())
    change(index)
    bad = json.dumps(index).encode()
    path.write_bytes(bad)
    return bad


def _first(index: dict) -> dict:
    return index["matches"]["1"]


BAD_INDEXES: dict[str, Callable[[dict], None]] = {
    "a document without id": lambda ix: _first(ix).pop("id"),
    "an id that is a number": lambda ix: _first(ix).__setitem__("id", 5),
    "an id ending in a newline": lambda ix: _first(ix).__setitem__("id", _first(ix)["id"] + "\n"),
    "a document that is a list": lambda ix: ix["matches"].__setitem__("1", [1, 2]),
    "a game that is a list": lambda ix: _first(ix).__setitem__("game", ["all-fives"]),
    "players that are a string": lambda ix: _first(ix).__setitem__("players", "Ann"),
    "scores that are a list": lambda ix: _first(ix).__setitem__("scores", [1, 2]),
    "no status": lambda ix: _first(ix).pop("status"),
    "a signature of the wrong shape": lambda ix: _first(ix).__setitem__("sig", "x"),
    "a key that is no number": lambda ix: ix["matches"].__setitem__("one", ix["matches"].pop("1")),
    "a match listed twice": lambda ix: ix["matches"].__setitem__("9", dict(_first(ix))),
    "a meta document that is a list": lambda ix: ix.__setitem__("meta", {"1": [1]}),
}


@pytest.mark.parametrize("how", list(BAD_INDEXES))
def test_an_index_of_the_wrong_shape_is_moved_aside_and_rebuilt(tmp_path, how):
    db = tmp_path / "db"
    recs = build_db(db)
    bad = index_with(db, BAD_INDEXES[how])
    # read-only: every match read from its file, the index left as it is; the table prints
    warnings = assert_cli_lists_and_exports(db, recs)
    assert len(warnings) == 1 and warnings[0].startswith("warning: index.json could not be read ("), warnings
    assert "left as it is" in warnings[0]
    assert (db / "index.json").read_bytes() == bad
    # a store that writes: moved aside and rebuilt
    with Store(db) as store:
        (moved,) = aside(db, "index.json")
        assert moved.read_bytes() == bad
        assert store.problems[0].startswith("index.json could not be read (") and moved.name in store.problems[0]
        assert store.problems[1:] == [f"the index was rebuilt from {len(recs)} match files"]
        assert_all_open(store, recs)
    with Store(db) as store:
        assert store.problems == []
        assert_all_open(store, recs)
    assert ok(run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(9)))).strip() in listed_ids(db)


def test_a_meta_less_index_with_documents_of_any_shape_is_rebuilt_without_a_complaint(tmp_path):
    db = tmp_path / "db"
    recs = build_db(db)
    (db / "index.json").write_text('{"matches": {"1": {"id": 5}, "x": [1]}}', encoding="utf-8")
    assert assert_cli_lists_and_exports(db, recs) == []
    with Store(db) as store:
        assert store.problems == [f"the index was rebuilt from {len(recs)} match files"]
        assert not aside(db, "index.json")
        assert_all_open(store, recs)


def test_a_newer_index_is_refused_whatever_its_documents_look_like(tmp_path):
    """A newer schema may shape its documents differently: refused, never moved aside."""
    db = tmp_path / "db"
    build_db(db)
    bad = index_with(db, lambda ix: (ix["meta"]["1"].__setitem__("schema", 2), _first(ix).pop("id")))
    for read_only in (True, False):
        with pytest.raises(StoreError, match="newer Scorekeeper"):
            Store(db, read_only=read_only)
    assert (db / "index.json").read_bytes() == bad and not aside(db, "index.json")


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__("redo", 5),
        lambda d: d.__setitem__("redo", [1]),
        lambda d: d.__setitem__("created", 7),
        lambda d: d.__setitem__("record", [1]),
    ],
    ids=["redo a number", "redo not entries", "created a number", "record a list"],
)
def test_a_match_document_of_the_wrong_shape_is_moved_aside(tmp_path, change):
    db = tmp_path / "db"
    recs = build_db(db)
    victim = list(recs)[1]
    path = match_file(db, victim)
    doc = json.loads(path.read_bytes())
    change(doc["match"]["1"])
    path.write_text(json.dumps(doc), encoding="utf-8")
    others = {mid: rec for mid, rec in recs.items() if mid != victim}
    (warning,) = assert_cli_lists_and_exports(db, others)
    assert warning.startswith(f"warning: {victim}.json could not be read (") and "left as it is" in warning
    with Store(db) as store:
        assert len(store.problems) == 1 and "moved aside" in store.problems[0]
        assert_all_open(store, others)


def test_a_match_file_under_another_document_number_is_still_written(tmp_path):
    """TinyDB numbers documents; a match file whose one document is not numbered 1 reads and saves."""
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    mid = list(recs)[1]  # half entered
    path = match_file(db, mid)
    doc = json.loads(path.read_bytes())
    doc["match"] = {"7": doc["match"]["1"]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    full = full_record(1)
    nxt = entries_of(full)[len(entries_of(recs[mid]))]
    with Store(db) as store:
        store.append(mid, nxt)
        assert store.undo(mid) == nxt
        store.redo(mid)
    with Store(db) as store:
        assert store.problems == []
        assert store.record(mid) == rebuild(full, entries_of(recs[mid]) + [nxt])


# ================================================================ 2. an import is all or nothing
def test_an_import_whose_index_cannot_be_written_is_stored_once_and_reported_as_stored(tmp_path, disk):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    rec = full_record(7)
    disk.fail("write", "index.json")
    ran = run_cli("--db", db, "import", "-", stdin=json.dumps(rec))
    mid = ok(ran).strip()
    assert any("index.json" in f for f in disk.failed), "the index write did not fail"
    with Store(db) as store:  # the disk still full: stored, and the index kept in memory
        assert len(store.problems) == 1 and store.problems[0].startswith("index.json could not be written (")
        assert "No space left on device (ENOSPC)" in store.problems[0]
        again = store.import_record(dict(rec, title="again"))
        assert store.problems[1:] == []  # reported once
        assert store.record(again) == dict(rec, title="again")
    disk.heal()
    with Store(db) as store:
        assert store.problems == []
        assert_all_open(store, {**recs, mid: rec, again: dict(rec, title="again")})
    assert sorted(listed_ids(db)) == sorted([*recs, mid, again])


@pytest.mark.parametrize("call", ["open", "write", "fsync", "replace"])
def test_an_import_whose_match_file_cannot_be_written_stores_nothing(tmp_path, disk, call):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    files, index = stored_files(db), (db / "index.json").read_bytes()
    disk.fail(call, "/matches/")
    ran = run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(7)))
    assert ran.returncode == 2 and ran.stdout == ""
    (line,) = cli_lines(ran)
    assert "No space left on device (ENOSPC)" in line and line.endswith("; nothing was stored"), line
    assert stored_files(db) == files and (db / "index.json").read_bytes() == index
    disk.heal()
    assert sorted(listed_ids(db)) == sorted(recs)


def test_a_match_file_written_but_not_made_durable_is_taken_back(tmp_path, disk):
    """The rename is done but the directory cannot be synced: the import reports failure,
    so the match must not be there (a retry would store it twice)."""
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    files = stored_files(db)
    disk.fail("fsync", str(db / "matches"), code=errno.EIO)
    with Store(db) as store:
        with pytest.raises(StoreError) as e:
            store.create(full_record(7))
        assert one_line(str(e.value)).endswith("nothing was stored") and "(EIO)" in str(e.value)
        assert sorted(store.ids()) == sorted(recs)
    assert stored_files(db) == files
    disk.heal()
    assert sorted(listed_ids(db)) == sorted(recs)


def test_a_bulk_import_that_fails_half_way_takes_back_what_it_wrote(tmp_path, disk):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    files = stored_files(db)
    batch = [dict(full_record(10 + i), id=f"batch-{i}") for i in range(4)]
    disk.fail("write", "batch-2")
    with Store(db) as store:
        with pytest.raises(StoreError) as e:
            store.bulk_import(batch)
        assert one_line(str(e.value)).startswith("record 3 of 4 could not be stored (")
        assert str(e.value).endswith("nothing was stored")
        assert sorted(store.ids()) == sorted(recs)
        assert stored_files(db) == files
        disk.heal()
        assert store.bulk_import(batch) == [f"batch-{i}" for i in range(4)]  # the retry stores each once
    with Store(db) as store:
        assert store.problems == []
        assert_all_open(store, {**recs, **{f"batch-{i}": r for i, r in enumerate(batch)}})


# ================================================================ 3. every OSError is a StoreError
OPERATIONS: dict[str, Callable[[Store, str, dict], Any]] = {
    "create": lambda s, mid, rec: s.create(full_record(7)),
    "bulk_import": lambda s, mid, rec: s.bulk_import([full_record(7), full_record(8)]),
    "append": lambda s, mid, rec: s.append(mid, entries_of(full_record(1))[len(entries_of(rec))]),
    "undo": lambda s, mid, rec: s.undo(mid),
    "redo": lambda s, mid, rec: (s.undo(mid), s.redo(mid)),
    "edit": lambda s, mid, rec: s.edit(mid, 1, "leader", rec["hands"][0].get("leader")),
    "delete": lambda s, mid, rec: s.delete(mid),
    "close": lambda s, mid, rec: (s.append(mid, entries_of(full_record(1))[len(entries_of(rec))]), s.close()),
}
FAILURES = [("open", ""), ("write", ""), ("fsync", ""), ("replace", ""), ("unlink", ""), ("write", "index.json")]


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("call,where", FAILURES)
def test_every_os_error_reaches_the_caller_as_one_clear_store_error(tmp_path, disk, operation, call, where):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    mid = list(recs)[1]  # half entered
    store = Store(db)
    try:
        disk.fail(call, where, code=errno.EIO)
        try:
            OPERATIONS[operation](store, mid, recs[mid])
        except StoreError as e:
            msg = one_line(str(e))
            assert "Input/output error (EIO)" in msg, msg
            assert isinstance(e.__cause__, OSError)  # and the original error is kept
        # anything else (a raw OSError above all) fails the test
    finally:
        disk.heal()
        store.close()
    with Store(db) as store:  # and the database is whole
        assert not [p for p in store.problems if "could not be read" in p], store.problems
        for m in store.ids():
            store.record(m)


def test_a_delete_the_disk_refuses_says_the_match_is_still_stored(tmp_path, disk):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    mid = list(recs)[0]
    with Store(db) as store:
        disk.fail("unlink", mid, code=errno.EROFS)
        with pytest.raises(StoreError) as e:
            store.delete(mid)
        assert one_line(str(e.value)) == (
            f"match {mid} could not be deleted ({match_file(db, mid)}: Read-only file system (EROFS)); "
            "it is still stored"
        )
        assert store.record(mid) == recs[mid]


def test_an_unusable_database_directory_is_a_store_error(tmp_path):
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "matches").write_text("not a directory", encoding="utf-8")
    for read_only in (False, True):
        with pytest.raises(StoreError) as e:
            Store(tmp_path / "db", read_only=read_only)
        assert "Not a directory (ENOTDIR)" in one_line(str(e.value))
    ran = run_cli("--db", tmp_path / "db", "import", "-", stdin=json.dumps(full_record(1)))
    assert ran.returncode == 2 and len(cli_lines(ran)) == 1 and "ENOTDIR" in ran.stderr


# ================================================================ 4. opening never needs to write
def make_index_stale(db: Path, recs: dict[str, dict]) -> dict[str, dict]:
    """Entries appended by a store killed before it wrote the index."""
    mid = list(recs)[-1]
    full = full_record(len(recs) - 1)
    done = entries_of(recs[mid])
    extra = entries_of(full)[len(done) : len(done) + 2]
    before = (db / "index.json").read_bytes()
    with Store(db) as store:
        for e in extra:
            store.append(mid, e)
    (db / "index.json").write_bytes(before)
    return {**recs, mid: rebuild(full, done + extra)}


@pytest.mark.parametrize("index", ["stale", "missing", "corrupt", "wrong shape"])
def test_a_store_that_writes_opens_on_a_full_disk(tmp_path, disk, index):
    db = tmp_path / "db"
    recs = make_index_stale(db, build_db(db))
    if index == "missing":
        (db / "index.json").unlink()
    elif index == "corrupt":
        (db / "index.json").write_bytes(b"{not json")
    elif index == "wrong shape":
        index_with(db, lambda ix: _first(ix).pop("id"))
    index_bytes = (db / "index.json").read_bytes() if index != "missing" else None
    disk.fail("open").fail("write").fail("pwrite").fail("replace")  # nothing can be written, nor moved
    with Store(db) as store:
        written = [p for p in store.problems if p.startswith("index.json could not be written")]
        assert len(written) == 1 and "No space left on device (ENOSPC)" in written[0], store.problems
        if index in ("corrupt", "wrong shape"):
            assert any("it could not be moved aside" in p for p in store.problems), store.problems
        assert_all_open(store, recs)
    assert any(f.startswith(("open", "write", "replace")) for f in disk.failed)
    assert ((db / "index.json").read_bytes() if index != "missing" else None) == index_bytes
    disk.heal()
    with Store(db) as store:
        assert_all_open(store, recs)
    with Store(db) as store:
        assert store.problems == []


def test_an_index_behind_after_a_failed_write_is_written_whole_once_the_disk_has_room(tmp_path, disk):
    db = tmp_path / "db"
    recs = build_db(db, n=3)
    with Store(db) as store:
        disk.fail("write", "index.json")
        mid = store.create(full_record(8))
        store.delete(list(recs)[0])
        disk.heal()
    # closed with room again: the index says what the store knew, and nothing needs a re-read
    index = json.loads((db / "index.json").read_bytes())
    expected = {**{m: r for m, r in recs.items() if m != list(recs)[0]}, mid: full_record(8)}
    assert sorted(d["id"] for d in index["matches"].values()) == sorted(expected)
    with Store(db) as store:
        assert store.problems == []
        assert_all_open(store, expected)


# ================================================================ 5. ids are matched whole
BAD_IDS = ["20240101-000000-abcdef\n", "abc\n", "a" * 64 + "\n", "abc\n\n", "\nabc", "abc\r", "abc/x", "../abc", ""]


@pytest.mark.parametrize("bad", BAD_IDS, ids=repr)
def test_an_id_with_a_trailing_newline_or_another_odd_character_is_refused_everywhere(tmp_path, bad):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    good = list(recs)[0]
    rec = full_record(9)
    # import: a record's own id is kept only when it is a whole match id
    with Store(db) as store:
        if "\n" in bad or "\r" in bad:  # a line break is no text a record may hold (issue 26)
            with pytest.raises(TextError, match="^id: must be printable text"):
                store.import_record(dict(rec, id=bad))
        else:
            mid = store.import_record(dict(rec, id=bad))
            assert mid != bad and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", mid)
            assert store.record(mid) == dict(rec, id=bad)  # the record as given
        for method in (store.record, store.export, store.summary, store.delete, store.undo, store.refresh):
            with pytest.raises(StoreError, match="no match"):
                method(bad)
    assert all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\.json", name) for name in stored_files(db))
    with Store(db, read_only=True) as ro:
        for method in (ro.record, ro.export, ro.summary):
            with pytest.raises(StoreError, match="no match"):
                method(bad)
    ran = run_cli("--db", db, "export", bad)
    assert ran.returncode == 2 and len(cli_lines(ran)) == 1 and "no match" in ran.stderr
    assert good in listed_ids(db)


def test_a_match_file_named_with_a_trailing_newline_is_not_a_match_and_is_reported(tmp_path):
    """What an earlier Scorekeeper may have stored: reported, left as it is, never offered."""
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    good = list(recs)[0]
    odd = db / "matches" / f"{good}\n.json"
    odd.write_bytes(match_file(db, good).read_bytes())
    note = f"{repr(odd.name)} in {db / 'matches'} is not named after a match id; it is not read and was left as it is"
    assert assert_cli_lists_and_exports(db, recs) == [f"warning: {note}"]
    ran = run_cli("--db", db, "export", f"{good}\n")
    assert ran.returncode == 2 and len(cli_lines(ran)) == 1
    with Store(db) as store:
        assert store.problems == [note]
        assert_all_open(store, recs)
        with pytest.raises(StoreError, match="no match"):
            store.record(f"{good}\n")
    assert odd.exists()


# ================================================================ 6. a writer waits a moment for the lock
HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, str(os.getpid()).encode(), 0)
print("held", flush=True)
sys.stdin.readline()
"""


@contextlib.contextmanager
def short_writer(db: Path, release_after: float) -> Iterator[threading.Event]:
    """Another process holding the lock as another command's import does, letting it go
    ``release_after`` seconds from now; the event is set just before it lets go."""
    db.mkdir(parents=True, exist_ok=True)
    p = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db / "lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=process_env(),
    )
    assert p.stdin is not None and p.stdout is not None
    released = threading.Event()
    try:
        assert p.stdout.readline() == b"held\n"

        def release() -> None:
            released.set()
            assert p.stdin is not None
            p.stdin.write(b"go\n")
            p.stdin.flush()

        timer = threading.Timer(release_after, release)
        timer.start()
        yield released
        timer.join(TIMEOUT)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait(TIMEOUT)
        p.stdin.close()
        p.stdout.close()


def test_a_store_that_writes_waits_for_a_short_writer_to_finish(tmp_path):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    with short_writer(db, 0.3) as released:
        with Store(db, wait=TIMEOUT) as store:
            assert released.is_set(), "the store opened while the other one held the lock"
            assert_all_open(store, recs)


def test_an_import_waits_for_another_import_instead_of_being_refused(tmp_path, monkeypatch):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    monkeypatch.setattr(store_module, "LOCK_WAIT", float(TIMEOUT))  # the CLI's Store(path) waits this long
    with short_writer(db, 0.3) as released:
        mid = ok(run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(7)))).strip()
        assert released.is_set()
    assert sorted(listed_ids(db)) == sorted([*recs, mid])


def test_the_app_holding_the_database_still_gets_the_message_after_the_wait(tmp_path, monkeypatch):
    db = tmp_path / "db"
    src = tmp_path / "rec.json"
    src.write_text(json.dumps(random_record(3, 2, max_hands=1)), encoding="utf-8")
    wait = 0.3
    monkeypatch.setattr(store_module, "LOCK_WAIT", wait)
    with HeldStore(db) as app:
        expected = f"the database {db} is in use by another Scorekeeper (pid {app.pid}); close that one first"
        started = time.monotonic()
        with pytest.raises(StoreLockedError) as e:
            Store(db)
        assert time.monotonic() - started >= wait, "it did not wait"
        assert str(e.value) == expected
        with pytest.raises(StoreLockedError) as e:
            Store(db, wait=0)
        assert str(e.value) == expected
        ran = run_cli("--db", db, "import", src)
        assert (ran.returncode, ran.stdout, cli_lines(ran)) == (2, "", [f"error: {expected}"])
        assert stored_files(db) == []


def test_a_store_of_this_very_process_is_refused_without_waiting(tmp_path):
    db = tmp_path / "db"
    with Store(db):
        started = time.monotonic()
        with pytest.raises(StoreLockedError, match="in use by another Scorekeeper"):
            Store(db, wait=10 * TIMEOUT)
        assert time.monotonic() - started < 5 * TIMEOUT, "it waited for itself"


@pytest.mark.parametrize("wait", [-1, float("nan")])
def test_a_wait_that_is_no_number_of_seconds_is_refused(tmp_path, wait):
    with pytest.raises(ValueError, match="wait"):
        Store(tmp_path / "db", wait=wait)
    assert not (tmp_path / "db").exists()
