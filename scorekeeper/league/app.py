"""The league service: the clubs' API, the public pages and the secretary's pages (Starlette).

``scorekeeper league serve`` runs :func:`make_app` under Uvicorn. Every request reads the
database: nothing a process holds is the truth, so several processes over one
PostgreSQL behave as one. A public page is kept by the process that made it for the
league's revision it was made at, with an ETag (``If-None-Match`` gets a 304) and
``Cache-Control: public, no-cache`` (a browser or a proxy asks again each time, so a
result shows the moment it is approved). Which revision is the league's now
(:class:`Revisions`): over PostgreSQL each process is told every new one
(``LISTEN``/``NOTIFY``: a change is told when it commits, the process's own at once,
another process's within the moment PostgreSQL takes to pass it on), so a page already
made is sent without asking the database; while that connection is away, and over
SQLite, each request asks the database (one small query).

The clubs' API (``Authorization: Bearer CODE``):

- ``GET /api/club``: the club and its teams' fixtures;
- ``GET /api/fixtures/ID``: a fixture, its teams and players, the season's game;
- ``PUT /api/fixtures/ID/sheets/DIGEST``: a sheet (:mod:`scorekeeper.league.sheets`),
  ``DIGEST`` its SHA-256: 201 for a new version, 200 for one kept before, 422 with one
  line for a sheet the league does not take;
- ``POST /api/fixtures/ID/disputes``: ``{"reason": "..."}``.

The phone's own site (the whole app in the browser, served from another address) calls
the same API from the browser: for the origins given (``--site-origin``, :func:`cors`) the
API answers the browser's cross-origin requests (``Access-Control-Allow-Origin``: that
origin alone) and their preflight (``Authorization`` and ``Content-Type``, ``GET``, ``PUT``,
``POST``); any other origin's preflight is refused, and the public and secretary's pages
answer no cross-origin request at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError, one_line
from scorekeeper.league import pages
from scorekeeper.league import table as _table
from scorekeeper.league.book import REVISION_CHANNEL, Club, League, NotFound, Receipt
from scorekeeper.league.db import Database
from scorekeeper.league.sheets import SheetError
from scorekeeper.league.sheets import digests as sheet_digests
from scorekeeper.league.sheets import read as read_sheet

COOKIE = "league_session"
#: Seconds between two sweeps of the results whose delay has passed (each process sweeps).
SETTLE_EVERY = 60
#: Public pages kept a process (the newest).
CACHE = 512
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
Handler = Callable[[Request], Awaitable[Response]]


NO_CODE = "a club's code is needed (Authorization: Bearer CODE), and this one is not known or was revoked"
#: Pushes a process works on at once (each holds a thread and, for a moment, a connection
#: of the pool); the others wait their turn in the queue of the pushes' threads
#: (:attr:`Service.pushes`), not in threads that would take the interpreter from those
#: already in a transaction.
PUSHES = 3


def _error(status: int, words: str) -> JSONResponse:
    return JSONResponse({"error": one_line(words, 300)}, status, headers=HEADERS)


class Revisions:
    """The league's revision as this process knows it (see the module): ``known`` is None
    when it is not known (not listening, or not yet asked since), else the newest told.

    Each notification carries the revision it made; ``top`` is the newest heard, even
    while not known. A revision read from the database is taken only if the process has
    listened all along since before it was read (``epoch`` unchanged and listening)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.known: int | None = None
        self.top = 0
        self.epoch = 0
        self.live = False

    def heard(self, payload: str) -> None:
        if not payload.isdigit():
            return
        n = int(payload)
        with self.lock:
            self.top = max(self.top, n)
            if self.known is not None:
                self.known = max(self.known, n)

    def listening(self, now: bool) -> None:
        with self.lock:
            self.live = now
            self.known = None
            self.epoch += 1

    def ask(self, read: Callable[[], int]) -> int:
        """The revision now: the known one, else read (and kept when it may be)."""
        with self.lock:
            if self.known is not None:
                return self.known
            epoch = self.epoch
        n = read()
        with self.lock:
            n = max(n, self.top)
            if self.live and self.epoch == epoch:
                self.known = n if self.known is None else max(self.known, n)
        return n


