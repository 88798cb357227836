"""The season's fixtures: properties over many leagues (hypothesis), and the nights."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.league.schedule import Entry, Plan, breaks, clashes, nights, schedule

START = dt.date(2026, 9, 7)


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    """A league of 1 to 3 divisions of 2 to 8 teams, over a few venues, some blackout dates."""
    divisions = {}
    n = 0
    venues = draw(st.integers(1, 8))
    for d in range(draw(st.integers(1, 3))):
        size = draw(st.integers(2, 8))
        divisions[f"D{d}"] = [Entry(f"T{n + i}", f"V{draw(st.integers(0, venues - 1))}") for i in range(size)]
        n += size
    blackouts = frozenset(START + dt.timedelta(days=7 * w) for w in draw(st.sets(st.integers(1, 20), max_size=4)))
    tables = {f"V{v}": draw(st.integers(1, 3)) for v in range(venues) if draw(st.booleans())}
    return Plan(divisions, START, blackouts, tables, draw(st.sampled_from([1, 2])))


@settings(max_examples=40)
@given(plans())
def test_every_pair_meets_once_at_each_home_and_nobody_plays_twice_a_night(plan: Plan):
    s = schedule(plan)
    for name, entries in plan.divisions.items():
        mine = [f for f in s.fixtures if f.division == name]
        met = Counter((f.home, f.away) for f in mine)
        teams = [e.team for e in entries]
        for a in teams:
            for b in teams:
                if a != b:
                    if plan.legs == 2:
                        assert met[(a, b)] == 1
                    else:
                        assert met[(a, b)] + met[(b, a)] == 1
        nightly = Counter((f.day, t) for f in mine for t in (f.home, f.away))
        assert max(nightly.values()) == 1
        # Berger's tables: the fewest breaks a round robin allows (at most 3 a team home and away)
        assert max(breaks(mine, t) for t in teams) <= (3 if plan.legs == 2 else 1)


@settings(max_examples=40)
@given(plans())
def test_the_nights_are_weekly_with_the_blackouts_passed_over_and_the_clashes_all_said(plan: Plan):
    s = schedule(plan)
    days = sorted({f.day for f in s.fixtures})
    assert not set(days) & plan.blackouts
    assert all(d.weekday() == START.weekday() and d >= START for d in days)
    assert {f.week: f.day for f in s.fixtures} == dict(enumerate(nights(START, s.weeks, plan.blackouts), 1))
    assert s.clashes == clashes(s.fixtures, plan)


@settings(max_examples=25)
@given(st.lists(st.sampled_from([4, 6, 8]), min_size=1, max_size=3), st.data())
def test_two_teams_sharing_a_venue_are_never_both_at_home(sizes: list[int], data: st.DataObject):
    # every venue is two teams' (in one division or in two), and holds one fixture a night
    teams = [(d, i) for d, n in enumerate(sizes) for i in range(n)]
    order = data.draw(st.permutations(range(len(teams))))
    venue = {teams[k]: f"V{pos // 2}" for pos, k in enumerate(order)}
    if len(teams) % 2:
        return
    divisions = {f"D{d}": [Entry(f"T{d}-{i}", venue[(d, i)]) for i in range(n)] for d, n in enumerate(sizes)}
    if len(set(sizes)) > 1:
        return  # divisions of different lengths cannot always be parted: reported, not promised
    assert schedule(Plan(divisions, START)).clashes == ()


def test_three_teams_at_a_venue_of_one_table_clash_and_are_said_so():
    plan = Plan({"D": [Entry(f"T{i}", "The Plough" if i < 3 else f"V{i}") for i in range(6)]}, START)
    s = schedule(plan)
    assert s.clashes and "The Plough has 2 home fixtures on Mon" in s.clashes[0].words


def test_the_same_plan_gives_the_same_fixtures():
    plan = Plan({"D": [Entry(f"T{i}", f"V{i // 2}") for i in range(8)]}, START)
    assert schedule(plan) == schedule(plan)
