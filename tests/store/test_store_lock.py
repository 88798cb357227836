"""A ``lock`` that is a directory (issue 26): the app did not start.

**Decision:** no version of Scorekeeper makes a directory there, so it is no lock anybody
holds: a store that writes removes it when it is empty, else moves it aside to
``lock.corrupt-<timestamp>`` (nothing in it deleted), makes the lock file anew, opens,
and says so in one line (``Store.problems``; the commands print it as a warning). A
directory that cannot be moved is one clear line saying to remove it; never a traceback.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from support import build_db, full_record, run_cli

from scorekeeper.store import Store, StoreError, StoreLockedError
from scorekeeper.ui.server.shared import open_shared


def lock_dir(db: Path, with_file: bool) -> Path:
    lock = db / "lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()
    if with_file:
        (lock / "note.txt").write_text("kept", encoding="utf-8")
    return lock


@pytest.mark.parametrize("with_file", [False, True], ids=["empty", "not empty"])
def test_a_lock_that_is_a_directory_is_moved_out_of_the_way_and_the_store_opens(tmp_path, with_file):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    lock = lock_dir(db, with_file)
    with Store(db) as store:
        (problem,) = store.problems
        asides = sorted(db.glob("lock.corrupt-*"))
        if with_file:
            (aside,) = asides
            assert (aside / "note.txt").read_text(encoding="utf-8") == "kept"
            done = f"moved aside to {aside.name}"
        else:
            assert asides == []
            done = "removed (it was empty)"
        assert problem == f"the lock file lock was a directory, not a lock anybody holds; it was {done}"
        assert stat.S_ISREG(lock.lstat().st_mode) and lock.read_text(encoding="ascii") == f" {os.getpid()}"
        assert sorted(store.ids()) == sorted(recs)
        with pytest.raises(StoreLockedError):  # and it is a lock again
            Store(db, wait=0)
    with Store(db) as store:
        assert store.problems == []


def test_the_app_starts_and_an_import_works_with_a_lock_that_is_a_directory(tmp_path):
    db = tmp_path / "db"
    recs = build_db(db, n=2)
    lock_dir(db, with_file=True)
    ran = run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(7)))
    assert ran.returncode == 0 and "Traceback" not in ran.stderr, ran.stderr
    assert ran.stderr.splitlines() == [
        f"warning: the lock file lock was a directory, not a lock anybody holds; it was moved aside to "
        f"{next(db.glob('lock.corrupt-*')).name}"
    ]
    lock_dir(db, with_file=False)
    shared = open_shared(str(db))  # the app
    try:
        assert len(shared.store.problems) == 1 and "removed (it was empty)" in shared.store.problems[0]
        assert shared.store.count() == len(recs) + 1
    finally:
        shared.close()


def test_a_lock_directory_that_cannot_be_moved_is_one_clear_line(tmp_path, monkeypatch):
    db = tmp_path / "db"
    build_db(db, n=1)
    lock_dir(db, with_file=True)
    real_rename = os.rename

    def refused(src: object, dst: object) -> None:
        if str(src).endswith("lock"):
            raise PermissionError(13, "Permission denied", str(src))
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", refused)
    with pytest.raises(StoreError) as e:
        Store(db)
    assert str(e.value) == (
        f"cannot open the database {db}: its lock file {db / 'lock'} is a directory that could not be moved aside "
        f"({db / 'lock'}: Permission denied (EACCES)); no Scorekeeper holds it: remove it and start again"
    )
    ran = run_cli("--db", db, "import", "-", stdin=json.dumps(full_record(7)))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "remove it and start again" in ran.stderr
    assert (db / "lock" / "note.txt").read_text(encoding="utf-8") == "kept"
