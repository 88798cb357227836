"""Black-box tests of `scorekeeper score PATH [--text]`, run in this process (``support.run_cli``).

record-format.md: success prints one JSON object on stdout (exit 0); a bad
record exits with status 2, prints nothing on stdout and exactly one line on
stderr that starts with `error: ` and names hand and turn where they apply;
no bad input ever produces a Python traceback. ``test_smoke.py`` checks the
same through a real `python -m scorekeeper` process, and that both agree.
"""

import json

import pytest
from support import RECORDS, run_cli

WORKED = RECORDS / "worked-example.json"


def run(*args, stdin=None):
    """`scorekeeper score ARGS`; stdout and stderr as bytes."""
    return run_cli("score", *args, stdin=stdin, binary=True)


def ok_json(proc):
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert b"Traceback" not in proc.stderr
    return json.loads(proc.stdout.decode("utf-8"))


def assert_error(proc, *must_contain):
    err = proc.stderr.decode("utf-8", errors="replace")
    assert proc.returncode == 2, (proc.returncode, err, proc.stdout)
    assert proc.stdout == b"", proc.stdout
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert len(lines[0]) > len("error: ") + 5
    for text in must_contain:
        assert text in lines[0], err
    return lines[0]


def write(tmp_path, obj, name="r.json"):
    p = tmp_path / name
    p.write_text(json.dumps(obj), encoding="utf-8")
    return p


def worked():
    return json.loads(WORKED.read_text(encoding="utf-8"))


# ------------------------------------------------------------ success
def test_worked_example_file():
    out = ok_json(run(WORKED))
    assert out["game"] == "all-fives"
    assert out["sides"] == ["Ann", "Ben"]
    assert out["target"] == 250
    turns = out["hands"][0]["turns"]
    # all-fives.md worked example: points 5, 0, 0, 0, 10, 15; counts 5, 7, 7, 7, 10, 15
    assert [t["points"] for t in turns] == [5, 0, 0, 0, 10, 15]
    assert [t["count"] for t in turns] == [5, 7, 7, 7, 10, 15]
    assert out["scores"] == {"Ann": 15, "Ben": 15}
    assert out["winner"] is None
    assert out["hands"][0]["end"] == "open"


def test_stdout_is_one_json_object_and_stderr_is_quiet():
    proc = run(WORKED)
    assert proc.returncode == 0
    assert proc.stderr == b""
    assert isinstance(json.loads(proc.stdout), dict)


def test_cli_agrees_with_score_record():
    from scorekeeper.allfives import score_record

    for name in ("worked-example.json", "two-hands.json", "max-count-35.json"):
        rec = json.loads((RECORDS / name).read_text(encoding="utf-8"))
        assert ok_json(run(RECORDS / name)) == score_record(rec), name


def test_two_hands_file():
    # hand 1: Ben dominoes, Ann holds 6-6 -> Ben round5(12) = 10;
    # hand 2 (leader defaults to Ben): 3-2 counts 5 -> Ben 15
    out = ok_json(run(RECORDS / "two-hands.json"))
    assert [h["end"] for h in out["hands"]] == ["domino", "open"]
    assert out["hands"][0]["scores"] == {"Ann": 0, "Ben": 10}
    assert out["hands"][1]["turns"][0]["player"] == "Ben"
    assert out["scores"] == {"Ann": 0, "Ben": 15}


def test_max_count_file():
    # 0-0 spinner; Ben 4-0 makes 15; Ann's 5-1 makes 12 + 10 + 8 + 5 = 35
    out = ok_json(run(RECORDS / "max-count-35.json"))
    assert [t["points"] for t in out["hands"][0]["turns"]] == [0, 0, 0, 15, 0, 0, 0, 0, 35]
    assert out["scores"] == {"Ann": 35, "Ben": 15}


def test_stdin_dash():
    out = ok_json(run("-", stdin=WORKED.read_bytes()))
    assert [t["points"] for t in out["hands"][0]["turns"]] == [5, 0, 0, 0, 10, 15]


def test_text_table():
    proc = run(RECORDS / "max-count-35.json", "--text")
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    text = proc.stdout.decode("utf-8")
    assert not text.lstrip().startswith("{"), "--text prints a table, not JSON"
    assert "Ann" in text and "Ben" in text
    # totals Ann 35, Ben 15
    assert "35" in text and "15" in text
    assert len(text.strip().splitlines()) >= 2


