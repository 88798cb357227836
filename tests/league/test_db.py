"""The storage seam and the migrations, on both backends."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.league import migrate as migrations
from scorekeeper.league.db import MERGED_ROWS, Database, DatabaseError, connect
from scorekeeper.league.migrate import applied, migrate


def test_the_migrations_are_applied_once_and_noted(db: Database):
    assert applied(db) == [m.number for m in migrations.migrations()]
    assert migrate(db) == []
    assert db.read(lambda tx: tx.value("SELECT revision FROM league_state WHERE id = 1")) == 0


def test_a_migration_changed_since_it_was_applied_is_refused(db: Database):
    db.write(lambda tx: tx.run("UPDATE league_migrations SET digest = 'x' WHERE number = 1"))
    with pytest.raises(DatabaseError, match="has changed since it was applied"):
        migrate(db)


def test_a_write_is_whole_or_not_at_all(db: Database):
    def half(tx):
        tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("The Plough", "the plough"))
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        db.write(half)
    assert db.read(lambda tx: tx.value("SELECT COUNT(*) FROM venue")) == 0


def test_the_id_made_by_the_database_is_returned(db: Database):
    ids = [
        db.write(lambda tx, n=n: tx.value("INSERT INTO venue (name, name_key) VALUES (?, ?) RETURNING id", (n, n)))
        for n in ("a", "b")
    ]
    assert ids[1] > ids[0] > 0


def bumped_in_threads(db_url: str, write: Callable[[Any], Any]) -> int:
    """Two connections to one database, three threads (two on the first), each making
    ``write`` 25 times: the revision after them."""
    first, second = connect(db_url, pool=4), connect(db_url, pool=4)
    try:
        migrate(first)

        def bump(database: Database) -> None:
            for _ in range(25):
                database.write(write)

        threads = [threading.Thread(target=bump, args=(d,)) for d in (first, second, first)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return second.read(lambda tx: tx.value("SELECT revision FROM league_state"))
    finally:
        first.close()
        second.close()


def test_writers_in_threads_lose_nothing(db_url: str):
    # two connections to one database, each bumping the revision: every bump is kept
    assert (
        bumped_in_threads(db_url, lambda tx: tx.run("UPDATE league_state SET revision = revision + 1 WHERE id = 1"))
        == 75
    )


def test_a_url_of_no_known_kind_is_refused_in_one_line():
    with pytest.raises(DatabaseError, match="must be postgresql://... or sqlite:///PATH, not 'mysql://x'"):
        connect("mysql://x")


def test_a_database_that_cannot_be_reached_is_said_without_its_password():
    with pytest.raises(DatabaseError) as e:
        connect("postgresql://ann:secret@127.0.0.1:1/league")
    assert "secret" not in str(e.value) and "cannot be reached" in str(e.value) and "\n" not in str(e.value)


class Heard:
    """A listener of this process's own notifications."""

    def __init__(self) -> None:
        self.payloads: list[str] = []

    def heard(self, payload: str) -> None:
        self.payloads.append(payload)

    def listening(self, now: bool) -> None:
        pass


BUMP = "UPDATE league_state SET revision = revision + 1 WHERE id = 1 RETURNING revision"


def test_a_statement_asked_for_last_runs_once_at_the_commit_and_its_value_is_told(db: Database):
    heard = Heard()
    db.listen("league_revision", heard)

    def write(tx):
        tx.last(BUMP, "league_revision")
        tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("The Plough", "the plough"))
        tx.last(BUMP, "league_revision")  # asked twice: run once
        return tx.value("SELECT revision FROM league_state WHERE id = 1")

    assert db.write(write) == 0  # not run before the commit
    assert db.read(lambda tx: tx.value("SELECT revision FROM league_state WHERE id = 1")) == 1
    assert heard.payloads[0] == "1"  # told at once, by this process (PostgreSQL's LISTEN may tell it again)
    db.write(lambda tx: tx.last(BUMP, "league_revision"))
    assert "2" in heard.payloads and set(heard.payloads) <= {"1", "2"}


def test_a_statement_asked_for_last_is_not_run_when_the_write_fails(db: Database):
    heard = Heard()
    db.listen("league_revision", heard)

    def half(tx):
        tx.last(BUMP, "league_revision")
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        db.write(half)
    assert db.read(lambda tx: tx.value("SELECT revision FROM league_state WHERE id = 1")) == 0
    assert heard.payloads == []


def test_writers_asking_for_the_bump_last_lose_none(db_url: str):
    assert bumped_in_threads(db_url, lambda tx: tx.last(BUMP, "league_revision")) == 75


