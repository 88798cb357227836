"""All Fives match records: entries <-> events, and the ``score`` output.

``parse_record`` reads a ``scorekeeper/1`` record into a :class:`Setup` and
a list of events; ``to_record`` writes a match back; ``score_record`` is what
``scorekeeper score`` prints.

>>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...        "hands": [{"leader": "Ann", "turns": [{"play": "3-2"}, {"play": "2-2", "on": "3-2"}]}]}
>>> out = score_record(rec)
>>> [(t["tile"], t["count"], t["points"]) for t in out["hands"][0]["turns"]]
[('3-2', 5, 5), ('2-2', 7, 0)]
>>> out["scores"], out["hands"][0]["end"]
({'Ann': 5, 'Ben': 0}, 'open')
>>> to_record(load(rec))["hands"] == rec["hands"]
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NotRequired, Unpack, cast

from scorekeeper.allfives.engine import MAX_CLAIM, Hand, Match, Setup, Turn, shown_name
from scorekeeper.allfives.events import Event, Pass, Play, Settle, StartHand, record_of
from scorekeeper.allfives.events import event_entry as event_entry
from scorekeeper.allfives.rules import GAME_ID
from scorekeeper.dominoes import hands as _hands
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import RecordFormatError, RemainingError, ScorekeeperError, Where, short, type_name
from scorekeeper.points import Adjustment, adjust_out, in_order, points_out, scores_after, start_out, with_start
from scorekeeper.scored import Scored, ScoredHand, played


class FivesHand(ScoredHand):
    """A hand of an All Fives scored result: its leader, turns and settlement beside
    what every game says of a hand."""

    leader: str
    turns: list[dict[str, Any]]
    #: The side that won the hand (dominoed, or had the fewest pips at a block), or None.
    winner: str | None
    #: The pips each player held at the end (a hand settled by the pips).
    pips: NotRequired[dict[str, int]]
    #: The sides whose settlement an exact target voided.
    voided: NotRequired[list[str]]


class FivesScored(Scored):
    """An All Fives scored result (``scorekeeper score``): the common part (with the
    target), the teams and every rule as the match was played."""

    teams: dict[str, list[str]]
    rules: dict[str, Any]


def own(scored: Scored) -> FivesScored:
    """A scored result of All Fives (what :func:`result` made) as its own type."""
    if scored["game"] != GAME_ID:
        raise TypeError(f"not an All Fives result: {scored['game']!r}")
    return cast(FivesScored, scored)


def own_hands(scored: Scored) -> list[FivesHand]:
    """The hands of an All Fives scored result played tile by tile, as :func:`result` made
    them (without the hands entered as points and the adjustments: :func:`~scorekeeper.scored.played`)."""
    return cast(list[FivesHand], played(own(scored)["hands"]))


HAND_KEYS = ("leader", "turns", "remaining")
TURN_KEYS = ("player", "draw", "play", "on", "pass", "claim", "muggins", "sniff")


def _tile(value: Any, highest: int, what: str, **where: Unpack[Where]) -> Tile:
    try:
        return Tile.parse(value, highest)
    except ScorekeeperError as e:
        raise type(e)(f"{what}: {e.reason}" if what else e.reason, **where) from None


def parse_turn(entry: Any, highest: int, hand: int, turn: int) -> Play | Pass:
    """One turn entry of a record as an event."""
    where: Where = {"hand": hand, "turn": turn}
    player = _hands.turn_entry(entry, TURN_KEYS, hand, turn)
    draw = entry.get("draw", 0)
    if "draw" in entry and (type(draw) is not int or draw < 1):
        raise RecordFormatError(f"draw must be a whole number of tiles, at least 1, not {short(draw)}", **where)
    if "pass" in entry:
        if entry["pass"] is not True:
            raise RecordFormatError(f"pass must be true, not {short(entry['pass'])}", **where)
        for key in ("play", "on", "claim", "muggins", "sniff"):
            if key in entry:
                raise RecordFormatError(f"a pass cannot have {key!r}", **where)
        return Pass(draw, player)
    if "play" not in entry:
        raise RecordFormatError('a turn must "play" a tile or "pass"', **where)
    tile = _tile(entry["play"], highest, "", **where)
    on = entry.get("on")
    if on is not None:
        on = _tile(on, highest, "on", **where)
    claim = entry.get("claim")
    if "claim" in entry and (type(claim) is not int or not 0 <= claim <= MAX_CLAIM):
        raise RecordFormatError(
            f"claim must be a whole number of points from 0 to {MAX_CLAIM:,}, not {short(claim)}", **where
        )
    muggins = entry.get("muggins")
    if "muggins" in entry and not isinstance(muggins, str):
        raise RecordFormatError(f"muggins must name a player, not {type_name(muggins)}", **where)
    sniff = entry.get("sniff")
    if "sniff" in entry and not isinstance(sniff, str):
        raise RecordFormatError(f'sniff must be "across" or "inline", not {short(sniff)}', **where)
    return Play(tile, on, draw, claim, muggins, player, sniff)


def parse_leader(hand: dict[str, Any], number: int) -> StartHand:
    """The start of hand ``number`` from its ``leader`` (absent or null: implied by the rules)."""
    leader = hand.get("leader")
    if leader is not None and not isinstance(leader, str):
        raise RecordFormatError(f"must name a player, not {type_name(leader)}", hand=number, field="leader")
    return StartHand(leader)


def parse_remaining(value: Any, highest: int, hand: int) -> Settle:
    where: Where = {"hand": hand, "field": "remaining"}
    if not isinstance(value, dict):
        raise RecordFormatError(f"must be an object of players, not {type_name(value)}", **where)
    pairs: list[tuple[str, tuple[Tile, ...] | int]] = []
    for name, held in value.items():
        if type(held) is int:
            pairs.append((name, held))
        elif isinstance(held, list):
            pairs.append((name, tuple(_tile(t, highest, shown_name(name), **where) for t in held)))
        else:
            raise RecordFormatError(
                f"{shown_name(name)}: give a list of tiles or a pip total, not {type_name(held)}", **where
            )
    return Settle(tuple(pairs))


def iter_events(record: dict[str, Any], setup: Setup) -> Iterator[Event]:
    """The record's entries as events, in order (a malformed entry raises when reached)."""
    highest = setup.rules.set
    return _hands.iter_events(
        record,
        HAND_KEYS,
        parse_leader,
        lambda entry, h, t: parse_turn(entry, highest, h, t),
        "remaining",
        lambda value, h: parse_remaining(value, highest, h),
    )


