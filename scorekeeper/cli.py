"""The ``scorekeeper`` command.

``scorekeeper score RECORD [--text]`` scores a match record. Any bad input
ends with status 2 and one ``error: ...`` line on standard error -- never a
traceback, and nothing on standard output. A standard output that cannot be
written (closed, or a full disk) ends with status 1 and one line naming it; a
reader that goes away early (``... | head``) is not an error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from scorekeeper import DISTRIBUTION, __version__
from scorekeeper import text as _text
from scorekeeper.cliout import Guard, OutputError, check_output, guarded, output_failed, write_utf8
from scorekeeper.errors import ScorekeeperError, one_line, short

if TYPE_CHECKING:
    from scorekeeper.store import Store

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors: one line, status 2
        self.exit(EXIT_USAGE, f"error: {message} (see '{self.prog} --help')\n")


#: Where a help text names the kinds of game known (the registry's): filled in when the
#: help is printed, so building the parser imports no game.
_KINDS = "{kinds}"


class _KindsHelp(argparse.HelpFormatter):
    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = action.help
        if help_text is not None and _KINDS in help_text:
            from scorekeeper import registry

            help_text = help_text.replace(_KINDS, ", ".join(k.id for k in registry.kinds()))
        return help_text


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="scorekeeper", description="Table-side scorekeeping for domino and card games.")
    p.add_argument("--version", action="version", version=f"{DISTRIBUTION} {__version__}")
    p.add_argument("--db", metavar="PATH", help="the match database directory (default: the per-user data directory)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    s = sub.add_parser("score", help="check and score a match record")
    s.add_argument("record", metavar="RECORD", help="a scorekeeper/1 JSON record, or - for standard input")
    s.add_argument("--text", action="store_true", help="print a readable table instead of JSON")
    i = sub.add_parser("import", help="validate a record and store it; prints the new match id")
    i.add_argument("record", metavar="RECORD", help="a scorekeeper/1 JSON record, or - for standard input")
    e = sub.add_parser("export", help="print a stored record (re-importable as it is), or matches as CSV")
    e.add_argument("id", metavar="ID", nargs="?", help="the match's id (see 'list')")
    e.add_argument("--csv", action="store_true", help="print CSV for a spreadsheet: one row per turn or fact")
    e.add_argument("--all", action="store_true", help="every stored match (with --csv)")
    ls = sub.add_parser("list", help="list the stored matches, newest first")
    ls.add_argument("--json", action="store_true", help="print JSON instead of a table")
    st = sub.add_parser(
        "stats",
        help="players' statistics over the stored matches (wins, partners, head-to-head)",
        formatter_class=_KindsHelp,
    )
    st.add_argument("--json", action="store_true", help="print JSON: one object per player and game")
    st.add_argument("--player", metavar="NAME", help="only this player (and the partnerships they played in)")
    st.add_argument("--game", metavar="GAME", help=f"only this game ({_KINDS} ...)")
    w = sub.add_parser("web", help="serve the app for phones and browsers at the table (works offline)")
    w.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (default 0.0.0.0: every interface, so phones on the same network reach it)",
    )
    w.add_argument("--port", type=int, default=8550, help="port (default 8550)")
    w.add_argument(
        "--open",
        action="store_true",
        dest="open_table",
        help="no table code: every browser that reaches the app may enter (only on a private network you trust)",
    )
    w.add_argument(
        "--new-codes",
        action="store_true",
        help="new table codes: phones that joined earlier this evening must join again (else the codes are kept for 12 hours)",
    )
    w.add_argument(
        "--browser",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also open the app in this machine's browser (the host's screen: it shows the codes); "
        "the default on Windows and macOS, not on Linux",
    )
    w.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        dest="allow_hosts",
        help="also answer to this host name (e.g. table.local), besides localhost and this machine's IP addresses; repeatable",
    )
    si = sub.add_parser(
        "site",
        help="build the static site that runs the app in a phone's browser, with no server (works offline)",
    )
    si.add_argument("dir", metavar="DIR", help="the folder to write (new, empty, or a site built before: replaced)")
    from scorekeeper import eventcli

    eventcli.add_parser(sub)
    from scorekeeper.league import cli as leaguecli

    leaguecli.add_parser(sub)
    t = sub.add_parser("tally", help="a side's Holsey-Tidwell X tally from its scoring events")
    t.add_argument(
        "--points", required=True, metavar="P,P,...", help="the side's scoring events in order, e.g. 10,10,5,15,35"
    )
    t.add_argument(
        "--scale",
        type=int,
        choices=(1, 5),
        default=1,
        help="5: one point is one stroke (cribbage-style matches); default 1: one stroke is 5 points",
    )
    _output_flags(t)
    b = sub.add_parser("pegboard", help="the cribbage pegboard's pegs from each side's scoring events")
    b.add_argument(
        "--points",
        required=True,
        action="append",
        metavar="P,P,...",
        help="one side's scoring events in order, e.g. 3,2,4 (repeat for each side)",
    )
    b.add_argument(
        "--target", type=int, default=61, help="points that win (default 61; above 61 the board has 121 holes)"
    )
    b.add_argument("--names", metavar="NAME,NAME,...", help="the sides' names, in the order of --points")
    _output_flags(b)
    return p


def _output_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print JSON")
    g.add_argument("--svg", action="store_true", help="print an SVG drawing")


def parse_points(text: str) -> list[int]:
    """``"10,10,5"`` -> ``[10, 10, 5]``; an empty string is no events.

    >>> parse_points("3, 2,4"), parse_points("")
    ([3, 2, 4], [])
    """
    if not text.strip():
        return []
    out: list[int] = []
    for i, part in enumerate(text.split(","), 1):
        part = part.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,9}", part):
            raise ScorekeeperError(f"--points: event {i}: {short(part)} is not a whole number of points")
        out.append(int(part))
    return out


def parse_names(text: str) -> list[str]:
    """``"Us, Them"`` -> ``["Us", "Them"]``: the sides' names of ``--names``, each following
    the rule for names (:mod:`scorekeeper.text`), no name twice in any spelling.

    >>> parse_names("Us, Them")
    ['Us', 'Them']
    """
    names = [n.strip() for n in text.split(",")]
    for n in names:
        _text.check_name(n, "a side's name", field="--names")
    problem = _text.same_names_problem(names)
    if problem:
        raise ScorekeeperError(problem, field="--names")
    return names


def read_json(path: str) -> Any:
    """Read a JSON record from a path or ``-`` through the one door for records from
    outside (:mod:`scorekeeper.boundary`); any failure is a RecordFormatError."""
    from scorekeeper import boundary

    return boundary.read_path(path)


def cmd_score(args: argparse.Namespace) -> int:
    from scorekeeper import registry

    record = read_json(args.record)
    game = registry.game_of(record)
    out = game.score(record)
    if args.text:
        sys.stdout.write(_text.terminal(game.render(out)))
    else:
        sys.stdout.write(_text.json_text(out, indent=2) + "\n")
    return 0


def _store(args: argparse.Namespace, *, read_only: bool = False) -> Store:
    """The database: read-only for the commands that only read (no lock: they work while
    the app has the database open); a command that writes takes the lock, and is refused
    with a clear message while another Scorekeeper holds it."""
    from scorekeeper.store import Store

    return Store(args.db, read_only=read_only)


def cmd_import(args: argparse.Namespace) -> int:
    """Store the record and print its id. A failure means nothing changed, so that a script
    may retry: with standard output closed the database is not even opened, and an id that
    cannot be printed (a full disk) takes the import back. A reader gone early
    (``import REC | true``) leaves the import stored, with status 0."""
    record = read_json(args.record)
    check_output("nothing was imported")
    with _store(args) as store:
        from scorekeeper.eventbook import EventBook

        locked = EventBook(store).sheet_lock(record) if isinstance(record, dict) else None
        if locked:  # a game of a confirmed result sheet: the host re-opens it first
            raise ScorekeeperError(f"not imported: {locked} (scorekeeper event reopen)")
        mid = store.import_record(record)
        try:
            print(mid)
            sys.stdout.flush()  # reported, while the database is still ours to take it back
        except OutputError as e:
            if e.reader_gone:
                raise
            try:
                store.delete(mid)
            except ScorekeeperError as why:
                raise e.noting(
                    f"the match was imported all the same, as {mid}: it could not be taken back ({why})"
                ) from None
            raise e.noting("nothing was imported") from None
        problems = list(store.problems)
    _warn(problems)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.all and args.id is not None:
        raise ScorekeeperError("export: give a match ID or --all, not both")
    if args.all and not args.csv:
        raise ScorekeeperError(
            "export --all prints CSV only: add --csv (a JSON record is exported one match at a time)"
        )
    if args.id is None and not args.all:
        raise ScorekeeperError("export: give a match ID (see 'scorekeeper list'), or --all --csv for every match")
    if args.csv:
        return _export_csv(args)
    with _store(args, read_only=True) as store:
        text = store.export(args.id)
    sys.stdout.write(text)
    return 0


def _export_csv(args: argparse.Namespace) -> int:
    """``export ID --csv`` and ``export --all --csv``: the header, then each match's rows. With
    ``--all`` a match that cannot be read is left out with a warning, as ``list`` does."""
    from scorekeeper.stats.csv_rows import COLUMNS, match_table, to_csv

    warnings: list[str] = []
    with _store(args, read_only=True) as store:
        if not args.all:
            started = store.summary(args.id)["started"]
            table = match_table(args.id, started, store.record(args.id), store.match(args.id))
            write_utf8(to_csv([COLUMNS, *table]))
        else:
            listed = store.list(limit=None)
            write_utf8(to_csv([COLUMNS]))
            for m in listed:
                noted = len(store.problems)
                try:
                    table = match_table(m["id"], m["started"], store.record(m["id"]), store.match(m["id"]))
                except ScorekeeperError as e:
                    if len(store.problems) == noted:  # else the store has said why
                        warnings.append(f"match {m['id']} was left out: {e}")
                    continue
                write_utf8(to_csv(table))
        problems = list(store.problems)
    _warn(problems + warnings)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    with _store(args, read_only=True) as store:
        rows = store.list(limit=None)
        for r in rows:
            r["kind"] = store.kind(r["id"], r["game"])
        problems = list(store.problems)
    _warn(problems)
    if args.json:
        sys.stdout.write(_text.json_text(rows, indent=2) + "\n")  # stored text: no raw control character
        return 0
    if not rows:
        print("no matches stored")
        return 0
    table: list[tuple[str, ...]] = [("id", "game", "players", "started", "status", "scores")]
    for r in rows:
        scores = ", ".join(f"{k} {v}" for k, v in r["scores"].items())
        status = r["status"] + (f" ({r['winner']})" if r.get("winner") else "")
        cells = (r["id"], r["kind"], ", ".join(r["players"]), str(r["started"])[:16], status, scores)
        table.append(tuple(_text.escape(str(cell)) for cell in cells))  # stored text: no terminal escape
    widths = [max(len(row[c]) for row in table) for c in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
    return 0


def _stats_games() -> tuple[str, ...]:
    """The games of the statistics: every registered game, and the kinds the games
    declare apart (see :func:`scorekeeper.registry.kinds`)."""
    from scorekeeper import registry

    return tuple(dict.fromkeys([*registry.ids(), *(k.id for k in registry.kinds())]))


def _stats_store(args: argparse.Namespace) -> Store:
    """The database for ``stats``: writing when it is free, so that the figures' cache
    is kept for next time; read-only while another Scorekeeper (the app) holds it."""
    from scorekeeper.store import Store, StoreLockedError, default_path

    path = args.db if args.db is not None else default_path()
    if os.path.isdir(os.path.join(path, "matches")):
        try:
            return Store(path, wait=0)
        except StoreLockedError:
            pass
    return Store(path, read_only=True)


def cmd_stats(args: argparse.Namespace) -> int:
    from scorekeeper import stats as _stats

    games = _stats_games()
    if args.game is not None and args.game not in games:
        raise ScorekeeperError(f"--game: no game {short(args.game)} (games: {', '.join(games)})")
    if args.player is None:  # the whole table: kept in the database while nothing changed
        from scorekeeper.stats.table import table

        with _stats_store(args) as store:
            data = table(store, args.game)
            problems = list(store.problems)
        _warn(problems)
        _print_stats(data, args.json, detail=False)
        return 0
    with _stats_store(args) as store:
        figures = _stats.of_store(store)
        problems = list(store.problems)
    _warn(problems)
    if figures.person(args.player) is None:
        known = ", ".join(sorted(figures.names.values(), key=str.casefold)[:20]) or "none yet"
        raise ScorekeeperError(f"--player: nobody called {short(args.player)} played a stored match (players: {known})")
    _print_stats(figures.to_json(player=args.player, game=args.game), args.json, detail=True)
    return 0


def _print_stats(data: dict[str, Any], as_json: bool, detail: bool) -> None:
    from scorekeeper.stats.report import render

    if as_json:
        sys.stdout.write(_text.json_text(data, indent=2) + "\n")
    else:
        sys.stdout.write(_text.terminal(render(data, detail=detail)))


def _warn(problems: list[str]) -> None:
    """The store's notes on files it read around (a bad match file moved aside ...)."""
    for p in problems:
        print(f"warning: {one_line(p)}", file=sys.stderr)


