"""The secretary's pages: sign in, the results to decide, a fixture's sheets, the clubs' codes.

Every form carries the session's CSRF token and every POST is refused without it; the
session's cookie is ``Secure``, ``HttpOnly`` and ``SameSite=Strict``. A POST ends in a
redirect (the page then shows what happened), or the page again with the one-line
refusal in it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from scorekeeper.errors import ScorekeeperError, one_line
from scorekeeper.league import access, pages

if TYPE_CHECKING:
    from scorekeeper.league.app import Service

COOKIE = "league_session"
#: The most a form's body may be.
FORM_LIMIT = 16 << 10


def _html(body: str, status: int = 200) -> HTMLResponse:
    from scorekeeper.league.app import HEADERS

    return HTMLResponse(body, status, headers={**HEADERS, "Cache-Control": "no-store"})


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _form(request: Request) -> dict[str, str]:
    body = await request.body()
    if len(body) > FORM_LIMIT:
        raise ScorekeeperError("the form is too large")
    from urllib.parse import parse_qsl

    return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))


def _number(form: dict[str, str], key: str) -> int:
    value = form.get(key, "").strip()
    if not value.isdigit() or len(value) > 6:
        raise ScorekeeperError(f"{key.replace('_', ' ')} must be a whole number")
    return int(value)


def routes(service: Service) -> list[Route]:
    db, lg = service.db, service.league

    def signed(handler: Callable[[Request, access.Session], Awaitable[Response]], *, post: bool = False):
        async def run(request: Request) -> Response:
            s = await run_in_threadpool(access.session, db, request.cookies.get(COOKIE))
            if s is None:
                return RedirectResponse("/admin/sign-in", 303)
            if post:
                form = await _form(request)
                if not access.csrf_ok(s, form.get("csrf")):
                    return _html(
                        pages.page("Refused", "<p>The form's token is missing or old: open the page again.</p>"), 403
                    )
                request.state.form = form
            try:
                return await handler(request, s)
            except ScorekeeperError as e:
                back = request.url.path.rsplit("/", 1)[0] if post else "/admin"
                return RedirectResponse(f"{back}?said={quote(one_line(str(e), 300))}", 303)

        return run

    async def sign_in_page(request: Request) -> Response:
        return _html(pages.sign_in())

    async def sign_in(request: Request) -> Response:
        form = await _form(request)
        try:
            token, _ = await run_in_threadpool(
                access.sign_in, db, form.get("name", ""), form.get("password", ""), _client(request)
            )
        except ScorekeeperError as e:
            return _html(pages.sign_in(str(e)), 401)
        out = RedirectResponse("/admin", 303)
        out.set_cookie(
            COOKIE,
            token,
            max_age=access.SESSION_HOURS * 3600,
            httponly=True,
            secure=service.secure,
            samesite="strict",
            path="/",
        )
        return out

    async def sign_out(request: Request, s: access.Session) -> Response:
        await run_in_threadpool(access.sign_out, db, request.cookies.get(COOKIE))
        out = RedirectResponse("/admin/sign-in", 303)
        out.delete_cookie(COOKIE, path="/")
        return out

    def said(request: Request) -> str:
        return unquote(request.query_params.get("said", ""))

    async def home(request: Request, s: access.Session) -> Response:
        def make() -> str:
            lg.settle()
            fixtures = lg.fixtures()
            decide = [f for f in fixtures if f.result is not None and f.result.state in ("disputed", "different")]
            waiting = [f for f in fixtures if f.result is not None and f.result.state == "waiting"]
            return pages.admin(s.secretary, s.csrf, decide, waiting, lg.clubs(), lg.audit(limit=50), said(request))

        return _html(await run_in_threadpool(make))

    async def fixture(request: Request, s: access.Session) -> Response:
        fid = int(request.path_params["fid"])

        def make() -> str:
            f = lg.fixture(fid)
            return pages.admin_fixture(f, s.csrf, lg.sheets(fid), lg.disputes(fid), lg.audit(fid), said(request))

        return _html(await run_in_threadpool(make))

    def act(
        do: Callable[[Request, access.Session, dict[str, str], int], None],
    ) -> Callable[[Request, access.Session], Awaitable[Response]]:
        async def run(request: Request, s: access.Session) -> Response:
            fid = int(request.path_params["fid"])
            await run_in_threadpool(do, request, s, request.state.form, fid)
            return RedirectResponse(request.url.path.rsplit("/", 1)[0], 303)

        return run

    def who(s: access.Session) -> str:
        return f"{s.secretary} (secretary)"

    def decide(request: Request, s: access.Session, form: dict[str, str], fid: int) -> None:
        lg.decide(fid, _number(form, "sheet"), who(s), form.get("why", ""))

    def enter(request: Request, s: access.Session, form: dict[str, str], fid: int) -> None:
        games = (_number(form, "games_home"), _number(form, "games_away"))
        points = (_number(form, "points_home"), _number(form, "points_away"))
        lg.enter(fid, games, points, who(s), form.get("why", ""))

    def remove(request: Request, s: access.Session, form: dict[str, str], fid: int) -> None:
        lg.remove(fid, who(s), form.get("why", ""))

    def move(request: Request, s: access.Session, form: dict[str, str], fid: int) -> None:
        lg.move(fid, form.get("day", ""), who(s), form.get("why", ""))

    async def code(request: Request, s: access.Session) -> Response:
        cid = int(request.path_params["cid"])
        club = await run_in_threadpool(lg.club, cid)
        made = await run_in_threadpool(lg.new_code, cid, who(s))
        url = f"{request.url.scheme}://{request.url.netloc}"
        import segno

        qr = segno.make(f"{url}/link#{made}", error="m").svg_data_uri(scale=4)
        return _html(pages.code_made(club, url, made, qr))

    async def revoke(request: Request, s: access.Session) -> Response:
        cid = int(request.path_params["cid"])
        await run_in_threadpool(lg.revoke, cid, who(s), request.state.form.get("why", ""))
        return RedirectResponse("/admin", 303)

    return [
        Route("/admin/sign-in", sign_in_page, methods=["GET"]),
        Route("/admin/sign-in", sign_in, methods=["POST"]),
        Route("/admin/sign-out", signed(sign_out, post=True), methods=["POST"]),
        Route("/admin", signed(home), methods=["GET"]),
        Route("/admin/fixtures/{fid:int}", signed(fixture), methods=["GET"]),
        Route("/admin/fixtures/{fid:int}/decide", signed(act(decide), post=True), methods=["POST"]),
        Route("/admin/fixtures/{fid:int}/enter", signed(act(enter), post=True), methods=["POST"]),
        Route("/admin/fixtures/{fid:int}/remove", signed(act(remove), post=True), methods=["POST"]),
        Route("/admin/fixtures/{fid:int}/move", signed(act(move), post=True), methods=["POST"]),
        Route("/admin/clubs/{cid:int}/code", signed(code, post=True), methods=["POST"]),
        Route("/admin/clubs/{cid:int}/revoke", signed(revoke, post=True), methods=["POST"]),
    ]
