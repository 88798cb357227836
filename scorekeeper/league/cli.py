"""``scorekeeper league ...``: the league server's commands, and the club laptop's.

The server's (``--database URL``, default ``sqlite:///league.db``; ``$DATABASE_URL`` when set):
``serve`` runs the service (migrations applied first; ``--read-only``: the public pages over a
read replica, its schema checked instead); ``season FILE`` makes a season from
its plan; ``secretary NAME`` sets the secretary's password (read from standard input with
``--password-stdin``, else asked twice); ``clubs`` lists the clubs; ``code CLUB`` makes a
club's code (printed once); ``settle`` approves the results whose delay has passed.

The club laptop's (``--db``, the match database): ``link URL CODE``, ``fixtures``,
``take FIXTURE``, ``push``. Errors are one line and status 2, as everywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from scorekeeper.errors import ScorekeeperError, short

DEFAULT_PORT = 8560


def add_parser(sub: Any) -> None:
    lg = sub.add_parser("league", help="the league server, and a club laptop's link to it (docs/league.md)")
    cmds = lg.add_subparsers(dest="league_command", metavar="LEAGUE_COMMAND")
    cmds.required = True

    def database(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--database",
            metavar="URL",
            default=os.environ.get("DATABASE_URL") or None,
            help="postgresql://... or sqlite:///PATH (default: $DATABASE_URL, else sqlite:///league.db)",
        )

    s = cmds.add_parser("serve", help="serve the league: the clubs' API, the public pages, the secretary's pages")
    database(s)
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, behind a proxy)")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    s.add_argument(
        "--read-only",
        action="store_true",
        help="the public pages alone, over a read replica of the league's PostgreSQL (docs/league.md)",
    )
    s.add_argument(
        "--site-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="the address the phone's site is served from (https://host[:port]): its browsers may send "
        "results to the clubs' API (CORS); repeat for more (docs/league.md)",
    )
    s.add_argument(
        "--insecure-cookies",
        action="store_true",
        help="session cookies without Secure (a trial over plain http on another machine; never in use)",
    )
    se = cmds.add_parser("season", help="make a season (its teams, venues, fixtures) from its plan, a JSON file")
    database(se)
    se.add_argument("plan", metavar="FILE", help="the season's plan (docs/league.md), or - for standard input")
    sc = cmds.add_parser("secretary", help="set the secretary's password")
    database(sc)
    sc.add_argument("name", metavar="NAME")
    sc.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    cl = cmds.add_parser("clubs", help="the clubs, with their ids and codes in use")
    database(cl)
    co = cmds.add_parser("code", help="make a club's code for its laptop (printed once)")
    database(co)
    co.add_argument("club", metavar="CLUB", help="the club's id or name")
    st = cmds.add_parser("settle", help="approve the results whose delay has passed (the service does it each minute)")
    database(st)
    li = cmds.add_parser("link", help="link this laptop's database to the league, with the club's code")
    li.add_argument("url", metavar="URL", help="the league's address (or the URL/link#CODE of the QR code)")
    li.add_argument("code", metavar="CODE", nargs="?", help="the club's code")
    cmds.add_parser("fixtures", help="this club's fixtures, from the league")
    ta = cmds.add_parser("take", help="make a league fixture an event here, to play and confirm at the table")
    ta.add_argument("fixture", type=int, metavar="FIXTURE")
    cmds.add_parser("push", help="send the confirmed sheets waiting in the outbox now")


def run(args: argparse.Namespace) -> int:
    return int(globals()[f"_cmd_{args.league_command}"](args))


def _db(args: argparse.Namespace) -> Any:
    from scorekeeper.league.db import connect
    from scorekeeper.league.migrate import migrate

    db = connect(args.database)
    try:
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def _read_only_db(args: argparse.Namespace) -> Any:
    from scorekeeper.league.db import connect
    from scorekeeper.league.migrate import current

    db = connect(args.database)
    try:
        current(db)
    except BaseException:
        db.close()
        raise
    return db


def _cmd_serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise ScorekeeperError(f"--port must be 1 to 65535, not {args.port}")
    import uvicorn

    from scorekeeper.league.app import make_app, site_origin

    for origin in args.site_origin:  # said in one line before the database is opened
        site_origin(origin)
    db = _read_only_db(args) if args.read_only else _db(args)
    try:
        app = make_app(
            db, secure_cookies=not args.insecure_cookies, read_only=args.read_only, site_origins=args.site_origin
        )
        print(f"The league is served at http://{args.host}:{args.port}/ (database: {db.where()})", flush=True)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", proxy_headers=True)
    finally:
        db.close()
    return 0


def _cmd_season(args: argparse.Namespace) -> int:
    from scorekeeper.league.book import League

    text = sys.stdin.read() if args.plan == "-" else Path(args.plan).read_text(encoding="utf-8")
    try:
        plan = json.loads(text)
    except ValueError as e:
        raise ScorekeeperError(f"the season's plan is not JSON ({e.__class__.__name__}: {short(str(e))})") from None
    db = _db(args)
    try:
        lg = League(db)
        sid = lg.add_season(plan, "the command line")
        print(sid)
        print(lg.audit(limit=1)[0].what, file=sys.stderr)
    finally:
        db.close()
    return 0


def _cmd_secretary(args: argparse.Namespace) -> int:
    from scorekeeper.league.access import set_secretary

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        import getpass

        password = getpass.getpass("The secretary's password: ")
        if getpass.getpass("Again: ") != password:
            raise ScorekeeperError("the two passwords differ; nothing was changed")
    db = _db(args)
    try:
        set_secretary(db, args.name, password)
    finally:
        db.close()
    print(f"the secretary {args.name} can sign in at /admin")
    return 0


def _cmd_clubs(args: argparse.Namespace) -> int:
    from scorekeeper import text as _text
    from scorekeeper.league.book import League

    db = _db(args)
    try:
        for c in League(db).clubs():
            print(_text.escape(f"{c.id}  {c.name}  ({c.codes} code(s) in use)"))
    finally:
        db.close()
    return 0


def _cmd_code(args: argparse.Namespace) -> int:
    from scorekeeper import text as _text
    from scorekeeper.league.book import League

    db = _db(args)
    try:
        lg = League(db)
        clubs = lg.clubs()
        club = next((c for c in clubs if str(c.id) == args.club or _text.same_name(c.name, args.club)), None)
        if club is None:
            raise ScorekeeperError(f"no club {short(args.club)} (see 'scorekeeper league clubs')")
        print(lg.new_code(club.id, "the command line"))
    finally:
        db.close()
    return 0


def _cmd_settle(args: argparse.Namespace) -> int:
    from scorekeeper.league.book import League

    db = _db(args)
    try:
        print(f"{League(db).settle()} result(s) approved")
    finally:
        db.close()
    return 0


def _folder(args: argparse.Namespace) -> Path:
    from scorekeeper.store import default_path

    folder = Path(args.db if args.db is not None else default_path())
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _cmd_link(args: argparse.Namespace) -> int:
    from scorekeeper.league.club import link

    made = link(_folder(args), args.url, args.code)
    print(f"linked to {made.url} as {made.club}")
    return 0


def _cmd_fixtures(args: argparse.Namespace) -> int:
    from scorekeeper import text as _text
    from scorekeeper.league.club import LinkError, link_of, request

    lk = link_of(_folder(args))
    if lk is None:
        raise LinkError("this laptop is not linked to a league: scorekeeper league link URL CODE")
    status, doc = request(lk, "GET", "/api/club")
    if status != 200 or not isinstance(doc, dict):
        raise LinkError(f"the league refused: {doc.get('error') if isinstance(doc, dict) else status}")
    for f in doc["fixtures"]:
        done = f" {f['result']['games'][0]}-{f['result']['games'][1]}" if f.get("result") else ""
        print(_text.escape(f"{f['id']}  {f['day']}  {f['home']} v {f['away']}{done}  at {f['venue']}"))
    return 0


def _cmd_take(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook
    from scorekeeper.league.club import take
    from scorekeeper.store import Store

    with Store(args.db) as store:
        event = take(EventBook(store), args.fixture)
    print(event.id)
    return 0


def _cmd_push(args: argparse.Namespace) -> int:
    from scorekeeper.league.club import push

    done = push(_folder(args))
    print(f"{done.sent} sent, {done.refused} refused, {done.left} waiting")
    if done.problem:
        print(f"warning: {done.problem}", file=sys.stderr)
    return 0
