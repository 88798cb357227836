"""`scorekeeper --db PATH list | export | import` while the app holds the database.

The issue: while the app runs, its store holds the database's lock. `list` and
`export` only read: they open the database read-only (no lock, nothing written),
so they work while the app runs and show what it has entered so far. `import`
writes: it is refused with the clear "in use by another Scorekeeper (pid N)"
message, status 2, and nothing is written.

``support.HeldStore`` plays the app: another process that holds the database
open and appends entries when asked (``tests/store/store_child.py --serve``).
"""

from __future__ import annotations

import json
from pathlib import Path

from support import HeldStore, list_row, rebuild, run_cli, run_cli_process, tree_state

from scorekeeper.allfives import random_record
from scorekeeper.store import Store, entries_of


def ok(ran) -> str:
    assert (ran.returncode, ran.stderr) == (0, ""), (ran.returncode, ran.stderr)
    return ran.stdout


def one_error_line(ran) -> str:
    assert ran.returncode == 2, (ran.returncode, ran.stdout, ran.stderr)
    assert ran.stdout == "" and "Traceback" not in ran.stderr
    lines = ran.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), ran.stderr
    return lines[0]


def listed(db: Path, run=run_cli) -> dict[str, dict]:
    return {row["id"]: row for row in json.loads(ok(run("--db", db, "list", "--json")))}