class Service:
    """What the routes share: the database, the league, each process's page cache."""

    def __init__(self, db: Database, *, secure_cookies: bool = True, listen: bool = True) -> None:
        self.db = db
        self.league = League(db)
        self.secure = secure_cookies
        self.cache: OrderedDict[tuple[str, int], tuple[bytes, str, str]] = OrderedDict()
        self.revisions = Revisions()
        # at most PUSHES at once, the others waiting in its queue (not in threads); a hop to
        # it and back is some 40 µs of CPU fewer than anyio's to_thread with a limiter
        self.pushes = ThreadPoolExecutor(PUSHES, thread_name_prefix="push")
        if listen:
            db.listen(REVISION_CHANNEL, self.revisions)

    def warm(self) -> None:
        """What the first requests after a start would otherwise wait for, done before the
        service takes one: the engines of the league's games imported (a push scores every
        record with its game's engine; the first import takes a tenth of a second, the
        interpreter held), and the pool's connections for :data:`PUSHES` pushes opened,
        each with a push's reads run on it (:meth:`League.warm`)."""
        for season in self.league.seasons():
            with contextlib.suppress(ScorekeeperError):
                registry.get(season.game)
        self.db.keep(PUSHES + 1, self.league.warm)

    # ------------------------------------------------------------ public
    def cached(self, key: str, media: str, make: Callable[[], str]) -> Handler:
        async def handle(request: Request) -> Response:
            known = self.revisions.known
            hit = None if known is None else self.cache.get((key, known))
            if hit is not None:  # made already for the revision that is the league's: no thread, no query
                return self._answer(request, hit)
            return await run_in_threadpool(self._cached, request, key, media, make)

        return handle

    def _cached(self, request: Request, key: str, media: str, make: Callable[[], str]) -> Response:
        rev = self.revisions.ask(self.league.revision)
        hit = self.cache.get((key, rev))
        if hit is None:
            body = make().encode("utf-8")
            hit = (body, f'"{hashlib.sha256(body).hexdigest()[:20]}"', media)
            self.cache[(key, rev)] = hit
            while len(self.cache) > CACHE:
                self.cache.popitem(last=False)
        return self._answer(request, hit)

    @staticmethod
    def _answer(request: Request, hit: tuple[bytes, str, str]) -> Response:
        body, etag, media = hit
        headers = {**HEADERS, "ETag": etag, "Cache-Control": "public, no-cache"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=media, headers=headers)

    def public(self, request: Request) -> Awaitable[Response]:
        """A public page: ``/``, ``/divisions/1``, ``/teams/3.json``, ``/teams/3/fixtures.ics`` ..."""
        path = request.url.path
        kind = "json" if path.endswith(".json") else "ics" if path.endswith(".ics") else "html"
        base = path.removesuffix(".json")
        media = {
            "json": "application/json",
            "ics": "text/calendar; charset=utf-8",
            "html": "text/html; charset=utf-8",
        }[kind]
        host = request.url.hostname or "league"

        def make() -> str:
            made = self._make(base, kind, host)
            if isinstance(made, str):
                return made
            html_page, data = made
            return _text.json_text(data) if kind == "json" else html_page

        async def run() -> Response:
            try:
                return await self.cached(path, media, make)(request)
            except NotFound as e:
                return Response(pages.page("Not found", f"<p>{pages.h(e)}</p>"), 404, media_type="text/html")

        return run()

    def _make(self, base: str, kind: str, host: str) -> str | tuple[str, dict[str, Any]]:
        lg = self.league
        parts = [p for p in base.split("/") if p]
        if not parts:
            return pages.index(lg.seasons(), lg.divisions())
        if len(parts) < 2 or not parts[1].isdigit():
            raise NotFound("no such page")
        n = int(parts[1])
        if parts[0] == "divisions":
            d = lg.division(n)
            season = lg.season(d.season_id)
            fixtures = lg.fixtures(division=n)
            if parts[2:] == ["fixtures.ics"]:
                return pages.calendar(d.name, fixtures, host)
            if parts[2:] == ["fixtures"]:
                return pages.fixtures(d, fixtures)
            if len(parts) == 2:
                teams = lg.teams(n)
                rows = _table.table(season, d, teams, fixtures)
                return pages.division(season, d, rows, teams, _table.tie_breaks())
        if parts[0] == "teams":
            t = lg.team(n)
            d = lg.division(t.division_id)
            fixtures = lg.fixtures(team=n)
            figures = _table.players(t, fixtures)
            if parts[2:] == ["fixtures.ics"]:
                return pages.calendar(t.name, fixtures, host)
            if len(parts) == 2:
                return pages.team(t, d, fixtures, figures)
            if len(parts) == 4 and parts[2] == "players" and parts[3].isdigit() and int(parts[3]) < len(figures):
                return pages.player(figures[int(parts[3])], t)
        raise NotFound("no such page")

    # ------------------------------------------------------------ the clubs' API
    def club_of(self, request: Request) -> Club | None:
        auth = request.headers.get("authorization", "")
        if not auth.lower().startswith("bearer "):
            return None
        return self.league.club_for(auth[7:].strip())

    async def api(self, request: Request) -> Response:
        parts = [p for p in request.url.path.split("/") if p][1:]
        if request.method == "PUT" and len(parts) == 4 and parts[:3:2] == ["fixtures", "sheets"] and parts[1].isdigit():
            return await self._push(request, int(parts[1]), parts[3])
        club = await run_in_threadpool(self.club_of, request)
        if club is None:
            return _error(401, NO_CODE)
        try:
            if parts == ["club"] and request.method == "GET":
                return JSONResponse(await run_in_threadpool(self._club_json, club), headers=HEADERS)
            if len(parts) >= 2 and parts[0] == "fixtures" and parts[1].isdigit():
                return await self._fixture_api(request, club, int(parts[1]), parts[2:])
        except NotFound as e:
            return _error(404, str(e))
        except ScorekeeperError as e:
            return _error(422, str(e))
        return _error(404, "no such address")

    async def _fixture_api(self, request: Request, club: Club, fid: int, rest: list[str]) -> Response:
        if not rest and request.method == "GET":
            return JSONResponse(await run_in_threadpool(self._fixture_json, fid), headers=HEADERS)
        if rest == ["disputes"] and request.method == "POST":
            try:
                reason = json.loads(await request.body()).get("reason")
            except (ValueError, AttributeError):
                raise SheetError('a dispute is {"reason": "..."}') from None
            state = await run_in_threadpool(self.league.dispute, fid, club, reason)
            return JSONResponse({"state": state}, headers=HEADERS)
        return _error(405, "not done at this address")

    async def _push(self, request: Request, fid: int, digest: str) -> Response:
        """``PUT /api/fixtures/ID/sheets/DIGEST``: the club, the fixture, the check and the
        write in one turn of a thread (the parsing and the scoring off the event loop), at
        most :data:`PUSHES` at once; what it spent is told in ``Server-Timing``."""
        auth = request.headers.get("authorization", "")
        code = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        if not code:
            return _error(401, NO_CODE)
        started = time.perf_counter()
        body = await request.body()
        spent: dict[str, float] = {}

        def take() -> Receipt | None:
            mark, cpu = time.perf_counter(), time.thread_time()
            spent["queue"] = mark - started
            try:
                found = self.league.sheet_target(code, fid)
                spent["read"] = time.perf_counter() - mark
                if found is None:
                    return None
                club, target = found
                doc = read_sheet(body)
                full, content = sheet_digests(doc)  # the sheet written once for both
                if full != digest:
                    raise SheetError(
                        "the address's digest is not the sheet's SHA-256 (sent again, it must be the same)"
                    )
                return self.league.receive(fid, club, doc, target=target, spent=spent, digest=digest, content=content)
            finally:
                spent["cpu"] = time.thread_time() - cpu  # this thread's CPU: the read, the check, the write

        try:
            got = await asyncio.get_running_loop().run_in_executor(self.pushes, take)
        except NotFound as e:
            return _error(404, str(e))
        except ScorekeeperError as e:
            return _error(422, str(e))
        if got is None:
            return _error(401, NO_CODE)
        spent["app"] = time.perf_counter() - started
        timing = ", ".join(f"{k};dur={v * 1000:.2f}" for k, v in spent.items())
        out = {"version": got.version, "new": got.new, "state": got.state}
        return JSONResponse(out, 201 if got.new else 200, headers={**HEADERS, "Server-Timing": timing})

    def _club_json(self, club: Club) -> dict[str, Any]:
        lg = self.league
        teams = [t for t in lg.teams() if t.club_id == club.id]
        fixtures = [f for t in teams for f in lg.fixtures(team=t.id)]
        return {
            "club": club.name,
            "teams": [t.name for t in teams],
            "fixtures": [pages.fixture_json(f) for f in sorted(fixtures, key=lambda f: (f.day, f.id))],
        }

    def _fixture_json(self, fid: int) -> dict[str, Any]:
        f = self.league.fixture(fid)
        info, season = self.league.fixture_info(f)
        team = lambda t: {"name": t.name, "players": list(t.players), "vice": t.vice}  # noqa: E731
        return {
            **pages.fixture_json(f),
            "teams": {"home": team(f.home), "away": team(f.away)},
            "game": season.game,
            "preset": season.preset,
            "singles": season.singles,
            "doubles": season.doubles,
            "scoring": season.scoring.to_json(),
        }


