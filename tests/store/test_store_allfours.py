"""All Fours matches in the store: a hand is started with its dealer and its
facts are entered one by one (each durable at once, each checked by the engine),
undo takes back the last fact, and records import, export and list like All Fives."""

import json

import pytest

from scorekeeper.allfours import score_record
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store, StoreError, entries_of

NEW = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "rules": {"variant": "trinidad"},
    "hands": [],
}


def test_facts_are_entered_one_by_one_and_undone_in_the_order_entered(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(NEW)
        st.append(mid, {"hand": {"dealer": "Ann"}})
        st.append(mid, {"fact": {"turn_up": ["J"]}})  # credited to the dealer at once
        assert st.match(mid).scores == [3, 0]
        st.append(mid, {"fact": {"high": "Ben"}})
        st.append(mid, {"fact": {"game": {"Ann": 10, "Ben": 40}}})
        assert st.match(mid).scores == [3, 2]
        assert st.undo(mid) == {"fact": {"game": {"Ann": 10, "Ben": 40}}}
        assert st.undo(mid) == {"fact": {"high": "Ben"}}
        assert st.match(mid).scores == [3, 0]
        st.redo(mid)
        assert st.record(mid)["hands"] == [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]
    with Store(tmp_path / "db") as st:  # durable: a new process sees every fact
        assert st.record(mid)["hands"] == [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]
        assert st.match(mid).scores == [3, 1]
        assert entries_of(st.record(mid)) == [
            {"hand": {"dealer": "Ann"}},
            {"fact": {"turn_up": ["J"]}},
            {"fact": {"high": "Ben"}},
        ]


def test_a_fact_given_again_replaces_the_earlier_one(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(NEW)
        st.append(mid, {"hand": {"dealer": "Ann"}})
        st.append(mid, {"fact": {"high": "Ann"}})
        st.append(mid, {"fact": {"high": "Ben"}})
        assert st.record(mid)["hands"] == [{"dealer": "Ann", "high": "Ben"}]
        assert st.match(mid).scores == [0, 1]


def test_an_illegal_fact_changes_nothing_and_names_the_hand(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(NEW)
        st.append(mid, {"hand": {"dealer": "Ann"}})
        before = st.record(mid)
        with pytest.raises(ScorekeeperError, match="hand 1, low: 'Zed' is not a player"):
            st.append(mid, {"fact": {"low": "Zed"}})
        with pytest.raises(StoreError, match="the dealer starts a hand"):
            st.append(mid, {"fact": {"dealer": "Ben"}})
        with pytest.raises(StoreError, match="unknown entry 'turn'"):
            st.append(mid, {"turn": {"play": "5-5"}})
        assert st.record(mid) == before and st.match(mid).scores == [0, 0]


def test_a_fact_before_any_hand_is_refused(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(NEW)
        with pytest.raises(StoreError, match="enter the dealer first"):
            st.append(mid, {"fact": {"high": "Ann"}})


def test_import_export_list_and_edit(tmp_path):
    record = dict(
        NEW,
        hands=[
            {
                "dealer": "Ann",
                "turn_up": ["J"],
                "high": "Ben",
                "low": "Ann",
                "jack": {"held": "Ann", "won": "Ann"},
                "game": {"Ann": 40, "Ben": 20},
            },
            {"dealer": "Ben", "turn_up": ["6"], "high": "Ann"},
        ],
    )
    with Store(tmp_path / "db") as st:
        mid = st.import_record(record)
        assert json.loads(st.export(mid)) == record
        (row,) = st.list()
        assert (
            row["game"] == "all-fours"
            and row["scores"] == score_record(record)["scores"]
            and row["status"] == "playing"
        )
        st.edit(mid, 1, "high", "Ann")
        assert st.match(mid).scores == [7 + 1, 2]
        with pytest.raises(ScorekeeperError, match="hand 2, high"):
            st.edit(mid, 2, "high", "Nobody")
        assert st.match(mid).scores == [8, 2]


def test_a_won_match_is_listed_as_won_and_refuses_more(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(dict(NEW, rules={"variant": "seven-up"}))
        st.append(mid, {"hand": {"dealer": "Ann"}})
        st.append(mid, {"fact": {"penalties": [{"type": "award", "side": "Ben", "points": 7, "reason": "house rule"}]}})
        assert st.list()[0]["status"] == "won" and st.list()[0]["winner"] == "Ben"
        with pytest.raises(ScorekeeperError, match="hand 2: the match is over"):
            st.append(mid, {"hand": {"dealer": "Ben"}})
