"""A game registered from outside the package flows through ``scorekeeper score``, the
store and History: adding a game is one package (``tests/registry/toygame``) plus one
line (``registry.register(GAME)``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store, entries_of
from scorekeeper.ui.history.model import HistoryModel
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.shell.screens import games_with_screens, history_blocks, screens_of

from .toygame.game import GAME

RECORD = {
    "format": "scorekeeper/1",
    "game": "toy-tens",
    "players": ["Ann", "Ben"],
    "hands": [{"leader": "Ann", "turns": [{"points": 10}, {"points": 4}, {"points": 10}]}],
}


@pytest.fixture
def toy() -> Iterator[registry.Game]:
    registry.register(GAME)  # the one line
    yield GAME
    registry.unregister(GAME.id)


def test_an_unregistered_game_is_refused_with_the_envelope_message(cli):
    p = cli("score", "-", stdin=json.dumps(RECORD))
    assert p.returncode == 2
    assert p.stderr == "error: game: unknown game 'toy-tens' (known: all-fives, all-fours, broadway)\n"


def test_scorekeeper_score_json_and_text(toy, cli):
    p = cli("score", "-", stdin=json.dumps(RECORD))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["game"] == "toy-tens" and out["scores"] == {"Ann": 20, "Ben": 4} and out["winner"] is None
    t = cli("score", "-", "--text", stdin=json.dumps(RECORD))
    assert t.stdout == "Tens: Ann vs Ben; target 30\nHand 1 (leader Ann): 10 4 10\nScores: Ann 20, Ben 4\n"


def test_an_error_names_the_hand_and_turn(toy, cli):
    bad = json.loads(json.dumps(RECORD))
    bad["hands"][0]["turns"][1] = {"points": 11}
    p = cli("score", "-", stdin=json.dumps(bad))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "error: hand 1, turn 2: a turn scores 0 to 10 points, not 11\n"


def test_the_store_keeps_it_entry_by_entry(toy, tmp_path):
    entries = entries_of(RECORD)
    assert entries == [{"hand": {"leader": "Ann"}}] + [{"turn": t} for t in RECORD["hands"][0]["turns"]]
    with Store(tmp_path / "db") as st:
        mid = st.create({**RECORD, "hands": []})
        for e in entries:
            st.append(mid, e)
        assert st.record(mid) == RECORD
        assert st.undo(mid) == {"turn": {"points": 10}}
        assert st.match(mid).scores == [10, 4]
        st.redo(mid)
        (listed,) = st.list()
        assert listed["game"] == "toy-tens" and listed["scores"] == {"Ann": 20, "Ben": 4}
        assert json.loads(st.export(mid)) == RECORD
        with pytest.raises(ScorekeeperError, match="hand 1, turn 4: a turn scores 0 to 10 points, not 12"):
            st.append(mid, {"turn": {"points": 12}})
        assert st.record(mid) == RECORD


def test_import_export_and_list_on_the_command_line(toy, cli, tmp_path):
    db = str(tmp_path / "db")
    p = cli("--db", db, "import", "-", stdin=json.dumps(RECORD))
    assert p.returncode == 0, p.stderr
    mid = p.stdout.strip()
    assert json.loads(cli("--db", db, "export", mid).stdout) == RECORD
    (row,) = json.loads(cli("--db", db, "list", "--json").stdout)
    assert row["id"] == mid and row["game"] == "toy-tens" and row["status"] == "playing"


def test_history_shows_it_and_the_shell_offers_no_table_for_it(toy, shared):
    mid = shared.store.import_record(RECORD)
    hist = HistoryModel(shared)
    (item,) = hist.items
    assert item["title"] == "Tens" and item["playable"] is False  # no screens: no "Play"
    summary = hist.summary(mid)
    assert summary is not None and summary["scores"] == {"Ann": 20, "Ben": 4}
    assert history_blocks(summary) == [GAME.render(summary)]  # no screens: its --text table
    assert json.loads(hist.export(mid) or "") == RECORD
    assert screens_of("toy-tens") is None and "toy-tens" not in [g.id for g in games_with_screens()]
    assert shared.resume() is None  # Home resumes only what it can show


def test_registering_adds_it_to_the_envelope_and_unregistering_removes_it(toy):
    assert registry.ids()[-1] == "toy-tens" and registry.game_of(RECORD) is GAME
    registry.unregister("toy-tens")
    assert "toy-tens" not in registry.ids()
    registry.register(GAME)
    with pytest.raises(ValueError):
        registry.unregister("all-fives")


def test_the_players_screen_shows_its_counters_in_its_words(toy, shared):
    """The statistics, their words and the Players screen's rows come from its GameSpec:
    nothing outside its package says what Tens counts."""
    finished = {**RECORD, "hands": [{"leader": "Ann", "turns": [{"points": 10}, {"points": 4}] * 2 + [{"points": 10}]}]}
    mid = shared.store.import_record(finished)
    players = PlayersModel(shared)
    assert players.error is None
    assert players.games() == [("Tens", "toy-tens")]
    assert [(r.name, r.played.value, r.won.value) for r in players.standings("toy-tens")] == [
        ("Ann", "1", "1"),
        ("Ben", "1", "0"),
    ]
    ann = players.player(("ann",), "toy-tens")
    assert ann is not None and ann.games == [("Tens", "toy-tens")]
    shown = {f.label: (f.value, f.route) for f in ann.figures}
    assert shown["Turns of ten"] == ("3", "/player/ann/toy-tens/tens")
    behind = players.behind(("ann",), "toy-tens", "tens")
    assert behind is not None and behind.title == "Ann: turns of ten" and behind.ids == [mid]
    assert behind.subtitle == "Tens · 1 match"
    ben = players.player(("ben",), "toy-tens")
    assert ben is not None and {f.label: f.value for f in ben.figures}["Turns of ten"] == "0"
