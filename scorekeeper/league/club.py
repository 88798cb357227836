"""The club's side: its laptop linked to the league, the outbox of sheets, the pushes.

- **The link** (``scorekeeper league link URL CODE``): the league's address and the club's
  code, checked with the league once and kept in the database's folder
  (``league-link.json``, its owner's only), with the league fixtures taken here
  (``scorekeeper league take FIXTURE``: a league event of the two teams, made from the
  league's fixture, whose sheet the captains confirm at the table as any other).
- **The outbox**: when a captain confirms the sheet of such a fixture
  (:meth:`scorekeeper.eventbook.EventBook.confirm` hands it to :func:`hand_over`), the
  sheet and its match records are written to a file of the folder
  (``league-out-<fixture>-<digest>.json``) through the store's atomic write: it survives
  a restart of the laptop and a week without a network.
- **The pushes** (:class:`Pusher`): every file of the outbox is sent (``PUT``, idempotent:
  the same sheet twice is one version), at once when ``scorekeeper web`` runs (a
  background thread, woken by a new sheet) or by ``scorekeeper league push``; a sheet that
  could not be sent is tried again with a backoff (2 s, 4 s ... up to 5 minutes, with a
  random part). A sheet the league took is removed from the outbox; one it refused is set
  aside (``league-refused-...``) with the league's one line, and said.
- **The phone alone** (the site: the app in the browser, its store's folder kept in
  IndexedDB) does the same with no thread and no ``urllib``: each step is split into the
  request and what is done with its answer, so the app's League screen and the site's pushes
  (:func:`keep_pushing`, the :class:`Pusher`'s loop as a task of the page) make the request
  with a :data:`Send` of their own (the browser's fetch), and the link, the event taken and
  the outbox are the same files, written the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.errors import ScorekeeperError, one_line, short
from scorekeeper.league import clock
from scorekeeper.league.sheets import FORMAT, digest
from scorekeeper.store.sidefile import SideFile
from scorekeeper.store.storage import remove

if TYPE_CHECKING:
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events import Event

LINK = "league-link.json"
OUT = re.compile(r"league-out-(\d+)-([0-9a-f]{16})\.json")
#: Seconds between tries of a sheet that could not be sent: doubled each time, at most this.
BACKOFF_FIRST = 2.0
BACKOFF_MOST = 300.0
TIMEOUT = 15.0
#: The pusher waiting on new sheets in this process (the web app's thread, the site's task), by folder.
_WAKE: dict[Path, threading.Event | asyncio.Event] = {}
#: The threads of pushes of this process (the laptop's), by folder.
_PUSHERS: dict[Path, Pusher] = {}
#: What the last round of pushes did, by folder (the app's League screen says it).
_LAST: dict[Path, Pushed] = {}


class LinkError(ScorekeeperError):
    """The laptop is not linked, or the league could not be reached (one line)."""


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    code: str
    club: str
    fixtures: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "code": self.code, "club": self.club, "fixtures": self.fixtures}


#: A request to the league: (link, method, path, body) -> (status, JSON answer); a LinkError
#: when it cannot be reached. The laptop's: :func:`request` in a thread; the site's: the
#: browser's fetch (:func:`scorekeeper.site.browser.league_request`).
Send = Callable[[Link, str, str, bytes | None], Awaitable[tuple[int, Any]]]


def parse_target(url: str, code: str | None) -> tuple[str, str]:
    """The league's address and the code from ``URL CODE``, or ``URL/link#CODE`` (the QR code).

    >>> parse_target("https://league.example/link#abcdefgh12", None)
    ('https://league.example', 'abcdefgh12')
    >>> parse_target("https://league.example/", "abcdefgh12")
    ('https://league.example', 'abcdefgh12')
    """
    if code is None and "#" in url:
        url, code = url.split("#", 1)
    url = url.strip().rstrip("/").removesuffix("/link")
    if not re.fullmatch(r"https?://[^\s/#?]+(/[^\s#?]*)?", url):
        raise LinkError(f"the league's address must be http(s)://..., not {short(url)}")
    if not code or not re.fullmatch(r"[A-Za-z0-9_-]{8,100}", code.strip()):
        raise LinkError("give the club's code the secretary made (URL CODE, or the URL/link#CODE of the QR code)")
    return url, code.strip()


def _side(folder: Path, name: str) -> SideFile:
    return SideFile(folder, name, mode=0o600)


def link_of(folder: Path) -> Link | None:
    doc = _side(folder, LINK).load()
    if not isinstance(doc, dict) or not isinstance(doc.get("url"), str) or not isinstance(doc.get("code"), str):
        return None
    fixtures = {str(k): int(v) for k, v in (doc.get("fixtures") or {}).items() if isinstance(v, int)}
    return Link(doc["url"], doc["code"], str(doc.get("club", "")), fixtures)


def save_link(folder: Path, link: Link) -> None:
    _side(folder, LINK).save((json.dumps(link.to_json(), indent=1) + "\n").encode("utf-8"))


def request(link: Link, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
    """One request to the league: its status and its JSON (a network failure: a LinkError)."""
    import urllib.error  # here: the phone's site (which never calls this) does not load them
    import urllib.request

    req = urllib.request.Request(f"{link.url}{path}", data=body, method=method)
    req.add_header("Authorization", f"Bearer {link.code}")
    if body is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except ValueError:
            return e.code, None
    except (OSError, ValueError) as e:
        raise LinkError(f"the league at {link.url} cannot be reached ({one_line(str(e), 120)})") from None


async def request_async(link: Link, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
    """:func:`request` in a thread (the laptop's :data:`Send`: the app's event loop goes on)."""
    return await asyncio.to_thread(request, link, method, path, body)


class Session:
    """Requests to the league over one kept connection (HTTP/1.1 keep-alive): an outbox's
    pushes, one after another, without a new connection (and TLS handshake) each. A kept
    connection the league closed meanwhile is made again once (a push is idempotent); a
    proxy of the environment (``https_proxy`` ...) is honoured, each request through
    :func:`request` then. ``headers``: the last answer's (names in lower case).

    The request is written whole and sent at once (its line, headers and body in one
    ``sendall``: one segment, where ``http.client`` sends the body apart) and the answer read
    by :class:`_Answer` (its length, or chunks, or up to the close): a third of the CPU
    ``http.client`` takes a push, on a laptop sending a season's last sheets."""

    def __init__(self, link: Link) -> None:
        self.link = link
        parts = urllib.parse.urlsplit(link.url)
        self.https = parts.scheme == "https"
        self.host = parts.hostname or ""
        self.port = parts.port or (443 if self.https else 80)
        self.base = parts.path.rstrip("/")
        proxied = urllib.request.getproxies().get(parts.scheme)
        self.direct = not proxied or bool(urllib.request.proxy_bypass(self.host))
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = (self.https and self.port == 443) or (not self.https and self.port == 80)
        self.authority = host if default else f"{host}:{self.port}"
        self.conn: _Wire | None = None
        self.used = False
        self.headers: dict[str, str] = {}

    def _connection(self) -> _Wire:
        if self.conn is None:
            self.conn = _Wire(self.host, self.port, self.https)
            self.used = False
        return self.conn

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
        """One request (see :func:`request`): its status and its JSON."""
        if not self.direct:
            return request(self.link, method, path, body)
        target = self.base + path
        if not _plain(target) or " " in target:
            raise LinkError(f"not an address of the league: {short(target)}")
        if not _plain(self.link.code):
            raise LinkError("the club's code kept in the link is not one the league made: link the laptop again")
        head = [
            f"{method} {target} HTTP/1.1",
            f"Host: {self.authority}",
            f"Authorization: Bearer {self.link.code}",
            "Accept-Encoding: identity",
        ]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")
        for again in (True, False):
            kept = self.conn is not None and self.used
            try:
                conn = self._connection()
                conn.send(data)
                answer = _Answer.read(conn.file)
            except (OSError, ValueError) as e:
                self.close()
                stale = isinstance(e, ConnectionResetError | BrokenPipeError | _Closed)
                if again and kept and stale:  # closed by the league while kept: a new connection
                    continue
                raise LinkError(f"the league at {self.link.url} cannot be reached ({one_line(str(e), 120)})") from None
            self.used = True
            self.headers = answer.headers
            if answer.will_close:
                self.close()
            try:
                return answer.status, json.loads(answer.body or b"null")
            except ValueError:
                if 200 <= answer.status < 300:
                    raise LinkError(f"the league at {self.link.url} answered what is not JSON") from None
                return answer.status, None
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _plain(text: str) -> bool:
    """Whether ``text`` may go in a request's line or a header as it is (ASCII, no line break)."""
    return text.isascii() and "\r" not in text and "\n" not in text


