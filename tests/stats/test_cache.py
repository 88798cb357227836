"""The facts cache (stats.json), the names file (players.json) and ``scorekeeper stats``."""

from __future__ import annotations

import json

import pytest

from scorekeeper import stats as stats_pkg
from scorekeeper.stats import cache, names
from scorekeeper.store import Store, StoreError
from tests.stats.matchsets import duel, fives_threes, unfinished
from tests.support import run_cli


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "db"
    with Store(path) as s:
        s.bulk_import(
            [
                duel("Ann", "Ben", "2026-01-05T20:00:00Z"),
                duel("Ben", "Ann", "2026-01-06T20:00:00Z", loser_first=True),
                fives_threes("Ann", "Ben", "2026-01-07T20:00:00Z"),
            ]
        )
    return path


def built(store: Store, monkeypatch) -> list[str]:
    """The ids whose facts were built from the record (not taken from the cache)."""
    seen: list[str] = []
    real = cache._build

    def spy(store_: Store, mid: str):
        seen.append(mid)
        return real(store_, mid)

    monkeypatch.setattr(cache, "_build", spy)
    cache.load_all(store)
    return seen


def test_the_first_look_builds_and_saves_the_next_reads_the_cache(db, monkeypatch):
    with Store(db) as s:
        assert len(built(s, monkeypatch)) == 3
        assert (db / "stats.json").is_file()
        assert built(s, monkeypatch) == []
        assert len(cache.load_all(s)) == 3


def test_a_changed_match_is_built_again_and_only_it(db, monkeypatch):
    with Store(db) as s:
        cache.load_all(s)
        mid = s.import_record(unfinished("Ann", "Ben", "2026-01-08T20:00:00Z"))
        assert built(s, monkeypatch) == [mid]
        s.append(mid, {"turn": {"play": "5-5", "on": "5-0"}})
        assert built(s, monkeypatch) == [mid]
        assert {m.id: m.facts["scores"] for m in cache.load_all(s)}[mid] == [5, 10]


def test_a_deleted_match_leaves_the_figures(db):
    with Store(db) as s:
        first = sorted(s.ids())[0]
        cache.load_all(s)
        s.delete(first)
        assert first not in {m.id for m in cache.load_all(s)}
        assert first not in json.loads((db / "stats.json").read_text(encoding="utf-8"))["matches"]


@pytest.mark.parametrize(
    "damage",
    [b"", b"{not json", b"[]", b'{"schema": 99, "matches": {}}', b'{"schema": 1, "version": 0, "matches": {}}'],
)
def test_a_damaged_or_old_cache_is_rebuilt(db, monkeypatch, damage):
    with Store(db) as s:
        cache.load_all(s)
        (db / "stats.json").write_bytes(damage)
        assert len(built(s, monkeypatch)) == 3
        assert json.loads((db / "stats.json").read_text(encoding="utf-8"))["version"] > 0


def test_a_cache_entry_of_the_wrong_shape_is_rebuilt(db, monkeypatch):
    with Store(db) as s:
        cache.load_all(s)
        data = json.loads((db / "stats.json").read_text(encoding="utf-8"))
        mid = sorted(data["matches"])[0]
        data["matches"][mid] = {"sig": data["matches"][mid]["sig"], "facts": "nonsense"}
        (db / "stats.json").write_text(json.dumps(data), encoding="utf-8")
        assert built(s, monkeypatch) == [mid]


def test_a_read_only_store_writes_nothing(db, monkeypatch):
    with Store(db, read_only=True) as s:
        assert len(built(s, monkeypatch)) == 3
    assert not (db / "stats.json").exists()


def test_a_record_that_cannot_be_read_is_left_out_and_reported(db, monkeypatch):
    with Store(db) as s:
        mid = sorted(s.ids())[0]

        def broken(record):
            raise ValueError("what no engine expected")

        monkeypatch.setattr(cache._facts, "match_facts", broken)
        assert cache.load_all(s) == []
        assert any(mid in p and "left out of the statistics" in p for p in s.problems)


def test_figures_from_the_cache_equal_figures_built_afresh(db):
    with Store(db) as s:
        fresh = stats_pkg.of_store(s).to_json()
        again = stats_pkg.of_store(s).to_json()
    (db / "stats.json").unlink()
    with Store(db, read_only=True) as s:
        rebuilt = stats_pkg.of_store(s).to_json()
    assert fresh == again == rebuilt


