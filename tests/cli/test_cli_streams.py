"""The command's streams (issue 26): a named pipe given as the record, and a standard
output that cannot be written (closed, full).

A FIFO nobody writes to is waited for a bounded time (``boundary.FIFO_WAIT``), then
refused with one line; a FIFO that gets a writer is read as a file is. A standard
output that cannot be written ends every command with status 1 and one line naming
it; ``import`` then leaves the database as it was (it stores the match only if it
can say so).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import RECORDS, ROOT, Ran, process_env, run_cli, run_cli_process, tree_state

from scorekeeper import boundary
from scorekeeper.cli import main

WORKED = RECORDS / "worked-example.json"

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def one_error_line(ran, status: int = 2) -> str:
    """The one ``error:`` line of a command that failed with ``status`` (nothing on standard output)."""
    err = ran.stderr if isinstance(ran.stderr, str) else ran.stderr.decode("utf-8", "replace")
    assert ran.returncode == status, (ran.returncode, err)
    assert not ran.stdout, ran.stdout
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "Exception ignored" not in err and "internal error" not in err, err
    return lines[0]


# ---------------------------------------------------------------- named pipes
@contextlib.contextmanager
def unblocker(fifo: Path, after: float = 15) -> Iterator[list[bool]]:
    """If the command still waits on ``fifo`` after ``after`` seconds, be its writer and
    close at once (it then reads an empty record), so that a command that would wait for
    ever fails the test instead of hanging it; ``rescued[0]`` says whether it had to."""
    done = threading.Event()
    rescued = [False]

    def rescue() -> None:
        if done.wait(after):
            return
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # no reader: ENXIO, nobody to rescue
        except OSError:
            return
        rescued[0] = True
        os.close(fd)

    t = threading.Thread(target=rescue, daemon=True)
    t.start()
    try:
        yield rescued
    finally:
        done.set()
        t.join()


def writer(fifo: Path, data: bytes, delay: float = 0.0) -> threading.Thread:
    """A thread that opens ``fifo`` for writing (it waits for a reader), writes ``data`` and closes it."""

    def write() -> None:
        if delay:
            threading.Event().wait(delay)
        with open(fifo, "wb") as f:
            f.write(data)

    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


@needs_fifo
@pytest.mark.parametrize("command", ["score", "import"])
def test_a_fifo_nobody_writes_to_is_refused_after_a_bounded_wait(tmp_path, monkeypatch, command):
    monkeypatch.setattr(boundary, "FIFO_WAIT", 0.3)
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    args = ["--db", tmp_path / "db", command, fifo] if command == "import" else [command, fifo]
    with unblocker(fifo) as rescued:
        ran = run_cli(*args)
    assert not rescued[0], "the command waited for a writer until the test gave it one"
    line = one_error_line(ran)
    assert line == f"error: {fifo}: nobody is writing to this pipe (waited 0.3 s)", line
    assert not (tmp_path / "db").exists()  # import stored nothing, not even an empty database


@needs_fifo
def test_a_fifo_nobody_writes_to_as_a_process_names_the_default_wait(tmp_path):
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    ran = run_cli_process("score", fifo, timeout=30)
    line = one_error_line(ran)
    assert line.endswith(f"rec.fifo: nobody is writing to this pipe (waited {boundary.FIFO_WAIT:g} s)"), line
    assert boundary.FIFO_WAIT == 5


@needs_fifo
@pytest.mark.parametrize("delay", [0.0, 0.3])
def test_a_fifo_with_a_writer_is_read_as_a_file_is(tmp_path, monkeypatch, delay):
    """A writer that is there first, and one that comes within the wait."""
    monkeypatch.setattr(boundary, "FIFO_WAIT", 5)
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    data = WORKED.read_bytes()
    whole = run_cli("score", WORKED)
    assert whole.returncode == 0
    t = writer(fifo, data, delay)
    with unblocker(fifo) as rescued:
        ran = run_cli("score", fifo)
    t.join(10)
    assert not rescued[0]
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, whole.stdout, "")
    # and import: the match is stored once, as from the file
    t = writer(fifo, data, delay)
    with unblocker(fifo) as rescued:
        imported = run_cli("--db", tmp_path / "db", "import", fifo)
    t.join(10)
    assert not rescued[0]
    assert imported.returncode == 0 and imported.stderr == "", imported.stderr
    mid = imported.stdout.strip()
    assert json.loads(run_cli("--db", tmp_path / "db", "export", mid).stdout) == json.loads(data)


@needs_fifo
def test_a_fifo_whose_writer_stops_writing_is_refused_after_the_wait(tmp_path, monkeypatch):
    """A writer that writes half a record and then neither writes nor closes."""
    monkeypatch.setattr(boundary, "FIFO_WAIT", 0.3)
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    release = threading.Event()

    def stall() -> None:
        with open(fifo, "wb", buffering=0) as f:
            f.write(b'{"format": "scorekeeper/1", ')
            release.wait(30)

    t = threading.Thread(target=stall, daemon=True)
    t.start()
    try:
        line = one_error_line(run_cli("score", fifo))
    finally:
        release.set()
        t.join(10)
    assert line == f"error: {fifo}: the pipe's writer stopped writing (nothing more for 0.3 s)", line


@needs_fifo
def test_a_fifo_whose_writer_writes_nothing_and_closes_is_an_empty_record(tmp_path, monkeypatch):
    monkeypatch.setattr(boundary, "FIFO_WAIT", 5)
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    t = writer(fifo, b"")
    with unblocker(fifo) as rescued:
        line = one_error_line(run_cli("score", fifo))
    t.join(10)
    assert not rescued[0]
    assert line == "error: not a match record (JSON): expecting a value at line 1, column 1", line


@needs_fifo
def test_a_fifo_that_streams_for_ever_stops_at_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(boundary, "FIFO_WAIT", 5)
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    wrote = [0]

    def endless() -> None:
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as f:
            while wrote[0] < 10 * boundary.MAX_BYTES:  # the reader leaves long before
                wrote[0] += f.write(b" " * 65536)

    t = threading.Thread(target=endless, daemon=True)
    t.start()
    with unblocker(fifo) as rescued:
        line = one_error_line(run_cli("score", fifo))
    t.join(30)
    assert not rescued[0] and not t.is_alive()
    assert line == "error: not a match record: it is larger than 2 MB", line
    assert wrote[0] < 2 * boundary.MAX_BYTES


def test_standard_input_is_still_read_to_its_end():
    ran = run_cli("score", "-", stdin=WORKED.read_bytes())
    assert ran.returncode == 0 and ran.stdout == run_cli("score", WORKED).stdout


@pytest.mark.parametrize("command", ["score", "import"])
def test_a_closed_standard_input_is_one_error_line(tmp_path, command):
    """``scorekeeper score - <&-``: Python starts with no ``sys.stdin`` at all."""
    args = [sys.executable, "-m", "scorekeeper", "--db", str(tmp_path / "db"), command, "-"]
    p = subprocess.run(
        ["/bin/sh", "-c", 'exec "$@" <&-', "sh", *args],
        capture_output=True,
        cwd=ROOT,
        env=process_env(),
        timeout=60,
    )
    line = one_error_line(Ran(p.returncode, p.stdout, p.stderr))
    assert line == "error: standard input: cannot be read (it is closed)", line
    assert not (tmp_path / "db").exists()


# ---------------------------------------------------------------- standard output
# A user's shell does not set PYTHONUNBUFFERED (this test environment may): try both.
BUFFERED = {"PYTHONUNBUFFERED": None}
UNBUFFERED = {"PYTHONUNBUFFERED": "1"}
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
REDIRECT = {"closed": ">&-", "full": ">/dev/full"}


def run_with_stdout(how: str, *args: object, env: dict | None = None, stdin: bytes = b"") -> Ran:
    """``python -m scorekeeper ARGS`` with its standard output closed (``>&-``) or full
    (``>/dev/full``), as a shell starts it."""
    command = [sys.executable, "-m", "scorekeeper", *map(str, args)]
    p = subprocess.run(
        ["/bin/sh", "-c", f'exec "$@" {REDIRECT[how]}', "sh", *command],
        input=stdin,
        stdout=subprocess.DEVNULL,  # what the shell redirects away from
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=process_env(**(env or {})),
        timeout=60,
    )
    return Ran(p.returncode, "", p.stderr.decode("utf-8", "replace"))


def output_failed(ran: Ran) -> str:
    """The one line of a command that could not write its standard output: status 1, the
    output named (not the database), no traceback, not even at Python's exit."""
    line = one_error_line(ran, status=1)
    assert line.startswith("error: standard output: cannot be written ("), line
    assert "database" not in line, line
    return line


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> tuple[Path, str]:
    """A database holding one match, and the match's id."""
    db = tmp_path_factory.mktemp("streams") / "db"
    ran = run_cli("--db", db, "import", WORKED)
    assert ran.returncode == 0, ran.stderr
    return db, ran.stdout.strip()


