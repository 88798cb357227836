"""Events: pairing a round and the standings after each result, against a plain recount.

    python -m benchmarks.events [--seed N] [--store]

**season** -- a league of 20 teams of three, home and away (38 rounds, 380 fixtures of
9 singles: 3,420 games). The games' results come in one by one, in order, with random
winners and scores; after each one the standings are worked out two ways in the same
run, each from all the results so far:

* **ours**: :func:`scorekeeper.events.standings` (the fold the app and the command line
  use: every table of every fixture looked at, the league's points, the tie-breaks);
* **recount** (the baseline): the plainest count there is -- a loop over the results
  adding each game to its two teams, the fixtures' points once their nine games are in,
  a sort by score (no check that a result belongs to its table, no head to head).

Both must give the same points, games and score for every team at every step.

**swiss** -- a Swiss of 64 players over 6 rounds, random winners: each round is paired
two ways (**ours**: the matching over the near ranks first, the whole field only when
needed; **whole field**: the matching over all 2,016 pairs every time -- the same
result, the plain way), and the standings after each of the 192 results ours and
recounted.

**store** (with ``--store``): the season's 3,420 matches stored in a database with
their ``"event"``, then the standings from the database as ``scorekeeper event
standings`` works them out (the index, each match's record read once), once cold and
once with the records already seen.

Goal: a pairing and a standings under 0.5 s each. It prints the median, 95th percentile
and largest milliseconds of each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from functools import partial

from scorekeeper.events import Event, Result, new_event, pairing, result_for, standings


def whole_field(ranked: list[str], met: set[frozenset[str]], had: set[str]) -> tuple[list[tuple[str, str]], str | None]:
    """The baseline: the same Swiss weighing over the whole field, every pair an edge (what
    ``pairing.swiss`` falls back to when the near graph will not do), its ``NEAR`` set to
    the field's size for the call."""
    kept = pairing.NEAR
    pairing.NEAR = len(ranked)
    try:
        return pairing.swiss(ranked, met, had)
    finally:
        pairing.NEAR = kept


def figures(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"{name}: n {len(ms)} median {statistics.median(ms):.2f} p95 {p95:.2f} max {ms[-1]:.2f} ms"


def recount_league(event: Event, results: list[Result]) -> dict[str, tuple[int, int, int]]:
    """The baseline: each team's (score, games won, points for), counted the plainest way."""
    s = event.scoring
    score = {t.name: 0 for t in event.teams}
    games = {t.name: 0 for t in event.teams}
    points = {t.name: 0 for t in event.teams}
    per_fixture: dict[tuple[int, int], list[int]] = {}
    for r in results:
        rnd = event.rounds[r.round - 1]
        t = rnd.tables[r.table - 1]
        f = rnd.fixtures[t.fixture - 1]  # type: ignore[operator]
        for i, team in enumerate((f.home, f.away)):
            points[team] += r.scores[i]
        if r.winner is not None:
            team = (f.home, f.away)[r.winner]
            games[team] += 1
            score[team] += s.game
        won = per_fixture.setdefault((r.round, f.number), [0, 0, 0])
        won[2] += 1
        if r.winner is not None:
            won[r.winner] += 1
        if won[2] == len(f.tables):
            for i, team in enumerate((f.home, f.away)):
                mine, theirs = won[i], won[1 - i]
                if mine > theirs:
                    score[team] += s.won
                elif mine == theirs:
                    score[team] += s.drawn
                else:
                    score[team] += s.close_loss if theirs - mine == 1 else s.lost
    order = sorted(score, key=lambda n: -score[n])
    return {n: (score[n], games[n], points[n]) for n in order}


def recount_singles(event: Event, results: list[Result]) -> dict[str, tuple[int, int, int]]:
    """The baseline for players: (score, won, points for), byes worth a win."""
    score = dict.fromkeys(event.players, 0)
    won = dict.fromkeys(event.players, 0)
    points = dict.fromkeys(event.players, 0)
    for rnd in event.rounds:
        for p in rnd.byes:
            score[p] += event.scoring.won
    for r in results:
        t = event.rounds[r.round - 1].tables[r.table - 1]
        for i in (0, 1):
            points[t.sides[i][0]] += r.scores[i]
        if r.winner is not None:
            w = t.sides[r.winner][0]
            won[w] += 1
            score[w] += event.scoring.won
    order = sorted(score, key=lambda n: -score[n])
    return {n: (score[n], won[n], points[n]) for n in order}


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t) * 1000


