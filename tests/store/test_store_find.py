"""``Store.find``: is a record already stored? The same game, players (and teams),
rules as the engine reads them, started time and hands -- whatever the ``id``,
``title`` and ``notes`` say, and however a tile is spelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import RECORDS

from scorekeeper.allfives import random_record
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store


def two_hands() -> dict:
    return json.loads((RECORDS / "two-hands.json").read_text(encoding="utf-8"))


def test_an_exported_record_is_found_again_whatever_its_id_title_and_notes(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        mid = store.import_record(two_hands())
        exported = json.loads(store.export(mid))
        assert store.find(exported) == mid
        renamed = dict(exported, id="another-id", title="Renamed", notes="from Ben's phone")
        assert store.find(renamed) == mid
        del renamed["title"]
        assert store.find(renamed) == mid
    with Store(tmp_path) as store:  # from the index and the file, not from memory
        assert store.find(exported) == mid


def test_spellings_and_default_rules_do_not_make_another_match(tmp_path: Path) -> None:
    rec = two_hands()
    with Store(tmp_path) as store:
        mid = store.import_record(rec)
        respelled = json.loads(json.dumps(rec).replace('"1-2"', '"2|1"'))
        assert respelled != rec
        assert store.find(respelled) == mid
        explicit = dict(rec, rules={"hand_size": 2, "scale": 1, "spinner": "first-double"})  # the defaults
        assert store.find(explicit) == mid


@pytest.mark.parametrize(
    "change",
    [
        lambda r: dict(r, players=["Ben", "Ann"]),  # another seating order
        lambda r: dict(r, rules={"hand_size": 2, "scale": 5}),
        lambda r: dict(r, started="2024-05-17T19:30:00"),
        lambda r: dict(r, hands=r["hands"][:1]),  # the same match, earlier: another record
        lambda r: dict(r, hands=[r["hands"][0], dict(r["hands"][1], turns=r["hands"][1]["turns"][:1])]),
    ],
    ids=["players", "rules", "started", "fewer-hands", "fewer-turns"],
)
def test_a_record_that_differs_in_what_was_played_is_not_found(tmp_path: Path, change) -> None:
    with Store(tmp_path) as store:
        store.import_record(two_hands())
        assert store.find(change(two_hands())) is None


def test_started_is_compared_when_given(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        first = store.import_record(dict(two_hands(), started="2024-05-17T19:30:00"))
        second = store.import_record(dict(two_hands(), started="2024-05-18T19:30:00"))
        assert store.find(dict(two_hands(), started="2024-05-18T19:30:00")) == second
        assert store.find(dict(two_hands(), started="2024-05-17T19:30:00")) == first
        assert store.find(two_hands()) is None  # no time given: not the same as one with a time


def test_a_match_changed_since_it_was_listed_is_compared_as_it_is_now(tmp_path: Path) -> None:
    rec = two_hands()
    with Store(tmp_path) as store:
        mid = store.import_record(dict(rec, hands=rec["hands"][:1]))
        store.list()  # the index caches one hand
        store.append(mid, {"hand": {}})
        for turn in rec["hands"][1]["turns"]:
            store.append(mid, {"turn": turn})
        assert store.find(rec) == mid
        assert store.find(dict(rec, hands=rec["hands"][:1])) is None


def test_find_loads_only_the_matches_whose_cached_fields_agree(tmp_path: Path, monkeypatch) -> None:
    records = [random_record(seed, 2, max_hands=2) for seed in range(12)]
    with Store(tmp_path) as store:
        ids = store.bulk_import(records)
    with Store(tmp_path) as store:
        read = []
        original = Store._read_match_doc

        def counting(self, path):
            read.append(path.stem)
            return original(self, path)

        monkeypatch.setattr(Store, "_read_match_doc", counting)
        assert store.find(records[5]) == ids[5]
        assert read == [ids[5]]


def test_an_invalid_record_raises_the_engines_error(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        with pytest.raises(ScorekeeperError):
            store.find({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann"]})
        with pytest.raises(ScorekeeperError):
            store.find([1, 2])
