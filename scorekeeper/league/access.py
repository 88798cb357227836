"""Who may write to the league: the secretary (a password, a session, CSRF) and the clubs (a code).

- **The secretary's password** is hashed with Argon2id (``argon2-cffi``'s defaults); only
  the hash is kept. ``scorekeeper league secretary NAME`` sets it.
- **Wrong passwords** are counted in the database, for the name and for the client's
  address apart: five are free (typos); after that each next try waits 2, 4, 8 ... up to
  900 s from the last wrong one, the right password included. A right one clears the
  name's count. Several processes share the count (it is in the database).
- **A session** is 32 random bytes in a cookie (``Secure``, ``HttpOnly``,
  ``SameSite=Strict``) of 12 hours; the database keeps its SHA-256, with the form token
  (CSRF) every form of the secretary's pages carries and every POST is checked for.
- **A club's code** (:meth:`scorekeeper.league.book.League.new_code`) is sent as
  ``Authorization: Bearer CODE``; no write without one, and a revoked one is refused.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.league import clock
from scorekeeper.league.book import note
from scorekeeper.league.db import Database, Tx

#: Wrong passwords that cost nothing, the longest wait after more, a session's hours.
FREE_TRIES = 5
MAX_WAIT = 900
SESSION_HOURS = 12
MIN_PASSWORD = 10

_hasher = PasswordHasher()


class AccessError(ScorekeeperError):
    """Not let in (one line, said to the person)."""


@dataclass(frozen=True, slots=True)
class Session:
    secretary: str
    csrf: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def set_secretary(db: Database, name: str, password: str) -> None:
    """Make the secretary ``name`` (or change the password); only Argon2id's hash is kept."""
    name = _text.check_name(name, "the secretary's name")
    if len(password) < MIN_PASSWORD:
        raise AccessError(f"a password has at least {MIN_PASSWORD} characters")
    hashed = _hasher.hash(password)

    def write(tx: Tx) -> None:
        key = _text.name_key(name)
        if tx.run("UPDATE secretary SET password = ? WHERE name_key = ?", (hashed, key)) == 0:
            tx.run(
                "INSERT INTO secretary (name, name_key, password, made_at) VALUES (?, ?, ?, ?)",
                (name, key, hashed, clock.stamp()),
            )
        tx.run("DELETE FROM web_session WHERE secretary_id IN (SELECT id FROM secretary WHERE name_key = ?)", (key,))
        note(tx, name, "set the secretary's password", "", None)

    db.write(write)


def _wait(tx: Tx, key: str, now: _dt.datetime) -> int:
    """Seconds ``key`` must still wait before its next try (0: none)."""
    row = tx.one("SELECT count, last_at FROM sign_in_failure WHERE key = ?", (key,))
    if row is None or int(row[0]) < FREE_TRIES:
        return 0
    wait = min(MAX_WAIT, 2 ** (int(row[0]) - FREE_TRIES + 1))
    left = wait - (now - clock.parse(row[1])).total_seconds()
    return max(0, int(left + 0.999))


def _failed(tx: Tx, key: str, at: str) -> None:
    tx.run(
        "INSERT INTO sign_in_failure (key, count, last_at) VALUES (?, 1, ?) "
        "ON CONFLICT (key) DO UPDATE SET count = sign_in_failure.count + 1, last_at = excluded.last_at",
        (key, at),
    )


def sign_in(
    db: Database, name: str, password: str, client: str, now: _dt.datetime | None = None
) -> tuple[str, Session]:
    """A new session's token and the session, for the right name and password; an
    AccessError for anything else (the same words for a wrong name and a wrong password)."""
    moment = now or clock.now()
    at = clock.stamp(moment)
    keys = (f"name:{_text.name_key(name) if isinstance(name, str) else ''}", f"client:{client}")
    wait = db.read(lambda tx: max(_wait(tx, k, moment) for k in keys))
    if wait:
        raise AccessError(f"too many wrong passwords: wait {wait} s and try again")
    row = db.read(
        lambda tx: tx.one("SELECT id, name, password FROM secretary WHERE name_key = ?", (_text.name_key(name),))
    )
    try:
        ok = row is not None and _hasher.verify(row[2], password)
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok or row is None:
        db.write(lambda tx: _failed_all(tx, keys, at))
        raise AccessError("that name and password are not the secretary's")
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    expires = clock.stamp(moment + _dt.timedelta(hours=SESSION_HOURS))

    def write(tx: Tx) -> None:
        tx.run("DELETE FROM sign_in_failure WHERE key = ?", (keys[0],))
        tx.run("DELETE FROM web_session WHERE expires_at < ?", (at,))
        tx.run(
            "INSERT INTO web_session (digest, secretary_id, csrf, made_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            (_digest(token), row[0], csrf, at, expires),
        )

    db.write(write)
    return token, Session(row[1], csrf)


def _failed_all(tx: Tx, keys: tuple[str, ...], at: str) -> None:
    for k in keys:
        _failed(tx, k, at)


def session(db: Database, token: str | None) -> Session | None:
    """The session of a cookie's token, or None (none, unknown, or expired)."""
    if not token:
        return None
    row = db.read(
        lambda tx: tx.one(
            "SELECT s.name, w.csrf FROM web_session w JOIN secretary s ON s.id = w.secretary_id "
            "WHERE w.digest = ? AND w.expires_at > ?",
            (_digest(token), clock.stamp()),
        )
    )
    return None if row is None else Session(row[0], row[1])


def sign_out(db: Database, token: str | None) -> None:
    if token:
        db.write(lambda tx: tx.run("DELETE FROM web_session WHERE digest = ?", (_digest(token),)))


def csrf_ok(s: Session, given: str | None) -> bool:
    """Whether a form carried the session's token (compared in constant time)."""
    return isinstance(given, str) and hmac.compare_digest(s.csrf.encode(), given.encode())
