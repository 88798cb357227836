"""A fixture's result sheet as a club sends it to the league, and the league's check of it.

The sheet is JSON (``scorekeeper-league-sheet/1``): the fixture's id, its home and away
teams, each game's players (home side first), its scores and the match record it was
played in, the totals the sheet claims, and who confirmed it for each team::

    {"format": "scorekeeper-league-sheet/1", "fixture": 12, "home": "Reds", "away": "Blues",
     "games": [{"home": ["Ann"], "away": ["Ben"], "scores": [61, 40], "record": {...}}, ...],
     "totals": {"games": [5, 4], "points": [512, 431]},
     "confirmed": {"home": {"by": "Ann", "at": "2026-11-29T22:30:00Z"}, "away": null}}

Its **digest** (SHA-256 of the sheet written one way: keys sorted, no spaces) names a
version: the same sheet sent twice is the same version; a changed one is a new version.
Its **content** digest leaves the confirmations out: two clubs that sent one result,
each confirmed by its own captain, sent the same content.

The league trusts no total: :func:`check` scores every game's match record again with
the game's engine (:func:`scorekeeper.registry.game_of`) and refuses a sheet whose
scores, games won or points do not follow from its records, whose players are not the
teams', or that no captain confirmed. Every refusal is one line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError, short, type_name

FORMAT = "scorekeeper-league-sheet/1"
#: The largest sheet taken (30 games of long records are well under it).
LIMIT = 4 << 20


class SheetError(ScorekeeperError):
    """A sheet the league does not take (one line, said to the club)."""


@dataclass(frozen=True, slots=True)
class TeamInfo:
    """What the league knows of a team: its name, players, captain and vice-captain."""

    name: str
    players: tuple[str, ...]
    captain: str
    vice: str | None = None
    #: Each player's :func:`~scorekeeper.text.name_key`: :meth:`has` is one look-up.
    keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset(_text.name_key(p) for p in self.players))

    def leads(self, name: str) -> bool:
        return _text.same_name(name, self.captain) or (self.vice is not None and _text.same_name(name, self.vice))

    def has(self, name: str) -> bool:
        """Whether ``name`` is one of the players (another spelling of one: :func:`~scorekeeper.text.same_name`)."""
        return _text.name_key(name) in self.keys


@dataclass(frozen=True, slots=True)
class FixtureInfo:
    """What a sheet is checked against: the fixture, its teams, the season's game and games."""

    id: int
    home: TeamInfo
    away: TeamInfo
    game: str
    games: int


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a checked sheet: the sides (home first), the scores, the side that won."""

    home: tuple[str, ...]
    away: tuple[str, ...]
    scores: tuple[int, int]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"home": list(self.home), "away": list(self.away), "scores": list(self.scores), "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Checked:
    """A sheet the league takes: its games, totals, confirmations and digests."""

    games: tuple[Game, ...]
    games_won: tuple[int, int]
    points: tuple[int, int]
    confirmed_home: str | None
    confirmed_away: str | None
    digest: str
    content: str


def canonical(doc: Any) -> bytes:
    """The one way a sheet is written for its digest."""
    return _canonical_text(doc).encode("utf-8")


def digest(doc: Any) -> str:
    """The version's name: SHA-256 of the sheet's canonical form."""
    return hashlib.sha256(canonical(doc)).hexdigest()


def content_digest(doc: dict[str, Any]) -> str:
    """The result's name: the digest of the sheet without its confirmations."""
    return digest({k: v for k, v in doc.items() if k != "confirmed"})


def digests(doc: Any) -> tuple[str, str | None]:
    """The sheet's :func:`digest` and, when it is a JSON object, its :func:`content_digest`
    (else None), with each key's value written once: the canonical form of an object is
    its keys in order, each with its value's canonical form, so the content's is the same
    parts but the confirmations'."""
    if not isinstance(doc, dict) or not all(isinstance(k, str) for k in doc):
        return digest(doc), None
    parts = {k: f"{json.dumps(k, ensure_ascii=False)}:{_canonical_text(v)}" for k, v in doc.items()}
    order = sorted(parts)
    full = "{" + ",".join(parts[k] for k in order) + "}"
    content = "{" + ",".join(parts[k] for k in order if k != "confirmed") + "}"
    return hashlib.sha256(full.encode("utf-8")).hexdigest(), hashlib.sha256(content.encode("utf-8")).hexdigest()


def _canonical_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _pair(value: Any, where: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int or v < 0 for v in value):
        raise SheetError(f"{where} must be two whole numbers (home, away), not {short(value)}")
    return value[0], value[1]


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise SheetError(f"{where} must be a list of 1 to 4 players, not {short(value)}")
    for v in value:
        _text.check_name(v, "a player's name", field=where)
    return tuple(value)


def _keys(side: Sequence[str]) -> frozenset[str]:
    return frozenset(_text.name_key(p) for p in side)