def test_statements_put_off_run_in_order_before_the_next_and_with_the_commit(db: Database):
    def write(tx):
        tx.later("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("a", "a"))
        seen = tx.value("SELECT COUNT(*) FROM venue")  # the one put off is run first
        tx.later("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("b", "b"))
        counts = tx.many([("SELECT COUNT(*) FROM venue", ()), ("SELECT name FROM venue ORDER BY name", ())])
        tx.later("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("c", "c"))  # with the commit
        return seen, counts

    assert db.write(write) == (1, [[(2,)], [("a",), ("b",)]])
    assert db.read(lambda tx: tx.rows("SELECT name FROM venue ORDER BY name")) == [("a",), ("b",), ("c",)]


def test_rows_put_off_one_after_another_are_one_insert_in_their_order(db: Database):
    """The same one-row INSERT put off again and again is one statement (at most
    MERGED_ROWS rows); another statement between them, or another table, starts a new one."""
    insert = "INSERT INTO venue (name, name_key) VALUES (?, ?)"

    def write(tx):
        for n in range(25):
            tx.later(insert, (f"v{n:02}", f"v{n:02}"))
        tx.later("UPDATE venue SET tables = 2 WHERE name = ?", ("v00",))
        tx.later(insert, ("w", "w"))
        tx.later("INSERT INTO club (name, name_key) VALUES (?, ?)", ("c", "c"))
        return [(sql.count("(?, ?)"), len(params)) for sql, params in tx.queued if sql.startswith("INSERT")]

    assert MERGED_ROWS == 20
    assert db.write(write) == [(20, 40), (5, 10), (1, 2), (1, 2)]
    names = db.read(lambda tx: tx.rows("SELECT name, tables FROM venue ORDER BY id"))
    assert names == [(f"v{n:02}", 2 if n == 0 else 1) for n in range(25)] + [("w", 1)]


def test_a_statement_put_off_that_fails_fails_the_write_whole(db: Database):
    db.write(lambda tx: tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("a", "a")))

    def write(tx):
        tx.later("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("b", "b"))
        tx.later("INSERT INTO venue (name, name_key) VALUES (?, ?)", (None, None))  # a venue has a name

    # PostgreSQL runs the statements put off in one pipeline: which of its errors psycopg
    # raises first, the statement's own or "pipeline aborted", depends on when it reads the
    # answers (a loaded machine: the second, once in a `.ci/run`); the write is whole or
    # not at all either way
    with pytest.raises(Exception, match="(?i)null|pipeline aborted"):
        db.write(write)
    assert db.read(lambda tx: tx.rows("SELECT name FROM venue")) == [("a",)]


def test_one_statement_alone_answers_its_rows_and_leaves_the_pool_as_it_was(db: Database):
    db.write(lambda tx: tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?), (?, ?)", ("a", "a", "b", "b")))
    assert db.query("SELECT name FROM venue WHERE name_key > ? ORDER BY name", ("",)) == [("a",), ("b",)]
    assert db.query("SELECT name FROM venue WHERE name_key = ?", ("z",)) == []
    with pytest.raises(RuntimeError):  # a write after it is still one transaction, whole or not at all

        def half(tx):
            tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("c", "c"))
            raise RuntimeError("stop")

        db.write(half)
    assert db.query("SELECT COUNT(*) FROM venue") == [(2,)]


def test_a_read_is_read_only_from_its_first_statement(db: Database):
    """A read's ``BEGIN READ ONLY`` goes with its first statement (PostgreSQL: in one round
    trip): a write in a read is refused, and nothing of it is kept."""
    if db.backend != "postgresql":
        pytest.skip("SQLite's reads are not begun read only")
    with pytest.raises(Exception, match="read-only"):
        db.read(lambda tx: tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("a", "a")))
    assert db.query("SELECT COUNT(*) FROM venue") == [(0,)]


def test_every_way_a_transaction_ends_leaves_its_connection_idle(db: Database):
    """Committed, failed in Python, failed in the database, or never begun (nothing run):
    the next transaction on the same connections is a transaction of its own."""
    from scorekeeper.league.db import DatabaseError as _DatabaseError

    db.write(lambda tx: None)  # nothing run: nothing sent
    assert db.read(lambda tx: None) is None
    db.write(lambda tx: tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("a", "a")))

    def fails_in_python(tx: Any) -> None:
        tx.rows("SELECT name FROM venue")
        raise LookupError("not found")

    for _ in range(3):
        with pytest.raises(LookupError):
            db.read(fails_in_python)
        with pytest.raises(LookupError):
            db.write(fails_in_python)
    with pytest.raises(Exception) as failed:  # the name's key is taken: the database's own error

        def taken(tx: Any) -> None:
            tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("b", "b"))
            tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("a2", "a"))

        db.write(taken)
    assert not isinstance(failed.value, _DatabaseError | AssertionError)

    def two(tx: Any) -> int:
        tx.run("INSERT INTO venue (name, name_key) VALUES (?, ?)", ("c", "c"))
        return int(tx.value("SELECT COUNT(*) FROM venue"))

    assert db.write(two) == 2  # its own insert seen, b's not kept
    assert db.query("SELECT name FROM venue ORDER BY name") == [("a",), ("c",)]
    if db.backend == "postgresql":
        from psycopg.pq import TransactionStatus

        pool = db.pool  # type: ignore[attr-defined]
        held = [pool.getconn() for _ in range(pool.get_stats()["pool_size"])]
        try:
            assert {c.pgconn.transaction_status for c in held} == {TransactionStatus.IDLE}
        finally:
            for c in held:
                pool.putconn(c)


