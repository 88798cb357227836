"""The league's schema migrations: numbered SQL files kept with the package, applied at start.

``migrations/0001_league.sql``, ``0002_...sql``: each one applied once, in order, in one
transaction of its own, and noted in ``league_migrations`` with its digest. A migration
applied before whose file has changed since is refused (a schema is never changed in
place: a change is a new file). Several processes starting together apply each one
once: PostgreSQL's advisory lock, SQLite's write lock, held while one is applied.

``{id}`` in a file is the backend's own id column (an identity column in PostgreSQL,
``INTEGER PRIMARY KEY AUTOINCREMENT`` in SQLite).

>>> from scorekeeper.league.db import connect
>>> db = connect("sqlite:///:memory:")
>>> migrate(db), migrate(db)
([1], [])
>>> db.close()
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from importlib import resources

from scorekeeper.league.db import Database, DatabaseError, Tx

#: A migration file's name: its number, a word or two.
FILE_RE = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")
#: PostgreSQL's advisory lock of the migrations (any number the league alone uses).
LOCK = 5_050_0001


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()

    def statements(self, db: Database) -> list[str]:
        """The file's statements for ``db``'s backend (comments left out)."""
        text = "\n".join(line for line in self.sql.splitlines() if not line.lstrip().startswith("--"))
        text = text.replace("{id}", db.id_column)
        return [s.strip() for s in text.split(";") if s.strip()]


def migrations() -> list[Migration]:
    """Every migration of the package, in order."""
    folder = resources.files("scorekeeper.league") / "migrations"
    found = []
    for item in folder.iterdir():
        m = FILE_RE.fullmatch(item.name)
        if m:
            found.append(Migration(int(m.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise DatabaseError(f"the league's migrations are not numbered 1, 2, 3 ...: {numbers}")
    return found


def migrate(db: Database) -> list[int]:
    """Apply the migrations ``db`` has not had yet; the numbers applied now. A database
    that takes no writes (a read replica) is refused in one line."""
    try:
        db.write(_table)
    except Exception as e:
        state = getattr(e, "sqlstate", None)  # read_only_sql_transaction, or a read-write one refused in recovery
        if state == "25006" or (state == "0A000" and "recovery" in str(e)):
            raise DatabaseError(
                f"the database {db.where()} takes no writes (a read replica?): serve it with --read-only"
            ) from None
        raise
    done = []
    for m in migrations():
        if db.write(functools.partial(_apply, db, m=m)):
            done.append(m.number)
    return done


def _table(tx: Tx) -> None:
    tx.run(
        "CREATE TABLE IF NOT EXISTS league_migrations ("
        "number INTEGER PRIMARY KEY, name TEXT NOT NULL, digest TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )


def _apply(db: Database, tx: Tx, *, m: Migration) -> bool:
    if db.backend == "postgresql":
        tx.value("SELECT pg_advisory_xact_lock(?)", (LOCK,))
    row = tx.one("SELECT name, digest FROM league_migrations WHERE number = ?", (m.number,))
    if row is not None:
        if row[1] != m.digest:
            raise DatabaseError(
                f"migration {m.name} has changed since it was applied to {db.where()}: "
                "a schema is changed by a new migration, never by editing an old one"
            )
        return False
    for statement in m.statements(db):
        tx.run(statement)
    tx.run(
        "INSERT INTO league_migrations (number, name, digest, applied_at) VALUES (?, ?, ?, ?)",
        (m.number, m.name, m.digest, _now()),
    )
    return True


def current(db: Database) -> None:
    """Refuse, in one line, a database whose schema is not this Scorekeeper's: every
    migration applied as it is here and none other (what a read replica is checked by,
    since it cannot be migrated)."""
    try:
        rows = db.read(lambda tx: tx.rows("SELECT number, digest FROM league_migrations ORDER BY number"))
    except Exception:
        raise DatabaseError(f"the database {db.where()} has no league in it (no migrations applied)") from None
    have = [(int(r[0]), str(r[1])) for r in rows]
    want = [(m.number, m.digest) for m in migrations()]
    if have != want:
        raise DatabaseError(
            f"the database {db.where()} has the league's migrations {[n for n, _ in have]}, this Scorekeeper's are "
            f"{[n for n, _ in want]} (or one has changed): serve the primary with the same version first"
        )


def applied(db: Database) -> list[int]:
    """The numbers of the migrations ``db`` has had."""
    return [int(r[0]) for r in db.read(lambda tx: tx.rows("SELECT number FROM league_migrations ORDER BY number"))]


def _now() -> str:
    from scorekeeper.league.clock import stamp

    return stamp()
