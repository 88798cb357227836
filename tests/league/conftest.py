"""The league's tests run over both backends: a real PostgreSQL and SQLite, never a mock.

``DATABASE_URL`` (a PostgreSQL the tests may make schemas in) is used when it is set;
otherwise one throwaway cluster is started for the run (Debian's ``postgresql``:
:mod:`scorekeeper.league.throwaway`) and shared by the test processes of a parallel run
(the first one starts it under a lock; the last one done stops it). Each test gets a
schema of its own, dropped after it. PostgreSQL that cannot be had fails the tests with
the reason, as the browser tests do without Chromium: it is never skipped.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock

from scorekeeper.league.db import Database, connect
from scorekeeper.league.migrate import migrate


def _shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server's URL for the whole run (see the module)."""
    given = os.environ.get("DATABASE_URL")
    if given:
        yield given
        return
    from scorekeeper.league.throwaway import Cluster, ClusterError

    shared = _shared_dir(tmp_path_factory)
    state = shared / "league-pg.json"
    with FileLock(shared / "league-pg.lock"):
        doc = json.loads(state.read_text(encoding="utf-8")) if state.exists() else None
        if doc is None:
            try:
                cluster = Cluster().start()
            except ClusterError as e:
                pytest.fail(f"PostgreSQL could not be started for the league's tests: {e}", pytrace=False)
            doc = {"folder": str(cluster.folder), "url": cluster.url, "users": 0}
        doc["users"] += 1
        state.write_text(json.dumps(doc), encoding="utf-8")
    yield doc["url"]
    with FileLock(shared / "league-pg.lock"):
        doc = json.loads(state.read_text(encoding="utf-8"))
        doc["users"] -= 1
        if doc["users"] == 0:
            Cluster(Path(doc["folder"])).stop()
            state.unlink()
        else:
            state.write_text(json.dumps(doc), encoding="utf-8")


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections work in ``schema``."""
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options=-csearch_path%3D{schema}"


@pytest.fixture
def pg_schema(pg_url: str) -> Iterator[str]:
    """A new schema of the run's PostgreSQL, dropped after the test: its URL."""
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_schema(pg_url, schema)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["postgresql", "sqlite"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty league database's URL, on each backend in turn."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_schema"))
    return f"sqlite:///{tmp_path / 'league.db'}"


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    """A migrated league database, on each backend in turn."""
    database = connect(db_url, pool=4)
    migrate(database)
    yield database
    database.close()
