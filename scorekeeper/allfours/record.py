"""All Fours records: entries <-> events, and the ``scorekeeper score`` output.

A record's hand is its ``dealer`` (a :class:`~scorekeeper.allfours.events.Deal`)
and then its facts, one event per key, in the order they were entered.

>>> rec = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
...        "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]}
>>> m = load(rec)
>>> m.events
[Deal(dealer='Ann'), TurnUp(ranks=('J',)), High(player='Ben')]
>>> m.scores, to_record(m) == rec
([3, 1], True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from scorekeeper.allfours.engine import (
    AllFoursError,
    HandResult,
    Match,
    Setup,
    check_award_points,
    check_card_points,
    check_player,
    check_rank,
    check_side,
    short,
)
from scorekeeper.allfours.events import (
    BEGS,
    HAND_KEYS,
    PENALTY_KEYS,
    Beg,
    Deal,
    Event,
    Fact,
    GameCards,
    GamePoints,
    High,
    Jack,
    Low,
    Penalties,
    Penalty,
    TurnUp,
)
from scorekeeper.envelope import FORMAT, METADATA_KEYS, type_name
from scorekeeper.errors import RecordFormatError

__all__ = ["iter_events", "load", "parse_deal", "parse_fact", "result", "score_record", "to_record"]


# ---------------------------------------------------------------------- reading
def parse_deal(hand: Any, number: int, setup: Setup | None = None) -> Deal:
    """The start of hand ``number``: its ``dealer`` (checked against ``setup`` when given)."""
    if not isinstance(hand, Mapping):
        raise RecordFormatError(f"a hand must be an object, not {type_name(hand)}", hand=number)
    for key in hand:
        if key not in HAND_KEYS:
            raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(HAND_KEYS)})", hand=number)
    if "dealer" not in hand:
        raise RecordFormatError("the dealer is missing", hand=number, field="dealer")
    dealer = hand["dealer"]
    if setup is not None:
        check_player(setup, dealer, number, "dealer")
    elif not isinstance(dealer, str):
        raise AllFoursError(f"must name a player, not {type_name(dealer)}", hand=number, field="dealer")
    return Deal(dealer)


def _name(setup: Setup | None, value: Any, number: int, what: str, *, null: bool = False) -> Any:
    """A player's name as given (checked against ``setup`` when there is one)."""
    if setup is not None:
        check_player(setup, value, number, what, null=null)
    elif not (isinstance(value, str) or (value is None and null)):
        raise AllFoursError(f"must name a player, not {type_name(value)}", hand=number, field=what)
    return value


def _side(setup: Setup | None, value: Any, number: int, what: str) -> Any:
    if setup is not None:
        check_side(setup, value, number, what)
    return value


def parse_fact(key: str, value: Any, number: int, setup: Setup | None = None) -> Fact:
    """One fact of hand ``number`` as an event, its format checked (its names too, with ``setup``).

    >>> parse_fact("turn_up", ["j", "6"], 1)
    TurnUp(ranks=('J', '6'))
    >>> parse_fact("jack", {"held": "Ann"}, 2)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: hand 2, jack: must be null or {"held": player, "won": player}
    """
    where: dict[str, Any] = {"hand": number, "field": key}
    if key == "turn_up":
        # "Empty or absent" in the spec: null and [] say no card was turned; 0, false, "" or {} are no list
        ranks = [] if value is None else value
        if not isinstance(ranks, list):
            raise RecordFormatError(f"must be a list of ranks, not {type_name(ranks)}", **where)
        return TurnUp(tuple(check_rank(r, number, key) for r in ranks))
    if key == "beg":
        if value not in BEGS or type(value) is bool:
            raise AllFoursError(f'beg must be null, "stand", "give" or "run", not {short(value)}', **where)
        return Beg(value)
    if key == "high":
        return High(_name(setup, value, number, key, null=True))
    if key == "low":
        return Low(_name(setup, value, number, key, null=True))
    if key == "jack":
        if value is None:
            return Jack()
        if not isinstance(value, Mapping) or set(value) != {"held", "won"}:
            raise RecordFormatError('must be null or {"held": player, "won": player}', **where)
        return Jack(_name(setup, value["held"], number, "jack.held"), _name(setup, value["won"], number, "jack.won"))
    if key == "game":
        if not isinstance(value, Mapping):
            raise RecordFormatError(f"must map each side to its card points, not {type_name(value)}", **where)
        points = []
        for name, v in value.items():
            _side(setup, name, number, key)
            points.append((name, check_card_points(name, v, number)))
        return GamePoints(tuple(points))
    if key == "game_cards":
        if not isinstance(value, Mapping):
            raise RecordFormatError(f"must map each side to the ranks it took, not {type_name(value)}", **where)
        cards = []
        for name, ranks in value.items():
            _side(setup, name, number, key)
            if not isinstance(ranks, list):
                raise RecordFormatError(
                    f"the cards of {short(name)} must be a list of ranks, not {type_name(ranks)}", **where
                )
            cards.append((name, tuple(check_rank(c, number, key) for c in ranks)))
        return GameCards(tuple(cards))
    if key == "penalties":
        if not isinstance(value, list):
            raise RecordFormatError(f"must be a list, not {type_name(value)}", **where)
        return Penalties(tuple(_penalty(p, number, f"penalties[{i}]", setup) for i, p in enumerate(value, 1)))
    if key == "dealer":
        raise RecordFormatError("the dealer starts a hand: enter a new hand instead", **where)
    raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(HAND_KEYS)})", hand=number)