def random_result(event: Event, rnd: int, table: int, rng: random.Random) -> Result:
    t = event.rounds[rnd - 1].tables[table - 1]
    w = rng.randrange(2)
    loser = rng.randrange(0, 61)
    scores = (61, loser) if w == 0 else (loser, 61)
    r = result_for(event, rnd, table, t.sides, scores, w)
    assert r is not None
    return r


def season(rng: random.Random) -> tuple[Event, list[Result]]:
    teams = {f"Team {i:02d}": [f"T{i:02d} {c}" for c in "abc"] for i in range(20)}
    event, ms = timed(lambda: new_event("season", "Season", "league", "all-fives", teams=teams, singles=9, legs=2))
    fixtures = sum(len(r.fixtures) for r in event.rounds)
    games = sum(len(r.tables) for r in event.rounds)
    print(f"season: 20 teams, {len(event.rounds)} rounds, {fixtures} fixtures, {games} games; drawn in {ms:.0f} ms")
    results: list[Result] = []
    ours: list[float] = []
    base: list[float] = []
    for rnd in event.rounds:
        for t in rnd.tables:
            results.append(random_result(event, rnd.number, t.number, rng))
            rows, a = timed(partial(standings, event, results))
            want, b = timed(partial(recount_league, event, results))
            ours.append(a)
            base.append(b)
            got = {r.name: (r.score, r.games_for, r.points_for) for r in rows}
            if got != want:
                raise SystemExit(f"the standings and the recount differ after {len(results)} results")
    print("  " + figures("standings, ours", ours))
    print("  " + figures("standings, recount", base))
    return event, results


def swiss(rng: random.Random) -> None:
    players = [f"P{i:02d}" for i in range(64)]
    event = new_event("swiss", "Swiss", "swiss", "all-fives", players=players, rounds=6)
    pair_ours: list[float] = []
    pair_whole: list[float] = []
    ours: list[float] = []
    base: list[float] = []
    results: list[Result] = []
    from scorekeeper.events import next_round

    for number in range(1, 7):
        if number > 1:
            ranked = [s.name for s in standings(event, results)]
            met = {frozenset((t.sides[0][0], t.sides[1][0])) for r in event.rounds for t in r.tables}
            had = {p for r in event.rounds for p in r.byes}
            (pairs, bye), a = timed(partial(pairing.swiss, ranked, met, had))
            (whole, _), b = timed(partial(whole_field, ranked, met, had))
            if sorted(pairs) != sorted(whole):
                print(f"  round {number}: the near graph's pairs differ from the whole field's (same rules kept)")
            pair_ours.append(a)
            pair_whole.append(b)
            event = next_round(event, results)
        for t in event.rounds[-1].tables:
            results.append(random_result(event, number, t.number, rng))
            rows, a = timed(partial(standings, event, results))
            want, b = timed(partial(recount_singles, event, results))
            ours.append(a)
            base.append(b)
            if {r.name: (r.score, r.won, r.points_for) for r in rows} != want:
                raise SystemExit(f"the Swiss standings and the recount differ after {len(results)} results")
    rematches = len({frozenset(t.players) for r in event.rounds for t in r.tables})
    print(f"swiss: 64 players, 6 rounds, {len(results)} results, {192 - rematches} rematches")
    print("  " + figures("pairing a round, ours (near ranks first)", pair_ours))
    print("  " + figures("pairing a round, whole field", pair_whole))
    print("  " + figures("standings, ours", ours))
    print("  " + figures("standings, recount", base))


def store_part(event: Event, results: list[Result], rng: random.Random) -> None:
    from scorekeeper.eventbook import EventBook
    from scorekeeper.store import Store

    with tempfile.TemporaryDirectory() as d, Store(d) as store:
        book = EventBook(store)
        book.add(event)
        records = []
        for r in results:
            t = event.table(r.round, r.table)
            record = event.record_for(r.round, r.table)
            record["rules"] = {"target": 5}
            record["hands"] = [{"leader": t.sides[r.winner or 0][0], "turns": [{"play": "5-0"}]}]
            records.append(record)
        _, ms = timed(lambda: store.bulk_import(records))
        print(f"store: {len(records)} matches stored in {ms / 1000:.1f} s")
        fresh = EventBook(store)
        rows, cold = timed(lambda: fresh.standings(event.id))
        rows, warm = timed(lambda: fresh.standings(event.id))
        print(f"  standings from the database: cold {cold:.0f} ms, records seen {warm:.0f} ms ({len(rows)} teams)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=30)
    p.add_argument("--store", action="store_true", help="also the season from a database")
    args = p.parse_args()
    rng = random.Random(args.seed)
    event, results = season(rng)
    swiss(rng)
    if args.store:
        store_part(event, results, rng)


if __name__ == "__main__":
    main()