PRINTING = {
    "list": lambda db, mid: ["--db", db, "list"],
    "list-json": lambda db, mid: ["--db", db, "list", "--json"],
    "export": lambda db, mid: ["--db", db, "export", mid],
    "export-csv": lambda db, mid: ["--db", db, "export", "--all", "--csv"],
    "stats": lambda db, mid: ["--db", db, "stats", "--json"],
    "score": lambda db, mid: ["score", WORKED],
    "score-text": lambda db, mid: ["score", WORKED, "--text"],
    "tally": lambda db, mid: ["tally", "--points", "5,10"],
    "pegboard": lambda db, mid: ["pegboard", "--points", "1,2", "--svg"],
    "help": lambda db, mid: ["--help"],
    "version": lambda db, mid: ["--version"],
}


@pytest.mark.parametrize("env", [BUFFERED, UNBUFFERED], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("how", ["closed", pytest.param("full", marks=needs_dev_full)])
@pytest.mark.parametrize("case", PRINTING)
def test_a_closed_or_full_standard_output_is_one_error_line(stored, case, how, env):
    db, mid = stored
    line = output_failed(run_with_stdout(how, *PRINTING[case](db, mid), env=env))
    if how == "closed":
        assert line == "error: standard output: cannot be written (it is closed)", line
    else:
        assert line == "error: standard output: cannot be written (No space left on device)", line


def test_in_process_a_closed_standard_output_is_the_same_line(stored, monkeypatch, capsys):
    """``main`` run with ``sys.stdout`` None, as Python starts with its descriptor closed."""
    db, mid = stored
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["--db", str(db), "list"]) == 1
    assert sys.stdout is None
    assert capsys.readouterr().err == "error: standard output: cannot be written (it is closed)\n"


