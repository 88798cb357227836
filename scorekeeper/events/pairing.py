"""Who plays whom: round robins, Swiss rounds, knockout brackets and team sheets.

- **Round robin** (and a league's fixtures between teams): the FIDE Berger tables of the
  ``caissify-pairings`` library (``round_robin`` engine), a phantom entrant making the
  bye of each round when the number is odd; two legs play the tables again with home and
  away swapped.
- **Swiss**: a maximum-weight perfect matching (``networkx``) of the entrants ranked by the
  standings, the bye a phantom entrant: first no rematch (a second bye is a rematch with
  the phantom) while any pairing without one exists; then the bye to the lowest ranked
  who has not had one; then opponents as near in rank as can be.
- **Knockout**: the usual bracket (1 v 16, 8 v 9 ...), the top seeds' byes in round 1.
- **Team sheets**: the games of a league fixture, home players against away players, in
  an order drawn for that fixture (a seeded shuffle: the same event draws the same sheet).

>>> round_robin(["Ann", "Ben", "Cy"])[0]
[('Ann', None), ('Ben', 'Cy')]
>>> swiss(["Ann", "Ben", "Cy", "Di"], met={frozenset(("Ann", "Ben"))}, had_bye=set())
([('Ann', 'Cy'), ('Ben', 'Di')], None)
>>> knockout_order(6)
[(1, None), (4, 5), (2, None), (3, 6)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from scorekeeper.errors import EventError

# The pairing libraries (caissify-pairings, networkx: hundreds of modules) are imported where a
# round is drawn, not with the events: the app, its command line and the phone's site start
# without them, and a phone that never draws a round never loads them.

Pair = tuple[str, str | None]

#: How near in rank the Swiss pairing looks first (each side): a field pairs in a small
#: graph in almost every round; only when that leaves a rematch or the wrong bye is the
#: whole field weighed.
NEAR = 8


# ---------------------------------------------------------------- round robin
def round_robin(entrants: Sequence[str], legs: int = 1) -> list[list[Pair]]:
    """Every round of a round robin of ``entrants`` (in the order given: Berger's pairing
    numbers): each round's pairs, first named first (in a league, at home), a bye as
    ``(name, None)`` at the round's start. ``legs`` 2: the rounds again, sides swapped."""
    n = len(entrants)
    if n < 2:
        raise EventError(f"a round robin needs at least 2 entrants, not {n}")
    players = [
        {
            "id": i + 1,
            "name": str(i + 1),
            "score": 0.0,
            "rating": 0,
            "starting_number": i + 1,
            "color_hist": [],
            "float_history": [],
            "bye_count": 0,
        }
        for i in range(n)
    ]
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    per_cycle = n - 1 if n % 2 == 0 else n
    out: list[list[Pair]] = []
    for r in range(1, per_cycle * legs + 1):
        rows = generate_pairings(
            system="round_robin",
            players=players,
            previous_pairings=set(),
            round_number=r,
            total_rounds=per_cycle * legs,
            cycles=legs,
        )
        byes: list[Pair] = []
        pairs: list[Pair] = []
        for row in rows:
            first = entrants[row["white_id"] - 1]
            if row.get("black_id") is None:
                byes.append((first, None))
            else:
                pairs.append((first, entrants[row["black_id"] - 1]))
        out.append(byes + pairs)
    return out