#: What a read-only service says to a write, or to the secretary.
READ_ONLY = "this is a read-only copy of the league (its public pages): send results and sign in at its main address"


def site_origin(text: str) -> str:
    """An origin the phone's site is served from (``--site-origin``), as a browser sends it
    in ``Origin``; a ScorekeeperError in one line when it is not one.

    >>> site_origin("https://Scores.Example.org/")
    'https://scores.example.org'
    >>> site_origin("http://127.0.0.1:8000")
    'http://127.0.0.1:8000'
    """
    value = text.strip().rstrip("/")
    if not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:\d{1,5})?", value):
        raise ScorekeeperError(
            f"--site-origin is the address the site is served from, https://host[:port] "
            f"(no path), not {one_line(text, 80)}"
        )
    return value.lower()


#: How long a browser keeps a preflight's answer (seconds).
PREFLIGHT_AGE = "600"


def cors(handler: Handler, origins: frozenset[str]) -> Handler:
    """``handler`` (the clubs' API) answering the browsers of ``origins`` (the phone's site)
    across origins: their preflight (``OPTIONS``) and ``Access-Control-Allow-Origin`` on
    every answer. Another origin's preflight is refused (403, no CORS header), and its
    requests get no CORS header (the browser keeps the answer from its page)."""

    async def handle(request: Request) -> Response:
        origin = request.headers.get("origin")
        allowed = origin is not None and origin in origins
        if request.method == "OPTIONS":
            if not allowed:
                return _error(403, "the league answers browsers from the phone's site only (--site-origin)")
            return Response(
                status_code=204,
                headers={
                    "Access-Control-Allow-Origin": origin or "",
                    "Access-Control-Allow-Methods": "GET, PUT, POST",
                    "Access-Control-Allow-Headers": "Authorization, Content-Type",
                    "Access-Control-Max-Age": PREFLIGHT_AGE,
                    "Vary": "Origin",
                },
            )
        response = await handler(request)
        response.headers["Vary"] = "Origin"
        if allowed:
            response.headers["Access-Control-Allow-Origin"] = origin or ""
        return response

    return handle


