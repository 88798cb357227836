"""Functional tests of the match store: append, reopen, undo/redo, edits, listing, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli

from scorekeeper.allfives import random_record, score_record
from scorekeeper.errors import IllegalPlacementError, ScorekeeperError
from scorekeeper.store import Store, StoreError, default_path, entries_of


def snapshot(path: Path) -> dict:
    """Every file's bytes under a database directory (the lock file aside)."""
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file() and p.name != "lock"
    }


def empty(rec: dict) -> dict:
    return dict(rec, hands=[])


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 10**6), st.integers(2, 5))
def test_entries_appended_one_by_one_are_the_record_after_reopening(tmp_path_factory, seed, players):
    path = tmp_path_factory.mktemp("db")
    rec = random_record(seed, players, max_hands=3, claim_rate=0.3)
    with Store(path) as store:
        mid = store.create(empty(rec))
        for entry in entries_of(rec):
            store.append(mid, entry)
        assert store.record(mid) == rec
    with Store(path) as store:
        assert store.record(mid) == rec
        assert store.match(mid).scores == list(score_record(rec)["scores"].values())


def test_an_illegal_entry_is_refused_with_the_engine_message_and_nothing_changes(tmp_path):
    with Store(tmp_path) as store:
        mid = store.create({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]})
        store.append(mid, {"hand": {"leader": "Ann"}})
        store.append(mid, {"turn": {"play": "3-2"}})
        before = snapshot(tmp_path)
        with pytest.raises(IllegalPlacementError) as e:
            store.append(mid, {"turn": {"play": "6-6"}})
        assert str(e.value).startswith("hand 1, turn 2: 6-6 matches no open end")
        with pytest.raises(StoreError):
            store.append(mid, {"tile": "6-6"})
        with pytest.raises(ScorekeeperError) as e:
            store.append(mid, {"hand": {"leader": 5}})  # parsed like a record's hand 2
        assert str(e.value) == "hand 2, leader: must name a player, not a number"
        assert snapshot(tmp_path) == before
        assert store.record(mid)["hands"][0]["turns"] == [{"play": "3-2"}]
        store.append(mid, {"turn": {"play": "3-3", "on": "3-2"}})  # still usable


def test_undo_and_redo(tmp_path):
    rec = random_record(5, 2, max_hands=2)
    entries = entries_of(rec)
    with Store(tmp_path) as store:
        mid = store.create(empty(rec))
        for entry in entries:
            store.append(mid, entry)
        taken = [store.undo(mid) for _ in range(5)]
        assert taken == entries[::-1][:5]
        assert entries_of(store.record(mid)) == entries[:-5]
    with Store(tmp_path) as store:  # the redo stack is durable too
        assert store.redo(mid) == entries[-5]
        assert entries_of(store.record(mid)) == entries[:-4]
        store.undo(mid)
        store.append(mid, entries[-5])  # a new entry clears the redo stack
        with pytest.raises(StoreError, match="nothing to redo"):
            store.redo(mid)
        while entries_of(store.record(mid)):
            store.undo(mid)
        with pytest.raises(StoreError, match="nothing to undo"):
            store.undo(mid)
        assert store.match(mid).hands == []


