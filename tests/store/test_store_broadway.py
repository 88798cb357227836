"""Broadway matches in the store: a hand is started with its leader, its turns
follow one by one (each checked by the engine and durable at once), then a
blocked hand's unplayed tiles; undo takes back the last entry; records import,
export, list and edit like All Fives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli

from scorekeeper.broadway import score_record
from scorekeeper.broadway.engine import NoMatchError, OccupiedCellError
from scorekeeper.broadway.simulate import random_record
from scorekeeper.errors import MatchOverError, RemainingError, ScorekeeperError
from scorekeeper.store import Store, StoreError, entries_of

NEW = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"], "hands": []}


def snapshot(path: Path) -> dict:
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file() and p.name != "lock"
    }


def empty(rec: dict) -> dict:
    return dict(rec, hands=[])


def play(tile, a, b):
    return {"turn": {"play": tile, "at": [list(a), list(b)]}}


PASS = {"turn": {"pass": True}}

# Ann (North) sets 6-6 East-West; Ben (East) 6-3 North-South, the 6 on (-1,0) next to the
# 6 on (0,0): 1 matched; Cy passes; Di (West) 6-2 North-South, the 6 on (2,0) next to the
# 6 on (1,0); then four passes block the hand: Ann, Ben, Di set 1 (hold 6), Cy 0 (holds 7)
HAND_1 = [
    {"hand": {"leader": "Ann"}},
    play("6-6", (0, 0), (1, 0)),
    play("6-3", (-1, 0), (-1, -1)),
    PASS,
    play("6-2", (2, 0), (2, 1)),
    PASS,
    PASS,
    PASS,
    PASS,
    {"unplayed": {"Ann": 6, "Ben": 6, "Cy": 7, "Di": ["5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]}},
]


def test_entries_build_the_record_and_undo_redo_take_them_back(tmp_path):
    with Store(tmp_path / "db") as st:
        mid = st.create(NEW)
        for e in HAND_1:
            st.append(mid, e)
        # subtract: North-South holds 6 + 7 = 13, East-West 6 + 6 = 12
        assert st.match(mid).scores == [-13, -12]
        assert entries_of(st.record(mid)) == HAND_1
        assert st.undo(mid) == HAND_1[-1]
        assert st.match(mid).scores == [0, 0] and st.match(mid).phase == "unplayed"
        assert st.undo(mid) == PASS
        assert st.match(mid).to_move == "Di"
        st.redo(mid)
        st.redo(mid)
        assert st.match(mid).scores == [-13, -12]
    with Store(tmp_path / "db") as st:  # durable: a new process sees every entry
        assert entries_of(st.record(mid)) == HAND_1
        assert st.match(mid).scores == [-13, -12] and st.match(mid).next_double.hi == 5
        st.append(mid, {"hand": {"leader": "Ben"}})
        assert st.undo(mid) == {"hand": {"leader": "Ben"}}
        while entries_of(st.record(mid)):
            st.undo(mid)
        with pytest.raises(StoreError, match="nothing to undo"):
            st.undo(mid)
        assert st.match(mid).hands == []


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 10**6), st.sampled_from([None, {"orientation": "free"}, {"unplayed_penalty": "to-opponents"}]))
def test_a_random_match_entered_one_entry_at_a_time(tmp_path_factory, seed, rules):
    path = tmp_path_factory.mktemp("db")
    rec = random_record(seed, rules=rules, max_hands=2, expose_rate=0.05, stop_rate=0.01)
    with Store(path) as store:
        mid = store.create(empty(rec))
        for entry in entries_of(rec):
            store.append(mid, entry)
        assert store.record(mid) == rec
    with Store(path) as store:
        assert store.record(mid) == rec
        m = store.match(mid)
        if m.phase != "unplayed":
            assert dict(zip(m.setup.sides, m.scores, strict=True)) == score_record(rec)["scores"]


def test_an_illegal_entry_is_refused_with_the_engine_message_and_nothing_changes(tmp_path):
    with Store(tmp_path) as st:
        mid = st.create(NEW)
        for e in HAND_1[:3]:
            st.append(mid, e)
        before = snapshot(tmp_path)
        with pytest.raises(OccupiedCellError) as e:
            st.append(mid, play("6-5", (1, 0), (2, 0)))
        assert str(e.value).startswith("hand 1, turn 3: cell (1, 0) is already covered by 6-6")
        with pytest.raises(NoMatchError, match="^hand 1, turn 3: "):
            st.append(mid, play("5-4", (5, 5), (6, 5)))
        with pytest.raises(RemainingError, match="^hand 1, unplayed: the hand has not ended"):
            st.append(mid, {"unplayed": {"Ann": 6}})
        with pytest.raises(ScorekeeperError, match="^hand 2: hand 1 has not ended"):
            st.append(mid, {"hand": {"leader": "Ben"}})
        with pytest.raises(ScorekeeperError, match="^hand 1, turn 3: "):
            st.append(mid, {"turn": {"play": "6-5"}})
        with pytest.raises(StoreError, match="unknown entry 'remaining'"):
            st.append(mid, {"remaining": {}})
        with pytest.raises(StoreError, match="unknown key 'double'"):
            st.append(mid, {"hand": {"leader": "Ben", "double": "5-5"}})
        assert snapshot(tmp_path) == before
        st.append(mid, PASS)  # still usable


def test_a_turn_before_any_hand_is_refused(tmp_path):
    with Store(tmp_path) as st:
        mid = st.create(NEW)
        with pytest.raises(ScorekeeperError, match="^hand 1, turn 1: no hand has been started"):
            st.append(mid, play("6-6", (0, 0), (1, 0)))


def test_editing_a_past_entry_revalidates_the_rest(tmp_path):
    with Store(tmp_path) as st:
        mid = st.create(NEW)
        for e in HAND_1:
            st.append(mid, e)
        # turn 2 corrected: Ben set 6-3 the other way up, the 3 next to the 6: no match now
        with pytest.raises(NoMatchError, match="^hand 1, turn 2: "):
            st.edit(mid, 1, 2, {"play": "3-6", "at": [[-1, 0], [-1, -1]]})
        # turn 4 corrected: Di set 6-2 on (2,0)(2,-1): fine; scores unchanged
        st.edit(mid, 1, 4, {"play": "6-2", "at": [[2, 0], [2, -1]]})
        assert st.record(mid)["hands"][0]["turns"][3]["at"] == [[2, 0], [2, -1]]
        # the unplayed tiles corrected: Di listed 0-0, but counts are fine too
        st.edit(mid, 1, "unplayed", {"Ann": 6, "Ben": 6, "Cy": 7, "Di": 6})
        assert st.match(mid).scores == [-13, -12]
        before = snapshot(tmp_path)
        with pytest.raises(RemainingError, match="^hand 1, unplayed: Cy set 0 tiles, so holds 7, not 6"):
            st.edit(mid, 1, "unplayed", {"Ann": 6, "Ben": 6, "Cy": 6, "Di": 6})
        # turn 3 was not Cy's pass but 6-5 on (0,1)(1,1) (the 6 over the 6 on (0,0)): Cy set a
        # tile, so the unplayed count given for Cy no longer holds
        with pytest.raises(RemainingError, match="^hand 1, unplayed: Cy set 1 tile, so holds 6, not 7"):
            st.edit(mid, 1, 3, {"play": "6-5", "at": [[0, 1], [1, 1]]})
        with pytest.raises(ScorekeeperError, match="^hand 1, leader: "):
            st.edit(mid, 1, "leader", "Zed")
        with pytest.raises(StoreError, match="no turn 99"):
            st.edit(mid, 1, 99, {"pass": True})
        with pytest.raises(StoreError, match="no hand 2"):
            st.edit(mid, 2, 1, {"pass": True})
        assert snapshot(tmp_path) == before
        # the leader corrected: Ben led (he sets 6-6 North-South): every later turn moves one seat
        with pytest.raises(ScorekeeperError, match="^hand 1, turn 1: "):
            st.edit(mid, 1, "leader", "Ben")  # Ben sets tiles North-South, 6-6 lies East-West


def test_import_export_list(tmp_path):
    rec = random_record(4, max_hands=2)
    rec["title"] = "Friday — Café"
    with Store(tmp_path / "db") as st:
        mid = st.import_record(rec)
        text = st.export(mid)
        assert json.loads(text) == rec
        (row,) = st.list()
        assert (row["game"], row["players"]) == ("broadway", ["Ann", "Ben", "Cy", "Di"])
        assert row["scores"] == score_record(rec)["scores"] and row["status"] == "playing"
        assert row["hands"] == 2 and st.summary(mid) == row
        mid2 = st.import_record(json.loads(text))
        assert st.export(mid2) == text  # byte for byte


def test_a_paused_match_is_stored_though_score_refuses_it(tmp_path):
    rec = dict(
        NEW, hands=[{"leader": "Ann", "turns": [{"play": "6-6", "at": [[0, 0], [1, 0]]}] + [{"pass": True}] * 4}]
    )
    with pytest.raises(RemainingError):
        score_record(rec)
    with Store(tmp_path) as st:
        mid = st.import_record(rec)
        assert st.match(mid).phase == "unplayed"
        st.append(mid, {"unplayed": {"Ann": 6, "Ben": 7, "Cy": 7, "Di": 7}})
        assert st.match(mid).scores == [-13, -14]


def test_a_won_match_is_listed_as_won_and_refuses_more(tmp_path):
    rec = random_record(1)  # a whole match: played until a side wins
    with Store(tmp_path) as st:
        mid = st.create(empty(rec))
        for e in entries_of(rec):
            st.append(mid, e)
        row = st.list()[0]
        out = score_record(rec)
        assert (row["status"], row["winner"]) == ("won", out["winner"])
        assert st.latest_unfinished() is None
        with pytest.raises(MatchOverError, match="the match is over"):
            st.append(mid, {"hand": {"leader": "Ann"}})


def run(*args, stdin=None):
    """`scorekeeper ARGS` (in this process); stdout and stderr as text."""
    return run_cli(*args, stdin=stdin)


def test_cli_import_export_list_round_trip(tmp_path):
    db1, db2 = tmp_path / "one", tmp_path / "two"
    rec = random_record(8, max_hands=1)
    src = tmp_path / "rec.json"
    src.write_text(json.dumps(rec), encoding="utf-8")
    r = run("--db", str(db1), "import", str(src))
    assert r.returncode == 0, r.stderr
    mid = r.stdout.strip()
    exported = run("--db", str(db1), "export", mid)
    assert exported.returncode == 0 and json.loads(exported.stdout) == rec
    r2 = run("--db", str(db2), "import", "-", stdin=exported.stdout)
    assert r2.returncode == 0, r2.stderr
    assert run("--db", str(db2), "export", r2.stdout.strip()).stdout == exported.stdout
    rows = json.loads(run("--db", str(db1), "list", "--json").stdout)
    assert [(x["id"], x["game"]) for x in rows] == [(mid, "broadway")]
    assert rows[0]["scores"] == score_record(rec)["scores"]
    # an invalid Broadway record is refused and the database is left as it was
    before = snapshot(db1)
    bad = json.loads(json.dumps(rec))
    bad["hands"][0]["turns"][1]["at"] = [[50, 50], [50, 51]]
    src.write_text(json.dumps(bad), encoding="utf-8")
    r = run("--db", str(db1), "import", str(src))
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: hand 1, turn 2: ")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert snapshot(db1) == before