class _Closed(ConnectionError):
    """The league closed the connection before it answered (a kept one: its keep-alive ran out)."""


class _Wire:
    """A connection to the league (TLS for ``https``) with :data:`TIMEOUT` on each step."""

    def __init__(self, host: str, port: int, https: bool) -> None:
        sock = socket.create_connection((host, port), timeout=TIMEOUT)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if https:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        self.file = sock.makefile("rb")

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


#: The longest line of an answer's head, the most header lines, the largest body read.
_LINE = 65536
_HEADERS = 100
_BODY = 16 << 20


@dataclass(frozen=True, slots=True)
class _Answer:
    """An HTTP/1.1 answer read from a connection: its status, headers (lower case), body,
    and whether the connection ends with it."""

    status: int
    headers: dict[str, str]
    body: bytes
    will_close: bool

    @classmethod
    def read(cls, f: Any) -> _Answer:
        """The next answer on ``f`` (a ValueError when it is not HTTP, a :class:`_Closed`
        when the connection ended before it); a 1xx answer is passed over."""
        while True:
            line = f.readline(_LINE + 1)
            if not line:
                raise _Closed("the league closed the connection without answering")
            version, _, rest = line.decode("latin-1").rstrip("\r\n").partition(" ")
            code = rest[:3]
            if not version.startswith("HTTP/1.") or len(code) != 3 or not code.isdigit():
                raise ValueError(f"not an HTTP answer: {short(line)}")
            headers: dict[str, str] = {}
            for _ in range(_HEADERS + 1):
                h = f.readline(_LINE + 1)
                if h in (b"\r\n", b"\n", b""):
                    break
                name, colon, value = h.decode("latin-1").partition(":")
                if not colon:
                    raise ValueError(f"not an HTTP header: {short(h)}")
                key = name.strip().lower()
                value = value.strip()
                headers[key] = f"{headers[key]}, {value}" if key in headers else value
            else:
                raise ValueError("an answer of too many headers")
            status = int(code)
            if 100 <= status < 200:
                continue
            connection = headers.get("connection", "").lower()
            close = "close" in connection or (version == "HTTP/1.0" and "keep-alive" not in connection)
            if status in (204, 304):
                return cls(status, headers, b"", close)
            if "chunked" in headers.get("transfer-encoding", "").lower():
                return cls(status, headers, _chunks(f), close)
            length = headers.get("content-length")
            if length is not None:
                if not length.isdigit() or int(length) > _BODY:
                    raise ValueError(f"a Content-Length of {short(length)}")
                body = f.read(int(length))
                if len(body) != int(length):
                    raise _Closed("the league closed the connection in the middle of its answer")
                return cls(status, headers, body, close)
            return cls(status, headers, f.read(_BODY), True)  # up to the close


