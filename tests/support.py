"""What the tests share (imported by the test modules; ``conftest.py`` makes fixtures of it).

``run_cli`` runs the ``scorekeeper`` command in this process, with its own
standard input, output and error: fast, and the same ``main`` the console
script calls. ``run_cli_process`` runs it as a real process (``python -m
scorekeeper``), for the few smoke tests that check what only a process shows
(start-up, the exit status the OS sees, a reader that closes the pipe early).

``run_cli`` reproduces what a process does around ``main``, so that both give
the same ``Ran`` for the same command (``tests/cli/test_smoke.py`` checks it):
standard output is strict UTF-8 and standard error UTF-8 with backslash
escapes (as under a UTF-8 locale); standard input is empty unless given;
``SystemExit`` and ``main``'s return value become the exit status as Python
makes them (``None`` is 0, an int is taken modulo 256, anything else is
printed on standard error with status 1); an exception that escapes ``main``
prints its traceback on standard error with status 1; argparse wraps its help
at 80 columns (a process's output is a pipe) unless ``COLUMNS`` says otherwise.

``HeldStore`` is another Scorekeeper holding a database open, as the app does
(its lock taken), and writing to it when asked; ``tree_state`` is what tells
that nobody wrote to a database directory.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import subprocess
import sys
import threading
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).resolve().parent / "records"
STORE_CHILD = ROOT / "tests" / "store" / "store_child.py"


@dataclass
class Ran:
    """What a command did: its exit status and what it wrote (text, or bytes when asked)."""

    returncode: int
    stdout: str | bytes
    stderr: str | bytes


def _as_bytes(stdin: str | bytes | None) -> bytes:
    return stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")


def _result(code: int, out: bytes, err: bytes, binary: bool) -> Ran:
    if binary:
        return Ran(code, out, err)
    return Ran(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


def _exit_status(value: object) -> int:
    """The status a process ends with when ``sys.exit(value)`` ends it (as CPython does it)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def run_cli(*args: object, stdin: str | bytes | None = None, binary: bool = False) -> Ran:
    """``scorekeeper ARGS`` in this process; ``stdin`` is what standard input holds."""
    from scorekeeper.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    saved = (sys.stdin, sys.stdout, sys.stderr)
    fake_in = io.TextIOWrapper(io.BytesIO(_as_bytes(stdin)), encoding="utf-8")
    fake_out = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    fake_err = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    ours = (fake_in, fake_out, fake_err)
    columns_set = "COLUMNS" in os.environ
    if not columns_set:
        os.environ["COLUMNS"] = "80"
    sys.stdin, sys.stdout, sys.stderr = ours
    try:
        try:
            status: object = main([str(a) for a in args])
        except SystemExit as e:  # argparse: --help, --version, usage errors
            status = e.code
        except Exception:  # what the interpreter does with an exception nobody caught
            traceback.print_exc()
            status = 1
        code = _exit_status(status)
    finally:
        # main may have replaced a stream (after a broken pipe it opens os.devnull): close that one
        opened = [f for f in (sys.stdin, sys.stdout, sys.stderr) if f not in ours and f not in saved]
        sys.stdin, sys.stdout, sys.stderr = saved
        if not columns_set:
            os.environ.pop("COLUMNS", None)
        for f in opened:
            f.close()
        for f in (fake_out, fake_err):
            if not f.closed:
                f.flush()
    return _result(code, out.getvalue(), err.getvalue(), binary)


