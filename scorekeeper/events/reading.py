"""An event read back from its JSON: every field checked, the rounds against the entrants.

What is wrong is said in one line naming the field (``rounds[2].tables[1]: ...``), as an
:class:`~scorekeeper.errors.EventError`.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import EventError, ScorekeeperError, short, type_name
from scorekeeper.events.model import (
    CONFIRMERS,
    FORMATS,
    ID_RE,
    MAX_ENTRANTS,
    MAX_GAMES,
    MAX_ROUNDS,
    Confirmation,
    Event,
    Fixture,
    FixtureSheet,
    Reopening,
    Round,
    Scoring,
    Table,
    check_names,
    check_teams,
    event_name,
    preset_of,
    whole,
)

KEYS = (
    "id",
    "name",
    "format",
    "game",
    "preset",
    "players",
    "teams",
    "scoring",
    "planned",
    "sheet",
    "legs",
    "target",
    "created",
    "rounds",
    "confirmations",
    "reopened",
)


def _obj(value: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EventError(f"must be an object, not {type_name(value)}", field=where)
    for k in value:
        if k not in keys:
            raise EventError(f"unknown key {short(k)}", field=where)
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise EventError(f"must be a list, not {type_name(value)}", field=where)
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise EventError(f"must be a string, not {type_name(value)}", field=where)
    return _text.check_text(value, field=where)


def event_id(value: Any, where: str = "id") -> str:
    if not isinstance(value, str) or ID_RE.fullmatch(value) is None:
        raise EventError(
            f"an event's id is letters, digits, '.', '_' and '-' (at most 64), not {short(value)}", field=where
        )
    return value


def read_event(data: Any) -> Event:
    d = _obj(data, "event", KEYS)
    eid = event_id(d.get("id"))
    name = event_name(d.get("name"))
    fmt = d.get("format")
    if fmt not in FORMATS:
        raise EventError(f"no format {short(fmt)} (formats: {', '.join(FORMATS)})", field="format")
    game = d.get("game")
    if not isinstance(game, str) or game not in registry.ids():
        raise EventError(f"unknown game {short(game)} (known: {', '.join(registry.ids())})", field="game")
    preset = d.get("preset")
    if preset is not None:
        preset_of(game, _str(preset, "preset"))
    players: tuple[str, ...] = ()
    teams: tuple[Any, ...] = ()
    if fmt == "league":
        raw = _list(d.get("teams"), "teams")
        parsed: dict[str, list[str]] = {}
        vices: dict[str, str] = {}
        for i, t in enumerate(raw):
            t = _obj(t, f"teams[{i}]", ("name", "players", "vice"))
            tname = _text.check_name(t.get("name"), "a team's name", field=f"teams[{i}].name")
            if tname in parsed:
                raise EventError(f"{short(tname)} is listed twice", field="teams")
            parsed[tname] = _list(t.get("players"), f"teams[{i}].players")
            if t.get("vice") is not None:
                vices[tname] = _str(t.get("vice"), f"teams[{i}].vice")
        teams = check_teams(parsed, vices)
    else:
        if "teams" in d:
            raise EventError(f"a {fmt} is played by players, not teams", field="teams")
        players = check_names(_list(d.get("players"), "players"), "a player's name", "players")
        if not 2 <= len(players) <= MAX_ENTRANTS:
            raise EventError(f"an event has 2 to {MAX_ENTRANTS} players, not {len(players)}", field="players")
    scoring = Scoring.of(d.get("scoring"), fmt)
    planned = whole(d.get("planned", 0), "planned", 0, MAX_ROUNDS)
    sheet = FixtureSheet()
    if "sheet" in d:
        s = _obj(d["sheet"], "sheet", ("singles", "doubles"))
        sheet = FixtureSheet(
            whole(s.get("singles", 0), "sheet.singles", 0, MAX_GAMES),
            whole(s.get("doubles", 0), "sheet.doubles", 0, MAX_GAMES),
        )
        if sheet.games < 1 or sheet.games > MAX_GAMES:
            raise EventError(f"a fixture has 1 to {MAX_GAMES} games, not {sheet.games}", field="sheet")
    legs = whole(d.get("legs", 2), "legs", 1, 2)
    target = None if d.get("target") is None else whole(d.get("target"), "target", 1, 9999)
    created = _str(d.get("created", ""), "created")
    event = Event(eid, name, fmt, game, preset, players, teams, scoring, planned, sheet, legs, target, created)
    rounds = tuple(_round(event, r, i) for i, r in enumerate(_list(d.get("rounds", []), "rounds")))
    event = replace(event, rounds=rounds)
    confirmations = tuple(
        _confirmation(event, c, f"confirmations[{i}]")
        for i, c in enumerate(_list(d.get("confirmations", []), "confirmations"))
    )
    reopened = tuple(_reopening(event, r, i) for i, r in enumerate(_list(d.get("reopened", []), "reopened")))
    return replace(event, confirmations=confirmations, reopened=reopened)


def _round(event: Event, data: Any, i: int) -> Round:
    where = f"rounds[{i}]"
    d = _obj(data, where, ("round", "tables", "byes", "fixtures"))
    if d.get("round") != i + 1:
        raise EventError(f"must be round {i + 1}, not {short(d.get('round'))}", field=f"{where}.round")
    if i >= MAX_ROUNDS:
        raise EventError(f"an event has at most {MAX_ROUNDS} rounds", field="rounds")
    seated: dict[str, str] = {}
    known = {_text.name_key(p): p for p in event.everyone}
    team_of = {_text.name_key(p): t for t in event.teams for p in t.players}

    def seat(name: Any, at: str) -> str:
        if not isinstance(name, str) or _text.name_key(name) not in known:
            raise EventError(f"{short(name)} is not a player of the event", field=at)
        if event.is_league:
            return name  # a league's players play several games of a fixture
        k = _text.name_key(name)
        if k in seated:
            raise EventError(f"{short(name)} is drawn twice in the round", field=at)
        seated[k] = name
        return name

    tables = []
    for j, t in enumerate(_list(d.get("tables"), f"{where}.tables")):
        at = f"{where}.tables[{j}]"
        t = _obj(t, at, ("table", "sides", "fixture", "game"))
        if t.get("table") != j + 1:
            raise EventError(f"must be table {j + 1}, not {short(t.get('table'))}", field=f"{at}.table")
        sides = _list(t.get("sides"), f"{at}.sides")
        if len(sides) != 2:
            raise EventError(f"a table has 2 sides, not {len(sides)}", field=f"{at}.sides")
        both = tuple(tuple(seat(p, f"{at}.sides") for p in _list(s, f"{at}.sides")) for s in sides)
        if not all(1 <= len(s) <= 2 for s in both):
            raise EventError("a side is one or two players", field=f"{at}.sides")
        fixture = t.get("fixture")
        game = t.get("game")
        if event.is_league:
            fixture = whole(fixture, f"{at}.fixture", 1, MAX_ENTRANTS)
            game = whole(game, f"{at}.game", 1, MAX_GAMES)
        elif fixture is not None or game is not None:
            raise EventError("only a league's tables belong to fixtures", field=at)
        tables.append(Table(j + 1, (both[0], both[1]), fixture, game))
    byes = tuple(_bye(event, p, f"{where}.byes", seat) for p in _list(d.get("byes", []), f"{where}.byes"))
    fixtures = []
    for j, f in enumerate(_list(d.get("fixtures", []), f"{where}.fixtures")):
        at = f"{where}.fixtures[{j}]"
        f = _obj(f, at, ("fixture", "home", "away", "tables"))
        if f.get("fixture") != j + 1:
            raise EventError(f"must be fixture {j + 1}, not {short(f.get('fixture'))}", field=f"{at}.fixture")
        home, away = (event.team(x) if isinstance(x, str) else None for x in (f.get("home"), f.get("away")))
        if home is None or away is None or home is away:
            raise EventError("home and away must be two teams of the event", field=at)
        numbers = tuple(whole(n, f"{at}.tables", 1, len(tables)) for n in _list(f.get("tables"), f"{at}.tables"))
        for n in numbers:
            t = tables[n - 1]
            if t.fixture != j + 1 or not all(
                team_of.get(_text.name_key(s[0])) is x for s, x in zip(t.sides, (home, away), strict=True)
            ):
                raise EventError(f"table {n} is not a game of {home.name} v {away.name}", field=f"{at}.tables")
        fixtures.append(Fixture(j + 1, home.name, away.name, numbers))
    if event.is_league and sorted(n for f in fixtures for n in f.tables) != list(range(1, len(tables) + 1)):
        raise EventError("every table must be a game of one fixture", field=f"{where}.fixtures")
    return Round(i + 1, tuple(tables), byes, tuple(fixtures))


def _bye(event: Event, name: Any, where: str, seat: Any) -> str:
    """Who sits a round out: a player, or in a league a team."""
    if not event.is_league:
        return str(seat(name, where))
    team = event.team(name) if isinstance(name, str) else None
    if team is None:
        raise EventError(f"{short(name)} is not a team of the event", field=where)
    return team.name


def _reopening(event: Event, data: Any, i: int) -> Reopening:
    where = f"reopened[{i}]"
    d = _obj(data, where, ("round", "fixture", "at", "was"))
    was = tuple(
        _confirmation(event, c, f"{where}.was[{j}]") for j, c in enumerate(_list(d.get("was", []), f"{where}.was"))
    )
    rnd = whole(d.get("round"), f"{where}.round", 1, max(1, len(event.rounds)))
    number = whole(d.get("fixture"), f"{where}.fixture", 1, MAX_ENTRANTS)
    try:
        event.fixture(rnd, number)
    except ScorekeeperError as e:
        raise EventError(e.reason, field=where) from None
    if any((c.round, c.fixture) != (rnd, number) for c in was):
        raise EventError("a re-opened sheet sets aside its own fixture's confirmations only", field=f"{where}.was")
    return Reopening(rnd, number, _str(d.get("at"), f"{where}.at"), was)


def _confirmation(event: Event, data: Any, where: str) -> Confirmation:
    d = _obj(data, where, ("round", "fixture", "team", "by", "at", "games", "as", "phone"))
    rnd = whole(d.get("round"), f"{where}.round", 1, max(1, len(event.rounds)))
    number = whole(d.get("fixture"), f"{where}.fixture", 1, MAX_ENTRANTS)
    try:
        f = event.fixture(rnd, number)
    except ScorekeeperError as e:
        raise EventError(e.reason, field=where) from None
    team = _str(d.get("team"), f"{where}.team")
    if team not in (f.home, f.away):
        raise EventError(f"{short(team)} does not play fixture {f.number}", field=f"{where}.team")
    by = _text.check_name(d.get("by"), field=f"{where}.by")
    games = _list(d.get("games"), f"{where}.games")
    if len(games) != 2:
        raise EventError("must be the two teams' games won", field=f"{where}.games")
    won = (whole(games[0], f"{where}.games", 0, MAX_GAMES), whole(games[1], f"{where}.games", 0, MAX_GAMES))
    role = d.get("as", "captain")
    if role not in CONFIRMERS:
        raise EventError(f"must be one of {', '.join(CONFIRMERS)}, not {short(role)}", field=f"{where}.as")
    phone = d.get("phone")
    if phone is not None and not (isinstance(phone, str) and (phone == "host" or re.fullmatch(r"[0-9a-f]{16}", phone))):
        raise EventError(f"must be a phone's digest (16 hex digits), not {short(phone)}", field=f"{where}.phone")
    return Confirmation(rnd, f.number, team, by, _str(d.get("at"), f"{where}.at"), won, role, phone)
