"""``scorekeeper event ...``: the forms other tests rely on, exactly, and a secretary's work.

- ``event new NAME --players "Ann,Ben,Cy" --format round-robin`` prints the new event's id
  alone on a line;
- ``event rounds ID --json`` prints ``{"rounds": [{"round": 1, "tables": [{"table": 1,
  "players": ["Ann", "Ben"]}], "byes": ["Cy"]}, ...]}``;
- ``event standings ID --json`` prints ``{"standings": [{"rank": 1, "name": "Ann",
  "played": ..., "won": ..., "lost": ..., "points_for": ..., "points_against": ...,
  "score": ...}]}`` in rank order.
Errors are one line and status 2; the commands that read work while the app holds the
database, those that write are refused then.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from events.helpers import won_record
from support import ROOT, HeldStore, process_env, run_cli, run_cli_process, tree_state

from scorekeeper.store import Store


def ok(ran) -> str:
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr == "", ran.stderr
    return ran.stdout


def error_line(ran) -> str:
    assert ran.returncode == 2, (ran.returncode, ran.stderr)
    assert ran.stdout == ""
    lines = ran.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in ran.stderr, ran.stderr
    return lines[0]


def new(db, *args) -> str:
    out = ok(run_cli("--db", db, "event", "new", *args))
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\n", out), out
    return out.strip()


def test_new_prints_the_id_alone_and_rounds_print_every_round(tmp_path):
    db = tmp_path / "db"
    eid = new(db, "Club night", "--players", "Ann,Ben,Cy", "--format", "round-robin")
    assert ok(run_cli("--db", db, "event", "rounds", eid, "--json")) == (
        '{"rounds": ['
        '{"round": 1, "tables": [{"table": 1, "players": ["Ann", "Ben"]}], "byes": ["Cy"]}, '
        '{"round": 2, "tables": [{"table": 1, "players": ["Ben", "Cy"]}], "byes": ["Ann"]}, '
        '{"round": 3, "tables": [{"table": 1, "players": ["Ann", "Cy"]}], "byes": ["Ben"]}]}\n'
    )
    text = ok(run_cli("--db", db, "event", "rounds", eid))
    assert "Round 1\n  Table 1: Ann v Ben\n  bye: Cy\n" in text


def test_standings_json_in_rank_order(tmp_path):
    db = tmp_path / "db"
    eid = new(db, "Club night", "--players", "Ann,Ben,Cy", "--format", "round-robin", "--id", "club")
    with Store(db) as store:
        from scorekeeper.eventbook import EventBook

        event = EventBook(store).get(eid)
        store.import_record(won_record(event, 1, 1, winner=0, big=True))  # Ann 15, Ben 5
        store.import_record(won_record(event, 2, 1, winner=1, big=True))  # Ben 5, Cy 15
    out = json.loads(ok(run_cli("--db", db, "event", "standings", eid, "--json")))
    assert out == {
        "standings": [
            {
                "rank": 1,
                "name": "Ann",
                "played": 1,
                "won": 1,
                "lost": 0,
                "points_for": 15,
                "points_against": 5,
                "score": 1,
            },
            {
                "rank": 1,
                "name": "Cy",
                "played": 1,
                "won": 1,
                "lost": 0,
                "points_for": 15,
                "points_against": 5,
                "score": 1,
            },
            {
                "rank": 3,
                "name": "Ben",
                "played": 2,
                "won": 0,
                "lost": 2,
                "points_for": 10,
                "points_against": 30,
                "score": 0,
            },
        ]
    }
    text = ok(run_cli("--db", db, "event", "standings", eid))
    assert text.splitlines()[0] == "Club night: a point a match won"
    assert re.search(r"^1\s+Ann\s+1\s+1\s+0\s+15-5\s+1$", text, re.M), text


def test_the_forms_in_a_real_process(tmp_path):
    db = tmp_path / "db"
    ran = run_cli_process(
        "--db", db, "event", "new", "Club night", "--players", "Ann,Ben,Cy", "--format", "round-robin"
    )
    assert ran.returncode == 0 and ran.stderr == ""
    eid = ran.stdout.strip()
    assert ran.stdout == eid + "\n"
    rounds = json.loads(run_cli_process("--db", db, "event", "rounds", eid, "--json").stdout)
    assert rounds["rounds"][0] == {"round": 1, "tables": [{"table": 1, "players": ["Ann", "Ben"]}], "byes": ["Cy"]}
    standings = json.loads(run_cli_process("--db", db, "event", "standings", eid, "--json").stdout)
    assert [list(r) for r in standings["standings"]] == [
        ["rank", "name", "played", "won", "lost", "points_for", "points_against", "score"]
    ] * 3


def test_reading_works_while_the_app_holds_the_database_and_writing_is_refused(tmp_path):
    db = tmp_path / "db"
    eid = new(db, "Night", "--players", "Ann,Ben,Cy,Di", "--format", "swiss", "--rounds", "2")
    with HeldStore(db):
        before = tree_state(db)
        assert json.loads(ok(run_cli("--db", db, "event", "rounds", eid, "--json")))["rounds"][0]["round"] == 1
        assert len(json.loads(ok(run_cli("--db", db, "event", "standings", eid, "--json")))["standings"]) == 4
        assert eid in ok(run_cli("--db", db, "event", "list"))
        line = error_line(run_cli("--db", db, "event", "new", "X", "--players", "A,B", "--format", "knockout"))
        assert "is in use by another Scorekeeper" in line
        assert tree_state(db) == before


def test_a_secretarys_swiss_night(tmp_path):
    db = tmp_path / "db"
    eid = new(
        db, "Swiss night", "--players", "Ann,Ben,Cy,Di,Ed", "--format", "swiss", "--rounds", "2", "--preset", "muggins"
    )
    opened = json.loads(ok(run_cli("--db", db, "event", "open", eid, "--round", "1", "--json")))
    assert [t["table"] for t in opened["tables"]] == [1, 2]
    line = error_line(run_cli("--db", db, "event", "next", eid))
    assert line == "error: round 1 is not finished: no result yet at table 1, 2"
    with Store(db) as store:
        from scorekeeper.eventbook import EventBook

        event = EventBook(store).get(eid)
        for t in event.rounds[0].tables:
            store.import_record(won_record(event, 1, t.number, winner=0))
    out = json.loads(ok(run_cli("--db", db, "event", "next", eid, "--json")))
    assert out["round"]["round"] == 2 and len(out["round"]["tables"]) == 2 and len(out["round"]["byes"]) == 1
    listed = json.loads(ok(run_cli("--db", db, "event", "list", "--json")))
    assert listed["events"][0]["rounds"] == 2 and listed["events"][0]["preset"] == "muggins"
    e = listed["events"][0]
    assert (e["rules"], e["targets"], e["planned_rounds"]) == ("All Fives: Muggins (no spinner)", {"singles": 250}, 2)
    line = f"{eid}  Swiss night  Swiss · All Fives: Muggins (no spinner) · to 250 · 2 rounds · 5 players\n"
    assert (
        ok(run_cli("--db", db, "event", "list"))
        == line
        == e["summary"].join([f"{eid}  Swiss night  ", " · 5 players\n"])
    )


def test_a_league_night_result_sheet_and_the_captains(tmp_path):
    db = tmp_path / "db"
    eid = new(
        db, "League", "--format", "league", "--team", "Reds=Ann,Cy", "--team", "Blues=Ben,Di",
        "--vice", "Reds=Cy", "--singles", "2", "--legs", "1", "--scoring", "league-3-1",
    )  # fmt: skip
    rounds = json.loads(ok(run_cli("--db", db, "event", "rounds", eid, "--json")))["rounds"]
    assert rounds[0]["fixtures"] == [{"fixture": 1, "home": "Reds", "away": "Blues", "tables": [1, 2]}]
    assert rounds[0]["tables"][0]["fixture"] == 1 and len(rounds[0]["tables"][0]["sides"]) == 2
    line = error_line(
        run_cli("--db", db, "event", "confirm", eid, "--round", "1", "--fixture", "1", "--team", "Reds", "--by", "Ann")
    )
    assert line == "error: the result sheet is not complete: no result yet at table 1, 2"
    with Store(db) as store:
        from scorekeeper.eventbook import EventBook

        event = EventBook(store).get(eid)
        store.import_record(won_record(event, 1, 1, winner=0))
        store.import_record(won_record(event, 1, 2, winner=1))
    # the command line is the host's: on a captain's (or vice-captain's) word, marked as the host's
    ok(run_cli("--db", db, "event", "confirm", eid, "--round", "1", "--fixture", "1", "--team", "Reds", "--by", "cy"))
    out = ok(run_cli("--db", db, "event", "confirm", eid, "--round", "1", "--fixture", "1", "--team", "blues"))
    assert out.startswith("confirmed for Blues by the host at ") and out.endswith(" (1-1)\n")
    sheet = ok(run_cli("--db", db, "event", "sheet", eid, "--round", "1", "--fixture", "1"))
    assert "games: Reds 1, Blues 1" in sheet and "confirmed for Reds by the host, for Cy at" in sheet
    csv_text = ok(run_cli("--db", db, "event", "sheet", eid, "--round", "1", "--fixture", "1", "--csv"))
    assert csv_text.startswith("event,round,fixture,game,table,home,away,home_score,away_score,won_by\r\n")
    standings = json.loads(ok(run_cli("--db", db, "event", "standings", eid, "--json")))["standings"]
    assert {r["name"]: (r["score"], r["drawn"], r["games_for"]) for r in standings} == {
        "Reds": (0, 1, 1),
        "Blues": (0, 1, 1),
    }
    again = tmp_path / "again.json"  # a game of the confirmed sheet, once more: refused until it is re-opened
    again.write_text(json.dumps(won_record(event, 1, 1, winner=1)), encoding="utf-8")
    line = error_line(run_cli("--db", db, "import", str(again)))
    assert line.startswith("error: not imported: the result sheet of Reds v Blues (round 1) is confirmed")
    out = ok(run_cli("--db", db, "event", "reopen", eid, "--round", "1", "--fixture", "1"))
    assert out.startswith("re-opened by the host at ") and out.endswith(
        ": it was confirmed 1-1 for Reds by the host, for Cy; 1-1 for Blues by the host\n"
    )
    assert ok(run_cli("--db", db, "import", str(again))).strip()  # re-opened: it may change now


def test_a_nights_sheet_and_which_sheet_needs_a_fixture(tmp_path):
    db = tmp_path / "db"
    eid = new(db, "Club night", "--players", "Ann,Ben,Cy", "--format", "round-robin", "--id", "club")
    lg = new(db, "League", "--format", "league", "--team", "Reds=Di", "--team", "Blues=Ed", "--legs", "1")
    with Store(db) as store:
        from scorekeeper.eventbook import EventBook

        event = EventBook(store).get(eid)
        store.import_record(won_record(event, 1, 1, winner=0, big=True))  # Ann beats Ben 15-5
        store.import_record(won_record(event, 2, 1, winner=1, big=True))  # Cy beats Ben 15-5
    text = ok(run_cli("--db", db, "event", "sheet", eid))
    assert text.startswith("Club night: night sheet\nRound robin · All Fives · a point a match won\n\n")
    assert "\nStandings after round 2 of 3\n" in text and "\n  Table 1: Ann v Cy: not played\n" in text
    assert re.search(r"^1\.\s+Ann\s+1\s+1\s+0\s+15-5\s+\+10\s+1$", text, re.M), text
    assert re.search(r"^=\s+Cy\s+1\s+1\s+0\s+15-5\s+\+10\s+1\s+\(level\)$", text, re.M), text
    assert "\nRound 1\n  Table 1: Ann v Ben: 15-5, Ann\n  Bye: Cy\n" in text
    csv_text = ok(run_cli("--db", db, "event", "sheet", eid, "--csv"))
    assert csv_text.startswith("event,row,round,table,player_a,player_b,score_a,score_b,winner,status,rank,")
    assert "\r\nClub night,table,2,1,Ben,Cy,5,15,Cy,won,,,,,,,,,,,\r\n" in csv_text
    assert "\r\nClub night,standing,,,,,,,,after round 2,1,Cy,1,1,0,0,15,5,10,1,level\r\n" in csv_text
    line = error_line(run_cli("--db", db, "event", "sheet", eid, "--round", "1", "--fixture", "1"))
    assert line == (
        "error: --round and --fixture are a league fixture's: a round-robin has one sheet for the whole night "
        "(scorekeeper event sheet club)"
    )
    line = error_line(run_cli("--db", db, "event", "sheet", lg, "--round", "1"))
    assert (
        line
        == f"error: a league's result sheet is a fixture's: give --round R and --fixture F (see 'scorekeeper event rounds {lg}')"
    )
    assert "Reds (home) v Blues (away)" in ok(
        run_cli("--db", db, "event", "sheet", lg, "--round", "1", "--fixture", "1")
    )


@pytest.mark.parametrize(
    "args, line",
    [
        (["new", "N", "--format", "swiss"], 'error: --players: a swiss needs its players (--players "Ann,Ben,Cy")'),
        (["new", "N", "--format", "swiss", "--players", ""], "error: --players: give the names, separated by commas"),
        (["new", "N", "--format", "league", "--team", "Reds"], "error: --team: 'Reds' is not NAME=PLAYER,PLAYER,..."),
        (["new", "N", "--format", "league", "--team", "R=A", "--team", "r=B"], "error: --team: 'r' is given twice"),
        (
            ["new", "N", "--format", "league", "--team", "=A"],
            "error: --team: a team's name must be a non-empty string, not ''",
        ),
        (
            ["new", "N", "--format", "swiss", "--players", "Ann,ann"],
            "error: --players: 'Ann' and 'ann' are the same name (capitals, spaces and letter forms do not count)",
        ),
        (
            ["new", "N", "--format", "swiss", "--players", "A,B", "--id", "a/b"],
            "error: id: an event's id is letters, digits, '.', '_' and '-' (at most 64), not 'a/b'",
        ),
        (
            ["new", "N", "--format", "swiss", "--players", "A,B", "--game", "chess"],
            "error: game: unknown game 'chess' (known: all-fives, all-fours, broadway)",
        ),
        (["rounds", "nope"], "error: no event 'nope' (see 'scorekeeper event list')"),
        (["standings", "nope", "--json"], "error: no event 'nope' (see 'scorekeeper event list')"),
    ],
)
def test_errors_are_one_line(tmp_path, args, line):
    db = tmp_path / "db"
    Store(db).close()
    assert error_line(run_cli("--db", db, "event", *args)) == line


TEAMS = ["--team", "Reds=Ann,Cy", "--team", "Blues=Ben,Di"]


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["--format", "round-robin", "--players", "A,B", "--team", "R=A"],
            "--team: a round-robin is played by players, not teams (a league is played by teams)",
        ),
        (
            ["--format", "swiss", "--players", "A,B", "--vice", "R=A"],
            "--vice: a vice-captain is a league team's (give --vice TEAM=PLAYER with --team)",
        ),
        (
            ["--format", "swiss", "--players", "A,B", "--singles", "3"],
            "--singles: --singles and --doubles are a league fixture's games",
        ),
        (
            ["--format", "knockout", "--players", "A,B", "--rounds", "2"],
            "--rounds: --rounds is a Swiss's number of rounds; a knockout's rounds follow from it",
        ),
        (
            ["--format", "league", *TEAMS, "--players", "X,Y"],
            "--players: a league is played by teams: give --team NAME=PLAYER,PLAYER,... for each",
        ),
        (["--format", "swiss", "--players", "A,B", "--rounds", "4"], "--rounds: must be 1 to 1, not 4"),
        (["--format", "swiss", "--players", "A"], "--players: an event has 2 to 256 players, not 1"),
        (["--format", "league", *TEAMS, "--singles", "0"], "--singles: a fixture has 1 to 30 games, not 0"),
        (
            ["--format", "league", "--team", "R=A", "--team", "B=C", "--doubles", "1"],
            "--doubles: doubles games need at least 2 players in every team",
        ),
        (["--format", "round-robin", "--players", "A,B", "--target", "0"], "--target: must be 1 to 9999, not 0"),
        (
            ["--format", "round-robin", "--players", "A,B", "--game", "broadway"],
            "--game: Broadway cannot be played 1 v 1 at a table (players: Broadway is played by four players, "
            "in seat order North, East, South, West (here 2))",
        ),
        # a league's teams and vice-captains, and the scoring, are said as the events say them
        (["--format", "league", "--team", "R=A"], "teams: a league needs at least 2 teams, not 1"),
        (["--format", "league", *TEAMS, "--vice", "Greens=Ann"], "vice: no team 'Greens' to give a vice-captain"),
        (
            ["--format", "round-robin", "--players", "A,B", "--scoring", "nope"],
            "scoring.preset: no scoring preset 'nope' (presets: singles, league-2-1, league-3-1)",
        ),
    ],
)
def test_a_new_events_refusal_names_the_flag_that_gave_it(tmp_path, args, line):
    """The events name their own fields (``players: ...``); the command line says its flags."""
    db = tmp_path / "db"
    Store(db).close()
    assert error_line(run_cli("--db", db, "event", "new", "N", *args)) == f"error: {line}"


def test_a_confirmation_refused_names_the_flag_that_gave_it(tmp_path):
    db = tmp_path / "db"
    new(db, "L", "--format", "league", *TEAMS, "--id", "lg", "--singles", "1", "--legs", "1")
    confirm = ["--db", db, "event", "confirm", "lg", "--round", "1", "--fixture", "1", "--team"]
    line = error_line(run_cli(*confirm, "Greens"))
    assert line == "error: --team: 'Greens' does not play fixture 1 (Reds v Blues)"
    line = error_line(run_cli(*confirm, "Reds", "--by", "Ben"))
    assert line == "error: --by: 'Ben' is not Reds's captain (Ann): each team's captain confirms its sheet"


def test_an_id_given_twice_and_a_missing_database(tmp_path):
    db = tmp_path / "db"
    new(db, "N", "--players", "A,B", "--format", "knockout", "--id", "ko")
    line = error_line(
        run_cli("--db", db, "event", "new", "N", "--players", "A,B", "--format", "knockout", "--id", "ko")
    )
    assert line == "error: there is already an event ko"
    assert "no database at" in error_line(run_cli("--db", tmp_path / "none", "event", "list"))


def test_a_damaged_events_file_is_one_line(tmp_path):
    db = tmp_path / "db"
    new(db, "N", "--players", "A,B", "--format", "knockout")
    (db / "events.json").write_text("{", encoding="utf-8")
    line = error_line(run_cli("--db", db, "event", "list"))
    assert "events.json is damaged (not JSON:" in line and "nothing was changed" in line
    assert (db / "events.json").read_text(encoding="utf-8") == "{"


def test_new_with_standard_output_closed_makes_no_event(tmp_path):
    db = tmp_path / "db"
    new(db, "N", "--players", "A,B", "--format", "knockout")
    p = subprocess.run(
        f'"{sys.executable}" -m scorekeeper --db "{db}" event new M --players A,B --format knockout >&-',
        shell=True, capture_output=True, cwd=ROOT, env=process_env(),
    )  # fmt: skip
    assert p.returncode == 1
    assert p.stderr.decode().strip() == "error: standard output: cannot be written (it is closed); no event was made"
    names = [e["name"] for e in json.loads(run_cli("--db", db, "event", "list", "--json").stdout)["events"]]
    assert names == ["N"]


def test_an_events_file_that_is_a_link_to_nothing_cannot_be_read(tmp_path):
    """A dangling symbolic link where ``events.json`` should be is not "no events" (issue 43):
    one line naming the file, and nothing written over it."""
    db = tmp_path / "db"
    new(db, "N", "--players", "A,B", "--format", "knockout")
    (db / "events.json").unlink()
    (db / "events.json").symlink_to(tmp_path / "gone.json")
    for args in (("list",), ("new", "M", "--players", "A,B", "--format", "knockout")):
        line = error_line(run_cli("--db", db, "event", *args))
        assert line == (
            f"error: the events file {db / 'events.json'} cannot be read (a link to a file that is not there);"
            " nothing was changed"
        )
    assert (db / "events.json").is_symlink() and not (tmp_path / "gone.json").exists()