class FullDisk(io.RawIOBase):
    """A file whose every write fails as on a full disk."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_in_process_a_full_standard_output_is_the_same_line(monkeypatch, capsys):
    full = io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", full)
    assert main(["score", str(WORKED)]) == 1
    assert sys.stdout is full
    assert capsys.readouterr().err == f"error: standard output: cannot be written ({os.strerror(errno.ENOSPC)})\n"


def test_a_reader_gone_is_still_not_an_error(stored):
    """``scorekeeper list | head -c 0``: the reader has what it wanted (see test_smoke.py)."""
    db, mid = stored
    ran = run_cli_process("--db", db, "list", "--json", read_stdout=0, env=BUFFERED)
    assert (ran.returncode, ran.stderr) == (0, "")


# ---------------------------------------------------------------- import reports, or changes nothing
def one_match_db(tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "db"
    ran = run_cli("--db", db, "import", RECORDS / "two-hands.json")
    assert ran.returncode == 0, ran.stderr
    return db, ran.stdout.strip()


def listed(db: Path) -> list[str]:
    ran = run_cli("--db", db, "list", "--json")
    assert ran.returncode == 0, ran.stderr
    return [m["id"] for m in json.loads(ran.stdout)]


@pytest.mark.parametrize("env", [BUFFERED, UNBUFFERED], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("how", ["closed", pytest.param("full", marks=needs_dev_full)])
def test_an_import_that_cannot_report_its_id_imports_nothing(tmp_path, how, env):
    """A script that retries a failed ``import`` must not store the match twice: status 1
    means nothing changed. A closed output is refused before the database is opened; a
    full one is found out after the import, which is then taken back."""
    db, first = one_match_db(tmp_path)
    before = tree_state(db)
    line = output_failed(run_with_stdout(how, "--db", db, "import", WORKED, env=env))
    assert line.endswith("; nothing was imported"), line
    assert listed(db) == [first]
    if how == "closed":
        assert tree_state(db) == before  # not even opened
    # the retry, with an output that works, imports it once
    again = run_cli("--db", db, "import", WORKED)
    assert again.returncode == 0, again.stderr
    assert sorted(listed(db)) == sorted([first, again.stdout.strip()])


@pytest.mark.parametrize("how", ["closed", pytest.param("full", marks=needs_dev_full)])
def test_an_import_from_standard_input_that_cannot_report_imports_nothing(tmp_path, how):
    db, first = one_match_db(tmp_path)
    ran = run_with_stdout(how, "--db", db, "import", "-", stdin=WORKED.read_bytes(), env=BUFFERED)
    assert output_failed(ran).endswith("; nothing was imported")
    assert listed(db) == [first]


def test_an_import_whose_reader_is_gone_is_stored_once(tmp_path):
    """``scorekeeper import REC | true``: the reader left; the import stands, status 0."""
    db, first = one_match_db(tmp_path)
    ran = run_cli_process("--db", db, "import", WORKED, read_stdout=0, env=BUFFERED)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert len(listed(db)) == 2


def test_in_process_an_import_that_cannot_report_is_taken_back(tmp_path, monkeypatch, capsys):
    db, first = one_match_db(tmp_path)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8"))
    assert main(["--db", str(db), "import", str(WORKED)]) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert err == f"error: standard output: cannot be written ({os.strerror(errno.ENOSPC)}); nothing was imported\n"
    assert listed(db) == [first]


def test_in_process_an_import_that_cannot_be_taken_back_says_it_is_stored(tmp_path, monkeypatch, capsys):
    """The rare double failure (the output, then taking the match back) says what is stored."""
    from scorekeeper.store import Store, StoreError

    db, first = one_match_db(tmp_path)

    def stuck(self, mid):
        raise StoreError(f"match {mid} could not be deleted (permission denied); it is still stored")

    monkeypatch.setattr(Store, "delete", stuck)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(FullDisk()), encoding="utf-8"))
    assert main(["--db", str(db), "import", str(WORKED)]) == 1
    monkeypatch.undo()
    (line,) = capsys.readouterr().err.splitlines()
    (mid,) = set(listed(db)) - {first}
    assert line == (
        f"error: standard output: cannot be written ({os.strerror(errno.ENOSPC)}); the match was imported "
        f"all the same, as {mid}: it could not be taken back (match {mid} could not be deleted "
        "(permission denied); it is still stored)"
    ), line
