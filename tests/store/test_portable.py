"""The store on Windows and macOS as well as Linux (issue 45): what differs between them.

Windows refuses a replace while another program (an antivirus, the search indexer) holds the
file for a moment, so the store tries again for about a second; it cannot open a directory,
so there is no ``fsync`` of one and a lock directory is moved aside under a lock file of its
own; its lock of the lock file keeps the first byte from every other process, so the holder's
pid is read from the second. Each is checked here by making this machine behave so.

Then the store's durability tests (append, undo, import, a record saved with CRLF, a killed
writer, a second writer refused, a lock that is a directory) run again in a new pytest
process, and ``scorekeeper web`` is started and serves its first screen, with Scorekeeper's
own modules seeing Windows: no ``fcntl``, ``resource``, ``termios``, ``pwd`` or ``grp``, an
``os`` without ``O_DIRECTORY``, ``O_CLOEXEC``, ``O_NONBLOCK``, ``pread`` and the rest of
what Windows lacks, Windows's signals only, and ``sys.platform`` read as ``"win32"``
(``as_windows/sitecustomize.py``; the interpreter and the dependencies are unchanged).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from support import ROOT, build_db, full_record, process_env, web_server

from scorekeeper import system
from scorekeeper.store import Store, StoreLockedError, entries_of, storage
from scorekeeper.store import lock as lock_module
from scorekeeper.store.storage import REPLACE_PAUSES, TEMP_MARK, atomic_write


class RefusedReplace:
    """``os.replace`` refused (PermissionError, as Windows does while another program holds
    the file) ``times`` times, then done; the pauses between the tries are recorded, not slept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, times: int) -> None:
        self.left = times
        self.calls = 0
        self.pauses: list[float] = []
        real = os.replace

        def replace(src: object, dst: object) -> None:
            self.calls += 1
            if self.left > 0:
                self.left -= 1
                raise PermissionError(errno.EACCES, "Access is denied", str(src))
            real(src, dst)  # type: ignore[arg-type]

        monkeypatch.setattr(storage.os, "replace", replace)
        monkeypatch.setattr(storage.time, "sleep", self.pauses.append)


def temp_files(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if TEMP_MARK in p.name]


def test_a_replace_windows_refuses_for_a_moment_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system, "PLATFORM", "win32")
    target = tmp_path / "m.json"
    target.write_bytes(b"old")
    refused = RefusedReplace(monkeypatch, times=3)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new" and temp_files(tmp_path) == []
    assert refused.calls == 4 and refused.pauses == list(REPLACE_PAUSES[:3])


def test_a_replace_refused_for_longer_fails_and_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(system, "PLATFORM", "win32")
    target = tmp_path / "m.json"
    target.write_bytes(b"old")
    refused = RefusedReplace(monkeypatch, times=len(REPLACE_PAUSES) + 1)
    with pytest.raises(PermissionError) as e:
        atomic_write(target, b"new")
    assert e.value.filename == str(target)
    assert refused.pauses == list(REPLACE_PAUSES) and 0.8 <= sum(REPLACE_PAUSES) <= 1.5  # about a second
    assert target.read_bytes() == b"old" and temp_files(tmp_path) == []


def test_off_windows_a_refused_replace_is_not_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system, "PLATFORM", "linux")
    target = tmp_path / "m.json"
    refused = RefusedReplace(monkeypatch, times=1)
    with pytest.raises(PermissionError):
        atomic_write(target, b"new")
    assert refused.calls == 1 and refused.pauses == [] and not target.exists()


def test_a_match_is_stored_through_a_replace_refused_for_a_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(system, "PLATFORM", "win32")
    rec = full_record(1)
    with Store(tmp_path / "db") as store:
        mid = store.create(dict(rec, hands=[]))
        refused = RefusedReplace(monkeypatch, times=2)
        for entry in entries_of(rec)[:3]:
            store.append(mid, entry)
        assert refused.calls == 5
    with Store(tmp_path / "db") as store:
        assert entries_of(store.record(mid)) == entries_of(rec)[:3]


