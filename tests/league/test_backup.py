"""A backup is only as good as its restore (docs/league.md): a league's PostgreSQL dumped
with ``pg_dump --format=custom``, restored with ``pg_restore`` into a new, empty database,
and asked, as the secretary's weekly check does, by ``scorekeeper league clubs`` and by
the tables: everything there, the migrations the same (none to apply again)."""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate
from scorekeeper.league.throwaway import pg_tool

from .helpers import plan, sheet


def _in_database(url: str, name: str) -> str:
    """``url`` with another database's name."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def scratch(pg_url: str) -> Iterator[str]:
    """A new, empty database of the run's PostgreSQL (the restore's), dropped after: its name."""
    import psycopg

    name = f"league_check_{secrets.token_hex(4)}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield name
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_a_league_dumped_and_restored_is_the_same_league(pg_schema: str, scratch: str, tmp_path: Path):
    db = connect(pg_schema, pool=2)
    try:
        migrate(db)
        lg = League(db)
        lg.add_season(plan(), "Sue")
        f = lg.fixtures()[0]
        lg.receive(f.id, lg.club(f.home.club_id), sheet(f, [0, 1]))
        lg.new_code(f.home.club_id, "Sue")
        division = f.division_id
        table = [(r.name, r.score) for r in _table(lg, division)]
        clubs = lg.clubs()
        revision = lg.revision()
    finally:
        db.close()
    schema = pg_schema.rsplit("%3D", 1)[1]
    dump = tmp_path / "league.dump"
    done = subprocess.run(
        [str(pg_tool("pg_dump")), "--format=custom", f"--file={dump}", f"--schema={schema}", f"--dbname={pg_schema}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    restored = _in_database(pg_schema, scratch)
    done = subprocess.run(
        [str(pg_tool("pg_restore")), f"--dbname={restored}", str(dump)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr

    listed = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "league", "clubs", "--database", restored],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [f"{c.id}  {c.name}  ({c.codes} code(s) in use)" for c in clubs]
    back = connect(restored, pool=2)
    try:
        assert migrate(back) == []  # the same migrations, with their digests
        again = League(back)
        assert [(r.name, r.score) for r in _table(again, division)] == table
        assert again.revision() == revision
        assert again.fixture(f.id).result is not None and again.fixture(f.id).result.state == "approved"
    finally:
        back.close()


def _table(lg: League, division: int) -> list:
    from scorekeeper.league import table

    d = lg.division(division)
    return table.table(lg.season(d.season_id), d, lg.teams(division), lg.fixtures(division=division))
