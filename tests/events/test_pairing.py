"""Who plays whom: round robins, Swiss rounds, knockouts and league fixtures.

Round robins against Berger's tables and the rules of a round robin (every pair once,
nobody twice in a round, one bye each when odd); the Swiss pairing against what the
matching library guarantees (every player paired once: a perfect matching) and against
our rules, checked by trying every pairing of small fields (no rematch while a pairing
without one exists; the bye to the lowest ranked who has had none); the knockout
bracket; league fixtures home and away; team sheets."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.errors import EventError
from scorekeeper.events import new_event, next_round, result_for
from scorekeeper.events.pairing import knockout_order, round_robin, swiss, team_sheet

NAMES = [f"P{i:02d}" for i in range(1, 21)]


# ------------------------------------------------------------ round robin
def test_four_players_follow_the_fide_berger_table():
    # FIDE Handbook C.05, 4 players: round 1: 1-4 2-3; round 2: 4-3 1-2; round 3: 2-4 3-1
    # (who is named first, White there, is kept; the library numbers the tables its own way)
    rounds = [set(r) for r in round_robin(["1", "2", "3", "4"])]
    assert rounds == [{("1", "4"), ("2", "3")}, {("4", "3"), ("1", "2")}, {("2", "4"), ("3", "1")}]


@pytest.mark.parametrize("n", range(4, 13))
def test_a_round_robin_of_n_players(n):
    players = NAMES[:n]
    event = new_event("rr", "RR", "round-robin", "all-fives", players=players)
    assert len(event.rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = []
    byes = []
    for r in event.rounds:
        seen = [p for t in r.tables for p in t.players] + list(r.byes)
        assert sorted(seen) == sorted(players), f"round {r.number}: somebody twice or missing"
        assert len(r.byes) == n % 2
        byes.extend(r.byes)
        pairs.extend(frozenset(t.players) for t in r.tables)
        assert [t.number for t in r.tables] == list(range(1, len(r.tables) + 1))
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2, "every pair once"
    if n % 2:
        assert sorted(byes) == sorted(players), "one bye each"


def test_the_last_listed_sits_out_round_one_and_tables_keep_the_order_given():
    event = new_event("rr", "RR", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
    first = event.rounds[0]
    assert [t.players for t in first.tables] == [("Ann", "Ben")] and first.byes == ("Cy",)


def test_a_double_round_robin_swaps_home_and_away():
    rounds = round_robin(["A", "B", "C", "D"], legs=2)
    assert len(rounds) == 6
    assert {p for r in rounds for p in r} == {(a, b) for a in "ABCD" for b in "ABCD" if a != b}


# ------------------------------------------------------------ Swiss
def all_pairings(items):
    """Every way to pair up ``items`` (an even number of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def best_possible(ranked, met, had_bye):
    """By trying every pairing: the fewest rematches (a second bye is one), and with that
    the lowest rank the bye can go to (its index; None when even)."""
    items = list(ranked) + (["BYE"] if len(ranked) % 2 else [])
    best = None
    for pairing in all_pairings(items):
        rematches = 0
        bye_at = None
        for a, b in pairing:
            if "BYE" in (a, b):
                who = a if b == "BYE" else b
                rematches += who in had_bye
                bye_at = ranked.index(who)
            else:
                rematches += frozenset((a, b)) in met
        key = (rematches, -(bye_at or 0))
        if best is None or key < best:
            best = key
    return best[0], (None if len(ranked) % 2 == 0 else -best[1])


def play_swiss(n, rounds, rng):
    """A Swiss of ``n`` players over ``rounds`` rounds, random winners; each round is
    checked against every pairing that was possible."""
    ranked = NAMES[:n]
    met: set[frozenset[str]] = set()
    had: set[str] = set()
    score = dict.fromkeys(ranked, 0)
    for _ in range(rounds):
        pairs, bye = swiss(ranked, met, had)
        # the library's guarantee: a perfect matching (everyone once; a bye only when odd)
        seated = [p for pair in pairs for p in pair] + ([bye] if bye else [])
        assert sorted(seated) == sorted(ranked)
        assert (bye is None) == (n % 2 == 0)
        # ours: as few rematches as any pairing has (none while one exists), then the lowest bye
        rematches = sum(frozenset(p) in met for p in pairs) + (bye in had if bye else 0)
        fewest, lowest = best_possible(ranked, met, had)
        assert rematches == fewest
        if bye is not None:
            assert ranked.index(bye) == lowest
        for a, b in pairs:
            met.add(frozenset((a, b)))
            score[rng.choice((a, b))] += 1
        if bye:
            had.add(bye)
            score[bye] += 1
        ranked = sorted(ranked, key=lambda p: -score[p])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 10**6), data=st.data())
def test_swiss_rounds_are_the_best_pairing_there_is(n, seed, data):
    most = n - 1 if n % 2 == 0 else n
    play_swiss(n, data.draw(st.integers(1, most), label="rounds"), random.Random(seed))


def test_swiss_pairs_neighbours_in_rank_when_nothing_stands_in_the_way():
    pairs, bye = swiss(NAMES[:8], set(), set())
    assert pairs == [(NAMES[0], NAMES[1]), (NAMES[2], NAMES[3]), (NAMES[4], NAMES[5]), (NAMES[6], NAMES[7])]
    assert bye is None


def test_swiss_falls_back_to_the_whole_field_when_the_near_ones_are_all_met():
    ranked = NAMES[:20]
    # the top player has met the 8 below it: its opponent must come from further down
    met = {frozenset((ranked[0], ranked[i])) for i in range(1, 9)}
    pairs, _ = swiss(ranked, met, set())
    assert all(frozenset(p) not in met for p in pairs)