def test_where_no_directory_can_be_opened_nothing_syncs_one_and_the_store_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(os, "O_DIRECTORY")
    opened: list[str] = []
    real_open = os.open

    def watched(path: object, flags: int, *args: object, **kw: object) -> int:
        opened.append(str(path))
        return real_open(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(storage.os, "open", watched)
    recs = build_db(tmp_path / "db", n=2)
    assert opened and not [p for p in opened if Path(p).is_dir()]  # files only, never a directory
    with Store(tmp_path / "db") as store:
        assert sorted(store.ids()) == sorted(recs)


def test_where_no_directory_can_be_opened_a_lock_directory_is_moved_aside_under_a_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "db"
    recs = build_db(db, n=1)
    (db / "lock").unlink()
    (db / "lock").mkdir()
    (db / "lock" / "note.txt").write_text("kept", encoding="utf-8")
    monkeypatch.delattr(os, "O_DIRECTORY")
    with Store(db) as store:
        (problem,) = store.problems
        assert problem.startswith("the lock file lock was a directory, not a lock anybody holds; it was moved aside")
        assert sorted(store.ids()) == sorted(recs)
        (aside,) = db.glob("lock.corrupt-*")
        assert (aside / "note.txt").read_text(encoding="utf-8") == "kept"
        assert (db / lock_module.ASIDE_LOCK).is_file() and (db / "lock").is_file()


class FirstByteLocked:
    """The lock file as another process sees it on Windows, where the holder's lock keeps its
    first byte from being read: a read from offset 0 is refused (os.read of the lock module)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, lock: Path) -> None:
        self.refused = 0
        real_read = os.read
        inode = os.stat(lock).st_ino

        def read(fd: int, n: int) -> bytes:
            if os.fstat(fd).st_ino == inode and os.lseek(fd, 0, os.SEEK_CUR) == 0:
                self.refused += 1
                raise PermissionError(errno.EACCES, "The process cannot access the file")
            return real_read(fd, n)

        monkeypatch.setattr(lock_module.os, "read", read)


def test_the_holder_is_named_where_the_first_byte_of_the_lock_file_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "db"
    with Store(db):
        assert (db / "lock").read_bytes() == f" {os.getpid()}".encode()
        locked = FirstByteLocked(monkeypatch, db / "lock")
        with pytest.raises(StoreLockedError) as e:
            Store(db, wait=0)
        assert locked.refused >= 1
        assert f"in use by another Scorekeeper (pid {os.getpid()})" in str(e.value)


def test_a_lock_file_of_an_older_scorekeeper_still_names_its_holder(tmp_path: Path) -> None:
    """Before 1.0 the pid was written from the first byte: it is read so too."""
    fd = os.open(tmp_path / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.write(fd, b"4242")
        assert lock_module._holder(fd) == "4242"
    finally:
        os.close(fd)


# ---------------------------------------------------------------- Scorekeeper seeing Windows
AS_WINDOWS = Path(__file__).with_name("as_windows")
#: True in a process started with ``as_windows`` first on PYTHONPATH
SIMULATED = os.environ.get("SCOREKEEPER_AS_WINDOWS") == "1"
#: the store's durability tests run again with Scorekeeper seeing Windows
DURABILITY = [
    "tests/store/test_store.py::test_entries_appended_one_by_one_are_the_record_after_reopening",
    "tests/store/test_store.py::test_undo_and_redo",
    "tests/store/test_store.py::test_cli_import_export_list_round_trip",
    "tests/store/test_store.py::test_a_record_saved_on_windows_imports_and_exports_as_it_was",
    "tests/store/test_store_safety.py::test_the_child_acknowledges_exactly_what_it_stored",
    "tests/store/test_store_safety.py::test_rapid_kills_inside_the_append_loop_lose_nothing",
    "tests/store/test_store_safety.py::test_a_second_app_instance_gets_a_clear_message_and_changes_nothing",
    "tests/store/test_store_safety.py::test_only_one_of_several_instances_started_at_once_gets_the_database",
    "tests/store/test_store_safety.py::test_a_second_store_in_the_same_process_is_refused_and_the_first_keeps_its_lock",
    "tests/store/test_store_safety.py::test_the_context_manager_releases_the_lock",
    "tests/store/test_store_lock.py",
    "tests/store/test_portable.py::test_scorekeeper_sees_windows",
]
on_windows_itself = pytest.mark.skipif(
    sys.platform == "win32", reason="on Windows the whole suite runs on Windows itself"
)


def as_windows_env() -> dict[str, str]:
    """This environment with ``as_windows`` first on PYTHONPATH (then this tree)."""
    env = process_env()
    env["PYTHONPATH"] = str(AS_WINDOWS) + os.pathsep + env["PYTHONPATH"]
    return env


@pytest.mark.skipif(not SIMULATED, reason="runs where Scorekeeper sees Windows (the next test starts it)")
def test_scorekeeper_sees_windows() -> None:
    assert system.windows() and not system.can_open_directories()
    assert system.O_CLOEXEC == system.O_NONBLOCK == 0
    for name in ("fcntl", "resource", "termios", "pwd", "grp"):
        with pytest.raises(ModuleNotFoundError):
            __import__(name, globals())
    assert not any(hasattr(os, n) for n in ("O_DIRECTORY", "O_CLOEXEC", "O_NONBLOCK", "pread", "pwrite", "killpg"))
    assert not hasattr(signal, "SIGKILL") and hasattr(signal, "SIGTERM")
    from filelock import has_fcntl  # the dependencies keep theirs: flock stands in for LockFileEx

    assert has_fcntl and sys.platform == "win32"  # (this module's view of sys)


@pytest.mark.slow  # about 10 s: a new pytest process, the store's children and the kills
@on_windows_itself
@pytest.mark.skipif(SIMULATED, reason="this is the test that runs it")
def test_the_store_keeps_every_entry_with_scorekeeper_seeing_windows() -> None:
    cmd = [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    # a short folder for the child's temporary paths: the store's one-line messages name a path
    # up to three times and are cut at their length limit, which a deep pytest folder reached
    short = Path(tempfile.mkdtemp(prefix="skw-"))
    try:
        ran = _run_as_windows([*cmd, "--basetemp", str(short / "t"), *DURABILITY])
    finally:
        shutil.rmtree(short, ignore_errors=True)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-3000:]
    summary = ran.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ passed in [\d.]+s", summary), ran.stdout[-3000:]  # nothing skipped
    assert int(summary.split()[0]) >= len(DURABILITY)


def _run_as_windows(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=ROOT,
        env=as_windows_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
    )


@pytest.mark.slow  # about 2 s: the server's start
@on_windows_itself
@pytest.mark.skipif(SIMULATED, reason="started by the test that runs the durability tests")
def test_the_app_serves_with_scorekeeper_seeing_windows(tmp_path: Path) -> None:
    from e2e import stranger
    from e2e.harness import free_port

    from scorekeeper.ui.server.serve import FIREWALL

    port = free_port()
    log = tmp_path / "web.log"
    cmd = [sys.executable, "-m", "scorekeeper", "--db", str(tmp_path / "db"), "web", "--no-browser"]
    with web_server([*cmd, "--host", "0.0.0.0", "--port", str(port)], port, log, cwd=ROOT, env=as_windows_env()):
        with stranger.open_ws("127.0.0.1", port) as ws:  # the host's Home: the app and its store run
            ws.sendall(stranger.register())
            assert stranger.read_until(ws, (stranger.HOST_WORDS,), 30) == stranger.HOST_WORDS
    said = log.read_text(encoding="utf-8", errors="replace")
    assert said.startswith("Scorekeeper is served at http://") and "Traceback" not in said, said
    assert said.rstrip().endswith(FIREWALL), said  # the platform was read as Windows
