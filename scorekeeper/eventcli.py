"""``scorekeeper event ...``: a secretary's work on the command line.

``event new NAME --players "Ann,Ben,Cy" --format round-robin`` prints the new event's id
alone on a line; ``event rounds ID --json`` and ``event standings ID --json`` print every
round drawn so far and the standings; ``sheet ID`` prints a round robin's, Swiss's or
knockout's night sheet (a league fixture's result sheet with ``--round R --fixture F``);
``list``, ``next``, ``open`` and ``confirm`` do the rest. The commands that only read open the database read-only, so they
work while the app holds it; those that write are refused then, with the store's line.
Errors are one line and status 2, as everywhere in :mod:`scorekeeper.cli`.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from scorekeeper import text as _text
from scorekeeper.errors import EventError, ScorekeeperError, StoreError, TextError, short


def add_parser(sub: Any) -> None:
    """The ``event`` command and its own commands, on the ``scorekeeper`` parser's ``sub``."""
    ev = sub.add_parser("event", help="club nights, tournaments and leagues: draws, tables, standings, result sheets")
    cmds = ev.add_subparsers(dest="event_command", metavar="EVENT_COMMAND")
    cmds.required = True
    n = cmds.add_parser("new", help="make an event and draw what can be drawn; prints its id")
    n.add_argument("name", metavar="NAME", help="the event's name, e.g. 'Friday club night'")
    n.add_argument(
        "--format", required=True, choices=("round-robin", "swiss", "knockout", "league"), help="how it is played"
    )
    n.add_argument("--players", metavar="A,B,...", help="the players, in seeding order (round robin, Swiss, knockout)")
    n.add_argument(
        "--team",
        action="append",
        default=[],
        metavar="NAME=A,B,...",
        help="a league's team and its players, the captain first (repeat for each team)",
    )
    n.add_argument(
        "--vice",
        action="append",
        default=[],
        metavar="TEAM=PLAYER",
        help="a team's vice-captain, who may confirm its sheets too (repeat for each team)",
    )
    n.add_argument("--game", default="all-fives", metavar="GAME", help="the game of its matches (default all-fives)")
    n.add_argument("--preset", metavar="PRESET", help="the game's preset, e.g. muggins (default: the game's own rules)")
    n.add_argument(
        "--scoring", metavar="PRESET", help="singles (default), league-2-1 (a league's default) or league-3-1"
    )
    n.add_argument("--rounds", type=int, metavar="N", help="a Swiss's number of rounds")
    n.add_argument("--target", type=int, metavar="N", help="the points that win each match (default: the preset's)")
    n.add_argument("--singles", type=int, metavar="N", help="a league fixture's singles games (default 9)")
    n.add_argument("--doubles", type=int, metavar="N", help="a league fixture's doubles games (default 0)")
    n.add_argument(
        "--legs", type=int, default=2, choices=(1, 2), help="a league's teams meet once or home and away (2)"
    )
    n.add_argument("--id", dest="event_id", metavar="ID", help="the event's id (default: made up, ev-DATE-xxxxxx)")
    ls = cmds.add_parser("list", help="the events, oldest first")
    ls.add_argument("--json", action="store_true", help="print JSON")
    r = cmds.add_parser("rounds", help="every round drawn so far: its tables and byes")
    r.add_argument("id", metavar="ID")
    r.add_argument("--json", action="store_true", help="print JSON")
    s = cmds.add_parser("standings", help="the standings, worked out from the stored matches")
    s.add_argument("id", metavar="ID")
    s.add_argument("--json", action="store_true", help="print JSON")
    x = cmds.add_parser("next", help="draw the next round (Swiss: from the standings; knockout: the winners)")
    x.add_argument("id", metavar="ID")
    x.add_argument("--json", action="store_true", help="print the round as JSON")
    o = cmds.add_parser("open", help="create every table's match of a round, ready to play; prints their ids")
    o.add_argument("id", metavar="ID")
    o.add_argument("--round", type=int, required=True, metavar="R")
    o.add_argument("--json", action="store_true", help="print JSON")
    sh = cmds.add_parser(
        "sheet", help="a night's sheet (round robin, Swiss, knockout), or a league fixture's result sheet"
    )
    sh.add_argument("id", metavar="ID")
    sh.add_argument("--round", type=int, metavar="R", help="a league's round (with --fixture)")
    sh.add_argument("--fixture", type=int, metavar="F", help="a league fixture of that round")
    sh.add_argument("--csv", action="store_true", help="print CSV for a spreadsheet")
    c = cmds.add_parser("confirm", help="the host confirms a fixture's result sheet for a team (marked as the host's)")
    c.add_argument("id", metavar="ID")
    c.add_argument("--round", type=int, required=True, metavar="R")
    c.add_argument("--fixture", type=int, required=True, metavar="F")
    c.add_argument("--team", required=True, metavar="TEAM")
    c.add_argument(
        "--by", metavar="NAME", help="the captain or vice-captain whose word it is (e.g. on a signed paper sheet)"
    )
    ro = cmds.add_parser(
        "reopen", help="re-open a confirmed result sheet: its games may change, captains confirm again"
    )
    ro.add_argument("id", metavar="ID")
    ro.add_argument("--round", type=int, required=True, metavar="R")
    ro.add_argument("--fixture", type=int, required=True, metavar="F")