# ------------------------------------------------------------------ names
def test_renames_and_merges_are_kept_in_the_database(db):
    with Store(db) as s:
        names.save(s, names.load(s).rename("Ben", "Benjamin"))
    with Store(db, read_only=True) as s:
        figures = stats_pkg.of_store(s)
        assert figures.line("Benjamin", "all-fives").matches and figures.line("ben", "all-fives").wins
        with pytest.raises(StoreError, match="read-only"):
            names.save(s, names.Names())


@pytest.mark.parametrize(
    "damage", [b"", b"{", b"[1]", b'{"schema": 1, "names": [1]}', b'{"schema": 1, "names": {"a": 5}}']
)
def test_a_damaged_names_file_means_no_renames(db, damage):
    (db / names.FILE).write_bytes(damage)
    with Store(db, read_only=True) as s:
        assert names.load(s).aliases in ({}, {})
        assert stats_pkg.of_store(s).line("Ann", "all-fives")


@pytest.mark.parametrize("bad", ["", "   ", "x" * 41])
def test_a_name_must_be_a_name(bad):
    from scorekeeper.errors import ScorekeeperError

    with pytest.raises(ScorekeeperError, match="name"):
        names.Names().rename("Ann", bad)


# ------------------------------------------------------------------ the command
def test_stats_json_one_object_per_player_and_game(db):
    ran = run_cli("--db", db, "stats", "--json")
    assert ran.returncode == 0, ran.stderr
    data = json.loads(ran.stdout)
    got = {(r["name"], r["game"]): (r["matches"], r["wins"], r["points"], r["hands"]) for r in data["players"]}
    assert got == {
        ("Ann", "all-fives"): (2, 1, 15, 2),
        ("Ben", "all-fives"): (2, 1, 10, 2),
        ("Ann", "fives-and-threes"): (1, 1, 8, 1),
        ("Ben", "fives-and-threes"): (1, 0, 3, 1),
    }
    assert data["matches"] == {"finished": 3, "unfinished": 0, "abandoned": 0}


def test_stats_for_one_player_and_one_game(db):
    ran = run_cli("--db", db, "stats", "--json", "--player", "ann", "--game", "fives-and-threes")
    rows = json.loads(ran.stdout)["players"]
    assert [(r["name"], r["game"], r["eights"]) for r in rows] == [("Ann", "fives-and-threes", 1)]
    text = run_cli("--db", db, "stats", "--player", "Ann").stdout
    assert "Ann, Fives and Threes:" in text and "8s: 1" in text and "against Ben: 1-0 in 1" in text


def test_stats_text_table(db):
    ran = run_cli("--db", db, "stats")
    assert ran.returncode == 0
    assert "3 finished matches (0 unfinished, 0 abandoned)" in ran.stdout
    assert "All Fives: players" in ran.stdout and "Fives and Threes: players" in ran.stdout


def test_stats_works_while_the_app_holds_the_database(db):
    with Store(db):
        ran = run_cli("--db", db, "stats", "--json")
    assert ran.returncode == 0 and json.loads(ran.stdout)["matches"]["finished"] == 3


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--player", "Zed"], "nobody called 'Zed'"),
        (["--game", "chess"], "--game: no game 'chess'"),
    ],
)
def test_stats_refuses_what_it_cannot_answer(db, args, words):
    ran = run_cli("--db", db, "stats", *args)
    assert ran.returncode == 2 and not ran.stdout
    assert ran.stderr.count("\n") == 1 and ran.stderr.startswith("error: ") and words in ran.stderr


def test_stats_of_no_database(tmp_path):
    ran = run_cli("--db", tmp_path / "none", "stats")
    assert ran.returncode == 2 and "no database at" in ran.stderr
    assert not (tmp_path / "none").exists()


def test_stats_knows_every_registered_game(db):
    from scorekeeper import registry
    from scorekeeper.cli import _stats_games

    assert set(registry.ids()) | {"fives-and-threes"} <= set(_stats_games())
    ran = run_cli("--db", db, "stats", "--json", "--game", "broadway")
    assert ran.returncode == 0 and json.loads(ran.stdout)["players"] == []
