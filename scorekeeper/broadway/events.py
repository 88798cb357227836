"""Broadway's events -- a hand's start, a turn (a tile set, a pass, a tile exposed), the
tiles left unplayed -- and each one's record entry, both ways: :func:`iter_events`
reads a record's hands into events, :func:`record_of` writes events back as a record.

>>> ev = parse_turn({"play": "3-6", "at": [[1, 0], [2, 0]], "player": "Cy"}, 1, 2)
>>> ev, event_entry(ev)
(Play(placement=Placement(3, 6, ((1, 0), (2, 0))), player='Cy'), {'player': 'Cy', 'play': '6-3', 'at': [[2, 0], [1, 0]]})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, final

from scorekeeper.broadway.grid import Placement, parse_cells, parse_pips
from scorekeeper.broadway.rules import Setup, double_of
from scorekeeper.dominoes import hands as _hands
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import LeaderError, RecordFormatError, ScorekeeperError, Where, short, type_name
from scorekeeper.points import Adjust, PointsHand

__all__ = [
    "Adjust",
    "HAND_KEYS",
    "TURN_KEYS",
    "Event",
    "Expose",
    "Pass",
    "Play",
    "PointsHand",
    "StartHand",
    "Unplayed",
    "event_entry",
    "iter_events",
    "parse_leader",
    "parse_turn",
    "parse_unplayed",
    "record_of",
]


# ---------------------------------------------------------------------- events
@final
@dataclass(frozen=True, slots=True)
class StartHand:
    """A hand begins; ``leader`` (a player, or a seat's name) holds the hand's double."""

    leader: str


@final
@dataclass(frozen=True, slots=True)
class Play:
    """A turn that sets a tile (``{"play": ..., "at": ...}``)."""

    placement: Placement
    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Pass:
    """A turn that passes (``{"pass": true}``)."""

    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Expose:
    """A turn lost because the player exposed ``tile`` (``{"exposed": ...}``)."""

    tile: Tile
    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Unplayed:
    """The tiles each player was left with: a count, or the tiles (a tuple)."""

    given: tuple[tuple[str, int | tuple[Tile, ...]], ...]


#: A match's events: a hand's start, its turns, its unplayed tiles, a hand entered as points,
#: an adjustment (the last two every game shares: :mod:`scorekeeper.points`).
Event = StartHand | Play | Pass | Expose | Unplayed | PointsHand | Adjust


HAND_KEYS = ("leader", "turns", "unplayed")
TURN_KEYS = ("player", "play", "at", "pass", "exposed")

T = TypeVar("T")


def _located(fn: Callable[[Any], T], value: Any, what: str, where: Where) -> T:
    """``fn(value)``, its error re-raised at ``where`` (and prefixed with ``what``)."""
    try:
        return fn(value)
    except ScorekeeperError as e:
        raise type(e)(f"{what}: {e.reason}" if what else e.reason, **where) from None


def _shown(name: Any) -> str:
    """A player's name as given, for a message: as it is when short, else cut."""
    return name if isinstance(name, str) and len(name) <= 40 else short(name)


def _tile(value: Any) -> Tile:
    return Tile(*parse_pips(value))


# ---------------------------------------------------------------------- reading
def parse_leader(hand: dict[str, Any], number: int) -> StartHand:
    """The start of hand ``number`` from its ``leader`` (required: the player who holds the double)."""
    if "leader" not in hand or hand["leader"] is None:
        raise LeaderError(
            f"a leader is required: the player who holds {double_of(number)}", hand=number, field="leader"
        )
    leader = hand["leader"]
    if not isinstance(leader, str):
        raise RecordFormatError(f"must name a player, not {type_name(leader)}", hand=number, field="leader")
    return StartHand(leader)


def parse_turn(entry: Any, hand: int, turn: int) -> Play | Pass | Expose:
    """One turn entry as an event: ``{"play": "6-3", "at": [[1, 0], [2, 0]]}``,
    ``{"pass": true}`` or ``{"exposed": "5-2"}``, each with an optional ``"player"``."""
    where: Where = {"hand": hand, "turn": turn}
    player = _hands.turn_entry(entry, TURN_KEYS, hand, turn)
    kinds = [k for k in ("play", "pass", "exposed") if k in entry]
    if len(kinds) != 1:
        raise RecordFormatError(
            'a turn is one of {"play": tile, "at": [[x, y], [x, y]]}, {"pass": true} or {"exposed": tile}', **where
        )
    kind = kinds[0]
    if "at" in entry and kind != "play":
        raise RecordFormatError(f'a turn with {kind!r} has no "at": only a play covers cells', **where)
    if kind == "play":
        if "at" not in entry:
            raise RecordFormatError('a play gives the two cells the tile covers: "at": [[x, y], [x, y]]', **where)
        first, second = _located(parse_pips, entry["play"], "", where)
        cells = _located(parse_cells, entry["at"], "at", where)
        return Play(Placement(first, second, cells), player)
    if kind == "pass":
        if entry["pass"] is not True:
            raise RecordFormatError(f"pass must be true, not {short(entry['pass'])}", **where)
        return Pass(player)
    return Expose(_located(_tile, entry["exposed"], "exposed", where), player)


def parse_unplayed(value: Any, hand: int) -> Unplayed:
    """``{"Ann": 2, "Ben": ["5-2"], ...}``: a count or the tiles, per player."""
    where: Where = {"hand": hand, "field": "unplayed"}
    if not isinstance(value, dict):
        raise RecordFormatError(f"must be an object of players, not {type_name(value)}", **where)
    pairs: list[tuple[str, int | tuple[Tile, ...]]] = []
    for name, held in value.items():
        if type(held) is int:
            pairs.append((name, held))
        elif isinstance(held, list):
            pairs.append((name, tuple(_located(_tile, t, _shown(name), where) for t in held)))
        else:
            raise RecordFormatError(f"{_shown(name)}: give a count or a list of tiles, not {type_name(held)}", **where)
    return Unplayed(tuple(pairs))


def iter_events(record: dict[str, Any]) -> Iterator[Event]:
    """The record's entries as events, in order (a malformed entry raises when reached)."""
    return _hands.iter_events(record, HAND_KEYS, parse_leader, parse_turn, "unplayed", parse_unplayed)


# ---------------------------------------------------------------------- writing
def event_entry(event: Play | Pass | Expose) -> dict[str, Any]:
    """A turn event as a record entry (tiles written higher half first)."""
    entry: dict[str, Any] = {}
    if event.player is not None:
        entry["player"] = event.player
    if type(event) is Play:
        entry.update(event.placement.entry())
    elif type(event) is Pass:
        entry["pass"] = True
    else:
        entry["exposed"] = str(event.tile)
    return entry


def record_of(setup: Setup, events: Iterable[Event]) -> dict[str, Any]:
    """The events of a match as a ``scorekeeper/1`` record (rules only where not the default)."""
    record = setup.head()
    hands: list[dict[str, Any]] = []
    for e in events:
        if type(e) is StartHand:
            hands.append({"leader": e.leader, "turns": []})
        elif type(e) is PointsHand or type(e) is Adjust:
            hands.append(e.to_json())
        elif type(e) is Unplayed:
            hands[-1]["unplayed"] = {n: ([str(x) for x in v] if isinstance(v, tuple) else v) for n, v in e.given}
        else:
            hands[-1]["turns"].append(event_entry(e))
    record["hands"] = hands
    return record