def _chunks(f: Any) -> bytes:
    """A body sent in chunks (``Transfer-Encoding: chunked``), its trailer read past."""
    out = bytearray()
    while True:
        size = f.readline(_LINE + 1).split(b";", 1)[0].strip()
        try:
            n = int(size, 16)
        except ValueError:
            raise ValueError(f"not a chunk's size: {short(size)}") from None
        if n == 0:
            while f.readline(_LINE + 1) not in (b"\r\n", b"\n", b""):
                pass
            return bytes(out)
        if len(out) + n > _BODY:
            raise ValueError("an answer too large")
        chunk = f.read(n + 2)
        if len(chunk) != n + 2:
            raise _Closed("the league closed the connection in the middle of its answer")
        out += chunk[:n]


def link(folder: Path, url: str, code: str | None) -> Link:
    """Link this database's laptop to the league: the code is checked there first."""
    candidate = _candidate(folder, url, code)
    return _linked(folder, candidate, *request(candidate, "GET", "/api/club"))


async def link_async(folder: Path, url: str, code: str | None, send: Send) -> Link:
    """:func:`link` with the request made by ``send`` (the app's: a thread on the laptop,
    the browser's fetch on the phone alone)."""
    candidate = _candidate(folder, url, code)
    return _linked(folder, candidate, *await send(candidate, "GET", "/api/club", None))


def _candidate(folder: Path, url: str, code: str | None) -> Link:
    base, secret = parse_target(url, code)
    old = link_of(folder)
    return Link(base, secret, "", old.fixtures if old is not None and old.url == base else {})


