"""Seeded random legal All Fives matches, for property tests and benchmarks.

The simulator deals real hands from a shuffled set and plays as people do:
the leader sets any tile; each player sets a tile that fits (onto a random
end it fits), drawing one tile at a time until one fits, and passes only when
nothing more can be drawn (at once where there is no drawing: the knock). It
drives the real engine, so every record it makes is legal by construction, and it exercises claims, muggins calls,
``on`` left out where it is unambiguous, and pip totals instead of tile lists.

>>> rec = random_record(7, players=3)
>>> rec["players"], rec["hands"][0]["turns"][0].keys() >= {"play"}
(['P1', 'P2', 'P3'], True)
>>> random_record(7, players=3) == rec  # the seed decides everything
True
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import Pass, Play, Settle, StartHand
from scorekeeper.allfives.record import event_entry
from scorekeeper.dominoes.tiles import Tile, tiles_of_set


def random_record(
    seed: int,
    players: int = 2,
    *,
    teams: bool = False,
    max_hands: int = 40,
    claim_rate: float = 0.0,
    **rules: Any,
) -> dict[str, Any]:
    """A legal match record decided by ``seed``.

    ``teams=True`` seats partners alternately (4 players: two sides of two,
    6 players: three sides of two). ``rules`` are the record's rule options
    (``spinner="none"``, ``hand_end="each-subtracts"``, ...). ``claim_rate``
    is the share of plays that carry a claim (some of them wrong, and in
    muggins mode some caught by an opponent). The match ends when a side
    wins or after ``max_hands`` hands.
    """
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    record: dict[str, Any] = {"format": "scorekeeper/1", "game": "all-fives", "players": names}
    if teams:
        n_sides = 2 if players % 2 == 0 and players <= 4 else players // 2
        record["teams"] = {f"S{s + 1}": names[s::n_sides] for s in range(n_sides)}
    if rules:
        record["rules"] = dict(rules)
    setup = Setup.of(record)
    r = setup.rules
    m = Match(setup)
    hands_out: list[dict[str, Any]] = []
    leader: str | None = rng.choice(names)
    all_tiles = list(tiles_of_set(r.set))

    while not m.over and len(hands_out) < max_hands:
        deck = all_tiles[:]
        rng.shuffle(deck)
        held = [deck[i * r.hand_size : (i + 1) * r.hand_size] for i in range(players)]
        boneyard = deck[players * r.hand_size :]
        drawable = len(boneyard) - r.boneyard_reserve if r.draw else 0  # without drawing: knock
        m.push(StartHand(leader))
        hand_out: dict[str, Any] = {"turns": []} if leader is None else {"leader": leader, "turns": []}
        hands_out.append(hand_out)
        h = m.hands[-1]
        while h.end is None and not m.over:
            p = h.next_player
            mine = held[p]
            drew = 0
            on: Tile | None
            if not h.turns:
                tile, on = rng.choice(mine), None
            else:
                fitting = [t for t in mine if h.layout.fits(t)]
                while not fitting and drawable > 0:
                    t = boneyard.pop()
                    drawable -= 1
                    drew += 1
                    mine.append(t)
                    if h.layout.fits(t):
                        fitting = [t]
                if not fitting:
                    passed = Pass(drew)
                    m.push(passed)
                    hand_out["turns"].append(event_entry(passed))
                    continue
                tile = rng.choice(fitting)
                ons = h.layout.fits(tile)
                on = rng.choice(ons)
            claim: int | None = None
            muggins: str | None = None
            # the sniff is set across or in line (or left to the default, across)
            sniff = rng.choice(("across", "inline", None)) if h.layout.sets_sniff(tile) else None
            if claim_rate and rng.random() < claim_rate:
                _, worth = m.preview(tile, on, sniff or "across")
                roll = rng.random()
                if roll < 0.6:
                    claim = worth
                elif roll < 0.8 or worth == 0:
                    claim = worth + rng.choice((5, 10)) // r.scale
                else:
                    claim = rng.randrange(0, worth)
                    if r.claims == "muggins":
                        side = setup.side_of[p]
                        opponents = [n for i, n in enumerate(names) if setup.side_of[i] != side]
                        muggins = rng.choice(opponents)
            write_on = on if (on is not None and (len(h.layout.fits(tile)) > 1 or rng.random() < 0.7)) else None
            played = Play(tile, write_on, drew, claim, muggins, None, sniff)
            m.push(played)
            mine.remove(tile)
            hand_out["turns"].append(event_entry(played))
        if m.over:
            break
        # remaining: required where the pips are settled; else (the go, or nothing) given or not
        if r.settles_pips or rng.random() < 0.5:
            remaining: list[tuple[str, tuple[Tile, ...] | int]] = []
            for i, name in enumerate(names):
                if held[i]:
                    if rng.random() < 0.3:
                        remaining.append((name, sum(t.pips for t in held[i])))
                    else:
                        remaining.append((name, tuple(held[i])))
            settle = Settle(tuple(remaining))
            m.push(settle)
            hand_out["remaining"] = {n: ([str(t) for t in v] if isinstance(v, tuple) else v) for n, v in remaining}
        if r.next_leader == "left":  # the lead passes to the left, whatever the end
            leader = None if rng.random() < 0.5 else names[(h.leader + 1) % players]
        elif h.domino_player is not None:  # the hand ended in a domino
            leader = None if rng.random() < 0.5 else names[h.domino_player]
        else:
            leader = rng.choice(names)
    record["hands"] = hands_out
    return record
