"""The figures of hand-built match sets: every number written out by hand."""

from __future__ import annotations

import datetime as dt

import pytest

from scorekeeper.stats.cache import MatchFacts
from scorekeeper.stats.facts import match_facts
from scorekeeper.stats.figures import ABANDONED_AFTER, compute
from scorekeeper.stats.names import Names
from tests.stats.matchsets import all_fours, duel, fives_threes, partners, unfinished

NOW = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)


def mf(mid: str, record: dict, updated: dt.datetime | None = None) -> MatchFacts:
    when = (updated or NOW - dt.timedelta(days=30)).isoformat().replace("+00:00", "Z")
    return MatchFacts(mid, record["started"], when, match_facts(record))


def season() -> list[MatchFacts]:
    """Ann beats Ben twice (10-0, 10-5), Ben beats Ann once, then Ann wins again;
    one match of theirs unfinished (yesterday), one abandoned (a month ago)."""
    return [
        mf("m1", duel("Ann", "Ben", "2026-01-05T20:00:00Z")),
        mf("m2", duel("Ann", "Ben", "2026-01-12T20:00:00Z", loser_first=True)),
        mf("m3", duel("Ben", "Ann", "2026-02-02T20:00:00Z")),
        mf("m4", duel("Ann", "Ben", "2026-02-09T20:00:00Z")),
        mf("u1", unfinished("Ben", "Ann", "2026-02-28T20:00:00Z"), updated=NOW - dt.timedelta(hours=3)),
        mf("a1", unfinished("Ann", "Ben", "2026-01-20T20:00:00Z"), updated=NOW - ABANDONED_AFTER - dt.timedelta(1)),
    ]


def test_matches_wins_rate_points_hands_of_each_player():
    stats = compute(season(), Names(), NOW)
    ann, ben = stats.line("Ann", "all-fives"), stats.line("Ben", "all-fives")
    assert ann.matches == ["m1", "m2", "m3", "m4"]
    assert ann.wins == ["m1", "m2", "m4"] and ben.wins == ["m3"]
    assert (ann.win_rate, ben.win_rate) == (0.75, 0.25)
    assert (ann.points, ann.hands, ann.points_per_hand) == (30, 4, 7.5)
    assert (ben.points, ben.hands, ben.points_per_hand) == (15, 4, 3.75)  # 0 + 5 + 10 + 0
    assert ann.unfinished == ["u1"] and ann.abandoned == ["a1"]
    assert stats.counts() == {"finished": 4, "unfinished": 1, "abandoned": 1}


def test_the_longest_winning_streak_and_its_matches():
    stats = compute(season(), Names(), NOW)
    assert stats.line("Ann", "all-fives").longest_streak == ["m1", "m2"]
    assert stats.line("Ben", "all-fives").longest_streak == ["m3"]


def test_counters_best_play_and_the_matches_behind_them():
    stats = compute(season(), Names(), NOW)
    ann = stats.line("Ann", "all-fives")
    assert ann.counters["own"] == 30 and ann.counters["plays"] == 3
    assert ann.counter_matches["own"] == ["m1", "m2", "m4"]
    assert ann.best is not None and (ann.best["points"], ann.best["count"], ann.best["match"]) == (10, 10, "m1")
    ben = stats.line("Ben", "all-fives")
    assert ben.counters["own"] == 15  # 5-0 in m2, 5-5 in m3
    assert ben.counters["dominoes"] == 0 and "dominoes" not in ben.counter_matches


def test_head_to_head_and_by_how_much():
    stats = compute(season(), Names(), NOW)
    v = stats.head_to_head(["Ann"], ["Ben"])
    assert v.wins == (3, 1) and v.matches == ["m1", "m2", "m3", "m4"]
    assert v.margin == round((10 + 5 - 10 + 10) / 4, 1)
    assert stats.head_to_head(["Ben"], ["Ann"]).wins == (1, 3)
    ann = stats.line("Ann", "all-fives")
    assert ann.opponents["ben"].wins == (3, 1) and ann.opponents["ben"].margin == 3.8