# ---------------------------------------------------------------- reading while the app runs
def test_list_and_export_work_while_the_app_holds_the_database_and_show_its_new_entries(tmp_path):
    db = tmp_path / "db"
    rec = random_record(40, 2, max_hands=40, target=100)  # P2 wins in hand 4
    other = random_record(41, 3, max_hands=1)
    entries = entries_of(rec)
    with HeldStore(db) as app:
        first = app.create(other)
        mid = app.create(dict(rec, hands=[]))
        done = 0
        for n in (0, 1, 2, len(entries) // 2, len(entries) - 1, len(entries)):
            for entry in entries[done:n]:
                app.append(mid, entry)
            done = n
            now = rebuild(rec, entries[:n])
            assert json.loads(ok(run_cli("--db", db, "export", mid))) == now
            rows = listed(db)
            assert list(rows) == [mid, first]  # newest first
            assert {k: rows[mid][k] for k in list_row(now)} == list_row(now)
            table = ok(run_cli("--db", db, "list"))
            line = next(x for x in table.splitlines() if x.startswith(mid))
            assert list_row(now)["status"] in line
        assert rows[mid]["status"] == "won" and rows[mid]["winner"] == "P2"
        assert "won (P2)" in line
        # a real process, as a user types it, while the app still runs
        exported = run_cli_process("--db", db, "export", mid)
        assert json.loads(ok(exported)) == rec
        assert listed(db, run_cli_process) == rows
        assert json.loads(ok(run_cli("--db", db, "export", first))) == other
    with Store(db) as store:  # what the app stored, exported byte for byte as the CLI did
        assert store.export(mid) == exported.stdout
        assert store.problems == []


def test_import_while_the_app_holds_the_database_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_LOCK_WAIT", "0.2")  # the app does not let go: no need to wait 5 s
    db = tmp_path / "db"
    src = tmp_path / "rec.json"
    rec = random_record(3, 2, max_hands=1)
    src.write_text(json.dumps(rec), encoding="utf-8")
    with HeldStore(db) as app:
        mid = app.create(dict(rec, hands=[]))
        before = tree_state(db)
        expected = f"error: the database {db} is in use by another Scorekeeper (pid {app.pid}); close that one first"
        assert one_error_line(run_cli("--db", db, "import", src)) == expected
        assert one_error_line(run_cli("--db", db, "import", "-", stdin=src.read_text(encoding="utf-8"))) == expected
        assert one_error_line(run_cli_process("--db", db, "import", src)) == expected
        assert tree_state(db) == before
        assert list(listed(db)) == [mid]  # reading goes on
    imported = run_cli("--db", db, "import", src)  # the app closed: the import goes through
    assert set(listed(db)) == {mid, ok(imported).strip()}


# ---------------------------------------------------------------- reading writes nothing
def test_list_and_export_write_nothing_with_a_stale_index_and_a_corrupt_match_file(tmp_path):
    db = tmp_path / "db"
    rec = random_record(5, 2, max_hands=2)
    entries = entries_of(rec)
    with HeldStore(db) as app:
        ids = [app.create(random_record(s, 2, max_hands=1)) for s in (6, 7)]
        mid = app.create(dict(rec, hands=[]))
        for entry in entries[:5]:
            app.append(mid, entry)
    with HeldStore(db) as app:  # the index knows the 5 entries (written when the app closed) ...
        for entry in entries[5:]:  # ... and an app that is still running appended the rest
            app.append(mid, entry)
        assert json.loads((db / "index.json").read_bytes())["matches"]["3"]["hands"] < len(rec["hands"])
        victim = db / "matches" / f"{ids[0]}.json"
        victim.write_bytes(victim.read_bytes()[:-9])  # a corrupt match file
        (db / "matches" / f".{mid}.json.tmp-{app.pid}").write_bytes(b'{"match"')  # a write in flight
        before = tree_state(db)
        table = run_cli("--db", db, "list")
        as_json = run_cli("--db", db, "list", "--json")
        exported = run_cli("--db", db, "export", mid)
        refused = run_cli("--db", db, "export", ids[0])
        assert tree_state(db) == before
    for ran in (table, as_json):
        assert ran.returncode == 0, ran.stderr
        (warning,) = ran.stderr.splitlines()
        assert warning.startswith(f"warning: {ids[0]}.json could not be read") and "left as it is" in warning
    rows = {row["id"]: row for row in json.loads(as_json.stdout)}
    assert set(rows) == {ids[1], mid}
    assert {k: rows[mid][k] for k in list_row(rec)} == list_row(rec)
    assert json.loads(ok(exported)) == rec
    assert "could not be read" in one_error_line(refused)
    assert not list(db.rglob("*.corrupt-*"))


def test_list_and_export_of_a_database_that_does_not_exist_say_so_and_make_nothing(tmp_path):
    db = tmp_path / "nowhere"
    for args in (["list"], ["list", "--json"], ["export", "20240101-000000-abcdef"]):
        line = one_error_line(run_cli("--db", db, *args))
        assert line.startswith(f"error: no database at {db}"), line
    assert not db.exists()
    db.mkdir()
    assert ok(run_cli("--db", db, "list")) == "no matches stored\n"
    assert json.loads(ok(run_cli("--db", db, "list", "--json"))) == []
    assert list(db.iterdir()) == []


# ---------------------------------------------------------------- the game as people name it
def test_list_names_a_fives_and_threes_match_by_its_kind_and_json_keeps_its_game(tmp_path):
    """Fives and Threes is an All Fives record with its own count: ``list`` names it as the
    statistics do (``stats --game fives-and-threes``); ``list --json`` keeps ``game`` (the
    record's) and adds ``kind``."""
    db = tmp_path / "db"
    pub = random_record(7, 2, max_hands=2, count="fives-and-threes", draw=False, spinner="none")
    with Store(db) as store:
        ids = [store.import_record(r) for r in (pub, random_record(8, 2, max_hands=1))]
    with HeldStore(db):  # read while the app holds the database, as ever
        table = ok(run_cli("--db", db, "list"))
        rows = listed(db)
    game_of = {line.split()[0]: line.split()[1] for line in table.splitlines()[1:]}
    assert game_of == {ids[0]: "fives-and-threes", ids[1]: "all-fives"}
    assert table.splitlines()[0].split()[:2] == ["id", "game"]
    assert {mid: (r["game"], r["kind"]) for mid, r in rows.items()} == {
        ids[0]: ("all-fives", "fives-and-threes"),
        ids[1]: ("all-fives", "all-fives"),
    }