def parse_record(record: Any) -> tuple[Setup, list[Event]]:
    """Read a whole record (format checks only; rules are checked when the events are pushed)."""
    setup = Setup.of(record)
    return setup, list(iter_events(record, setup))


def load(record: Any) -> Match:
    """Replay a record through the engine, checking every rule."""
    setup = Setup.of(record)
    match = Match(setup)
    push = match.push
    for event in iter_events(record, setup):
        push(event)
    return match


def check_complete(match: Match) -> None:
    """A record must not stop between a hand's end and its ``remaining``."""
    h = match.hand
    if h is not None and h.end is not None and h.settlement is None and match.winner is None:
        players = match.setup.players
        holding = [f"{players[i]} ({n})" for i, n in enumerate(h.held) if n]
        raise RemainingError(
            f"the hand ended ({match.end_text(h)}) but remaining is missing for {', '.join(holding)}",
            hand=h.number,
            field="remaining",
        )


# ---------------------------------------------------------------------- writing
def to_record(match: Match) -> dict[str, Any]:
    """Write a match back as a ``scorekeeper/1`` record."""
    return record_of(match.setup, match.events)


# ---------------------------------------------------------------------- scoring
def _turn_out(match: Match, t: Turn) -> dict[str, Any]:
    s = match.setup
    out: dict[str, Any] = {"player": s.players[t.player]}
    if t.tile is None:
        if t.drew:
            out["drew"] = t.drew
        out["pass"] = True
        out["points"] = 0
        return out
    out["tile"] = str(t.tile)
    out["on"] = None if t.on is None else str(t.on)
    if t.drew:
        out["drew"] = t.drew
    out["count"] = t.count
    out["points"] = t.points
    if t.claim is not None:
        out["claim"] = t.claim
        if t.claim_ok is not None:
            out["claim_ok"] = t.claim_ok
    if t.sniff is not None:
        out["sniff"] = t.sniff
    if t.go:
        out["go"] = t.go
    if t.voided:
        out["voided"] = True
    if t.muggins is not None:
        caller, side, pts, voided = t.muggins
        out["muggins"] = {"player": s.players[caller], "side": s.sides[side], "points": pts}
        if voided:
            out["muggins"]["voided"] = True
    return out


def _hand_out(match: Match, h: Hand, scores_after: list[int]) -> FivesHand:
    s = match.setup
    sides = s.sides
    out: FivesHand = {
        "number": h.number,
        "leader": s.players[h.leader],
        "turns": [_turn_out(match, t) for t in h.turns],
        "end": h.end or "open",
        "winner": None if h.winner is None else sides[h.winner],
        "settlement": {side: (h.settlement[i] if h.settlement else 0) for i, side in enumerate(sides)},
        "scores": dict(zip(sides, scores_after, strict=True)),
    }
    if h.pips is not None:
        out["pips"] = dict(zip(s.players, h.pips, strict=True))
    if h.voided:
        out["voided"] = [sides[i] for i in h.voided]
    return out


def hands_out(match: Match) -> list[ScoredHand]:
    """Every hand and adjustment of a match as the scored result has them, in order."""
    sides = match.setup.sides
    entries = in_order(match.hands, match.adjustments)
    outs: list[ScoredHand] = []
    for e, after in zip(entries, scores_after(entries, match.scores), strict=True):
        if isinstance(e, Adjustment):
            outs.append(adjust_out(sides, e))
        elif e.entered is not None:
            outs.append(points_out(e.number, sides, e.entered, e.voided, after))
        else:
            outs.append(_hand_out(match, e, list(after)))
    return outs


def result(match: Match) -> FivesScored:
    """The ``scorekeeper score`` JSON object for a match."""
    s = match.setup
    outs = hands_out(match)
    r = match.rules
    out: FivesScored = {
        "game": GAME_ID,
        "sides": list(s.sides),
        "teams": {side: [s.players[p] for p in s.members[i]] for i, side in enumerate(s.sides)},
        "target": r.target,
        "rules": {
            "set": r.set,
            "spinner": r.spinner,
            "hand_size": r.hand_size,
            "hand_end": r.hand_end,
            "block_winner": r.block_winner,
            "scale": r.scale,
            "target": r.target,
            "exact_target": r.exact_target,
            "boneyard_reserve": r.boneyard_reserve,
            "claims": r.claims,
            "count": r.count,
            "draw": r.draw,
            "domino": r.domino,
            "next_leader": r.next_leader,
            "win_on_lead": r.win_on_lead,
        },
        "hands": outs,
        "scores": dict(zip(s.sides, match.scores, strict=True)),
        "winner": None if match.winner is None else s.sides[match.winner],
    }
    return with_start(out, start_out(s.sides, s.start))


def score_record(record: Any) -> FivesScored:
    """Check a record through the engine and return the scored JSON object.

    Raises a :class:`ScorekeeperError` naming the hand and turn on any fault.
    """
    match = load(record)
    check_complete(match)
    return result(match)