def test_by_month_is_the_charts_data():
    stats = compute(season(), Names(), NOW)
    assert stats.line("Ann", "all-fives").by_month() == [
        {"month": "2026-01", "matches": 2, "wins": 2},
        {"month": "2026-02", "matches": 2, "wins": 1},
    ]


def test_unfinished_becomes_abandoned_when_left_alone():
    one = [mf("u", unfinished("Ann", "Ben", "2026-02-28T20:00:00Z"), updated=NOW - dt.timedelta(hours=1))]
    assert compute(one, Names(), NOW).line("Ann", "all-fives").unfinished == ["u"]
    later = NOW + ABANDONED_AFTER
    assert compute(one, Names(), later).line("Ann", "all-fives").abandoned == ["u"]


def test_partnerships_are_a_pair_and_partners_and_sides_meet_head_to_head():
    games = [
        mf("p1", partners(("Ann", "Cy"), ("Ben", "Di"), "2026-01-01T20:00:00Z")),
        mf("p2", partners(("Ann", "Cy"), ("Ben", "Di"), "2026-01-02T20:00:00Z")),
        mf("p3", partners(("Ben", "Di"), ("Ann", "Cy"), "2026-01-03T20:00:00Z")),
        mf("p4", partners(("Ann", "Ben"), ("Cy", "Di"), "2026-01-04T20:00:00Z")),
    ]
    stats = compute(games, Names(), NOW)
    pair = stats.pairs[("ann", "cy"), "all-fives"]
    assert pair.name == "Ann & Cy" and pair.matches == ["p1", "p2", "p3"] and pair.wins == ["p1", "p2"]
    assert stats.line("Ann", "all-fives").partners["cy"].wins == (2, 1)
    assert stats.line("Ann", "all-fives").partners["ben"].matches == ["p4"]
    sides = stats.head_to_head(["Ann", "Cy"], ["Ben", "Di"])
    assert sides.wins == (2, 1) and sides.margin == round((10 + 10 - 10) / 3, 1)
    # Ann and Cy were partners in p1-p3 and opponents in p4 only
    assert stats.head_to_head(["Ann"], ["Cy"]).matches == ["p4"]


def test_fives_and_threes_is_its_own_game_with_its_eights():
    stats = compute([mf("f", fives_threes("Ben", "Ann", "2026-01-01T20:00:00Z"))], Names(), NOW)
    ben = stats.line("Ben", "fives-and-threes")
    assert ben.counters["eights"] == 1 and ben.wins == ["f"]
    assert ben.best is not None and (ben.best["points"], ben.best["count"]) == (8, 15)
    with pytest.raises(KeyError):
        stats.line("Ben", "all-fives")


def test_all_fours_hang_jacks_and_all_fours():
    stats = compute([mf("c", all_fours("2026-01-01T20:00:00Z"))], Names(), NOW)
    ben = stats.line("Ben", "all-fours")
    assert ben.counters == {"high": 2, "low": 1, "jacks": 1, "hang_jacks": 1, "all_fours": 1}
    assert ben.wins == ["c"] and ben.points == 7 and ben.hands == 2
    assert stats.line("Ann", "all-fours").counters == {"high": 0, "low": 0, "jacks": 0, "hang_jacks": 0, "all_fours": 0}


def test_names_are_matched_whatever_the_case_and_spaces():
    games = [
        mf("m1", duel("Ann", "Ben", "2026-01-05T20:00:00Z")),
        mf("m2", duel("ann ", "BEN", "2026-01-06T20:00:00Z")),
    ]
    stats = compute(games, Names(), NOW)
    assert stats.line("ANN", "all-fives").wins == ["m1", "m2"]
    assert stats.names["ann"] == "ann"  # the latest spelling is shown