def cmd_tally(args: argparse.Namespace) -> int:
    from scorekeeper.tally import tally

    t = tally(parse_points(args.points), scale=args.scale)
    if args.json:
        print(json.dumps(t.to_json()))
    elif args.svg:
        from scorekeeper.tally.svg import tally_svg

        sys.stdout.write(tally_svg(t) + "\n")
    else:
        print(f"{t.total} points")
        per = 50 if args.scale == 1 else 10
        for i, sym in enumerate(t.symbols):
            print(f"{sym}  {min(t.total, per * (i + 1))}")
    return 0


def cmd_pegboard(args: argparse.Namespace) -> int:
    from scorekeeper.tally import pegboard

    names = parse_names(args.names) if args.names else []
    if names and len(names) != len(args.points):
        raise ScorekeeperError(f"--names: {len(names)} names for {len(args.points)} sides (one --points per side)")
    names = names or [f"Side {i}" for i in range(1, len(args.points) + 1)]
    board = pegboard({n: parse_points(p) for n, p in zip(names, args.points, strict=True)}, target=args.target)
    if args.json:
        out = board.sides[0][1].to_json() if len(board.sides) == 1 and not args.names else board.to_json()
        print(json.dumps(out))
    elif args.svg:
        from scorekeeper.tally.svg import pegboard_svg

        sys.stdout.write(pegboard_svg(board) + "\n")
    else:
        for name, p in board.sides:
            print(f"{name}: front peg {p.front}, back peg {p.back}")
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from scorekeeper.ui.server.guard import host_name
    from scorekeeper.ui.server.serve import run

    if not 0 < args.port < 65536:
        raise ScorekeeperError(f"--port must be 1 to 65535, not {args.port}")
    allow_hosts = [host_name(h) for h in args.allow_hosts]  # a bad one: one line, status 2
    return run(
        args.db,
        web=True,
        host=args.host,
        port=args.port,
        open_table=args.open_table,
        new_codes=args.new_codes,
        open_browser=args.browser,
        allow_hosts=allow_hosts,
    )