def test_psycopgs_echo_of_a_failed_pipeline_is_not_written(caplog: pytest.LogCaptureFixture):
    """When a statement in a pipeline has raised, psycopg also warns that ending the pipeline
    failed: that echo is dropped (the error raised is reported, in one line), and psycopg's
    other warnings are not."""
    import logging

    import scorekeeper.league.db  # noqa: F401  (its filter on psycopg's logger)

    log = logging.getLogger("psycopg")
    with caplog.at_level(logging.WARNING, logger="psycopg"):
        log.warning("error ignored terminating %r: %s", object(), RuntimeError("pipeline aborted"))
        log.warning("couldn't connect: %s", "refused")
    assert [r.getMessage() for r in caplog.records] == ["couldn't connect: refused"]


@pytest.mark.parametrize("where", ["file", "memory"])
def test_closing_waits_for_a_transaction_under_way_in_another_thread(where: str, tmp_path):
    """SQLite: ``close`` from one thread while another's write runs (a service's sweep as it
    stops) waits for the write to commit, then closes; the next write on that thread's
    database is refused in a line, and the file keeps what was committed. (Python's
    ``sqlite3`` crashed the process when a connection was closed under a running statement.)"""
    url = f"sqlite:///{tmp_path / 'league.db'}" if where == "file" else "sqlite:///:memory:"
    db = connect(url)
    db.write(lambda tx: tx.run("CREATE TABLE t (a INTEGER)"))
    inside, go, closed = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def slow(tx: Any) -> int:
        tx.run("INSERT INTO t VALUES (?)", (1,))
        inside.set()
        go.wait(10)
        return tx.run("INSERT INTO t VALUES (?)", (2,))

    def writer() -> None:
        try:
            db.write(slow)
        except BaseException as e:
            errors.append(e)
            return
        closed.wait(10)
        try:
            db.write(lambda tx: tx.run("INSERT INTO t VALUES (?)", (3,)))
        except BaseException as e:  # the write after the close
            errors.append(e)

    def close() -> None:
        db.close()
        closed.set()

    first = threading.Thread(target=writer)
    first.start()
    assert inside.wait(10)
    closer = threading.Thread(target=close)
    closer.start()
    closer.join(0.3)
    assert closer.is_alive()  # not closed under the write
    go.set()
    first.join(10)
    closer.join(10)
    assert not first.is_alive() and not closer.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], DatabaseError | sqlite3.ProgrammingError)
    assert "closed" in str(errors[0])
    if where == "file":
        again = connect(url)
        try:
            assert again.read(lambda tx: tx.rows("SELECT a FROM t ORDER BY a")) == [(1,), (2,)]
        finally:
            again.close()


def test_a_connection_opened_as_the_database_closes_is_not_left_open(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """SQLite: a thread that opens its connection while another closes the database gets
    the close's refusal, and its connection is closed too (none is left open after it)."""
    db = connect(f"sqlite:///{tmp_path / 'league.db'}")
    opened: list[sqlite3.Connection] = []
    real = sqlite3.connect

    def opening(*args: Any, **kwargs: Any) -> sqlite3.Connection:  # the close lands meanwhile
        conn = real(*args, **kwargs)
        opened.append(conn)
        db.close()
        return conn

    monkeypatch.setattr(sqlite3, "connect", opening)
    errors: list[BaseException] = []

    def other() -> None:
        try:
            db.read(lambda tx: tx.value("SELECT 1"))
        except BaseException as e:
            errors.append(e)

    t = threading.Thread(target=other)
    t.start()
    t.join(10)
    assert len(errors) == 1 and isinstance(errors[0], DatabaseError) and "was closed" in str(errors[0])
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[0].execute("SELECT 1")