def test_a_rematch_only_when_nothing_else_is_possible():
    # three players, three rounds played: everyone has met everyone and had a bye
    ranked = ["A", "B", "C"]
    met = {frozenset(p) for p in itertools.combinations(ranked, 2)}
    pairs, bye = swiss(ranked, met, set(ranked))
    assert len(pairs) == 1 and bye == "C"


def test_a_swiss_event_draws_each_round_from_the_standings():
    event = new_event("sw", "Swiss", "swiss", "all-fives", players=NAMES[:6], rounds=3)
    assert len(event.rounds) == 1
    results = [result_for(event, 1, t.number, t.sides, (5, 0), 0) for t in event.rounds[0].tables]
    event = next_round(event, results)
    winners = {t.sides[0][0] for t in event.rounds[0].tables}
    # round 2: the winners meet each other first
    assert set(event.rounds[1].tables[0].players) <= winners


# ------------------------------------------------------------ knockout
@pytest.mark.parametrize("n", [2, 3, 5, 6, 8, 11, 16])
def test_a_knockout_runs_to_one_winner(n):
    event = new_event("ko", "KO", "knockout", "all-fives", players=NAMES[:n])
    size = 1 << (n - 1).bit_length()
    first = event.rounds[0]
    assert len(first.byes) == size - n
    assert set(first.byes) == set(NAMES[: size - n]), "the top seeds have the byes"
    rng = random.Random(n)
    results = []
    while True:
        rnd = event.rounds[-1]
        for t in rnd.tables:
            results.append(
                result_for(event, rnd.number, t.number, t.sides, (5, 0) if rng.random() < 0.5 else (0, 5), None)
            )
            w = 0 if results[-1].scores[0] else 1
            results[-1] = result_for(event, rnd.number, t.number, t.sides, results[-1].scores, w)
        if len(rnd.tables) + len(rnd.byes) == 1:
            break
        event = next_round(event, results)
        assert len(event.rounds[-1].tables) == (len(rnd.tables) + len(rnd.byes)) // 2
    assert len(event.rounds) == size.bit_length() - 1
    with pytest.raises(EventError, match="is over"):
        next_round(event, results)


def test_the_bracket_keeps_the_top_two_seeds_apart_until_the_final():
    order = knockout_order(16)
    assert order[0] == (1, 16) and order[4] == (2, 15)
    top_half = {s for pair in order[:4] for s in pair}
    assert 1 in top_half and 2 not in top_half


# ------------------------------------------------------------ leagues
@pytest.mark.parametrize("teams", [2, 3, 4, 7])
def test_league_fixtures_home_and_away(teams):
    names = [f"T{i}" for i in range(teams)]
    event = new_event(
        "lg", "League", "league", "all-fives", teams={t: [f"{t}a", f"{t}b", f"{t}c"] for t in names}, singles=9
    )
    fixtures = [(f.home, f.away) for r in event.rounds for f in r.fixtures]
    assert sorted(fixtures) == sorted((a, b) for a in names for b in names if a != b), "home and away, once each"
    for r in event.rounds:
        playing = [t for f in r.fixtures for t in (f.home, f.away)] + list(r.byes)
        assert sorted(playing) == sorted(names), "each team once a round"
        for f in r.fixtures:
            assert len(f.tables) == 9
            for n in f.tables:
                t = r.tables[n - 1]
                assert event.team_of(t.sides[0][0]).name == f.home and event.team_of(t.sides[1][0]).name == f.away


def test_a_league_of_one_leg_meets_once():
    event = new_event("lg", "L", "league", "all-fives", teams={"A": ["a"], "B": ["b"], "C": ["c"]}, singles=1, legs=1)
    pairs = [frozenset((f.home, f.away)) for r in event.rounds for f in r.fixtures]
    assert len(pairs) == len(set(pairs)) == 3


def test_a_team_sheet_of_three_a_side_and_nine_games_is_a_full_cross():
    games = team_sheet(["A1", "A2", "A3"], ["B1", "B2", "B3"], 9, 0, "seed")
    assert {(h[0], a[0]) for h, a in games} == {(h, a) for h in ("A1", "A2", "A3") for a in ("B1", "B2", "B3")}
    assert team_sheet(["A1", "A2", "A3"], ["B1", "B2", "B3"], 9, 0, "seed") == games, "the same draw again"


@pytest.mark.parametrize("seed", ["x", "y", "club/1/Reds/Blues"])
def test_doubles_seat_every_player_once_when_the_teams_are_full(seed):
    home = [f"A{i}" for i in range(8)]
    away = [f"B{i}" for i in range(8)]
    games = team_sheet(home, away, 0, 4, seed)
    for h, a in games:
        assert len(set(h)) == 2 and len(set(a)) == 2
    assert sorted(p for h, _ in games for p in h) == sorted(home), "each home player at one table"
    assert sorted(p for _, a in games for p in a) == sorted(away), "each away player at one table"


def test_a_sixteen_player_club_night_on_four_tables():
    teams = {"Reds": [f"R{i}" for i in range(8)], "Blues": [f"B{i}" for i in range(8)]}
    event = new_event("club", "Club night", "league", "all-fives", teams=teams, singles=0, doubles=4, legs=1)
    tables = event.rounds[0].tables
    assert len(tables) == 4
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(teams["Reds"] + teams["Blues"]), "sixteen players, each at one table"