def make_app(
    db: Database,
    *,
    secure_cookies: bool = True,
    settle_every: float = SETTLE_EVERY,
    read_only: bool = False,
    site_origins: Iterable[str] = (),
) -> Starlette:
    """The service over ``db`` (migrated already). ``read_only``: the public pages alone,
    over a database that takes no writes (a read replica: no sweep, and the revision
    asked at each request, since a replica cannot ``LISTEN``); the clubs' API and the
    secretary's pages answer 503 with :data:`READ_ONLY`. ``site_origins``: the origins of
    the phone's site, whose browsers call the clubs' API (:func:`cors`)."""
    origins = frozenset(site_origin(o) for o in site_origins)
    from scorekeeper.league import admin

    service = Service(db, secure_cookies=secure_cookies, listen=not read_only)

    async def public(request: Request) -> Response:
        return await service.public(request)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stopping = asyncio.Event()

        async def sweep() -> None:
            while not stopping.is_set():
                with contextlib.suppress(Exception):  # a database away for a moment: the next sweep
                    await run_in_threadpool(service.league.settle)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), settle_every)

        with contextlib.suppress(Exception):  # a database away for a moment: the requests will say so
            await run_in_threadpool(service.warm)
        if read_only:
            yield
            return
        task = asyncio.create_task(sweep())
        try:
            yield
        finally:
            # Not cancelled: a sweep under way in its thread ends before the service has
            # stopped, since whoever stopped it may close the database next (a task
            # cancelled while it awaits a thread ends at once, the thread still running).
            stopping.set()
            await task
            service.pushes.shutdown(wait=False)  # a push under way ends as it would

    routes = [
        Route("/", public),
        Route("/divisions/{rest:path}", public),
        Route("/teams/{rest:path}", public),
        Route("/link", _link_page),
    ]
    if read_only:
        routes += [
            Route("/api/{rest:path}", _read_only_api, methods=["GET", "PUT", "POST"]),
            Route("/admin", _read_only_admin, methods=["GET", "POST"]),
            Route("/admin/{rest:path}", _read_only_admin, methods=["GET", "POST"]),
        ]
    else:
        api = cors(service.api, origins) if origins else service.api
        methods = ["GET", "PUT", "POST", *(["OPTIONS"] if origins else [])]
        routes += [Route("/api/{rest:path}", api, methods=methods), *admin.routes(service)]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    return app


async def _read_only_api(request: Request) -> Response:
    return _error(503, READ_ONLY)


async def _read_only_admin(request: Request) -> Response:
    body = pages.page("Read-only", f"<p>{pages.h(READ_ONLY.capitalize())}.</p>")
    return Response(body, 503, media_type="text/html", headers={**HEADERS, "Cache-Control": "no-store"})


async def _link_page(request: Request) -> Response:
    body = "<p>On the club's laptop run <code>scorekeeper league link</code> with the address and code the secretary gave.</p>"
    return Response(pages.page("Link a club's laptop", body), media_type="text/html", headers=HEADERS)