def test_text_table_for_stdin_and_partnerships(tmp_path):
    rec = worked()
    rec["players"] = ["Ann", "Ben", "Cy", "Di"]
    rec["teams"] = {"North-South": ["Ann", "Cy"], "East-West": ["Ben", "Di"]}
    # same plays by Ann, Ben, Cy, Di, Ann, Ben: NS 5 + 10 = 15, EW 15
    proc = run("-", "--text", stdin=json.dumps(rec).encode())
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.decode("utf-8")
    assert "North-South" in text and "East-West" in text


# ------------------------------------------------------------ errors
def test_engine_error_names_hand_and_turn(tmp_path):
    rec = worked()
    # turn 4: 6-6 matches no open end (open: 3, 4 and the spinner's ends 2)
    rec["hands"][0]["turns"][3] = {"play": "6-6"}
    line = assert_error(run(write(tmp_path, rec)))
    assert line.startswith("error: hand 1, turn 4: ")


def test_engine_error_spec_example(tmp_path):
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": {"spinner": "none"},
        "hands": [
            {
                "leader": "Ann",
                "turns": [
                    {"play": "3-3"},
                    {"play": "3-1", "on": "3-3"},
                    {"play": "3-2", "on": "3-3"},
                    {"play": "3-5", "on": "3-3"},
                ],
            }
        ],
    }
    line = assert_error(run(write(tmp_path, rec)))
    assert line.startswith("error: hand 1, turn 4: ")


def test_engine_error_on_stdin():
    rec = worked()
    rec["hands"][0]["turns"].append({"pass": True})  # boneyard still full
    line = assert_error(run("-", stdin=json.dumps(rec).encode()))
    assert line.startswith("error: hand 1, turn 7: ")


def test_remaining_error_names_the_field(tmp_path):
    rec = json.loads((RECORDS / "two-hands.json").read_text(encoding="utf-8"))
    rec["hands"][0]["remaining"] = {"Ann": ["6-6", "5-5"]}  # Ann holds 1 tile
    line = assert_error(run(write(tmp_path, rec)))
    assert line.startswith("error: hand 1, remaining: ")


def test_rule_error_names_the_field(tmp_path):
    rec = worked()
    rec["rules"] = {"target": "250"}
    line = assert_error(run(write(tmp_path, rec)))
    assert line.startswith("error: rules.target: ")


def test_error_with_text_flag(tmp_path):
    rec = worked()
    rec["hands"][0]["turns"][3] = {"play": "6-6"}
    assert_error(run(write(tmp_path, rec), "--text"))


@pytest.mark.parametrize(
    "data",
    [
        b"{",
        b"",
        b"not json",
        b'{"format": "scorekeeper/1",}',
        b"[1, 2]",
        b"[]",
        b'"a string"',
        b"42",
        b"null",
        b"\xff\xfe\x00garbage",
        b'{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "B\xe9n"], "hands": []}',
        b'{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"], "rules": {"target": NaN}, "hands": []}',
        b'{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"], "rules": {"target": Infinity}, "hands": []}',
    ],
    ids=[
        "truncated",
        "empty",
        "not-json",
        "trailing-comma",
        "list",
        "empty-list",
        "string",
        "number",
        "null",
        "binary",
        "latin-1",
        "nan-target",
        "infinite-target",
    ],
)
def test_malformed_input_file(tmp_path, data):
    p = tmp_path / "bad.json"
    p.write_bytes(data)
    assert_error(run(p))


@pytest.mark.parametrize("data", [b"{", b"[]", b"\xff\xfe"])
def test_malformed_input_stdin(data):
    assert_error(run("-", stdin=data))


def test_missing_file(tmp_path):
    assert_error(run(tmp_path / "no-such-file.json"))


def test_directory(tmp_path):
    assert_error(run(tmp_path))


def wrong(path, value):
    rec = worked()
    target = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return rec


