"""Standings worked out by hand for small events, the tie-breaks, and a league's presets."""

from __future__ import annotations

import pytest

from scorekeeper.events import new_event, result_for, standings, tie_breaks
from scorekeeper.events.sheets import sheet_of

FOUR = ["Ann", "Ben", "Cy", "Di"]


def play(event, rnd, a, b, score_a, score_b):
    """The result of the table of round ``rnd`` where ``a`` plays ``b``."""
    for t in event.rounds[rnd - 1].tables:
        if set(t.players) == {a, b}:
            return result_for(event, rnd, t.number, [(a,), (b,)], (score_a, score_b), 0 if score_a > score_b else 1)
    raise AssertionError(f"{a} and {b} do not meet in round {rnd}")


def table(rows):
    return [(r.rank, r.name, r.played, r.won, r.lost, r.points_for, r.points_against, r.score) for r in rows]


def test_a_small_round_robin_worked_by_hand():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    results = [
        play(e, 1, "Ann", "Di", 61, 40),
        play(e, 1, "Ben", "Cy", 30, 61),
        play(e, 2, "Cy", "Di", 55, 61),
        play(e, 2, "Ann", "Ben", 50, 61),
        play(e, 3, "Ben", "Di", 61, 20),
        play(e, 3, "Ann", "Cy", 61, 60),
    ]
    # Ann: won 2, 61+50+61 = 172 for, 40+61+60 = 161 against (+11)
    # Ben: won 2, 30+61+61 = 152 for, 61+50+20 = 131 against (+21): ahead of Ann on difference
    # Cy: won 1, 61+55+60 = 176 for, 30+61+61 = 152 against (+24); Di: won 1, 121 for, 177 against
    assert table(standings(e, results)) == [
        (1, "Ben", 3, 2, 1, 152, 131, 2),
        (2, "Ann", 3, 2, 1, 172, 161, 2),
        (3, "Cy", 3, 1, 2, 176, 152, 1),
        (4, "Di", 3, 1, 2, 121, 177, 1),
    ]


def test_head_to_head_breaks_a_tie_of_score_and_difference():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    results = [
        play(e, 1, "Ann", "Di", 61, 50),  # Ann +11
        play(e, 1, "Ben", "Cy", 61, 60),  # Ben +1
        play(e, 2, "Cy", "Di", 61, 0),
        play(e, 2, "Ann", "Ben", 61, 60),  # Ann beat Ben
        play(e, 3, "Ben", "Di", 61, 60),
        play(e, 3, "Ann", "Cy", 50, 61),  # Ann -11
    ]
    rows = standings(e, results)
    # Cy 2 wins +71; Ann and Ben 2 wins, +1 each: Ann beat Ben
    assert [(r.rank, r.name, r.score, r.difference, r.decided_by) for r in rows] == [
        (1, "Cy", 2, 71, ""),
        (2, "Ann", 2, 1, "points difference"),
        (3, "Ben", 2, 1, "head to head"),  # what put Ben below Ann: the tie-break, named
        (4, "Di", 0, -73, "score"),
    ]
    assert tie_breaks(e).startswith("Ranked by score, then points difference (for minus against), then head to head")