def cmd_site(args: argparse.Namespace) -> int:
    from scorekeeper.site.build import build

    if not args.dir.strip():
        raise ScorekeeperError("site: give the folder to write (an empty path would be the current directory)")
    print(build(args.dir).summary())
    return 0


def cmd_event(args: argparse.Namespace) -> int:
    from scorekeeper import eventcli

    return eventcli.run(args)


def cmd_league(args: argparse.Namespace) -> int:
    from scorekeeper.league import cli as leaguecli

    return leaguecli.run(args)


def cmd_app(args: argparse.Namespace) -> int:
    from scorekeeper.ui.server.serve import run

    return run(args.db, web=False, host=None, port=None, open_browser=True)


COMMANDS = {
    "score": "cmd_score",
    "import": "cmd_import",
    "export": "cmd_export",
    "list": "cmd_list",
    "stats": "cmd_stats",
    "web": "cmd_web",
    "site": "cmd_site",
    "tally": "cmd_tally",
    "pegboard": "cmd_pegboard",
    "event": "cmd_event",
    "league": "cmd_league",
    None: "cmd_app",
}


def main(argv: Sequence[str] | None = None) -> int:
    real = sys.stdout
    text, guard = guarded(real)
    sys.stdout = text
    try:
        return _main(argv, guard)
    finally:
        sys.stdout = real
        if guard is not None:
            try:
                text.flush()  # after a failure, into nothing
            except (OutputError, ValueError):  # a failure not reported yet (the command failed first)
                guard.quiet()


def _main(argv: Sequence[str] | None, guard: Guard | None) -> int:
    parser = _build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit:  # --help, --version, a usage error: what was printed must reach its reader too
            sys.stdout.flush()
            raise
    except OutputError as e:
        return output_failed(guard, e)
    try:
        if args.db is not None and not args.db.strip():
            raise ScorekeeperError("--db: give the database directory (an empty path would be the current directory)")
        command: Callable[[argparse.Namespace], int] = globals()[COMMANDS[args.command]]
        status = command(args)
        sys.stdout.flush()  # a reader gone or a full disk shows here, not in Python's flush at exit
        return status
    except OutputError as e:
        return output_failed(guard, e)
    except ScorekeeperError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print("error: the record is nested too deeply", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        print(f"error: {one_line(str(e.filename or 'the database'), 200)}: {e.strerror or e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug of ours: still no traceback for the user
        print(f"error: internal error ({type(e).__name__}: {one_line(str(e), 200)}); please report it", file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    sys.exit(main())