def check(doc: Any, fixture: FixtureInfo, known: str | None = None, content: str | None = None) -> Checked:
    """The sheet ``doc`` checked against ``fixture`` and scored again (see the module);
    ``known`` and ``content``: its :func:`digest` and :func:`content_digest`, reckoned
    already (:func:`digests`)."""
    if not isinstance(doc, dict):
        raise SheetError(f"a sheet must be a JSON object, not {type_name(doc)}")
    unknown = set(doc) - {"format", "fixture", "home", "away", "games", "totals", "confirmed"}
    if unknown:
        raise SheetError(f"a sheet has no key {short(sorted(unknown)[0])}")
    if doc.get("format") != FORMAT:
        raise SheetError(f"format must be {FORMAT!r}, not {short(doc.get('format'))}")
    if doc.get("fixture") != fixture.id:
        raise SheetError(
            f"this is fixture {fixture.id}'s address, and the sheet is fixture {short(doc.get('fixture'))}'s"
        )
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        if not isinstance(doc.get(side), str) or not _text.same_name(doc[side], team.name):
            raise SheetError(f"the {side} team is {team.name}, not {short(doc.get(side))}")
    raw = doc.get("games")
    if not isinstance(raw, list) or len(raw) != fixture.games:
        count = len(raw) if isinstance(raw, list) else short(raw)
        raise SheetError(f"a fixture has {fixture.games} games, and the sheet has {count}")
    games = tuple(_game(g, i, fixture) for i, g in enumerate(raw, 1))
    won = (sum(g.winner == 0 for g in games), sum(g.winner == 1 for g in games))
    points = (sum(g.scores[0] for g in games), sum(g.scores[1] for g in games))
    totals = doc.get("totals")
    if not isinstance(totals, dict) or set(totals) != {"games", "points"}:
        raise SheetError('totals must be {"games": [home, away], "points": [home, away]}')
    if _pair(totals["games"], "totals.games") != won:
        raise SheetError(f"the sheet says games {short(totals['games'])}; its records give {won[0]}-{won[1]}")
    if _pair(totals["points"], "totals.points") != points:
        raise SheetError(f"the sheet says points {short(totals['points'])}; its records give {points[0]}-{points[1]}")
    home_by, away_by = _confirmed(doc.get("confirmed"), fixture)
    return Checked(games, won, points, home_by, away_by, known or digest(doc), content or content_digest(doc))


def _game(g: Any, number: int, fixture: FixtureInfo) -> Game:
    where = f"game {number}"
    if not isinstance(g, dict) or set(g) != {"home", "away", "scores", "record"}:
        raise SheetError(f"{where} must be an object of home, away, scores and record")
    home, away = _names(g["home"], f"{where}.home"), _names(g["away"], f"{where}.away")
    for side, team in ((home, fixture.home), (away, fixture.away)):
        stranger = next((p for p in side if not team.has(p)), None)
        if stranger is not None:
            raise SheetError(f"{where}: {stranger} is not a player of {team.name}")
    claimed = _pair(g["scores"], f"{where}.scores")
    record = g["record"]
    if not isinstance(record, dict) or record.get("game") != fixture.game:
        raise SheetError(f"{where}: the record must be a match of {fixture.game}, not {short(_game_of(record))}")
    try:
        scored = registry.game_of(record).score(record)
    except ScorekeeperError as e:
        raise SheetError(f"{where}: the record cannot be scored ({e})") from None
    except RecursionError:
        raise SheetError(f"{where}: the record is nested too deeply") from None
    sides = _record_sides(record, scored["sides"])
    want = [_keys(home), _keys(away)]
    got = [_keys(s) for s in sides]
    if got == want:
        order = (0, 1)
    elif got == want[::-1]:
        order = (1, 0)
    else:
        raise SheetError(
            f"{where}: the record's players are not the game's ({' v '.join(' & '.join(s) for s in sides)})"
        )
    names = scored["sides"]
    scores = (scored["scores"][names[order[0]]], scored["scores"][names[order[1]]])
    if scored["winner"] is None:
        raise SheetError(f"{where}: the record's match is not finished")
    winner = order.index(names.index(scored["winner"]))
    if claimed != scores:
        raise SheetError(f"{where}: the sheet says {claimed[0]}-{claimed[1]}; its record gives {scores[0]}-{scores[1]}")
    return Game(home, away, scores, winner)


def _game_of(record: Any) -> Any:
    return record.get("game") if isinstance(record, dict) else type_name(record)


def _record_sides(record: dict[str, Any], names: Sequence[str]) -> list[tuple[str, ...]]:
    """A record's sides as its players, in the order of the scored sides."""
    teams = record.get("teams")
    if isinstance(teams, dict):
        return [tuple(teams.get(n) or (n,)) for n in names]
    return [(n,) for n in names]


def _confirmed(value: Any, fixture: FixtureInfo) -> tuple[str | None, str | None]:
    if not isinstance(value, dict) or set(value) != {"home", "away"}:
        raise SheetError('confirmed must be {"home": ..., "away": ...} (each {"by", "at"} or null)')
    out: list[str | None] = []
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        c = value[side]
        if c is None:
            out.append(None)
            continue
        if not isinstance(c, dict) or not isinstance(c.get("by"), str) or not isinstance(c.get("at"), str):
            raise SheetError(f'confirmed.{side} must be {{"by": NAME, "at": TIME}} or null')
        if not team.leads(c["by"]):
            lead = team.captain + (f" or {team.vice}" if team.vice else "")
            raise SheetError(f"{short(c['by'])} is not {team.name}'s captain ({lead}): a captain confirms the sheet")
        _text.check_text(c["at"], "a confirmation's time")
        out.append(c["by"])
    if out == [None, None]:
        raise SheetError("no captain has confirmed the sheet: it is sent once a captain has")
    return out[0], out[1]


def read(data: bytes) -> Any:
    """A sheet's bytes as JSON (one line when they are not)."""
    if len(data) > LIMIT:
        raise SheetError(f"a sheet is at most {LIMIT >> 20} MB")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise SheetError(f"the sheet is not JSON ({type(e).__name__})") from None
