"""A read-only store: ``Store(path, read_only=True)`` reads a database another Scorekeeper holds.

The issue: while the app runs (its Store holds the database's lock), the command
line's `list` and `export` must still work. A read-only store takes no lock and
writes nothing at all -- no lock file, no removal of temporary files, no index
write, no directory made, no corrupt file moved aside -- and every method that
writes raises a clear StoreError. Writers replace files atomically, so it reads
whole files; a match file or index that vanishes or changes between listing and
reading gives the freshest data or a clear StoreError, never a traceback; the
temporary files of a write in flight are not matches.

``support.tree_state`` is the "nothing was written" check: every entry's inode,
mode, size, mtime and ctime, and every file's bytes, the directories included.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT, STORE_CHILD, build_db, full_record, list_row, process_env, rebuild, run_cli, tree_state

from scorekeeper.store import AtomicJSONStorage, Store, StoreError, entries_of

_spec = importlib.util.spec_from_file_location("store_child", STORE_CHILD)
store_child = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(store_child)
record_for = store_child.record_for  # the child's records, seed for seed


# ---------------------------------------------------------------- helpers
SEED = 700  # the random games of this file's databases


def brief(row: dict) -> dict:
    return {k: row[k] for k in ("hands", "scores", "status", "winner")}


def assert_reads(store: Store, recs: dict[str, dict]) -> None:
    """The store lists and reads exactly these matches, each as it is."""
    assert sorted(store.ids()) == sorted(recs)
    rows = store.list(limit=None)
    assert sorted(r["id"] for r in rows) == sorted(recs)
    for row in rows:
        assert brief(row) == list_row(recs[row["id"]]), row["id"]
    for mid, rec in recs.items():
        assert store.record(mid) == rec, mid
        assert json.loads(store.export(mid)) == rec


def read_only_message(e: pytest.ExceptionInfo, db: Path) -> str:
    msg = str(e.value)
    assert "read-only" in msg and str(db) in msg, msg
    return msg


# ---------------------------------------------------------------- reading
def test_a_read_only_store_reads_what_a_store_wrote_and_writes_nothing(tmp_path):
    recs = build_db(tmp_path, seed=SEED)
    with Store(tmp_path) as rw:
        expected = {
            "list": rw.list(limit=None),
            "export": {mid: rw.export(mid) for mid in recs},
            "summary": {mid: rw.summary(mid) for mid in recs},
            "latest": rw.latest_unfinished(),
            "find": {mid: rw.find(rec) for mid, rec in recs.items()},
        }
    before = tree_state(tmp_path)
    with Store(tmp_path, read_only=True) as ro:
        assert ro.read_only and ro.problems == []
        assert ro.count() == len(recs)
        assert ro.list(limit=None) == expected["list"]
        assert ro.list(offset=1, limit=2) == expected["list"][1:3]
        assert {mid: ro.export(mid) for mid in recs} == expected["export"]  # byte for byte
        assert {mid: ro.summary(mid) for mid in recs} == expected["summary"]
        assert ro.latest_unfinished() == expected["latest"]
        assert {mid: ro.find(rec) for mid, rec in recs.items()} == expected["find"]
        for mid, rec in recs.items():
            assert ro.match(mid).scores == list(list_row(rec)["scores"].values())
            ro.refresh(mid)  # in memory only
        with pytest.raises(StoreError, match="no match 'no-such-match'"):
            ro.record("no-such-match")
        with pytest.raises(StoreError, match="no match"):
            ro.record("../index")
    assert tree_state(tmp_path) == before
    with pytest.raises(StoreError, match="closed"):
        ro.record(next(iter(recs)))


def test_it_opens_while_a_store_holds_the_lock_and_reads_each_new_entry(tmp_path):
    db = tmp_path / "db"
    rec = full_record(1, SEED)
    entries = entries_of(rec)
    with Store(db) as rw:
        mid = rw.create(dict(rec, hands=[]))
        ro = Store(db, read_only=True)
        for n, entry in enumerate(entries, start=1):
            rw.append(mid, entry)
            if n % 7 == 0 or n == len(entries):
                assert ro.record(mid) == rebuild(rec, entries[:n])
                (row,) = ro.list()
                assert brief(row) == list_row(rebuild(rec, entries[:n]))
        ro.close()
        assert rw.record(mid) == rec  # the writer is untouched by the reader


def test_a_missing_database_is_a_clear_error_and_is_not_made(tmp_path):
    for db in (tmp_path / "nothing", tmp_path / "nothing" / "deeper"):
        with pytest.raises(StoreError) as e:
            Store(db, read_only=True)
        assert str(e.value).startswith(f"no database at {db}"), str(e.value)
    assert list(tmp_path.iterdir()) == []
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="not a directory"):
        Store(blocker, read_only=True)


def test_an_empty_directory_lists_nothing_and_stays_empty(tmp_path):
    before = tree_state(tmp_path)
    with Store(tmp_path, read_only=True) as ro:
        assert (ro.ids(), ro.list(), ro.latest_unfinished(), ro.problems) == ([], [], None, [])
        with pytest.raises(StoreError, match="no match"):
            ro.export("20240101-000000-abcdef")
    assert tree_state(tmp_path) == before
    (tmp_path / "matches").mkdir()
    (tmp_path / "index.json").write_text('{"meta": {"1": {"schema": 1}}, "matches": {}}', encoding="utf-8")
    with Store(tmp_path, read_only=True) as ro:
        assert ro.list() == []


# ---------------------------------------------------------------- writing is refused
WRITES = {
    "create": lambda s, mid, rec: s.create(dict(rec, hands=[])),
    "import_record": lambda s, mid, rec: s.import_record(rec),
    "bulk_import": lambda s, mid, rec: s.bulk_import([rec, rec]),
    "append": lambda s, mid, rec: s.append(mid, {"hand": {}}),
    "undo": lambda s, mid, rec: s.undo(mid),
    "redo": lambda s, mid, rec: s.redo(mid),
    "edit": lambda s, mid, rec: s.edit(mid, 1, 1, rec["hands"][0]["turns"][0]),
    "delete": lambda s, mid, rec: s.delete(mid),
}


@pytest.mark.parametrize("method", list(WRITES))
def test_every_method_that_writes_raises_a_clear_store_error(tmp_path, method):
    recs = build_db(tmp_path, n=2, seed=SEED)
    mid, rec = next(iter(recs.items()))
    before = tree_state(tmp_path)
    with Store(tmp_path, read_only=True) as ro:
        with pytest.raises(StoreError) as e:
            WRITES[method](ro, mid, rec)
        msg = read_only_message(e, tmp_path)
        assert msg.startswith("cannot "), msg
        assert_reads(ro, recs)  # and the store goes on reading
    assert tree_state(tmp_path) == before


def test_the_read_only_storage_refuses_to_write(tmp_path):
    storage = AtomicJSONStorage(tmp_path / "x.json", read_only=True)
    assert storage.read() is None
    with pytest.raises(StoreError, match="read-only"):
        storage.write({"t": {}})
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- nothing written, whatever it finds
def make_stale_index_with_leftovers(db: Path) -> tuple[dict[str, dict], str]:
    """A database whose index is behind a match file, with a corrupt match file and the
    temporary files of writes in flight. Returns ({id: record} of the readable matches, the corrupt one's id)."""
    recs = build_db(db, seed=SEED)
    ids = list(recs)
    # the index behind: entries appended by a store that never closed (killed)
    grow = ids[-1]
    done = entries_of(recs[grow])
    full = full_record(len(ids) - 1, SEED)
    extra = entries_of(full)[len(done) : len(done) + 3]
    index_before = (db / "index.json").read_bytes()
    with Store(db) as rw:
        for e in extra:
            rw.append(grow, e)
    (db / "index.json").write_bytes(index_before)  # as a store killed before it wrote the index left it
    recs[grow] = rebuild(full, done + extra)
    victim = ids[0]
    path = db / "matches" / f"{victim}.json"
    path.write_bytes(path.read_bytes()[:40])  # truncated
    del recs[victim]
    pid = 999_999
    (db / f".index.json.tmp-{pid}").write_bytes(b'{"meta": {"1": {"sch')
    (db / "matches" / f".{ids[1]}.json.tmp-{pid}").write_bytes(b"")
    return recs, victim


def test_a_stale_index_a_corrupt_file_and_temporary_files_are_read_around_and_left_as_they_are(tmp_path):
    recs, victim = make_stale_index_with_leftovers(tmp_path)
    before = tree_state(tmp_path)
    with Store(tmp_path, read_only=True) as ro:
        assert len(ro.problems) == 1, ro.problems
        assert f"{victim}.json could not be read" in ro.problems[0] and "left as it is" in ro.problems[0]
        assert_reads(ro, recs)
        with pytest.raises(StoreError) as e:
            ro.record(victim)
        assert "could not be read" in str(e.value) and "left as it is" in str(e.value)
        assert len(ro.problems) == 1, ro.problems  # reported once
    assert tree_state(tmp_path) == before
    assert not list(tmp_path.rglob("*.corrupt-*"))
    # a store that writes still does what it did: the corrupt file is moved aside, the leftovers removed
    with Store(tmp_path) as rw:
        assert any("moved aside" in p for p in rw.problems), rw.problems
        assert sorted(rw.ids()) == sorted(recs)
    assert len(list(tmp_path.rglob("*.corrupt-*"))) == 1
    assert not list(tmp_path.rglob(".*.tmp-*"))


@pytest.mark.parametrize("index", [b"", b"{not json", b"[1, 2]", b'{"matches": {"1": {"id": 5}}}', None])
def test_a_corrupt_missing_or_meta_less_index_lists_every_match_from_its_file(tmp_path, index):
    recs = build_db(tmp_path, seed=SEED)
    if index is None:
        (tmp_path / "index.json").unlink()
    else:
        (tmp_path / "index.json").write_bytes(index)
    before = tree_state(tmp_path)
    with Store(tmp_path, read_only=True) as ro:
        assert_reads(ro, recs)
        if index in (b"", b"{not json", b"[1, 2]"):
            assert len(ro.problems) == 1 and ro.problems[0].startswith("index.json could not be read"), ro.problems
            assert "left as it is" in ro.problems[0]
        else:
            assert ro.problems == []
    assert tree_state(tmp_path) == before


@pytest.mark.parametrize("where", ["index", "match file"])
def test_a_newer_schema_is_refused_as_by_a_store_that_writes(tmp_path, where):
    recs = build_db(tmp_path, n=2, seed=SEED)
    target = tmp_path / "index.json" if where == "index" else tmp_path / "matches" / f"{next(iter(recs))}.json"
    doc = json.loads(target.read_bytes())
    for table in doc.values():
        for d in table.values():
            if d.get("schema") == 1:
                d["schema"] = 2
    target.write_text(json.dumps(doc), encoding="utf-8")
    os.utime(target, ns=(1, 1))  # changed since the index saw it
    before = tree_state(tmp_path)
    with pytest.raises(StoreError, match="newer Scorekeeper"):
        Store(tmp_path, read_only=True)
    assert tree_state(tmp_path) == before


# ---------------------------------------------------------------- a writer between listing and reading
def test_a_match_changed_created_or_deleted_after_opening_is_read_as_it_is_now(tmp_path):
    db = tmp_path / "db"
    recs = build_db(db, seed=SEED)
    ids = list(recs)
    grow, gone = ids[-1], ids[0]
    full = full_record(len(ids) - 1, SEED)
    with Store(db, read_only=True) as ro:
        assert_reads(ro, recs)
        with Store(db) as rw:  # the app, meanwhile
            done = entries_of(recs[grow])
            for e in entries_of(full)[len(done) :]:
                rw.append(grow, e)
            rw.delete(gone)
            new = rw.create(dict(full_record(9, SEED), hands=[]))
        recs[grow] = full
        assert ro.record(grow) == full
        assert brief(ro.summary(grow)) == list_row(full)
        with pytest.raises(StoreError) as e:
            ro.record(gone)
        assert "no longer" in str(e.value), str(e.value)
        assert ro.record(new) == dict(full_record(9, SEED), hands=[])  # newer than the store, found by its id
        rows = {r["id"]: r for r in ro.list(limit=None)}
        assert gone not in rows and brief(rows[grow]) == list_row(full) and new in rows
        assert ro.problems == []


def test_a_match_file_deleted_or_replaced_between_listing_and_reading(tmp_path, monkeypatch):
    """The race inside opening: the directory was listed, then the writer deleted one file
    and replaced another before the reader read them."""
    recs = build_db(tmp_path, seed=SEED)
    ids = list(recs)
    deleted, replaced = ids[0], ids[-1]
    full = full_record(len(ids) - 1, SEED)
    rpath = tmp_path / "matches" / f"{replaced}.json"
    old = rpath.read_bytes()
    with Store(tmp_path) as rw:  # what the writer is about to write: the rest of the match
        for e in entries_of(full)[len(entries_of(recs[replaced])) :]:
            rw.append(replaced, e)
    newer = rpath.read_bytes()
    rpath.write_bytes(old)  # the file as it was when the reader listed the directory
    os.utime(tmp_path / "matches" / f"{deleted}.json", ns=(1, 1))  # changed since the index saw it
    original = Store._read_match_file
    raced = set()

    def racing(self, path):
        if path.stem not in raced:
            raced.add(path.stem)
            if path.stem == deleted:
                path.unlink()
            elif path.stem == replaced:
                tmp = path.with_name(f".{path.name}.tmp-1")
                tmp.write_bytes(newer)
                os.replace(tmp, path)
        return original(self, path)

    monkeypatch.setattr(Store, "_read_match_file", racing)
    with Store(tmp_path, read_only=True) as ro:
        assert ro.problems == []
        del recs[deleted]
        recs[replaced] = full
        assert_reads(ro, recs)


# ---------------------------------------------------------------- reading while a process writes
def test_reads_while_a_process_appends_are_always_a_prefix_of_what_it_appends(tmp_path):
    """The writer (store_child.py) creates matches and appends their entries as fast as it
    can; meanwhile this process opens the database read-only again and again and reads
    every match through the store and the command line. Every read parses, and every
    match read is its record after some number of its entries -- never fewer than an
    earlier read saw -- and every list row agrees with some such prefix."""
    db = tmp_path / "db"
    run_seed, limit, max_hands = 17, 1500, 2
    out = tmp_path / "child.out"
    with open(out, "wb") as f:
        child = subprocess.Popen(
            [sys.executable, str(STORE_CHILD), str(db), str(run_seed), str(limit), str(max_hands)],
            stdout=f,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=process_env(PYTHONDONTWRITEBYTECODE="1"),
        )
    reads: dict[str, list[dict]] = {}  # id -> records read, in order
    rows: dict[str, list[dict]] = {}  # id -> list rows, in order
    rounds_while_writing = 0
    try:
        deadline = time.monotonic() + 60
        while b"open " not in out.read_bytes():
            assert child.poll() is None and time.monotonic() < deadline, child.stderr.read()
            time.sleep(0.001)
        i = 0
        while True:
            writing = child.poll() is None
            i += 1
            if i % 3 == 0:  # through the command line (in this process)
                listed = run_cli("--db", db, "list", "--json")
                assert (listed.returncode, listed.stderr) == (0, ""), listed.stderr
                for row in json.loads(listed.stdout):
                    rows.setdefault(row["id"], []).append(row)
                    exported = run_cli("--db", db, "export", row["id"])
                    assert (exported.returncode, exported.stderr) == (0, ""), exported.stderr
                    reads.setdefault(row["id"], []).append(json.loads(exported.stdout))
            else:
                with Store(db, read_only=True) as ro:
                    assert ro.problems == []
                    for row in ro.list(limit=None):
                        rows.setdefault(row["id"], []).append(row)
                        reads.setdefault(row["id"], []).append(ro.record(row["id"]))
            if not writing:
                break
            rounds_while_writing += 1
        assert child.wait(timeout=60) == 0, child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()
    assert rounds_while_writing >= 3, "the reads did not overlap the writes"
    created = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        if line.startswith("created "):
            _, mid, seed = line.split()
            created[mid] = int(seed)
    assert set(reads) == set(created)
    partial = 0
    for mid, seed in created.items():
        k = seed - run_seed * 1000
        full = record_for(run_seed, k, max_hands)[1]
        entries = entries_of(full)
        prefixes = [rebuild(full, entries[:n]) for n in range(len(entries) + 1)]
        where = {json.dumps(p, sort_keys=True): n for n, p in enumerate(prefixes)}
        seen = [where.get(json.dumps(r, sort_keys=True)) for r in reads[mid]]
        assert None not in seen, f"match {mid}: a read that is no prefix of the writer's entries"
        assert seen == sorted(seen), f"match {mid}: a read older than an earlier one: {seen}"
        partial += sum(0 < n < len(entries) for n in seen)
        briefs = [json.dumps(list_row(p), sort_keys=True) for p in prefixes]
        for row in rows[mid]:
            assert json.dumps(brief(row), sort_keys=True) in briefs, (mid, row)
    assert partial > 0, "no read caught a match in the middle of its entries"
    with Store(db) as rw:  # the writer's database is as it left it
        assert rw.problems == []
        assert sorted(rw.ids()) == sorted(created)
