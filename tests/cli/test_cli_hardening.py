"""The audit's reproductions at the command line (issue 17): every one a clean refusal
(status 2, one ``error:`` line, nothing on standard output) or the right result, and
the one door for records (``scorekeeper/boundary.py``) with its limits.

The engines' own findings (All Fours' types, ``turn_up``, tiles in other scripts'
digits, the tally's bounds) have their tests beside the engines
(``test_hardening_engines.py``); this file checks them once more through the command.
"""

from __future__ import annotations

import copy
import json
import time
import tracemalloc

import pytest
from support import RECORDS, run_cli

from scorekeeper import boundary
from scorekeeper.cli import main
from scorekeeper.errors import RecordFormatError

WORKED = json.loads((RECORDS / "worked-example.json").read_text(encoding="utf-8"))
ALL_FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "hands": [
        {
            "dealer": "Ann",
            "turn_up": ["J"],
            "high": "Ben",
            "low": "Ann",
            "jack": {"held": "Ben", "won": "Ben"},
            "game": {"Ann": 40, "Ben": 2},
        }
    ],
}


def refused(proc, *must_contain: str) -> str:
    """The one ``error:`` line of a refused command (status 2, nothing on standard output)."""
    err = proc.stderr if isinstance(proc.stderr, str) else proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err)
    assert not proc.stdout, proc.stdout
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    for text in must_contain:
        assert text in lines[0], lines[0]
    return lines[0]


def score(record: object, *args: str):
    text = record if isinstance(record, (str, bytes)) else json.dumps(record)
    return run_cli("score", "-", *args, stdin=text)


def worked(**changes: object) -> dict:
    rec = copy.deepcopy(WORKED)
    rec.update(changes)
    return rec


# ---------------------------------------------------------------- exit 70 -> 2
def test_an_integer_of_more_than_4300_digits_is_refused_by_name():
    text = json.dumps(worked(rules={"target": 1})).replace('"target": 1', '"target": ' + "9" * 5000)
    line = refused(score(text), "rules.target", "more than 9 digits")
    assert len(line) < 200


@pytest.mark.parametrize("bad", [[], ["all-fives"], {"id": "all-fives"}, 5, None, True])
def test_a_game_of_the_wrong_type_is_refused_on_score_and_import(tmp_path, bad):
    rec = worked(game=bad)
    refused(score(rec), "game")
    refused(run_cli("--db", tmp_path / "db", "import", "-", stdin=json.dumps(rec)), "game")


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.__setitem__("rules", {"variant": ["trinidad"]}),
        lambda r: r.__setitem__("rules", {"variant": {"name": "trinidad"}}),
        lambda r: r["hands"][0].__setitem__("penalties", [{"type": ["revoke"], "by": "Ann"}]),
        lambda r: r["hands"][0].__setitem__("penalties", [{"type": {"revoke": 1}, "by": "Ann"}]),
    ],
)
def test_all_fours_variant_or_penalty_type_of_the_wrong_type(tmp_path, change):
    rec = copy.deepcopy(ALL_FOURS)
    change(rec)
    refused(score(rec))
    refused(run_cli("--db", tmp_path / "db", "import", "-", stdin=json.dumps(rec)))


# ---------------------------------------------------------------- the terminal
def test_a_newline_in_a_name_forges_no_second_line():
    rec = worked(players=["Ann\nerror: everything is fine", "Ben"])
    line = refused(score(rec), "players", "printable")
    assert "\\n" in line


@pytest.mark.parametrize("name", ["Ann\x1b[2J", "Ann\x9b31m", "Ann\u202egnp.exe", "Ann\x00", "A" * 41, " "])
def test_names_must_be_printable_and_short(name):
    refused(score(worked(players=[name, "Ben"])), "players")
    refused(score(worked(teams={name: ["Ann"], "Them": ["Ben"]})), "teams")


def test_names_in_other_scripts_and_emoji_are_welcome():
    rec = worked(players=["Zoë", "李雷"])
    for hand in rec["hands"]:
        hand["leader"] = "Zoë"
    proc = score(rec)
    assert proc.returncode == 0, proc.stderr
    assert score(worked(players=["👩\u200d👩\u200d👧 Ann", "Ben"])).stderr.count("printable") == 0


def test_list_and_score_text_print_no_terminal_escape(tmp_path):
    """A terminal escape in a record's text is refused at the door (issue 26); a match
    stored before that rule is still listed, with its escapes written out."""
    db = tmp_path / "db"
    rec = worked(started="\x1b[2J\x1b]0;pwned\x07 2026", title="\x1b[31mred")
    refused(run_cli("--db", db, "import", "-", stdin=json.dumps(rec)), "title: must be printable text")
    refused(score(rec, "--text"), "title: must be printable text")
    ran = run_cli("--db", db, "import", "-", stdin=json.dumps(worked()))
    path = db / "matches" / f"{ran.stdout.strip()}.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["match"]["1"]["record"].update(started=rec["started"], title=rec["title"])  # stored before the rule
    path.write_text(json.dumps(doc), encoding="utf-8")
    out = run_cli("--db", db, "list")
    assert out.returncode == 0 and "\x1b" not in out.stdout and "\x07" not in out.stdout, out.stdout
    assert "\\x1b[2J" in out.stdout


def test_error_lines_echo_at_most_a_short_piece_of_a_value():
    rec = worked()
    rec["hands"][0]["turns"][0] = {"play": "3" * 200_000}
    line = refused(score(rec), "hand 1, turn 1")
    assert len(line) < 300


