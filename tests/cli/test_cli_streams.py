"""The command's streams (issue 26): a named pipe given as the record, and a standard
output that cannot be written (closed, full).

A FIFO nobody writes to is waited for a bounded time (``boundary.FIFO_WAIT``), then
refused with one line; a FIFO that gets a writer is read as a file is.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import RECORDS, run_cli, run_cli_process

from scorekeeper import boundary

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