def test_players_level_after_every_tie_break_share_the_rank():
    e = new_event("rr", "Three", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
    results = [play(e, 1, "Ann", "Ben", 61, 51), play(e, 2, "Ben", "Cy", 61, 51), play(e, 3, "Cy", "Ann", 61, 51)]
    assert [(r.rank, r.name, r.decided_by) for r in standings(e, results)] == [
        (1, "Ann", ""),
        (1, "Ben", "level"),
        (1, "Cy", "level"),
    ]


def test_no_result_yet_is_everyone_level():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    assert table(standings(e, [])) == [(1, n, 0, 0, 0, 0, 0, 0) for n in FOUR]


def test_the_last_result_of_a_table_counts():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    first, again = play(e, 1, "Ann", "Di", 61, 40), play(e, 1, "Ann", "Di", 30, 61)
    rows = {r.name: r for r in standings(e, [first, again])}
    assert (rows["Ann"].played, rows["Ann"].won, rows["Di"].won) == (1, 0, 1)


def test_a_match_between_players_not_drawn_together_does_not_count():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    # round 1, table 1 is Ann v Di: a match of Ann and Ben there does not count
    assert result_for(e, 1, 1, [("Ann",), ("Ben",)], (61, 0), 0) is None
    assert result_for(e, 1, 1, [("Ann",), ("Di", "Cy")], (61, 0), 0) is None
    assert result_for(e, 9, 1, [("Ann",), ("Di",)], (61, 0), 0) is None
    assert result_for(e, 1, 7, [("Ann",), ("Di",)], (61, 0), 0) is None
    # the sides in the other order, or other spellings of the names, are the same table
    r = result_for(e, 1, 1, [("di ",), ("ANN",)], (40, 61), 1)
    assert r is not None and r.scores == (61, 40) and r.winner == 0


def test_a_swiss_bye_is_a_match_won_in_the_score_a_round_robin_bye_is_nothing():
    sw = new_event("sw", "Swiss", "swiss", "all-fives", players=["Ann", "Ben", "Cy"], rounds=2)
    bye = sw.rounds[0].byes[0]
    rows = {r.name: r for r in standings(sw, [])}
    assert (rows[bye].score, rows[bye].played) == (1, 0)
    rr = new_event("rr", "RR", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
    assert all(r.score == 0 for r in standings(rr, []))


def league(scoring, games_home):
    """Reds v Blues, one fixture of 9 singles, Reds winning ``games_home`` of them."""
    e = new_event(
        "lg",
        "League",
        "league",
        "all-fives",
        teams={"Reds": ["Ann", "Ben", "Cy"], "Blues": ["Di", "Ed", "Flo"]},
        singles=9,
        legs=1,
        scoring=scoring,
    )
    results = []
    for n in e.rounds[0].fixtures[0].tables:
        t = e.rounds[0].tables[n - 1]
        home_wins = n <= games_home
        results.append(result_for(e, 1, n, t.sides, (61, 40) if home_wins else (40, 61), 0 if home_wins else 1))
    return e, results


def test_league_two_a_match_won_and_one_a_game_won():
    e, results = league("league-2-1", games_home=4)
    rows = {r.name: r for r in standings(e, results)}
    # Blues win 5-4: 2 for the fixture + 5 games = 7; Reds 4 games = 4
    assert (rows["Blues"].score, rows["Reds"].score) == (7, 4)
    assert (rows["Blues"].won, rows["Reds"].lost, rows["Blues"].games_for, rows["Reds"].games_for) == (1, 1, 5, 4)
    assert rows["Blues"].points_for == 5 * 61 + 4 * 40 and rows["Reds"].points_for == 4 * 61 + 5 * 40


def test_league_three_a_win_and_one_for_a_five_four_loss():
    e, results = league("league-3-1", games_home=4)
    rows = {r.name: r for r in standings(e, results)}
    assert (rows["Blues"].score, rows["Reds"].score) == (3, 1)
    e, results = league("league-3-1", games_home=3)  # a 6-3 loss: nothing
    rows = {r.name: r for r in standings(e, results)}
    assert (rows["Blues"].score, rows["Reds"].score) == (3, 0)


def test_a_fixture_counts_its_games_as_they_are_won_and_its_points_once_complete():
    e, results = league("league-2-1", games_home=9)
    rows = {r.name: r for r in standings(e, results[:3])}
    assert (rows["Reds"].score, rows["Reds"].played) == (3, 0)
    rows = {r.name: r for r in standings(e, results)}
    assert (rows["Reds"].score, rows["Reds"].played, rows["Reds"].won) == (11, 1, 1)


def test_the_result_sheet_of_a_fixture():
    e, results = league("league-3-1", games_home=4)
    sheet = sheet_of(e, 1, 1, results[:8])
    assert not sheet.complete and sheet.games_won == (4, 4)
    sheet = sheet_of(e, 1, 1, results)
    assert sheet.complete and sheet.games_won == (4, 5) and sheet.league_points == (1, 3)
    assert sheet.points == (4 * 61 + 5 * 40, 4 * 40 + 5 * 61)
    text = sheet.text()
    assert "Reds (home) v Blues (away)" in text and "league points: Reds 1, Blues 3" in text
    assert "Reds: not confirmed yet" in text
    rows = sheet.csv().split("\r\n")
    assert rows[0].startswith("event,round,fixture,game,table,home,away")
    assert len(rows) == 1 + 9 + 3 + 2 + 1


@pytest.mark.parametrize("name", ["=SUM(A1)", "+1", "-x", "@me"])
def test_a_sheet_cell_is_never_a_formula(name):
    e = new_event("lg", name, "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]}, singles=1, legs=1)
    assert sheet_of(e, 1, 1, []).csv().split("\r\n")[1].startswith("'")