# ---------------------------------------------------------------- Swiss
def swiss(
    ranked: Sequence[str], met: Collection[frozenset[str]], had_bye: Collection[str]
) -> tuple[list[tuple[str, str]], str | None]:
    """The pairs of a Swiss round of ``ranked`` (best first) and who has the bye (None
    when the number is even). ``met``: the pairs drawn in earlier rounds; ``had_bye``:
    who had a bye. See the module for what is weighed, in order."""
    n = len(ranked)
    if n < 2:
        raise EventError(f"a Swiss round needs at least 2 players, not {n}")
    bye = n if n % 2 else None
    for near in (NEAR, n):
        mate = _matching(ranked, met, had_bye, near)
        if mate is None:
            continue
        pairs = [(ranked[i], ranked[j]) for i, j in sorted(mate.items()) if i < j and j != bye]
        byed = None if bye is None else ranked[mate[bye]]
        if near < n:
            clean = all(frozenset(p) not in met for p in pairs)
            eligible = [p for p in ranked if p not in had_bye]
            if not clean or (byed is not None and eligible and byed != eligible[-1]):
                continue  # maybe the whole field does better: weigh it all
        return pairs, byed
    raise AssertionError("a complete graph always has a perfect matching")  # pragma: no cover


def _matching(
    ranked: Sequence[str], met: Collection[frozenset[str]], had_bye: Collection[str], near: int
) -> dict[int, int] | None:
    """The best perfect matching of the entrants' graph (entrant ``i`` is node ``i``, the
    bye node ``n``), with the pairs of entrants at most ``near`` apart in rank (all of them
    when ``near`` is the field: rematches too); None when that graph has none."""
    n = len(ranked)
    whole = near >= n
    closeness = n**3 + 1  # more than any matching's total of squared rank distances
    bye_tier = closeness * (n + 1)  # more than any bye's place cost plus closeness
    rematch = bye_tier * (n + 1)  # more than everything below it
    top = rematch * (n + 2)
    import networkx as nx  # type: ignore[import-untyped]

    g = nx.Graph()
    g.add_nodes_from(range(n + (n % 2)))
    for i in range(n):
        for j in range(i + 1, min(n, i + near + 1)):
            again = frozenset((ranked[i], ranked[j])) in met
            if again and not whole:
                continue
            g.add_edge(i, j, weight=top - (rematch if again else 0) - (j - i) ** 2)
        if n % 2:
            again = ranked[i] in had_bye
            if again and not whole:
                continue
            g.add_edge(i, n, weight=top - (rematch if again else 0) - (n - 1 - i) * bye_tier)
    found = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(found) != g.number_of_nodes():
        return None
    mate: dict[int, int] = {}
    for a, b in found:
        mate[a], mate[b] = b, a
    return mate


# ---------------------------------------------------------------- knockout
def knockout_order(n: int) -> list[tuple[int, int | None]]:
    """The first round's bracket for ``n`` seeds: pairs of seeds (1-based) in bracket order,
    ``(seed, None)`` a bye (the top seeds have them when ``n`` is not a power of two)."""
    if n < 2:
        raise EventError(f"a knockout needs at least 2 players, not {n}")
    size = 1
    while size < n:
        size *= 2
    slots = [1]
    while len(slots) < size:
        m = 2 * len(slots) + 1
        slots = [x for s in slots for x in (s, m - s)]
    return [(a, b if b <= n else None) for a, b in zip(slots[::2], slots[1::2], strict=True)]


# ---------------------------------------------------------------- team sheets
def team_sheet(
    home: Sequence[str], away: Sequence[str], singles: int, doubles: int, seed: str
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The games of a fixture: ``singles`` games of one player a side, then ``doubles``
    of two. Each team's players are drawn into an order (``seed`` makes the draw the same
    every time); singles go round both orders so that, with enough games, every home
    player meets every away player once (3 a side, 9 games: a full cross); doubles pair
    the players in the drawn order."""
    if doubles and (len(home) < 2 or len(away) < 2):
        raise EventError("doubles games need at least 2 players in each team")
    rng = random.Random(seed)
    h, a = list(home), list(away)
    rng.shuffle(h)
    rng.shuffle(a)
    games: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for g in range(singles):
        games.append(((h[g % len(h)],), (a[(g + g // len(h)) % len(a)],)))
    for d in range(doubles):
        hp = (h[(2 * d) % len(h)], h[(2 * d + 1) % len(h)])
        ap = (a[(2 * d) % len(a)], a[(2 * d + 1) % len(a)])
        games.append((hp, ap))
    return games