def run(args: argparse.Namespace) -> int:
    return int(globals()[f"_cmd_{args.event_command}"](args))


# ------------------------------------------------------------ opening the database
def _reading(args: argparse.Namespace) -> Any:
    from scorekeeper.store import Store

    return Store(args.db, read_only=True)


def _writing(args: argparse.Namespace) -> Any:
    from scorekeeper.store import Store

    return Store(args.db)


def _names(text: str, where: str) -> list[str]:
    """``"Ann, Ben"`` -> ``["Ann", "Ben"]`` (each name is checked with the rule for names later)."""
    names = [n.strip() for n in text.split(",")]
    if names == [""]:
        raise ScorekeeperError(f"{where}: give the names, separated by commas")
    return names


def _teams(given: list[str]) -> dict[str, list[str]]:
    teams: dict[str, list[str]] = {}
    for item in given:
        name, eq, players = item.partition("=")
        if not eq:
            raise ScorekeeperError(f"--team: {short(item)} is not NAME=PLAYER,PLAYER,...")
        name = name.strip()
        _text.check_name(name, "a team's name", field="--team")
        if any(_text.same_name(name, t) for t in teams):
            raise ScorekeeperError(f"--team: {short(name)} is given twice")
        teams[name] = _names(players, "--team")
    return teams


def _vices(given: list[str]) -> dict[str, str]:
    vices: dict[str, str] = {}
    for item in given:
        team, eq, player = item.partition("=")
        if not eq or not team.strip() or not player.strip():
            raise ScorekeeperError(f"--vice: {short(item)} is not TEAM=PLAYER")
        vices[team.strip()] = player.strip()
    return vices


def _out(data: Any) -> None:
    sys.stdout.write(_text.json_text(data) + "\n")


# ------------------------------------------------------------ the commands
#: The flag of ``event new`` that gives each field a new event's errors name (the events
#: name their own fields: ``players: ...`` is ``--players: ...`` here). A league's ``teams``
#: and ``vice`` are said as the events say them.
NEW_FLAGS = {
    "format": "--format",
    "players": "--players",
    "singles": "--singles",
    "doubles": "--doubles",
    "legs": "--legs",
    "rounds": "--rounds",
    "target": "--target",
    "game": "--game",
}


def _usage(field: str | None, fmt: str) -> tuple[str, str] | None:
    """The flag and the words of a flag given with a --format it does not go with: the events
    refuse the field; the command line says how to give what does."""
    league = fmt == "league"
    if field == "players" and league:
        return "--players", "a league is played by teams: give --team NAME=PLAYER,PLAYER,... for each"
    if field == "teams" and not league:
        return "--team", f"a {fmt} is played by players, not teams (a league is played by teams)"
    if field == "vices" and not league:
        return "--vice", "a vice-captain is a league team's (give --vice TEAM=PLAYER with --team)"
    if field == "singles" and not league:
        return "--singles", "--singles and --doubles are a league fixture's games"
    if field == "rounds" and fmt != "swiss":
        return "--rounds", f"--rounds is a Swiss's number of rounds; a {fmt}'s rounds follow from it"
    return None