def _linked(folder: Path, candidate: Link, status: int, doc: Any) -> Link:
    """The league's answer to the code (``GET /api/club``): the link kept, or a LinkError."""
    if status != 200 or not isinstance(doc, dict):
        said = doc.get("error") if isinstance(doc, dict) else f"status {status}"
        raise LinkError(f"the league refused the code: {one_line(str(said), 200)}")
    made = Link(candidate.url, candidate.code, str(doc.get("club", "")), candidate.fixtures)
    save_link(folder, made)
    return made


def fixtures_of(answer: tuple[int, Any]) -> list[dict[str, Any]]:
    """This club's fixtures from the league's answer to ``GET /api/club`` (a LinkError when
    it did not give them)."""
    status, doc = answer
    if status != 200 or not isinstance(doc, dict) or not isinstance(doc.get("fixtures"), list):
        said = doc.get("error") if isinstance(doc, dict) else f"status {status}"
        raise LinkError(f"the league did not give this club's fixtures: {one_line(str(said), 200)}")
    return [f for f in doc["fixtures"] if isinstance(f, dict) and isinstance(f.get("id"), int)]


def linked(folder: Path) -> Link:
    """The link of this database's folder, or a LinkError that says how to make one."""
    lk = link_of(folder)
    if lk is None:
        raise LinkError("this laptop is not linked to a league: scorekeeper league link URL CODE")
    return lk


def take(book: EventBook, fixture: int) -> Event:
    """Make the league fixture a league event here, its captains' sheet to confirm at the table."""
    lk = linked(book.store.path)
    return take_from(book, lk, fixture, *request(lk, "GET", f"/api/fixtures/{fixture}"))


def take_from(book: EventBook, lk: Link, fixture: int, status: int, f: Any) -> Event:
    """The event of league fixture ``fixture`` made from the league's answer (``GET
    /api/fixtures/ID``: ``status`` and its JSON ``f``), and kept in the link."""
    from scorekeeper.events import new_event

    if status != 200 or not isinstance(f, dict):
        said = f.get("error") if isinstance(f, dict) else f"status {status}"
        raise LinkError(f"the league has no fixture {fixture} for this club: {one_line(str(said), 200)}")
    home, away = f["teams"]["home"], f["teams"]["away"]
    eid = f"league-{fixture}"
    event = new_event(
        eid,
        f"{f['home']} v {f['away']}"[:80],
        "league",
        f["game"],
        preset=f.get("preset"),
        teams={home["name"]: home["players"], away["name"]: away["players"]},
        vices={t["name"]: t["vice"] for t in (home, away) if t.get("vice")},
        scoring=f.get("scoring"),
        singles=f["singles"],
        doubles=f["doubles"],
        legs=1,
    )
    event = book.add(event)
    save_link(book.store.path, Link(lk.url, lk.code, lk.club, {**lk.fixtures, eid: fixture}))
    return event


def sheet_doc(
    book: EventBook, event: Event, round_number: int, fixture_number: int, league_fixture: int
) -> dict[str, Any] | None:
    """The league's sheet of a fixture confirmed here, or None when no confirmation stands."""
    from scorekeeper.events import result_for
    from scorekeeper.events.sheets import sheet_of

    played = book.played(event)
    sheet = sheet_of(event, round_number, fixture_number, book.results(event, played))
    confirmed = {side: sheet.confirmed(team) for side, team in (("home", sheet.home), ("away", sheet.away))}
    if not sheet.complete or not any(confirmed.values()):
        return None
    match_of: dict[int, str] = {}
    for p in played:
        if p.round == round_number and p.finished and result_for(event, p.round, p.table, p.sides, p.scores, p.winner):
            match_of[p.table] = p.id
    games = []
    for g in sheet.games:
        assert g.result is not None
        games.append(
            {
                "home": list(g.home),
                "away": list(g.away),
                "scores": list(g.result.scores),
                "record": book.store.record(match_of[g.table]),
            }
        )
    return {
        "format": FORMAT,
        "fixture": league_fixture,
        "home": sheet.home,
        "away": sheet.away,
        "games": games,
        "totals": {"games": list(sheet.games_won), "points": list(sheet.points)},
        "confirmed": {k: None if c is None else {"by": c.by, "at": c.at} for k, c in confirmed.items()},
    }


def hand_over(book: EventBook, event: Event, round_number: int, fixture_number: int) -> Path | None:
    """A captain confirmed a sheet here: when it is a league fixture taken on a linked
    laptop, its sheet goes to the outbox (and the pusher of this process is woken). The
    outbox file, or None (not the league's)."""
    folder = book.store.path
    lk = link_of(folder)
    if lk is None or event.id not in lk.fixtures:
        return None
    doc = sheet_doc(book, event, round_number, fixture_number, lk.fixtures[event.id])
    if doc is None:
        return None
    return enqueue(folder, lk.fixtures[event.id], doc)


