"""Making an event and drawing its rounds.

A round robin and a league are drawn whole when the event is made (their rounds do not
depend on results); a Swiss and a knockout draw round 1 then, and each next round when
the round before it is finished (:func:`next_round`: Swiss from the standings, knockout
from the winners).

>>> e = new_event("ev-1", "Club night", "round-robin", "all-fives", players=["Ann", "Ben", "Cy", "Di"])
>>> [(t.number, t.title) for t in e.rounds[0].tables]
[(1, 'Ann v Di'), (2, 'Ben v Cy')]
>>> len(e.rounds)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import EventError, ScorekeeperError, short
from scorekeeper.events import pairing
from scorekeeper.events.model import (
    FORMATS,
    MAX_ENTRANTS,
    MAX_GAMES,
    MAX_ROUNDS,
    Event,
    Fixture,
    FixtureSheet,
    Round,
    Scoring,
    Table,
    check_names,
    check_teams,
    event_name,
    preset_of,
    whole,
)
from scorekeeper.events.reading import event_id
from scorekeeper.events.standings import Result, latest, standings


def new_event(
    eid: str,
    name: str,
    fmt: str,
    game: str,
    *,
    preset: str | None = None,
    players: Sequence[str] = (),
    teams: Mapping[str, Sequence[str]] | None = None,
    vices: Mapping[str, str] | None = None,
    scoring: Any = None,
    rounds: int | None = None,
    singles: int | None = None,
    doubles: int | None = None,
    legs: int = 2,
    target: int | None = None,
    created: str = "",
) -> Event:
    """A new event, checked, with what can be drawn already drawn. ``rounds``: a Swiss's
    number of rounds (default: as many as a round robin would have, at most 5);
    ``singles``/``doubles``: a league fixture's games (default 9 singles); ``legs``: a
    league's teams meet once (1) or home and away (2); ``vices``: a team's vice-captain, by
    team name."""
    event_id(eid)
    event_name(name)
    if fmt not in FORMATS:
        raise EventError(f"no format {short(fmt)} (formats: {', '.join(FORMATS)})", field="format")
    registry.get(game)
    preset_of(game, preset)
    sheet = FixtureSheet()
    planned = 0
    team_t: tuple[Any, ...] = ()
    player_t: tuple[str, ...] = ()
    if fmt == "league":
        if players:
            raise EventError("a league is played by teams, not players", field="players")
        team_t = check_teams(teams or {}, vices)
        sheet = FixtureSheet(
            whole(9 if singles is None and not doubles else singles or 0, "singles", 0, MAX_GAMES),
            whole(doubles or 0, "doubles", 0, MAX_GAMES),
        )
        if not 1 <= sheet.games <= MAX_GAMES:
            raise EventError(f"a fixture has 1 to {MAX_GAMES} games, not {sheet.games}", field="singles")
        if sheet.doubles and min(len(t.players) for t in team_t) < 2:
            raise EventError("doubles games need at least 2 players in every team", field="doubles")
        whole(legs, "legs", 1, 2)
    else:
        if teams:
            raise EventError(f"a {fmt} is played by players, not teams (a league is played by teams)", field="teams")
        if vices:
            raise EventError("a vice-captain is a league team's", field="vices")
        if singles is not None or doubles is not None:
            raise EventError("singles and doubles games are a league fixture's", field="singles")
        player_t = check_names(list(players), "a player's name", "players")
        if not 2 <= len(player_t) <= MAX_ENTRANTS:
            raise EventError(f"an event has 2 to {MAX_ENTRANTS} players, not {len(player_t)}", field="players")
    if fmt == "swiss":
        most = len(player_t) - 1 if len(player_t) % 2 == 0 else len(player_t)
        planned = whole(rounds if rounds is not None else min(5, most), "rounds", 1, min(most, MAX_ROUNDS))
    elif rounds is not None:
        raise EventError(f"a Swiss has a number of rounds; a {fmt}'s rounds follow from it", field="rounds")
    event = Event(
        eid,
        name,
        fmt,
        game,
        preset,
        player_t,
        team_t,
        Scoring.of(scoring, fmt),
        planned,
        sheet,
        legs,
        None if target is None else whole(target, "target", 1, 9999),
        created,
    )
    if fmt == "round-robin":
        # Berger's pairing numbers from the last listed up, so that with an odd number the
        # last listed sits out round 1; each table's players in the order they were listed
        place = {p: i for i, p in enumerate(player_t)}
        for i, pairs in enumerate(pairing.round_robin(player_t[::-1]), 1):
            ordered = [(a, b) if b is None or place[a] < place[b] else (b, a) for a, b in pairs]
            event = event.with_round(_singles_round(i, ordered))
    elif fmt == "league":
        for i, pairs in enumerate(pairing.round_robin([t.name for t in team_t], legs), 1):
            event = event.with_round(_league_round(event, i, pairs))
    elif fmt == "swiss":
        home, bye = pairing.swiss(player_t, set(), set())
        event = event.with_round(_singles_round(1, [*home, *([(bye, None)] if bye else [])]))
    else:
        event = event.with_round(_knockout_first(player_t))
    _check_playable(event)
    return event


def _check_playable(event: Event) -> None:
    """Refuse an event whose game cannot be played at its tables (All Fours 1 v 1 is fine,
    Broadway needs four players): a new match of each shape of table goes through the
    game's engine, with the event's preset."""
    game = registry.get(event.game)
    shapes: set[tuple[int, int]] = set()
    for rnd in event.rounds[:2]:
        for t in rnd.tables:
            shape = (len(t.sides[0]), len(t.sides[1]))
            if shape in shapes:
                continue
            shapes.add(shape)
            try:
                game.load(event.record_for(rnd.number, t.number))
            except ScorekeeperError as e:
                how = " v ".join(str(n) for n in shape)
                raise EventError(f"{game.title} cannot be played {how} at a table ({e})", field="game") from None


def _singles_round(number: int, pairs: Iterable[tuple[str, str | None]]) -> Round:
    tables: list[Table] = []
    byes: list[str] = []
    for a, b in pairs:
        if b is None:
            byes.append(a)
        else:
            tables.append(Table(len(tables) + 1, ((a,), (b,))))
    return Round(number, tuple(tables), tuple(byes))


def _league_round(event: Event, number: int, pairs: Sequence[tuple[str, str | None]]) -> Round:
    tables: list[Table] = []
    fixtures: list[Fixture] = []
    byes: list[str] = []
    for home, away in pairs:
        if away is None:
            byes.append(home)
            continue
        h, a = event.team(home), event.team(away)
        assert h is not None and a is not None
        n = len(fixtures) + 1
        games = pairing.team_sheet(
            h.players, a.players, event.sheet.singles, event.sheet.doubles, f"{event.id}/{number}/{h.name}/{a.name}"
        )
        first = len(tables) + 1
        for g, (hs, aws) in enumerate(games, 1):
            tables.append(Table(len(tables) + 1, (hs, aws), n, g))
        fixtures.append(Fixture(n, h.name, a.name, tuple(range(first, len(tables) + 1))))
    return Round(number, tuple(tables), tuple(byes), tuple(fixtures))


def _knockout_first(seeds: Sequence[str]) -> Round:
    return _singles_round(
        1, [(seeds[a - 1], None if b is None else seeds[b - 1]) for a, b in pairing.knockout_order(len(seeds))]
    )


# ---------------------------------------------------------------- the next round
def unfinished(event: Event, results: Iterable[Result]) -> list[int]:
    """The tables of the last round that have no result yet."""
    if not event.rounds:
        return []
    last = event.rounds[-1]
    done = latest(results)
    return [t.number for t in last.tables if (last.number, t.number) not in done]


def _all_drawn(event: Event) -> bool:
    """No round is left to draw: a Swiss's planned rounds are, a knockout is down to its
    final; a round robin and a league are drawn whole."""
    if not event.rounds:
        return False
    if event.format == "swiss":
        return len(event.rounds) >= event.planned
    if event.format == "knockout":
        last = event.rounds[-1]
        return len(last.tables) + len(last.byes) == 1
    return True


def is_complete(event: Event, results: Iterable[Result]) -> bool:
    """Whether the event is over: every round drawn, and every table of every round played
    (a round robin's round 3 played before round 2 is not the end of it)."""
    done = latest(results)
    if any((r.number, t.number) not in done for r in event.rounds for t in r.tables):
        return False
    return _all_drawn(event)


def next_round(event: Event, results: Iterable[Result]) -> Event:
    """The event with its next round drawn: a Swiss's from the standings after the rounds
    played, a knockout's from the winners. Refused while a table of the last round has
    no result, once the event is over, and for the formats drawn whole."""
    results = list(results)
    if event.format not in ("swiss", "knockout"):
        raise EventError(f"a {event.format}'s rounds were all drawn when it was made ({len(event.rounds)} rounds)")
    if is_complete(event, results):
        raise EventError(f"event {event.id} is over: every round is played")
    waiting = unfinished(event, results)
    if waiting:
        tables = ", ".join(map(str, waiting))
        raise EventError(f"round {len(event.rounds)} is not finished: no result yet at table {tables}")
    if _all_drawn(event):  # the last round is played, a table of an earlier one has lost its result
        raise EventError(f"event {event.id} has every round drawn: there is no next round")
    number = len(event.rounds) + 1
    if event.format == "swiss":
        ranked = [s.name for s in standings(event, results)]
        met = {frozenset((t.sides[0][0], t.sides[1][0])) for r in event.rounds for t in r.tables}
        had = {p for r in event.rounds for p in r.byes}
        pairs, bye = pairing.swiss(ranked, met, had)
        return event.with_round(_singles_round(number, [*pairs, *([(bye, None)] if bye else [])]))
    done = latest(results)
    winners: list[str] = []
    last = event.rounds[-1]
    for slot in _bracket(event, last):
        if isinstance(slot, str):
            winners.append(slot)
        else:
            r = done[(last.number, slot.number)]
            if r.winner is None:
                raise EventError(f"table {slot.number} of round {last.number} was drawn: a knockout needs a winner")
            winners.append(slot.sides[r.winner][0])
    pairs = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
    return event.with_round(_singles_round(number, pairs))


def _bracket(event: Event, rnd: Round) -> list[Table | str]:
    """A knockout round's places in bracket order: a table, or a player with a bye."""
    if rnd.number > 1:
        return list(rnd.tables)
    tables = iter(rnd.tables)
    out: list[Table | str] = []
    for a, b in pairing.knockout_order(len(event.players)):
        out.append(event.players[a - 1] if b is None else next(tables))
    return out