def two_hand_match(store) -> str:
    mid = store.create(
        {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"], "rules": {"hand_size": 2}}
    )
    for entry in (
        {"hand": {"leader": "Ann"}},
        {"turn": {"play": "3-2"}},
        {"turn": {"play": "2-2", "on": "3-2"}},
        {"turn": {"play": "3-6", "on": "3-2"}},  # Ann dominoes (count 6 + 4 = 10)
        {"remaining": {"Ben": ["5-5"]}},
    ):
        store.append(mid, entry)
    return mid


def test_editing_a_past_entry_revalidates_the_rest(tmp_path):
    with Store(tmp_path) as store:
        mid = two_hand_match(store)
        # the lead 3-2 counts 5, then 6-3 makes 10, and Ben's 5-5 settles round5(10) = 10
        assert store.match(mid).scores == [5 + 10 + 10, 0]
        # a mis-entered tile corrected: 3-5 instead of 3-6: count 5 + 4 = 9, no points
        store.edit(mid, 1, 3, {"play": "3-5", "on": "3-2"})
        assert store.match(mid).scores == [5 + 10, 0]
        before = snapshot(tmp_path)
        # an edit that makes a later entry illegal: 2-2 can no longer go on a 1-0 lead
        with pytest.raises(ScorekeeperError) as e:
            store.edit(mid, 1, 1, {"play": "1-0"})
        assert str(e.value).startswith("hand 1, turn 2: ")
        with pytest.raises(ScorekeeperError) as e:
            store.edit(mid, 1, "remaining", {"Ben": ["3-2"]})  # 3-2 is on the table
        assert str(e.value).startswith("hand 1, remaining: ")
        with pytest.raises(StoreError, match="no turn 9"):
            store.edit(mid, 1, 9, {"pass": True})
        assert snapshot(tmp_path) == before
        assert store.record(mid)["hands"][0]["turns"][2] == {"play": "3-5", "on": "3-2"}


def test_listing_is_newest_first_paged_and_cached_totals_follow_the_record(tmp_path):
    with Store(tmp_path) as store:
        ids = store.bulk_import([random_record(s, 2, max_hands=1) for s in range(25)])
        mid = two_hand_match(store)
        page1 = store.list(0, 10)
        assert [m["id"] for m in page1][0] == mid
        assert len(page1) == 10 and len(store.list(20, 10)) == 6
        listed = [m["id"] for m in store.list(limit=None)]
        assert sorted(listed) == sorted(ids + [mid]) and len(set(listed)) == 26
        assert page1[0]["scores"] == {"Ann": 25, "Ben": 0}
        store.undo(mid)  # takes back Ben's remaining: the cache is stale now; listing brings it back in line
        assert store.list(0, 1)[0]["scores"] == {"Ann": 15, "Ben": 0}
        assert store.latest_unfinished() == mid
        assert store.summary(mid) == store.list(0, 1)[0]  # one match's entry, without listing
    # the index is only a cache: deleting it loses nothing
    (tmp_path / "index.json").unlink()
    with Store(tmp_path) as store:
        assert store.count() == 26
        assert {m["id"]: m["scores"] for m in store.list(limit=None)}[mid] == {"Ann": 15, "Ben": 0}


def test_listing_refreshes_in_memory_and_the_index_file_follows_at_closing(tmp_path):
    """A wall lists the store at every entry of any table: listing brings the cached fields
    up to date in memory and does not write index.json each time (two fsyncs on the
    server's loop); closing writes it, and a store that was never closed (a killed server)
    loses nothing: the next one reads the changed match files."""
    index = tmp_path / "index.json"
    with Store(tmp_path) as store:
        mid = two_hand_match(store)
        store.list(limit=None)
        written = index.read_bytes()
        store.undo(mid)
        assert store.list(0, 1)[0]["scores"] == {"Ann": 15, "Ben": 0}
        assert index.read_bytes() == written  # not written for a listing
        killed = snapshot(tmp_path)
    assert index.read_bytes() != written  # written at closing, with the listing's fields
    assert json.loads(index.read_text(encoding="utf-8"))["matches"]["1"]["scores"] == {"Ann": 15, "Ben": 0}
    # as the files stood before closing (a server killed then): nothing is lost
    for path in list(tmp_path.rglob("*")):
        if path.is_file() and str(path.relative_to(tmp_path)) not in killed:
            path.unlink()
    for name, data in killed.items():
        (tmp_path / name).write_bytes(data)
    with Store(tmp_path) as store:
        assert store.list(0, 1)[0]["scores"] == {"Ann": 15, "Ben": 0}


def test_won_matches_are_marked_in_the_index(tmp_path):
    with Store(tmp_path) as store:
        rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"], "rules": {"target": 10}}
        mid = store.create(rec)
        store.append(mid, {"hand": {"leader": "Ann"}})
        store.append(mid, {"turn": {"play": "5-5"}})
        row = store.list(0, 1)[0]
        assert (row["status"], row["winner"]) == ("won", "Ann")
        assert store.latest_unfinished() is None
        with pytest.raises(ScorekeeperError, match="the match is over"):
            store.append(mid, {"turn": {"play": "5-0"}})


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path))
    assert default_path() == tmp_path / "matches-db"
    monkeypatch.delenv("FLET_APP_STORAGE_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "scorekeeper"


# ---------------------------------------------------------------- the CLI
def run(*args, stdin=None):
    """`scorekeeper ARGS` (in this process); stdout and stderr as text."""
    return run_cli(*args, stdin=stdin)


def test_cli_import_export_list_round_trip(tmp_path):
    db1, db2 = tmp_path / "one", tmp_path / "two"
    rec = random_record(11, 3, max_hands=2)
    rec["title"] = "Friday — Café"
    src = tmp_path / "rec.json"
    src.write_text(json.dumps(rec), encoding="utf-8")
    r = run("--db", str(db1), "import", str(src))
    assert r.returncode == 0, r.stderr
    mid = r.stdout.strip()
    exported = run("--db", str(db1), "export", mid)
    assert exported.returncode == 0 and json.loads(exported.stdout) == rec
    r2 = run("--db", str(db2), "import", "-", stdin=exported.stdout)
    assert r2.returncode == 0, r2.stderr
    again = run("--db", str(db2), "export", r2.stdout.strip())
    assert again.stdout == exported.stdout  # byte for byte
    listed = run("--db", str(db1), "list", "--json")
    rows = json.loads(listed.stdout)
    assert [(x["id"], x["game"], x["players"]) for x in rows] == [(mid, "all-fives", ["P1", "P2", "P3"])]
    assert rows[0]["scores"] == score_record(rec)["scores"] and {"started", "status"} <= rows[0].keys()
    table = run("--db", str(db1), "list")
    assert mid in table.stdout and "P1, P2, P3" in table.stdout


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["crlf", "crlf and a BOM"])
def test_a_record_saved_on_windows_imports_and_exports_as_it_was(tmp_path, bom):
    """Windows's editors end lines with CRLF (Notepad may begin the file with a BOM too): the
    record imports from a file and from standard input, and is the same record."""
    rec = random_record(12, 2, max_hands=1)
    rec["title"] = "Friday — Café"
    text = json.dumps(rec, indent=2, ensure_ascii=False).replace("\n", "\r\n")
    assert "\r\n" in text
    src = tmp_path / "saved-on-windows.json"
    src.write_bytes(bom + text.encode("utf-8"))
    db = tmp_path / "db"
    from_file = run("--db", str(db), "import", str(src))
    from_stdin = run("--db", str(db), "import", "-", stdin=(bom + text.encode("utf-8")).decode("utf-8"))
    assert (from_file.returncode, from_stdin.returncode) == (0, 0), from_file.stderr + from_stdin.stderr
    for mid in (from_file.stdout.strip(), from_stdin.stdout.strip()):
        assert json.loads(run("--db", str(db), "export", mid).stdout) == rec
    assert json.loads(run("score", str(src)).stdout)["scores"] == score_record(rec)["scores"]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann"]}),
        json.dumps(
            {
                "format": "scorekeeper/1",
                "game": "all-fives",
                "players": ["Ann", "Ben"],
                "hands": [{"leader": "Ann", "turns": [{"play": "3-2"}, {"play": "6-6"}]}],
            }
        ),
    ],
)
def test_cli_refuses_an_invalid_record_and_leaves_the_database_as_it_was(tmp_path, content):
    db = tmp_path / "db"
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(random_record(3, 2, max_hands=1)), encoding="utf-8")
    assert run("--db", str(db), "import", str(ok)).returncode == 0
    before = snapshot(db)
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    r = run("--db", str(db), "import", str(bad))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert snapshot(db) == before


def test_cli_unknown_id_and_unusable_path(tmp_path):
    r = run("--db", str(tmp_path), "export", "no-such-match")
    assert r.returncode == 2 and "no match 'no-such-match'" in r.stderr and "Traceback" not in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    r = run("--db", str(blocker), "list")
    assert r.returncode == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.stderr
