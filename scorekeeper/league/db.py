"""The league's database: one small seam, two backends (PostgreSQL and SQLite).

Everything the league keeps goes through a :class:`Database`: :meth:`Database.read` and
:meth:`Database.write` run a function in one transaction and hand it a :class:`Tx`,
whose :meth:`Tx.rows`, :meth:`Tx.one`, :meth:`Tx.value` and :meth:`Tx.run` take SQL with
``?`` placeholders (the one dialect the league's SQL is written in: what both backends
understand, ``INSERT ... ON CONFLICT``, ``RETURNING``). A write that meets another
process's write (a serialization failure, a deadlock, a key another process took a
moment earlier, SQLite's busy database) is run again from the start, a few times.

- **PostgreSQL** (``postgresql://user@host/db``): psycopg 3 with a connection pool
  (``psycopg_pool``); several processes of the service over one database behave as one,
  since nothing in a process's memory is the truth. The pool's connections are in
  autocommit: a statement run alone (:meth:`Database.query`) is one round trip, and a
  transaction's ``BEGIN`` (``BEGIN READ ONLY`` for a read) is sent with its first
  statements, in the same round trip (a pipeline), its ``COMMIT`` with its last.
- **SQLite** (``sqlite:///league.db``, the default; ``sqlite:///:memory:`` for a trial):
  Python's own ``sqlite3``, in WAL mode with ``synchronous=FULL``, one connection a
  thread; a write transaction takes the database's write lock at its start
  (``BEGIN IMMEDIATE``).

>>> db = connect("sqlite:///:memory:")
>>> db.write(lambda tx: tx.run("CREATE TABLE t (a INTEGER)"))
0
>>> db.write(lambda tx: tx.run("INSERT INTO t VALUES (?), (?)", (1, 2)))
2
>>> db.read(lambda tx: tx.value("SELECT SUM(a) FROM t"))
3
>>> db.close()
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from scorekeeper.errors import ScorekeeperError, one_line, short

T = TypeVar("T")
Params = Sequence[Any]

#: The database when no ``--database`` is given: SQLite, in the current folder.
DEFAULT_URL = "sqlite:///league.db"
#: How many times a write that met another's is run again, and the pauses between.
RETRY_PAUSES = (0.005, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8)


def _not_the_pipelines_echo(record: logging.LogRecord) -> bool:
    """psycopg's logger, less its warning that ending a pipeline failed too, which it writes
    only when a statement in the pipeline has already raised (psycopg's ``Pipeline.__exit__``:
    ``error ignored terminating ...``). The error raised is the one the league reports, in
    one line (a read replica refused at start, a write run again); the echo would reach the
    terminal as a second line, through logging's last resort, whether it comes or not
    depending on the moment the server answers."""
    return record.msg != "error ignored terminating %r: %s"


logging.getLogger("psycopg").addFilter(_not_the_pipelines_echo)


class DatabaseError(ScorekeeperError):
    """The league's database cannot be reached or refused what was asked (one line)."""


class Tx(Protocol):
    """One transaction: SQL with ``?`` placeholders."""

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]: ...

    def one(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None: ...

    def value(self, sql: str, params: Params = ()) -> Any: ...

    def run(self, sql: str, params: Params = ()) -> int: ...

    def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel`` (:meth:`Database.listen`), when
        and if this transaction commits."""

    def many(self, statements: Sequence[tuple[str, Params]]) -> list[list[tuple[Any, ...]]]:
        """Each statement's rows, run in order: statements none of which needs another's
        answer (PostgreSQL: in one round trip, a pipeline, with those put off by
        :meth:`later`)."""

    def later(self, sql: str, params: Params = ()) -> None:
        """Run ``sql``, whose answer is not needed, before the next statement or at the
        latest with the ``COMMIT`` (PostgreSQL: sent with them, in one round trip); its
        failure is the transaction's, raised then. An ``INSERT INTO t (...) VALUES (?, ...)``
        put off just after the same one is sent with it as one statement of two rows (in
        that order: :func:`merge_rows`)."""

    def last(self, sql: str, channel: str) -> None:
        """Run ``sql`` (a statement answering one value, a counter moved on) as this
        transaction's last, once however often it is asked, and tell ``channel`` its value
        (:meth:`notify`). PostgreSQL sends it with the ``COMMIT`` at once (one round trip,
        a pipeline): what it locks, such as a row every writer updates, is held for the
        commit alone, not while this process's thread waits its turn."""


class Listener(Protocol):
    """What :meth:`Database.listen` tells: each payload heard, and whether it is listening."""

    def heard(self, payload: str) -> None: ...

    def listening(self, now: bool) -> None:
        """True: listening from now on (what came before it was not heard); False: not
        listening (what comes now is not heard)."""


class _Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: Any, params: Any = ...) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    @property
    def description(self) -> Any: ...