def _as_given(e: EventError | TextError, args: argparse.Namespace) -> ScorekeeperError:
    """A new event's refusal (or its names') as the command line says it: its field named by
    the flag that gave it (``players`` -> ``--players``)."""
    usage = _usage(e.field, args.format)
    if usage is not None:
        return type(e)(usage[1], field=usage[0])
    flag = NEW_FLAGS.get(e.field or "")
    return e if flag is None else type(e)(e.reason, field=flag)


def _cmd_new(args: argparse.Namespace) -> int:
    from scorekeeper.cliout import OutputError, check_output
    from scorekeeper.eventbook import EventBook, new_id
    from scorekeeper.events import new_event

    players = _names(args.players, "--players") if args.players is not None else []
    teams = _teams(args.team)
    if args.format != "league" and not players:
        raise ScorekeeperError(f'--players: a {args.format} needs its players (--players "Ann,Ben,Cy")')
    vices = _vices(args.vice)
    try:
        event = new_event(
            args.event_id or new_id(),
            args.name,
            args.format,
            args.game,
            preset=args.preset,
            players=players,
            teams=teams or None,
            vices=vices or None,
            scoring=args.scoring,
            rounds=args.rounds,
            singles=args.singles,
            doubles=args.doubles,
            legs=args.legs,
            target=args.target,
        )
    except (EventError, TextError) as e:
        raise _as_given(e, args) from None
    check_output("no event was made")
    with _writing(args) as store:
        book = EventBook(store)
        event = book.add(event)
        try:
            print(event.id)
            sys.stdout.flush()
        except OutputError as e:
            if e.reader_gone:
                raise
            book.remove(event.id)
            raise e.noting("no event was made") from None
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events.summary import count, planned_rounds, rules_title, summary, targets

    with _reading(args) as store:
        events = EventBook(store).events()
    rows: list[dict[str, Any]] = [
        {
            "id": e.id,
            "name": e.name,
            "format": e.format,
            "game": e.game,
            "preset": e.preset,
            "rules": rules_title(e),
            "targets": targets(e),
            "entrants": list(e.entrants),
            "rounds": len(e.rounds),
            "planned_rounds": planned_rounds(e),
            "summary": summary(e),
            "created": e.created,
        }
        for e in events
    ]
    if args.json:
        _out({"events": rows})
        return 0
    if not rows:
        print("no events")
        return 0
    for e, r in zip(events, rows, strict=True):
        entrants = count(len(e.entrants), "team" if e.is_league else "player")
        print(_text.escape(f"{r['id']}  {r['name']}  {r['summary']} · {entrants}"))
    return 0


def rounds_json(event: Any) -> dict[str, Any]:
    """``{"rounds": [{"round", "tables": [{"table", "players"}], "byes"}]}``; a league's
    tables also name their ``sides``, ``fixture`` and ``game``, and its rounds the ``fixtures``."""
    out = []
    for r in event.rounds:
        tables = []
        for t in r.tables:
            row: dict[str, Any] = {"table": t.number, "players": list(t.players)}
            if len(t.sides[0]) > 1 or len(t.sides[1]) > 1 or event.is_league:
                row["sides"] = [list(s) for s in t.sides]
            if t.fixture is not None:
                row["fixture"] = t.fixture
                row["game"] = t.game
            tables.append(row)
        item: dict[str, Any] = {"round": r.number, "tables": tables, "byes": list(r.byes)}
        if r.fixtures:
            item["fixtures"] = [f.to_json() for f in r.fixtures]
        out.append(item)
    return {"rounds": out}


def rounds_text(event: Any) -> str:
    lines = [f"{event.name} ({event.format}, {event.game})"]
    for r in event.rounds:
        lines.append(f"Round {r.number}")
        fixtures = {f.number: f for f in r.fixtures}
        for t in r.tables:
            if t.fixture is not None and t.game == 1:
                f = fixtures[t.fixture]
                lines.append(f"  Fixture {f.number}: {f.home} v {f.away}")
            lines.append(f"  {'  ' if t.fixture else ''}Table {t.number}: {t.title}")
        if r.byes:
            lines.append(f"  bye: {', '.join(r.byes)}")
    return _text.terminal("\n".join(lines) + "\n")


