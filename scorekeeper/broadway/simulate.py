"""Random legal Broadway matches, played through the engine (for tests and demos).

Each hand deals the 28 tiles, 7 to each seat; the holder of the hand's
double leads it; then every player sets a random legal tile (or, now and
then, passes although a tile would fit, or exposes a tile and loses the
turn). A blocked hand is settled with counts or tile lists.

>>> rec = random_record(7, max_hands=2)
>>> from scorekeeper.broadway.record import score_record
>>> out = score_record(rec)
>>> [h["double"] for h in out["hands"]], out["hands"][0]["end"] in ("complete", "blocked")
(['6-6', '5-5'], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.broadway.engine import Match, Setup
from scorekeeper.broadway.grid import Placement
from scorekeeper.broadway.record import to_record
from scorekeeper.dominoes.tiles import tiles_of_set

__all__ = ["random_record", "random_match"]

PLAYERS = ("Ann", "Ben", "Cy", "Di")


def random_match(
    seed: int,
    *,
    players: tuple[str, ...] = PLAYERS,
    teams: Mapping[str, Iterable[str]] | None = None,
    rules: Mapping[str, Any] | None = None,
    max_hands: int | None = None,
    pass_rate: float = 0.05,
    expose_rate: float = 0.03,
    list_rate: float = 0.5,
    stop_rate: float = 0.0,
    match: Match | None = None,
) -> Match:
    """A match played at random through the engine (every entry legal).

    ``max_hands`` caps the hands started; ``stop_rate`` is the chance, per turn,
    to stop the record there (a match in progress). ``match``: go on with this
    match (waiting for a new hand) instead of a new one."""
    rng = random.Random(seed)
    m = match if match is not None else Match(Setup.new(players, teams, rules))
    tiles = list(tiles_of_set(6))
    while not m.over and (max_hands is None or len(m.hands) < max_hands):
        rng.shuffle(tiles)
        held = [set(tiles[i * 7 : (i + 1) * 7]) for i in range(4)]
        double = m.next_double
        assert double is not None, "the match is not over"
        leader = next(i for i in range(4) if double in held[i])
        m.start(m.setup.players[leader])
        while m.phase == "play":
            if stop_rate and rng.random() < stop_rate:
                return m
            h = m.hands[-1]
            seat = m.seat_to_move
            assert seat is not None, "a turn is due"
            mine = sorted(held[seat])
            if not h.turns:
                x, y = rng.randint(-3, 3), rng.randint(-3, 3)
                axis = m.setup.axis(seat) or rng.choice(["east-west", "north-south"])
                other = (x + 1, y) if axis == "east-west" else (x, y + 1)
                m.play(Placement(double.hi, double.lo, ((x, y), other)))
                held[seat].discard(double)
                continue
            r = rng.random()
            if mine and r < expose_rate and len(h.turns) < 150:
                m.expose(rng.choice(mine))
                continue
            options = [pv.placement for t in mine for pv in h.legal_placements(t) if pv.placement is not None]
            if options and r >= expose_rate + pass_rate:
                p = rng.choice(options)
                m.play(p)
                held[seat].discard(p.tile)
            else:
                m.pass_()
        if m.phase == "unplayed":
            unplayed: dict[str, Any] = {}
            for seat in range(4):
                left = sorted(held[seat])
                if not left and rng.random() < 0.5:
                    continue  # a player left with nothing may be left out
                name = m.setup.players[seat]
                unplayed[name] = [str(t) for t in left] if rng.random() < list_rate else len(left)
            m.settle(unplayed)
    return m


def random_record(
    seed: int,
    *,
    players: tuple[str, ...] = PLAYERS,
    teams: Mapping[str, Iterable[str]] | None = None,
    rules: Mapping[str, Any] | None = None,
    max_hands: int | None = None,
    pass_rate: float = 0.05,
    expose_rate: float = 0.03,
    list_rate: float = 0.5,
    stop_rate: float = 0.0,
    match: Match | None = None,
) -> dict[str, Any]:
    """:func:`random_match` as a ``scorekeeper/1`` record."""
    return to_record(
        random_match(
            seed,
            players=players,
            teams=teams,
            rules=rules,
            max_hands=max_hands,
            pass_rate=pass_rate,
            expose_rate=expose_rate,
            list_rate=list_rate,
            stop_rate=stop_rate,
            match=match,
        )
    )