class CursorTx:
    """A :class:`Tx` over a DB-API cursor; ``translate`` turns the league's SQL into the
    backend's (its placeholders)."""

    def __init__(self, cursor: _Cursor, translate: Callable[[str], str], notify_sql: str = "") -> None:
        self.cursor = cursor
        self.translate = translate
        self.notify_sql = notify_sql
        self.notes: list[tuple[str, str]] = []
        self.lasts: dict[str, str] = {}
        self.queued: list[tuple[str, Params]] = []

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        self.flush()
        self.cursor.execute(self.translate(sql), tuple(params))
        if not self._has_rows():
            return []
        return [tuple(r) for r in self.cursor.fetchall()]

    def many(self, statements: Sequence[tuple[str, Params]]) -> list[list[tuple[Any, ...]]]:
        return [self.rows(sql, params) for sql, params in statements]

    def later(self, sql: str, params: Params = ()) -> None:
        merged = merge_rows(self.queued[-1], sql, params) if self.queued else None
        if merged is not None:
            self.queued[-1] = merged
        else:
            self.queued.append((sql, params))

    def flush(self) -> None:
        """The statements put off (:meth:`later`), one by one."""
        queued, self.queued = self.queued, []
        for sql, params in queued:
            self.cursor.execute(self.translate(sql), tuple(params))
            if self._has_rows():
                self.cursor.fetchall()

    def _has_rows(self) -> bool:
        """Whether the statement run last answered rows (a SELECT, a RETURNING)."""
        return self.cursor.description is not None

    def one(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def value(self, sql: str, params: Params = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]

    def run(self, sql: str, params: Params = ()) -> int:
        self.flush()
        self.cursor.execute(self.translate(sql), tuple(params))
        if self._has_rows():
            self.cursor.fetchall()
        return max(self.cursor.rowcount, 0)

    def notify(self, channel: str, payload: str) -> None:
        if self.notify_sql:
            self.run(self.notify_sql, (channel, payload))
        self.notes.append((channel, payload))

    def last(self, sql: str, channel: str) -> None:
        self.lasts.setdefault(sql, channel)

    def finish(self) -> None:
        """The statements asked for last (:meth:`last`), one by one (a backend without a
        pipeline), before the ``COMMIT``."""
        self.flush()
        lasts, self.lasts = self.lasts, {}
        for sql, channel in lasts.items():
            self.notify(channel, str(self.value(sql)))


#: An INSERT of one row whose values are all placeholders (:func:`merge_rows`).
_ONE_ROW = re.compile(r"INSERT INTO \w+ \([\w, ]+\) VALUES (\((?:\?, )*\?\))")
#: The most rows :func:`merge_rows` puts in one INSERT.
MERGED_ROWS = 20


def merge_rows(last: tuple[str, Params], sql: str, params: Params) -> tuple[str, Params] | None:
    """The statement ``last`` (put off) and ``sql`` (put off after it) as one, when ``sql``
    inserts one row, all its values placeholders, and ``last`` is the same insert of one
    row or more (at most :data:`MERGED_ROWS`): the rows in the same order, one statement
    (None: not the same insert).

    >>> merge_rows(("INSERT INTO t (a, b) VALUES (?, ?)", (1, 2)), "INSERT INTO t (a, b) VALUES (?, ?)", (3, 4))
    ('INSERT INTO t (a, b) VALUES (?, ?), (?, ?)', (1, 2, 3, 4))
    >>> merge_rows(("INSERT INTO t (a) VALUES (?)", (1,)), "INSERT INTO u (a) VALUES (?)", (2,)) is None
    True
    """
    found = _ONE_ROW.fullmatch(sql)
    if found is None or not last[0].startswith(sql):
        return None
    row = f", {found.group(1)}"
    more = last[0][len(sql) :]
    rows = len(more) // len(row)
    if more != row * rows or rows + 1 >= MERGED_ROWS:
        return None
    return f"{last[0]}{row}", (*last[1], *params)


class Database:
    """The seam (see the module): a backend's :meth:`_transaction` and :meth:`_transient`."""

    #: ``"postgresql"`` or ``"sqlite"``.
    backend = ""
    #: What locks a row read for update (``FOR UPDATE`` in PostgreSQL; SQLite's write
    #: transaction holds the whole database already).
    for_update = ""
    #: The column type of a table's own id, made by the database.
    id_column = ""
    url = ""
    _listeners: dict[str, list[Listener]]

    def read(self, fn: Callable[[Tx], T]) -> T:
        """``fn``'s answer, in a transaction that writes nothing."""
        with self._transaction(write=False) as tx:
            return fn(tx)

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """The rows of one statement that writes nothing, run alone: its own snapshot, and
        outside a transaction block where the backend lets (PostgreSQL: one round trip, not
        a ``BEGIN``, the statement and a ``COMMIT``)."""
        return self.read(lambda tx: tx.rows(sql, params))

    def write(self, fn: Callable[[Tx], T]) -> T:
        """``fn``'s answer, its changes committed whole; run again from the start when it
        met another process's write (see the module)."""
        for pause in (*RETRY_PAUSES, None):
            try:
                with self._transaction(write=True) as tx:
                    return fn(tx)
            except Exception as e:
                if pause is None or not self._transient(e):
                    raise
            time.sleep(pause)
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        raise NotImplementedError

    def keep(self, connections: int, warm: Callable[[Tx], object] | None = None) -> None:
        """Keep at least ``connections`` open from now on (PostgreSQL's pool, opened now,
        at most its size): a service's first requests do not wait for them. ``warm``: run
        on each of them (a read-only transaction: psycopg forgets what it prepared in one
        rolled back), so that the first requests find their statements planned and
        prepared and the tables' descriptions read by the server process behind each."""

    def listen(self, channel: str, listener: Listener) -> bool:
        """Tell ``listener`` every payload notified on ``channel`` (:meth:`Tx.notify`): at
        once by this process's own transactions, when they commit; by other processes'
        too when True is answered (PostgreSQL's ``LISTEN``, on a connection of its own,
        made again when it is lost: ``listener.listening`` says when it is and is not)."""
        if not hasattr(self, "_listeners"):
            self._listeners = {}
        self._listeners.setdefault(channel, []).append(listener)
        return False

    def _committed(self, tx: Tx) -> None:
        """This process's own notifications of a transaction just committed."""
        notes = getattr(tx, "notes", ())
        listeners = getattr(self, "_listeners", {})
        for channel, payload in notes:
            for listener in listeners.get(channel, ()):
                listener.heard(payload)

    def _transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def _transient(self, e: Exception) -> bool:
        raise NotImplementedError

    def where(self) -> str:
        """The database in words, without a password (for messages)."""
        return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:***@", self.url)


# ---------------------------------------------------------------- SQLite
class _SQLiteTx(AbstractContextManager[Tx]):
    def __init__(self, db: Database, conn: sqlite3.Connection, write: bool) -> None:
        self.db = db
        self.conn = conn
        self.write = write
        self.tx: CursorTx | None = None

    def __enter__(self) -> Tx:
        self.conn.execute("BEGIN IMMEDIATE" if self.write else "BEGIN")
        self.tx = CursorTx(self.conn.cursor(), _same)
        return self.tx

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        if kind is None:
            try:
                if self.tx is not None:
                    self.tx.finish()  # what was put off or asked for last: its failure is the write's
                self.conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise
            if self.tx is not None:
                self.db._committed(self.tx)
        else:
            self.conn.execute("ROLLBACK")


def _same(sql: str) -> str:
    return sql


class SQLiteDatabase(Database):
    """SQLite: one connection a thread (``sqlite:///:memory:`` shares one, for a trial).

    A transaction holds its connection's lock while it runs, and :meth:`close` takes each
    connection's lock before it closes it: a transaction under way in another thread (a
    service's sweep as the service stops) ends first. Python's ``sqlite3`` does not guard
    a connection shared across threads, and one closed under a running statement crashes
    the process; here the transaction ends, and a transaction after the close is refused
    (:class:`DatabaseError`, or ``sqlite3.ProgrammingError`` on a connection taken before)."""

    backend = "sqlite"
    id_column = "INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, url: str, path: str) -> None:
        self.url = url
        self.path = path
        self.memory = path == ":memory:"
        self._local = threading.local()
        self._shared: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        #: Every connection opened, with the lock its transactions hold (the shared one's is
        #: ``_lock``).
        self._all: list[tuple[sqlite3.Connection, threading.RLock]] = []
        self._closed = False
        if not self.memory:
            folder = Path(path).resolve().parent
            if not folder.is_dir():
                raise DatabaseError(f"the database's folder {one_line(str(folder))} does not exist")
        self._connection()  # refused at once when the file cannot be opened

    def _connection(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """This thread's connection (the shared one's in memory) and its lock."""
        if self.memory and self._shared is not None:
            return self._shared, self._lock
        if self._closed:
            raise self._was_closed()
        local = self._local  # one object, whatever close() does meanwhile
        mine: tuple[sqlite3.Connection, threading.RLock] | None = getattr(local, "mine", None)
        if mine is not None:
            return mine
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 30000")
            if not self.memory:
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as e:
            raise DatabaseError(f"the database {one_line(self.path)} cannot be opened ({one_line(str(e))})") from None
        mine = (conn, self._lock if self.memory else threading.RLock())
        with self._lock:
            if self._closed:  # closed while this one was opened: never left open after it
                conn.close()
                raise self._was_closed()
            self._all.append(mine)
            if self.memory:
                self._shared = conn
        local.mine = mine
        return mine

    def _was_closed(self) -> DatabaseError:
        return DatabaseError(f"the database {one_line(self.path)} was closed")

    def _transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        conn, lock = self._connection()
        return _Locked(lock, _SQLiteTx(self, conn, write))

    def _transient(self, e: Exception) -> bool:
        return isinstance(e, sqlite3.OperationalError) and "locked" in str(e)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for conn, lock in self._all:
                with lock:  # a transaction under way on it ends first (see the class)
                    conn.close()
            self._all.clear()
            self._shared = None
        self._local = threading.local()


class _Locked(AbstractContextManager[Tx]):
    """A transaction that holds a lock of this process while it runs: its connection's (the
    shared one's, or one thread's, which :meth:`SQLiteDatabase.close` takes too)."""

    def __init__(self, lock: threading.RLock, inner: AbstractContextManager[Tx]) -> None:
        self.lock = lock
        self.inner = inner

    def __enter__(self) -> Tx:
        self.lock.acquire()
        try:
            return self.inner.__enter__()
        except BaseException:
            self.lock.release()
            raise

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        try:
            self.inner.__exit__(kind, value, tb)
        finally:
            self.lock.release()


# ---------------------------------------------------------------- PostgreSQL
_PLACEHOLDER = re.compile(r"\?")


def pg_sql(sql: str) -> str:
    """The league's SQL for psycopg: ``%`` doubled, each ``?`` a ``%s``.

    >>> pg_sql("SELECT 'a%' || ? WHERE x = ?")
    "SELECT 'a%%' || %s WHERE x = %s"
    """
    return _PLACEHOLDER.sub("%s", sql.replace("%", "%%"))


class _PgTx(AbstractContextManager[Tx]):
    """A transaction on a connection of the pool (in autocommit): its ``BEGIN`` put off to
    go with its first statements (:meth:`Tx.later`), its ``COMMIT`` sent with what is put
    off and asked for last (one round trip), a ``ROLLBACK`` when it failed."""

    def __init__(self, db: PostgresDatabase, write: bool) -> None:
        self.db = db
        self.write = write
        self.conn: Any = None
        self.cursor_tx: _PgCursorTx | None = None

    def __enter__(self) -> Tx:
        self.connection = self.db.pool.connection()
        self.conn = self.connection.__enter__()
        self.cursor_tx = _PgCursorTx(self.conn)
        self.cursor_tx.queued.append((_BEGIN_WRITE if self.write else _BEGIN_READ, ()))
        return self.cursor_tx

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        ctx = self.cursor_tx
        assert ctx is not None
        try:
            if kind is None:
                self._commit(ctx)
            else:
                self._rollback()
        except BaseException as e:
            self._rollback()
            self.connection.__exit__(type(e), e, None)
            raise
        self.connection.__exit__(kind, value, tb)
        if kind is None:
            self.db._committed(ctx)

    def _rollback(self) -> None:
        """The transaction ended after a failure: a write's rolled back; a read's that met
        no error of the database's committed (it wrote nothing, and psycopg forgets the
        statements it prepared at a ``ROLLBACK``)."""
        with contextlib.suppress(Exception):  # a connection lost: the pool throws it away
            if not self.write and self.conn.pgconn.transaction_status == self.db._psycopg.pq.TransactionStatus.INTRANS:
                self.conn.execute(b"COMMIT", prepare=False)
            else:
                self.conn.rollback()

    def _commit(self, ctx: _PgCursorTx) -> None:
        """The statements put off (:meth:`Tx.later`), those asked for last and the
        ``COMMIT`` in one round trip (a pipeline), each of the last notifying its channel
        in the same statement (see :meth:`Tx.last`). Nothing at all when nothing was run
        (the ``BEGIN`` still put off)."""
        lasts, ctx.lasts = ctx.lasts, {}
        queued, ctx.queued = ctx.queued, []
        if not lasts and queued == [(_BEGIN_WRITE if self.write else _BEGIN_READ, ())]:
            return
        cursors = []
        with self.conn.pipeline():
            for sql, params in queued:
                _run(self.conn.cursor(), sql, params)
            for sql, channel in lasts.items():
                cur = self.conn.cursor()
                cur.execute(_pg_cached(_LAST.format(sql=sql)), (channel,))
                cursors.append((cur, channel))
            commit = self.conn.cursor()
            commit.execute(b"COMMIT", prepare=False)
        if commit.statusmessage != "COMMIT":  # PostgreSQL's answer to a COMMIT of a failed transaction
            raise self.db._psycopg.errors.InFailedSqlTransaction(
                f"the transaction was rolled back ({commit.statusmessage})"
            )
        for cur, channel in cursors:
            row = cur.fetchone()
            if row is not None:
                ctx.notes.append((channel, str(row[0])))


#: A transaction's first statement, put off to go with its next (:class:`_PgTx`).
_BEGIN_WRITE = "BEGIN READ WRITE"
_BEGIN_READ = "BEGIN READ ONLY"
_BEGINS = frozenset({_BEGIN_WRITE, _BEGIN_READ})


def _run(cursor: Any, sql: str, params: Params) -> None:
    """One statement on ``cursor``: a ``BEGIN`` as it is (never prepared), any other the
    league's SQL for psycopg."""
    if sql in _BEGINS:
        cursor.execute(sql.encode("ascii"), prepare=False)
    else:
        cursor.execute(_pg_cached(sql), tuple(params))


class _PgCursorTx(CursorTx):
    """A :class:`CursorTx` over psycopg's cursor: whether a statement answered rows is read
    from its result's status (psycopg's ``description`` makes an object of every column
    each time it is asked)."""

    def __init__(self, conn: Any) -> None:
        super().__init__(conn.cursor(), _pg_cached, _NOTIFY)
        self.conn = conn

    def _has_rows(self) -> bool:
        return _answered(self.cursor)

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        self._execute(sql, params)
        return [tuple(r) for r in self.cursor.fetchall()] if self._has_rows() else []

    def run(self, sql: str, params: Params = ()) -> int:
        self._execute(sql, params)
        if self._has_rows():
            self.cursor.fetchall()
        return max(self.cursor.rowcount, 0)

    def _execute(self, sql: str, params: Params) -> None:
        """``sql`` on this transaction's cursor, with the statements put off (the ``BEGIN``
        ...) before it in the same round trip."""
        if not self.queued:
            self.cursor.execute(_pg_cached(sql), tuple(params))
            return
        queued, self.queued = self.queued, []
        with self.conn.pipeline():
            for q, p in queued:
                _run(self.conn.cursor(), q, p)
            self.cursor.execute(_pg_cached(sql), tuple(params))

    def many(self, statements: Sequence[tuple[str, Params]]) -> list[list[tuple[Any, ...]]]:
        queued, self.queued = self.queued, []
        cursors = []
        with self.conn.pipeline():
            for sql, params in queued:
                _run(self.conn.cursor(), sql, params)
            for sql, params in statements:
                cur = self.conn.cursor()
                cur.execute(_pg_cached(sql), tuple(params))
                cursors.append(cur)
        return [[tuple(r) for r in cur.fetchall()] if _answered(cur) else [] for cur in cursors]

    def flush(self) -> None:
        if self.queued:
            self.many([])


def _answered(cursor: Any) -> bool:
    """Whether psycopg's cursor's last statement answered rows (a SELECT, a RETURNING)."""
    result = getattr(cursor, "pgresult", None)
    return result is not None and result.status == _TUPLES_OK


#: libpq's PGRES_TUPLES_OK: a statement that answered rows.
_TUPLES_OK = 2
_PG_SQL: dict[str, str] = {}
#: A notification names the schema it was made in: leagues in two schemas of one database
#: (the tests' do) hear only their own.
_NOTIFY = "SELECT pg_notify(?, COALESCE(current_schema(), '') || ' ' || ?)"
#: A statement asked for last, its value notified in the same statement.
_LAST = "WITH v(value) AS ({sql}) SELECT value, pg_notify(?, COALESCE(current_schema(), '') || ' ' || value) FROM v"


def _pg_cached(sql: str) -> str:
    out = _PG_SQL.get(sql)
    if out is None:
        out = _PG_SQL[sql] = pg_sql(sql)
    return out


class PostgresDatabase(Database):
    """PostgreSQL through psycopg 3 and a pool of ``size`` connections."""

    backend = "postgresql"
    for_update = " FOR UPDATE"
    id_column = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

    def __init__(self, url: str, size: int = 8) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.url = url
        self._psycopg = psycopg
        self._closed = threading.Event()
        self._threads: list[threading.Thread] = []
        try:
            psycopg.connect(url, connect_timeout=10).close()  # refused at once, not after the pool's tries
            self.pool = ConnectionPool(
                url, min_size=1, max_size=size, open=True, timeout=30, kwargs={"autocommit": True}
            )
            self.pool.wait(timeout=15)
        except Exception as e:
            raise DatabaseError(f"the database {self.where()} cannot be reached ({_first_line(e)})") from None

    def _transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        return _PgTx(self, write)

    def query(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        with self.pool.connection() as conn:  # in autocommit: the statement alone, no transaction block
            cur = conn.execute(_pg_cached(sql), tuple(params))
            result = cur.pgresult
            return [tuple(r) for r in cur.fetchall()] if result and result.status == _TUPLES_OK else []

    def keep(self, connections: int, warm: Callable[[Tx], object] | None = None) -> None:
        most = self.pool.max_size
        n = min(max(connections, self.pool.min_size), most)
        self.pool.resize(n, most)
        self.pool.wait(timeout=10)
        if warm is None:
            return
        held = [self.pool.getconn(timeout=10) for _ in range(n)]  # each of them, not one n times
        try:
            for conn in held:
                conn.read_only = True
                with conn.transaction():  # read only: it writes nothing
                    warm(_PgCursorTx(conn))
                conn.read_only = False
        finally:
            for conn in held:
                self.pool.putconn(conn)

    def _transient(self, e: Exception) -> bool:
        errors = self._psycopg.errors
        return isinstance(e, errors.SerializationFailure | errors.DeadlockDetected | errors.UniqueViolation)

    def listen(self, channel: str, listener: Listener) -> bool:
        if not re.fullmatch(r"[a-z_]{1,40}", channel):
            raise ValueError(f"a channel is a few letters, not {channel!r}")
        super().listen(channel, listener)
        thread = threading.Thread(target=self._listen, args=(channel, listener), name=f"listen-{channel}", daemon=True)
        self._threads.append(thread)
        thread.start()
        return True

    def _listen(self, channel: str, listener: Listener) -> None:
        """Others' notifications on ``channel`` (see :meth:`listen`), until :meth:`close`."""
        while not self._closed.is_set():
            try:
                with self._psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
                    mine = conn.execute("SELECT COALESCE(current_schema(), '')").fetchone()
                    conn.execute(f"LISTEN {channel}")
                    listener.listening(True)
                    while not self._closed.is_set():
                        for n in conn.notifies(timeout=0.25):  # close() waits for no more than this
                            schema, _, payload = n.payload.partition(" ")
                            if mine is not None and schema == mine[0]:
                                listener.heard(payload)
            except Exception:  # the database away, or the connection cut: made again
                pass
            finally:
                listener.listening(False)
            self._closed.wait(1.0)

    def close(self) -> None:
        self._closed.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self.pool.close()


def _first_line(e: BaseException) -> str:
    return one_line(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__, 200)


def connect(url: str | None = None, *, pool: int = 8) -> Database:
    """The database at ``url`` (``postgresql://...`` or ``sqlite:///PATH``; None: the
    default, ``sqlite:///league.db``). Refused in one line when it cannot be reached."""
    url = url or DEFAULT_URL
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresDatabase(url, pool)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        if not path:
            raise DatabaseError("sqlite:///: give the database file's path (sqlite:///league.db)")
        return SQLiteDatabase(url, path)
    raise DatabaseError(f"the database must be postgresql://... or sqlite:///PATH, not {short(url)}")