def process_env(**changes: str | None) -> dict[str, str]:
    """The environment ``run_cli_process`` gives the command: this one, with ``ROOT`` first on
    ``PYTHONPATH`` (so it imports the package these tests import) and ``changes`` made
    (a value of None removes the variable)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_cli_process(
    *args: object,
    stdin: str | bytes | None = None,
    binary: bool = False,
    timeout: float = 60,
    env: Mapping[str, str | None] | None = None,
    read_stdout: int | None = None,
) -> Ran:
    """``python -m scorekeeper ARGS`` as a real process.

    ``stdin`` is what standard input holds (empty if None); ``env`` changes the
    environment (see ``process_env``). ``read_stdout=N`` reads only the first N
    bytes of standard output and then closes the pipe, like ``... | head -c N``
    (0: the reader is gone before anything is written); ``stdout`` is then what was read.
    """
    command = [sys.executable, "-m", "scorekeeper", *map(str, args)]
    kwargs = {"cwd": ROOT, "env": process_env(**dict(env or {}))}
    if read_stdout is None:
        p = subprocess.run(command, input=_as_bytes(stdin), capture_output=True, timeout=timeout, **kwargs)
        return _result(p.returncode, p.stdout, p.stderr, binary)
    code, out, err = _run_reader_leaving_early(command, _as_bytes(stdin), read_stdout, timeout, kwargs)
    return _result(code, out, err, binary)


def _run_reader_leaving_early(
    command: list[str], data: bytes, n: int, timeout: float, kwargs: dict
) -> tuple[int, bytes, bytes]:
    errors: list[bytes] = []
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs
    ) as p:
        assert p.stdin is not None and p.stdout is not None and p.stderr is not None
        child_in, child_out, child_err = p.stdin, p.stdout, p.stderr

        def feed() -> None:
            with contextlib.suppress(BrokenPipeError):  # the command did not read it all
                child_in.write(data)
            with contextlib.suppress(BrokenPipeError):
                child_in.close()

        threads = [
            threading.Thread(target=feed, daemon=True),
            threading.Thread(target=lambda: errors.append(child_err.read()), daemon=True),
        ]
        for t in threads:
            t.start()
        out = b""
        while len(out) < n:
            chunk = os.read(child_out.fileno(), n - len(out))
            if not chunk:
                break
            out += chunk
        child_out.close()
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            raise
        for t in threads:
            t.join(timeout)
    return p.returncode, out, b"".join(errors)


def tree_state(path: Path) -> dict[str, tuple[object, ...]]:
    """Everything a write would change under a directory, the directory itself included:
    for every entry its inode, type and mode, size, mtime and ctime, and a file's bytes
    (a read changes only the access time, which is left out)."""
    state: dict[str, tuple[object, ...]] = {}
    for p in [path, *sorted(path.rglob("*"))]:
        st = p.lstat()
        data = p.read_bytes() if p.is_file() and not p.is_symlink() else None
        state[str(p.relative_to(path))] = (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, data)
    return state


class HeldStore:
    """Another Scorekeeper that holds the database ``db`` open, as the app does (its lock
    taken, the index written only when it closes), and writes to it when asked::

        with HeldStore(db) as app:
            mid = app.create(record)
            app.append(mid, entry)   # durable when it returns

    A process running ``tests/store/store_child.py --serve``; leaving the ``with``
    closes its store (an exception kills it instead, as a crash would)."""

    def __init__(self, db: Path, timeout: float = 60) -> None:
        self.timeout = timeout
        self._buffer = b""
        self.proc = subprocess.Popen(
            [sys.executable, str(STORE_CHILD), "--serve", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=ROOT,
            env=process_env(PYTHONDONTWRITEBYTECODE="1"),
        )
        line = self._line()
        if not line.startswith("holding "):
            self.kill()
            raise AssertionError(f"the holder did not open the database: {line!r}")
        self.pid = int(line.split()[1])

    def _line(self) -> str:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], self.timeout)
            chunk = os.read(fd, 65536) if ready else b""
            if not chunk:
                self.kill()
                assert self.proc.stderr is not None
                why = "no answer in time" if not ready else f"it exited ({self.proc.returncode})"
                raise AssertionError(f"holder: {why}; stderr: {self.proc.stderr.read().decode(errors='replace')}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8")

    def _ask(self, command: dict[str, object]) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(command) + "\n").encode("utf-8"))
        line = self._line()
        if line.startswith("error "):
            raise AssertionError(f"holder: {line}")
        return line

    def create(self, record: dict[str, object]) -> str:
        """Store a new match (``Store.create``); its id."""
        line = self._ask({"create": record})
        assert line.startswith("created "), line
        return line.split()[1]

    def append(self, mid: str, entry: dict[str, object]) -> None:
        """``Store.append``: the entry is on the disk when this returns."""
        assert self._ask({"append": [mid, entry]}) == "ack"

    def close(self) -> None:
        """Close the store (the index is written) and wait for the process to end."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        if self.proc.wait(self.timeout) != 0:
            raise AssertionError(f"holder exited with {self.proc.returncode}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(self.timeout)

    def __enter__(self) -> HeldStore:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.kill()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()


# ------------------------------------------------------------ stored records
def rebuild(rec: dict, entries: list[dict]) -> dict:
    """The record that ``rec`` with its hands emptied becomes after these entries."""
    out = json.loads(json.dumps(dict(rec, hands=[])))
    for entry in json.loads(json.dumps(entries)):
        ((kind, value),) = entry.items()
        if kind == "hand":
            out["hands"].append({**value, "turns": []})
        elif kind == "turn":
            out["hands"][-1]["turns"].append(value)
        else:
            out["hands"][-1]["remaining"] = value
    return out


def list_row(rec: dict) -> dict:
    """What a list row says of a record's state: hands, scores, status, winner."""
    from scorekeeper import registry

    match = registry.game_of(rec).load(rec)
    sides = match.setup.sides
    return {
        "hands": len(match.hands),
        "scores": dict(zip(sides, match.scores, strict=True)),
        "status": "won" if match.winner is not None else ("new" if not match.hands else "playing"),
        "winner": None if match.winner is None else sides[match.winner],
    }


def full_record(i: int, seed: int = 500) -> dict:
    """The record of build_db's i-th match (a random legal All Fives game)."""
    from scorekeeper.allfives import random_record

    return random_record(seed + i, players=2 + i % 3, max_hands=2)


def build_db(path: Path, n: int = 4, seed: int = 500) -> dict[str, dict]:
    """A database of n matches (the last one half entered), closed; returns {id: stored record}."""
    from scorekeeper.store import Store, entries_of

    recs = {}
    with Store(path) as store:
        for i in range(n):
            rec = full_record(i, seed)
            entries = entries_of(rec)
            if i == n - 1:
                entries = entries[: len(entries) // 2]
            mid = store.create(dict(rec, hands=[]))
            for e in entries:
                store.append(mid, e)
            recs[mid] = rebuild(rec, entries)
        assert store.problems == []
    return recs


@contextlib.contextmanager
def finishes(within: float = 300.0):
    """A hang guard, not a timing: the block must *end* (a loop over 10**5000 strokes, a
    quadratic replay that takes hours) within a bound far beyond any machine's slowness;
    past it the test fails instead of hanging the suite. Speed is measured by benchmarks/.
    Where there is no SIGALRM (Windows) there is no guard: the CI job's own time limit is it."""
    import signal

    if not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise AssertionError(f"did not finish within {within:.0f} s: a loop without end?")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, within)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


#: seconds a ``scorekeeper web`` process has to answer ``/`` (it answers in about 1 s here)
SERVER_START = 60.0


@contextlib.contextmanager
def web_server(cmd: list[str], port: int, log: Path, **popen: object):
    """Run ``cmd`` (a ``scorekeeper web`` serving 127.0.0.1:``port``; its output to ``log``)
    until the block ends, and give the block the body of ``/`` as soon as it answers. Stopped
    with ``Popen.terminate`` (SIGTERM, or TerminateProcess on Windows). A server that ends
    or never answers fails the test with what it printed."""
    import time
    import urllib.error
    import urllib.request

    def said() -> str:
        return log.read_text(encoding="utf-8", errors="replace")

    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **popen)
    try:
        deadline = time.monotonic() + SERVER_START
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"{cmd}: exit {proc.returncode} before answering on /\n{said()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    page = bytes(r.read())
                break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{cmd}: no answer on / within {SERVER_START:.0f} s\n{said()}")
            time.sleep(0.1)
        yield page
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def make_fifo(path: Path) -> None:
    """A named pipe at ``path``; the test is skipped where the system has none (Windows)."""
    if not hasattr(os, "mkfifo"):
        import pytest

        pytest.skip("named pipes (os.mkfifo) are POSIX's: not on this system")
    os.mkfifo(path)