def test_a_merge_adds_two_spellings_up_and_a_split_takes_it_back():
    games = [
        mf("m1", duel("Ann", "Ben", "2026-01-05T20:00:00Z")),
        mf("m2", duel("Annie", "Ben", "2026-01-06T20:00:00Z")),
    ]
    merged = Names().rename("Annie", "Ann")
    stats = compute(games, merged, NOW)
    assert stats.line("Annie", "all-fives").wins == ["m1", "m2"] and stats.names["ann"] == "Ann"
    apart = compute(games, merged.split("Annie"), NOW)
    assert apart.line("Annie", "all-fives").wins == ["m2"] and apart.line("Ann", "all-fives").wins == ["m1"]


def test_a_rename_shows_the_new_name_everywhere():
    games = [mf("m1", partners(("Ann", "Cy"), ("Ben", "Di"), "2026-01-01T20:00:00Z"))]
    stats = compute(games, Names().rename("Cy", "Cyrus"), NOW)
    assert stats.names["cyrus"] == "Cyrus"
    assert stats.pairs[("ann", "cyrus"), "all-fives"].name == "Ann & Cyrus"
    assert stats.to_json(player="Cyrus")["players"][0]["name"] == "Cyrus"


def test_two_spellings_of_one_person_in_one_match_stay_two_players():
    games = [mf("m1", duel("Ann", "ANN", "2026-01-05T20:00:00Z"))]
    stats = compute(games, Names(), NOW)
    rows = stats.to_json()["players"]
    assert sorted((r["name"], r["wins"]) for r in rows) == [("ANN", 0), ("Ann", 1)]


def test_json_has_the_promised_fields():
    data = compute(season(), Names(), NOW).to_json(detail=True)
    assert "opponents" not in compute(season(), Names(), NOW).to_json()["players"][0]
    assert data["matches"] == {"finished": 4, "unfinished": 1, "abandoned": 1}
    first = data["players"][0]
    for k in ("name", "game", "matches", "wins", "points", "hands"):
        assert k in first
    assert (first["name"], first["game"], first["matches"], first["wins"], first["points"], first["hands"]) == (
        "Ann",
        "all-fives",
        4,
        3,
        30,
        4,
    )
    assert first["opponents"] == [{"name": "Ben", "matches": 4, "wins": 3, "losses": 1, "margin": 3.8}]
    assert compute(season(), Names(), NOW).to_json(game="broadway") == {
        "players": [],
        "pairs": [],
        "matches": {"finished": 4, "unfinished": 1, "abandoned": 1},
    }


def test_figures_are_given_back_while_only_an_unfinished_match_moves_on():
    def signed(m: MatchFacts, sig: tuple[int, ...]) -> MatchFacts:
        return MatchFacts(m.id, m.started, m.updated, m.facts, sig)

    base = [signed(m, (i, 1, 1, 1)) for i, m in enumerate(season())]
    first = compute(base, Names(), NOW)
    # the unfinished match u1 gets one more play: its file (and facts) change
    played = unfinished("Ben", "Ann", "2026-02-28T20:00:00Z")
    played["hands"][0]["turns"].append({"play": "5-5", "on": "5-0"})
    moved = [
        signed(mf("u1", played, updated=NOW - dt.timedelta(hours=1)), (99, 2, 2, 2)) if m.id == "u1" else m
        for m in base
    ]
    again = compute(moved, Names(), NOW, previous=first)
    assert again is first
    assert {m.id: m.facts["scores"] for m, _s, _st in again.matches}["u1"] == [5, 10]  # Ben 5, Ann 10
    # a finished match changed, a name merged, or time made u1 abandoned: added up again
    changed = [signed(m, (7, 7, 7, 7)) if m.id == "m1" else m for m in moved]
    assert compute(changed, Names(), NOW, previous=first) is not first
    assert compute(moved, Names().rename("Ben", "Benny"), NOW, previous=first) is not first
    later = compute(moved, Names(), NOW + 2 * ABANDONED_AFTER, previous=first)
    assert later is not first and later.line("Ann", "all-fives").abandoned == ["a1", "u1"]
    # a match without its file's signature is never taken as unchanged
    assert compute(season(), Names(), NOW, previous=compute(season(), Names(), NOW)) is not first
