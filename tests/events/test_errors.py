"""Every error of the events: one line, a ScorekeeperError (so a ValueError), naming what is
wrong -- made from the command line's options, read back from events.json, or a record's
``"event"``."""

from __future__ import annotations

import copy
import json

import pytest

from scorekeeper.envelope import Envelope
from scorekeeper.errors import EventError, RecordFormatError, ScorekeeperError
from scorekeeper.events import is_complete, new_event, next_round, read_event, result_for
from scorekeeper.events.pairing import knockout_order, round_robin, swiss, team_sheet

FOUR = ["Ann", "Ben", "Cy", "Di"]
TEAMS = {"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}


def refused(call, *parts, error=ScorekeeperError):
    with pytest.raises(error) as e:
        call()
    text = str(e.value)
    assert "\n" not in text and isinstance(e.value, ValueError)
    for p in parts:
        assert p in text, text
    return text


# ------------------------------------------------------------ making an event
@pytest.mark.parametrize(
    "kwargs, parts",
    [
        ({"eid": "bad id"}, ["an event's id is letters, digits"]),
        ({"name": ""}, ["an event's name must be a non-empty string"]),
        ({"name": "a\x1bb"}, ["an event's name must be printable", "terminal escape"]),
        ({"name": "x" * 81}, ["an event's name must be at most 80 characters, not 81"]),
        ({"fmt": "ladder"}, ["format: no format 'ladder' (formats: round-robin, swiss, knockout, league)"]),
        ({"game": "chess"}, ["game: unknown game 'chess'"]),
        ({"preset": "nope"}, ["preset: All Fives has no preset 'nope' (presets: "]),
        ({"players": ["Ann"]}, ["players: an event has 2 to 256 players, not 1"]),
        ({"players": ["Ann", "ann "]}, ["'Ann' and 'ann ' are the same name"]),
        ({"players": ["Ann", "Ben\n"]}, ["a player's name must be printable"]),
        ({"teams": TEAMS}, ["teams: a round-robin is played by players, not teams"]),
        ({"singles": 3}, ["singles: singles and doubles games are a league fixture's"]),
        ({"rounds": 3}, ["rounds: a Swiss has a number of rounds; a round-robin's rounds follow from it"]),
        ({"fmt": "swiss", "rounds": 4}, ["rounds: must be 1 to 3, not 4"]),
        ({"fmt": "swiss", "rounds": "2"}, ["rounds: must be a whole number, not a string '2'"]),
        ({"scoring": "league-3-1"}, ["scoring.preset: 'league-3-1' is not a scoring for players' events"]),
        ({"scoring": "nope"}, ["scoring.preset: no scoring preset 'nope' (presets: singles, league-2-1, league-3-1)"]),
        ({"scoring": {"won": -1}}, ["scoring.won: must be 0 to 99, not -1"]),
        ({"scoring": {"wins": 1}}, ["scoring: unknown key 'wins'"]),
        ({"scoring": 3}, ["scoring: must be a preset's name or an object, not a number"]),
        ({"game": "broadway"}, ["game: Broadway cannot be played 1 v 1 at a table", "four players"]),
        ({"fmt": "league", "teams": TEAMS, "players": FOUR}, ["players: a league is played by teams, not players"]),
        ({"fmt": "league", "teams": {"Reds": ["Ann"]}}, ["teams: a league needs at least 2 teams, not 1"]),
        ({"fmt": "league", "teams": {"Reds": [], "Blues": ["Ben"]}}, ["teams: team 'Reds' has no players"]),
        ({"fmt": "league", "teams": {"Reds": ["Ann"], "Blues": ["ann"]}}, ["'Ann' and 'ann' are the same name"]),
        ({"fmt": "league", "teams": {"Reds": ["Ann"], "reds": ["Ben"]}}, ["'Reds' and 'reds' are the same name"]),
        (
            {"fmt": "league", "teams": {"Reds": [f"P{i}" for i in range(31)], "B": ["x"]}},
            ["has 31 players (at most 30)"],
        ),
        ({"fmt": "league", "teams": TEAMS, "singles": 0}, ["singles: a fixture has 1 to 30 games, not 0"]),
        ({"fmt": "league", "teams": TEAMS, "singles": 31}, ["singles: must be 0 to 30, not 31"]),
        (
            {"fmt": "league", "teams": {"R": ["Ann"], "B": ["Ben", "Di"]}, "doubles": 1},
            ["doubles: doubles games need"],
        ),
        ({"fmt": "league", "teams": TEAMS, "legs": 3}, ["legs: must be 1 to 2, not 3"]),
    ],
)
def test_a_new_event_that_cannot_be_made(kwargs, parts):
    args = {"eid": "e1", "name": "Night", "fmt": "round-robin", "game": "all-fives", "players": FOUR}
    args.update(kwargs)
    if args["fmt"] == "league" and "players" not in kwargs:
        args["players"] = []
    eid, name, fmt, game = args.pop("eid"), args.pop("name"), args.pop("fmt"), args.pop("game")
    refused(lambda: new_event(eid, name, fmt, game, **args), *parts)


def test_too_many_players():
    refused(lambda: new_event("e", "N", "swiss", "all-fives", players=[f"P{i}" for i in range(257)]), "not 257")


def test_pairing_needs_two():
    refused(lambda: round_robin(["A"]), "a round robin needs at least 2 entrants, not 1", error=EventError)
    refused(lambda: swiss(["A"], set(), set()), "a Swiss round needs at least 2 players, not 1", error=EventError)
    refused(lambda: knockout_order(1), "a knockout needs at least 2 players, not 1", error=EventError)
    refused(lambda: team_sheet(["A"], ["B", "C"], 0, 1, "s"), "doubles games need at least 2 players in each team")


# ------------------------------------------------------------ rounds, tables, fixtures
def test_rounds_tables_and_fixtures_that_are_not_there():
    e = new_event("e1", "Night", "swiss", "all-fives", players=FOUR, rounds=2)
    refused(lambda: e.round(3), "round: event e1 has no round 3 (rounds 1 to 1)")
    refused(lambda: e.table(1, 5), "round 1 of event e1 has tables 1 to 2, not 5")
    refused(lambda: e.fixture(1, 1), "fixture: event e1 has no fixtures: result sheets are a league's")
    lg = new_event("lg", "L", "league", "all-fives", teams=TEAMS, singles=1, legs=1)
    refused(lambda: lg.fixture(1, 2), "fixture: round 1 has fixtures 1 to 1, not 2")
    empty = read_event(dict(e.to_json(), rounds=[]))
    refused(lambda: empty.round(1), "no round is drawn yet")


def test_next_round_refusals():
    rr = new_event("rr", "N", "round-robin", "all-fives", players=FOUR)
    refused(lambda: next_round(rr, []), "a round-robin's rounds were all drawn when it was made (3 rounds)")
    sw = new_event("sw", "N", "swiss", "all-fives", players=FOUR, rounds=1)
    refused(lambda: next_round(sw, []), "round 1 is not finished: no result yet at table 1, 2")
    done = [result_for(sw, 1, t.number, t.sides, (5, 0), 0) for t in sw.rounds[0].tables]
    refused(lambda: next_round(sw, done), "event sw is over: every round is played")
    ko = new_event("ko", "N", "knockout", "all-fives", players=FOUR)
    drawn = [result_for(ko, 1, t.number, t.sides, (5, 5), None) for t in ko.rounds[0].tables]
    refused(lambda: next_round(ko, drawn), "table 1 of round 1 was drawn: a knockout needs a winner")


def test_an_event_is_over_only_when_every_round_is_played():
    rr = new_event("rr", "N", "round-robin", "all-fives", players=FOUR)
    last = [result_for(rr, 3, t.number, t.sides, (5, 0), 0) for t in rr.rounds[2].tables]
    assert not is_complete(rr, last)  # round 3 played first: rounds 1 and 2 are still to play
    everything = [result_for(rr, r.number, t.number, t.sides, (5, 0), 0) for r in rr.rounds for t in r.tables]
    assert is_complete(rr, everything)
    sw = new_event("sw", "N", "swiss", "all-fives", players=FOUR, rounds=2)
    first = [result_for(sw, 1, t.number, t.sides, (5, 0), 0) for t in sw.rounds[0].tables]
    sw = next_round(sw, first)
    second = [result_for(sw, 2, t.number, t.sides, (5, 0), 0) for t in sw.rounds[1].tables]
    assert is_complete(sw, first + second) and not is_complete(sw, first[1:] + second)
    refused(lambda: next_round(sw, first[1:] + second), "event sw has every round drawn: there is no next round")


# ------------------------------------------------------------ events.json read back
def good():
    lg = new_event("lg", "L", "league", "all-fives", teams={"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}, singles=2)
    return json.loads(json.dumps(lg.to_json()))


def change(path, value):
    data = good()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "path, value, parts",
    [
        (("extra",), 1, ["event: unknown key 'extra'"]),
        (("format",), "ladder", ["format: no format 'ladder'"]),
        (("game",), 3, ["game: unknown game 3"]),
        (("preset",), 3, ["preset: must be a string, not a number"]),
        (("teams",), {}, ["teams: must be a list, not an object"]),
        (("teams", 0), "Reds", ["teams[0]: must be an object, not a string"]),
        (("teams", 1, "name"), "Reds", ["teams: 'Reds' is listed twice"]),
        (("teams", 0, "players"), None, ["teams[0].players: must be a list, not null"]),
        (("sheet",), {"singles": 0}, ["sheet: a fixture has 1 to 30 games, not 0"]),
        (("sheet", "triples"), 1, ["sheet: unknown key 'triples'"]),
        (("legs",), 0, ["legs: must be 1 to 2, not 0"]),
        (("created",), 5, ["created: must be a string, not a number"]),
        (("rounds", 0, "round"), 2, ["rounds[0].round: must be round 1, not 2"]),
        (("rounds", 0, "tables", 0, "table"), 9, ["rounds[0].tables[0].table: must be table 1, not 9"]),
        (("rounds", 0, "tables", 0, "sides"), [["Ann"]], ["a table has 2 sides, not 1"]),
        (("rounds", 0, "tables", 0, "sides"), [["Ann", "Cy", "Ann"], ["Ben"]], ["a side is one or two players"]),
        (("rounds", 0, "tables", 0, "sides"), [["Zed"], ["Ben"]], ["'Zed' is not a player of the event"]),
        (
            ("rounds", 0, "tables", 0, "fixture"),
            None,
            ["rounds[0].tables[0].fixture: must be a whole number, not null"],
        ),
        (("rounds", 0, "byes"), ["Ann"], ["rounds[0].byes: 'Ann' is not a team of the event"]),
        (("rounds", 0, "fixtures", 0, "fixture"), 5, ["must be fixture 1, not 5"]),
        (("rounds", 0, "fixtures", 0, "home"), "Blues", ["home and away must be two teams of the event"]),
        (
            ("rounds", 0, "fixtures", 0, "tables"),
            [1],
            ["rounds[0].fixtures: every table must be a game of one fixture"],
        ),
        (("rounds", 0, "fixtures", 0, "tables"), [1, 2, 3], ["rounds[0].fixtures[0].tables: must be 1 to 2, not 3"]),
        (("confirmations",), [{"round": 1}], ["confirmations[0].fixture: must be a whole number, not null"]),
    ],
)
def test_a_damaged_event_is_one_line_naming_the_field(path, value, parts):
    refused(lambda: read_event(change(path, value)), *parts, error=EventError)


def test_a_singles_round_read_back():
    e = json.loads(json.dumps(new_event("e", "N", "round-robin", "all-fives", players=FOUR).to_json()))
    twice = copy.deepcopy(e)
    twice["rounds"][0]["tables"][1]["sides"] = [["Ann"], ["Cy"]]
    refused(lambda: read_event(twice), "'Ann' is drawn twice in the round", error=EventError)
    fixture = copy.deepcopy(e)
    fixture["rounds"][0]["tables"][0]["fixture"] = 1
    refused(lambda: read_event(fixture), "only a league's tables belong to fixtures", error=EventError)
    teams = dict(e, teams=[])
    refused(lambda: read_event(teams), "teams: a round-robin is played by players, not teams", error=EventError)
    refused(lambda: read_event([]), "event: must be an object, not a list", error=EventError)


def test_a_confirmation_read_back():
    lg = new_event("lg", "L", "league", "all-fives", teams=TEAMS, singles=1, legs=1)
    base = {"round": 1, "fixture": 1, "team": "Reds", "by": "Ann", "at": "2026-01-01T20:00:00Z", "games": [1, 0]}
    for change_, part in [
        ({"team": "Greens"}, "confirmations[0].team: 'Greens' does not play fixture 1"),
        ({"games": [1]}, "confirmations[0].games: must be the two teams' games won"),
        ({"fixture": 2}, "confirmations[0]: round 1 has fixtures 1 to 1, not 2"),
        ({"by": ""}, "confirmations[0].by: a player's name must be a non-empty string"),
    ]:
        data = dict(lg.to_json(), confirmations=[dict(base, **change_)])
        refused(lambda data=data: read_event(data), part, error=ScorekeeperError)


# ------------------------------------------------------------ a record's "event"
@pytest.mark.parametrize(
    "event, part",
    [
        ("club", "event: must be an object of id, round and table, not a string"),
        ({"id": "c", "round": 1}, "event: the event's table is missing"),
        ({"id": "c", "round": 1, "table": 1, "seat": 2}, "event: unknown key 'seat' (keys: id, round, table)"),
        ({"id": "", "round": 1, "table": 1}, "event.id: must be an event's id"),
        (
            {"id": 7, "round": 1, "table": 1},
            "event.id: must be an event's id (letters, digits, '.', '_' and '-', at most 64), not a number",
        ),
        ({"id": "c", "round": 1.0, "table": 1}, "event.round: must be a whole number from 1, not a number"),
        ({"id": "c", "round": 1, "table": 0}, "event.table: must be 1 to 100000, not 0"),
        ({"id": "c", "round": True, "table": 1}, "event.round: must be a whole number from 1, not a boolean"),
    ],
)
def test_a_records_event_field_that_is_wrong(event, part):
    record = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"], "event": event}
    refused(lambda: Envelope.parse(record), part, error=RecordFormatError)
