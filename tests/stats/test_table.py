"""The kept table of ``stats`` (stats-table.json): printed as kept while nothing it was
made from changed, made again (and the same as a fresh count) whenever something did."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from scorekeeper import stats as stats_pkg
from scorekeeper.stats import figures, names, table
from scorekeeper.store import Store
from tests.stats.matchsets import duel, fives_threes, partners, unfinished


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "db"
    with Store(path) as s:
        s.bulk_import(
            [
                duel("Ann", "Ben", "2026-01-05T20:00:00Z"),
                partners(("Ann", "Cy"), ("Ben", "Di"), "2026-01-06T20:00:00Z"),
                fives_threes("Ann", "Ben", "2026-01-07T20:00:00Z"),
                unfinished("Cy", "Di", "2026-01-08T20:00:00Z"),
            ]
        )
    return path


REAL_COMPUTE = figures.compute


def counted(monkeypatch) -> list[int]:
    """How many times the figures are added up (not taken from the kept table)."""
    made: list[int] = []
    real = REAL_COMPUTE

    def spy(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(table.figures, "compute", spy)
    return made


def fresh(store: Store, game: str | None = None, now: dt.datetime | None = None) -> dict:
    return REAL_COMPUTE(stats_pkg.cache.load_all(store), names.load(store), now or dt.datetime.now(dt.UTC)).to_json(
        game=game, detail=False
    )


def test_the_kept_table_is_the_fresh_count_and_is_printed_as_kept(db, monkeypatch):
    made = counted(monkeypatch)
    with Store(db) as s:
        first = table.table(s)
        assert first == fresh(s) and (db / table.FILE).is_file()
        assert table.table(s) == first and table.table(s, "fives-and-threes") == fresh(s, "fives-and-threes")
    assert len(made) == 1


def test_a_new_or_changed_match_makes_it_again(db, monkeypatch):
    with Store(db) as s:
        table.table(s)
        made = counted(monkeypatch)
        s.import_record(duel("Di", "Cy", "2026-01-09T20:00:00Z"))
        assert table.table(s) == fresh(s) and len(made) == 1
        (mid,) = [m for m in s.ids() if s.summary(m)["status"] == "playing"]
        s.append(mid, {"turn": {"play": "5-5", "on": "5-0"}})
        assert table.table(s) == fresh(s) and len(made) == 2
        s.delete(mid)
        assert table.table(s) == fresh(s) and len(made) == 3
        assert table.table(s) == fresh(s) and len(made) == 3


def test_a_rename_makes_it_again(db, monkeypatch):
    with Store(db) as s:
        table.table(s)
        names.save(s, names.load(s).rename("Ben", "Benjamin"))
        made = counted(monkeypatch)
        rows = table.table(s)["players"]
        assert len(made) == 1 and {r["name"] for r in rows} >= {"Benjamin"} and "Ben" not in {r["name"] for r in rows}


def test_an_unfinished_match_left_a_day_is_counted_abandoned(db):
    with Store(db) as s:
        now = dt.datetime.now(dt.UTC)
        assert table.table(s, now=now)["matches"] == {"finished": 3, "unfinished": 1, "abandoned": 0}
        later = now + figures.ABANDONED_AFTER + dt.timedelta(minutes=1)
        assert table.table(s, now=later)["matches"] == {"finished": 3, "unfinished": 0, "abandoned": 1}


@pytest.mark.parametrize("damage", [b"", b"{", b"[]", b'{"schema": 1}', b'{"schema": 9, "matches": {}, "json": {}}'])
def test_a_damaged_table_is_made_again(db, damage, monkeypatch):
    with Store(db) as s:
        table.table(s)
        (db / table.FILE).write_bytes(damage)
        made = counted(monkeypatch)
        assert table.table(s) == fresh(s) and len(made) == 1
        assert json.loads((db / table.FILE).read_text(encoding="utf-8"))["schema"] == table.SCHEMA


def test_a_read_only_store_keeps_no_table(db):
    with Store(db, read_only=True) as s:
        assert table.table(s) == fresh(s)
    assert not (db / table.FILE).exists()