def enqueue(folder: Path, fixture: int, doc: dict[str, Any]) -> Path:
    """Put the sheet ``doc`` of league fixture ``fixture`` in the outbox (its file); the
    pusher of this process is woken."""
    d = digest(doc)
    name = f"league-out-{fixture}-{d[:16]}.json"
    item = {"fixture": fixture, "digest": d, "made": clock.stamp(), "sheet": doc}
    _side(folder, name).save(json.dumps(item, ensure_ascii=False).encode("utf-8"))
    wake(folder)
    return folder / name


def outbox(folder: Path) -> list[Path]:
    """The sheets waiting to be sent, oldest first."""
    found = []
    for p in folder.iterdir():
        if OUT.fullmatch(p.name):
            try:
                found.append((p.stat().st_mtime, p.name, p))
            except FileNotFoundError:  # sent and removed since the folder was listed
                continue
    return [p for _, _, p in sorted(found)]


@dataclass(slots=True)
class Pushed:
    """What one round of pushes did."""

    sent: int = 0
    refused: int = 0
    left: int = 0
    problem: str = ""


#: What :func:`push` tells of each answer: when the request was sent (``time.perf_counter``),
#: its seconds, and the answer's headers (lower case).
Observer = Callable[[float, float, dict[str, str]], None]


def push(folder: Path, observe: Observer | None = None) -> Pushed:
    """Send every sheet of the outbox once (see the module), over one kept connection;
    ``observe``: told of each answer (the benchmark's)."""
    out, lk, items = _round(folder)
    if lk is None:
        return out
    session = Session(lk)
    try:
        for i, (path, item, (where, body)) in enumerate(items):
            started = time.perf_counter()
            try:
                status, answer = session.request("PUT", where, body)
                if observe is not None:
                    observe(started, time.perf_counter() - started, session.headers)
            except LinkError as e:
                out.left, out.problem = len(items) - i, str(e)
                return out
            if not _answered(folder, path, item, status, answer, out, len(items) - i):
                return out
        return out
    finally:
        session.close()


async def push_async(folder: Path, send: Send) -> Pushed:
    """:func:`push` with each request made by ``send`` (see :func:`link_async`)."""
    out, lk, items = _round(folder)
    for i, (path, item, path_body) in enumerate(items):
        assert lk is not None
        try:
            status, answer = await send(lk, "PUT", *path_body)
        except LinkError as e:
            out.left, out.problem = len(items) - i, str(e)
            return out
        if not _answered(folder, path, item, status, answer, out, len(items) - i):
            return out
    return out


def _round(folder: Path) -> tuple[Pushed, Link | None, list[tuple[Path, dict[str, Any], tuple[str, bytes]]]]:
    """A round of pushes: what it did so far, the link, and each sheet of the outbox with
    its address and body (none when the folder is not linked)."""
    out = Pushed()
    lk = link_of(folder)
    if lk is None:
        out.left = len(outbox(folder))
        out.problem = "this laptop is not linked to a league" if out.left else ""
        return out, None, []
    items = []
    for path in outbox(folder):
        item = _side(folder, path.name).load()
        if not isinstance(item, dict) or "sheet" not in item:
            continue
        if not isinstance(item.get("fixture"), int) or not isinstance(item.get("digest"), str):
            continue
        body = json.dumps(item["sheet"], ensure_ascii=False).encode("utf-8")
        items.append((path, item, (f"/api/fixtures/{item['fixture']}/sheets/{item['digest']}", body)))
    return out, lk, items


def _answered(folder: Path, path: Path, item: dict[str, Any], status: int, answer: Any, out: Pushed, left: int) -> bool:
    """The league's answer to one sheet: taken (removed from the outbox), refused (set
    aside with its line), or not taken now (kept; False: the round stops)."""
    if status in (200, 201):
        # not synced: a removal a power cut undoes sends the sheet again, and the league
        # keeps the same sheet twice as one version (a directory's fsync a push, saved)
        remove(path, sync=False)
        out.sent += 1
        return True
    if status == 422:
        said = answer.get("error") if isinstance(answer, dict) else "refused"
        _side(folder, path.name.replace("league-out-", "league-refused-")).save(
            json.dumps({**item, "refused": said}, ensure_ascii=False).encode("utf-8")
        )
        remove(path)
        out.refused += 1
        out.problem = f"the league refused the sheet of fixture {item['fixture']}: {one_line(str(said), 200)}"
        return True
    said = answer.get("error") if isinstance(answer, dict) else f"status {status}"
    out.left, out.problem = left, f"the league did not take the sheet ({one_line(str(said), 200)})"
    return False