@pytest.mark.parametrize(
    "path,value,where",
    [
        (["players"], "Ann", "players"),
        (["players"], ["Ann"], "players"),
        (["players"], ["Ann", "Ann"], "players"),
        (["format"], 1, "format"),
        (["game"], "chess", "game"),
        (["rules"], [], "rules"),
        (["rules"], {"set": "6"}, "rules.set"),
        (["rules"], {"spiner": "none"}, "spiner"),
        (["hands"], {}, "hands"),
        (["hands", 0, "turns", 1], {"draw": "2", "play": "2-2", "on": "3-2"}, "hand 1, turn 2: "),
        (["hands", 0, "turns", 1], {"play": 53}, "hand 1, turn 2: "),
        (["hands", 0, "turns", 1], {"play": "7-7"}, "hand 1, turn 2: "),
        (["hands", 0, "turns", 1], {"play": "2-2", "on": "3-2", "player": "Eve"}, "hand 1, turn 2: "),
        (["hands", 0, "turns", 1], "2-2", "hand 1, turn 2: "),
        (["hands", 0, "leader"], "Eve", "hand 1, leader: "),
        (["hands", 0, "leader"], 7, "hand 1, leader: "),
        (["teams"], {"A": ["Ann"], "B": ["Eve"]}, "teams"),
        (["teams"], "Ann", "teams"),
        (["colour"], "red", "colour"),
    ],
)
def test_wrong_types_and_unknown_names(tmp_path, path, value, where):
    line = assert_error(run(write(tmp_path, wrong(path, value))))
    assert where in line


def test_unknown_player_in_remaining(tmp_path):
    rec = json.loads((RECORDS / "two-hands.json").read_text(encoding="utf-8"))
    rec["hands"][0]["remaining"]["Eve"] = 5
    line = assert_error(run(write(tmp_path, rec)))
    assert line.startswith("error: hand 1, remaining: ")


def test_big_numbers_do_not_crash(tmp_path):
    # a huge target is a valid (if silly) positive target: either accepted or refused cleanly
    rec = worked()
    rec["rules"] = {"target": 10**400}
    proc = run(write(tmp_path, rec))
    assert b"Traceback" not in proc.stderr
    assert proc.returncode in (0, 2)
    if proc.returncode == 2:
        assert_error(proc)
    # a huge hand deals more tiles than the set holds; a huge set is not 6, 9 or 12
    for rules, field in (({"hand_size": 10**30}, "rules.hand_size"), ({"set": 10**20}, "rules.set")):
        rec = worked()
        rec["rules"] = rules
        assert_error(run(write(tmp_path, rec)), field)
    rec = worked()
    rec["hands"][0]["turns"][1] = {"draw": 10**30, "play": "2-2", "on": "3-2"}
    assert_error(run(write(tmp_path, rec)), "hand 1, turn 2, draw: ", "more than 9 digits")


def test_deeply_nested_json_does_not_crash(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    assert_error(run(p))


def test_usage_errors_do_not_traceback():
    proc = run()  # no PATH at all
    assert proc.returncode != 0
    assert b"Traceback" not in proc.stderr
    assert proc.stdout == b""


def test_text_table_says_knock_and_bust_as_the_table_does():
    """Fives and Threes by its name; with no drawing a pass is a knock; a score past the exact
    target a bust (issue 27: "pass" and "voided" were engine words)."""
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "rules": {"count": "fives-and-threes", "draw": False, "target": 3, "exact_target": True, "hand_size": 2},
        "hands": [
            {
                "leader": "Ann",
                "turns": [{"play": "3-3"}, {"pass": True}, {"play": "3-0", "on": "3-3"}],
                "remaining": {"Ben": ["6-6", "6-5"]},
            }
        ],
    }
    proc = run("-", "--text", stdin=json.dumps(rec).encode())
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    lines = [ln.split() for ln in out.splitlines()]
    assert out.startswith("Fives and Threes: Ann vs Ben; target 3\n")
    assert ["2", "Ben", "knock", "0"] in lines
    assert [
        "3",
        "Ann",
        "3-0",
        "on",
        "3-3",
        "6",
        "0",
        "bust:",
        "would",
        "pass",
        "the",
        "target,",
        "nothing",
        "scored",
    ] in lines
    assert "settlement bust (would pass the target): Ann" in out
    assert "pass" not in out.replace("would pass", "") and "voided" not in out