def _penalty(p: Any, number: int, where: str, setup: Setup | None) -> Penalty:
    kind = p.get("type") if isinstance(p, Mapping) else None
    if not isinstance(kind, str) or kind not in PENALTY_KEYS:
        raise AllFoursError(
            f"a penalty is an object with type {', '.join(PENALTY_KEYS)}, not {short(p)}", hand=number, field=where
        )
    for key in p:
        if key not in PENALTY_KEYS[kind]:
            raise RecordFormatError(f"unknown key {short(key)} in a {kind} penalty", hand=number, field=where)
    by = honour = side = points = reason = None
    if kind in ("revoke", "peek"):
        if "by" not in p:
            raise RecordFormatError(f"a {kind} penalty names the player: by", hand=number, field=where)
        by = _name(setup, p["by"], number, f"{where}.by")
    if kind == "revoke" and "honour" in p:
        honour = p["honour"]
        if not isinstance(honour, bool):
            raise RecordFormatError("honour must be true or false", hand=number, field=f"{where}.honour")
    if kind == "award":
        side = p.get("side")
        if setup is not None:
            check_side(setup, side, number, f"{where}.side")
        elif not isinstance(side, str):
            raise AllFoursError(f"must name a side, not {type_name(side)}", hand=number, field=f"{where}.side")
        points = check_award_points(p.get("points"), number, f"{where}.points")
        if "reason" in p:
            reason = p["reason"]
            if not isinstance(reason, str):
                raise RecordFormatError(
                    f"reason must be a string, not {type_name(reason)}", hand=number, field=f"{where}.reason"
                )
    return Penalty(kind, by, honour, side, points, reason)


def iter_events(record: Any, setup: Setup) -> Iterator[Event]:
    """The record's hands as events, in order (a malformed entry raises when reached)."""
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordFormatError("must be a list of hands", field="hands")
    for number, hand in enumerate(hands, 1):
        yield parse_deal(hand, number, setup)
        for key, value in hand.items():
            if key != "dealer":
                yield parse_fact(key, value, number, setup)


def load(record: Any) -> Match:
    """Check a record and fold its hands; raises a ScorekeeperError naming the hand."""
    setup = Setup.of(record)
    match = Match(setup)
    for event in iter_events(record, setup):
        match.push(event)
    return match


# ---------------------------------------------------------------------- writing
def to_record(match: Match) -> dict[str, Any]:
    """Write a match back as a ``scorekeeper/1`` record."""
    setup = match.setup
    env = setup.envelope
    record: dict[str, Any] = {"format": FORMAT, "game": "all-fours", "players": list(setup.players)}
    if env.teams is not None:
        record["teams"] = {k: list(v) for k, v in env.teams.items()}
    if match.rules.given:
        record["rules"] = dict(match.rules.given)
    for key in METADATA_KEYS:
        if key in env.metadata:
            record[key] = env.metadata[key]
    hands: list[dict[str, Any]] = []
    for e in match.events:
        if isinstance(e, Deal):
            hands.append({"dealer": e.dealer})
        else:
            hands[-1][e.key] = e.to_json()
    record["hands"] = hands
    return record


# ---------------------------------------------------------------------- scoring
def _hand_out(m: Match, h: HandResult) -> dict[str, Any]:
    sides = m.setup.sides
    out: dict[str, Any] = {
        "number": h.number,
        "dealer": m.setup.players[h.dealer],
        "points": [{"side": sides[i.side], "points": i.points, "for": i.label, **dict(i.extra)} for i in h.items],
    }
    if h.card_points is not None:
        out["card_points"] = dict(zip(sides, h.card_points, strict=True))
    if h.all_four is not None:
        out["all_four"] = sides[h.all_four]
    if h.void:
        out["void"] = True
    if h.honour_revoke is not None:
        out["honour_revoke"] = sides[h.honour_revoke]
    out["end"] = "scored" if h.complete else "open"
    out["scores"] = dict(zip(sides, h.scores_after, strict=True))
    return out


def result(m: Match) -> dict[str, Any]:
    """The ``scorekeeper score`` JSON object of an All Fours match."""
    sides = m.setup.sides
    return {
        "game": "all-fours",
        "sides": list(sides),
        "target": m.rules.target,
        "rules": {"variant": m.rules.variant, "target": m.rules.target},
        "hands": [_hand_out(m, h) for h in m.hands],
        "scores": dict(zip(sides, m.scores, strict=True)),
        "winner": None if m.winner is None else sides[m.winner],
    }


def score_record(record: Any) -> dict[str, Any]:
    return result(load(record))