def refused(folder: Path) -> list[tuple[int, str]]:
    """The sheets the league refused (set aside in the folder): each fixture and the league's line."""
    out = []
    for p in sorted(folder.iterdir()):
        if p.name.startswith("league-refused-") and p.name.endswith(".json"):
            item = _side(folder, p.name).load()
            if isinstance(item, dict) and isinstance(item.get("fixture"), int):
                out.append((item["fixture"], one_line(str(item.get("refused")), 200)))
    return out


def next_wait(last: Pushed, pause: float) -> tuple[float, float]:
    """After a round of pushes: the seconds to wait before the next, and the pause after
    that (the backoff: doubled while sheets are left, from :data:`BACKOFF_FIRST` up to
    :data:`BACKOFF_MOST`, with a random part; the longest wait once the outbox is empty)."""
    if last.left:
        return pause * (0.5 + random.random()), min(BACKOFF_MOST, pause * 2)
    return BACKOFF_MOST, BACKOFF_FIRST


async def keep_pushing(folder: Path, send: Send, told: Callable[[Pushed], None] | None = None) -> None:
    """The pushes of the phone alone (the site, where there are no threads): the
    :class:`Pusher`'s loop as a task of the page's event loop, each request by ``send``
    (the browser's fetch), woken by a new sheet (:func:`enqueue`) or by :func:`wake`;
    ``told``: given each round's :class:`Pushed`."""
    woken = asyncio.Event()
    _WAKE[folder.resolve()] = woken
    pause = BACKOFF_FIRST
    while True:
        try:
            last = await push_async(folder, send)
        except Exception as e:  # the page's one task of pushes: said, and tried again after the backoff
            last = Pushed(problem=one_line(str(e) or type(e).__name__, 200), left=1)
        _LAST[folder.resolve()] = last
        if told is not None:
            told(last)
        wait, pause = next_wait(last, pause)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), wait)
        woken.clear()


def wake(folder: Path) -> bool:
    """Wake the pusher of ``folder`` in this process (send now): whether there is one."""
    found = _WAKE.get(folder.resolve())
    if found is not None:
        found.set()
    return found is not None


def last_round(folder: Path) -> Pushed | None:
    """What the last round of pushes of ``folder`` in this process did (None: none yet)."""
    return _LAST.get(folder.resolve())


class Pusher:
    """The background pushes of ``scorekeeper web`` (see the module): a thread that sends
    the outbox, then waits until a new sheet comes or the backoff has passed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder.resolve()
        self.wake = threading.Event()
        _WAKE[self.folder] = self.wake
        _PUSHERS[self.folder] = self
        self.stopped = False
        self.last = Pushed()
        self.thread = threading.Thread(target=self._run, name="league-push", daemon=True)

    def start(self) -> Pusher:
        self.thread.start()
        return self

    def _run(self) -> None:
        pause = BACKOFF_FIRST
        while not self.stopped:
            try:
                self.last = push(self.folder)
            except (OSError, ScorekeeperError) as e:
                self.last = Pushed(problem=one_line(str(e), 200), left=1)
            _LAST[self.folder] = self.last
            wait, pause = next_wait(self.last, pause)
            self.wake.wait(wait)
            self.wake.clear()

    def stop(self) -> None:
        self.stopped = True
        self.wake.set()
        self.thread.join(timeout=5)
        _WAKE.pop(self.folder, None)
        _PUSHERS.pop(self.folder, None)


def sending(folder: Path) -> None:
    """A link was just made in the app: the pusher of ``folder`` in this process sends now
    (one is started, a thread, where none runs: a laptop linked while ``scorekeeper web`` runs)."""
    if not wake(folder):
        Pusher(folder).start()


def pusher_of(folder: Path) -> Pusher | None:
    """The thread of pushes running for ``folder`` in this process, or None."""
    return _PUSHERS.get(folder.resolve())


def start_pusher(folder: str | Path) -> Pusher | None:
    """The pusher of a linked laptop's database (None when it is not linked)."""
    path = Path(folder)
    return Pusher(path).start() if link_of(path) is not None else None