def _cmd_rounds(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook

    with _reading(args) as store:
        event = EventBook(store).get(args.id)
    if args.json:
        _out(rounds_json(event))
    else:
        sys.stdout.write(rounds_text(event))
    return 0


def _cmd_standings(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook

    with _reading(args) as store:
        book = EventBook(store)
        event = book.get(args.id)
        rows = book.standings(args.id)
    if args.json:
        _out({"standings": [r.to_json(event.is_league) for r in rows]})
        return 0
    head = ["rank", "name", "played", "won"]
    head += ["drawn", "lost", "games", "points", "score"] if event.is_league else ["lost", "points", "score"]
    table = [head]
    for r in rows:
        cells = [str(r.rank), r.name, str(r.played), str(r.won)]
        if event.is_league:
            cells += [str(r.drawn), str(r.lost), f"{r.games_for}-{r.games_against}"]
        else:
            cells += [str(r.lost)]
        cells += [f"{r.points_for}-{r.points_against}", str(r.score)]
        table.append([_text.escape(c) for c in cells])
    widths = [max(len(row[c]) for row in table) for c in range(len(head))]
    print(_text.escape(f"{event.name}: {event.scoring.title}"))
    for row in table:
        print("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
    return 0


def _cmd_next(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook

    with _writing(args) as store:
        event = EventBook(store).next_round(args.id)
    last = event.rounds[-1]
    if args.json:
        _out({"round": rounds_json(event)["rounds"][-1]})
    else:
        sys.stdout.write(rounds_text(dataclasses.replace(event, rounds=(last,))))
    return 0


def _cmd_open(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook

    with _writing(args) as store:
        tables = EventBook(store).open_round(args.id, args.round)
    if args.json:
        _out({"tables": [{"table": t, "match": mid} for t, mid in tables.items()]})
    else:
        for t, mid in tables.items():
            print(f"table {t}: {mid}")
    return 0


def _cmd_sheet(args: argparse.Namespace) -> int:
    """A round robin's, Swiss's or knockout's night sheet; a league fixture's result sheet
    (``--round`` and ``--fixture``)."""
    from scorekeeper.cliout import write_utf8
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events.sheets import sheet_of

    with _reading(args) as store:
        book = EventBook(store)
        event = book.get(args.id)
        if event.is_league:
            if args.round is None or args.fixture is None:
                raise ScorekeeperError(
                    f"a league's result sheet is a fixture's: give --round R and --fixture F "
                    f"(see 'scorekeeper event rounds {event.id}')"
                )
            sheet: Any = sheet_of(event, args.round, args.fixture, book.results(event))
        elif args.round is not None or args.fixture is not None:
            raise ScorekeeperError(
                f"--round and --fixture are a league fixture's: a {event.format} has one sheet for the "
                f"whole night (scorekeeper event sheet {event.id})"
            )
        else:
            sheet = book.night(event.id)
    if args.csv:
        write_utf8(sheet.csv())
    else:
        sys.stdout.write(sheet.text())
    return 0


#: The flag of ``event confirm`` that gives each field a confirmation's errors name.
CONFIRM_FLAGS = {"team": "--team", "by": "--by"}


def _cmd_confirm(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook

    with _writing(args) as store:  # the command line is the host's: its confirmations are marked so
        try:
            c = EventBook(store).confirm(
                args.id, args.round, args.fixture, args.team, args.by or "the host", role="host", phone="host"
            )
        except ScorekeeperError as e:
            flag = CONFIRM_FLAGS.get(e.field or "")
            if flag is None or isinstance(e, StoreError):
                raise
            raise ScorekeeperError(e.reason, field=flag) from None
    print(_text.escape(f"confirmed for {c.team} by {c.words} at {c.at} ({c.games[0]}-{c.games[1]})"))
    return 0


def _cmd_reopen(args: argparse.Namespace) -> int:
    from scorekeeper.eventbook import EventBook
    from scorekeeper.events.sheets import Reopened

    with _writing(args) as store:
        r = EventBook(store).reopen(args.id, args.round, args.fixture)
    print(_text.escape(Reopened(r).words()))
    return 0
