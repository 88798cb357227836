"""The public pages from a read replica (docs/league.md, past one machine): a throwaway
PostgreSQL and a streaming replica of it (``pg_basebackup -R``, Debian's postgresql),
``scorekeeper league serve --read-only`` over the replica. A result approved on the
primary shows on the replica's pages; the clubs' API and the secretary's pages there
answer with one line; ``serve`` without ``--read-only`` over the replica is refused in
one line, and so is a replica whose schema is not this Scorekeeper's."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from scorekeeper.league.book import League
from scorekeeper.league.db import connect
from scorekeeper.league.migrate import migrate

from .helpers import plan, sheet


@pytest.fixture(scope="module")
def replica() -> Iterator[tuple[str, str]]:
    """A primary and its streaming replica: their URLs."""
    from scorekeeper.league.throwaway import Cluster, ClusterError, Standby

    try:
        primary = Cluster().start()
    except ClusterError as e:
        pytest.fail(f"PostgreSQL could not be started for the replica's test: {e}", pytrace=False)
    try:
        db = connect(primary.url, pool=2)
        try:
            migrate(db)  # before the copy: the replica starts with the league's schema
        finally:
            db.close()
        standby = Standby(primary).start()
        try:
            yield primary.url, standby.url
        finally:
            standby.stop()
    finally:
        primary.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(url: str, *more: str) -> tuple[subprocess.Popen[str], int]:
    port = _free_port()
    cmd = [sys.executable, "-m", "scorekeeper", "league", "serve", "--database", url, "--port", str(port), *more]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(400):
        if proc.poll() is not None:
            return proc, port
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the service did not start")


def _get(port: int, path: str, method: str = "GET", headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=b"" if method != "GET" else None, headers=headers or {})
    r = conn.getresponse()
    return r.status, r.read()


def test_the_public_pages_are_served_from_a_read_replica(replica: tuple[str, str]):
    primary_url, replica_url = replica
    db = connect(primary_url, pool=2)
    proc = None
    try:
        lg = League(db)
        lg.add_season(plan(), "Sue")
        f = lg.fixtures()[0]
        code = lg.new_code(f.home.club_id, "Sue")
        proc, port = _serve(replica_url, "--read-only")
        assert proc.poll() is None, proc.communicate()
        path = f"/divisions/{f.division_id}.json"
        for _ in range(200):  # the season made on the primary reaches the replica
            status, body = _get(port, path)
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200 and max(r["played"] for r in json.loads(body)["table"]) == 0

        lg.receive(f.id, lg.club(f.home.club_id), sheet(f, [0, 0]))  # approved, on the primary
        for _ in range(200):
            played = max(r["played"] for r in json.loads(_get(port, path)[1])["table"])
            if played:
                break
            time.sleep(0.05)
        assert played == 1
        status, page = _get(port, f"/divisions/{f.division_id}")
        assert status == 200 and f.home.name.encode() in page

        status, body = _get(port, f"/api/fixtures/{f.id}/sheets/x", "PUT", {"Authorization": f"Bearer {code}"})
        assert status == 503 and json.loads(body)["error"].startswith("this is a read-only copy of the league")
        status, body = _get(port, "/admin/sign-in", "POST")
        assert status == 503 and b"read-only copy of the league" in body
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        db.close()


def test_serve_over_a_replica_without_read_only_is_refused_in_one_line(replica: tuple[str, str]):
    _, replica_url = replica
    proc, _ = _serve(replica_url)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (out, err)
    assert err.strip().count("\n") == 0 and "takes no writes (a read replica?): serve it with --read-only" in err


def test_a_read_only_service_over_a_database_of_another_schema_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    empty = connect(url)
    empty.close()
    proc, _ = _serve(url, "--read-only")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and err.strip().count("\n") == 0 and "has no league in it" in err, (out, err)
