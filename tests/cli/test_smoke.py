"""Smoke tests of the `scorekeeper` command as a real process (`python -m scorekeeper`).

The other command-line tests run ``main`` in the test process (``support.run_cli``),
which is fast; these check what only a process shows -- that it starts, the exit
status the OS sees, what reaches the real standard streams, a reader that closes
the pipe early, a database used by one process after another -- and that the
in-process runner gives byte for byte what the process gives.
"""

import json
import subprocess
import sys

import pytest
from support import RECORDS, ROOT, process_env, run_cli, run_cli_process

import scorekeeper

WORKED = RECORDS / "worked-example.json"


def one_error_line(ran):
    assert ran.returncode == 2, (ran.returncode, ran.stdout, ran.stderr)
    assert ran.stdout == ""
    assert "Traceback" not in ran.stderr
    lines = ran.stderr.splitlines()
    assert len(lines) == 1 and ran.stderr.endswith("\n"), ran.stderr
    assert lines[0].startswith("error: "), ran.stderr
    return lines[0]


# ------------------------------------------------------------ as a process
def test_score_the_worked_example():
    ran = run_cli_process("score", WORKED)
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr == ""
    out = json.loads(ran.stdout)
    assert out["game"] == "all-fives" and out["scores"] == {"Ann": 15, "Ben": 15}


def test_a_bad_record_exits_2_with_one_error_line(tmp_path):
    rec = json.loads(WORKED.read_text(encoding="utf-8"))
    rec["hands"][0]["turns"][3] = {"play": "6-6"}  # matches no open end
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec), encoding="utf-8")
    assert one_error_line(run_cli_process("score", bad)).startswith("error: hand 1, turn 4: ")
    not_json = tmp_path / "not.json"
    not_json.write_bytes(b"\xff{")
    one_error_line(run_cli_process("score", not_json))


def test_version():
    ran = run_cli_process("--version")
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, f"scorekeeper-table {scorekeeper.__version__}\n", "")


def test_a_record_on_standard_input():
    ran = run_cli_process("score", "-", "--text", stdin=(RECORDS / "two-hands.json").read_bytes())
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr
    assert "Ann" in ran.stdout and "Ben" in ran.stdout and not ran.stdout.lstrip().startswith("{")


# A user's shell does not set PYTHONUNBUFFERED (this test environment may): try both.
BUFFERED = {"PYTHONUNBUFFERED": None}
UNBUFFERED = {"PYTHONUNBUFFERED": "1"}


@pytest.mark.parametrize("env", [BUFFERED, UNBUFFERED], ids=["buffered", "unbuffered"])
def test_a_reader_that_closes_early_is_not_an_error(tmp_path, env):
    """`scorekeeper score BIG | head -c 10`: the output is more than a pipe holds,
    so the command is still writing when the reader goes away."""
    from scorekeeper.allfives import random_record

    big = tmp_path / "big.json"
    big.write_text(json.dumps(random_record(0, 2, max_hands=200, target=1000)), encoding="utf-8")
    whole = run_cli("score", big, binary=True)
    assert whole.returncode == 0 and len(whole.stdout) > 100_000  # far more than a pipe's 64 KiB
    ran = run_cli_process("score", big, env=env, read_stdout=10, binary=True)
    assert ran.stdout == whole.stdout[:10]
    assert (ran.returncode, ran.stderr) == (0, b"")


@pytest.mark.parametrize(
    "env",
    [
        BUFFERED,
        UNBUFFERED,
    ],
    ids=["buffered", "unbuffered"],
)
def test_a_reader_gone_before_a_small_output_is_not_an_error(env):
    """`scorekeeper score RECORD | true`: the reader is gone before anything is written."""
    ran = run_cli_process("score", WORKED, env=env, read_stdout=0)
    assert (ran.returncode, ran.stderr) == (0, "")


def test_import_export_list_against_a_database_directory(tmp_path):
    db = tmp_path / "db"
    imported = run_cli_process("--db", db, "import", WORKED)
    assert imported.returncode == 0 and imported.stderr == "", imported.stderr
    mid = imported.stdout.strip()
    exported = run_cli_process("--db", db, "export", mid)
    assert exported.returncode == 0 and exported.stderr == "", exported.stderr
    assert json.loads(exported.stdout) == json.loads(WORKED.read_text(encoding="utf-8"))
    listed = run_cli_process("--db", db, "list", "--json")
    assert [(r["id"], r["game"]) for r in json.loads(listed.stdout)] == [(mid, "all-fives")]
    table = run_cli_process("--db", db, "list")
    assert table.returncode == 0 and mid in table.stdout and "Ann, Ben" in table.stdout
    # the process left the database unlocked and readable by this process's code, which agrees with it
    assert run_cli("--db", db, "export", mid) == exported
    assert run_cli("--db", db, "list") == table


# ------------------------------------------------------------ in process = as a process
def test_the_process_runs_the_package_these_tests_import():
    import scorekeeper.cli

    p = subprocess.run(
        [sys.executable, "-c", "import scorekeeper.cli; print(scorekeeper.cli.__file__)"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=process_env(),
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == scorekeeper.cli.__file__


def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _bad_turn():
    rec = json.loads(WORKED.read_text(encoding="utf-8"))
    rec["hands"][0]["turns"].append({"pass": True})  # the boneyard is still full
    return json.dumps(rec).encode()


CASES = {
    "score-json": lambda t: (["score", WORKED], None),
    "score-text": lambda t: (["score", RECORDS / "max-count-35.json", "--text"], None),
    "score-stdin": lambda t: (["score", "-"], (RECORDS / "two-hands.json").read_bytes()),
    "engine-error": lambda t: (["score", _write(t, "r.json", _bad_turn())], None),
    "not-json": lambda t: (["score", _write(t, "r.json", b'{"format": ')], None),
    "not-utf8-stdin": lambda t: (["score", "-"], b"\xff\xfe{}"),
    "missing-file": lambda t: (["score", t / "no-such.json"], None),
    "usage-error": lambda t: (["score"], None),
    "help": lambda t: (["score", "--help"], None),
    "tally-svg": lambda t: (["tally", "--points", "10,10,5,15,35", "--svg"], None),
    "tally-refused": lambda t: (["pegboard", "--points", "3", "--names", "A,B"], None),
}


@pytest.mark.parametrize("case", CASES)
def test_in_process_is_byte_for_byte_the_process(tmp_path, case):
    args, stdin = CASES[case](tmp_path)
    inside = run_cli(*args, stdin=stdin, binary=True)
    outside = run_cli_process(*args, stdin=stdin, binary=True)
    assert inside == outside
