"""Broadway match records: entries <-> events, and the ``scorekeeper score`` output.

>>> rec = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"],
...        "hands": [{"leader": "Ben", "turns": [{"play": "6-6", "at": [[0, 0], [0, 1]]},
...                                             {"play": "6-3", "at": [[1, 0], [2, 0]]},
...                                             {"pass": True}, {"exposed": "5-2"}]}]}
>>> out = score_record(rec)
>>> [(t["player"], t.get("tile") or t.get("exposed"), t["matched"], t["points"]) for t in out["hands"][0]["turns"]]
[('Ben', '6-6', 0, 0), ('Cy', '6-3', 1, 0), ('Di', None, 0, 0), ('Ann', '5-2', 0, 0)]
>>> out["hands"][0]["end"], out["scores"], out["winner"]
('open', {'North-South': 0, 'East-West': 0}, None)
>>> to_record(load(rec))["hands"] == rec["hands"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from scorekeeper.broadway.engine import (
    SEATS,
    Event,
    Expose,
    Hand,
    Match,
    Pass,
    Play,
    Setup,
    StartHand,
    Turn,
    Unplayed,
)
from scorekeeper.broadway.grid import Placement, parse_cells, parse_pips
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.envelope import FORMAT, METADATA_KEYS, type_name
from scorekeeper.errors import LeaderError, RecordFormatError, RemainingError, ScorekeeperError, Where, short

__all__ = [
    "HAND_KEYS",
    "TURN_KEYS",
    "check_complete",
    "iter_events",
    "load",
    "parse_leader",
    "parse_turn",
    "parse_unplayed",
    "result",
    "score_record",
    "to_record",
]

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
        from scorekeeper.broadway.engine import double_of

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
    if not isinstance(entry, dict):
        raise RecordFormatError(f"a turn must be an object, not {type_name(entry)}", **where)
    for key in entry:
        if key not in TURN_KEYS:
            raise RecordFormatError(f"unknown key {short(key)} in a turn (known: {', '.join(TURN_KEYS)})", **where)
    player = entry.get("player")
    if "player" in entry and not isinstance(player, str):
        raise RecordFormatError(f"player must be a name, not {type_name(player)}", **where)
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
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordFormatError(f"must be a list of hands, not {type_name(hands)}", field="hands")
    for h, hand in enumerate(hands, 1):
        if not isinstance(hand, dict):
            raise RecordFormatError(f"a hand must be an object, not {type_name(hand)}", hand=h)
        for key in hand:
            if key not in HAND_KEYS:
                raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(HAND_KEYS)})", hand=h)
        yield parse_leader(hand, h)
        turns = hand.get("turns", [])
        if not isinstance(turns, list):
            raise RecordFormatError(f"must be a list, not {type_name(turns)}", hand=h, field="turns")
        for t, entry in enumerate(turns, 1):
            yield parse_turn(entry, h, t)
        if "unplayed" in hand:
            yield parse_unplayed(hand["unplayed"], h)


def load(record: Any) -> Match:
    """Check a record and fold its entries; raises a ScorekeeperError naming hand and turn.
    A match in progress is fine (also one waiting for a blocked hand's ``unplayed``)."""
    match = Match(Setup.of(record))
    push = match.push
    for event in iter_events(record):
        push(event)
    return match


def check_complete(match: Match) -> None:
    """A scored record must not stop between a blocked hand and its ``unplayed``."""
    h = match.hand
    if h is not None and h.end is not None and not h.settled and match.winner is None:
        due = ", ".join(f"{n} {c}" for n, c in zip(match.setup.players, h.due, strict=True) if c)
        raise RemainingError(
            f"the hand ended (four passes in succession) but its unplayed tiles are missing ({due})",
            hand=h.number,
            field="unplayed",
        )


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


def to_record(match: Match) -> dict[str, Any]:
    """Write a match back as a ``scorekeeper/1`` record (rules only where not the default)."""
    setup = match.setup
    env = setup.envelope
    record: dict[str, Any] = {"format": FORMAT, "game": "broadway", "players": list(setup.players)}
    if env is not None and env.teams is not None:
        record["teams"] = {k: list(v) for k, v in env.teams.items()}
    rules = {
        k: v
        for k, v in setup.rules.to_json().items()
        if v != {"orientation": "seat", "unplayed_penalty": "subtract"}[k]
    }
    if rules:
        record["rules"] = rules
    if env is not None:
        for key in METADATA_KEYS:
            if key in env.metadata:
                record[key] = env.metadata[key]
    hands: list[dict[str, Any]] = []
    for e in match.events:
        if type(e) is StartHand:
            hands.append({"leader": e.leader, "turns": []})
        elif type(e) is Unplayed:
            hands[-1]["unplayed"] = {n: ([str(x) for x in v] if isinstance(v, tuple) else v) for n, v in e.given}
        else:
            hands[-1]["turns"].append(event_entry(e))
    record["hands"] = hands
    return record


# ---------------------------------------------------------------------- scoring
def _turn_out(match: Match, t: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"player": match.setup.players[t.seat]}
    if t.placement is not None:
        entry = t.placement.entry()
        out["tile"] = entry["play"]
        out["at"] = entry["at"]
        out["sections"] = [list(c) for c in t.matched]
    elif t.exposed is not None:
        out["exposed"] = str(t.exposed)
    else:
        out["pass"] = True
    out["matched"] = len(t.matched)
    out["points"] = t.points
    return out


def _hand_out(match: Match, h: Hand, scores_after: tuple[int, ...]) -> dict[str, Any]:
    s = match.setup
    sides = s.sides
    out: dict[str, Any] = {
        "number": h.number,
        "double": str(h.double),
        "leader": s.players[h.leader],
        "sudden_death": h.sudden_death,
        "turns": [_turn_out(match, t) for t in h.turns],
        "end": h.end or "open",
        "points": dict(zip(sides, h.points, strict=True)),
    }
    if h.unplayed is not None:
        out["unplayed"] = dict(zip(s.players, h.unplayed, strict=True))
    out["settlement"] = dict(zip(sides, h.settlement if h.settlement is not None else (0, 0), strict=True))
    out["scores"] = dict(zip(sides, scores_after, strict=True))
    return out


def result(match: Match) -> dict[str, Any]:
    """The ``scorekeeper score`` JSON object of a Broadway match."""
    s = match.setup
    hands = match.hands
    outs = []
    for i, h in enumerate(hands):
        after = hands[i + 1].scores_before if i + 1 < len(hands) else tuple(match.scores)
        outs.append(_hand_out(match, h, after))
    won_at = None
    if match.won_at is not None:
        won_at = {"hand": match.won_at[0], "turn": match.won_at[1]}
    return {
        "game": "broadway",
        "sides": list(s.sides),
        "teams": {
            side: [p for p, si in zip(s.players, s.side_of, strict=True) if si == i] for i, side in enumerate(s.sides)
        },
        "seats": dict(zip(SEATS, s.players, strict=True)),
        "rules": s.rules.to_json(),
        "hands": outs,
        "scores": dict(zip(s.sides, match.scores, strict=True)),
        "winner": None if match.winner is None else s.sides[match.winner],
        "won_at": won_at,
    }


def score_record(record: Any) -> dict[str, Any]:
    """Check a record through the engine and return the scored JSON object.

    Raises a :class:`ScorekeeperError` naming the hand and turn on any fault.
    """
    match = load(record)
    check_complete(match)
    return result(match)