# ---------------------------------------------------------------- unbounded work
def test_score_of_an_endless_stream_stops_at_the_limit():
    started = time.monotonic()
    refused(run_cli("score", "/dev/zero"), "larger than 2 MB")
    assert time.monotonic() - started < 30  # it returns at all (a generous bound: a busy machine)


def test_forty_thousand_players_are_refused_at_once():
    players = [f"P{i}" for i in range(40_000)]
    refused(score(worked(players=players)), "players", "at most 12 players")
    teams = {"A": players[:20_000], "B": players[20_000:]}
    refused(score(dict(ALL_FOURS, players=players, teams=teams)), "at most 12 players")


def test_a_refused_large_record_takes_little_memory(tmp_path):
    """A 10 MB record is refused before it is parsed; 1.9 MB of small lists is parsed and
    refused for its depth or its meaning in well under 100 MB (it took about 1 GB)."""
    big = tmp_path / "big.json"
    big.write_bytes(b'{"notes": "' + b"x" * 10_000_000 + b'"}')
    small_lists = tmp_path / "lists.json"
    small_lists.write_text(
        '{"format": "scorekeeper/1", "notes": [' + ",".join(["[]"] * 600_000) + "]}", encoding="utf-8"
    )
    for path, message in ((big, "larger than 2 MB"), (small_lists, "game")):
        tracemalloc.start()
        try:
            proc = run_cli("score", path)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        refused(proc, message)
        assert peak < 100_000_000, peak


@pytest.mark.parametrize(
    "args, message",
    [
        (["tally", "--points", "99999999", "--scale", "5"], "at most 9,999 points"),
        (["pegboard", "--points", "99999999"], "at most 9,999 points"),
        (["tally", "--points", "٣٥"], "not a whole number"),
        (["tally", "--points", "１０"], "not a whole number"),
    ],
)
def test_tally_and_pegboard_refuse_what_they_cannot_draw(args, message):
    started = time.monotonic()
    refused(run_cli(*args), message)
    assert time.monotonic() - started < 30


# ---------------------------------------------------------------- leniencies
def test_a_key_given_twice_is_refused_not_silently_the_last():
    text = '{"format": "scorekeeper/1", "game": "all-fives", "game": "broadway", "players": ["Ann", "Ben"]}'
    refused(score(text), "the key 'game' appears twice")


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_numbers_json_does_not_allow_are_refused(text):
    rec = json.dumps(worked(rules={"target": 1})).replace('"target": 1', f'"target": {text}')
    refused(score(rec), "rules.target")


def test_an_empty_db_path_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["--db", "", "list"], ["--db", " ", "import", str(RECORDS / "worked-example.json")]):
        refused(run_cli(*args), "--db")
    assert list(tmp_path.iterdir()) == []  # the current directory did not become a database


def test_import_warns_of_a_file_it_read_around(tmp_path):
    db = tmp_path / "db"
    assert run_cli("--db", db, "import", str(RECORDS / "worked-example.json")).returncode == 0
    (db / "matches" / "zzzzzzzz.json").write_text("{broken", encoding="utf-8")
    proc = run_cli("--db", db, "import", str(RECORDS / "two-hands.json"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("warning: ") and len(proc.stdout.split()) == 1, proc


# ---------------------------------------------------------------- the boundary
@pytest.mark.parametrize(
    "text, where",
    [
        ('{"hands": [{"turns": [{"draw": 1234567890}]}]}', "hand 1, turn 1, draw"),
        ('{"rules": {"target": 1e400}}', "rules.target"),
        ('{"notes": "' + "n" * (boundary.MAX_STRING + 1) + '"}', "notes"),
        ("[" * 30 + "]" * 30, "nested more than 20 levels"),
        ("[" * 100_000 + "]" * 100_000, "nested more than 20 levels"),
        ('{"a": 1} {"b": 2}', "more text after the record"),
        ("", "expecting a value at line 1, column 1"),
    ],
)
def test_the_boundary_refuses_with_where(text, where):
    with pytest.raises(RecordFormatError) as e:
        boundary.loads(text)
    assert where in str(e.value) and "\n" not in str(e.value)


def test_the_boundary_takes_every_sample_record_as_json_does():
    for path in sorted(RECORDS.glob("*.json")):
        data = path.read_bytes()
        assert boundary.decode(data) == json.loads(data)


def test_score_and_the_apps_import_refuse_with_the_same_words(shared):
    from scorekeeper.ui.history.model import HistoryModel

    hist = HistoryModel(shared)
    for text in ('{"a": 1, "a": 2}', "[" * 40 + "]" * 40, '{"x": NaN}', "{", '{"n": 12345678901}'):
        line = refused(score(text))
        assert hist.import_text(text) is None
        assert line == f"error: {hist.error}", (line, hist.error)


def test_main_is_the_same_in_process(capsys):
    assert main(["score", "/dev/null"]) == 2
    assert capsys.readouterr().err.startswith("error: not a match record (JSON): expecting a value")


def test_paths_in_messages_are_one_line(tmp_path):
    line = refused(run_cli("score", str(tmp_path / "no\nsuch")), "no such file")
    assert "\\n" in line


def test_boundary_reads_a_record_with_a_bom():
    assert boundary.decode(b"\xef\xbb\xbf" + json.dumps(WORKED).encode()) == WORKED
